"""Seeded, random-legal complete games for the record, log and journal tests."""
from __future__ import annotations

import random

from lobby.tichu.actions import CallTichu, Exchange, GrandTichu, Play
from lobby.tichu.cards import PHOENIX
from lobby.tichu.errors import Rejected
from lobby.tichu.match import Match, MatchOptions


def random_game(seed: int, *, rounds: int = 3, turnier: bool = False,
                tichu_rate: float = 0.08, grand_rate: float = 0.1,
                until_actions: int | None = None) -> Match:
    """A match played with random legal actions (the acting player drawn at random among those
    who may act). Tichu calls are made with the given rates; a Phoenix play leaves its reading
    to the engine (its default reading), as a player who names none.
    Non-turnier games end after ``rounds`` rounds. ``until_actions`` stops early (unfinished)."""
    rng = random.Random(seed)
    options = MatchOptions(turnier=True) if turnier else MatchOptions(max_rounds=rounds)
    match = Match(options, seed=seed)
    while not match.finished and (until_actions is None or len(match.actions) < until_actions):
        players = [p for p in range(4) if match.legal_actions(p)]
        player = rng.choice(players)
        acts = match.legal_actions(player)
        calls = [a for a in acts if isinstance(a, CallTichu)]
        if calls and rng.random() < tichu_rate:
            match.apply(player, calls[0])
            continue
        acts = [a for a in acts if not isinstance(a, CallTichu)]
        if not acts:
            continue
        if isinstance(acts[0], GrandTichu):
            match.apply(player, GrandTichu(rng.random() < grand_rate))
            continue
        if isinstance(acts[0], Exchange):
            match.apply(player, rng.choice(acts))
            continue
        rng.shuffle(acts)
        for action in acts:
            if isinstance(action, Play) and PHOENIX in action.cards:
                # a fresh tuple: Round.apply matches the very cards object of a listed play
                # and would take that play's reading even with phoenix_as None
                action = Play(tuple(list(action.cards)), None, action.wish)
            try:
                match.apply(player, action)
                break
            except Rejected:
                continue
    return match
