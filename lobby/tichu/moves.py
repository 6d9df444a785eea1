"""Legal plays for the player in turn, passing, bombs out of turn, the wish (RULES.md 5-14, 19-22).

Hands are bit masks internally (`1 << card`); per rank the four cards are one nibble. Plays are
generated directly from the nibbles (never by trying subsets) and handed out as interned `Combo`s;
the answer for (hand, top play, wish) is cached, since a round asks the same question several times
(legal actions, the view, then checking the chosen play).
"""
from __future__ import annotations

from typing import Iterable, Sequence, Union

from lobby.tichu.cards import (
    DOG_BIT, DRAGON_BIT, MAHJONG_BIT, PHOENIX_BIT, RANK_MASK, Card, cards_mask, format_cards,
    mask_cards, parse_cards, parse_rank, rank_name,
)
from lobby.tichu.combos import (
    BOMB, DOG, FULLHOUSE, PAIR, SINGLE, STAIRS, STRAIGHT, TRIPLE, Combo, _intern, beats,
    classify, describe, describe_kind, phoenix_single, readings,
)
from lobby.tichu.errors import Rejected

__all__ = ["legal_plays", "can_pass", "bombs_out_of_turn", "check_play", "check_bomb_out_of_turn",
           "trick_top", "wish_binds", "fulfils_wish"]

Play = Union[Combo, Iterable[Card]]
Wish = Union[str, int, None]

# ---- tables -------------------------------------------------------------------------------------
_POP = tuple(bin(n).count("1") for n in range(16))
# _SUBS[k][nib]: the sub-nibbles of nib with k bits
_SUBS = tuple(tuple(tuple(s for s in range(16) if s & ~nib == 0 and _POP[s] == k)
                    for nib in range(16)) for k in range(5))
_SHIFT = tuple((r - 2) * 4 if r >= 2 else 0 for r in range(15))
# _BITS[r][nib]: the single-card masks of rank r for nibble nib (r = 1: the Mah Jong)
_BITS = tuple(tuple(tuple(1 << (_SHIFT[r] + i) for i in range(4) if nib >> i & 1) for nib in range(16))
              if r >= 2 else tuple(() for _ in range(16)) for r in range(15))
_SINGLE_OF_BIT: dict[int, Combo] = {}


def _single(bit: int) -> Combo:
    combo = _SINGLE_OF_BIT.get(bit)
    if combo is None:
        combo = _SINGLE_OF_BIT[bit] = readings(bit)[0]
    return combo


def _nibbles(hand: int) -> list[int]:
    """nib[r] for r 0..14 (0 and 1 unused: 0)."""
    return [0, 0, hand & 15, hand >> 4 & 15, hand >> 8 & 15, hand >> 12 & 15, hand >> 16 & 15,
            hand >> 20 & 15, hand >> 24 & 15, hand >> 28 & 15, hand >> 32 & 15, hand >> 36 & 15,
            hand >> 40 & 15, hand >> 44 & 15, hand >> 48 & 15]


# ---- generators (each appends interned combos to out) -------------------------------------------
def _gen_same_rank(out: list, nib: list[int], ph: int, size: int, kind: str, above: int) -> None:
    subs, subs_ph = _SUBS[size], _SUBS[size - 1]
    for r in range(above + 1, 15):
        n = nib[r]
        if not n:
            continue
        sh = _SHIFT[r]
        for s in subs[n]:
            out.append(_intern(kind, r, s << sh, None))
        if ph:
            for s in subs_ph[n]:
                out.append(_intern(kind, r, (s << sh) | PHOENIX_BIT, r))


def _gen_fullhouses(out: list, nib: list[int], ph: int, above: int) -> None:
    pairs: list[tuple[int, int, int]] = []       # (rank, mask, uses phoenix)
    for r in range(2, 15):
        n = nib[r]
        if not n:
            continue
        sh = _SHIFT[r]
        for s in _SUBS[2][n]:
            pairs.append((r, s << sh, 0))
        if ph:
            for s in _SUBS[1][n]:
                pairs.append((r, (s << sh) | PHOENIX_BIT, 1))
    if not pairs:
        return
    for t in range(above + 1, 15):
        n = nib[t]
        if not n or (_POP[n] < 3 and not (ph and _POP[n] == 2)):
            continue
        sh = _SHIFT[t]
        triples = [(s << sh, 0) for s in _SUBS[3][n]]
        if ph:
            triples += [((s << sh) | PHOENIX_BIT, 1) for s in _SUBS[2][n]]
        for tm, tph in triples:
            for pr, pm, pph in pairs:
                if pr == t or (tph and pph):
                    continue
                out.append(_intern(FULLHOUSE, t, tm | pm, t if tph else (pr if pph else None)))


def _products(options: list[tuple[int, ...]]) -> list[int]:
    masks = [0]
    for opts in options:
        if len(opts) == 1:
            o = opts[0]
            masks = [m | o for m in masks]
        else:
            masks = [m | o for m in masks for o in opts]
    return masks


def _window_options(nib: list[int], ma: int, lo: int, hi: int, pairs: bool) -> list[tuple[int, ...]]:
    if pairs:
        return [tuple(s << _SHIFT[r] for s in _SUBS[2][nib[r]]) for r in range(lo, hi + 1)]
    return [((MAHJONG_BIT,) if ma else ()) if r == 1 else _BITS[r][nib[r]] for r in range(lo, hi + 1)]


def _gen_runs(out: list, nib: list[int], ph: int, ma: int, pairs: bool,
              length: int | None, above: int) -> None:
    """Straights (pairs=False; length in cards) or stairs (pairs=True; length in pairs)."""
    kind = STAIRS if pairs else STRAIGHT
    minimum = 2 if pairs else 5
    first = 2 if pairs else 1
    need = 2 if pairs else 1
    have = [False] * 15
    for r in range(first, 15):
        have[r] = (_POP[nib[r]] >= need) if r >= 2 else bool(ma)
    # a rank the Phoenix can complete: a pair needs one real card there; a straight none
    for lo in range(first, 15):
        missing = 0
        miss_at = 0
        for hi in range(lo, 15):
            if not have[hi]:
                if ph and hi >= 2 and (not pairs or nib[hi]):
                    missing += 1
                    miss_at = hi
                else:
                    break
                if missing > 1:
                    break
            size = hi - lo + 1
            if size < minimum or hi <= above or (length is not None and size != length):
                continue
            if length is not None and lo + length - 1 != hi:
                continue
            options = _window_options(nib, ma, lo, hi, pairs)
            if missing:
                j = miss_at - lo
                options[j] = tuple((s << _SHIFT[miss_at]) | PHOENIX_BIT for s in _SUBS[1][nib[miss_at]]) \
                    if pairs else (PHOENIX_BIT,)
                for m in _products(options):
                    out.append(_intern(kind, hi, m, miss_at))
                continue
            flush_possible = not pairs and lo >= 2
            for m in _products(options):
                if flush_possible and _is_flush(m):
                    continue          # a straight of one suit is a bomb (generated with the bombs)
                out.append(_intern(kind, hi, m, None))
            if ph:
                for j, r in enumerate(range(lo, hi + 1)):
                    if r < 2:
                        continue      # the Phoenix is never the 1
                    saved = options[j]
                    options[j] = tuple((s << _SHIFT[r]) | PHOENIX_BIT for s in _SUBS[1][nib[r]]) \
                        if pairs else (PHOENIX_BIT,)
                    for m in _products(options):
                        out.append(_intern(kind, hi, m, r))
                    options[j] = saved


_SUIT_MASK = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))


def _is_flush(m: int) -> bool:
    return (m & _SUIT_MASK[0] == m or m & _SUIT_MASK[1] == m or m & _SUIT_MASK[2] == m
            or m & _SUIT_MASK[3] == m)


def _gen_bombs(out: list, hand: int, nib: list[int], above: Combo | None) -> None:
    order = above.bomb_order if above is not None else -1
    for r in range(2, 15):
        if nib[r] == 15 and r > order:
            out.append(_intern(BOMB, r, 15 << _SHIFT[r], None))
    for s in range(4):
        run = 0
        for r in range(2, 15):
            if hand >> (_SHIFT[r] + s) & 1:
                run += 1
                if run >= 5:
                    for length in range(5, run + 1):
                        if length * 100 + r > order:
                            lo = r - length + 1
                            m = 0
                            for q in range(lo, r + 1):
                                m |= 1 << (_SHIFT[q] + s)
                            out.append(_intern(BOMB, r, m, None))
            else:
                run = 0


def _generate(hand: int, top: Combo | None) -> list[Combo]:
    nib = _nibbles(hand)
    ph = hand & PHOENIX_BIT
    ma = hand & MAHJONG_BIT
    out: list[Combo] = []
    if top is None:                                   # leading: everything
        bits = hand
        while bits:
            low = bits & -bits
            out.append(_single(low))
            bits ^= low
        _gen_same_rank(out, nib, ph, 2, PAIR, 1)
        _gen_same_rank(out, nib, ph, 3, TRIPLE, 1)
        _gen_fullhouses(out, nib, ph, 1)
        _gen_runs(out, nib, ph, ma, False, None, 0)
        _gen_runs(out, nib, ph, ma, True, None, 0)
        _gen_bombs(out, hand, nib, None)
        return out
    kind = top.kind
    if kind == DOG:
        return out
    if kind == BOMB:
        _gen_bombs(out, hand, nib, top)
        return out
    rank = top.rank
    if kind == SINGLE:
        floor = int(rank)
        for r in range(floor + 1, 15):
            for b in _BITS[r][nib[r]]:
                out.append(_single(b))
        if top.mask != DRAGON_BIT:
            if ph:
                out.append(phoenix_single(int(rank * 2) + 1))
            if hand & DRAGON_BIT:
                out.append(_single(DRAGON_BIT))
    elif kind == PAIR:
        _gen_same_rank(out, nib, ph, 2, PAIR, rank)
    elif kind == TRIPLE:
        _gen_same_rank(out, nib, ph, 3, TRIPLE, rank)
    elif kind == FULLHOUSE:
        _gen_fullhouses(out, nib, ph, rank)
    elif kind == STRAIGHT:
        _gen_runs(out, nib, ph, ma, False, top.length, rank)
    elif kind == STAIRS:
        _gen_runs(out, nib, ph, ma, True, top.length // 2, rank)
    _gen_bombs(out, hand, nib, None)
    return out


# ---- the wish and the cache ---------------------------------------------------------------------
_WISH_CACHE: dict[object, int] = {}


def _wish_rank(wish: Wish) -> int:
    """0 for no wish, else the rank 2..14."""
    if wish is None or wish == 0:
        return 0
    w = _WISH_CACHE.get(wish)
    if w is None:
        w = parse_rank(wish)
        _WISH_CACHE[wish] = w
    return w


_ANSWERS: dict[tuple[int, int, int], tuple[tuple[Combo, ...], bool, bool]] = {}
_ANSWERS_LIMIT = 50_000


def _answer(hand: int, top: Combo | None, w: int) -> tuple[tuple[Combo, ...], bool, bool]:
    """(legal plays, may pass, wish binds) for this hand mask, top play and wish rank."""
    key = (hand, top.key if top is not None else -1, w)
    found = _ANSWERS.get(key)
    if found is not None:
        return found
    plays = _generate(hand, top)
    binds = False
    if w and hand & RANK_MASK[w]:
        rm = RANK_MASK[w]
        for p in plays:
            if p.mask & rm:
                binds = True
                break
        if binds:
            plays = [p for p in plays if p.mask & rm or p.is_bomb]
    found = (tuple(plays), top is not None and not binds, binds)
    if len(_ANSWERS) >= _ANSWERS_LIMIT:
        _ANSWERS.clear()
    _ANSWERS[key] = found
    return found


def _hand_mask(hand: Iterable[int] | int) -> int:
    if type(hand) is int:
        return hand  # type: ignore[return-value]
    m = 0
    for c in hand:  # type: ignore[union-attr]
        m |= 1 << c
    return m


def _top_at(trick: Sequence[Play], i: int) -> Combo:
    play = trick[i]
    if isinstance(play, Combo):
        if play.mask != PHOENIX_BIT:
            return play
        mask = PHOENIX_BIT
    else:
        mask = cards_mask(play)
    below = _top_at(trick, i - 1) if (mask & PHOENIX_BIT and i > 0) else None
    combo = classify(mask, on=below)
    if combo is None:
        raise Rejected("not-a-combination", cards=format_cards(mask_cards(mask)))
    return combo


def trick_top(trick: Sequence[Play]) -> Combo | None:
    """The play to beat: the last play of the trick (a Phoenix single valued on the one below)."""
    if not trick:
        return None
    return _top_at(trick, len(trick) - 1)


# ---- the public questions -----------------------------------------------------------------------
def legal_plays(hand: Iterable[Card], trick: Sequence[Play], wish: Wish) -> list[Combo]:
    """Every play the player in turn may make (bombs included, the wish obligation applied)."""
    return list(_answer(_hand_mask(hand), trick_top(trick), _wish_rank(wish))[0])


def can_pass(hand: Iterable[Card], trick: Sequence[Play], wish: Wish) -> bool:
    """False when leading or when the wish obligation binds (RULES.md 20)."""
    if not trick:
        return False
    return _answer(_hand_mask(hand), trick_top(trick), _wish_rank(wish))[1]


def wish_binds(hand: Iterable[Card], trick: Sequence[Play], wish: Wish) -> bool:
    """Whether the player in turn must play the wished rank (or a bomb) now."""
    w = _wish_rank(wish)
    if not w:
        return False
    return _answer(_hand_mask(hand), trick_top(trick), w)[2]


def bombs_out_of_turn(hand: Iterable[Card], trick: Sequence[Play]) -> list[Combo]:
    """The bombs this hand could throw in now: none on an empty table or on the Dog."""
    top = trick_top(trick)
    if top is None or top.kind == DOG:
        return []
    h = _hand_mask(hand)
    out: list[Combo] = []
    _gen_bombs(out, h, _nibbles(h), top if top.is_bomb else None)
    return out


def _play_mask(cards: Iterable[Card] | str) -> int:
    if isinstance(cards, str):
        cards = parse_cards(cards)
    m = 0
    for c in cards:
        bit = 1 << c
        if m & bit:
            raise Rejected("duplicate-card", card=str(Card(int(c))))
        m |= bit
    if not m:
        raise Rejected("no-cards")
    return m


def _combo_for(hand: int, mask: int, phoenix_as: int | str | None, top: Combo | None) -> Combo:
    if mask & ~hand:
        raise Rejected("cards-not-in-hand", cards=format_cards(mask_cards(mask & ~hand)))
    pa = None
    if phoenix_as is not None and mask & PHOENIX_BIT and mask != PHOENIX_BIT:
        pa = parse_rank(phoenix_as)
    combo = classify(mask, pa, on=top)
    if combo is None:
        if pa is not None and readings(mask):
            raise Rejected("bad-phoenix-reading", rank=rank_name(pa),
                           cards=format_cards(mask_cards(mask)))
        raise Rejected("not-a-combination", cards=format_cards(mask_cards(mask)))
    return combo


def _why_not(combo: Combo, top: Combo) -> Rejected:
    if top.kind == DOG:
        return Rejected("dog-on-table")
    if combo.kind == DOG:
        return Rejected("dog-not-lead")
    if combo.mask == PHOENIX_BIT and top.mask == DRAGON_BIT:
        return Rejected("phoenix-on-dragon")
    if top.is_bomb and not combo.is_bomb:
        return Rejected("bomb-on-table", play=describe(combo), top=describe(top))
    if combo.kind != top.kind and not combo.is_bomb:
        return Rejected("wrong-kind", play=describe_kind(combo), top=describe_kind(top))
    if combo.length != top.length and not combo.is_bomb:
        return Rejected("wrong-length", play=describe_kind(combo), top=describe_kind(top))
    return Rejected("too-low", play=describe(combo), top=describe(top))


def check_play(hand: Iterable[Card], trick: Sequence[Play], wish: Wish,
               cards: Iterable[Card] | str, phoenix_as: int | str | None = None) -> Combo:
    """The combo these cards make as a play in turn (lead or follow), or Rejected with the reason.

    Codes: no-cards, duplicate-card, cards-not-in-hand, not-a-combination, bad-phoenix-reading,
    dog-on-table, dog-not-lead, phoenix-on-dragon, bomb-on-table, wrong-kind, wrong-length,
    too-low, wish-not-followed.
    """
    h = _hand_mask(hand)
    mask = _play_mask(cards)
    top = trick_top(trick)
    combo = _combo_for(h, mask, phoenix_as, top)
    if top is not None and not beats(combo, top):
        raise _why_not(combo, top)
    w = _wish_rank(wish)
    if w and not combo.is_bomb and not combo.mask & RANK_MASK[w] and h & RANK_MASK[w]:
        if _answer(h, top, w)[2]:
            raise Rejected("wish-not-followed", rank=rank_name(w))
    return combo


def check_bomb_out_of_turn(hand: Iterable[Card], trick: Sequence[Play],
                           cards: Iterable[Card] | str) -> Combo:
    """The bomb these cards make, thrown in out of turn now, or Rejected with the reason.

    Codes: no-cards, duplicate-card, cards-not-in-hand, not-a-combination, not-a-bomb,
    bomb-on-empty-table, dog-on-table, too-low.
    """
    h = _hand_mask(hand)
    mask = _play_mask(cards)
    top = trick_top(trick)
    combo = _combo_for(h, mask, None, top)
    if not combo.is_bomb:
        raise Rejected("not-a-bomb", cards=format_cards(combo.cards))
    if top is None:
        raise Rejected("bomb-on-empty-table")
    if top.kind == DOG:
        raise Rejected("dog-on-table")
    if not beats(combo, top):
        raise Rejected("too-low", play=describe(combo), top=describe(top))
    return combo


def fulfils_wish(combo: Combo, wish: Wish) -> bool:
    """Whether this play contains a real card of the wished rank (RULES.md 22; never the Phoenix)."""
    w = _wish_rank(wish)
    return bool(w) and bool(combo.mask & RANK_MASK[w])
