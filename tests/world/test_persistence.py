"""Nothing lost, in process: the journal gate at a real table, stored games and the commands that
show them, restoring a table after a "crash", reconnecting to a seat, and the grace time before
/remove. StringTransport sessions, a task.Clock (the journal flushes when the clock turns) and
an in-memory store with inline "threads"."""
from __future__ import annotations

import random
from typing import Any

import pytest
import pytest_twisted
from twisted.internet.address import IPv4Address
from twisted.internet.defer import Deferred

from conftest import RunningServer, fired, unwrap, within
from lobby.storage.records import GameArchive
from table_support import PLAYERS, Lobby, play, rows, seat_keys, seat_players
from test_bswlog import check_log, read_tch


# ---- the journal gate ---------------------------------------------------------------------------
def test_an_action_is_journaled_before_anybody_sees_it(clock: Any) -> None:
    lobby = Lobby(clock)
    clients = seat_players(lobby, options={"seed": "7"})
    table = lobby.world.tables[1]
    assert rows(lobby, "SELECT table_no FROM journal_tables") == [(1,)]
    clients["Ann"].send("/nogrand")          # handled, recorded, but held until the commit
    assert clients["Bob"].lines() == [] and clients["Ann"].lines() == []
    assert rows(lobby, "SELECT COUNT(*) FROM journal_actions") == [(0,)]
    clients["Ann"].send("/who")              # a later line of Ann's waits for that reply
    assert clients["Ann"].lines() == []
    clock.advance(0)                         # the turn is over: one transaction, then the events
    assert rows(lobby, "SELECT seq, table_no FROM journal_actions") == [(1, 1)]
    assert any("Ann" in line for line in clients["Bob"].lines())
    ann = clients["Ann"].lines()
    assert any(line.startswith("At table 1") for line in ann)
    assert len(table.match.actions) == 1
    assert lobby.persistence.journal.transactions >= 2


# ---- records, statistics, ratings and the commands -----------------------------------------------
def test_a_finished_game_is_stored_and_shown_by_history_replay_rangliste_and_finger(
        clock: Any) -> None:
    lobby = Lobby(clock)
    clients = seat_players(lobby, options={"target": "200"})      # no seed: rated
    table = lobby.world.tables[1]
    play(lobby, random.Random(3))
    assert table.state == "finished"
    [record] = lobby.persistence.saved
    assert record.game.rated and record.game_id == 1
    assert rows(lobby, "SELECT COUNT(*) FROM journal_tables") == [(0,)]   # journal closed
    assert rows(lobby, "SELECT rated, unrated, score0, score1 FROM games") == [
        (1, None, *table.match.scores)]
    ann = clients["Ann"]
    ann.lines()
    history = lobby.say(ann, "/history")
    assert history[0] == "Recent games of Ann:" and history[1].startswith("  #1 ")
    assert f"{table.match.scores[0]} : {table.match.scores[1]}" in history[1]
    assert lobby.say(ann, "/history Zed") == [
        "! [no-such-user] Nobody called Zed is online or registered."]
    replay = lobby.say(ann, "/replay 1")
    assert replay[0].startswith("Game #1, table 1") and len(replay) > 20
    rounds = table.match.round_no
    assert lobby.say(ann, f"/replay 1 {rounds + 1}") == [
        f"! [no-such-round] Game #1 has no round {rounds + 1}; it had {rounds} "
        f"{'round' if rounds == 1 else 'rounds'}."]
    assert lobby.say(ann, "/replay 9") == [
        "! [no-such-game] There is no game #9; /history lists recent games."]
    assert lobby.say(ann, "/replay x") == ["! [bad-arguments] Usage: /replay GAME [ROUND]"]
    ranking = lobby.say(ann, "/rangliste")
    assert ranking[0].startswith("Rangliste") and len(ranking) == 5
    assert {line.split()[1] for line in ranking[1:]} == set(PLAYERS)
    finger = lobby.say(ann, "/finger Ann")
    assert any(line.startswith("  games 1 (won ") for line in finger)
    assert any(line.startswith("  rating ") for line in finger)
    # the stored BSW log reads, by the archive's rules, as the same game
    text = fired(GameArchive(lobby.store).bswlog(1))
    assert len(read_tch(text)) == rounds
    check_log(table.match, list(table.players), text)


@pytest.mark.parametrize("how,reason", [("seed", "seed"), ("nosave", "nosave"),
                                        ("guests", "guests"), ("log off", None)])
def test_what_is_unrated_and_what_counts(clock: Any, how: str, reason: str | None) -> None:
    lobby = Lobby(clock)
    options = {"target": "50"}
    if how == "seed":
        options["seed"] = "5"
    if how == "log off":
        options["log"] = "off"
    seat_players(lobby, registered=how != "guests", options=options,
                 start="/startnosave" if how == "nosave" else "/start")
    play(lobby, random.Random(5))
    [(rated, unrated, log)] = rows(lobby, "SELECT rated, unrated, bswlog IS NOT NULL FROM games")
    assert (rated, unrated) == (int(reason is None), reason)
    assert log == (how != "log off")
    counted = rows(lobby, "SELECT COALESCE(SUM(games), 0) FROM player_stats")[0][0]
    assert counted == {"seed": 4, "nosave": 0, "guests": 0, "log off": 4}[how]
    assert bool(rows(lobby, "SELECT COUNT(*) FROM player_ratings")[0][0]) == (reason is None)


# ---- restart: a table restored from the journal --------------------------------------------------
def test_after_a_crash_the_table_is_restored_and_its_players_log_back_in(clock: Any) -> None:
    before = Lobby(clock)
    seat_players(before, options={"seed": "21", "target": "200", "grace": "30"})
    old = before.world.tables[1]
    play(before, random.Random(21), until=lambda t: len(t.match.actions) >= 25
         and t.match.round.phase == "play")
    record = old.match.record()
    # the process dies here: nothing is shut down; a new world starts on the same database
    after = Lobby(clock, before.store)
    restored = fired(Deferred.fromCoroutine(after.persistence.restore()))
    assert [t.number for t in restored] == [1]
    table = after.world.tables[1]
    assert table.state == "playing" and table.match.record() == record
    assert table.gone == set(PLAYERS) and table.options.grace == 30 and table.seed == 21
    assert after.world.listroom().data["tables"][0]["seats"] == old.seated
    clients = {}
    for name in PLAYERS:
        c = after.connect()
        text = c.login(name, "pw" + name.lower() + "1")
        assert "You are back in your seat at table 1; the game goes on." in text
        after.turn()
        lines = text.splitlines() + c.lines()
        hand = table.match.view(table.players.index(name))["hand"]
        assert any(line.strip() == f"Your hand: {hand}" for line in lines), lines
        clients[name] = c
    assert table.gone == set()
    before_seq = len(table.match.actions)
    play(after, random.Random(22))
    assert table.state == "finished" and len(table.match.actions) > before_seq
    [saved] = after.persistence.saved
    assert saved.game.record["actions"][:len(record["actions"])] == record["actions"]
    assert rows(after, "SELECT COUNT(*) FROM journal_tables") == [(0,)]


def test_a_bot_seat_is_restored_and_the_bot_plays_on(clock: Any) -> None:
    before = Lobby(clock)
    for name in PLAYERS[:3]:
        before.register(name, "pw" + name.lower() + "1")
    clients = {}
    for name in PLAYERS[:3]:
        clients[name] = c = before.connect()
        c.login(name, "pw" + name.lower() + "1")
    before.say(clients["Ann"], "/newroom")
    for name in PLAYERS[1:3]:
        before.say(clients[name], "/room 1")
    for name in PLAYERS[:3]:
        before.say(clients[name], "/join")
    before.say(clients["Ann"], "/addbot random")
    before.say(clients["Ann"], "/option target 50")
    before.say(clients["Ann"], "/start")
    play(before, random.Random(4), until=lambda t: len(t.match.actions) >= 12)
    record = before.world.tables[1].match.record()
    after = Lobby(clock, before.store)
    fired(Deferred.fromCoroutine(after.persistence.restore()))
    table = after.world.tables[1]
    assert table.match.record() == record and list(table.bots) == ["Bot1~random"]
    assert table.bots["Bot1~random"].strategy_name == "random"
    for name in PLAYERS[:3]:
        after.connect().login(name, "pw" + name.lower() + "1")
    after.turn()
    play(after, random.Random(5))
    assert table.state == "finished"
    assert after.persistence.saved[0].game.unrated_reason == "bots"


def test_after_a_restart_a_guest_seat_goes_back_only_with_its_key(clock: Any) -> None:
    before = Lobby(clock)
    seat_players(before, registered=False, options={"seed": "23", "grace": "60"})
    play(before, random.Random(23), until=lambda t: t.match.round.phase == "play")
    after = Lobby(clock, before.store)          # killed and started again on the same database
    fired(Deferred.fromCoroutine(after.persistence.restore()))
    table = after.world.tables[1]
    assert table.gone == set(PLAYERS)
    impostor = after.connect()                  # the same address, without the key
    assert "[seat-held]" in impostor.login("Bob", "")
    assert "[wrong-seat-key]" in impostor.login("Bob", "zzzz")
    assert "Bob" in table.gone
    bob = after.connect()                       # another address, with the key
    bob.transport.peerAddr = IPv4Address("TCP", "10.9.8.7", 4000)
    assert "You are back in your seat at table 1; the game goes on." in bob.login(
        "Bob", before.keys["Bob"])
    assert "Bob" not in table.gone
    # the database holds the keys' salted hashes, never a key
    dump = "\n".join(fired(before.store.run_query(lambda c: list(c.iterdump()))))
    assert "sha256$" in dump and not any(key in dump for key in before.keys.values())


# ---- reconnecting --------------------------------------------------------------------------------
def test_a_dropped_connection_rejoins_its_seat_with_its_hand(clock: Any) -> None:
    lobby = Lobby(clock)
    clients = seat_players(lobby, registered=False, options={"seed": "9"})
    table = lobby.world.tables[1]
    play(lobby, random.Random(9), until=lambda t: t.match.round.phase == "play")
    clients["Bob"].transport.loseConnection()
    clients["Bob"].send("")                  # FakeClient notices the closed transport
    lobby.turn()
    assert table.gone == {"Bob"}
    ann = clients["Ann"].lines()
    assert ("Bob has vanished; the game waits for them. After 2 minutes the other players may "
            "/remove Bob.") in unwrap("\r\n".join(ann))
    assert any("Bob (gone)" in line or "Bob" in line for line in ann)
    # nobody plays for Bob: when it is Bob's turn the table waits
    assert not table.bots
    # nobody without the key gets the name within the grace time, from any address ...
    impostor = lobby.connect()
    impostor.transport.peerAddr = IPv4Address("TCP", "10.9.8.7", 4000)
    assert "[seat-held]" in impostor.login("Bob", "")
    # ... Bob with the key may
    again = lobby.connect()
    text = again.login("Bob", lobby.keys["Bob"])
    lobby.turn()
    lines = text.splitlines() + again.lines()
    assert "You are back in your seat at table 1; the game goes on." in lines
    hand = table.match.view(table.players.index("Bob"))["hand"]
    assert f"Your hand: {hand}" in [line.strip() for line in lines]
    assert table.gone == set() and "Bob is back." in clients["Ann"].lines()
    # after the grace time the name is free: a guest without the key gets it, not the seat
    again.send("/quit")                  # warned once: the game waits (issue 26, #7)
    again.send("/quit")
    clock.advance(121)
    late = lobby.connect()
    text = late.login("Bob", "")
    assert "Hello Bob!" in text and "back in your seat" not in text
    assert table.gone == {"Bob"}


def test_a_guest_with_a_drawn_name_comes_back_by_that_name(clock: Any) -> None:
    lobby = Lobby(clock)
    names = ["Ann", "Bob", "Cat"]
    clients = {n: lobby.connect() for n in names}
    for n, c in clients.items():
        c.login(n)
    guest = lobby.connect()
    guest_name = guest.login("guest").split("Hello ", 1)[1].split("!", 1)[0]
    lobby.say(clients["Ann"], "/newroom")
    for c in (clients["Bob"], clients["Cat"], guest):
        lobby.say(c, "/room 1")
    keys: dict[str, str] = {}
    for c in [*clients.values(), guest]:
        keys.update(seat_keys("\n".join(lobby.say(c, "/join"))))
    lobby.say(clients["Ann"], "/start")
    guest.send("/quit")
    guest.send("/quit")      # (a player is warned once: issue 26, #7)
    lobby.turn()
    assert lobby.world.tables[1].gone == {guest_name}
    back = lobby.connect()
    text = back.login(guest_name, keys[guest_name])  # reserved (Guest1234) but held for them
    assert "You are back in your seat at table 1" in text
    stranger = lobby.connect()
    assert "[reserved-name]" in stranger.login("Guest0001")


def test_a_replacing_login_gets_the_table_again(clock: Any) -> None:
    lobby = Lobby(clock)
    clients = seat_players(lobby, options={"seed": "3"})
    second = lobby.connect()
    text = second.login("Cat", "pwcat1")
    lobby.turn()
    lines = text.splitlines() + second.lines()
    assert "You are back in your seat at table 1; the game goes on." in lines
    table = lobby.world.tables[1]
    hand = table.match.view(table.players.index("Cat"))["hand"]
    assert f"Your hand: {hand}" in lines
    assert lobby.world.tables[1].gone == set()
    del clients


# ---- the grace time and /remove ------------------------------------------------------------------
def test_remove_waits_for_the_grace_time_then_a_bot_plays_to_the_end(clock: Any) -> None:
    lobby = Lobby(clock)
    clients = seat_players(lobby, options={"target": "50", "grace": "60"})
    table = lobby.world.tables[1]
    play(lobby, random.Random(6), steps=10)
    clients["Dan"].send("/quit")
    clients["Dan"].send("/quit")      # (a player is warned once: issue 26, #7)
    lobby.turn()
    clock.advance(30)
    clients["Ann"].lines()
    assert lobby.say(clients["Ann"], "/remove Dan") == [
        "! [remove-too-early] Dan may still come back: /remove is possible in 30 seconds",
        "  (the table's grace time, /option grace)."]                # wrapped at 80 columns
    clock.advance(30)
    lobby.say(clients["Ann"], "/remove Dan")
    lobby.say(clients["Bob"], "/accept")
    assert "Dan" not in table.players and len(table.bots) == 1
    play(lobby, random.Random(7))
    assert table.state == "finished"
    [saved] = lobby.persistence.saved
    # a game counts from its start: rated at /start, it stays rated; Dan's seat stays his in
    # the record (he left, the bot that took over is named), and he alone loses
    assert saved.game.unrated_reason is None
    dan = saved.players[table.players.index(next(iter(table.bots)))]
    assert (dan.name, dan.kind, dan.replaced_by) == ("Dan", "registered", next(iter(table.bots)))
    assert dan.left_round is not None
    assert [p.kind for p in saved.players].count("bot") == 0
    # the seat change was journaled while the game ran (restorable); now the journal is closed
    assert rows(lobby, "SELECT COUNT(*) FROM journal_tables") == [(0,)]


def test_a_table_nobody_comes_back_to_is_abandoned_and_its_journal_closed(clock: Any) -> None:
    lobby = Lobby(clock)
    clients = seat_players(lobby, options={"seed": "2"})
    for c in clients.values():
        c.send("/quit")
        c.send("/quit")      # (a player is warned once: issue 26, #7)
    lobby.turn()
    assert 1 in lobby.world.tables and rows(lobby, "SELECT COUNT(*) FROM journal_tables") == [(1,)]
    clock.advance(lobby.world.abandon_after)
    lobby.turn()
    assert lobby.world.tables == {}
    assert rows(lobby, "SELECT COUNT(*) FROM journal_tables") == [(0,)]


@pytest_twisted.ensureDeferred
async def test_a_stopped_server_s_tables_and_bots_play_no_more(server: RunningServer) -> None:
    """stop() halts every table before the journal's last flush and the database's close: no
    bot decision or table timer is left on the reactor, and a command reaching the table later
    changes nothing (before, the bots played on into the closed database: a 'NOT committed'
    error line for each of their moves, logged during whatever test ran next)."""
    from twisted.internet import reactor
    c = await server.client()
    await c.login("Anna")
    for line in ("/newroom", "/join 1", "/addbot random", "/addbot random", "/addbot random",
                 "/start"):
        c.send(line)
    await within(c.expect("Grand Tichu? /grand or /nogrand\r\n"))
    table = server.server.world.tables[1]
    journal = server.server.persistence.journal
    await within(server.server.stop())
    owners = {table, *table.bots.values()}
    assert not [call for call in reactor.getDelayedCalls()
                if call.active() and getattr(call.func, "__self__", None) in owners]
    actions = len(table.match.actions)
    table.submit("Anna", "nogrand")
    assert len(table.match.actions) == actions and table.state == "playing"
    assert journal.backlog() == (0, 0) and journal.failures == 0


# ---- /shutdown records every table; the next start restores it -----------------------------------
@pytest_twisted.ensureDeferred
async def test_shutdown_records_the_running_tables_and_the_next_start_restores_them(
        server: RunningServer) -> None:
    clients = {}
    for name in PLAYERS:
        c = await server.client()
        await c.login(name)
        clients[name] = c
    await within(clients["Ann"].expect("Dan enters the lobby.\r\n"))
    keys: dict[str, str] = {}
    for name, line in [("Ann", "/newroom"), ("Bob", "/room 1"), ("Cat", "/room 1"),
                       ("Dan", "/room 1"), ("Ann", "/join"), ("Bob", "/join"), ("Cat", "/join"),
                       ("Dan", "/join"), ("Ann", "/option seed 31"), ("Ann", "/start"),
                       ("Ann", "/nogrand"), ("Bob", "/grand")]:
        clients[name].send(line)
        clients[name].send(f"/whereis {name}")
        keys.update(seat_keys(await within(clients[name].expect(f"{name} is in the "))))
    world = server.server.world
    record = world.tables[1].match.record()
    assert len(record["actions"]) == 2
    stopped = Deferred()
    server.server.exit = lambda: stopped.callback(None)
    server.server.shutdown(0, "update", "Ann")          # what /shutdown 0 update does
    await within(stopped)
    server.clients = []
    await server.start()
    table = server.server.world.tables[1]
    assert table.match.record() == record and table.gone == set(PLAYERS)
    bob = await server.client()
    await bob.expect("login: ")
    bob.send("Bob")
    await bob.expect("key: ")                   # the journal kept the hash of Bob's key
    bob.send(keys["Bob"])
    text = await bob.expect("/help for the commands.\r\n")
    text += await within(bob.expect("Your hand: "))
    assert "You are back in your seat at table 1; the game goes on." in text
