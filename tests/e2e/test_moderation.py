"""Mute lists, roles and moderation over real sockets; what nobody may do to somebody else (over the
wire: StringTransport sessions speak the same bytes); passwords never in the log."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import task
from twisted.logger import formatEvent

from conftest import FakeLobby, LineClient, RunningServer, server_fixture, within
from lobby.world.moderation import parse_duration
from table_support import card_tokens, without_legend


class ModeratedServer(RunningServer):
    """A real server whose first admin (--admin) is Boss, created offline before the first start
    (``tichu-lobby admin create Boss``) with the password sesame1."""

    server_options = {"admin": "Boss"}

    async def start(self) -> None:
        if not self.db.exists():
            create_account_offline(self.db, "Boss", "sesame1")
        await super().start()


def create_account_offline(db: Path, name: str, password: str, role: str = "admin") -> None:
    import io

    from conftest import FAST_HASH
    from protocol.process.admin_cli import main as admin_main
    err = io.StringIO()
    assert admin_main(["--db", str(db), "create", name, "--role", role, "--password-file", "-"],
                      stdin=io.StringIO(password + "\n"), stdout=io.StringIO(), stderr=err,
                      params=FAST_HASH) == 0, err.getvalue()


async def boss_of(srv: RunningServer) -> LineClient:
    """Boss (the --admin, created offline) logged in."""
    c = await srv.client()
    await c.login("Boss", "sesame1")
    return c


msrv = server_fixture(ModeratedServer, "msrv")


def texts(events: list[dict[str, Any]]) -> list[str]:
    return [formatEvent(e) for e in events]


async def registered(srv: RunningServer, name: str, password: str = "sesame1") -> LineClient:
    c = await srv.client()
    await c.login(name)
    c.send(f"/register {password}")
    assert "is registered now" in await c.read_line()
    return c


async def reply(c: LineClient, line: str) -> str:
    c.send(line)
    return await c.read_line()


def test_durations() -> None:
    assert parse_duration("90s") == 90 and parse_duration("30m") == 1800
    assert parse_duration("2h") == 7200 and parse_duration("7d") == 7 * 86400
    assert parse_duration("1w") == 604800 and parse_duration("15") == 900
    assert parse_duration("spam") is None and parse_duration("perm") is None


# ---- mute lists --------------------------------------------------------------------------------
@pytest_twisted.ensureDeferred
async def test_mute_list_hides_speech_and_tells_and_is_stored(msrv: ModeratedServer) -> None:
    ann = await registered(msrv, "Ann")
    bob = await msrv.client()
    await bob.login("Bob")
    assert await ann.read_line() == "Bob enters the lobby."
    assert await reply(ann, "/showlist mute") == \
        "Your mute list is empty; /add mute NAME adds a name."
    assert await reply(ann, "/add mute bob") == \
        "Bob is on your mute list now: you will not see their speech and tells."
    assert await reply(ann, "/add mute Bob") == "! [already-muted] Bob is on your mute list already."
    assert await reply(ann, "/add list Bob") == \
        "! [unknown-list] There is no list list; the list is mute (/showlist mute)."
    # Bob speaks and whispers: Bob sees both as usual, Ann sees neither
    assert await reply(bob, "hello Ann") == "<Bob> hello Ann"
    assert await reply(bob, ";Ann are you there?") == "You tell Ann: are you there?"
    assert await reply(ann, "/showlist mute") == "Your mute list (1): Bob"   # the next line Ann gets
    assert await reply(ann, ";Bob I do not hear you") == "You tell Bob: I do not hear you"
    assert await bob.read_line() == "Ann tells you: I do not hear you"      # one way only
    # the list survives a restart of the server (registered names' lists are stored)
    await msrv.restart()
    ann = await msrv.client()
    await ann.login("Ann", "sesame1")
    assert await reply(ann, "/showlist mute") == "Your mute list (1): Bob"
    assert await reply(ann, "/sub mute bob") == "Bob is off your mute list."
    assert await reply(ann, "/sub mute bob") == "! [not-muted] bob is not on your mute list."
    bob = await msrv.client()
    await bob.login("Bob")
    assert await ann.read_line() == "Bob enters the lobby."
    bob.send("hi again")
    assert await ann.read_line() == "<Bob> hi again"


# ---- roles and moderation ------------------------------------------------------------------------
MODERATION_LINES = [
    "/kick Bob", "/ban Bob 1h spam", "/unban Bob", "/bmute Bob", "/announce hi all",
    "/shutdown 10 now", "/role Bob admin",
]


@pytest_twisted.ensureDeferred
async def test_everything_is_refused_without_the_role(msrv: ModeratedServer, logged: Any) -> None:
    await registered(msrv, "Bob")
    eve = await registered(msrv, "Eve")
    for line in MODERATION_LINES:
        answer = await reply(eve, line)
        command = line.split()[0][1:]
        role = "admin" if command in ("shutdown", "role") else "moderator"
        assert answer == f"! [not-allowed] Only a user with the role {role} may use /{command}.", line
    guest = await msrv.client()
    await guest.login("guest")
    assert (await reply(guest, "/kick Eve")).startswith("! [not-allowed]")
    assert any("Eve tried /kick without the role moderator" in t for t in texts(logged))


@pytest_twisted.ensureDeferred
async def test_a_refused_moderation_command_costs_no_database_work(
        msrv: ModeratedServer, monkeypatch: Any) -> None:
    """Issue 23: a refused /kick, /ban ... of a guest or an ordinary player is refused on the
    caller's own role, known since the log-in, before any database work (it cost an account
    query each, on the thread the log-ins read from)."""
    await registered(msrv, "Bob")
    eve = await registered(msrv, "Eve")
    guest = await msrv.client()
    await guest.login("guest")
    assert (await eve.read_line()).endswith("enters the lobby.")
    store = msrv.server.store
    looked_up: list[str] = []
    get_account = store.get_account
    monkeypatch.setattr(store, "get_account",                  # (a spy of the test)
                        lambda name: looked_up.append(name) or get_account(name))
    for line in [*MODERATION_LINES, "/banlist", "/closetable 1 spam"]:
        for c in (eve, guest):
            assert (await reply(c, line)).startswith("! [not-allowed]"), line
    assert looked_up == []
    # a role given offline while the server runs holds from the next log-in
    create_account_offline(msrv.db, "Mia", "sesame1", role="moderator")
    mia = await msrv.client()
    await mia.login("Mia", "sesame1")
    assert await reply(mia, "/kick Eve") == "Eve was kicked."


@pytest_twisted.ensureDeferred
async def test_admin_and_moderator_commands_are_logged(msrv: ModeratedServer, logged: Any) -> None:
    boss = await boss_of(msrv)           # --admin Boss
    mod = await registered(msrv, "Mod")
    bob = await registered(msrv, "Bob")
    for c, name in ((boss, "Mod"), (boss, "Bob"), (mod, "Bob")):
        assert await c.read_line() == f"{name} enters the lobby."
    assert await reply(boss, "/role Mod moderator") == "Mod has the role moderator now."
    assert await mod.read_line() == "Boss gave you the role moderator."
    assert await reply(mod, "/role Bob admin") == \
        "! [not-allowed] Only a user with the role admin may use /role."
    assert await reply(mod, "/kick Boss") == \
        "! [not-allowed] Only a user with the role admin may use /kick."   # not against an admin
    # /bmute: Bob may not speak in rooms, tells still work
    assert await reply(mod, "/bmute Bob") == "Bob may not speak in public rooms now."
    assert await bob.read_line() == "Mod silenced you in public rooms; /tell still works."
    assert await reply(bob, "can you hear me") == \
        "! [silenced] A moderator silenced you in public rooms; /tell still works."
    assert await reply(bob, ";Mod sorry") == "You tell Mod: sorry"
    assert await mod.read_line() == "Bob tells you: sorry"
    assert await reply(mod, "/bmute Bob off") == "Bob may speak in public rooms again."
    assert await bob.read_line() == "Mod lets you speak in public rooms again."
    # /announce reaches everybody
    mod.send("/announce tournament at eight")
    for c in (boss, mod, bob):
        assert await c.read_line() == "*** Mod announces: tournament at eight"
    # /kick: Bob is disconnected with the reason, and may come back
    assert await reply(mod, "/kick Bob calm down") == "Bob was kicked."
    assert await bob.read_line() == "You were kicked by Mod: calm down"
    await within(bob.lost)
    assert await mod.read_line() == "Bob leaves the lobby."
    bob = await msrv.client()
    assert "Welcome back, Bob!" in await bob.login("Bob", "sesame1")
    assert await mod.read_line() == "Bob enters the lobby."
    # /ban: disconnected, and kept out until /unban
    assert (await reply(mod, "/ban Bob 2h flooding the lobby")).startswith("Bob is banned until ")
    assert (await bob.read_line()).startswith("You were banned by Mod until ")
    await within(bob.lost)
    assert await mod.read_line() == "Bob leaves the lobby."
    bob = await msrv.client()
    await bob.expect("login: ")
    bob.send("Bob")
    await bob.expect("password: ")
    bob.send("sesame1")
    refused = await bob.expect("login: ")
    assert "! [banned] Bob is banned until " in refused and ": flooding the lobby" in refused
    assert await reply(mod, "/unban Bob") == "The ban on Bob is lifted."
    assert await reply(mod, "/unban Bob") == "! [not-banned] Bob is not banned."
    bob.send("Bob")
    await bob.expect("password: ")
    bob.send("sesame1")
    assert "Welcome back, Bob!" in await bob.expect("/help for the commands.\r\n")
    boss.send("/role Mod none")
    assert (await boss.expect("Mod has the role none now.\r\n")).count("Bob leaves") == 2
    log = "\n".join(texts(logged))
    for expected in ("moderation: Boss sets the role of Mod to moderator",
                     "moderation: Mod silences Bob in public rooms",
                     "moderation: Mod lets Bob speak again",
                     "moderation: Mod announces: tournament at eight",
                     "moderation: Mod kicks Bob: calm down",
                     "moderation: Mod bans Bob until ",
                     "moderation: Mod lifts the ban on Bob",
                     "moderation: Boss sets the role of Mod to none"):
        assert expected in log, expected
    assert "sesame1" not in log


@pytest_twisted.ensureDeferred
async def test_a_ban_is_stored(msrv: ModeratedServer) -> None:
    boss = await boss_of(msrv)
    assert await reply(boss, "/ban Spammer perm advertising") == \
        "Spammer is banned until further notice."
    await msrv.restart()
    c = await msrv.client()
    await c.expect("login: ")
    c.send("Spammer")
    assert "! [banned] Spammer is banned until further notice: advertising" in \
        await c.expect("login: ")


@pytest_twisted.ensureDeferred
async def test_a_ban_past_the_last_calendar_date_is_a_ban_until_further_notice(
        msrv: ModeratedServer, logged: Any) -> None:
    """999999w (19,000 years) ends after the year 9999: the ban holds, is answered, and the
    banned name is refused at log-in with its code (it was an internal error both times)."""
    boss = await boss_of(msrv)
    assert await reply(boss, "/ban Spammer 999999w advertising") == \
        "Spammer is banned until further notice."
    c = await msrv.client()
    await c.expect("login: ")
    c.send("Spammer")
    assert "! [banned] Spammer is banned until further notice: advertising" in \
        await c.expect("login: ")
    assert not [e for e in logged if e.get("log_failure") is not None]


@pytest_twisted.ensureDeferred
async def test_shutdown_warns_stops_new_games_and_stops(msrv: ModeratedServer,
                                                        logged: Any) -> None:
    boss = await boss_of(msrv)
    ann = await msrv.client()
    await ann.login("Ann")
    assert await boss.read_line() == "Ann enters the lobby."
    hooks: list[str] = []
    msrv.server.before_shutdown.append(lambda: hooks.append("tables recorded"))
    boss.send("/shutdown 1 update")
    for c in (boss, ann):
        assert await c.read_line() == \
            "*** The server shuts down in 1 second (update; Boss). No new games start."
    assert await reply(ann, "/newroom") == \
        "! [shutting-down] The server is shutting down; no new games start."
    await within(ann.lost)
    await within(boss.lost)
    assert hooks == ["tables recorded"]
    assert "The server is shutting down. Goodbye." in ann.buffer
    assert any("moderation: Boss shuts the server down in 1.0 s: update" in t
               for t in texts(logged))


@pytest_twisted.ensureDeferred
async def test_shutdown_alone_only_asks_cancel_calls_it_off_and_no_reason_reads_well(
        msrv: ModeratedServer, logged: Any) -> None:
    """Outside finding U12: `/shutdown` alone shut the server down in 60 s with no way back,
    and a shutdown without a reason read `(-; Boss)`. Now `/shutdown` alone shows its usage,
    `/shutdown cancel` calls an announced one off (everybody told, new games again), and a
    warning without a reason reads well in every language."""
    boss = await boss_of(msrv)
    ann = await msrv.client()
    await ann.login("Ann")
    assert await boss.read_line() == "Ann enters the lobby."
    assert await reply(boss, "/shutdown") == \
        "! [bad-arguments] Usage: /shutdown SECONDS [REASON...] | /shutdown cancel"
    assert await reply(boss, "/shutdown cancel") == "! [no-shutdown] No shutdown is under way to cancel."
    assert not msrv.server.world.closing
    assert (await reply(ann, "/set lang de")).startswith("Sprache: Deutsch")
    for c in (ann, boss):
        await reply(c, "/set width 250")        # each announcement on one line
    boss.send("/shutdown 3600")
    assert await boss.read_line() == \
        "*** The server shuts down in 1 hour (announced by Boss). No new games start."
    assert await ann.read_line() == ("*** Der Server fährt in 1 Stunde herunter (angekündigt "
                                     "von Boss). Keine neuen Spiele mehr.")
    assert (await reply(ann, "/newroom")).startswith("! [shutting-down]")
    boss.send("/shutdown cancel")
    assert await boss.read_line() == ("*** Boss has cancelled the shutdown: the server stays up, "
                                      "and new games may start again.")
    assert await ann.read_line() == ("*** Boss hat das Herunterfahren abgesagt: Der Server läuft "
                                     "weiter, und neue Spiele können wieder beginnen.")
    assert not (await reply(ann, "/newroom")).startswith("! [")
    assert await boss.read_line() == "Ann leaves the lobby."
    assert any("moderation: Boss cancels the shutdown" in t for t in texts(logged))
    assert await reply(boss, "/shutdown cancel") == "! [no-shutdown] No shutdown is under way to cancel."
    from lobby.events import Event
    from protocol.render.text import render
    for lang in ("en", "de", "fr", "es", "da"):                 # no `-`, no empty parentheses
        line, = render(Event("shutdown-warning", seconds=60, reason="", by="Boss"), lang)
        assert "-;" not in line and "()" not in line and "( " not in line and "Boss" in line


# ---- nobody acts for somebody else (the same bytes as a socket, through StringTransport) -------
def test_nobody_acts_in_a_seat_not_theirs_or_at_a_table_not_theirs(clock: task.Clock) -> None:
    lobby = FakeLobby(clock)
    lobby.world.on_new_table = lambda table: setattr(table, "bot_delay", 0)
    players = {}
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve"):
        players[name] = c = lobby.connect()
        c.login(name)
    ann, eve = players["Ann"], players["Eve"]
    ann.send("/newroom")
    ann.send("/option seed 5")
    for name in ("Bob", "Cat", "Dan", "Eve"):
        players[name].send("/room 1")
    for name in ("Ann", "Bob", "Cat", "Dan"):
        players[name].send("/join")
    for c in players.values():
        c.raw()
    # Eve watches: she may neither configure nor start this table, nor take a taken seat
    eve.send("/option target 500")          # (only the host may: issue 24)
    assert "! [host-only-option]" in eve.text()
    eve.send("/start")
    assert "! [host-command]" in eve.text()
    eve.send("/join 2")
    assert "! [seat-taken]" in eve.text() or "! [table-full]" in eve.text()
    ann.send("/start")
    ann.raw()
    eve.raw()
    # in the game: Eve cannot act for any seat, nor vote anybody out
    for line in ("/nogrand", "/grand", "/tichu", "/schupf S2 S3 S4", "/play S2", "/pass",
                 "/bomb S5 B5 G5 R5", "/wish 7", "/dragon left", "/remove Bob", "/leave"):
        eve.send(line)
        out = eve.text()
        assert out.startswith("! ["), (line, out)
        assert "[not-a-player]" in out or "[not-seated]" in out or "[not-vanished]" in out, \
            (line, out)
    # a seated player has no way to name another seat: the commands act for the sender only
    bob = players["Bob"]
    bob.send("/nogrand")
    bob_out = bob.text()
    table = lobby.world.tables[1]
    rnd = table.match.round
    assert rnd.grand[table.match.seat_of(table.players.index("Bob"))] is False
    assert [rnd.grand[table.match.seat_of(table.players.index(n))] for n in ("Ann", "Cat", "Dan")] \
        == [None, None, None]
    # nobody sees another seat's cards: Eve (a spectator) saw none, Bob only his own
    hidden_from_bob: set[Any] = set()
    for n in ("Ann", "Cat", "Dan"):
        seat = table.match.seat_of(table.players.index(n))
        from lobby.tichu.cards import parse_cards
        hidden_from_bob |= set(parse_cards(rnd.view(seat)["hand"]))
    assert not (card_tokens(without_legend(bob_out)) & hidden_from_bob)
    eve.send("/spielinfo")
    assert not card_tokens(eve.text())


def test_nobody_changes_another_account(clock: task.Clock) -> None:
    lobby = FakeLobby(clock)
    lobby.register("Alice", "sesame1")
    mallory = lobby.connect()
    mallory.login("Mallory")
    mallory.raw()
    mallory.send("/password sesame1 stolen1")       # Mallory is a guest: no account to change
    assert "! [not-registered]" in mallory.text()
    mallory.send("/role Alice none")
    assert "! [not-allowed]" in mallory.text()
    mallory.send("/register hijack1")               # registers Mallory's own name only
    assert "Mallory is registered now" in mallory.text()
    mallory.send("/password hijack1 another1")      # changes Mallory's own password only
    assert mallory.text().startswith("Your password")
    intruder = lobby.connect()
    intruder.send("Alice")
    intruder.send("stolen1")
    assert "! [wrong-password]" in intruder.text()
    alice = lobby.connect()
    assert "Welcome back, Alice!" in alice.login("Alice", "sesame1")


def test_passwords_never_appear_in_the_log(clock: task.Clock, logged: Any) -> None:
    lobby = FakeLobby(clock)
    c = lobby.connect()
    c.login("Secretive")
    c.send("/register pw-Register1")
    c.send("/password pw-Register1 pw-Changed2")
    c.send("/password wrong-Old3 pw-New4")
    c.send("/quit")
    again = lobby.connect()
    again.login("Secretive", "pw-Wrong5")
    again.login("Secretive", "pw-Changed2")
    everything = "\n".join(texts(logged)) + json.dumps([str(e) for e in logged])
    for secret in ("pw-Register1", "pw-Changed2", "wrong-Old3", "pw-New4", "pw-Wrong5"):
        assert secret not in everything, secret
    assert "Secretive logged in" in everything


@pytest.mark.slow   # a server process started and stopped (or killed): seconds of wall time
def test_shutdown_command_makes_the_server_process_exit_cleanly(tmp_path: Path) -> None:
    """``tichu-lobby admin create Boss --role admin`` offline, then ``tichu-lobby --admin
    Boss``: Boss logs in, /shutdown 1 -> the process exits with 0."""
    import os
    import re
    import socket
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    (tmp_path / "pw").write_text("sesame1\n")
    made = subprocess.run([sys.executable, "-m", "protocol", "admin", "--db",
                           str(tmp_path / "s.sqlite3"), "create", "Boss", "--role", "admin",
                           "--password-file", str(tmp_path / "pw")], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=60)
    assert made.returncode == 0 and "created the account Boss (admin)" in made.stdout, made
    proc = subprocess.Popen(
        [sys.executable, "-m", "protocol", "--db", str(tmp_path / "s.sqlite3"), "--admin", "Boss",
         "--port", "tcp:0:interface=127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        port = None
        for line in proc.stdout:  # one log line per event
            m = re.search(r"listening on \S+ \(127\.0\.0\.1:(\d+)\)", line)
            if m:
                port = int(m.group(1))
                break
        assert port is not None
        with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
            s.sendall(b"Boss\r\nsesame1\r\n/shutdown 1 maintenance\r\n")
            received = b""
            while b"Goodbye." not in received:
                data = s.recv(4096)
                if not data:
                    break
                received += data
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = received.decode("utf-8", "replace")
    assert "The server shuts down in 1 second (maintenance; Boss)" in text
    assert "The server is shutting down. Goodbye." in text
    assert proc.returncode == 0, err
    assert "moderation: Boss shuts the server down in 1.0 s: maintenance" in out
    assert "sesame1" not in out


def test_the_reverse_mute_index_follows_the_mute_lists() -> None:
    """World.say filters a crowded room by Moderation.ignorers(speaker): one look-up per line."""
    from types import SimpleNamespace

    from lobby.world.moderation import Moderation

    got: list[Any] = []
    world = SimpleNamespace(clock=None, moderation=None, online=lambda name: None)
    mod = Moderation(store=None, world=world)

    def guest(key: str) -> Any:
        return SimpleNamespace(key=key, name=key.title(), registered=False,
                               listener=SimpleNamespace(deliver=got.append))

    ann, cid = guest("ann"), guest("cid")
    def run(coro: Any) -> None:                # a guest's list never waits for the store
        with pytest.raises(StopIteration):
            coro.send(None)
    run(mod.mute(ann, "Bob"))
    run(mod.mute(cid, "bob"))
    run(mod.mute(cid, "Dan"))
    assert mod.ignorers("bob") == {"ann", "cid"} and mod.ignorers("dan") == {"cid"}
    assert mod.ignorers("eve") == set()
    run(mod.unmute(ann, "bob"))
    assert mod.ignorers("bob") == {"cid"}
    mod.forget_guest(cid)                      # a guest's list goes with the guest
    assert mod.ignorers("bob") == set() and mod.ignorers("dan") == set()
    assert mod.muted_by == {} and mod.mutes == {}
    assert [e.type for e in got] == ["muted", "muted", "muted", "unmuted"]


def test_two_unmutes_of_the_same_name_at_once() -> None:
    """Two connections of one registered user (a replaced log-in) take the same name off the list
    while the store deletes it: the second is answered not-muted, not with an internal error."""
    from types import SimpleNamespace

    from twisted.internet.defer import Deferred

    from lobby.text.messages import LobbyError
    from lobby.world.moderation import Moderation

    pending: list[Deferred[None]] = []

    def run_query(*args: Any) -> Deferred[None]:
        d: Deferred[None] = Deferred()
        pending.append(d)
        return d

    got: list[Any] = []
    world = SimpleNamespace(clock=None, moderation=None, online=lambda name: None)
    mod = Moderation(store=SimpleNamespace(run_query=run_query), world=world)
    mod.mutes = {"ann": {"bob": "Bob"}}
    mod.muted_by = {"bob": {"ann"}}
    ann = SimpleNamespace(key="ann", name="Ann", registered=True,
                          listener=SimpleNamespace(deliver=got.append))
    first, second = mod.unmute(ann, "bob"), mod.unmute(ann, "Bob")
    first.send(None)                     # both wait for the store
    second.send(None)
    assert len(pending) == 2
    pending[0].callback(None)
    with pytest.raises(StopIteration):
        first.send(None)
    pending[1].callback(None)
    with pytest.raises(LobbyError) as refused:
        second.send(None)
    assert refused.value.code == "not-muted"
    assert [e.type for e in got] == ["unmuted"] and mod.mutes == {} and mod.muted_by == {}
