"""The MUD client telnet options (protocol/telnet/options.py): MSSP, CHARSET, TTYPE/MTTS and
MCCP2, with the real option bytes a MUD client or a listing's crawler sends, through a Session
on a StringTransport; MCCP2 also over a real socket, the whole session decompressed."""
from __future__ import annotations

import zlib
from typing import Any

import pytest
import pytest_twisted

from conftest import WAIT, FakeClient, FakeLobby, logged_events, strip_telnet, within
from protocol.telnet.options import (
    CHARSET,
    MCCP2,
    MCCP_MEM_LEVEL,
    MCCP_WINDOW_BITS,
    MSSP,
    MSSP_VAL,
    MSSP_VAR,
    TTYPE,
    TelnetOptions,
    codebase,
    mtts_names,
)

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
GMCP = 201
SGA = 3
OFFERS = bytes((IAC, WILL, GMCP, IAC, WILL, MSSP, IAC, WILL, MCCP2, IAC, WILL, CHARSET,
                IAC, DO, TTYPE))


def cmd(*values: int) -> bytes:
    return bytes(values)


def sb(option: int, body: bytes) -> bytes:
    return bytes((IAC, SB, option)) + body.replace(b"\xff", b"\xff\xff") + bytes((IAC, SE))


def subnegotiations(raw: bytes, option: int) -> list[bytes]:
    """The bodies of every IAC SB option ... IAC SE in `raw` (IAC IAC undone)."""
    found = []
    start = bytes((IAC, SB, option))
    at = raw.find(start)
    while at >= 0:
        body = bytearray()
        i = at + 3
        while i < len(raw):
            if raw[i] == IAC and raw[i + 1] == IAC:
                body.append(IAC)
                i += 2
            elif raw[i] == IAC and raw[i + 1] == SE:
                break
            else:
                body.append(raw[i])
                i += 1
        found.append(bytes(body))
        at = raw.find(start, i)
    return found


def mssp_variables(body: bytes) -> dict[str, list[str]]:
    """MSSP_VAR name MSSP_VAL value ... -> {name: [values]} (read from the published layout)."""
    table: dict[str, list[str]] = {}
    var: str | None = None
    for chunk in body.split(bytes((MSSP_VAR,)))[1:]:
        name, *values = chunk.split(bytes((MSSP_VAL,)))
        var = name.decode("utf-8")
        table[var] = [v.decode("utf-8") for v in values]
    return table


def connected(lobby: FakeLobby) -> FakeClient:
    c = lobby.connect()
    raw = c.raw()
    assert raw.startswith(OFFERS)
    return c


# ---- the offers -------------------------------------------------------------------------------
def test_the_server_offers_every_mud_option_at_connect(lobby: FakeLobby) -> None:
    c = lobby.connect()
    raw = c.raw()
    assert raw.startswith(OFFERS)
    # (then the session's DO NAWS: the client's width, issue 14)
    assert raw[len(OFFERS):].startswith(bytes((IAC, DO, 31)) + b"Welcome to the Tichu lobby")


def test_unknown_options_are_still_refused(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, DO, 99, IAC, WILL, 98, IAC, DO, TTYPE))
    assert c.raw() == cmd(IAC, WONT, 99, IAC, DONT, 98, IAC, WONT, TTYPE)


# ---- MSSP -------------------------------------------------------------------------------------
def test_mssp_table_on_do_mssp(lobby: FakeLobby, clock: Any) -> None:
    lobby.factory.services.telnet_options.mssp.update({"CONTACT": "ops@example.org",
                                              "LANGUAGE": "English\tGerman"})
    anna = connected(lobby)
    anna.send("Anna")
    anna.send("")
    crawler = connected(lobby)
    crawler.send(cmd(IAC, DO, MSSP))
    raw = crawler.raw()
    (body,) = subnegotiations(raw, MSSP)
    table = mssp_variables(body)
    assert table["NAME"] == ["Tichu lobby"]
    assert table["PLAYERS"] == ["1"]
    assert table["UPTIME"] == [str(int(clock.seconds()))]
    assert table["CODEBASE"] == [codebase()] and codebase().startswith("tichu-lobby ")
    assert table["PORT"] == [str(crawler.transport.getHost().port)]
    assert table["CONTACT"] == ["ops@example.org"]
    assert table["LANGUAGE"] == ["English", "German"]        # a variable with two values
    for var, value in [("FAMILY", "Custom"), ("CHARSET", "UTF-8"), ("ANSI", "1"),
                       ("UTF-8", "1"), ("MCCP", "1"), ("GMCP", "1"), ("MSSP", "1"),
                       ("CRAWL DELAY", "-1"), ("STATUS", "Live"), ("MXP", "0")]:
        assert table[var] == [value], var
    assert "WEBSITE" not in table                           # not configured: not sent
    crawler.send(cmd(IAC, DO, MSSP))                        # asked again: no second table
    assert crawler.raw() == b""


def test_mssp_request_line_at_the_login_prompt(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send("MSSP-REQUEST")
    text = c.raw().decode("utf-8")
    lines = text.split("\r\n")
    start, end = lines.index("MSSP-REPLY-START"), lines.index("MSSP-REPLY-END")
    table = {line.split("\t")[0]: line.split("\t")[1:] for line in lines[start + 1:end]}
    assert table["NAME"] == ["Tichu lobby"] and table["PLAYERS"] == ["0"]
    assert table["GAMEPLAY"] == ["Player versus Player", "Social"]
    assert text.endswith("login: ")                          # and the login goes on
    c.send("Anna")
    c.send("")
    assert "Anna" in c.raw().decode()


def test_mssp_values_never_carry_the_protocols_bytes() -> None:
    options = TelnetOptions(name="Bad\x01Name\xff\x02", mssp={"WEBSITE": "a\x00b"})
    table = dict(options.mssp_table(4000))
    assert table["NAME"] == ["BadName"] and table["WEBSITE"] == ["ab"]
    body = options.mssp_bytes(4000)[3:-2]
    assert b"\xff" not in body and b"\x00" not in body


def test_mssp_options_on_the_command_line() -> None:
    from protocol.process.options import parse_args
    from protocol.telnet.options import options_from
    opts = parse_args(["--mssp-name", "Tichu at home", "--mssp", "website=https://x.example",
                       "--no-mccp", "--max-mccp", "5"])
    options = options_from(opts)
    assert options.name == "Tichu at home" and options.mssp == {"WEBSITE": "https://x.example"}
    assert not options.mccp and options.max_mccp == 5
    assert dict(options.mssp_table())["MCCP"] == ["0"]
    with pytest.raises(SystemExit):
        parse_args(["--mssp", "no equals sign"])


# ---- CHARSET ----------------------------------------------------------------------------------
def test_charset_the_servers_request_accepted(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, DO, CHARSET))
    assert subnegotiations(c.raw(), CHARSET) == [b"\x01;UTF-8"]      # REQUEST ;UTF-8
    c.send(sb(CHARSET, b"\x02UTF-8"))                                # ACCEPTED UTF-8
    assert c.raw() == b"" and c.session.telnet.options[CHARSET].charset == "UTF-8"


def test_charset_the_servers_request_rejected(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, DO, CHARSET))
    c.raw()
    with logged_events() as events:
        c.send(sb(CHARSET, b"\x03"))                                 # REJECTED
    assert c.session.telnet.options[CHARSET].charset == "rejected"
    assert any("rejected the character set" in str(e.get("log_format")) for e in events)
    c.send("Anna")                                                    # still UTF-8 either way
    c.send("")
    c.send("héllo ünïcode")
    assert "héllo ünïcode".encode() in c.raw()


@pytest.mark.parametrize(("request_body", "answer"), [
    (b"\x01;ISO-8859-1;UTF-8", b"\x02UTF-8"),
    (b"\x01 utf-8 latin1", b"\x02utf-8"),
    (b"\x01[TTABLE]\x01;UTF8;US-ASCII", b"\x02UTF8"),
    (b"\x01;ISO-8859-1;US-ASCII", b"\x03"),
    (b"\x01", b"\x03"),
    (b"\x04\x01whatever", b"\x05"),                                 # TTABLE-IS -> REJECTED
])
def test_charset_the_clients_request(lobby: FakeLobby, request_body: bytes,
                                     answer: bytes) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, WILL, CHARSET))
    assert c.raw() == cmd(IAC, DO, CHARSET)
    c.send(sb(CHARSET, request_body))
    assert subnegotiations(c.raw(), CHARSET) == [answer]
    assert c.session.telnet.options[CHARSET].charset == ("UTF-8" if answer.startswith(b"\x02") else None)


def test_charset_subnegotiation_before_agreement_is_ignored(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(sb(CHARSET, b"\x01;UTF-8"))
    assert c.raw() == b"" and c.session.telnet.options[CHARSET].charset is None


def test_charset_requests_at_once_the_servers_wins(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, DO, CHARSET, IAC, WILL, CHARSET))
    raw = c.raw()
    assert subnegotiations(raw, CHARSET) == [b"\x01;UTF-8"] and cmd(IAC, DO, CHARSET) in raw
    c.send(sb(CHARSET, b"\x01;UTF-8"))                  # the client's own, crossing ours
    assert c.raw() == b""
    c.send(sb(CHARSET, b"\x02UTF-8"))
    assert c.session.telnet.options[CHARSET].charset == "UTF-8"


# ---- TTYPE / MTTS -----------------------------------------------------------------------------
SEND = sb(TTYPE, b"\x01")


def test_mtts_client_name_terminal_and_bits(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, WILL, TTYPE))
    assert c.raw() == SEND                       # the answer to our DO: not answered, asked
    c.send(sb(TTYPE, b"\x00MUDLET"))
    assert c.raw() == SEND
    c.send(sb(TTYPE, b"\x00XTERM-256COLOR"))
    assert c.raw() == SEND
    with logged_events() as events:
        c.send(sb(TTYPE, b"\x00MTTS 2349"))
    assert c.raw() == b""                        # three requests at most: done
    s, t = c.session, c.session.ttype
    assert (t.client_name, t.terminal_type, t.mtts) == ("MUDLET", "XTERM-256COLOR", 2349)
    assert mtts_names(2349) == ["ANSI", "UTF-8", "256 colors", "OSC color palette",
                                "truecolor", "SSL"]
    described = t.description()
    assert described == ("MUDLET / XTERM-256COLOR / MTTS 2349 (ANSI, UTF-8, 256 colors, "
                         "OSC color palette, truecolor, SSL)")
    assert [e for e in events if e.get("client") == described]   # one log line names it
    assert s.render_context.color                # a client announcing ANSI: cards in colour
    c.send(sb(TTYPE, b"\x00MUDLET"))             # unasked replies change nothing
    assert t.client_name == "MUDLET" and c.raw() == b""


def test_finger_of_yourself_shows_your_client_to_you_alone(lobby: FakeLobby) -> None:
    import json
    mudlet = connected(lobby)
    mudlet.send(cmd(IAC, WILL, TTYPE) + sb(TTYPE, b"\x00MUDLET") + sb(TTYPE, b"\x00XTERM")
                + sb(TTYPE, b"\x00MTTS 9"))
    mudlet.send("Anna")
    mudlet.send("")
    other = connected(lobby)
    other.send("Bert")
    other.send("")
    mudlet.raw(), other.raw()
    mudlet.send("/finger Anna")
    assert "  your client: MUDLET / XTERM / MTTS 9 (ANSI, 256 colors)\r\n" in \
        mudlet.raw().decode()
    other.send("/finger Anna")
    assert "client" not in other.raw().decode()          # nobody else sees it
    other.send("/finger Bert")                           # told nothing: no such line
    assert "client" not in other.raw().decode()
    mudlet.send("/iset json 1")
    mudlet.raw()
    mudlet.send("/finger Anna")
    (line,) = [ln for ln in mudlet.raw().decode().split("\r\n") if '"finger"' in ln]
    assert json.loads(line)["client"] == "MUDLET / XTERM / MTTS 9 (ANSI, 256 colors)"


def test_plain_telnet_terminal_type_repeats(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, WILL, TTYPE))
    assert c.raw() == SEND
    c.send(sb(TTYPE, b"\x00XTERM"))
    assert c.raw() == SEND
    c.send(sb(TTYPE, b"\x00XTERM"))              # the same again: the list is at its end
    assert c.raw() == b""
    s, t = c.session, c.session.ttype
    assert (t.client_name, t.terminal_type, t.mtts) == ("XTERM", "XTERM", None)
    assert t.description() == "XTERM"
    assert not s.render_context.color


def test_an_explicit_color_setting_is_kept(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send("Anna")
    c.send("")
    c.send("/set color off")
    c.send(cmd(IAC, WILL, TTYPE) + sb(TTYPE, b"\x00TINTIN++") + sb(TTYPE, b"\x00ANSI")
           + sb(TTYPE, b"\x00MTTS 137"))
    assert c.session.ttype.mtts == 137 and not c.session.render_context.color


def test_ttype_refused_by_the_client_and_junk_replies(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, WONT, TTYPE))
    assert c.raw() == b""                        # the refusal of our DO is not answered
    c.send(sb(TTYPE, b"\x00MUDLET"))
    assert c.session.ttype.client_name is None
    d = connected(lobby)
    d.send(cmd(IAC, WILL, TTYPE))
    d.raw()
    d.send(sb(TTYPE, b"\x00" + b"\x1b[31m" + b"X" * 300))        # control bytes, too long
    assert d.session.ttype.client_name == "[31m" + "X" * 60


# ---- MCCP2 ------------------------------------------------------------------------------------
def after_start(raw: bytes) -> bytes:
    marker = bytes((IAC, SB, MCCP2, IAC, SE))
    assert raw.count(marker) == 1
    return raw[raw.index(marker) + len(marker):]


def test_mccp2_compresses_everything_after_the_start(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, DO, MCCP2))
    inflate = zlib.decompressobj()
    got = inflate.decompress(after_start(c.raw()))
    c.send("Anna")
    got += inflate.decompress(c.raw())                 # each write flushed: readable at once
    assert got.endswith(b"or type another name: " + cmd(IAC, 249))   # the prompt and GA
    c.send("")
    c.send("/who")
    got = inflate.decompress(c.raw()).decode()
    assert "Anna" in got and "In the lobby" in got
    assert lobby.factory.services.telnet_options.compressing == 1
    c.send(cmd(IAC, DONT, MCCP2))                      # the client turns it off
    raw = c.raw()
    tail = inflate.decompress(raw)
    assert inflate.eof and tail == b""                 # the stream ended (Z_FINISH) ...
    assert inflate.unused_data == cmd(IAC, WONT, MCCP2)   # ... and the answer is plain
    assert lobby.factory.services.telnet_options.compressing == 0
    c.send("/who")
    assert b"In the lobby" in c.raw()                  # uncompressed from now on


def test_mccp2_stream_ends_before_the_server_closes(lobby: FakeLobby) -> None:
    c = connected(lobby)
    c.send(cmd(IAC, DO, MCCP2))
    inflate = zlib.decompressobj()
    inflate.decompress(after_start(c.raw()))
    c.send("Anna")
    c.send("")
    c.send("/quit")
    text = inflate.decompress(c.raw())
    assert inflate.eof and text.endswith(b"Goodbye, Anna.\r\n") and not inflate.unused_data
    assert lobby.factory.services.telnet_options.compressing == 0


def test_no_mccp_and_the_limit(clock: Any) -> None:
    off = FakeLobby(clock)
    off.factory.services.telnet_options.mccp = False
    c = off.connect()
    assert cmd(IAC, WILL, MCCP2) not in c.raw()
    c.send(cmd(IAC, DO, MCCP2))
    assert c.raw() == cmd(IAC, WONT, MCCP2)

    limited = FakeLobby(clock)
    limited.factory.services.telnet_options.max_mccp = 1
    first, second = limited.connect(), limited.connect()       # both offered
    assert cmd(IAC, WILL, MCCP2) in first.raw() and cmd(IAC, WILL, MCCP2) in second.raw()
    first.send(cmd(IAC, DO, MCCP2))
    assert first.session.mccp.compressing
    second.send(cmd(IAC, DO, MCCP2))                           # full: turned off again
    assert second.raw() == cmd(IAC, WONT, MCCP2) and not second.session.mccp.compressing
    third = limited.connect()
    assert cmd(IAC, WILL, MCCP2) not in third.raw()            # not even offered
    first.send("Anna")
    first.send("")
    first.send("/quit")
    assert limited.factory.services.telnet_options.compressing == 0
    fourth = limited.connect()
    assert cmd(IAC, WILL, MCCP2) in fourth.raw()


def test_mccp2_zlib_state_is_small() -> None:
    """The zlib settings of MCCP2 cost a fraction of zlib's default (measured by tracemalloc:
    CPython's zlib allocates through PyMem, which it traces)."""
    import tracemalloc

    def cost(*args: int) -> int:
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            keep = zlib.compressobj(*args)
            keep.compress(b"x" * 100)
            keep.flush(zlib.Z_SYNC_FLUSH)
            return tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()

    ours = cost(6, zlib.DEFLATED, MCCP_WINDOW_BITS, MCCP_MEM_LEVEL)
    default = cost(6, zlib.DEFLATED, 15, 8)
    assert ours * 4 < default
    assert ours < 48 * 1024


@pytest_twisted.ensureDeferred
async def test_mccp2_over_a_real_socket_whole_session(server: Any, write_path: str) -> None:
    """A MUD client over loopback agrees to MCCP2 at once, logs in, chats, lists who is
    there and quits; the whole byte stream after IAC SB MCCP2 IAC SE is one zlib stream that
    zlib decompresses to the session's text, ending properly."""
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    from twisted.internet.protocol import Protocol

    class Client(Protocol):
        def __init__(self) -> None:
            self.raw = b""
            self.lost: Any = None
            self.wanted: Any = None

        def dataReceived(self, data: bytes) -> None:
            self.raw += data
            if self.wanted is not None and self.wanted[0] in self.raw:
                (_, d), self.wanted = self.wanted, None
                d.callback(None)

        def wait_for(self, text: bytes) -> Any:
            d: Deferred[None] = Deferred()
            self.wanted = (text, d)
            self.dataReceived(b"")
            return d

        def connectionLost(self, reason: Any = None) -> None:
            if self.lost is not None and not self.lost.called:
                self.lost.callback(None)

    client = Client()
    client.lost = Deferred()
    await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", server.port),
                                 client))
    write = client.transport.write
    await within(client.wait_for(b"login: "))           # the offers and the greeting first
    write(cmd(IAC, DO, MCCP2, IAC, DO, SGA))
    second = await server.client()                   # another user, uncompressed
    await second.login("Bert")
    for line in ("Mira", "", "hello everybody", "/who", "/quit"):
        write(line.encode() + b"\r\n")
    await within(client.lost, WAIT)
    inflate = zlib.decompressobj()
    stream = inflate.decompress(after_start(client.raw))
    assert inflate.eof and inflate.unused_data == b""
    assert stream.startswith(cmd(IAC, WILL, SGA))        # the answer to DO SGA, compressed
    text = strip_telnet(stream).decode("utf-8")
    before = client.raw[:client.raw.index(bytes((IAC, SB, MCCP2)))]
    assert before.startswith(OFFERS) and b"Welcome to the Tichu lobby" in before
    assert text.startswith('"Mira" is not a registered name.')
    assert "\r\n<Mira> hello everybody\r\nIn the lobby (2): Bert, Mira\r\n" in text
    assert text.endswith("Goodbye, Mira.\r\n")
    got = await second.expect("hello everybody\r\n")
    assert "<Mira> hello everybody" in got
    assert server.server.factory.services.telnet_options.compressing == 0
