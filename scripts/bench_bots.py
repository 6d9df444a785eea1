#!/usr/bin/env python3
"""The "Bots" benchmark: tables of expert bots with a person each, and other users' latency.

    .venv/bin/python scripts/bench_bots.py --tables 50 --seconds 60
    .venv/bin/python scripts/bench_bots.py --tables 50 --seconds 60 --bot-workers 0   # in process
    .venv/bin/python scripts/bench_bots.py --tables 2 --seconds 5 --baseline 3 --warmup 3  # a look

It starts the lobby server (``python -m protocol``) as a separate process with a temporary
database, the limits that would cap a benchmark off, ``--metrics`` on a loopback port, and
``--bot-workers`` / ``--bot-queue`` (default: the server's own defaults, one worker per core
beyond the first, a queue as long). A separate probe process (forked before anything else) logs
in ``--probes`` other users who stay in the lobby; each sends, in turn, ``/who``, a line of
chat to the lobby and a whisper to itself, one every ``--interval`` seconds, and times each
answer (the reply that carries the command's id).

1. Baseline: ``--baseline`` seconds of the probes alone on the idle server (same process, same
   run), the denominator of every latency ratio.
2. Tables: ``--tables`` tables, each with one person (a machine-mode connection that plays
   random legal moves at human pace: it waits ``--think`` seconds, uniformly drawn, before each
   command; scripts/bench_tables.py's TableBot) and three ``/addbot LEVEL`` bots (default
   ``expert``: 0.5 s of thinking per decision, plus the bots' 0.5 s pause); the person starts the
   game, a finished game is ``/reset`` and started again.
3. After ``--warmup`` seconds, ``--seconds`` of measurement: the probes' latency p50/p99/max
   by command and over all (and the ratio to the baseline), the persons' accepted actions and
   refusals; from the server's ``/metrics`` at the start and end of the window: the bots'
   decisions by type and outcome (searched by a worker, or the heuristic's because the pool was
   overloaded, the job waited its budget, timed out, its worker died), their time from request
   to answer p50/p99 per decision type (from the histogram's buckets), the workers' CPU seconds
   as they report them, worker replacements, the server's own command latency; the server's CPU
   (``/proc/PID/stat``) and each worker process's (``/proc/PID/stat`` of the server's children).

Prints a summary and one JSON object; ``--json FILE`` writes the JSON too.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
for p in (str(ROOT), str(SCRIPTS)):
    if p not in sys.path:
        sys.path.insert(0, p)

from bench_server import Server
from bench_tables import SERVER_LIMITS, Stats, TableBot
from loadgen import Conn, Target, cpu_seconds

__all__ = ["main"]

PROBE_COMMANDS = ("who", "say", "tell")


# ---- the server's processes ---------------------------------------------------------------------
def children(pid: int) -> list[int]:
    """The child processes of `pid` (every thread's children: /proc/PID/task/TID/children)."""
    out: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for tid in tasks:
        try:
            out.update(int(k) for k in Path(f"/proc/{pid}/task/{tid}/children").read_text().split())
        except (OSError, ValueError):
            pass
    return sorted(out)


def metrics_port(log: Path, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text().splitlines():
            if "metrics on " in line:
                return int(line.split("(", 1)[1].split(")", 1)[0].rsplit(":", 1)[1])
        time.sleep(0.05)
    raise SystemExit("bench_bots: the server did not open its metrics port")


def scrape(port: int) -> dict[str, Any]:
    """The server's /metrics as {(name, labels): value} (prometheus_client's text parser)."""
    from prometheus_client.parser import text_string_to_metric_families
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as r:
        text = r.read().decode()
    out: dict[Any, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def _delta(a: dict[Any, float], b: dict[Any, float], name: str) -> dict[tuple[Any, ...], float]:
    return {labels: v - a.get((n, labels), 0.0) for (n, labels), v in b.items() if n == name}


def _quantile(buckets: list[tuple[float, float]], q: float) -> float | None:
    """The q-quantile of a cumulative histogram [(upper bound, count)], linear in a bucket."""
    if not buckets or buckets[-1][1] <= 0:
        return None
    total = buckets[-1][1]
    rank = q * total
    lower, below = 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if bound == float("inf"):
                return lower
            inside = count - below
            return lower + (bound - lower) * ((rank - below) / inside if inside else 0.0)
        lower, below = bound, count
    return lower


def _histograms(a: dict[Any, float], b: dict[Any, float], name: str, key: str,
                where: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Per label `key`: count, p50, p99 of histogram `name` between two scrapes (the samples
    whose other labels match `where`; the rest summed)."""
    per: dict[str, dict[float, float]] = {}
    for labels, v in _delta(a, b, name + "_bucket").items():
        d = dict(labels)
        if where and any(d.get(k) != w for k, w in where.items()):
            continue
        le = float(d["le"])
        sums = per.setdefault(d[key], {})
        sums[le] = sums.get(le, 0.0) + v
    out = {}
    for k, summed in sorted(per.items()):
        buckets = sorted(summed.items())
        n = buckets[-1][1] if buckets else 0
        if n <= 0:
            continue
        p50, p99 = _quantile(buckets, 0.5), _quantile(buckets, 0.99)
        out[k] = {"count": int(n), "p50_ms": None if p50 is None else round(p50 * 1000, 1),
                  "p99_ms": None if p99 is None else round(p99 * 1000, 1)}
    return out


# ---- the probe process ----------------------------------------------------------------------------
def _probe_process(port: int, probes: int, interval: float, ready: Any, stop: Any,
                   out: Any) -> None:
    samples: list[tuple[float, str, float, bool]] = []

    async def one(k: int) -> None:
        loop = asyncio.get_running_loop()
        conn = Conn(loop)
        await asyncio.wait_for(conn.connect("127.0.0.1", port, None), 30)
        name = f"Probe{k}"
        probe = TableBot(conn, name, Stats(), random.Random(k))
        await probe.login()
        n = k
        ready.release()
        while not stop.is_set():
            kind = PROBE_COMMANDS[n % len(PROBE_COMMANDS)]
            n += 1
            # each line differs: a line repeated in a row is not sent (the speech budget)
            lines = {"who": "/who", "say": f"probe {k} says hello {n}", "tell": f";{name} p {n}"}
            start = time.monotonic()
            reply = await probe.command(lines[kind], timeout=120)
            took = time.monotonic() - start
            samples.append((start, kind, took, reply.get("type") == "error"))
            await asyncio.sleep(max(0.0, interval - took))
        conn.close()

    async def go() -> None:
        tasks = [asyncio.ensure_future(one(k)) for k in range(probes)]
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(go())
    out.put(samples)


def _summary(samples: list[tuple[float, str, float, bool]], t0: float, t1: float
             ) -> dict[str, Any]:
    got = [s for s in samples if t0 <= s[0] < t1]

    def stats(values: list[float]) -> dict[str, Any]:
        if not values:
            return {"count": 0}
        values = sorted(values)

        def q(p: float) -> float:
            return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 2)
        return {"count": len(values), "p50_ms": q(0.5), "p99_ms": q(0.99),
                "max_ms": round(values[-1] * 1000, 2)}
    out = {"all": stats([s[2] for s in got]), "errors": sum(1 for s in got if s[3])}
    for kind in PROBE_COMMANDS:
        out[kind] = stats([s[2] for s in got if s[1] == kind])
    return out


# ---- the tables -----------------------------------------------------------------------------------
class Person(TableBot):
    """A person at a table: random legal moves, each after `think` seconds (uniform)."""

    def __init__(self, conn: Conn, name: str, stats: Stats, rng: random.Random,
                 think: tuple[float, float]) -> None:
        super().__init__(conn, name, stats, rng)
        self.think = think
        self.rng = rng
        self._later: asyncio.TimerHandle | None = None

    def act(self) -> None:
        if self._later is not None or self.state is None or self.decided == self.state_no:
            return
        loop = asyncio.get_running_loop()
        self._later = loop.call_later(self.rng.uniform(*self.think), self._go)

    def _go(self) -> None:
        self._later = None
        if self.playing and self.inflight is None and not self.conn.closed:
            TableBot.act(self)


async def _table(target: Target, k: int, stats: Stats, rng: random.Random, level: str,
                 think: tuple[float, float]) -> Person:
    loop = asyncio.get_running_loop()
    conn = Conn(loop)
    await asyncio.wait_for(conn.connect(target.host, target.port, target.source(k)), 30)
    person = Person(conn, f"Person{k}", stats, random.Random(rng.randrange(2 ** 31)), think)
    await person.login()
    await person.open_table()
    await person.must("/join 1")
    for seat in (2, 3, 4):
        await person.must(f"/addbot {seat} {level}")
    return person


async def _tables(port: int, opts: argparse.Namespace, stats: Stats) -> tuple[list[Person], float]:
    target = Target("127.0.0.1", port, 8)
    rng = random.Random(opts.seed)
    sem = asyncio.Semaphore(16)
    think = (opts.think_min, opts.think_max)

    async def one(k: int) -> Person:
        async with sem:
            return await _table(target, k, stats, rng, opts.level, think)
    started = time.monotonic()
    persons = await asyncio.gather(*(one(k) for k in range(opts.tables)))
    for p in persons:
        p.playing = True
        p.events.clear()
        p._send_game("/start", "start")
    return list(persons), time.monotonic() - started


def _cpu(pids: list[int]) -> dict[int, float]:
    return {p: cpu_seconds(p) for p in pids}


# ---- the run --------------------------------------------------------------------------------------
def run(opts: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    argv = [sys.executable, "-m", "protocol", "--db", str(workdir / "bots.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1:backlog=1024",
            "--metrics", "tcp:0:interface=127.0.0.1", *SERVER_LIMITS]
    if opts.bot_workers is not None:
        argv += ["--bot-workers", str(opts.bot_workers)]
    if opts.bot_queue is not None:
        argv += ["--bot-queue", str(opts.bot_queue)]
    server = Server(argv, workdir / "server.log", None, 4096, workdir)
    ctx = multiprocessing.get_context("fork")
    ready, stop, out = ctx.Semaphore(0), ctx.Event(), ctx.Queue()
    prober = ctx.Process(target=_probe_process, args=(server.port, opts.probes, opts.interval,
                                                      ready, stop, out), daemon=True)
    result: dict[str, Any] = {}
    try:
        mport = metrics_port(workdir / "server.log")
        prober.start()
        for _ in range(opts.probes):
            if not ready.acquire(timeout=60):
                raise SystemExit("bench_bots: the probes could not log in")
        b0 = time.monotonic()
        time.sleep(opts.baseline)
        b1 = time.monotonic()
        stats = Stats()

        async def load() -> None:
            persons, setup_s = await _tables(server.port, opts, stats)
            result["setup_s"] = round(setup_s, 2)
            await asyncio.sleep(opts.warmup)
            m0 = await asyncio.to_thread(scrape, mport)
            kids = children(server.pid)
            cpu0, kcpu0 = cpu_seconds(server.pid), _cpu(kids)
            t0 = time.monotonic()
            stats.measuring = True
            await asyncio.sleep(opts.seconds)
            stats.measuring = False
            t1 = time.monotonic()
            cpu1, kcpu1 = cpu_seconds(server.pid), _cpu(children(server.pid))
            m1 = await asyncio.to_thread(scrape, mport)
            result.update(window=(t0, t1), m0=m0, m1=m1, cpu=cpu1 - cpu0,
                          kids_cpu={p: round(kcpu1[p] - kcpu0[p], 2) for p in kcpu0 if p in kcpu1},
                          kids_before=sorted(kcpu0), kids_after=sorted(kcpu1),
                          closed=sum(1 for p in persons if p.conn.closed))
            for p in persons:
                p.playing = False
                p.conn.close()
        asyncio.run(load())
        stop.set()
        samples = out.get(timeout=120)
        prober.join(30)
    finally:
        stop.set()
        if prober.is_alive():
            prober.kill()
        server.stop()
    t0, t1 = result.pop("window")
    m0, m1 = result.pop("m0"), result.pop("m1")
    seconds = t1 - t0
    base = _summary(samples, b0, b1)
    loaded = _summary(samples, t0, t1)
    ratio = {}
    for k in ("p50_ms", "p99_ms"):
        if base["all"].get(k) and loaded["all"].get(k) is not None:
            ratio[k] = round(loaded["all"][k] / base["all"][k], 2)
    decisions: dict[str, dict[str, int]] = {}
    for labels, v in _delta(m0, m1, "tichu_bot_decisions_total").items():
        d = dict(labels)
        if v:
            decisions.setdefault(d["todo"], {})[d["outcome"]] = int(v)
    total = sum(sum(v.values()) for v in decisions.values())
    searched = sum(v.get("searched", 0) for v in decisions.values())
    wcpu = _delta(m0, m1, "tichu_bot_worker_cpu_seconds_total").get((), None)
    result.update({
        "tables": opts.tables, "level": opts.level, "probes": opts.probes,
        "interval_s": opts.interval, "think_s": [opts.think_min, opts.think_max],
        "seconds": round(seconds, 2),
        "bot_workers": opts.bot_workers if opts.bot_workers is not None
        else max(1, (os.cpu_count() or 1) - 1),
        "bot_queue": opts.bot_queue,
        "probe_baseline": base, "probe_loaded": loaded, "ratio_to_baseline": ratio,
        "person_actions": stats.actions, "person_refused": stats.refused,
        "games_started": stats.games,
        "bot_decisions": decisions, "bot_decisions_total": total,
        "fallback_rate": round(1 - searched / total, 3) if total else None,
        "bot_decision_time": _histograms(m0, m1, "tichu_bot_decision_duration_seconds", "todo"),
        "bot_decision_time_searched": _histograms(m0, m1, "tichu_bot_decision_duration_seconds",
                                                  "todo", {"outcome": "searched"}),
        "worker_replacements": int(sum(_delta(m0, m1,
                                              "tichu_bot_worker_replacements_total").values())),
        "workers_cpu_s_reported": None if wcpu is None else round(wcpu, 2),
        "workers_cpu_s_proc": round(sum(result["kids_cpu"].values()), 2),
        "server_cpu_s": round(result.pop("cpu"), 2),
        "server_commands": {k: v for k, v in _histograms(
            m0, m1, "tichu_command_duration_seconds", "command").items()
            if k in ("who", "say", "tell", "play", "pass", "schupf", "grand", "nogrand")},
        "load_avg_1min_end": round(os.getloadavg()[0], 2),
    })
    return result


def _print(r: dict[str, Any]) -> None:
    b, m = r["probe_baseline"]["all"], r["probe_loaded"]["all"]
    print(f"{r['tables']} tables of {r['level']} bots, {r['bot_workers']} workers, "
          f"{r['seconds']} s measured (load average {r['load_avg_1min_start']} at the start, "
          f"{r['load_avg_1min_end']} at the end)")
    print(f"other users' commands: p50 {m.get('p50_ms')} ms, p99 {m.get('p99_ms')} ms, "
          f"max {m.get('max_ms')} ms ({m.get('count')} commands); idle baseline p50 "
          f"{b.get('p50_ms')} ms, p99 {b.get('p99_ms')} ms; ratio {r['ratio_to_baseline']}")
    print(f"bot decisions {r['bot_decisions_total']}, fallback rate {r['fallback_rate']}: "
          f"{r['bot_decisions']}")
    print(f"decision time (request to answer), all: {r['bot_decision_time']}")
    print(f"decision time, searched by a worker: {r['bot_decision_time_searched']}")
    print(f"CPU: server {r['server_cpu_s']} s, workers {r['workers_cpu_s_proc']} s (/proc), "
          f"{r['workers_cpu_s_reported']} s (reported); replacements {r['worker_replacements']}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--level", default="expert", help="the bots' strategy (expert, expert:S)")
    ap.add_argument("--bot-workers", type=int, default=None,
                    help="the server's --bot-workers (default: the server's default)")
    ap.add_argument("--bot-queue", type=int, default=None,
                    help="the server's --bot-queue (default: the server's default)")
    ap.add_argument("--probes", type=int, default=10, help="other users timing commands")
    ap.add_argument("--interval", type=float, default=0.2,
                    help="seconds between a probe's commands (default 0.2)")
    ap.add_argument("--think-min", type=float, default=1.0,
                    help="a person's shortest pause before a command (default 1 s)")
    ap.add_argument("--think-max", type=float, default=4.0,
                    help="a person's longest pause (default 4 s)")
    ap.add_argument("--baseline", type=float, default=15.0,
                    help="seconds of the probes on the idle server first (default 15)")
    ap.add_argument("--warmup", type=float, default=15.0)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="FILE")
    opts = ap.parse_args(argv)
    load_start = round(os.getloadavg()[0], 2)
    with tempfile.TemporaryDirectory(prefix="bench_bots") as tmp:
        result = run(opts, Path(tmp))
    result["load_avg_1min_start"] = load_start
    _print(result)
    text = json.dumps(result)
    print(text)
    if opts.json:
        Path(opts.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
