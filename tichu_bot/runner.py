"""``tichu-bot`` (``python -m tichu_bot``): a Tichu bot that plays over TCP like any user.

    tichu-bot --port 4000 --name Robo --open --seat 1 --strategy heuristic
    tichu-bot --port 4000 --name Robo2 --table 1 --strategy random

It connects in machine mode (tichu_bot.client), logs in (``--password`` for a registered name),
opens a table (``--open``, with ``--option NAME=VALUE`` for its options) or enters table
``--table N``, sits down (``--seat S``, else the first free seat), starts the game when four sit
(``--start``; the opener does by default) and plays with an installed strategy (tichu_bot.strategies:
the server's distribution provides ``heuristic``, ``random`` and ``expert``) until the game ends;
then it quits. Every command carries an id and the bot pairs
each reply with it; the strategy decides from the table's state as the client holds it (machine
mode protocol 4: the last `state` object with every `update` after it applied).
Everything is bounded by ``--timeout`` seconds; at most ``--rate`` commands per second (default 6)
so that a public server's flood control never drops its lines.

Exit status: 0 when the game ended, 1 on a timeout, a refused setup command or a closed
connection, 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tichu_bot.client import Client, ClientError, CommandRefused
from tichu_bot.strategies import make_strategy, strategy_names
from tichu_bot.view import my_turn_to

__all__ = ["BotClient", "BotError", "BotResult", "run_bot", "main", "build_parser"]

#: how often in a row the server may refuse the bot's commands before it gives up
MAX_REFUSALS = 20

#: the bot cannot go on (refused setup command, closed connection)
BotError = ClientError


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


class BotClient(Client):
    """A Client that opens or enters a table, sits down and plays a strategy to the game's end."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, name: str, *,
                 on_line: Callable[[str], None] | None = None, rate: float = 0.0,
                 burst: int = 20) -> None:
        super().__init__(reader, writer, rate=rate, burst=burst, on_line=on_line)
        self.result = BotResult(name)
        self.login_name = name

    def _track(self, obj: dict[str, Any]) -> None:
        super()._track(obj)
        if obj["type"] == "game-round-over":
            self.result.rounds.append(obj)
        elif obj["type"] == "game-match-over":
            self.result.match = obj

    async def open_table(self, options: list[tuple[str, str]]) -> int:
        await self.must("/newroom tichu")
        table = self._table_number()
        for name, value in options:
            await self.must(f"/option {name} {value}")
        return table

    async def enter_table(self, number: int) -> None:
        await self.must(f"/room {number}")

    def _table_number(self) -> int:
        for obj in reversed(self.events):
            if obj["type"] == "room" and obj.get("table") is not None:
                return int(obj["table"])
            if obj["type"] == "newroom":
                return int(obj["table"])
        raise BotError("no table number after /newroom")

    async def join(self, seat: int | None) -> None:
        await self.must("/join" + (f" {seat}" if seat else ""))

    async def play(self, strategy_name: str, seed: int | None, start: bool) -> BotResult:
        """Play until the game at this table is over."""
        strategy = make_strategy(strategy_name, seed)
        # after a refusal the random strategy decides (the same one when it is not installed)
        fallback = make_strategy("random" if "random" in strategy_names() else strategy_name,
                                 None if seed is None else seed + 1)
        decided = 0               # the state_no of the last state decided
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
                # (only the host starts, issue 24: a bot at somebody else's table waits for them)
                if reply["type"] == "error" and reply["code"] not in ("game-running",
                                                                      "host-command"):
                    raise CommandRefused("/start", reply)
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
        result = self.result
        result.finished = True
        result.seat = (self.state or {}).get("seat")
        result.table = (self.state or {}).get("table")
        result.names = list((self.state or {}).get("names") or [])
        result.commands, result.ids_checked, result.lines = self.commands, self.replies, self.lines
        return result


async def run_bot(*, host: str = "127.0.0.1", port: int, name: str, password: str | None = None,
                  table: int | None = None, open_table: bool = False, seat: int | None = None,
                  strategy: str = "heuristic", seed: int | None = None, start: bool | None = None,
                  options: list[tuple[str, str]] | None = None, timeout: float = 600.0,
                  table_ready: asyncio.Future[int] | None = None,
                  on_line: Callable[[str], None] | None = None,
                  on_open: Callable[[int], None] | None = None,
                  rate: float = 0.0) -> BotResult:
    """Connect, log in, open or enter a table, sit down, play the game to its end, quit.

    With ``open_table`` the bot opens a new table (and passes its number to ``table_ready`` and
    ``on_open`` when given); otherwise it enters ``table`` (or waits for ``table_ready``).
    ``start`` (default: the opener) sends /start once four sit."""
    async def go() -> BotResult:
        reader, writer = await asyncio.open_connection(host, port)
        client = BotClient(reader, writer, name, on_line=on_line, rate=rate)
        try:
            await client.switch()
            await client.login(name, password)
            if open_table:
                number = await client.open_table(options or [])
                if table_ready is not None and not table_ready.done():
                    table_ready.set_result(number)
                if on_open is not None:
                    on_open(number)
            else:
                if table is not None:
                    number = table
                elif table_ready is not None:
                    number = await table_ready
                else:
                    raise TypeError("a table, table_ready or open_table is needed")
                await client.enter_table(number)
            await client.join(seat)
            result = await client.play(strategy, seed, open_table if start is None else start)
            await client.close()
            return result
        except BaseException:
            writer.close()
            raise

    return await asyncio.wait_for(go(), timeout)


def option_pair(text: str) -> tuple[str, str]:
    """``--option NAME=VALUE``."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"--option takes NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def version() -> str:
    """The version of the distribution that installed this package ("unknown" without one)."""
    from importlib import metadata
    for name in metadata.packages_distributions().get(__name__.partition(".")[0], []):
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tichu-bot", description="A Tichu bot over TCP in machine mode (docs/bots.md).")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=4000)
    parser.add_argument("--name", required=True, help="login name (3-16 letters, digits, _ -)")
    secret = parser.add_mutually_exclusive_group()
    secret.add_argument("--password-file", metavar="FILE",
                        help="read the password of a registered name from the first line of "
                             f"FILE (- for standard input); or set {PASSWORD_ENV}")
    secret.add_argument("--password", help="the password on the command line (every user of "
                                           "the machine sees it in ps: use --password-file)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", type=int, help="enter and join table N")
    where.add_argument("--open", action="store_true", help="open a new table")
    parser.add_argument("--seat", type=int, choices=(1, 2, 3, 4), help="the seat to take")
    names = strategy_names()
    parser.add_argument("--strategy", choices=names,
                        default="heuristic" if "heuristic" in names or not names else names[0],
                        help="an installed strategy (default heuristic)")
    parser.add_argument("--seed", type=int, help="the strategy's random seed")
    parser.add_argument("--option", type=option_pair, action="append", default=[],
                        metavar="NAME=VALUE", help="a table option when opening (repeatable)")
    parser.add_argument("--start", action=argparse.BooleanOptionalAction, default=None,
                        help="send /start when four sit (default: when the bot opened the table)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds for everything")
    parser.add_argument("--rate", type=float, default=6.0,
                        help="commands per second at most, on average: keep it below the "
                             "server's --flood-rate (0: no pacing)")
    parser.add_argument("--verbose", action="store_true", help="print every line received")
    return parser


#: the environment variable with the password of a registered name (instead of --password-file)
PASSWORD_ENV = "TICHU_BOT_PASSWORD"


def read_password(opts: argparse.Namespace) -> str | None:
    """The password: --password-file, else --password (with a warning), else TICHU_BOT_PASSWORD,
    else None (a guest)."""
    if opts.password_file is not None:
        if opts.password_file == "-":
            line = sys.stdin.readline()
        else:
            with open(opts.password_file, encoding="utf-8") as f:
                line = f.readline()
        return line.rstrip("\r\n")
    if opts.password is not None:
        print(f"{opts.name}: warning: --password shows the password to every user of this "
              f"machine (ps); use --password-file FILE or {PASSWORD_ENV}", file=sys.stderr)
        return str(opts.password)
    return os.environ.get(PASSWORD_ENV) or None


def main(argv: Sequence[str] | None = None) -> int:
    opts = build_parser().parse_args(argv)
    try:
        password = read_password(opts)
    except OSError as e:
        print(f"{opts.name}: cannot read the password file {opts.password_file!r}: "
              f"{e.strerror or e}", file=sys.stderr)
        return 2
    on_line = (lambda line: print(line, flush=True)) if opts.verbose else None

    def opened(number: int) -> None:
        # at once, before the game: the author tells the other players where to sit
        print(f"{opts.name}: opened table {number}; others sit down with /join {number} "
              f"(tichu-bot --table {number})", flush=True)
    try:
        result = asyncio.run(run_bot(
            host=opts.host, port=opts.port, name=opts.name, password=password,
            table=opts.table, open_table=opts.open, seat=opts.seat, strategy=opts.strategy,
            seed=opts.seed, start=opts.start, options=opts.option, timeout=opts.timeout,
            on_line=on_line, on_open=opened, rate=opts.rate))
    except TimeoutError:
        print(f"{opts.name}: timed out after {opts.timeout:g} s", file=sys.stderr)
        return 1
    except (ClientError, OSError) as e:
        print(f"{opts.name}: {e}", file=sys.stderr)
        return 1
    match = result.match or {}
    print(f"{opts.name}: table {result.table}, seat {(result.seat or 0) + 1}, "
          f"{len(result.rounds)} rounds, scores {match.get('scores')}, "
          f"winner team {match.get('winner')}; {result.commands} commands, "
          f"{result.refusals} refused", file=sys.stderr)
    return 0
