"""The `heuristic` strategy: combination planning, calls from hand strength, a sensible exchange.

It decides from the seat's view only (see lobby/bots/strategies/strategy.py):
- plan: the hand split into few, strong combinations (lobby/bots/strategies/plan.py); every play is judged
  by what it does to the cost of the rest of the hand;
- Grand Tichu from the first 8 cards, Tichu before the first card from the plan: few weak groups
  and enough control (Dragon, Phoenix, Aces, bombs);
- exchange: the partner gets a good card (the worst one when we call), the opponents low cards
  the plan can spare, the Dog goes to an opponent; bombs are never broken;
- leads: the weakest group first, the strong ones last (or the strong one first when it takes
  the lead back for the last group); the Dog to a partner who called or when our hand is weak;
- follows: a play that fits the plan, never over a partner who is winning (unless it goes out),
  harder (bombs too) when an opponent is about to go out or called Tichu;
- an opponent's Dragon is bombed when its player would lead again with few cards (or a Tichu
  to make), or when its points would end with the opponents (`_bomb_the_dragon`);
- the Dragon trick to the opponent most likely to finish last; wishes for a rank passed to an
  opponent, else a high rank we do not hold.
"""
from __future__ import annotations

import random
from typing import Any

from lobby.bots.strategies.plan import Plan, analyse, plan_cost
from lobby.bots.strategies.strategy import View, my_turn_to, play_cards, play_combo
from lobby.tichu import DOG, DRAGON, MAHJONG, PHOENIX, Card, parse_cards, rank_name

#: a play the bot considers: (its text, its cards, the plan's cost after it, its Combo or None)
Option = tuple[str, tuple[Card, ...], float, Any]

__all__ = ["HeuristicStrategy"]


class HeuristicStrategy:
    """A rule-based player. The thresholds are tunable (scripts/bot_arena.py measures them)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, *, tichu_margin: int = 0,
                 grand_score: float = 3.0) -> None:
        self.rng = random.Random(seed)
        self.tichu_margin = tichu_margin
        self.grand_score = grand_score

    # ---- the entry point ---------------------------------------------------------------------
    def decide(self, view: View) -> str | None:
        seat = view.get("seat")
        if seat is None or view.get("phase") in (None, "finished"):
            return None
        todo = my_turn_to(view)
        if todo == "grand":
            return "grand" if self._grand(view) else "nogrand"
        if todo == "exchange":
            return self._exchange(view)
        if todo == "wish":
            return "wish " + self._wish(view)
        if todo == "dragon":
            return "dragon " + self._dragon(view)
        if self._should_call_tichu(view, todo):
            return "tichu"
        if todo == "play":
            return self._play(view)
        bombs = view.get("bombs") or []
        if bombs:
            return self._bomb_out_of_turn(view, bombs)
        return None

    # ---- calls -------------------------------------------------------------------------------
    def _grand(self, view: View) -> bool:
        hand = parse_cards(view.get("hand") or "")
        calls = view.get("calls") or []
        seat = view["seat"]
        if calls and calls[(seat + 2) % 4] is not None:
            return False
        score = 0.0
        ranks: dict[int, int] = {}
        for c in hand:
            if c in (DRAGON, PHOENIX):
                score += 1.0
            elif c in (DOG, MAHJONG):
                score -= 0.2
            else:
                ranks[c.rank] = ranks.get(c.rank, 0) + 1
        score += 0.75 * ranks.get(14, 0) + 0.25 * ranks.get(13, 0)
        score += sum(1.5 for r, n in ranks.items() if n == 4)
        score += sum(0.3 for r, n in ranks.items() if n == 3 and r >= 10)
        return score >= self.grand_score

    def _should_call_tichu(self, view: View, todo: str | None) -> bool:
        seat = view["seat"]
        calls = view.get("calls") or [None] * 4
        left = view.get("cards_left") or [0] * 4
        if view.get("phase") != "play" or calls[seat] is not None or left[seat] != 14:
            return False
        if calls[(seat + 2) % 4] is not None:
            return False
        if todo != "play":
            return False                  # decided at the first turn, with the received cards
        plan = analyse(parse_cards(view.get("hand") or ""))
        return self._strong(plan)

    def _strong(self, plan: Plan) -> bool:
        weak = plan.weak
        controls = plan.controls
        return controls >= 2 and weak <= controls - 1 + self.tichu_margin and len(plan.groups) <= 8

    # ---- the exchange ------------------------------------------------------------------------
    def _exchange(self, view: View) -> str:
        seat = view["seat"]
        hand = list(parse_cards(view.get("hand") or ""))
        calls = view.get("calls") or [None] * 4
        plan = analyse(hand)
        calling = calls[seat] is not None or self._strong(plan)
        bomb_cards = {c for g in plan.groups if g.kind == "bomb" for c in g.cards}
        free = [c for c in hand if c not in bomb_cards]
        if len(free) < 3:                 # bombs everywhere: break the lowest ones after all
            free = sorted(hand, key=_value)
        opponents: list[Card] = []
        rest = list(hand)
        if DOG in free:
            opponents.append(DOG)
            rest.remove(DOG)
        # the partner: a good card, or (when we call) the card we miss least
        pool = [c for c in free if c in rest and c not in opponents]
        if calling:
            partner = min(pool, key=lambda c: (plan_cost([x for x in rest if x != c])
                                               + 0.01 * _value(c), _value(c)))
        else:
            good = [c for c in pool if c not in (DRAGON, PHOENIX)] or pool
            if plan.weak >= 6 and DRAGON in pool:
                good = [DRAGON]
            partner = max(good, key=_value)
        rest.remove(partner)
        # the opponents: low cards the plan can spare (never the Mah Jong, Dragon or Phoenix)
        while len(opponents) < 2:
            pool = [c for c in free if c in rest and c not in (MAHJONG, DRAGON, PHOENIX)
                    and c.rank <= 12] or [c for c in rest if c not in (DRAGON, PHOENIX)] or rest
            c = min(pool, key=lambda c: (plan_cost([x for x in rest if x != c])
                                         + 0.04 * _value(c)))
            opponents.append(c)
            rest.remove(c)
        # Dog (if any) to the next player; else the lower card to the next player
        opponents.sort(key=lambda c: (c != DOG, _value(c)))
        return f"schupf {opponents[0]} {partner} {opponents[1]}"

    # ---- wish and Dragon ---------------------------------------------------------------------
    def _wish(self, view: View) -> str:
        hand = parse_cards(view.get("hand") or "")
        held = {c.rank for c in hand if not c.is_special}
        given = view.get("given")
        if given:
            cards = parse_cards(given)
            to_opponents = [c for i, c in enumerate(cards) if i != 1 and not c.is_special]
            for c in sorted(to_opponents, key=lambda c: -c.rank):
                if c.rank not in held:
                    return rank_name(c.rank)
        for r in range(14, 1, -1):
            if r not in held:
                return rank_name(r)
        return "none"

    def _dragon(self, view: View) -> str:
        seat = view["seat"]
        left = view.get("cards_left") or [0] * 4
        calls = view.get("calls") or [None] * 4

        def badness(s: int) -> float:
            if left[s] == 0:
                return -100.0
            return float(left[s] - (20 if calls[s] is not None else 0))

        right, lft = (seat + 1) % 4, (seat + 3) % 4
        return "right" if badness(right) >= badness(lft) else "left"

    # ---- playing -----------------------------------------------------------------------------
    def _play(self, view: View) -> str | None:
        legal: list[str] = list(view.get("legal") or [])
        can_pass = bool(view.get("can_pass"))
        if not legal:
            return "pass" if can_pass else None
        seat = view["seat"]
        hand = list(parse_cards(view.get("hand") or ""))
        trick = view.get("trick") or []
        leading = not trick or view.get("trick_won")
        plan = analyse(hand)
        calls = view.get("calls") or [None] * 4
        left = view.get("cards_left") or [0] * 4
        partner = (seat + 2) % 4
        # a partner who called Tichu and is still in should go out first: we do not
        supporting = calls[partner] is not None and left[partner] > 0
        options: list[Option] = []
        for text in legal:
            cards, _ = play_cards(text)
            rest = [c for c in hand if c not in cards]
            after = plan_cost(rest) if rest else (5.0 if supporting else -10.0)
            combo = play_combo(text)
            options.append((text, cards, after, combo))
        choice: str | None
        choice = self._lead(view, plan, options) if leading else self._follow(view, plan, options, can_pass)
        if choice is None:
            return "pass"
        return self._play_command(view, choice)

    def _play_command(self, view: View, text: str) -> str:
        cards, _ = play_cards(text)
        verb = "play"
        if MAHJONG in cards:
            return f"{verb} {text} wish {self._wish(view)}"
        return f"{verb} {text}"

    def _lead(self, view: View, plan: Plan, options: list[Option]) -> str:
        seat = view["seat"]
        partner = (seat + 2) % 4
        left = view.get("cards_left") or [0] * 4
        calls = view.get("calls") or [None] * 4
        # going out at once
        for text, _cards, after, _combo in options:
            if after <= -10:
                return text
        dog = [o for o in options if DOG in o[1]]
        if dog and left[partner] > 0 and (calls[partner] is not None
                                          or plan.weak >= 4 + plan.controls):
            return dog[0][0]
        # endgame: one weak group left besides strong ones: lead a strong one first
        strong = [g for g in plan.groups if g.kind != "dog" and (g.kind == "bomb" or g.strength >= 0.75)]
        if len(plan.groups) <= 3 and plan.weak <= 1 and strong:
            wanted = {frozenset(g.cards) for g in strong if g.kind != "bomb"}
            for text, cards, _after, _combo in options:
                if frozenset(cards) in wanted:
                    return text
        opp = [(seat + 1) % 4, (seat + 3) % 4]
        danger = min((left[o] for o in opp if left[o] > 0), default=14)

        def key(o: Option) -> tuple[float, int]:
            _text, cards, after, combo = o
            penalty = 0.0
            if combo is not None and combo.is_bomb:
                penalty += 3.0
            if DOG in cards:
                penalty += 0.8
            if danger == 1 and len(cards) == 1:
                # an opponent with one card: only a high single is safe
                penalty += 2.0 - (combo.rank if combo is not None else 0) / 10
            if danger == 2 and combo is not None and combo.kind == "pair":
                penalty += 1.0
            return (after + penalty - 0.02 * len(cards), -len(cards))

        return min(options, key=key)[0]

    def _follow(self, view: View, plan: Plan, options: list[Option], can_pass: bool
                ) -> str | None:
        seat = view["seat"]
        partner = (seat + 2) % 4
        holder = view.get("holder")
        left = view.get("cards_left") or [0] * 4
        calls = view.get("calls") or [None] * 4
        for text, _cards, after, _combo in options:
            if after <= -10:
                return text                           # going out
        normal = [o for o in options if not (o[3] is not None and o[3].is_bomb)]
        bombs = [o for o in options if o[3] is not None and o[3].is_bomb]
        if holder == partner and can_pass:
            return None
        urgent = False
        threshold = 0.0
        if holder is not None and holder != partner:
            if left[holder] <= 2 or (calls[holder] is not None and left[holder] <= 5):
                urgent = True
                threshold = 2.0
            elif calls[holder] is not None or calls[partner] is not None:
                threshold = 0.5
            points = _trick_points(view)
            if points >= 20:
                threshold = max(threshold, 0.4)
        best = min(normal, key=lambda o: (o[2], len(o[1]))) if normal else None
        if best is not None and best[2] - plan.cost <= threshold:
            return best[0]
        if bombs and holder != partner:
            bomb = min(bombs, key=lambda o: o[2])
            # a bomb when it matters, or when it brings us out soon
            if (urgent or _bomb_the_dragon(view)
                    or len(analyse([c for c in _hand(view) if c not in bomb[1]]).groups) <= 1):
                return bomb[0]
        if can_pass:
            return None
        every = normal or options
        return min(every, key=lambda o: o[2])[0]

    def _bomb_out_of_turn(self, view: View, bombs: list[str]) -> str | None:
        seat = view["seat"]
        partner = (seat + 2) % 4
        holder = view.get("holder")
        if holder is None or holder in (seat, partner):
            return None
        left = view.get("cards_left") or [0] * 4
        calls = view.get("calls") or [None] * 4
        hand = _hand(view)
        best = min(bombs, key=lambda t: plan_cost([c for c in hand if c not in play_cards(t)[0]]))
        rest = [c for c in hand if c not in play_cards(best)[0]]
        urgent = 0 < left[holder] <= 2 or (calls[holder] is not None and 0 < left[holder] <= 4)
        if urgent or _bomb_the_dragon(view) or len(analyse(rest).groups) <= 1 or not rest:
            return "bomb " + best
        return None


def _bomb_the_dragon(view: View) -> bool:
    """Whether an opponent's Dragon on the table is worth a bomb: its player would lead again
    with few cards left (or with a Tichu call to make), or the trick's points would end up with
    the opponents (one of them went out first: the Dragon's receiver may finish last)."""
    trick = view.get("trick") or []
    seat = view["seat"]
    holder = view.get("holder")
    if not trick or holder is None or (holder - seat) % 2 == 0:
        return False
    if trick[-1].get("cards") != str(DRAGON):
        return False
    left = view.get("cards_left") or [0] * 4
    calls = view.get("calls") or [None] * 4
    out = view.get("out") or []
    if 0 < left[holder] <= 4 or (calls[holder] is not None and left[holder] > 0):
        return True
    return _trick_points(view) >= 30 and bool(out) and (out[0] - seat) % 2 == 1


def _hand(view: View) -> list[Card]:
    return list(parse_cards(view.get("hand") or ""))


def _trick_points(view: View) -> int:
    pts = 0
    for play in view.get("trick") or []:
        cards, _ = play_cards(play.get("cards", ""))
        pts += sum(c.points for c in cards)
    return pts


def _value(c: Card) -> float:
    """Order for giving cards away: Dog lowest, then Mah Jong, 2..A, Phoenix, Dragon."""
    if c == DOG:
        return -1
    if c == PHOENIX:
        return 14.7
    if c == DRAGON:
        return 15
    return c.rank
