"""Hypothesis: arbitrary bytes fed to a session never raise and never stop it from answering the
next valid command."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from twisted.internet import task

from conftest import FakeLobby
from lobby.text.messages import LobbyError
from protocol.commands import parse_line
from protocol.telnet import sniff

# Ends every telnet state the junk may have left open: IAC SE closes a subnegotiation (twice, in
# case the junk ended inside one with a pending IAC), the line end finishes a partial line.
RESYNC = b"\xff\xf0\xff\xf0\r\n"

chunks = st.lists(st.binary(max_size=300), max_size=6)
interesting = st.lists(st.sampled_from([
    b"\xff", b"\xff\xfa", b"\xff\xf0", b"\xff\xfb\x01", b"\xff\xfd\x03", b"\xff\xff", b"\r", b"\n",
    b"\r\x00", b"\x00", b"\xc3", b"\xbf", b"\x08", b"\x7f", b"/", b";", b"who", b"tell", b" ",
    b"x" * 700]), max_size=30).map(lambda parts: [b"".join(parts)])


def quits(data: bytes) -> bool:
    """Whether some line of ``data`` would be the /quit command (which rightly ends the session)."""
    for raw in data.replace(b"\r", b"\n").split(b"\n"):
        line = "".join(ch for ch in raw.decode("latin-1") if ch.isprintable())
        try:
            parsed = parse_line(line)
        except LobbyError:
            continue
        if parsed is not None and parsed.command is not None and parsed.command.name == "quit":
            return True
    return False


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(chunks, interesting), st.booleans())
@example([b"SSH-"], False)
@example([b"%json\r\n"], True)
@example([b"%json\r\n"], False)
def test_junk_never_breaks_a_session(pieces: list[bytes], logged_in: bool) -> None:
    clock = task.Clock()
    lobby = FakeLobby(clock)
    watcher = lobby.connect()
    watcher.login("Watcher")
    c = lobby.connect()
    if logged_in:
        c.login("Fuzzy")
    c.raw()
    if any(quits(p) for p in pieces) or quits(b"".join(pieces)):
        return
    if not logged_in and sniff.classify(b"".join(pieces)[:sniff.MAX_PREFIX]) not in (None,
                                                                                  sniff.MAYBE):
        return  # first bytes of HTTP, TLS or SSH: answered and closed on purpose (test_sniff)
    for piece in pieces:
        c.send(piece)  # must not raise
    c.send(RESYNC)
    if c.closed:  # only three wrong passwords may close a session; junk has no password
        raise AssertionError("the session closed")
    if not logged_in:
        c.send("guest")
        if c.session.state != "active":  # the junk left it at password:, or typed a name
            c.send("")
            c.send("guest")
    c.raw()
    c.send("/who")
    lines = c.lines()
    assert lines and c.session.user is not None and c.session.user.name in lines[-1]
    if not c.session.output.is_bot_client:
        assert lines[-1].startswith("In the lobby (")
    # else a line of the junk was %json: machine mode, which answers /who with an object (this
    # test failed once when Hypothesis's random bytes held that line)
