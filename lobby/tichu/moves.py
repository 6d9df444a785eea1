"""Legal plays for the player in turn, passing, bombs out of turn, the wish (docs/rules.md 5-14, 19-22).

Hands are bit masks internally (`1 << card`); per rank the four cards are one nibble. Plays are
generated directly from the nibbles (never by trying subsets) and handed out as interned `Combo`s;
the answer for (hand, top play, wish) is cached, since a round asks the same question several times
(legal actions, the view, then checking the chosen play). Leads come from a per-hand index of every
lead by kind; follows (most questions of a round) are generated directly for the top's kind above
its rank (`follow_plays`, what `Round` asks, with `lead_plays`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from lobby.tichu import memo as _memo
from lobby.tichu.cards import (
    DOG_BIT,
    DRAGON_BIT,
    MAHJONG_BIT,
    PHOENIX_BIT,
    RANK_MASK,
    Card,
    cards_mask,
    format_cards,
    format_play,
    mask_cards,
    parse_cards,
    parse_rank,
    rank_name,
    sort_cards,
)
from lobby.tichu.combos import (
    BOMB,
    DOG,
    FULLHOUSE,
    PAIR,
    SINGLE,
    STAIRS,
    STRAIGHT,
    TRIPLE,
    Combo,
    _intern,
    _make,
    beats,
    classify,
    phoenix_single,
    readings,
)
from lobby.tichu.errors import Rejected

__all__ = ["legal_plays", "can_pass", "bombs_out_of_turn", "check_play", "check_bomb_out_of_turn",
           "trick_top", "wish_binds", "fulfils_wish", "follow_plays", "lead_plays"]

Play = Combo | Iterable[Card]
Wish = str | int | None
#: a hand: its cards, or their bit mask (what Round keeps)
Hand = Iterable[Card] | int

# ---- tables -------------------------------------------------------------------------------------
_POP = tuple(bin(n).count("1") for n in range(16))
# _SUBS[k][nib]: the sub-nibbles of nib with k bits
_SUBS = tuple(tuple(tuple(s for s in range(16) if s & ~nib == 0 and _POP[s] == k)
                    for nib in range(16)) for k in range(5))
_SHIFT = tuple((r - 2) * 4 if r >= 2 else 0 for r in range(15))
_PA = 56                 # a Phoenix reading travels with a card mask as (mask | rank << _PA)
_CARD_BITS = (1 << _PA) - 1


def _rank_table(k: int, with_phoenix: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """[r][nib]: masks of k cards of rank r out of nib (+ the Phoenix standing for r)."""
    rows: list[tuple[tuple[int, ...], ...]] = []
    for r in range(15):
        row: list[tuple[int, ...]] = []
        for nib in range(16):
            if r < 2:
                row.append(())
            elif with_phoenix:
                row.append(tuple((s << _SHIFT[r]) | PHOENIX_BIT | (r << _PA) for s in _SUBS[k][nib]))
            else:
                row.append(tuple(s << _SHIFT[r] for s in _SUBS[k][nib]))
        rows.append(tuple(row))
    return tuple(rows)


_ONE = _rank_table(1, False)         # single cards of rank r
_TWO = _rank_table(2, False)         # pairs of rank r
_THREE = _rank_table(3, False)
_ONE_PH = _rank_table(1, True)       # one card + Phoenix as r
_TWO_PH = _rank_table(2, True)
_PH_AS = tuple((PHOENIX_BIT | (r << _PA),) if r >= 2 else () for r in range(15))


def _combo_table(kind: str, values: tuple[tuple[tuple[int, ...], ...], ...]
                 ) -> tuple[tuple[tuple[Combo, ...], ...], ...]:
    """[r][nib]: the interned combos of `values[r][nib]` (card masks | Phoenix reading << _PA)."""
    return tuple(tuple(tuple(_intern(kind, r, v & _CARD_BITS, (v >> _PA) or None) for v in cell)
                       for cell in row) for r, row in enumerate(values))


# prebuilt plays of one rank: [r][nib] -> combos (the same objects every time)
_SINGLES = _combo_table(SINGLE, _ONE)
_PAIRS, _PAIRS_PH = _combo_table(PAIR, _TWO), _combo_table(PAIR, _ONE_PH)
_TRIPLES, _TRIPLES_PH = _combo_table(TRIPLE, _THREE), _combo_table(TRIPLE, _TWO_PH)
_SPECIAL_SINGLES = tuple((bit, readings(bit)[0]) for bit in (DOG_BIT, MAHJONG_BIT, PHOENIX_BIT, DRAGON_BIT))
_DRAGON_SINGLE = readings(DRAGON_BIT)[0]


def _nibbles(hand: int) -> list[int]:
    """nib[r] for r 0..14 (0 and 1 unused: 0)."""
    return [0, 0, hand & 15, hand >> 4 & 15, hand >> 8 & 15, hand >> 12 & 15, hand >> 16 & 15,
            hand >> 20 & 15, hand >> 24 & 15, hand >> 28 & 15, hand >> 32 & 15, hand >> 36 & 15,
            hand >> 40 & 15, hand >> 44 & 15, hand >> 48 & 15]


# ---- generators (each appends interned combos to out) -------------------------------------------
def _gen_same_rank(out: list[Combo], nib: list[int], ph: int, size: int, above: int) -> None:
    real, joker = (_PAIRS, _PAIRS_PH) if size == 2 else (_TRIPLES, _TRIPLES_PH)
    for r in range(above + 1, 15):
        n = nib[r]
        if n:
            out += real[r][n]
            if ph:
                out += joker[r][n]


def _gen_singles(out: list[Combo], hand: int, nib: list[int]) -> None:
    for r in range(2, 15):
        n = nib[r]
        if n:
            out += _SINGLES[r][n]
    if hand & 0xF << 52:
        for bit, combo in _SPECIAL_SINGLES:
            if hand & bit:
                out.append(combo)


def _gen_fullhouses(out: list[Combo], nib: list[int], ph: int, above: int) -> None:
    pairs: list[tuple[int, tuple[int, ...]]] = []       # (rank, pair values)
    for r in range(2, 15):
        n = nib[r]
        if n and (_POP[n] >= 2 or ph):
            pairs.append((r, _TWO[r][n] + _ONE_PH[r][n] if ph else _TWO[r][n]))
    if len(pairs) < 2:
        return
    for t in range(above + 1, 15):
        n = nib[t]
        if _POP[n] < 2 or (_POP[n] == 2 and not ph):
            continue
        triples = _THREE[t][n] + _TWO_PH[t][n] if ph else _THREE[t][n]
        values = []
        for tv in triples:
            tph = tv & PHOENIX_BIT
            for pr, pvs in pairs:
                if pr != t:
                    for pv in pvs:
                        if not (tph and pv & PHOENIX_BIT):
                            values.append(tv | pv)
        for v in values:
            m = v & _CARD_BITS
            pa = v >> _PA
            out.append(_make(FULLHOUSE, t, m, pa or None, (m << 5) | pa))


def _gen_runs(out: list[Combo], nib: list[int], ph: int, ma: int, pairs: bool,
              length: int | None, above: int, flushes: bool) -> None:
    """Straights (pairs=False, length in cards) or stairs (pairs=True, length in pairs).

    For each lowest rank the window grows one rank at a time, keeping the plays of the window
    without the Phoenix (`base`) and with it (`joker`, its rank in the high bits)."""
    opts: list[tuple[int, ...]] = [()] * 15
    full = 0          # ranks that can stand in the run by themselves
    fillable = 0      # ranks the Phoenix can stand for
    if pairs:
        kind, need, first = STAIRS, 2, 2
        ph_list: list[tuple[int, ...]] = [()] * 15
        ph_opts: Sequence[tuple[int, ...]] = ph_list
        for r in range(2, 15):
            n = nib[r]
            if n:
                if _POP[n] >= 2:
                    opts[r] = _TWO[r][n]
                    full |= 1 << r
                if ph:
                    ph_list[r] = _ONE_PH[r][n]
                    fillable |= 1 << r
    else:
        kind, need, first = STRAIGHT, 5, 1
        ph_opts = _PH_AS
        for r in range(2, 15):
            n = nib[r]
            if n:
                opts[r] = _ONE[r][n]
                full |= 1 << r
        if ma:
            opts[1] = (MAHJONG_BIT,)
            full |= 2
        if ph:
            fillable = 0x7FFC                              # the Phoenix stands for 2..14
    if length is not None:
        need = length
        first = max(first, above - length + 2)            # the top must end above `above`
    starts = (full | fillable) >> first << first
    if not starts & (starts >> 1):
        return                                             # no two neighbouring ranks: no run
    while starts:
        low = starts & -starts
        starts ^= low
        lo = low.bit_length() - 1
        if lo > 15 - need:
            break
        # how far a window from lo can reach: present ranks, at most one hole for the Phoenix
        x = full >> lo
        reach = (x ^ (x + 1)).bit_length() - 1
        if fillable:
            hole = lo + reach
            if fillable >> hole & 1:
                x = full >> (hole + 1)
                reach += (x ^ (x + 1)).bit_length()
        if reach < need:
            continue
        last = lo + (reach if length is None else length) - 1
        base = [0]
        joker: list[int] = []
        check_flush = flushes and lo >= 2
        for hi in range(lo, last + 1):
            o = opts[hi]
            if joker:
                joker = [v | x for v in joker for x in o] if o else []
            if fillable and base:
                po = ph_opts[hi]
                if po:
                    joker += [m | x for m in base for x in po]
            if base:
                base = [m | x for m in base for x in o] if o else []
            if hi - lo + 1 >= need and hi > above:
                # new combos, not interned: a run rarely comes back in another hand, and the
                # index keeps these for the hand's later questions
                if check_flush:
                    # a straight of one suit is a bomb (generated with the bombs)
                    out += [_make(kind, hi, m, None, m << 5) for m in base if not _is_flush(m)]
                else:
                    out += [_make(kind, hi, m, None, m << 5) for m in base]
                if joker:
                    out += [_make(kind, hi, v & _CARD_BITS, v >> _PA,
                                  ((v & _CARD_BITS) << 5) | (v >> _PA)) for v in joker]


_SUIT_MASK = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))


def _is_flush(m: int) -> bool:
    return (m & _SUIT_MASK[0] == m or m & _SUIT_MASK[1] == m or m & _SUIT_MASK[2] == m
            or m & _SUIT_MASK[3] == m)


def _gen_bombs(out: list[Combo], hand: int, nib: list[int], above: Combo | None) -> None:
    order = above.bomb_order if above is not None else -1
    for r in range(2, 15):
        if nib[r] == 15 and r > order:
            out.append(_intern(BOMB, r, 15 << _SHIFT[r], None))
    for s in range(4):
        suited = hand & _SUIT_MASK[s]
        if suited.bit_count() < 5:
            continue
        run = 0
        for r in range(2, 15):
            if suited >> (_SHIFT[r] + s) & 1:
                run += 1
                if run >= 5:
                    for size in range(5, run + 1):
                        if size * 100 + r > order:
                            m = 0
                            for q in range(r - size + 1, r + 1):
                                m |= 1 << (_SHIFT[q] + s)
                            out.append(_intern(BOMB, r, m, None))
            else:
                run = 0


def _generate_direct(hand: int, top: Combo | None) -> list[Combo]:
    """The plays generated straight from the hand (no index, no cache): what the index must give."""
    nib = _nibbles(hand)
    ph = hand & PHOENIX_BIT
    ma = hand & MAHJONG_BIT
    out: list[Combo] = []
    if top is not None:
        kind = top.kind
        if kind == DOG:
            return out
        if kind == BOMB:
            _gen_bombs(out, hand, nib, top)
            return out
    _gen_bombs(out, hand, nib, None)
    flushes = any(b.length >= 5 for b in out)
    if top is None:                                   # leading: everything
        _gen_singles(out, hand, nib)
        _gen_same_rank(out, nib, ph, 2, 1)
        _gen_same_rank(out, nib, ph, 3, 1)
        _gen_fullhouses(out, nib, ph, 1)
        _gen_runs(out, nib, ph, ma, False, None, 0, flushes)
        _gen_runs(out, nib, ph, ma, True, None, 0, False)
        return out
    rank = top.rank
    above = int(rank)               # a half only in a Phoenix single's rank: the others' are whole
    if kind == SINGLE:
        for r in range(above + 1, 15):
            n = nib[r]
            if n:
                out += _SINGLES[r][n]
        if top.mask != DRAGON_BIT:
            if ph:
                out.append(phoenix_single(int(rank * 2) + 1))
            if hand & DRAGON_BIT:
                out.append(_DRAGON_SINGLE)
    elif kind == PAIR:
        _gen_same_rank(out, nib, ph, 2, above)
    elif kind == TRIPLE:
        _gen_same_rank(out, nib, ph, 3, above)
    elif kind == FULLHOUSE:
        _gen_fullhouses(out, nib, ph, above)
    elif kind == STRAIGHT:
        _gen_runs(out, nib, ph, ma, False, top.length, above, flushes)
    elif kind == STAIRS:
        _gen_runs(out, nib, ph, ma, True, top.length // 2, above, False)
    return out


# ---- the hand index: every lead of a hand by kind, reused for its sub-hands -------------------------
# A play is a set of cards with a reading, and whether it is a combination depends on those cards
# only; so the plays of a hand that lost some cards are the plays of the full hand that avoid them.
# A round asks about hands that only shrink: the index of a seat's hand is built once (lazily, kind
# by kind) and then filtered.
_LEAD_ORDER = (SINGLE, PAIR, TRIPLE, FULLHOUSE, STRAIGHT, STAIRS, BOMB)


class _Index:
    __slots__ = ("hand", "nib", "kinds")

    def __init__(self, hand: int) -> None:
        self.hand = hand
        self.nib = _nibbles(hand)
        #: the plays of each kind, and under None every lead (all kinds)
        self.kinds: dict[str | None, list[Combo]] = {}

    def plays(self, kind: str) -> list[Combo]:
        """Every lead of this kind from the full hand (singles: Dog and led Phoenix included)."""
        found = self.kinds.get(kind)
        if found is not None:
            return found
        hand, nib = self.hand, self.nib
        ph = hand & PHOENIX_BIT
        out: list[Combo] = []
        if kind == SINGLE:
            _gen_singles(out, hand, nib)
        elif kind in (PAIR, TRIPLE):
            _gen_same_rank(out, nib, ph, 2 if kind == PAIR else 3, 1)
        elif kind == FULLHOUSE:
            _gen_fullhouses(out, nib, ph, 1)
        elif kind == STRAIGHT:
            flushes = any(b.length >= 5 for b in self.plays(BOMB))
            _gen_runs(out, nib, ph, hand & MAHJONG_BIT, False, None, 0, flushes)
        elif kind == STAIRS:
            _gen_runs(out, nib, ph, 0, True, None, 0, False)
        elif kind == BOMB:
            _gen_bombs(out, hand, nib, None)
        self.kinds[kind] = out
        return out


_INDEXES: list[_Index] = []          # the most recent indexes, newest last
_INDEX_LIMIT = 16


#: recent hands -> an index containing them (one of lobby.tichu.memo's; `_INDEXES` is its
#: store, emptied with it)
_INDEX_OF: _memo.BoundedMemo[_Index] = _memo.BoundedMemo(20_000)


def _index_for(hand: int) -> tuple[_Index, int]:
    """An index of a hand containing `hand`, and the cards it has beyond `hand`."""
    if not _memo.ON:
        return _Index(hand), 0
    idx = _INDEX_OF.find(hand)
    if idx is None:
        for i in range(len(_INDEXES) - 1, -1, -1):
            idx = _INDEXES[i]
            if not hand & ~idx.hand:
                break
        else:
            idx = _Index(hand)
            if len(_INDEXES) >= _INDEX_LIMIT:
                del _INDEXES[0]
                _INDEX_OF.clear()
            _INDEXES.append(idx)
        _INDEX_OF.put(hand, idx)
    return idx, idx.hand & ~hand


def _generate(hand: int, top: Combo | None) -> list[Combo]:
    idx, gone = _index_for(hand)
    kinds = idx.kinds
    if top is None:
        leads = kinds.get(None)
        if leads is None:
            leads = []
            for kind in _LEAD_ORDER:
                leads += idx.plays(kind)
            kinds[None] = leads
        return [c for c in leads if not c.mask & gone] if gone else leads
    kind = top.kind
    if kind == DOG:
        return []
    bombs = kinds.get(BOMB)
    if bombs is None:
        bombs = idx.plays(BOMB)
    if kind == BOMB:
        order = top.bomb_order
        return [c for c in bombs if c.bomb_order > order and not c.mask & gone]
    rank = top.rank
    plays = kinds.get(kind)
    if plays is None:
        plays = idx.plays(kind)
    if kind == SINGLE:
        out = [c for c in plays if c.rank > rank and c.mask != PHOENIX_BIT and not c.mask & gone]
        if hand & PHOENIX_BIT and top.mask != DRAGON_BIT:
            out.append(phoenix_single(int(rank * 2) + 1))
    elif kind in (STRAIGHT, STAIRS):
        length = top.length
        out = [c for c in plays if c.rank > rank and c.length == length and not c.mask & gone]
    else:
        out = [c for c in plays if c.rank > rank and not c.mask & gone]
    if bombs:
        out += [c for c in bombs if not c.mask & gone] if gone else bombs
    return out


# ---- the round's hot path: following a play without the index ----------------------------------
# Most questions of a round are "what beats this top play?". Singles, pairs and triples above a
# rank come from tables over three ranks at a time (12 bits of the hand), filled on first use;
# bombs only when a cheap bit test says the hand may hold one.
_NORMAL = (1 << 52) - 1
_ABOVE = tuple(_NORMAL & ~((1 << ((r - 1) * 4)) - 1) if r >= 1 else _NORMAL for r in range(16))
_NIB0 = sum(1 << (4 * i) for i in range(13))       # the lowest bit of every rank's nibble
#: the Phoenix single above each whole rank r, at index 2r + 1 (an even index holds its odd
#: neighbour's, never read: the list holds Combos only)
_PH_SINGLES = tuple(phoenix_single(min(k | 1, 29)) for k in range(31))


class _Chunks:
    """Plays of one rank (a per-rank table [r][nib]) for three ranks at a time: rows[k][12 bits]."""

    __slots__ = ("per_rank", "rows")

    def __init__(self, per_rank: tuple[tuple[tuple[Combo, ...], ...], ...]) -> None:
        self.per_rank = per_rank
        self.rows: list[list[tuple[Combo, ...] | None]] = [[None] * 4096 for _ in range(5)]

    def fill(self, k: int, bits: int) -> tuple[Combo, ...]:
        out: tuple[Combo, ...] = ()
        for j in range(3):
            r = 2 + 3 * k + j
            if r <= 14:
                out += self.per_rank[r][bits >> (4 * j) & 15]
        self.rows[k][bits] = out
        return out


_C_SINGLES, _C_PAIRS, _C_PAIRS_PH = _Chunks(_SINGLES), _Chunks(_PAIRS), _Chunks(_PAIRS_PH)
_C_TRIPLES, _C_TRIPLES_PH = _Chunks(_TRIPLES), _Chunks(_TRIPLES_PH)


def _add_above(out: list[Combo], chunks: _Chunks, m: int) -> None:
    """Append the plays of `chunks` made of the normal cards in mask `m`."""
    rows = chunks.rows
    k = 0
    while m:
        bits = m & 0xFFF
        if bits:
            t = rows[k][bits]
            if t is None:
                t = chunks.fill(k, bits)
            out += t
        m >>= 12
        k += 1


#: a hand -> its bombs (one of lobby.tichu.memo's)
_BOMBS_OF: _memo.BoundedMemo[list[Combo]] = _memo.BoundedMemo(20_000)


def _hand_bombs(hand: int) -> list[Combo]:
    """Every bomb of the hand (shared list: do not change it)."""
    y = hand & _NORMAL
    if not (y & y >> 1 & y >> 2 & y >> 3 & _NIB0 or y & y >> 4 & y >> 8 & y >> 12 & y >> 16):
        return _NO_PLAYS
    found = _BOMBS_OF.find(hand) if _memo.ON else None
    if found is None:
        found = []
        _gen_bombs(found, hand, _nibbles(hand), None)
        _BOMBS_OF.put(hand, found)
    return found


_NO_PLAYS: list[Combo] = []


def follow_plays(hand: int, top: Combo, w: int) -> tuple[list[Combo], bool]:
    """(legal plays, may pass) for the player in turn on `top` (a Combo on the table), with wish
    rank `w` (0: none). The list is new: the caller's to keep. Same plays as `legal_plays`."""
    kind = top.kind
    if kind is SINGLE:
        out: list[Combo] = []
        rank = top.rank
        r = int(rank)
        m = hand & _ABOVE[r]
        if m:
            _add_above(out, _C_SINGLES, m)
        if r < 15:
            if hand & PHOENIX_BIT:
                out.append(_PH_SINGLES[int(rank * 2) + 1])
            if hand & DRAGON_BIT:
                out.append(_DRAGON_SINGLE)
    elif kind is PAIR or kind is TRIPLE:
        out = []
        m = hand & _ABOVE[int(top.rank)]      # (a pair's or triple's rank is whole)
        if m:
            if kind is PAIR:
                _add_above(out, _C_PAIRS, m)
                if hand & PHOENIX_BIT:
                    _add_above(out, _C_PAIRS_PH, m)
            else:
                _add_above(out, _C_TRIPLES, m)
                if hand & PHOENIX_BIT:
                    _add_above(out, _C_TRIPLES_PH, m)
    elif kind is STRAIGHT or kind is STAIRS or kind is FULLHOUSE:
        # only the plays of the top's kind (and length) above its rank, straight from the hand
        out = []
        nib = _nibbles(hand)
        if kind is STRAIGHT:
            y = hand & _NORMAL
            _gen_runs(out, nib, hand & PHOENIX_BIT, hand & MAHJONG_BIT, False, top.length,
                      int(top.rank),                       # (a single's rank only is a half)
                      bool(y & y >> 4 & y >> 8 & y >> 12 & y >> 16))
        elif kind is STAIRS:
            _gen_runs(out, nib, hand & PHOENIX_BIT, 0, True, top.length // 2,
                      int(top.rank), False)
        else:
            _gen_fullhouses(out, nib, hand & PHOENIX_BIT, int(top.rank))
    else:
        plays, may_pass, _ = _generic_answer(hand, top, w)
        return plays.copy(), may_pass
    bombs = _hand_bombs(hand)
    if bombs:
        out += bombs
    if w:
        rm = RANK_MASK[w]
        if hand & rm:
            for p in out:
                if p.mask & rm:
                    return [p for p in out if p.mask & rm or p.is_bomb], False
    return out, True


def lead_plays(hand: int, w: int) -> list[Combo]:
    """The legal leads of this hand mask with wish rank `w` (0: none): a new list."""
    return _compute_answer(hand, None, w)[0].copy()


# ---- the wish and the cache ---------------------------------------------------------------------
#: a wish as given -> its rank (one of lobby.tichu.memo's)
_WISH_CACHE: _memo.BoundedMemo[int] = _memo.BoundedMemo(256)


def _wish_rank(wish: Wish) -> int:
    """0 for no wish, else the rank 2..14."""
    if wish is None or wish == 0:
        return 0
    w = _WISH_CACHE.find(wish) if _memo.ON else None
    if w is None:
        w = _WISH_CACHE.put(wish, parse_rank(wish))
    return w


_ANSWERS_LIMIT = 50_000
#: (hand, top play, wish) -> the answer (one of lobby.tichu.memo's)
_ANSWERS: _memo.BoundedMemo[tuple[list[Combo], bool, bool]] = _memo.BoundedMemo(_ANSWERS_LIMIT)


_FOLLOWED_DIRECTLY = frozenset(map(id, (SINGLE, PAIR, TRIPLE, FULLHOUSE, STRAIGHT, STAIRS)))


def clear_move_caches() -> None:
    """Empty every memo of the move generator (the answers, the hands' indexes, their bombs, the
    wishes read): a benchmark measures the generator cold this way."""
    _ANSWERS.clear()
    _INDEXES.clear()
    _INDEX_OF.clear()
    _BOMBS_OF.clear()
    _WISH_CACHE.clear()


_memo.register(clear_move_caches)


def _compute_answer(hand: int, top: Combo | None, w: int) -> tuple[list[Combo], bool, bool]:
    """(legal plays, may pass, wish binds) for this hand mask, top play and wish rank.

    The list may be shared with the caches: never hand it out without copying."""
    if top is not None and id(top.kind) in _FOLLOWED_DIRECTLY:
        plays, may_pass = follow_plays(hand, top, w)
        return (plays, may_pass, not may_pass)
    return _generic_answer(hand, top, w)


def _generic_answer(hand: int, top: Combo | None, w: int) -> tuple[list[Combo], bool, bool]:
    """`_compute_answer` through the hand index (leads, bombs, the Dog)."""
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
    return (plays, top is not None and not binds, binds)


def _answer(hand: int, top: Combo | None, w: int) -> tuple[list[Combo], bool, bool]:
    """`_compute_answer`, cached by (hand, top play, wish)."""
    if not _memo.ON:
        return _compute_answer(hand, top, w)
    key = (hand, top.key if top is not None else -1, w)
    found = _ANSWERS.find(key)
    if found is None:
        found = _ANSWERS.put(key, _compute_answer(hand, top, w))
    return found


def _hand_mask(hand: Hand) -> int:
    if isinstance(hand, int):
        return hand
    m = 0
    for c in hand:
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
def legal_plays(hand: Hand, trick: Sequence[Play], wish: Wish) -> list[Combo]:
    """Every play the player in turn may make (bombs included, the wish obligation applied)."""
    return _answer(_hand_mask(hand), trick_top(trick), _wish_rank(wish))[0].copy()


def can_pass(hand: Hand, trick: Sequence[Play], wish: Wish) -> bool:
    """False when leading or when the wish obligation binds (docs/rules.md 20)."""
    if not trick:
        return False
    return _answer(_hand_mask(hand), trick_top(trick), _wish_rank(wish))[1]


def wish_binds(hand: Hand, trick: Sequence[Play], wish: Wish) -> bool:
    """Whether the player in turn must play the wished rank (or a bomb) now."""
    w = _wish_rank(wish)
    if not w:
        return False
    return _answer(_hand_mask(hand), trick_top(trick), w)[2]


def bombs_out_of_turn(hand: Hand, trick: Sequence[Play]) -> list[Combo]:
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
        return Rejected("bomb-on-table", play=_shown(combo), top=_shown(top))
    if combo.kind != top.kind and not combo.is_bomb:
        return Rejected("wrong-kind", play=_shown(combo), top=_shown(top), kind=combo.kind,
                        top_kind=top.kind)
    if combo.length != top.length and not combo.is_bomb:
        return Rejected("wrong-length", play=_shown(combo), top=_shown(top))
    return Rejected("too-low", play=_shown(combo), top=_shown(top))


def _shown(combo: Combo) -> str:
    """A play as an error names it: its cards in BSW notation (the Phoenix with its reading in
    a longer play), the same in every language."""
    return format_play(sort_cards(combo.cards), combo.phoenix_as)


def check_play(hand: Hand, trick: Sequence[Play], wish: Wish,
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
    if w and not combo.is_bomb and not combo.mask & RANK_MASK[w] and h & RANK_MASK[w] \
            and _answer(h, top, w)[2]:
        raise Rejected("wish-not-followed", rank=rank_name(w))
    return combo


def check_bomb_out_of_turn(hand: Hand, trick: Sequence[Play],
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
        raise Rejected("too-low", play=_shown(combo), top=_shown(top))
    return combo


def fulfils_wish(combo: Combo, wish: Wish) -> bool:
    """Whether this play contains a real card of the wished rank (docs/rules.md 22; never the Phoenix)."""
    w = _wish_rank(wish)
    return bool(w) and bool(combo.mask & RANK_MASK[w])
