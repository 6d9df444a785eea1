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
import random
from typing import Any

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred

import tichu_bot
import tichu_bot.client
from conftest import RunningServer
from lobby.text.messages import text as text_of
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
    server.bots_without_delay()
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
        assert b"%json VERSION" in greeting and b"protocols 1 2 3 4" in greeting
        writer.close()
        async with await tichu_bot.connect("127.0.0.1", server.port, "Newbie") as bot:
            return {"protocol": bot.protocol}
    got = await as_deferred(go())
    assert tichu_bot.client.PROTOCOL == PROTOCOL_VERSION == PROTOCOL_VERSIONS[-1]
    assert got["protocol"] == PROTOCOL_VERSION


@pytest.mark.parametrize("line", ["%json 0", "%json 5", "%json three"])
def test_an_unknown_version_is_refused_in_text(line: str) -> None:
    from protocol.connection.machine import parse_protocol
    assert parse_protocol(line.split(" ", 1)[1]) is None
    assert [parse_protocol(str(v)) for v in PROTOCOL_VERSIONS] == list(PROTOCOL_VERSIONS)


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_a_client_can_ask_for_the_newest_version_by_that_word(server: RunningServer) -> None:
    """Outside finding (issue 27 review, item 7): a client asks for the newest version without
    hard-coding its number: `%json newest` and `/iset protocol newest`; a refused version's
    `error` carries `params.newest` (docs/protocol.md)."""
    c = await server.client()
    c.send("%json newest")
    got = await c.expect('"iset"')
    got += await c.read_line()
    switched = json.loads(got[got.index("{"):].splitlines()[0])
    assert switched["protocol"] == PROTOCOL_VERSIONS[-1]
    await c.expect('"prompt"')
    c.send("Newest")
    await c.expect('"logged-in-guest"')
    await c.expect('"room"')
    assert (await _reply(c, "c1", "/iset protocol 1"))["protocol"] == 1
    assert (await _reply(c, "c2", "/iset protocol NEWEST"))["protocol"] == PROTOCOL_VERSIONS[-1]
    refused = await _reply(c, "c3", "/iset protocol 9")
    assert refused["code"] == "unknown-protocol"
    assert refused["params"]["newest"] == PROTOCOL_VERSIONS[-1]


# ---- protocol 4 (issue 24): the fair-play fields and objects are its own -------------------------
async def _json_client(server: Any, version: int, name: str) -> Any:
    c = await server.client()
    c.send(f"%json {version}")
    await c.expect('"prompt"')
    c.send(name)
    await c.expect('"logged-in-guest"')
    await c.expect('"room"')
    return c


async def _replies(c: Any, ident: str, line: str) -> list[dict[str, Any]]:
    """The objects up to the one answering `#ident line`, that one last."""
    c.send(f"#{ident} {line}")
    got = await c.expect(f'"id":"{ident}"')
    got += await c.read_line()
    return [json.loads(l[l.index("{"):]) for l in got.split("\n") if "{" in l]


async def _reply(c: Any, ident: str, line: str) -> dict[str, Any]:
    """The object answering `#ident line`."""
    return (await _replies(c, ident, line))[-1]


def _paths(obj: Any, prefix: str = "") -> set[str]:
    """Every field of `obj` as a path (`a`, `a.b`, `a[].b`)."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            path = f"{prefix}{key}"
            out.add(path)
            out |= _paths(value, path + ".")
    elif isinstance(obj, list):
        for item in obj:
            out |= _paths(item, prefix[:-1] + "[].")
    return out


@pytest.mark.reactor_timeout(90)
@pytest_twisted.ensureDeferred
async def test_a_protocol_3_client_sees_none_of_protocol_4s_fields(tmp_path: Any) -> None:
    """After a rated game one player left (history, finger, ranking, replay and the table's
    info all have something of protocol 4 to say), a client of protocol 3 gets the objects of
    protocol 3 exactly (a protocol-4 client's with FIELDS_SINCE taken out), and the friends
    commands answer it `needs-protocol`; in text mode they work whatever the version."""
    from protocol.render.json_lines import FIELDS_SINCE, TYPES_SINCE
    from test_fair_play import ClockedServer, play_on, quit_player, registered_game

    server = ClockedServer(tmp_path / "lobby.sqlite3")
    await server.start()
    try:
        game = await registered_game(server, {"target": "50", "grace": "30"})
        await game.play(random.Random(5), limit=6)
        await quit_player(game, "Dirk")
        server.clock.advance(31)
        await game.command("Anna", "/remove Dirk")
        await game.command("Cleo", "/accept")
        await play_on(game, random.Random(6))
        assert game.table.state == "finished" and game.table.result["left"] == ["Dirk"]
        old = await _json_client(server, 3, "Oldie")
        new = await _json_client(server, 4, "Newbie")
        asks = {"h": "/history Dirk", "f": "/finger Dirk", "r": "/rangliste", "p": "/replay 1",
                "l": "/listroom", "o": "/room 1", "i": "/spielinfo"}
        got: dict[int, dict[str, dict[str, Any]]] = {3: {}, 4: {}}
        for version, c in ((3, old), (4, new)):
            for ident, line in asks.items():
                got[version][ident] = await _reply(c, ident, line)
        new_fields = FIELDS_SINCE[4]
        for ident in asks:
            o3, o4 = got[3][ident], got[4][ident]
            kind = o4["type"]
            assert o3["type"] == kind, (o3, o4)
            later = set(new_fields.get(kind, ()))
            assert not later & _paths(o3), (kind, later & _paths(o3))
            assert _paths(o3) == _paths(o4) - later, kind
        # protocol 4 does have them here: the test looked where they are
        seen = set().union(*(_paths(o) & set(new_fields.get(o["type"], ()))
                             for o in got[4].values()))
        assert {"games[].result", "games[].left", "statistics.games_left",
                "players[].games_left", "players[].left_round", "players[].replaced_by",
                "timer", "rated", "unrated", "left", "options.timer",
                "tables[].options.timer"} <= seen, seen
        assert got[4]["f"]["statistics"]["games_left"] == 1
        assert got[4]["i"]["rated"] is True and got[4]["i"]["left"] == ["Dirk"]
        assert "timer" not in got[3]["i"] and "timer" not in got[3]["i"]["options"]
        # friends: protocol 4's objects; protocol 3 is told which version it needs
        err = await _reply(old, "n", "/notify Anna")
        assert err["type"] == "error" and err["code"] == "needs-protocol", err
        assert err["params"] == {"command": "notify", "version": 4, "protocol": 3}
        assert (await _reply(old, "q", "/friends"))["code"] == "needs-protocol"
        assert [o["type"] for o in await _replies(new, "n", "/notify Anna")][-2:] == [
            "friend-added", "ok"]
        assert (await _reply(new, "q", "/friends"))["type"] == "friends"
        old.send("#t /iset protocol 4")           # the same connection, now reading 4
        await old.expect('"id":"t"')
        assert (await _reply(old, "q2", "/friends"))["type"] == "friends"
        assert "friends" in TYPES_SINCE[4] and "table-unrated" in TYPES_SINCE[4]
    finally:
        await server.stop()


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_closing_a_table_sends_its_new_objects_only_to_protocol_4(tmp_path: Any) -> None:
    """`table-closed-by` and `closetable-done` came with /closetable after protocol 3: a client
    of protocols 1-3 gets what it got before (the move to the lobby, the command's `ok`), a
    client of protocol 4 the new objects too."""
    from test_moderation import ModeratedServer

    server = ModeratedServer(tmp_path / "lobby.sqlite3")
    await server.start()
    try:
        clients = {}
        for version in (1, 3, 4):
            c = clients[version] = await _json_client(server, version, f"Watcher{version}")
            if version == 1:
                c.send("/newroom tichu")
                await c.expect('"state"')
            else:
                await _replies(c, "r", "/room 1")
        bosses = {}
        for version in (3, 4):
            boss = bosses[version] = await server.client()
            boss.send(f"%json {version}")
            await boss.expect('"prompt"')
            boss.send("Boss")
            await boss.expect('"prompt"')
            boss.send("sesame1")
            await boss.expect('"logged-in"')
            if version == 3:                      # the first log-in is replaced by the second
                boss.transport.loseConnection()
                await boss.lost
        boss = bosses[4]
        kinds = [o["type"] for o in await _replies(boss, "c", "/closetable 1 a test")]
        assert kinds[-2:] == ["closetable-done", "ok"], kinds
        for version, c in clients.items():
            c.send(f"#w /whereis Watcher{version}")
            got = await c.expect('"id":"w"')
            assert ('"type":"table-closed-by"' in got) == (version >= 4), (version, got)
        server.server.world.open_table(server.server.world.online("Watcher3"))
        number = server.server.world.online("Watcher3").room.number
        old_boss = await server.client()
        old_boss.send("%json 3")
        await old_boss.expect('"prompt"')
        old_boss.send("Boss")
        await old_boss.expect('"prompt"')
        old_boss.send("sesame1")
        await old_boss.expect('"logged-in"')
        kinds = [o["type"] for o in await _replies(old_boss, "c", f"/closetable {number}")]
        assert kinds[-1] == "ok" and "closetable-done" not in kinds, kinds
        assert "table-closed-by" not in kinds
    finally:
        await server.stop()


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_a_seated_old_client_gets_the_idle_warning_under_its_old_code(tmp_path: Any) -> None:
    """Review of issue 24: a seated player's idle warning became `idle-warning-seated` at every
    version, so a protocol 1-3 bot matching the code `idle-warning` missed it. Before protocol 4
    it is the old `idle-warning` (code, message and params); protocol 4 and text mode get the new
    one."""
    from test_fair_play import IdleServer

    server = IdleServer(tmp_path / "lobby.sqlite3")
    await server.start()
    try:
        clients = {}
        for version in (1, 3, 4):
            c = clients[version] = await _json_client(server, version, f"Sitter{version}")
            await _replies(c, "n", "/newroom")
            await _replies(c, "j", "/join")
        text = await server.client()
        await text.login("Texter")
        text.send("/newroom")
        text.send("/join")
        await text.expect("You sit down in seat")
        server.clock.advance(81)                  # 80 s after the last line: the warning
        for version, c in clients.items():
            line = (await c.expect('"type":"error"')).split("\n")[-1] + await c.read_line()
            got = json.loads(line[line.index("{"):])
            code = "idle-warning-seated" if version >= 4 else "idle-warning"
            assert got == {"type": "error", "code": code, "message": text_of(code, seconds="20"),
                           "params": {"seconds": "20"}}, (version, got)
        await text.expect("! [idle-warning")
        assert (await text.read_line()).startswith(
            "-seated] You have not played nor spoken at your table")
    finally:
        await server.stop()


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_an_old_client_hears_that_a_shutdown_was_called_off(tmp_path: Any) -> None:
    """Review of outside finding U12: `shutdown-cancelled` is protocol 4's, so a protocol 1-3
    bot got the shutdown warning but never heard it was called off. It gets an `announcement`
    (an object it knows) by the admin, the text in its language; protocol 4 the new object."""
    from test_moderation import ModeratedServer, boss_of

    server = ModeratedServer(tmp_path / "lobby.sqlite3")
    await server.start()
    try:
        clients = {version: await _json_client(server, version, f"Bot{version}")
                   for version in (1, 3, 4)}
        await _replies(clients[3], "l", "/set lang de")
        boss = await boss_of(server)
        boss.send("/shutdown 3600")
        for c in clients.values():
            await c.expect('"type":"shutdown-warning"')
            await c.read_line()
        boss.send("/shutdown cancel")
        await boss.expect("has cancelled the shutdown")
        lines = {}
        for version, c in clients.items():
            lines[version] = await c.read_line()
            got = json.loads(lines[version])
            if version >= 4:
                assert got == {"type": "shutdown-cancelled", "by": "Boss"}, got
            else:
                assert got == {"type": "announcement", "by": "Boss", "text": text_of(
                    "shutdown-cancelled-announcement", "de" if version == 3 else "en")}, got
        assert lines[3].endswith(
            '"text":"Das Herunterfahren ist abgesagt: Der Server läuft weiter, und neue Spiele '
            'können wieder beginnen."}')
    finally:
        await server.stop()
