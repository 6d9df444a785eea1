"""Events: what the world tells a user. Data, never text.

An event has a ``type`` that is also a key of the message catalog (lobby/messages.py INFO or
ERRORS) and a ``data`` dict with the fields its template (or a JSON rendering) needs. The wire
layer turns events into lines (protocol/render_text.py) or, later, into one JSON object per line;
the same event drives both, so they cannot drift apart.
"""
from __future__ import annotations

from typing import Any, Protocol

from lobby.messages import ERRORS

__all__ = ["Event", "Listener", "error_event"]


class Event:
    """One thing that happened, addressed to one user. ``type`` is a catalog key."""

    __slots__ = ("type", "data")

    def __init__(self, type: str, data: dict[str, Any] | None = None, /, **fields: Any) -> None:
        self.type = type
        self.data: dict[str, Any] = dict(data or {}, **fields) if (data or fields) else {}

    @property
    def is_error(self) -> bool:
        """Error events have an error code (a key of lobby.messages.ERRORS) as their type."""
        return self.type in ERRORS

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and (self.type, self.data) == (other.type, other.data)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Event({self.type!r}, {self.data!r})"


def error_event(code: str, **params: Any) -> Event:
    """The event for a refused command: its type is ``code``, a key of lobby.messages.ERRORS."""
    return Event(code, params)


class Listener(Protocol):
    """What the world needs from a connected user (the wire layer's session implements it)."""

    def deliver(self, event: Event) -> None:
        """Show ``event`` to the user (rendered as text, or as JSON in machine mode)."""

    def disconnect(self, event: Event) -> None:
        """Show ``event`` (the reason) to the user, then close the connection."""
