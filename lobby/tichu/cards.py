"""The 56 Tichu cards and BSW log notation (the only module that knows the notation).

Cards (`R10 GB SD BK RA Ma Hu Ph Dr`), ranks (`2..10 B D K A`, also `J Q T`), and the card text
of a play: `Ph=7` (the Phoenix's reading), `Ma wish 8` / `wish none`, and the rank-only shorthand
`7 7` that takes cards of the hand (`parse_play`, `format_play`). The table (lobby/tables/table.py), the
bots (lobby/bots/strategies/strategy.py) and the renderers use these and write no notation of their own.

A card is a `Card`, an `int` subclass with exactly 56 interned instances (index 0..55), so it is
cheap to hash, compare and use in bit masks (`1 << card`). Normal card index =
`(rank - 2) * 4 + suit`, suit 0..3 = S B G R; specials: Mah Jong 52, Dog 53, Phoenix 54, Dragon 55.

The tables at the bottom (RANK_OF, RANK_MASK, ...) are for the engine's hot paths.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from lobby.tichu import memo as _memo
from lobby.tichu.errors import Rejected

__all__ = [
    "Card", "DECK", "MAHJONG", "DOG", "PHOENIX", "DRAGON", "SUITS", "RANKS",
    "parse_cards", "parse_card", "format_cards", "sort_cards", "rank_name", "parse_rank",
    "cards_mask", "mask_cards", "card_points", "mask_points", "parse_play", "format_play",
    "parse_wish", "WISH_WORDS", "is_play_text", "UNSET",
]


class _Unset:
    """The wish of a Mah Jong play that is still to be named with a following `Wish` action."""

    __slots__ = ()
    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()

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

_CARDS: list[Card] = []


class Card(int):
    """One of the 56 cards. `Card(i)` returns the interned instance for index i."""

    rank: int          # 2..14; Mah Jong 1, Dog 0, Phoenix 0, Dragon 15
    suit: int | None   # 0..3 (S B G R) or None for specials
    is_special: bool
    points: int
    name: str          # BSW notation

    def __new__(cls, index: int) -> Card:
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

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
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


# card points (docs/rules.md 25) by bit mask, from the cards' own points: fives 5, tens and kings 10,
# the Dragon 25, the Phoenix -25
_FIVES = sum(1 << c for c in range(52) if POINTS[c] == 5)
_TENS = sum(1 << c for c in range(52) if POINTS[c] == 10)
_DRAGON_POINTS, _PHOENIX_POINTS = POINTS[_DRAGON], POINTS[_PHOENIX]


def card_points(cards: Iterable[int]) -> int:
    """Card points of these cards (docs/rules.md 25)."""
    return sum(POINTS[c] for c in cards)


def mask_points(mask: int) -> int:
    """Card points of the cards in a bit mask (the same as `card_points`, for hot paths)."""
    pts = 5 * (mask & _FIVES).bit_count() + 10 * (mask & _TENS).bit_count()
    if mask & DRAGON_BIT:
        pts += _DRAGON_POINTS
    if mask & PHOENIX_BIT:
        pts += _PHOENIX_POINTS
    return pts


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


#: a token read -> its card (one of lobby.tichu.memo's)
_TOKEN_CACHE: _memo.BoundedMemo[Card] = _memo.BoundedMemo(4096)
_SPLIT = re.compile(r"[\s,]+")


def parse_card(token: str) -> Card:
    """One card from a token (BSW or English forms, case-insensitive); Rejected("bad-card")."""
    card = _TOKEN_CACHE.find(token) if _memo.ON else None
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
    return _TOKEN_CACHE.put(token, _CARDS[index])


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


# ---- the card text of a play --------------------------------------------------------------------
#: the word before a wish (`Ma wish 8`), and the words for no wish (`Ma wish none`)
WISH_WORDS = ("wish", "wunsch", "w", "souhait", "vœu", "voeu", "deseo", "ønske", "onske")
NO_WISH_WORDS = ("none", "no", "nothing", "keiner", "kein", "-", "0", "aucun", "rien",
                 "ninguno", "nada", "ingen", "intet")


def parse_wish(text: str) -> str | None:
    """A wish as typed (`8`, `J`, `none`) -> the rank's BSW name or None; Rejected("bad-rank")."""
    t = text.strip()
    if t.lower() in NO_WISH_WORDS:
        return None
    try:
        return rank_name(parse_rank(t))
    except (Rejected, ValueError, KeyError):
        raise Rejected("bad-rank", token=t) from None


def format_play(cards: Iterable[int], phoenix_as: int | None = None, wish: Any = UNSET) -> str:
    """A play in BSW notation in the order given, the Phoenix with its reading where it is part
    of a longer play (`R5 G5 Ph=5`), and a wish when one is named (`Ma wish 8`, `Ma wish none`)."""
    cards = list(cards)
    text = format_cards(cards)
    if phoenix_as is not None and len(cards) > 1 and _PHOENIX in cards:
        text = text.replace("Ph", "Ph=" + rank_name(int(phoenix_as)))
    if wish is not UNSET:
        text += " wish " + (wish if wish is not None else "none")
    return text


def parse_play(text: str | Iterable[str], hand: Iterable[Card] | None = None, *,
               allow_wish: bool = True) -> tuple[list[Card], int | None, Any]:
    """Read the card text of a play: cards in BSW notation, `Ph=7` (the Phoenix's reading),
    `wish RANK` / `wish none` (with the Mah Jong, when `allow_wish`), and rank-only shorthand
    (`7 7`) when a `hand` is given. `text` is the text or its words.

    Rank-only tokens take cards of that rank from `hand`, preferring cards that are in no bomb
    of the hand; if a bomb would be broken and there is a choice, Rejected("ambiguous-cards").
    Returns (cards, phoenix_as, wish) with wish UNSET when none was named. Rejected with
    `bad-card`, `duplicate-card`, `bad-rank`, `missing-rank`, `ambiguous-cards`, or
    `bad-arguments` (`wish` without a rank).
    """
    words = text.split() if isinstance(text, str) else list(text)
    tokens = " ".join(words).replace(",", " ").split()
    explicit: list[Card] = []
    ranks: list[int] = []
    phoenix_as: int | None = None
    wish: Any = UNSET
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if allow_wish and tok.lower() in WISH_WORDS:
            if i + 1 >= len(tokens):
                raise Rejected("bad-arguments", usage="/play CARDS wish RANK")
            wish = parse_wish(tokens[i + 1])
            i += 2
            continue
        if "=" in tok:
            head, _, reading = tok.partition("=")
            card = _one_card(head)
            if card != _PHOENIX:
                raise Rejected("bad-card", token=tok)
            try:
                phoenix_as = int(parse_rank(reading))
            except (Rejected, ValueError, KeyError):
                raise Rejected("bad-rank", token=reading) from None
            explicit.append(card)
            i += 1
            continue
        named = _maybe_card(tok)
        if named is not None:
            if named in explicit:
                raise Rejected("duplicate-card", card=str(named))
            explicit.append(named)
        else:
            rank = _maybe_rank(tok) if hand is not None else None
            if rank is None:
                parse_cards(tok)                     # raises Rejected("bad-card", token=...)
                raise Rejected("bad-card", token=tok)
            ranks.append(rank)
        i += 1
    if ranks:
        assert hand is not None
        explicit = explicit + _pick_ranks(ranks, list(hand), explicit)
    return explicit, phoenix_as, wish


def is_play_text(text: str, *, allow_wish: bool = True) -> bool:
    """Whether ``text`` reads as the card text of a play (``parse_play``'s forms, a rank alone
    included, whatever the hand): every token a card, a rank, ``Ph=RANK``, or (``allow_wish``)
    ``wish RANK``. ``play nice`` and ``joue avec moi`` do not."""
    tokens = text.replace(",", " ").split()
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if allow_wish and tok.lower() in WISH_WORDS:
            if i + 1 >= len(tokens):
                return False
            try:
                parse_wish(tokens[i + 1])
            except Rejected:
                return False
            i += 2
            continue
        if "=" in tok:
            head, _, reading = tok.partition("=")
            if _maybe_card(head) != _PHOENIX or _maybe_rank(reading) is None:
                return False
        elif _maybe_card(tok) is None and _maybe_rank(tok) is None:
            return False
        i += 1
    return bool(tokens)


def _one_card(tok: str) -> Card:
    cards = parse_cards(tok)
    if len(cards) != 1:
        raise Rejected("bad-card", token=tok)
    return cards[0]


def _maybe_card(tok: str) -> Card | None:
    try:
        cards = parse_cards(tok)
    except Rejected:
        return None
    return cards[0] if len(cards) == 1 else None


def _maybe_rank(tok: str) -> int | None:
    try:
        rank = int(parse_rank(tok))
    except (Rejected, ValueError, KeyError):
        return None
    return rank if 2 <= rank <= 14 else None


def _straight_bomb_cards(hand: list[Card]) -> set[Card]:
    """Cards of `hand` that belong to a straight bomb in it (five or more in a row, one suit)."""
    normal = [c for c in hand if not c.is_special]
    out: set[Card] = set()
    for suit in range(4):
        ranks = sorted(c.rank for c in normal if c.suit == suit)
        run: list[int] = []
        for r in [*ranks, 99]:
            if run and r == run[-1] + 1:
                run.append(r)
                continue
            if len(run) >= 5:
                out.update(c for c in normal if c.suit == suit and c.rank in run)
            run = [r]
    return out


def _pick_ranks(ranks: list[int], hand: list[Card], explicit: list[Card]) -> list[Card]:
    """Cards for rank-only tokens (`7 7`): take cards that are in no straight bomb of the hand;
    where every choice breaks one and there is still a choice, `ambiguous-cards`. (Breaking a
    four of a kind of the named rank is what the player asked for.)"""
    bomb_cards = _straight_bomb_cards(hand)
    chosen: list[Card] = []
    wanted: dict[int, int] = {}
    for r in ranks:
        wanted[r] = wanted.get(r, 0) + 1
    for rank, count in wanted.items():
        pool = sorted(c for c in hand if not c.is_special and c.rank == rank   # by suit
                      and c not in explicit)
        if len(pool) < count:
            raise Rejected("missing-rank", rank=rank_name(rank), count=count)
        safe = [c for c in pool if c not in bomb_cards]
        risky = [c for c in pool if c in bomb_cards]
        if len(safe) >= count:
            chosen.extend(safe[:count])
            continue
        need = count - len(safe)
        if need < len(risky):
            example = " ".join(str(c) for c in pool[:count])
            raise Rejected("ambiguous-cards", rank=rank_name(rank), example=example)
        chosen.extend(safe + risky)
    return chosen
