"""Each fast encoder is tested equal to its reference (protocol/render/json_lines.py `FAST_ENCODERS`:
the fast one and, beside it, the slow way of writing the same text), for values hypothesis
chooses: the encoder made once against the json module's, the seat's own values, the gifts
received, and whole `state` lines of real views with the seat's values varied (their shared
values the very objects of the game, so the memos are hit as on a busy table)."""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import pairwise
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from lobby.tichu import freeze
from protocol.render.json_lines import FAST_ENCODERS, PROTOCOL_VERSIONS, WHOLE
from table_support import new_table, play_through_windows

TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=6)
SCALAR = st.none() | st.booleans() | st.integers() | TEXT | st.floats(allow_nan=False,
                                                                      allow_infinity=False)
JSON = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(TEXT, inner, max_size=4), max_leaves=16)
#: a seat's own value: mostly what a view holds (text, a number, a flag, a list of texts)
SEAT_VALUE = st.one_of(SCALAR, st.lists(TEXT, max_size=4), st.lists(SCALAR, max_size=3), JSON)


def _pair(name: str) -> tuple[Any, Any]:
    return FAST_ENCODERS[name]


def test_every_fast_encoder_has_a_reference_beside_it() -> None:
    assert set(FAST_ENCODERS) == {"encode", "fragment", "scalar_or_strings", "received",
                                  "state_line", "ok_line", "view_change"}
    for fast, reference in FAST_ENCODERS.values():
        assert callable(fast) and callable(reference) and fast is not reference


@given(JSON)
def test_the_encoder_made_once_writes_what_the_json_module_writes(value: Any) -> None:
    fast, reference = _pair("encode")
    assert fast(value) == reference(value)
    assert fast(freeze(value)) == reference(value)      # delivered (frozen) data the same


@given(TEXT, st.none() | TEXT)
def test_the_ok_of_a_command_is_the_object_the_json_module_writes(name: str,
                                                                  reply_id: str | None) -> None:
    fast, reference = _pair("ok_line")
    assert fast(name, reply_id) == reference(name, reply_id)
    assert fast(name) == reference(name) == reference(name, None)


@given(st.dictionaries(TEXT, JSON, max_size=5))
def test_a_fragment_is_the_object_without_its_braces(value: dict[str, Any]) -> None:
    fast, reference = _pair("fragment")
    assert fast(value) == reference(value)


@given(SEAT_VALUE)
def test_a_seats_own_value_is_encoded_as_the_json_module_does(value: Any) -> None:
    fast, reference = _pair("scalar_or_strings")
    assert fast(value) == reference(value)
    assert fast(freeze(value)) == reference(value)


@given(st.dictionaries(st.sampled_from("0123"), TEXT, max_size=4) | JSON)
def test_the_gifts_received_are_encoded_as_the_json_module_does(value: Any) -> None:
    fast, reference = _pair("received")
    frozen = freeze(value)
    assert fast(value) == reference(value)
    assert fast(frozen) == fast(frozen) == reference(value)      # the second from its memo


@lru_cache(maxsize=1)
def _all_views() -> tuple[tuple[Any, ...], ...]:
    """The data of every `table-view` of a seeded game, each reader's in the order it read
    them (a turnier with a bomb window and a spectator: gifts, bombs, results, a round's end,
    the match's end), one tuple per reader."""
    table, rec, clock = new_table(options={"seed": "9", "turnier": "on", "bombwindow": "1"},
                                  spectator="eve")
    table.bot_delay = 0
    table.submit("ann", "start")
    play_through_windows(table, rec, clock, random.Random(5), steps=3000)
    readers: dict[str, list[Any]] = {}
    for names, e in rec.log:
        if e.type == "table-view":
            for name in names:
                readers.setdefault(name, []).append(e.data)
    assert len(readers) == 5 and all(len(v) > 100 for v in readers.values())
    return tuple(tuple(v) for v in readers.values())


def _same_update(fast: Any, reference: Any, before: Any, after: Any, protocol: int) -> None:
    got, want = fast(before, after, protocol), reference(before, after, protocol)
    if want is WHOLE or got is WHOLE:       # another table, user or seat: the whole state
        assert got is want
        return
    assert got == want
    assert (list(got.items()) if got else got) == (list(want.items()) if want else want)


def test_the_update_of_each_readers_views_in_a_row_is_the_states_compared() -> None:
    fast, reference = _pair("view_change")
    for views in _all_views():
        for protocol in PROTOCOL_VERSIONS:
            for before, after in pairwise(views):
                _same_update(fast, reference, before, after, protocol)


def test_another_readers_view_is_the_whole_state() -> None:
    """A view of another seat (or the spectator's) after one's own: the client gets the whole
    `state`, from the fast path (the games differ in their seat alone) and the reference."""
    fast, reference = _pair("view_change")
    readers = _all_views()
    whole = 0
    for protocol in PROTOCOL_VERSIONS:
        for mine, other in pairwise(readers):
            for k in range(0, min(len(mine), len(other)), 7):
                _same_update(fast, reference, mine[k], other[k], protocol)
                if mine[k].get("game") and other[k].get("game"):     # two seats' games
                    assert fast(mine[k], other[k], protocol) is WHOLE
                    whole += 1
    assert whole > 100


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_update_of_two_views_is_the_states_compared(data: st.DataObject) -> None:
    """Any two views of a game (not only one after the other), the later one's game fields
    and own values varied: present, gone, new, the same objects or equal copies."""
    fast, reference = _pair("view_change")
    views = data.draw(st.sampled_from(_all_views()))
    i = data.draw(st.integers(0, len(views) - 2))
    j = data.draw(st.sampled_from([i + 1, data.draw(st.integers(0, len(views) - 1))]))
    before, after = views[i], views[j]
    protocol = data.draw(st.sampled_from(PROTOCOL_VERSIONS))
    _same_update(fast, reference, before, after, protocol)
    game = after.get("game")
    if game is None:
        return
    varied = dict(game)
    for key in data.draw(st.sets(st.sampled_from(
            ("hand", "legal", "can_pass", "bombs", "given", "received", "seat", "player",
             "trick", "scores", "round_no", "result", "seats", "phase", "turn")))):
        if data.draw(st.booleans()):
            varied.pop(key, None)
        else:
            varied[key] = data.draw(SEAT_VALUE)
    later = {k: (varied if k == "game" else v) for k, v in after.items()}
    if data.draw(st.booleans()):        # the view's own values the very objects of `before`
        later = {k: (varied if k == "game" else before.get(k, v)) for k, v in after.items()}
    for key in data.draw(st.sets(st.sampled_from(("seat", "scores", "round_no", "you")))):
        if data.draw(st.booleans()):
            later.pop(key, None)
        else:
            later[key] = data.draw(SEAT_VALUE)
    _same_update(fast, reference, before, later, protocol)
    _same_update(fast, reference, before, freeze(later), protocol)
    _same_update(fast, reference, freeze(later), before, protocol)


@lru_cache(maxsize=1)
def _views() -> tuple[Any, ...]:
    """The data of every seat's `table-view` of a seeded game (a turnier with a bomb window and
    a spectator: gifts, bombs, results)."""
    table, rec, clock = new_table(options={"seed": "6", "turnier": "on", "bombwindow": "1"},
                                  spectator="eve")
    table.bot_delay = 0
    table.submit("ann", "start")
    play_through_windows(table, rec, clock, random.Random(2), steps=300)
    views = tuple(e.data for _, e in rec.log
                  if e.type == "table-view" and (e.data.get("game") or {}).get("hand"))
    assert len(views) > 100
    return views


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_state_line_is_the_state_object_encoded(data: st.DataObject) -> None:
    fast, reference = _pair("state_line")
    views = _views()
    i = data.draw(st.integers(0, len(views) - 2))
    for view in (views[i], views[i + 1]):              # two in a row: the memos of the first
        assert fast(view) == reference(view)
    game = dict(views[i]["game"])
    for key in data.draw(st.sets(st.sampled_from(
            ("hand", "legal", "can_pass", "bombs", "given", "received", "seat", "player")))):
        game[key] = data.draw(SEAT_VALUE)
    varied = dict(views[i], game=game, you=data.draw(SEAT_VALUE))
    assert fast(varied) == reference(varied)
    assert fast(freeze(varied)) == reference(varied)

