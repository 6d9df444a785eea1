"""One connection: the login state machine, then commands and speech, and event delivery.

States: ``login`` (a ``login:`` prompt) -> ``password`` (for a registered name, echo off) or, in
text mode, ``confirm`` (an unregistered name: an empty line enters as that guest, any other line
is another name) -> ``active`` (commands and speech) -> ``closed``. Lines that arrive while a
command is still working (a database query, a password hash in a thread) wait in a short queue
and run in order.

The telnet byte layer (negotiation, line framing, UTF-8/Latin-1 decoding, line and output limits)
is ``protocol.telnet.transport.TelnetLineProtocol``; this class only sees clean lines.
"""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from twisted.internet.defer import Deferred, ensureDeferred
from twisted.logger import Logger
from twisted.python.failure import Failure

from lobby.events import Event, error_event
from lobby.storage.accounts import check_name, name_key
from lobby.storage.store import Account
from lobby.text.messages import ERRORS, LANGUAGES, LobbyError, one_of, text
from lobby.tichu import memo as _memo
from protocol.commands.base import COMMANDS, CommandTable, parse_line
from protocol.connection.machine import JSON_SWITCH, MachineMode
from protocol.render.context import DEFAULT_CONTEXT, RenderContext, clamp_width
from protocol.render.json_lines import PROTOCOL_VERSIONS
from protocol.render.table import TableFeed
from protocol.render.text import render
from protocol.render.wrap import wrap_line, wrap_lines, wrap_prompt
from protocol.telnet.gathered_write import write_shared
from protocol.telnet.options import MSSP_REQUEST, MudOptions
from protocol.telnet.transport import DO, NAWS, TelnetLineProtocol, encode_text

#: events whose text-mode lines after the first (a header, wrapped) are raw, exempt from the
#: wrap rule (docs/protocol.md, "Line width"): /tchlog's lines are the .tch file byte for byte,
#: as /games/GAME.tch serves it
RAW_TEXT = frozenset({"tchlog"})

if TYPE_CHECKING:
    from lobby.storage.accounts import Accounts
    from lobby.storage.store import Store
    from lobby.world.world import User, World
    from protocol.process.server import LobbyFactory

__all__ = ["Session", "MAX_LOGIN_FAILURES", "MAX_QUEUED_LINES", "CLOSE_GRACE"]

MAX_LOGIN_FAILURES = 3
#: the terminal bell (BEL), rung for `/set bell on` when a move or decision waits for you
BELL = b"\x07"
MAX_QUEUED_LINES = 16
#: seconds after the guest confirmation in which a non-empty line counts as typed ahead
TYPEAHEAD_WINDOW = 1.0
#: seconds a closing connection may take to send what is still buffered before it is aborted (a
#: peer that stopped reading would otherwise keep it, and the user online, forever)
CLOSE_GRACE = 30.0

log = Logger(namespace="protocol.session")
#: the states of the log-in (a refusal in them makes the lines typed ahead behind it void)
_LOGIN_STATES = ("login", "password", "confirm", "seat-key")


class _TypedAhead(str):
    """A line that was already received when a line before it was refused at the log-in."""

    __slots__ = ()


#: the last lobby event rendered for text mode, the render context it was rendered for, and its
#: bytes (see Session.deliver): the cache is keyed by everything the text depends on
_shared_text: list[Any] = [None, None, b""]
_memo.register(lambda: _shared_text.__setitem__(slice(None), [None, None, b""]))

class Session(MachineMode, MudOptions):
    """The wire side of one user: implements lobby.events.Listener (deliver, disconnect)."""

    factory: "LobbyFactory"
    commands: CommandTable = COMMANDS
    WANT_NAWS = True   # a telnet client's width (NAWS): every text line is wrapped to it

    # Per-connection state starts as these class defaults (an idle connection stores little).
    state: str = "login"
    user: "User | None" = None
    _account: Account | None = None  # the account whose password is being asked
    _guest_name: str | None = None  # state "confirm": the unregistered name to confirm
    _confirm_asked: float = 0.0     # ... asked at this clock time (lines before: typed ahead)
    _refused_at: float | None = None  # when a line at the log-in was last refused (type-ahead)
    _refused_chunk: int = -1        # ... in the TCP segment of this number
    _chunks: int = 0                # TCP segments received
    _seat_name: str | None = None  # the guest name whose seat's reconnect key is being asked
    _failures: int = 0
    _busy: bool = False
    _queue: "deque[str] | None" = None  # created only when a line has to wait
    _waiters: "list[Deferred[None]] | None" = None
    _lost: bool = False
    _settings: "dict[str, str] | None" = None  # /set (per connection, never saved)
    _feed: TableFeed | None = None  # created with the first table event
    _guard: Any = None  # protocol.connection.guard.ConnectionGuard: flood control, timers (set at connect)
    _abort_call: Any = None  # the abort of a closing connection that does not drain
    _greet_call: Any = None  # the greeting's timer while it waits for the first bytes
    _greeted: bool = False
    _timing: Any = None   # (command name, start) of the command running now, for the metrics
    _naws_width: int = 0  # the client's window width (telnet NAWS; 0: not told)
    #: the transport carries messages, not a byte stream (a WebSocket, protocol/web): no telnet
    #: negotiation, machine mode from the first line on, and one line per message
    _messages: bool = False

    def when_closed(self) -> "Deferred[None]":
        """A Deferred that fires when the connection is closed."""
        d: Deferred[None] = Deferred()
        if self._lost:
            d.callback(None)
        else:
            self._waiters = (self._waiters or []) + [d]
        return d

    # ---- what handlers use ------------------------------------------------------------------
    @property
    def world(self) -> "World":
        return self.factory.world

    @property
    def store(self) -> "Store":
        return self.factory.store

    @property
    def accounts(self) -> "Accounts":
        return self.factory.accounts

    @property
    def settings(self) -> dict[str, str]:
        """This connection's settings (``/set color on``); only ``lang`` is saved, for a
        registered name (protocol/commands/base.py)."""
        if self._settings is None:
            self._settings = {}
        return self._settings

    @property
    def color(self) -> bool:
        return self._settings is not None and self._settings.get("color") == "on"

    @property
    def render_context(self) -> RenderContext:
        """What the text this connection gets depends on (its settings: ``color``, ``lang``,
        ``width``, else the NAWS width); the key of every cache of rendered bytes, with the
        event."""
        settings = self._settings
        naws = self._naws_width
        if not settings and not naws:
            lang = self.factory.lang
            return DEFAULT_CONTEXT if lang == "en" else RenderContext.of(lang)
        if settings is None:
            settings = {}
        width = settings.get("width")
        return RenderContext.of(settings.get("lang") or self.factory.lang,
                                settings.get("color") == "on",
                                int(width) if width else clamp_width(naws))

    @property
    def lang(self) -> str:
        """The language of everything this connection is told: ``/set lang``, else the
        account's, else the server's ``--lang``."""
        settings = self._settings
        return (settings.get("lang") if settings else None) or self.factory.lang

    def _offers(self) -> list[tuple[int, int]]:
        # after the MUD options' offers: IAC DO NAWS asks a telnet client for its window size
        return super()._offers() + [(DO, NAWS)]

    def windowSizeChanged(self, width: int, height: int) -> None:
        """Telnet NAWS: the client's window is ``width`` columns wide (0: unknown), told at
        negotiation and again on every resize; the text is wrapped to it from the next line on
        (unless ``/set width N`` chose a width)."""
        self._naws_width = width

    @property
    def address(self) -> str:
        """The peer's IP address (a returning guest is recognised by it)."""
        from protocol.connection.guard import peer_host
        return peer_host(self)

    def send(self, event: Event) -> None:
        self.deliver(event)

    def quit(self, event: Event) -> None:
        """Say ``event`` and close the connection (``/quit``)."""
        self.disconnect(event)

    # ---- Listener -----------------------------------------------------------------------------
    @classmethod
    def deliver_many(cls, listeners: list[Any], event: Event) -> None:
        """World.bulk_deliver: `deliver(event)` to each of `listeners`. The text-mode sessions
        that get the shared bytes of a lobby event (a crowded room's speech: see `deliver`) get
        them in one `write_shared` loop; anything else (machine mode, a table feed, bots)
        through its own `deliver`. One listener's failure is logged, the others still get it.
        """
        plain: list[Any] = []
        shared = b""
        shared_ctx: Any = None
        for s in listeners:
            try:
                if type(s) is cls and _shared_text[0] is event and not s.json_mode \
                        and s._feed is None and s.state != "closed":
                    ctx = s.render_context
                    if not plain and _shared_text[1] is ctx:
                        # this event's bytes in this context, whatever comes later
                        shared, shared_ctx = _shared_text[2], ctx
                        plain.append(s)
                        continue
                    if ctx is shared_ctx:
                        plain.append(s)
                        continue
                s.deliver(event)            # the first text-mode one renders the shared bytes
            except Exception:
                log.failure("delivering {event_type} failed", event_type=event.type)
        if plain:
            try:
                write_shared(plain, shared)
            except Exception:
                log.failure("delivering {event_type} failed", event_type=event.type)

    def deliver(self, event: Event) -> None:
        if _shared_text[0] is event and not self.json_mode and self._feed is None \
                and self.state != "closed" and _shared_text[1] is self.render_context:
            # the lobby event the previous text-mode listener got (a crowded room's speech):
            # the same bytes, with nothing else to decide (see below)
            self._write(_shared_text[2])
            return
        if self.state == "closed" or self.transport is None:
            return
        if event.type in ERRORS:                    # an error line: counted by its code
            self.factory.metrics.error(event.type)
        if (self.json_mode or self.gmcp_enabled) and self._machine_deliver(event):
            return                  # machine mode: one JSON object (and GMCP copies)
        lines: list[str] | None = None
        ctx = self.render_context
        if self._feed is not None or event.type.startswith(("table-", "game-")):
            if self._feed is None:
                self._feed = TableFeed(self.user.name if self.user is not None else None)
            lines = self._feed.render(event, ctx.lang, ctx.color, ctx.width)
            if lines is None:
                lines = self._feed.flush() + render(event, ctx.lang, ctx.width)
            elif event.type == "table-timer-warning":
                if self._settings and self._settings.get("bell") == "on":
                    self._write(BELL)                # the move timer's warning: /set bell on
            elif self._feed.ring() and self._settings and self._settings.get("bell") == "on":
                # /set bell on: your turn or your decision begins (text mode only: machine
                # mode has returned above)
                self._write(BELL)
        else:
            # lobby events (speech, arrivals ...) read the same for every text-mode listener
            # with the same render context: rendered and encoded once per event and context,
            # not once per member of a crowded room
            if _shared_text[0] is event and _shared_text[1] is ctx:
                data = _shared_text[2]
            else:
                rendered = render(event, ctx.lang, ctx.width)
                if event.type in RAW_TEXT:        # its header line wrapped, the rest raw
                    rendered = wrap_lines(rendered[:1], ctx.width) + rendered[1:]
                else:
                    rendered = wrap_lines(rendered, ctx.width)
                data = b"".join(encode_text(line) + b"\r\n" for line in rendered)
                if _memo.ON:
                    _shared_text[0], _shared_text[1], _shared_text[2] = event, ctx, data
            self._write(data)      # what TelnetLineProtocol.sendLine writes for each line
            return
        if lines:
            self._send_lines(wrap_lines(lines, ctx.width))

    def sendLine(self, line: str) -> None:
        """Text mode: ``line`` wrapped to the connection's width (protocol/render/wrap.py); machine
        mode: see MachineMode.sendLine."""
        if self.json_mode:
            super().sendLine(line)
            return
        for piece in wrap_line(line, self.render_context.width):
            TelnetLineProtocol.sendLine(self, piece)

    def sendPrompt(self, prompt: str) -> None:
        """A prompt wider than the connection's width is wrapped, its end (``name: ``) kept
        whole on the last line, which has no line end (protocol/render/wrap.py)."""
        if not self.json_mode:
            *head, prompt = wrap_prompt(prompt, self.render_context.width)
            for line in head:
                TelnetLineProtocol.sendLine(self, line)
        super().sendPrompt(prompt)

    def disconnect(self, event: Event) -> None:
        if self.state == "closed":
            return
        self.deliver(event)
        self._close()

    def _close(self) -> None:
        self.state = "closed"
        self._queue = None
        if self.transport is not None:
            self.endCompression()        # MCCP2: the stream ends properly before the close
            self.transport.loseConnection()
            if not self._lost and self._abort_call is None:
                self._abort_call = self.world.clock.callLater(CLOSE_GRACE, self._abort)

    def _abort(self) -> None:
        self._abort_call = None
        if self._lost or self.transport is None:
            return
        log.info("connection from {peer} did not drain in {seconds} s after closing; aborted",
                 peer=self._peer(), seconds=CLOSE_GRACE)
        abort = getattr(self.transport, "abortConnection", None)
        if abort is not None:
            abort()

    # ---- connection -------------------------------------------------------------------------
    def connectionMade(self) -> None:
        guard = self.factory.guard
        limits = guard.limits if guard is not None else None
        delay = limits.greeting_delay if limits is not None else 0.0
        if getattr(self.transport, "carries_messages", False):
            # a WebSocket (protocol/web): no telnet offers ever; greeted in machine mode when
            # its first message comes (the switch `%json`, or any other line: switched first)
            self._messages = True
            self._hold_offer = True
            self._offered = True
            delay = 0.0
        if delay > 0:
            self._hold_offer = True      # not even IAC WILL GMCP before the first bytes
        super().connectionMade()
        if limits is not None:
            if limits.max_subnegotiation != self.MAX_SUBNEGOTIATION_BYTES:
                self.MAX_SUBNEGOTIATION_BYTES = limits.max_subnegotiation
            if limits.max_gmcp_supports != self.MAX_GMCP_SUPPORTS:
                self.MAX_GMCP_SUPPORTS = limits.max_gmcp_supports
        self.factory.sessions.add(self)
        self.factory.metrics.connection()
        if self._log_allowed("connect"):
            log.info("connection from {peer}", peer=self._peer())
        if guard is not None:
            self._guard = guard.connection_made(self)
            if self._guard is None:  # refused (too many connections): told and closing
                return
        if self._messages:
            return
        if delay > 0:
            # The greeting waits for the client's first bytes (at most `delay` seconds): an
            # HTTP request or a TLS ClientHello then gets its own protocol's answer as the very
            # first bytes (protocol.telnet.sniff), while a telnet user who sends nothing is greeted
            # when the time is up. Time from the injected clock.
            self._greet_call = guard.clock.callLater(delay, self._greet)
            return
        self._greet()

    def _greet(self) -> None:
        """The first output of a connection: the GMCP offer, greeting, message of the day and
        the login prompt (once)."""
        if self._messages:
            self._greet_machine("")
            return
        call, self._greet_call = self._greet_call, None
        if call is not None and call.active():
            call.cancel()
        if self._greeted or self.state == "closed":
            return
        self._greeted = True
        self.offerOptions()
        self.deliver(Event("greeting", protocols=list(PROTOCOL_VERSIONS)))
        if self.factory.motd:
            self.deliver(Event("motd", text=self.factory.motd))
        self._prompt()

    def _greet_machine(self, line: str) -> None:
        """The first line over a WebSocket: the switch to machine mode answers it (`%json`) or
        comes before it is read (any other line), so everything sent is JSON."""
        if self._greeted or self.state == "closed":
            return
        self._greeted = True
        if line.strip().split(" ")[0] != JSON_SWITCH:
            self._switch_before_login("")

    def message_refused(self, event: Event) -> None:
        """A WebSocket message that is no line (line ends inside it, not UTF-8) is refused with
        ``event``; it counts toward flood control like a line."""
        if self.state == "closed":
            return
        if not self._greeted:
            self._greet_machine("")
        if self._guard is not None and not self._guard.line_received():
            self.factory.metrics.flood_drop("line")
            return
        self._answer_aside("", event)

    @property
    def refuses_passwords(self) -> bool:
        """No password may be sent over this connection (a WebSocket without TLS from an
        address that is not loopback, protocol/web): log-ins with one, /register and /password
        are refused with `password-needs-tls` before the password is asked or used."""
        return self._messages and bool(getattr(self.transport, "refuses_passwords", False))

    def connectionLost(self, reason: Failure | None = None) -> None:
        self._lost = True
        self.state = "closed"
        if self._greet_call is not None:
            if self._greet_call.active():
                self._greet_call.cancel()
            self._greet_call = None
        if self._abort_call is not None:
            if self._abort_call.active():
                self._abort_call.cancel()
            self._abort_call = None
        self._queue = None
        self.factory.sessions.discard(self)
        if self._guard is not None:
            self._guard.connection_lost()
        user, self.user = self.user, None
        if user is not None and not user.registered and "lang" in self.settings:
            self.world.keep_guest_language(user.name, self.settings["lang"])
        if user is not None and self.world.logout(user, self):
            if self._log_allowed("disconnect"):
                log.info("{user} logged out", user=user.name)
            if user.registered:
                self.store.touch(user.name, self.world.clock.seconds()).addErrback(
                    lambda f: log.failure("recording last seen of {user}", f, user=user.name))
        super().connectionLost(reason)
        waiters, self._waiters = self._waiters, None
        for d in waiters or ():
            d.callback(None)

    def dataReceived(self, data: bytes) -> None:
        self._chunks += 1
        guard = self._guard
        if guard is not None and not guard.bytes_received(len(data)):
            return              # over the byte budget: dropped unparsed (protocol.connection.guard)
        if guard is not None and guard.prefix is not None:
            # the first bytes: another protocol (HTTP, TLS, SSH) is answered once and closed
            filtered = self._guard.filter_bytes(data)
            if not filtered:
                return           # answered and closing, or held back until more bytes came
            data = filtered
        # the client spoke first (and not HTTP, TLS or SSH): greeted before its first line is
        # read, but after the telnet negotiation its bytes begin with (a window size told at
        # once, NAWS, is the width of the greeting already)
        super().dataReceived(data)
        if not self._greeted and self.state != "closed":
            self._greet()

    def _log_allowed(self, kind: str) -> bool:
        """Whether a log line of ``kind`` this client caused is written: the first few of each
        minute per address group are, the others only counted (lobby/world/log_budget.py)."""
        from lobby.world.addresses import address_group
        return self.world.log_budget.allow(address_group(self.address), kind)

    def _peer(self) -> str:
        try:
            peer = self.transport.getPeer()
            return f"{getattr(peer, 'host', peer)}:{getattr(peer, 'port', '')}"
        except Exception:
            return "?"

    # ---- hooks of the telnet layer --------------------------------------------------------------
    def lineTooLong(self, length: int) -> None:
        if not self._greeted and self.state != "closed":
            self._greet()
        # (its id, if any, went with the line: never the id of a command still running)
        self._answer_aside("", error_event("line-too-long", length=length,
                                           limit=self.MAX_LINE_BYTES))
        self._prompt()

    def subnegotiationReceived(self, option: int) -> bool:
        # GMCP and every other subnegotiation count toward flood control like lines
        if self.state == "closed":
            return False
        if self._guard is None or self._guard.subnegotiation_received():
            return True
        self.factory.metrics.flood_drop("subnegotiation")
        return False

    def telnetCommandsReceived(self, count: int) -> bool:
        # every telnet command counts against the connection's budget (protocol.connection.guard)
        if self.state == "closed":
            return False
        return self._guard is None or self._guard.telnet_commands(count)

    def clientIdentified(self) -> None:
        # TTYPE/MTTS told the client's name and abilities: one log line, and the cards in colour
        # for a client that announced ANSI colour (unless /set color was given already)
        if self._log_allowed("client"):
            log.info("{peer} uses {client}", peer=self._peer(), client=self.client_description())
        if self.announces_color and "color" not in self.settings:
            self.settings["color"] = "on"

    def outputOverflow(self) -> None:
        # the telnet layer logs it and aborts the connection right after this hook
        self.state = "closed"
        self._queue = None

    def lineReceived(self, line: str) -> None:
        if not self._greeted and self.state != "closed":
            if self._messages:
                self._greet_machine(line)
            else:
                self._greet()    # the first line of a client that spoke first
        if self.state == "closed":
            return
        if self._guard is not None and not self._guard.line_received():
            self.factory.metrics.flood_drop("line")
            return  # flood control dropped the line (the first one got a warning)
        if self._refused_chunk == self._chunks and self.state in _LOGIN_STATES:
            line = _TypedAhead(line)      # in the same segment as a refusal at the log-in
        if self._busy:
            if self._queue is None:
                self._queue = deque()
            if len(self._queue) >= MAX_QUEUED_LINES:
                self._answer_aside(line, error_event("busy"))
            else:
                self._queue.append(line)
            return
        self._run(line)

    # ---- running one line ----------------------------------------------------------------------
    def _run(self, line: str) -> None:
        command_line = self._command_begins(line)  # machine mode: the #ID; %json before login
        if command_line is None:
            return
        line = command_line
        try:
            result = self._handle(line)
        except LobbyError as e:
            self._refused(e)
            self._command_ends()
            return
        except Exception:
            log.failure("handling a line in state {state}", state=self.state)
            self._refused(LobbyError("internal-error"))
            self._command_ends()
            return
        if result is None:
            self._command_ends()
            return
        self._busy = True
        d: Deferred[Any] = ensureDeferred(result)
        d.addErrback(self._failed)
        d.addBoth(self._finished)

    def _failed(self, failure: Failure) -> None:
        if failure.check(LobbyError):
            self._refused(failure.value)
        else:
            log.failure("handling a line in state {state}", failure, state=self.state)
            self._refused(LobbyError("internal-error"))

    def _finished(self, _: Any) -> None:
        self._command_ends()
        self._busy = False
        while self._queue and not self._busy and self.state != "closed":
            self._run(self._queue.popleft())

    def _refused(self, error: LobbyError) -> None:
        if self.state in _LOGIN_STATES and not self.json_mode:
            # a refusal at the log-in: the lines typed ahead behind the refused one (a password
            # after a mistyped or banned name) are dropped unseen (see _login): those already
            # here (queued, or later in the same TCP segment) always, those still on their way
            # within --typeahead-after-refusal seconds
            self._refused_at = self.world.clock.seconds()
            self._refused_chunk = self._chunks
            if self._queue:
                self._queue = deque(_TypedAhead(q) for q in self._queue)
        self.deliver(error_event(error.code, **error.params))
        self._prompt()

    def _prompt(self) -> None:
        if self.state == "login":
            self.sendPrompt(text("login-prompt", self.lang))
        elif self.state == "password":
            self.sendPrompt(text("password-prompt", self.lang))
        elif self.state == "confirm":
            self.sendPrompt(text("guest-confirm", self.lang, name=self._guest_name))
        elif self.state == "seat-key":
            self.sendPrompt(text("seat-key-prompt", self.lang))

    def _handle(self, line: str) -> Any:
        if self.state == "active":
            return self._active_line(line)
        if self.state == "login":
            return self._login(line)
        if self.state == "password":
            return self._password(line)
        if self.state == "confirm":
            return self._confirm(line)
        if self.state == "seat-key":
            return self._seat_key(line)
        return None

    # ---- login -----------------------------------------------------------------------------------
    def _login(self, line: str) -> Any:
        name = line.strip()
        if type(line) is _TypedAhead or self._refused_at is not None:
            if type(line) is _TypedAhead or (self.world.clock.seconds() - self._refused_at
                                              < self._refusal_window()):
                # typed ahead of a refusal at the log-in (bad-name, reserved-name, banned,
                # address-banned, too-many-guests, wrong-password ...): it may be the password
                # that followed a refused name, so it is never a name, never shown, never logged
                self.deliver(Event("typed-ahead-dropped"))
                self._prompt()
                return None
            self._refused_at = None
        if name == MSSP_REQUEST:       # a MUD listing's crawler: the MSSP table as plain text
            self.sendText(self.mssp_plain_reply())
            self._prompt()
            return None
        if not name or name.lower() == "guest":
            self._enter(self.world.free_guest_name(), registered=False)
            return None
        words = name.lower().split()
        if len(words) == 3 and words[0] == "/set" and words[1] in ("lang", "language", "sprache"):
            # the greeting suggests /set lang: taken at the login: prompt too, which then
            # asks for the name again in that language
            if words[2] not in LANGUAGES:
                raise LobbyError("unknown-language", value=name.split()[2],
                                 choices=one_of(LANGUAGES))
            self.settings["lang"] = words[2]
            self.deliver(Event("setting", name="lang", value=words[2]))
            self._prompt()
            return None
        try:
            check_name(name)
        except LobbyError as e:
            # a guest (Guest1234) coming back to the seat a running game holds for them
            if e.code != "reserved-name" or not self._ask_seat_key(name):
                raise
            return None
        return self._lookup(name)

    async def _lookup(self, name: str) -> None:
        account = await self.store.get_account(name)
        if self.state != "login":
            return
        if account is None:
            if self._ask_seat_key(name):    # a running game holds a guest seat for it
                return
            if self.json_mode:      # a program: the guest name logs in at once
                self._enter(name, registered=False)
                return
            # type-ahead safety (as on FICS): a mistyped registered name must not take the
            # password typed after it as the first line in the lobby (speech to everybody).
            # Only an empty line enters as the guest; any other line is another name.
            guard = self.factory.guard
            if guard is not None:
                guard.may_enter(self, name, False)   # banned, too many guests: say so now
            self._guest_name = name
            self._confirm_asked = self.world.clock.seconds()
            self.state = "confirm"
            self._prompt()
            return
        if self.refuses_passwords:   # asked for, the password would travel unencrypted
            raise LobbyError("password-needs-tls")
        self._account = account
        self.state = "password"
        self.setPasswordMode(True)
        self._prompt()

    def _confirm(self, line: str) -> Any:
        """The answer to ``"NAME" is not a registered name. Press Enter ...``: an empty line
        enters as the guest NAME; any other line is dropped unseen (never a name, never spoken,
        shown to anyone or logged): within ``typeahead_window`` of the question the question
        follows again, later the ``login:`` prompt, for another name."""
        if line.strip():
            # never taken as a name here: it may be a password typed ahead for the name that was
            # mistyped. Typed before the question could be read: dropped and the question asked
            # again; typed later: dropped too, and another name is typed at a fresh login: prompt
            self.deliver(Event("typed-ahead-dropped"))
            if not self._typed_ahead():
                self._guest_name = None
                self.state = "login"
            self._prompt()
            return None
        name, self._guest_name = self._guest_name, None
        self.state = "login"
        if line.strip() or name is None:
            return self._login(line) if line.strip() else None
        self._enter(name, registered=False)
        return None

    def _typed_ahead(self) -> bool:
        """A line that reached the confirmation within ``typeahead_window`` seconds of the
        question (queued behind the name, or in flight while the question travelled)."""
        return self.world.clock.seconds() - self._confirm_asked < self._typeahead_window()

    def _refusal_window(self) -> float:
        guard = self.factory.guard
        return guard.limits.typeahead_after_refusal if guard is not None else 0.0

    def _typeahead_window(self) -> float:
        guard = self.factory.guard
        return guard.limits.typeahead_window if guard is not None else TYPEAHEAD_WINDOW

    async def _password(self, line: str) -> None:
        account, self._account = self._account, None
        self.setPasswordMode(False)
        self.sendLine("")  # the client did not echo the Return of the hidden line
        assert account is not None
        guard = self.factory.guard
        try:
            # LobbyError too-many-attempts / too-many-attempts-here / account-wait: no hash run
            attempt = self.password_attempt(account.name, "login")
        except LobbyError:
            self.state = "login"
            raise
        try:
            verdict = await self.accounts.check(line.strip(), account.password_hash)
        except Exception:
            attempt.failed()
            if self.state == "password":   # back to the login prompt, not a password prompt
                self.state = "login"       # without an account behind it
            raise
        if not verdict.ok:
            attempt.failed()
        else:
            attempt.succeeded()
        if self.state != "password":
            return
        self.state = "login"
        if not verdict.ok:
            self._failures += 1
            if self._log_allowed("login-failure"):
                log.info("wrong password for {user} from {peer} ({failures} of {limit})",
                         user=account.name, peer=self._peer(), failures=self._failures,
                         limit=MAX_LOGIN_FAILURES)
            if self._failures >= MAX_LOGIN_FAILURES:
                self.disconnect(error_event("too-many-failures"))
                return
            if guard is not None:
                await guard.failure_delay()  # a pause after each wrong password
            raise LobbyError("wrong-password")
        if account.language in LANGUAGES:      # the language the account chose (/set lang)
            self.settings["lang"] = account.language
        self._enter(account.name, registered=True)
        if verdict.needs_rehash:
            self._upgrade_hash(account.name, line.strip())

    # ---- a guest's seat: the reconnect key (lobby/tables/seats.py) ---------------------------------------
    def _ask_seat_key(self, name: str) -> bool:
        """A running game holds a seat for the guest ``name``: ask for its reconnect key the way
        a password is asked (echo off); False when no seat is held for the name."""
        held = self.world.guest_seats(name)
        online = self.world.online(name)
        if not held or (online is not None and not self.world.keyless_namesake(online)):
            return False                                        # online: name-in-use
        first = held[0]
        self._seat_name = name
        self.state = "seat-key"
        self.deliver(Event("seat-key-asked" if any(h.reserved for h in held)
                           else "seat-key-asked-late", name=first.name, table=first.table))
        self.setPasswordMode(True)
        self._prompt()
        return True

    async def _seat_key(self, line: str) -> None:
        """The reconnect key for the guest seat of ``_seat_name``: the right key logs in with
        the seat; a wrong one is a failed log-in attempt like a wrong password; an empty line
        goes back to ``login:`` while the seat is reserved, and after the grace time logs in
        under the name without the seat."""
        name, self._seat_name = self._seat_name, None
        self.setPasswordMode(False)
        self.sendLine("")  # the client did not echo the Return of the hidden line
        self.state = "login"
        assert name is not None
        key = line.strip()
        if not key:
            held = self.world.guest_seats(name)
            reserved = [h for h in held if h.reserved]
            if reserved:
                raise LobbyError("seat-held", name=reserved[0].name, table=reserved[0].table)
            check_name(name)          # a drawn guest name (Guest1234) only comes back with a key
            self._enter(name, registered=False)
            return
        # LobbyError too-many-attempts / too-many-attempts-here / account-wait: counted as a
        # password attempt for the name (per connection, per address, per name)
        attempt = self.password_attempt(name, "login")
        if any(h.proved for h in self.world.guest_seats(name, key)):
            attempt.succeeded()
            lang = self.world.guest_language(name)
            if lang in LANGUAGES and "lang" not in self.settings:   # the language they had chosen
                self.settings["lang"] = lang
            self._enter(name, registered=False, key=key)
            return
        attempt.failed()
        self._failures += 1
        if self._log_allowed("login-failure"):
            log.info("wrong seat key for {user} from {peer} ({failures} of {limit})", user=name,
                     peer=self._peer(), failures=self._failures, limit=MAX_LOGIN_FAILURES)
        if self._failures >= MAX_LOGIN_FAILURES:
            self.disconnect(error_event("too-many-failures"))
            return
        await self.failure_delay()   # a pause after each wrong key, as after a wrong password
        raise LobbyError("wrong-seat-key")

    def _upgrade_hash(self, name: str, password: str) -> None:
        """After a successful log-in with a hash of an older scheme or older costs: store a
        hash with the current parameters (in the background; a failure is only logged)."""
        async def upgrade() -> None:
            new_hash = await self.accounts.hash(password)
            await self.store.set_password(name, new_hash)
            log.info("the password hash of {user} was upgraded", user=name)

        Deferred.fromCoroutine(upgrade()).addErrback(
            lambda f: log.failure("upgrading the password hash of {user}", f, user=name))

    # ---- password work (log-in, /register, /password): protocol.connection.guard counts it -----------------
    def password_attempt(self, account: str | None, kind: str) -> Any:
        """A protocol.connection.guard.Attempt for one password check or hash of ``kind`` (login,
        register, password) for ``account``; LobbyError (a rate-limit code) when the guard's
        limits refuse it -- before any hash runs."""
        if self.refuses_passwords:
            raise LobbyError("password-needs-tls")
        guard = self.factory.guard
        if guard is None:
            from protocol.connection.guard import Attempt
            return Attempt(None, kind, None, 0.0, None, None)
        return guard.password_attempt(self, account, kind)

    def failure_delay(self) -> "Deferred[None]":
        """The pause after a wrong password (protocol.connection.guard's login_failure_delay)."""
        guard = self.factory.guard
        if guard is None:
            from twisted.internet.defer import succeed
            return succeed(None)
        return guard.failure_delay()

    def speech_allowed(self, channel: str, text: str) -> bool:
        """The speech budget of this connection's address group for ``channel`` (a room, the
        tells to one recipient; protocol.connection.guard): False drops the line, LobbyError
        ``speech-budget`` / ``repeated-line`` refuses it."""
        guard = self._guard
        return guard is None or guard.speech(channel, text)

    def registration_attempt(self) -> Any:
        """A protocol.connection.guard.Registration (``cancel()`` it when no account was made), or
        LobbyError too-many-registrations."""
        guard = self.factory.guard
        if guard is None:
            from protocol.connection.guard import Registration
            return Registration(None, 0.0)
        return guard.registration_attempt(self)

    def _enter(self, name: str, registered: bool, key: str | None = None) -> None:
        guard = self.factory.guard
        if guard is not None:
            guard.may_enter(self, name, registered)  # LobbyError banned / too-many-guests
        # LobbyError name-in-use / seat-held; ``key``: a guest's reconnect key
        user = self.world.login(name, self, registered, key=key)
        self.user = user
        if guard is not None and not registered:
            guard.note_guest(self, user.name)   # its reconnect key: known at this address
        self.state = "active"
        self.factory.metrics.login(registered)
        self._failures = 0
        if self._log_allowed("login"):
            log.info("{user} logged in from {peer} ({kind})", user=user.name, peer=self._peer(),
                     kind="registered" if registered else "guest")
        self.deliver(Event("logged-in" if registered else "logged-in-guest", name=user.name))
        if registered:
            self.store.touch(user.name, self.world.clock.seconds()).addErrback(
                lambda f: log.failure("recording last seen of {user}", f, user=name_key(name)))
        self.world.returning(user)  # a player of a running game: back into the seat
        self._announce_room()       # machine mode / GMCP: the room now, not with the next line

    # ---- commands and speech ----------------------------------------------------------------------
    def _active_line(self, line: str) -> Any:
        parsed = parse_line(line, self.commands)
        if parsed is None or self.user is None:
            return None
        if parsed.command is None:
            room = self.user.room
            if room is not None and not self.speech_allowed(f"room {room.number}", parsed.text):
                return None         # over the speech budget (protocol.connection.guard): dropped
            self.world.say(self.user, parsed.text)
            return None
        command = parsed.command
        guard = self._guard
        if guard is not None and command.cost > 1 \
                and not guard.command_cost(command.cost, command.name):
            return None       # over the budget of work: told (protocol.connection.guard), nothing run
        self._timing = (command.name, self.world.clock.seconds())
        return command.handler(self, parsed.args)

    def _command_ends(self) -> None:
        super()._command_ends()
        timing = self._timing
        if timing is not None:      # a command ran (or was refused): counted, with its time
            self._timing = None
            self.factory.metrics.command(timing[0], self.world.clock.seconds() - timing[1])
