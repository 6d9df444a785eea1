"""The expert bot's search: determinized Monte Carlo over deals of the unseen cards.

A `Job` is everything one decision needs, by value (the seat's view, its `Knowledge`, the budget,
a seed, the heuristic bot's answer): it is what the worker processes receive (lobby/bots/runtime/pool.py),
and it holds nothing the seat could not see. `think(job)` answers with a table command:

1. sample a deal of the unseen cards consistent with the knowledge (`Knowledge.sample`);
2. rebuild the round in that deal from the view (`Round.position`);
3. for every candidate decision, play the round out from there with the rollout policy (the
   heuristic bot's rules, in a form that works on the engine's card masks: `rollout_action`) and
   score it as the seat's team's round score minus the opponents';
4. repeat with new deals until the budget (seconds, or a number of playouts) is spent; every
   candidate is tried in the same deals (common random numbers). The best mean wins; the
   heuristic's own answer gets a small head start (`PRIOR` points), so that the search leaves it
   only for a clearly better one.

Decisions (`Job.todo`): `grand` (Grand Tichu from the first 8 cards: called when the seat went out
first in at least `grand_threshold` of the playouts with the call), `tichu` (before the first
card: the same with `tichu_threshold`, then the play itself), `exchange` (a few candidate
exchanges built around the heuristic's), `play` (the legal plays, at most `MAX_PLAYS` of them by
the heuristic's plan cost, the Mah Jong with several wishes, and the pass), `wish`, `dragon`
(which opponent gets the trick) and `bomb` (bombs out of turn, a Dragon trick included, against
not bombing).
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lobby.bots.strategies.knowledge import Knowledge
from lobby.bots.strategies.plan import analyse, group_strength, plan_cost
from lobby.bots.strategies.strategy import command_action, play_cards, play_combo
from lobby.tichu import (
    DOG,
    DOG_BIT,
    DRAGON,
    DRAGON_BIT,
    MAHJONG,
    MAHJONG_BIT,
    PHOENIX,
    RANK_MASK,
    Action,
    Card,
    Exchange,
    GiveDragon,
    Pass,
    Play,
    Rejected,
    Round,
    cards_mask,
    mask_cards,
    mask_points,
    parse_cards,
    parse_rank,
    rank_name,
)
from lobby.tichu import memo as _memo

__all__ = ["Job", "Answer", "think", "rollout", "rollout_action", "MAX_PLAYS", "PRIOR"]

#: at most this many plays are searched (the lowest plan cost after the play, the heuristic's)
MAX_PLAYS = 7
#: points of head start for the heuristic's own answer
PRIOR = 4.0
#: candidates are pruned from this many sampled deals on; the search stops after SAME_WORLDS deals
#: in which every candidate left scored the same
MIN_WORLDS = 4
SAME_WORLDS = 6
#: a candidate is dropped when it trails the leader by more than PRUNE_Z standard errors (paired)
#: and by more than PRUNE_GAP points at all
PRUNE_Z = 2.0
PRUNE_GAP = 5.0
#: the search leaves the heuristic's answer for one better by SWITCH_Z standard errors (paired)
SWITCH_Z = 1.0
#: a Tichu call the heuristic would not make needs this much more of the playouts out first
TICHU_EXTRA = 0.2
#: the share of the budget an exchange gets
EXCHANGE_SHARE = 0.5
#: a round played out by the policy ends after this many actions at most (it always ends sooner)
MAX_ROLLOUT = 400


@dataclass(frozen=True)
class Job:
    """One decision of one seat, by value (see the module doc)."""
    todo: str
    view: dict[str, Any]
    knowledge: Knowledge
    heuristic: str | None
    seconds: float = 0.5
    playouts: int | None = None
    seed: int = 0
    tichu_threshold: float = 0.6
    grand_threshold: float = 0.75
    #: whether the heuristic bot would call Tichu here (a `tichu` job)
    heuristic_calls: bool = False


@dataclass
class Answer:
    """The command of a decision and how it was found."""
    command: str | None
    todo: str
    playouts: int = 0
    worlds: int = 0
    seconds: float = 0.0
    values: dict[str, float] = field(default_factory=dict)


# ---- the rollout policy: the heuristic's rules on card masks -------------------------------------
#: a hand's shape -> the heuristic's plan cost (one of lobby.tichu.memo's)
_COST: _memo.BoundedMemo[float] = _memo.BoundedMemo(300_000)
_SUIT = sum(1 << (4 * i) for i in range(13))
_SHIFTS = tuple(4 * i for i in range(13))


def _cost(mask: int) -> float:
    """The heuristic's plan cost of a hand (a card mask), memoised by the hand's shape: without
    a straight bomb the plan depends only on how many cards of each rank there are and on the
    specials (lobby/bots/strategies/plan.py), so hands of one shape share the answer."""
    for suit in range(4):
        m = mask >> suit & _SUIT
        if m & m >> 4 & m >> 8 & m >> 12 & m >> 16:
            key: Any = mask                 # a straight bomb: by the cards themselves
            break
    else:
        key = (mask >> 52, *[(mask >> s & 15).bit_count() for s in _SHIFTS])
    cost = _COST.find(key) if _memo.ON else None
    if cost is None:
        cost = _COST.put(key, plan_cost(mask_cards(mask)))
    return cost


def _g(kind: str, rank: float, length: int) -> float:
    return 1.0 - 0.8 * group_strength(kind, rank, length)


_SINGLE_COST = tuple(_g("single", r, 1) for r in range(16))
_PAIR_COST = tuple(_g("pair", r, 2) for r in range(16))
_TRIPLE_COST = tuple(_g("triple", r, 3) for r in range(16))
#: a hand's shape -> its quick plan (one of lobby.tichu.memo's)
_FAST: _memo.BoundedMemo[tuple[float, int, int]] = _memo.BoundedMemo(300_000)


def fast_plan(mask: int) -> tuple[float, int, int]:
    """A quick estimate of the heuristic's plan of a hand, for the rollouts: (cost, weak groups,
    controls). The same group costs as lobby/bots/strategies/plan.py, but a greedy split instead of its
    search: fours of a kind are bombs; the longest run of five or more ranks is a straight when
    most of its ranks are single cards; neighbouring pairs make stairs, a triple takes the lowest
    spare pair below a jack; the Phoenix is a high single. Memoised by the hand's shape."""
    key = (mask >> 52, *[(mask >> s & 15).bit_count() for s in _SHIFTS])
    hit = _FAST.find(key) if _memo.ON else None
    if hit is not None:
        return hit
    counts = [0] * 16
    counts[1] = (mask >> 52) & 1            # the Mah Jong
    for r in range(2, 15):
        counts[r] = key[r - 1]
    cost = 0.0
    weak = controls = 0
    if mask & DRAGON_BIT:
        cost += 0.2
        controls += 1
    if mask & DOG_BIT:
        cost += 0.5
    if mask & (1 << 54):                    # the Phoenix, as a high single
        cost += _SINGLE_COST[14] - 0.08
        controls += 1
    for r in range(2, 15):
        if counts[r] == 4:
            counts[r] = 0
            controls += 1
    # one straight: the longest run, when it takes mostly single cards
    best_lo, best_len, lo = 0, 0, 0
    for r in range(1, 15):
        if counts[r]:
            if not lo:
                lo = r
            if r - lo + 1 > best_len:
                best_lo, best_len = lo, r - lo + 1
        else:
            lo = 0
    if best_len >= 5:
        singles = sum(1 for r in range(best_lo, best_lo + best_len) if counts[r] == 1)
        if singles * 2 >= best_len:
            top = best_lo + best_len - 1
            g = _g("straight", top, best_len)
            cost += g
            if g <= 0.4:
                controls += 1
            elif g > 0.6:
                weak += 1
            for r in range(best_lo, top + 1):
                counts[r] -= 1
    if counts[1]:
        cost += 1.0
        weak += 1
    pairs = [r for r in range(2, 15) if counts[r] == 2]
    spare: list[int] = []
    i = 0
    while i < len(pairs):
        j = i
        while j + 1 < len(pairs) and pairs[j + 1] == pairs[j] + 1:
            j += 1
        if j > i:
            g = _g("stairs", pairs[j], 2 * (j - i + 1))
            cost += g
            weak += g > 0.6
            controls += g <= 0.4
        else:
            spare.append(pairs[i])
        i = j + 1
    for r in range(2, 15):
        n = counts[r]
        if n == 3:
            if spare and spare[0] < 11:
                spare.pop(0)
                g = _g("fullhouse", r, 5)
            else:
                g = _TRIPLE_COST[r]
        elif n == 1:
            g = _SINGLE_COST[r]
        else:
            continue
        cost += g
        weak += g > 0.6
        controls += g <= 0.4
    for r in spare:
        g = _PAIR_COST[r]
        cost += g
        weak += g > 0.6
        controls += g <= 0.4
    out = (cost, weak, controls)
    _FAST.put(key, out)
    return out


def _fcost(mask: int) -> float:
    return fast_plan(mask)[0]


def _wish_rank(hand: int) -> int | None:
    for r in range(14, 1, -1):
        if not hand & RANK_MASK[r]:
            return r
    return None


def rollout_action(rnd: Round, seat: int) -> Action:
    """The rollout policy's action for `seat`, whose turn it is (play, wish or Dragon gift)."""
    phase = rnd.phase
    if phase == "dragon":
        left = rnd.cards_left()
        right, lft = (seat + 1) & 3, (seat + 3) & 3

        def badness(s: int) -> float:
            return -100.0 if left[s] == 0 else left[s] - (20 if rnd.calls[s] else 0)
        return GiveDragon(right if badness(right) >= badness(lft) else lft)
    if phase == "wish":
        from lobby.tichu import Wish
        r = _wish_rank(rnd.hands[seat])
        return Wish(None if r is None else rank_name(r))
    plays = rnd.legal_plays(seat)
    if not plays:
        return Pass()
    hand = rnd.hands[seat]
    partner = (seat + 2) & 3
    left = rnd.cards_left()
    calls = rnd.calls
    supporting = calls[partner] is not None and left[partner] > 0
    leading = not rnd.trick or rnd.trick_won
    best: Any = None
    best_key: tuple[float, float] | None = None
    opp_danger = min((left[o] for o in ((seat + 1) & 3, (seat + 3) & 3) if left[o] > 0),
                     default=14)
    if leading:
        for c in plays:
            rest = hand & ~c.mask
            if not rest:
                return _play(c, hand)
        _, weak, controls = fast_plan(hand)
        if hand & DOG_BIT and left[partner] > 0 and (
                calls[partner] is not None or weak >= 4 + controls):
            for c in plays:
                if c.kind == "dog":
                    return _play(c, hand)
        for c in plays:
            after = _fcost(hand & ~c.mask)
            penalty = 0.0
            if c.is_bomb:
                penalty += 3.0
            if c.kind == "dog":
                penalty += 0.8
            if opp_danger == 1 and c.length == 1:
                penalty += 2.0 - c.rank / 10
            if opp_danger == 2 and c.kind == "pair":
                penalty += 1.0
            key = (after + penalty - 0.02 * c.length, -c.length)
            if best_key is None or key < best_key:
                best, best_key = c, key
        return _play(best, hand)
    # following
    may_pass = rnd.can_pass(seat)
    for c in plays:
        if not hand & ~c.mask and not supporting:
            return _play(c, hand)
    holder = rnd.holder
    if holder == partner and may_pass:
        return Pass()
    urgent = False
    threshold = 0.0
    if holder is not None and holder != partner:
        if left[holder] <= 2 or (calls[holder] is not None and left[holder] <= 5):
            urgent, threshold = True, 2.0
        elif calls[holder] is not None or calls[partner] is not None:
            threshold = 0.5
        if mask_points(rnd.table_mask) >= 20:
            threshold = max(threshold, 0.4)
    normal = [c for c in plays if not c.is_bomb]
    bombs = [c for c in plays if c.is_bomb]
    now = _fcost(hand)
    if normal:
        scored = [((_fcost(hand & ~c.mask) if hand & ~c.mask else 5.0), c.length, i)
                  for i, c in enumerate(normal)]
        after, _, i = min(scored)
        if after - now <= threshold:
            return _play(normal[i], hand)
    if bombs and holder != partner and holder is not None:
        bomb = min(bombs, key=lambda c: _fcost(hand & ~c.mask))
        rest = hand & ~bomb.mask
        if urgent or not rest or fast_plan(rest)[0] <= 1.0:
            return _play(bomb, hand)
    if may_pass:
        return Pass()
    every = normal or plays
    return _play(min(every, key=lambda c: _fcost(hand & ~c.mask)), hand)


def _play(combo: Any, hand: int) -> Play:
    wish: Any = None
    if combo.mask & MAHJONG_BIT:
        r = _wish_rank(hand & ~combo.mask)
        wish = None if r is None else rank_name(r)
        return Play(combo.cards, combo.phoenix_as, wish)
    return Play(combo.cards, combo.phoenix_as)


def _value(c: int) -> float:
    return -1 if c == DOG else 14.7 if c == PHOENIX else 15 if c == DRAGON else (c >> 2) + 2 \
        if c < 52 else 1


def _heuristic_exchange(rnd: Round, seat: int) -> Exchange:
    """The heuristic's exchange rules, quickly (`fast_plan`): the partner a good card (the Dragon
    only from a weak hand; when the seat called, the card it misses least), the opponents the
    two cards the plan misses least (never Mah Jong, Dragon, Phoenix; the Dog first), no card of
    a four of a kind."""
    hand = rnd.hands[seat]
    cards = [int(c) for c in mask_cards(hand)]
    fours = 0
    for r in range(2, 15):
        if hand & RANK_MASK[r] == RANK_MASK[r]:
            fours |= RANK_MASK[r]
    free = [c for c in cards if not fours >> c & 1] or cards
    calling = rnd.calls[seat] is not None
    rest = hand
    opponents: list[int] = []
    if hand & DOG_BIT:
        opponents.append(int(DOG))
        rest &= ~DOG_BIT
    pool = [c for c in free if rest >> c & 1]
    if calling:
        partner = min(pool, key=lambda c: (_fcost(rest & ~(1 << c)), _value(c)))
    else:
        good = [c for c in pool if c not in (DRAGON, PHOENIX)] or pool
        if DRAGON in pool and fast_plan(hand)[1] >= 6:
            good = [int(DRAGON)]
        partner = max(good, key=_value)
    rest &= ~(1 << partner)
    while len(opponents) < 2:
        pool = [c for c in free if rest >> c & 1 and c < 52 and (c >> 2) + 2 <= 12] or \
            [c for c in cards if rest >> c & 1 and c not in (DRAGON, PHOENIX)] or \
            [c for c in cards if rest >> c & 1]
        c = min(pool, key=lambda c: _fcost(rest & ~(1 << c)) + 0.04 * _value(c))
        opponents.append(c)
        rest &= ~(1 << c)
    opponents.sort(key=lambda c: (c != DOG, _value(c)))
    return Exchange((Card(opponents[0]), Card(partner), Card(opponents[1])))


def rollout(rnd: Round, seat: int, exchanges: dict[int, Exchange] | None = None) -> tuple[float, bool]:
    """Play `rnd` to its end with the policy: (the seat's team's score minus the opponents',
    whether the seat went out first)."""
    if rnd.phase == "exchange":
        for giver in range(4):
            if rnd.given[giver] is None:
                ex = (exchanges or {}).get(giver) or _heuristic_exchange(rnd, giver)
                rnd.apply(giver, ex)
    armed = [_has_bomb(h) for h in rnd.hands]
    for _ in range(MAX_ROLLOUT):
        phase = rnd.phase
        if phase == "finished":
            break
        s = rnd.wisher if phase == "wish" else rnd.holder if phase == "dragon" else rnd.turn
        if s is None:
            break
        if True in armed and (phase == "play" or phase == "dragon") and rnd.holder is not None:
            b = _rollout_bomb(rnd, armed)
            if b is not None:
                rnd.apply(b[0], b[1])
                armed[b[0]] = _has_bomb(rnd.hands[b[0]])
                continue
        act = rollout_action(rnd, s)
        rnd.apply(s, act)
        if armed[s] and isinstance(act, Play):
            armed[s] = _has_bomb(rnd.hands[s])
    res = rnd.result
    if res is None:
        return 0.0, False
    score = res["score"]
    team = seat & 1
    return float(score[team] - score[1 - team]), bool(res["order"]) and res["order"][0] == seat


def _has_bomb(mask: int) -> bool:
    """Whether a hand holds a bomb (four of a kind or a straight flush)."""
    for r in range(2, 15):
        if mask & RANK_MASK[r] == RANK_MASK[r]:
            return True
    for suit in range(4):
        m = mask >> suit & _SUIT
        if m & m >> 4 & m >> 8 & m >> 12 & m >> 16:
            return True
    return False


def _rollout_bomb(rnd: Round, armed: list[bool]) -> tuple[int, Play] | None:
    """A bomb out of turn in a rollout: an opponent of the trick's holder bombs it when the
    holder called Tichu (or Grand Tichu), is about to go out (two cards or fewer), or holds the
    Dragon trick with few cards left: the out-of-turn bombs the heuristic and people throw,
    so that the rollouts do not overrate a caller's chances (nobody stops him otherwise)."""
    h = rnd.holder
    if h is None or rnd.ending:
        return None
    left = rnd.cards_left()
    if not left[h]:
        return None
    called = rnd.calls[h] is not None
    if not (called or left[h] <= 2 or (rnd.phase == "dragon" and left[h] <= 4)):
        return None
    for s in ((h + 1) & 3, (h + 3) & 3):
        if not armed[s] or not left[s]:
            continue
        bombs = rnd.bombs(s)
        if not bombs:
            continue
        hand = rnd.hands[s]
        bomb = min(bombs, key=lambda c: (_fcost(hand & ~c.mask) if hand & ~c.mask else -10.0))
        return s, Play(bomb.cards, bomb.phoenix_as)
    return None


# ---- rebuilding the round in a sampled deal ---------------------------------------------------------
def _trick(view: dict[str, Any]) -> list[tuple[int, Any]]:
    out: list[tuple[int, Any]] = []
    prev = None
    for play in view.get("trick") or []:
        combo = play_combo(play["cards"], on=prev)
        out.append((int(play["seat"]), combo))
        prev = combo
    return out


def _position(view: dict[str, Any], hands: list[int], *, calls: list[Any] | None = None,
              phase: str | None = None, turn: int | None = -1, wish: Any = -1) -> Round:
    left = view.get("cards_left") or [14] * 4
    ph = phase or ("dragon" if view.get("phase") == "dragon" else "play")
    w = view.get("wish") if wish == -1 else wish
    trick = _trick(view) if ph != "exchange" else []
    return Round.position(
        hands, phase=ph, turn=view.get("turn") if turn == -1 else turn, trick=trick,
        trick_won=bool(view.get("trick_won")),
        wish=None if w is None else parse_rank(w),
        calls=list(view.get("calls") or [None] * 4) if calls is None else calls,
        played_first=[ph != "exchange" and left[s] < 14 for s in range(4)],
        out=list(view.get("out") or []), won_points=list(view.get("points") or [0] * 4),
        dragon_fixed=bool((view.get("options") or {}).get("dragon_fixed")))


def _my_hand(view: dict[str, Any]) -> int:
    return cards_mask(parse_cards(view.get("hand") or ""))


# ---- candidates --------------------------------------------------------------------------------------
Candidate = tuple[str, Callable[[list[int]], tuple[Round, dict[int, Exchange] | None]]]


def _play_candidates(job: Job, view: dict[str, Any], hands_of: Callable[..., Any] | None,
                     calls: list[Any] | None) -> list[tuple[str, Callable[..., Any]]]:
    seat = view["seat"]
    hand = _my_hand(view)
    legal: list[str] = list(view.get("legal") or [])
    scored = []
    for text in legal:
        rest = hand & ~cards_mask(play_cards(text)[0])
        scored.append((_cost(rest) if rest else -10.0, text))
    scored.sort()
    keep = [t for _, t in scored[:MAX_PLAYS]]
    heur = job.heuristic or ""
    if heur.startswith("play "):
        htext = heur[5:].split(" wish ")[0]
        if htext in legal and htext not in keep:
            keep.append(htext)
    commands: list[str] = []
    for text in keep:
        if str(MAHJONG) in text.split():
            wishes = ["none"]
            held = {c.rank for c in mask_cards(hand) if not c.is_special}
            for r in range(14, 1, -1):
                if r not in held and len(wishes) < 4:
                    wishes.append(rank_name(r))
            if heur.startswith("play " + text + " wish "):
                w = heur.split(" wish ")[1]
                if w not in wishes:
                    wishes.append(w)
            commands += [f"play {text} wish {w}" for w in wishes]
        else:
            commands.append("play " + text)
    if view.get("can_pass"):
        commands.append("pass")
    out: list[tuple[str, Callable[..., Any]]] = []
    for cmd in commands:
        out.append((cmd, _applier(view, seat, cmd, calls)))
    return out


def _applier(view: dict[str, Any], seat: int, cmd: str, calls: list[Any] | None,
             **kw: Any) -> Callable[[list[int]], Round]:
    action = command_action(cmd, seat) if cmd != "none" else None

    def build(hands: list[int]) -> Round:
        rnd = _position(view, hands, calls=calls, **kw)
        if action is not None:
            rnd.apply(seat, action)
        return rnd
    return build


def _full_hands(view: dict[str, Any], sample: list[int]) -> list[int]:
    seat = view["seat"]
    hands = list(sample)
    hands[seat] = hands[seat] | _my_hand(view)
    return hands


class Tally:
    """One candidate's rollouts: the value in each sampled deal (in the order of the deals, the
    same deals for every candidate while it is searched) and how often the seat went out first."""
    __slots__ = ("values", "first")

    def __init__(self) -> None:
        self.values: list[float] = []
        self.first = 0

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0


def _paired(a: Tally, b: Tally) -> tuple[float, float]:
    """Mean and standard error of a's value minus b's over the deals both were tried in."""
    n = min(a.n, b.n)
    if n == 0:
        return 0.0, 1e9
    d = [x - y for x, y in zip(a.values[:n], b.values[:n], strict=False)]
    m = sum(d) / n
    if n == 1:
        return m, 1e9
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    return m, (var / n) ** 0.5


def _prune(alive: list[tuple[str, Callable[..., Any]]], stats: dict[str, Tally], keep: str | None
           ) -> list[tuple[str, Callable[..., Any]]]:
    """Successive elimination: drop the candidates clearly worse than the best one so far (the
    paired difference over the same deals more than PRUNE_Z standard errors below zero); the
    heuristic's answer (`keep`) stays, as the reference of the final choice."""
    lead = max(alive, key=lambda c: stats[c[0]].mean)[0]
    out = []
    for cand in alive:
        cmd = cand[0]
        if cmd in (lead, keep):
            out.append(cand)
            continue
        m, se = _paired(stats[cmd], stats[lead])
        if m + PRUNE_Z * se >= 0 or m >= -PRUNE_GAP:
            out.append(cand)
    return out


def _search(job: Job, candidates: list[tuple[str, Callable[..., Any]]], budget: float,
            playouts: int | None, rng: random.Random, answer: Answer,
            keep: str | None = None) -> dict[str, Tally]:
    """Every candidate rolled out in the same sampled deals until the budget (seconds, or
    `playouts`) is spent; from the MIN_WORLDS-th deal on, candidates clearly behind are dropped
    (`_prune`), so that the playouts go to the close ones, and the search stops early when every
    candidate left scored the same in every deal so far (nothing to choose)."""
    view = job.view
    seat = view["seat"]
    stats: dict[str, Tally] = {c: Tally() for c, _ in candidates}
    alive = list(candidates)
    start = time.perf_counter()
    deadline = start + budget
    done = 0
    worlds = 0
    limit = playouts if playouts is not None else 10 ** 9
    while done < limit:
        sample = job.knowledge.sample(view, rng)
        if sample is None:
            break
        hands = _full_hands(view, sample)
        answer.worlds += 1
        worlds += 1
        for cmd, build in alive:
            try:
                rnd = build(hands)
                value, first = rollout(rnd, seat)
            except Rejected:
                # the candidate is impossible in this deal (cannot happen for the seat's own
                # legal moves; kept safe): worst value
                value, first = -1000.0, False
            st = stats[cmd]
            st.values.append(value)
            st.first += first
            done += 1
        if playouts is None and time.perf_counter() >= deadline:
            break
        if len(alive) > 1 and worlds >= MIN_WORLDS:
            base = stats[alive[0][0]].values
            if all(stats[c].values == base for c, _ in alive[1:]):
                if worlds >= SAME_WORLDS:
                    break
            else:
                alive = _prune(alive, stats, keep)
                if len(alive) == 1:
                    break
    answer.playouts += done
    return stats


def _best(stats: dict[str, Tally], heuristic: str | None, answer: Answer) -> str | None:
    """The candidate with the best mean; another than the heuristic's own answer only when it is
    better in the same deals by more than PRIOR points and by more than SWITCH_Z standard errors
    of the paired difference (the winner of many noisy means is overrated)."""
    best = None
    best_v = -1e18
    for cmd, st in stats.items():
        if not st.n:
            continue
        v = st.mean
        answer.values[cmd] = round(v, 1)
        if v > best_v:
            best, best_v = cmd, v
    if best is None:
        return heuristic
    ref = stats.get(heuristic) if heuristic is not None else None
    if ref is None or not ref.n or best == heuristic:
        return best
    m, se = _paired(stats[best], ref)
    return best if m > PRIOR and m > SWITCH_Z * se else heuristic


# ---- the decisions -----------------------------------------------------------------------------------
def think(job: Job) -> Answer:
    """The decision of `job` (see the module doc); the heuristic's when the search finds none."""
    start = time.perf_counter()
    rng = random.Random(job.seed)
    answer = Answer(job.heuristic, job.todo)
    try:
        answer.command = _decide(job, rng, answer)
    finally:
        answer.seconds = time.perf_counter() - start
    return answer


def _decide(job: Job, rng: random.Random, answer: Answer) -> str | None:
    view = job.view
    seat = view["seat"]
    todo = job.todo
    budget = job.seconds
    playouts = job.playouts
    if todo == "grand":
        calls = list(view.get("calls") or [None] * 4)
        calls[seat] = "grand"
        cands: list[tuple[str, Callable[..., Any]]] = [
            ("grand", lambda hands: _position(view, _full_hands(view, hands), calls=calls,
                                              phase="exchange", turn=None))]
        stats = _search(job, cands, budget, playouts, rng, answer)
        st = stats["grand"]
        if st.n:
            answer.values["grand"] = round(st.first / st.n, 2)
        return "grand" if st.n and st.first / st.n >= job.grand_threshold else "nogrand"
    if todo == "exchange":
        return _exchange(job, rng, answer)
    if todo == "wish":
        hand = _my_hand(view)
        held = {c.rank for c in mask_cards(hand) if not c.is_special}
        wishes = ["none", *[rank_name(r) for r in range(14, 1, -1) if r not in held][:4]]
        heur = (job.heuristic or "wish none")[5:]
        if heur not in wishes:
            wishes.append(heur)
        after = _next_with_cards(view, seat)
        cands = [("wish " + w, _applier(view, seat, "none", None, phase="play", turn=after,
                                        wish=None if w == "none" else w)) for w in wishes]
        stats = _search(job, cands, budget, playouts, rng, answer, keep=job.heuristic)
        return _best(stats, job.heuristic, answer)
    if todo == "dragon":
        cands = [("dragon " + side, _applier(view, seat, "dragon " + side, None))
                 for side in ("right", "left")]
        stats = _search(job, cands, budget, playouts, rng, answer, keep=job.heuristic)
        return _best(stats, job.heuristic, answer)
    if todo == "bomb":
        bombs: list[str] = list(dict.fromkeys(view.get("bombs") or []))[:4]
        cands = [("none", _applier(view, seat, "none", None))]
        cands += [("bomb " + b, _applier(view, seat, "bomb " + b, None)) for b in bombs]
        stats = _search(job, cands, budget, playouts, rng, answer, keep=job.heuristic or "none")
        best = _best(stats, job.heuristic if job.heuristic else "none", answer)
        return None if best in (None, "none") else best
    if todo == "tichu":
        # first: would a Tichu call succeed? (the heuristic's play, the call assumed)
        calls = list(view.get("calls") or [None] * 4)
        calls[seat] = "tichu"
        probe = job.heuristic or ""
        if not probe.startswith(("play ", "pass")):
            legal = view.get("legal") or []
            probe = "play " + legal[0] if legal else "pass"
        cands = [(probe, _applier(view, seat, probe, calls))]
        share = 0.4
        stats = _search(job, cands, budget * share,
                        None if playouts is None else max(1, int(playouts * share)), rng, answer)
        st = stats[probe]
        n = st.n
        need = job.tichu_threshold + (0.0 if job.heuristic_calls else TICHU_EXTRA)
        if n:
            answer.values["tichu"] = round(st.first / n, 2)
        if n and st.first / n >= need:
            return "tichu"
        budget *= 1 - share
        playouts = None if playouts is None else max(1, playouts - n)
    # play
    cands = _play_candidates(job, view, None, None)
    if len(cands) == 1:
        return cands[0][0]
    stats = _search(job, cands, budget, playouts, rng, answer, keep=job.heuristic)
    return _best(stats, job.heuristic, answer)


def _next_with_cards(view: dict[str, Any], seat: int) -> int:
    left = view.get("cards_left") or [1] * 4
    for k in (1, 2, 3):
        s = (seat + k) % 4
        if left[s]:
            return s
    return seat


def _exchange(job: Job, rng: random.Random, answer: Answer) -> str | None:
    view = job.view
    seat = view["seat"]
    hand = list(parse_cards(view.get("hand") or ""))
    heur = job.heuristic or ""
    options: list[tuple[Card, Card, Card]] = []
    if heur.startswith("schupf "):
        h = tuple(parse_cards(heur[7:]))
        if len(h) == 3:
            options.append(h)
    plan = analyse(hand)
    bomb_cards = {c for g in plan.groups if g.kind == "bomb" for c in g.cards}
    free = [c for c in hand if c not in bomb_cards] or hand
    mask = cards_mask(hand)

    def value(c: Card) -> float:
        return -1 if c == DOG else 14.7 if c == PHOENIX else 15 if c == DRAGON else c.rank

    # opponents: the cards the plan misses least (never Mah Jong, Dragon, Phoenix)
    spare = sorted((c for c in free if c not in (MAHJONG, DRAGON, PHOENIX)),
                   key=lambda c: (_cost(mask & ~(1 << c)) + 0.04 * value(c)))
    partners = sorted((c for c in free), key=lambda c: -value(c))[:3]
    if len(spare) >= 2:
        pairs = [(spare[0], spare[1])]
        if len(spare) >= 3:
            pairs.append((spare[0], spare[2]))
        for p in partners:
            for a, b in pairs:
                if p in (a, b):
                    continue
                lo, hi = sorted((a, b), key=lambda c: (c != DOG, value(c)))
                opt = (lo, p, hi)
                if opt not in options:
                    options.append(opt)
    options = options[:6]
    if len(options) <= 1:
        return heur or None
    cands = []
    others: dict[tuple[int, ...], dict[int, Exchange]] = {}

    def exchanges(rnd: Round, key: tuple[int, ...]) -> dict[int, Exchange]:
        # the other seats' exchanges in this deal: the same for every candidate
        got = others.get(key)
        if got is None:
            others.clear()
            got = others[key] = {s: _heuristic_exchange(rnd, s) for s in range(4) if s != seat}
        return got

    for opt in options:
        cmd = "schupf " + " ".join(str(c) for c in opt)
        ex = Exchange(opt)

        def build(hands: list[int], ex: Exchange = ex) -> Round:
            rnd = _position(view, _full_hands(view, hands), phase="exchange", turn=None)
            for s, e in exchanges(rnd, tuple(hands)).items():
                rnd.apply(s, e)
            rnd.apply(seat, ex)
            return rnd
        cands.append((cmd, build))
    # an exchange's playouts are whole rounds (the dearest) and its choices matter less than
    # the plays': EXCHANGE_SHARE of the budget
    stats = _search(job, cands, job.seconds * EXCHANGE_SHARE,
                    None if job.playouts is None else max(len(cands),
                                                          int(job.playouts * EXCHANGE_SHARE)),
                    rng, answer, keep=heur)
    return _best(stats, heur, answer)
