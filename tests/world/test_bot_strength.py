"""A bounded strength check of the heuristic bot (the 200-game measurement is
scripts/bot_arena.py's job, reported in docs/performance.md)."""
from __future__ import annotations

import pytest

from conftest import load_script


def load_arena():
    return load_script("bot_arena")


@pytest.mark.slow
def test_heuristic_team_clearly_beats_random_team() -> None:
    arena = load_arena()
    stats = arena.run("heuristic", "random", 24, seed=7, target=500)
    assert stats.games == 24 and stats.rounds >= 24
    assert stats.wins >= 20, stats.wins                      # a clear majority, seats mirrored
    lo, _hi = arena.wilson(stats.wins, stats.games)
    assert lo > 0.5
    called, won = stats.calls["A"]["tichu"]
    assert called >= 5 and won / called >= 0.5, (called, won)
    assert stats.double["A"] > stats.double["B"]


def test_random_against_random_runs_and_the_interval_is_sane() -> None:
    arena = load_arena()
    stats = arena.run("random", "random", 8, seed=3, target=300)
    assert stats.games == 8
    lo, hi = arena.wilson(stats.wins, stats.games)
    assert 0.0 <= lo <= stats.wins / stats.games <= hi <= 1.0
    assert arena.wilson(0, 0) == (0.0, 1.0)
