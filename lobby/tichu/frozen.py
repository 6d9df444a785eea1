"""Frozen data: what makes "delivered data is never changed" a fact instead of a rule.

The identity memos of the fast paths (lobby/tichu/memo.py `LastMemo`) and the views that share
their values between seats are correct only while nobody changes a value once it has been shown.
`freeze` makes a value's lists `FrozenList`s and its dicts `FrozenDict`s: they read, compare,
copy and encode as JSON exactly like the list and the dict they were made from (they are their
subclasses, with the same items in the same order), and every way of changing them raises
`FrozenError`. A frozen value is frozen all the way down, so `freeze` hands it back as it is: a
value shared by many views (the trick, the calls, the seats...) is frozen once where it is made
and stays the very same object in each of them.

Where it is used: the data of every world event (lobby/events.py `Event`), and at their source
the values a round and a table share between the views of one change (lobby/tichu/round.py,
lobby/tichu/match.py, lobby/tables/views.py, lobby/tables/options.py). `list(x)`, `dict(x)`,
`x.copy()` and `x + [...]` give ordinary (changeable) copies.
"""
from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["FrozenDict", "FrozenError", "FrozenList", "freeze", "freeze_dict",
           "FROZEN_LIST_TYPES", "FROZEN_DICT_TYPES"]


class FrozenError(TypeError):
    """A frozen value (delivered data) was to be changed."""


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise FrozenError(f"delivered data is never changed: {type(self).__name__} is frozen")


class FrozenList(list[Any]):
    """A list whose items are frozen and which cannot be changed."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        return self


class FrozenDict(dict[Any, Any]):
    """A dict whose values are frozen and which cannot be changed."""

    __slots__ = ()

    __setitem__ = __delitem__ = __ior__ = _refuse
    update = pop = popitem = setdefault = clear = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return self


#: the types a list (a dict) of delivered data may have: the fast encoders test them by identity
FROZEN_LIST_TYPES = frozenset((list, FrozenList))
FROZEN_DICT_TYPES = frozenset((dict, FrozenDict))

#: values that are frozen already (nothing in them can change)
_DONE = frozenset((str, int, float, bool, type(None), FrozenList, FrozenDict, bytes))


def freeze(value: Any) -> Any:
    """`value` with every list a FrozenList and every dict a FrozenDict (a frozen value, or a
    text, number, flag or None, is handed back as it is; a tuple's items are frozen; any other
    object is left as it is)."""
    t = type(value)
    if t in _DONE:
        return value
    if t is list:
        for v in value:
            if type(v) not in _DONE:
                return FrozenList([freeze(v) for v in value])
        return FrozenList(value)
    if t is dict:
        for v in value.values():
            if type(v) not in _DONE:
                return FrozenDict({k: freeze(v) for k, v in value.items()})
        return FrozenDict(value)
    if t is tuple:
        items = tuple(map(freeze, value))
        return value if all(map(_same, items, value)) else items
    return value


def freeze_dict(data: dict[Any, Any], /, **fields: Any) -> FrozenDict:
    """`freeze(dict(data, **fields))` with one copy instead of two: a FrozenDict with no fields
    is handed back as it is, else one new FrozenDict whose values are frozen in place (an
    Event's data, each seat's view: the hot path of every delivery)."""
    if not fields and type(data) is FrozenDict:
        return data
    out = FrozenDict(data)
    if fields:
        dict.update(out, fields)
    thaw = [k for k, v in out.items() if type(v) not in _DONE]
    for k in thaw:
        _setitem(out, k, freeze(out[k]))
    return out


_setitem = dict.__setitem__


def _same(a: Any, b: Any) -> bool:
    return a is b
