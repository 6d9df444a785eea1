"""The one discipline for fast paths: every memo of the server is one of the two kinds below, and
one switch turns them all off.

- `LastMemo`: the value made for the last key, kept while the key's parts are the very same
  objects (compared by identity, the cheapest test there is) and its scalar key is equal. It is
  correct because delivered data is never changed: a new state is a new object, and the data of a
  delivered event is frozen (lobby/tichu/frozen.py `freeze`: changing it raises). Used where one
  change is rendered for many listeners in a row.
- `BoundedMemo`: a dict from a key (a value, compared by equality) to what it stands for, emptied
  when it holds `size` entries (or, with ``oldest=True``, losing its oldest entry); the value must
  be a function of the key alone. `get` answers MISSING while the switch is off; `find` is the
  dict's own ``get`` (no Python frame: the hot paths call it behind an ``if ON`` of their own).

`ON` is the switch: with the environment variable ``TICHU_MEMOS=off`` at start every memo is
bypassed and each value is made from its inputs every time (the reference the memoised output is
compared with: tests/e2e/test_memos_off.py runs the byte-pinned transcripts so; ``TICHU_MEMOS=off
scripts/test`` runs the whole suite so). `set_memos(False)` does the same at run time and empties
every memo (a test's fixture). Nothing is kept while the switch is off. The engine holds this
module because it is the lowest layer; the lobby, the bots and the wire import it from the facade
(`lobby.tichu.memo`).

Not memos, so not switched: the interning tables (lobby/tichu/combos.py `_INTERNED`,
protocol/render/context.py `_INTERNED`: the one object of a value, which callers may compare by
identity), the argon2 hashers of lobby/storage/accounts.py (one per parameter set) and the per-object
memos kept on an object (`Combo._text`, `Round`'s `RoundCaches`, a connection's own hand line),
which obey the switch where they are read. tests/e2e/test_memos_off.py checks that no other
module-level dict or list memo is left.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Hashable
from operator import is_
from typing import Any, Generic, TypeVar

__all__ = ["ON", "MISSING", "LastMemo", "BoundedMemo", "set_memos", "memos_on", "clear_memos",
           "register"]

V = TypeVar("V")

#: the switch: False bypasses every memo (``TICHU_MEMOS=off`` in the environment at start)
ON: bool = os.environ.get("TICHU_MEMOS", "on").strip().lower() not in ("off", "0", "no", "false")

#: what `get` answers when the memo holds nothing for the key
MISSING: Any = object()

_CLEARERS: list[Callable[[], None]] = []


def register(clear: Callable[[], None]) -> Callable[[], None]:
    """Register a function that empties a memo kept elsewhere (`clear_memos` calls it)."""
    _CLEARERS.append(clear)
    return clear


def memos_on() -> bool:
    return ON


def clear_memos() -> None:
    """Empty every memo (they fill again as values are asked for)."""
    for clear in _CLEARERS:
        clear()


def set_memos(on: bool) -> None:
    """Turn every memo on or off (and empty them all, so nothing made before is used)."""
    global ON
    ON = bool(on)
    clear_memos()


class LastMemo(Generic[V]):
    """The value for the last key, while the key's parts are the same objects (and its scalar
    `key`, if any, is equal): the parts are kept alive here, so their ids cannot be re-used."""

    __slots__ = ("key", "parts", "value", "one_part", "__weakref__")

    def __init__(self) -> None:
        self.key: Hashable = None
        self.parts: tuple[Any, ...] = ()
        #: the value kept (MISSING when none): the hot paths read `parts`, `key` and this
        #: inline, with the test of `get` (protocol/connection/machine.py)
        self.value: V = MISSING
        #: the one part of `parts` (MISSING unless there is exactly one): `one` reads it
        self.one_part: Any = MISSING
        register(self.clear)

    def get(self, parts: tuple[Any, ...], key: Hashable = None) -> V:
        """The value kept for `parts` (the very same objects, in order) and `key` (an equal
        value), else MISSING."""
        mine = self.parts
        if ON and key == self.key and len(parts) == len(mine) and all(map(is_, parts, mine)):
            return self.value
        missing: V = MISSING            # (the marker stands in for a V: callers test for it)
        return missing

    def one(self, part: Any, key: Hashable = None) -> V:
        """`get((part,), key)` for a memo of one part, without building the tuple (the hot
        paths of the text renderer ask it once per connection and event)."""
        if ON and self.one_part is part and key == self.key:
            return self.value
        missing: V = MISSING
        return missing

    def put(self, parts: tuple[Any, ...], value: V, key: Hashable = None) -> V:
        """Keep `value` for `parts` and `key` (nothing is kept while the switch is off)."""
        if ON:
            self.key, self.parts, self.value = key, parts, value
            self.one_part = parts[0] if len(parts) == 1 else MISSING
        return value

    def put_one(self, part: Any, value: V, key: Hashable = None) -> V:
        """`put((part,), value, key)`: the value of a memo of one part (what `one` reads)."""
        if ON:
            self.key, self.parts, self.value, self.one_part = key, (part,), value, part
        return value

    def clear(self) -> None:
        self.key, self.parts, self.value, self.one_part = None, (), MISSING, MISSING


class BoundedMemo(Generic[V]):
    """key -> value, at most `size` entries (then emptied); bypassed while the switch is off."""

    __slots__ = ("size", "oldest", "entries", "find")

    def __init__(self, size: int = 4096, *, oldest: bool = False) -> None:
        self.size = size
        self.oldest = oldest
        self.entries: dict[Hashable, V] = {}
        #: the value kept for a key, else None (or the default given): the dict's own get
        self.find: Callable[..., V | None] = self.entries.get
        register(self.entries.clear)

    def get(self, key: Hashable) -> V:
        """The value kept for `key`, else MISSING (always MISSING while the switch is off)."""
        found: V = self.entries.get(key, MISSING) if ON else MISSING
        return found

    def put(self, key: Hashable, value: V) -> V:
        if ON:
            entries = self.entries
            if len(entries) >= self.size:
                if self.oldest:
                    del entries[next(iter(entries))]
                else:
                    entries.clear()
            entries[key] = value
        return value

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        self.entries.clear()
