"""Team Elo (lobby/storage/rating.py): the properties docs/rating.md promises."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lobby.storage.rating import INITIAL, expected_score, k_factor, rate_game, team_game, turnier_game

ratings_st = st.lists(st.floats(min_value=800, max_value=2600), min_size=4, max_size=4)
games_st = st.lists(st.integers(min_value=0, max_value=500), min_size=4, max_size=4)
score_st = st.sampled_from([0.0, 0.5, 1.0])
TEAMS = [0, 1, 0, 1]
BOUNDED = settings(max_examples=200, deadline=None)


@BOUNDED
@given(ratings_st, st.integers(min_value=0, max_value=500), score_st)
def test_zero_sum_when_everybody_has_the_same_k(ratings, games, score) -> None:
    deltas = team_game(ratings, [games] * 4, TEAMS, score)
    assert sum(deltas) == pytest.approx(0.0, abs=1e-9)
    assert deltas[0] == deltas[2] and deltas[1] == deltas[3]     # partners share the result


@BOUNDED
@given(ratings_st, games_st)
def test_a_win_never_lowers_and_a_loss_never_raises(ratings, games) -> None:
    won = team_game(ratings, games, TEAMS, 1.0)
    lost = team_game(ratings, games, TEAMS, 0.0)
    assert all(d > 0 for d in (won[0], won[2], lost[1], lost[3]))
    assert all(d < 0 for d in (won[1], won[3], lost[0], lost[2]))


@BOUNDED
@given(st.floats(min_value=800, max_value=2600), st.floats(min_value=800, max_value=2600),
       st.floats(min_value=1, max_value=300))
def test_expected_score_is_monotone_and_symmetric(mine, theirs, step) -> None:
    e = expected_score(mine, theirs)
    assert 0.0 < e < 1.0
    assert expected_score(mine + step, theirs) > e > expected_score(mine, theirs + step)
    assert e + expected_score(theirs, mine) == pytest.approx(1.0)


def test_equal_teams_expect_half_and_a_favourite_gains_less() -> None:
    assert expected_score(1600, 1600) == 0.5
    # the team rating is the mean of the partners: 1800+1400 meets 1600+1600 as an equal
    even = team_game([1800, 1600, 1400, 1600], [50] * 4, TEAMS, 1.0)
    assert even[0] == pytest.approx(24 * 0.5)
    favourite = team_game([1900, 1500, 1900, 1500], [50] * 4, TEAMS, 1.0)
    underdog = team_game([1500, 1900, 1500, 1900], [50] * 4, TEAMS, 1.0)
    assert 0 < favourite[0] < underdog[0]
    # a shared victory moves equal teams not at all
    assert team_game([1500] * 4, [0] * 4, TEAMS, 0.5) == [0.0] * 4


def test_k_falls_as_games_are_played() -> None:
    assert k_factor(0) == k_factor(19) == 32
    assert k_factor(20) == k_factor(99) == 24
    assert k_factor(100) == k_factor(10_000) == 16
    # a newcomer moves further than a settled partner in the same game
    d = team_game([1500] * 4, [0, 0, 300, 300], TEAMS, 1.0)
    assert d[0] == 2 * d[2] > 0


@BOUNDED
@given(ratings_st, st.lists(st.tuples(st.integers(0, 27), st.integers(-2000, 3000)),
                            min_size=4, max_size=4))
def test_turnier_is_zero_sum_and_rewards_the_standing(ratings, standing) -> None:
    deltas = turnier_game(ratings, [10] * 4, standing)
    assert sum(deltas) == pytest.approx(0.0, abs=1e-9)
    best = max(range(4), key=lambda p: standing[p])
    worst = min(range(4), key=lambda p: standing[p])
    if standing.count(standing[best]) == 1:
        assert deltas[best] > 0          # beating all three others always gains
    if standing.count(standing[worst]) == 1:
        assert deltas[worst] < 0


def test_rate_game_reads_a_match_result() -> None:
    result = {"winner": 1, "winners": [1, 3], "shared": False, "scores": [300, 1020]}
    ups = rate_game([INITIAL] * 4, [0] * 4, result)
    assert [u.delta > 0 for u in ups] == [False, True, False, True]
    assert all(u.games == 1 for u in ups)
    shared = rate_game([INITIAL] * 4, [5] * 4, {"winner": None, "winners": [0, 1, 2, 3]})
    assert [u.delta for u in shared] == [0.0] * 4
    turnier = {"winners": [2], "victory_points": [10, 12, 19, 13],
               "tichu_points": [100, 200, 300, 400]}
    ups = rate_game([INITIAL] * 4, [0] * 4, turnier, turnier=True)
    assert max(range(4), key=lambda p: ups[p].delta) == 2
    assert min(range(4), key=lambda p: ups[p].delta) == 0


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        team_game([1500] * 3, [0] * 3, TEAMS, 1.0)
    with pytest.raises(ValueError):
        team_game([1500] * 4, [0] * 4, [0, 0, 0, 1], 1.0)
    with pytest.raises(ValueError):
        team_game([1500] * 4, [0] * 4, TEAMS, 2.0)
