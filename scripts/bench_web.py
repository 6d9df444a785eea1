#!/usr/bin/env python3
"""WebSocket players beside TCP machine-mode players: what a web client's action costs the server.

    .venv/bin/python scripts/bench_web.py                         # 4 + 4 tables, 5 rounds
    .venv/bin/python scripts/bench_web.py --tables 8 --rounds 7 --actions 400 --json w.json
    .venv/bin/python scripts/bench_web.py --instructions --rounds 3 --actions 300   # valgrind

One lobby server (``python -m protocol`` with ``--web``, a temporary database, flood control and
the per-address limits that would refuse so many players from one address off, ``--bot-workers
0``) and, in this process, ``--tables`` tables of four WebSocket players (the web listener's
``/ws``, autobahn's client) and as many tables of four TCP players in machine mode (``%json``),
all connected from the start and seated at their running games side by side. Every player is a
program deciding from its `state` (and the `update`s it applies): `/nogrand`, the first three
cards for `/schupf`, the first legal play (else `/pass`), `/wish none`, `/dragon left`; one
command at a time, each with an id, the next after its reply. A finished game is `/reset` and
started again (not counted). Both kinds ask for the same version of machine mode's objects
(``--protocol``: 1 by default, ``%json``, a whole `state` after every change; the web page asks
for 4, ``--protocol 4``: `update`s), so an action sends both kinds the same objects and only
the transport differs.

The same server runs the two kinds in alternating phases, ``--rounds`` times each (WebSocket,
TCP, WebSocket, TCP, ...): in a phase only the tables of one kind act, until their players have
had ``--actions`` commands accepted, while the other kind's connections stay open and idle. The
server's CPU in a phase (utime + stime from /proc, never wall-clock) divided by the commands
accepted in it is its CPU per action of that kind; the figures are the median over the phases
of each kind and their ratio (WebSocket / TCP). The target: at most 1.2.

``--instructions`` counts the server's instructions in user space per action instead of its
CPU time (the server under valgrind's callgrind, counting only in the phases): the same figure
however loaded the machine is, so a change can be judged on a shared machine (the kernel's part,
the sends and receives, is not in it; it is about the same for both kinds).

Each player thinks ``--think`` milliseconds before every command (5 by default): the server then
meets every action in a reactor turn of its own, as at human pace, whichever client sent it.
Without it (``--think 0``) the faster client (this process's TCP one) gets its next command in
while the server is still busy, and the server does less per action for it (one journal
transaction and one send for several actions): a property of the clients, not of the
transport.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from twisted.internet import asyncioreactor

asyncioreactor.install()

from autobahn.twisted.websocket import (
    WebSocketClientFactory,
    WebSocketClientProtocol,
)
from twisted.internet import reactor
from twisted.internet.defer import Deferred, ensureDeferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import Protocol
from twisted.internet.task import deferLater

from protocol.render.json_lines import apply_update

LISTEN = re.compile(r"listening on \S+ \(([\d.]+):(\d+)\)")
WEB = re.compile(r"web client on \S+ \(([\d.]+):(\d+)\)")


class Player:
    """One seat's program: keeps its `state`, decides when it is its turn, one command at a
    time; ``active`` says whether its kind acts in this phase."""

    def __init__(self, bench: Bench, kind: str, name: str) -> None:
        self.bench = bench
        self.kind = kind
        self.name = name
        self.view: dict[str, Any] | None = None
        self.waiting: str | None = None        # the id of the command sent, until its reply
        self.ids = 0
        self.host = False
        self.restart = False
        self.ready: Deferred = Deferred()
        self.replies: dict[str, Deferred] = {}

    # the transport: a WebSocket message or a TCP line
    def write(self, line: str) -> None:
        raise NotImplementedError

    def command(self, line: str) -> Deferred:
        self.ids += 1
        cid = f"b{self.ids}"
        d: Deferred = Deferred()
        self.replies[cid] = d
        self.write(f"#{cid} {line}")
        return d

    def received(self, obj: dict[str, Any]) -> None:
        kind = obj.get("type")
        if kind == "prompt" and obj.get("prompt") == "login" and not self.ready.called:
            self.write(self.name)
        elif kind == "logged-in-guest" and not self.ready.called:
            self.ready.callback(self)
        elif kind == "state":
            self.view = {k: v for k, v in obj.items() if k != "id"}
        elif kind == "update" and self.view is not None:
            self.view = apply_update(self.view, obj)
        cid = obj.get("id")
        if cid is not None and cid in self.replies:
            self.replies.pop(cid).callback(obj)
            if cid == self.waiting:
                self.waiting = None
                if kind == "ok" and not self.restart:
                    self.bench.accepted(self.kind)
        self.act()

    def decision(self) -> str | None:
        s = self.view
        if not s or s.get("seat") is None:
            return None
        me = s["seat"]
        if s.get("status") == "finished":
            return "/reset" if self.host else None
        if s.get("status") == "waiting":
            return "/start" if self.host and all(s.get("names") or [None]) else None
        phase = s.get("phase")
        if phase == "grand" and not s["grand_decided"][me]:
            return "/nogrand"
        if phase == "exchange" and not s.get("given"):
            hand = s["hand"].split()
            return "/schupf " + " ".join(hand[:3])
        if phase == "wish" and s.get("wish_pending") == me:
            return "/wish none"
        if phase == "dragon" and s.get("holder") == me:
            return "/dragon left"
        if phase == "play" and s.get("turn") == me:
            legal = s.get("legal") or []
            if legal:
                return "/play " + legal[0]
            if s.get("can_pass"):
                return "/pass"
        return None

    def act(self) -> None:
        if self.waiting is not None or not self.bench.acting(self.kind):
            return
        line = self.decision()
        if line is None:
            return
        self.ids += 1
        cid = f"a{self.ids}"
        self.waiting = cid
        self.restart = line in ("/reset", "/start")      # not a game action: not counted
        self.replies[cid] = Deferred()
        think = self.bench.opts.think / 1000
        if think > 0:
            reactor.callLater(think, self.write, f"#{cid} {line}")
        else:
            self.write(f"#{cid} {line}")


class WebPlayer(Player, WebSocketClientProtocol):
    def __init__(self, bench: Bench, name: str) -> None:
        Player.__init__(self, bench, "ws", name)
        WebSocketClientProtocol.__init__(self)

    def onOpen(self) -> None:
        self.write(self.bench.switch)

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        self.received(json.loads(payload))

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
        if not self.ready.called:
            self.ready.errback(ConnectionError(f"the WebSocket closed: {code} {reason}"))

    def write(self, line: str) -> None:
        self.sendMessage(line.encode("utf-8"), isBinary=False)


class RawWebPlayer(Player, Protocol):
    """A WebSocket client as light as the TCP one (the default; ``--autobahn-client`` uses
    autobahn's): the upgrade request, then the server's unmasked text frames read, and each
    line sent as one frame masked with the key 0 (RFC 6455 allows any key; the server unmasks
    as always)."""

    def __init__(self, bench: Bench, name: str, port: int) -> None:
        Player.__init__(self, bench, "ws", name)
        self.port = port
        self.buffer = b""
        self.upgraded = False

    def connectionMade(self) -> None:
        self.transport.setTcpNoDelay(True)
        self.transport.write(
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{self.port}\r\n\r\n"
            .encode())

    def dataReceived(self, data: bytes) -> None:
        buf = self.buffer + data
        if not self.upgraded:
            head, sep, rest = buf.partition(b"\r\n\r\n")
            if not sep:
                self.buffer = buf
                return
            if b" 101 " not in head.split(b"\r\n", 1)[0]:
                raise ConnectionError(head.decode("latin-1"))
            self.upgraded = True
            buf = rest
            self.write(self.bench.switch)
        at = 0
        while len(buf) - at >= 2:
            n = buf[at + 1] & 0x7F
            start = at + 2
            if n == 126:
                if len(buf) - at < 4:
                    break
                n, start = int.from_bytes(buf[at + 2:at + 4], "big"), at + 4
            elif n == 127:
                if len(buf) - at < 10:
                    break
                n, start = int.from_bytes(buf[at + 2:at + 10], "big"), at + 10
            if len(buf) < start + n:
                break
            if buf[at] & 0x0F == 1:
                self.received(json.loads(buf[start:start + n]))
            at = start + n
        self.buffer = buf[at:]

    def write(self, line: str) -> None:
        payload = line.encode("utf-8")
        n = len(payload)
        head = bytes((0x81, 0x80 | n)) if n < 126 else b"\x81\xfe" + n.to_bytes(2, "big")
        self.transport.write(head + b"\x00\x00\x00\x00" + payload)


class TcpPlayer(Player, Protocol):
    def __init__(self, bench: Bench, name: str) -> None:
        Player.__init__(self, bench, "tcp", name)
        self.buffer = b""

    def connectionMade(self) -> None:
        self.write(self.bench.switch)

    def dataReceived(self, data: bytes) -> None:
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\r\n")
        for line in lines:
            start = line.find(b"{")
            if start >= 0 and line.rstrip().endswith(b"}"):
                try:
                    self.received(json.loads(line[start:]))
                except ValueError:
                    pass

    def write(self, line: str) -> None:
        self.transport.write(line.encode("utf-8") + b"\r\n")


class Bench:
    def __init__(self, opts: argparse.Namespace) -> None:
        self.opts = opts
        self.phase: str | None = None
        self.counts = {"ws": 0, "tcp": 0}
        self.players: dict[str, list[Player]] = {"ws": [], "tcp": []}
        self.enough: Deferred | None = None
        self.start = 0                         # the kind's count when its phase began
        #: the first line of every player, both kinds: machine mode of --protocol's objects
        self.switch = "%json" if opts.protocol == 1 else f"%json {opts.protocol}"

    def acting(self, kind: str) -> bool:
        return self.phase == kind

    def accepted(self, kind: str) -> None:
        self.counts[kind] += 1
        if kind == self.phase and self.counts[kind] - self.start >= self.opts.actions \
                and self.enough is not None \
                and not self.enough.called:
            self.phase = None                  # no new commands; those sent are answered
            self.enough.callback(None)

    async def connect(self, kind: str, name: str, tcp_port: int, web_port: int) -> Player:
        if kind == "ws" and not self.opts.autobahn_client:
            player = RawWebPlayer(self, name, web_port)
            await connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", web_port), player)
        elif kind == "ws":
            url = f"ws://127.0.0.1:{web_port}/ws"
            factory = WebSocketClientFactory(url, origin=f"http://127.0.0.1:{web_port}")
            player: Player = WebPlayer(self, name)
            player.factory = factory  # type: ignore[attr-defined]
            await connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", web_port), player)
        else:
            player = TcpPlayer(self, name)
            await connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", tcp_port), player)
        await player.ready
        self.players[kind].append(player)
        return player

    async def table(self, kind: str, number: int, tcp_port: int, web_port: int) -> None:
        names = [f"{kind[0].upper()}{number}s{i}" for i in range(4)]
        seats = [await self.connect(kind, n, tcp_port, web_port) for n in names]
        host = seats[0]
        host.host = True
        reply = await host.command("/newroom tichu")
        while reply.get("type") != "ok":
            reply = await host.command("/look")
        table = host.view["table"] if host.view else None
        await host.command("/join 1")
        for p in seats[1:]:
            await p.command(f"/room {table}")
            await p.command("/join")
        await host.command("/start")

    async def run(self, meter: Meter, tcp_port: int, web_port: int) -> dict[str, Any]:
        for number in range(1, self.opts.tables + 1):
            await self.table("ws", number, tcp_port, web_port)
            await self.table("tcp", number, tcp_port, web_port)
        per_action: dict[str, list[float]] = {"ws": [], "tcp": []}
        for _ in range(self.opts.rounds + 1):            # the first pair warms up
            for kind in ("ws", "tcp"):
                await deferLater(reactor, 0.3, lambda: None)    # the other kind's last replies
                meter.start()
                counted = self.counts[kind]
                self.enough = Deferred()
                self.start = counted
                self.phase = kind
                for p in self.players[kind]:
                    p.act()
                await self.enough
                await deferLater(reactor, 0.3, lambda: None)    # the replies of those in flight
                spent, done = meter.stop(), self.counts[kind] - counted
                per_action[kind].append(spent / done)
        ws = per_action["ws"][1:]
        tcp = per_action["tcp"][1:]
        unit = meter.unit
        return {"tables_per_kind": self.opts.tables, "actions_per_phase": self.opts.actions,
                "think_ms": self.opts.think, "protocol": self.opts.protocol,
                "phases_per_kind": self.opts.rounds, "unit": unit,
                f"ws_{unit}_per_action": ws, f"tcp_{unit}_per_action": tcp,
                f"ws_median_{unit}": statistics.median(ws),
                f"tcp_median_{unit}": statistics.median(tcp),
                "ratio_ws_to_tcp": statistics.median(ws) / statistics.median(tcp),
                "ratios_per_pair": [w / t for w, t in zip(ws, tcp, strict=True)]}


class Meter:
    """What the server spends in a phase: its CPU in µs (utime + stime, /proc)."""

    unit = "us"

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.before = 0.0

    def cpu(self) -> float:
        """The process's CPU seconds so far (utime + stime)."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def start(self) -> None:
        self.before = self.cpu()

    def stop(self) -> float:
        return (self.cpu() - self.before) * 1e6


class Instructions(Meter):
    """``--instructions``: the instructions the server executes in user space in a phase
    (valgrind's callgrind, its counting switched on for the phase only with callgrind_control;
    the kernel's work, such as the sends, is not in it). Independent of the machine's load
    and of the other processes on its cores, unlike the CPU time; the server runs many times
    slower under it."""

    unit = "instructions"

    def __init__(self, pid: int, out: str) -> None:
        super().__init__(pid)
        self.out = out                  # callgrind's --callgrind-out-file: dumps are OUT.N
        self.phase = 0

    def control(self, *args: str) -> None:
        subprocess.run(["callgrind_control", *args, str(self.pid)], check=True,
                       capture_output=True)

    def start(self) -> None:
        self.control("--zero")
        self.control("--instr=on")

    def stop(self) -> float:
        self.control("--instr=off")
        self.phase += 1
        self.control(f"--dump=phase{self.phase}")
        folder, name = os.path.split(self.out)
        dumps = [f for f in os.listdir(folder) if f.startswith(name + ".")]
        for dump in sorted(dumps, key=lambda f: int(f.rsplit(".", 1)[1]), reverse=True):
            with open(os.path.join(folder, dump)) as f:
                text = f.read()
            if f"Trigger: dump phase{self.phase}\n" in text:
                found = re.search(r"^totals: (\d+)", text, re.M)
                if found is None:
                    raise SystemExit(f"no totals in callgrind's dump {dump}")
                return float(found.group(1))
        raise SystemExit(f"callgrind wrote no dump of phase {self.phase}")


def start_server(tmp: str, instructions: bool = False) -> tuple[subprocess.Popen[str], int,
                                                                 int]:
    argv = [sys.executable, "-m", "protocol", "--db", os.path.join(tmp, "bench.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1", "--web", "tcp:0:interface=127.0.0.1",
            "--bot-workers", "0", "--flood-rate", "0", "--max-per-ip", "0", "--max-guests", "0",
            "--max-tables-per-ip", "0", "--tables-per-minute", "0"]
    if instructions:
        argv = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                f"--callgrind-out-file={os.path.join(tmp, 'callgrind.out')}", *argv]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=tmp, env=dict(os.environ, PYTHONPATH=root))
    tcp = web = 0
    deadline = time.monotonic() + (300 if instructions else 60)
    assert proc.stdout is not None
    while not (tcp and web) and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("the server exited:\n" + line)
        if (m := LISTEN.search(line)) and not tcp:
            tcp = int(m.group(2))
        if m := WEB.search(line):
            web = int(m.group(2))
    if not (tcp and web):
        raise SystemExit("the server did not listen in time")
    return proc, tcp, web


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="tables of each kind (default 4)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="measured phases of each kind, after one pair that warms up "
                             "(default 5)")
    parser.add_argument("--actions", type=int, default=600,
                        help="accepted commands per phase (default 600)")
    parser.add_argument("--think", type=float, default=5.0, metavar="MS",
                        help="each player waits MS milliseconds before each command, so that "
                             "every action is a reactor turn of its own for both kinds, however "
                             "fast their clients are (default 5; 0: at once)")
    parser.add_argument("--protocol", type=int, default=1, choices=(1, 2, 3, 4),
                        help="the machine-mode version both kinds of players ask for (`%%json "
                             "N`; default 1, `%%json`: a whole `state` after every change; the "
                             "web page asks for 4: `update`s)")
    parser.add_argument("--autobahn-client", action="store_true",
                        help="the WebSocket players use autobahn's client (heavier than the "
                             "TCP players' client: its cost on this machine's shared CPUs "
                             "shows in the server's figures too)")
    parser.add_argument("--instructions", action="store_true",
                        help="count the server's instructions per action (user space, "
                             "valgrind's callgrind: needs valgrind) instead of its CPU time: "
                             "independent of the machine's load; much slower, so fewer "
                             "--actions serve (300)")
    parser.add_argument("--json", metavar="FILE", help="write the figures there too")
    opts = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        proc, tcp, web = start_server(tmp, opts.instructions)
        meter = Instructions(proc.pid, os.path.join(tmp, "callgrind.out")) \
            if opts.instructions else Meter(proc.pid)
        try:
            import threading
            assert proc.stdout is not None
            threading.Thread(target=proc.stdout.read, daemon=True).start()   # drain the log
            result: dict[str, Any] = {}
            failure: list[BaseException] = []

            def done(value: Any) -> None:
                result.update(value)
                reactor.stop()

            def failed(f: Any) -> None:
                failure.append(f.value)
                reactor.stop()
            reactor.callWhenRunning(lambda: ensureDeferred(
                Bench(opts).run(meter, tcp, web)).addCallbacks(done, failed))
            reactor.run()
            if failure:
                raise failure[0]
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    unit = result["unit"]
    what, shown = ("instructions (user space)", "k instructions") if unit == "instructions" \
        else ("CPU", " µs")
    scale = 1000 if unit == "instructions" else 1
    print(f"server {what} per accepted action, {opts.tables} tables of each kind, "
          f"{opts.actions} actions a phase, median of {opts.rounds} phases each, "
          f"protocol {opts.protocol} for both kinds:")
    print(f"  WebSocket {result[f'ws_median_{unit}'] / scale:.0f}{shown}, TCP machine mode "
          f"{result[f'tcp_median_{unit}'] / scale:.0f}{shown}: ratio "
          f"{result['ratio_ws_to_tcp']:.3f} "
          f"(per pair: {', '.join(f'{r:.3f}' for r in result['ratios_per_pair'])})")
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
