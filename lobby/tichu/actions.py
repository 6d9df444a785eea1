"""The actions a seat can take during a round, as small frozen dataclasses.

Actions are what game records store: `action.to_json()` gives a small JSON-safe dict and
`action_from_json(d)` reads it back. Cards travel in BSW notation (`"R5 G5 Ph"`).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lobby.tichu.cards import UNSET, Card, format_cards, parse_cards

__all__ = [
    "UNSET", "Action", "GrandTichu", "CallTichu", "Exchange", "Play", "Pass", "Wish", "GiveDragon",
    "action_from_json",
]


_set = object.__setattr__


def _cards_text(cards: Iterable[int]) -> str:
    return format_cards(cards)


def _cards_from_text(text: Any) -> tuple[Card, ...]:
    if isinstance(text, str):
        return tuple(parse_cards(text))
    return tuple(Card(c) if not isinstance(c, str) else parse_cards(c)[0] for c in text)


class Action:
    """Base class of all actions (for isinstance checks and type hints)."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class GrandTichu(Action):
    """The decision on a Grand Tichu, taken with 8 cards: `call=True` calls it, False declines."""

    call: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"a": "grand", "call": bool(self.call)}


@dataclass(frozen=True, slots=True)
class CallTichu(Action):
    """A small Tichu call (allowed until the caller plays his first card)."""

    def to_json(self) -> dict[str, Any]:
        return {"a": "tichu"}


@dataclass(frozen=True, slots=True, init=False)
class Exchange(Action):
    """The three cards given away: to the next player in turn order, to the partner, to the
    previous player (BSW's order)."""

    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[int]) -> None:
        _set(self, "cards", cards if cards.__class__ is tuple else tuple(cards))

    def to_json(self) -> dict[str, Any]:
        return {"a": "exchange", "cards": _cards_text(self.cards)}


@dataclass(frozen=True, slots=True, init=False)
class Play(Action):
    """Cards played: in turn, as a lead, or a bomb out of turn.

    `phoenix_as` picks the rank the Phoenix stands for when the cards have several readings;
    `wish` goes with a Mah Jong play: a rank string ("7", "K", "10"), None for "no wish", or UNSET
    to name it right after with a `Wish` action.
    """

    cards: tuple[Card, ...]
    phoenix_as: int | None
    wish: Any

    def __init__(self, cards: Iterable[int], phoenix_as: int | None = None,
                 wish: Any = UNSET) -> None:
        # a plain __init__: a Play is built once per move on the engine's hot path
        _set(self, "cards", cards if cards.__class__ is tuple else tuple(cards))
        _set(self, "phoenix_as", phoenix_as)
        _set(self, "wish", wish)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"a": "play", "cards": _cards_text(self.cards)}
        if self.phoenix_as is not None:
            d["phoenix_as"] = int(self.phoenix_as)
        if self.wish is not UNSET:
            d["wish"] = self.wish
        return d


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Passing in turn."""

    def to_json(self) -> dict[str, Any]:
        return {"a": "pass"}


@dataclass(frozen=True, slots=True)
class Wish(Action):
    """The wish of the Mah Jong player, named after his play: a rank string, or None for none."""

    rank: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"a": "wish", "rank": self.rank}


@dataclass(frozen=True, slots=True)
class GiveDragon(Action):
    """The trick won with the Dragon goes to this seat (an opponent of the winner)."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"a": "dragon", "seat": int(self.seat)}


def action_from_json(d: dict[str, Any]) -> Action:
    """Read back an action written by `to_json()`. Raises ValueError on anything else."""
    try:
        a = d["a"]
        if a == "play":
            return Play(_cards_from_text(d["cards"]), d.get("phoenix_as"),
                        d.get("wish", UNSET))
        if a == "pass":
            return Pass()
        if a == "tichu":
            return CallTichu()
        if a == "grand":
            return GrandTichu(bool(d.get("call", True)))
        if a == "exchange":
            return Exchange(_cards_from_text(d["cards"]))
        if a == "wish":
            return Wish(d.get("rank"))
        if a == "dragon":
            return GiveDragon(int(d["seat"]))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not an action: {d!r}") from exc
    raise ValueError(f"not an action: {d!r}")
