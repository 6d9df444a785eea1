"""GMCP (telnet option 201): a client that agrees gets Room.Info, Tichu.State and Tichu.Event with
the machine-mode objects, unknown GMCP messages are ignored silently, and a client that never
negotiates never receives a subnegotiation (IAC SB)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from conftest import FakeClient, FakeLobby

IAC, SB, SE, DO, WILL, GMCP = 255, 250, 240, 253, 251, 201
SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json")
                    .read_text(encoding="utf-8"))
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
    assert c.session.gmcp_enabled
    assert c.session.gmcp_client == {"client": "Mudlet", "version": "4.17"}
    assert c.session.gmcp_supports == {"Tichu": 1, "Room": 1}
    c.send("Anna")
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
    for _, data in rest[:40] + rest[-40:]:          # (every line: tests/test_bot_client.py)
        VALIDATOR.validate(data)
    c.send("/join")                                  # an error whose code starts with game-
    raw = c.raw()
    assert b"[game-finished]" in raw and messages(raw) == []


def test_unknown_gmcp_is_ignored_silently(lobby: FakeLobby) -> None:
    c = lobby.connect()
    c.raw()
    c.send(bytes((IAC, DO, GMCP)))
    c.send("Anna")
    c.raw()
    c.send(gmcp("Char.Vitals", {"hp": 3}) + gmcp("Nonsense") + gmcp("Core.Ping")
           + bytes((IAC, SB, GMCP)) + b"Broken {not json" + bytes((IAC, SE)))
    assert c.raw() == b""
    c.send("/who")
    assert c.text().startswith("In the Lobby")


def test_a_client_that_never_negotiates_gets_no_subnegotiation(lobby: FakeLobby) -> None:
    c = lobby.connect()
    raw = c.raw()
    c.send("Anna")
    raw += c.raw() + play_bot_game(lobby, c)
    assert bytes((IAC, SB)) not in raw
    assert bytes((IAC, 249)) not in raw                     # nor GA
    assert raw.count(bytes((IAC,))) == 1                    # only the offer IAC WILL GMCP
    assert b"Game over" in raw


def test_refused_gmcp_sends_nothing(lobby: FakeLobby) -> None:
    c = lobby.connect()
    c.raw()
    c.send(bytes((IAC, 254, GMCP)))                          # DONT GMCP
    c.send("Anna")
    c.send("/newroom")
    assert bytes((IAC, SB)) not in c.raw()
