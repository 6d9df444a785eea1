"""The reactor's health: the longest pause of the reactor, the garbage collector's share of it,
and the server's garbage-collection policy.

**The probe** (`ReactorProbe`, the server's `--reactor-probe SECONDS`): on the asyncio reactor
it times, by the monotonic clock, every stretch between two polls of the event loop's selector
(the end of one `select` to the start of the next): the work of one loop turn, during which no
socket is read and no timer runs. The longest such stretch is the longest reactor pause (a long
callback, a collection, a blocking call), measured exactly. One LoopingCall every `TICK`
seconds (one timer for the whole process, whatever the number of connections) also measures how
late each tick comes; on another reactor that lateness is the pause, and it reads a pause P as
anything from P - TICK to P (the pause may begin just before a tick was due or just after one);
on the asyncio reactor the larger of the two counts (a tick late while the loop was polling: the
process did not get the CPU). Python's
`gc.callbacks` time every collection (by the clock, and by the thread's CPU time: on a shared
machine the process may lose the CPU in the middle of one). Every `SECONDS` the probe logs one line

    reactor: longest pause 3.1 ms in 10.0 s (500 ticks); gc: 41 collections, 12.4 ms,
    longest 1.9 ms (CPU 1.8 ms, generation 0)

(one line in the log)
and starts a new window; `snapshot()` gives the same figures as data. (It does not count the
frozen objects: `gc.get_freeze_count()` walks the whole permanent generation, which at
4,000+ connections took a few to tens of milliseconds on the reactor at every report.)

**The policy** (`GcPolicy`): the server's heap is mostly long-lived (accounts online, rooms,
tables, matches, caches); CPython's full collections walk all of it, which on a busy server
stalled the reactor for 240-415 ms about every 27 s (docs/performance.md). So:

- after start-up `gc.freeze()` moves everything into the permanent generation, which no
  collection walks;
- the survivors of every young collection are frozen at once (`freeze_survivors`, the server's
  `--gc-freeze-survivors`, default on: a `gc.callbacks` hook calls `gc.freeze()` when a
  collection of generation 0 or 1 ends). Without it, what survives generation 0 piles up in
  generation 1 until its next collection: at 4,000 connections a collection of generation 1
  walked ~45,000-85,000 young survivors (new connections, the rounds' Combos and tuples) and
  the references they hold, 25-75 ms of CPU (a cache miss per reference on a big heap; measured
  with `gc.callbacks` and `gc.get_objects`, docs/performance.md). Frozen objects are still freed
  by their reference counts; only reference cycles among them wait for the thaw below, and the
  table path makes none (a benchmark of 6,000 actions and two new games left no cyclic
  garbage), so a collection walks at most the `--gc-threshold` objects made since the last one;
- at quiet moments, every `freeze_interval` seconds (`--gc-freeze-interval`, default 60; 0: only
  after start-up), the young generations are collected (`gc.collect(1)`: cheap) and everything
  that survived is frozen too: the objects of the tables, matches and connections made since;
- the thresholds (`--gc-threshold`, generation 0; default 1,000, CPython's 700): with the
  survivors frozen, a young collection walks the objects made since the last one and every
  reference they hold (mostly to old objects: a cache miss each on a big heap), so its pause
  grows with the threshold: at 1,000 human-paced tables the longest collection took 43 ms of
  CPU at 5,000 and 10.5 ms at 1,000, for about the same total (416 against 346 ms by the clock
  in 25 s); generation 2 is collected only after `GEN2_AFTER` collections of
  generation 1;
- cyclic garbage among frozen objects (a reference cycle of a connection closed after it was
  frozen, say) is not reclaimed until it is unfrozen: every `thaw_interval` seconds
  (`--gc-thaw-interval`, default 3,600; 0: never) everything is unfrozen, collected once, and
  frozen again, and that pause is logged with what it found (`gc: thawed ...`).

Time comes from the injected reactor (its clock) and `time.perf_counter` (the probe measures
real lateness: it is a measurement, not a decision of the domain).
"""
from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

from twisted.internet.task import LoopingCall
from twisted.logger import Logger

__all__ = ["ReactorProbe", "GcPolicy", "TICK", "GEN2_AFTER", "DEFAULT_GEN0"]

log = Logger(namespace="protocol.health")

#: seconds between two ticks of the probe
TICK = 0.02
#: collections of generation 1 before generation 2 is collected (CPython: 10)
GEN2_AFTER = 50
#: generation 0's threshold (CPython: 700)
DEFAULT_GEN0 = 1000


class ReactorProbe:
    """The longest reactor pause and the collections, per report window (see the module)."""

    def __init__(self, reactor: Any, report_every: float, *, tick: float = TICK,
                 now: Callable[[], float] = time.perf_counter) -> None:
        self.reactor = reactor
        self.report_every = report_every
        self.tick = tick
        self._now = now
        self._loop = LoopingCall(self._tick)
        self._loop.clock = reactor
        self._reset(now())
        self._last = now()
        self._gc_started = 0.0
        self._gc_cpu_started = 0.0
        #: the longest pause and collection since the start (seconds)
        self.max_pause_ever = 0.0
        self.max_gc_ever = 0.0
        self._polled = now()            # when the selector's last select returned
        self._selector: Any = None      # the hooked selector (asyncio reactor), if any

    def _reset(self, now: float) -> None:
        self._window_start = now
        self.ticks = 0
        self.max_pause = 0.0
        self.collections = 0
        self.gc_seconds = 0.0
        self.max_gc = 0.0
        self.max_gc_cpu = 0.0
        self.max_gc_generation: int | None = None

    def start(self) -> None:
        self._last = self._now()
        self._reset(self._last)
        gc.callbacks.append(self._gc)
        self._hook_selector()
        self._loop.start(self.tick, now=False)

    @property
    def polls(self) -> bool:
        """Whether the pause is measured between the selector's polls (the asyncio reactor)."""
        return self._selector is not None

    def _hook_selector(self) -> None:
        """Time the stretches between two polls of the asyncio event loop's selector: an
        instance attribute `select` in front of the selector's own method (`stop` removes it)."""
        loop = getattr(self.reactor, "_asyncioEventloop", None)
        selector = getattr(loop, "_selector", None)
        original = getattr(selector, "select", None)
        if selector is None or original is None or "select" in vars(selector):
            return
        now = self._now

        def select(timeout: float | None = None) -> Any:
            busy = now() - self._polled
            if busy > self.max_pause:
                self.max_pause = busy
                if busy > self.max_pause_ever:
                    self.max_pause_ever = busy
            try:
                return original(timeout)
            finally:
                self._polled = now()

        self._polled = now()
        selector.select = select
        self._selector = selector

    def stop(self) -> None:
        if self._selector is not None:
            del self._selector.select
            self._selector = None
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)
        if self._loop.running:
            self._loop.stop()

    def _tick(self) -> None:
        now = self._now()
        late = now - self._last - self.tick
        self._last = now
        self.ticks += 1
        if late > self.max_pause:
            self.max_pause = late
            if late > self.max_pause_ever:
                self.max_pause_ever = late
        if self.report_every > 0 and now - self._window_start >= self.report_every:
            self.report(now)

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = self._now()
            self._gc_cpu_started = time.thread_time()
            return
        took = self._now() - self._gc_started
        cpu = time.thread_time() - self._gc_cpu_started
        if cpu > self.max_gc_cpu:
            self.max_gc_cpu = cpu
        self.collections += 1
        self.gc_seconds += took
        if took > self.max_gc:
            self.max_gc = took
            self.max_gc_generation = info.get("generation")
            if took > self.max_gc_ever:
                self.max_gc_ever = took

    def snapshot(self) -> dict[str, Any]:
        """The figures of the current window (milliseconds)."""
        return {"seconds": round(self._now() - self._window_start, 3), "ticks": self.ticks,
                "max_pause_ms": round(self.max_pause * 1000, 2),
                "pause_by": "polls" if self._selector is not None else "ticks",
                "collections": self.collections, "gc_ms": round(self.gc_seconds * 1000, 2),
                "max_gc_ms": round(self.max_gc * 1000, 2),
                "max_gc_cpu_ms": round(self.max_gc_cpu * 1000, 2),
                "max_gc_generation": self.max_gc_generation}

    def report(self, now: float | None = None) -> None:
        s = self.snapshot()
        log.info("reactor: longest pause {max_pause_ms} ms in {seconds} s ({ticks} ticks); gc: "
                 "{collections} collections, {gc_ms} ms, longest {max_gc_ms} ms (CPU {max_gc_cpu_ms} "
                 "ms, generation {max_gc_generation})", **s)
        self._reset(self._now() if now is None else now)


class GcPolicy:
    """The server's garbage-collection policy (see the module)."""

    def __init__(self, reactor: Any, *, gen0: int = DEFAULT_GEN0, freeze_interval: float = 60.0,
                 thaw_interval: float = 3600.0, freeze_survivors: bool = True) -> None:
        self.reactor = reactor
        self.gen0 = gen0
        self.freeze_survivors = freeze_survivors
        #: young collections whose survivors were frozen at once (tests, the probe)
        self.survivor_freezes = 0
        self.freeze_interval = freeze_interval
        self.thaw_interval = thaw_interval
        self._freeze = LoopingCall(self.freeze)
        self._freeze.clock = reactor
        self._thaw = LoopingCall(self.thaw)
        self._thaw.clock = reactor
        self._saved: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Tune the thresholds, freeze what start-up made, and schedule the quiet moments."""
        self._saved = gc.get_threshold()
        if self.gen0 > 0:
            gc.set_threshold(self.gen0, 10, GEN2_AFTER)
        gc.collect()
        gc.freeze()
        if self.freeze_survivors and self._after_collection not in gc.callbacks:
            gc.callbacks.append(self._after_collection)
        if self.freeze_interval > 0:
            self._freeze.start(self.freeze_interval, now=False)
        if self.thaw_interval > 0:
            self._thaw.start(self.thaw_interval, now=False)

    def _after_collection(self, phase: str, info: dict[str, Any]) -> None:
        # (called by the collector; gc.freeze() only moves the generations' lists)
        if phase == "stop" and info.get("generation", 2) < 2:
            gc.freeze()
            self.survivor_freezes += 1

    def stop(self) -> None:
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        for loop in (self._freeze, self._thaw):
            if loop.running:
                loop.stop()
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def freeze(self) -> None:
        """A quiet moment: the young generations collected, what survived frozen."""
        gc.collect(1)
        gc.freeze()

    def thaw(self) -> None:
        """Everything unfrozen, collected once (cyclic garbage of frozen objects), frozen again."""
        started = time.perf_counter()
        before = gc.get_freeze_count()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        log.info("gc: thawed {objects} objects, collected {found} unreachable in {ms} ms",
                 objects=before, found=found, ms=round((time.perf_counter() - started) * 1000, 1))
