"""protocol/connection/guard.py through StringTransport sessions and task.Clock: flood control, connection,
guest and log-in limits, the log-in and idle timers (also: never idle-kicked while the table
waits on somebody else). Every time here is the clock's; nothing waits for real."""
from __future__ import annotations

import random
from typing import Any

from twisted.internet import task

from conftest import FakeClient, FakeLobby, held_runner, unwrap
from protocol.connection.guard import Guard, Limits, TokenBucket, is_loopback
from table_support import new_table


class GuardedLobby(FakeLobby):
    """A FakeLobby whose factory has a Guard with the given limits."""

    def __init__(self, clock: task.Clock, **limits: Any) -> None:
        super().__init__(clock)
        self.guard = Guard(Limits(**limits), clock, self.world)
        self.factory.services.guard = self.guard

    def connect_from(self, host: str) -> FakeClient:
        from twisted.internet.address import IPv4Address
        from twisted.internet.testing import StringTransport

        class From(FakeClient):
            def __init__(self, factory: Any) -> None:
                self.factory = factory
                self.transport = StringTransport(peerAddress=IPv4Address("TCP", host, 4321))
                self.session = factory.buildProtocol(None)
                self.session.makeConnection(self.transport)
                self.closed = False
        return From(self.factory)


def _messages(events: list[dict[str, Any]]) -> list[str]:
    from twisted.logger import formatEvent
    return [formatEvent(e) for e in events]


# ---- the token bucket ----------------------------------------------------------------------------
def test_token_bucket_allows_a_burst_then_the_rate() -> None:
    bucket = TokenBucket(rate=2.0, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.5)          # one new token after 1/rate seconds
    assert not bucket.take(0.5)
    assert not bucket.full(1.0)
    assert bucket.full(2.0)          # 3 tokens after 1.5 s more: full again
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]  # never above burst


def test_loopback_addresses() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("127.0.0.9") and is_loopback("::1")
    assert not is_loopback("192.168.1.1") and not is_loopback("?")
    # (review) the one function of lobby.world.addresses: the IPv4-mapped form too
    assert is_loopback("::ffff:127.0.0.1") and not is_loopback("::ffff:192.168.1.1")


# ---- flood control -----------------------------------------------------------------------------
def test_flood_one_warning_then_silent_drops_then_disconnect(clock: task.Clock,
                                                             logged: Any) -> None:
    lobby = GuardedLobby(clock, flood_rate=1.0, flood_burst=3, flood_kick=5)
    c = lobby.connect()
    c.login("Flo")         # the login lines (the name, the confirming Enter) spend two tokens
    clock.advance(1.0)     # one of them back: one spent, as with a single login line
    c.raw()
    c.send("/who")
    c.send("/who")
    assert c.lines().count("In the lobby (1): Flo") == 2
    c.send("/who")         # no token left: dropped with the one warning
    lines = c.lines()
    assert lines == ["! [flooding] You are sending lines too fast (more than 1 a second); lines "
                     "are", "  dropped until you slow down."]           # wrapped at 80 columns
    for _ in range(3):
        c.send("/who")     # dropped silently
    assert c.lines() == [] and not c.closed
    c.send("/who")         # the fifth dropped line: persistent flooding
    assert c.lines() == ["! [flood-disconnect] Too many lines too fast; closing the connection."]
    assert c.closed
    assert any("flood: closing the connection of Flo" in m for m in _messages(logged))


def test_flood_control_recovers_when_the_client_slows_down(clock: task.Clock) -> None:
    lobby = GuardedLobby(clock, flood_rate=2.0, flood_burst=2, flood_kick=50)
    c = lobby.connect()
    c.login("Slow")
    c.raw()
    c.send("/who")
    c.send("/who")
    assert any("[flooding]" in line for line in c.lines())
    clock.advance(1.0)     # two tokens again (the bucket is full): the warning is re-armed
    c.send("/who")
    c.send("/who")
    c.send("/who")
    lines = c.lines()
    assert lines.count("In the lobby (1): Slow") == 2
    assert sum("[flooding]" in line for line in lines) == 1
    assert not c.closed


def test_a_flooder_does_not_stop_the_others(clock: task.Clock) -> None:
    lobby = GuardedLobby(clock, flood_rate=5.0, flood_burst=5, flood_kick=1000)
    calm = lobby.connect()
    calm.login("Calm")
    flooder = lobby.connect()
    flooder.login("Flood")           # the name and the confirming Enter: two tokens
    clock.advance(0.2)               # one back: one spent, as with a single login line
    calm.raw()
    flooder.send(b"chatter chatter\r\n" * 500)
    heard = [line for line in calm.lines() if "<Flood>" in line]
    assert len(heard) == 4            # the burst (the login took one token), nothing more
    calm.send("/who")
    assert calm.lines() == ["In the lobby (2): Calm, Flood"]


# ---- connection limits ---------------------------------------------------------------------------
def test_connections_per_address_and_in_total(clock: task.Clock, logged: Any) -> None:
    lobby = GuardedLobby(clock, max_per_ip=2, max_connections=3)
    a1 = lobby.connect_from("10.0.0.1")
    a2 = lobby.connect_from("10.0.0.1")
    a3 = lobby.connect_from("10.0.0.1")
    assert "login: " in a1.text() and "login: " in a2.text()
    assert a3.text() == ("! [too-many-connections] Too many connections from your address (at "
                         "most 2);\r\n  this one is closed.\r\n")      # wrapped at 80 columns
    assert a3.closed
    b1 = lobby.connect_from("10.0.0.2")
    b2 = lobby.connect_from("10.0.0.3")
    assert "login: " in b1.text()
    assert b2.text() == "! [server-full] The server is full; please try again later.\r\n"
    assert lobby.guard.total == 3 and lobby.guard.per_ip == {"10.0.0.1": 2, "10.0.0.2": 1}
    a1.send("guest")
    a1.send("/quit")
    assert a1.closed
    a4 = lobby.connect_from("10.0.0.1")   # a free place again
    assert "login: " in a4.text()
    assert any("refused a connection from 10.0.0.3: server-full" in m for m in _messages(logged))


def test_loopback_is_exempt_from_the_per_address_limit_unless_asked(clock: task.Clock) -> None:
    lobby = GuardedLobby(clock, max_per_ip=1)
    clients = [lobby.connect_from("127.0.0.1") for _ in range(3)]
    assert all("login: " in c.text() for c in clients)
    strict = GuardedLobby(clock, max_per_ip=1, limit_loopback=True)
    first, second = strict.connect_from("127.0.0.1"), strict.connect_from("127.0.0.1")
    assert "login: " in first.text() and "[too-many-connections]" in second.text()


def test_guests_in_total(clock: task.Clock) -> None:
    lobby = GuardedLobby(clock, max_guests=1)
    lobby.register("Reggie", "secret1")
    g1 = lobby.connect()
    assert "You are a guest" in g1.login("guest")
    g2 = lobby.connect()
    out = g2.login("Visitor")
    assert "! [too-many-guests] Too many guests are online (at most 1)" in out
    assert out.endswith("login: ") and g2.session.state == "login"
    r = lobby.connect()
    assert "Welcome back, Reggie!" in r.login("Reggie", "secret1")   # registered: no limit
    g1.send("/quit")
    assert "You are a guest" in g2.login("Visitor")


# ---- logging in --------------------------------------------------------------------------------
def test_wrong_password_is_answered_after_a_delay_and_attempts_are_limited(
        clock: task.Clock, logged: Any) -> None:
    lobby = GuardedLobby(clock, login_attempts_per_minute=2, login_failure_delay=3.0)
    lobby.register("Alice", "sesame1")
    c = lobby.connect_from("10.1.1.1")
    c.raw()
    c.send("alice")
    c.send("wrong1")
    assert "wrong-password" not in c.text()      # not yet: the delay
    clock.advance(2.9)
    assert "wrong-password" not in c.text()
    clock.advance(0.1)
    assert "! [wrong-password] Wrong password.\r\nlogin: " in c.text()
    other = lobby.connect_from("10.1.1.1")       # another connection from the same address
    other.raw()
    other.send("alice")
    other.send("wrong2")
    clock.advance(3)
    other.raw()
    other.send("alice")
    other.send("sesame1")                        # the third attempt in a minute: refused
    out = other.text()
    assert "! [too-many-attempts] Too many password attempts from your address; try again" in out
    assert other.session.state == "login"
    clock.advance(60)
    assert "Welcome back, Alice!" in other.login("alice", "sesame1")
    elsewhere = lobby.connect_from("10.9.9.9")   # other addresses were never limited
    assert "Welcome back, Alice!" in elsewhere.login("alice", "sesame1")
    assert any("too many log-in attempts from 10.1.1.1" in m for m in _messages(logged))


def test_login_timeout(clock: task.Clock) -> None:
    lobby = GuardedLobby(clock, login_timeout=30)
    slow = lobby.connect()
    quick = lobby.connect()
    quick.login("Quick")
    clock.advance(29)
    assert not slow.closed
    clock.advance(1)
    assert "! [login-timeout] You did not log in within 30 seconds; closing the connection." in slow.text()
    assert slow.closed
    quick.raw()
    clock.advance(1000)
    assert not quick.closed and lobby.guard.total == 1


# ---- idle ----------------------------------------------------------------------------------------
def test_idle_warning_then_disconnect_and_typing_resets(clock: task.Clock) -> None:
    lobby = GuardedLobby(clock, idle_timeout=100, idle_warning=20)
    c = lobby.connect()
    c.login("Idler")
    c.raw()
    clock.advance(79)
    assert c.text() == ""
    clock.advance(1)
    assert "! [idle-warning] You have typed nothing for a long time; you will be disconnected " \
           "in 20 seconds unless you type something." in unwrap(c.text())
    clock.advance(10)
    c.send("/who")                      # typing resets the timer
    c.raw()
    clock.advance(79)
    assert c.text() == "" and not c.closed
    clock.advance(1)
    assert "[idle-warning]" in c.text()
    clock.advance(20)
    assert "! [idle-timeout] Disconnected after 1 minute 40 seconds without input." in c.text()
    assert c.closed


def test_idle_and_login_timers_of_many_connections_share_one_timer(clock: task.Clock) -> None:
    """The log-in and idle deadlines of every connection live in one timer wheel: 200 idle
    connections add no timer of their own to the clock (no call per connection), and each
    still gets its warning and its disconnect on time."""
    lobby = GuardedLobby(clock, idle_timeout=100, idle_warning=20, login_timeout=30)
    before = len(clock.getDelayedCalls())
    # (+ 2: the wheel's one timer and the log budget's one for its summaries, lobby/log_budget)
    clients = [lobby.connect() for _ in range(200)]
    assert len(clock.getDelayedCalls()) <= before + 2
    for i, c in enumerate(clients):
        c.login(f"Idle{i}")
        c.raw()
    assert len(clock.getDelayedCalls()) <= before + 2
    assert len(lobby.guard.wheel) == 400           # a log-in and an idle deadline each
    clock.advance(30)                              # the log-in deadlines passed: all logged in
    assert not any(c.closed for c in clients)
    assert len(lobby.guard.wheel) == 200
    clock.advance(50)
    assert all("[idle-warning]" in c.text() for c in clients)
    clients[0].send("/who")                        # typing moves only that deadline
    clock.advance(20)
    kicked = ["[idle-timeout]" in c.text() for c in clients]
    assert kicked.count(True) == 199 and not kicked[0] and not clients[0].closed
    assert len(clock.getDelayedCalls()) <= before + 2


def test_the_timer_wheel_runs_deadlines_in_order_and_cancels(clock: task.Clock) -> None:
    from protocol.connection.guard import TimerWheel
    wheel = TimerWheel(clock, resolution=1.0)
    ran: list[str] = []
    t0 = clock.seconds()
    a = wheel.call_at(t0 + 2.5, lambda: ran.append("a"))   # rounded up to the slot of t0+3
    wheel.call_at(t0 + 1, lambda: ran.append("b"))
    c = wheel.call_at(t0 + 1, lambda: ran.append("c"))
    c.cancel()
    assert not c.active() and a.active()
    clock.advance(1)
    assert ran == ["b"]
    clock.advance(1.5)
    assert ran == ["b"]
    clock.advance(0.5)
    assert ran == ["b", "a"] and not a.active()
    assert clock.getDelayedCalls() == [] and len(wheel) == 0


class _RunningTable:
    """Stands in for a TableActor: a running game that waits on ``waiting``."""

    def __init__(self, players: list[str], waiting: set[str]) -> None:
        self.state = "playing"
        self.players = players
        self.waiting = waiting
        self.number = 9

    def waiting_for(self) -> set[str]:
        return set(self.waiting)


def test_a_seated_player_is_not_idle_kicked_while_the_table_waits_on_somebody_else(
        clock: task.Clock) -> None:
    lobby = GuardedLobby(clock, idle_timeout=100, idle_warning=20)
    c = lobby.connect()
    c.login("Patient")
    c.raw()
    table = _RunningTable(["Patient", "Bob", "Cat", "Dan"], {"Bob"})
    lobby.world.tables[9] = table
    clock.pump([10] * 100)              # 1000 s: the game waits on Bob all the time
    assert not c.closed and "[idle" not in c.text()
    table.waiting = {"Patient"}         # now it waits on Patient: warning first, then closed
    clock.advance(60)
    assert "[idle-warning]" in c.text() and not c.closed
    clock.advance(20)
    assert "[idle-timeout]" in c.text()
    assert c.closed


def test_table_waiting_for_names_the_players_the_game_waits_on() -> None:
    table, rec, _clock = new_table(options={"seed": "11"})
    assert table.waiting_for() == set()           # no game yet
    table.submit("ann", "start")
    assert table.waiting_for() == {"ann", "bob", "cat", "dan"}   # Grand Tichu: everybody
    for name in ("ann", "bob", "cat"):
        table.submit(name, "nogrand")
    assert table.waiting_for() == {"dan"}
    table.submit("dan", "nogrand")
    assert table.waiting_for() == {"ann", "bob", "cat", "dan"}   # the exchange
    rng = random.Random(3)
    from table_support import step
    while table.match is not None and table.match.round.phase != "play":
        step(table, rec, rng)
    rnd = table.match.round
    assert table.waiting_for() == {table.players[table.match.player_at(rnd.turn)]}


def test_command_line_options_give_the_documented_defaults() -> None:
    from protocol.connection.guard import PUBLIC_LIMITS
    from protocol.process.options import limits_from, parse_args
    opts = parse_args([])
    limits = limits_from(opts, (65536, 65536))
    assert limits == Limits.public(max_connections=65436)
    assert limits.max_per_ip == PUBLIC_LIMITS.max_per_ip == 8
    assert limits.flood_rate == 20 and limits.flood_burst == 20 and limits.idle_timeout == 3600
    custom = limits_from(parse_args(["--max-connections", "50", "--max-per-ip", "0",
                                     "--flood-rate", "0", "--idle-timeout", "60",
                                     "--limit-loopback", "--admin", "Boss"]))
    assert (custom.max_connections, custom.max_per_ip, custom.flood_rate, custom.idle_timeout,
            custom.limit_loopback) == (50, 0, 0, 60, True)
    assert parse_args(["--admin", "Boss"]).admin == "Boss"


def test_the_limits_of_the_first_bytes_and_the_side_channel_are_options() -> None:
    from protocol.process.options import limits_from, parse_args
    limits = limits_from(parse_args([]))
    assert (limits.greeting_delay, limits.max_subnegotiation, limits.max_gmcp_supports) == \
        (0.2, 8192, 64)
    custom = limits_from(parse_args(["--greeting-delay", "0", "--max-subnegotiation", "1024",
                                     "--max-gmcp-supports", "8"]))
    assert (custom.greeting_delay, custom.max_subnegotiation, custom.max_gmcp_supports) == \
        (0, 1024, 8)
    assert Limits().greeting_delay == 0 and Limits().max_subnegotiation == 8192
    # a session takes its sizes from the limits
    lobby = GuardedLobby(task.Clock(), max_subnegotiation=1024, max_gmcp_supports=8)
    c = lobby.connect()
    assert c.session.telnet.MAX_SUBNEGOTIATION_BYTES == 1024 and c.session.gmcp.max_supports == 8


def test_the_flooding_warning_in_machine_mode_never_takes_a_running_commands_id(
        clock: task.Clock) -> None:
    import json

    from twisted.internet.defer import Deferred
    lobby = GuardedLobby(clock, flood_rate=1.0, flood_burst=3, flood_kick=0)
    pending: list[Deferred] = []
    slow = held_runner(pending)

    c = lobby.connect()
    c.send("%json")
    c.send("#login Flo")          # two tokens of three
    c.raw()
    lobby.accounts._run = slow
    c.send("#reg /register first1")   # the last token; it waits for the password hash
    c.send("#w /who")                  # dropped: the flooding warning
    flooding = [json.loads(line) for line in c.raw().decode().split("\r\n")[:-1]]
    assert [(o["type"], o.get("code"), o.get("id")) for o in flooding] == \
        [("error", "flooding", None)]
    pending.pop().callback(None)
    got = [json.loads(line) for line in c.raw().decode().split("\r\n")[:-1]]
    assert [(o["type"], o.get("id")) for o in got] == [("registered", "reg")]
