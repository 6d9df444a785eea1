"""Team Elo: the lobby's rating for Tichu (docs/rating.md). Pure Python, no I/O.

Every registered player has a rating (``INITIAL`` = 1500 before the first rated game) and a count
of rated games. After a rated game:

- Fixed partnerships (every game but ``turnier``): a team's rating is the mean of its two
  partners' ratings. Team A's expected score against team B is the Elo curve
  ``E_A = 1 / (1 + 10 ** ((R_B - R_A) / 400))``; its actual score ``S_A`` is 1 for a win, 0.5
  for a shared victory (equal totals after the last round) and 0 for a loss. Each player moves
  by ``K(games) * (S - E)`` of their team: partners share the team's result, and each player's
  own K says how fast their rating still moves.
- ``turnier`` (partners change every three rounds, the winner is decided per player by victory
  points, then Tichu points): the game counts as six pairwise duels between the four players,
  each won by the better (victory points, Tichu points), drawn when both are equal. A player
  moves by ``K(games) / 3 * sum(S_ij - E_ij)`` over the three others, with ``E_ij`` the same
  Elo curve on the two players' own ratings.
- ``K(games)`` is 32 for a player's first 20 rated games (ratings of newcomers find their level
  fast), 24 up to 100 games, and 16 after that.

Properties the tests check: with equal K for everybody the changes add up to zero; the expected
score rises with one's own rating and falls with the opponents'; winning never lowers and losing
never raises a rating; a favourite gains less by winning than an underdog does.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["INITIAL", "SCALE", "RatingUpdate", "expected_score", "k_factor", "team_game",
           "turnier_game", "rate_game", "leaver_game"]

#: the rating of a player without rated games
INITIAL = 1500.0
#: the Elo scale: a 400 point advantage means 10:1 odds
SCALE = 400.0
#: (games played below which, K): the first entry that applies wins; then K_SETTLED
K_STEPS: tuple[tuple[int, float], ...] = ((20, 32.0), (100, 24.0))
K_SETTLED = 16.0


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """The change of one player's rating after a game."""

    before: float
    after: float
    games: int           # rated games played, this one included

    @property
    def delta(self) -> float:
        return self.after - self.before


def expected_score(rating: float, opponent: float, scale: float = SCALE) -> float:
    """The Elo expectation (0..1) of a side rated ``rating`` against one rated ``opponent``."""
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / scale)))


def k_factor(games: int) -> float:
    """How far one game moves a player who has played ``games`` rated games before it."""
    for below, k in K_STEPS:
        if games < below:
            return k
    return K_SETTLED


def team_game(ratings: Sequence[float], games: Sequence[int], teams: Sequence[int],
              score: float) -> list[float]:
    """Rating changes of the four players of a partnership game.

    ``ratings[p]`` and ``games[p]`` are player p's rating and rated games before the game,
    ``teams[p]`` is 0 or 1 (two players each), ``score`` is team 0's actual score: 1 won,
    0.5 shared, 0 lost. Returns the change per player.
    """
    _check_four(ratings, games)
    if sorted(teams) != [0, 0, 1, 1]:
        raise ValueError(f"two teams of two players are needed, not {list(teams)!r}")
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score is between 0 and 1, not {score!r}")
    team_rating = [0.0, 0.0]
    for p in range(4):
        team_rating[teams[p]] += ratings[p] / 2.0
    e0 = expected_score(team_rating[0], team_rating[1])
    change = [score - e0, (1.0 - score) - (1.0 - e0)]
    return [k_factor(games[p]) * change[teams[p]] for p in range(4)]


def turnier_game(ratings: Sequence[float], games: Sequence[int],
                 standing: Sequence[Sequence[float]]) -> list[float]:
    """Rating changes of a ``turnier`` game: six pairwise duels decided by ``standing[p]``
    (compared as tuples: victory points, then Tichu points)."""
    _check_four(ratings, games)
    keys = [tuple(s) for s in standing]
    if len(keys) != 4:
        raise ValueError("a standing for each of the four players is needed")
    out = []
    for p in range(4):
        total = 0.0
        for q in range(4):
            if q == p:
                continue
            actual = 1.0 if keys[p] > keys[q] else 0.5 if keys[p] == keys[q] else 0.0
            total += actual - expected_score(ratings[p], ratings[q])
        out.append(k_factor(games[p]) / 3.0 * total)
    return out


def leaver_game(ratings: Sequence[float], games: Sequence[int], leavers: Sequence[int],
                teams: Sequence[int] | None = None, turnier: bool = False,
                absent: Sequence[int] = ()) -> list[float]:
    """Rating changes of a rated game that players left (``leavers``: their player indexes;
    docs/rating.md "Leaving a game"). Whatever the score was, a leaver lost.

    Partnerships: a leaver moves by ``K * (0 - E)`` of their team, as for a lost game; their
    partner who stayed does not move at all (not punished for the partner's leaving); the other
    team moves by ``K * (1 - E)``, as for a won game, unless it has a leaver too (then its
    staying player does not move either). ``turnier``: every duel between a leaver and a player
    who stayed is lost by the leaver, and only those duels count. ``absent``: players who left
    later than the ``leavers`` (docs/rating.md): they do not move, and in ``turnier`` count in
    no duel."""
    _check_four(ratings, games)
    left = set(leavers)
    gone = set(absent) - left
    if turnier:
        out = []
        for p in range(4):
            total = 0.0
            for q in range(4):
                if q == p or (p in left) == (q in left) or p in gone or q in gone:
                    continue
                actual = 0.0 if p in left else 1.0
                total += actual - expected_score(ratings[p], ratings[q])
            out.append(k_factor(games[p]) / 3.0 * total)
        return out
    teams = list(teams) if teams is not None else [p & 1 for p in range(4)]
    team_rating = [0.0, 0.0]
    for p in range(4):
        team_rating[teams[p]] += ratings[p] / 2.0
    losing = {teams[p] for p in left}
    out = []
    for p in range(4):
        t = teams[p]
        e = expected_score(team_rating[t], team_rating[1 - t])
        if p in left:
            out.append(k_factor(games[p]) * (0.0 - e))
        elif t in losing or p in gone:
            out.append(0.0)
        else:
            out.append(k_factor(games[p]) * (1.0 - e))
    return out


def rate_game(ratings: Sequence[float], games: Sequence[int], result: dict[str, Any],
              teams: Sequence[int] | None = None, turnier: bool = False,
              leavers: Sequence[int] = (), absent: Sequence[int] = ()) -> list[RatingUpdate]:
    """New ratings of the four players after a game with ``Match.result`` ``result``.

    ``teams[p]`` is player p's team (default: seat parity, player p sat in seat p at the start);
    in ``turnier`` the standing comes from ``result["victory_points"]`` and
    ``result["tichu_points"]``. ``leavers``: the players who left the game (``leaver_game``);
    a player who does not move keeps their count of rated games too. ``absent``: players who
    left later than ``leavers`` (they do not move).
    """
    if leavers:
        deltas = leaver_game(ratings, games, leavers, teams, turnier, absent)
        moved = [not _partner_of_leaver(p, leavers, teams, turnier) and p not in absent
                 for p in range(4)]
        return [RatingUpdate(float(ratings[p]), float(ratings[p]) + deltas[p],
                             int(games[p]) + int(moved[p])) for p in range(4)]
    if turnier:
        vp = result.get("victory_points") or [0, 0, 0, 0]
        tp = result.get("tichu_points") or [0, 0, 0, 0]
        deltas = turnier_game(ratings, games, [(vp[p], tp[p]) for p in range(4)])
    else:
        teams = list(teams) if teams is not None else [p & 1 for p in range(4)]
        winner = result.get("winner")
        score = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
        deltas = team_game(ratings, games, teams, score)
    return [RatingUpdate(float(ratings[p]), float(ratings[p]) + deltas[p], int(games[p]) + 1)
            for p in range(4)]


def _partner_of_leaver(p: int, leavers: Sequence[int], teams: Sequence[int] | None,
                       turnier: bool) -> bool:
    """Whether player ``p`` stayed in a team that has a leaver (they do not move)."""
    if turnier or p in leavers:
        return False
    teams = list(teams) if teams is not None else [q & 1 for q in range(4)]
    return any(teams[q] == teams[p] for q in leavers)


def _check_four(ratings: Sequence[float], games: Sequence[int]) -> None:
    if len(ratings) != 4 or len(games) != 4:
        raise ValueError("a Tichu game has four players")
