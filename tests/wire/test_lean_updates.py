"""Machine mode's lean updates (protocol 2): a whole `state` when a connection comes to a table,
then `update` objects; applied in order they always rebuild exactly the whole state.

Random seeded games (hypothesis: the deal, the players' choices, the table options, when a late
spectator comes) on a LobbyServer with the journal, on a task.Clock, four machine-mode players
(one seat sometimes a text-mode player), a spectator from the start and one who comes later.
After every step each machine-mode client's rebuilt state (its last `state` with every `update`
after it applied, parsed from the bytes it received) must equal the whole state the server would
send it now, built independently from the table (`TableViews(table).view(name)`).
"""
from __future__ import annotations

import json
import random
from collections.abc import Coroutine
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game_support import Game
from lobby.tables.views import TableViews
from protocol.render.json_lines import apply_update, dumps, state_object, state_update
from tichu_bot.client import apply_update as bot_apply_update


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine of Game that never waits (no sockets: the clock turns in place)."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("the game waited for the reactor")


class Follower:
    """What one machine-mode client holds: its state, rebuilt from the lines it received."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.state: dict[str, Any] | None = None
        self.states = self.updates = 0
        self.added = 0                      # trick entries that came as trick_add
        self.bot_state: dict[str, Any] | None = None

    def read(self, data: bytes) -> None:
        for raw in data.split(b"\r\n"):
            if not raw.startswith(b"{"):
                continue
            obj = json.loads(raw)
            if obj["type"] == "state":
                obj.pop("id", None)
                self.state = obj
                self.bot_state = dict(obj)
                self.states += 1
            elif obj["type"] == "update":
                assert self.state is not None and obj["table"] == self.state["table"], obj
                assert len(obj) > 2, obj                       # never an empty update
                old_trick = self.state.get("trick")
                if "trick" in obj:                  # protocol 3: a trick that only grew
                    new = obj["trick"]              # comes as trick_add, never whole
                    assert "trick_add" not in obj
                    assert not (isinstance(old_trick, list) and len(new) > len(old_trick)
                                and new[:len(old_trick)] == old_trick), (old_trick, obj)
                if "trick_add" in obj:
                    assert obj["trick_add"] and isinstance(old_trick, list), obj
                    self.added += len(obj["trick_add"])
                self.bot_state = bot_apply_update(self.bot_state or {}, obj)
                self.state = apply_update(self.state, obj)
                assert self.bot_state == self.state     # tichu_bot's apply_update: the same
                self.updates += 1
            elif obj["type"].startswith("game-"):
                assert "names" not in obj, obj                # protocol 2: the state has them


def whole_state(table: Any, name: str) -> dict[str, Any]:
    seated = table.seated
    view = TableViews(table).view(name if name in seated else None)
    # what the client (protocol 3: test_table_output_bytes' clients) parses
    return json.loads(dumps(state_object(view, 3)))


def test_state_update_and_apply_update_are_inverse() -> None:
    before = {"type": "state", "table": 1, "a": [1, 2], "b": True, "gone": 1}
    after = {"type": "state", "table": 1, "a": [1, 2], "b": 1, "c": None}
    update = state_update(before, after)
    assert update == {"type": "update", "table": 1, "b": 1, "c": None, "unset": ["gone"]}
    assert apply_update(before, update) == after
    assert state_update(after, dict(after)) is None


def test_a_trick_that_only_grew_comes_as_trick_add() -> None:
    one, two = {"seat": 0, "cards": "S5"}, {"seat": 1, "cards": "G7"}
    before = {"type": "state", "table": 1, "trick": [one], "turn": 1}
    after = {"type": "state", "table": 1, "trick": [one, two], "turn": 2}
    update = state_update(before, after)
    assert update == {"type": "update", "table": 1, "trick_add": [two], "turn": 2}
    assert apply_update(before, update) == after == bot_apply_update(before, update)
    for replaced in ([], [two], [two, one], [{"seat": 0, "cards": "S5", "x": True}, two]):
        after = {"type": "state", "table": 1, "trick": replaced, "turn": 1}
        update = state_update(before, after)
        assert update == {"type": "update", "table": 1, "trick": replaced}
        assert apply_update(before, update) == after == bot_apply_update(before, update)
    # a value that only compares equal (True == 1) is not the same on the wire
    before = {"type": "state", "table": 1, "trick": [True]}
    after = {"type": "state", "table": 1, "trick": [1, 2]}
    assert state_update(before, after) == {"type": "update", "table": 1, "trick": [1, 2]}


#: a random seeded game (the deal, the players' choices, the table options, when Fay comes)
GAMES = dict(seed=st.integers(0, 2**32 - 1), bombwindow=st.sampled_from([0, 1]),
             turnier=st.booleans(), text_seat=st.sampled_from([None, 1, 3]),
             late=st.integers(0, 120))


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
@example(seed=1365, bombwindow=0, turnier=False, text_seat=None, late=94)   # Fay saw no trick grow
def test_updates_applied_in_order_rebuild_the_whole_state(seed: int, bombwindow: int,
                                                         turnier: bool, text_seat: int | None,
                                                         late: int) -> None:
    """Three games (and the pinned one) in the quick loop; the whole suite plays twelve more
    (`test_updates_rebuild_the_whole_state_in_more_games`)."""
    rebuild_the_whole_state(seed, bombwindow, turnier, text_seat, late)


@pytest.mark.slow(reason="more games of test_updates_applied_in_order_rebuild_the_whole_state, "
                        "which plays three (and the pinned one) in the quick loop")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_updates_rebuild_the_whole_state_in_more_games(seed: int, bombwindow: int, turnier: bool,
                                                       text_seat: int | None, late: int) -> None:
    rebuild_the_whole_state(seed, bombwindow, turnier, text_seat, late)


def rebuild_the_whole_state(seed: int, bombwindow: int, turnier: bool, text_seat: int | None,
                            late: int) -> None:
    rng = random.Random(seed)
    g = Game()
    names = ["Ann", "Bob", "Cat", "Dan"]
    json_names = [n for i, n in enumerate(names) if i != text_seat] + ["Eve", "Fay"]
    for i, name in enumerate([*names, "Eve", "Fay"]):
        run(g.connect(name, i != text_seat))
    followers = {name: Follower(name) for name in json_names}

    def check(table: Any) -> None:
        for name, f in followers.items():
            f.read(bytes(g.received[name]))
            g.received[name].clear()
            if f.state is None:
                continue
            assert f.state == whole_state(table, name), name

    run(g.send("Ann", "/newroom tichu"))
    number = g.world.online("Ann").room.number
    table = g.world.tables[number]
    for line in (f"/option seed {seed % 100000 + 1}", "/option target 300",
                 f"/option bombwindow {bombwindow}", f"/option turnier {'on' if turnier else 'off'}"):
        run(g.send("Ann", line))
    for name in [*names[1:], "Eve"]:
        run(g.send(name, f"/room {number}"))
    for name in names:
        run(g.send(name, "/join"))
    check(table)
    run(g.send("Ann", "/start"))
    assert table.state == "playing"
    check(table)
    steps = 0
    while table.state == "playing" and steps < 400:
        if steps == late:
            run(g.send("Fay", f"/room {number}"))       # a late spectator: the whole state
        run(g.play(table, rng, until=len(table.match.actions) + 1))
        check(table)
        steps += 1
    asker = json_names[0]
    for name in (asker, "Eve"):
        run(g.send(name, "%state"))              # the whole state on request, the same
        check(table)
    run(g.send("Ann", "/spielinfo"))
    check(table)
    for f in followers.values():
        if f.name == "Fay" and steps <= late:
            continue
        assert f.states >= 1 and f.updates > 0, (f.name, f.states, f.updates)
        if f.name != "Fay":                          # a late spectator may see no trick grow
            assert f.added > 0, f.name               # the plays came as trick_add
    # players get the whole state once (coming to the table, then sitting down), then updates
    assert followers[asker].states <= 2 + 1        # + the %state answer
