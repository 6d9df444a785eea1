#!/usr/bin/env python3
"""Engine-level self-play between bot strategies (no sockets, no table): measure bot strength.

Each deal (a match seed) is played twice with the teams swapped (seats mirrored): strategy A at
players 0+2 against B at 1+3, then B at 0+2 against A at 1+3, so the cards cannot favour a side.
Every decision goes through `Strategy.decide(view)` with the engine's view of that seat, and every
command it sends is turned into an engine action as the table reads it and applied; a rejected
command stops the run (a bot must only send legal commands).

Prints games per second and CPU seconds per game, A's win rate with a 95 % confidence interval
(Wilson), A's points minus B's per round (the mean over deals of both seatings, with a 95 %
interval), Tichu and Grand Tichu call rates and success rates per strategy, the double-victory
rate, and the time per decision (p50, p99) by decision type. A strategy that follows the game's
events (the expert) gets each event addressed to its player, as a table delivers them.

    .venv/bin/python scripts/bot_arena.py --games 200 --a heuristic --b random
    .venv/bin/python scripts/bot_arena.py --games 40 --a expert:p24 --b heuristic --workers 2
    .venv/bin/python scripts/bot_arena.py --games 400 --rounds 1 --a expert:p24 --b heuristic
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from lobby.bots.strategies.registry import make_strategy
from lobby.bots.strategies.strategy import Strategy, command_action, my_turn_to
from lobby.tichu import Match, MatchOptions, Rejected

__all__ = ["play_game", "play_deal", "run", "wilson", "mean_ci", "percentile"]


class Stats:
    def __init__(self) -> None:
        self.games = 0
        self.wins = 0.0               # for strategy A (a shared victory counts one half)
        self.rounds = 0
        self.double = {"A": 0, "B": 0}
        self.calls = {side: {"tichu": [0, 0], "grand": [0, 0]} for side in "AB"}   # [called, won]
        self.points = {"A": 0, "B": 0}
        self.actions = 0
        #: per deal (both seatings): A's points minus B's, per round
        self.pair_diffs: list[float] = []
        #: seconds per decision, by side and decision type (grand, exchange, play, bomb, ...)
        self.times: dict[str, dict[str, list[float]]] = {"A": {}, "B": {}}
        #: playouts of each searched decision (the expert), by side and decision type
        self.playouts: dict[str, dict[str, list[int]]] = {"A": {}, "B": {}}
        self.cpu = 0.0

    def merge(self, other: Stats) -> None:
        self.games += other.games
        self.wins += other.wins
        self.rounds += other.rounds
        self.actions += other.actions
        self.cpu += other.cpu
        self.pair_diffs += other.pair_diffs
        for side in "AB":
            self.double[side] += other.double[side]
            self.points[side] += other.points[side]
            for kind in ("tichu", "grand"):
                for i in (0, 1):
                    self.calls[side][kind][i] += other.calls[side][kind][i]
            for todo, ts in other.times[side].items():
                self.times[side].setdefault(todo, []).extend(ts)
            for todo, ps in other.playouts[side].items():
                self.playouts[side].setdefault(todo, []).extend(ps)


def play_game(strategies: list[Strategy], sides: list[str], seed: int, stats: Stats,
              target: int = 1000, max_actions: int = 200_000, max_rounds: int | None = None
              ) -> int | None:
    """One complete match; `strategies[player]`, `sides[player]` is "A" or "B". Returns the
    winning team (0 = players 0+2) or None for a shared victory."""
    match = Match(MatchOptions(target=target, max_rounds=max_rounds), seed=seed)
    actions = 0
    observers = [getattr(s, "observe", None) for s in strategies]
    if any(observers):
        _deliver(match.opening_events(), observers)
    while not match.finished:
        rnd = match.round
        phase = rnd.phase
        players = range(4)
        ask: list[int] = []
        if phase == "grand":
            ask = [p for p in players if rnd.grand[match.seat_of(p)] is None]
        elif phase == "exchange":
            ask = [p for p in players if rnd.given[match.seat_of(p)] is None]
        elif phase == "wish":
            ask = [match.player_at(rnd.wisher)]
        elif phase in ("play", "dragon"):
            # bombs out of turn get their chance before the seat in turn acts
            ask = [p for p in players if rnd.bombs(match.seat_of(p))]
            lead = rnd.holder if phase == "dragon" else rnd.turn
            if lead is not None:
                ask.append(match.player_at(lead))
        acted = False
        for p in ask:
            view = match.view(p)
            todo = my_turn_to(view) or "bomb"
            started = time.perf_counter()
            command = strategies[p].decide(view)
            took = time.perf_counter() - started
            last = getattr(strategies[p], "last", None)
            if last is not None and last.todo == "tichu":
                todo = "tichu"
            stats.times[sides[p]].setdefault(todo, []).append(took)
            if last is not None:
                stats.playouts[sides[p]].setdefault(todo, []).append(last.playouts)
            if command is None:
                continue
            seat = match.seat_of(p)
            try:
                events = match.apply(p, command_action(command, seat))
            except Rejected as exc:
                raise SystemExit(f"seed {seed}: {strategies[p].name} at seat {seat} sent "
                                 f"{command!r}: rejected ({exc.code})") from None
            for ev in events:
                if ev.kind == "round-over":
                    _count_round(ev.data, match, sides, stats)
            if any(observers):
                _deliver(events, observers)
            acted = True
            actions += 1
            break
        if not acted:
            raise SystemExit(f"seed {seed}: nobody acts in phase {phase} (turn {rnd.turn})")
        if actions > max_actions:
            raise SystemExit(f"seed {seed}: no end after {actions} actions")
    stats.actions += actions
    result = match.result or {}
    return result.get("winner")


def _deliver(events: list[Any], observers: list[Any]) -> None:
    """Each event to the players it is addressed to (everyone, or its owner alone), as the
    table delivers them: the kind and the JSON form of the data."""
    for ev in events:
        data = None
        for p, observe in enumerate(observers):
            if observe is not None and (ev.to is None or ev.to == p):
                if data is None:
                    data = ev.to_json()
                observe(ev.kind, data)


def _count_round(result: dict[str, Any], match: Match, sides: list[str], stats: Stats) -> None:
    stats.rounds += 1
    order = result.get("order") or []
    first = order[0] if order else None
    for seat, call in enumerate(result.get("calls") or []):
        if call is None:
            continue
        side = sides[match.player_at(seat)]
        rec = stats.calls[side]["grand" if call == "grand" else "tichu"]
        rec[0] += 1
        rec[1] += 1 if seat == first else 0
    dv = result.get("double_victory")
    if dv is not None:
        stats.double[sides[match.player_at(dv)]] += 1
    for team, pts in enumerate(result.get("score") or []):
        stats.points[sides[match.player_at(team)]] += pts


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_deal(a: str, b: str, d: int, seed: int = 1, target: int = 1000,
              max_rounds: int | None = None, b_seed: int | None = None) -> Stats:
    """Deal `d` played twice, the seatings swapped: A at players 0+2, then B there. The
    strategies' own seeds come from `seed` (B's from `b_seed` when given: two copies of one
    strategy then decide differently, so that the mirrored games do not repeat each other)."""
    stats = Stats()
    cpu = time.process_time()
    diff = 0.0
    rounds = 0
    for mirror in (0, 1):
        sides = ["A", "B", "A", "B"] if mirror == 0 else ["B", "A", "B", "A"]
        strategies = [make_strategy(a if s == "A" else b,
                                    seed=(seed if s == "A" or b_seed is None else b_seed) * 1000
                                    + d * 10 + i)
                      for i, s in enumerate(sides)]
        before = dict(stats.points), stats.rounds
        winner = play_game(strategies, sides, seed * 100_003 + d, stats, target=target,
                           max_rounds=max_rounds)
        diff += (stats.points["A"] - before[0]["A"]) - (stats.points["B"] - before[0]["B"])
        rounds += stats.rounds - before[1]
        stats.games += 1
        if winner is None:
            stats.wins += 0.5
        elif sides[winner] == "A":
            stats.wins += 1
    stats.pair_diffs.append(diff / max(1, rounds))
    stats.cpu = time.process_time() - cpu
    return stats


def _play_deal(args: tuple[Any, ...]) -> Stats:
    return play_deal(*args)


def run(a: str, b: str, games: int, seed: int = 1, target: int = 1000,
        progress: bool = False, workers: int = 0, max_rounds: int | None = None,
        b_seed: int | None = None) -> Stats:
    """`games` complete matches (rounded up to an even number: each deal mirrored); with
    `workers` > 0 the deals are played in that many processes."""
    stats = Stats()
    deals = (games + 1) // 2
    jobs = [(a, b, d, seed, target, max_rounds, b_seed) for d in range(deals)]
    if workers > 0:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as ex:
            results = ex.map(_play_deal, jobs)
            for one in results:
                stats.merge(one)
                if progress:
                    _progress(stats, deals)
    else:
        for job in jobs:
            stats.merge(play_deal(*job))
            if progress:
                _progress(stats, deals)
    return stats


def _progress(stats: Stats, deals: int) -> None:
    """One line per finished deal on stderr: the games so far and A's figures over them (what
    is left of a run stopped before its end)."""
    lo, hi = wilson(stats.wins, stats.games)
    m, mlo, mhi = mean_ci(stats.pair_diffs)
    print(f"{stats.games}/{deals * 2} games: A wins {stats.wins:g} = "
          f"{stats.wins / stats.games:.1%} (95% CI {lo:.1%}-{hi:.1%}), A's points minus B's "
          f"per round {m:+.1f} ({mlo:+.1f} to {mhi:+.1f}), {stats.cpu:.0f} s of CPU",
          file=sys.stderr, flush=True)


def mean_ci(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its 95 % confidence interval (normal approximation)."""
    n = len(xs)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(xs) / n
    if n == 1:
        return (m, m, m)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (m, m - half, m + half)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def _rate(won: int, called: int) -> str:
    if not called:
        return "no calls"
    lo, hi = wilson(won, called)
    return f"{won}/{called} = {won / called:.1%} (95% CI {lo:.1%}-{hi:.1%})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games (each deal played twice)")
    ap.add_argument("--a", default="heuristic",
                    help="strategy A (heuristic, random, expert, expert:SECONDS, expert:pN)")
    ap.add_argument("--b", default="random", help="strategy B (the same choices)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", type=int, default=1000, help="points to win a game")
    ap.add_argument("--rounds", type=int, default=None,
                    help="at most this many rounds per game (1: duplicate single rounds)")
    ap.add_argument("--b-seed", type=int, default=None,
                    help="seed of B's strategies (default: --seed); the deals stay --seed's")
    ap.add_argument("--workers", type=int, default=0, help="processes playing deals at once")
    ap.add_argument("--progress", action="store_true",
                    help="a line on stderr after each deal: the figures so far")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    stats = run(args.a, args.b, args.games, seed=args.seed, target=args.target,
                progress=args.progress, workers=args.workers, max_rounds=args.rounds,
                b_seed=args.b_seed)
    elapsed = time.perf_counter() - start
    n = stats.games
    lo, hi = wilson(stats.wins, n)
    print(f"{n} games ({n // 2} deals, seats mirrored), {stats.rounds} rounds, "
          f"{elapsed:.1f} s: {n / elapsed:.2f} games/s, {stats.rounds / elapsed:.1f} rounds/s "
          f"({stats.cpu:.1f} s of CPU: {stats.cpu / max(1, n):.2f} CPU s per game)")
    print(f"A = {args.a} wins {stats.wins:g}/{n} = {stats.wins / n:.1%} "
          f"(95% CI {lo:.1%}-{hi:.1%}) against B = {args.b}")
    m, mlo, mhi = mean_ci(stats.pair_diffs)
    print(f"A's points minus B's per round: {m:+.1f} (95% CI {mlo:+.1f} to {mhi:+.1f}, "
          f"over {len(stats.pair_diffs)} deals)")
    seats = {"A": 2 * stats.rounds, "B": 2 * stats.rounds}   # seat-rounds per side
    for side, name in (("A", args.a), ("B", args.b)):
        c = stats.calls[side]
        print(f"{side} ({name}): Tichu {_rate(c['tichu'][1], c['tichu'][0])}, called in "
              f"{c['tichu'][0] / max(1, seats[side]):.1%} of seat-rounds; "
              f"Grand Tichu {_rate(c['grand'][1], c['grand'][0])}, called in "
              f"{c['grand'][0] / max(1, seats[side]):.1%}; "
              f"double victories {stats.double[side]}/{stats.rounds} rounds "
              f"= {stats.double[side] / max(1, stats.rounds):.1%}; "
              f"points {stats.points[side]}")
        for todo, ts in sorted(stats.times[side].items()):
            ps = stats.playouts[side].get(todo) or []
            searched = (f"; {len(ps)} searched, playouts p50 {percentile(ps, 0.5):g}, "
                        f"mean {sum(ps) / len(ps):.0f}") if ps else ""
            print(f"  {side} decision time {todo}: {len(ts)} decisions, p50 "
                  f"{percentile(ts, 0.5) * 1000:.1f} ms, p99 {percentile(ts, 0.99) * 1000:.1f} ms"
                  f"{searched}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
