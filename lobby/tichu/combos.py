"""Combinations: classifying a set of cards (with Phoenix readings), comparison, bombs.

docs/rules.md 5-14. A `Combo` is immutable and interned by (card mask, reading): building the same play
twice returns the same object, so the move generator can hand out combos without allocating.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import cast

from lobby.tichu import memo as _memo
from lobby.tichu.cards import (
    DOG_BIT,
    DRAGON_BIT,
    MAHJONG_BIT,
    PHOENIX_BIT,
    Card,
    cards_mask,
    format_cards,
    mask_cards,
    rank_name,
)

__all__ = ["Combo", "classify", "beats", "readings", "combo_of_mask", "phoenix_single",
           "KINDS"]

SINGLE, PAIR, TRIPLE, FULLHOUSE, STRAIGHT, STAIRS, BOMB, DOG = (
    "single", "pair", "triple", "fullhouse", "straight", "stairs", "bomb", "dog")
KINDS = (SINGLE, PAIR, TRIPLE, FULLHOUSE, STRAIGHT, STAIRS, BOMB, DOG)

_POPCOUNT4 = tuple(bin(n).count("1") for n in range(16))


class _Slots:
    """The storage of a Combo: plain slots, so a Combo is built with cheap attribute stores and
    then becomes a `Combo` (whose `__setattr__` refuses every change)."""

    __slots__ = ("kind", "rank", "length", "_cards", "phoenix_as", "is_bomb", "mask", "key",
                 "bomb_order", "_text", "__weakref__")

    kind: str
    rank: int | float
    length: int
    _cards: tuple[Card, ...] | None
    #: the play's text in BSW notation, once asked for (lobby/tichu/view_text.py `play_text`)
    _text: str | None
    phoenix_as: int | None
    is_bomb: bool
    mask: int
    key: int
    bomb_order: int | float


class Combo(_Slots):
    """One play: `kind`, comparison `rank`, `length`, `cards`, `phoenix_as`, `is_bomb`.

    `mask` is the card bit mask; `key` identifies the play with its reading (equal keys, equal
    combos); `bomb_order` orders bombs (docs/rules.md 13). Iterating yields the cards.
    """

    __slots__ = ()

    def __new__(cls, kind: str, rank: int | float, mask: int, phoenix_as: int | None = None) -> Combo:
        return _make(kind, rank, mask, phoenix_as, _key(mask, phoenix_as, rank))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, in sort order (computed when first asked for)."""
        cards = self._cards
        if cards is None:
            cards = mask_cards(self.mask)
            object.__setattr__(self, "_cards", cards)
        return cards

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Combo is immutable")

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return self.length

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 56 and bool(self.mask >> card & 1)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Combo):
            return self.key == other.key
        return NotImplemented

    def __reduce__(self) -> tuple[type[Combo], tuple[str, int | float, int, int | None]]:
        return (Combo, (self.kind, self.rank, self.mask, self.phoenix_as))

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        pa = f" Ph={rank_name(self.phoenix_as)}" if self.phoenix_as else ""
        return f"<Combo {self.kind} {rank_name(self.rank)}: {format_cards(self.cards)}{pa}>"


_new = object.__new__


def _make(kind: str, rank: int | float, mask: int, phoenix_as: int | None, key: int) -> Combo:
    # built as plain slots (whose attributes can be set cheaply), then turned into a Combo
    self = _new(_Slots)
    self._cards = None
    self._text = None
    self.kind = kind
    self.rank = rank
    self.length = n = mask.bit_count()
    self.phoenix_as = phoenix_as
    self.is_bomb = bomb = kind == BOMB
    self.mask = mask
    self.key = key
    # straight bombs beat every four of a kind; longer beats shorter; then by rank
    self.bomb_order = (n * 100 + rank if n >= 5 else rank) if bomb else 0
    self.__class__ = Combo
    return cast(Combo, self)        # (a Combo now: its class was set the line above)


def _key(mask: int, phoenix_as: int | None, rank: int | float) -> int:
    if mask == PHOENIX_BIT:          # a Phoenix single: its half rank is part of its identity
        return (mask << 5) | (16 + int(rank * 2 - 3) // 2)
    return (mask << 5) | (phoenix_as or 0)


# ---- interning ----------------------------------------------------------------------------------
#: the one Combo of each key (interning, not a memo: one object per combination keeps memory flat)
_INTERNED: dict[int, Combo] = {}
_CACHE_LIMIT = 200_000
#: a card mask -> its readings (one of lobby.tichu.memo's)
_READINGS: _memo.BoundedMemo[tuple[Combo, ...]] = _memo.BoundedMemo(_CACHE_LIMIT)


def _intern(kind: str, rank: int | float, mask: int, phoenix_as: int | None) -> Combo:
    key = (mask << 5) | (phoenix_as or 0) if mask != PHOENIX_BIT else _key(mask, None, rank)
    combo = _INTERNED.get(key)
    if combo is None:
        if len(_INTERNED) > _CACHE_LIMIT:
            _INTERNED.clear()
        combo = _INTERNED[key] = _make(kind, rank, mask, phoenix_as, key)
    return combo


def phoenix_single(rank2: int) -> Combo:
    """The Phoenix as a single worth rank2 / 2 (rank2 odd: 3 = 1.5 ... 29 = 14.5)."""
    return _intern(SINGLE, rank2 / 2, PHOENIX_BIT, None)


# ---- classification -----------------------------------------------------------------------------
def _compute_readings(mask: int) -> tuple[Combo, ...]:
    """Every reading of this card set, highest first (led value for a Phoenix single)."""
    if mask & DOG_BIT:
        return (_intern(DOG, 0, mask, None),) if mask == DOG_BIT else ()
    if mask & DRAGON_BIT:
        return (_intern(SINGLE, 15, mask, None),) if mask == DRAGON_BIT else ()
    if mask == PHOENIX_BIT:
        return (phoenix_single(3),)
    if mask == MAHJONG_BIT:
        return (_intern(SINGLE, 1, mask, None),)
    ph = bool(mask & PHOENIX_BIT)
    ma = bool(mask & MAHJONG_BIT)
    counts = [0] * 15                  # counts[r] for r 1..14 (1 = Mah Jong)
    ranks: list[int] = []              # distinct ranks present, ascending
    if ma:
        counts[1] = 1
        ranks.append(1)
    suits_seen = 0
    normal = mask & ((1 << 52) - 1)
    for r in range(2, 15):
        nib = (normal >> ((r - 2) * 4)) & 0xF
        if nib:
            counts[r] = _POPCOUNT4[nib]
            ranks.append(r)
            suits_seen |= nib
    n = sum(counts) + ph
    out: list[Combo] = []
    if not ranks:
        return ()
    lo, hi = ranks[0], ranks[-1]
    if n == 1:
        return (_intern(SINGLE, lo, mask, None),)
    nranks = len(ranks)
    # same-rank plays (no Mah Jong in them)
    if nranks == 1 and not ma:
        c = counts[lo]
        if not ph:
            if c == 2:
                out.append(_intern(PAIR, lo, mask, None))
            elif c == 3:
                out.append(_intern(TRIPLE, lo, mask, None))
            elif c == 4:
                out.append(_intern(BOMB, lo, mask, None))
        else:
            if c == 1:
                out.append(_intern(PAIR, lo, mask, lo))
            elif c == 2:
                out.append(_intern(TRIPLE, lo, mask, lo))
        return tuple(out)
    # full house: triple + pair of a different rank
    if n == 5 and nranks == 2 and not ma:
        a, b = counts[lo], counts[hi]
        if not ph:
            if (a, b) == (3, 2):
                out.append(_intern(FULLHOUSE, lo, mask, None))
            elif (a, b) == (2, 3):
                out.append(_intern(FULLHOUSE, hi, mask, None))
        else:
            if (a, b) == (2, 2):   # two readings: Phoenix completes either triple
                out.append(_intern(FULLHOUSE, hi, mask, hi))
                out.append(_intern(FULLHOUSE, lo, mask, lo))
            elif (a, b) == (3, 1):
                out.append(_intern(FULLHOUSE, lo, mask, hi))
            elif (a, b) == (1, 3):
                out.append(_intern(FULLHOUSE, hi, mask, lo))
        if out:
            return tuple(out)
    # straight: >= 5 distinct consecutive ranks, one card each; the Phoenix fills one rank 2..14
    if n >= 5 and nranks == n - ph and all(counts[r] == 1 for r in ranks):
        span = hi - lo + 1
        if not ph:
            if span == n:
                one_suit = _POPCOUNT4[suits_seen] == 1 and not ma
                out.append(_intern(BOMB if one_suit else STRAIGHT, hi, mask, None))
        elif span == n:             # one gap inside, the Phoenix fills it
            gap = next(r for r in range(lo, hi + 1) if not counts[r])
            out.append(_intern(STRAIGHT, hi, mask, gap))
        elif span == n - 1:         # consecutive: the Phoenix extends above or below
            if hi < 14:
                out.append(_intern(STRAIGHT, hi + 1, mask, hi + 1))
            if lo >= 3:
                out.append(_intern(STRAIGHT, hi, mask, lo - 1))
        return tuple(out)
    # stairs: >= 2 pairs of consecutive ranks; the Phoenix completes one pair
    if n >= 4 and n % 2 == 0 and not ma and hi - lo + 1 == nranks == n // 2:
        if not ph:
            if all(counts[r] == 2 for r in ranks):
                out.append(_intern(STAIRS, hi, mask, None))
        else:
            singles = [r for r in ranks if counts[r] == 1]
            if len(singles) == 1 and all(counts[r] in (1, 2) for r in ranks):
                out.append(_intern(STAIRS, hi, mask, singles[0]))
    return tuple(out)


def readings(cards: Iterable[int] | int) -> tuple[Combo, ...]:
    """Every combination these cards (or this card mask) form, highest reading first."""
    mask = cards if isinstance(cards, int) else cards_mask(cards)
    found = _READINGS.find(mask) if _memo.ON else None
    if found is None:
        found = _READINGS.put(mask, _compute_readings(mask))
    return found


def combo_of_mask(mask: int, phoenix_as: int | None = None) -> Combo | None:
    """The combination with this card mask and Phoenix reading (None: the highest), if any."""
    found = _READINGS.find(mask) if _memo.ON else None
    if found is None:
        found = readings(mask)
    if not found:
        return None
    if phoenix_as is None:
        return found[0]
    for combo in found:
        if combo.phoenix_as == phoenix_as:
            return combo
    return None


def classify(cards: Iterable[int] | int, phoenix_as: int | None = None,
             on: Combo | None = None) -> Combo | None:
    """The combination these cards form, or None.

    With a Phoenix and several readings `phoenix_as` picks one (None when it fits no reading);
    without it, the highest reading that beats `on`, else the highest reading. A Phoenix single
    gets its half rank from `on` (1.5 when led; on the Dragon or a non-single it stays 1.5).
    """
    found = readings(cards)
    if not found:
        return None
    first = found[0]
    if first.mask == PHOENIX_BIT:
        if on is not None and on.kind == SINGLE and on.mask != DRAGON_BIT:
            return phoenix_single(int(on.rank * 2) + 1)
        return first
    if phoenix_as is not None and first.mask & PHOENIX_BIT:
        for combo in found:
            if combo.phoenix_as == phoenix_as:
                return combo
        return None
    if on is not None and len(found) > 1:
        for combo in found:
            if beats(combo, on):
                return combo
    return first


def beats(combo: Combo, top: Combo | None) -> bool:
    """Whether `combo` may be played on `top` (docs/rules.md 6, 8, 9, 10, 13, 14)."""
    if top is None:
        return True
    tkind = top.kind
    kind = combo.kind
    if tkind == DOG or kind == DOG:
        return False
    if kind == BOMB:
        return tkind != BOMB or combo.bomb_order > top.bomb_order
    if tkind == BOMB or kind != tkind:
        return False
    if combo.mask == PHOENIX_BIT:          # half a rank above any single but the Dragon
        return top.mask != DRAGON_BIT and top.mask != PHOENIX_BIT
    return combo.length == top.length and combo.rank > top.rank
