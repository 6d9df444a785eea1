"""Issue 23: every connection and every address group has one budget for what it makes the server
do, accounted by protocol.connection.guard (docs/operations.md, "Abuse budgets"). Each test runs a real
server over loopback sockets; the rates are tiny, so what a test sends is far past the budget
whatever the machine's speed (no wall-clock assertion)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, AsyncIterator

import pytest_twisted

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
    await c.expect("In the Lobby")
    return "In the Lobby" + await c.expect("\r\n")


# ---- 1. telnet bytes -----------------------------------------------------------------------------
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
    assert "In the Lobby (1): Other" in await _who(other)
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
        assert "In the Lobby (1)" in await _who(c)
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
        await watcher.expect("Second enters the Lobby.\r\n")
        c = await srv.client()
        await c.expect("login: ")
        c.transport.write(b"Third\r\nhunter22\r\nhunter22\r\n")
        await c.expect("! [too-many-guests]")
        await c.expect("login: " + DROPPED + "login: " + DROPPED + "login: ")
        watcher.send("/who")
        assert await watcher.read_line() == "In the Lobby (2): Second, Watcher"
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
        assert await watcher.read_line() == "In the Lobby (1): Watcher"
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
        texts.append(await c.expect("Game over after 3 rounds"))
        c.send(f"/tchlog {game}")
        await _who(c)
    assert texts[0] == texts[1] == texts[2]
    assert archive.cache_misses == 2 and archive.cache_hits == 4   # replay and .tch once each
    c.send("/history Ann")
    await _who(c)
    c.send("/history Ann")
    await _who(c)
    assert archive.cache_misses == 3
    await _saved_game(server)                 # a new game: the history is asked again
    c.send("/history Ann")
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
            await c.expect("Game over after 3 rounds")
        c.send(f"/replay {game}")
        await c.expect("! [work-budget]")
        assert "In the Lobby (1): Greedy" in await _who(c)   # ordinary commands still run
        for _ in range(12):                    # it keeps going: closed
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
        heard = await listener.expect("In the Lobby (8)")
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
        heard = await listener.expect("In the Lobby (8)")
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
        g.send("/newroom")
        await g.expect("Table 1")
        g.send("/addbot expert:10")
        await g.expect("! [guest-bot-level]")
        g.send("/addbot expert:2")
        await g.expect("(expert:2 bot)")
        g.send("/removebot 1")
        for _ in range(3):                          # a game of bots only, its host away
            g.send("/addbot random")
        g.send("/addbot expert:0.05")
        g.send("/start")
        await g.expect("(expert:0.05 bot)")
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
