"""Machine mode's versions by negotiation (issue 27): a client names the version it reads
(`%json 3`, `/iset protocol 3`); one that names none gets protocol 1, what clients written before
the versions expect.

The client here is written to the protocol-1 docs as they were before protocol 2 (git history
of docs/protocol.md, "The `state` object": "After every change at a table each seated player
gets a `state`", and "What to do is in the state"): it sends `%json`, skips every line until the
first `{`, and then decides from `state` objects alone, never applying an `update` and never
asking `%state`. Over a real socket it plays a whole game with three of the server's bots."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred

import tichu_bot
import tichu_bot.client
from conftest import RunningServer
from protocol.render.json_lines import PROTOCOL_VERSION, PROTOCOL_VERSIONS


def as_deferred(coro: Any) -> Deferred:
    return Deferred.fromFuture(asyncio.ensure_future(coro))


class OldClient:
    """A bot of protocol 1: the last `state` is all it knows of the table."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.seen: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    def send(self, line: str) -> None:
        self.writer.write(line.encode() + b"\r\n")

    async def read(self) -> dict[str, Any]:
        while True:
            raw = await asyncio.wait_for(self.reader.readline(), 60)
            if not raw:
                raise EOFError("the server closed the connection")
            line = raw.decode("utf-8", "replace").strip()
            if line.startswith("{"):
                obj: dict[str, Any] = json.loads(line)
                self.seen.append(obj)
                if obj["type"] == "state":
                    self.state = obj
                return obj

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            obj = await self.read()
            if obj["type"] == kind:
                return obj


def decide(state: dict[str, Any], attempt: int) -> str | None:
    """The protocol-1 docs' "What to do is in the state", in the simplest way."""
    seat = state.get("seat")
    phase = state.get("phase")
    if state.get("status") != "playing" or seat is None:
        return None
    if phase == "grand" and not state["grand_decided"][seat]:
        return "/nogrand"
    if phase == "exchange" and "given" not in state:
        hand = state["hand"].split()
        return "/schupf " + " ".join(hand[:3])
    if phase == "play" and state.get("turn") == seat:
        legal = state.get("legal") or []
        options = [f"/play {p}" for p in legal] + (["/pass"] if state.get("can_pass") else [])
        if options:                 # the first legal play; after a refusal the next option
            return options[attempt % len(options)]
    if phase == "wish" and state.get("wish_pending") == seat:
        return "/wish 2"
    if phase == "dragon" and state.get("holder") == seat:
        return "/dragon left"
    return None


async def old_client_game(port: int) -> OldClient:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    c = OldClient(reader, writer)
    c.send("%json")
    switch = await c.until("iset")
    assert switch["value"] == "1" and switch.get("protocol", 1) == 1
    await c.until("prompt")
    c.send("Oldie")
    await c.until("logged-in-guest")
    for line in ("/newroom tichu", "/join 1", "/option target 100", "/addbot random",
                 "/addbot random", "/addbot random", "/start"):
        c.send(line)
        await c.until("ok")
    decided_on: Any = None
    attempt = 0
    for _ in range(20000):
        state = c.state
        if state is not None and state.get("status") == "finished":
            break
        if state is not None and state is not decided_on:
            line = decide(state, attempt)
            if line is not None:
                c.send(line)
                decided_on = state
        obj = await c.read()
        if obj["type"] == "error" and decided_on is not None:
            attempt += 1                 # the table moved on (a bomb): decide again
            decided_on = None
        elif obj["type"] == "state":
            attempt = 0
    c.send("/quit")
    writer.close()
    return c


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_a_client_written_to_the_protocol_1_docs_plays_a_whole_game(
        server: RunningServer) -> None:
    server.server.world.on_new_table = lambda table: setattr(table, "bot_delay", 0)
    c = await as_deferred(old_client_game(server.port))
    assert c.state is not None and c.state["status"] == "finished", c.state
    kinds = [o["type"] for o in c.seen]
    assert "update" not in kinds                 # nothing it was not written for
    assert kinds.count("state") > 30
    games = [o for o in c.seen if o["type"].startswith("game-")]
    assert "game-match-over" in kinds and all("names" in o for o in games)
    mine = [o for o in games if o["type"] in ("game-grand", "game-exchange-given", "game-play",
                                             "game-pass") and o["seat"] == 0]
    assert {"game-grand", "game-exchange-given"} <= {o["type"] for o in mine}, mine
    assert any(o["type"] in ("game-play", "game-pass") for o in mine), mine


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_the_greeting_names_the_versions_and_tichu_bot_asks_for_the_newest(
        server: RunningServer) -> None:
    async def go() -> dict[str, Any]:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        greeting = b""
        while b"login:" not in greeting:
            greeting += await asyncio.wait_for(reader.read(4096), 30)
        assert b"%json VERSION" in greeting and b"protocols 1 2 3" in greeting
        writer.close()
        async with await tichu_bot.connect("127.0.0.1", server.port, "Newbie") as bot:
            return {"protocol": bot.protocol}
    got = await as_deferred(go())
    assert tichu_bot.client.PROTOCOL == PROTOCOL_VERSION == PROTOCOL_VERSIONS[-1]
    assert got["protocol"] == PROTOCOL_VERSION


@pytest.mark.parametrize("line", ["%json 0", "%json 4", "%json three"])
def test_an_unknown_version_is_refused_in_text(line: str) -> None:
    from protocol.connection.machine import parse_protocol
    assert parse_protocol(line.split(" ", 1)[1]) is None
    assert [parse_protocol(str(v)) for v in PROTOCOL_VERSIONS] == list(PROTOCOL_VERSIONS)
