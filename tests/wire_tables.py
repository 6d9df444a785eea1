"""Helpers for the end-to-end table tests: clients over real loopback sockets that record every
byte they receive and check, line by line as it arrives, that it names no card hidden from them
at that moment; and a driver that plays engine-legal moves as typed text commands.

The server runs in the test's process, so the driver may look at the table's Match to choose
legal moves and to know which cards are hidden from whom; everything the clients do goes over
the wire as text. After each command the driver settles: it waits until the command's sender
and then every other client have had an answer to a probe line sent after it, so all output the
command caused has arrived before the next command changes the game (and the check of a line
sees the game as it was when the line was written).
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from twisted.internet import reactor
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

from conftest import LineClient, RunningServer, strip_telnet, within
from lobby.text.messages import ERRORS
from lobby.tichu.cards import Card
from table_support import LEGEND_LINES, card_tokens, hidden_cards, legal_command

ERROR_LINE = re.compile(r"^! \[([a-z0-9-]+)\] ")
ROUND_BEGINS = re.compile(r"^Round (\d+) begins\.$")


class WireClient(LineClient):
    """A LineClient that keeps all raw bytes and checks every complete line for hidden cards."""

    def __init__(self, name: str, game: WireGame) -> None:
        super().__init__()
        self.name = name
        self.game = game
        self.raw = bytearray()
        self.lines: list[str] = []
        self.typed: list[str] = []      # the last lines this client sent
        self._partial = ""
        self.leaks: list[tuple[str, set[Card]]] = []
        self.checked_lines = 0
        self.round_no: int | None = None       # of the last "Round N begins." line received
        self._error: str | None = None         # the code of the error line just received

    def dataReceived(self, data: bytes) -> None:
        self.raw += data
        text = self._partial + strip_telnet(data).decode("utf-8", "replace")
        *complete, self._partial = text.split("\r\n")
        for line in complete:
            self.lines.append(line)
            self._check_hidden(line)
        super().dataReceived(data)

    def send(self, line: str) -> None:
        self.typed = [*self.typed, line][-4:]
        super().send(line)

    def _check_hidden(self, line: str) -> None:
        if line in LEGEND_LINES:       # the card legend names the specials (Ma Hu Ph Dr) in
            return                     # notation: no card of anybody's
        begins = ROUND_BEGINS.match(line)
        if begins:
            self.round_no = int(begins.group(1))
        error = ERROR_LINE.match(line)
        # (a continuation line of a wrapped error line, two spaces in, belongs to the error)
        code = error.group(1) if error else (self._error if line.startswith("  ") else None)
        self._error = code
        hidden = self.game.hidden_for(self.name, self.round_no)
        self.checked_lines += 1
        if not hidden:
            return
        shown = card_tokens(line)
        if code:        # a refusal may echo what this client typed, and its template's examples
            shown -= card_tokens(self.typed) | card_tokens(ERRORS.get(code, ""))
        leak = shown & hidden
        if leak:
            self.leaks.append((line, leak))

    def since(self, mark: int) -> list[str]:
        return self.lines[mark:]


class WireGame:
    """Four players (and spectators) at one table of a running server."""

    def __init__(self, server: RunningServer, players: list[str], spectators: list[str] = ()
                 ) -> None:
        self.server = server
        self.players = players
        self.spectators = list(spectators)
        self.clients: dict[str, WireClient] = {}
        self.table: Any = None
        self.commands_sent = 0
        self.rounds: dict[int, tuple[Any, list[str | None]]] = {}   # round_no -> (Round, seated)

    @property
    def world(self) -> Any:
        return self.server.server.world

    async def connect(self, name: str) -> WireClient:
        client = WireClient(name, self)
        await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", self.server.port),
                                     client))
        self.server.clients.append(client)
        await client.login(name)
        self.clients[name] = client
        return client

    async def setup(self, options: dict[str, str], *, start: bool = True,
                    joins: list[str] | None = None, starter: str | None = None) -> None:
        """Everybody logs in (unless connected already); the first player opens a table, sets
        `options`; the others and the spectators enter; the players join (in order `joins`);
        `starter` (the first player) starts."""
        for name in self.players + self.spectators:
            if name not in self.clients:
                await self.connect(name)
        host = self.players[0]
        await self.say(host, "/newroom tichu", "You open table ")
        number = self.world.online(host).room.number
        self.table = self.world.tables[number]
        self.table.bot_delay = 0
        for name in self.players[1:] + self.spectators:
            await self.say(name, f"/room {number}", f"You are watching table {number}.")
        for option, value in options.items():
            await self.say(host, f"/option {option} {value}", f"sets {option} to ")
        for name in joins or self.players:
            await self.say(name, "/join", "You sit down in seat ")
        await self.settle()
        if start:
            await self.say(starter or host, "/start", "the game starts")
            await self.settle()

    async def say(self, name: str, line: str, expect: str, timeout: float = 5.0) -> str:
        """Send `line` from `name`, wait for `expect` in its output; returns what arrived."""
        c = self.clients[name]
        c.buffer = ""
        c.send(line)
        return await c.expect(expect, timeout)

    async def probe(self, name: str) -> None:
        c = self.clients[name]
        c.send(f"/whereis {name}")
        await c.expect(f"{name} is in the ", 5.0)
        c.buffer = ""

    async def settle(self, first: str | None = None) -> None:
        if first is not None:
            await self.probe(first)
        for name in self.clients:
            if name != first:
                await self.probe(name)

    async def command(self, name: str, line: str) -> list[str]:
        """Send one command from `name`, settle; the lines `name` got in answer."""
        c = self.clients[name]
        mark = len(c.lines)
        c.buffer = ""
        c.send(line)
        self.commands_sent += 1
        await self.settle(first=name)
        return [l for l in c.since(mark) if not l.startswith(f"{name} is in the ")]

    # ---- what is hidden from whom, now --------------------------------------------------------
    def hidden_for(self, name: str, round_no: int | None = None) -> set[Card]:
        """The cards hidden from `name` now, in round `round_no` of the game (default: the
        current one). A command that ends a round also deals the next one, so the last lines of
        a round arrive when the next round's cards are out already: they are checked against the
        round they are about (its final state), which `rounds` keeps."""
        table = self.table
        if table is None or table.match is None or table.state != "playing":
            return set()
        current = table.match.round_no
        if current not in self.rounds:
            self.rounds[current] = (table.match.round, table.seated)
        rnd, seated = self.rounds.get(round_no or current, self.rounds[current])
        return hidden_cards(rnd, seated.index(name) if name in seated else None)

    def leaks(self) -> list[tuple[str, str, set[Card]]]:
        return [(name, line, leak) for name, c in self.clients.items() for line, leak in c.leaks]

    # ---- playing ---------------------------------------------------------------------------------
    def choose(self, rng: random.Random, *, tichu: float = 0.05, grand: float = 0.05
               ) -> tuple[str, str]:
        """Some player's engine-legal move, as the text line that player types."""
        name, command, args = legal_command(self.table.match, self.table.players, rng,
                                            tichu=tichu, grand=grand)
        if isinstance(args, dict):
            args = args["cards"]
        return name, f"/{command}" + (f" {args}" if args else "")

    async def play(self, rng: random.Random, *, until: Callable[[], bool] | None = None,
                   limit: int = 5000) -> int:
        """Play legal moves over the wire until the game ends (or `until()`); every command must
        be accepted (no error line in its answer)."""
        steps = 0
        while self.table.state == "playing" and steps < limit:
            if until is not None and until():
                break
            name, line = self.choose(rng)
            answer = await self.command(name, line)
            errors = [l for l in answer if ERROR_LINE.match(l)]
            assert not errors, (name, line, errors)
            steps += 1
        return steps
