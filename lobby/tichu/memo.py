"""The one discipline for fast paths: every memo of the server is one of the two kinds below, and
one switch turns them all off.

- `LastMemo`: the value made for the last key, kept while the key's parts are the very same
  objects (compared by identity, the cheapest test there is). It is correct because delivered
  data is never changed: a new state is a new object (a rule of the code: nothing freezes the
  data yet). Used where one change is rendered for many listeners in a row.
- `BoundedMemo`: a dict from a key (a value, compared by equality) to what it stands for, emptied
  when it holds `size` entries; the value must be a function of the key alone.

`ON` is the switch: with the environment variable ``TICHU_MEMOS=off`` at start every memo is
bypassed and each value is made from its inputs every time (the reference the memoised output is
compared with: tests/test_memos_off.py runs the byte-pinned transcripts so; ``TICHU_MEMOS=off
scripts/test`` runs the whole suite so). `set_memos(False)` does the same at run time and empties
every memo (a test's fixture). The engine holds this module because it is the lowest layer; the
lobby and the wire import it from the facade (`lobby.tichu.memo`).
"""
from __future__ import annotations

import os
from operator import is_
from typing import Any, Callable, Generic, Hashable, TypeVar

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
    """The value for the last key, while the key's parts are the same objects."""

    __slots__ = ("parts", "value", "__weakref__")

    def __init__(self) -> None:
        self.parts: tuple[Any, ...] = ()
        self.value: Any = MISSING
        register(self.clear)

    def get(self, parts: tuple[Any, ...]) -> V:
        """The value kept for `parts` (the very same objects, in order), else MISSING."""
        if ON and len(parts) == len(self.parts) and all(map(is_, parts, self.parts)):
            return self.value  # type: ignore[no-any-return]
        return MISSING  # type: ignore[no-any-return]

    def put(self, parts: tuple[Any, ...], value: V) -> V:
        self.parts, self.value = parts, value
        return value

    def clear(self) -> None:
        self.parts, self.value = (), MISSING


class BoundedMemo(Generic[V]):
    """key -> value, at most `size` entries (then emptied); bypassed while the switch is off."""

    __slots__ = ("size", "entries")

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.entries: dict[Hashable, V] = {}
        register(self.entries.clear)

    def get(self, key: Hashable) -> V:
        """The value kept for `key`, else MISSING (always MISSING while the switch is off)."""
        found: V = self.entries.get(key, MISSING) if ON else MISSING
        return found

    def put(self, key: Hashable, value: V) -> V:
        if ON:
            entries = self.entries
            if len(entries) >= self.size:
                entries.clear()
            entries[key] = value
        return value

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        self.entries.clear()
