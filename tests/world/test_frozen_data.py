"""Delivered data is frozen (lobby/tichu/frozen.py): an Event cannot be changed, nor anything in
its data, so the identity memos of the fast paths (lobby/tichu/memo.py) rest on a fact. A frozen
value reads, compares, copies and encodes exactly like the value it was made from."""
from __future__ import annotations

import copy
import itertools
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lobby.events import Event
from lobby.tichu import FrozenDict, FrozenError, FrozenList, freeze
from table_support import new_table, play_to_end

#: every way of changing a list, and of changing a dict
LIST_CHANGES: list[Callable[[Any], Any]] = [
    lambda v: v.append(1), lambda v: v.extend([1]), lambda v: v.insert(0, 1),
    lambda v: v.pop(), lambda v: v.remove(v[0]), lambda v: v.clear(), lambda v: v.sort(),
    lambda v: v.reverse(), lambda v: v.__setitem__(0, 1), lambda v: v.__delitem__(0),
    lambda v: v.__setitem__(slice(0, 1), [1]), lambda v: v.__iadd__([1]),
    lambda v: v.__imul__(2),
]
DICT_CHANGES: list[Callable[[Any], Any]] = [
    lambda d: d.__setitem__("k", 1), lambda d: d.__delitem__(next(iter(d))),
    lambda d: d.update(k=1), lambda d: d.pop(next(iter(d))), lambda d: d.popitem(),
    lambda d: d.setdefault("k", 1), lambda d: d.clear(), lambda d: d.__ior__({"k": 1}),
]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=4),
    max_leaves=20)


@pytest.mark.parametrize("change", LIST_CHANGES)
def test_every_change_of_a_frozen_list_raises(change: Callable[[Any], Any]) -> None:
    value = freeze([3, 1, 2])
    with pytest.raises(FrozenError):
        change(value)
    assert value == [3, 1, 2]


@pytest.mark.parametrize("change", DICT_CHANGES)
def test_every_change_of_a_frozen_dict_raises(change: Callable[[Any], Any]) -> None:
    value = freeze({"a": 1, "b": [2]})
    with pytest.raises(FrozenError):
        change(value)
    assert value == {"a": 1, "b": [2]}


@given(JSON)
def test_a_frozen_value_reads_and_encodes_as_the_value(value: Any) -> None:
    frozen = freeze(value)
    assert frozen == value
    assert json.dumps(frozen) == json.dumps(value)
    assert freeze(frozen) is frozen                      # frozen all the way down already
    assert pickle.loads(pickle.dumps(frozen)) == value
    assert copy.deepcopy(frozen) is frozen and copy.copy(frozen) is frozen
    if isinstance(value, (list, dict)):
        thawed = value.copy()                            # a copy is an ordinary value
        assert type(thawed) is type(value) and thawed == value


def test_an_event_and_its_data_cannot_be_changed() -> None:
    event = Event("table-view", {"seats": ["ann", None], "game": {"trick": [{"seat": 0}]}},
                  table=5)
    with pytest.raises(FrozenError):
        event.type = "other"           # type: ignore[misc]
    with pytest.raises(FrozenError):
        event.data = {}                # type: ignore[misc]
    with pytest.raises(FrozenError):
        event.data["table"] = 6
    with pytest.raises(FrozenError):
        event.data["seats"].append("bob")
    with pytest.raises(FrozenError):
        event.data["game"]["trick"][0]["seat"] = 1
    assert event == Event("table-view", {"seats": ["ann", None], "table": 5,
                                         "game": {"trick": [{"seat": 0}]}})
    assert pickle.loads(pickle.dumps(event)) == event


def _walk(value: Any) -> list[Any]:
    """Every list and dict in `value`."""
    if isinstance(value, dict):
        return [value, *(x for v in value.values() for x in _walk(v))]
    if isinstance(value, (list, tuple)):
        return [value, *(x for v in value for x in _walk(v))] if isinstance(value, list) \
            else [x for v in value for x in _walk(v)]
    return []


def test_everything_a_game_delivers_is_frozen_and_the_views_share_it() -> None:
    """A whole game with a spectator: every list and dict of every delivered event is frozen,
    and the views of one change share the objects of what every seat sees."""
    table, rec, _ = new_table(options={"target": "300", "seed": "11"}, spectator="eve")
    table.submit("ann", "start")
    play_to_end(table, rec, random.Random(3))
    events = [event for _, event in rec.log]
    assert len(events) > 500
    for event in events:
        for part in _walk(event.data):
            assert type(part) in (FrozenList, FrozenDict), (event.type, part)
    shared = 0
    views = [e for e in events if e.type == "table-view" and e.data.get("game")]
    for first, second in itertools.pairwise(views):
        if first.data["game"].get("trick") == second.data["game"].get("trick") \
                and first.data["game"]["trick"]:
            shared += first.data["game"]["trick"] is second.data["game"]["trick"]
    assert shared > 100
