"""A match: rounds until the end of the game (docs/rules.md 29-32), options, seating, records, replay.

Players are numbered 0..3 by their seat at the start. Seats change only in `turnier` (after rounds
3 and 6, so that each player partners each other player for 3 rounds). Events of the round are
re-addressed from seats to players (`GameEvent.to` is a player here); seat numbers inside event data
stay seats (`match.seat_of(player)` / `view()["seats"]` translate).

Determinism: a match is fully determined by its seed (one `random.Random(seed)` stream for all
its deals) or by explicit deals, plus its list of actions. `record()` / `Match.replay(record)`.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import memo as _memo
from .actions import Action, action_from_json
from .cards import Card, format_cards, parse_cards
from .errors import Rejected
from .events import GameEvent
from .frozen import FrozenDict, freeze
from .round import Round

__all__ = ["MatchOptions", "Match", "initial_seating", "TURNIER_ROUNDS", "TURNIER_SEATING"]

TURNIER_ROUNDS = 9
# seat of each player for rounds 1-3, 4-6, 7-9: partners 0+2 / 0+1 / 0+3
TURNIER_SEATING = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))


@dataclass(frozen=True)
class MatchOptions:
    """Table options that the rules engine knows (docs/rules.md 17, 29, 30, 32)."""

    target: int = 1000
    max_rounds: int | None = None
    turnier: bool = False
    dragon_fixed: bool = False

    def to_json(self) -> dict[str, Any]:
        # a plain dict (dataclasses.asdict deep-copies recursively: 7 % of a table action's CPU)
        return {"target": self.target, "max_rounds": self.max_rounds, "turnier": self.turnier,
                "dragon_fixed": self.dragon_fixed}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MatchOptions:
        return cls(**{k: d[k] for k in ("target", "max_rounds", "turnier", "dragon_fixed") if k in d})


def initial_seating(join_order: Sequence[Any], *, tichujoin: bool = False, drawseat: bool = False,
                    rng: random.Random | None = None) -> list[int]:
    """The seat (0..3) of each player, in join order (docs/rules.md 31).

    Without options seats follow join order. `tichujoin`: the first two joiners form a team, so
    the second joiner sits opposite the first (seat 2) and the others follow join order (1, 3).
    `drawseat`: seats are drawn at random with `rng` (with `tichujoin` the first two still sit
    opposite each other).
    """
    if len(join_order) != 4:
        raise ValueError("a Tichu table seats exactly four players")
    seats = [0, 2, 1, 3] if tichujoin else [0, 1, 2, 3]
    if drawseat:
        rng = rng or random.Random()
        if tichujoin:
            first = rng.randrange(4)
            others = [(first + 1) & 3, (first + 3) & 3]
            rng.shuffle(others)
            seats = [first, (first + 2) & 3, others[0], others[1]]
        else:
            seats = [0, 1, 2, 3]
            rng.shuffle(seats)
    return seats


def deal_from(rng: random.Random) -> list[list[Card]]:
    """Shuffle the 56 cards with `rng` and deal four hands of 14 (deal order)."""
    deck = list(range(56))
    rng.shuffle(deck)
    return [[Card(c) for c in deck[i * 14:(i + 1) * 14]] for i in range(4)]


class Match:
    """Rounds until the end of the game. `seed` drives all deals (a fresh one is drawn and kept
    in the record if None); `deals` (a list of deals, each four sequences of 14 cards in deal
    order) replaces the seeded deals while it lasts."""

    def __init__(self, options: MatchOptions | None = None, seed: int | None = None,
                 deals: Sequence[Sequence[Sequence[int]]] | None = None) -> None:
        self.options = options or MatchOptions()
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 63)
        self.seed = seed
        self.deals = [[[Card(c) for c in h] for h in d] for d in deals] if deals else None
        self._rng = random.Random(seed)
        self.actions: list[tuple[int, Action]] = []
        self.round_no = 0
        self.scores = [0, 0]                  # team totals (team 0 = seats 0+2)
        self.round_scores: list[list[int]] = []   # per round, by seat team
        self.tichu_points = [0, 0, 0, 0]      # per player (the round scores credited to each)
        self.victory_points = [0, 0, 0, 0]    # per player (turnier)
        self.finished = False
        self.result: dict[str, Any] | None = None
        self._opening: list[GameEvent] = []
        #: the round being played (made by _new_round here, and after each round)
        self.round: Round
        self._new_round()

    # ---- seating -----------------------------------------------------------------------------
    def seat_of(self, player: int) -> int:
        """The seat of `player` in the current round."""
        if not self.options.turnier:
            return player
        return TURNIER_SEATING[min(2, (max(1, self.round_no) - 1) // 3)][player]

    def player_at(self, seat: int) -> int:
        """The player sitting at `seat` in the current round."""
        if not self.options.turnier:
            return seat
        return TURNIER_SEATING[min(2, (max(1, self.round_no) - 1) // 3)].index(seat)

    def _seats(self) -> list[int]:
        return [self.seat_of(p) for p in range(4)]

    # ---- rounds ------------------------------------------------------------------------------
    def _next_deal(self) -> list[list[Card]]:
        i = self.round_no - 1
        if self.deals is not None and i < len(self.deals):
            return self.deals[i]
        return deal_from(self._rng)

    def _new_round(self) -> list[GameEvent]:
        self.round_no += 1
        opts = self.options
        self.round = Round(self._next_deal(), grand_allowed=not opts.turnier,
                           dragon_fixed=opts.dragon_fixed)
        evs = [GameEvent("round-start", None, {"round": self.round_no, "seats": self._seats()})]
        evs += self.round.opening_events()
        self._opening = self._to_players(evs)
        return self._opening

    def opening_events(self) -> list[GameEvent]:
        """The events that started the current round (its deal), addressed to players."""
        return list(self._opening)

    def _to_players(self, evs: list[GameEvent]) -> list[GameEvent]:
        if not self.options.turnier:
            return evs
        for e in evs:
            if e.to is not None:
                e.to = self.player_at(e.to)
        return evs

    # ---- actions -----------------------------------------------------------------------------
    def apply(self, player: int, action: Action) -> list[GameEvent]:
        """Apply `action` of `player`; returns the events (addressed to players) or raises
        Rejected (nothing changes)."""
        if self.finished:
            raise Rejected("match-over")
        if type(player) is not int or not 0 <= player <= 3:
            raise Rejected("bad-seat", seat=player)
        evs = self.round.apply(self.seat_of(player), action)
        self.actions.append((player, action))
        if self.options.turnier:
            evs = self._to_players(evs)
        if self.round.phase == "finished":
            evs += self._round_over()
        return evs

    def _round_over(self) -> list[GameEvent]:
        res = self.round.result
        assert res is not None
        opts = self.options
        score = list(res["score"])
        dv = res["double_victory"]
        seats = self._seats()
        if opts.turnier:
            if dv is not None:
                score[dv] -= 100          # a double victory counts 100 Tichu points, not 200
            vp_team = [0, 0]
            if dv is not None:
                failed = any(res["calls"][s] is not None and s != res["order"][0]
                             for s in range(4) if s & 1 == dv)
                vp_team[dv] = 2 if failed else 3
            elif score[0] == score[1]:
                vp_team = [1, 1]
            else:
                vp_team[0 if score[0] > score[1] else 1] = 2
            for p in range(4):
                team = seats[p] & 1
                self.victory_points[p] += vp_team[team]
                self.tichu_points[p] += score[team]
        else:
            for p in range(4):
                self.tichu_points[p] += score[seats[p] & 1]
        self.scores[0] += score[0]
        self.scores[1] += score[1]
        self.round_scores.append(score)
        evs = [GameEvent("round-score", None, {"round": self.round_no, "score": score,
                                           "scores": list(self.scores),
                                           "victory_points": list(self.victory_points)
                                           if opts.turnier else None})]
        if self._game_over():
            self.finished = True
            evs.append(GameEvent("match-over", None, dict(self.result or {})))
            return evs
        return evs + self._new_round()

    def _game_over(self) -> bool:
        opts = self.options
        n = self.round_no
        if opts.turnier:
            if n < TURNIER_ROUNDS:
                return False
            vp, tp = self.victory_points, self.tichu_points
            best = max((vp[p], tp[p]) for p in range(4))
            winners = [p for p in range(4) if (vp[p], tp[p]) == best]
            self.result = {"winner": None, "winners": winners, "shared": len(winners) > 1,
                           "scores": list(self.scores), "rounds": n,
                           "victory_points": list(vp), "tichu_points": list(tp)}
            return True
        s0, s1 = self.scores
        last = opts.max_rounds is not None and n >= opts.max_rounds
        reached = max(s0, s1) >= opts.target
        if not (last or (reached and s0 != s1)):
            return False
        if s0 == s1:
            winner, winners = None, [0, 1, 2, 3]
        else:
            winner = 0 if s0 > s1 else 1
            winners = [p for p in range(4) if self.seat_of(p) & 1 == winner]
        self.result = {"winner": winner, "winners": winners, "shared": winner is None,
                       "scores": list(self.scores), "rounds": n,
                       "tichu_points": list(self.tichu_points)}
        return True

    # ---- what a player may do and see --------------------------------------------------------
    def legal_actions(self, player: int) -> list[Action]:
        if self.finished:
            return []
        return self.round.legal_actions(self.seat_of(player))

    def view(self, player: int | None = None) -> dict[str, Any]:
        v = self.round.view(None if player is None else self.seat_of(player))
        v.update(self._match_view())
        v["player"] = player
        return v

    def views(self, players: Sequence[int | None]) -> list[dict[str, Any]]:
        """`[view(player) for player in players]`, the part every player sees built once (the
        views share its values: nobody changes a view)."""
        views = self.round.views([None if p is None else self.seat_of(p) for p in players])
        # the match's part changes only at the end of a round: while it does not, the views
        # share the objects of the last ones (the renderers recognise what they encoded)
        key: tuple[Any, ...] = (self.round_no, self.finished, self.result is None,
                                len(self.round_scores), self.scores[0], self.scores[1])
        if self.options.turnier:
            key += tuple(self.victory_points) + tuple(self.tichu_points)
        last = getattr(self, "_last_match_view", None) if _memo.ON else None
        if last is not None and last[0] == key:
            common = last[1]
        else:                       # (its values frozen: shared by the views, then delivered)
            common = {k: freeze(v) for k, v in self._match_view().items()}
            self._last_match_view = (key, common)
        out: list[dict[str, Any]] = []
        for v, player in zip(views, players, strict=False):
            v.update(common)
            v["player"] = player
            # every value is frozen where it is made (the round's, `common`): one copy makes
            # the view itself frozen, with no walk through its values
            out.append(FrozenDict(v))
        return out

    def _match_view(self) -> dict[str, Any]:
        m: dict[str, Any] = {
            "player": None,
            "round_no": self.round_no,
            "seats": self._seats(),
            "scores": list(self.scores),
            "round_scores": [list(s) for s in self.round_scores],
            "options": self.options.to_json(),
            "match_finished": self.finished,
            "match_result": None if self.result is None else dict(self.result),
        }
        if self.options.turnier:
            m["victory_points"] = list(self.victory_points)
            m["tichu_points"] = list(self.tichu_points)
        return m

    # ---- records -----------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """Options, seed or deals, and every accepted action: JSON-safe."""
        record = self.record_head()
        record["actions"] = [[p, a.to_json()] for p, a in self.actions]
        return record

    def record_head(self) -> dict[str, Any]:
        """`record()` without its actions (options, seed, deals; in that order)."""
        return {
            "options": self.options.to_json(),
            "seed": self.seed,
            "deals": None if self.deals is None else
            [[format_cards(h) for h in d] for d in self.deals],
        }

    @classmethod
    def replay(cls, record: dict[str, Any]) -> Match:
        """The match in exactly the state `record` describes."""
        deals = record.get("deals")
        if deals is not None:
            deals = [[parse_cards(h) if isinstance(h, str) else h for h in d] for d in deals]
        m = cls(MatchOptions.from_json(record.get("options", {})), record.get("seed"), deals)
        for p, a in record.get("actions", []):
            m.apply(int(p), action_from_json(a))
        return m
