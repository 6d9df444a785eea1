"""The world: log-in rules, rooms, speech and whisper routing (no sockets)."""
from __future__ import annotations

import random

import pytest
from twisted.internet import task

from lobby.events import Event
from lobby.tables.table import TableActor
from lobby.text.messages import LobbyError
from lobby.world.world import LOBBY, Room, World


class Inbox:
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.closed_with: Event | None = None

    def deliver(self, event: Event) -> None:
        self.events.append(event)

    def disconnect(self, event: Event) -> None:
        self.closed_with = event

    def types(self) -> list[str]:
        return [e.type for e in self.events]


@pytest.fixture
def world() -> World:
    return World(task.Clock(), rng=random.Random(3))


def test_users_start_in_the_lobby_and_arrivals_are_announced(world: World) -> None:
    a, b = Inbox(), Inbox()
    alice = world.login("Alice", a, registered=False)
    assert alice.room is world.rooms[LOBBY] and world.lobby.number == 0
    world.login("Bob", b, registered=True)
    assert a.events == [Event("enters", name="Bob", room="Lobby")]
    assert b.events == []
    assert world.who(alice) == Event("who", room="Lobby", number=0, names=["Alice", "Bob"], bots=[],
                                     staff={})


def test_arrivals_are_not_announced_in_a_crowded_room(world: World) -> None:
    """N log-ins into one room would cost N**2/2 lines; past the limit nobody is told."""
    world.announce_limit = 3
    inboxes = [Inbox() for _ in range(5)]
    for n, inbox in enumerate(inboxes):
        world.login(f"User{n}", inbox, registered=False)
    # User1 saw User2 arrive (2 members before), nobody saw User3 or User4 (3 and 4 before)
    assert [e.data["name"] for e in inboxes[0].events] == ["User1", "User2"]
    assert [e.data["name"] for e in inboxes[1].events] == ["User2"]
    assert inboxes[3].events == [] and inboxes[4].events == []
    user4 = world.online("User4")
    world.logout(user4, inboxes[4])
    assert inboxes[0].events[-1].data["name"] == "User2"     # no "leaves" in a room of 4 either
    assert len(world.who(world.online("User0")).data["names"]) == 4


def test_names_are_unique_case_insensitively_and_a_guest_name_online_is_refused(world: World) -> None:
    world.login("Alice", Inbox(), registered=False)
    with pytest.raises(LobbyError) as e:
        world.login("ALICE", Inbox(), registered=False)
    assert e.value.code == "name-in-use" and e.value.params == {"name": "Alice"}
    assert world.online("alice") is not None and len(world.users) == 1


def test_a_registered_login_replaces_the_old_connection(world: World) -> None:
    old, new, other = Inbox(), Inbox(), Inbox()
    user = world.login("Carol", old, registered=True)
    world.login("Dave", other, registered=False)
    same = world.login("carol", new, registered=True)
    assert same is user and user.listener is new
    assert old.closed_with == Event("replaced", name="Carol")
    # the old connection going away later does not log the user out
    assert world.logout(user, old) is False
    assert world.online("Carol") is user
    assert "leaves" not in other.types()
    assert world.logout(user, new) is True
    assert world.online("Carol") is None
    assert other.events[-1] == Event("leaves", name="Carol", room="Lobby")


def test_speech_reaches_the_room_only_and_tell_reaches_one(world: World) -> None:
    a, b, c = Inbox(), Inbox(), Inbox()
    alice = world.login("Alice", a, False)
    bob = world.login("Bob", b, False)
    carol = world.login("Carol", c, False)
    table_room = Room(7, "Table 7", table=TableActor(7, world.clock, lambda names, event: None))
    world.rooms[7] = table_room
    world.enter(carol, table_room)
    for inbox in (a, b, c):
        inbox.events.clear()
    world.say(alice, "hello")
    said = Event("says", name="Alice", text="hello", room="Lobby")
    assert a.events == [said] and b.events == [said] and c.events == []
    world.tell(bob, "carol", "psst")
    assert c.events == [Event("tells", name="Bob", text="psst")]
    assert b.events[-1] == Event("told", name="Carol", text="psst")
    assert said in a.events and len(a.events) == 1
    with pytest.raises(LobbyError) as e:
        world.tell(alice, "nobody", "x")
    assert e.value.code == "not-online"


def test_wwho_lists_everybody_with_their_room(world: World) -> None:
    alice = world.login("alice", Inbox(), True)
    world.login("Bob", Inbox(), False)
    world.rooms[3] = Room(3, "Table 3")
    world.enter(alice, world.rooms[3])
    assert world.wwho().data["users"] == [
        {"name": "alice", "room": "Table 3", "registered": True},
        {"name": "Bob", "room": "Lobby", "registered": False}]


def test_free_guest_names_are_free(world: World) -> None:
    names = set()
    for _ in range(50):
        name = world.free_guest_name()
        assert name.startswith("Guest") and name[5:].isdigit()
        assert world.online(name) is None
        world.login(name, Inbox(), False)
        names.add(name.lower())
    assert len(names) == 50


def test_a_failing_listener_does_not_stop_delivery(world: World) -> None:
    class Broken(Inbox):
        def deliver(self, event: Event) -> None:
            raise RuntimeError("boom")

    good = Inbox()
    speaker = world.login("Alice", Inbox(), False)
    world.login("Bob", Broken(), False)
    world.login("Carol", good, False)
    world.say(speaker, "still here")
    assert good.events[-1].type == "says"


# ---- the table index: a log-in, a /join and a log-out look at the tables of one name ----------
class _Addressed(Inbox):
    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address


def _crowded_world(tables: int) -> tuple[World, list[str]]:
    """``tables`` tables, each opened by its host, who sits down; every fourth one running with
    three bots."""
    from lobby.world.world import TableLimits
    w = World(task.Clock(), rng=random.Random(5),
              table_limits=TableLimits(tables_per_user=2, seats_per_user=1, tables_per_address=4,
                                       limit_loopback=True))
    hosts = []
    for n in range(tables):
        name = f"Host{n}"
        user = w.login(name, _Addressed(f"10.0.{n // 250}.{n % 250}"), registered=False)
        table = w.open_table(user)
        table.bot_delay = 0
        table.submit(name, "join")
        if n % 4 == 0:
            for _ in range(3):
                table.submit(name, "addbot")
            table.submit(name, "start")
        hosts.append(name)
    return w, hosts


def _brute(w: World, user: object, **kw: object) -> list[int]:
    return sorted(n for n, t in w.tables.items()
                  if t not in user.barred and w._takes_part(t, user.key, **kw))  # type: ignore


def test_a_login_join_and_logout_look_only_at_the_tables_of_that_name(monkeypatch) -> None:
    """Set-up was quadratic: every log-in, /join and log-out asked every table about the name.
    With 400 tables open, one more player's log-in, /newroom, /join, a /join elsewhere and
    log-out ask a handful of tables, not 400."""
    w, _hosts = _crowded_world(400)
    asked: list[int] = []
    real_takes_part, real_holds = World._takes_part, TableActor.holds_seat_for
    monkeypatch.setattr(World, "_takes_part",
                        lambda self, t, *a, **k: asked.append(t.number) or real_takes_part(
                            self, t, *a, **k))
    monkeypatch.setattr(TableActor, "holds_seat_for",
                        lambda self, *a, **k: asked.append(self.number) or real_holds(self, *a, **k))
    inbox = _Addressed("10.9.9.9")
    user = w.login("Newcomer", inbox, registered=False)
    table = w.open_table(user)
    table.submit("Newcomer", "join")
    w.tables[2].submit("Newcomer", "join")      # refused: one seat per user
    assert "Newcomer" not in w.tables[2].seats
    assert inbox.events[-1] == Event("seat-limit", limit=1, tables="401")
    w.logout(user, inbox)
    assert len(asked) < 20, sorted(set(asked))


def test_the_index_answers_what_asking_every_table_answers() -> None:
    """After joins, leaves, starts, resets and closed tables, the indexed answers of who takes
    part where are the answers of looking at every table."""
    w, hosts = _crowded_world(40)
    rng = random.Random(11)
    for step in range(300):
        name = rng.choice(hosts)
        user = w.online(name)
        number = rng.choice(sorted(w.tables))
        table = w.tables[number]
        what = rng.choice(["join", "leave", "enter", "reset", "start", "newroom"])
        try:
            if what == "enter":
                w.enter(user, w.rooms[number])
            elif what == "newroom":
                w.open_table(user)
            else:
                table.submit(name, what)
        except LobbyError:
            pass
        for other in hosts:
            u = w.online(other)
            assert w._tables_of(u) == _brute(w, u), (step, other)
            assert w._tables_of(u, seated_only=True) == _brute(w, u, seated_only=True)
            brute_held = [n for n, t in sorted(w.tables.items()) if t.state == "playing"
                          and t.holds_seat_for(other) is not None]
            assert [h.table for h in w.guest_seats(other)] == [
                n for n in brute_held if w.tables[n].holds_seat_for(other).guest]


class LocalInbox(Inbox):
    """A listener connected from the IPv4 loopback address as a dual-stack socket shows it."""

    address = "::ffff:127.0.0.1"


def test_a_loopback_address_in_its_ipv6_mapped_form_is_exempt_from_the_group_presence_budget(
        ) -> None:
    """Review of session 10: the world's own loopback test did not read ::ffff:127.0.0.1 (a
    dual-stack listener's peer) as loopback, as lobby.world.addresses.is_loopback does, so its
    users shared one address group's enters/leaves budget although loopback is exempt."""
    from lobby.world.world import TableLimits
    world = World(task.Clock(), rng=random.Random(3),
                  table_limits=TableLimits(group_presence_per_minute=1))
    watcher = Inbox()
    world.login("Watcher", watcher, registered=False)
    for n in range(3):
        world.login(f"Local{n}", LocalInbox(), registered=False)
    assert [e.data["name"] for e in watcher.events] == ["Local0", "Local1", "Local2"]


def test_a_loopback_address_in_its_ipv6_mapped_form_is_exempt_from_the_per_address_tables(
        ) -> None:
    """Review: TableLimits.limits_address had its own loopback test, without the IPv4-mapped
    form, so the users of ::ffff:127.0.0.1 (a dual-stack listener's peer) shared one address's
    table limit although loopback is exempt. It uses lobby.world.addresses.is_loopback now."""
    from lobby.world.world import TableLimits
    world = World(task.Clock(), rng=random.Random(3),
                  table_limits=TableLimits(tables_per_address=1))
    for n in range(3):
        user = world.login(f"Local{n}", LocalInbox(), registered=False)
        world.open_table(user)                 # no address-tables: loopback is exempt
    assert len(world.tables) == 3
