"""The rough edges found by playing (issue 14): each through Sessions on StringTransports (the
whole wire layer, text and machine mode, on a task.Clock) or over a real loopback socket."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest_twisted
from twisted.internet import task

from conftest import FakeClient, FakeLobby, RunningServer, within
from table_support import legal_command

DOCS = Path(__file__).resolve().parent.parent / "docs"
PLAYERS = ["ann", "bob", "cat", "dan"]


def typed(command: str, args: Any) -> str:
    """A table command (name, args) of table_support.command_for as the line a person types."""
    if args is None:
        return "/" + command
    if isinstance(args, dict):
        args = " ".join(str(v) for v in args.values())
    return f"/{command} {args}"


class TextTable:
    """Four text-mode players (and any spectators) on StringTransports at one table."""

    def __init__(self, options: dict[str, str] | None = None, *, spectators: tuple[str, ...] = (),
                 seed: int = 5, join: bool = True) -> None:
        self.clock = task.Clock()
        self.clock.advance(1_800_000_000)
        self.lobby = FakeLobby(self.clock)
        self.lobby.world.on_new_table = lambda table: setattr(table, "bot_delay", 0.0)
        self.rng = random.Random(seed)
        self.clients: dict[str, FakeClient] = {}
        for name in PLAYERS + list(spectators):
            c = self.lobby.connect()
            c.login(name)
            self.clients[name] = c
        self.send("ann", "/newroom")
        self.number = self.lobby.world.table_of(self.lobby.world.online("ann")).number
        for name, value in {"seed": str(seed), **(options or {})}.items():
            self.send("ann", f"/option {name} {value}")
        for name in PLAYERS[1:] + list(spectators):
            self.send(name, f"/room {self.number}")
        if join:
            for name in PLAYERS:
                self.send(name, "/join")
        self.read_all()

    @property
    def table(self) -> Any:
        return self.lobby.world.room(self.number).table

    def send(self, name: str, line: str) -> str:
        self.clients[name].send(line)
        self.clock.advance(0)
        return self.clients[name].text()

    def read_all(self) -> dict[str, str]:
        return {n: c.text() for n, c in self.clients.items()}

    def step(self) -> tuple[str, str]:
        """One engine-legal action of some player, typed as text; (name, line)."""
        table = self.table
        name, command, args = legal_command(table.match, table.players, self.rng)
        line = typed(command, args)
        self.clients[name].send(line)
        self.clock.advance(0)
        return name, line

    def play_until(self, done: Any, limit: int = 5000) -> dict[str, str]:
        """Steps until ``done()``; everything each client received meanwhile."""
        out = {n: "" for n in self.clients}
        for _ in range(limit):
            if done():
                return out
            self.step()
            for n, text in self.read_all().items():
                out[n] += text
        raise AssertionError("the game did not get there")


# ---- names ------------------------------------------------------------------------------------
def test_a_refused_name_says_which_characters_are_allowed() -> None:
    lobby = FakeLobby(task.Clock())
    c = lobby.connect()
    out = c.login("Søren")
    assert "! [bad-name]" in out
    assert "ASCII letter a-z or A-Z, a digit 0-9, _ or -" in out
    assert "3 to 16" in out


# ---- /spielinfo: the rounds finished -------------------------------------------------------------
def test_spielinfo_names_the_rounds_finished_not_the_round_played() -> None:
    t = TextTable()
    t.send("ann", "/start")
    info = t.send("bob", "/spielinfo")
    assert "Score: ann+cat 0 : 0 bob+dan (no rounds played yet)" in info
    assert "after round" not in info
    t.play_until(lambda: t.table.match.round_no == 2)
    info = t.send("bob", "/spielinfo")
    assert re.search(r"Score after 1 round: ann\+cat -?\d+ : -?\d+ bob\+dan", info), info
    t.play_until(lambda: t.table.match.round_no == 3)
    # /room N at the table shows the same
    info = t.send("bob", f"/room {t.number}")
    assert re.search(r"Score after 2 rounds: ann\+cat -?\d+ : -?\d+ bob\+dan", info), info


def test_spielinfo_in_machine_mode_carries_rounds_done() -> None:
    t = TextTable()
    t.send("ann", "/start")
    t.play_until(lambda: t.table.match.round_no == 2)
    t.send("cat", "/iset json 1")
    objs = [json.loads(line) for line in t.send("cat", "#i1 spielinfo").splitlines() if line]
    info = next(o for o in objs if o["type"] == "table-info")
    assert info["round_no"] == 2 and info["rounds_done"] == 1 and info["id"] == "i1"


# ---- turnier and round; tichujoin after /reset -----------------------------------------------------
def test_turnier_with_round_is_refused_whichever_comes_first() -> None:
    t = TextTable(join=False)
    out = t.send("ann", "/option round 3")
    out = t.send("ann", "/option turnier on")
    assert "! [turnier-rounds]" in out and "9 rounds" in out
    assert t.table.options.turnier is False
    t.send("ann", "/option round off")
    assert "turnier to on" in t.send("ann", "/option turnier on")
    out = t.send("ann", "/option round 2")
    assert "! [turnier-rounds]" in out and t.table.options.max_rounds is None
    assert "round to off" in t.send("ann", "/option round off")      # off is always fine


def test_tichujoin_pairs_the_first_two_joiners_again_after_reset() -> None:
    t = TextTable({"tichujoin": "on", "round": "1"})
    started = re.compile(r"the game starts, (\w+)\+(\w+) against (\w+)\+(\w+)\.")
    out = t.send("ann", "/start")
    assert started.search(out).groups() == ("ann", "bob", "cat", "dan")
    t.play_until(lambda: t.table.state == "finished")
    t.send("ann", "/reset")
    out = t.send("ann", "/start")
    # ann and bob joined first: partners again (not the seats' order of the last game)
    assert started.search(out).groups() == ("ann", "bob", "cat", "dan")


def test_a_restored_table_keeps_the_join_order_for_tichujoin() -> None:
    t = TextTable({"tichujoin": "on"})
    t.send("ann", "/start")
    snapshot = json.loads(json.dumps(t.table.snapshot()))
    assert snapshot["join_order"] == PLAYERS
    from lobby.table import TableActor
    again = TableActor.restored(9, t.clock, lambda names, event: None, snapshot, t.table.match,
                                t.table.players, {})
    assert again.join_order == PLAYERS and again.players == ["ann", "cat", "bob", "dan"]


# ---- /replay of a number too large ------------------------------------------------------------------
def test_replay_of_a_huge_number_is_no_such_game() -> None:
    lobby = FakeLobby(task.Clock())
    c = lobby.connect()
    c.login("ann")
    for word in ("99999999999", "99999999999999999999999", "#99999999999999999999999"):
        c.send(f"/replay {word}")
        out = c.text()
        assert "! [no-such-game]" in out and f"#{word.lstrip('#')};" in out, out
    c.send("/tchlog 99999999999999999999999")
    assert "! [no-such-game]" in c.text()
    c.send("/replay abc")
    assert "! [bad-arguments]" in c.text()


# ---- invisible characters in speech ------------------------------------------------------------------
def test_bidi_and_format_characters_are_taken_out_of_speech() -> None:
    lobby = FakeLobby(task.Clock())
    ann, bob = lobby.connect(), lobby.connect()
    ann.login("ann")
    bob.login("bob")
    ann.text()
    ann.send("hello \u202eevil\u202c \u200bthere \u2066x\u2069 \ufeffend\u2028!")
    heard = bob.text()
    assert "<ann> hello evil there x end!" in heard
    assert not any(c in heard for c in "\u202e\u202c\u200b\u2066\u2069\ufeff\u2028")
    ann.send("/tell bob a\u202eb")
    assert "ann tells you: ab" in bob.text()
    # the zero-width joiner of an emoji sequence stays
    ann.send("family \U0001f468\u200d\U0001f469\u200d\U0001f467")
    assert "\U0001f468\u200d\U0001f469\u200d\U0001f467" in bob.text()
    ann.text()
    ann.send("say \u202e\u200b")     # "say" is speech here: a word, then only invisible ones
    ann.text()
    ann.send("/tell bob \u202e\u200b")
    out = ann.text()
    assert "! [invisible-text]" in out and "tells you" not in bob.text()


# ---- the first bytes of a connection -----------------------------------------------------------------
@pytest_twisted.ensureDeferred
async def test_the_first_bytes_are_the_gmcp_offer_as_the_docs_say(server: RunningServer) -> None:
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    from twisted.internet.protocol import Protocol

    class Raw(Protocol):
        def __init__(self) -> None:
            self.data = b""
            self.waiting: Any = None

        def dataReceived(self, data: bytes) -> None:
            self.data += data
            if self.waiting is not None and self.waiting[0] in self.data:
                d, self.waiting = self.waiting[1], None
                d.callback(self.data)

        def expect(self, marker: bytes) -> Any:
            from twisted.internet.defer import Deferred
            d: Deferred = Deferred()
            self.waiting = (marker, d)
            self.dataReceived(b"")
            return within(d)

    raw = Raw()
    await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", server.port), raw))
    data = await raw.expect(b"login: ")
    # the offers: IAC WILL GMCP, WILL MSSP, WILL MCCP2, WILL CHARSET, DO TTYPE (issue 15)
    assert data.startswith(b"\xff\xfb\xc9\xff\xfbF\xff\xfbV\xff\xfb*\xff\xfd\x18"
                           b"Welcome to the Tichu lobby.")
    # what the docs tell a bot: send %json, skip every line until the first that begins with {
    raw.transport.write(b"%json\r\n")
    data = await raw.expect(b'"type":"prompt"')
    lines = data.split(b"\r\n")
    first = next(i for i, line in enumerate(lines) if line.startswith(b"{"))
    assert json.loads(lines[first])["type"] == "iset"
    assert all(b"\xff" not in line for line in lines[first:])
    raw.transport.loseConnection()
    doc = (DOCS / "protocol.md").read_text(encoding="utf-8")
    machine = doc.split("## Machine mode", 1)[1].split("\n## ", 1)[0]
    assert "`IAC WILL GMCP`, the three bytes `0xFF 0xFB 0xC9`" in machine
    assert "begins with `{`" in machine
