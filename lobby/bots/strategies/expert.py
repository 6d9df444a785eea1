"""The `expert` strategy: search over deals of the unseen cards (lobby/bots/strategies/search.py).

It knows what a person in its seat knows and nothing else: the seat's view and the game events
delivered to the seat (`observe`), kept in a `Knowledge` (lobby/bots/strategies/knowledge.py). At each
decision `prepare(view)` answers at once where there is nothing to search (one legal play, a
hand too weak for a call, a history it missed), and otherwise returns a `Job`: the decision by
value, which `search.think` answers, in this process (`decide`) or in a worker process
(lobby/bots/runtime/pool.py via lobby/bots/runtime/player.py). The heuristic bot's answer
travels with the job: the search's head start, and the answer when a worker fails.

Levels: `expert` thinks DEFAULT_SECONDS per decision, `expert:SECONDS` any time from
MIN_SECONDS to MAX_SECONDS; `playouts=N` (the arena, tests) fixes the number of playouts instead,
so that a seed reproduces every decision.
"""
from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from lobby.bots.strategies.heuristic import HeuristicStrategy
from lobby.bots.strategies.knowledge import Knowledge
from lobby.bots.strategies.plan import analyse
from lobby.bots.strategies.search import Answer, Job, think
from lobby.bots.strategies.strategy import View, my_turn_to
from lobby.tichu import DRAGON, PHOENIX, parse_cards

__all__ = ["ExpertStrategy", "parse_level", "DEFAULT_SECONDS", "MIN_SECONDS", "MAX_SECONDS"]

#: seconds of thinking per decision of `/addbot expert`
DEFAULT_SECONDS = 0.5
#: the range of `/addbot expert:SECONDS`
MIN_SECONDS = 0.05
MAX_SECONDS = 10.0


def parse_level(text: str) -> float:
    """The seconds of `expert` or `expert:SECONDS`; ValueError for anything else."""
    word = text.strip().lower()
    if word == "expert":
        return DEFAULT_SECONDS
    head, sep, tail = word.partition(":")
    if head != "expert" or not sep:
        raise ValueError(text)
    if not tail or not all(ch.isascii() and (ch.isdigit() or ch == ".") for ch in tail):
        raise ValueError(text)
    try:
        seconds = float(tail)
    except ValueError:
        raise ValueError(text) from None
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise ValueError(text)
    return seconds


class ExpertStrategy:
    """Search-based decisions (see the module doc). One object per seat and game."""

    def __init__(self, seed: int | None = None, *, seconds: float = DEFAULT_SECONDS,
                 playouts: int | None = None, tichu_threshold: float = 0.6,
                 grand_threshold: float = 0.75) -> None:
        self.rng = random.Random(seed)
        self.seconds = seconds
        self.playouts = playouts
        self.tichu_threshold = tichu_threshold
        self.grand_threshold = grand_threshold
        self.heuristic = HeuristicStrategy(None if seed is None else seed + 1)
        self.knowledge = Knowledge()
        #: the answer of the last decision when it was searched, None when it was not
        #: (tests, benchmarks); `searched` counts the searched decisions
        self.last: Answer | None = None
        self.searched = 0
        if playouts is not None:
            self.name = f"expert:p{playouts}"
        elif seconds == DEFAULT_SECONDS:
            self.name = "expert"
        else:
            self.name = f"expert:{seconds:g}"

    def observe(self, kind: str, data: Mapping[str, Any]) -> None:
        """A game event as delivered to this seat (kind without `game-`)."""
        self.knowledge.observe(kind, data)

    def decide(self, view: View) -> str | None:
        """The decision, searched in this process."""
        job = self.prepare(view)
        self.last = None
        if isinstance(job, Job):
            answer = think(job)
            self.last = answer
            self.searched += 1
            return answer.command
        return job

    def prepare(self, view: View) -> str | Job | None:
        """An answer at once, or the Job to search."""
        seat = view.get("seat")
        if seat is None or view.get("phase") in (None, "finished"):
            return None
        self.knowledge.note_view(view)
        heur = self.heuristic.decide(view)
        todo = my_turn_to(view)
        if not self.knowledge.usable(view):
            return heur
        calls = view.get("calls") or [None] * 4
        left = view.get("cards_left") or [0] * 4
        partner = (seat + 2) % 4
        if todo == "grand":
            if calls[partner] is not None or _grand_score(view) < 2.0:
                return "nogrand"
            return self._job("grand", view, heur)
        if todo == "exchange":
            return self._job("exchange", view, heur)
        if todo == "wish":
            return self._job("wish", view, heur)
        if todo == "dragon":
            if sum(1 for n in left if n) <= 1:
                return heur               # the round is over: only the gift is left
            return self._job("dragon", view, heur)
        if todo == "play":
            legal = view.get("legal") or []
            may_call = calls[seat] is None and left[seat] == 14 and calls[partner] is None
            wants = heur == "tichu"
            if wants:   # the heuristic's play as well (it plays on the next view)
                heur = self.heuristic.decide(dict(view, calls=_called(calls, seat)))
            if may_call and (wants or _promising(view)):
                return self._job("tichu", view, heur, heuristic_calls=wants)
            if not legal or (len(legal) == 1 and not view.get("can_pass")):
                return heur
            return self._job("play", view, heur)
        bombs = view.get("bombs") or []
        holder = view.get("holder")
        if bombs and holder is not None:
            opponent = (holder - seat) % 2 == 1
            own_dragon = view.get("phase") == "dragon" and holder == seat
            if ((opponent and (view.get("trick_won") or view.get("phase") == "dragon"
                              or 0 < left[holder] <= 3 or calls[holder] is not None))
                    or own_dragon or (heur or "").startswith("bomb")):
                return self._job("bomb", view, heur)
        return heur

    def _job(self, todo: str, view: View, heur: str | None, heuristic_calls: bool = False
             ) -> Job:
        return Job(todo=todo, view=dict(view), knowledge=copy.deepcopy(self.knowledge),
                   heuristic=heur, seconds=self.seconds, playouts=self.playouts,
                   seed=self.rng.randrange(2 ** 31), tichu_threshold=self.tichu_threshold,
                   grand_threshold=self.grand_threshold, heuristic_calls=heuristic_calls)


def _called(calls: list[Any], seat: int) -> list[Any]:
    out = list(calls)
    out[seat] = "tichu"          # only to ask the heuristic for its play rather than its call
    return out


def _grand_score(view: View) -> float:
    """The heuristic's rough Grand Tichu score of the first 8 cards."""
    score = 0.0
    ranks: dict[int, int] = {}
    for c in parse_cards(view.get("hand") or ""):
        if c in (DRAGON, PHOENIX):
            score += 1.0
        elif not c.is_special:
            ranks[c.rank] = ranks.get(c.rank, 0) + 1
    score += 0.75 * ranks.get(14, 0) + 0.25 * ranks.get(13, 0)
    score += sum(1.5 for n in ranks.values() if n == 4)
    return score


def _promising(view: View) -> bool:
    """A hand worth asking the search whether a Tichu call would succeed."""
    plan = analyse(parse_cards(view.get("hand") or ""))
    return plan.controls >= 2 and plan.weak <= plan.controls + 1
