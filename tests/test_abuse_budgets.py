"""Issue 23: every connection and every address group has one budget for what it makes the server
do, accounted by protocol.guard (docs/operations.md, "Abuse budgets"). Each test runs a real
server over loopback sockets; the rates are tiny, so what a test sends is far past the budget
whatever the machine's speed (no wall-clock assertion)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, AsyncIterator

import pytest_twisted

from conftest import LineClient, RunningServer, within
from protocol.guard import Limits
from protocol.telnet import DO, IAC, NOP, SGA, WILL, WONT

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
