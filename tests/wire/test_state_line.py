"""protocol.render.json_lines.state_line writes exactly what dumps(state_object(data)) writes, for the
views of every kind of change (tables with and without a game, seats and spectators, the exchange
with gifts given and received, turnier, a bomb window, a finished game), whether its memo of the
shared fragments hits or not."""
from __future__ import annotations

import random
from typing import Any

import pytest

from protocol.render.json_lines import (
    PROTOCOL_VERSIONS,
    dumps,
    for_protocol,
    state_line,
    state_object,
)
from table_support import new_table, step


def _check_all(rec: Any, start: int = 0) -> int:
    n = 0
    for _, event in rec.log[start:]:
        if event.type == "table-view":
            for protocol in PROTOCOL_VERSIONS:
                _check(event.data, protocol)
            n += 1
    return n


def _check(data: dict[str, Any], protocol: int) -> None:
    """The fast line is the state object encoded, and an older version's state object is the
    newest one with for_protocol's fields dropped (the declared shapes: FIELDS_SINCE)."""
    whole = state_object(data, protocol)
    assert state_line(data, protocol) == dumps(whole)
    assert whole == for_protocol(state_object(data), protocol)


@pytest.mark.slow
def test_state_line_equals_the_state_object_encoded() -> None:
    checked = 0
    for options, seed in (({"seed": "5", "target": "300"}, 1),
                          ({"seed": "6", "turnier": "on", "bombwindow": "1"}, 2),
                          ({"seed": "7", "round": "2", "tichujoin": "on"}, 3)):
        table, rec, clock = new_table(options=options, spectator="eve")
        table.bot_delay = 0
        checked += _check_all(rec)
        table.submit("ann", "start")
        rng = random.Random(seed)
        for _ in range(600):
            if table.state != "playing":
                break
            mark = len(rec.log)
            step(table, rec, rng, tichu=0.2, grand=0.2)
            if rec.errors():
                assert all(e.type == "bomb-window" for e in rec.errors()), rec.errors()
                clock.advance(1.5)
                rec.log[:] = [(r, e) for r, e in rec.log if not e.is_error]
            checked += _check_all(rec, min(mark, len(rec.log)))
        checked += _check_all(rec)              # again: the memo now holds other fragments
    assert checked > 1000


def test_unusual_values_fall_back_to_the_encoder() -> None:
    game = {"phase": "play", "seat": 1, "player": 1, "hand": "R5 Ph", "legal": ["R5", 7],
            "can_pass": 1, "bombs": [], "received": {"0": "R5", "2": 3},
            "given": ("R2", "R3"), "trick": [], "trick_won": None, "holder": None, "turn": 1,
            "wish": None, "wish_pending": None, "calls": [None] * 4, "grand_decided": [True] * 4,
            "exchanged": [True] * 4, "cards_left": [14] * 4, "out": [], "points": [0] * 4,
            "round_no": 1, "scores": [0, 0], "round_scores": [], "match_finished": False,
            "match_result": None, "result": None, "seats": [0, 1, 2, 3],
            "tichu_points": [1.5, float("nan"), 0, 0]}
    data = {"table": 3, "state": "playing", "seats": ["a", "b", "c", "d"], "you": "b",
            "seat": 1, "host": "a", "options": {}, "gone": [], "bots": {}, "game": game,
            "scores": (0, 0), "bombwindow_left": 0.12345, "result": None}
    assert state_line(data) == dumps(state_object(data))
    data["result"] = {"x": (1, 2)}
    assert state_line(data) == dumps(state_object(data))
    # protocol 4's fields (options.timer, result.left) left out for 1-3, with the memo of the
    # fragments holding the other version's line
    data["options"] = {"target": "1000", "timer": "30"}
    data["result"] = {"winner": 0, "left": ["c"]}
    for protocol in (*PROTOCOL_VERSIONS, *reversed(PROTOCOL_VERSIONS)):
        _check(data, protocol)
        if protocol < 4:
            assert '"timer"' not in state_line(data, protocol)
            assert '"left"' not in state_line(data, protocol)
    del game["hand"]
    assert state_line(data) == dumps(state_object(data))
    for protocol in PROTOCOL_VERSIONS:
        _check(data, protocol)


def test_dumps_writes_what_the_json_encoder_writes() -> None:
    import json
    reference = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)
    for obj in ({"type": "says", "text": "Grüße \u2028 \ud800 \n \"q\" \\ \x00", "n": 1.5,
                 "f": float("nan"), "i": -3, "b": True, "none": None, "l": [1, (2, 3), {}],
                 "o": object, 7: "int key"}, "text", 1e16, [], {"nested": {"a": [{"b": []}]}}):
        assert dumps(obj) == reference.encode(obj)
