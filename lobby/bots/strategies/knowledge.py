"""What one seat knows about the cards it cannot see, and deals of them consistent with it.

`Knowledge` is built only from what reaches that seat: the game events the table delivers to it
(public events and the ones addressed to it: its deal, the cards it received) and its own view
(`Round.view(seat)`). It never sees a Round. From them it keeps, per round:

- the cards each seat has played (`played`), the plays of the trick on the table;
- the cards the seat gave in the exchange (each is in its receiver's hand until played);
- who held the Mah Jong at the start of play (it is in that hand until played);
- every decision another seat made in turn while a wish was open without fulfilling it (a pass,
  or a play without the wished rank that is no bomb): docs/rules.md 20 says that seat then had no
  legal play containing the wished rank, a fact about its hand at that moment (its hand now plus
  what it played since), kept as a `WishConstraint`.

`sample(view, rng)` deals the unseen cards to the other seats so that every seat gets exactly
the number of cards it holds (the view's `cards_left`), the known cards are where they are known
to be and every wish constraint holds; `consistent(view, hands)` checks a deal against all of
it (the property test uses it). A deal is found by placing the wished ranks away from the seats
that showed they lack them, then the rest at random, and checking the constraints (retrying).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lobby.tichu import (
    MAHJONG_BIT,
    RANK_MASK,
    Combo,
    cards_mask,
    classify,
    mask_cards,
    parse_cards,
    parse_rank,
    wish_binds,
)

__all__ = ["Knowledge", "WishConstraint", "FULL"]

FULL = (1 << 56) - 1


@dataclass(frozen=True)
class WishConstraint:
    """`seat` had no legal play containing rank `wish` on `trick` (the plays on the table then,
    oldest first; empty: it was leading), holding its hand now plus the cards it played since
    `played_before` (its played cards at that moment, a mask)."""
    seat: int
    wish: int
    trick: tuple[Combo, ...]
    played_before: int

    def holds(self, hand_now: int, played_now: int) -> bool:
        hand_then = hand_now | (played_now & ~self.played_before)
        return not wish_binds(hand_then, self.trick, self.wish)


@dataclass
class Knowledge:
    """One seat's knowledge of the current round (see the module doc). Plain data: it is
    pickled into the search's worker processes as it is."""
    seat: int | None = None
    played: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    trick: list[Combo] = field(default_factory=list)
    trick_won: bool = False
    wish: int | None = None
    given: dict[int, int] = field(default_factory=dict)      # receiver seat -> card index
    mahjong_holder: int | None = None
    constraints: list[WishConstraint] = field(default_factory=list)
    #: every event of the round since its deal was seen (a bot seated in the middle of a round,
    #: e.g. a restored table, lacks the history: then it does not search)
    complete: bool = False

    # ---- building it -------------------------------------------------------------------------
    def reset(self, seat: int | None, complete: bool) -> None:
        self.seat = seat
        self.played = [0, 0, 0, 0]
        self.trick = []
        self.trick_won = False
        self.wish = None
        self.given = {}
        self.mahjong_holder = None
        self.constraints = []
        self.complete = complete

    def observe(self, kind: str, data: Mapping[str, Any]) -> None:
        """One game event as delivered to this seat (`kind` without the `game-` prefix; cards as
        BSW text, as the table's and the engine's JSON forms carry them)."""
        if kind == "round-start":
            self.reset(None, True)
        elif kind == "deal":
            if self.seat is None or not self.complete:
                self.reset(data.get("seat"), True)
        elif kind == "play-phase":
            self.mahjong_holder = data.get("turn")
        elif kind == "play":
            self._play(int(data["seat"]), cards_mask(parse_cards(str(data.get("cards") or ""))))
        elif kind == "pass":
            seat = int(data["seat"])
            if self.wish is not None and self.trick and not self.trick_won:
                self._constrain(seat, tuple(self.trick))
        elif kind == "wish":
            rank = data.get("rank")
            self.wish = parse_rank(str(rank)) if rank not in (None, "", "none") else None
        elif kind == "wish-fulfilled":
            self.wish = None
        elif kind == "trick-won":
            self.trick_won = True
        elif kind == "trick-taken":
            self.trick = []
            self.trick_won = False

    def _play(self, seat: int, mask: int) -> None:
        leading = not self.trick or self.trick_won
        top = None if leading else self.trick[-1]
        combo = classify(mask, on=top)
        if combo is None:             # cannot happen with the engine's events; stay careful
            self.complete = False
            return
        w = self.wish
        if (w is not None and not combo.is_bomb and not mask & RANK_MASK[w]
                and not mask & MAHJONG_BIT):
            # a play in turn (every non-bomb play is) that left the wish open
            self._constrain(seat, () if leading else tuple(self.trick))
        self.played[seat] |= mask
        if leading and not (combo.is_bomb and self.trick):
            self.trick = []
        self.trick_won = False
        if combo.kind == "dog":
            self.trick = []
        else:
            self.trick.append(combo)

    def _constrain(self, seat: int, trick: tuple[Combo, ...]) -> None:
        assert self.wish is not None
        if seat != self.seat:
            self.constraints.append(WishConstraint(seat, self.wish, trick, self.played[seat]))

    def note_view(self, view: Mapping[str, Any]) -> None:
        """The seat's view: its seat (a bot that missed the deal knows nothing of the history)
        and its exchange (the cards it gave, by receiver)."""
        seat = view.get("seat")
        if seat is None:
            return
        if self.seat != seat:
            self.reset(seat, view.get("phase") in ("grand", "exchange")
                       and not any(view.get("exchanged") or []))
        given = view.get("given")
        if given and not self.given:
            for k, c in enumerate(parse_cards(given)):
                self.given[(seat + k + 1) % 4] = int(c)

    # ---- what follows from it ----------------------------------------------------------------
    def unseen(self, view: Mapping[str, Any]) -> int:
        """The mask of the cards this seat cannot see: not in its hand, not played."""
        hand = cards_mask(parse_cards(view.get("hand") or ""))
        gone = 0
        for m in self.played:
            gone |= m
        return FULL & ~hand & ~gone

    def known(self) -> dict[int, int]:
        """seat -> mask of cards known to be in that seat's hand (given to it, the Mah Jong)."""
        gone = 0
        for m in self.played:
            gone |= m
        out = {s: 0 for s in range(4) if s != self.seat}
        for s, c in self.given.items():
            if s in out and not gone >> c & 1:
                out[s] |= 1 << c
        mj = self.mahjong_holder
        if mj is not None and mj in out and not gone & MAHJONG_BIT:
            out[mj] |= MAHJONG_BIT
        return out

    def usable(self, view: Mapping[str, Any]) -> bool:
        """Whether the history is complete and adds up with the view (the unseen cards are
        exactly as many as the others hold, each known card is unseen)."""
        seat = view.get("seat")
        if not self.complete or seat is None or seat != self.seat:
            return False
        left = view.get("cards_left") or []
        if len(left) != 4:
            return False
        unseen = self.unseen(view)
        phase = view.get("phase")
        if phase == "grand":
            return unseen.bit_count() == 48
        need = sum(left[s] for s in range(4) if s != seat)
        if phase == "exchange":
            need = 42
        if unseen.bit_count() != need:
            return False
        known = self.known()
        return all(not m & ~unseen for m in known.values())

    def counts(self, view: Mapping[str, Any]) -> list[int]:
        """How many unseen cards each seat holds (this seat: the cards still to come, only in
        the Grand Tichu phase)."""
        seat = view["seat"]
        phase = view.get("phase")
        if phase == "grand":
            return [6 if s == seat else 14 for s in range(4)]
        if phase == "exchange":
            return [0 if s == seat else 14 for s in range(4)]
        left = list(view.get("cards_left") or [0, 0, 0, 0])
        left[seat] = 0
        return left

    def sample(self, view: Mapping[str, Any], rng: random.Random, tries: int = 60
               ) -> list[int] | None:
        """A deal of the unseen cards (masks by seat; this seat's entry: the cards it will still
        get, 0 after the Grand Tichu phase) consistent with everything known, or None when none
        was found in `tries` attempts."""
        seat = view["seat"]
        counts = self.counts(view)
        unseen = self.unseen(view)
        exchange = view.get("phase") in ("grand", "exchange")
        known = {} if exchange else self.known()
        base = [0, 0, 0, 0]
        for s, m in known.items():
            base[s] = m
        pool_mask = unseen
        for m in base:
            pool_mask &= ~m
        need = [counts[s] - base[s].bit_count() for s in range(4)]
        if any(n < 0 for n in need) or sum(need) != pool_mask.bit_count():
            return None
        avoid: dict[int, set[int]] = {}
        for constraint in self.constraints:
            avoid.setdefault(constraint.wish, set()).add(constraint.seat)
        cards = [int(c) for c in mask_cards(pool_mask)]
        for attempt in range(tries):
            hands = list(base)
            left = list(need)
            rng.shuffle(cards)
            strict = attempt < tries // 2      # later attempts let a seat keep a wished rank
            first: list[int] = []
            rest: list[int] = []
            for c in cards:
                (first if avoid and (c >> 2) + 2 in avoid and c < 52 else rest).append(c)
            ok = True
            for c in first:
                bad = avoid[(c >> 2) + 2]
                seats = [s for s in range(4) if left[s] > 0 and (s not in bad or not strict)]
                if not seats:
                    seats = [s for s in range(4) if left[s] > 0]
                    if not seats:
                        ok = False
                        break
                weights = [left[s] for s in seats]
                s = rng.choices(seats, weights)[0]
                hands[s] |= 1 << c
                left[s] -= 1
            if not ok:
                continue
            i = 0
            for s in range(4):
                for _ in range(left[s]):
                    hands[s] |= 1 << rest[i]
                    i += 1
            if self._constraints_hold(hands, seat):
                return hands
        return None

    def _constraints_hold(self, hands: list[int], seat: int) -> bool:
        return all(c.holds(hands[c.seat], self.played[c.seat]) for c in self.constraints)

    def consistent(self, view: Mapping[str, Any], hands: list[int]) -> bool:
        """Whether a deal of the unseen cards agrees with everything this seat knows."""
        seat = view["seat"]
        counts = self.counts(view)
        unseen = self.unseen(view)
        total = 0
        for s in range(4):
            if hands[s].bit_count() != counts[s] or hands[s] & total:
                return False
            total |= hands[s]
        if total != unseen:
            return False
        if view.get("phase") not in ("grand", "exchange"):
            for s, m in self.known().items():
                if m & ~hands[s]:
                    return False
        return self._constraints_hold(hands, seat)
