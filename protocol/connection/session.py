"""One connection, composed of parts: the log-in state machine, then commands and speech, and
event delivery.

The log-in is an explicit state machine (`State` objects, one place for each prompt, the
transitions in `State.next`): ``login`` (a ``login:`` prompt) -> ``password`` (for a registered
name, echo off) or, in text mode, ``confirm`` (an unregistered name: an empty line enters as that
guest, any other line is another name) or ``seat-key`` (a guest whose seat a running game holds)
-> ``active`` (commands and speech) -> ``closed``. Lines that arrive while a command is still
working (a database query, a password hash in a thread) wait in a short queue and run in order.

The parts (docs/architecture.md, "The connection, composed of parts"): the byte layer
(negotiation, line framing, UTF-8/Latin-1 decoding, line and output limits) is a
``protocol.telnet.transport.TelnetLineProtocol`` whose application this is, with one handler object per
telnet option; the output mode is a ``protocol.connection.machine`` TextOutput or JsonOutput; what every
connection shares is the declared ``Services``; the guard is asked through
``protocol.connection.guard.GuardedConnection``. This class only sees clean lines.
"""
from __future__ import annotations

import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from twisted.internet.defer import Deferred, ensureDeferred
from twisted.internet.protocol import Protocol
from twisted.logger import Logger
from twisted.python.failure import Failure

from lobby.events import Event, error_event
from lobby.storage.accounts import check_name, name_key
from lobby.storage.store import Account
from lobby.text.messages import LANGUAGES, LobbyError, one_of, text
from protocol.commands import COMMANDS, CommandTable, parse_line
from protocol.connection.machine import (
    JSON_SWITCH,
    JsonOutput,
    TextOutput,
    _shared_text,
    channel_list,
    switch_before_login,
)
from protocol.render.context import DEFAULT_CONTEXT, RenderContext, clamp_height, clamp_width
from protocol.render.json_lines import DEFAULT_PROTOCOL, PROTOCOL_VERSIONS
from protocol.render.table import TableFeed
from protocol.telnet.gathered_write import write_shared
from protocol.telnet.options import (
    MSSP_REQUEST,
    CharsetOption,
    Mccp2Option,
    MsspOption,
    TtypeOption,
)
from protocol.telnet.transport import (
    NAWS,
    EchoOption,
    EorOption,
    GmcpOption,
    NawsOption,
    SgaOption,
    TelnetLineProtocol,
    TelnetOption,
)

if TYPE_CHECKING:
    from lobby.storage.accounts import Accounts
    from lobby.storage.store import Store
    from lobby.world.world import User, World
    from protocol.connection.guard import ConnectionGuard, Guard
    from protocol.connection.machine import Metrics
    from protocol.telnet.options import TelnetOptions

__all__ = ["Session", "Services", "MAX_LOGIN_FAILURES", "MAX_QUEUED_LINES", "CLOSE_GRACE"]


@dataclass(eq=False)
class Services:
    """What every connection of one server reads, declared in one place: the world it speaks to,
    the store and the password hashing, the guard (limits, flood control, timers; None: no
    defences), the metrics, the MUD options' facts, the greeting's message of the day and the
    default language, and the set of open connections. Built once by the composition root
    (protocol.process.server.LobbyFactory) and handed to each connection when it is made; a connection
    never reads the factory."""

    world: World
    store: Store
    accounts: Accounts
    guard: Guard | None
    metrics: Metrics
    telnet_options: TelnetOptions
    #: the message of the day sent after the greeting ("": none; a config reload may change it)
    motd: str = ""
    #: the language of a connection that chose none (--lang; /set lang, an account's own)
    lang: str = "en"
    #: the open connections (the metrics count them; the server closes them at shutdown)
    sessions: set[Any] = field(default_factory=set)

MAX_LOGIN_FAILURES = 3
MAX_QUEUED_LINES = 16
#: seconds after the guest confirmation in which a non-empty line counts as typed ahead
TYPEAHEAD_WINDOW = 1.0
#: seconds a closing connection may take to send what is still buffered before it is aborted (a
#: peer that stopped reading would otherwise keep it, and the user online, forever)
CLOSE_GRACE = 30.0

log = Logger(namespace="protocol.connection.session")


# ---- the states of a connection: the log-in as an explicit state machine ---------------------
class State:
    """One state of a connection: its name, its prompt (one place for each) and what a line
    does in it. The states are stateless singletons; what a state works on (the account whose
    password is asked, the guest name to confirm) is the connection's."""

    __slots__ = ()
    name: ClassVar[str] = ""
    #: a state of the log-in: a refusal in it makes the lines typed ahead behind it void, and a
    #: line there names no command
    logging_in: ClassVar[bool] = False
    #: the connection still reads lines and is told events (False: closed)
    open: ClassVar[bool] = True
    #: the log-in timer (protocol.connection.guard, --login-timeout) closes a connection still in it
    timed: ClassVar[bool] = False
    #: what machine mode's `prompt` object calls this state's prompt
    prompt_kind: ClassVar[str] = "login"
    #: a first line `%json` here switches to machine mode
    takes_json_switch: ClassVar[bool] = False
    #: a line here is a command or speech (logged in)
    takes_commands: ClassVar[bool] = False
    #: the states this one may go to (the transition table, checked by Session._go)
    next: ClassVar[tuple[str, ...]] = ()

    def prompt(self, session: Session) -> str | None:
        """The text of this state's prompt in the connection's language (None: no prompt)."""
        return None

    def handle(self, session: Session, line: str) -> Any:
        """One line in this state: None, or an awaitable the connection waits for."""
        return None

    def __repr__(self) -> str:
        return f"<state {self.name}>"


class AskName(State):
    """``login:``: a name (registered: its password; unregistered: confirmed in text mode), or
    an empty line / ``guest`` for a drawn guest name."""

    __slots__ = ()
    name = "login"
    logging_in = timed = takes_json_switch = True
    next = ("login", "password", "confirm", "seat-key", "active", "closed")

    def prompt(self, session: Session) -> str | None:
        return text("login-prompt", session.lang)

    def handle(self, session: Session, line: str) -> Any:
        return session._login(line)


class AskPassword(State):
    """The password of a registered name (echo off)."""

    __slots__ = ()
    name = prompt_kind = "password"
    logging_in = timed = True
    next = ("login", "closed")

    def prompt(self, session: Session) -> str | None:
        return text("password-prompt", session.lang)

    def handle(self, session: Session, line: str) -> Any:
        return session._password(line)


class ConfirmGuest(State):
    """Text mode, an unregistered name: an empty line enters as that guest."""

    __slots__ = ()
    name = "confirm"
    logging_in = timed = True
    next = ("login", "closed")

    def prompt(self, session: Session) -> str | None:
        return text("guest-confirm", session.lang, name=session._guest_name)

    def handle(self, session: Session, line: str) -> Any:
        return session._confirm(line)


class AskSeatKey(State):
    """A running game holds a seat for this guest name: its reconnect key (echo off)."""

    __slots__ = ()
    name = prompt_kind = "seat-key"
    logging_in = True
    next = ("login", "closed")

    def prompt(self, session: Session) -> str | None:
        return text("seat-key-prompt", session.lang)

    def handle(self, session: Session, line: str) -> Any:
        return session._seat_key(line)


class Active(State):
    """Logged in: commands and speech."""

    __slots__ = ()
    name = "active"
    takes_commands = True
    next = ("closed",)

    def handle(self, session: Session, line: str) -> Any:
        return session._active_line(line)


class Closed(State):
    """Closed (or closing): nothing is read or told any more."""

    __slots__ = ()
    name = "closed"
    open = False
    next = ("closed",)


LOGIN, PASSWORD, CONFIRM, SEAT_KEY, ACTIVE, CLOSED = (
    AskName(), AskPassword(), ConfirmGuest(), AskSeatKey(), Active(), Closed())
#: every state by its name
STATES: dict[str, State] = {s.name: s for s in (LOGIN, PASSWORD, CONFIRM, SEAT_KEY, ACTIVE,
                                                 CLOSED)}


class _TypedAhead(str):
    """A line that was already received when a line before it was refused at the log-in."""

    __slots__ = ()



class Session(Protocol):
    """The wire side of one user: implements lobby.events.Listener (deliver, disconnect).

    Composed of parts, none of them a base class: the byte layer `telnet` (a
    TelnetLineProtocol whose application this is, with one handler per telnet option: GMCP,
    MSSP, MCCP2, CHARSET, TTYPE, NAWS, ECHO, SGA), the output mode `output` (TextOutput or
    JsonOutput), the log-in state `login_state` (a State) and the declared `services`. It is
    the Twisted protocol of its socket (or of a WebSocket's MessageTransport) and hands the
    bytes to its byte layer."""

    commands: CommandTable = COMMANDS

    # Per-connection state starts as these class defaults (an idle connection stores little).
    #: where the log-in is (State); `state` is its name
    login_state: State = LOGIN
    #: the version of machine mode's objects this connection reads (`%json N`, `/iset protocol
    #: N`; kept in text mode too, for a later switch)
    protocol: int = DEFAULT_PROTOCOL
    _room_seen: Any = None            # (number, name) of the last room announced
    user: User | None = None
    _account: Account | None = None  # the account whose password is being asked
    _guest_name: str | None = None  # state "confirm": the unregistered name to confirm
    _confirm_asked: float = 0.0     # ... asked at this clock time (lines before: typed ahead)
    _refused_at: float | None = None  # when a line at the log-in was last refused (type-ahead)
    _refused_chunk: int = -1        # ... in the TCP segment of this number
    _chunks: int = 0                # TCP segments received
    _seat_name: str | None = None  # the guest name whose seat's reconnect key is being asked
    _seat_lang: str | None = None  # the language that guest had chosen (the key prompt's, issue 26)
    _failures: int = 0
    _busy: bool = False
    _queue: deque[str] | None = None  # created only when a line has to wait
    _waiters: list[Deferred[None]] | None = None
    _lost: bool = False
    settings_chosen: dict[str, str] | None = None  # /set (per connection, never saved)
    feed: TableFeed | None = None  # created with the first table event
    #: whether the card legend was shown (at the first deal): a registered name's account keeps
    #: it (``legend_seen``), a guest is shown it once per connection
    legend_seen: bool = False
    #: flood control, timers (protocol.connection.guard; set at connect)
    _guard: ConnectionGuard | None = None
    _abort_call: Any = None  # the abort of a closing connection that does not drain
    _greet_call: Any = None  # the greeting's timer while it waits for the first bytes
    #: the greeting text's timer while it waits for the client's window size (NAWS)
    _naws_call: Any = None
    _greeted: bool = False
    _greeting_told: bool = False   # the greeting's text (after the offers and NAWS) was sent
    _timing: Any = None   # (command name, start) of the command running now, for the metrics
    _naws_width: int = 0  # the client's window width (telnet NAWS; 0: not told)
    _naws_height: int = 0  # the client's window height in rows (telnet NAWS; 0: not told)
    #: the transport carries messages, not a byte stream (a WebSocket, protocol/web): no telnet
    #: negotiation, machine mode from the first line on, and one line per message
    _messages: bool = False

    def __init__(self, services: Services) -> None:
        self.services = services
        #: the output mode: TextOutput, or JsonOutput in machine mode (replaced on a switch)
        self.output: TextOutput | JsonOutput = TextOutput(self)
        #: the byte layer (framing, IAC, charset) and its option handlers, this its application
        self.telnet = TelnetLineProtocol(self, self._telnet_options)
        self.gmcp: GmcpOption = self.telnet.gmcp

    def _telnet_options(self, telnet: TelnetLineProtocol) -> list[TelnetOption]:
        """One handler per telnet option, in the order of their offers (WILL GMCP, WILL MSSP,
        WILL MCCP2, WILL CHARSET, DO TTYPE, DO NAWS: a telnet client's width, every text line
        wrapped to it)."""
        config = self.services.telnet_options
        self.mssp = MsspOption(telnet, config)
        self.mccp = Mccp2Option(telnet, config)
        self.ttype = TtypeOption(telnet)
        return [GmcpOption(telnet, core=True), self.mssp, self.mccp, CharsetOption(telnet), self.ttype,
                NawsOption(telnet), EchoOption(telnet), SgaOption(telnet), EorOption(telnet)]

    @property
    def state(self) -> str:
        """The name of the connection's state (``login``, ``password``, ``confirm``,
        ``seat-key``, ``active``, ``closed``)."""
        return self.login_state.name

    def _go(self, state: State) -> None:
        """The one place the state changes, along the transition table (State.next)."""
        if state.name not in self.login_state.next:
            raise RuntimeError(f"no transition from {self.login_state.name} to {state.name}")
        self.login_state = state

    # ---- switching the output mode ----------------------------------------------------------
    def set_json_mode(self, on: bool) -> None:
        """`/iset json 1|0`: switch this connection; the answer comes in the new mode."""
        if on and not isinstance(self.output, JsonOutput):
            self.output = JsonOutput(self)
        elif not on and isinstance(self.output, JsonOutput):
            self.deliver(Event("iset", name="json", value="0"))   # the last JSON line
            self.output = TextOutput(self)
            return
        if on:
            self.deliver(Event("iset", name="json", value="1", protocol=self.protocol))
        else:
            self.deliver(Event("iset", name="json", value="0"))

    @property
    def rows(self) -> int:
        """The rows of the client's window (telnet NAWS, else 24): a page of a long answer."""
        return clamp_height(self._naws_height)

    def next_page(self) -> bool:
        """``/next``: the next page of the last long answer (text mode); False when none is
        left (machine mode pages nothing)."""
        return self.output.next_page()

    def set_protocol(self, version: int) -> None:
        """`/iset protocol N`: the version of the objects this connection reads from now on (in
        text mode too, for a later switch); the next view of a table comes as a whole `state`."""
        self.protocol = version
        self.output.forget_view()
        self.deliver(Event("iset", name="protocol", value=str(version), protocol=version))

    def when_closed(self) -> Deferred[None]:
        """A Deferred that fires when the connection is closed."""
        d: Deferred[None] = Deferred()
        if self._lost:
            d.callback(None)
        else:
            self._waiters = (self._waiters or []) + [d]
        return d

    # ---- what handlers use ------------------------------------------------------------------
    @property
    def world(self) -> World:
        return self.services.world

    @property
    def store(self) -> Store:
        return self.services.store

    @property
    def accounts(self) -> Accounts:
        return self.services.accounts

    @property
    def settings(self) -> dict[str, str]:
        """This connection's settings (``/set color on``); only ``lang`` is saved, for a
        registered name (protocol/commands/base.py)."""
        if self.settings_chosen is None:
            self.settings_chosen = {}
        return self.settings_chosen

    @property
    def color(self) -> bool:
        return self.settings_chosen is not None and self.settings_chosen.get("color") == "on"

    @property
    def render_context(self) -> RenderContext:
        """What the text this connection gets depends on (its settings: ``color``, ``lang``,
        ``width``, else the NAWS width); the key of every cache of rendered bytes, with the
        event."""
        settings = self.settings_chosen
        naws = self._naws_width
        if not settings and not naws:
            lang = self._seat_lang or self.services.lang
            return DEFAULT_CONTEXT if lang == "en" else RenderContext.of(lang)
        if settings is None:
            settings = {}
        width = settings.get("width")
        return RenderContext.of(settings.get("lang") or self._seat_lang or self.services.lang,
                                settings.get("color") == "on",
                                int(width) if width else clamp_width(naws))

    @property
    def lang(self) -> str:
        """The language of everything this connection is told: ``/set lang``, else the
        account's, else the server's ``--lang``."""
        settings = self.settings_chosen
        return ((settings.get("lang") if settings else None) or self._seat_lang
                or self.services.lang)

    def windowSizeChanged(self, width: int, height: int) -> None:
        """Telnet NAWS: the client's window is ``width`` columns wide (0: unknown), told at
        negotiation and again on every resize; the text is wrapped to it from the next line on
        (unless ``/set width N`` chose a width)."""
        self._naws_width = width
        self._naws_height = height
        if self._naws_call is not None:
            self._greet_text()     # the greeting waited for this width

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
        that get the shared bytes of a lobby event (a crowded room's speech: see
        TextOutput.deliver) get them in one `write_shared` loop; anything else (machine mode, a
        table feed, bots) through its own `deliver`. One listener's failure is logged, the
        others still get it.
        """
        plain: list[Any] = []
        shared = b""
        shared_ctx: Any = None
        for s in listeners:
            try:
                # a text-mode listener without a table feed: the bytes TextOutput.deliver
                # would write (inline: this loop runs once per member of a crowded room)
                # (not a GMCP client: it may get a copy of its own, Comm.Channel.Text)
                # (_shared_text's parts: (event, context), empty while the memos are off)
                parts = _shared_text.parts
                if type(s) is cls and parts and parts[0] is event and type(s.output) is TextOutput \
                        and s.feed is None and s.login_state.open and not s.gmcp.enabled \
                        and not s.telnet.after_prompt:
                    ctx = s.render_context
                    if not plain and parts[1] is ctx:
                        # this event's bytes in this context, whatever comes later
                        shared, shared_ctx = _shared_text.value, ctx
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
                write_shared([s.telnet for s in plain], shared)
            except Exception:
                log.failure("delivering {event_type} failed", event_type=event.type)

    def deliver(self, event: Event) -> None:
        """One event, in the connection's output mode."""
        self.output.deliver(event)

    def legend_shown(self) -> None:
        """The card legend has just been shown (text mode, at a deal): not again, and a
        registered name's account keeps that."""
        self.legend_seen = True
        user = self.user
        if user is not None and user.registered:
            self.services.store.set_legend_seen(user.name).addErrback(
                lambda f: log.failure("saving that {user} saw the legend", f, user=user.name))

    def sendLine(self, line: str) -> None:
        """A line in the output mode: wrapped to the width (text), a `text` object (machine)."""
        self.output.line(line)

    def offer_eor(self) -> None:
        """``/set prompt on``: telnet EOR offered to the client (its prompts end with IAC EOR
        once it agrees); the output mode decides (nothing in machine mode)."""
        self.output.offer_eor()

    def sendPrompt(self, prompt: str) -> None:
        """A prompt in the output mode (text: without line end; machine: a `prompt` object)."""
        self.output.prompt(prompt)

    def setPasswordMode(self, hidden: bool) -> None:
        """Hidden input (a password): telnet ECHO in text mode, nothing to negotiate in
        machine mode."""
        self.output.hide_input(hidden)

    def cleanLine(self, text: str) -> str:
        return self.output.clean(text)

    # ---- what the guard asks and tells (protocol.connection.guard.GuardedConnection) --------------------
    @property
    def is_open(self) -> bool:
        return self.login_state.open

    @property
    def awaiting_login(self) -> bool:
        return self.login_state.timed

    @property
    def active_user(self) -> str | None:
        user = self.user
        return user.name if user is not None and self.login_state is ACTIVE else None

    @property
    def user_name(self) -> str | None:
        user = self.user
        return user.name if user is not None else None

    def answer_aside(self, event: Event) -> None:
        """Tell `event` outside the command now running (flood control, a budget: never with
        the id of that command in machine mode)."""
        self.output.aside("", event)

    def refuse(self, line: str | None) -> None:
        """Refused at connect (too many connections): `line`, and closed; None: closed at
        once without a word (past --refusals-per-minute)."""
        if line is not None:
            self.sendLine(line)
        self._go(CLOSED)
        if self.transport is not None:          # (always: refused at connect)
            self.transport.loseConnection()

    def answer_foreign(self, data: bytes) -> None:
        """Another protocol's client (HTTP, TLS, SSH): `data` as it is, and closed."""
        self._go(CLOSED)
        transport = self.transport
        if transport is not None:               # (always: answered on its first bytes)
            transport.write(data)
            transport.loseConnection()

    def disconnect(self, event: Event) -> None:
        if not self.login_state.open:
            return
        self.deliver(event)
        self._close()

    def _close(self) -> None:
        self._go(CLOSED)
        self._queue = None
        if self.transport is not None:
            self.mccp.end()              # MCCP2: the stream ends properly before the close
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
        guard = self.services.guard
        limits = guard.limits if guard is not None else None
        delay = limits.greeting_delay if limits is not None else 0.0
        if getattr(self.transport, "carries_messages", False):
            # a WebSocket (protocol/web): no telnet offers ever; greeted in machine mode when
            # its first message comes (the switch `%json`, or any other line: switched first)
            self._messages = True
            self.telnet.never_offer()
            delay = 0.0
        if delay > 0:
            self.telnet.hold_offers()   # not even IAC WILL GMCP before the first bytes
        telnet = self.telnet
        assert self.transport is not None       # (makeConnection set it before calling this)
        telnet.makeConnection(self.transport)
        if limits is not None:
            if limits.max_subnegotiation != telnet.MAX_SUBNEGOTIATION_BYTES:
                telnet.MAX_SUBNEGOTIATION_BYTES = limits.max_subnegotiation
            self.gmcp.max_supports = limits.max_gmcp_supports
        self.services.sessions.add(self)
        self.services.metrics.connection()
        if self._log_allowed("connect"):
            log.info("connection from {peer}", peer=self._peer())
        if guard is not None:
            self._guard = guard.connection_made(self)
            if self._guard is None:  # refused (too many connections): told and closing
                return
        if self._messages:
            return
        if delay > 0 and guard is not None:     # (a delay comes from the guard's limits)
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
        if self._greeted or not self.login_state.open:
            return
        self._greeted = True
        self.telnet.offerOptions()
        guard = self.services.guard
        wait = guard.limits.naws_wait if guard is not None else 0.0
        if wait > 0 and guard is not None and self._naws_width == 0 and self.output.waits_for_naws and (
                self.telnet.optionPending(NAWS, local=False)
                or self.telnet.optionEnabled(NAWS, local=False)):
            # the offers asked DO NAWS: a telnet client answers within one round trip, so
            # the greeting text waits for its width (or its refusal, or a line it types) at
            # most --naws-wait seconds, and is drawn at that width, not at 80 columns; a
            # client that never negotiates (netcat) is greeted when the time is up
            self._naws_call = guard.clock.callLater(wait, self._greet_text)
            return
        self._greet_text()

    def _greet_text(self) -> None:
        """The greeting, message of the day and login prompt (once), after the offers."""
        call, self._naws_call = self._naws_call, None
        if call is not None and call.active():
            call.cancel()
        if self._greeting_told or not self.login_state.open:
            return
        self._greeting_told = True
        self.deliver(Event("greeting", protocols=list(PROTOCOL_VERSIONS)))
        if self.services.motd:
            self.deliver(Event("motd", text=self.services.motd))
        self.show_prompt()

    def _naws_settled(self) -> None:
        """The greeting text waits for NAWS: told now if the client refused it."""
        if self._naws_call is not None and not self.telnet.optionPending(NAWS, local=False) \
                and not self.telnet.optionEnabled(NAWS, local=False):
            self._greet_text()

    def _greet_machine(self, line: str) -> None:
        """The first line over a WebSocket: the switch to machine mode answers it (`%json`) or
        comes before it is read (any other line), so everything sent is JSON."""
        if self._greeted or not self.login_state.open:
            return
        self._greeted = True
        if line.strip().split(" ")[0] != JSON_SWITCH:
            switch_before_login(self, "")

    def message_refused(self, event: Event) -> None:
        """A WebSocket message that is no line (line ends inside it, not UTF-8) is refused with
        ``event``; it counts toward flood control like a line."""
        if not self.login_state.open:
            return
        if not self._greeted:
            self._greet_machine("")
        if self._guard is not None and not self._guard.line_received():
            self.services.metrics.flood_drop("line")
            return
        self.output.aside("", event)

    @property
    def refuses_passwords(self) -> bool:
        """No password may be sent over this connection (a WebSocket without TLS from an
        address that is not loopback, protocol/web): log-ins with one, /register and /password
        are refused with `password-needs-tls` before the password is asked or used."""
        return self._messages and bool(getattr(self.transport, "refuses_passwords", False))

    def connectionLost(self, reason: Failure | None = None) -> None:
        self._lost = True
        self._go(CLOSED)
        for name in ("_greet_call", "_naws_call"):
            call = getattr(self, name)
            if call is not None:
                if call.active():
                    call.cancel()
                setattr(self, name, None)
        if self._abort_call is not None:
            if self._abort_call.active():
                self._abort_call.cancel()
            self._abort_call = None
        self._queue = None
        self.services.sessions.discard(self)
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
        self.telnet.connectionLost(reason)
        waiters, self._waiters = self._waiters, None
        for d in waiters or ():
            d.callback(None)
        self._unlink()

    def _unlink(self) -> None:
        """Closed: the parts that point back at this session (its output, its guard) point
        weakly from now on, so reference counting frees it at once, with no cycle left for the
        collector, which --gc-freeze-survivors holds off until the hourly thaw (outside finding
        W1). A late call still reaches the session while anything holds it."""
        this = weakref.proxy(self)
        output = self.output
        if getattr(output, "session", None) is self:
            output.session = this
        guard = self._guard
        if guard is not None:
            guard.session = this

    def stream_bytes(self, count: int) -> bool:
        """``count`` bytes arrived below a WebSocket (protocol/web counts them before they are
        parsed): False when they are over the byte budget; the session is closed with
        ``input-flood-disconnect``, and the caller drops the connection below at once."""
        guard = self._guard
        if guard is None or guard.stream_bytes(count):
            return True
        if self.login_state.open:
            self.deliver(error_event("input-flood-disconnect"))
            self._go(CLOSED)
        return False

    def dataReceived(self, data: bytes) -> None:
        self._chunks += 1
        guard = self._guard
        # (a WebSocket's bytes were counted below it, as they came: stream_bytes)
        if guard is not None and not self._messages and not guard.bytes_received(len(data)):
            return              # over the byte budget: dropped unparsed (protocol.connection.guard)
        if guard is not None and guard.prefix is not None:
            # the first bytes: another protocol (HTTP, TLS, SSH) is answered once and closed
            filtered = guard.filter_bytes(data)
            if not filtered:
                return           # answered and closing, or held back until more bytes came
            data = filtered
        # the client spoke first (and not HTTP, TLS or SSH): greeted before its first line is
        # read, but after the telnet negotiation its bytes begin with (a window size told at
        # once, NAWS, is the width of the greeting already)
        self.telnet.dataReceived(data)
        if not self._greeted and self.login_state.open:
            self._greet()
        elif self._naws_call is not None:
            self._naws_settled()

    def logAllowed(self, kind: str) -> bool:
        """TelnetApp: the byte layer's and its options' log lines spend the same budget."""
        return self._log_allowed(kind)

    def _log_allowed(self, kind: str) -> bool:
        """Whether a log line of ``kind`` this client caused is written: the first few of each
        minute per address group are, the others only counted (lobby/world/log_budget.py)."""
        from lobby.world.addresses import address_group
        return self.world.log_budget.allow(address_group(self.address), kind)

    def _peer(self) -> str:
        transport = self.transport
        if transport is None:
            return "?"
        try:
            peer = transport.getPeer()
            return f"{getattr(peer, 'host', peer)}:{getattr(peer, 'port', '')}"
        except Exception:
            return "?"

    # ---- hooks of the telnet layer --------------------------------------------------------------
    def lineTooLong(self, length: int) -> None:
        if not self._greeted and self.login_state.open:
            self._greet()
        if self._naws_call is not None:
            self._greet_text()
        # (its id, if any, went with the line: never the id of a command still running)
        self.output.aside("", error_event("line-too-long", length=length,
                                           limit=self.telnet.MAX_LINE_BYTES))
        self.show_prompt()

    def subnegotiationReceived(self, option: int) -> bool:
        # GMCP and every other subnegotiation count toward flood control like lines
        if not self.login_state.open:
            return False
        if self._guard is None or self._guard.subnegotiation_received():
            return True
        self.services.metrics.flood_drop("subnegotiation")
        return False

    def ping_received(self) -> bool:
        """A WebSocket ping: it spends a token of flood control like a subnegotiation (no
        activity for the idle timer); False: dropped (not answered), counted toward the kick."""
        if not self.login_state.open:
            return False
        if self._guard is None or self._guard.subnegotiation_received(ping=True):
            return True
        self.services.metrics.flood_drop("ping")
        return False

    def frames_received(self, count: int) -> bool:
        """WebSocket frames that carry no line (protocol/web): the guard's telnet-commands
        budget; False: over it (the guard warns, then closes)."""
        if not self.login_state.open:
            return False
        return self._guard is None or self._guard.frames_received(count)

    def telnetCommandsReceived(self, count: int) -> bool:
        # every telnet command counts against the connection's budget (protocol.connection.guard)
        if not self.login_state.open:
            return False
        return self._guard is None or self._guard.telnet_commands(count)

    def client_description(self) -> str | None:
        """What the client told of itself (TTYPE/MTTS), for the user's own /finger."""
        return self.ttype.description()

    def gmcpReceived(self, package: str, data: object) -> None:
        """A GMCP message of a package the GMCP option does not answer itself (not Core.*), and
        Core.Supports.* once the option has remembered it: `Comm.Channel.List` (asked, or
        Comm.Channel listed by Core.Supports.Set/Add) is answered with the channels; anything
        else is ignored silently."""
        name = package.lower()
        if name == "comm.channel.list" or (
                name in ("core.supports.set", "core.supports.add")
                and isinstance(data, list) and self.gmcp.listed("Comm.Channel")
                and any(isinstance(item, str) and item.lower().startswith("comm.channel")
                        for item in data)):
            self.gmcp.send("Comm.Channel.List", channel_list(self.render_context.lang))

    def clientIdentified(self) -> None:
        # TTYPE/MTTS told the client's name and abilities: one log line, and the cards in colour
        # for a client that announced ANSI colour (unless /set color was given already)
        if self._log_allowed("client"):
            log.info("{peer} uses {client}", peer=self._peer(), client=self.ttype.description())
        if self.ttype.announces_color and "color" not in self.settings:
            self.settings["color"] = "on"

    def outputOverflow(self) -> None:
        # the telnet layer logs it and aborts the connection right after this hook
        self._go(CLOSED)
        self._queue = None

    def lineReceived(self, line: str) -> None:
        if not self._greeted and self.login_state.open:
            if self._messages:
                self._greet_machine(line)
            else:
                self._greet()    # the first line of a client that spoke first
        if self._naws_call is not None:
            self._greet_text()   # a line typed while the greeting waited for NAWS
        if not self.login_state.open:
            return
        if self._guard is not None and not self._guard.line_received():
            self.services.metrics.flood_drop("line")
            return  # flood control dropped the line (the first one got a warning)
        if self._refused_chunk == self._chunks and self.login_state.logging_in:
            line = _TypedAhead(line)      # in the same segment as a refusal at the log-in
        if self._busy:
            if self._queue is None:
                self._queue = deque()
            if len(self._queue) >= MAX_QUEUED_LINES:
                self.output.aside(line, error_event("busy"))
            else:
                self._queue.append(line)
            return
        self._run(line)

    # ---- running one line ----------------------------------------------------------------------
    def _run(self, line: str) -> None:
        # the line answers the prompt before it (typed ahead and run only now: the prompt
        # came after it was typed), so what it gives goes on after that prompt as ever
        self.telnet.after_prompt = False
        command_line = self.output.begin(line)  # machine mode: the #ID; %json before login
        if command_line is None:
            return
        line = command_line
        try:
            result = self._handle(line)
        except LobbyError as e:
            self._refused(e)
            self.command_ends()
            return
        except Exception:
            log.failure("handling a line in state {state}", state=self.state)
            self._refused(LobbyError("internal-error"))
            self.command_ends()
            return
        if result is None:
            self.command_ends()
            return
        self._busy = True
        d: Deferred[Any] = ensureDeferred(result)
        d.addErrback(self._failed)
        d.addBoth(self._finished)

    def _failed(self, failure: Failure) -> None:
        error = failure.value
        if isinstance(error, LobbyError):
            self._refused(error)
        else:
            log.failure("handling a line in state {state}", failure, state=self.state)
            self._refused(LobbyError("internal-error"))

    def _finished(self, _: Any) -> None:
        self.command_ends()
        self._busy = False
        while self._queue and not self._busy and self.login_state.open:
            self._run(self._queue.popleft())

    def _refused(self, error: LobbyError) -> None:
        if self.login_state.logging_in and self.output.drops_typed_ahead:
            # a refusal at the log-in: the lines typed ahead behind the refused one (a password
            # after a mistyped or banned name) are dropped unseen (see _login): those already
            # here (queued, or later in the same TCP segment) always, those still on their way
            # within --typeahead-after-refusal seconds
            self._refused_at = self.world.clock.seconds()
            self._refused_chunk = self._chunks
            if self._queue:
                self._queue = deque(_TypedAhead(q) for q in self._queue)
        self.deliver(error_event(error.code, **error.params))
        self.show_prompt()

    def show_prompt(self) -> None:
        """The prompt of the state the connection is in (its State's, the one place each prompt
        is chosen; none when logged in)."""
        prompt = self.login_state.prompt(self)
        if prompt is not None:
            self.sendPrompt(prompt)

    def _handle(self, line: str) -> Any:
        return self.login_state.handle(self, line)

    # ---- login -----------------------------------------------------------------------------------
    def _login(self, line: str) -> Any:
        name = line.strip()
        refused_at = self._refused_at
        if type(line) is _TypedAhead or refused_at is not None:
            if type(line) is _TypedAhead or (refused_at is not None and self.world.clock.seconds()
                                              - refused_at < self._refusal_window()):
                # typed ahead of a refusal at the log-in (bad-name, reserved-name, banned,
                # address-banned, too-many-guests, wrong-password ...): it may be the password
                # that followed a refused name, so it is never a name, never shown, never logged
                self.deliver(Event("typed-ahead-dropped"))
                self.show_prompt()
                return None
            self._refused_at = None
        if name == MSSP_REQUEST:       # a MUD listing's crawler: the MSSP table as plain text
            self.telnet.sendText(self.mssp.plain_reply())
            self.show_prompt()
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
            self.show_prompt()
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
        if self.login_state is not LOGIN:
            return
        if account is None:
            if self._ask_seat_key(name):    # a running game holds a guest seat for it
                return
            if not self.output.confirms_guests:   # a program: the guest name logs in at once
                self._enter(name, registered=False)
                return
            # type-ahead safety (as on FICS): a mistyped registered name must not take the
            # password typed after it as the first line in the lobby (speech to everybody).
            # Only an empty line enters as the guest; any other line is another name.
            guard = self.services.guard
            if guard is not None:
                guard.may_enter(self, name, False)   # banned, too many guests: say so now
            self._guest_name = name
            self._confirm_asked = self.world.clock.seconds()
            self._go(CONFIRM)
            self.show_prompt()
            return
        if self.refuses_passwords:   # asked for, the password would travel unencrypted
            raise LobbyError("password-needs-tls")
        self._account = account
        self._go(PASSWORD)
        self.setPasswordMode(True)
        self.show_prompt()

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
                self._go(LOGIN)
            self.show_prompt()
            return None
        name, self._guest_name = self._guest_name, None
        self._go(LOGIN)
        if line.strip() or name is None:
            return self._login(line) if line.strip() else None
        self._enter(name, registered=False)
        return None

    def _typed_ahead(self) -> bool:
        """A line that reached the confirmation within ``typeahead_window`` seconds of the
        question (queued behind the name, or in flight while the question travelled)."""
        return self.world.clock.seconds() - self._confirm_asked < self._typeahead_window()

    def _refusal_window(self) -> float:
        guard = self.services.guard
        return guard.limits.typeahead_after_refusal if guard is not None else 0.0

    def _typeahead_window(self) -> float:
        guard = self.services.guard
        return guard.limits.typeahead_window if guard is not None else TYPEAHEAD_WINDOW

    async def _password(self, line: str) -> None:
        account, self._account = self._account, None
        self.setPasswordMode(False)
        self.sendLine("")  # the client did not echo the Return of the hidden line
        assert account is not None
        guard = self.services.guard
        try:
            # LobbyError too-many-attempts / too-many-attempts-here / account-wait: no hash run
            attempt = self.password_attempt(account.name, "login")
        except LobbyError:
            self._go(LOGIN)
            raise
        try:
            verdict = await self.accounts.check(line.strip(), account.password_hash)
        except Exception:
            attempt.failed()
            if self.login_state is PASSWORD:   # back to the login prompt, not a password
                self._go(LOGIN)                # prompt without an account behind it
            raise
        if not verdict.ok:
            attempt.failed()
        else:
            attempt.succeeded()
        if self.login_state is not PASSWORD:
            return
        self._go(LOGIN)
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
        moderation = self.world.moderation
        if moderation is not None:             # the role as the account row has it now
            moderation.logged_in(account.name, account.role)
        if account.language in LANGUAGES:      # the language the account chose (/set lang)
            self.settings["lang"] = account.language
        self.legend_seen = account.legend_seen
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
        kept = self.world.guest_language(name, keep=True)
        self._seat_lang = kept if kept in LANGUAGES else None
        self._go(SEAT_KEY)
        self.deliver(Event("seat-key-asked" if any(h.reserved for h in held)
                           else "seat-key-asked-late", name=first.name, table=first.table))
        self.setPasswordMode(True)
        self.show_prompt()
        return True

    async def _seat_key(self, line: str) -> None:
        """The reconnect key for the guest seat of ``_seat_name``: the right key logs in with
        the seat; a wrong one is a failed log-in attempt like a wrong password; an empty line
        goes back to ``login:`` while the seat is reserved, and after the grace time logs in
        under the name without the seat."""
        name, self._seat_name = self._seat_name, None
        self._seat_lang = None
        self.setPasswordMode(False)
        self.sendLine("")  # the client did not echo the Return of the hidden line
        self._go(LOGIN)
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
        held = self.world.guest_seats(name)
        raise LobbyError("wrong-seat-key", name=held[0].name if held else name)

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
        guard = self.services.guard
        if guard is None:
            from protocol.connection.guard import Attempt
            return Attempt(None, kind, None, 0.0, None, None)
        return guard.password_attempt(self, account, kind, self._guard)

    def failure_delay(self) -> Deferred[None]:
        """The pause after a wrong password (protocol.connection.guard's login_failure_delay)."""
        guard = self.services.guard
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

    def table_change(self, command: str, name: str, forced: bool = False) -> None:
        """The world: this connection's user is about to tell a table's people something
        without a table command (leaving a seat at a waiting table by ``command``: /room,
        /newroom, /lobby, or a disconnect, ``forced``): it spends the one budget of table
        changes (protocol.connection.guard ``table_change``; LobbyError ``table-budget``
        refuses a move, a disconnect is only counted)."""
        guard = self._guard
        if guard is not None:
            guard.table_change(command, forced, name)

    def registration_attempt(self) -> Any:
        """A protocol.connection.guard.Registration (``cancel()`` it when no account was made), or
        LobbyError too-many-registrations."""
        guard = self.services.guard
        if guard is None:
            from protocol.connection.guard import Registration
            return Registration(None, 0.0)
        return guard.registration_attempt(self)

    def _enter(self, name: str, registered: bool, key: str | None = None) -> None:
        guard = self.services.guard
        if guard is not None:
            guard.may_enter(self, name, registered)  # LobbyError banned / too-many-guests
        # LobbyError name-in-use / seat-held; ``key``: a guest's reconnect key
        user = self.world.login(name, self, registered, key=key)
        self.user = user
        if guard is not None and not registered:
            guard.note_guest(self, user.name)   # its reconnect key: known at this address
        self._go(ACTIVE)
        self.services.metrics.login(registered)
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
        parsed = parse_line(line, self.commands, self)
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
        cost = command.price(self.world) if command.cost != 1 else 1
        if guard is not None and cost > 1 and not guard.command_cost(cost, command.name):
            return None       # over the budget of work: told (protocol.connection.guard), nothing run
        if guard is not None and command.notices and self.user.room is not None \
                and self.user.room.table is not None and command.tells_table(parsed.args):
            guard.table_change(command.name)    # LobbyError table-budget: refused, nothing run
        self._timing = (command.name, self.world.clock.seconds())
        return command.handler(self, parsed.args)

    def command_ends(self) -> None:
        """After a line ran: `Room.Info` (and machine mode's `room`) if the room changed, the
        output mode's end of the command (machine mode's `ok`), and its time in the metrics."""
        self._announce_room()
        self.output.end()
        timing = self._timing
        if timing is not None:      # a command ran (or was refused): counted, with its time
            self._timing = None
            self.services.metrics.command(timing[0], self.world.clock.seconds() - timing[1])

    def _announce_room(self) -> None:
        user = self.user
        room = user.room if user is not None else None
        if room is None:
            return
        key = (room.number, room.name)
        if key == self._room_seen:
            return
        self._room_seen = key
        feed = self.feed
        if feed is not None and room.table is None:
            feed.forget()                 # text mode: left the table; coming back shows it whole
        table = room.number if room.table is not None else None
        if self.gmcp.wants("Room"):
            self.gmcp.send("Room.Info", {"num": room.number, "name": room.name, "table": table})
        self.output.room(room, table)      # machine mode: forgets the view of a table left
