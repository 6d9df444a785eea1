#!/usr/bin/env python3
"""The load generator: many line-protocol connections from one process (or several), loopback only.

A library (``scripts/bench_server.py`` runs it as a separate process) and a command line:

    .venv/bin/python scripts/loadgen.py echo  --port 4001 --conns 100 --seconds 5
    .venv/bin/python scripts/loadgen.py idle  --port 4000 --conns 20000 --procs 2 --server-pid PID
    .venv/bin/python scripts/loadgen.py chat  --port 4000 --listeners 2000 --talkers 10 --rate 100
    .venv/bin/python scripts/loadgen.py logins --port 4000 --accounts-file accounts.txt
    .venv/bin/python scripts/loadgen.py flood --port 4000 --users 50

Each prints one JSON object (the scenario's figures) on standard output.

How it works
  Connections are plain non-blocking sockets registered once with the event loop
  (``loop.add_reader``): no asyncio transports and no coroutine per connection while measuring.
  A connection is in one of three modes: *expect* (bytes are buffered until an awaited token, for
  logging in), *measure* (a callback sees every chunk, e.g. to find timestamps in lines) or
  *drained* (taken off the event loop; a ``Drainer`` reads all such sockets every few
  milliseconds and throws the bytes away). Draining lets one process hold 20,000 connections that
  all receive the server's broadcasts without spending a wake-up per line on each of them;
  latency is measured only on the connections in measure mode.

  Messages carry their send time (``time.monotonic_ns()``, one clock for every process of the
  machine) so a receiver computes the delivery latency. Latencies go into a ``Histogram`` with
  logarithmic buckets (1 % wide) that merges across processes and gives p50/p99/p99.9.

  Bounds: every scenario has a duration, a connection count and a hard time limit; every wait
  has a timeout; the process stops by itself. Destinations must be loopback addresses
  (127.0.0.0/8); sources are spread over several loopback addresses (127.0.0.2, 127.0.0.3, ...)
  so that 20,000 connections do not run out of ephemeral ports (28,232 per source address).

Adding a scenario (the "tables" one, for machine-mode bots, comes later): write an
``async def scenario_NAME(target, opts) -> dict`` using ``Conn``, ``login``, ``Drainer``,
``ProbeSet`` and ``Histogram``, add its options in ``build_parser`` and register it in
``SCENARIOS``.
"""
from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import math
import multiprocessing
import os
import re
import resource
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any

__all__ = ["Histogram", "Conn", "Drainer", "ProbeSet", "Target", "login", "connect_many",
           "read_rss", "SCENARIOS", "run_scenario", "main", "LOGIN_DONE", "ID_RE", "GAME_VERBS",
           "bench_cpus", "split_tables", "run_load_processes", "load_process_setup"]

LOGIN_DONE = b"/help for the commands.\r\n"     # (the guest greeting wraps at 80)
#: the benchmarks refuse --uvloop / --loops uvloop without it (the server would fall back to the
#: standard loop and the figures would carry the wrong name)
UVLOOP_MISSING = "uvloop is not installed: pip install .[uvloop] (the optional extra)"
#: the end of the question after an unregistered name in text mode (an empty line confirms)
GUEST_CONFIRM = b"or type another name: "
now_ns = time.monotonic_ns
#: the id of a machine-mode reply (`"id":"a12"`), for the table benchmarks' players
ID_RE = re.compile(rb'"id":"([A-Za-z0-9_-]+)"')
#: the commands that are game actions (what the table benchmarks count as moves)
GAME_VERBS = frozenset(("play", "pass", "grand", "nogrand", "schupf", "wish", "dragon", "bomb",
                        "tichu"))


# ---- the table benchmarks' processes (bench_tables.py, bench_human.py) ------------------------------
def bench_cpus() -> tuple[int | None, int | None]:
    """(the server's CPU, the load processes' CPU) on a machine with two or more; else None."""
    cpus = sorted(os.sched_getaffinity(0))
    return (cpus[0], cpus[1]) if len(cpus) >= 2 else (None, None)


def split_tables(tables: int, procs: int) -> list[int]:
    """`tables` shared out among at most `procs` load processes, as evenly as possible."""
    procs = max(1, min(procs, tables))
    return [tables // procs + (1 if i < tables % procs else 0) for i in range(procs)]


def load_process_setup(cpu: int | None) -> None:
    """In a load process: pinned to `cpu`, the open-files limit raised to its hard limit."""
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def run_load_processes(name: str, server_pid: int, worker: Callable[..., None],
                       args: Sequence[tuple[Any, ...]], *, warmup: float, seconds: float,
                       time_limit: float,
                       measured: Callable[[], dict[str, Any]] | None = None,
                       window_starts: Callable[[], Any] | None = None
                       ) -> tuple[list[dict[str, Any]], float, dict[str, Any]]:
    """Fork one load process per `args` entry (`worker(*entry, barrier, out)`: it sets up its
    part, waits at `barrier` until every process is ready, plays, and puts one dict of figures
    (or `{"error": ...}`) on `out`), then measure the server's CPU seconds over `seconds` after
    `warmup`; `window_starts()` (if given) runs as the window begins, `measured()` right after
    it (its dict is returned too).
    Returns (each process's figures, the server's CPU seconds in the window, measured's)."""
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(len(args) + 1)
    out = ctx.Queue()
    workers = [ctx.Process(target=worker, args=(*entry, barrier, out)) for entry in args]
    extra: dict[str, Any] = {}
    try:
        for w in workers:
            w.start()
        try:
            barrier.wait(timeout=time_limit)
        except threading.BrokenBarrierError:
            failed = out.get(timeout=30)
            raise SystemExit(f"{name}: a load process failed: {failed.get('error')}") from None
        time.sleep(warmup)                         # the server's CPU time while measuring
        if window_starts is not None:
            window_starts()
        cpu0 = cpu_seconds(server_pid)
        time.sleep(seconds)
        cpu = cpu_seconds(server_pid) - cpu0
        if measured is not None:
            extra = measured()
        results = [out.get(timeout=time_limit + 30) for _ in workers]
        for w in workers:
            w.join(30)
    finally:
        for w in workers:
            if w.is_alive():
                w.kill()
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        raise SystemExit(f"{name}: a load process failed: {errors[0]}")
    return results, cpu, extra


# ---- histogram ----------------------------------------------------------------------------------
class Histogram:
    """Latencies in logarithmic buckets, each 1 % wide, from 1 microsecond up."""

    SCALE = 100.0  # buckets per factor e: width exp(1/100) - 1 = 1 %

    def __init__(self) -> None:
        self.buckets: dict[int, int] = {}
        self.count = 0
        self.total = 0.0
        self.max = 0.0

    def record(self, seconds: float) -> None:
        us = seconds * 1e6
        index = int(math.log(us) * self.SCALE) if us > 1.0 else 0
        self.buckets[index] = self.buckets.get(index, 0) + 1
        self.count += 1
        self.total += seconds
        if seconds > self.max:
            self.max = seconds

    def record_ns(self, nanoseconds: int) -> None:
        self.record(nanoseconds / 1e9)

    def merge(self, other: Histogram) -> Histogram:
        for k, v in other.buckets.items():
            self.buckets[k] = self.buckets.get(k, 0) + v
        self.count += other.count
        self.total += other.total
        self.max = max(self.max, other.max)
        return self

    def percentile(self, q: float) -> float:
        """The q-th percentile (0..100) in seconds (the middle of its bucket); 0 when empty."""
        if not self.count:
            return 0.0
        rank = max(1, math.ceil(self.count * q / 100.0))
        seen = 0
        for k in sorted(self.buckets):
            seen += self.buckets[k]
            if seen >= rank:
                return min(math.exp((k + 0.5) / self.SCALE) / 1e6, self.max) if k else 1e-6
        return self.max

    def summary(self) -> dict[str, float]:
        """count, mean, p50, p99, p99.9 and max; times in milliseconds."""
        ms = 1000.0
        return {"count": self.count,
                "mean_ms": round(self.total / self.count * ms, 3) if self.count else 0.0,
                "p50_ms": round(self.percentile(50) * ms, 3),
                "p99_ms": round(self.percentile(99) * ms, 3),
                "p999_ms": round(self.percentile(99.9) * ms, 3),
                "max_ms": round(self.max * ms, 3)}

    def to_dict(self) -> dict[str, Any]:
        return {"buckets": {str(k): v for k, v in self.buckets.items()}, "count": self.count,
                "total": self.total, "max": self.max}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Histogram:
        h = cls()
        h.buckets = {int(k): v for k, v in d["buckets"].items()}
        h.count, h.total, h.max = d["count"], d["total"], d["max"]
        return h


# ---- connections --------------------------------------------------------------------------------
@dataclass
class Target:
    """Where to connect: a loopback host and port, and how many source addresses to use."""
    host: str = "127.0.0.1"
    port: int = 4000
    sources: int = 8

    def __post_init__(self) -> None:
        if not ipaddress.ip_address(self.host).is_loopback:
            raise SystemExit(f"loadgen: {self.host} is not a loopback address; refusing")

    def source(self, n: int) -> str | None:
        """The source address of connection ``n``: 127.0.0.2 ... (None: let the kernel pick)."""
        if self.sources <= 0:
            return None
        return f"127.0.0.{2 + n % self.sources}"


RECV_SIZE = 262144


def recv_some(sock: socket.socket) -> bytes | None:
    """One non-blocking recv: the bytes, b"" when the peer closed or the socket failed, None
    when nothing is waiting."""
    try:
        return sock.recv(RECV_SIZE)
    except (BlockingIOError, InterruptedError):
        return None
    except OSError:
        return b""


def whole_lines(c: Conn, data: bytes) -> tuple[bytes, int]:
    """``data`` after what ``c`` held back, and the end of its last whole line; the part after
    that end (an unfinished line) is held back in ``c.buffer`` for the next read."""
    if c.buffer:
        data = bytes(c.buffer) + data
    end = data.rfind(b"\n") + 1
    c.buffer = bytearray(data[end:]) if end < len(data) else bytearray()
    return data, end


class ConnectionClosed(Exception):
    """The server closed the connection (or refused what we asked: LoginRefused)."""


class LoginRefused(ConnectionClosed):
    """The server answered a login with an error and a new ``login:`` prompt."""


class Conn:
    """One client connection on a raw non-blocking socket (see the module docstring)."""

    __slots__ = ("sock", "loop", "buffer", "on_data", "closed", "_waiter", "_tokens", "received",
                 "name", "__weakref__")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.sock: socket.socket | None = None
        self.buffer = bytearray()
        self.on_data: Callable[[Conn, bytes], None] | None = None
        self.closed = False
        self._waiter: asyncio.Future[bytes] | None = None
        self._tokens: tuple[bytes, ...] = ()
        self.received = 0
        self.name = ""

    async def connect(self, host: str, port: int, source: str | None = None) -> Conn:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            if source:
                sock.bind((source, 0))
            await self.loop.sock_connect(sock, (host, port))
        except BaseException:
            sock.close()
            raise
        self.sock = sock
        self.loop.add_reader(sock.fileno(), self._readable)
        return self

    def _readable(self) -> None:
        sock = self.sock
        if sock is None:
            return
        while True:
            data = recv_some(sock)
            if data is None:
                return
            if not data:
                self._lost()
                return
            self.received += len(data)
            if self.on_data is not None:
                self.on_data(self, data)
            else:
                self.buffer += data
                self._check()
            if len(data) < RECV_SIZE:
                return

    def _lost(self) -> None:
        if self.sock is not None:
            try:
                self.loop.remove_reader(self.sock.fileno())
            except (ValueError, OSError):
                pass
        self.closed = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(ConnectionClosed(bytes(self.buffer[-200:]).decode(
                "utf-8", "replace")))

    def _check(self) -> None:
        if self._waiter is None or self._waiter.done():
            return
        best = -1
        for token in self._tokens:
            at = self.buffer.find(token)
            if at >= 0 and (best < 0 or at + len(token) < best):
                best = at + len(token)
        if best >= 0:
            got = bytes(self.buffer[:best])
            del self.buffer[:best]
            self._waiter.set_result(got)

    async def expect(self, token: bytes, timeout: float = 10.0) -> bytes:
        """Everything received up to and including ``token`` (which must arrive in time)."""
        return await self.expect_any((token,), timeout)

    async def expect_any(self, tokens: Sequence[bytes], timeout: float = 10.0) -> bytes:
        """Everything received up to and including whichever of ``tokens`` comes first."""
        if self.closed:
            raise ConnectionClosed("closed")
        self._tokens = tuple(tokens)
        self._waiter = self.loop.create_future()
        self._check()
        try:
            return await asyncio.wait_for(self._waiter, timeout)
        finally:
            self._waiter = None

    def send(self, data: bytes) -> None:
        """Write ``data`` now; what the kernel does not take at once is sent in the background."""
        if self.sock is None or self.closed:
            return
        try:
            n = self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            n = 0
        except OSError:
            self._lost()
            return
        if n < len(data):
            self.loop.create_task(self._send_rest(data[n:]))

    async def _send_rest(self, data: bytes) -> None:
        try:
            await self.loop.sock_sendall(self.sock, data)
        except OSError:
            self._lost()

    async def sendall(self, data: bytes) -> None:
        """Write ``data``, waiting while the kernel's buffer is full (flow control)."""
        if self.sock is not None and not self.closed:
            await self.loop.sock_sendall(self.sock, data)

    def measure(self, on_data: Callable[[Conn, bytes], None]) -> None:
        """Hand every further chunk to ``on_data`` (what was buffered is dropped)."""
        self.buffer = bytearray()
        self.on_data = on_data

    def detach(self) -> None:
        """Stop reading through the event loop (a Drainer reads it from now on)."""
        self.buffer = bytearray()
        if self.sock is not None and not self.closed:
            self.loop.remove_reader(self.sock.fileno())

    def close(self) -> None:
        if self.sock is not None:
            if not self.closed:
                try:
                    self.loop.remove_reader(self.sock.fileno())
                except (ValueError, OSError):
                    pass
            self.sock.close()
        self.closed = True


class Drainer:
    """Reads and discards everything arriving on many detached connections, every ``interval``."""

    CHUNK = 100

    def __init__(self, interval: float = 0.02) -> None:
        self.conns: list[Conn] = []
        self.interval = interval
        self.bytes = 0
        self.lost = 0
        self._task: asyncio.Task[None] | None = None

    def add(self, conn: Conn) -> None:
        conn.detach()
        self.conns.append(conn)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def drain_once(self, conns: list[Conn] | None = None) -> int:
        got = 0
        for c in self.conns if conns is None else conns:
            sock = c.sock
            if c.closed or sock is None:
                continue
            while True:
                data = recv_some(sock)
                if data is None:
                    break
                if not data:
                    c.closed = True
                    self.lost += 1
                    break
                got += len(data)
                if len(data) < RECV_SIZE:
                    break
        self.bytes += got
        return got

    async def _run(self) -> None:
        # In chunks, yielding to the loop between them: one pass over thousands of sockets would
        # hold back the sampled connections' reads (and the talkers' sends) for milliseconds
        # and add the load generator's own stall to the latency it measures.
        while True:
            conns = self.conns
            for i in range(0, len(conns), self.CHUNK):
                self.drain_once(conns[i:i + self.CHUNK])
                await asyncio.sleep(0)
            await asyncio.sleep(self.interval)

    async def quiet(self, period: float = 0.3, limit: float = 30.0) -> float:
        """Wait until nothing arrives for ``period`` seconds (at most ``limit``); the time waited."""
        start = time.monotonic()
        last = self.bytes
        while time.monotonic() - start < limit:
            await asyncio.sleep(period)
            self.drain_once()
            if self.bytes == last:
                break
            last = self.bytes
        return time.monotonic() - start


async def login(conn: Conn, name: str, password: str | None = None,
                timeout: float = 30.0) -> bytes:
    """Log in at the ``login:`` prompt (and ``password:`` for a registered name)."""
    await conn.expect(b"login: ", timeout)
    conn.send(name.encode() + b"\r\n")
    if password is not None:
        got = await conn.expect_any((b"password: ", b"login: "), timeout)
        if not got.endswith(b"password: "):
            raise LoginRefused(got.decode("utf-8", "replace"))
        conn.send(password.encode() + b"\r\n")
    got = await conn.expect_any((LOGIN_DONE, b"login: ", GUEST_CONFIRM), timeout)
    if got.endswith(GUEST_CONFIRM):         # an unregistered name: Enter plays as that guest
        conn.send(b"\r\n")
        got += await conn.expect_any((LOGIN_DONE, b"login: "), timeout)
    if not got.endswith(LOGIN_DONE):
        raise LoginRefused(got.decode("utf-8", "replace"))
    return got


async def connect_many(target: Target, count: int, first: int = 0, concurrency: int = 64,
                       setup: Callable[[Conn, int], Awaitable[Any]] | None = None,
                       deadline: float | None = None) -> tuple[list[Conn], int, Histogram]:
    """Open ``count`` connections (numbered from ``first``), ``concurrency`` at a time, and run
    ``setup(conn, n)`` on each (e.g. log in). Returns (connections, failures, setup latencies).
    Stops early at ``deadline`` (time.monotonic())."""
    loop = asyncio.get_running_loop()
    conns: list[Conn] = []
    failures = 0
    hist = Histogram()
    numbers = iter(range(first, first + count))

    async def worker() -> None:
        nonlocal failures
        for n in numbers:
            if deadline is not None and time.monotonic() > deadline:
                return
            conn = Conn(loop)
            start = now_ns()
            try:
                await asyncio.wait_for(conn.connect(target.host, target.port, target.source(n)), 30)
                if setup is not None:
                    await setup(conn, n)
            except (TimeoutError, OSError, ConnectionClosed):
                failures += 1
                conn.close()
                continue
            hist.record_ns(now_ns() - start)
            conns.append(conn)

    await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, count)))))
    return conns, failures, hist


def read_rss(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process in bytes, from /proc (empty where unavailable)."""
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, value = line.split(":", 1)
                    out[key] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (from /proc/PID/stat)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


# ---- probes: closed loops of one cheap command, measured -----------------------------------------
_TELL_RE = re.compile(rb"tells you: p (\d+)\r\n")


class ProbeSet:
    """Logged-in users who each whisper to themselves (``;NAME p <ns>``) ``rate`` times a second;
    the latency from sending to reading ``NAME tells you: p <ns>`` is one sample of "another
    user's command". The whisper touches no database and fans out to nobody."""

    def __init__(self, conns: list[Conn], rate: float) -> None:
        self.conns = conns
        self.rate = rate
        self.hist = Histogram()
        self.sent = 0
        self._task: asyncio.Task[None] | None = None
        for c in conns:
            c.measure(self._on_data)

    def _on_data(self, conn: Conn, data: bytes) -> None:
        t = now_ns()
        buf = conn.buffer
        if buf:
            data = bytes(buf) + data
        end = data.rfind(b"\n") + 1
        conn.buffer = bytearray(data[end:]) if end < len(data) else bytearray()
        for m in _TELL_RE.findall(data, 0, end):
            self.hist.record_ns(t - int(m))

    def reset(self) -> Histogram:
        """Start a new histogram; the old one is returned."""
        old, self.hist = self.hist, Histogram()
        return old

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        if not self.conns or self.rate <= 0:
            return
        interval = 1.0 / (self.rate * len(self.conns))
        next_at = time.monotonic()
        i = 0
        while True:
            c = self.conns[i % len(self.conns)]
            i += 1
            c.send(b";%s p %d\r\n" % (c.name.encode(), now_ns()))
            self.sent += 1
            next_at += interval
            delay = next_at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            elif delay < -1.0:  # far behind (the load generator was starved): skip ahead
                next_at = time.monotonic()


async def login_probes(target: Target, count: int, prefix: str, first: int = 100_000
                       ) -> list[Conn]:
    async def setup(conn: Conn, n: int) -> None:
        conn.name = f"{prefix}{n}"
        await login(conn, conn.name)
    conns, failures, _ = await connect_many(target, count, first, 16, setup)
    if failures:
        raise SystemExit(f"loadgen: {failures} of {count} probe users could not log in")
    return conns


# ---- scenarios ----------------------------------------------------------------------------------
async def scenario_echo(target: Target, opts: argparse.Namespace) -> dict[str, Any]:
    """Closed loops: each connection sends a line and waits for it to come back, ``--seconds``
    long. Against bench_echo_server.py: the machine's round-trip limit. ``--lobby`` logs in first
    and uses the whisper to oneself as the round trip (the lobby's cheapest command)."""
    hist = Histogram()
    state = {"running": False, "trips": 0}
    lobby = bool(getattr(opts, "lobby", False))
    pattern = re.compile(rb"tells you: p (\d+)\r\n" if lobby else rb"p (\d+)\r\n")

    def request(c: Conn) -> bytes:
        if lobby:
            return b";%s p %d\r\n" % (c.name.encode(), now_ns())
        return b"p %d\n" % now_ns()

    def on_data(c: Conn, data: bytes) -> None:
        t = now_ns()
        data, end = whole_lines(c, data)
        found = pattern.findall(data, 0, end)
        for m in found:
            hist.record_ns(t - int(m))
        state["trips"] += len(found)
        if found and state["running"]:
            c.send(request(c) * len(found))

    async def setup(conn: Conn, n: int) -> None:
        if lobby:
            conn.name = f"E{os.getpid() % 10000}x{n:03d}"
            await login(conn, conn.name)

    conns, failures, _ = await connect_many(target, opts.conns, 0, 64, setup)
    for c in conns:
        c.measure(on_data)
    state["running"] = True
    start = time.monotonic()
    for c in conns:
        for _ in range(opts.pipeline):
            c.send(request(c))
    await asyncio.sleep(opts.seconds)
    state["running"] = False
    elapsed = time.monotonic() - start
    trips = state["trips"]
    await asyncio.sleep(0.2)
    for c in conns:
        c.close()
    return {"scenario": "echo", "conns": len(conns), "failures": failures, "seconds": elapsed,
            "round_trips": trips, "round_trips_per_s": round(trips / elapsed, 1),
            "latency": hist.summary(), "hist": hist.to_dict()}


async def _hold(target: Target, count: int, first: int, mode: str,
                deadline: float) -> tuple[Drainer, list[Conn], dict[str, Any]]:
    """Open and hold ``count`` connections; ``mode`` is "login" (log in as I<n>), "prompt" (wait
    for the login prompt) or "connect" (nothing more: the echo server)."""
    drainer = Drainer(0.05)
    drainer.start()
    started = time.monotonic()

    async def setup(conn: Conn, n: int) -> None:
        if mode == "login":
            await login(conn, f"I{n:05d}")
        elif mode == "prompt":
            await conn.expect(b"login: ", 30)
        drainer.add(conn)

    conns, failures, hist = await connect_many(target, count, first, 48, setup, deadline)
    return drainer, conns, {"held": len(conns), "failures": failures,
                            "setup_seconds": round(time.monotonic() - started, 2),
                            "setup_latency": hist.summary()}


def _hold_worker(target: Target, count: int, first: int, mode: str, deadline: float,
                 pipe: Any) -> None:
    """A child process holding ``count`` connections until told to close them (or deadline)."""
    _raise_fd_limit(count + 100)

    async def run() -> None:
        drainer, conns, report = await _hold(target, count, first, mode, deadline)
        pipe.send(report)
        loop = asyncio.get_running_loop()
        while time.monotonic() < deadline:
            if pipe.poll():
                break
            await asyncio.sleep(0.1)
        drainer.stop()
        report2 = {"bytes_drained": drainer.bytes, "lost": drainer.lost}
        for c in conns:
            c.close()
        pipe.send(report2)
        del loop

    asyncio.run(run())


async def scenario_idle(target: Target, opts: argparse.Namespace) -> dict[str, Any]:
    """``--conns`` connections held idle (logged in as ``I<n>``, or with ``--no-login`` left at the
    login prompt, or for the echo server just connected), spread over ``--procs`` processes; then
    ``--who`` round trips of ``/who`` (or of an echoed line) from one more connection, and the
    server's RSS before and after (``--server-pid``)."""
    deadline = time.monotonic() + opts.time_limit
    lobby = not opts.echo
    rss_before = read_rss(opts.server_pid) if opts.server_pid else {}
    cpu_before = cpu_seconds(opts.server_pid) if opts.server_pid else 0.0
    ctx = multiprocessing.get_context("fork")
    per = [opts.conns // opts.procs + (1 if i < opts.conns % opts.procs else 0)
           for i in range(opts.procs)]
    pipes, procs = [], []
    first = 0
    started = time.monotonic()
    mode = ("login" if opts.login else "prompt") if lobby else "connect"
    for _i, n in enumerate(per):
        parent, child = ctx.Pipe()
        p = ctx.Process(target=_hold_worker, daemon=True,
                        args=(target, n, first, mode, deadline, child))
        first += n
        p.start()
        pipes.append(parent)
        procs.append(p)
    reports = []
    for parent in pipes:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not parent.poll(remaining):
            reports.append({"held": 0, "failures": -1, "timeout": True})
        else:
            reports.append(parent.recv())
    held_seconds = time.monotonic() - started
    held = sum(r["held"] for r in reports)
    await asyncio.sleep(opts.settle)
    rss_after = read_rss(opts.server_pid) if opts.server_pid else {}
    cpu_after = cpu_seconds(opts.server_pid) if opts.server_pid else 0.0

    # the probe: /who (the lobby) or an echoed line (the echo server), one at a time
    hist = Histogram()
    who_lines = 0
    conn = Conn(asyncio.get_running_loop())
    await conn.connect(target.host, target.port, None)
    if lobby:
        await login(conn, "WhoProbe")
        conn.buffer.clear()
    for _ in range(opts.who):
        if time.monotonic() > deadline:
            break
        t = now_ns()
        if lobby:
            conn.send(b"/who\r\n")
            line = await conn.expect(b"\r\n", 30)
            while b"In the lobby (" not in line:
                line = await conn.expect(b"\r\n", 30)
            # the count the line starts with (the names wrap to more lines at 80 columns)
            who_lines = int(line.split(b"In the lobby (", 1)[1].split(b")", 1)[0])
        else:
            conn.send(b"who\n")
            await conn.expect(b"who\r\n", 30)
        hist.record_ns(now_ns() - t)
        await asyncio.sleep(0.02)
    conn.close()
    for parent in pipes:
        parent.send("stop")
    after_reports = []
    for parent in pipes:
        if parent.poll(max(1.0, deadline - time.monotonic())):
            after_reports.append(parent.recv())
    for p in procs:
        p.join(5)
        if p.is_alive():
            p.kill()
    result: dict[str, Any] = {
        "scenario": "idle", "conns": opts.conns, "held": held, "procs": opts.procs,
        "logged_in": lobby and opts.login,
        "failures": sum(r["failures"] for r in reports), "seconds_to_hold": round(held_seconds, 2),
        "holds_per_s": round(held / held_seconds, 1) if held_seconds else 0,
        "setup_latency_p99_ms": max((r.get("setup_latency", {}).get("p99_ms", 0) for r in reports),
                                    default=0),
        "who": hist.summary(), "who_names": who_lines,
        "bytes_drained": sum(r.get("bytes_drained", 0) for r in after_reports),
        "server_cpu_seconds": round(cpu_after - cpu_before, 2)}
    if rss_before and rss_after:
        grown = rss_after["VmRSS"] - rss_before["VmRSS"]
        result.update(rss_before=rss_before["VmRSS"], rss_after=rss_after["VmRSS"],
                      rss_peak=rss_after.get("VmHWM", 0),
                      rss_per_conn=round(grown / held) if held else 0)
    return result


# "<T000> 123 m" from the lobby, "123 m" from the broadcasting echo server; a line starting
# with digits is never a command
_CHAT_RE = re.compile(rb"(\d+) m\r\n")


async def scenario_chat(target: Target, opts: argparse.Namespace) -> dict[str, Any]:
    """``--listeners`` users in the lobby and ``--talkers`` more who say ``<ns> m`` together
    ``--rate`` times a second for ``--seconds``; ``--sampled`` listeners measure the delivery
    latency of every message, the others are drained (the server writes to all of them alike)."""
    deadline = time.monotonic() + opts.time_limit
    hist = Histogram()
    drainer = Drainer(0.02)
    drainer.start()
    sampled: list[Conn] = []
    talkers: list[Conn] = []
    measuring = {"on": False}
    received = {"n": 0}

    def on_data(c: Conn, data: bytes) -> None:
        t = now_ns()
        data, end = whole_lines(c, data)
        if not measuring["on"]:
            return
        for m in _CHAT_RE.findall(data, 0, end):
            hist.record_ns(t - int(m))
            received["n"] += 1

    n_sampled = min(opts.sampled, opts.listeners)

    async def setup(conn: Conn, n: int) -> None:
        conn.name = f"L{n:04d}" if n < opts.listeners else f"T{n - opts.listeners:03d}"
        if not opts.echo:
            await login(conn, conn.name)
        if n < n_sampled:
            conn.measure(on_data)
            sampled.append(conn)
        elif n >= opts.listeners:
            talkers.append(conn)
            drainer.add(conn)
        else:
            drainer.add(conn)

    started = time.monotonic()
    conns, failures, _login_hist = await connect_many(target, opts.listeners + opts.talkers, 0, 48,
                                                     setup, deadline)
    login_seconds = time.monotonic() - started
    settle = await drainer.quiet(0.5, max(1.0, min(120.0, deadline - time.monotonic() - 30)))
    talkers.sort(key=lambda c: c.name)
    measuring["on"] = True
    sent = 0
    start = time.monotonic()
    end = min(start + opts.seconds, deadline - 5)
    interval = 1.0 / opts.rate
    next_at = start
    while time.monotonic() < end and talkers:
        c = talkers[sent % len(talkers)]
        c.send(b"%d m\r\n" % now_ns())
        sent += 1
        next_at += interval
        delay = next_at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
    elapsed = time.monotonic() - start
    expected = sent * len(sampled)
    grace_end = time.monotonic() + opts.grace
    while received["n"] < expected and time.monotonic() < grace_end:
        await asyncio.sleep(0.05)
    drainer.stop()
    for c in conns:
        c.close()
    everyone = len(conns)
    return {"scenario": "chat", "listeners": opts.listeners, "talkers": opts.talkers,
            "logged_in": everyone, "failures": failures,
            "login_seconds": round(login_seconds, 2), "settle_seconds": round(settle, 2),
            "rate_asked": opts.rate, "messages": sent, "seconds": round(elapsed, 2),
            "rate_sent": round(sent / elapsed, 1) if elapsed else 0,
            "deliveries_per_s": round(sent * everyone / elapsed) if elapsed else 0,
            "sampled": len(sampled), "expected_at_sampled": expected,
            "received_at_sampled": received["n"], "latency": hist.summary(),
            "hist": hist.to_dict()}


async def scenario_logins(target: Target, opts: argparse.Namespace) -> dict[str, Any]:
    """Probes (``--probes`` users whispering to themselves, ``--probe-rate`` each) for
    ``--quiet`` seconds, then the same during a login storm: ``--storm`` clients that log in with
    a password (accounts from ``--accounts-file``: ``name password`` per line), quit and log in
    again, for ``--seconds``."""
    deadline = time.monotonic() + opts.time_limit
    loop = asyncio.get_running_loop()
    with open(opts.accounts_file) as f:
        accounts = [tuple(line.split()[:2]) for line in f if line.strip()]
    if len(accounts) < opts.storm:
        raise SystemExit("loadgen: need at least as many accounts as storm clients")
    probes = ProbeSet(await login_probes(target, opts.probes, "Pr"), opts.probe_rate)
    probes.start()
    await asyncio.sleep(opts.quiet)
    quiet = probes.reset()
    login_hist = Histogram()
    stats = {"logins": 0, "failures": 0}
    end = min(time.monotonic() + opts.seconds, deadline - 5)

    async def storm_client(k: int) -> None:
        mine = accounts[k::opts.storm]
        i = 0
        while time.monotonic() < end:
            name, password = mine[i % len(mine)]
            i += 1
            conn = Conn(loop)
            t = now_ns()
            try:
                await conn.connect(target.host, target.port, target.source(k))
                await login(conn, name, password, timeout=30)
                login_hist.record_ns(now_ns() - t)
                stats["logins"] += 1
                conn.send(b"/quit\r\n")
                await conn.expect(b"Goodbye", 10)
            except (TimeoutError, OSError, ConnectionClosed):
                stats["failures"] += 1
            finally:
                conn.close()

    start = time.monotonic()
    await asyncio.gather(*(storm_client(k) for k in range(opts.storm)))
    elapsed = time.monotonic() - start
    storm = probes.reset()
    probes.stop()
    for c in probes.conns:
        c.close()
    return {"scenario": "logins", "storm_clients": opts.storm, "accounts": len(accounts),
            "logins": stats["logins"], "failures": stats["failures"], "seconds": round(elapsed, 2),
            "logins_per_s": round(stats["logins"] / elapsed, 1) if elapsed else 0,
            "login_latency": login_hist.summary(), "probes": opts.probes,
            "probe_rate": opts.probe_rate, "probe_quiet": quiet.summary(),
            "probe_storm": storm.summary()}


async def scenario_flood(target: Target, opts: argparse.Namespace) -> dict[str, Any]:
    """Probes (``--users`` whispering to themselves) for ``--seconds``, then again while
    ``--flooders`` clients send lines as fast as the server reads them: ``--kind tell`` whispers
    to oneself, ``say`` speech to the lobby (everybody receives it), ``junk`` unknown commands."""
    deadline = time.monotonic() + opts.time_limit
    loop = asyncio.get_running_loop()
    probes = ProbeSet(await login_probes(target, opts.users, "U"), opts.probe_rate)
    drainer = Drainer(0.02)
    flooders = []
    for k in range(opts.flooders):
        c = Conn(loop)
        await c.connect(target.host, target.port, target.source(k))
        c.name = f"Flood{k}"
        await login(c, c.name)
        flooders.append(c)
    counts = {"in": 0}

    def count_in(c: Conn, data: bytes) -> None:
        counts["in"] += len(data)

    for c in flooders:
        c.measure(count_in)
    probes.start()
    await asyncio.sleep(opts.seconds)
    quiet = probes.reset()
    sent = {"lines": 0}
    end = min(time.monotonic() + opts.seconds, deadline - 5)

    async def flood(c: Conn) -> None:
        if opts.kind == "tell":
            line = b";%s flood flood flood flood\r\n" % c.name.encode()
        elif opts.kind == "say":
            line = b"0 flood flood flood flood\r\n"
        else:
            line = b"/xyzzy flood\r\n"
        batch = line * 256
        while time.monotonic() < end and not c.closed:
            try:
                await asyncio.wait_for(c.sendall(batch), max(0.1, end - time.monotonic()))
            except (TimeoutError, OSError):
                break
            sent["lines"] += 256
        if c.closed:
            closed_after.append(round(time.monotonic() - start, 2))

    closed_after: list[float] = []
    start = time.monotonic()
    await asyncio.gather(*(flood(c) for c in flooders))
    flood_seconds = time.monotonic() - start
    # the others are measured for the whole phase, also after a flooder was disconnected
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    elapsed = time.monotonic() - start
    flooded = probes.reset()
    probes.stop()
    disconnected = sum(1 for c in flooders if c.closed)
    for c in flooders + probes.conns:
        c.close()
    drainer.stop()
    q99, f99 = quiet.percentile(99), flooded.percentile(99)
    return {"scenario": "flood", "users": opts.users, "probe_rate": opts.probe_rate,
            "flooders": opts.flooders, "kind": opts.kind, "flood_lines": sent["lines"],
            "flood_lines_per_s": round(sent["lines"] / flood_seconds) if flood_seconds else 0,
            "flooder_bytes_received": counts["in"], "flooders_disconnected": disconnected,
            "flooders_disconnected_after_s": closed_after, "seconds": round(elapsed, 2),
            "probe_quiet": quiet.summary(), "probe_flood": flooded.summary(),
            "p99_ratio": round(f99 / q99, 2) if q99 else None}


SCENARIOS: dict[str, Callable[[Target, argparse.Namespace], Awaitable[dict[str, Any]]]] = {
    "echo": scenario_echo,
    "idle": scenario_idle,
    "chat": scenario_chat,
    "logins": scenario_logins,
    "flood": scenario_flood,
}


# ---- command line -------------------------------------------------------------------------------
def _raise_fd_limit(wanted: int) -> None:
    """Raise this process's open-files limit to ``wanted`` (the hard one too when root)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(hard, wanted)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Line-protocol load generator (loopback only).")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--host", default="127.0.0.1", help="a loopback address")
    common.add_argument("--port", type=int, required=True)
    common.add_argument("--sources", type=int, default=8,
                        help="source addresses 127.0.0.2.. to spread connections over (0: any)")
    common.add_argument("--time-limit", type=float, default=600.0,
                        help="hard limit for the whole scenario in seconds")
    common.add_argument("--uvloop", action="store_true", help="run the load generator on uvloop")
    sub = parser.add_subparsers(dest="scenario", required=True)

    p = sub.add_parser("echo", parents=[common], help="closed-loop round trips")
    p.add_argument("--conns", type=int, default=50)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--pipeline", type=int, default=1, help="requests in flight per connection")
    p.add_argument("--lobby", action="store_true",
                   help="log in and whisper to oneself (against the lobby server)")

    p = sub.add_parser("idle", parents=[common], help="hold many idle connections")
    p.add_argument("--conns", type=int, default=1000)
    p.add_argument("--procs", type=int, default=1, help="processes holding the connections")
    p.add_argument("--echo", action="store_true", help="the target is the echo server")
    p.add_argument("--no-login", dest="login", action="store_false",
                   help="stay at the login prompt instead of logging in")
    p.add_argument("--who", type=int, default=20, help="/who round trips once all are held")
    p.add_argument("--settle", type=float, default=1.0, help="seconds before measuring")
    p.add_argument("--server-pid", type=int, default=0, help="read this process's RSS")

    p = sub.add_parser("chat", parents=[common], help="chat fan-out in the lobby")
    p.add_argument("--listeners", type=int, default=2000)
    p.add_argument("--talkers", type=int, default=10)
    p.add_argument("--rate", type=float, default=100.0, help="messages per second, all talkers")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--sampled", type=int, default=100, help="listeners that measure latency")
    p.add_argument("--grace", type=float, default=5.0, help="seconds to wait for late messages")
    p.add_argument("--echo", action="store_true",
                   help="the target is bench_echo_server.py --broadcast (no login)")

    p = sub.add_parser("logins", parents=[common], help="login storm with password checks")
    p.add_argument("--accounts-file", required=True)
    p.add_argument("--storm", type=int, default=20, help="concurrent logging-in clients")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--quiet", type=float, default=3.0, help="probe seconds before the storm")
    p.add_argument("--probes", type=int, default=20)
    p.add_argument("--probe-rate", type=float, default=5.0, help="probe commands/s per user")

    p = sub.add_parser("flood", parents=[common], help="one flooding client next to normal users")
    p.add_argument("--users", type=int, default=50)
    p.add_argument("--probe-rate", type=float, default=5.0)
    p.add_argument("--flooders", type=int, default=1)
    p.add_argument("--kind", choices=("tell", "say", "junk"), default="tell")
    p.add_argument("--seconds", type=float, default=5.0, help="seconds quiet, then flooded")
    return parser


async def run_scenario(name: str, target: Target, opts: argparse.Namespace) -> dict[str, Any]:
    """Run one scenario within its hard time limit."""
    return await asyncio.wait_for(SCENARIOS[name](target, opts), opts.time_limit)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    opts = parser.parse_args(argv)
    if getattr(opts, "uvloop", False) and find_spec("uvloop") is None:
        parser.error(UVLOOP_MISSING)
    target = Target(opts.host, opts.port, opts.sources)
    _raise_fd_limit(int(getattr(opts, "conns", 0) or getattr(opts, "listeners", 0) or 0) + 1000)
    if opts.uvloop:
        import uvloop
        result = uvloop.run(run_scenario(opts.scenario, target, opts))
    else:
        result = asyncio.run(run_scenario(opts.scenario, target, opts))
    result.pop("hist", None) if not os.environ.get("LOADGEN_HIST") else None
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
