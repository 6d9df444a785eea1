"""A Phoenix play sent without a reading must be read the same way live and on replay.

Regression: the round accepted the very cards object handed out by legal_plays without checking
it again, and took the first listed reading; a replay (fresh objects) took check_play's default
(the highest reading that beats the table), so a game could differ from its own replay.
"""
from __future__ import annotations

import random

import pytest

from lobby.tichu import Match, MatchOptions
from lobby.tichu.actions import Play
from lobby.tichu.cards import PHOENIX


def _play_with_legal_objects(seed: int, rounds: int = 3) -> Match:
    rng = random.Random(seed)
    match = Match(MatchOptions(target=10_000, max_rounds=rounds), seed=seed)
    for _ in range(5000):
        if match.finished:
            break
        moved = False
        for player in rng.sample(range(4), 4):
            actions = match.legal_actions(player)
            if not actions:
                continue
            action = rng.choice(actions)
            if isinstance(action, Play) and PHOENIX in action.cards:
                # send the very cards object legal_plays handed out, but name no reading
                action = Play(action.cards, None, action.wish)
            match.apply(player, action)
            moved = True
            break
        assert moved
    return match


@pytest.mark.slow
def test_phoenix_plays_without_reading_replay_identically() -> None:
    for seed in range(40):
        live = _play_with_legal_objects(seed)
        again = Match.replay(live.record())
        assert again.record() == live.record()
        assert again.scores == live.scores
