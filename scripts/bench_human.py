#!/usr/bin/env python3
"""Players at human pace: N tables of four players who think before every move.

    .venv/bin/python scripts/bench_human.py --tables 100 --seconds 30           # a small run
    .venv/bin/python scripts/bench_human.py --tables 1000,2500,4750 --seconds 60 --json h.json

For each N a fresh lobby server (``python -m protocol``, temporary database, the limits that would
refuse so many guests from one address off, but flood control and the log-in and idle timers on
as a public server has them, ``--reactor-probe``) runs pinned to the first CPU; load processes
(``--procs``, default one per 1,200 tables: each stays under the open-files limit) on the second
open the tables in batches (``--batch`` tables, then ``--batch-pause`` seconds), four
connections each: by default half the players in machine mode (``%json 3``, protocol 3: the
`state` and its `update`s) and half in text mode (what a telnet user reads; ``--text-share``).
Each table starts its game once all four sit, and is `/reset` and started again when the game
ends. A player whose turn begins (its own Grand Tichu question, exchange, play, wish, Dragon
gift) thinks a random time (``--think 1,3``: uniform, seconds) and then sends one move:

- a machine-mode player decides with the `random` strategy of lobby/bots from its state;
- a text-mode player reads only its text lines (the prompt, its hand, the trick; lines that did
  not change are not repeated) and picks a random legal move from them with the rules engine
  (lobby/tichu/moves.py): `/nogrand`, three cards for `/schupf`, a play or `/pass`,
  `/wish none`, `/dragon left`.

Measured during ``--seconds`` after the ramp-up and ``--warmup``: the **latency** of each accepted
move from sending it to the first update that reflects it on the same connection (machine mode:
the first `state`/`update` line after the send; text mode: the first line after the send, the
server's echo of the move), p50/p99/p99.9/max; accepted moves per second; **server CPU per
move** (all of the server's CPU in the window, /proc, divided by the moves); the server's RSS;
the **longest reactor pause** and the collections (the server's ``--reactor-probe`` lines in the
window); moves refused (by the rules: a text player's guess, counted apart; by the server:
anything else) and connections lost. In the same run the echo baseline (bench_echo_server.py +
loadgen.py echo, ``--echo-conns`` closed loops) gives this machine's round trip: every figure is
also given as a ratio to it.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
for p in (str(SCRIPTS), str(ROOT)):
    if p not in sys.path:
        sys.path.insert(0, p)

from bench_tables import Process, bench_echo
from loadgen import (
    GAME_VERBS,
    ID_RE,
    Conn,
    Histogram,
    Target,
    bench_cpus,
    load_process_setup,
    read_rss,
    run_load_processes,
    split_tables,
)

from lobby.bots.strategies.random_bot import RandomStrategy
from lobby.text.messages import text as catalog_text
from lobby.tichu import (
    RANKS,
    can_pass,
    legal_plays,
    parse_play,
    play_text,
    rank_name,
)
from protocol.render.json_lines import apply_update

__all__ = ["main"]

now_ns = time.monotonic_ns
#: the limits that would refuse the benchmark's crowd from one address turned off; flood
#: control, the log-in and the idle timers stay as a public server has them (their cost counts)
SERVER_LIMITS = ("--max-connections", "0", "--max-per-ip", "0", "--max-guests", "0",
                 "--login-attempts-per-minute", "0", "--max-tables-per-ip", "0",
                 "--tables-per-minute", "0")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: flood control's answer to a dropped line (no id: the line was never read)
FLOODING_JSON = b'{"type":"error","code":"flooding"'
FLOODING_TEXT = "! [flooding]"
#: refusals that a player's own choice causes (the rules), not the server's load
RULE_CODES = frozenset(("not-your-turn", "must-lead", "must-fulfil-wish", "wrong-phase",
                        "too-low", "wrong-combination", "bad-card", "not-in-hand", "no-game",
                        "bomb-window", "must-follow", "cannot-pass", "already-decided",
                        "already-exchanged", "not-a-bomb", "wish-binds", "missing-rank",
                        "ambiguous-cards", "no-trick", "not-holder", "game-running"))
#: what a text line says after "Wish: " (the rank as a word of the catalog: "Ace", "Jack", "9")
#: -> the rank as the rules engine reads it ("A", "B", "9"); a word it does not know is no wish
#: the end of the line that says whose turn it is (`ann's turn.`)
TURN_OF_OTHER = catalog_text("view-turn", "en", name="").strip()
WISH_WORDS: dict[str, str] = {
    catalog_text("view-wish", "en", rank=rank_name(r)).split("Wish: ", 1)[1]: rank_name(r)
    for r in RANKS}
_PROBE = re.compile(r"reactor: longest pause ([0-9.]+) ms in ([0-9.]+) s \((\d+) ticks\); gc: "
                    r"(\d+) collections, ([0-9.]+) ms, longest ([0-9.]+) ms \(CPU ([0-9.]+) ms")


class Stats:
    def __init__(self) -> None:
        self.hist = {"json": Histogram(), "text": Histogram()}
        self.moves = 0
        self.rule_refused = 0
        self.server_refused = 0
        self.misread = 0
        #: the first few misread situations (hand, trick, wish, the error): to find the cause
        self.misread_examples: list[dict[str, Any]] = []
        self.codes: dict[str, int] = {}
        self.games = 0
        self.measuring = False


class Player:
    """One connection; `json` or text mode."""

    def __init__(self, conn: Conn, name: str, json_mode: bool, stats: Stats, rng: random.Random,
                 think: tuple[float, float]) -> None:
        self.conn = conn
        self.name = name
        self.json_mode = json_mode
        self.stats = stats
        self.rng = rng
        self.think = think
        self.loop = asyncio.get_running_loop()
        self.partial = b""
        self.next_id = 0
        self.waiters: dict[str, asyncio.Future[Any]] = {}
        self.opener = False
        self.playing = False
        self.timer: asyncio.TimerHandle | None = None
        self.inflight: str | None = None      # the id (json) or verb (text) of the move sent
        self.inflight_verb = ""
        self.sent_at = 0
        self.seen_at = 0
        # machine mode
        self.state: dict[str, Any] | None = None
        self.strategy = RandomStrategy(rng.getrandbits(32))
        # text mode
        self.hand: list[str] = []
        self.trick: list[str] = []           # the plays of the trick shown last
        self.wish: str | None = None
        self.prompt: str | None = None        # the prompt that asks this player to move
        self.lines: list[str] = []            # text lines, kept during the set-up only
        self._prev_line = ""                  # the last text line (wrapped lines are joined)
        self._me = name.encode() + b" "
        conn.on_data = self.data

    # ---- the wire ------------------------------------------------------------------------------
    def data(self, conn: Conn, data: bytes) -> None:
        if self.partial:
            data = self.partial + data
        lines = data.split(b"\n")
        self.partial = lines.pop()
        if self.inflight is not None and not self.seen_at and lines:
            if self.json_mode:
                if any(l.startswith((b'{"type":"state"', b'{"type":"update"')) for l in lines):
                    self.seen_at = now_ns()
            elif any(l.startswith((self._me, b"You ", b"! [")) for l in lines):
                self.seen_at = now_ns()        # the move told back (`You pass.`), or refused
        if self.json_mode:
            for line in lines:
                self._json_line(line.rstrip(b"\r"))
        else:
            for line in lines:
                self._text_line(line.rstrip(b"\r"))
            if self.waiters and self.partial:         # a prompt has no line end
                self._text_line(self.partial, prompt=True)
        if self.playing:
            self.consider()

    def _json_line(self, line: bytes) -> None:
        if line.startswith(b'{"type":"state"'):
            self.state = json.loads(line)
            self.state.pop("id", None)
            return
        if line.startswith(b'{"type":"update"'):
            if self.state is not None:
                self.state = apply_update(self.state, json.loads(line))
            return
        m = ID_RE.search(line)
        if m is not None:
            self.reply(m.group(1).decode(), json.loads(line))
        elif line.startswith(FLOODING_JSON) and self.inflight is not None:
            self._answered("flooding")        # the line was dropped unread: think, send again
        elif b'"type":"prompt"' in line and "login" in self.waiters:
            self.waiters.pop("login").set_result(json.loads(line))

    def _text_line(self, raw: bytes, prompt: bool = False) -> None:
        line = _ANSI.sub("", raw.decode("utf-8", "replace")).replace("\x00", "")
        line = "".join(ch for ch in line if ch >= " ")
        if not prompt:
            # a line longer than the terminal comes wrapped, its rest indented by two spaces
            # (protocol/render/wrap.py): read as one line with the one before it
            if line.startswith("  ") and self._prev_line:
                line = self._prev_line + " " + line.strip()
            self._prev_line = line
        if line.startswith(FLOODING_TEXT) and self.inflight is not None and self.playing:
            self._answered("flooding")        # the line was dropped unread: think, send again
            return
        if not self.playing:
            if not prompt:
                self.lines.append(line)
            for key in list(self.waiters):
                if key in line:
                    self.waiters.pop(key).set_result(line)
            return
        if self.inflight is not None and self.seen_at \
                and line.startswith((self.name + " ", "You ")) and not line.startswith("Your "):
            self._answered(None)           # the move told back: "You pass; Cat's turn."
        if line.startswith("Your hand: "):
            self.hand = line[len("Your hand: "):].split()
        elif line.startswith("Trick: "):
            self._read_trick(line[len("Trick: "):])
        elif line.startswith(("Grand Tichu? /grand", "Exchange: /schupf", "Your turn: /play",
                              "Your lead: /play", "Your wish: /wish",
                              "Give the Dragon trick: /dragon")):
            self.prompt = line
        elif "  |  Wish: " in line:
            self.wish = _wish_of(line)
        elif line.endswith(TURN_OF_OTHER) and not line.startswith(self.name + "'"):
            self.prompt = None             # somebody else's turn now (a bomb came first)
        elif line.startswith("! ["):
            code = line[3:].split("]", 1)[0]
            self._answered(code)
        if "Game over" in line or "wins the game" in line or "The game ends" in line:
            self.prompt = None

    def _read_trick(self, text: str) -> None:
        self.wish = _wish_of(text)
        # (the wish after the trick: `  |  Wish: 3`; one space on each side where a wrapped
        # line was joined again)
        text = re.split(r" +\| +", text, maxsplit=1)[0]
        if text.startswith("empty") or " \u2013 won by " in text:  # (you, or a name; an en dash)
            self.trick = []
            return
        plays = []
        for part in text.removeprefix("... ").split(", "):
            words = part.split()
            if len(words) >= 2:
                plays.append(" ".join(words[1:]))
        self.trick = plays

    def send(self, line: str) -> str:
        self.next_id += 1
        cid = f"h{self.next_id}"
        self.conn.send((f"#{cid} {line}" if self.json_mode else line).encode() + b"\r\n")
        return cid

    async def command(self, line: str, wait_for: str | None = None,
                      timeout: float = 120.0) -> Any:
        fut = self.loop.create_future()
        if self.json_mode:
            cid = self.send(line)
            self.waiters[cid] = fut
        else:
            assert wait_for is not None
            self.waiters[wait_for] = fut
            self.send(line)
        return await asyncio.wait_for(fut, timeout)

    def reply(self, cid: str, obj: dict[str, Any]) -> None:
        fut = self.waiters.pop(cid, None)
        if fut is not None:
            if not fut.done():
                fut.set_result(obj)
            return
        if cid == self.inflight:
            self._answered(obj.get("code") if obj["type"] == "error" else None)

    def _answered(self, code: str | None) -> None:
        st = self.stats
        verb = self.inflight_verb
        self.inflight = None
        if code is not None:
            if st.measuring:
                if code in RULE_CODES:
                    st.rule_refused += 1
                else:
                    st.server_refused += 1
                st.codes[code] = st.codes.get(code, 0) + 1
            self.seen_at = 0
            self._schedule()                  # think again
            return
        if verb in GAME_VERBS and st.measuring:
            st.moves += 1
            if self.seen_at:
                st.hist["json" if self.json_mode else "text"].record_ns(self.seen_at - self.sent_at)
        elif verb == "start" and st.measuring:
            st.games += 1
        self.seen_at = 0
        if not self.json_mode:
            self.prompt = None

    # ---- deciding --------------------------------------------------------------------------------
    def consider(self) -> None:
        """Called after every chunk: if it is this player's move and nothing is pending, think."""
        if self.inflight is not None or self.timer is not None:
            return
        if self._decide(dry=True) is not None:
            self._schedule()

    def _schedule(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = self.loop.call_later(self.rng.uniform(*self.think), self._act)

    def _act(self) -> None:
        self.timer = None
        if not self.playing or self.inflight is not None:
            return
        move = self._decide(dry=False)
        if move is None:
            return
        line, verb = move
        self.inflight_verb = verb
        self.seen_at = 0
        self.sent_at = now_ns()
        self.inflight = self.send(line)

    def _decide(self, dry: bool) -> tuple[str, str] | None:
        if self.json_mode:
            state = self.state
            if state is None:
                return None
            status = state.get("status")
            if status != "playing":
                if not self.opener:
                    return None
                if status == "finished":
                    return ("/reset", "reset")
                if status == "waiting" and all(state.get("names") or [None]):
                    return ("/start", "start")
                return None
            command = self.strategy.decide(state)
            return (command, command.split(" ", 1)[0]) if command else None
        prompt = self.prompt
        if prompt is None:
            return None
        if dry:
            return ("", "")
        if prompt.startswith("Grand Tichu?"):
            return ("/nogrand", "nogrand")
        if prompt.startswith("Exchange:"):
            if len(self.hand) < 3:
                return None
            return ("/schupf " + " ".join(self.rng.sample(self.hand, 3)), "schupf")
        if prompt.startswith("Your wish:"):
            return ("/wish none", "wish")
        if prompt.startswith("Give the Dragon"):
            return ("/dragon left", "dragon")
        return self._play()

    def _play(self) -> tuple[str, str] | None:
        try:
            hand, _, _ = parse_play(" ".join(self.hand), allow_wish=False)
            # the trick as the rules engine reads it: each play's cards (a Phoenix single is
            # valued on the play below it; `Ph=7` in a run is the engine's own reading)
            trick = [tuple(parse_play(text, allow_wish=False)[0]) for text in self.trick]
            legal = legal_plays(hand, trick, self.wish)
            passing = can_pass(hand, trick, self.wish)
        except Exception as e:          # lines this player could not read: counted (a bug of
            if self.stats.measuring:    # the benchmark; 0 or 1 in a run of docs/performance.md)
                self.stats.misread += 1
                if len(self.stats.misread_examples) < 3:
                    self.stats.misread_examples.append(
                        {"hand": list(self.hand), "trick": list(self.trick),
                         "wish": self.wish, "error": repr(e)})
            return ("/pass", "pass")
        options = [play_text(c) for c in legal] + (["/pass"] if passing else [])
        if not options:
            return ("/pass", "pass")
        choice = self.rng.choice(options)
        if choice == "/pass":
            return ("/pass", "pass")
        return ("/play " + choice, "play")


def _wish_of(line: str) -> str | None:
    """The open wish a text line shows (`...  |  Wish: Ace`) as the engine's rank (`A`), or None."""
    if "Wish: " not in line:
        return None
    words = line.rsplit("Wish: ", 1)[1].split()
    return WISH_WORDS.get(words[0]) if words else None


async def _set_up_table(target: Target, prefix: str, k: int, stats: Stats, rng: random.Random,
                        opts: argparse.Namespace) -> list[Player]:
    loop = asyncio.get_running_loop()
    players: list[Player] = []
    try:
        for s in range(4):
            conn = Conn(loop)
            await asyncio.wait_for(conn.connect(target.host, target.port,
                                                target.source(4 * k + s)), 60)
            # the opener (seat 1) is in machine mode; seats 2, 4, 3 in text mode as the share asks
            json_mode = s not in (1, 3, 2)[:min(3, round(opts.text_share * 4))]
            p = Player(conn, f"{prefix}{k}s{s}", json_mode, stats, rng, opts.think_range)
            players.append(p)
            if json_mode:
                fut = loop.create_future()
                p.waiters["login"] = fut
                conn.send(b"%json 3\r\n")
                await asyncio.wait_for(fut, 60)
                reply = await p.command(p.name)
                if reply["type"] not in ("logged-in", "logged-in-guest"):
                    raise RuntimeError(f"{p.name}: login refused: {reply}")
            else:
                await p.command(p.name, wait_for="Press Enter")   # the guest confirmation
                await p.command("", wait_for="Hello")
        opener = players[0]
        opener.opener = True
        reply = await opener.command("/newroom tichu")
        number = opener.state["table"] if opener.state else None
        if number is None:
            raise RuntimeError(f"no table after /newroom: {reply}")
        await opener.command("/join 1")
        for s, p in enumerate(players[1:], start=2):
            if p.json_mode:
                await p.command(f"/room {number}")
                await p.command(f"/join {s}")
            else:
                await p.command(f"/room {number}", wait_for=f"watching table {number}.")
                await p.command(f"/join {s}", wait_for="You sit down in seat")
    except BaseException:
        for p in players:
            p.conn.close()
        raise
    return players


async def run_load(port: int, tables: int, prefix: str, opts: argparse.Namespace, ready: Any,
                   seed: int) -> dict[str, Any]:
    target = Target("127.0.0.1", port, 8)
    stats = Stats()
    rng = random.Random(seed)
    start_setup = time.monotonic()
    groups: list[list[Player]] = []
    for first in range(0, tables, opts.batch):
        batch = range(first, min(tables, first + opts.batch))
        sem = asyncio.Semaphore(32)

        async def one(k: int) -> list[Player]:
            async with sem:  # noqa: B023 (called in this iteration)
                return await _set_up_table(target, prefix, k, stats, rng, opts)
        group = await asyncio.gather(*(one(k) for k in batch))
        for g in group:
            for p in g:
                p.playing = True
                p.lines.clear()
            g[0].consider()                   # the opener starts after a think time
        groups.extend(group)
        await asyncio.sleep(opts.batch_pause)
    setup_s = time.monotonic() - start_setup
    players = [p for g in groups for p in g]
    ready()                                   # every load process has its tables playing
    await asyncio.sleep(opts.warmup)
    stats.measuring = True
    start = time.monotonic()
    cpu0 = time.process_time()
    await asyncio.sleep(opts.seconds)
    stats.measuring = False
    elapsed = time.monotonic() - start
    load_cpu = time.process_time() - cpu0
    closed = sum(1 for p in players if p.conn.closed)
    # play on until the server's probe has logged its last window of the measured time (the
    # parent reads it `--probe` + 0.5 s after the window): closing thousands of connections at
    # once is a pause of its own, and it is not the play's
    await asyncio.sleep(opts.probe + 1.5)
    for p in players:
        p.playing = False
        if p.timer is not None:
            p.timer.cancel()
        p.conn.close()
    return {"tables": tables, "conns": len(players),
            "text_conns": sum(1 for p in players if not p.json_mode),
            "setup_s": round(setup_s, 1), "seconds": elapsed, "moves": stats.moves,
            "rule_refused": stats.rule_refused, "server_refused": stats.server_refused,
            "misread": stats.misread, "misread_examples": stats.misread_examples,
            "codes": stats.codes, "games_started": stats.games, "closed": closed,
            "load_cpu_s": round(load_cpu, 2),
            "hist": {k: h.to_dict() for k, h in stats.hist.items()}}


def _load_worker(port: int, tables: int, prefix: str, opts: argparse.Namespace,
                 cpu: int | None, seed: int, barrier: Any, out: Any) -> None:
    load_process_setup(cpu)

    def ready() -> None:
        barrier.wait(timeout=opts.time_limit)

    async def go() -> dict[str, Any]:
        return await asyncio.wait_for(run_load(port, tables, prefix, opts, ready, seed),
                                      opts.time_limit)
    try:
        result = asyncio.run(go())
    except (TimeoutError, Exception) as e:
        barrier.abort()
        result = {"error": f"{type(e).__name__}: {e}"}
    out.put(result)


def _rss_mib(pid: int) -> float:
    return round(read_rss(pid).get("VmRSS", 0) / 1024 / 1024, 1)


def _probe_lines(text: str) -> dict[str, Any]:
    found = [m.groups() for m in _PROBE.finditer(text)]
    if not found:
        return {"max_pause_ms": None, "gc_collections": 0, "gc_ms": 0.0, "max_gc_ms": None}
    return {"max_pause_ms": max(float(g[0]) for g in found),
            "gc_collections": sum(int(g[3]) for g in found),
            "gc_ms": round(sum(float(g[4]) for g in found), 1),
            "max_gc_ms": max(float(g[5]) for g in found),
            "max_gc_cpu_ms": max(float(g[6]) for g in found), "windows": len(found)}


def bench_one(tables: int, opts: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    server_cpu, load_cpu = bench_cpus() if opts.pin else (None, None)
    log_path = workdir / f"h{tables}.log"
    argv = [sys.executable, "-m", "protocol", "--db", str(workdir / f"h{tables}.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1:backlog=4096", *SERVER_LIMITS,
            "--reactor-probe", str(opts.probe)]
    argv.extend(opts.server_arg)
    server = Process(argv, log_path, server_cpu, opts.nofile, workdir)
    procs = opts.procs or max(1, (tables + 1199) // 1200)
    shares = split_tables(tables, procs)
    procs = len(shares)

    def measured() -> dict[str, Any]:
        rss = _rss_mib(server.proc.pid)
        time.sleep(opts.probe + 0.5)            # the probe's last window in the measured time
        with open(log_path, "rb") as f:
            f.seek(log_from[0])
            return {"rss": rss, "probe": _probe_lines(f.read().decode("utf-8", "replace"))}

    log_from = [0]                              # where the probe's lines of the window begin

    def window_starts() -> None:
        log_from[0] = log_path.stat().st_size

    try:
        results, server_cpu_s, extra = run_load_processes(
            "bench_human", server.proc.pid, _load_worker,
            [(server.port, share, f"H{i}t", opts, load_cpu, opts.seed + i)
             for i, share in enumerate(shares)],
            warmup=opts.warmup, seconds=opts.seconds, time_limit=opts.time_limit,
            measured=measured, window_starts=window_starts)
    finally:
        server.stop()
    rss, probe = extra["rss"], extra["probe"]
    hist = {"json": Histogram(), "text": Histogram()}
    both = Histogram()
    for r in results:
        for k, h in r["hist"].items():
            hist[k].merge(Histogram.from_dict(h))
            both.merge(Histogram.from_dict(h))
    seconds = max(r["seconds"] for r in results)
    moves_ = sum(r["moves"] for r in results)
    codes: dict[str, int] = {}
    for r in results:
        for c, n in r["codes"].items():
            codes[c] = codes.get(c, 0) + n
    return {"tables": tables, "conns": sum(r["conns"] for r in results),
            "text_conns": sum(r["text_conns"] for r in results), "procs": procs,
            "setup_s": max(r["setup_s"] for r in results), "seconds": round(seconds, 1),
            "moves": moves_, "moves_per_s": round(moves_ / seconds, 1),
            "rule_refused": sum(r["rule_refused"] for r in results),
            "server_refused": sum(r["server_refused"] for r in results), "codes": codes,
            "misread": sum(r["misread"] for r in results),
            "misread_examples": [x for r in results for x in r["misread_examples"]][:3],
            "games_started": sum(r["games_started"] for r in results),
            "closed": sum(r["closed"] for r in results),
            "server_cpu_s": round(server_cpu_s, 2),
            "server_cpu_us_per_move": round(server_cpu_s / max(1, moves_) * 1e6, 1),
            "server_rss_mib": rss, "probe": probe,
            "load_cpu_per_s": [round(r["load_cpu_s"] / r["seconds"], 2) for r in results],
            "latency": both.summary(), "latency_json": hist["json"].summary(),
            "latency_text": hist["text"].summary()}


def markdown(rows: list[dict[str, Any]], echo: dict[str, Any] | None) -> str:
    """The runs as a table; with the echo baseline, every latency and the moves/s also as a
    ratio to the echo's figure of the same run (`x echo`: moves/s over its round trips/s)."""
    lines = ["| tables (conns) | moves/s (x echo) | p50 ms (x echo) | p99 ms (x echo) | "
             "p99.9 ms (x echo) | max ms (x echo) | "
             "server CPU s/s | server CPU µs/move (x echo µs/round trip) | RSS MiB | "
             "longest pause ms | longest gc ms | "
             "refused (server / rules; text lines misread) | lost |",
             "|" + "---|" * 13]
    elat = echo["latency"] if echo else {}
    echo_cpu = (echo or {}).get("server_cpu_us_per_round_trip")

    def times(value: float, key: str) -> str:
        base = elat.get(key)
        return f"{value:.1f} ({value / base:.2f})" if base else f"{value:.1f}"

    for r in rows:
        lat = r["latency"]
        pr = r["probe"]
        cpu = f"{r['server_cpu_us_per_move']:,.0f}" + (
            f" ({r['server_cpu_us_per_move'] / echo_cpu:.1f})" if echo_cpu else "")
        moves = f"{r['moves_per_s']:,.0f}" + (
            f" ({r['moves_per_s'] / echo['round_trips_per_s']:.3f})" if echo else "")
        lines.append(
            f"| {r['tables']:,} ({r['conns']:,}) | {moves} | {times(lat['p50_ms'], 'p50_ms')} | "
            f"{times(lat['p99_ms'], 'p99_ms')} | {times(lat['p999_ms'], 'p999_ms')} | "
            f"{times(lat.get('max_ms', 0), 'max_ms')} | "
            f"{r['server_cpu_s'] / r['seconds']:.2f} | {cpu} | "
            f"{r['server_rss_mib']:,.0f} | {pr['max_pause_ms']} | {pr['max_gc_ms']} | "
            f"{r['server_refused']} / {r['rule_refused']}; {r['misread']} | {r['closed']} |")
    if echo:
        lines.append(f"| echo baseline ({echo['conns']} closed loops) | "
                     f"{echo['round_trips_per_s']:,.0f} round trips/s | {elat['p50_ms']:.1f} | "
                     f"{elat['p99_ms']:.1f} | {elat['p999_ms']:.1f} | {elat.get('max_ms', 0):.1f} | "
                     f"| {echo_cpu or ''} | | | | | |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="100", help="comma-separated numbers of tables")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds played after the ramp-up before measuring")
    parser.add_argument("--think", default="1,3", help="think time MIN,MAX in seconds (uniform)")
    parser.add_argument("--text-share", type=float, default=0.5,
                        help="the share of text-mode players (default 0.5; the opener of each "
                             "table is in machine mode)")
    parser.add_argument("--batch", type=int, default=250, help="tables opened per ramp-up batch")
    parser.add_argument("--batch-pause", type=float, default=1.0,
                        help="seconds between two batches")
    parser.add_argument("--procs", type=int, default=0,
                        help="load processes (default one per 1,200 tables)")
    parser.add_argument("--probe", type=float, default=5.0,
                        help="the server's --reactor-probe window, seconds")
    parser.add_argument("--no-echo", dest="echo", action="store_false")
    parser.add_argument("--echo-conns", type=int, default=200)
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG")
    parser.add_argument("--no-pin", dest="pin", action="store_false")
    parser.add_argument("--nofile", type=int, default=20000)
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    opts = parser.parse_args(argv)
    lo, _, hi = opts.think.partition(",")
    opts.think_range = (float(lo), float(hi or lo))
    sizes = [int(x) for x in opts.tables.split(",") if x.strip()]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, opts.nofile), max(hard, opts.nofile)))
    except (ValueError, OSError):
        pass
    rows = []
    echo = None
    with tempfile.TemporaryDirectory(prefix="bench_human-") as tmp:
        workdir = Path(tmp)
        if opts.echo:
            echo_opts = argparse.Namespace(**vars(opts))
            echo_opts.seconds = min(opts.seconds, 10.0)
            echo_opts.uvloop = False
            echo = bench_echo(echo_opts, workdir)
            echo.pop("hist", None)
            print(json.dumps({"echo": echo}), flush=True)
        for n in sizes:
            row = bench_one(n, opts, workdir)
            if echo:
                e = echo["latency"]
                row["ratio_to_echo"] = {
                    "p50": round(row["latency"]["p50_ms"] / e["p50_ms"], 2),
                    "p99": round(row["latency"]["p99_ms"] / e["p99_ms"], 2),
                    "p999": round(row["latency"]["p999_ms"] / e["p999_ms"], 2),
                    "max": round(row["latency"]["max_ms"] / e["max_ms"], 2),
                    "moves_per_s": round(row["moves_per_s"] / echo["round_trips_per_s"], 3),
                    "cpu_per_move": round(row["server_cpu_us_per_move"]
                                          / max(0.01, echo["server_cpu_us_per_round_trip"]), 2)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(markdown(rows, echo), flush=True)
    if opts.json:
        opts.json.write_text(json.dumps({"echo": echo, "runs": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
