"""Issue 26: `/set` without arguments shows the connection's settings; `/set prompt on` gives a
MUD client a status prompt (cards, whose move, the score) after each change of its game, ended
by IAC EOR (telnet option 25) once the client agreed to EOR, by IAC GA before; over real
sockets. Machine mode below protocol 4 refuses `/set` alone as it always did."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest_twisted
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

from conftest import LineClient, RunningServer, within
from test_schema import VALIDATOR

IAC, WILL, WONT, DO, EOR, EOR_MARK, GA, NAWS = 255, 251, 252, 253, 25, 239, 249, 31


class MudClient(LineClient):
    """A telnet client that keeps the raw bytes and agrees to EOR when the server offers it."""

    def __init__(self) -> None:
        super().__init__()
        self.raw = b""

    def dataReceived(self, data: bytes) -> None:
        self.raw += data
        if bytes((IAC, DO, NAWS)) in data:          # a telnet client answers the offers
            self.transport.write(bytes((IAC, WONT, NAWS)))
        if bytes((IAC, WILL, EOR)) in data:
            self.transport.write(bytes((IAC, DO, EOR)))
        super().dataReceived(data)


async def mud_client(server: RunningServer) -> MudClient:
    from twisted.internet import reactor
    c = MudClient()
    await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", server.port), c))
    server.clients.append(c)
    return c


@pytest_twisted.ensureDeferred
async def test_set_alone_shows_the_settings(server: RunningServer) -> None:
    c = await server.client()
    await c.login("Setty")
    c.send("/set color on")
    await c.expect("Color is on now.\r\n")
    c.send("/set")
    got = await c.expect("prompt  off\r\n")
    assert "Your settings (/set NAME VALUE changes one):" in got
    for line in ("  width   auto (80)", "  color   on", "  lang    en (English)", "  bell    off"):
        assert line in got, got
    c.send("/set width 60")
    await c.expect("Width is 60 now.\r\n")
    c.send("/set lang de")
    await c.expect("\r\n")
    c.send("/set")
    got = await c.expect("prompt  aus\r\n")      # on and off in the reader's language
    assert "Deine Einstellungen" in got and "  width   60" in got and "  lang    de (Deutsch)" in got
    c.send("/set color")                     # a name without a value: the usage, as before
    assert "! [bad-arguments]" in await c.expect("\r\n")


@pytest_twisted.ensureDeferred
async def test_machine_mode_below_protocol_4_refuses_set_alone_as_before(
        server: RunningServer) -> None:
    c = await server.client()
    await c.expect("login: ")
    c.send("%json 3")
    await c.expect('"prompt"')
    c.send("#login Botty")
    await c.expect('"room"')
    c.send("#s /set")
    got = json.loads([l for l in (await c.expect("bad-arguments")
                            + await c.expect("\n")).splitlines() if l.strip()][-1])
    assert (got["type"], got["code"], got["params"], got["id"]) == (
        "error", "bad-arguments", {"usage": "/set NAME VALUE"}, "s"), got     # as before
    # from protocol 4 on: the settings object (in the schema)
    c.send("/iset protocol 4")
    await c.expect('"iset"')
    c.send("#t /set")
    got = json.loads([l for l in (await c.expect('"settings"') + await c.expect("\n")).splitlines()
                      if l.strip()][-1])
    assert got["type"] == "settings" and got["id"] == "t", got
    assert got["settings"] == {"width": "auto", "color": "off", "lang": "en", "bell": "off",
                               "prompt": "off"} and got["width"] == 80
    VALIDATOR.validate(got)


@pytest_twisted.ensureDeferred
async def test_set_prompt_on_gives_a_status_prompt_ended_by_eor(server: RunningServer) -> None:
    c = await mud_client(server)
    await c.login("Mudder")
    c.send("/set prompt on")
    await c.expect("Status prompt is on now.\r\n")
    c.send("/newroom")
    await c.expect("/start when four sit.\r\n")
    world: Any = server.server.world
    table = world.tables[world.online("Mudder").room.number]
    table.bot_delay = 0
    c.send("/join")
    await c.expect("You sit down in seat 1.\r\n")
    for _ in range(3):
        c.send("/addbot")
        await c.expect(" in seat ")
    before = len(c.raw)
    c.send("/start")
    await c.expect("Grand Tichu? /grand or /nogrand\r\n")
    await c.expect("your move | us 0 : 0 them] ")
    raw = c.raw[before:]
    assert b"[8 cards | your move | us 0 : 0 them] " + bytes((IAC, EOR_MARK)) in raw
    assert bytes((IAC, GA)) not in raw                   # EOR agreed: no GA after a prompt
    c.send("/nogrand")
    await c.expect("[14 cards | your move | us 0 : 0 them] ")   # the exchange waits for you


@pytest_twisted.ensureDeferred
async def test_set_prompt_on_in_machine_mode_offers_no_eor(server: RunningServer) -> None:
    """The output mode decides: a program's prompts are `prompt` objects, so machine mode
    offers no telnet EOR (text mode does: the test above)."""
    c = await mud_client(server)
    await c.expect("login: ")
    c.send("%json 4")
    await c.expect('"prompt"')
    c.send("#login Botter")
    await c.expect('"room"')
    c.send("#p /set prompt on")
    await c.expect('"setting"')
    c.send("#w /who")
    await c.expect('"id":"w"')
    assert bytes((IAC, WILL, EOR)) not in c.raw


class RefusingClient(MudClient):
    """A plain telnet client: it speaks telnet (answers the offers) but refuses EOR."""

    def dataReceived(self, data: bytes) -> None:
        self.raw += data
        if bytes((IAC, DO, NAWS)) in data:
            self.transport.write(bytes((IAC, WONT, NAWS)))
        if bytes((IAC, WILL, EOR)) in data:
            self.transport.write(bytes((IAC, 254, EOR)))          # IAC DONT EOR
        LineClient.dataReceived(self, data)


async def watched_round(server: RunningServer, c: MudClient, name: str) -> bytes:
    """``c`` (logged in as ``name``, /set prompt on) opens a table of four bots, starts it and
    watches a round; the raw bytes it got from the start on."""
    c.send("/set prompt on")
    await c.expect("prompt is on now.\r\n")
    c.send("/newroom")
    await c.expect("four sit.\r\n")
    world: Any = server.server.world
    world.tables[world.online(name).room.number].bot_delay = 0
    for line in ("/addbot", "/addbot", "/addbot", "/addbot", "/option round 1",
                 "/option seed 2"):
        c.send(line)
    before = len(c.raw)
    c.send("/start")
    await c.expect("Round over")
    return c.raw[before:]


STATUS = re.compile(rb"\[[^\]\r\n]* to play \| [^\]\r\n]*\] ")


@pytest_twisted.ensureDeferred
async def test_output_after_a_prompt_starts_on_a_line_of_its_own_without_eor(
        server: RunningServer) -> None:
    """Issue 26 telnet review, item 5: on plain telnet (EOR refused) the status prompt
    ``[14 cards | Bot1 to play | us 0 : 0 them] `` has no line end, and the next line (a bot's
    move) went on after it, beyond 80 columns. Output that follows a prompt the client was not
    told is one (no EOR) starts with CR LF, as MUD servers do; a client that agreed to EOR
    gets its prompts as before."""
    c = RefusingClient()
    from twisted.internet import reactor
    await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", server.port), c))
    server.clients.append(c)
    await c.login("Plain")
    raw = await watched_round(server, c, "Plain")
    prompts = list(STATUS.finditer(raw))
    assert len(prompts) > 5, raw[-2000:]
    for m in prompts:
        after = raw[m.end():].removeprefix(bytes((IAC, GA)))
        assert after == b"" or after.startswith(b"\r\n"), raw[m.start():m.end() + 80]
    text = re.sub(rb"\xff[\xfb-\xfe][\x00-\xff]|\xff[\xf0-\xfa]", b"", raw).decode()
    assert [line for line in text.split("\r\n") if len(line) >= 80] == []

    mud = await mud_client(server)
    await mud.login("Mudder")
    raw = await watched_round(server, mud, "Mudder")
    marked = [m for m in STATUS.finditer(raw) if raw[m.end():].startswith(bytes((IAC, EOR_MARK)))]
    assert len(marked) > 5
    assert not any(raw[m.end() + 2:].startswith(b"\r\n") for m in marked)   # as before
