#!/usr/bin/env python3
"""Complete games between bot strategies over TCP, as four bot connections per game.

    python scripts/selfplay.py --games 200 --a heuristic --b random
    python scripts/selfplay.py --games 20 --port 4000          # against a running server

Without `--port` it starts the server itself (`python -m protocol` as a subprocess, on a free
loopback port, with a temporary database, flood control and the guest and idle limits off: the
bots send as fast as the server answers) and stops it at the end. Against a running server
(`--port`) give `--rate` (commands per second per bot) below its flood limit. Every game is
played by four `tichu-bot` clients (tichu_bot.runner; machine mode, ids on every command): one
opens a table with the options `seed` and `target`, the others enter it, the opener starts.
Games come in mirrored pairs: the same seed (the same cards per seat) is played twice, strategy A
in seats 1+3 and then in seats 2+4, so the cards favour neither side. `--parallel` games run at once.

It prints a progress bar to stderr and at the end games per second, strategy A's win rate with a
95 % Wilson interval, Tichu and Grand Tichu calls and how often they succeed (the caller goes out
first), and the double-victory rate per strategy. `--require-win P` / `--require-tichu P` make the
exit status 1 when A's win rate / A's Tichu success rate is below P (checks for tests).
"""
from __future__ import annotations

import argparse
import asyncio
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "scripts")):
    if p not in sys.path:
        sys.path.insert(0, p)

from lobby.bots.strategies.registry import STRATEGY_NAMES
from tichu_bot.runner import BotResult, run_bot

__all__ = ["Tally", "wilson", "play_game", "run_selfplay", "main"]


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (0..1)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Side:
    """The figures of one strategy (team) over all games."""

    wins: int = 0
    tichu: int = 0
    tichu_made: int = 0
    grand: int = 0
    grand_made: int = 0
    double: int = 0
    points: int = 0


@dataclass
class Tally:
    games: int = 0
    shared: int = 0
    rounds: int = 0
    failures: list[str] = field(default_factory=list)
    a: Side = field(default_factory=Side)
    b: Side = field(default_factory=Side)

    def add(self, result: BotResult, a_team: int) -> None:
        """One finished game as seen by one of its bots; `a_team`: 0 (seats 1+3) or 1."""
        self.games += 1
        match = result.match or {}
        winner = match.get("winner")
        if winner is None:
            self.shared += 1
        else:
            (self.a if winner == a_team else self.b).wins += 1
        for rnd in result.rounds:
            self.rounds += 1
            order = rnd.get("order") or []
            first = order[0] if order else None
            for seat, call in enumerate(rnd.get("calls") or []):
                side = self.a if seat % 2 == a_team else self.b
                if call == "tichu":
                    side.tichu += 1
                    side.tichu_made += seat == first
                elif call == "grand":
                    side.grand += 1
                    side.grand_made += seat == first
            double = rnd.get("double_victory")
            if double is not None:
                (self.a if double == a_team else self.b).double += 1
            score = rnd.get("score") or [0, 0]
            self.a.points += score[a_team]
            self.b.points += score[1 - a_team]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def wait_for_server(port: int, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


async def play_game(port: int, game_no: int, seed: int, a: str, b: str, a_team: int,
                    target: int, timeout: float, host: str = "127.0.0.1",
                    extra_options: list[tuple[str, str]] | None = None,
                    rate: float = 0.0) -> tuple[BotResult, int]:
    """One game: strategy `a` in the seats of team `a_team`, `b` in the others. Returns the
    opener's result and `a_team`."""
    ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    strategies = [a if seat % 2 == a_team else b for seat in range(4)]
    options = [("seed", str(seed)), ("target", str(target)), *(extra_options or [])]
    tasks = []
    for seat in range(4):
        name = f"sp{game_no}s{seat + 1}"
        tasks.append(asyncio.ensure_future(run_bot(
            host=host, port=port, name=name, open_table=seat == 0, table_ready=ready,
            seat=seat + 1, strategy=strategies[seat], seed=seed * 4 + seat,
            options=options if seat == 0 else None, timeout=timeout, rate=rate)))
    try:
        results = await asyncio.gather(*tasks)
    except BaseException:
        for t in tasks:
            t.cancel()
        raise
    return results[0], a_team


def progress(done: int, total: int, started: float, failures: int) -> None:
    width = 30
    filled = int(width * done / total) if total else width
    rate = done / max(1e-9, time.monotonic() - started)
    bar = "#" * filled + "-" * (width - filled)
    extra = f", {failures} failed" if failures else ""
    sys.stderr.write(f"\r[{bar}] {done}/{total} games, {rate:.2f}/s{extra}")
    sys.stderr.flush()


async def run_selfplay(port: int, games: int, a: str, b: str, *, seed: int = 1,
                       target: int = 1000, parallel: int = 2, timeout: float = 600.0,
                       host: str = "127.0.0.1", show_progress: bool = True,
                       rate: float = 0.0) -> tuple[Tally, float]:
    """`games` games (rounded up to pairs), `parallel` at once. Returns the tally and the wall
    time in seconds."""
    pairs = (games + 1) // 2
    plan = [(2 * i + k, seed + i, k) for i in range(pairs) for k in (0, 1)]
    tally = Tally()
    queue: asyncio.Queue[tuple[int, int, int]] = asyncio.Queue()
    for item in plan:
        queue.put_nowait(item)
    started = time.monotonic()
    done = 0

    async def worker() -> None:
        nonlocal done
        while not queue.empty():
            game_no, game_seed, a_team = queue.get_nowait()
            try:
                result, team = await play_game(port, game_no, game_seed, a, b, a_team, target,
                                               timeout, host, rate=rate)
                tally.add(result, team)
            except Exception as e:   # one failed game is reported, the others go on
                tally.failures.append(f"game {game_no} (seed {game_seed}): "
                                      f"{type(e).__name__}: {e}")
            done += 1
            if show_progress:
                progress(done, len(plan), started, len(tally.failures))

    await asyncio.gather(*(worker() for _ in range(max(1, parallel))))
    if show_progress:
        sys.stderr.write("\n")
    return tally, time.monotonic() - started


def report(tally: Tally, seconds: float, a: str, b: str) -> str:
    def pct(k: int, n: int) -> str:
        if n == 0:
            return "-"
        low, high = wilson(k, n)
        return f"{k}/{n} = {100 * k / n:.1f} % (95 % CI {100 * low:.1f}-{100 * high:.1f} %)"

    n = tally.games
    lines = [
        f"{n} games ({tally.rounds} rounds) in {seconds:.1f} s: {n / max(seconds, 1e-9):.2f} "
        f"games per second",
        f"A = {a} (mirrored seats), B = {b}",
        f"A wins: {pct(tally.a.wins, n)}; B wins {tally.b.wins}; shared {tally.shared}",
    ]
    for label, side in (("A", tally.a), ("B", tally.b)):
        lines += [
            f"{label} Tichu calls succeed: {pct(side.tichu_made, side.tichu)}",
            f"{label} Grand Tichu calls succeed: {pct(side.grand_made, side.grand)}",
            f"{label} double victories: {side.double} of {tally.rounds} rounds"
            f" = {100 * side.double / max(1, tally.rounds):.1f} %; points {side.points}",
        ]
    if tally.failures:
        lines.append(f"{len(tally.failures)} games failed:")
        lines += ["  " + f for f in tally.failures[:10]]
    return "\n".join(lines)


async def _main(opts: argparse.Namespace) -> int:
    server: subprocess.Popen[bytes] | None = None
    tmp: tempfile.TemporaryDirectory[str] | None = None
    port = opts.port
    try:
        if port is None:
            tmp = tempfile.TemporaryDirectory(prefix="tichu-selfplay-")
            port = free_port()
            log = open(os.path.join(tmp.name, "server.log"), "wb")  # noqa: SIM115 (the child's log: open while it runs)
            server = subprocess.Popen(
                [sys.executable, "-m", "protocol", "--port", f"tcp:{port}:interface=127.0.0.1",
                 "--db", os.path.join(tmp.name, "lobby.sqlite3"), "--flood-rate", "0",
                 "--idle-timeout", "0", "--max-guests", "0"],
                cwd=str(ROOT), stdout=log, stderr=subprocess.STDOUT)
            await wait_for_server(port)
        tally, seconds = await run_selfplay(
            port, opts.games, opts.a, opts.b, seed=opts.seed, target=opts.target,
            parallel=opts.parallel, timeout=opts.timeout, host=opts.host,
            show_progress=not opts.quiet, rate=opts.rate if opts.port is not None else 0.0)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        if tmp is not None:
            tmp.cleanup()
    print(report(tally, seconds, opts.a, opts.b))
    status = 0
    if tally.failures:
        status = 1
    if opts.require_win is not None and tally.a.wins < opts.require_win * max(1, tally.games):
        print(f"A's win rate is below {opts.require_win:g}", file=sys.stderr)
        status = 1
    if opts.require_tichu is not None and (
            tally.a.tichu == 0 or tally.a.tichu_made < opts.require_tichu * tally.a.tichu):
        print(f"A's Tichu success rate is below {opts.require_tichu:g}", file=sys.stderr)
        status = 1
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Bot strategies against each other over TCP.")
    parser.add_argument("--games", type=int, default=200, help="games (in mirrored pairs)")
    parser.add_argument("--a", choices=STRATEGY_NAMES, default="heuristic")
    parser.add_argument("--b", choices=STRATEGY_NAMES, default="random")
    parser.add_argument("--port", type=int, help="a running server (default: start one)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--seed", type=int, default=1, help="the first deal seed")
    parser.add_argument("--target", type=int, default=1000, help="the score that ends a game")
    parser.add_argument("--parallel", type=int, default=2, help="games at once")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per game")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--rate", type=float, default=6.0,
                        help="commands per second per bot against a running server (--port)")
    parser.add_argument("--require-win", type=float, metavar="P")
    parser.add_argument("--require-tichu", type=float, metavar="P")
    opts = parser.parse_args(argv)
    if opts.games < 1:
        parser.error("--games must be at least 1")
    return asyncio.run(_main(opts))


if __name__ == "__main__":
    raise SystemExit(main())
