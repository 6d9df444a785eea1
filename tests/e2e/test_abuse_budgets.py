"""Issue 23: every connection and every address group has one budget for what it makes the server
do, accounted by protocol.connection.guard (docs/operations.md, "Abuse budgets"). Each test runs a real
server over loopback sockets; the rates are tiny, so what a test sends is far past the budget
whatever the machine's speed (no wall-clock assertion)."""
from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import reactor
from twisted.internet.task import deferLater

from conftest import LineClient, RunningServer, within
from protocol.connection.guard import Limits
from protocol.telnet.transport import DO, IAC, NOP, SGA, WILL, WONT

NOPS = bytes((IAC, NOP))


class BudgetServer(RunningServer):
    """A server with the budgets of one test (everything else off)."""

    limits = Limits()

    def __init__(self, db: Path, limits: Limits) -> None:
        super().__init__(db)
        self.server_options = {"motd": "Test server.", "limits": limits}


async def _server(tmp_path: Path, **limits: Any) -> BudgetServer:
    srv = BudgetServer(tmp_path / "lobby.sqlite3", Limits(**limits))
    await srv.start()
    return srv


@pytest_twisted.async_yield_fixture
async def telnet_budget(tmp_path: Path) -> AsyncIterator[BudgetServer]:
    srv = await _server(tmp_path, telnet_commands_per_second=1.0, telnet_commands_burst=100)
    yield srv
    await srv.stop()


async def _who(c: LineClient) -> str:
    c.send("/who")
    await c.expect("In the lobby")
    return "In the lobby" + await c.expect("\r\n")


# ---- 1. telnet bytes -----------------------------------------------------------------------------
@pytest_twisted.ensureDeferred
async def test_the_telnet_layers_own_log_lines_spend_the_log_budget(tmp_path: Path,
                                                                   logged: Any) -> None:
    """(outside attack 8) a bad NAWS subnegotiation and a rejected CHARSET each wrote one log
    line per connection, whatever the log budget: now a few a minute per address group, the
    rest counted into the minute's summary."""
    from protocol.telnet.options import CHARSET, CHARSET_REJECTED
    from protocol.telnet.transport import NAWS, SB, SE
    srv = await _server(tmp_path, log_lines_per_minute=3)
    try:
        for _ in range(12):
            c = await srv.client()
            await c.expect("login: ")
            c.transport.write(bytes((IAC, WILL, NAWS, IAC, SB, NAWS, 0, IAC, SE,
                                     IAC, DO, CHARSET)))
            c.transport.write(bytes((IAC, SB, CHARSET, CHARSET_REJECTED, IAC, SE)))
            c.send("Nemo")                   # (a line after them: they were read)
            await c.expect("another name")
            await c.close()
        lines = [str(e.get("log_format", "")) for e in logged]
        assert 1 <= sum("Ignored a subnegotiation" in f for f in lines) <= 3
        assert 1 <= sum("rejected the character set" in f for f in lines) <= 3
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_telnet_commands_count_and_a_client_that_keeps_negotiating_is_closed(
        telnet_budget: BudgetServer, logged: Any) -> None:
    srv = telnet_budget
    other = await srv.client()
    await other.login("Other")
    c = await srv.client()
    await c.login("Nopper")
    # an ordinary client's negotiation passes: a few options, a few NOPs (keep-alives)
    c.transport.write(bytes((IAC, DO, SGA, IAC, WILL, SGA, IAC, WONT, 24)) + NOPS * 20)
    await _who(c)
    # NOPs at full speed: one warning, then (it keeps going) the disconnect
    c.transport.write(NOPS * 200)
    await c.expect("! [telnet-flood]")
    c.transport.write(NOPS * 200)
    await c.expect("! [telnet-flood-disconnect]")
    await within(c.lost)
    assert "In the lobby (1): Other" in await _who(other)
    closing = [e for e in logged if "budget: closing" in str(e.get("log_format", ""))]
    assert len(closing) == 1


@pytest_twisted.ensureDeferred
async def test_toggles_split_over_chunks_count_too(telnet_budget: BudgetServer) -> None:
    c = await telnet_budget.client()
    await c.login("Toggler")
    toggle = bytes((IAC, WILL, 24, IAC, WONT, 24))
    for _ in range(60):                     # one byte at a time: the byte-wise parser counts
        for b in toggle:
            c.transport.write(bytes((b,)))
    await c.expect("! [telnet-flood]")
    c.transport.write(toggle * 100)
    await c.expect("! [telnet-flood-disconnect]")
    await within(c.lost)


@pytest_twisted.ensureDeferred
async def test_every_byte_counts_unterminated_lines_too(tmp_path: Path) -> None:
    srv = await _server(tmp_path, input_bytes_per_second=1.0, input_bytes_burst=1000)
    try:
        c = await srv.client()
        await c.login("Byter")
        assert "In the lobby (1)" in await _who(c)
        c.transport.write(b"y" * 3000 + b"\r\n")   # a line too long: its bytes count all the same
        await c.expect("! [line-too-long]")
        c.send("/who")                        # past the budget now: dropped unread, told once
        await c.expect("! [input-flood]")
        c.transport.write(b"z" * 3000)
        await c.expect("! [input-flood-disconnect]")
        await within(c.lost)
    finally:
        await srv.stop()


# ---- 3. type-ahead after any refusal at the log-in -----------------------------------------------
DROPPED = "(That line was not used: it might be a password typed ahead.)\r\n"


def _no_secret_anywhere(secret: str, srv: RunningServer, logged: Any, *clients: LineClient) -> None:
    from twisted.logger import formatEvent
    assert not [e for e in logged if secret in formatEvent(e)]
    assert all(secret not in c.buffer for c in clients)
    assert secret not in [u.name for u in srv.server.world.users.values()]


@pytest_twisted.ensureDeferred
async def test_a_password_typed_ahead_of_a_bad_name_is_never_a_name(tmp_path: Path,
                                                                    logged: Any) -> None:
    srv = await _server(tmp_path, max_guests=2)
    try:
        watcher = await srv.client()
        await watcher.login("Watcher")
        for first, code in (("Jürgen", "bad-name"), ("Guest1234", "reserved-name"),
                            ("x", "bad-name")):
            c = await srv.client()
            await c.expect("login: ")
            c.transport.write(f"{first}\r\nhunter22\r\n\r\n".encode())   # typed at once
            got = await c.expect(f"! [{code}]")
            got += await c.expect("login: " + DROPPED + "login: " + DROPPED + "login: ")
            assert "hunter22" not in got
            await c.close()
        # too-many-guests comes after the name's look-up (the next lines wait in the queue)
        other = await srv.client()
        await other.login("Second")
        await watcher.expect("Second enters the lobby.\r\n")
        c = await srv.client()
        await c.expect("login: ")
        c.transport.write(b"Third\r\nhunter22\r\nhunter22\r\n")
        await c.expect("! [too-many-guests]")
        await c.expect("login: " + DROPPED + "login: " + DROPPED + "login: ")
        watcher.send("/who")
        assert await watcher.read_line() == "In the lobby (2): Second, Watcher"
        _no_secret_anywhere("hunter22", srv, logged, watcher, other)
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_a_line_still_on_its_way_after_a_refusal_is_dropped_within_the_window(
        tmp_path: Path, logged: Any) -> None:
    srv = await _server(tmp_path, typeahead_after_refusal=60.0)
    try:
        watcher = await srv.client()
        await watcher.login("Watcher")
        c = await srv.client()
        await c.expect("login: ")
        c.send("Jürgen")
        await c.expect("! [bad-name]")
        await c.expect("login: ")
        c.send("hunter22")              # its own segment, after the refusal was on its way
        assert await c.expect("login: ") == DROPPED + "login: "
        watcher.send("/who")
        assert await watcher.read_line() == "In the lobby (1): Watcher"
        _no_secret_anywhere("hunter22", srv, logged, watcher)
    finally:
        await srv.stop()


# ---- 2. throttle, never lock out -----------------------------------------------------------------
async def client_from(srv: RunningServer, source: str) -> LineClient:
    """A client whose connection comes from the loopback address ``source`` (127.0.0.x)."""
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    c = LineClient()
    await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", srv.port,
                                                    bindAddress=(source, 0)), c))
    srv.clients.append(c)
    return c


async def _try_password(srv: RunningServer, source: str, name: str, password: str) -> str:
    c = await client_from(srv, source)
    await c.expect("login: ")
    c.send(name)
    got = await c.expect_any(("password: ", "login: "))
    if got.endswith("password: "):
        c.send(password)
        got = await c.expect_any(("login: ", "/help for the commands.\r\n"))
    await c.close()
    return got


THROTTLE = dict(limit_loopback=True, login_attempts_per_minute=10,
                password_attempts_per_connection=3, account_failures_before_delay=3,
                account_delay_first=5.0, account_delay_max=900.0)


@pytest_twisted.ensureDeferred
async def test_wrong_passwords_from_elsewhere_never_lock_the_owner_out(tmp_path: Path) -> None:
    srv = await _server(tmp_path, **THROTTLE)
    try:
        owner = await client_from(srv, "127.0.0.1")
        await owner.login("Owner")
        owner.send("/register sesame12")
        await owner.expect("is registered now")
        await owner.close()
        assert "Welcome back" in await _try_password(srv, "127.0.0.1", "Owner", "sesame12")
        await srv.restart()                  # the owner's address is remembered in the database
        accounts = srv.server.accounts
        before = accounts.hash_calls
        answers = []
        for i in range(20):                  # 20 wrong passwords from 4 other addresses
            answers.append(await _try_password(srv, f"127.0.0.{2 + i % 4}", "Owner",
                                               f"guess{i:04d}"))
        checked = accounts.hash_calls - before
        assert checked <= 5, (checked, answers)
        assert all("Welcome" not in a for a in answers)
        assert any("! [account-wait]" in a for a in answers)
        # the owner's right password from the usual address: in at once
        got = await _try_password(srv, "127.0.0.1", "Owner", "sesame12")
        assert "Welcome back, Owner!" in got, got
        # and a wrong one from there is counted for that address only: still in afterwards
        assert "! [wrong-password]" in await _try_password(srv, "127.0.0.1", "Owner", "nope1234")
        assert "Welcome back, Owner!" in await _try_password(srv, "127.0.0.1", "Owner",
                                                             "sesame12")
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_every_password_check_draws_on_the_address_groups_budget(tmp_path: Path) -> None:
    """A4 of the outside attack: a right password cost a hash too, but was taken off the
    count, so a valid account from its own address pumped hashes without end. Every check,
    right or wrong, draws on --password-checks-per-minute of the address group."""
    from protocol.process.server import parse_args
    assert parse_args([]).password_checks_per_minute == 30
    srv = await _server(tmp_path, password_checks_per_minute=5, **THROTTLE)
    try:
        c = await client_from(srv, "127.0.0.5")
        await c.login("Pump")
        c.send("/register sesame12")                       # the first check
        await c.expect("is registered now")
        await c.close()
        accounts = srv.server.accounts
        before = accounts.hash_calls
        answers = [await _try_password(srv, "127.0.0.5", "Pump", "sesame12") for _ in range(8)]
        assert [("Welcome back" in a) for a in answers] == [True] * 4 + [False] * 4, answers
        assert all("! [too-many-attempts]" in a for a in answers[4:]), answers
        assert accounts.hash_calls - before == 4
        # another address group has its own budget
        assert "Welcome back" in await _try_password(srv, "127.0.0.6", "Pump", "sesame12")
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_an_account_with_no_known_address_is_not_delayed_by_other_addresses(
        tmp_path: Path) -> None:
    # the account logged in from nowhere yet (/register makes it; an admin made offline, a new
    # phone, a known address forgotten after --known-address-days are the same)
    srv = await _server(tmp_path, account_failures_ceiling=6, **THROTTLE)
    try:
        c = await client_from(srv, "127.0.0.1")
        await c.login("Roamer")
        c.send("/register sesame12")
        await c.expect("is registered now")
        await c.close()
        accounts = srv.server.accounts
        before = accounts.hash_calls
        answers = [await _try_password(srv, f"127.0.0.{2 + i % 4}", "Roamer", f"guess{i:04d}")
                   for i in range(20)]
        assert accounts.hash_calls - before <= 5, answers        # guessing stays throttled
        assert sum("! [account-wait]" in a for a in answers) >= 15
        # the owner on an address never used before: in at once
        assert "Welcome back, Roamer!" in await _try_password(srv, "127.0.0.20", "Roamer",
                                                              "sesame12")
        # guessing from ever new address groups is slowed past the ceiling (6) all the same
        before = accounts.hash_calls
        answers = [await _try_password(srv, f"127.0.1.{i}", "Roamer", f"again{i:04d}")
                   for i in range(1, 10)]
        assert accounts.hash_calls - before == 6, answers
        assert all("! [account-wait]" in a for a in answers[6:]), answers
    finally:
        await srv.stop()


async def _try_key(srv: RunningServer, source: str, name: str, key: str) -> str:
    c = await client_from(srv, source)
    await c.expect("login: ")
    c.send(name)
    await c.expect("key: ")
    c.send(key)
    got = await c.expect_any(("login: ", "/help for the commands.\r\n"))
    await c.close()
    return got


@pytest_twisted.ensureDeferred
async def test_wrong_reconnect_keys_from_elsewhere_never_keep_the_guest_from_the_seat(
        tmp_path: Path) -> None:
    from table_support import seat_keys
    srv = await _server(tmp_path, **THROTTLE)
    try:
        guest = await client_from(srv, "127.0.0.1")
        await guest.login("Seated")
        guest.send("/newroom")
        await guest.expect("Table 1")
        guest.send("/join")
        for _ in range(3):
            guest.send("/addbot random")
        guest.send("/option grace 3600")
        guest.send("/start")
        told = await guest.expect_any(("and give the key ", "! ["))
        assert "! [" not in told, told
        told += await guest.expect(".\r\n")
        key = seat_keys(told)["Seated"]
        await guest.close()
        answers = [await _try_key(srv, f"127.0.0.{2 + i % 4}", "Seated", f"k{i:03d}")
                   for i in range(20)]
        assert sum("! [wrong-seat-key]" in a for a in answers) <= 5, answers
        assert sum("! [account-wait]" in a for a in answers) >= 15, answers
        got = await _try_key(srv, "127.0.0.1", "Seated", key)    # from the guest's address
        assert "/help for the commands." in got and "! [" not in got, got
    finally:
        await srv.stop()


# ---- 4. expensive commands: cached, priced, and never in the way of a log-in ---------------------
async def _saved_game(srv: RunningServer, rounds: int = 3) -> int:
    from game_support import random_game
    from lobby.storage.records import finished_game
    match = random_game(23, rounds=rounds, tichu_rate=0.2)
    archive = srv.server.persistence.archive
    rec = await within(archive.save(finished_game(match, ["Ann", "Ben", "Cy", "Di"],
                                                  table_no=1)))
    return int(rec.game_id)


@pytest_twisted.ensureDeferred
async def test_a_finished_games_replay_is_made_once(server: RunningServer) -> None:
    game = await _saved_game(server)
    archive = server.server.persistence.archive
    c = await server.client()
    await c.login("Viewer")
    texts = []
    for _ in range(3):
        c.send(f"/replay {game}")
        texts.append(await c.expect("/next shows the next page --"))
        c.send(f"/tchlog {game}")
        await _who(c)
    assert texts[0] == texts[1] == texts[2]
    assert archive.cache_misses == 2 and archive.cache_hits == 4   # replay and .tch once each
    c.send("/history Viewer")          # (someone online: a name nobody has is no-such-user)
    await _who(c)
    c.send("/history Viewer")
    await _who(c)
    assert archive.cache_misses == 3
    await _saved_game(server)                 # a new game: the history is asked again
    c.send("/history Viewer")
    await _who(c)
    assert archive.cache_misses == 4


@pytest_twisted.ensureDeferred
async def test_expensive_commands_are_priced_in_the_budget(tmp_path: Path) -> None:
    srv = await _server(tmp_path, work_per_second=0.001, work_burst=10)
    try:
        game = await _saved_game(srv)
        c = await srv.client()
        await c.login("Greedy")
        for _ in range(2):                     # /replay costs 5: two fit into 10
            c.send(f"/replay {game}")
            await c.expect("/next shows the next page --")
        c.send(f"/replay {game}")
        await c.expect("! [work-budget]")
        assert "In the lobby (1): Greedy" in await _who(c)   # ordinary commands still run
        for _ in range(12):                    # it keeps going: closed
            c.send(f"/replay {game}")
        await c.expect("! [work-budget-disconnect]")
        await within(c.lost)
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_a_connection_that_keeps_going_past_its_groups_budget_is_closed(
        tmp_path: Path) -> None:
    """(found measuring issue 23's targets) the address group's work budget only ever warned:
    each refusal gave the connection its tokens back, so eight connections flooding /replay got
    340 `work-budget` lines each in 5 s and none was closed. A refused command is still paid
    from the connection's own budget: one that keeps going is closed."""
    srv = await _server(tmp_path, limit_loopback=True, work_per_second=0.001, work_burst=20,
                        group_work_per_second=0.001, group_work_burst=10)
    try:
        game = await _saved_game(srv)
        first = await srv.client()
        await first.login("Spender")
        for _ in range(2):                     # /replay costs 5: the group's 10 pay two
            first.send(f"/replay {game}")
            await first.expect("/next shows the next page --")
        c = await srv.client()
        await c.login("Flooder")
        c.send(f"/replay {game}")
        await c.expect("! [work-budget]")      # its group's budget is spent
        for _ in range(30):                    # it keeps going: closed, one warning in all
            c.send(f"/replay {game}")
        await c.expect("! [work-budget-disconnect]")
        await within(c.lost)
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_a_log_in_never_waits_for_the_archive(server: RunningServer) -> None:
    import threading
    store = server.server.store
    release = threading.Event()
    blocked = store.run_archive(lambda conn: release.wait(30))   # the archive's thread is busy
    try:
        c = await server.client()
        await c.expect("login: ")
        c.send("Nobody")                  # a name's look-up in the accounts
        await c.expect("or type another name: ")
    finally:
        release.set()
    await within(blocked)


# ---- 5. logs a client cannot flood ---------------------------------------------------------------
def _server_lines(logged: list[dict[str, Any]]) -> list[str]:
    from twisted.logger import formatEvent
    return [formatEvent(e) for e in logged
            if str(e.get("log_namespace", "")).startswith(("protocol", "lobby"))]


@pytest_twisted.ensureDeferred
async def test_300_refused_moderation_commands_add_at_most_10_log_lines(
        server: RunningServer, logged: Any) -> None:
    c = await server.client()
    await c.login("Eve")
    before = len(logged)
    for i in range(300):
        c.send(f"/kick Somebody{i % 7} now")
        if i % 20 == 19:
            await _who(c)                   # (at the pace flood control lets through)
    await _who(c)
    lines = _server_lines(logged[before:])
    assert len(lines) <= 10, lines
    assert sum("tried /kick" in t for t in lines) == 3
    before = len(logged)
    for _ in range(10):                     # connections and log-ins from the address, too
        d = await server.client()
        await d.login("guest")
        await d.close()
    await c.close()
    lines = _server_lines(logged[before:])
    for kind in ("connection from", "logged in from", "logged out"):
        assert sum(kind in t for t in lines) <= 3, lines
    await server.stop()
    lines = _server_lines(logged)
    assert any("counted, not logged" in t and "refused-command" in t for t in lines), lines


# ---- 6. speech -------------------------------------------------------------------------------------
@pytest_twisted.ensureDeferred
async def test_seven_connections_of_one_address_reach_a_listener_with_few_lines(
        tmp_path: Path) -> None:
    srv = await _server(tmp_path, speech_per_second=0.001, speech_burst=15, repeat_window=30.0,
                        speech_kick=1000)
    try:
        listener = await client_from(srv, "127.0.0.2")
        await listener.login("Listener")
        speakers = []
        for i in range(7):
            s = await client_from(srv, "127.0.0.1")
            await s.login(f"Spk{i}")
            speakers.append(s)
        listener.buffer = ""
        for s in speakers:
            s.transport.write("".join(f"line {n} from {id(s)}\r\n" for n in range(60)).encode())
        for s in speakers:
            await _who(s)
        listener.send("/who")
        heard = await listener.expect("In the lobby (8)")
        said = sum(1 for line in heard.split("\r\n") if line.startswith("<Spk"))
        assert 1 <= said <= 15, heard
        told = "".join(s.buffer for s in speakers)
        assert told.count("! [speech-budget]") <= 7      # told once each, then dropped silently
        # the listener's own address still speaks
        listener.send("hello")
        await listener.expect("<Listener> hello\r\n")
        # tells to one recipient share one budget too
        for s in speakers[:2]:
            for n in range(20):
                s.send(f"/tell Listener tell {n} {id(s)}")
            await _who(s)
        listener.send("/who")
        heard = await listener.expect("In the lobby (8)")
        assert 1 <= heard.count("tells you:") <= 15, heard
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_a_line_repeated_in_a_row_is_not_sent(tmp_path: Path) -> None:
    srv = await _server(tmp_path, repeat_window=30.0)
    try:
        a = await srv.client()
        await a.login("Ann")
        a.send("buy gold")
        assert await a.read_line() == "<Ann> buy gold"
        a.send("buy gold")
        assert (await a.read_line()).startswith("! [repeated-line]")
        a.send("something else")
        assert await a.read_line() == "<Ann> something else"
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_closing_flooding_connections_is_logged_within_the_log_budget(
        tmp_path: Path, logged: Any) -> None:
    """F4: ten connections of one address flooded off write at most the budget's lines (3 a
    minute per kind and address group), not one each."""
    srv = await _server(tmp_path, flood_rate=0.5, flood_burst=2, flood_kick=5)
    try:
        for i in range(10):
            c = await srv.client()
            await c.login(f"Flood{i}")
            c.transport.write(b"/who\r\n" * 20)
            await c.expect("! [flood-disconnect]")
            await within(c.lost)
        assert srv.server.factory.services.guard.stats["flood_kicks"] == 10
        lines = [e for e in logged if "flood: closing" in str(e.get("log_format", ""))]
        assert len(lines) == 3, lines
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_listings_of_everybody_online_cost_by_their_size(tmp_path: Path) -> None:
    """F6: /who and /wwho cost one more ordinary command per 25 users online, so a client
    asking them in a loop makes output at the rate of its budget of work, not of its lines."""
    from protocol.commands import COMMANDS
    from protocol.commands.people import WHO_PER
    srv = await _server(tmp_path, work_per_second=0.01, work_burst=6)
    try:
        c = await srv.client()
        await c.login("Asker")
        for _ in range(3):                     # few online: an ordinary command, never priced
            await _who(c)
        others = []
        for i in range(WHO_PER):
            o = await srv.client()
            await o.login(f"Crowd{i}")
            others.append(o)
        assert COMMANDS.lookup_exact("wwho").price(srv.server.world) == 2
        for _ in range(3):                     # 26 online: 2 each, the burst (6) pays three
            await _who(c)
        c.send("/wwho")
        await c.expect("! [work-budget]")
        c.send("/listroom")                    # an ordinary command still runs
        await c.expect("table")
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_new_connections_of_one_address_group_are_paced(tmp_path: Path) -> None:
    """A9/A4 of the outside attack: connect-and-log-in loops (a guest's enters/leaves lines, a
    password hash each) are paced by --connections-per-minute per address group."""
    srv = await _server(tmp_path, limit_loopback=True, connections_per_minute=3)
    try:
        for _ in range(3):
            c = await client_from(srv, "127.0.0.7")
            await c.expect("login: ")
            await c.close()
        c = await client_from(srv, "127.0.0.7")
        await c.expect("! [connecting-too-fast]")
        await within(c.lost)
        other = await client_from(srv, "127.0.0.8")          # another address: as ever
        assert "Hello Other!" in await other.login("Other")
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_refused_connects_past_a_rate_are_closed_without_a_word(
        tmp_path: Path, logged: Any) -> None:
    """A9 of the outside attack: every refused connect cost a session, an error line and a
    log line (1,784/s took 0.28 of a core). The first --refusals-per-minute refusals of an
    address group in a minute get their ! [code] line; later ones are closed at once, before a
    session is made, without a byte or a log line (counted in the minute's summary)."""
    from protocol.process.server import parse_args
    assert parse_args([]).refusals_per_minute == 20
    srv = await _server(tmp_path, limit_loopback=True, max_per_ip=2, refusals_per_minute=3)
    try:
        held = [await client_from(srv, "127.0.0.11") for _ in range(2)]
        for c in held:
            await c.expect("login: ")
        before = len(_server_lines(logged))
        received = []
        for _ in range(12):
            c = await client_from(srv, "127.0.0.11")
            await within(c.lost)
            received.append(c.buffer)
        assert all("! [too-many-connections]" in r for r in received[:3]), received
        assert received[3:] == [""] * 9, received
        stats = srv.server.factory.services.guard.stats
        assert stats["silent_refusals"] == stats["closed_at_once"] == 9    # (no session made)
        assert len(_server_lines(logged)) - before <= 3 + 3     # connects and refusals, once
        other = await client_from(srv, "127.0.0.12")             # another address: as ever
        assert "Hello Other!" in await other.login("Other")
    finally:
        await srv.stop()
    assert any("refused-connection" in t and "counted, not logged" in t
               for t in _server_lines(logged))


# ---- 8. the rest of the review ---------------------------------------------------------------------
@pytest_twisted.ensureDeferred
async def test_proxy_v2_takes_only_ipv4_and_ipv6_sources(tmp_path: Path) -> None:
    import struct

    from test_proxy import V2_SIGNATURE, ProxiedServer, v2
    srv = ProxiedServer(tmp_path / "lobby.sqlite3")
    await srv.start()
    try:
        body = b"/tmp/x".ljust(108, b"\0") + b"/tmp/y".ljust(108, b"\0")
        unix = V2_SIGNATURE + bytes((0x21, 0x31)) + struct.pack("!H", len(body)) + body
        c = await srv.client_from(unix)
        await within(c.lost)
        assert "login:" not in c.buffer
        ok = await srv.client_from(v2("203.0.113.9"))
        assert "Hello Ann!" in await ok.login("Ann")
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_a_proxy_v2_header_on_the_plain_port_is_answered_and_closed_like_v1(
        server: RunningServer) -> None:
    from test_proxy import v2
    watcher = await server.client()
    await watcher.login("Watcher")
    for header in (v2("203.0.113.9"), v2("2001:db8::9")):
        c = await server.client()
        await c.expect("login: ")
        # the header, then what a careless proxy passes on: an empty line and QUIT are not lines
        c.transport.write(header + b"\r\nQUIT\r\n")
        await c.expect("--port haproxy:ENDPOINT.\r\n")
        await within(c.lost)
        assert "Hello" not in c.buffer
    watcher.send("/who")
    assert await watcher.read_line() == "In the lobby (1): Watcher"
    assert server.server.factory.services.guard.stats["foreign"] == 2


@pytest_twisted.ensureDeferred
async def test_the_ipv6_prefixes_of_address_groups_and_guest_bans_are_options(
        tmp_path: Path) -> None:
    from protocol.process.server import limits_from, parse_args
    from test_moderation import ModeratedServer
    from test_proxy import v2
    limits = limits_from(parse_args([]))
    assert (limits.ipv6_group_prefix, limits.ipv6_ban_prefix) == (64, 56)

    class Proxied(ModeratedServer):
        endpoints = ["haproxy:tcp:0:interface=127.0.0.1"]
        server_options = {"admin": "Boss", "limits": Limits(ipv6_ban_prefix=56)}

    srv = Proxied(tmp_path / "lobby.sqlite3")
    await srv.start()
    try:
        async def from_(source: str) -> LineClient:
            c = await srv.client()
            c.transport.write(v2(source))
            return c
        boss = await from_("2001:db8:9::1")
        await boss.login("Boss", "sesame1")
        spammer = await from_("2001:db8:0:1::5")
        await spammer.login("Spammer")
        boss.send("/ban Spammer 1h spam")
        await boss.expect("Spammer is banned until ")
        # the next /64 of the same /56 is the same customer: no guest from there
        c = await from_("2001:db8:0:2::7")
        await c.expect("login: ")
        c.send("Another")
        await c.expect("! [address-banned]")
        # another /56 is somebody else
        other = await from_("2001:db8:0:100::7")
        assert "Hello Other!" in await other.login("Other")
        # the address groups of the limits stay /64: one per customer network
        from lobby.world.addresses import address_group
        assert address_group("2001:db8:0:2::7") == "2001:db8:0:2::/64"
    finally:
        await srv.stop()


def test_an_ipv6_prefix_out_of_range_is_refused_at_start(capsys: Any) -> None:
    import pytest

    from protocol.process.server import parse_args
    with pytest.raises(SystemExit):
        parse_args(["--ipv6-ban-prefix", "129"])
    assert "--ipv6-ban-prefix must be 1 to 128" in capsys.readouterr().err


@pytest_twisted.ensureDeferred
async def test_the_metrics_port_closes_trickling_requests_and_caps_its_connections(
        tmp_path: Path, logged: Any) -> None:
    """Slowloris on the web port: a request must be whole within --metrics-request-timeout
    however it trickles, at most --metrics-max-connections are open, and the closings are
    logged within the log budget (not once per connection)."""
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    from twisted.internet.protocol import Protocol
    from twisted.internet.task import Clock

    from protocol.process.metrics_site import MetricsSite
    from protocol.process.server import parse_args
    opts = parse_args([])
    assert (opts.metrics_request_timeout, opts.metrics_max_connections) == (10.0, 64)
    class MetricsServer(RunningServer):
        server_options = {"motd": "Test server.", "metrics": "tcp:0:interface=127.0.0.1"}

    srv = MetricsServer(tmp_path / "lobby.sqlite3")
    await srv.start()
    clock = Clock()
    site = MetricsSite(srv.server, 30.0, reactor=clock, request_timeout=10.0, max_connections=5)
    port = reactor.listenTCP(0, site, interface="127.0.0.1")

    class Raw(Protocol):
        def __init__(self) -> None:
            from twisted.internet.defer import Deferred
            self.data = b""
            self.lost: Deferred = Deferred()

        def dataReceived(self, data: bytes) -> None:
            self.data += data

        def connectionLost(self, reason: Any = None) -> None:
            self.lost.callback(None)

    try:
        raws = []
        for _ in range(8):
            raw = Raw()
            await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1",
                                                            port.getHost().port), raw))
            raws.append(raw)
        for raw in raws[5:]:                      # over the cap: closed at once
            await within(raw.lost)
        header = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-a: b\r\n"
        for i in range(len(header)):              # one byte every 0.2 s: never idle
            for raw in raws[:5]:
                raw.transport.write(header[i:i + 1])
            # (the first byte starts each request's deadline: wait until the server read it)
            await within(_until(lambda: all(c.deadline is not None for c in site.open)))
            clock.advance(0.2)
        clock.advance(9.8 - clock.seconds())
        await within(_until(lambda: True))
        assert len(site.open) == 5 and not any(r.lost.called for r in raws[:5])
        clock.advance(0.2)                        # 10 s after each request's first byte
        for raw in raws[:5]:
            await within(raw.lost)
        assert site.stats == {"idle": 0, "request": 5, "refused": 3, "too_many": 0, "evicted": 0}
        # an ordinary scrape of the server's own web port still gets its answer
        from twisted.web.client import Agent, readBody
        web_port = srv.server.metrics_port.getHost().port
        response = await within(Agent(reactor).request(
            b"GET", f"http://127.0.0.1:{web_port}/healthz".encode()))
        await within(readBody(response))
        assert response.code == 200
        lines = [e for e in logged if "metrics port:" in str(e.get("log_format", ""))]
        assert len(lines) <= 2 * 3, lines        # the log budget: 3 a minute per kind
        assert not [e for e in logged if "Timing out client" in str(e.get("log_format", ""))]
    finally:
        await port.stopListening()
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_one_address_never_holds_every_slot_of_the_metrics_port(tmp_path: Path) -> None:
    """B1 of the outside attack: the metrics port's cap was global, so one address holding all
    --metrics-max-connections slots made /healthz fail for the operator's monitor. Now one
    address group holds at most --metrics-max-per-address (default 8) of them."""
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    from twisted.internet.protocol import Protocol

    from protocol.process.server import parse_args
    opts = parse_args([])
    assert (opts.metrics_max_connections, opts.metrics_max_per_address) == (64, 8)

    class MetricsServer(RunningServer):
        server_options = {"motd": "Test server.", "metrics": "tcp:0:interface=127.0.0.1"}

    class Raw(Protocol):
        def __init__(self) -> None:
            self.data = b""
            self.lost: Deferred = Deferred()

        def dataReceived(self, data: bytes) -> None:
            self.data += data

        def connectionLost(self, reason: Any = None) -> None:
            self.lost.callback(None)

    srv = MetricsServer(tmp_path / "lobby.sqlite3")
    await srv.start()
    web_port = srv.server.metrics_port.getHost().port

    async def connect(source: str) -> Raw:
        raw = Raw()
        await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", web_port,
                                                        bindAddress=(source, 0)), raw))
        return raw

    try:
        held = [await connect("127.0.0.9") for _ in range(64)]    # one address, every slot
        for raw in held[8:]:                                       # past 8: closed at once
            await within(raw.lost)
        assert not any(raw.lost.called for raw in held[:8])
        monitor = await connect("127.0.0.1")                       # the operator's monitor
        monitor.transport.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await within(monitor.lost)
        assert monitor.data.startswith(b"HTTP/1.1 200"), monitor.data[:200]
        assert not any(raw.lost.called for raw in held[:8])        # the others are kept
        # (the second outside attack) eight addresses with eight half-sent requests each hold
        # every slot: a new connection makes room by closing the oldest unfinished one
        for raw in held[:8]:
            raw.transport.write(b"GET /metrics HTTP/1.1\r\n")         # never finished
        for n in range(10, 17):
            for _ in range(8):
                raw = await connect(f"127.0.0.{n}")
                raw.transport.write(b"GET /metrics HTTP/1.1\r\n")
                held.append(raw)
        await _until(lambda: srv.server.metrics_port.factory.caps.total == 64)
        monitor = await connect("127.0.0.1")
        monitor.transport.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await within(monitor.lost)
        assert monitor.data.startswith(b"HTTP/1.1 200"), monitor.data[:200]
        await within(held[0].lost)                                 # the oldest unfinished
        assert srv.server.metrics_port.factory.stats["evicted"] == 1
    finally:
        for raw in held:
            raw.transport.loseConnection()
        await srv.stop()


async def _until(check: Any) -> None:
    """Let the reactor run until ``check()`` (the server read what was sent)."""
    from twisted.internet import reactor
    from twisted.internet.task import deferLater
    for _ in range(400):
        await deferLater(reactor, 0.005, lambda: None)
        if check():
            return


@pytest_twisted.ensureDeferred
async def test_runs_of_zero_width_joiners_are_refused_and_emoji_sequences_pass(
        server: RunningServer) -> None:
    a = await server.client()
    await a.login("Ann")
    for run in ("hi" + "\u200d" * 300, "a\u200c\u200d\u200c b", "x\u200d\u0301\u200d\u0301\u200d"):
        a.send(run)
        await a.expect("! [too-many-joiners]")
        await a.expect("not sent.\r\n")
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    a.send(f"{family} and \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645")  # Persian ZWNJ
    assert await a.read_line() == f"<Ann> {family} and \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"


@pytest_twisted.ensureDeferred
async def test_blank_looking_speech_and_runs_of_combining_marks_are_refused(
        server: RunningServer) -> None:
    a = await server.client()
    await a.login("Ann")
    for blank in ("\u3164", "\u2800\u2800\u2800", "\u115f\u1160 \uffa0", "\u3164 \u200b \u2800"):
        a.send(blank)
        got = await a.expect("from what you say.\r\n")
        assert got.startswith("! [invisible-text]"), (repr(blank), got)
        a.send(f"/tell Ann {blank}")
        await a.expect("! [invisible-text]")
        await a.expect("from what you say.\r\n")
    a.send("Z" + "\u0301" * 12 + "algo")
    await a.expect("! [too-many-marks]")
    await a.expect("not sent.\r\n")
    a.send("caf\u00e9 and Vi\u1ec7t")           # ordinary accents still pass
    assert await a.read_line() == "<Ann> caf\u00e9 and Vi\u1ec7t"


@pytest_twisted.ensureDeferred
async def test_a_new_name_that_reads_like_a_staff_name_is_refused(tmp_path: Path) -> None:
    from lobby.world.moderation import name_skeleton, name_skeletons
    from test_moderation import ModeratedServer
    assert name_skeleton("B0SS") == name_skeleton("boss") == name_skeleton("Bo55")
    assert name_skeleton("Mi1a") == name_skeleton("Mila") == name_skeleton("MIla")
    assert name_skeleton("Wern") == name_skeleton("Wem") and name_skeleton("Bob") != "boss"
    # repeated letters, trailing digits and staff words around the name read as the name
    for fake in ("bosss", "boss1", "Boss2026", "bossadmin", "the_boss", "B0SS_mod"):
        assert name_skeleton("Boss") in name_skeletons(fake), fake
    for other in ("Bossa", "Bob", "Bossy", "Boston"):
        assert name_skeleton("Boss") not in name_skeletons(other), other
    srv = ModeratedServer(tmp_path / "lobby.sqlite3")
    await srv.start()
    try:
        for fake in ("B0ss", "Bo55", "BO_SS", "b-o-s-s", "bosss", "boss1", "bossadmin",
                     "Bo55_1", "the_boss", "ModBoss"):
            c = await srv.client()
            await c.expect("login: ")
            c.send(fake)
            got = await c.expect_any(("login: ", "Hello"))
            assert "! [staff-lookalike]" in got and "Boss" in got, (fake, got)
            await c.close()
        # a moderator made later: from then on their look-alikes are refused too
        mod = await srv.client()
        await mod.login("Mila")
        mod.send("/register sesame12")
        await mod.expect("is registered now")
        boss = await srv.client()
        await boss.login("Boss", "sesame1")
        boss.send("/role Mila moderator")
        await boss.expect("moderator")
        c = await srv.client()
        await c.expect("login: ")
        c.send("Mi1a")
        assert "! [staff-lookalike]" in await c.expect_any(("login: ", "Hello"))
        # other names, and the staff themselves, come in as ever
        ok = await srv.client()
        assert "Hello Bossa!" in await ok.login("Bossa")
    finally:
        await srv.stop()


class RefreshingServer(RunningServer):
    """A server that reads its staff accounts again every 0.2 s (--staff-refresh)."""

    server_options = {"staff_refresh": 0.2}


@pytest_twisted.ensureDeferred
async def test_a_role_given_offline_while_the_server_runs_protects_its_name_soon(
        tmp_path: Path) -> None:
    """(outside attack 9) `tichu-lobby admin create Dolores --role admin` while the server runs:
    within --staff-refresh, D0lores is refused, before Dolores ever logs in; a role taken away
    offline frees the look-alikes again."""
    from protocol.process.admin_cli import main as admin_main
    from test_moderation import create_account_offline
    srv = RefreshingServer(tmp_path / "lobby.sqlite3")
    await srv.start()
    try:
        first = await srv.client()
        assert "Hello D0lores!" in await first.login("D0lores")      # nobody is staff yet
        await first.close()
        create_account_offline(srv.db, "Dolores", "sesame1", role="admin")

        async def refused(name: str) -> bool:
            c = await srv.client()
            await c.expect("login: ")
            c.send(name)
            got = await c.expect_any(("login: ", "another name"))
            await c.close()
            return "! [staff-lookalike]" in got
        for _ in range(100):                     # (0.2 s refreshes: a few at most)
            if await refused("DoIores"):
                break
            await deferLater(reactor, 0.05, lambda: None)
        else:
            raise AssertionError("D0lores-like names were never refused")
        assert await refused("Dolore5")
        assert admin_main(["--db", str(srv.db), "set-role", "Dolores", "player"],
                          stdout=io.StringIO(), stderr=io.StringIO()) == 0
        for _ in range(100):
            if not await refused("DoIores"):
                break
            await deferLater(reactor, 0.05, lambda: None)
        else:
            raise AssertionError("the role taken away offline still protected the name")
    finally:
        await srv.stop()


# ---- 7. bot workers: a moderator closes any table ----------------------------------------------
@pytest_twisted.ensureDeferred
async def test_a_moderator_closes_any_table_with_one_command_and_it_stays_closed(
        tmp_path: Path, logged: Any) -> None:
    from test_moderation import ModeratedServer
    srv = ModeratedServer(tmp_path / "lobby.sqlite3")
    await srv.start()
    try:
        guest = await srv.client()
        await guest.login("Hogger")
        guest.send("/newroom")
        await guest.expect("Table 1")
        for _ in range(4):
            guest.send("/addbot random")
        guest.send("/start")
        await guest.expect("/start")                # (whatever the table answers)
        eve = await srv.client()
        await eve.login("Eve")
        eve.send("/closetable 1 mine now")
        await eve.expect("! [not-allowed]")
        boss = await srv.client()
        await boss.login("Boss", "sesame1")
        assert srv.server.world.tables[1].state == "playing"    # four bots, nobody seated
        boss.send("/closetable 1 bots hogging the workers")
        assert "Table 1 is closed." in await boss.expect("Table 1 is closed.\r\n")
        got = await guest.expect("Table 1 was closed by Boss: bots hogging the workers")
        assert "! [" not in got.split("\r\n")[-1]
        assert 1 not in srv.server.world.tables
        boss.send("/closetable 1")
        await boss.expect("! [no-such-room]")
        from twisted.logger import formatEvent
        assert any("Boss closes table 1: bots hogging the workers" in formatEvent(e)
                   for e in logged)
        await srv.restart()
        assert srv.server.world.tables == {}         # not restored as a running game
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_guests_expert_bots_think_briefly_and_expert_tables_are_limited(
        tmp_path: Path) -> None:
    srv = await _server(tmp_path, guest_expert_seconds=2.0, expert_tables_per_user=1)
    try:
        g = await srv.client()
        await g.login("Hogger")
        g.send("/set width 200")                    # (the bot's line on one line)
        g.send("/newroom")
        await g.expect("Table 1")
        g.send("/addbot expert:10")
        await g.expect("! [guest-bot-level]")
        g.send("/addbot expert:2")
        await g.expect("thinks up to 2 seconds per decision.")
        g.send("/removebot 1")
        for _ in range(3):                          # a game of bots only, its host away
            g.send("/addbot random")
        g.send("/addbot expert:0.05")
        g.send("/start")
        await g.expect("thinks up to 0.05 seconds per decision.")
        g.send("/newroom")
        await g.expect("You open table 2")
        assert srv.server.world.tables[1].state in ("waiting", "playing")
        g.send("/addbot expert")
        await g.expect("! [expert-tables]")
        g.send("/addbot heuristic")                     # other bots still come
        await g.expect("heuristic")
        assert "~expert" not in " ".join(srv.server.world.tables[2].bots)
    finally:
        await srv.stop()


# ---- 7. bot workers: shared fairly between tables and address groups -------------------------------
@pytest_twisted.ensureDeferred
async def test_the_bot_workers_are_shared_fairly_between_tables_and_address_groups() -> None:
    """One worker on a task.Clock: a group's long searches are cut to one quantum while another
    table wants the worker, a full queue gives the lighter group's decision the place, and a
    free worker takes the table that used it least; a table alone thinks its whole level."""
    from twisted.internet import reactor
    from twisted.internet.task import Clock

    from lobby.bots.runtime.pool import BotPool, Overloaded
    from test_expert_pool import failure_of, grand_job, until
    clock = Clock()
    pool = BotPool(reactor, 1, clock=clock, slack=1.0, hang=100.0, quantum=0.25)
    await pool.warm()
    try:
        hog, mine = "address 10.0.0.1", "address 10.0.0.3"
        # alone: the whole level
        alone = pool.think(grand_job(0.5, 1), "table 1", hog)
        assert pool.running() == [("table 1", hog, 0.5)]
        await alone
        # another table asked lately: the hog's expert:10 thinks one quantum
        await pool.think(grand_job(0.05, 2), "table 3", mine)
        first = pool.think(grand_job(10.0, 3), "table 1", hog)
        assert pool.running() == [("table 1", hog, 0.25)]
        second = pool.think(grand_job(10.0, 4), "table 2", hog)        # waits (the queue: 1)
        ours = pool.think(grand_job(0.05, 5), "table 3", mine)          # takes its place
        assert isinstance(failure_of(second).value, Overloaded)
        assert not ours.called and pool.waiting() == 1
        third = pool.think(grand_job(10.0, 6), "table 2", hog)          # the hog used more
        assert isinstance(failure_of(third).value, Overloaded)
        await first
        await until(lambda: pool.running() == [("table 3", mine, 0.05)] or ours.called,
                    "the lighter table's decision to get the worker next")
        await ours
        assert pool.outcomes[("grand", "evicted")] == 1
        assert pool.outcomes[("grand", "overloaded")] == 1
        clock.advance(11.0)                     # nobody else asked lately: the whole level again
        late = pool.think(grand_job(0.5, 7), "table 3", mine)
        assert pool.running() == [("table 3", mine, 0.5)]
        await late
    finally:
        await pool.stop()


@pytest_twisted.ensureDeferred
async def test_a_game_of_bots_alone_pauses_with_nobody_there_and_closes_after_its_grace(
        tmp_path: Path, logged: Any) -> None:
    """The world on a task.Clock (tests/test_fair_play.py's ClockedServer): bots of a table with
    no human seated and nobody in its room decide nothing; somebody entering lets them go on;
    after the grace time nobody watching, the table is closed, and a restart does not bring a
    game of bots alone back."""
    from test_fair_play import ClockedServer, pause
    srv = ClockedServer(tmp_path / "lobby.sqlite3")
    await srv.start()
    try:
        world = srv.server.world
        world.on_new_table = lambda t: setattr(t, "bot_delay", 1.0)    # a move a second
        hog = await srv.client()
        await hog.login("Hogger")
        hog.send("/newroom")
        await hog.expect("Table 1")
        for line in ("/option target 100000", "/option grace 300", *["/addbot random"] * 4):
            hog.send(line)
        hog.send("/start")
        await hog.expect("Bot4~random")
        table = world.tables[1]

        async def moves_go_on() -> bool:            # (10 s of the clock)
            before = len(table.match.actions) if table.match is not None else 0
            for _ in range(10):
                srv.clock.advance(1.0)
                for _ in range(3):
                    await pause()
            return table.match is not None and len(table.match.actions) > before + 3

        assert await moves_go_on()                      # the host watches: the bots play
        hog.send("/lobby")
        await hog.expect("lobby")
        for _ in range(20):
            await pause()
        assert table.bots_paused
        assert not await moves_go_on()                  # nobody there: not one move more
        watcher = await srv.client()
        await watcher.login("Watcher")
        watcher.send("/room 1")
        assert await moves_go_on()                      # somebody watches: they go on
        watcher.send("/lobby")
        await watcher.expect("lobby")
        for _ in range(20):
            await pause()
        assert not await moves_go_on()
        srv.clock.advance(288)
        await pause()
        assert 1 in world.tables
        srv.clock.advance(3)                            # the grace time (300 s) nobody there
        await pause()
        assert 1 not in world.tables
        from twisted.logger import formatEvent
        assert any("a game of bots alone, nobody watching" in formatEvent(e) for e in logged)
        # another one, then a restart: not restored as a running game
        hog.send("/newroom")
        await hog.expect("Table 1")
        for line in ("/option target 100000", *["/addbot random"] * 4):
            hog.send(line)
        hog.send("/start")
        await hog.expect("Bot4~random")
        await srv.restart()
        await pause()
        assert srv.server.world.tables == {}
        assert any("a game of bots alone is not restored" in formatEvent(e) for e in logged)
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_room_hopping_moves_but_does_not_flood_the_rooms(tmp_path: Path,
                                                              logged: Any) -> None:
    """A6 and A10 of the outside attack: hopping between the lobby and a table's room tells the
    others at most --presence-per-minute lines about the hopper; opening and closing tables in
    a loop writes log lines within the log budget."""
    srv = await _server(tmp_path, presence_per_minute=4)
    try:
        sitter = await srv.client()
        await sitter.login("Sitter")
        sitter.send("/newroom")
        await sitter.expect("Table 1")
        lobby = await srv.client()
        await lobby.login("Loiterer")
        hop = await srv.client()
        await hop.login("Hopper")
        await lobby.expect("Hopper enters the lobby.")       # (1 of 4)
        for _ in range(10):
            hop.send("/room 1")
            hop.send("/lobby")
        hop.send("/whereis Hopper")
        await hop.expect("Hopper is in the lobby")
        lobby.send("/who")
        got = await lobby.expect("In the lobby")
        # the budget (4): entering the lobby, leaving it, entering and leaving table 1's room
        assert got.count("Hopper leaves the lobby.") == 1 and "Hopper enters" not in got, got
        seen = await sitter.expect("Hopper leaves table 1.")
        assert seen.count("Hopper comes to") == 1 and "Hopper leaves" not in seen[:-40], seen
        assert srv.server.world.users["hopper"].room is srv.server.world.lobby
        for _ in range(8):                              # open and close tables in a loop
            hop.send("/newroom")
            await hop.expect("You open table")
            hop.send("/lobby")
        hop.send("/whereis Hopper")
        await hop.expect("Hopper is in the lobby")
        opened = [e for e in logged if "opens table" in str(e.get("log_format", ""))]
        closed = [e for e in logged if "closed ({state})" in str(e.get("log_format", ""))]
        assert len(opened) <= 3 + 1 and len(closed) <= 3, (len(opened), len(closed))
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_staff_are_marked_in_who_wwho_and_finger(tmp_path: Path) -> None:
    """Text mode marks the staff; machine mode only from protocol 4 (older versions keep their
    shapes: render_json.FIELDS_SINCE)."""
    import json

    from test_moderation import ModeratedServer
    srv = ModeratedServer(tmp_path / "lobby.sqlite3")
    await srv.start()
    try:
        boss = await srv.client()
        await boss.login("Boss", "sesame1")
        ann = await srv.client()
        await ann.login("Ann")
        ann.send("/who")
        assert await ann.read_line() == "In the lobby (2): Ann, Boss (admin)"
        ann.send("/wwho")
        got = await ann.expect("Boss")
        got += await ann.expect("\r\n")
        assert "(admin)" in got.splitlines()[-1] and "(guest)" in got
        ann.send("/finger Boss")
        assert "  on the staff: admin" in await ann.expect("online now")
        ann.send("/set lang de")
        ann.send("/who")
        await ann.expect("Boss (Admin)")
        for version, marked in ((3, False), (4, True)):
            bot = await srv.client()
            await bot.expect("login: ")
            bot.send(f"%json {version}")
            bot.send(f"#login Json{version}")
            await bot.expect('"logged-in-guest"')
            bot.send("/who")
            got = await bot.expect('"names"')
            got += await bot.expect("\n")
            who = json.loads(got.strip().splitlines()[-1])
            assert ("staff" in who) is marked, who
            if marked:
                assert who["staff"] == {"Boss": "admin"}
            await bot.close()
    finally:
        await srv.stop()


# ---- the lines one user makes other people read (B5, B7) -------------------------------------------
@pytest_twisted.ensureDeferred
async def test_seat_and_option_cycles_spend_the_users_budget_and_the_address_groups_cap(
        tmp_path: Path) -> None:
    """B5 of the outside attack: /join-/leave cycles and /option toggles flooded a waiting
    table's people with notices. Table changes that tell the table's people something spend a
    budget of the user, and all users of an address group together a larger one; over either
    the change is refused with table-budget, only to the one who asked, and the table's people
    read nothing. Review: the budget was the address group's alone, so one user behind a shared
    NAT used it up for everybody there; now another user there still has their own (up to the
    group's cap)."""
    srv = await _server(tmp_path, limit_loopback=True, table_changes_per_minute=1,
                        table_changes_burst=6, group_table_changes_per_minute=1,
                        group_table_changes_burst=9)
    try:
        host = await client_from(srv, "127.0.0.2")
        await host.login("Hostess")
        host.send("/newroom")
        await host.expect("Table 1")
        a = await client_from(srv, "127.0.0.1")
        await a.login("Cycler")
        b = await client_from(srv, "127.0.0.1")
        await b.login("Toggler")
        for c in (a, b):
            c.send("/room 1")
            await c.expect("watching table 1")
        host.buffer = ""
        for _ in range(10):
            a.send("/join")
            a.send("/leave")
        a.send("/who")
        told = await a.expect("At table 1")
        assert told.count("You sit down") == 3 and "! [table-budget]" in told, told
        host.send("/who")
        heard = await host.expect("At table 1")
        assert heard.count("Cycler sits down") == 3 and "leaves seat" in heard, heard
        assert "table-budget" not in heard
        b.send("/join")                      # the same address: Toggler has a budget of their own
        await b.expect("You sit down in seat 1.")
        b.send("/lobby")
        b.send("/newroom")
        await b.expect("Table 2")
        host.send("/room 2")
        await host.expect("watching table 2")
        for _ in range(10):
            b.send("/option tichujoin on")
            b.send("/option tichujoin off")
        b.send("/option")                    # the listing is no change: it still answers
        b.send("/who")
        told = await b.expect("At table 2")
        assert "! [table-budget]" in told and "tichujoin" in told, told
        host.send("/who")
        heard = await host.expect("At table 2")
        # the address group's cap (9): Cycler spent 6, Toggler's /join and /lobby 2, one left
        assert heard.count("Toggler sets tichujoin") == 1, heard
        host.send("/room 1")
        host.send("/join 3")                 # another address is not affected
        await host.expect("You sit down in seat 3.")
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_leaving_a_seat_by_room_newroom_lobby_or_disconnect_spends_the_table_budget(
        tmp_path: Path) -> None:
    """Review of B5: a seated player leaving the room of a waiting table (/room 0, /newroom,
    /lobby) or disconnecting tells everybody there `table-left` without spending the budget of
    table changes, so /join-/room cycles put twice the budget on the table. Every way of leaving
    a seat spends it: a move over it is refused (the player stays seated), a disconnect is
    counted (the next changes wait)."""
    srv = await _server(tmp_path, table_changes_per_minute=1, table_changes_burst=5)
    try:
        host = await srv.client()
        await host.login("Hostess")
        host.send("/newroom")
        await host.expect("Table 1")
        a = await srv.client()
        await a.login("Cycler")
        for leave in ("/room 0", "/newroom", "/lobby"):      # 2 changes each: 6 > 5
            a.send("/room 1")
            a.send("/join")
            a.send(leave)
        a.send("/who")
        told = await a.expect("At table 1")
        assert told.count("You sit down") == 3, told
        assert "! [table-budget]" in told and "/manager was not done" in told, told
        host.send("/who")
        heard = await host.expect("At table 1")
        assert heard.count("Cycler sits down") == 3, heard
        assert heard.count("Cycler leaves seat") == 2, heard   # the /lobby was refused
        await a.close()                        # seated: table-left all the same, counted
        await host.expect("Cycler leaves seat")
        b = await srv.client()
        await b.login("Cycler")
        b.send("/room 1")
        b.send("/join")
        assert "! [table-budget]" in await b.expect("[table-budget]")
        host.send("/who")
        heard = await host.expect("At table 1")
        assert "Cycler sits down" not in heard, heard
        sat = 0
        for _ in range(4):                     # /join and disconnect: 2 changes each
            d = await srv.client()
            await d.login("Dropper")
            d.send("/room 1")
            d.send("/join")
            got = await d.expect_any(("You sit down", "[table-budget]"))
            sat += "You sit down" in got
            await d.close()
        assert sat == 3
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_a_player_hopping_out_of_a_running_games_room_spends_the_table_budget(
        tmp_path: Path) -> None:
    """Review of B5: a player of a running game who leaves its room tells everybody there
    `has vanished`, and coming back `is back`; these spend the budget of table changes too (a
    return is only counted: nobody is kept out of their game), and a move over the budget is
    refused, the player staying at the table."""
    from wire_tables import WireGame
    srv = await _server(tmp_path, table_changes_per_minute=1, table_changes_burst=3)
    try:
        game = WireGame(srv, ["Anna", "Bert", "Cleo", "Dirk"])
        await game.setup({})                   # each /join spent one: two left
        await game.say("Anna", "/room 0", "In the lobby")          # vanished: one left
        await game.say("Anna", "/room 1", "Anna is back.")         # counted: none left
        got = await game.say("Anna", "/room 0", "[table-budget]")
        assert "/room was not done" in got + await game.clients["Anna"].expect("again.")
        await game.settle()
        assert srv.server.world.online("Anna").room.number == 1
        bert = "\n".join(game.clients["Bert"].lines)
        assert bert.count("Anna has vanished") == 1 and bert.count("Anna is back") == 1, bert
    finally:
        await srv.stop()


@pytest.mark.parametrize("speech_per_second", [0.001, 0.0])
@pytest_twisted.ensureDeferred
async def test_tells_spread_over_many_recipients_share_one_budget(
        tmp_path: Path, speech_per_second: float) -> None:
    """B7 of the outside attack: one address telling N people in turn delivered N times the
    per-recipient budget. The tells of an address group to everybody together have a budget
    of their own (--tells-per-second, --tells-burst), also with the speech budget and the
    repeat window off (0.0: the guard skipped every budget of speech then, review)."""
    srv = await _server(tmp_path, speech_per_second=speech_per_second, speech_burst=15,
                        tells_per_second=0.001, tells_burst=5)
    try:
        people = []
        for i in range(8):
            p = await client_from(srv, "127.0.0.2")
            await p.login(f"Person{i}")
            people.append(p)
        teller = await client_from(srv, "127.0.0.1")
        await teller.login("Teller")
        for p in people:
            p.buffer = ""
        for n in range(24):
            teller.send(f"/tell Person{n % 8} message {n}")
        teller.send("/who")
        assert (await teller.expect("In the lobby")).count("! [speech-budget]") == 1
        got = 0
        for p in people:
            p.send("/who")
            got += (await p.expect("In the lobby")).count("tells you:")
        assert got == 5, got
        people[0].send("/tell Person1 still here")      # another address tells on
        await people[1].expect("Person0 tells you: still here")
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_several_users_of_one_address_hopping_share_one_presence_budget(
        tmp_path: Path, logged: Any) -> None:
    """A6 and A10, re-tested with several users of one address: their enters/leaves lines
    together are at most --group-presence-per-minute (each user's own budget alone let three
    hoppers put three times as many lines on the others' screens), and their table-open/close
    loops stay within the log budget of the address group."""
    srv = await _server(tmp_path, limit_loopback=True, presence_per_minute=100,
                        group_presence_per_minute=4, log_lines_per_minute=3)
    try:
        sitter = await client_from(srv, "127.0.0.2")
        await sitter.login("Sitter")
        sitter.send("/newroom")
        await sitter.expect("Table 1")
        lobby = await client_from(srv, "127.0.0.2")
        await lobby.login("Loiterer")
        hoppers = []
        for i in range(3):
            h = await client_from(srv, "127.0.0.1")
            await h.login(f"Hopper{i}")
            hoppers.append(h)
        for _ in range(5):
            for h in hoppers:
                h.send("/room 1")
                h.send("/lobby")
        for i, h in enumerate(hoppers):
            h.send(f"/whereis Hopper{i}")
            await h.expect(f"Hopper{i} is in the lobby")
        lobby.send("/who")
        heard = await lobby.expect("In the lobby")
        sitter.send("/who")
        seen = await sitter.expect("At table 1")
        told = heard.count("Hopper") + seen.count("Hopper")
        # the address's budget (4): the three log-ins' arrivals and one more line, not 33
        assert told == 4, (heard, seen)
        assert "Hopper" in heard
        other = await client_from(srv, "127.0.0.3")    # another address is still told
        await other.login("Newcomer")
        await lobby.expect("Newcomer enters the lobby.")
        for _ in range(6):                               # open and close tables in a loop
            for h in hoppers[:2]:
                h.send("/newroom")
                h.send("/lobby")
        for i, h in enumerate(hoppers[:2]):
            h.send(f"/whereis Hopper{i}")
            await h.expect(f"Hopper{i} is in the lobby")
        opened = [e for e in logged if "opens table" in str(e.get("log_format", ""))]
        closed = [e for e in logged if "closed ({state})" in str(e.get("log_format", ""))]
        # Sitter's table 1 and the address 127.0.0.1's three of each a minute
        assert len(opened) <= 1 + 3 and len(closed) <= 3, (len(opened), len(closed))
    finally:
        await srv.stop()


@pytest_twisted.ensureDeferred
async def test_speech_budget_of_one_line_a_second_is_singular(tmp_path: Path) -> None:
    """Issue 26 A: with the speech budget at 1 line a second the notice said "more than 1
    lines a second" (French "plus de 1 lignes"); the count now picks the plural form."""
    srv = await _server(tmp_path, speech_per_second=1.0, speech_burst=1)
    try:
        for lang, singular in (("en", "(more than 1 line a second)"),
                               ("fr", "(plus de 1 ligne par seconde)")):
            s = await client_from(srv, "127.0.0.1")
            await s.login(f"Spk{lang}")
            if lang != "en":
                s.send(f"/set lang {lang}")
            s.transport.write("".join(f"line {n}\r\n" for n in range(8)).encode())
            got = await s.expect("! [speech-budget]")
            got += await s.expect(".\r\n")
            told = " ".join(got[got.index("! [speech-budget]"):].split())
            assert singular in told, got
            await s.close()
    finally:
        await srv.stop()
