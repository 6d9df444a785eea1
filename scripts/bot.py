#!/usr/bin/env python3
"""A Tichu bot that plays over TCP like any user, in machine mode (docs/protocol.md).

    python scripts/bot.py --port 4000 --name Robo --open --seat 1 --strategy heuristic
    python scripts/bot.py --port 4000 --name Robo2 --table 1 --strategy random

It connects, sends `%json` as its first line (from then on every server line is one JSON object),
logs in (`--password` for a registered name), opens a table (`--open`, with `--option NAME=VALUE`
for its options) or enters table `--table N`, sits down (`--seat S`, else the first free seat),
starts the game when four sit (`--start`; the opener does by default) and plays with a strategy
of lobby/bots (`random` or `heuristic`) until the game ends; then it quits. Every command carries
an id (`#c17 play R5 G5`); the bot sends one command at a time and pairs each reply (the answer,
an `error` or `ok`) with it by that id. The strategy decides from the table's state as the bot
holds it (machine mode protocol 2: the last `state` object with every `update` after it applied),
which carries the same fields as the engine's view of the seat. Everything is bounded by
`--timeout` seconds. It sends at most `--rate` commands per second (default 6) so that a public
server's flood control (the server's `--flood-rate` and `--flood-burst`) never drops its lines;
a line dropped anyway (the error `flooding`, which has no id) is sent again after a pause.

Exit status: 0 when the game ended, 1 on a timeout or a closed connection, 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lobby.bots.strategy import STRATEGY_NAMES, make_strategy, my_turn_to  # noqa: E402
from protocol.render_json import apply_update  # noqa: E402

__all__ = ["BotClient", "BotResult", "run_bot", "main"]

#: how often in a row the server may refuse the bot's commands before it gives up
MAX_REFUSALS = 20


class BotError(Exception):
    """The bot cannot go on (refused setup command, closed connection, timeout)."""


@dataclass
class BotResult:
    """What one bot saw of its game."""

    name: str
    table: int | None = None
    seat: int | None = None                       # engine seat 0..3
    finished: bool = False
    match: dict[str, Any] | None = None           # data of game-match-over
    rounds: list[dict[str, Any]] = field(default_factory=list)   # data of each game-round-over
    names: list[str | None] = field(default_factory=list)        # seat names at the end
    commands: int = 0
    refusals: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)  # (command, error code)
    lines: int = 0
    ids_checked: int = 0


class BotClient:
    """One connection in machine mode. `on_line` (optional) sees every line received."""

    #: seconds to wait before sending a line again that flood control dropped
    flood_pause: float = 2.0

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, name: str, *,
                 on_line: Callable[[str], None] | None = None, rate: float = 0.0,
                 burst: int = 20) -> None:
        self.reader = reader
        self.rate = rate                                # lines per second at most (0: no pacing)
        self.burst = burst
        self._tokens = float(burst)
        self._refilled = 0.0
        self.writer = writer
        self.name = name
        self.on_line = on_line
        self.next_id = 0
        self.state: dict[str, Any] | None = None      # the latest state (`update`s applied)
        self.state_no = 0                              # how many states / updates so far
        self.events: list[dict[str, Any]] = []         # everything but states and replies
        self.prelude: list[str] = []                   # the text before the switch
        self.result = BotResult(name)

    # ---- the wire -----------------------------------------------------------------------------
    async def read_object(self) -> dict[str, Any]:
        raw = await self.reader.readline()
        if not raw:
            raise BotError("the server closed the connection")
        line = raw.decode("utf-8").rstrip("\r\n")
        if self.on_line is not None:
            self.on_line(line)
        self.result.lines += 1
        obj = json.loads(line)
        if not isinstance(obj, dict) or "type" not in obj:
            raise BotError(f"not a machine-mode object: {line!r}")
        if obj["type"] == "state":
            self.state = obj
            self.state_no += 1
        elif obj["type"] == "update":
            if self.state is not None and self.state.get("table") == obj.get("table"):
                self.state = apply_update(self.state, obj)
                self.state_no += 1
        elif obj["type"] == "game-round-over":
            self.result.rounds.append(obj)
        elif obj["type"] == "game-match-over":
            self.result.match = obj
        return obj

    def write(self, line: str) -> None:
        self.writer.write((line + "\r\n").encode("utf-8"))

    async def _pace(self) -> None:
        """Stay under the server's flood control: at most `rate` lines per second on average
        and `burst` at once (a token bucket, like the server's)."""
        if self.rate <= 0:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._tokens = min(float(self.burst), self._tokens + (now - self._refilled) * self.rate)
        self._refilled = now
        if self._tokens < 1:
            await asyncio.sleep((1 - self._tokens) / self.rate)
            self._tokens = 1.0
            self._refilled = loop.time()
        self._tokens -= 1

    async def command(self, line: str) -> dict[str, Any]:
        """Send `#ID line`; read until the reply with that id arrives; return it. A line that
        flood control dropped (an `error` `flooding` without id) is sent again after a pause."""
        self.next_id += 1
        cid = f"c{self.next_id}"
        await self._pace()
        self.write(f"#{cid} {line}")
        self.result.commands += 1
        while True:
            obj = await self.read_object()
            if obj["type"] == "error" and obj.get("code") == "flooding" and "id" not in obj:
                await asyncio.sleep(self.flood_pause)
                self.write(f"#{cid} {line}")
                continue
            if "id" in obj:
                if obj["id"] != cid:
                    raise BotError(f"reply for {obj['id']!r} while waiting for {cid!r}: {obj}")
                self.result.ids_checked += 1
                return obj
            self.events.append(obj)

    async def must(self, line: str) -> dict[str, Any]:
        reply = await self.command(line)
        if reply["type"] == "error":
            raise BotError(f"{line!r} refused: [{reply['code']}] {reply['message']}")
        return reply

    # ---- login and table -----------------------------------------------------------------------
    async def switch_and_login(self, password: str | None) -> None:
        self.write("%json")
        while True:                                    # the text greeting came before the switch
            raw = await self.reader.readline()
            if not raw:
                raise BotError("the server closed the connection before the switch")
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if line.startswith("{"):
                obj = json.loads(line)
                if obj.get("type") == "iset":
                    if self.on_line is not None:
                        self.on_line(line)
                    break
            self.prelude.append(line)
        while (await self.read_object())["type"] != "prompt":
            pass
        reply = await self.command(self.name)
        if reply["type"] == "prompt" and reply.get("prompt") == "password":
            if password is None:
                raise BotError(f"{self.name} is registered: --password needed")
            reply = await self.command(password)
        if reply["type"] not in ("logged-in", "logged-in-guest"):
            raise BotError(f"login refused: {reply}")

    async def open_table(self, options: list[tuple[str, str]]) -> int:
        await self.must("/newroom tichu")
        table = await self._table_number()
        for name, value in options:
            await self.must(f"/option {name} {value}")
        return table

    async def enter_table(self, number: int) -> None:
        await self.must(f"/room {number}")

    async def _table_number(self) -> int:
        for obj in reversed(self.events):
            if obj["type"] == "room" and obj.get("table") is not None:
                return int(obj["table"])
            if obj["type"] == "newroom":
                return int(obj["table"])
        raise BotError("no table number after /newroom")

    async def join(self, seat: int | None) -> None:
        await self.must("/join" + (f" {seat}" if seat else ""))

    async def wait_for(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read until a state object satisfies `test`."""
        while self.state is None or not test(self.state):
            obj = await self.read_object()
            if obj["type"] not in ("state", "update"):
                self.events.append(obj)
        return self.state

    # ---- playing ---------------------------------------------------------------------------------
    async def play(self, strategy_name: str, seed: int | None, start: bool) -> BotResult:
        """Play until the game at this table is over."""
        strategy = make_strategy(strategy_name, seed)
        fallback = make_strategy("random", None if seed is None else seed + 1)
        decided = 0               # the number of the last state decided
        refused_in_a_row = 0
        started = False
        while True:
            state = self.state
            if state is not None and state.get("status") == "finished":
                break
            if (start and not started and state is not None and state.get("status") == "waiting"
                    and all(state.get("names") or [None])):
                started = True
                reply = await self.command("/start")
                if reply["type"] == "error" and reply["code"] not in ("game-running",):
                    raise BotError(f"/start refused: {reply['message']}")
                continue
            if state is None or self.state_no == decided or state.get("status") != "playing":
                await self.read_object()
                continue
            decided = self.state_no
            chooser = fallback if refused_in_a_row else strategy
            command = chooser.decide(state)
            if not command:
                continue
            verb = command.split(" ", 1)[0]
            if (state.get("bombwindow_left") and verb != "bomb"
                    and my_turn_to(state) in ("play", "dragon")):
                continue           # the window's end sends a new state
            reply = await self.command(command)
            if reply["type"] == "error":
                self.result.refusals += 1
                self.result.refused.append((command, reply["code"]))
                refused_in_a_row += 1
                if refused_in_a_row > MAX_REFUSALS:
                    raise BotError(f"refused {refused_in_a_row} times in a row: {reply}")
                decided = 0        # decide the same state again (with the random fallback)
            else:
                refused_in_a_row = 0
        self.result.finished = True
        self.result.seat = (self.state or {}).get("seat")
        self.result.table = (self.state or {}).get("table")
        self.result.names = list((self.state or {}).get("names") or [])
        return self.result

    async def quit(self) -> None:
        try:
            await self.command("/quit")
        except BotError:
            pass                   # closed after the bye: fine
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


async def run_bot(*, host: str = "127.0.0.1", port: int, name: str, password: str | None = None,
                  table: int | None = None, open_table: bool = False, seat: int | None = None,
                  strategy: str = "heuristic", seed: int | None = None, start: bool | None = None,
                  options: list[tuple[str, str]] | None = None, timeout: float = 600.0,
                  table_ready: "asyncio.Future[int] | None" = None,
                  on_line: Callable[[str], None] | None = None,
                  rate: float = 0.0) -> BotResult:
    """Connect, log in, open or enter a table, sit down, play the game to its end, quit.

    With `open_table` the bot opens a new table (and passes its number to `table_ready` when
    given); otherwise it enters `table` (or waits for `table_ready`). `start` (default: the
    opener) sends /start once four sit."""
    async def go() -> BotResult:
        reader, writer = await asyncio.open_connection(host, port)
        client = BotClient(reader, writer, name, on_line=on_line, rate=rate)
        try:
            await client.switch_and_login(password)
            if open_table:
                number = await client.open_table(options or [])
                if table_ready is not None and not table_ready.done():
                    table_ready.set_result(number)
            else:
                number = table if table is not None else await table_ready  # type: ignore[misc]
                await client.enter_table(number)
            await client.join(seat)
            result = await client.play(strategy, seed, open_table if start is None else start)
            await client.quit()
            return result
        except BaseException:
            writer.close()
            raise

    return await asyncio.wait_for(go(), timeout)


def _option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"--option takes NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A Tichu bot over TCP in machine mode.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=4000)
    parser.add_argument("--name", required=True, help="login name (3-16 letters, digits, _ -)")
    parser.add_argument("--password", help="the password of a registered name")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", type=int, help="enter and join table N")
    where.add_argument("--open", action="store_true", help="open a new table")
    parser.add_argument("--seat", type=int, choices=(1, 2, 3, 4), help="the seat to take")
    parser.add_argument("--strategy", choices=STRATEGY_NAMES, default="heuristic")
    parser.add_argument("--seed", type=int, help="the strategy's random seed")
    parser.add_argument("--option", type=_option, action="append", default=[],
                        metavar="NAME=VALUE", help="a table option when opening (repeatable)")
    parser.add_argument("--start", action=argparse.BooleanOptionalAction, default=None,
                        help="send /start when four sit (default: when the bot opened the table)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds for everything")
    parser.add_argument("--rate", type=float, default=6.0,
                        help="commands per second at most, on average: keep it below the "
                             "server's --flood-rate (0: no pacing)")
    parser.add_argument("--verbose", action="store_true", help="print every line received")
    opts = parser.parse_args(argv)
    on_line = (lambda line: print(line, flush=True)) if opts.verbose else None
    try:
        result = asyncio.run(run_bot(
            host=opts.host, port=opts.port, name=opts.name, password=opts.password,
            table=opts.table, open_table=opts.open, seat=opts.seat, strategy=opts.strategy,
            seed=opts.seed, start=opts.start, options=opts.option, timeout=opts.timeout,
            on_line=on_line, rate=opts.rate))
    except asyncio.TimeoutError:
        print(f"{opts.name}: timed out after {opts.timeout:g} s", file=sys.stderr)
        return 1
    except (BotError, OSError) as e:
        print(f"{opts.name}: {e}", file=sys.stderr)
        return 1
    match = result.match or {}
    print(f"{opts.name}: table {result.table}, seat {(result.seat or 0) + 1}, "
          f"{len(result.rounds)} rounds, scores {match.get('scores')}, "
          f"winner team {match.get('winner')}; {result.commands} commands, "
          f"{result.refusals} refused", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
