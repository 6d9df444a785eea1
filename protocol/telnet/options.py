"""The MUD client telnet options: MSSP (70), MCCP2 (86), CHARSET (42) and TTYPE/MTTS (24).

One handler object per option (protocol.telnet.transport's `TelnetOption`: `MsspOption`, `Mccp2Option`,
`CharsetOption`, `TtypeOption`), given to a connection's byte layer (`TelnetLineProtocol`) when
the connection is made; a handler sees the byte layer only through that seam (its negotiation
state, `_write`, the write transform `_compress`). What the server offers and answers is
the table in docs/protocol.md, section "Telnet"; the options that configure it are
protocol/process/options.py's `MudClientOptions` (docs/operations.md, "MUD clients"), read by
`options_from`.

MSSP (Mud Server Status Protocol)
  Offered with IAC WILL MSSP. On DO MSSP the server sends one
  IAC SB MSSP (MSSP_VAR name MSSP_VAL value ...)* IAC SE with `TelnetOptions.mssp_table()`; a
  line `MSSP-REQUEST` at the login prompt gets the same table as plain text (MSSP-REPLY-START,
  one `NAME<TAB>VALUE...` line per variable, MSSP-REPLY-END), and the login prompt again.

MCCP2 (compression)
  Offered with IAC WILL MCCP2 (unless --no-mccp, or --max-mccp connections compress already).
  On DO MCCP2 the server sends IAC SB MCCP2 IAC SE and everything after it through one zlib
  stream per connection, each write flushed with Z_SYNC_FLUSH (the client gets every line at
  once). DONT MCCP2 ends the stream (Z_FINISH) and the server's WONT MCCP2 and all that follows
  is sent uncompressed; so does a close by the server (`endCompression`). The zlib state is
  window 2**MCCP_WINDOW_BITS, memLevel MCCP_MEM_LEVEL: about 40 KiB per compressing connection
  (zlib's default, 15/8, costs 256 KiB + the same 6 KiB): docs/operations.md has the figures.

CHARSET (RFC 2066)
  Offered with IAC WILL CHARSET. On DO CHARSET the server sends REQUEST ";UTF-8"; the client's
  ACCEPTED or REJECTED is remembered (`charset`). A client's own WILL CHARSET is agreed (DO
  CHARSET), and its REQUEST answered ACCEPTED "UTF-8" when UTF-8 is one of the names, REJECTED
  otherwise (a request while the server's own is unanswered is ignored: the server's takes
  precedence, as RFC 2066 says). TTABLE-IS is answered TTABLE-REJECTED. The server speaks UTF-8
  whatever the outcome (its input decoding stays UTF-8 with the Latin-1 fallback).

TTYPE and MTTS
  The server asks IAC DO TTYPE; on WILL TTYPE it sends SB TTYPE SEND, up to three times, until a
  reply repeats the one before: MTTS clients answer their name (MUDLET), then the terminal type
  (XTERM-256COLOR), then "MTTS <bits>". `client_name`, `terminal_type` and `mtts` keep them;
  when the cycle ends, the byte layer's `clientIdentified()` runs (the session logs one line
  and turns colour on for a client that announces ANSI colour, unless /set color was given).
"""
from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from twisted.logger import Logger

from protocol.telnet.transport import (
    DO,
    IAC,
    SB,
    SE,
    WILL,
    TelnetLineProtocol,
    TelnetOption,
)

__all__ = ["MsspOption", "Mccp2Option", "CharsetOption", "TtypeOption", "TelnetOptions",
           "MSSP", "MCCP2", "CHARSET", "TTYPE",
           "MSSP_VAR", "MSSP_VAL", "MTTS_BITS", "MCCP_WINDOW_BITS", "MCCP_MEM_LEVEL",
           "MSSP_REQUEST", "mssp_pair", "options_from", "mtts_names", "codebase"]

log = Logger(namespace="protocol.telnet.options")

# ---- option numbers and subnegotiation codes ----------------------------------------------------
TTYPE = 24       # RFC 1091 terminal type; MTTS on top
CHARSET = 42     # RFC 2066
MSSP = 70        # Mud Server Status Protocol
MCCP2 = 86       # Mud Client Compression Protocol v2

MSSP_VAR = 1
MSSP_VAL = 2
TTYPE_IS = 0
TTYPE_SEND = 1
CHARSET_REQUEST = 1
CHARSET_ACCEPTED = 2
CHARSET_REJECTED = 3
CHARSET_TTABLE_IS = 4
CHARSET_TTABLE_REJECTED = 5

#: the line a plain-text MSSP crawler sends at the login prompt
MSSP_REQUEST = "MSSP-REQUEST"
#: TTYPE SEND requests per connection at most (MTTS: name, terminal type, MTTS bits)
TTYPE_REQUESTS = 3
#: characters kept of one TTYPE reply
TTYPE_MAX = 64

#: the zlib stream of MCCP2: a 4 KiB window (chat lines and tables are short and repetitive)
#: and memLevel 5; deflate's state is 2**(window+2) + 2**(memLevel+9) bytes plus ~6 KiB
MCCP_WINDOW_BITS = 12
MCCP_MEM_LEVEL = 5
MCCP_LEVEL = 6
#: compressing connections at most, by default (--max-mccp; 0: no limit)
DEFAULT_MAX_MCCP = 1000

#: MTTS bit -> what the client announces with it
MTTS_BITS: dict[int, str] = {
    1: "ANSI", 2: "VT100", 4: "UTF-8", 8: "256 colors", 16: "mouse tracking",
    32: "OSC color palette", 64: "screen reader", 128: "proxy", 256: "truecolor",
    512: "MNES", 1024: "MSLP", 2048: "SSL",
}


def mtts_names(bits: int) -> list[str]:
    """The abilities an MTTS bit vector announces, in bit order."""
    return [name for bit, name in MTTS_BITS.items() if bits & bit]


def codebase() -> str:
    """``tichu-lobby VERSION`` for MSSP's CODEBASE (the installed distribution's version)."""
    import lobby
    version = getattr(lobby, "__version__", None)
    if version is None:
        try:
            from importlib.metadata import version as dist_version
            version = dist_version("tichu-lobby")
        except Exception:
            version = "unknown"
    return f"tichu-lobby {version}"


def _clean(value: str) -> str:
    """An MSSP value without the bytes MSSP forbids in values (NUL, MSSP_VAR, MSSP_VAL, IAC)
    and without line ends or tabs (the plain-text form)."""
    return "".join(ch for ch in value if ch not in "\x00\x01\x02\xff\t\r\n")


@dataclass
class TelnetOptions:
    """What the MUD options of one server need: its MSSP facts and the MCCP2 limit. One per
    server (protocol.process.server.LobbyFactory.telnet_options); the counters are the server's."""

    name: str = "Tichu lobby"
    #: further MSSP variables (--mssp VAR=VALUE): added, or replacing the defaults
    mssp: dict[str, str] = field(default_factory=dict)
    mccp: bool = True
    max_mccp: int = DEFAULT_MAX_MCCP
    #: the server's start (unix time) for MSSP's UPTIME
    started: float = 0.0
    #: how many users are online now (MSSP's PLAYERS)
    players: Callable[[], int] = lambda: 0
    #: connections compressing with MCCP2 now
    compressing: int = 0

    def may_compress(self) -> bool:
        return self.mccp and (self.max_mccp <= 0 or self.compressing < self.max_mccp)

    def mssp_table(self, port: int | None = None) -> list[tuple[str, list[str]]]:
        """The MSSP variables, each with its values (a variable may have several)."""
        table: dict[str, list[str]] = {
            "NAME": [self.name],
            "PLAYERS": [str(self.players())],
            "UPTIME": [str(int(self.started))],
            "CODEBASE": [codebase()],
            "PORT": [str(port)] if port else [],
            "LANGUAGE": ["English"],
            "CHARSET": ["UTF-8"],
            "CRAWL DELAY": ["-1"],
            "FAMILY": ["Custom"],
            "GENRE": ["None"],
            "SUBGENRE": ["None"],
            "GAMEPLAY": ["Player versus Player", "Social"],
            "GAMESYSTEM": ["None"],
            "STATUS": ["Live"],
            "MINIMUM AGE": ["0"],
            "ANSI": ["1"],
            "GMCP": ["1"],
            "MCCP": ["1" if self.mccp else "0"],
            "MSSP": ["1"],
            "UTF-8": ["1"],
            "MCP": ["0"], "MSDP": ["0"], "MSP": ["0"], "MXP": ["0"], "PUEBLO": ["0"],
            "VT100": ["0"], "XTERM 256 COLORS": ["0"], "XTERM TRUE COLORS": ["0"],
            "PAY TO PLAY": ["0"], "PAY FOR PERKS": ["0"],
            "HIRING BUILDERS": ["0"], "HIRING CODERS": ["0"],
        }
        for var, value in self.mssp.items():
            table[var.upper()] = [v for v in (_clean(p.strip()) for p in value.split("\t")) if v]
        cleaned = [(_clean(var), [_clean(v) for v in values]) for var, values in table.items()]
        return [(var, values) for var, values in cleaned if var and values]

    def mssp_bytes(self, port: int | None = None) -> bytes:
        """IAC SB MSSP MSSP_VAR name MSSP_VAL value ... IAC SE."""
        out = bytearray((IAC, SB, MSSP))
        for var, values in self.mssp_table(port):
            out.append(MSSP_VAR)
            out += _clean(var).encode("utf-8")
            for value in values:
                out.append(MSSP_VAL)
                out += value.encode("utf-8")
        out += bytes((IAC, SE))
        return bytes(out)

    def mssp_text(self, port: int | None = None) -> str:
        """The plain-text reply to MSSP-REQUEST (lines end in LF; the wire makes them CR LF)."""
        lines = ["MSSP-REPLY-START"]
        lines += ["\t".join([var, *values]) for var, values in self.mssp_table(port)]
        lines.append("MSSP-REPLY-END")
        return "\n".join(lines) + "\n"


_DEFAULT = TelnetOptions()


class MsspOption(TelnetOption):
    """MSSP (70): offered with WILL; on DO MSSP the table (`TelnetOptions.mssp_bytes`)."""

    __slots__ = ("config",)
    code = MSSP
    offer = WILL

    def __init__(self, telnet: TelnetLineProtocol, config: TelnetOptions = _DEFAULT) -> None:
        super().__init__(telnet)
        self.config = config

    def agree_local(self) -> bool:
        return True

    def changed(self, local: bool, enabled: bool) -> None:
        if local and enabled:
            self.telnet.send_raw(self.config.mssp_bytes(_local_port(self.telnet)))

    def plain_reply(self) -> str:
        """The plain-text MSSP table, for a line MSSP-REQUEST at the login prompt."""
        return self.config.mssp_text(_local_port(self.telnet))


class Mccp2Option(TelnetOption):
    """MCCP2 (86): offered with WILL while `TelnetOptions.may_compress`; on DO MCCP2 everything
    after IAC SB MCCP2 IAC SE goes through one zlib stream (the byte layer's `_compress`)."""

    __slots__ = ("config", "_compressor", "_counted")
    code = MCCP2
    offer = WILL

    def __init__(self, telnet: TelnetLineProtocol, config: TelnetOptions = _DEFAULT) -> None:
        super().__init__(telnet)
        self.config = config
        self._compressor: Any = None
        self._counted = False

    def offered(self) -> bool:
        return self.config.may_compress()

    def agree_local(self) -> bool:
        return self.config.may_compress()

    def changed(self, local: bool, enabled: bool) -> None:
        if local:
            if enabled:
                self._start()
            else:
                self.end()

    def lost(self) -> None:
        self._compressor = None
        self.telnet.set_output_transform(None)
        self._uncount()

    def _start(self) -> None:
        telnet = self.telnet
        if self._compressor is not None or telnet.is_closed:
            return
        if not self.config.may_compress():
            # agreed to while the limit filled up: turned off again (RFC 1143: WANTNO)
            telnet.refuse_local(MCCP2)
            return
        telnet.send_raw(bytes((IAC, SB, MCCP2, IAC, SE)))     # the last uncompressed bytes
        self._compressor = zlib.compressobj(MCCP_LEVEL, zlib.DEFLATED, MCCP_WINDOW_BITS,
                                            MCCP_MEM_LEVEL)
        telnet.set_output_transform(self._deflate)
        self.config.compressing += 1
        self._counted = True

    def _deflate(self, data: bytes) -> bytes:
        compressor = self._compressor
        compressed: bytes = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
        return compressed

    def end(self) -> None:
        """End the MCCP2 stream (zlib's Z_FINISH) if there is one: what follows is sent as it is
        (the session calls this before it closes the connection; DONT MCCP2 does too)."""
        compressor = self._compressor
        if compressor is None:
            return
        self.telnet.set_output_transform(None)
        self._compressor = None
        self._uncount()
        self.telnet.send_raw(compressor.flush(zlib.Z_FINISH))

    @property
    def compressing(self) -> bool:
        """Whether this connection's output goes through MCCP2 now."""
        return self._compressor is not None

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            self.config.compressing -= 1


class CharsetOption(TelnetOption):
    """CHARSET (42, RFC 2066): see the module's docstring. `charset` is "UTF-8" once agreed,
    "rejected" when the client refused the server's request."""

    __slots__ = ("charset", "_asked", "_sent")
    code = CHARSET
    offer = WILL

    def __init__(self, telnet: TelnetLineProtocol) -> None:
        super().__init__(telnet)
        self.charset: str | None = None
        self._asked = False     # the server's REQUEST is sent and unanswered
        self._sent = False      # the server sent its REQUEST (once per connection)

    def agree_local(self) -> bool:
        return True

    def agree_remote(self) -> bool:
        return True

    def keeps(self) -> bool:
        telnet = self.telnet
        return telnet.optionEnabled(CHARSET) or telnet.optionEnabled(CHARSET, local=False)

    def changed(self, local: bool, enabled: bool) -> None:
        if local and enabled and not self._sent:
            self._sent = self._asked = True
            self.telnet.send_raw(bytes((IAC, SB, CHARSET, CHARSET_REQUEST)) + b";UTF-8"
                               + bytes((IAC, SE)))

    def received(self, data: bytes) -> None:
        if not data:
            return
        code, rest = data[0], data[1:]
        if code == CHARSET_REQUEST:
            if self._asked:
                return          # both asked at once: the server's request takes precedence
            if rest.startswith(b"[TTABLE]"):
                rest = rest[9:]          # the translation-table version byte follows
            if not rest:
                self._reply(CHARSET_REJECTED, b"")
                return
            separator, names = rest[:1], rest[1:]
            for name in names.split(separator):
                if name.strip().upper().replace(b"_", b"-") in (b"UTF-8", b"UTF8"):
                    self.charset = "UTF-8"
                    self._reply(CHARSET_ACCEPTED, name.strip())
                    return
            self._reply(CHARSET_REJECTED, b"")
        elif code == CHARSET_ACCEPTED:
            if self._asked:
                self._asked = False
                accepted = rest.decode("ascii", "replace").strip().upper()
                self.charset = "UTF-8" if accepted in ("UTF-8", "UTF8") else None
        elif code == CHARSET_REJECTED:
            if self._asked:
                self._asked = False
                self.charset = "rejected"
                if self.telnet.log_allowed("telnet-charset"):
                    log.info("{peer} rejected the character set UTF-8 (CHARSET); the server "
                             "sends UTF-8 all the same", peer=self.telnet.peer_text())
        elif code == CHARSET_TTABLE_IS:
            self._reply(CHARSET_TTABLE_REJECTED, b"")

    def _reply(self, code: int, name: bytes) -> None:
        body = name.replace(b"\xff", b"")
        self.telnet.send_raw(bytes((IAC, SB, CHARSET, code)) + body + bytes((IAC, SE)))


class TtypeOption(TelnetOption):
    """TTYPE/MTTS (24): asked with DO TTYPE; see the module's docstring. `client_name`,
    `terminal_type` and `mtts` are what the client told."""

    __slots__ = ("client_name", "terminal_type", "mtts", "_replies", "_asked")
    code = TTYPE
    offer = DO

    def __init__(self, telnet: TelnetLineProtocol) -> None:
        super().__init__(telnet)
        self.client_name: str | None = None
        self.terminal_type: str | None = None
        self.mtts: int | None = None
        self._replies: list[str] | None = None
        self._asked = 0

    def agree_remote(self) -> bool:
        return True

    def keeps(self) -> bool:
        return self.telnet.optionEnabled(TTYPE, local=False)

    def changed(self, local: bool, enabled: bool) -> None:
        if not local and enabled:
            self._ask()

    def _ask(self) -> None:
        if self._asked >= TTYPE_REQUESTS:
            return
        self._asked += 1
        self.telnet.send_raw(bytes((IAC, SB, TTYPE, TTYPE_SEND, IAC, SE)))

    def received(self, data: bytes) -> None:
        replies = self._replies
        if replies is None:
            replies = self._replies = []
        if not data or data[0] != TTYPE_IS or len(replies) >= self._asked:
            return                                   # not a reply to a SEND of ours
        name = "".join(ch for ch in data[1:].decode("ascii", "replace")
                       if ch.isprintable())[:TTYPE_MAX].strip()
        repeated = bool(replies) and name.upper() == replies[-1].upper()
        if not repeated:
            replies.append(name)
            self._learned(replies)
        mtts = self.mtts is not None
        if repeated or mtts or len(replies) >= TTYPE_REQUESTS:
            self._asked = TTYPE_REQUESTS       # done: no more requests
            self.telnet.clientIdentified()
        else:
            self._ask()

    def _learned(self, replies: Sequence[str]) -> None:
        """Read the replies so far: name, terminal type, MTTS bits (MTTS); a client that
        answers one value only (plain telnet: its terminal type) has it as both."""
        self.client_name = replies[0] or None
        if len(replies) > 1:
            self.terminal_type = replies[1] or None
        elif self.terminal_type is None:
            self.terminal_type = replies[0] or None
        last = replies[-1]
        if len(replies) > 1 and last.upper().startswith("MTTS "):
            digits = last[5:].strip()
            if digits.isdigit() and len(digits) <= 9:
                self.mtts = int(digits)
                if len(replies) == 3 and replies[1].upper() == last.upper():
                    self.terminal_type = None

    def description(self) -> str | None:
        """``MUDLET / XTERM-256COLOR / MTTS 2349 (ANSI, UTF-8, ...)``, or None when the client
        told nothing."""
        parts = [p for p in (self.client_name, self.terminal_type) if p]
        if self.terminal_type == self.client_name and parts:
            parts = parts[:1]
        if self.mtts is not None:
            abilities = ", ".join(mtts_names(self.mtts))
            parts.append(f"MTTS {self.mtts}" + (f" ({abilities})" if abilities else ""))
        return " / ".join(parts) or None

    @property
    def announces_color(self) -> bool:
        """The client announced ANSI colour (MTTS bit 1 or 256 colours, or a terminal type
        naming 256 colours)."""
        if self.mtts is not None and self.mtts & (1 | 8 | 256):
            return True
        terminal = (self.terminal_type or "").upper()
        return "256COLOR" in terminal or terminal == "ANSI"


def _local_port(telnet: TelnetLineProtocol) -> int | None:
    try:
        return int(telnet.transport.getHost().port)
    except Exception:
        return None


# ---- command-line options ---------------------------------------------------------------------
def mssp_pair(item: str) -> tuple[str, str]:
    """An ``--mssp VAR=VALUE`` option read: (VAR in upper case, VALUE); ArgumentTypeError else."""
    import argparse
    var, sep, value = item.partition("=")
    if not sep or not _clean(var).strip():
        raise argparse.ArgumentTypeError(f"{item!r}: VAR=VALUE expected")
    return _clean(var).strip().upper(), value


def options_from(opts: Any) -> TelnetOptions:
    """TelnetOptions from the parsed options."""
    return TelnetOptions(name=getattr(opts, "mssp_name", _DEFAULT.name),
                         mssp=dict(getattr(opts, "mssp", None) or []),
                         mccp=not getattr(opts, "no_mccp", False),
                         max_mccp=getattr(opts, "max_mccp", DEFAULT_MAX_MCCP))
