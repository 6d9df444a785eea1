"""Protocol tests for protocol/telnet/transport.py through StringTransport (no reactor)."""
from __future__ import annotations

import json
import socket
from typing import Any

import pytest
import pytest_twisted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twisted.internet.address import IPv4Address
from twisted.internet.defer import Deferred
from twisted.internet.protocol import ClientFactory
from twisted.internet.testing import StringTransport
from twisted.logger import capturedLogs

from protocol.telnet.transport import (
    DO,
    DONT,
    EC,
    ECHO,
    EL,
    GA,
    GMCP,
    IAC,
    NOP,
    SB,
    SE,
    SGA,
    WILL,
    WONT,
    TelnetLineProtocol,
    clean_line,
    decode_line,
    encode_text,
)

TTYPE = 24
NAWS = 31
OFFER_GMCP = bytes((IAC, WILL, GMCP))


def cmd(*values: int) -> bytes:
    return bytes(values)


class Recorder(TelnetLineProtocol):
    """Records every hook call in order."""

    def connectionMade(self) -> None:
        super().connectionMade()
        self.events: list[tuple[Any, ...]] = []

    def lineReceived(self, line: str) -> None:
        self.events.append(("line", line))

    def lineTooLong(self, length: int) -> None:
        self.events.append(("too-long", length))

    def outputOverflow(self) -> None:
        self.events.append(("overflow",))

    def gmcpReceived(self, package: str, data: object) -> None:
        self.events.append(("gmcp", package, data))

    def telnetOptionsChanged(self) -> None:
        self.events.append(("options",))

    def lines(self) -> list[str]:
        return [event[1] for event in self.events if event[0] == "line"]


def connect(cls: type[Recorder] = Recorder) -> tuple[Recorder, StringTransport]:
    proto = cls()
    transport = StringTransport(peerAddress=IPv4Address("TCP", "127.0.0.1", 40000))
    proto.makeConnection(transport)
    assert transport.value() == OFFER_GMCP
    transport.clear()
    return proto, transport


def feed(proto: TelnetLineProtocol, data: bytes, cuts: list[int] = ()) -> None:
    """Feed `data` split at the positions in `cuts`."""
    start = 0
    for cut in sorted(set(cuts)):
        if 0 < cut < len(data):
            proto.dataReceived(data[start:cut])
            start = cut
    proto.dataReceived(data[start:])


def run(data: bytes, cuts: list[int] = ()) -> tuple[list[tuple[Any, ...]], bytes]:
    proto, transport = connect()
    feed(proto, data, cuts)
    return proto.events, transport.value()


# ---- line framing ------------------------------------------------------------------------------
def test_lf_crlf_cr_nul_and_bare_cr_end_lines() -> None:
    proto, _ = connect()
    feed(proto, b"netcat\ntelnet\r\ncrnul\r\x00bare\rnext\n")
    assert proto.lines() == ["netcat", "telnet", "crnul", "bare", "next"]


def test_crlf_split_between_chunks_is_one_line_end() -> None:
    proto, _ = connect()
    proto.dataReceived(b"one\r")
    proto.dataReceived(b"\ntwo\r")
    proto.dataReceived(b"\x00three\r")
    proto.dataReceived(b"\r\n")
    assert proto.lines() == ["one", "two", "three", ""]


def test_empty_lines_are_delivered() -> None:
    proto, _ = connect()
    feed(proto, b"\n\r\n")
    assert proto.lines() == ["", ""]


def test_unterminated_line_waits_for_its_end() -> None:
    proto, _ = connect()
    proto.dataReceived(b"half a li")
    assert proto.lines() == []
    proto.dataReceived(b"ne\n")
    assert proto.lines() == ["half a line"]


def test_no_lines_after_the_transport_is_closing() -> None:
    class Quitter(Recorder):
        def lineReceived(self, line: str) -> None:
            super().lineReceived(line)
            if line == "/quit":
                self.transport.loseConnection()

    proto, transport = connect(Quitter)
    proto.dataReceived(b"hello\n/quit\nignored\n")
    assert proto.lines() == ["hello", "/quit"]
    assert transport.disconnecting


# ---- telnet commands inside the data -----------------------------------------------------------
MIXED = (
    b"he" + cmd(IAC, WILL, NAWS) + b"llo" + cmd(IAC, NOP) + b"\r" + cmd(IAC, GA) + b"\n"
    + cmd(IAC, SB, NAWS, 0, 80, 0, 24, IAC, SE) + b"pi" + cmd(IAC, IAC) + b"=\xe9\r\x00"
    + cmd(IAC, DO, TTYPE) + b"w\xc3" + cmd(IAC, DONT, TTYPE) + b"\xa9\xcf\x80\n"
    + cmd(IAC, SB, TTYPE, 0) + b"xterm" + cmd(IAC, IAC, IAC, SE) + b"last\r\n"
)
MIXED_LINES = ["hello", "pi\u00ff=\u00e9", "w\u00e9\u03c0", "last"]  # 2nd: Latin-1
MIXED_REPLIES = cmd(IAC, DONT, NAWS) + cmd(IAC, WONT, TTYPE)


def test_negotiation_mixed_into_lines() -> None:
    events, output = run(MIXED)
    assert [e[1] for e in events if e[0] == "line"] == MIXED_LINES
    assert output == MIXED_REPLIES


@pytest.mark.parametrize("cut", range(1, len(MIXED)))
def test_negotiation_mixed_into_lines_split_at_every_byte(cut: int) -> None:
    events, output = run(MIXED, [cut])
    assert [e[1] for e in events if e[0] == "line"] == MIXED_LINES
    assert output == MIXED_REPLIES


def test_negotiation_mixed_into_lines_one_byte_at_a_time() -> None:
    events, output = run(MIXED, list(range(len(MIXED))))
    assert [e[1] for e in events if e[0] == "line"] == MIXED_LINES
    assert output == MIXED_REPLIES


def test_erase_character_and_erase_line_commands() -> None:
    proto, _ = connect()
    feed(proto, b"helo" + cmd(IAC, EC) + b"lo\n" + b"oops" + cmd(IAC, EL) + b"fine\n")
    assert proto.lines() == ["hello", "fine"]


def test_subnegotiation_without_se_ends_at_the_next_command() -> None:
    proto, transport = connect()
    feed(proto, cmd(IAC, SB, TTYPE, 0) + b"vt100" + cmd(IAC, WILL, NAWS) + b"text\n")
    assert proto.lines() == ["text"]
    assert transport.value() == cmd(IAC, DONT, NAWS)


# ---- charset -----------------------------------------------------------------------------------
@pytest.mark.parametrize("char", ["\u00e9", "\u20ac", "\U0001f0a1"])
def test_utf8_character_split_across_chunks(char: str) -> None:
    encoded = ("x" + char + "y\n").encode()
    for cut in range(1, len(encoded)):
        proto, _ = connect()
        proto.dataReceived(encoded[:cut])
        proto.dataReceived(encoded[cut:])
        assert proto.lines() == ["x" + char + "y"]


def test_invalid_utf8_is_decoded_as_latin1() -> None:
    proto, _ = connect()
    feed(proto, b"caf\xe9 cr\xe8me\n")
    assert proto.lines() == ["caf\u00e9 cr\u00e8me"]
    assert decode_line(b"\xc3\xa9") == "\u00e9"
    assert decode_line(b"\xc3") == "\u00c3"


def test_control_characters_are_stripped_and_backspace_erases() -> None:
    proto, _ = connect()
    feed(proto, b"a\tb\x1b[Ac\x00\x07d\n" + b"helo\x08lo\n" + b"abc\x7f\x7f\x7f\x7fxy\n"
         + "n\u0085e\u009bw\n".encode() + b"latin\x85one\xe9\n")
    assert proto.lines() == ["ab[Acd", "hello", "xy", "new", "latinone\u00e9"]


def test_backspace_erases_a_whole_character() -> None:
    assert clean_line("na\u00efve\x08\x08\x08\x08ice") == "nice"
    assert clean_line("\U0001f0a1\x7f!") == "!"
    assert clean_line("plain") == "plain"


# ---- line length -------------------------------------------------------------------------------
def test_line_of_exactly_the_limit_is_accepted() -> None:
    proto, _ = connect()
    feed(proto, b"a" * TelnetLineProtocol.MAX_LINE_BYTES + b"\n")
    assert proto.lines() == ["a" * TelnetLineProtocol.MAX_LINE_BYTES]


def test_overlong_line_is_reported_once_and_the_next_line_works() -> None:
    proto, transport = connect()
    limit = TelnetLineProtocol.MAX_LINE_BYTES
    length = 50 * limit + 7
    for start in range(0, length, 333):  # streams in; the buffer never passes the limit
        proto.dataReceived(b"x" * min(333, length - start))
        assert len(proto._line) <= limit
    proto.dataReceived(b"\r\nnext line\r\n")
    assert proto.events == [("too-long", length), ("line", "next line")]
    assert not transport.disconnecting


def test_overlong_line_length_counts_bytes_before_decoding() -> None:
    proto, _ = connect()
    limit = TelnetLineProtocol.MAX_LINE_BYTES
    text = "\u00e9" * (limit // 2 + 1)  # two bytes each
    feed(proto, text.encode() + b"\nok\n", [limit - 1])
    assert proto.events == [("too-long", limit + 2), ("line", "ok")]


# ---- output ------------------------------------------------------------------------------------
def test_output_lines_end_in_crlf() -> None:
    proto, transport = connect()
    proto.sendLine("hello")
    proto.sendLine("two\nlines")
    proto.sendLine("already\r\nright")
    proto.sendText("no newline")
    proto.sendLine("gr\u00fc\u00dfe")
    assert transport.value() == (b"hello\r\ntwo\r\nlines\r\nalready\r\nright\r\nno newline"
                                 + "gr\u00fc\u00dfe\r\n".encode())


def test_iac_in_output_is_doubled() -> None:
    proto, transport = connect()
    proto.sendBytes(b"a\xffb\xff\xff")
    assert transport.value() == b"a\xff\xffb\xff\xff\xff\xff"
    assert encode_text("\udcff x") == b"? x"


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_encoded_text_has_no_lone_iac_and_no_bare_lf(text: str) -> None:
    data = encode_text(text)
    assert data.replace(b"\xff\xff", b"").count(b"\xff") == 0
    assert data.count(b"\n") == data.count(b"\r\n")


def test_a_client_that_never_negotiates_gets_no_ga() -> None:
    proto, transport = connect()
    proto.dataReceived(b"hello\r\n")
    proto.sendPrompt("Name: ")
    assert transport.value() == b"Name: "


def test_prompt_is_followed_by_ga_until_sga_is_agreed() -> None:
    proto, transport = connect()
    proto.dataReceived(cmd(IAC, WONT, NAWS))  # a telnet client: it negotiates
    transport.clear()
    proto.sendPrompt("Name: ")
    assert transport.value() == b"Name: " + cmd(IAC, GA)
    transport.clear()
    proto.dataReceived(cmd(IAC, DO, SGA))
    assert transport.value() == cmd(IAC, WILL, SGA)
    transport.clear()
    # (a prompt after a prompt nobody answered starts on a line of its own: issue 26 review 5)
    proto.sendPrompt("Password: ")
    assert transport.value() == b"\r\nPassword: "
    transport.clear()
    proto.dataReceived(cmd(IAC, DONT, SGA))
    assert transport.value() == cmd(IAC, WONT, SGA)    # (negotiation: no line end before it)
    transport.clear()
    proto.sendPrompt("> ")
    assert transport.value() == b"\r\n> " + cmd(IAC, GA)


# ---- negotiation -------------------------------------------------------------------------------
@pytest.mark.parametrize(("received", "answer"), [
    (cmd(IAC, DO, SGA), cmd(IAC, WILL, SGA)),
    (cmd(IAC, WILL, SGA), cmd(IAC, DO, SGA)),
    (cmd(IAC, DO, TTYPE), cmd(IAC, WONT, TTYPE)),
    (cmd(IAC, WILL, NAWS), cmd(IAC, DONT, NAWS)),
    (cmd(IAC, DO, ECHO), cmd(IAC, WONT, ECHO)),    # not in password mode: we do not echo
    (cmd(IAC, WILL, ECHO), cmd(IAC, DONT, ECHO)),
    (cmd(IAC, DONT, TTYPE), b""),                   # already off: no answer
    (cmd(IAC, WONT, NAWS), b""),
    (cmd(IAC, DO, GMCP), b""),                      # the answer to our offer is not answered
    (cmd(IAC, DONT, GMCP), b""),
])
def test_negotiation_answers(received: bytes, answer: bytes) -> None:
    proto, transport = connect()
    proto.dataReceived(received)
    assert transport.value() == answer
    transport.clear()
    proto.dataReceived(received)  # the same again changes nothing and is not answered twice
    assert transport.value() == (answer if answer[1:2] in (bytes((WONT,)), bytes((DONT,)))
                                 else b"")


def test_agreed_options_are_reported() -> None:
    proto, _ = connect()
    proto.dataReceived(cmd(IAC, DO, SGA, IAC, WILL, SGA, IAC, DO, GMCP))
    assert proto.optionEnabled(SGA) and proto.optionEnabled(SGA, local=False)
    assert proto.gmcp_enabled
    assert proto.events == [("options",)] * 3
    proto.dataReceived(cmd(IAC, DO, TTYPE))  # refused: no state change
    assert proto.events == [("options",)] * 3


def test_gmcp_refused_stays_off() -> None:
    proto, transport = connect()
    proto.dataReceived(cmd(IAC, DONT, GMCP))
    assert not proto.gmcp_enabled
    proto.sendGMCP("Core.Hello", {"x": 1})
    assert transport.value() == b""


class Peer:
    """A telnet client answering per RFC 1143 for the options the server enables on its side."""

    def __init__(self, accept: set[int], answers_wont: bool = True) -> None:
        self.accept = accept
        self.answers_wont = answers_wont  # tintin++ does not answer WONT ECHO
        self.remote: dict[int, bool] = {}   # what the peer believes is on at the server
        self.pending = b""

    def receive(self, data: bytes) -> bytes:
        """Consume server bytes, return the answers (only negotiation matters here)."""
        data = self.pending + data
        out = b""
        index = 0
        while index < len(data):
            if data[index] != IAC:
                index += 1
                continue
            if index + 1 >= len(data):
                break
            command = data[index + 1]
            if command in (WILL, WONT):
                if index + 2 >= len(data):
                    break
                option = data[index + 2]
                on = self.remote.get(option, False)
                if command == WILL and not on:
                    if option in self.accept:
                        self.remote[option] = True
                        out += cmd(IAC, DO, option)
                    else:
                        out += cmd(IAC, DONT, option)
                elif command == WONT and on:
                    self.remote[option] = False
                    if self.answers_wont:
                        out += cmd(IAC, DONT, option)
                index += 3
            elif command in (DO, DONT):
                index += 3
            else:
                index += 2
        self.pending = data[index:]
        return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["hide", "show", "to-peer", "to-server"]), max_size=40),
       st.booleans(), st.booleans())
def test_password_mode_negotiation_never_loops_and_converges(
        steps: list[str], accept_echo: bool, answers_wont: bool) -> None:
    proto, transport = connect()
    peer = Peer({GMCP, ECHO} if accept_echo else {GMCP}, answers_wont)
    to_server = peer.receive(OFFER_GMCP)
    proto.dataReceived(to_server)  # the client has negotiated: strict RFC 1143 from now on
    to_server = b""
    sent = 0
    for step in steps:
        if step == "hide":
            proto.setPasswordMode(True)
        elif step == "show":
            proto.setPasswordMode(False)
        elif step == "to-peer":
            to_server += peer.receive(transport.value())
            sent += len(transport.value())
            transport.clear()
        else:
            proto.dataReceived(to_server)
            to_server = b""
    rounds = 0
    while transport.value() or to_server:  # deliver everything until quiet
        rounds += 1
        assert rounds < 10, "negotiation does not settle"
        to_server += peer.receive(transport.value())
        sent += len(transport.value())
        transport.clear()
        proto.dataReceived(to_server)
        to_server = b""
    assert sent <= 3 * (len(steps) + 2)
    # the client hides the input exactly while a password is asked (if it agrees at all),
    # and the server never believes echo is off at the client when it is not
    assert peer.remote.get(ECHO, False) == (proto.password_mode and accept_echo)
    assert proto.optionEnabled(ECHO) <= peer.remote.get(ECHO, False)
    if answers_wont:
        assert proto.optionEnabled(ECHO) == peer.remote.get(ECHO, False)


def test_password_mode_for_a_client_that_never_negotiates() -> None:
    proto, transport = connect()
    proto.sendPrompt("Password: ")
    proto.setPasswordMode(True)
    assert transport.value() == b"Password: " + cmd(IAC, WILL, ECHO)
    transport.clear()
    proto.dataReceived(b"secret\n")
    proto.setPasswordMode(False)
    assert transport.value() == cmd(IAC, WONT, ECHO)
    transport.clear()
    proto.setPasswordMode(True)
    proto.setPasswordMode(True)
    assert transport.value() == cmd(IAC, WILL, ECHO)
    assert proto.lines() == ["secret"]


def test_password_mode_with_a_client_that_does_not_answer_wont_echo() -> None:
    proto, transport = connect()
    proto.dataReceived(cmd(IAC, DONT, GMCP))
    for _ in range(3):  # e.g. tintin++: DO ECHO for WILL ECHO, no answer to WONT ECHO
        proto.setPasswordMode(True)
        assert transport.value() == cmd(IAC, WILL, ECHO)
        transport.clear()
        proto.dataReceived(cmd(IAC, DO, ECHO))
        proto.setPasswordMode(False)
        assert transport.value() == cmd(IAC, WONT, ECHO)
        transport.clear()


def test_late_do_echo_after_the_password_is_not_refused_twice() -> None:
    proto, transport = connect()
    proto.dataReceived(cmd(IAC, DONT, GMCP))
    proto.setPasswordMode(True)
    proto.setPasswordMode(False)  # before the client answered
    transport.clear()
    proto.dataReceived(cmd(IAC, DO, ECHO))  # answers our WILL; our WONT is on its way
    assert transport.value() == b""
    proto.dataReceived(cmd(IAC, DONT, ECHO))  # answers our WONT
    assert transport.value() == b""
    assert not proto.optionEnabled(ECHO)
    proto.dataReceived(cmd(IAC, DO, ECHO))  # now a request: refused
    assert transport.value() == cmd(IAC, WONT, ECHO)


def test_password_mode_with_a_telnet_client() -> None:
    proto, transport = connect()
    proto.dataReceived(cmd(IAC, DONT, GMCP))
    proto.setPasswordMode(True)
    assert transport.value() == cmd(IAC, WILL, ECHO)
    transport.clear()
    proto.dataReceived(cmd(IAC, DO, ECHO) + b"secret\r\n")
    assert transport.value() == b""  # the answer is not answered
    assert proto.optionEnabled(ECHO)
    proto.setPasswordMode(False)
    assert transport.value() == cmd(IAC, WONT, ECHO)
    transport.clear()
    proto.dataReceived(cmd(IAC, DONT, ECHO))
    assert transport.value() == b""
    assert not proto.optionEnabled(ECHO)
    assert proto.lines() == ["secret"]


# ---- GMCP --------------------------------------------------------------------------------------
def test_gmcp_agree_send_and_receive() -> None:
    proto, transport = connect()
    proto.dataReceived(cmd(IAC, DO, GMCP))
    assert proto.gmcp_enabled and transport.value() == b""
    proto.sendGMCP("Room.Info", {"name": "Tichu \u00e9", "tables": [1, 2]})
    proto.sendGMCP("Core.Ping")
    assert transport.value() == (
        cmd(IAC, SB, GMCP) + 'Room.Info {"name":"Tichu \u00e9","tables":[1,2]}'.encode()
        + cmd(IAC, SE) + cmd(IAC, SB, GMCP) + b"Core.Ping" + cmd(IAC, SE))
    message = (cmd(IAC, SB, GMCP) + b'Core.Hello {"client":"Mudlet","version":"4.17"}'
               + cmd(IAC, SE) + b"look\r\n" + cmd(IAC, SB, GMCP) + b"Core.Ping" + cmd(IAC, SE)
               + cmd(IAC, SB, GMCP) + b"Bad.Json {nope" + cmd(IAC, SE) + b"end\n")
    expected = [("gmcp", "Core.Hello", {"client": "Mudlet", "version": "4.17"}),
                ("line", "look"), ("gmcp", "Core.Ping", None), ("line", "end")]
    for cut in range(len(message)):
        proto.events.clear()
        feed(proto, message, [cut])
        assert proto.events == expected


def test_gmcp_before_agreement_is_ignored() -> None:
    proto, _ = connect()
    feed(proto, cmd(IAC, SB, GMCP) + b"Core.Hello {}" + cmd(IAC, SE) + b"hi\n")
    assert proto.events == [("line", "hi")]


def test_oversized_gmcp_message_is_dropped() -> None:
    proto, _ = connect()
    proto.dataReceived(cmd(IAC, DO, GMCP))
    proto.events.clear()
    big = json.dumps("x" * (2 * TelnetLineProtocol.MAX_SUBNEGOTIATION_BYTES)).encode()
    feed(proto, cmd(IAC, SB, GMCP) + b"Big.Data " + big + cmd(IAC, SE) + b"after\n", [100, 5000])
    assert proto.events == [("line", "after")]


def test_no_subnegotiation_bytes_to_a_client_that_never_negotiated() -> None:
    proto = Recorder()
    transport = StringTransport()
    proto.makeConnection(transport)
    proto.sendPrompt("Name: ")
    proto.dataReceived(b"alice\n")
    proto.setPasswordMode(True)
    proto.dataReceived(b"pw\n")
    proto.setPasswordMode(False)
    proto.sendGMCP("Char.Name", {"name": "alice"})
    proto.sendLine("Welcome, alice.")
    assert not proto.gmcp_enabled
    assert bytes((IAC, SB)) not in transport.value()
    assert proto.lines() == ["alice", "pw"]


# ---- slow readers ------------------------------------------------------------------------------
def test_protocol_is_the_transports_streaming_producer() -> None:
    proto, transport = connect()
    assert transport.producer is proto and transport.streaming


def test_output_cap_closes_a_paused_connection() -> None:
    proto, transport = connect()
    line = "x" * 998  # 1000 bytes with CR LF
    proto.pauseProducing()
    with capturedLogs() as events:
        for _ in range(TelnetLineProtocol.MAX_OUTPUT_BYTES // 1000):
            proto.sendLine(line)
        assert not transport.disconnecting
        proto.sendLine(line)
        proto.sendLine(line)
    assert proto.events == [("overflow",)]
    assert transport.disconnecting and transport.disconnected  # aborted, not a clean close
    warnings = [event for event in events if event.get("unsent")]
    assert len(warnings) == 1
    assert warnings[0]["unsent"] > TelnetLineProtocol.MAX_OUTPUT_BYTES
    assert "127.0.0.1" in warnings[0]["peer"]
    size = len(transport.value())
    proto.sendLine("dropped")
    assert len(transport.value()) == size


def test_repeated_pause_calls_do_not_reset_the_count() -> None:
    # Twisted's transports call pauseProducing on every write while their buffer is full.
    class Transport(StringTransport):
        def write(self, data: bytes) -> None:
            super().write(data)
            if len(self.value()) > 64 * 1024:
                self.producer.pauseProducing()

    proto = Recorder()
    transport = Transport()
    proto.makeConnection(transport)
    for _ in range(2 * TelnetLineProtocol.MAX_OUTPUT_BYTES // 1000):
        proto.sendLine("z" * 998)
    assert proto.events == [("overflow",)]
    assert transport.disconnected
    assert len(transport.value()) < 64 * 1024 + TelnetLineProtocol.MAX_OUTPUT_BYTES + 2000


def test_resume_resets_the_output_count() -> None:
    proto, transport = connect()
    chunk = "y" * (TelnetLineProtocol.MAX_OUTPUT_BYTES // 2)
    for _ in range(4):
        proto.pauseProducing()
        proto.sendText(chunk)
        proto.resumeProducing()
    assert not transport.disconnecting
    assert proto.events == []
    proto.sendText(chunk * 3)  # not paused: the transport buffers, no limit applies
    assert not transport.disconnecting


# ---- anything at all ---------------------------------------------------------------------------
RESYNC = cmd(IAC, SE, IAC, SE) + b"\r\n"  # ends any subnegotiation, command or line


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300), st.data())
def test_arbitrary_bytes_in_arbitrary_chunks(noise: bytes, data: st.DataObject) -> None:
    valid = "Valid line \u00e9\u20ac \U0001f0a1"
    stream = noise + RESYNC + valid.encode() + b"\r\n"
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=12))
    events, output = run(stream, cuts)
    assert events[-1] == ("line", valid)
    # chunking never changes what is delivered or answered
    assert (events, output) == run(stream)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"\xc3\xa9", b"\r", b"\n", b"\x00", b"\x08",
                                 cmd(IAC), cmd(IAC, IAC), cmd(IAC, SB), cmd(IAC, SE),
                                 cmd(IAC, DO), cmd(IAC, WILL), bytes((GMCP,)), b"x" * 700]),
                max_size=40), st.data())
def test_telnet_like_streams_in_arbitrary_chunks(parts: list[bytes], data: st.DataObject) -> None:
    stream = b"".join(parts) + RESYNC + b"ok\n"
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=12))
    events, output = run(stream, cuts)
    assert events[-1] == ("line", "ok")
    assert (events, output) == run(stream)


class _SingleUse(ClientFactory):
    def __init__(self, proto: Any) -> None:
        self.proto = proto

    def buildProtocol(self, addr: Any) -> Any:
        return self.proto


# ---- over a real loopback socket ---------------------------------------------------------------
@pytest_twisted.ensureDeferred
async def test_real_socket_lines_negotiation_and_output_cap(write_path: str) -> None:
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, TCP4ServerEndpoint
    from twisted.internet.protocol import Factory, Protocol

    servers: list[Recorder] = []
    server_lost: Deferred[None] = Deferred()

    class Flooder(Recorder):
        def connectionMade(self) -> None:
            # Small kernel buffers: a write goes straight to the socket while Twisted's buffer
            # is empty, so the kernel's (several MB on loopback) would hold the whole flood.
            self.transport.getHandle().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
            super().connectionMade()
            servers.append(self)

        def connectionLost(self, reason: Any = None) -> None:
            super().connectionLost(reason)
            server_lost.callback(None)

        def lineReceived(self, line: str) -> None:
            super().lineReceived(line)
            if line == "flood":
                for _ in range(4 * self.MAX_OUTPUT_BYTES // 1000):
                    self.sendLine("f" * 998)
            else:
                self.sendLine("echo: " + line)

    class Client(Protocol):
        def __init__(self) -> None:
            self.received = b""
            self.lost: Deferred[None] = Deferred()
            self.got_echo: Deferred[None] = Deferred()

        def dataReceived(self, data: bytes) -> None:
            self.received += data
            if b"echo: h\xc3\xa9llo\r\n" in self.received and not self.got_echo.called:
                self.got_echo.callback(None)

        def connectionLost(self, reason: object = None) -> None:
            self.lost.callback(None)

    port = await TCP4ServerEndpoint(reactor, 0, interface="127.0.0.1").listen(
        Factory.forProtocol(Flooder))
    try:
        client = Client()
        await TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port).connect(
            _SingleUse(client))
        client.transport.write(cmd(IAC, DO, SGA) + b"h\xc3")
        client.transport.write(b"\xa9llo\r\n")
        await client.got_echo
        assert client.received.startswith(OFFER_GMCP + cmd(IAC, WILL, SGA))
        client.transport.pauseProducing()  # stop reading: the server's buffer fills up
        client.transport.write(b"flood\n")
        await server_lost
        client.transport.resumeProducing()  # read again: now the client sees the abort
        await client.lost
        assert len(client.received) < 2 * TelnetLineProtocol.MAX_OUTPUT_BYTES  # 4x was written
        assert servers[0].events[-1] == ("overflow",)
        assert servers[0].lines() == ["h\u00e9llo", "flood"]
    finally:
        await port.stopListening()


def test_replies_are_not_held_back_by_nagle() -> None:
    class NoDelayTransport(StringTransport):
        no_delay = False

        def setTcpNoDelay(self, enabled: bool) -> None:
            self.no_delay = enabled

    proto = Recorder()
    transport = NoDelayTransport()
    proto.makeConnection(transport)
    assert transport.no_delay is True


@pytest.mark.parametrize("gather", [True, False])
@pytest_twisted.ensureDeferred
async def test_real_socket_gathered_writes_keep_the_order(gather: bool) -> None:
    """A write to an idle TCP connection waits for the end of the turn without registering the
    socket for writing, then the turn's output goes out in one send; writes through Twisted in
    between and a write bigger than the kernel takes keep their order. GATHER_WRITES False
    leaves everything to Twisted (the socket is registered for writing at once)."""
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, TCP4ServerEndpoint
    from twisted.internet.protocol import Factory, Protocol

    seen: dict[str, Any] = {}
    done: Deferred[None] = Deferred()

    class Server(Recorder):
        GATHER_WRITES = gather

        def lineReceived(self, line: str) -> None:
            super().lineReceived(line)
            t = self.transport
            self.sendLine("one")
            seen["registered"] = t in t.reactor.getWriters()
            t.write(b"two\r\n")                  # Twisted's buffer: sent on a later loop turn
            self.sendLine("three")                # must queue behind "two"
            seen["after_queued"] = t._tempDataLen
            self.sendLine("f" * 200_000)          # more than the kernel may take at once

    class Client(Protocol):
        received = b""

        def dataReceived(self, data: bytes) -> None:
            self.received += data
            if self.received.endswith(b"f\r\n") and not done.called:
                done.callback(None)

    port = await TCP4ServerEndpoint(reactor, 0, interface="127.0.0.1").listen(
        Factory.forProtocol(Server))
    try:
        client = Client()
        await TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port).connect(
            _SingleUse(client))
        client.transport.write(b"go\r\n")
        await done
        assert client.received == OFFER_GMCP + b"one\r\ntwo\r\nthree\r\n" + b"f" * 200_000 + b"\r\n"
        assert seen["registered"] is not gather
        assert seen["after_queued"] == len(b"one\r\ntwo\r\nthree\r\n")
        client.transport.loseConnection()
    finally:
        await port.stopListening()


def test_gathered_writes_only_on_plain_tcp() -> None:
    """A transport that is not Twisted's TCP connection (TLS, tests) always gets transport.write."""
    proto = Recorder()
    transport = StringTransport()
    proto.makeConnection(transport)
    assert proto._may_gather is False
    proto.sendLine("x")
    assert transport.value().endswith(b"x\r\n")
