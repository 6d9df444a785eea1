"""protocol/process/reactor_health.py: the reactor probe (longest pause, collections) and the GC policy."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from twisted.internet import task

from protocol.process.reactor_health import GEN2_AFTER, GcPolicy, ReactorProbe


@pytest.fixture
def restore_gc() -> Iterator[None]:
    saved = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*saved)


def test_the_probe_measures_the_longest_pause_and_the_collections() -> None:
    clock = task.Clock()
    now = [100.0]
    probe = ReactorProbe(clock, 10.0, tick=0.02, now=lambda: now[0])
    probe.start()
    try:
        for _ in range(5):                       # on time: no pause
            now[0] += 0.02
            clock.advance(0.02)
        assert probe.snapshot()["max_pause_ms"] == pytest.approx(0.0, abs=1e-6)
        now[0] += 0.02 + 0.3                     # the reactor did not come back for 300 ms
        clock.advance(0.02)
        now[0] += 0.02
        clock.advance(0.02)
        snap = probe.snapshot()
        assert snap["max_pause_ms"] == pytest.approx(300.0, abs=0.01)
        assert snap["ticks"] == 7
        gc.collect()
        assert probe.snapshot()["collections"] >= 1
        # a new window after report_every seconds; the longest pause ever is kept
        now[0] += 10.0
        clock.advance(0.02)
        assert probe.snapshot()["max_pause_ms"] == 0.0 and probe.snapshot()["ticks"] == 0
        assert probe.max_pause_ever == pytest.approx(10.0 - 0.02 + 0.0, abs=0.01)
    finally:
        probe.stop()
    assert probe._gc not in gc.callbacks


class _Selector:
    """A selector whose `select` waits (on the fake clock `now`) for as long as told."""

    def __init__(self, now: list[float]) -> None:
        self.now = now
        self.timeouts: list[float | None] = []

    def select(self, timeout: float | None = None) -> list[object]:
        self.timeouts.append(timeout)
        self.now[0] += timeout or 0.0
        return []


def test_on_the_asyncio_reactor_the_pause_is_the_stretch_between_two_polls() -> None:
    """The time between the end of one `select` and the start of the next is the work of one
    loop turn: a 25 ms callback is a 25 ms pause, however it falls between the ticks; the
    waiting inside `select` is no pause. `stop` leaves the selector as it was."""
    clock = task.Clock()
    now = [100.0]
    selector = _Selector(now)
    clock._asyncioEventloop = SimpleNamespace(_selector=selector)    # type: ignore[attr-defined]
    probe = ReactorProbe(clock, 10.0, tick=0.02, now=lambda: now[0])
    probe.start()
    try:
        assert probe.polls and probe.snapshot()["pause_by"] == "polls"
        loop_select = selector.select
        for _ in range(3):                          # quiet turns: 1 ms of work, 5 ms waiting
            loop_select(0.005)
            now[0] += 0.001
        loop_select(0.005)
        assert probe.snapshot()["max_pause_ms"] == pytest.approx(1.0, abs=1e-6)
        now[0] += 0.025                             # one long callback
        loop_select(0.0)
        loop_select(0.3)                            # a long wait: no pause
        loop_select(0.0)
        assert probe.snapshot()["max_pause_ms"] == pytest.approx(25.0, abs=1e-6)
        assert probe.max_pause_ever == pytest.approx(0.025, abs=1e-9)
        assert selector.timeouts == [0.005] * 4 + [0.0, 0.3, 0.0]   # its own select ran
    finally:
        probe.stop()
    assert "select" not in vars(selector) and not probe.polls
    plain = ReactorProbe(task.Clock(), 10.0)          # no asyncio loop: the ticks measure it
    plain.start()
    assert not plain.polls and plain.snapshot()["pause_by"] == "ticks"
    plain.stop()


def test_the_policy_freezes_after_start_up_and_at_quiet_moments(restore_gc: None) -> None:
    clock = task.Clock()
    policy = GcPolicy(clock, gen0=4000, freeze_interval=60, thaw_interval=3600)
    gc.unfreeze()
    policy.start()
    try:
        assert gc.get_threshold() == (4000, 10, GEN2_AFTER)
        frozen = gc.get_freeze_count()
        assert frozen > 1000                      # what start-up (here: the test process) made
        keep = [[i] for i in range(5000)]         # long-lived objects made later ...
        clock.advance(60)                         # ... are frozen at the next quiet moment
        assert gc.get_freeze_count() >= frozen + 5000
        cycle: list[object] = []
        cycle.append(cycle)                       # a cycle frozen, then garbage
        clock.advance(60)
        del cycle
        clock.advance(3600 - 120)                 # the thaw collects it and freezes again
        assert gc.get_freeze_count() > 1000
        assert len(keep) == 5000
    finally:
        policy.stop()
    assert gc.get_threshold() != (4000, 10, GEN2_AFTER)


def test_the_survivors_of_a_young_collection_are_frozen_at_once(restore_gc: None) -> None:
    """What survives a collection of generation 0 goes to the permanent generation, not to
    generation 1 (whose collections then walk nothing old); the objects stay alive and are
    still freed by their reference counts."""
    clock = task.Clock()
    policy = GcPolicy(clock, gen0=4000, freeze_interval=0, thaw_interval=0)
    gc.unfreeze()
    policy.start()
    try:
        frozen = gc.get_freeze_count()
        keep = [[i] for i in range(3000)]         # young, alive
        gc.collect(0)
        assert policy.survivor_freezes >= 1
        assert gc.get_freeze_count() >= frozen + 3000
        assert len(gc.get_objects(1)) == 0 and len(gc.get_objects(0)) < 100
        del keep                                  # freed by reference counting, frozen or not
        assert gc.get_freeze_count() < frozen + 3000
        before = policy.survivor_freezes
        gc.collect()                              # generation 2: nothing frozen by the hook
        assert policy.survivor_freezes == before
    finally:
        policy.stop()
    assert policy._after_collection not in gc.callbacks


def test_without_freeze_survivors_the_young_generation_keeps_them(restore_gc: None) -> None:
    clock = task.Clock()
    policy = GcPolicy(clock, gen0=4000, freeze_interval=0, thaw_interval=0,
                      freeze_survivors=False)
    gc.unfreeze()
    policy.start()
    try:
        keep = [[i] for i in range(3000)]
        gc.collect(0)
        assert policy.survivor_freezes == 0
        assert len(gc.get_objects(1)) >= 3000
        assert len(keep) == 3000
    finally:
        policy.stop()
