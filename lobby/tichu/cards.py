"""The 56 Tichu cards and BSW log notation (the only module that knows the notation).

A card is a `Card`, an `int` subclass with exactly 56 interned instances (index 0..55), so it is
cheap to hash, compare and use in bit masks (`1 << card`). Normal card index =
`(rank - 2) * 4 + suit`, suit 0..3 = S B G R; specials: Mah Jong 52, Dog 53, Phoenix 54, Dragon 55.

The tables at the bottom (RANK_OF, RANK_MASK, ...) are for the engine's hot paths.
"""
from __future__ import annotations

import re
from typing import Iterable

from lobby.tichu.errors import Rejected

__all__ = [
    "Card", "DECK", "MAHJONG", "DOG", "PHOENIX", "DRAGON", "SUITS", "RANKS",
    "parse_cards", "parse_card", "format_cards", "sort_cards", "rank_name", "parse_rank",
    "cards_mask", "mask_cards", "card_points",
]

SUITS = "SBGR"                      # Schwert (black), Pagode (blue), Jade (green), Stern (red)
RANKS = tuple(range(2, 15))         # 2..14 (Ace)
_RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
               11: "B", 12: "D", 13: "K", 14: "A"}
# input forms of ranks (upper case): BSW plus English J Q T
_RANK_INPUT = {name: rank for rank, name in _RANK_NAMES.items()}
_RANK_INPUT.update({"J": 11, "Q": 12, "T": 10})

_MAHJONG, _DOG, _PHOENIX, _DRAGON = 52, 53, 54, 55
_SPECIAL_NAMES = {_MAHJONG: "Ma", _DOG: "Hu", _PHOENIX: "Ph", _DRAGON: "Dr"}
_SPECIAL_INPUT = {
    "MA": _MAHJONG, "MAHJONG": _MAHJONG, "MAH-JONG": _MAHJONG, "1": _MAHJONG,
    "HU": _DOG, "DOG": _DOG, "HUND": _DOG,
    "PH": _PHOENIX, "PHOENIX": _PHOENIX, "PHÖNIX": _PHOENIX,
    "DR": _DRAGON, "DRAGON": _DRAGON, "DRACHE": _DRAGON,
}

_CARDS: list["Card"] = []


class Card(int):
    """One of the 56 cards. `Card(i)` returns the interned instance for index i."""

    rank: int          # 2..14; Mah Jong 1, Dog 0, Phoenix 0, Dragon 15
    suit: int | None   # 0..3 (S B G R) or None for specials
    is_special: bool
    points: int
    name: str          # BSW notation

    def __new__(cls, index: int) -> "Card":
        if _CARDS:
            try:
                if index >= 0:
                    return _CARDS[index]
            except (IndexError, TypeError):
                pass
            raise ValueError(f"no card with index {index!r}")
        return super().__new__(cls, index)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple:
        return (Card, (int(self),))

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo: dict) -> "Card":
        return self


def _build() -> None:
    for index in range(56):
        card = int.__new__(Card, index)
        if index < 52:
            rank, suit = index // 4 + 2, index % 4
            card.rank, card.suit, card.is_special = rank, suit, False
            card.points = 5 if rank == 5 else 10 if rank in (10, 13) else 0
            card.name = SUITS[suit] + _RANK_NAMES[rank]
        else:
            card.rank = {_MAHJONG: 1, _DOG: 0, _PHOENIX: 0, _DRAGON: 15}[index]
            card.suit, card.is_special = None, True
            card.points = {_DRAGON: 25, _PHOENIX: -25}.get(index, 0)
            card.name = _SPECIAL_NAMES[index]
        _CARDS.append(card)


_build()

DECK: tuple[Card, ...] = tuple(_CARDS)
MAHJONG, DOG, PHOENIX, DRAGON = DECK[52], DECK[53], DECK[54], DECK[55]

# ---- tables for the engine ----------------------------------------------------------------------
MAHJONG_BIT, DOG_BIT, PHOENIX_BIT, DRAGON_BIT = 1 << 52, 1 << 53, 1 << 54, 1 << 55
SPECIAL_MASK = MAHJONG_BIT | DOG_BIT | PHOENIX_BIT | DRAGON_BIT
NORMAL_MASK = (1 << 52) - 1
FULL_MASK = (1 << 56) - 1
# RANK_MASK[r]: the bits of the four cards of rank r (2..14); 0 for other indices
RANK_MASK: tuple[int, ...] = tuple((0xF << ((r - 2) * 4)) if 2 <= r <= 14 else 0 for r in range(16))
RANK_OF: tuple[int, ...] = tuple(c.rank for c in DECK)
POINTS: tuple[int, ...] = tuple(c.points for c in DECK)
# sort key: Dog first, Mah Jong, 2..A (by suit), Phoenix, Dragon last
SORT_KEY: tuple[int, ...] = tuple(
    (i + 8) if i < 52 else {_DOG: 0, _MAHJONG: 4, _PHOENIX: 100, _DRAGON: 104}[i] for i in range(56))


def card_points(cards: Iterable[int]) -> int:
    """Card points of these cards (RULES.md 25)."""
    return sum(POINTS[c] for c in cards)


def cards_mask(cards: Iterable[int]) -> int:
    """The bit mask of these cards (`1 << card` each)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a bit mask, in sort order (see `sort_cards`)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    if len(out) > 1 and out[-1] >= 52 and (out[-1] <= 53 or out[-2] >= 52):
        out.sort(key=SORT_KEY.__getitem__)   # Mah Jong or Dog with other cards: they go first
    return tuple(out)


def sort_cards(cards: Iterable[int]) -> list[Card]:
    """Cards sorted by rank then suit: Dog, Mah Jong, 2..A, Phoenix, Dragon."""
    return [_CARDS[c] for c in sorted(cards, key=SORT_KEY.__getitem__)]


def format_cards(cards: Iterable[int]) -> str:
    """BSW notation, space-separated, in the order given: `R10 GB Ph`."""
    return " ".join(_CARDS[c].name for c in cards)


def rank_name(rank: int | float) -> str:
    """BSW name of a rank: 2..10, B, D, K, A (also Ma 1, Dr 15; a half rank like 7.5 as `7½`)."""
    if isinstance(rank, float) and not rank.is_integer():
        return rank_name(int(rank)) + "½" if rank >= 2 else "1½"
    rank = int(rank)
    if rank in _RANK_NAMES:
        return _RANK_NAMES[rank]
    if rank == 1:
        return "Ma"
    if rank == 15:
        return "Dr"
    raise ValueError(f"no rank {rank!r}")


def parse_rank(text: str | int) -> int:
    """A rank 2..14 from `2..10 B D K A` or `J Q T` (case-insensitive); Rejected("bad-rank")."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 2 <= text <= 14:
            return int(text)
        raise Rejected("bad-rank", token=str(text))
    rank = _RANK_INPUT.get(str(text).strip().upper())
    if rank is None:
        raise Rejected("bad-rank", token=str(text))
    return rank


_TOKEN_CACHE: dict[str, Card] = {}
_SPLIT = re.compile(r"[\s,]+")


def parse_card(token: str) -> Card:
    """One card from a token (BSW or English forms, case-insensitive); Rejected("bad-card")."""
    card = _TOKEN_CACHE.get(token)
    if card is not None:
        return card
    up = token.strip().upper()
    index = _SPECIAL_INPUT.get(up)
    if index is None and len(up) >= 2:
        suit = SUITS.find(up[0])
        rank = _RANK_INPUT.get(up[1:])
        if suit >= 0 and rank is not None:
            index = (rank - 2) * 4 + suit
    if index is None:
        raise Rejected("bad-card", token=token)
    card = _CARDS[index]
    if len(_TOKEN_CACHE) < 4096:
        _TOKEN_CACHE[token] = card
    return card


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards from whitespace- or comma-separated tokens: `R10 GB SD BK RA Ma Hu Ph Dr`.

    Raises Rejected("bad-card", token=...) for a token that is no card and
    Rejected("duplicate-card", card=...) for a card named twice.
    """
    out: list[Card] = []
    seen = 0
    for token in _SPLIT.split(text.strip()):
        if not token:
            continue
        card = parse_card(token)
        bit = 1 << card
        if seen & bit:
            raise Rejected("duplicate-card", card=card.name)
        seen |= bit
        out.append(card)
    return tuple(out)
