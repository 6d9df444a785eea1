"""Rooms and tables in the world, through sessions on StringTransport (no sockets): /newroom,
/room, /manager (/lobby), /listroom, /whereis, speech in a table room, leaving and disconnecting,
clean-up and number reuse, /set color, /help of table commands."""
from __future__ import annotations

from conftest import FakeClient, FakeLobby, strip_telnet, unwrap
from lobby.tables.table import TABLE_COMMANDS
from protocol.commands import COMMANDS
from table_support import seat_keys


def online(lobby: FakeLobby, *names: str) -> list[FakeClient]:
    clients = []
    for name in names:
        c = lobby.connect()
        c.login(name)
        clients.append(c)
    for c in clients:
        c.raw()
    return clients


def sit_at_a_new_table(players: list[FakeClient]) -> dict[str, str]:
    """The first player opens a table (room 1), the others come into its room, all join.
    Returns the reconnect key each (guest) was told, by name; their output is left unread."""
    players[0].send("/newroom")
    for p in players[1:]:
        p.send("/room 1")
    keys: dict[str, str] = {}
    for p in players:
        p.send("/join")
        keys.update(seat_keys(strip_telnet(p.transport.value()).decode("utf-8")))
    return keys


def test_newroom_listroom_whereis_and_back_to_the_lobby(lobby: FakeLobby) -> None:
    ann, bob = online(lobby, "Ann", "Bob")
    ann.send("/listroom")
    assert ann.lines() == ["No tables are open; /newroom tichu opens one."]
    ann.send("/newroom tichu")
    lines = ann.lines()
    assert lines[0].startswith("You open table 1 (Tichu) and are its host")
    assert lines[1] == "  the options, /manager returns to the lobby."     # wrapped at 80
    assert lines[2:] == ["Table 1: waiting.", "Seats: 1 - | 2 - | 3 - | 4 -",
                         "/join [SEAT] or /addbot fills a seat (1+3 against 2+4); /start when "
                         "four sit."]
    assert bob.lines() == ["Ann leaves the lobby."]
    ann.send("/join 3")
    lines = ann.lines()
    key = seat_keys(lines[1])["Ann"]          # a guest is told the reconnect key of the seat
    assert lines == ["You sit down in seat 3.",
                     f"If you lose your connection, log in as Ann and give the key {key}.",
                     "Seats: 1 - | 2 - | 3 Ann | 4 -"]
    assert bob.lines() == []                  # nobody else
    ann.send("/option target 500")
    ann.lines()
    bob.send("/listroom")
    assert bob.lines() == ["Tables (1):",
                           "    1 tichu waiting  1 - | 2 - | 3 Ann | 4 -",
                           "      target 500; 0 watching"]
    bob.send("/whereis ann")
    assert bob.lines() == ["Ann is in the room of table 1 (/room 1 goes there)."]
    bob.send("/room 1")
    assert bob.lines()[0] == "You are watching table 1."          # (issue 26, review #12)
    assert ann.lines() == ["Bob comes to table 1."]
    bob.send("/room 1")                   # there already: the table is shown again, nobody told
    assert bob.lines()[:2] == ["Table 1: waiting, host Ann.", "  Seats: 1 -, 2 -, 3 Ann, 4 -"]
    assert ann.lines() == []
    bob.send("hello table")               # speech goes to the table's room only
    assert ann.lines() == ["<Bob> hello table"] and bob.lines() == ["<Bob> hello table"]
    bob.send("/listroom")
    assert bob.lines()[-1] == "      target 500; 1 watching"
    ann.send("/lobby")                    # alias of /manager; leaving frees the seat
    assert ann.lines() == ["In the lobby (1): Ann"]
    assert bob.lines() == ["Ann leaves table 1.", "Ann leaves seat 3.",
                           "Seats: 1 - | 2 - | 3 - | 4 -", "Bob is the host of this table now."]
    table = lobby.world.tables[1]
    assert table.seats == [None] * 4 and table.host == "Bob"
    bob.send("/manager")
    bob.lines()
    assert lobby.world.tables == {} and 1 not in lobby.world.rooms   # empty: cleaned up
    assert table.state == "waiting"
    ann.send("/room 1")
    assert ann.lines()[-1] == "! [no-such-room] There is no room 1; /listroom lists the tables."


def test_table_numbers_smallest_free_and_kept_while_anyone_is_in(lobby: FakeLobby) -> None:
    a, b, c = online(lobby, "Ann", "Bob", "Cat")
    a.send("/newroom")
    b.send("/newroom tichu")
    assert sorted(lobby.world.tables) == [1, 2]
    c.send("/room 1")
    a.send("/room 0")                     # table 1 keeps its number: Cat is still there
    c.send("/newroom tichu")              # Cat leaves table 1 (now empty: closed), opens 1 again
    assert sorted(lobby.world.tables) == [1, 2]
    assert lobby.world.tables[1].host == "Cat" and lobby.world.tables[2].host == "Bob"
    a.send("/newroom")
    assert sorted(lobby.world.tables) == [1, 2, 3]
    for x in (a, b, c):
        x.send("/quit")
        x.send("/quit")      # (a player is warned once: issue 26, #7)
    assert lobby.world.tables == {} and sorted(lobby.world.rooms) == [0]


def test_table_commands_need_a_table_and_help_explains_them(lobby: FakeLobby) -> None:
    (ann,) = online(lobby, "Ann")
    ann.send("/join")
    assert ann.lines() == ["! [not-at-table] You are not at a table; /room N enters one, "
                           "/newroom tichu", "  opens one."]       # wrapped at 80 columns
    ann.send("/help join")
    lines = ann.lines()
    assert lines[0] == "/join [SEAT]" and "first free seat" in " ".join(lines)
    ann.send("/help kartentausch")
    lines = ann.lines()
    assert lines[0] == "/schupf NEXT PARTNER PREVIOUS" and lines[1].startswith("  also: /kartentausch, ")
    # every table command of lobby.tables.table is in the command table, with its BSW aliases
    for tc in TABLE_COMMANDS:
        cmd = COMMANDS.lookup_exact(tc.name)
        assert cmd is not None and cmd.help and cmd.summary, tc.name
        assert cmd.args == tc.args and cmd.aliases == tc.aliases, tc.name
        for alias in tc.aliases:
            assert COMMANDS.lookup_exact(alias).name == tc.name
    assert COMMANDS.lookup_exact("peek") is None


def test_set_color_colours_the_hand(lobby: FakeLobby) -> None:
    players = online(lobby, "Ann", "Bob", "Cat", "Dan")
    ann = players[0]
    ann.send("/set color on")
    assert ann.lines() == ["Color is on now."]
    sit_at_a_new_table(players)
    ann.send("/option seed 5")
    ann.send("/start")
    ann_text = ann.text()
    bob_text = players[1].text()
    assert "Your first 8 cards: \x1b[" in ann_text
    assert "Your first 8 cards: " in bob_text and "\x1b[" not in bob_text
    ann.send("/set color off")
    ann.send("/spielinfo")
    assert "\x1b[" not in ann.text()


def test_a_player_who_leaves_or_disconnects_vanishes_and_can_come_back(lobby: FakeLobby) -> None:
    players = online(lobby, "Ann", "Bob", "Cat", "Dan")
    ann, bob = players[0], players[1]
    keys = sit_at_a_new_table(players)
    ann.send("/start")
    table = lobby.world.tables[1]
    assert table.state == "playing"
    for p in players:
        p.raw()
    vanished = ("Bob has vanished; the game waits for them. After 2 minutes the other players may "
                "/remove Bob.")
    bob.send("/manager")                  # leaving the room during the game: vanished
    assert vanished in unwrap("\r\n".join(ann.lines()))
    bob.send("/room 1")
    assert "Bob is back." in ann.lines()
    bob.send("/quit")                     # disconnecting: vanished too
    bob.send("/quit")      # (a player is warned once: issue 26, #7)
    assert vanished in unwrap("\r\n".join(ann.lines()))
    assert table.gone == {"Bob"}
    again = lobby.connect()                # logging in again with the key: back in the seat
    assert "You are back in your seat at table 1; the game goes on." in again.login(
        "Bob", keys["Bob"])
    assert "Bob is back." in ann.lines() and table.gone == set()
    # everybody goes offline: the table waits for its players a while, then it is abandoned
    for p in [ann, again, *players[2:]]:
        p.send("/quit")
        p.send("/quit")      # (a player is warned once: issue 26, #7)
    assert 1 in lobby.world.tables and table.state == "playing"
    lobby.clock.advance(lobby.world.abandon_after)
    assert lobby.world.tables == {} and table.state == "finished"
    assert table.result and table.result.get("abandoned")


def test_a_guest_back_under_another_spelling_of_the_name_gets_the_seat(lobby: FakeLobby) -> None:
    """Names are one name whatever the case: guest Bob, back as "bob" with the seat's key in
    the grace time, was once let in but left out of the seat the game held for Bob
    (not-a-player)."""
    players = online(lobby, "Ann", "Bob", "Cat", "Dan")
    keys = sit_at_a_new_table(players)
    players[0].send("/start")
    table = lobby.world.tables[1]
    players[1].send("/quit")
    players[1].send("/quit")      # (a player is warned once: issue 26, #7)
    assert table.gone == {"Bob"}
    again = lobby.connect()
    assert "You are back in your seat at table 1; the game goes on." in again.login(
        "bob", keys["Bob"].upper())          # the key in any case too
    assert table.gone == set() and lobby.world.online("bob").name == "Bob"


def test_the_abandon_time_starts_again_when_a_player_was_back(lobby: FakeLobby) -> None:
    """A table nobody of its players is online for is kept abandon_after seconds from the last
    departure: the timer of an earlier departure must not close it seconds after the next."""
    players = online(lobby, "Ann", "Bob", "Cat", "Dan")
    keys = sit_at_a_new_table(players)
    players[0].send("/start")
    table = lobby.world.tables[1]
    for p in players:
        p.send("/quit")
        p.send("/quit")      # (a player is warned once: issue 26, #7)
    wait = lobby.world.abandon_after
    lobby.clock.advance(wait - 10)
    again = lobby.connect()
    assert "You are back in your seat at table 1" in again.login("Bob", keys["Bob"])
    again.send("/quit")
    again.send("/quit")      # (a player is warned once: issue 26, #7)
    lobby.clock.advance(20)                # the first timer's time: Bob left only 20 s ago
    assert lobby.world.tables.get(1) is table and table.state == "playing"
    lobby.clock.advance(wait)
    assert lobby.world.tables == {} and table.result and table.result.get("abandoned")


def test_a_failure_inside_one_table_leaves_the_others_running(lobby: FakeLobby) -> None:
    ann, bob = online(lobby, "Ann", "Bob")
    ann.send("/newroom")
    bob.send("/newroom")
    broken = lobby.world.tables[1]

    def explode() -> dict[str, str]:
        raise RuntimeError("boom")
    broken.bot_list = explode               # /spielinfo of table 1 (only) fails inside
    try:
        ann.raw()
        bob.raw()
        ann.send("/spielinfo")
        assert ann.lines() == ["! [internal-error] Internal error while handling your command; "
                               "it was logged", "  and nothing changed."]   # wrapped at 79 of 80
        bob.send("/spielinfo")
        assert bob.lines()[0] == "Table 2: waiting, host Bob."
        ann.send("/join")                       # the broken table itself still works too
        assert ann.lines()[0] == "You sit down in seat 1."
    finally:
        del broken.bot_list
