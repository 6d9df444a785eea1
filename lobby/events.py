"""Events: what the world tells a user. Data, never text.

An event has a ``type`` that is also a key of the message catalog (lobby/text/messages.py INFO or
ERRORS) and a ``data`` dict with the fields its template (or a JSON rendering) needs. The wire
layer turns events into lines (protocol/render/text.py) or, later, into one JSON object per line;
the same event drives both, so they cannot drift apart.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from lobby.text.messages import ERRORS
from lobby.tichu import FrozenDict, FrozenError, FrozenList, GameEvent, freeze, freeze_dict, json_data

__all__ = ["Event", "Listener", "error_event", "game_event"]

_set = object.__setattr__


_NO_DATA = FrozenDict()


class Event:
    """One thing that happened, addressed to one user. ``type`` is a catalog key.

    An event is frozen: its ``type`` and ``data`` cannot be set again, and its data is frozen all
    the way down (lobby.tichu `freeze_dict`: changing it raises FrozenError; a FrozenDict is
    taken as it is, anything else copied once). The listeners of a table
    are handed the same Event in a row and the renderers keep what they made of it by identity
    (lobby/tichu/memo.py), which is correct because nobody can change it."""

    __slots__ = ("type", "data")
    type: str
    data: dict[str, Any]

    def __init__(self, type: str, data: dict[str, Any] | None = None, /, **fields: Any) -> None:
        _set(self, "type", type)
        if data.__class__ is FrozenDict and not fields:   # (a table's view: frozen already)
            _set(self, "data", data)
        else:
            _set(self, "data", freeze_dict(data or _NO_DATA, **fields) if (data or fields)
                 else _NO_DATA)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenError("delivered data is never changed: an Event is frozen")

    def __delattr__(self, name: str) -> None:
        raise FrozenError("delivered data is never changed: an Event is frozen")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self.type, dict(self.data)))

    @property
    def is_error(self) -> bool:
        """Error events have an error code (a key of lobby.text.messages.ERRORS) as their type."""
        return self.type in ERRORS

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and (self.type, self.data) == (other.type, other.data)

    # unhashable, as Python makes a class with __eq__ (said so for the reader; typeshed declares
    # object.__hash__ a method, so mypy cannot take None here)
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Event({self.type!r}, {self.data!r})"


def error_event(code: str, **params: Any) -> Event:
    """The event for a refused command: its type is ``code``, a key of lobby.text.messages.ERRORS."""
    return Event(code, params)


def game_event(ev: GameEvent, table: int | None, names: Sequence[str | None],
               players: Sequence[str]) -> Event:
    """An engine event (lobby.tichu.GameEvent: ``kind``, ``data``) as the table event ``game-KIND`` of
    table ``table``: its data made JSON-safe, with the table number, ``names`` (the names by
    seat in the round the event belongs to) and, for ``round-score`` and ``match-over``
    (victory points are per player), ``players`` (the names by player). The one shape of a
    game event: the live table (lobby/tables/table.py) and a replay (lobby/storage/records.py) both make it
    here."""
    data = {str(k): json_data(v) for k, v in ev.data.items()}
    data["table"] = table
    # (the table's names frozen already: the very object of its views while they do not change)
    data["names"] = names if type(names) is FrozenList else freeze(list(names))
    if ev.kind in ("round-score", "match-over"):
        data["players"] = list(players)
    return Event("game-" + ev.kind, data)


class Listener(Protocol):
    """What the world needs from a connected user (the wire layer's session implements it)."""

    def deliver(self, event: Event) -> None:
        """Show ``event`` to the user (rendered as text, or as JSON in machine mode)."""

    def disconnect(self, event: Event) -> None:
        """Show ``event`` (the reason) to the user, then close the connection."""
