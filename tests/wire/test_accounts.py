"""Password work and its limits (issue 12, "Log-in, accounts and roles", "Password work",
"Registrations"): argon2id hashes and the upgrade of old ones, password attempts counted per
connection, per address group (IPv6 /64) and per account, successful log-ins that never count,
the growing delay of an account, new accounts per address per hour. StringTransport sessions
and task.Clock: nothing waits for real."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest_twisted
from twisted.internet import task
from twisted.internet.address import IPv4Address, IPv6Address
from twisted.internet.defer import Deferred
from twisted.internet.task import deferLater
from twisted.internet.testing import StringTransport
from twisted.logger import formatEvent

from conftest import FAST_HASH, FakeClient, FakeLobby, RunningServer, fired, unwrap
from lobby.storage.accounts import (
    Accounts,
    Argon2Params,
    ScryptParams,
    check_password_hash,
    hash_password,
    hash_password_scrypt,
)
from lobby.storage.store import inline_runner
from protocol.connection.guard import ACCOUNT_DELAY_BASE, Guard, Limits, address_group


class Lobby(FakeLobby):
    """A FakeLobby with a Guard of the given limits; clients from any address."""

    def __init__(self, clock: task.Clock, **limits: Any) -> None:
        super().__init__(clock)
        self.guard = Guard(Limits(**limits), clock, self.world)
        self.factory.services.guard = self.guard

    def connect_from(self, host: str) -> FakeClient:
        address = (IPv6Address("TCP", host, 4321) if ":" in host
                   else IPv4Address("TCP", host, 4321))

        class From(FakeClient):
            def __init__(self, factory: Any) -> None:
                self.factory = factory
                self.transport = StringTransport(peerAddress=address)
                self.session = factory.buildProtocol(None)
                self.session.makeConnection(self.transport)
                self.closed = False
        return From(self.factory)

    def stored_hash(self, name: str) -> str:
        account = fired(self.store.get_account(name))
        assert account is not None
        return account.password_hash


def _login(lobby: Lobby, host: str, name: str, password: str) -> str:
    c = lobby.connect_from(host)
    c.raw()
    c.send(name)
    c.send(password)
    return c.text()


# ---- hashes ------------------------------------------------------------------------------------
def test_argon2id_hashes_and_their_rehash_verdict() -> None:
    h = hash_password("sesame12", FAST_HASH)
    assert h.startswith("$argon2id$v=19$m=8,t=1,p=1$")
    assert check_password_hash("sesame12", h, FAST_HASH).ok
    assert not check_password_hash("sesame13", h, FAST_HASH).ok
    assert not check_password_hash("sesame12", h, FAST_HASH).needs_rehash
    stronger = Argon2Params(time_cost=2, memory_cost=16, parallelism=1)
    verdict = check_password_hash("sesame12", h, stronger)    # other costs: upgrade
    assert verdict.ok and verdict.needs_rehash
    old = hash_password_scrypt("sesame12", ScryptParams(n=2**8))
    assert check_password_hash("sesame12", old, FAST_HASH).needs_rehash
    assert not check_password_hash("wrong123", old, FAST_HASH).needs_rehash


def test_an_old_scrypt_hash_is_upgraded_at_the_next_successful_log_in(clock: task.Clock) -> None:
    lobby = Lobby(clock)
    fired(lobby.store.create_account("Olde", hash_password_scrypt("sesame12", ScryptParams(n=2**8)),
                                     clock.seconds()))
    assert lobby.stored_hash("Olde").startswith("scrypt$")
    assert "Welcome back, Olde!" in _login(lobby, "10.0.0.1", "Olde", "sesame12")
    upgraded = lobby.stored_hash("Olde")
    assert upgraded.startswith("$argon2id$v=19$m=8,t=1,p=1$")
    lobby.world.logout(lobby.world.online("Olde"), lobby.world.online("Olde").listener)
    assert "Welcome back, Olde!" in _login(lobby, "10.0.0.2", "Olde", "sesame12")
    assert lobby.stored_hash("Olde") == upgraded            # current: not hashed again


def test_a_wrong_password_never_upgrades_an_old_hash(clock: task.Clock) -> None:
    lobby = Lobby(clock)
    old = hash_password_scrypt("sesame12", ScryptParams(n=2**8))
    fired(lobby.store.create_account("Olde", old, clock.seconds()))
    assert "wrong-password" in _login(lobby, "10.0.0.1", "Olde", "sesame13")
    assert lobby.stored_hash("Olde") == old


# ---- password attempts --------------------------------------------------------------------------
def test_a_burst_of_30_password_commands_costs_a_few_hash_runs(clock: task.Clock) -> None:
    lobby = Lobby(clock, password_attempts_per_connection=3, login_failure_delay=3.0)
    lobby.register("Pat", "sesame12")
    c = lobby.connect_from("10.0.0.7")
    c.send("Pat")
    c.send("sesame12")
    assert "Welcome back, Pat!" in c.text()
    before = lobby.accounts.hash_calls
    c.send(b"/password sesame12 newpass12\r\n" * 30)     # one TCP write
    for _ in range(10):
        clock.advance(3)
    out = c.text()
    runs = lobby.accounts.hash_calls - before
    assert runs <= 4, runs     # the change (check + hash), two wrong checks, then refusals
    assert "Your password has been changed." in out
    assert out.count("! [wrong-password]") == 2
    assert "! [too-many-attempts-here] Too many password attempts on this connection" in out
    assert "Traceback" not in out and not c.closed
    clock.advance(60)           # a minute later the connection may try again
    c.send("/password newpass12 newpass34")
    assert "Your password has been changed." in c.text()


def test_refused_password_attempts_add_one_log_line_a_minute(
        clock: task.Clock, logged: list[dict[str, Any]]) -> None:
    """Found by an external review: every refused /password wrote a log line, so a client below
    flood control wrote ~20 lines a second for ever. Now the first refusal of a minute (per
    connection, address group, account) is logged and the others are counted."""
    lobby = Lobby(clock, password_attempts_per_connection=3, account_failures_before_delay=3,
                  account_delay_max=900.0, login_attempts_per_minute=50)
    lobby.register("Pat", "sesame12")
    c = lobby.connect_from("10.0.0.7")
    c.send("Pat")
    c.send("sesame12")
    for _ in range(45):
        c.send("/password wrong000 newpass12")
        clock.advance(0.05)
    out = c.text()
    assert out.count("! [too-many-attempts-here]") + out.count("! [account-wait]") >= 40
    refusals = [e for e in logged if "refused" in formatEvent(e) or "too many" in formatEvent(e)]
    assert 1 <= len(refusals) <= 2, [formatEvent(e) for e in refusals]
    assert lobby.factory.services.guard.stats["refused_attempts"] >= 40
    clock.advance(61)                       # a new minute: its first refusal is logged again
    for _ in range(4):
        c.send("/password wrong000 newpass12")
    refusals = [e for e in logged if "refused" in formatEvent(e) or "too many" in formatEvent(e)]
    assert len(refusals) <= 4


def test_register_counts_as_a_password_attempt_of_the_address(clock: task.Clock) -> None:
    lobby = Lobby(clock, login_attempts_per_minute=2)
    guests = [lobby.connect_from("10.0.0.9") for _ in range(3)]
    for i, g in enumerate(guests):
        g.login(f"Newbie{i}")
        g.raw()
    guests[0].send("/register sesame12")
    guests[1].send("/register sesame12")
    assert "is registered now" in guests[0].text() + guests[1].text()
    before = lobby.accounts.hash_calls
    guests[2].send("/register sesame12")
    assert "! [too-many-attempts]" in guests[2].text()
    assert lobby.accounts.hash_calls == before               # refused before any hash
    assert fired(lobby.store.get_account("Newbie2")) is None


def test_successful_log_ins_never_count_against_the_address(clock: task.Clock) -> None:
    lobby = Lobby(clock, login_attempts_per_minute=2)
    for i in range(6):
        lobby.register(f"Member{i}", "sesame12")
    for i in range(6):                               # one NAT: six log-ins in a minute
        assert "Welcome back" in _login(lobby, "192.0.2.1", f"Member{i}", "sesame12")
    assert not lobby.guard._attempts.get("192.0.2.1")   # nothing left on the count
    lobby.register("Newcomer", "sesame12")
    assert "wrong-password" in _login(lobby, "192.0.2.1", "Newcomer", "guess001")
    assert "wrong-password" in _login(lobby, "192.0.2.1", "Newcomer", "guess002")
    assert "! [too-many-attempts]" in _login(lobby, "192.0.2.1", "Newcomer", "sesame12")


def test_one_guesser_behind_a_nat_does_not_lock_out_the_others(clock: task.Clock) -> None:
    lobby = Lobby(clock, login_attempts_per_minute=2)
    lobby.register("Anne", "sesame12")
    lobby.register("Victim", "sesame12")
    assert "Welcome back, Anne!" in _login(lobby, "192.0.2.1", "Anne", "sesame12")
    lobby.world.logout(lobby.world.online("Anne"), lobby.world.online("Anne").listener)
    assert "wrong-password" in _login(lobby, "192.0.2.1", "Victim", "guess001")
    clock.advance(5)
    assert "wrong-password" in _login(lobby, "192.0.2.1", "Victim", "guess002")
    clock.advance(5)
    assert "! [too-many-attempts]" in _login(lobby, "192.0.2.1", "Victim", "guess003")
    # the guesser is limited, Anne (who logged in from there before) is not
    assert "Welcome back, Anne!" in _login(lobby, "192.0.2.1", "Anne", "sesame12")


def test_failures_of_one_account_from_many_addresses_get_a_growing_delay(
        clock: task.Clock) -> None:
    # past --account-failures-ceiling (here 3) even address groups with no failure of their
    # own wait (tests/test_abuse_budgets.py: below it they do not)
    lobby = Lobby(clock, account_failures_before_delay=3, account_failures_ceiling=3,
                  account_delay_max=900.0)
    lobby.register("Target", "sesame12")
    for i in range(3):                               # three guesses, three addresses
        assert "! [wrong-password]" in _login(lobby, f"198.51.100.{i}", "Target", f"guess00{i}")
    calls = lobby.accounts.hash_calls
    out = _login(lobby, "198.51.100.50", "Target", "sesame12")   # even the right password
    assert f"! [account-wait] Too many wrong passwords for Target; the next attempt is " \
           f"possible in {ACCOUNT_DELAY_BASE:.0f} seconds." in unwrap(out)
    assert lobby.accounts.hash_calls == calls                    # no hash ran
    clock.advance(ACCOUNT_DELAY_BASE)
    assert "! [wrong-password]" in _login(lobby, "198.51.100.51", "Target", "guess004")
    out = _login(lobby, "198.51.100.52", "Target", "guess005")
    assert f"possible in {2 * ACCOUNT_DELAY_BASE:.0f} seconds." in out  # doubled
    clock.advance(2 * ACCOUNT_DELAY_BASE)
    assert "Welcome back, Target!" in _login(lobby, "198.51.100.53", "Target", "sesame12")
    assert "target" not in lobby.guard._account_failures         # a success resets it


def test_the_account_delay_is_capped(clock: task.Clock) -> None:
    lobby = Lobby(clock, account_failures_before_delay=1, account_delay_max=12.0)
    lobby.register("Target", "sesame12")
    for i in range(6):
        out = _login(lobby, f"203.0.113.{i}", "Target", "guess999")
        assert "! [wrong-password]" in out, out
        clock.advance(12.0)


def test_ipv6_addresses_are_grouped_by_64() -> None:
    assert address_group("2001:db8:1:2::5") == "2001:db8:1:2::/64"
    assert address_group("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert address_group("2001:db8:1:3::5") == "2001:db8:1:3::/64"
    assert address_group("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_group("192.0.2.7") == "192.0.2.7" and address_group("?") == "?"


def test_failed_attempts_from_one_ipv6_64_are_limited_together(clock: task.Clock) -> None:
    lobby = Lobby(clock, login_attempts_per_minute=2)
    lobby.register("Six", "sesame12")
    assert "wrong-password" in _login(lobby, "2001:db8:1:2::1", "Six", "guess001")
    assert "wrong-password" in _login(lobby, "2001:db8:1:2::2", "Six", "guess002")
    assert "! [too-many-attempts]" in _login(lobby, "2001:db8:1:2:abcd::9", "Six", "guess003")
    assert "Welcome back, Six!" in _login(lobby, "2001:db8:1:3::1", "Six", "sesame12")


# ---- registrations ------------------------------------------------------------------------------
def test_new_accounts_per_address_per_hour(clock: task.Clock) -> None:
    lobby = Lobby(clock, registrations_per_hour=2)
    lobby.register("Taken", "sesame12")

    def register(host: str, name: str) -> str:
        c = lobby.connect_from(host)
        c.login(name)
        c.raw()
        c.send("/register sesame12")
        out = c.text()
        c.send("/quit")
        return out

    assert "is registered now" in register("10.2.2.2", "First")
    assert "is registered now" in register("10.2.2.2", "Second")
    out = register("10.2.2.2", "Third")
    assert "! [too-many-registrations] Too many new accounts from your address (at most 2 an " \
           "hour); try again in 1 hour." in unwrap(out)
    assert fired(lobby.store.get_account("Third")) is None
    assert "is registered now" in register("10.3.3.3", "Other")   # another address
    clock.advance(3600)
    assert "is registered now" in register("10.2.2.2", "Third")


def test_a_registration_that_fails_does_not_count(clock: task.Clock) -> None:
    lobby = Lobby(clock, registrations_per_hour=1)
    c = lobby.connect_from("10.4.4.4")
    c.login("Late")
    lobby.register("Late", "other123")           # registered meanwhile by somebody else
    c.raw()
    c.send("/register sesame12")
    assert "! [name-taken]" in c.text()
    d = lobby.connect_from("10.4.4.4")
    d.login("Early")
    d.raw()
    d.send("/register sesame12")
    assert "Early is registered now" in d.text()


def test_hash_calls_are_counted() -> None:
    accounts = Accounts(inline_runner, FAST_HASH)
    h = fired(accounts.hash("sesame12"))
    assert fired(accounts.verify("sesame12", h)) and accounts.hash_calls == 2


# ---- type-ahead safety (FICS): an unregistered name is confirmed in text mode -------------------
CONFIRM = ('"Regie" is not a registered name. Press Enter to play as the guest Regie,\r\n'
           '  or type another name: ')      # wrapped at 80 columns, its last clause kept whole
DROPPED = "(That line was not used: it might be a password typed ahead.)\r\n"


def test_an_unregistered_name_is_confirmed_and_only_an_empty_line_enters(
        clock: task.Clock) -> None:
    lobby = Lobby(clock)
    lobby.register("Reggie", "sesame12")
    c = lobby.connect()
    c.raw()
    c.send("Regie")
    assert c.text() == CONFIRM and c.session.state == "confirm"
    assert lobby.world.online("Regie") is None
    clock.advance(1.0)                     # the question read: a line now is typed after it
    c.send("Reggie")                       # another name: dropped too, then login: again
    assert c.text() == DROPPED + "login: "
    c.send("Reggie")                       # the registered one, its password
    assert c.text().endswith("password: ")
    c.send("sesame12")
    assert "Welcome back, Reggie!" in c.text()
    d = lobby.connect()
    d.raw()
    d.send("Regie")
    assert d.text() == CONFIRM
    d.send("")
    assert "Hello Regie! You are a guest" in d.text()


def test_machine_mode_logs_a_guest_name_in_at_once(clock: task.Clock) -> None:
    lobby = Lobby(clock)
    c = lobby.connect()
    c.send("%json")
    c.raw()
    c.send("Regie")
    assert '"type":"logged-in-guest"' in c.text().replace(" ", "")
    assert lobby.world.online("Regie") is not None


def test_a_line_typed_at_the_confirmation_is_never_spoken(clock: task.Clock) -> None:
    lobby = Lobby(clock)
    lobby.register("Reggie", "sesame12")
    watcher = lobby.connect()
    watcher.login("Watcher")
    watcher.raw()
    c = lobby.connect()
    c.send(b"Regie\r\nsesame12\r\n")        # the name mistyped, the password typed ahead
    out = c.text()
    assert out.endswith(CONFIRM + DROPPED + CONFIRM)   # dropped unseen, the question again
    assert c.session.state == "confirm" and c.session.user is None
    assert "sesame12" not in out and "sesame12" not in watcher.text()
    c.send("")                              # Enter: the guest of the name typed, not the password
    assert "Hello Regie! You are a guest" in c.text()
    assert lobby.world.online("sesame12") is None


def test_a_password_typed_ahead_in_its_own_packet_is_dropped_too(clock: task.Clock) -> None:
    """The password may come in a later TCP segment while the question is on its way: a line
    within --typeahead-window seconds of the question is typed ahead; after it, another name."""
    lobby = Lobby(clock)
    lobby.register("Reggie", "sesame12")
    c = lobby.connect()
    c.raw()
    c.send("Regie")
    assert c.text() == CONFIRM
    clock.advance(0.9)                      # still within the default window of 1 s
    c.send("sesame12")
    out = c.text()
    assert out == DROPPED + CONFIRM and "sesame12" not in out
    assert c.session.state == "confirm" and lobby.world.online("sesame12") is None
    clock.advance(0.2)                      # past the window: dropped too (a slow type-ahead)
    c.send("sesame12")
    out = c.text()
    assert out == DROPPED + "login: " and lobby.world.online("sesame12") is None
    c.send("")                              # Enter now: a drawn guest name, not the password
    assert "sesame12" not in c.text() and lobby.world.online("sesame12") is None


def test_the_typeahead_window_is_an_option() -> None:
    from protocol.process.options import limits_from, parse_args
    assert limits_from(parse_args([])).typeahead_window == 1.0
    assert limits_from(parse_args(["--typeahead-window", "2.5"])).typeahead_window == 2.5
    assert Limits().typeahead_window == 1.0    # a bound even without the public limits


WINDOW = 0.3   # a short --typeahead-window for the socket test, which waits it out for real


class ShortWindowServer(RunningServer):
    server_options = {**RunningServer.server_options, "limits": Limits(typeahead_window=WINDOW)}


@pytest_twisted.ensureDeferred
async def test_a_password_typed_ahead_after_a_mistyped_name_reaches_nobody_over_tcp(
        tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    server = ShortWindowServer(tmp_path / "lobby.sqlite3")
    await server.start()
    try:
        await _typed_ahead_over_tcp(server, logged)
    finally:
        await server.stop()


async def _typed_ahead_over_tcp(server: RunningServer, logged: list[dict[str, Any]]) -> None:
    from twisted.internet import reactor
    secret = "hunter2secret"
    watcher = await server.client()
    await watcher.login("Watcher")
    c = await server.client()
    await c.expect("login: ")
    c.transport.write(f"Regie\r\n{secret}\r\n".encode())    # one TCP write
    got = await c.expect(CONFIRM)
    assert got.endswith(CONFIRM)
    got = await c.expect("or type another name: ")         # the typed-ahead line: dropped
    assert got == DROPPED + CONFIRM and secret not in got
    await deferLater(reactor, WINDOW + 0.2, lambda: None)   # the question read (at least)
    c.send(secret)                                          # a slow type-ahead: dropped too
    got = await c.expect("login: ")
    assert got == DROPPED + "login: " and secret not in got
    c.send("Careful")                                       # another name, confirmed
    await c.expect("or type another name: ")
    c.send("")
    assert "Hello Careful!" in await c.expect("/help for the commands.\r\n")
    assert await watcher.read_line() == "Careful enters the lobby."
    watcher.send("/who")
    assert await watcher.read_line() == "In the lobby (2): Careful, Watcher"
    assert secret not in watcher.buffer and watcher.buffer == ""
    assert not [e for e in logged if secret in formatEvent(e)]
    assert "Regie" not in [u.name for u in server.server.world.users.values()]


# ---- bans: a guest's address is banned with the name ------------------------------------------
def _moderated(clock: task.Clock) -> Lobby:
    lobby = Lobby(clock)
    lobby.register("Mod", "modpass1")
    fired(lobby.store.set_role("Mod", "moderator"))
    return lobby


def _mod(lobby: Lobby) -> FakeClient:
    m = lobby.connect_from("10.9.9.9")
    assert "Welcome back, Mod!" in m.login("Mod", "modpass1")
    m.raw()
    return m


def test_banning_a_guest_who_has_just_left_still_bans_the_address(clock: task.Clock) -> None:
    """Found by an external review: a guest who quit the moment a moderator reached for /ban
    was back at once under a new name (the address was forgotten at the log-out)."""
    lobby = _moderated(clock)
    mod = _mod(lobby)
    spammer = lobby.connect_from("10.5.5.7")
    spammer.login("Spammy")
    spammer.send("/quit")
    clock.advance(600)
    mod.raw()
    mod.send("/ban Spammy 2h left just now")
    assert mod.text().startswith("Spammy is banned until ")
    again = lobby.connect_from("10.5.5.7")
    again.raw()
    again.send("Sneaky")
    assert "! [address-banned] Guests from your address are banned until " in again.text()
    mod.send("/banlist")
    assert "    and guests from 10.5.5.7" in mod.lines()
    # an hour after they left, the name alone is banned
    other = lobby.connect_from("10.5.5.8")
    other.login("Later")
    other.send("/quit")
    clock.advance(3601)
    mod.send("/ban Later 2h")
    mod.raw()
    assert "Hello Fresh!" in lobby.connect_from("10.5.5.8").login("Fresh")


def test_banning_a_guest_also_bans_its_address_for_the_ban_time(clock: task.Clock,
                                                                logged: Any) -> None:
    lobby = _moderated(clock)
    lobby.register("Regular", "sesame12")
    mod = _mod(lobby)
    spammer = lobby.connect_from("10.5.5.5")
    spammer.login("Spammy")
    mod.raw()
    mod.send("/ban Spammy 2h spam")
    assert mod.text().startswith("Spammy is banned until ")
    assert "You were banned by Mod" in spammer.text() and spammer.closed
    again = lobby.connect_from("10.5.5.5")             # the same address, another guest name
    again.raw()
    again.send("Sneaky")
    out = again.text()
    assert "! [address-banned] Guests from your address are banned until " in out
    assert out.endswith("login: ") and lobby.world.online("Sneaky") is None
    # a registered name from that address still logs in; other addresses are not concerned
    assert "Welcome back, Regular!" in _login(lobby, "10.5.5.5", "Regular", "sesame12")
    assert "Hello Visitor!" in lobby.connect_from("10.5.5.6").login("Visitor")
    mod.raw()
    mod.send("/banlist")
    lines = mod.lines()
    assert lines[0] == "Bans (1):"
    assert lines[1].startswith("  Spammy until ") and lines[1].endswith(", by Mod: spam")
    assert lines[2] == "    and guests from 10.5.5.5"
    assert any("moderation: Mod bans Spammy until" in formatEvent(e) and
               "(and guests from 10.5.5.5)" in formatEvent(e) for e in logged)
    clock.advance(2 * 3600)                             # the ban's time is over
    assert "Hello Sneaky!" in lobby.connect_from("10.5.5.5").login("Sneaky")
    mod.raw()
    mod.send("/banlist")
    assert mod.lines() == ["Nobody is banned."]


def test_unban_lifts_the_address_too_and_the_address_ban_is_stored(clock: task.Clock) -> None:
    from lobby.world.moderation import Moderation
    lobby = _moderated(clock)
    mod = _mod(lobby)
    lobby.connect_from("2001:db8:7:7::1").login("Spammy")
    mod.send("/ban Spammy perm spam")
    mod.raw()
    rows = fired(lobby.store.run_query(
        lambda c: c.execute("SELECT name, address FROM bans").fetchall()))
    assert rows == [("Spammy", "2001:db8:7:7::/64")]
    # a new start reads the ban with its address: another host of the /64 is refused
    restarted = Moderation(lobby.store, lobby.world)
    fired(Deferred.fromCoroutine(restarted.load()))
    assert restarted.address_bans == {"2001:db8:7:7::/64": "spammy"}
    c = lobby.connect_from("2001:db8:7:7:abcd::2")
    c.raw()
    c.send("Other")
    assert "! [address-banned]" in c.text()
    mod.send("/unban Spammy")
    assert mod.text().startswith("The ban on Spammy is lifted.")
    assert "Hello Other!" in lobby.connect_from("2001:db8:7:7:abcd::2").login("Other")


def test_banning_a_registered_name_keeps_working_by_name(clock: task.Clock) -> None:
    lobby = _moderated(clock)
    lobby.register("Rowdy", "sesame12")
    mod = _mod(lobby)
    rowdy = lobby.connect_from("10.7.7.7")
    rowdy.login("Rowdy", "sesame12")
    mod.send("/ban Rowdy 1h rude")
    assert "You were banned by Mod" in rowdy.text() and rowdy.closed
    assert "! [banned] Rowdy is banned until " in _login(lobby, "10.8.8.8", "Rowdy", "sesame12")
    assert "Hello Visitor!" in lobby.connect_from("10.7.7.7").login("Visitor")   # no address ban
    assert fired(lobby.store.run_query(
        lambda c: c.execute("SELECT address FROM bans").fetchall())) == [(None,)]


def test_only_moderators_see_the_ban_list(clock: task.Clock) -> None:
    lobby = _moderated(clock)
    c = lobby.connect_from("10.1.2.3")
    c.login("Nosy")
    c.raw()
    c.send("/banlist")
    assert c.lines() == ["! [not-allowed] Only a user with the role moderator may use /banlist."]


def test_the_account_delay_options(clock: task.Clock) -> None:
    from protocol.process.options import limits_from, parse_args
    limits = limits_from(parse_args(["--account-delay-first", "2", "--account-failures-forgotten",
                                     "600"]))
    assert limits.account_delay_first == 2.0 and limits.account_failures_forgotten == 600.0
    lobby = Lobby(clock, account_failures_before_delay=1, account_failures_ceiling=1,
                  account_delay_first=2.0, account_failures_forgotten=600.0)
    lobby.register("Target", "sesame12")
    assert "! [wrong-password]" in _login(lobby, "203.0.113.1", "Target", "guess001")
    assert "possible in 2 seconds." in _login(lobby, "203.0.113.2", "Target", "guess002")
    clock.advance(2)
    assert "! [wrong-password]" in _login(lobby, "203.0.113.3", "Target", "guess003")
    assert "possible in 4 seconds." in _login(lobby, "203.0.113.4", "Target", "guess004")
    clock.advance(600)                                 # forgotten: the count starts again
    assert "! [wrong-password]" in _login(lobby, "203.0.113.5", "Target", "guess005")
    assert "possible in 2 seconds." in _login(lobby, "203.0.113.6", "Target", "guess006")
