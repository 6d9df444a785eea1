"""The telnet layer: line framing, telnet option negotiation, charset and output buffering.

`TelnetLineProtocol` turns the bytes of one connection into clean text lines and text into bytes.
It serves raw TCP clients (netcat, scripted bots: LF line ends, no telnet), telnet clients (CR LF,
CR NUL or bare CR, option negotiation) and MUD clients (tintin++, Mudlet: GA after prompts, GMCP)
alike. docs/protocol.md, section "Telnet", documents the behaviour seen from the wire.

Input
  Telnet commands (IAC ...), negotiation (IAC WILL/WONT/DO/DONT opt) and subnegotiation
  (IAC SB ... IAC SE) are consumed and never reach `lineReceived`, wherever the TCP chunks split
  them; IAC IAC is one literal 0xFF data byte. A line ends at LF, CR LF, CR NUL or a bare CR. The
  bytes of a line are decoded when the line is complete: UTF-8, or Latin-1 when they are not valid
  UTF-8. Then BS (0x08) and DEL (0x7f) erase the character before them (a telnet client in
  character mode sends them for the backspace key), and every other control character (C0, DEL,
  C1) is dropped. IAC EC erases one character like BS; IAC EL erases the line typed so far.

Line length
  A line of more than MAX_LINE_BYTES bytes (counted before decoding, without its line end) is not
  buffered: its bytes are only counted until its line end, then `lineTooLong(length)` is called
  once with the full count. The connection stays open and the next line is read normally.

Subnegotiations
  Every option's subnegotiation is measured: past MAX_SUBNEGOTIATION_BYTES (0: no limit) it is
  only counted to its IAC SE and dropped. Only the bytes of the options `_keeps_subnegotiation`
  names are kept (GMCP when it is on, NAWS when the client agreed to it, the MUD options'). Each
  complete one is first offered to `subnegotiationReceived(option)` (the session's flood
  control; False drops it). An invalid one (oversized, no IAC SE, GMCP not UTF-8, without a
  package name or with invalid JSON) is logged for the first time on a connection and only
  counted after that; the count is logged once when the connection closes.

NAWS (RFC 1073, option 31: the client's window size), when WANT_NAWS is set (the session's)
  The client's WILL NAWS is agreed to (asked with DO NAWS among the offers, or offered by the
  client itself). Each IAC SB NAWS w1 w0 h1 h0 IAC SE (IAC doubled inside, as everywhere) calls
  `windowSizeChanged(width, height)`, at any time: the client sends a new one when its window
  is resized. 0 means unknown; the session
  clamps the width (protocol.render.context). A NAWS subnegotiation of another length is
  invalid (dropped and counted as above).

The application and the options (composition, as twisted.conch's TelnetTransport wraps its
  application protocol)
  `TelnetLineProtocol` is the byte layer only. What it reads it hands to its application
  (`app`, a `TelnetApp`: lines, over-long lines, the budget questions, NAWS sizes, GMCP
  messages); without one (a subclass, as in the tests) its hook methods are overridden instead.
  Every telnet option is one small handler object (`TelnetOption`: its code, its offer, whether
  it agrees when asked, whether its subnegotiation is kept, what its subnegotiation and its
  turning on or off do): `GmcpOption`, `NawsOption`, `EchoOption`, `SgaOption` and `EorOption` here, MSSP,
  MCCP2, CHARSET and TTYPE in protocol/telnet/options.py. The connection chooses its handlers
  when it makes its byte layer (`TelnetLineProtocol(app, options)`); this class knows none of
  the options by number except through `options`.

Negotiation (RFC 1143 "Q method": per option a state NO/YES/WANTNO/WANTYES and a one-deep queue)
  We offer the options whose handler has an offer (IAC WILL GMCP first) at connect, or when
  `offerOptions()` is called if the offer is held back (`hold_offers()`: the session waits for
  the client's first bytes). We agree to SGA
  when asked (DO SGA -> WILL SGA) and to EOR (DO EOR -> WILL EOR; `offer_eor` offers it: `/set
  prompt on`), accept the client's own SGA (WILL SGA -> DO SGA), turn ECHO on
  and off for password entry, and refuse every other option (DO x -> WONT x, WILL x -> DONT x),
  NAWS too unless WANT_NAWS is set (see NAWS: then we agree to WILL NAWS). An
  answer is never answered, so there are no negotiation loops; as a second safety net a connection
  gets at most MAX_NEGOTIATION_REPLIES replies to the client's negotiation, after which such
  requests are ignored. When the client turns an option on that was off, our WILL/DO goes out
  before `optionChanged` runs (what the option sends then, e.g. MCCP2's start, follows it).
  ECHO is the exception to the Q method, because clients differ too much there (netcat never
  answers, tintin++ answers WILL ECHO but not WONT ECHO): `setPasswordMode` sends WILL ECHO /
  WONT ECHO on every change of the wish, the client's DO/DONT ECHO only update what we know of its
  state, and the only reply ever sent about ECHO is WONT ECHO to a DO ECHO outside password entry.

Output
  Text is sent as UTF-8; a bare LF inside it becomes CR LF, `sendLine` appends CR LF, and every 0xFF
  byte is doubled (IAC IAC). `sendPrompt` sends IAC GA after the prompt to a client that negotiates
  telnet options at all (it asked for telnet behaviour) unless SGA (suppress go-ahead) is on for our
  side, i.e. the client asked DO SGA and we answered WILL SGA. A client that never negotiated (netcat,
  a script) never receives GA. Where EOR is on for our side (the client agreed, DO EOR), a prompt
  ends with IAC EOR instead of GA.

Slow readers
  The protocol registers itself as a streaming producer on its transport. While the transport has
  paused it (its write buffer is full) the bytes written are counted; past MAX_OUTPUT_BYTES the
  connection is closed (`outputOverflow()` first, one log line). `resumeProducing` resets the count.

Writes
  Every write goes through `_write`: first the output transform when one is set (MCCP2:
  `set_output_transform`), then the slow-reader check. On a plain TCP connection a
  turn's writes are gathered and leave in one `send` at the end of the turn: protocol/
  gathered_write.py, the one module that uses Twisted's private transport names (probed at
  start-up; Twisted's own write path when one is missing). `GATHER_WRITES = False` (the server's
  `--twisted-writes`) leaves every write to Twisted; TLS and other wrapped transports always do.
"""
from __future__ import annotations

import json
import re
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar
from typing import Protocol as Interface

from twisted.internet.interfaces import IPushProducer, ITransport
from twisted.internet.protocol import Protocol, connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import implementer

from protocol.telnet import gathered_write

__all__ = [
    "TelnetLineProtocol",
    "TelnetApp",
    "TelnetOption",
    "GmcpOption",
    "NawsOption",
    "EchoOption",
    "SgaOption",
    "EorOption",
    "decode_line",
    "clean_line",
    "encode_text",
    "IAC", "DONT", "DO", "WONT", "WILL", "SB", "SE", "GA", "NOP", "EC", "EL",
    "ECHO", "SGA", "NAWS", "GMCP",
]

_log = Logger(namespace="protocol.telnet")

# ---- telnet bytes (RFC 854) -----------------------------------------------------------------
IAC = 255
DONT = 254
DO = 253
WONT = 252
WILL = 251
SB = 250
GA = 249
EOR_MARK = 239   # RFC 885, the end-of-record mark (IAC EOR) that ends a prompt under option EOR
EL = 248
EC = 247
NOP = 241
SE = 240

# options
ECHO = 1      # RFC 857
SGA = 3       # RFC 858, suppress go-ahead
EOR = 25      # RFC 885, end of record: prompts end with IAC EOR (MUD clients)
NAWS = 31     # RFC 1073, negotiate about window size
GMCP = 201    # Generic MUD Communication Protocol

_CR = 13
_LF = 10
_NUL = 0
_BS = 8

# RFC 1143 option states; a state value may carry the OPPOSITE queue bit.
_NO = 0
_YES = 1
_WANTNO = 2
_WANTYES = 3
_OPPOSITE = 4
_STATE = 3

# parser states
_DATA = 0
_COMMAND = 1       # after IAC
_OPTION = 2        # after IAC WILL/WONT/DO/DONT
_SB_OPTION = 3     # after IAC SB
_SB_DATA = 4       # inside a subnegotiation
_SB_COMMAND = 5    # after IAC inside a subnegotiation

_DATA_SPECIAL = re.compile(rb"[\xff\r\n]")
#: a run of telnet commands without effect on the line (SE without SB, NOP, DM, BRK, IP, AO,
#: AYT, GA): skipped in one step, counted in one call of the budget
_INERT_RUN = re.compile(rb"(?:\xff[\xf0-\xf6\xf9])+")
#: a run of negotiations (IAC WILL/WONT/DO/DONT option): counted in one call, then read
_NEGOTIATION_RUN = re.compile(rb"(?:\xff[\xfb-\xfe][\x00-\xff])+", re.DOTALL)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
#: a GMCP package name in Core.Supports (`Char.Items`, `Room`): kept only if it looks like one
_GMCP_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}")


def decode_line(raw: bytes) -> str:
    """Decode the bytes of one complete line: UTF-8, or Latin-1 if they are not valid UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def clean_line(text: str) -> str:
    """Apply BS/DEL as "erase the previous character" and drop all other control characters.

    Control characters are C0 (U+0000..U+001F), DEL (U+007F) and C1 (U+0080..U+009F).
    """
    if _CONTROL.search(text) is None:
        return text
    kept: list[str] = []
    for char in text:
        if char == "\x08" or char == "\x7f":
            if kept:
                kept.pop()
        elif _CONTROL.match(char) is None:
            kept.append(char)
    return "".join(kept)


def encode_text(text: str) -> bytes:
    """Text -> bytes for the wire: bare LF -> CR LF, UTF-8, every 0xFF doubled.

    Characters that cannot be encoded (lone surrogates) become '?'.
    """
    if "\n" in text:
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    data = text.encode("utf-8", "replace")
    if b"\xff" in data:  # never from UTF-8 itself; kept so the rule holds whatever the encoder
        data = data.replace(b"\xff", b"\xff\xff")
    return data


class TelnetApp(Interface):
    """What the byte layer tells its application (protocol.connection.session.Session is one): clean
    lines, and the few questions of the connection's budget."""

    def lineReceived(self, line: str) -> None:
        """One complete, decoded, cleaned line without its line end."""

    def cleanLine(self, text: str) -> str:
        """A decoded line -> the line `lineReceived` gets (`clean_line`, or machine mode's)."""

    def lineTooLong(self, length: int) -> None:
        """A line of `length` bytes (more than MAX_LINE_BYTES) was discarded."""

    def outputOverflow(self) -> None:
        """The unsent output passed MAX_OUTPUT_BYTES; the connection is closed right after."""

    def subnegotiationReceived(self, option: int) -> bool:
        """A subnegotiation is complete: False drops it unread (flood control)."""

    def telnetCommandsReceived(self, count: int) -> bool:
        """`count` telnet commands arrived: False ignores them (the budget)."""

    def windowSizeChanged(self, width: int, height: int) -> None:
        """NAWS: the client's window size, in characters; 0: unknown."""

    def gmcpReceived(self, package: str, data: object) -> None:
        """A GMCP message of a package the GMCP option does not answer itself."""

    def clientIdentified(self) -> None:
        """TTYPE/MTTS: the client told its name and abilities."""

    def logAllowed(self, kind: str) -> bool:
        """Whether a log line of ``kind`` that this client caused is written (the log budget of
        its address group: a few a minute, then counted into one summary)."""


class TelnetOption:
    """One telnet option of one connection: the byte layer asks it whether to offer, agree and
    keep subnegotiations, and tells it of its subnegotiations and of its turning on or off."""

    __slots__ = ("telnet",)

    #: the option's number
    code: ClassVar[int] = -1
    #: the negotiation `offerOptions` sends for it (WILL or DO), None: not offered
    offer: ClassVar[int | None] = None

    def __init__(self, telnet: TelnetLineProtocol) -> None:
        self.telnet = telnet

    def offered(self) -> bool:
        """Whether it is offered now (its `offer` at `offerOptions`)."""
        return self.offer is not None

    def agree_local(self) -> bool:
        """Whether we enable it on our side when the client asks (DO)."""
        return False

    def agree_remote(self) -> bool:
        """Whether the client may enable it on its side (WILL)."""
        return False

    def keeps(self) -> bool:
        """Whether the bytes of its subnegotiation are kept (else only counted)."""
        return False

    def received(self, data: bytes) -> None:
        """A complete subnegotiation whose bytes were kept (IAC IAC undone)."""

    def changed(self, local: bool, enabled: bool) -> None:
        """It was turned on or off on our side (local) or the client's."""

    def lost(self) -> None:
        """The connection is gone."""


class GmcpOption(TelnetOption):
    """GMCP (201): offered with WILL; its messages are `package json`. With `core` (the
    lobby's connections) Core.Ping is answered, Core.Hello (eight short fields) and
    Core.Supports.Set/Add/Remove (a bounded set: `max_supports` packages, the server's
    --max-gmcp-supports) are remembered, and only the other packages go to the byte layer's
    `gmcpReceived`; without it every message does."""

    __slots__ = ("enabled", "client", "supports", "max_supports", "core")
    code = GMCP
    offer = WILL

    def __init__(self, telnet: TelnetLineProtocol, max_supports: int = 64,
                 core: bool = False) -> None:
        super().__init__(telnet)
        self.core = core
        self.enabled = False
        self.client: dict[str, Any] | None = None        # Core.Hello
        self.supports: dict[str, int] | None = None      # Core.Supports.*
        #: packages kept of Core.Supports.* at most (0: no limit)
        self.max_supports = max_supports

    def agree_local(self) -> bool:
        return True

    def keeps(self) -> bool:
        return self.enabled

    def changed(self, local: bool, enabled: bool) -> None:
        if local:
            self.enabled = enabled

    def received(self, data: bytes) -> None:
        telnet = self.telnet
        if not self.enabled:
            return
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            telnet._sb_rejected("GMCP that is not UTF-8")
            return
        package, _, payload = text.strip().partition(" ")
        if not package:
            telnet._sb_rejected("GMCP without a package name")
            return
        value: Any = None
        payload = payload.strip()
        if payload:
            try:
                value = json.loads(payload)
            except (ValueError, RecursionError):    # ([[[[... nested too deep: RecursionError)
                telnet._sb_rejected("GMCP with invalid JSON")
                return
        try:
            self.handle(package, value)
        except Exception:
            # a failing hook is logged; the byte parser and the connection go on
            _log.failure("handling GMCP {package} from {peer}", package=package,
                         peer=telnet.peer_text())

    def handle(self, package: str, data: object) -> None:
        """One decoded GMCP message: Core.* answered or remembered here (with `core`), anything
        else to the byte layer's `gmcpReceived`; Core.Supports.* after it is remembered too, so
        that the application can answer a package newly listed (Comm.Channel's list)."""
        if not (self.core and self._core(package, data)) \
                or package.lower().startswith("core.supports."):
            self.telnet.gmcpReceived(package, data)

    def _core(self, package: str, data: object) -> bool:
        """Core.*: answered or remembered here (True); anything else is the application's."""
        name = package.lower()
        if name == "core.ping":
            self.send("Core.Ping")   # the answer a MUD client measures its latency with
            return True
        if name == "core.hello" and isinstance(data, dict):
            # a few short fields (client, version) are kept; nothing else of it is used
            self.client = {str(k)[:32]: (v[:100] if isinstance(v, str) else v)
                           for k, v in list(data.items())[:8]
                           if isinstance(v, (str, int, float, bool)) or v is None}
            return True
        if name.startswith("core.supports.") and isinstance(data, list):
            # a bounded set: at most max_supports packages, names as GMCP writes them
            limit = self.max_supports
            supports = dict(self.supports or {})
            if name == "core.supports.set":
                supports = {}
            for item in data[:limit or len(data)]:
                if not isinstance(item, str):
                    continue
                pkg, _, version = item.partition(" ")
                if _GMCP_PACKAGE.fullmatch(pkg) is None:
                    continue
                if name == "core.supports.remove":
                    supports.pop(pkg, None)
                elif pkg in supports or not limit or len(supports) < limit:
                    supports[pkg] = _version_number(version) or 1
            self.supports = supports
            return True
        return name.startswith("core.")    # another Core message: ignored silently

    def wants(self, package: str) -> bool:
        """Whether GMCP messages of `package` (`Tichu`) go to this client: to a client that
        never sent Core.Supports all of them, else only the packages it listed (`Tichu` or
        `Tichu.State`...; names compared without case)."""
        supports = self.supports
        if supports is None:
            return True
        wanted = package.lower()
        return any(p.lower() == wanted or p.lower().startswith(wanted + ".") for p in supports)

    def listed(self, package: str) -> bool:
        """Whether the client named `package` (`Comm.Channel`, or a package within it) in its
        Core.Supports: the packages a client gets only when it asked for them (one that never
        sent Core.Supports gets none of them, as before they existed)."""
        return self.supports is not None and self.wants(package)

    def send(self, package: str, data: object = None) -> None:
        """IAC SB GMCP "<package> <json>" IAC SE when GMCP is on; nothing otherwise. With
        `data` None only the package name is sent."""
        if not self.enabled:
            return
        payload = package if data is None else (
            package + " " + json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        body = payload.encode("utf-8", "replace").replace(b"\xff", b"\xff\xff")
        self.telnet._write(bytes((IAC, SB, GMCP)) + body + bytes((IAC, SE)))


class NawsOption(TelnetOption):
    """NAWS (31, RFC 1073): the client's WILL NAWS is agreed to (asked with DO NAWS among the
    offers when `ask`); each IAC SB NAWS w1 w0 h1 h0 IAC SE tells `windowSizeChanged`."""

    __slots__ = ("ask",)
    code = NAWS
    offer = DO

    def __init__(self, telnet: TelnetLineProtocol, ask: bool = True) -> None:
        super().__init__(telnet)
        self.ask = ask

    def offered(self) -> bool:
        return self.ask

    def agree_remote(self) -> bool:
        return True

    def keeps(self) -> bool:
        return self.telnet._him.get(NAWS, _NO) & _STATE != _NO

    def received(self, data: bytes) -> None:
        """IAC SB NAWS w1 w0 h1 h0 IAC SE (IAC IAC already undoubled): the window size."""
        telnet = self.telnet
        if len(data) != 4:
            telnet._sb_rejected(f"NAWS of {len(data)} bytes, not 4")
            return
        width, height = data[0] << 8 | data[1], data[2] << 8 | data[3]
        try:
            telnet.windowSizeChanged(width, height)
        except Exception:
            _log.failure("handling NAWS from {peer}", peer=telnet.peer_text())



class EchoOption(TelnetOption):
    """ECHO (1), the exception to the Q method: `hide` sends WILL ECHO / WONT ECHO on every
    change of the wish, the client's DO/DONT ECHO only update what we know of its state, and the
    only reply ever sent about ECHO is WONT ECHO to a DO ECHO outside password entry."""

    __slots__ = ()
    code = ECHO

    def agree_local(self) -> bool:
        return self.telnet.password_mode

    def hide(self, hidden: bool) -> None:
        """hidden: IAC WILL ECHO (the client stops echoing what is typed); back: IAC WONT ECHO."""
        telnet = self.telnet
        telnet.password_mode = hidden
        state = telnet._us_state(ECHO)
        if hidden and state != _YES and state != _WANTYES:
            telnet._set_us(ECHO, _WANTYES)
            telnet._send_negotiation(WILL, ECHO)
        elif not hidden and state in (_YES, _WANTYES):
            telnet._set_us(ECHO, _WANTNO)
            telnet._send_negotiation(WONT, ECHO)

    def negotiated(self, positive: bool, state: int) -> None:
        """DO/DONT ECHO: learn the client's state; reply only to refuse an unwanted DO.

        Every WILL/WONT ECHO we send is caused by a change of `password_mode`, never by a
        message of the client, except the refusal below, which leaves the state at NO; so no
        exchange about ECHO can loop, whatever the client answers or leaves unanswered.
        """
        telnet = self.telnet
        if positive:
            if telnet.password_mode:
                telnet._set_us(ECHO, _YES)  # our WILL ECHO for this wish is sent already
            elif state == _NO:
                telnet._reply(WONT, ECHO)  # a request to echo: the server never echoes input
            # WANTNO: the late answer to a WILL sent before our WONT; wait for its DONT
        elif state != _NO:
            telnet._set_us(ECHO, _NO)


class SgaOption(TelnetOption):
    """SGA (3, suppress go-ahead): agreed on both sides when asked; while it is on for our side
    prompts go without IAC GA."""

    __slots__ = ()
    code = SGA

    def agree_local(self) -> bool:
        return True

    def agree_remote(self) -> bool:
        return True


class EorOption(TelnetOption):
    """EOR (25, end of record): agreed on our side when asked (`offer_eor` offers it for `/set
    prompt on`); while it is on, prompts end with IAC EOR instead of IAC GA."""

    __slots__ = ()
    code = EOR

    def agree_local(self) -> bool:
        return True


def _version_number(word: str) -> int | None:
    """A Core.Supports version (`1`): ASCII digits, at most 1,000,000; None otherwise."""
    word = word.strip()
    if not word or len(word) > 20 or not word.isascii() or not word.isdigit():
        return None
    value = int(word)
    return value if value <= 1_000_000 else None


@implementer(IPushProducer)
class TelnetLineProtocol(Protocol):
    """The byte layer of one connection speaking the line protocol over raw TCP or telnet.

    It hands what it reads to its `app` (a TelnetApp), and asks one handler per telnet option
    (`options`, TelnetOption objects by code). Without an app its hooks (`lineReceived`,
    `lineTooLong`, `outputOverflow`, `gmcpReceived`, `telnetOptionsChanged` ...) are
    overridden by a subclass, which calls `super().connectionMade()` /
    `super().connectionLost(reason)` first in its own versions of those methods.
    """

    MAX_LINE_BYTES: int = 1024
    MAX_OUTPUT_BYTES: int = 512 * 1024
    MAX_SUBNEGOTIATION_BYTES: int = 8192
    MAX_NEGOTIATION_REPLIES: int = 256

    # Immutable per-connection state lives in these class defaults until first changed, so an
    # idle connection carries only what it has used. Mutable state is made in connectionMade.
    #: the application the lines go to (None: a subclass overrides the hooks)
    app: TelnetApp | None = None
    #: the handler of each option this connection knows, by option code
    options: dict[int, TelnetOption]
    #: the GMCP option's handler (always there)
    gmcp: GmcpOption
    password_mode: bool = False
    # True once the client sent any option negotiation: only such clients get IAC GA after
    # prompts (raw netcat and scripts never see those two bytes).
    speaks_telnet: bool = False
    # True while the cursor stands after a prompt (no line end) that the client was not told is
    # a prompt by IAC EOR: the next output starts with CR LF, on a line of its own (as MUD
    # servers do), not after the prompt; a line the client sends ends it (its Enter)
    after_prompt: bool = False
    _closed: bool = False
    _closing: bool = False
    # True: connectionMade does not offer GMCP; `offerOptions()` does it later (the session
    # waits for the client's first bytes before it sends anything)
    _hold_offer: bool = False
    _offered: bool = False
    # True: agree to the client's window size (NAWS: WILL NAWS -> DO NAWS) and read it
    WANT_NAWS: bool = False
    _paused: bool = False
    _paused_bytes: int = 0
    # Plain TCP connections gather a turn's writes and send them at the end of the turn
    # (protocol/telnet/gathered_write.py); False (the server's --twisted-writes) leaves every write to
    # Twisted. _gathering: gathering this turn's output; _may_gather: may gather at all.
    GATHER_WRITES: bool = True
    # Twisted declares ITransport | None; ours is a TCP (or TLS) transport, also a consumer
    transport: Any
    _may_gather: bool = False
    _gathering: bool = False
    # a transform of every write from now on (MCCP2's compression, set by its handler), or None
    _compress: Any = None
    _state: int = _DATA
    _saw_cr: bool = False
    _discarding: bool = False
    _discard_count: int = 0
    _command: int = 0
    _sb_option: int = 0
    _sb_buffer: bytearray | None = None
    _sb_overflow: bool = False
    _sb_size: int = 0         # bytes of the subnegotiation being read
    _sb_bad: int = 0          # invalid or oversized subnegotiations of this connection
    _replies: int = 0
    _line: bytearray
    _us: dict[int, int]
    _him: dict[int, int]

    if TYPE_CHECKING:
        # twisted's BaseProtocol.makeConnection, which has no annotations there
        def makeConnection(self, transport: ITransport) -> None: ...

    def __init__(self, app: TelnetApp | None = None,
                 options: Callable[[TelnetLineProtocol], list[TelnetOption]] | None = None,
                 ) -> None:
        """`app`: where the lines go; `options`: makes the option handlers for this byte
        layer, in the order of their offers (default: GMCP, NAWS when WANT_NAWS, ECHO, SGA)."""
        self.app = app
        if options is None:
            handlers: list[TelnetOption] = [GmcpOption(self)]
            if self.WANT_NAWS:
                handlers.append(NawsOption(self, ask=False))
            handlers += [EchoOption(self), SgaOption(self), EorOption(self)]
        else:
            handlers = options(self)
        self.options = {option.code: option for option in handlers}
        gmcp = self.options.get(GMCP)
        if not isinstance(gmcp, GmcpOption):
            gmcp = self.options[GMCP] = GmcpOption(self)
        self.gmcp = gmcp
        echo = self.options.get(ECHO)
        self._echo = echo if isinstance(echo, EchoOption) else EchoOption(self)

    # ---- hooks: the application's, or a subclass's ----------------------------------------
    def lineReceived(self, line: str) -> None:
        """One complete, decoded, cleaned line without its line end."""
        app = self.app
        if app is not None:
            app.lineReceived(line)

    def lineTooLong(self, length: int) -> None:
        """A line of `length` bytes (more than MAX_LINE_BYTES) was discarded."""
        app = self.app
        if app is not None:
            app.lineTooLong(length)

    def outputOverflow(self) -> None:
        """The unsent output passed MAX_OUTPUT_BYTES; the connection is closed right after."""
        app = self.app
        if app is not None:
            app.outputOverflow()

    def gmcpReceived(self, package: str, data: object) -> None:
        """A GMCP message from the client (`data` is None when it carried no JSON) that the
        GMCP option does not answer itself (Core.*)."""
        app = self.app
        if app is not None:
            app.gmcpReceived(package, data)

    def telnetOptionsChanged(self) -> None:
        """A negotiation changed the state of some option (see `optionEnabled`)."""

    def windowSizeChanged(self, width: int, height: int) -> None:
        """The client's window size (NAWS), in characters; 0: unknown. Again on every resize."""
        app = self.app
        if app is not None:
            app.windowSizeChanged(width, height)

    def clientIdentified(self) -> None:
        """TTYPE/MTTS told the client's name and abilities (protocol/telnet/options.py)."""
        app = self.app
        if app is not None:
            app.clientIdentified()

    def log_allowed(self, kind: str) -> bool:
        """Whether a log line of ``kind`` this client caused is written: its application's log
        budget decides (every line of the byte layer and its options asks; without an
        application, yes)."""
        app = self.app
        return app is None or app.logAllowed(kind)

    def subnegotiationReceived(self, option: int) -> bool:
        """A subnegotiation (`IAC SB option ... IAC SE`, any option, valid or not) is complete:
        False drops it unread (the session's flood control counts it like a line)."""
        app = self.app
        return app is None or app.subnegotiationReceived(option)

    def telnetCommandsReceived(self, count: int) -> bool:
        """`count` telnet commands arrived (IAC NOP, IAC WILL x, IAC SB ...; not IAC IAC, a
        data byte): False ignores them (the session's budget of telnet commands)."""
        app = self.app
        return app is None or app.telnetCommandsReceived(count)

    def cleanLine(self, text: str) -> str:
        """A decoded line -> the line `lineReceived` gets (`clean_line`; machine mode keeps the
        command id out of the erasing, see protocol.connection.machine)."""
        app = self.app
        return clean_line(text) if app is None else app.cleanLine(text)

    @property
    def gmcp_enabled(self) -> bool:
        """GMCP is on (the client answered DO GMCP)."""
        return self.gmcp.enabled

    # ---- the option handlers' seam ------------------------------------------------------------
    def _offers(self) -> list[tuple[int, int]]:
        """The negotiations `offerOptions` sends: (WILL, option) or (DO, option)."""
        return [(h.offer, h.code) for h in self.options.values()
                if h.offer is not None and h.offered()]

    def _keeps_subnegotiation(self, option: int) -> bool:
        """Whether the bytes of a subnegotiation of `option` are kept (its handler says)."""
        handler = self.options.get(option)
        return handler is not None and handler.keeps()

    def optionChanged(self, option: int, local: bool, enabled: bool) -> None:
        """`option` was turned on or off on our side (local) or the client's side."""
        handler = self.options.get(option)
        if handler is not None:
            handler.changed(local, enabled)

    # what a handler may do besides the negotiation queries (optionEnabled, optionPending)
    def send_raw(self, data: bytes) -> None:
        """Bytes as they are (a subnegotiation, the end of a compressed stream): the write path
        (the output transform, the bound on unread output), no IAC doubling."""
        self._write(data)

    def set_output_transform(self, transform: Callable[[bytes], bytes] | None) -> None:
        """Every later write passes `transform` first (MCCP2's deflate; None: bytes as they are)."""
        self._compress = transform

    @property
    def is_closed(self) -> bool:
        """The connection is closed or lost: nothing more is sent."""
        return self._closed

    def refuse_local(self, option: int) -> None:
        """Turn `option` off again on our side after agreeing to it (RFC 1143: WANTNO, WONT)."""
        self._set_us(option, _WANTNO)
        self._send_negotiation(WONT, option)

    # ---- connection -------------------------------------------------------------------------
    def connectionMade(self) -> None:
        self._line = bytearray()
        self._us = {}
        self._him = {}
        self.transport.registerProducer(self, True)
        if self.GATHER_WRITES and gathered_write.usable(self.transport):
            self._may_gather = True
        # An interactive line protocol: send each reply at once instead of waiting for the peer's
        # ACK of the previous segment (Nagle), which adds tens of ms to every fan-out.
        set_no_delay = getattr(self.transport, "setTcpNoDelay", None)
        if set_no_delay is not None:
            try:
                set_no_delay(True)
            except OSError:
                pass
        if not self._hold_offer:
            self.offerOptions()

    def hold_offers(self) -> None:
        """Before `makeConnection`: offer nothing when the connection is made; the application
        calls `offerOptions()` later (it waits for the client's first bytes)."""
        self._hold_offer = True

    def never_offer(self) -> None:
        """Before `makeConnection`: no telnet offer ever (a transport that carries messages, not
        a byte stream: a WebSocket)."""
        self._hold_offer = self._offered = True

    def offerOptions(self) -> None:
        """Offer GMCP and the options of `_offers` (once); a client answering DO GMCP enables
        it, DONT GMCP or silence leaves it off. A client that asked DO GMCP before the offer has
        it on already (an option asked for before its offer is not offered again)."""
        if self._offered or self._closed:
            return
        self._offered = True
        for command, option in self._offers():
            local = command == WILL
            table = self._us if local else self._him
            if table.get(option, _NO) & _STATE != _NO:
                continue
            (self._set_us if local else self._set_him)(option, _WANTYES)
            self._send_negotiation(command, option)

    def connectionLost(self, reason: Failure | None = connectionDone) -> None:
        # the options and this layer hold each other, and it holds the app that holds it: from
        # now on they hold it weakly and the app not at all, so reference counting frees a
        # closed connection at once (nothing waits for the collector, which
        # --gc-freeze-survivors holds off until the thaw; outside finding W1)
        this = weakref.proxy(self)
        for handler in self.options.values():
            handler.lost()
            handler.telnet = this
        self._echo.telnet = this
        if self._sb_bad > 1 and self.log_allowed("telnet-subnegotiation"):
            _log.info("{peer} sent {count} invalid or oversized subnegotiations in all",
                      peer=self.peer_text(), count=self._sb_bad)
        self.app = None
        self._closed = True
        self._gathering = False
        self._paused = False
        self._line = bytearray()
        self._sb_buffer = None

    # ---- IPushProducer ----------------------------------------------------------------------
    def pauseProducing(self) -> None:
        """The transport's write buffer is full: count what is written from now on.

        Twisted calls this again on every write while its buffer stays full; only the first call
        after a resume starts the count.
        """
        self._gathering = False               # what follows goes through the paused branch
        if not self._paused:
            self._paused = True
            self._paused_bytes = 0

    def resumeProducing(self) -> None:
        """The transport's write buffer drained."""
        self._paused = False
        self._paused_bytes = 0

    def stopProducing(self) -> None:
        """The transport will send nothing more."""
        self._closed = True
        self._gathering = False

    # ---- output -----------------------------------------------------------------------------
    def sendLine(self, text: str) -> None:
        """Send `text` and CR LF (UTF-8, bare LF inside -> CR LF, 0xFF doubled)."""
        self.write(encode_text(text) + b"\r\n")

    def send_lines(self, lines: list[str]) -> None:
        """`TelnetLineProtocol.sendLine` for each of `lines` (no wrapping): the same bytes, in one
        write (one write per line while
        the output is compressed or the client is not reading, as `sendLine` does)."""
        if self._compress is not None or self._paused:
            for line in lines:
                self.write(encode_text(line) + b"\r\n")
        elif lines:
            self.write(b"".join([encode_text(line) + b"\r\n" for line in lines]))

    def sendText(self, text: str) -> None:
        """Send `text` as it is (UTF-8, bare LF inside -> CR LF, 0xFF doubled)."""
        self.write(encode_text(text))

    def sendBytes(self, data: bytes) -> None:
        """Send application bytes as data: every 0xFF is doubled, nothing else changes."""
        self.write(data.replace(b"\xff", b"\xff\xff"))

    def sendPrompt(self, text: str) -> None:
        """Send a prompt without line end, then IAC GA for a telnet client that has not agreed
        to suppress go-ahead (SGA); a client that never negotiated gets no GA bytes."""
        data = encode_text(text)
        eor = self._us_state(EOR) == _YES
        if eor:
            data += bytes((IAC, EOR_MARK))
        elif self.speaks_telnet and self._us_state(SGA) != _YES:
            data += bytes((IAC, GA))
        self.write(data)
        # (a client that agreed to EOR shows what follows on a line of its own itself)
        self.after_prompt = bool(text) and not eor

    def offer_eor(self) -> None:
        """IAC WILL EOR, once, to a client that speaks telnet (a MUD client answers DO EOR, and
        its prompts end with IAC EOR from then on)."""
        if self.speaks_telnet and self._us_state(EOR) == _NO:
            self._set_us(EOR, _WANTYES)
            self._send_negotiation(WILL, EOR)

    def setPasswordMode(self, hidden: bool) -> None:
        """hidden: IAC WILL ECHO (the client stops echoing what is typed); back: IAC WONT ECHO
        (the ECHO option's handler)."""
        self._echo.hide(hidden)

    def sendGMCP(self, package: str, data: object = None) -> None:
        """IAC SB GMCP "<package> <json>" IAC SE when GMCP is on (the GMCP option's handler)."""
        self.gmcp.send(package, data)

    def optionPending(self, option: int, *, local: bool = True) -> bool:
        """Whether our offer of `option` (WILL for our side, DO for the client's: local=False)
        still waits for the client's answer."""
        table = self._us if local else self._him
        return (table.get(option, _NO) & _STATE) == _WANTYES

    def optionEnabled(self, option: int, *, local: bool = True) -> bool:
        """Whether `option` is on for our side (local) or the client's side (local=False)."""
        table = self._us if local else self._him
        return (table.get(option, _NO) & _STATE) == _YES

    def _write(self, data: bytes) -> None:
        if self._compress is not None:
            data = self._compress(data)      # MCCP2 (protocol/telnet/options.py)
        if self._gathering:
            # more for this turn's send (the common case of a fan-out: checked first)
            gathered_write.gather(self, data)
            return
        if self._closed or self._closing or self.transport is None:
            return
        if self._paused:
            self._paused_bytes += len(data)
            if self._paused_bytes > self.MAX_OUTPUT_BYTES:
                self._overflow()
                return
        elif self._may_gather and gathered_write.start(self, data):
            return
        self.transport.write(data)

    def write(self, data: bytes) -> None:
        """The application's bytes, written as they are; after a prompt not marked with EOR
        (``after_prompt``) on a line of their own (CR LF first)."""
        if self.after_prompt:
            self.after_prompt = False
            data = b"\r\n" + data
        self._write(data)

    def _overflow(self) -> None:
        self._closing = True
        self._gathering = False
        self.outputOverflow()
        if self.log_allowed("output-overflow"):
            _log.warn(
                "Closing connection to {peer}: {unsent} bytes of output queued while the client "
                "was not reading (limit {limit})",
                peer=str(self.transport.getPeer()), unsent=self._paused_bytes,
                limit=self.MAX_OUTPUT_BYTES)
        abort = getattr(self.transport, "abortConnection", None)
        if abort is not None:
            abort()
        else:
            self.transport.loseConnection()

    # ---- input ------------------------------------------------------------------------------
    def dataReceived(self, data: bytes) -> None:
        index = 0
        end = len(data)
        transport = self.transport
        while index < end:
            if self._closed or self._closing or getattr(transport, "disconnecting", False):
                return
            state = self._state
            if state == _DATA:
                if self._saw_cr:
                    byte = data[index]
                    if byte in (_LF, _NUL):  # CR LF and CR NUL end one line
                        self._saw_cr = False
                        index += 1
                        continue
                    if byte != IAC:  # a command between CR and LF does not split them
                        self._saw_cr = False
                match = _DATA_SPECIAL.search(data, index)
                stop = end if match is None else match.start()
                if stop > index:
                    self._append(data[index:stop])
                if match is None:
                    return
                byte = data[stop]
                index = stop + 1
                if byte == IAC:
                    # runs of commands in bulk: their cost per byte close to plain text
                    run = _INERT_RUN.match(data, stop)
                    if run is not None:
                        index = run.end()
                        self.telnetCommandsReceived((index - stop) >> 1)
                        continue
                    run = _NEGOTIATION_RUN.match(data, stop)
                    if run is not None:
                        index = run.end()
                        self.speaks_telnet = True
                        if self.telnetCommandsReceived((index - stop) // 3):
                            for at in range(stop + 1, index, 3):
                                if self._closed or self._closing:
                                    return
                                self._negotiation_received(data[at], data[at + 1])
                        continue
                    self._state = _COMMAND
                else:
                    self._saw_cr = byte == _CR
                    self._end_line()
            elif state == _COMMAND:
                byte = data[index]
                index += 1
                if byte == IAC:
                    self._state = _DATA
                    self._saw_cr = False
                    self._append(b"\xff")
                elif WILL <= byte <= DONT:
                    self._command = byte
                    self._state = _OPTION
                    self.speaks_telnet = True
                elif byte == SB:
                    self._state = _SB_OPTION
                else:
                    self._state = _DATA
                    if self.telnetCommandsReceived(1):
                        self._command_received(byte)
            elif state == _OPTION:
                option = data[index]
                index += 1
                self._state = _DATA
                if self.telnetCommandsReceived(1):
                    self._negotiation_received(self._command, option)
            elif state == _SB_OPTION:
                option = data[index]
                index += 1
                self._sb_option = option
                self._sb_overflow = False
                self._sb_size = 0
                self._sb_buffer = bytearray() if self._keeps_subnegotiation(option) else None
                self._state = _SB_DATA
            elif state == _SB_DATA:
                stop = data.find(b"\xff", index)
                if stop < 0:
                    stop = end
                if stop > index:
                    self._sb_append(data[index:stop])
                if stop == end:
                    return
                index = stop + 1
                self._state = _SB_COMMAND
            else:  # _SB_COMMAND
                byte = data[index]
                if byte == IAC:
                    index += 1
                    self._sb_append(b"\xff")
                    self._state = _SB_DATA
                elif byte == SE:
                    index += 1
                    self._state = _DATA
                    self._subnegotiation_done()
                else:
                    # IAC and anything but SE/IAC inside a subnegotiation: the client forgot
                    # IAC SE. Drop the subnegotiation and read the byte as a telnet command.
                    self._sb_buffer = None
                    self._state = _COMMAND
                    if self.subnegotiationReceived(self._sb_option):
                        self._sb_rejected("it has no IAC SE")

    def _append(self, chunk: bytes) -> None:
        if self._discarding:
            self._discard_count += len(chunk)
            return
        line = self._line
        if len(line) + len(chunk) > self.MAX_LINE_BYTES:
            self._discarding = True
            self._discard_count = len(line) + len(chunk)
            self._line = bytearray()
            return
        line += chunk

    def _end_line(self) -> None:
        if self._discarding:
            length = self._discard_count
            self._discarding = False
            self._discard_count = 0
            self.lineTooLong(length)
            return
        raw = bytes(self._line)
        self._line = bytearray()
        self.after_prompt = False           # the client's Enter ended the prompt's line
        self.lineReceived(self.cleanLine(decode_line(raw)))

    def _command_received(self, command: int) -> None:
        if command == EC:
            self._append(b"\x08")
        elif command == EL and not self._discarding:
            self._line = bytearray()
        # NOP, GA, AYT, IP, AO, BRK, DM, SE without SB: nothing to do.

    def _sb_append(self, chunk: bytes) -> None:
        # Every option's subnegotiation is measured (only GMCP's bytes are kept): past
        # MAX_SUBNEGOTIATION_BYTES (0: no limit) the rest is only counted up to its IAC SE.
        self._sb_size += len(chunk)
        if self._sb_overflow:
            return
        limit = self.MAX_SUBNEGOTIATION_BYTES
        if limit and self._sb_size > limit:
            self._sb_buffer = None
            self._sb_overflow = True
            return
        buffer = self._sb_buffer
        if buffer is not None:
            buffer += chunk

    def _sb_rejected(self, reason: str) -> None:
        """An invalid or oversized subnegotiation was dropped: the first one of a connection is
        logged, the others are only counted (one more line at the close gives the count), so a
        burst of thousands costs two log lines."""
        self._sb_bad += 1
        if self._sb_bad == 1 and self.log_allowed("telnet-subnegotiation"):
            _log.info("Ignored a subnegotiation for option {option} from {peer}: {reason}; "
                      "further invalid ones of this connection are only counted",
                      option=self._sb_option, peer=self.peer_text(), reason=reason)

    def peer_text(self) -> str:
        """The peer as HOST:PORT for the log (behind a PROXY header: the real client's)."""
        try:
            peer = self.transport.getPeer()
        except Exception:
            return "?"
        host = getattr(peer, "host", None)
        return str(peer) if host is None else f"{host}:{getattr(peer, 'port', '')}"

    def _subnegotiation_done(self) -> None:
        buffer = self._sb_buffer
        self._sb_buffer = None
        if not self.subnegotiationReceived(self._sb_option):
            return                     # flood control dropped it
        if self._sb_overflow:
            self._sb_rejected(f"{self._sb_size} bytes, more than the limit of "
                              f"{self.MAX_SUBNEGOTIATION_BYTES}")
            return
        handler = self.options.get(self._sb_option)
        if buffer is None or handler is None:
            return                     # an option that is not on: ignored
        try:
            handler.received(bytes(buffer))
        except Exception:
            _log.failure("handling a subnegotiation of option {option} from {peer}",
                         option=self._sb_option, peer=self.peer_text())

    # ---- negotiation (RFC 1143) -------------------------------------------------------------
    def _agree_us(self, option: int) -> bool:
        """Whether we agree to enable `option` on our side when the client asks (DO)."""
        handler = self.options.get(option)
        return handler is not None and handler.agree_local()

    def _agree_him(self, option: int) -> bool:
        """Whether we agree that the client enables `option` on its side (WILL)."""
        handler = self.options.get(option)
        return handler is not None and handler.agree_remote()

    def _us_state(self, option: int) -> int:
        return self._us.get(option, _NO) & _STATE

    def _set_us(self, option: int, value: int) -> None:
        was = self._us.get(option, _NO) & _STATE == _YES
        if value == _NO:
            self._us.pop(option, None)
        else:
            self._us[option] = value
        now = value & _STATE == _YES
        if was != now:
            self.optionChanged(option, True, now)

    def _set_him(self, option: int, value: int) -> None:
        was = self._him.get(option, _NO) & _STATE == _YES
        if value == _NO:
            self._him.pop(option, None)
        else:
            self._him[option] = value
        now = value & _STATE == _YES
        if was != now:
            self.optionChanged(option, False, now)

    def _send_negotiation(self, command: int, option: int) -> None:
        self._write(bytes((IAC, command, option)))

    def _reply(self, command: int, option: int) -> None:
        """Send a negotiation caused by one the client sent, within the reply budget."""
        if self._replies >= self.MAX_NEGOTIATION_REPLIES:
            return
        self._replies += 1
        if self._replies == self.MAX_NEGOTIATION_REPLIES and self.log_allowed(
                "telnet-negotiation"):
            _log.info("Negotiation reply budget used up for {peer}; further requests ignored",
                      peer=str(self.transport.getPeer()))
        self._send_negotiation(command, option)

    def _negotiation_received(self, command: int, option: int) -> None:
        if option == ECHO and command in (DO, DONT):
            before = self._us_state(ECHO)
            self._echo.negotiated(command == DO, before)
            if self._us_state(ECHO) != before:
                self.telnetOptionsChanged()
            return
        if command in (DO, DONT):
            before = self._us.get(option, _NO)
            self._receive(command == DO, option, before, self._set_us, self._agree_us,
                          WILL, WONT)
            changed = self._us.get(option, _NO) != before
        else:
            before = self._him.get(option, _NO)
            self._receive(command == WILL, option, before, self._set_him, self._agree_him,
                          DO, DONT)
            changed = self._him.get(option, _NO) != before
        if changed:
            self.telnetOptionsChanged()

    def _receive(self, positive: bool, option: int, value: int, store: Any, agree: Any,
                 yes: int, no: int) -> None:
        """RFC 1143 receive rules for one side; `yes`/`no` are the commands we send about it."""
        state = value & _STATE
        opposite = value & _OPPOSITE
        if positive:  # WILL (his side) or DO (our side)
            if state == _NO:
                if agree(option):
                    # the answer first: what the option sends once it is on (MCCP2's start of
                    # compression, MSSP's table) follows the WILL/DO that turned it on
                    self._reply(yes, option)
                    store(option, _YES)
                else:
                    self._reply(no, option)
            elif state == _WANTNO:  # an error by the peer: DONT answered by DO
                store(option, _YES if opposite else _NO)
            elif state == _WANTYES:
                if opposite:
                    store(option, _WANTNO)
                    self._reply(no, option)
                else:
                    store(option, _YES)
            # _YES: already on, ignore
        else:  # WONT (his side) or DONT (our side)
            if state == _YES:
                store(option, _NO)
                self._reply(no, option)
            elif state == _WANTNO:
                if opposite:
                    store(option, _WANTYES)
                    self._reply(yes, option)
                else:
                    store(option, _NO)
            elif state == _WANTYES:
                store(option, _NO)
            # _NO: already off, ignore
