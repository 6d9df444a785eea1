#!/usr/bin/env python3
"""The "Tables" benchmark: N tables of four machine-mode bots playing random legal moves.

    .venv/bin/python scripts/bench_tables.py --tables 10,100,250,500,1000 --seconds 10
    .venv/bin/python scripts/bench_tables.py --tables 2 --seconds 2 --no-echo     # the smoke test

For each N it starts the lobby server (``python -m protocol``) as a separate process with a
temporary database and the limits that would cap a benchmark turned off (connections, guests,
flood control, login and idle time-outs), then one or more load processes (``--procs``; default:
one per 500 tables, at most 2) that each open their share of the tables: four connections per
table, each switched to machine mode with ``%json 3``, logged in as a guest; the first opens a
table (``/newroom``), all four ``/join``, and once every process is ready the openers ``/start``.
From then on each bot answers every ``state`` object in which it is asked to act (``grand``,
exchange, play, wish, Dragon) with a random legal decision (``lobby.bots`` "random" strategy:
``legal`` plus the pass where ``can_pass``), one command at a time, as fast as the server answers;
a finished match is ``/reset`` and started again.

Measured, after ``--warmup`` seconds, for ``--seconds``: actions per second (commands the server
accepted: the ``ok`` with the command's id) and the latency of each accepted action from sending
it to receiving its ``state`` update on the same connection (the first ``state`` after the send;
machine mode sends the effects before the ``ok``), as p50/p99/p99.9 (scripts/loadgen.Histogram).

In the same run the echo baseline (scripts/bench_echo_server.py with ``loadgen.py echo``,
``--echo-conns`` closed loops) gives the machine's round-trip limit; each N is reported as a
ratio to it. With two CPUs the server is pinned to the first and the load to the second.
Everything is loopback, bounded (``--time-limit`` per load process) and stops by itself. Prints
one JSON object per N and a Markdown table; ``--json FILE`` writes all figures.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
for p in (str(ROOT), str(SCRIPTS)):
    if p not in sys.path:
        sys.path.insert(0, p)

from loadgen import (
    GAME_VERBS,
    ID_RE,
    UVLOOP_MISSING,
    Conn,
    Histogram,
    Target,
    bench_cpus,
    cpu_seconds,
    load_process_setup,
    run_load_processes,
    split_tables,
)

from lobby.bots.strategies.random_bot import RandomStrategy
from protocol.render.json_lines import apply_update

__all__ = ["TableBot", "run_load", "bench_one", "main"]

now_ns = time.monotonic_ns
SERVER_LIMITS = ("--max-connections", "0", "--max-per-ip", "0", "--max-guests", "0",
                 "--flood-rate", "0", "--login-timeout", "0", "--idle-timeout", "0",
                 "--login-attempts-per-minute", "0",
                 # (issue 23's budgets that would cap the benchmark's own load: its users are
                 # guests on 127.0.0.1 with expert bots, chatting and asking at full speed)
                 "--guest-expert-seconds", "0", "--expert-tables-per-user", "0",
                 "--speech-per-second", "0", "--tells-per-second", "0",
                 "--repeat-window", "0", "--work-per-second", "0", "--table-changes-per-minute", "0",
                 "--input-bytes-per-second", "0", "--telnet-commands-per-second", "0")
_STATE = b'{"type":"state"'
_UPDATE = b'{"type":"update"'


class BotFailed(Exception):
    """A bot could not set up (refused command, closed connection)."""


class TableBot:
    """One machine-mode connection at a table; reads with loadgen's Conn in measure mode."""

    def __init__(self, conn: Conn, name: str, stats: Stats, rng: random.Random) -> None:
        self.conn = conn
        self.name = name
        self.stats = stats
        self.strategy = RandomStrategy(rng.randrange(2 ** 31), grand=0.02, tichu=0.02, bomb=0.1)
        self.opener = False
        self.partial = b""
        self.next_id = 0
        self.waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.prompt: asyncio.Future[dict[str, Any]] | None = None
        self.events: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.state_no = 0
        self.decided = 0
        self.inflight: str | None = None       # the id of the game command in flight
        self.inflight_verb = ""
        self.sent_at = 0
        self.state_at = 0                       # when the first state after the send arrived
        self.refused_in_a_row = 0
        self.playing = False
        conn.measure(self.on_data)

    # ---- the wire ------------------------------------------------------------------------------
    def on_data(self, conn: Conn, data: bytes) -> None:
        if self.partial:
            data = self.partial + data
        lines = data.split(b"\r\n")
        self.partial = lines.pop()
        for line in lines:
            if line.startswith(_STATE):
                if self.inflight is not None and not self.state_at:
                    self.state_at = now_ns()
                self.state = json.loads(line)
                self.state_no += 1
                continue
            if line.startswith(_UPDATE):         # protocol 2: what changed in the state
                if self.inflight is not None and not self.state_at:
                    self.state_at = now_ns()
                if self.state is not None:
                    self.state = apply_update(self.state, json.loads(line))
                    self.state_no += 1
                continue
            m = ID_RE.search(line)
            if m is not None:
                self.reply(m.group(1).decode(), json.loads(line))
            elif self.prompt is not None and b'"type":"prompt"' in line:
                fut, self.prompt = self.prompt, None
                fut.set_result(json.loads(line))
            elif not self.playing and line.startswith(b"{"):
                self.events.append(json.loads(line))
        if self.playing and self.inflight is None:
            self.act()

    def send(self, line: str) -> str:
        self.next_id += 1
        cid = f"a{self.next_id}"
        self.conn.send(f"#{cid} {line}\r\n".encode())
        return cid

    async def command(self, line: str, timeout: float = 60.0) -> dict[str, Any]:
        cid = self.send(line)
        fut = asyncio.get_running_loop().create_future()
        self.waiters[cid] = fut
        return await asyncio.wait_for(fut, timeout)

    async def must(self, line: str) -> dict[str, Any]:
        reply = await self.command(line)
        if reply["type"] == "error":
            raise BotFailed(f"{self.name}: {line!r} refused: {reply.get('code')}")
        return reply

    def reply(self, cid: str, obj: dict[str, Any]) -> None:
        fut = self.waiters.pop(cid, None)
        if fut is not None:
            if not fut.done():
                fut.set_result(obj)
            return
        if cid != self.inflight:
            return
        self.inflight = None
        st = self.stats
        if obj["type"] == "error":
            st.refused += 1
            self.refused_in_a_row += 1
            if self.refused_in_a_row <= 20:
                self.decided = 0            # decide the same state again (random: another pick)
        else:
            self.refused_in_a_row = 0
            if self.inflight_verb in GAME_VERBS and st.measuring:
                st.actions += 1
                if self.state_at:
                    st.hist.record_ns(self.state_at - self.sent_at)
                else:
                    st.no_state += 1
            elif self.inflight_verb == "start":
                st.games += 1
        self.state_at = 0

    # ---- login and table -----------------------------------------------------------------------
    async def login(self) -> None:
        self.prompt = asyncio.get_running_loop().create_future()
        self.conn.send(b"%json 3\r\n")
        await asyncio.wait_for(self.prompt, 60)
        reply = await self.command(self.name)
        if reply["type"] not in ("logged-in", "logged-in-guest"):
            raise BotFailed(f"{self.name}: login refused: {reply}")

    async def open_table(self) -> int:
        self.opener = True
        await self.must("/newroom tichu")
        for obj in reversed(self.events):
            if obj["type"] == "newroom":
                return int(obj["table"])
        raise BotFailed("no table number after /newroom")

    # ---- playing ---------------------------------------------------------------------------------
    def act(self) -> None:
        state = self.state
        if state is None:
            return
        status = state.get("status")
        if status != "playing":
            if not self.opener or self.decided == self.state_no:
                return
            self.decided = self.state_no
            if status == "finished":
                self._send_game("/reset", "reset")
            elif status == "waiting" and all(state.get("names") or [None]):
                self._send_game("/start", "start")
            return
        if self.decided == self.state_no:
            return
        self.decided = self.state_no
        command = self.strategy.decide(state)
        if command:
            self._send_game(command, command.split(" ", 1)[0])

    def _send_game(self, line: str, verb: str) -> None:
        self.inflight_verb = verb
        self.state_at = 0
        self.sent_at = now_ns()
        self.inflight = self.send(line)


class Stats:
    def __init__(self) -> None:
        self.hist = Histogram()
        self.actions = 0
        self.refused = 0
        self.no_state = 0
        self.games = 0
        self.measuring = False


async def _set_up_table(target: Target, prefix: str, k: int, stats: Stats,
                        rng: random.Random) -> list[TableBot]:
    loop = asyncio.get_running_loop()
    bots: list[TableBot] = []
    try:
        for s in range(4):
            conn = Conn(loop)
            await asyncio.wait_for(conn.connect(target.host, target.port,
                                                target.source(4 * k + s)), 30)
            bot = TableBot(conn, f"{prefix}{k}s{s}", stats, rng)
            bots.append(bot)
            await bot.login()
        number = await bots[0].open_table()
        await bots[0].must("/join 1")
        for s, bot in enumerate(bots[1:], start=2):
            await bot.must(f"/room {number}")
            await bot.must(f"/join {s}")
    except BaseException:
        for b in bots:
            b.conn.close()
        raise
    return bots


async def run_load(port: int, tables: int, prefix: str, warmup: float, seconds: float,
                   ready: Callable[[], None] = lambda: None, seed: int = 1) -> dict[str, Any]:
    """Open ``tables`` tables of four bots, call ``ready()`` (a barrier between processes), play
    for ``warmup`` + ``seconds``; the figures of the measured part."""
    target = Target("127.0.0.1", port, 8)
    stats = Stats()
    rng = random.Random(seed)
    sem = asyncio.Semaphore(32)
    setup_start = time.monotonic()

    async def one(k: int) -> list[TableBot]:
        async with sem:
            return await _set_up_table(target, prefix, k, stats, rng)

    groups = await asyncio.gather(*(one(k) for k in range(tables)))
    setup_s = time.monotonic() - setup_start
    bots = [b for g in groups for b in g]
    ready()
    for b in bots:
        b.playing = True
        b.events.clear()
    for g in groups:                     # the openers start; everyone else acts on states
        g[0]._send_game("/start", "start")
    await asyncio.sleep(warmup)
    stats.measuring = True
    start = time.monotonic()
    cpu_start = time.process_time()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.monotonic() - start
    load_cpu = time.process_time() - cpu_start
    closed = sum(1 for b in bots if b.conn.closed)
    for b in bots:
        b.playing = False
        b.conn.close()
    return {"tables": tables, "conns": len(bots), "setup_s": round(setup_s, 2),
            "seconds": elapsed, "actions": stats.actions, "refused": stats.refused,
            "no_state": stats.no_state, "games_started": stats.games, "closed": closed,
            "load_cpu_s": round(load_cpu, 2), "hist": stats.hist.to_dict()}


def _load_worker(port: int, tables: int, prefix: str, warmup: float, seconds: float,
                 uvloop_: bool, time_limit: float, cpu: int | None, seed: int,
                 barrier: Any, out: Any) -> None:
    load_process_setup(cpu)

    def ready() -> None:
        barrier.wait(timeout=time_limit)

    async def go() -> dict[str, Any]:
        return await asyncio.wait_for(run_load(port, tables, prefix, warmup, seconds, ready, seed),
                                      time_limit)
    try:
        if uvloop_:
            import uvloop
            result = uvloop.run(go())
        else:
            result = asyncio.run(go())
    except (TimeoutError, Exception) as e:     # reported, the parent fails the run
        barrier.abort()
        result = {"error": f"{type(e).__name__}: {e}"}
    out.put(result)


# ---- processes ----------------------------------------------------------------------------------
# A server process on a port chosen by the kernel: the same helper as bench_server.py's.
from bench_server import Server as Process


def _preexec(cpu: int | None, nofile: int) -> Callable[[], None]:
    """For the load processes: as many open files as asked (soft and hard), pinned to `cpu`."""
    def setup() -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        try:                      # only root may raise the hard limit
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, nofile), max(hard, nofile)))
        except (ValueError, OSError):
            pass
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
    return setup


def bench_one(tables: int, opts: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Start a server, run the load processes for ``tables`` tables, stop the server."""
    server_cpu, load_cpu = bench_cpus() if opts.pin else (None, None)
    argv = [sys.executable, "-m", "protocol", "--db", str(workdir / f"t{tables}.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1:backlog=4096", *SERVER_LIMITS]
    if opts.uvloop:
        argv.append("--uvloop")
    argv.extend(opts.server_arg)
    server = Process(argv, workdir / f"t{tables}.log", server_cpu, opts.nofile, workdir)
    procs = opts.procs or max(1, min(2, (tables + 499) // 500))
    shares = split_tables(tables, procs)
    procs = len(shares)
    try:
        results, server_cpu_s, _ = run_load_processes(
            "bench_tables", server.proc.pid, _load_worker,
            [(server.port, share, f"B{i}t", opts.warmup, opts.seconds, opts.uvloop,
              opts.time_limit, load_cpu, opts.seed + i) for i, share in enumerate(shares)],
            warmup=opts.warmup, seconds=opts.seconds, time_limit=opts.time_limit)
    finally:
        server.stop()
    hist = Histogram()
    for r in results:
        hist.merge(Histogram.from_dict(r["hist"]))
    seconds = max(r["seconds"] for r in results)
    actions = sum(r["actions"] for r in results)
    return {"tables": tables, "conns": sum(r["conns"] for r in results), "procs": procs,
            "loop": "uvloop" if opts.uvloop else "asyncio",
            "setup_s": max(r["setup_s"] for r in results), "seconds": round(seconds, 2),
            "actions": actions, "actions_per_s": round(actions / seconds, 1),
            "refused": sum(r["refused"] for r in results),
            "no_state": sum(r["no_state"] for r in results),
            "games_started": sum(r["games_started"] for r in results),
            "closed": sum(r["closed"] for r in results),
            "server_cpu_s": round(server_cpu_s, 2),
            "load_cpu_per_s": [round(r["load_cpu_s"] / r["seconds"], 2) for r in results],
            "server_cpu_us_per_action": round(server_cpu_s / max(1, actions) * 1e6, 1),
            "latency": hist.summary()}


def bench_echo(opts: argparse.Namespace, workdir: Path, conns: int | None = None) -> dict[str, Any]:
    """The echo baseline: closed-loop round trips against bench_echo_server.py (``conns`` closed
    loops, default ``--echo-conns``)."""
    server_cpu, load_cpu = bench_cpus() if opts.pin else (None, None)
    argv = [sys.executable, str(SCRIPTS / "bench_echo_server.py"),
            "--port", "tcp:0:interface=127.0.0.1:backlog=4096",
            "--seconds", str(opts.time_limit * 2)]
    if opts.uvloop:
        argv.append("--uvloop")
    server = Process(argv, workdir / "echo.log", server_cpu, opts.nofile, workdir)
    try:
        load = [sys.executable, str(SCRIPTS / "loadgen.py"), "echo", "--port", str(server.port),
                "--conns", str(conns or opts.echo_conns), "--seconds", str(opts.seconds),
                "--time-limit", str(opts.time_limit)]
        if opts.uvloop:
            load.append("--uvloop")
        cpu_before = cpu_seconds(server.proc.pid)
        done = subprocess.run(load, capture_output=True, text=True, timeout=opts.time_limit + 60,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)),
                              preexec_fn=_preexec(load_cpu, opts.nofile))
        cpu = cpu_seconds(server.proc.pid) - cpu_before
    finally:
        server.stop()
    if done.returncode != 0:
        raise SystemExit(f"bench_tables: the echo load failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # the echo server's CPU per round trip (its connecting and closing included): the base the
    # servers' CPU per action or move is compared with
    result["server_cpu_s"] = round(cpu, 3)
    result["server_cpu_us_per_round_trip"] = round(
        cpu / max(1, result.get("round_trips", 0)) * 1e6, 2)
    return result


def markdown(rows: list[dict[str, Any]], echo: dict[str, Any] | None,
             echo_at: dict[int, dict[str, Any]] | None = None) -> str:
    base = echo["round_trips_per_s"] if echo else 0.0
    lines = ["| tables (conns) | actions/s | p50 ms | p99 ms | p99.9 ms | ratio to echo | "
             "server CPU s/s | server CPU µs/action | load CPU s/s | refused |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lat = r["latency"]
        ratio = f"{r['actions_per_s'] / base:.2f}" if base else "-"
        lines.append(f"| {r['tables']} ({r['conns']}) | {r['actions_per_s']:,.0f} | "
                     f"{lat['p50_ms']:.1f} | {lat['p99_ms']:.1f} | {lat['p999_ms']:.1f} | "
                     f"{ratio} | {r['server_cpu_s'] / r['seconds']:.2f} | "
                     f"{r['server_cpu_us_per_action']:,.0f} | "
                     f"{'+'.join(str(x) for x in r.get('load_cpu_per_s', []))} | {r['refused']} |")
    if echo:
        lat = echo["latency"]
        lines.append(f"| echo baseline ({echo['conns']} conns) | "
                     f"{echo['round_trips_per_s']:,.0f} round trips/s | {lat['p50_ms']:.1f} | "
                     f"{lat['p99_ms']:.1f} | {lat['p999_ms']:.1f} | 1.00 | "
                     f"{echo.get('server_cpu_s', 0) / max(1e-9, echo.get('seconds', 0)):.2f} | "
                     f"{echo.get('server_cpu_us_per_round_trip', '')} | | |")
    for n, e in sorted((echo_at or {}).items()):
        lat = e["latency"]
        ratio = f"{e['round_trips_per_s'] / base:.2f}" if base else "-"
        lines.append(f"| echo with {n} closed loops (one in flight per table) | "
                     f"{e['round_trips_per_s']:,.0f} round trips/s | {lat['p50_ms']:.1f} | "
                     f"{lat['p99_ms']:.1f} | {lat['p999_ms']:.1f} | {ratio} | | | | |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,100,250,500,1000",
                        help="comma-separated numbers of tables, one run each")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds played before measuring")
    parser.add_argument("--procs", type=int, default=0,
                        help="load processes (default: one per 500 tables, at most 2)")
    parser.add_argument("--uvloop", action="store_true",
                        help="server, echo server and load generator on uvloop")
    parser.add_argument("--no-echo", dest="echo", action="store_false",
                        help="skip the echo baseline")
    parser.add_argument("--echo-conns", type=int, default=200,
                        help="closed loops of the echo baseline")
    parser.add_argument("--echo-at-tables", action="store_true",
                        help="also run the echo baseline with as many closed loops as each "
                             "--tables size (the same number of requests in flight): the "
                             "latency this machine gives at that concurrency with no work at all")
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="one more option for the lobby server, e.g. "
                             "--server-arg=--twisted-writes")
    parser.add_argument("--no-pin", dest="pin", action="store_false",
                        help="do not pin the server and the load to different CPUs")
    parser.add_argument("--nofile", type=int, default=65536,
                        help="open-files hard limit for the children (raised as root)")
    parser.add_argument("--time-limit", type=float, default=300.0,
                        help="hard limit in seconds for each load process")
    parser.add_argument("--seed", type=int, default=1, help="the bots' random seed")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    opts = parser.parse_args(argv)
    if opts.uvloop and find_spec("uvloop") is None:
        parser.error(UVLOOP_MISSING)
    sizes = [int(x) for x in opts.tables.split(",") if x.strip()]
    if not sizes or min(sizes) < 1:
        parser.error("--tables takes positive numbers")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, opts.nofile), max(hard, opts.nofile)))
    except (ValueError, OSError):
        pass
    rows: list[dict[str, Any]] = []
    echo: dict[str, Any] | None = None
    echo_at: dict[int, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="bench_tables-") as tmp:
        workdir = Path(tmp)
        if opts.echo:
            echo = bench_echo(opts, workdir)
            echo.pop("hist", None)
            print(json.dumps({"echo": echo}), flush=True)
        for n in sizes:
            if opts.echo_at_tables:
                e = bench_echo(opts, workdir, conns=n)
                e.pop("hist", None)
                echo_at[n] = e
                print(json.dumps({"echo_at_tables": n, "echo": e}), flush=True)
            row = bench_one(n, opts, workdir)
            if echo:
                row["ratio_to_echo"] = round(row["actions_per_s"] / echo["round_trips_per_s"], 3)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(markdown(rows, echo, echo_at), flush=True)
    if opts.json:
        opts.json.write_text(json.dumps({"echo": echo, "tables": rows,
                                         "echo_at_tables": echo_at}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
