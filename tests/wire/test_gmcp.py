"""GMCP (telnet option 201): a client that agrees gets Room.Info, Tichu.State and Tichu.Event with
the machine-mode objects, unknown GMCP messages are ignored silently, and a client that never
negotiates never receives a subnegotiation (IAC SB)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest_twisted
from jsonschema import Draft202012Validator

from conftest import FakeClient, FakeLobby, within
from protocol import json_schema

IAC, SB, SE, DO, WILL, GMCP = 255, 250, 240, 253, 251, 201
SCHEMA = json_schema()
VALIDATOR = Draft202012Validator(SCHEMA)


def gmcp(package: str, data: Any = None) -> bytes:
    body = package if data is None else package + " " + json.dumps(data)
    return bytes((IAC, SB, GMCP)) + body.encode() + bytes((IAC, SE))


def messages(raw: bytes) -> list[tuple[str, Any]]:
    """The GMCP messages in `raw` (package, data)."""
    out = []
    start = bytes((IAC, SB, GMCP))
    at = raw.find(start)
    while at >= 0:
        end = raw.find(bytes((IAC, SE)), at)
        body = raw[at + 3:end].replace(b"\xff\xff", b"\xff").decode("utf-8")
        package, _, payload = body.partition(" ")
        out.append((package, json.loads(payload) if payload else None))
        at = raw.find(start, end)
    return out


def play_bot_game(lobby: FakeLobby, c: FakeClient) -> bytes:
    """`c` (logged in) opens a table, seats four bots, starts; the clock runs to the end."""
    c.send("/newroom")
    table = lobby.world.tables[1]
    table.bot_delay = 0
    for seat in range(4):
        c.send(f"/addbot {seat + 1} random")
    c.send("/option target 100")
    c.send("/start")
    raw = bytearray()
    for _ in range(20000):
        if table.state != "playing":
            break
        lobby.clock.advance(0.01)
        raw += c.raw()
    assert table.state == "finished"
    return bytes(raw)


def test_gmcp_client_gets_room_info_state_and_events(lobby: FakeLobby) -> None:
    c = lobby.connect()
    assert c.raw().startswith(bytes((IAC, WILL, GMCP)))      # offered at connect
    c.send(bytes((IAC, DO, GMCP)))
    c.send(gmcp("Core.Hello", {"client": "Mudlet", "version": "4.17"}))
    c.send(gmcp("Core.Supports.Set", ["Tichu 1", "Room 1"]))
    assert c.session.gmcp.enabled
    assert c.session.gmcp.client == {"client": "Mudlet", "version": "4.17"}
    assert c.session.gmcp.supports == {"Tichu": 1, "Room": 1}
    c.send("Anna")
    c.send("")                      # "Anna" is not a registered name: Enter confirms
    raw = c.raw()
    assert ("Room.Info", {"num": 0, "name": "Lobby", "table": None}) in messages(raw)
    assert b"Anna" in raw and b"{" not in raw.split(bytes((IAC, SB)))[0]   # text stays text
    c.send("/newroom")
    got = messages(c.raw())
    assert ("Room.Info", {"num": 1, "name": "Table 1 room", "table": 1}) in got
    assert any(p == "Tichu.State" and d["status"] == "waiting" for p, d in got)
    rest = messages(play_bot_game(lobby, c))
    states = [d for p, d in rest if p == "Tichu.State"]
    events = [d for p, d in rest if p == "Tichu.Event"]
    assert len(states) > 20 and states[-1]["status"] == "finished"
    assert {"game-play", "game-round-over", "game-match-over"} <= {e["type"] for e in events}
    for _, data in rest[:40] + rest[-40:]:          # (every line: tests/e2e/test_bot_client.py)
        VALIDATOR.validate(data)
    c.send("/join")                                  # an error whose code starts with game-
    raw = c.raw()
    assert b"[game-finished]" in raw and messages(raw) == []


def test_unknown_gmcp_is_ignored_silently(lobby: FakeLobby) -> None:
    c = lobby.connect()
    c.raw()
    c.send(bytes((IAC, DO, GMCP)))
    c.send("Anna")
    c.send("")                      # "Anna" is not a registered name: Enter confirms
    c.raw()
    c.send(gmcp("Char.Vitals", {"hp": 3}) + gmcp("Nonsense")
           + bytes((IAC, SB, GMCP)) + b"Broken {not json" + bytes((IAC, SE)))
    assert c.raw() == b""
    c.send("/who")
    assert c.text().startswith("In the lobby")


def test_a_client_that_never_negotiates_gets_no_subnegotiation(lobby: FakeLobby) -> None:
    c = lobby.connect()
    raw = c.raw()
    c.send("Anna")
    c.send("")                      # "Anna" is not a registered name: Enter confirms
    raw += c.raw() + play_bot_game(lobby, c)
    assert bytes((IAC, SB)) not in raw
    assert bytes((IAC, 249)) not in raw                     # nor GA
    # only the offers at connect: WILL GMCP, WILL MSSP, WILL MCCP2, WILL CHARSET, DO TTYPE,
    # DO NAWS
    offers = bytes((IAC, WILL, GMCP, IAC, WILL, 70, IAC, WILL, 86, IAC, WILL, 42, IAC, DO, 24,
                    IAC, DO, 31))
    assert raw.startswith(offers) and raw.count(bytes((IAC,))) == 6
    assert b"Game over" in raw


def test_refused_gmcp_sends_nothing(lobby: FakeLobby) -> None:
    c = lobby.connect()
    c.raw()
    c.send(bytes((IAC, 254, GMCP)))                          # DONT GMCP
    c.send("Anna")
    c.send("")                      # "Anna" is not a registered name: Enter confirms
    c.send("/newroom")
    assert bytes((IAC, SB)) not in c.raw()


# ---- the side channel under abuse ---------------------------------------------------------------
def _side_channel_lines(events: list[dict[str, Any]]) -> list[str]:
    """What the server logged about subnegotiations and floods (one entry = one log line): the
    lines of the telnet layer and of the flood guard, not those of logins, tables or the journal
    (the global observer also sees what other servers of the same test process log)."""
    from twisted.logger import formatEvent
    return [formatEvent(e) for e in events if _namespace(e) in SIDE_CHANNEL]


#: the modules that log about subnegotiations (GMCP and the other telnet options) and floods
SIDE_CHANNEL = frozenset({"protocol.telnet", "protocol.telnet_options", "protocol.guard"})


def _namespace(event: dict[str, Any]) -> str:
    return str(event.get("log_namespace", ""))


def _connection_failures(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tracebacks of the connection layer (protocol.*: telnet, guard, session, server)."""
    return [e for e in events if e.get("log_failure") is not None
            and _namespace(e).startswith("protocol.")]


def _bad_gmcp(count: int) -> bytes:
    """`count` invalid GMCP messages of every kind: bad JSON, not UTF-8, no package, too deep."""
    kinds = [gmcp("Core.Hello") .replace(b"Core.Hello", b"Core.Hello {nope"),
             bytes((IAC, SB, GMCP)) + b"Core.Hello \xc3\x28" + bytes((IAC, SE)),
             bytes((IAC, SB, GMCP)) + b"   " + bytes((IAC, SE)),
             bytes((IAC, SB, GMCP)) + b"Core.Hello " + b"[" * 5000 + bytes((IAC, SE))]
    return b"".join(kinds[i % len(kinds)] for i in range(count))


def test_3000_bad_gmcp_messages_are_logged_once(lobby: FakeLobby, logged: Any) -> None:
    c = lobby.connect()
    c.send(bytes((IAC, DO, GMCP)))
    c.login("Anna")
    c.raw()
    del logged[:]
    c.send(_bad_gmcp(3000))                         # one burst, flood control off (Limits())
    c.send("/who")
    assert c.lines() == ["In the lobby (1): Anna"]  # the connection goes on
    during = _side_channel_lines(logged)
    assert len(during) == 1 and "Ignored a subnegotiation for option 201" in during[0]
    assert not [e for e in logged if e.get("log_failure") is not None]   # ([[[[...: no traceback
    c.send("/quit")
    after = _side_channel_lines(logged)
    assert any("sent 3000 invalid or oversized subnegotiations in all" in t for t in after)
    assert len(after) == 2                          # + the summary


def test_oversized_subnegotiations_of_any_option_are_dropped_and_logged_once(
        lobby: FakeLobby, logged: Any) -> None:
    c = lobby.connect()
    c.login("Anna")
    c.raw()
    del logged[:]
    naws = bytes((IAC, SB, 31)) + b"\x00" * 9000 + bytes((IAC, SE))   # not even GMCP
    c.send(naws * 10 + b"/who\r\n")
    assert c.lines() == ["In the lobby (1): Anna"]
    lines = _side_channel_lines(logged)
    assert len(lines) == 1 and "9000 bytes, more than the limit of 8192" in lines[0]


def test_subnegotiations_count_toward_flood_control(clock: Any, logged: Any) -> None:
    from protocol.connection.guard import Guard, Limits
    lobby = FakeLobby(clock)
    guard = Guard(Limits(flood_rate=20, flood_burst=20, flood_kick=500), clock, lobby.world)
    lobby.factory.services.guard = guard
    c = lobby.connect()
    c.send(bytes((IAC, DO, GMCP)))                  # (negotiation is no subnegotiation)
    c.raw()
    del logged[:]
    for i in range(20):                             # the whole burst, as GMCP (at login:)
        c.send(gmcp("Core.Supports.Add", [f"P{i} 1"]))
    assert len(c.session.gmcp.supports) == 20
    c.send(gmcp("Core.Supports.Add", ["Late 1"]))   # no token left: dropped, warned once
    assert "Late" not in c.session.gmcp.supports
    lines = c.lines()           # one line, wrapped at 80 columns
    assert len(lines) == 2 and lines[0].startswith("! [flooding] ") and lines[1][:2] == "  "
    c.send(_bad_gmcp(3000))                         # the burst: dropped, then the kick
    assert c.closed and guard.stats["flood_kicks"] == 1
    assert "[flood-disconnect]" in c.text()
    assert len(_side_channel_lines(logged)) <= 2    # the flood kick (and the summary)


def test_core_supports_and_core_hello_are_bounded(lobby: FakeLobby) -> None:
    c = lobby.connect()
    c.send(bytes((IAC, DO, GMCP)))
    c.send(gmcp("Core.Supports.Set", ["Room 1"]))
    for start in range(0, 1000, 50):
        c.send(gmcp("Core.Supports.Add", [f"Pkg{i} 1" for i in range(start, start + 50)]))
    supports = c.session.gmcp.supports
    assert len(supports) == 64 and supports["Room"] == 1 and "Pkg999" not in supports
    c.send(gmcp("Core.Supports.Remove", ["Room"]))
    c.send(gmcp("Core.Supports.Add", ["Tichu 1", "x" * 500 + " 1", "bad name 1", "9lives 1"]))
    assert "Tichu" in c.session.gmcp.supports and "Room" not in c.session.gmcp.supports
    assert len(c.session.gmcp.supports) == 64
    assert all(len(k) <= 64 and " " not in k for k in c.session.gmcp.supports)
    c.send(gmcp("Core.Hello", {"client": "M" * 3000, "version": "1", "junk": [1] * 500,
                               **{f"k{i}": i for i in range(100)}}))
    hello = c.session.gmcp.client
    assert hello["client"] == "M" * 100 and hello["version"] == "1" and "junk" not in hello
    assert len(hello) <= 8
    assert "Hello Anna!" in c.login("Anna")


@pytest_twisted.ensureDeferred
async def test_a_burst_of_3000_bad_gmcp_messages_over_a_socket(tmp_path: Path,
                                                               logged: Any) -> None:
    """The public flood limits on a real server: one connection sends 3,000 invalid GMCP
    messages at once; it is warned, then closed, the others go on; a few log lines in all."""
    from conftest import RunningServer
    from protocol.connection.guard import Limits

    class Guarded(RunningServer):
        server_options = {"limits": Limits.public(max_connections=100)}

    srv = Guarded(tmp_path / "lobby.sqlite3")
    await srv.start()
    try:
        other = await srv.client()
        await other.login("Other")
        bad = await srv.client()
        await bad.login("Flooder")
        await other.expect("Flooder enters the lobby.\r\n")
        before = len(_side_channel_lines(logged))
        bad.transport.write(bytes((IAC, DO, GMCP)) + _bad_gmcp(3000))
        await within(bad.lost, 30)
        told = bad.buffer
        # (3.7 MB of them: the byte budget or the flood control closes it, whichever first)
        assert (("! [flooding]" in told and "! [flood-disconnect]" in told)
                or ("! [input-flood]" in told and "! [input-flood-disconnect]" in told)), told
        await other.expect("Flooder leaves the lobby.\r\n", timeout=30)
        other.send("/who")
        assert await other.read_line(timeout=30) == "In the lobby (1): Other"
        lines = _side_channel_lines(logged)[before:]
        assert 1 <= len(lines) <= 5, lines
        assert any("closing the connection of Flooder" in t for t in lines), lines
        assert not _connection_failures(logged)
    finally:
        await srv.stop()


def test_a_gmcp_client_gets_its_friends_news_as_tichu_friend(lobby: FakeLobby) -> None:
    """Friends (/notify, lobby/world/friends.py): each friend-* object also as GMCP Tichu.Friend,
    with its text in the connection's language; the text lines stay."""
    c = lobby.connect()
    c.raw()
    c.send(bytes((IAC, DO, GMCP)))
    c.send("Anna")
    c.send("")
    c.send("/set lang de")
    c.raw()
    c.send("/notify Bert")
    got = c.raw()
    assert ("Tichu.Friend", {"type": "friend-added", "name": "Bert", "online": False}) in \
        messages(got)
    assert b"Bert steht jetzt auf deiner Freundesliste" in got
    bert = lobby.connect()
    bert.login("Bert")
    got = c.raw()
    [(_package, data)] = [m for m in messages(got) if m[0] == "Tichu.Friend"]
    assert data == {"type": "friend-online", "name": "Bert",
                    "text": "Dein Freund Bert ist jetzt online."}
    VALIDATOR.validate(data)
    assert b"Dein Freund Bert ist jetzt online.\r\n" in got           # and the text line


def test_every_gmcp_watcher_gets_the_friends_news(lobby: FakeLobby) -> None:
    """One friend-online event goes to all who watch the name: each GMCP client gets its
    Tichu.Friend copy, the second as well as the first (the text bytes they share did not
    carry it before), and the text line."""
    watchers = []
    for name in ("Anna", "Bert", "Cleo"):
        c = lobby.connect()
        c.send(bytes((IAC, DO, GMCP)))
        c.login(name)
        c.send("/notify Zora")
        c.raw()
        watchers.append(c)
    lobby.connect().login("Zora")
    for c in watchers:
        got = c.raw()
        assert [m for m in messages(got) if m[0] == "Tichu.Friend"] == [
            ("Tichu.Friend", {"type": "friend-online", "name": "Zora",
                              "text": "Your friend Zora is online now."})], c.session.user
        assert b"Zora is online now.\r\n" in got


def test_core_ping_is_answered(lobby: FakeLobby) -> None:
    """Issue 27: Core.Ping gets Core.Ping back (a MUD client's latency measure)."""
    c = lobby.connect()
    c.raw()
    c.send(bytes((IAC, DO, GMCP)))
    c.send(gmcp("Core.Ping"))
    assert messages(c.raw()) == [("Core.Ping", None)]
    c.send(gmcp("core.ping", 120))               # with the client's last latency, any case
    assert messages(c.raw()) == [("Core.Ping", None)]


def test_tichu_packages_only_to_clients_that_listed_them(lobby: FakeLobby) -> None:
    """Issue 27: a client that sent Core.Supports without Tichu gets no Tichu.* (Room.Info
    still); one that never sent Core.Supports gets everything, as before (the first test)."""
    c = lobby.connect()
    c.raw()
    c.send(bytes((IAC, DO, GMCP)))
    c.send(gmcp("Core.Supports.Set", ["Room 1", "Char 1"]))
    c.send("Anna")
    c.send("")
    c.raw()
    c.send("/newroom")
    got = messages(c.raw() + play_bot_game(lobby, c))
    assert ("Room.Info", {"num": 1, "name": "Table 1 room", "table": 1}) in got
    assert not [p for p, _ in got if p.startswith("Tichu")]
    c.send(gmcp("Core.Supports.Add", ["Tichu 1"]))
    c.send("/look")
    assert any(p == "Tichu.State" for p, _ in messages(c.raw()))


def gmcp_guest(lobby: FakeLobby, name: str, supports: list[str] | None) -> FakeClient:
    """A GMCP client (Core.Supports.Set `supports` unless None) logged in as the guest `name`."""
    c = lobby.connect()
    c.raw()
    c.send(bytes((IAC, DO, GMCP)))
    if supports is not None:
        c.send(gmcp("Core.Supports.Set", supports))
    c.send(name)
    c.send("")
    c.raw()
    return c


def plain_guest(lobby: FakeLobby, name: str) -> FakeClient:
    c = lobby.connect()
    c.send(name)
    c.send("")
    c.raw()
    return c


def test_chat_goes_out_as_comm_channel_text_to_clients_that_listed_it(lobby: FakeLobby) -> None:
    """Issue 27: a client that listed Comm.Channel gets Comm.Channel.List when it does, and each
    line of speech in its room and each whisper as Comm.Channel.Text (the text as text mode
    shows it) besides the text line; also after two text-mode listeners of the same speech,
    whose shared bytes it does not take."""
    bob = plain_guest(lobby, "Bob")
    cara = plain_guest(lobby, "Cara")
    c = lobby.connect()
    c.raw()
    c.send(bytes((IAC, DO, GMCP)))
    c.send(gmcp("Core.Supports.Set", ["Room 1", "Comm.Channel 1"]))
    assert messages(c.raw()) == [("Comm.Channel.List", [
        {"name": "say", "caption": "Speech in your room", "command": ""},
        {"name": "tell", "caption": "Whispers", "command": "/tell"}])]
    c.send("Anna")
    c.send("")
    c.raw()
    bob.send("hello everybody")
    raw = c.raw()
    assert b"<Bob> hello everybody" in raw                       # the text line stays
    assert messages(raw) == [("Comm.Channel.Text", {"channel": "say", "talker": "Bob",
                                                    "text": "<Bob> hello everybody"})]
    assert b"<Bob> hello everybody" in cara.raw() and messages(bob.raw()) == []
    bob.send("/tell Anna psst")
    assert messages(c.raw()) == [("Comm.Channel.Text", {"channel": "tell", "talker": "Bob",
                                                        "text": "Bob tells you: psst"})]
    c.send("/tell Bob yes?")
    assert messages(c.raw()) == [("Comm.Channel.Text", {"channel": "tell", "talker": "Anna",
                                                        "text": "You tell Bob: yes?"})]
    c.send("/set lang de")
    c.raw()
    c.send(gmcp("Comm.Channel.List"))                          # asked: in the client's language
    assert messages(c.raw()) == [("Comm.Channel.List", [
        {"name": "say", "caption": "Gespräch in deinem Raum", "command": ""},
        {"name": "tell", "caption": "Flüstern", "command": "/tell"}])]


def test_comm_channel_only_when_listed(lobby: FakeLobby) -> None:
    """A client that never sent Core.Supports gets what it got before Comm.Channel existed (no
    Comm.Channel.*, Room.Info); one whose Core.Supports leaves Comm.Channel out gets none of it,
    and one that leaves Room out no Room.Info."""
    bob = plain_guest(lobby, "Bob")
    old = gmcp_guest(lobby, "Old", None)
    other = gmcp_guest(lobby, "Other", ["Tichu 1"])
    bob.send("hi")
    bob.send("/tell Old psst")
    bob.send("/tell Other psst")
    for c in (old, other):
        raw = c.raw()
        assert b"<Bob> hi" in raw and b"psst" in raw
        assert not [p for p, _ in messages(raw) if p.startswith("Comm.")]
    old.send("/newroom")
    assert ("Room.Info", {"num": 1, "name": "Table 1 room", "table": 1}) in messages(old.raw())
    other.send("/newroom")
    assert not [p for p, _ in messages(other.raw()) if p == "Room.Info"]
    other.send(gmcp("Core.Supports.Add", ["Comm.Channel 1"]))     # now it asks for it
    assert [p for p, _ in messages(other.raw())] == ["Comm.Channel.List"]
