#!/usr/bin/env python3
"""The "Bots" benchmark: tables of expert bots with a person each, and other users' latency.

    .venv/bin/python scripts/bench_bots.py --tables 50 --seconds 60
    .venv/bin/python scripts/bench_bots.py --tables 50 --seconds 60 --bot-workers 0   # in process
    .venv/bin/python scripts/bench_bots.py --tables 2 --seconds 5 --level expert:0.05  # a quick look

It starts the lobby server (``python -m protocol``) as a separate process with a temporary
database, the limits that would cap a benchmark off, and ``--bot-workers`` (default: the
server's own default, one worker per core beyond the first). Then ``--tables`` tables each get
one scripted person (a machine-mode connection playing random legal moves, scripts/
bench_tables.py's TableBot) and three ``/addbot LEVEL`` bots (default ``expert``: 0.5 s of
thinking per decision, plus the bots' 0.5 s pause); the person starts the game and a finished game
is ``/reset`` and started again. Meanwhile ``--probes`` other users in the lobby each send
``/whereis`` every ``--interval`` seconds and time the answer: the latency other users see while
the bots think. Measured after ``--warmup`` seconds, for ``--seconds``: the probes' latency
p50/p99/max, the persons' accepted actions, the server's CPU (its own process; the workers are
its children and counted apart). Prints one JSON object; ``--json FILE`` writes it too.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
for p in (str(ROOT), str(SCRIPTS)):
    if p not in sys.path:
        sys.path.insert(0, p)

from bench_server import Server  # noqa: E402
from bench_tables import SERVER_LIMITS, Stats, TableBot  # noqa: E402
from loadgen import Conn, Histogram, Target, cpu_seconds  # noqa: E402

__all__ = ["main", "run"]


def _children_cpu(pid: int) -> float:
    """CPU seconds of the server's child processes (the bot workers) that are running now."""
    total = 0.0
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    for kid in kids:
        try:
            total += cpu_seconds(int(kid))
        except (OSError, ValueError):
            pass
    return total


async def _table(target: Target, k: int, stats: Stats, rng: random.Random, level: str
                 ) -> TableBot:
    loop = asyncio.get_running_loop()
    conn = Conn(loop)
    await asyncio.wait_for(conn.connect(target.host, target.port, target.source(k)), 30)
    person = TableBot(conn, f"Person{k}", stats, rng)
    await person.login()
    await person.open_table()
    await person.must("/join 1")
    for seat in (2, 3, 4):
        await person.must(f"/addbot {seat} {level}")
    return person


async def _probe(target: Target, k: int, hist: Histogram, state: dict[str, Any],
                 interval: float) -> None:
    loop = asyncio.get_running_loop()
    conn = Conn(loop)
    await asyncio.wait_for(conn.connect(target.host, target.port, target.source(1000 + k)), 30)
    probe = TableBot(conn, f"Probe{k}", Stats(), random.Random(k))
    await probe.login()
    state["ready"] += 1
    while not state["done"]:
        start = time.monotonic()
        reply = await probe.command(f"/whereis Probe{k}")
        took = time.monotonic() - start
        if state["measuring"]:
            hist.record(took)
            if reply.get("type") == "error":
                state["probe_errors"] += 1
        await asyncio.sleep(max(0.0, interval - took))
    conn.close()


async def run(port: int, opts: argparse.Namespace) -> dict[str, Any]:
    target = Target("127.0.0.1", port, 8)
    stats = Stats()
    rng = random.Random(opts.seed)
    sem = asyncio.Semaphore(16)

    async def one(k: int) -> TableBot:
        async with sem:
            return await _table(target, k, stats, rng, opts.level)

    started = time.monotonic()
    persons = await asyncio.gather(*(one(k) for k in range(opts.tables)))
    setup_s = time.monotonic() - started
    hist = Histogram()
    state: dict[str, Any] = {"done": False, "measuring": False, "ready": 0, "probe_errors": 0}
    probes = [asyncio.ensure_future(_probe(target, k, hist, state, opts.interval))
              for k in range(opts.probes)]
    for p in persons:
        p.playing = True
        p.events.clear()
        p._send_game("/start", "start")
    await asyncio.sleep(opts.warmup)
    stats.measuring = state["measuring"] = True
    return {"setup_s": round(setup_s, 2), "persons": persons, "stats": stats, "hist": hist,
            "state": state, "probes": probes}


async def finish(run_state: dict[str, Any], seconds: float) -> dict[str, Any]:
    await asyncio.sleep(seconds)
    state, stats = run_state["state"], run_state["stats"]
    stats.measuring = state["measuring"] = False
    state["done"] = True
    await asyncio.gather(*run_state["probes"], return_exceptions=True)
    closed = sum(1 for p in run_state["persons"] if p.conn.closed)
    for p in run_state["persons"]:
        p.playing = False
        p.conn.close()
    return {"actions": stats.actions, "refused": stats.refused, "games_started": stats.games,
            "closed": closed, "probe_errors": state["probe_errors"],
            "latency": run_state["hist"].summary(), "setup_s": run_state["setup_s"]}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--level", default="expert", help="the bots' strategy (expert, expert:S)")
    ap.add_argument("--bot-workers", type=int, default=None,
                    help="the server's --bot-workers (default: the server's default)")
    ap.add_argument("--probes", type=int, default=10, help="other users timing /whereis")
    ap.add_argument("--interval", type=float, default=0.1, help="seconds between a probe's lines")
    ap.add_argument("--warmup", type=float, default=10.0)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="FILE")
    opts = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_bots") as tmp:
        workdir = Path(tmp)
        argv_ = [sys.executable, "-m", "protocol", "--db", str(workdir / "bots.sqlite3"),
                 "--port", "tcp:0:interface=127.0.0.1:backlog=1024", *SERVER_LIMITS]
        if opts.bot_workers is not None:
            argv_ += ["--bot-workers", str(opts.bot_workers)]
        server = Server(argv_, workdir / "server.log", None, 4096, workdir)
        try:
            async def go() -> dict[str, Any]:
                state = await run(server.port, opts)
                cpu0 = cpu_seconds(server.pid)
                kids0 = _children_cpu(server.pid)
                t0 = time.monotonic()
                result = await finish(state, opts.seconds)
                result["seconds"] = round(time.monotonic() - t0, 2)
                result["server_cpu_s"] = round(cpu_seconds(server.pid) - cpu0, 2)
                result["workers_cpu_s"] = round(_children_cpu(server.pid) - kids0, 2)
                return result
            result = asyncio.run(go())
        finally:
            server.stop()
    result.update({"tables": opts.tables, "level": opts.level, "probes": opts.probes,
                   "bot_workers": opts.bot_workers if opts.bot_workers is not None
                   else max(1, (os.cpu_count() or 1) - 1),
                   "load_avg_1min": round(os.getloadavg()[0], 2)})
    text = json.dumps(result)
    print(text)
    if opts.json:
        Path(opts.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
