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

from conftest import FakeClient, FakeLobby, RunningServer, unwrap, within
from table_support import legal_command

DOCS = Path(__file__).resolve().parents[2] / "docs"
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
    assert "ASCII letter a-z or A-Z, a digit 0-9, _ or -" in unwrap(out)   # (wrapped at 80)
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
    from lobby.tables.table import TableActor
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
    # the offers: IAC WILL GMCP, WILL MSSP, WILL MCCP2, WILL CHARSET, DO TTYPE (issue 15),
    # DO NAWS (issue 14)
    assert data.startswith(b"\xff\xfb\xc9\xff\xfbF\xff\xfbV\xff\xfb*\xff\xfd\x18\xff\xfd\x1f"
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


# ---- /look -------------------------------------------------------------------------------------------
def test_look_shows_a_player_the_whole_view_and_a_spectator_the_public_one() -> None:
    t = TextTable(spectators=("eve",))
    t.send("ann", "/start")
    t.play_until(lambda: t.table.match.round.phase == "play" and len(t.table.match.round.trick) > 1)
    t.read_all()
    turn = t.table.seated[t.table.match.round.turn]
    for name in [*PLAYERS, "eve"]:
        lines = t.send(name, "/look" if name != "bob" else "/l").splitlines()
        assert lines[0] == (f"You are watching table {t.number}." if name == "eve"
                            else f"Table {t.number} as it stands:"), lines
        players = lines[1]
        assert re.fullmatch(r">?1 ann \d+.*\|[ >]2 bob \d+.*\|[ >]3 cat \d+.*\|[ >]4 dan \d+.*",
                            players), players
        assert f">{t.table.seated.index(turn) + 1} {turn}" in players
        assert re.fullmatch(r"Round 1 \| ann\+cat 0 : 0 bob\+dan", lines[2])
        assert lines[3].startswith("Trick: ")
        hand = [line for line in lines if line.startswith("Your hand: ")]
        if name == "eve":
            assert hand == [] and lines[-1] == f"{turn}'s turn."
        else:
            assert len(hand) == 1
            if name == turn:
                assert lines[-1].startswith("Your turn: /play CARDS or /pass")
            else:
                assert f"{turn}'s turn." in lines


def test_look_during_the_grand_tichu_decisions_shows_what_the_updates_left_out() -> None:
    t = TextTable()
    t.send("ann", "/start")
    t.send("bob", "/nogrand")
    out = t.read_all()["ann"]
    assert "Your hand" not in out and "Round 1 |" not in out     # the compact update
    lines = t.send("ann", "/look").splitlines()
    assert lines[2] == "Round 1 | ann+cat 0 : 0 bob+dan"
    assert lines[3].startswith("Your hand: ") and lines[-1] == "Grand Tichu? /grand or /nogrand"


def test_look_at_a_waiting_table_and_in_the_lobby() -> None:
    t = TextTable(join=False)
    t.send("ann", "/join 2")
    assert t.send("ann", "/look").splitlines() == [
        f"Table {t.number}: waiting.", "Seats: 1 - | 2 ann | 3 - | 4 -",
        "/join [SEAT] or /addbot fills a seat (1+3 against 2+4); /start when four sit."]
    lobby = FakeLobby(task.Clock())
    c = lobby.connect()
    c.login("zed")
    c.send("look")                      # a full command word needs no slash
    assert c.text().splitlines() == ["You are in the lobby; nobody else is here.",
                                     "No table is open: /newroom opens one."]
    t.send("bob", "/manager")
    t.send("cat", "/manager")
    t.send("dan", "/manager")
    t.read_all()
    assert t.send("bob", "/l").splitlines() == [
        "You are in the lobby, with 2 other people here.",
        "1 table open: /listroom shows the list, /room N watches a table, /newroom opens",
        "  another."]                                            # wrapped at 80 columns


def test_look_in_machine_mode_answers_with_the_whole_state() -> None:
    from protocol.render.json_lines import state_object
    t = TextTable(spectators=("eve",))
    t.send("ann", "/start")
    t.play_until(lambda: t.table.match.round.phase == "play")
    for name in ("cat", "eve"):
        t.send(name, "/iset json 1")
        objs = [json.loads(line) for line in t.send(name, "#l7 look").splitlines()]
        assert [o["type"] for o in objs] == ["state"] and objs[0]["id"] == "l7"
        # (protocol 1: /iset json 1 names no version; without protocol 4's fields)
        whole = state_object(t.table._views.view(name if name == "cat" else None), 1)
        assert {k: v for k, v in objs[0].items() if k != "id"} == json.loads(json.dumps(whole))
        assert bool(objs[0].get("hand")) is ("legal" in objs[0]) is (name == "cat")
    t.send("dan", "/iset json 1")
    t.send("dan", "/manager")
    objs = [json.loads(line) for line in t.send("dan", "#l8 l").splitlines()]
    assert objs[-1] == {"type": "look", "room": "Lobby", "number": 0, "names": [], "tables": 1,
                        "id": "l8"}


# ---- the bomb window -----------------------------------------------------------------------------
def test_no_lead_prompt_before_the_bomb_window_closes_and_the_seconds_actually_left() -> None:
    t = TextTable({"bombwindow": "5"}, spectators=("eve",))
    t.send("ann", "/start")
    out = t.play_until(lambda: t.table.bombwindow_left() is not None
                       and t.table.match.round.phase == "play")
    winner = t.table.seated[t.table.match.round.turn]
    other = next(n for n in PLAYERS if n != winner)
    mine = out[winner].split("You win the trick.", 1)[1]
    assert "You may go on in 5 seconds: the others may still bomb." in mine
    assert "Your lead" not in mine and "Your turn" not in mine
    theirs = out[other].split("wins the trick.", 1)[1]
    assert f"{winner} may go on in 5 seconds: time to bomb." in theirs
    assert f"{winner}'s turn." not in theirs
    t.clock.advance(3.2)
    card = str(sorted(t.table.match.round.hand(t.table.match.round.turn))[0])
    refused = t.send(winner, f"/play {card}")
    assert "! [bomb-window] Wait 2 seconds before you go on" in refused
    assert "Your lead" not in t.send(winner, "/look")
    t.clock.advance(0.9)
    assert "Wait 1 second before" in t.send(winner, f"/play {card}")
    t.clock.advance(1.0)              # the window closes: now the prompt
    closed = t.clients[winner].text()
    assert closed.startswith("You may go on now.\r\n") and "Your lead: /play CARDS" in closed
    assert f"{winner} may go on now." in t.clients[other].text()


# ---- "you", lines not twice, the end of the game, a spectator coming in ---------------------------------
def test_the_player_concerned_is_addressed_as_you() -> None:
    t = TextTable()
    out = t.send("ann", "/start")
    t.read_all()
    t.play_until(lambda: t.table.match.round.phase == "exchange")
    waiting = next(n for n in PLAYERS if n not in {t.table.players[p] for p in range(4)
                                                   if t.table.match.round.given[p] is not None})
    assert "! [give-cards-first] Give your three cards first: /schupf" in unwrap(t.send(waiting, "/pass"))
    out = t.play_until(lambda: t.table.match.round.phase == "play")
    leader = t.table.seated[t.table.match.round.turn]
    assert "You have the Mah Jong and lead." in out[leader]
    assert f"{leader} has the Mah Jong and leads." in out[next(n for n in PLAYERS
                                                                if n != leader)]
    seen: set[str] = set()
    for seed in range(40):
        if seen == {"dragon", "wish"}:
            break
        t = TextTable(seed=seed)
        t.send("ann", "/start")
        t.read_all()
        try:
            t.play_until(lambda: t.table.state != "playing"  # noqa: B023 (called in this iteration)
                         or t.table.match.round.phase in {"dragon", "wish"} - seen, 3000)  # noqa: B023 (called in this iteration)
        except AssertionError:
            continue
        if t.table.state != "playing":
            continue
        rnd = t.table.match.round
        phase = rnd.phase
        seat = rnd.holder if phase == "dragon" else rnd.wisher
        name = t.table.seated[seat]
        out = t.send(name, "/pass")
        if phase == "dragon":
            left, right = t.table.seated[(seat + 3) % 4], t.table.seated[(seat + 1) % 4]
            assert (f"! [give-dragon-first] You won the Dragon trick: give it away first, "
                    f"/dragon left ({left}) or /dragon right ({right}).") in unwrap(out)
        else:
            assert "! [name-wish-first] Name your wish first: /wish RANK or /wish none." in out
        assert "seat" not in out
        seen.add(phase)
    assert seen == {"dragon", "wish"}


def test_the_deal_and_the_grand_tichu_prompt_are_not_repeated() -> None:
    t = TextTable()
    out = t.send("ann", "/start")
    first = re.search(r"Your first 8 cards: (.+)\r\n", out).group(1)
    assert f"Your hand: {first}" not in out
    assert out.count("Grand Tichu? /grand or /nogrand") == 1
    for name in ("bob", "cat", "dan"):
        t.send(name, "/nogrand")
    # the others decided: ann's question is not asked again after each of them
    assert "Grand Tichu?" not in t.read_all()["ann"]
    out = t.send("ann", "/nogrand")
    assert "Your last 6 cards: " in out and out.count("Your hand: ") == 1
    assert out.count("Exchange: /schupf") == 1
    t.send("bob", "/schupf " + " ".join(
        str(c) for c in sorted(t.table.match.round.hand(1))[:3]))
    assert "Exchange: /schupf" not in t.read_all()["ann"]


def test_after_game_over_the_host_is_told_how_to_play_again() -> None:
    t = TextTable({"round": "1"})
    t.send("ann", "/start")
    out = t.play_until(lambda: t.table.state == "finished")
    hint = "To play again: /reset clears the table, then /start deals a new game."
    assert "Game over after 1 round" in out["ann"] and out["ann"].rstrip().endswith(hint)
    assert hint not in out["bob"]
    assert t.send("ann", "/look").rstrip().endswith(hint)


def test_a_spectator_entering_mid_game_sees_the_round_and_score() -> None:
    t = TextTable()
    t.send("ann", "/start")
    t.play_until(lambda: t.table.match.round_no == 2 and t.table.match.round.phase == "play")
    late = t.lobby.connect()
    late.login("fay")
    late.text()
    late.send(f"/room {t.number}")
    lines = late.text().splitlines()
    score = t.table.match.scores
    assert f"Round 2 | ann+cat {score[0]} : {score[1]} bob+dan" in lines
    assert any(re.fullmatch(r">?1 ann \d+.*\|.*4 dan \d+.*", line) for line in lines)
    assert not any(line.startswith("Your hand") for line in lines)


# ---- /set bell ------------------------------------------------------------------------------------
def test_bell_rings_when_a_move_or_decision_begins_to_wait_for_you() -> None:
    t = TextTable({"bombwindow": "2"})
    assert "Bell is on now." in t.send("ann", "/set bell on")
    t.send("bob", "/set bell on")
    t.send("bob", "/iset json 1")               # machine mode: never a bell
    raw = {n: b"" for n in PLAYERS}

    def collect() -> None:
        for n, c in t.clients.items():
            raw[n] += c.raw()

    t.clients["ann"].send("/start")
    collect()
    # the deal: ann's Grand Tichu decision waits for her; one BEL, before the lines
    assert raw["ann"].count(b"\x07") == 1
    assert raw["ann"].index(b"\x07") < raw["ann"].index(b"Grand Tichu? /grand or /nogrand")
    for name in ("bob", "cat", "dan"):
        t.send(name, "/nogrand")
        collect()
    assert raw["ann"].count(b"\x07") == 1           # still the same wait: not again
    t.clients["ann"].send("/nogrand")
    collect()
    assert raw["ann"].count(b"\x07") == 2           # now the exchange waits for her
    rings = 2
    waits = 0
    due = False
    for _ in range(3000):
        if t.table.state != "playing" or t.table.match.round_no > 1:
            break
        from protocol.render.table import awaits_you
        view = t.table._views.view("ann")
        now = awaits_you(view)
        if now and not due:
            waits += 1
        due = now
        if t.table.bombwindow_left():
            t.clock.advance(2)
            collect()
            continue
        t.step()
        collect()
    assert raw["ann"].count(b"\x07") >= rings + waits - 1 > rings
    # every bell comes right before the lines that ask ann for something
    for chunk in raw["ann"].split(b"\x07")[1:]:
        text = chunk.decode("utf-8", "replace")
        assert re.search(r"Your (turn|lead|wish)|Give the Dragon trick|Exchange: /schupf|"
                         r"Grand Tichu\?", text), text[:300]
    assert b"\x07" not in raw["bob"] + raw["cat"] + raw["dan"]   # off by default; not for JSON
    t.send("ann", "/set bell off")
    collect()
    before = raw["ann"].count(b"\x07")
    asked = 0
    for _ in range(300):
        if t.table.state != "playing":
            break
        if t.table.bombwindow_left():
            t.clock.advance(2)
        else:
            t.step()
        out = t.clients["ann"].raw()
        asked += len(re.findall(rb"Your (turn|lead)", out))
        raw["ann"] += out
    assert asked > 3 and raw["ann"].count(b"\x07") == before
