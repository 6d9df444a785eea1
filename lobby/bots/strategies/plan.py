"""Combination planning for the heuristic bot: split a hand into few, strong combinations.

`analyse(cards)` returns a `Plan`: the groups (single, pair, triple, fullhouse, straight, stairs,
bomb, dog) the hand splits into with the lowest cost, where a group costs 1 - 0.8 * its strength
(the rough chance that it wins a trick or gets played without trouble: a Dragon single or a bomb
is nearly free, a low single costs a full move). Bombs are never broken. Pure functions over
Cards; results are cached by the hand's card mask.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lobby.tichu import DOG, DRAGON, PHOENIX, Card
from lobby.tichu import memo as _memo

__all__ = ["Group", "Plan", "analyse", "plan_cost", "group_strength"]

@dataclass(frozen=True)
class Group:
    kind: str                     # single pair triple fullhouse straight stairs bomb dog
    rank: float                   # top rank (Phoenix single 14.5, Dragon 15, Mah Jong 1)
    cards: tuple[Card, ...]
    strength: float

    @property
    def cost(self) -> float:
        if self.kind == "bomb":
            return 0.0
        if self.kind == "dog":
            return 0.5
        return 1.0 - 0.8 * self.strength


@dataclass(frozen=True)
class Plan:
    groups: tuple[Group, ...]
    cost: float

    @property
    def weak(self) -> int:
        """Groups unlikely to win a trick on their own."""
        return sum(1 for g in self.groups if g.kind not in ("bomb", "dog") and g.strength < 0.5)

    @property
    def controls(self) -> int:
        """Groups likely to take the lead: Dragon, Phoenix, Aces, bombs, strong combinations."""
        return sum(1 for g in self.groups if g.kind == "bomb" or g.strength >= 0.75)


_SINGLE = {15: 1.0, 14.5: 0.85, 14: 0.75, 13: 0.55, 12: 0.4, 11: 0.3, 10: 0.2, 9: 0.12,
           8: 0.08, 7: 0.05}


def group_strength(kind: str, rank: float, length: int) -> float:
    if kind == "single":
        return _SINGLE.get(rank, 0.0)
    if kind == "pair":
        return max(0.0, (rank - 6) / 9)
    if kind == "triple":
        return min(1.0, max(0.0, (rank - 3) / 12))
    if kind == "fullhouse":
        return min(1.0, max(0.0, (rank - 2) / 12))
    if kind == "straight":
        return min(1.0, max(0.0, 0.25 + 0.06 * (length - 5) + 0.06 * (rank - 9)))
    if kind == "stairs":
        return min(1.0, max(0.0, 0.3 + 0.05 * (rank - 8) + 0.12 * (length // 2 - 2)))
    return 1.0


def _group(kind: str, rank: float, cards: Iterable[Card]) -> Group:
    cs = tuple(cards)
    return Group(kind, rank, cs, group_strength(kind, rank, len(cs)))


#: a hand's card mask -> its plan (one of lobby.tichu.memo's: the one switch turns it off)
_CACHE: _memo.BoundedMemo[Plan] = _memo.BoundedMemo(200_000)


def plan_cost(cards: Iterable[Card]) -> float:
    """`analyse(cards).cost` without building the plan's groups: cached by the shape of the hand
    (how many cards of each rank remain besides specials and bombs), so hands share answers."""
    cs = tuple(cards)
    mask = 0
    for c in cs:
        mask |= 1 << c
    plan = _CACHE.find(mask) if _memo.ON else None
    if plan is not None:
        return plan.cost
    return _cost(cs)


def analyse(cards: Iterable[Card]) -> Plan:
    """The cheapest split of `cards` into combinations (see the module doc)."""
    cs = tuple(cards)
    mask = 0
    for c in cs:
        mask |= 1 << c
    plan = _CACHE.find(mask) if _memo.ON else None
    if plan is None:
        plan = _CACHE.put(mask, _analyse(cs))
    return plan


def _split(cards: tuple[Card, ...]) -> tuple[list[Group], dict[int, list[Card]], bool]:
    """Specials and bombs as fixed groups; the other cards by rank; whether the Phoenix is there."""
    fixed: list[Group] = []
    by_rank: dict[int, list[Card]] = {}
    phoenix = False
    for c in cards:
        if c == DRAGON:
            fixed.append(_group("single", 15, (c,)))
        elif c == DOG:
            fixed.append(Group("dog", 0, (c,), 0.0))
        elif c == PHOENIX:
            phoenix = True
        else:
            by_rank.setdefault(c.rank, []).append(c)
    # bombs first: straight bombs (longest run of one suit), then four of a kind
    for suit in range(4):
        ranks = sorted(r for r, cs in by_rank.items() if r >= 2 and any(c.suit == suit for c in cs))
        best: list[int] = []
        run: list[int] = []
        for r in ranks:
            run = [*run, r] if run and r == run[-1] + 1 else [r]
            if len(run) > len(best):
                best = list(run)
        if len(best) >= 5:
            bomb = []
            for r in best:
                c = next(c for c in by_rank[r] if c.suit == suit)
                by_rank[r].remove(c)
                bomb.append(c)
            fixed.append(_group("bomb", best[-1], bomb))
    for r, cs in list(by_rank.items()):
        if len(cs) == 4:
            fixed.append(_group("bomb", r, cs))
            cs.clear()
    by_rank = {r: cs for r, cs in by_rank.items() if cs}
    return fixed, by_rank, phoenix


def _analyse(cards: tuple[Card, ...]) -> Plan:
    fixed, by_rank, phoenix = _split(cards)
    cost, groups = _search(by_rank, phoenix, 0, {})
    all_groups = tuple(fixed) + groups
    return Plan(all_groups, sum(g.cost for g in fixed) + cost)


#: a hand's shape -> the search's cost (one of lobby.tichu.memo's)
_SEARCH_COST: _memo.BoundedMemo[float] = _memo.BoundedMemo(500_000)


def _cost(cards: tuple[Card, ...]) -> float:
    """The plan's cost alone: the search's answer depends only on how many cards of each rank
    are left after the fixed groups (and the Phoenix), so it is shared by all hands."""
    fixed, by_rank, phoenix = _split(cards)
    key = _key(by_rank, phoenix)
    cost = _SEARCH_COST.find(key) if _memo.ON else None
    if cost is None:
        cost = _SEARCH_COST.put(key, _search(by_rank, phoenix, 0, {})[0])
    return sum(g.cost for g in fixed) + cost



def _key(by_rank: dict[int, list[Card]], phoenix: bool) -> tuple[Any, ...]:
    return (phoenix, *sorted((r, len(cs)) for r, cs in by_rank.items() if cs))


def _search(by_rank: dict[int, list[Card]], phoenix: bool, depth: int,
            memo: dict[tuple[Any, ...], tuple[float, tuple[Group, ...]]]
            ) -> tuple[float, tuple[Group, ...]]:
    key = (*_key(by_rank, phoenix), depth)
    hit = memo.get(key)
    if hit is not None:
        return hit
    best = _flat(by_rank, phoenix)
    if depth < 2:
        for lo, hi, gap in _straights(by_rank, phoenix):
            rest = {r: list(cs) for r, cs in by_rank.items()}
            taken: list[Card] = []
            for r in range(lo, hi + 1):
                if r == gap:
                    taken.append(PHOENIX)
                    continue
                cs = rest[r]
                taken.append(cs.pop())
                if not cs:
                    del rest[r]
            g = _group("straight", hi, taken)
            cost, groups = _search(rest, phoenix and gap is None, depth + 1, memo)
            cost += g.cost
            if cost < best[0] - 1e-9:
                best = (cost, (g, *groups))
    memo[key] = best
    return best


def _straights(by_rank: dict[int, list[Card]], phoenix: bool) -> list[tuple[int, int, int | None]]:
    """Candidate straights (lo, hi, rank the Phoenix fills or None)."""
    present = {r for r, cs in by_rank.items() if cs}
    out: list[tuple[int, int, int | None]] = []
    for lo in range(1, 11):
        if lo not in present:
            continue
        gap: int | None = None
        hi = lo
        candidates = []
        while hi + 1 <= 14:
            nxt = hi + 1
            if nxt in present:
                hi = nxt
            elif phoenix and gap is None and nxt >= 2:
                gap = nxt
                hi = nxt
            else:
                break
            if hi - lo + 1 >= 5 and hi != gap:
                candidates.append((lo, hi, gap))
        # the longest, and the shortest ones (leaving high cards for other uses)
        if candidates:
            picks = {candidates[-1], candidates[0]}
            if len(candidates) > 2:
                picks.add(candidates[1])
            out.extend(picks)
    return out


def _flat(by_rank: dict[int, list[Card]], phoenix: bool) -> tuple[float, tuple[Group, ...]]:
    """Groups of equal rank (no straights): stairs from neighbouring pairs, full houses from a
    triple and the lowest spare pair; the Phoenix as a single or joining a low single."""
    options = [_flat_no_phoenix(by_rank, None)]
    if phoenix:
        ph = _group("single", 14.5, (PHOENIX,))
        c, gs = options[0]
        options = [(c + ph.cost, (*gs, ph))]
        for r, cs in by_rank.items():
            if len(cs) in (1, 2) and r >= 2:
                options.append(_flat_no_phoenix(by_rank, r))
    return min(options, key=lambda o: o[0])


def _flat_no_phoenix(by_rank: dict[int, list[Card]], phoenix_rank: int | None
                     ) -> tuple[float, tuple[Group, ...]]:
    sets: dict[int, list[Card]] = {r: list(cs) for r, cs in by_rank.items()}
    if phoenix_rank is not None:
        sets[phoenix_rank] = sets[phoenix_rank] + [PHOENIX]
    groups: list[Group] = []
    pair_ranks = sorted(r for r, cs in sets.items() if len(cs) == 2)
    # stairs: runs of neighbouring pairs
    used: set[int] = set()
    i = 0
    while i < len(pair_ranks):
        j = i
        while j + 1 < len(pair_ranks) and pair_ranks[j + 1] == pair_ranks[j] + 1:
            j += 1
        if j > i:
            run = pair_ranks[i:j + 1]
            groups.append(_group("stairs", run[-1], [c for r in run for c in sets[r]]))
            used.update(run)
        i = j + 1
    spare_pairs = [r for r in pair_ranks if r not in used]
    triples = sorted(r for r, cs in sets.items() if len(cs) == 3)
    for t in triples:
        if spare_pairs and spare_pairs[0] < 11:
            p = spare_pairs.pop(0)
            groups.append(_group("fullhouse", t, sets[t] + sets[p]))
        else:
            groups.append(_group("triple", t, sets[t]))
    for p in spare_pairs:
        groups.append(_group("pair", p, sets[p]))
    for r, cs in sets.items():
        if len(cs) == 1:
            groups.append(_group("single", r, cs))
    return sum(g.cost for g in groups), tuple(groups)
