#!/usr/bin/env python3
"""In-process benchmark: the server's CPU per accepted game action at tables of four machine-mode
(JSON) players, or with `--text N` of each table's seats in text mode (telnet).

The whole server path runs, minus the sockets: a LobbyServer (world, persistence with the real
Journal on an in-memory SQLite store run inline, the session layer) on a `task.Clock`; each player
is a `Session` on a fake transport that only counts bytes (and keeps the last `state` line so the
player can decide). Players are the `random` bot strategy of lobby/bots deciding from the `state`
objects they received (a uniform pick among `legal` plus the pass; 2 % Tichu / Grand Tichu, 10 %
bombs); each decision is sent as one command line with an id (`#a play R5 G5`), then the clock
turns (the journal commits, the held events leave). A finished match is `/reset` and started
again (not measured). A text-mode player (`--text N`: seats 2.. of each table) logs in as a guest,
gets the lines people get, and decides from the table's view of its seat (outside the measured
time); its commands are plain lines (`/play R5 G5`).

`--idle MS` sleeps before every action (outside the measured time): the same actions, each on a
CPU that was idle in between, as at human pace, where the server waits for the next move most of
the time. On a machine shared with other work, or a virtual machine, the CPU per action then
grows by itself (caches and branch predictors cold, the core slowed down): the gap between this
bench and a socket benchmark at human pace (scripts/bench_human.py) is largely that.

Measured: only the server's side (the line received -> command table -> table actor -> engine ->
journal -> views -> rendering -> transport.write), as CPU time (time.process_time, never
wall-clock: the machine may be shared). The clients' decisions and JSON parsing are outside the
measured spans. Prints µs of CPU per accepted action for each pass and the best, and the bytes
written to the four players per action. Deterministic: the same seeds give the same games (so
runs before and after a change play exactly the same actions while the output is unchanged).

    .venv/bin/python scripts/bench_table_action.py                  # 5 passes of 3,000 actions
    .venv/bin/python scripts/bench_table_action.py --passes 3 --actions 1000 --tables 4
    .venv/bin/python scripts/bench_table_action.py --tables 1000 --text 2 --idle 2
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from twisted.internet import task
from twisted.internet.testing import StringTransport

from lobby.bots.strategies.random_bot import RandomStrategy
from lobby.storage.accounts import Accounts, Argon2Params
from lobby.storage.store import Store, inline_runner
from protocol.render.json_lines import apply_update, state_object

NAMES = ("Ann", "Bob", "Cat", "Dan")


class CountingTransport(StringTransport):
    """A transport that keeps nothing but a byte count and the `state` and `update` lines since
    the player last looked (parsed by the player, outside the measured time)."""

    def __init__(self) -> None:
        super().__init__()
        self.written = 0
        self.view_lines: list[bytes] = []
        self.other = bytearray()          # other lines, only while `keep` (the setup)
        self.keep = True

    def write(self, data: bytes) -> None:
        self.written += len(data)
        if data.startswith((b'{"type":"state"', b'{"type":"update"')):
            self.view_lines.append(data)
        elif self.keep:
            self.other += data

    def writeSequence(self, seq: Any) -> None:
        for data in seq:
            self.write(data)


class Player:
    def __init__(self, factory: Any, name: str, seed: int, text: bool = False) -> None:
        self.name = name
        #: a text-mode (telnet) player: it reads its view from the table (outside the measured
        #: time), since its lines are for people
        self.text = text
        self.table: Any = None
        self.transport = CountingTransport()
        self.session = factory.buildProtocol(None)
        self.session.makeConnection(self.transport)
        self.strategy = RandomStrategy(seed)
        self.state: dict[str, Any] | None = None

    def send(self, line: str) -> None:
        if self.text and line.startswith("#"):
            line = line.split(" ", 1)[1]       # ids are machine mode's
        self.session.dataReceived((line + "\r\n").encode("utf-8"))

    def view(self) -> Any:
        """The table's state as this player holds it: the last `state` with the `update`s
        after it applied (machine mode, protocol 2); a text player's the table's view of its
        seat."""
        if self.text:
            if self.table is None or self.table.match is None:
                return None
            return state_object(self.table._views.view(self.name))
        lines = self.transport.view_lines
        if lines:
            for data in b"".join(lines).splitlines():
                obj = json.loads(data)
                if obj["type"] == "state":
                    self.state = obj
                elif self.state is not None:
                    self.state = apply_update(self.state, obj)
            lines.clear()
        return self.state


class Bench:
    def __init__(self, tables: int, seed: int, text: int = 0) -> None:
        from protocol.process.server import LobbyServer
        self.clock = task.Clock()
        self.clock.advance(1_800_000_000)
        store = Store(":memory:", inline_runner)
        self.server = LobbyServer(self.clock, store, [], clock=self.clock,
                                  accounts=Accounts(inline_runner, Argon2Params(
                                      time_cost=1, memory_cost=8, parallelism=1)))
        started: list[Any] = []
        self.server.start().addBoth(started.append)
        assert started and not hasattr(started[0], "raiseException"), started
        self.world = self.server.world
        self.rng = random.Random(seed)
        self.world.on_new_table = lambda table: table._rng.seed(self.rng.getrandbits(63))
        factory = self.server.factory
        self.tables: list[tuple[Any, list[Player]]] = []
        for t in range(tables):
            players = []
            for i, base in enumerate(NAMES):
                p = Player(factory, f"{base}{t}", self.rng.getrandbits(32),
                           text=0 < i <= text)
                if not p.text:
                    p.send("%json 3")
                p.send(p.name)
                if p.text:
                    self.turn()
                    p.send("")             # play as the guest of that name
                players.append(p)
            host = players[0]
            host.send("#s /newroom tichu")
            self.turn()
            number = self.world.online(host.name).room.number
            table = self.world.tables[number]
            for p in players[1:]:
                p.send(f"#s /room {number}")
            for p in players:
                p.send("#s /join")
            self.turn()
            host.send("#s /start")
            self.turn()
            assert table.state == "playing", host.transport.other[-2000:]
            for p in players:
                p.transport.keep = False
                p.table = table
            self.tables.append((table, players))

    def turn(self) -> None:
        for _ in range(3):
            self.clock.advance(0)

    def decide(self, players: list[Player]) -> tuple[Player, str] | None:
        choices = []
        for p in players:
            view = p.view()
            if view is None:
                continue
            command = p.strategy.decide(view)
            if command is not None:
                choices.append((p, command))
        return self.rng.choice(choices) if choices else None

    def run(self, actions: int, idle: float = 0.0) -> tuple[float, int, int]:
        """Play until `actions` actions were accepted (over all tables, in turn); returns (CPU
        seconds of the server's side, accepted actions, bytes written). With `idle` (seconds)
        the process sleeps that long before each action, outside the measured span: the
        same work, done by a CPU that was idle in between (as at human pace)."""
        sleep = time.sleep
        clock_cpu = time.process_time
        turn = self.turn
        cpu = 0.0
        accepted = 0
        written = 0
        while accepted < actions:
            for table, players in self.tables:
                if table.state != "playing":
                    host = players[0]
                    host.send("#r /reset")
                    host.send("#r /start")
                    turn()
                    continue
                choice = self.decide(players)
                if choice is None:
                    raise RuntimeError("nobody has anything to do")
                player, command = choice
                if idle:
                    sleep(idle)
                line = (("/" if player.text else "#a ") + command + "\r\n").encode("utf-8")
                before_actions = len(table.match.actions)
                before_bytes = sum(p.transport.written for p in players)
                t0 = clock_cpu()
                player.session.dataReceived(line)
                turn()
                cpu += clock_cpu() - t0
                done = len(table.match.actions) - before_actions
                if done > 0:
                    accepted += done
                    written += sum(p.transport.written for p in players) - before_bytes
        return cpu, accepted, written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1, help="tables (default 1)")
    parser.add_argument("--actions", type=int, default=3000, help="accepted actions per pass")
    parser.add_argument("--passes", type=int, default=5, help="passes (the best counts)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and players")
    parser.add_argument("--warmup", type=int, default=300, help="actions before the passes")
    parser.add_argument("--idle", type=float, default=0.0,
                        help="milliseconds of sleep before each action, outside the measured "
                             "time (default 0: back to back)")
    parser.add_argument("--text", type=int, default=0, choices=range(4),
                        help="text-mode (telnet) players per table (default 0; the host is in "
                             "machine mode)")
    opts = parser.parse_args(argv)
    bench = Bench(opts.tables, opts.seed, opts.text)
    bench.run(opts.warmup)
    results = []
    for i in range(opts.passes):
        gc.collect()
        cpu, n, written = bench.run(opts.actions, opts.idle / 1000)
        us = cpu / n * 1e6
        results.append(us)
        print(f"pass {i + 1}: {n} actions, {us:7.1f} µs CPU per action, "
              f"{written / n:7.0f} bytes per action", flush=True)
    print(f"best: {min(results):.1f} µs CPU per accepted action "
          f"(tables {opts.tables}, text players {opts.text}, idle {opts.idle:g} ms, "
          f"{opts.actions} actions x "
          f"{opts.passes} passes, seed {opts.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
