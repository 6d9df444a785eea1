"""The engine's events: what happened in a round or a match, data only (`GameEvent`), and
`json_data`, the engine's data made JSON-safe (cards as BSW text).

The world has its own event type (lobby.events.Event: a catalog key and data for one user); a
table turns each `GameEvent` into one (`lobby.events.game_event`).
"""
from __future__ import annotations

from typing import Any

from .cards import Card, format_cards

__all__ = ["GameEvent", "json_data"]


class GameEvent:
    """Something that happened. `to` is the seat (0..3) allowed to see it, or None for everyone
    (a match re-addresses it to a player).

    `kind` is one of: deal (to: the first 8 cards, or all 14 without Grand Tichu), grand, deal-rest
    (to: the last 6 cards), tichu, exchange-given, exchange-received (to: the cards received and
    from whom), play-phase, play, wish, wish-fulfilled, pass, trick-won, dragon-given, trick-taken,
    out, round-over; a match adds round-start, round-score and match-over. `data` is a small dict;
    cards in it are tuples of `Card` (`to_json()` formats them).
    """

    __slots__ = ("kind", "to", "data")

    def __init__(self, kind: str, to: int | None, data: dict[str, Any]) -> None:
        self.kind = kind
        self.to = to
        self.data = data

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "to": self.to}
        for k, v in self.data.items():
            d[k] = json_data(v)
        return d

    def __repr__(self) -> str:
        return f"GameEvent({self.kind!r}, to={self.to!r}, {self.data!r})"


_PLAIN_TYPES = frozenset((str, int, bool, float))


def json_data(value: Any) -> Any:
    """Engine data -> JSON-safe values; a sequence of cards becomes BSW text (`R5 G5`)."""
    if value is None or type(value) in _PLAIN_TYPES:      # the common case first (not a Card)
        return value
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Card) for v in value):
        return format_cards(value)
    if isinstance(value, dict):
        return {str(k): json_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_data(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    return value
