"""Abuse limits of tables (issue "Safe to run in public"): how many open tables one user hosts or
sits at, how many one IP address takes part in, the clean-up of tables nobody comes back to,
and /listroom on a crowded server. The attacker's cases run over real loopback sockets."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest
import pytest_twisted

from conftest import FakeLobby, RunningServer, server_fixture, unwrap
from lobby.world.world import LISTROOM_PAGE, TableLimits, World
from protocol.connection.guard import PUBLIC_LIMITS, Limits

ERROR = re.compile(r"! \[([a-z0-9-]+)\]")
#: the command line's defaults, the per-address limit also on loopback (the tests' address)
LIMITS = Limits(max_tables_per_user=PUBLIC_LIMITS.max_tables_per_user,
                max_seats_per_user=PUBLIC_LIMITS.max_seats_per_user,
                max_tables_per_ip=PUBLIC_LIMITS.max_tables_per_ip, limit_loopback=True)


class LimitedServer(RunningServer):
    server_options = {"motd": "Test server.", "limits": LIMITS}


limited = server_fixture(LimitedServer, "limited")


def test_the_command_line_defaults() -> None:
    """One seat and one more hosted table per user (as on BSW), four tables per address."""
    from protocol.process.options import limits_from, parse_args
    limits = limits_from(parse_args([]), (4096, 4096))
    assert (limits.max_tables_per_user, limits.max_seats_per_user, limits.max_tables_per_ip,
            limits.abandon_after, limits.max_grace) == (2, 1, 4, 3600, 600)
    custom = limits_from(parse_args(["--max-tables-per-ip", "9", "--max-tables-per-user", "3",
                                     "--max-seats-per-user", "2", "--abandon-after", "60",
                                     "--max-grace", "300"]))
    assert custom.table_limits() == TableLimits(tables_per_user=3, seats_per_user=2,
                                                tables_per_address=9, abandon_after=60.0,
                                                opens_per_minute=10, max_grace=300.0,
                                                max_timer=300.0, max_target=10000,
                                                max_rounds=100, max_bombwindow=10.0,
                                                min_rated_timer=30.0, min_rated_grace=30.0,
                                                max_friends=100,
                                                guest_expert_seconds=2.0,
                                                expert_tables_per_user=1,
                                                presence_per_minute=12,
                                                group_presence_per_minute=30)


async def _answered(client: Any, name: str) -> str:
    """Everything ``client`` received until the answer to a probe sent now."""
    client.send(f"/whereis {name}")
    return await client.expect(f"{name} is in the ", 30.0)


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_one_guest_trying_to_open_a_thousand_tables_gets_two(limited: LimitedServer
                                                                     ) -> None:
    """The attack of the issue: a guest opens a table, sits down with three bots and starts,
    opens a second one for four bots and starts it, then sends /newroom a thousand times in one
    burst. They keep their one seat and two tables; every further seat is `seat-limit`, every
    further table `too-many-tables`, and nothing else breaks."""
    world = limited.server.world
    guest = await limited.client()
    await guest.login("Mallory")
    for line, answer in [("/newroom", "You open table 1"), ("/join", "down in seat 1"),
                         ("/addbot", "seat 2"), ("/addbot", "seat 3"), ("/addbot", "seat 4"),
                         ("/start", "the game starts"), ("/newroom", "You open table 2"),
                         ("/join", "! [seat-limit] You sit at table 1 already"),
                         ("/addbot 1", "seat 1"), ("/addbot 2", "seat 2"),
                         ("/addbot 3", "seat 3"), ("/addbot 4", "seat 4"),
                         ("/start", "the game starts")]:
        guest.buffer = ""
        guest.send(line)
        await guest.expect(answer, 10.0)
    guest.send("\r\n".join(["/newroom"] * 1000))
    received = await _answered(guest, "Mallory")
    assert sorted(world.tables) == [1, 2]
    assert [t.state for t in world.tables.values()] == ["playing", "playing"]
    codes = ERROR.findall(received)
    assert codes == ["too-many-tables"] * 1000
    assert "! [too-many-tables] You host or sit at 2 open tables already (table 1, 2); " \
           "leave one, or let its game end, first." in unwrap(received)


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_guests_of_one_address_take_part_in_four_tables(limited: LimitedServer) -> None:
    """--max-tables-per-ip: five guests of one address (a NAT, or one person with five names)
    open five tables: the fifth is refused, and a table an offline guest still plays at
    (waiting for them) still counts."""
    world = limited.server.world
    guests = []
    for n in range(5):
        c = await limited.client()
        await c.login(f"Nat{n}")
        guests.append(c)
    for c in guests[:4]:
        c.buffer = ""
        c.send("/newroom")
        await c.expect("You open table ")
    guests[4].buffer = ""
    guests[4].send("/newroom")
    refused = await guests[4].expect("! [address-tables] ")
    assert "address-tables" in refused
    await guests[4].expect("leave one first.\r\n")
    assert len(world.tables) == 4
    # a guest who plays at table 1 and disconnects: the table waits for them and still counts
    host = guests[0]
    host.send("/join\r\n/addbot\r\n/addbot\r\n/addbot\r\n/start")
    await host.expect("the game starts")
    await host.close()
    again = await limited.client()
    await again.login("Nat5")
    again.send("/newroom")
    await again.expect("! [address-tables] ")
    # a waiting table whose room empties closes at once and frees the address's place
    guests[1].send("/manager")
    await guests[1].expect("In the lobby")
    assert len(world.tables) == 3
    again.buffer = ""
    again.send("/newroom")
    await again.expect("You open table ")
    # /join at a table opened from elsewhere counts for the joiner's address too
    guests[4].send(f"/room {world.online('Nat5').room.number}")
    await guests[4].expect("watching table ")
    guests[4].buffer = ""
    guests[4].send("/join")
    await guests[4].expect("You sit down in seat ")     # the same table: no new place
    await _answered(guests[4], "Nat4")


def _online(lobby: FakeLobby, *names: str) -> list[Any]:
    clients = []
    for name in names:
        c = lobby.connect()
        c.login(name)
        c.raw()
        clients.append(c)
    return clients


def test_seat_and_table_limits_through_sessions(clock: Any) -> None:
    """A user sits at one table at a time and hosts or sits at two; the room they leave to open
    a table does not count (its seat is freed)."""
    lobby = FakeLobby(clock)
    lobby.world = World(clock, table_limits=LIMITS.table_limits())
    lobby.factory.services.world = lobby.world
    ann, bob = _online(lobby, "Ann", "Bob")
    ann.send("/newroom")
    ann.send("/join")
    ann.send("/newroom")                     # leaves table 1 (closed: empty), opens it again
    assert sorted(lobby.world.tables) == [1]
    ann.send("/join")
    for _ in range(3):
        ann.send("/addbot")
    ann.send("/start")
    ann.raw()
    ann.send("/newroom")                     # a player of table 1's game hosts table 2
    assert sorted(lobby.world.tables) == [1, 2]
    ann.raw()
    ann.send("/join")
    assert ann.lines() == ["! [seat-limit] You sit at table 1 already, and a user sits at 1 "
                           "table at a", "  time; leave it, or let its game end, first."]
    bob.send("/room 2")
    bob.send("/join")                        # others sit down at Ann's second table
    assert "You sit down in seat 1." in bob.lines()
    for _ in range(3):
        ann.send("/addbot")
    ann.send("/start")                       # the host starts it without sitting down
    ann.raw()
    ann.send("/newroom")
    assert ann.lines() == ["! [too-many-tables] You host or sit at 2 open tables already "
                           "(table 1, 2);", "  leave one, or let its game end, first."]


def test_a_table_nobody_comes_back_to_waits_for_the_grace_time_and_the_abandon_time(
        lobby: FakeLobby) -> None:
    """All humans gone: the table is kept until both its grace time and the abandon time have
    run out (here the grace time is the longer one)."""
    players = _online(lobby, "Ann", "Bob", "Cat", "Dan")
    players[0].send("/newroom")
    for p in players[1:]:
        p.send("/room 1")
    for p in players:
        p.send("/join")
    players[0].send(f"/option grace {int(lobby.world.abandon_after) + 600}")
    players[0].send("/start")
    table = lobby.world.tables[1]
    for p in players:
        p.send("/quit")
        p.send("/quit")      # (a player is warned once: issue 26, #7)
    lobby.clock.advance(lobby.world.abandon_after + 1)
    assert lobby.world.tables.get(1) is table and table.state == "playing"
    lobby.clock.advance(600)
    assert lobby.world.tables == {} and table.result and table.result.get("abandoned")


def test_listroom_shows_ten_tables_a_page_with_a_summary(lobby: FakeLobby) -> None:
    names = [f"Host{n:02}" for n in range(45)]
    clients = _online(lobby, *names)
    for c in clients:
        c.send("/newroom")
    clients[0].send("/join")
    for _ in range(3):
        clients[0].send("/addbot")
    clients[0].send("/start")
    watcher = _online(lobby, "Watcher")[0]
    watcher.send("/listroom")
    lines = watcher.lines()
    assert lines[0] == "Tables 1-10 of 45 (44 waiting, 1 playing), page 1 of 5:"
    assert lines[-1] == "/listroom 2 shows the next 10."
    assert len(lines) == 2 + 2 * LISTROOM_PAGE <= 23      # a 24-row screen, with the prompt
    watcher.send("/listroom 5")
    lines = watcher.lines()
    assert lines[0] == "Tables 41-45 of 45 (44 waiting, 1 playing), page 5 of 5:"
    assert len(lines) == 1 + 2 * 5 and lines[-1].endswith("watching")
    watcher.send("/listroom 6")
    assert watcher.lines() == ["! [no-such-page] There is no page 6; /listroom has 5 pages."]
    watcher.send("/listroom ５")
    assert watcher.lines() == ["! [no-such-page] There is no page ５; /listroom has 5 pages."]
    # machine mode gets the page as data, with the counts of all pages
    watcher.send("/iset json 1")
    watcher.raw()
    watcher.send("#p /listroom 2")
    (obj,) = [json.loads(line) for line in watcher.lines()]
    assert obj["type"] == "listroom" and obj["id"] == "p"
    assert [t["table"] for t in obj["tables"]] == list(range(11, 21))
    assert (obj["total"], obj["page"], obj["pages"], obj["per_page"], obj["waiting"],
            obj["playing"]) == (45, 2, 5, 10, 44, 1)


class _From:
    """A listener connected from ``address`` (what the world reads of a session)."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.events: list[Any] = []

    def deliver(self, event: Any) -> None:
        self.events.append(event)

    def disconnect(self, event: Any) -> None:
        self.events.append(event)


def test_the_users_of_one_ipv6_64_count_as_one_address(clock: Any) -> None:
    """--max-tables-per-ip counts an address group, as the other per-address limits do: an
    IPv6 client usually has a whole /64 to pick a new address from for every guest (found by an
    external review: seven guests of one /64 opened seven tables, limit 4)."""
    from lobby.text.messages import LobbyError
    world = World(clock, table_limits=TableLimits(tables_per_address=2))
    opened = []
    for i in range(1, 4):
        user = world.login(f"Guest{i}", _From(f"2001:db8:7:2::{i}"), registered=False)
        try:
            opened.append(world.open_table(user).number)
        except LobbyError as e:
            assert e.code == "address-tables" and i == 3
    assert len(opened) == 2
    other = world.login("Guest9", _From("2001:db8:7:3::1"), registered=False)
    assert world.open_table(other) is not None           # the next /64 is another household


def test_opening_tables_in_a_loop_is_rate_limited(clock: Any, logged: Any) -> None:
    """Found by an external review: one guest opening and closing a table 18 times a second
    (below flood control) wrote two log lines each time for as long as it liked. A user opens at
    most --tables-per-minute tables a minute; the refusals are not logged."""
    from twisted.logger import formatEvent
    lobby = FakeLobby(clock)
    lobby.world = World(clock, table_limits=Limits(tables_per_minute=3).table_limits())
    lobby.factory.services.world = lobby.world
    (churn,) = _online(lobby, "Churn")
    before = len(logged)
    for _ in range(20):
        churn.send("/newroom")
        clock.advance(0.05)
    out = unwrap("\r\n".join(churn.lines())).split("\r\n")    # (lines wrapped at 80)
    assert sum("You open table" in line for line in out) == 3
    refused = [line for line in out if line.startswith("! [tables-too-fast]")]
    assert len(refused) == 17
    assert refused[0] == ("! [tables-too-fast] You opened 3 tables in the last minute, the most "
                          "one user may; try again in 1 minute.")
    assert len(logged) - before <= 3 * 2 + 1, [formatEvent(e) for e in logged[before:]]
    clock.advance(60)
    churn.send("/newroom")
    assert any("You open table" in line for line in churn.lines())


def test_the_table_opening_rate_is_an_option() -> None:
    from protocol.process.options import limits_from, parse_args
    assert limits_from(parse_args([])).table_limits().opens_per_minute == 10
    assert limits_from(parse_args(["--tables-per-minute", "2"])).tables_per_minute == 2
    assert Limits().tables_per_minute == 0
