"""Hypothesis state machine: several sessions (machine mode, every line with an #id) and tables,
driven by random, partly invalid command sequences mixed with engine-legal moves and the clock.

Invariants, checked after every step:
- no exception escapes to the log (a log observer records every failure and error);
- every command line gets exactly one reply object carrying its id, and every line any session
  receives is one JSON object;
- each running table's Match equals ``Match.replay(match.record())`` (views of all seats and of a
  spectator, scores, the phase);
- hidden information never leaks: every event a table sends is checked by table_support's
  Recorder (no card of another hand, no gift in transit, no undealt card is ever shown).
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from twisted.internet import task
from twisted.logger import globalLogPublisher

from conftest import FakeLobby, logged_events, strip_telnet
from lobby.tichu.actions import Exchange
from lobby.tichu.cards import parse_cards
from lobby.tichu.match import Match
from table_support import Recorder, command_for

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
CARDS = ["S2", "B5", "G10", "RA", "Ma", "Hu", "Ph", "Dr", "SK", "GB", "Ph=7", "R", "Z9", "10",
         "7", "ä", ""]

card_text = st.lists(st.sampled_from(CARDS), max_size=5).map(" ".join)
name_arg = st.sampled_from([*NAMES, "Nobody", "bot", "Bot1~heuristic", ""])
number = st.sampled_from(["0", "1", "2", "3", "4", "5", "-1", "99", "x", "#1", "", "²", "٣",
                          "99999999999999999999"])
junk_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)

LINES = st.one_of(
    st.sampled_from(["/newroom", "/newroom chess", "/manager", "/who", "/wwho", "/listroom",
                     "/start", "/leave", "/reset", "/spielinfo", "/grand", "/nogrand", "/tichu",
                     "/pass", "/accept", "/refuse", "/help", "/help play", "/showlist mute",
                     "/option help", "/option tichujoin", "/option seed 4", "/option host",
                     "/option target 300", "/option round 1", "/option bombwindow 0",
                     "/option dragon fixed", "/set color on", "/xyzzy", "/", ";", "/pl",
                     "/kick Bob", "/shutdown 5", "/role Ann admin", "/announce hi",
                     "/addbot", "/addbot 2 random", "/removebot 3", "/finger Ann",
                     "/addbot ²", "/removebot ²", "/shutdown ²"]),
    st.builds("/room {}".format, number),
    st.builds("/join {}".format, number),
    st.builds("/play {}".format, card_text),
    st.builds("/bomb {}".format, card_text),
    st.builds("/schupf {}".format, card_text),
    st.builds("/wish {}".format, st.sampled_from(["7", "A", "none", "1", "Ph", ""])),
    st.builds("/dragon {}".format, st.sampled_from(["left", "right", "1", "3", "Bob", "up"])),
    st.builds("/remove {}".format, name_arg),
    st.builds("/tell {} {}".format, name_arg, junk_text),
    st.builds("/add mute {}".format, name_arg),
    st.builds("/sub mute {}".format, name_arg),
    st.builds("/option {} {}".format, st.sampled_from(["target", "round", "seed", "junk"]),
              number),
    junk_text.filter(lambda t: t.strip() != "" and not t.strip().lower().startswith(
        ("/q", "q", "/e", "e"))),    # /quit and /exit end a session (and so do their prefixes)
)


class LobbyMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.failures: list[str] = []
        globalLogPublisher.addObserver(self._observe)
        self.clock = task.Clock()
        self.clock.advance(1_800_000_000)
        self.lobby = FakeLobby(self.clock)
        self.recorders: dict[int, Recorder] = {}
        self.lobby.world.on_new_table = self._new_table
        self.rng = random.Random(0)
        self.ids = 0
        self.started = 0
        self.clients: dict[str, Any] = {}
        for name in NAMES:
            c = self.lobby.connect()
            c.raw()                    # the greeting is text: machine mode starts with %json
            c.send("%json")
            c.send(name)
            self.clients[name] = c
        self._drain_all()

    def teardown(self) -> None:
        globalLogPublisher.removeObserver(self._observe)

    # ---- plumbing ----------------------------------------------------------------------------
    def _observe(self, event: dict[str, Any]) -> None:
        if event.get("log_failure") is not None or str(event.get("log_level", "")) in (
                "<LogLevel=error>", "<LogLevel=critical>"):
            from twisted.logger import formatEvent
            self.failures.append(formatEvent(event) + str(event.get("log_failure", "")))

    def _new_table(self, table: Any) -> None:
        table.bot_delay = 0
        rec = Recorder()
        rec.table = table
        original = table._deliver

        def deliver(names: list[str], event: Any) -> None:
            rec.deliver(names, event)
            original(names, event)
        table._deliver = deliver
        self.recorders[table.number] = rec

    def _objects(self, name: str) -> list[dict[str, Any]]:
        raw = strip_telnet(self.clients[name].raw()).decode("utf-8")
        out = []
        for line in raw.split("\r\n"):
            if line:
                obj = json.loads(line)          # every line is exactly one JSON object
                assert isinstance(obj, dict) and "type" in obj, line
                out.append(obj)
        return out

    def _drain_all(self) -> None:
        for name in self.clients:
            self._objects(name)

    def _send(self, name: str, line: str) -> None:
        for rec in self.recorders.values():
            rec.before_submit()
        self.ids += 1
        cid = f"c{self.ids}"
        self.clients[name].send(f"#{cid} {line}")
        replies = [o for o in self._objects(name) if o.get("id") == cid]
        assert len(replies) == 1, (name, line, replies)
        self._drain_all()

    # ---- rules -------------------------------------------------------------------------------
    @rule(who=st.sampled_from(NAMES), line=LINES)
    def random_command(self, who: str, line: str) -> None:
        self._send(who, line)

    @rule(seed=st.integers(0, 2**16))
    def legal_move(self, seed: int) -> None:
        """One engine-legal action at some running table, typed by the player's session."""
        rng = random.Random(seed)
        tables = [t for t in self.lobby.world.tables.values()
                  if t.state == "playing" and t.match is not None]
        if not tables:
            return
        table = rng.choice(tables)
        match = table.match
        choices = []
        for player, name in enumerate(table.players):
            if name not in self.clients:
                continue   # a bot
            seat = match.seat_of(player)
            rnd = match.round
            if rnd.phase == "exchange":
                view = rnd.view(seat)
                if "given" not in view or not view.get("given"):
                    hand = sorted(parse_cards(view["hand"]))
                    choices.append((name, Exchange(tuple(rng.sample(hand, 3))), seat))
                continue
            for action in match.legal_actions(player):
                choices.append((name, action, seat))
        if not choices:
            return
        name, action, seat = rng.choice(choices)
        command, args = command_for(action, seat, rng, in_turn=match.round.turn == seat)
        if isinstance(args, dict):
            args = args.get("cards", "")
        line = f"/{command} {args}" if args else f"/{command}"
        user = self.lobby.world.online(name)
        if user is None or user.room is None or user.room.table is not table:
            self._send(name, f"/room {table.number}")   # back to the table first
        self._send(name, line)

    @rule(players=st.permutations(NAMES), bots=st.integers(0, 2), seed=st.integers(0, 99))
    def gather_and_start(self, players: list[str], bots: int, seed: int) -> None:
        """A host opens a table, players (and bots) sit down, the host starts: real games."""
        host, others = players[0], players[1:4 - bots]
        self._send(host, "/newroom")
        user = self.lobby.world.online(host)
        if user is None or user.room is None or user.room.table is None:
            return
        number = user.room.number
        self._send(host, f"/option seed {seed}")
        self._send(host, "/join")
        for name in others:
            self._send(name, f"/room {number}")
            self._send(name, "/join")
        for _ in range(bots):
            self._send(host, "/addbot")
        self._send(host, "/start")
        self.started += 1

    @rule(seconds=st.sampled_from([0, 0.5, 3, 30]))
    def time_passes(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self._drain_all()

    # ---- invariants ---------------------------------------------------------------------------
    @invariant()
    def nothing_logged_as_a_failure(self) -> None:
        assert self.failures == [], self.failures[:3]

    @invariant()
    def tables_match_their_replay(self) -> None:
        for table in self.lobby.world.tables.values():
            match = table.match
            if match is None:
                continue
            again = Match.replay(match.record())
            assert again.scores == match.scores
            assert again.round_no == match.round_no
            for player in (None, 0, 1, 2, 3):
                assert again.view(player) == match.view(player)

    @invariant()
    def hidden_information_never_leaks(self) -> None:
        for rec in self.recorders.values():
            assert rec.leaks == [], rec.leaks[:3]


LobbyMachine.TestCase.settings = settings(
    max_examples=15, stateful_step_count=50, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_lobby_state_machine = pytest.mark.slow(LobbyMachine.TestCase)


def test_digits_that_int_refuses_are_refused_cleanly() -> None:
    """Found by the fuzzers: '²'.isdigit() is True but int('²') raises; each of these answered
    internal-error with a traceback before."""
    with logged_events() as events:
        clock = task.Clock()
        lobby = FakeLobby(clock)
        ann = lobby.connect()
        ann.login("Ann")
        ann.send("/newroom")
        ann.raw()
        for line in ("/room ²", "/addbot ²", "/removebot ²", "/shutdown ²", "/replay ⁴",
                     "/replay 99999999999999999999", "/replay 1 ²"):
            ann.send(line)
            out = ann.text()
            assert out.startswith("! [") and "[internal-error]" not in out, (line, out)
    assert [e for e in events if e.get("log_failure") is not None] == []


def test_gmcp_supports_with_digits_that_int_refuses() -> None:
    """Found by scripts/fuzz.py: Core.Supports.Set ["Room ²"] raised in gmcpReceived."""
    with logged_events() as events:
        lobby = FakeLobby(task.Clock())
        ann = lobby.connect()
        ann.login("Ann")
        ann.session.gmcp.handle("Core.Supports.Set", ["Room ²", "Char 99999999999999999999999", "Tichu 1"])
        assert ann.session.gmcp.supports == {"Room": 1, "Char": 1, "Tichu": 1}
        ann.send("/who")
        assert "Ann" in ann.text()
    assert [e for e in events if e.get("log_failure") is not None] == []
