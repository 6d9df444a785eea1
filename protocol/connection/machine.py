"""The output modes of one connection: text (`TextOutput`) or machine mode (`JsonOutput`).

A connection (protocol.connection.session.Session) holds one output mode object and hands it everything that
depends on the mode: events to deliver, stray lines, prompts, hidden input, the cleaning of a line
and the begin and end of each command. Switching (`%json`, `/iset json 1|0`) replaces the object;
no flag is checked anywhere else.

Machine mode (`/iset json 1`, or a first line `%json` before the login) is a property of the
connection, never saved. The client names the version of the objects it reads (`%json 3`, or
`/iset protocol 3` at any time); a client that names none gets protocol 1 (a whole `state` after
every change, `names` in every `game-*` event), which is what clients written before the versions
expect (render_json.PROTOCOL_VERSIONS says what each version changed). In machine mode every
line the server writes is exactly one JSON object with a `type` (protocol/render/json_lines.py):
events, errors, prompts (as `prompt` objects with a line end, never a bare prompt, never IAC GA)
and the replies below.

Command ids: in machine mode a line may start with `#ID ` (1 to 32 letters, digits, `-`, `_`).
Every non-blank line gets exactly one reply object, which carries `"id": ID` when the line had
one: the answer itself (an event of render_json.REPLY_TYPES addressed to this connection while
the command runs: `who`, `help`, `table-info`...), or the `error` that refused it, or else
`{"type": "ok", "command": NAME}` when the command is done (its effects, such as `game-play` and
`state`, arrive as events). A malformed `#ID` is refused with the error `bad-id`.

GMCP (telnet option 201, when the client agreed), in either mode: the same objects are also sent
as GMCP messages: `Tichu.State` (each `state`), `Tichu.Event` (each table and game event) and
`Room.Info` (`{"num", "name", "table"}`) whenever the user enters a room (`gmcp_copies`,
`Session._announce_room`); what the client sends is read by the GMCP option
(protocol.telnet.options).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from lobby.events import Event, error_event
from lobby.text.messages import ERRORS, text
from lobby.tichu import memo as _memo
from protocol.render.json_lines import (
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    REPLY_TYPES,
    WHOLE,
    dumps,
    for_protocol,
    is_table_event,
    ok_line,
    parse_protocol,
    render_json,
    state_line,
    state_object,
    view_change,
)
from protocol.render.table import TableFeed, card_legend, status_prompt
from protocol.render.text import render
from protocol.render.wrap import wrap_line, wrap_lines, wrap_prompt, wrap_speech
from protocol.telnet.transport import clean_line, encode_text

if TYPE_CHECKING:
    from lobby.world.world import Room, User
    from protocol.render.context import RenderContext
    from protocol.telnet.transport import GmcpOption, TelnetLineProtocol

__all__ = ["TextOutput", "JsonOutput", "Connection", "Metrics", "ID_PATTERN", "JSON_SWITCH",
           "split_id", "gmcp_copies", "switch_before_login", "parse_protocol"]

class Metrics(Protocol):
    """The counters a connection feeds (protocol.process.metrics.ServerMetrics is one)."""

    def connection(self) -> None: ...

    def login(self, registered: bool) -> None: ...

    def error(self, code: str) -> None: ...

    def flood_drop(self, kind: str) -> None: ...

    def command(self, name: str, seconds: float) -> None: ...


class _Services(Protocol):
    @property
    def metrics(self) -> Metrics: ...

    @property
    def motd(self) -> str: ...


class _StateView(Protocol):
    """What an output mode reads of the connection's state (protocol.connection.session.State)."""

    @property
    def name(self) -> str: ...

    @property
    def open(self) -> bool: ...

    @property
    def logging_in(self) -> bool: ...

    @property
    def prompt_kind(self) -> str: ...

    @property
    def takes_json_switch(self) -> bool: ...

    @property
    def takes_commands(self) -> bool: ...


class _Commands(Protocol):
    def resolve(self, word: str) -> Any: ...


class Connection(Protocol):
    """What an output mode needs of its connection (protocol.connection.session.Session is one): its
    byte layer and GMCP option, its user, state, settings and table feed, and its services."""

    #: the version of machine mode's objects the connection reads
    protocol: int
    #: the connection's output mode (a switch replaces it)
    output: TextOutput | JsonOutput
    #: the text-mode view of the table the user is at (made with the first table event)
    feed: TableFeed | None
    #: whether the card legend was shown (text mode, after the first deal)
    legend_seen: bool

    def legend_shown(self) -> None: ...

    @property
    def telnet(self) -> TelnetLineProtocol: ...

    @property
    def gmcp(self) -> GmcpOption: ...

    @property
    def transport(self) -> Any: ...

    @property
    def user(self) -> User | None: ...

    @property
    def login_state(self) -> _StateView: ...

    @property
    def state(self) -> str: ...

    @property
    def services(self) -> _Services: ...

    @property
    def commands(self) -> _Commands: ...

    @property
    def settings_chosen(self) -> dict[str, str] | None: ...

    @property
    def render_context(self) -> RenderContext: ...

    @property
    def rows(self) -> int:
        """The rows of the client's window (telnet NAWS, else 24): the size of a page."""

    @property
    def lang(self) -> str: ...

    def deliver(self, event: Event) -> None: ...

    def sendPrompt(self, prompt: str) -> None: ...

    def show_prompt(self) -> None: ...

    def command_ends(self) -> None: ...


#: events whose text-mode lines are raw, exempt from the wrap rule (docs/protocol.md, "Line
#: width"): /tchlog's lines are the .tch file byte for byte, as /games/GAME.tch serves it
RAW_TEXT = frozenset({"tchlog"})
#: events that carry a person's words: their continuation lines carry the speech mark
#: (protocol/render/wrap.py ``wrap_speech``), so no piece of them can look like a server line
SPEECH = frozenset({"says", "says-namesake", "tells", "told"})
#: the terminal bell (BEL), rung for `/set bell on` when a move or decision waits for you
BELL = b"\x07"

#: a command id: `#ID ` at the start of a line
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: the pre-login line that switches a new connection to machine mode
JSON_SWITCH = "%json"
#: the machine-mode line that asks for the whole `state` of the connection's table again
STATE_REQUEST = "%state"
#: the first characters of a machine-mode line that is a request, not a command or chat: `%`
#: (`%state`), and `{` / `[` (a JSON request: refused, requests are command lines)
REQUEST_MARKS = ("%", "{", "[")

_NO_ID = object()

#: the last event rendered as a JSON line that carries no id, the render context it was
#: rendered for (a `text` field is in the connection's language) and that line: the world hands
#: one Event object to every listener of a table in a row, so it is rendered and encoded once
#: per audience instead of once per connection (events are never changed once delivered).
#: parts (event, context), key the protocol. The hot paths read these memos' fields inline (the
#: same test as LastMemo.get, without a call per listener); their parts are empty while the
#: switch is off, since `put` keeps nothing then.
_shared: _memo.LastMemo[bytes] = _memo.LastMemo()
#: the last `table-view` data and its `state` object, and its `state` line (key the protocol:
#: state_object leaves out the fields of later versions); the last
#: (view data before, view data after) pair and its `update` line (key the protocol): spectators
#: of a table share one view event and, having followed the same changes, the same view before it
_view_memo: _memo.LastMemo[dict[str, Any]] = _memo.LastMemo()
_state_line_memo: _memo.LastMemo[bytes] = _memo.LastMemo()
_update_memo: _memo.LastMemo[bytes] = _memo.LastMemo()
#: the last lobby event rendered for text mode, the render context it was rendered for, and its
#: bytes (see TextOutput.deliver): parts (event, context), everything the text depends on
_shared_text: _memo.LastMemo[bytes] = _memo.LastMemo()


def _view_state(data: dict[str, Any], protocol: int) -> dict[str, Any]:
    """state_object(data, protocol), kept for the listeners of the same view data and version in
    a row (the spectators of one view)."""
    memo = _view_memo
    parts = memo.parts
    if parts and parts[0] is data and memo.key == protocol:
        return memo.value
    state = state_object(data, protocol)
    if _memo.ON:                # = memo.put((data,), state, protocol), without a call per seat
        memo.key, memo.parts, memo.value, memo.one_part = protocol, (data,), state, data
    return state


def _state_bytes(data: dict[str, Any], protocol: int) -> bytes:
    memo = _state_line_memo
    parts = memo.parts
    if parts and parts[0] is data and memo.key == protocol:
        return memo.value
    # = encode_text(line): a JSON line has no raw line break, UTF-8 no 0xFF byte
    return memo.put((data,), state_line(data, protocol).encode("utf-8", "replace") + b"\r\n",
                    protocol)


def _update_bytes(before: dict[str, Any], after: dict[str, Any], protocol: int) -> bytes:
    """The line for a client that holds the `state` of view data ``before``, for ``after``:
    the `update` (`view_change`), or the whole `state` of another table, user or seat; kept
    for the listeners of the same two views and version in a row (the spectators)."""
    memo = _update_memo
    parts = memo.parts
    if parts and parts[0] is before and parts[1] is after and memo.key == protocol:
        return memo.value
    update = view_change(before, after, protocol)
    if update is WHOLE:
        return _state_bytes(after, protocol)
    data = b"" if update is None else dumps(update).encode("utf-8", "replace") + b"\r\n"
    if _memo.ON:                # = memo.put((before, after), data, protocol), without a call
        memo.key, memo.parts, memo.value, memo.one_part = protocol, (before, after), data, \
            _memo.MISSING
    return data


def _without_names(obj: dict[str, Any]) -> dict[str, Any]:
    """A `game-*` object without the seats' names (protocols 2 and 3: the `state` has them)."""
    return {k: v for k, v in obj.items() if k != "names"}


def split_id(line: str) -> tuple[str | None, str]:
    """`#ID rest` -> (ID, rest); a line without `#` -> (None, line). ValueError for a bad id."""
    stripped = line.lstrip()
    if not stripped.startswith("#"):
        return None, line
    word, _, rest = stripped[1:].partition(" ")
    if ID_PATTERN.fullmatch(word) is None:
        raise ValueError(word)
    return word, rest


#: the chat events sent as GMCP Comm.Channel.Text, by their channel (docs/protocol.md, "GMCP")
CHANNELS = {"says": "say", "says-namesake": "say", "tells": "tell", "told": "tell"}


def channel_list(lang: str) -> list[dict[str, str]]:
    """GMCP Comm.Channel.List: the channels of Comm.Channel.Text, with the caption in `lang` and
    the command that talks on each (speech: any line that is no command)."""
    return [{"name": "say", "caption": text("gmcp-channel-say", lang), "command": ""},
            {"name": "tell", "caption": text("gmcp-channel-tell", lang), "command": "/tell"}]


def gmcp_copies(session: Connection, event: Event, ctx: RenderContext) -> dict[str, Any] | None:
    """GMCP (either mode): `Tichu.State` / `Tichu.Event` for a table or game event, and
    `Tichu.Friend` for a friend's news, to a client that agreed to GMCP and wants `Tichu`;
    `Comm.Channel.Text` for speech and whispers to a client that listed `Comm.Channel`. The
    rendered object of a table event (machine mode sends the same as its line), else None."""
    obj: dict[str, Any] | None = None
    etype = event.type
    channel = CHANNELS.get(etype)
    if channel is not None:
        if session.gmcp.listed("Comm.Channel"):
            user = session.user
            talker = (user.name if user is not None else "") if etype == "told" \
                else str(event.data.get("name", ""))
            session.gmcp.send("Comm.Channel.Text", {
                "channel": channel, "talker": talker,
                "text": "\n".join(render(event, ctx.lang, ctx.width))})
        return None
    if (etype.startswith(("table-", "game-"))
            and not event.is_error        # (error codes such as game-running stay lines)
            and session.gmcp.wants("Tichu")):
        protocol = session.protocol       # (older versions: without protocol 4's fields)
        if etype == "table-view":
            obj = state_object(event.data, protocol)
        else:
            obj = for_protocol(render_json(event, ctx.lang), protocol, ctx.lang)
        if obj is not None:           # (None: a type this connection's version does not have)
            session.gmcp.send("Tichu.State" if obj["type"] == "state" else "Tichu.Event", obj)
            if not is_table_event(etype) and obj["type"] != "state":
                obj = None
    if etype.startswith("friend") and session.gmcp.wants("Tichu"):   # friends: Tichu.Friend
        session.gmcp.send("Tichu.Friend", render_json(event, ctx.lang))
    return obj


#: the events whose text comes a page at a time when it is longer than a screen (``/replay``:
#: about 100 lines a round); ``/next`` shows the next page
PAGED = frozenset({"replay"})


class _Pages:
    """The lines of a long answer that are still to come (``/next``)."""

    __slots__ = ("lines", "shown")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.shown = 0


class TextOutput:
    """Text mode: events rendered in the connection's language and wrapped to its width, prompts
    without line end (IAC GA for a telnet client), input hidden with telnet ECHO. A long
    answer (``PAGED``) comes a page at a time, a page the rows of the client's window less
    two (the ``-- more --`` line, and the line one types on); ``/next`` shows the next."""

    __slots__ = ("session", "pages", "status")

    #: a word typed without the slash is a command only when it fits what a person means by
    #: it ("help me" and "play nice" are speech: protocol/commands/bare.py's checks)
    checks_bare_words: ClassVar[bool] = True
    #: the greeting waits (--naws-wait) for the telnet client's width before it is drawn
    waits_for_naws: ClassVar[bool] = True
    #: `/finger` of a bot's name says what the bot is (`finger-bot`)
    describes_bots: ClassVar[bool] = True
    #: `/quit` in a running game warns once before it leaves (the game waits for the player)
    warns_on_quit: ClassVar[bool] = True
    #: the metrics count the user as a bot (tichu_users_online{kind="bot"})
    is_bot_client: ClassVar[bool] = False
    #: a refusal at the log-in makes the lines typed ahead behind it void (a person's
    #: password after a mistyped name; a program sends one line per reply)
    drops_typed_ahead: ClassVar[bool] = True
    #: an unregistered name is confirmed before it enters as a guest (type-ahead safety)
    confirms_guests: ClassVar[bool] = True

    def __init__(self, session: Connection) -> None:
        self.session = session
        #: the rest of the last long answer (``/next``), or None
        self.pages: _Pages | None = None
        #: the last status prompt written (``/set prompt on``)
        self.status: str | None = None

    def deliver(self, event: Event) -> None:
        s = self.session
        parts = _shared_text.parts
        if parts and parts[0] is event and s.feed is None and s.login_state.open \
                and not s.gmcp.enabled and parts[1] is s.render_context:
            # the lobby event the previous text-mode listener got (a crowded room's speech):
            # the same bytes, with nothing else to decide (see below; a GMCP client may get a
            # copy too, Tichu.Friend: it takes the way below, which finds the same bytes)
            s.telnet.write(_shared_text.value)
            return
        if not s.login_state.open or s.transport is None:
            return
        if event.type in ERRORS:                    # an error line: counted by its code
            s.services.metrics.error(event.type)
        ctx = s.render_context
        if s.gmcp.enabled:
            gmcp_copies(s, event, ctx)
        lines: list[str] | None = None
        if event.type in PAGED:
            # a long answer pages whether or not a table was seen before (the table feed,
            # once made, stays: its way pages nothing); what the feed holds comes first
            if s.feed is not None and (held := s.feed.flush()):
                s.telnet.send_lines(wrap_lines(held, ctx.width))
            self._paged(wrap_lines(render(event, ctx.lang, ctx.width), ctx.width))
            return
        if s.feed is not None or event.type.startswith(("table-", "game-")):
            if s.feed is None:
                s.feed = TableFeed(s.user.name if s.user is not None else None)
            lines = s.feed.render(event, ctx.lang, ctx.color, ctx.width)
            if lines is None and event.type in SPEECH:    # speech in a table's room
                s.telnet.send_lines(wrap_lines(s.feed.flush(grand=False), ctx.width)
                                    + wrap_speech(render(event, ctx.lang, ctx.width), ctx.width))
                return
            if lines is None:
                # (a spectator's Grand Tichu decisions wait for the phase's end all the same)
                lines = s.feed.flush(grand=False) + render(event, ctx.lang, ctx.width)
            elif event.type == "table-timer-warning":
                if s.settings_chosen and s.settings_chosen.get("bell") == "on":
                    s.telnet.write(BELL)                # the move timer's warning: /set bell on
            elif s.feed.ring() and s.settings_chosen and s.settings_chosen.get("bell") == "on":
                # /set bell on: your turn or your decision begins (text mode only)
                s.telnet.write(BELL)
        else:
            # lobby events (speech, arrivals ...) read the same for every text-mode listener
            # with the same render context: rendered and encoded once per event and context,
            # not once per member of a crowded room
            memo = _shared_text
            parts = memo.parts
            if parts and parts[0] is event and parts[1] is ctx:
                data = memo.value
            else:
                rendered = render(event, ctx.lang, ctx.width)
                if event.type in SPEECH:
                    rendered = wrap_speech(rendered, ctx.width)
                elif event.type not in RAW_TEXT:    # (raw: as they are, never wrapped)
                    rendered = wrap_lines(rendered, ctx.width)
                data = memo.put((event, ctx), b"".join(encode_text(line) + b"\r\n"
                                                       for line in rendered))
            s.telnet.write(data)      # what TelnetLineProtocol.sendLine writes for each line
            return
        if event.type == "game-deal" and not s.legend_seen and lines:
            lines = [*lines, *card_legend(ctx.lang)]      # once: how to read the cards
            s.legend_shown()
        if lines:
            s.telnet.send_lines(wrap_lines(lines, ctx.width))
        if event.type == "table-view" and s.settings_chosen and s.settings_chosen.get("prompt") == "on":
            status = status_prompt(event.data, ctx.lang, ctx.width)  # /set prompt on (MUD clients)
            # (not the same prompt again while the cursor still stands after it)
            if status is not None and not (s.telnet.after_prompt and status == self.status):
                s.sendPrompt(status)
                self.status = status

    def _paged(self, lines: list[str]) -> None:
        """A long answer: all of it when it fits the window, else its first page."""
        self.pages = None
        if len(lines) < self.session.rows:
            self.session.telnet.send_lines(lines)
            return
        self.pages = _Pages(lines)
        self.next_page()

    def next_page(self) -> bool:
        """The next page of the long answer under way, with a ``-- more --`` line while more
        is left; False when nothing is."""
        pages = self.pages
        if pages is None:
            return False
        s = self.session
        page = pages.lines[pages.shown:pages.shown + max(1, s.rows - 2)]
        pages.shown += len(page)
        total = len(pages.lines)
        if pages.shown < total:
            ctx = s.render_context
            page = [*page, *wrap_line(text("more", ctx.lang, last=pages.shown, total=total),
                                      ctx.width)]
        else:
            self.pages = None
        s.telnet.send_lines(page)
        return True

    def line(self, line: str) -> None:
        """A line wrapped to the connection's width (protocol/render/wrap.py)."""
        s = self.session
        for piece in wrap_line(line, s.render_context.width):
            s.telnet.sendLine(piece)

    def prompt(self, prompt: str) -> None:
        """A prompt wider than the connection's width is wrapped, its end (``name: ``) kept
        whole on the last line, which has no line end (protocol/render/wrap.py)."""
        s = self.session
        *head, prompt = wrap_prompt(prompt, s.render_context.width)
        for line in head:
            s.telnet.sendLine(line)
        s.telnet.sendPrompt(prompt)

    def hide_input(self, hidden: bool) -> None:
        """Password entry: telnet ECHO (the client stops echoing what is typed)."""
        self.session.telnet.setPasswordMode(hidden)

    def offer_eor(self) -> None:
        """``/set prompt on``: telnet EOR offered (a MUD client's prompts end with IAC EOR once
        it agrees)."""
        self.session.telnet.offer_eor()

    def clean(self, text: str) -> str:
        return clean_line(text)

    def begin(self, line: str) -> str | None:
        """Before a line runs: `%json` at the log-in switches to machine mode (None: the line
        is used up)."""
        s = self.session
        if s.login_state.takes_json_switch:
            word, _, version = line.strip().partition(" ")
            if word == JSON_SWITCH:
                switch_before_login(s, version)
                return None
        return line

    def end(self) -> None:
        """After a line ran: nothing more in text mode."""

    def aside(self, line: str, event: Event) -> None:
        """Refuse `line`, which will not run (busy, too long, flooding), with `event`."""
        self.session.deliver(event)

    def room(self, room: Room, table: int | None) -> None:
        """The user entered `room`: text mode says nothing more (the room's own lines do)."""

    def forget_view(self) -> None:
        """Machine mode's held view of a table: text mode holds none."""

    def lacks_objects_of(self, version: int) -> bool:
        """Would an answer made of the objects of protocol `version` not reach this connection?
        Text mode: it always does (the text is rendered from the event)."""
        return False


class JsonOutput:
    """Machine mode: every line one JSON object; the command ids and their replies."""

    __slots__ = ("session", "reply_id", "replied", "command_name", "view_data")

    #: a program's line is a command whenever its arguments bind, as it has always been (bots
    #: send `#a nogrand`, `#a play R5`): the checks for people's speech are not for programs
    checks_bare_words: ClassVar[bool] = False
    #: a program reads the greeting's objects, which have no width: no wait for NAWS
    waits_for_naws: ClassVar[bool] = False
    #: `/finger` of a bot's name: `no-such-user`, as programs have always been answered
    describes_bots: ClassVar[bool] = False
    #: a program's `/quit` leaves at once
    warns_on_quit: ClassVar[bool] = False
    is_bot_client: ClassVar[bool] = True
    drops_typed_ahead: ClassVar[bool] = False
    confirms_guests: ClassVar[bool] = False

    def __init__(self, session: Connection) -> None:
        self.session = session
        self.reply_id: Any = _NO_ID       # the running command's id (None: a line without id)
        self.replied = True               # the running command has had its reply
        self.command_name = ""
        #: the data of the view whose `state` this connection's client holds now (the last
        #: `state` sent with every `update` after it applied: `state_object` of this data);
        #: None: the next view goes out as a whole `state`
        self.view_data: dict[str, Any] | None = None

    # ---- output --------------------------------------------------------------------------------
    def send_json(self, obj: dict[str, Any]) -> None:
        """Write one JSON object as one line."""
        self.session.telnet.sendLine(dumps(obj))

    def line(self, line: str) -> None:
        """A stray text line is wrapped as `{"type": "text"}` (empty lines are dropped), so
        every line stays one JSON object."""
        if line.strip():
            self._emit({"type": "text", "text": line})

    def prompt(self, prompt: str) -> None:
        kind = self.session.login_state.prompt_kind
        self._emit({"type": "prompt", "prompt": kind, "text": prompt.strip()})

    def hide_input(self, hidden: bool) -> None:
        """Nothing but JSON lines: no ECHO negotiation for programs."""
        self.session.telnet.password_mode = hidden

    def offer_eor(self) -> None:
        """Nothing: a prompt is a `prompt` object, not a telnet record."""

    def _emit(self, obj: dict[str, Any], reply: bool = False) -> None:
        """Send `obj`; the first reply-like object of a running command carries its id (`reply`:
        `obj` renders a reply event whatever its type, e.g. the `state` answering `/look`)."""
        if not self.replied and (reply or obj["type"] in ("error", "prompt")
                                 or obj["type"] in REPLY_TYPES):
            self.replied = True
            if self.reply_id is not None and self.reply_id is not _NO_ID:
                obj["id"] = self.reply_id
        self.send_json(obj)

    def deliver(self, event: Event) -> None:
        """The JSON object of `event` (and its GMCP copies)."""
        s = self.session
        if not s.login_state.open or s.transport is None:
            return
        if event.type == "table-view":      # the commonest event (a view is never an error)
            if s.gmcp.enabled:
                gmcp_copies(s, event, s.render_context)
            self._deliver_view(event)
            return
        if event.type in ERRORS:                    # an error line: counted by its code
            s.services.metrics.error(event.type)
        ctx = s.render_context
        protocol = s.protocol
        gmcp = s.gmcp.enabled
        shared = _shared
        parts = shared.parts
        if parts and parts[0] is event and parts[1] is ctx and shared.key == protocol and not gmcp:
            s.telnet.write(shared.value)   # the line of the event for the listener before this one
            return
        obj = gmcp_copies(s, event, ctx) if gmcp else None
        if event.type == "table-look":        # /look: the whole state, with the command's id
            self.view_data = event.data       # what the client holds now: later updates follow it
            self._emit(dict(_view_state(event.data, protocol)), reply=True)
            return
        if not event.is_error and event.type not in REPLY_TYPES:   # never gets an id
            parts = shared.parts
            if parts and parts[0] is event and parts[1] is ctx and shared.key == protocol:
                data = shared.value
            else:
                # protocol 1: the names in every game event; 2 and 3: only in the `state`
                game = protocol >= 2 and event.type.startswith("game-") \
                    and "names" in event.data
                if obj is None:
                    obj = render_json(event, ctx.lang)
                if protocol < PROTOCOL_VERSION:
                    obj = for_protocol(obj, protocol, ctx.lang)
                    if obj is None:             # a type this connection's version does not have
                        return
                line = dumps(_without_names(obj) if game else obj)
                # = encode_text(line): a JSON line has no raw line break, UTF-8 no 0xFF byte
                data = shared.put((event, ctx), line.encode("utf-8", "replace") + b"\r\n",
                                  protocol)
            s.telnet.write(data)          # what TelnetLineProtocol.sendLine writes for the line
            return
        shown: dict[str, Any] | None = obj if obj is not None else render_json(event, ctx.lang)
        if shown is not None and protocol < PROTOCOL_VERSION:
            shown = for_protocol(shown, protocol, ctx.lang)
        if shown is None:                       # a type this connection's version does not have
            return
        self._emit(dict(shown), reply=event.type in REPLY_TYPES)

    def _deliver_view(self, event: Event) -> None:
        """A view of a table in machine mode. Protocols 2 and 3: the whole `state` when the
        client holds none of this table for this seat (it entered, sat down, stood up, came back
        on a new connection), else an `update` with what changed since the state it holds
        (nothing when nothing did). Protocol 1: the whole `state` every time."""
        protocol = self.session.protocol
        data = event.data
        before, self.view_data = self.view_data, data
        if protocol == 1 or before is None:
            self.session.telnet.write(_state_bytes(data, protocol))
            return
        # (the whole state when the view is of another table, user or seat: view_change)
        line = _update_bytes(before, data, protocol)
        if line:
            self.session.telnet.write(line)

    def _send_state(self) -> None:
        """`%state`: the whole state of the table this connection is at, as it holds it now
        (with the line's id); `not-at-table` if it is at none."""
        held = self.view_data
        user = self.session.user
        room = user.room if user is not None else None
        if (held is None or room is None or room.table is None
                or held.get("table") != room.number):
            self.session.deliver(error_event("not-at-table"))
            return
        obj = dict(_view_state(held, self.session.protocol))
        if self.reply_id is not None and self.reply_id is not _NO_ID:
            obj["id"] = self.reply_id
        self.replied = True
        self.send_json(obj)

    # ---- one command ---------------------------------------------------------------------------
    def clean(self, text: str) -> str:
        """The `#ID` word of a line is split off before BS and DEL erase and other control
        characters are dropped, and only the rest is cleaned: a control character never changes
        which id a reply carries (`#c1 \\x7f0` is the command `0` with the id `c1`; a control
        character inside the id word makes it a `bad-id`)."""
        stripped = text.lstrip(" ")
        if not stripped.startswith("#"):
            return clean_line(text)
        word, space, rest = stripped.partition(" ")
        return word + space + clean_line(rest)

    def begin(self, line: str) -> str | None:
        """Before a line runs: its id. None when the line is used up here."""
        if not line.strip():
            return line          # a blank line gets no reply
        try:
            reply_id, rest = split_id(line)
        except ValueError as e:
            self.reply_id, self.replied = None, False
            self.session.deliver(error_event("bad-id", id=str(e)))
            self.reply_id, self.replied = _NO_ID, True
            return None
        self.reply_id = reply_id
        self.replied = False
        if self.session.login_state.takes_commands:
            request = rest.strip()
            if request[:1] in REQUEST_MARKS:
                self._refuse_request(request)
                return None
        self.command_name = self._name_of(rest)
        return rest

    def _refuse_request(self, request: str) -> None:
        """A line of machine mode that is not a command: `%state` (the whole state), another
        `%` word (`unknown-request`), or a JSON object or list (`json-request`: requests are
        command lines). None of them is ever chat."""
        word, _, args = request.partition(" ")
        deliver = self.session.deliver
        if word == STATE_REQUEST:
            self.command_name = "state"
            if args.strip():
                deliver(error_event("bad-arguments", usage=STATE_REQUEST))
            else:
                self._send_state()
        elif word.startswith("%"):
            self.command_name = "request"
            deliver(error_event("unknown-request", request=word[:40], state=STATE_REQUEST))
        else:
            self.command_name = "request"
            deliver(error_event("json-request", state=STATE_REQUEST))
        self.session.command_ends()

    def aside(self, line: str, event: Event) -> None:
        """Refuse `line`, which will not run (busy, too long, flooding), with `event`: the error
        carries the line's own id (if any), never the id of the command still running."""
        try:
            reply_id, _ = split_id(line)
        except ValueError:
            reply_id = None
        saved = self.reply_id, self.replied
        self.reply_id, self.replied = reply_id, False
        try:
            self.session.deliver(event)
        finally:
            self.reply_id, self.replied = saved

    def _name_of(self, line: str) -> str:
        """The command a line names, for its `ok` (`login`, `say`, `tell` for `;NAME text`)."""
        session = self.session
        if not session.login_state.takes_commands:
            return session.state
        stripped = line.strip()
        if stripped.startswith(";"):
            return "tell"
        word = stripped.lstrip("/").split(" ", 1)[0]
        try:
            return session.commands.resolve(word).name if word else "say"
        except Exception:
            return "say"

    def end(self) -> None:
        """After a line ran: `ok` if nothing answered the line."""
        if not self.replied and self.session.login_state.open:
            self.replied = True
            name, reply_id = self.command_name, self.reply_id
            if type(name) is str and (type(reply_id) is str or reply_id is None
                                      or reply_id is _NO_ID):
                # (the fast encoder beside its reference: json_lines.FAST_ENCODERS)
                self.session.telnet.sendLine(
                    ok_line(name, reply_id if type(reply_id) is str else None))
            else:
                obj: dict[str, Any] = {"type": "ok", "command": name}
                if reply_id is not None and reply_id is not _NO_ID:
                    obj["id"] = reply_id
                self.send_json(obj)
        self.reply_id = _NO_ID
        self.replied = True

    def room(self, room: Room, table: int | None) -> None:
        """The user entered `room`: a `room` object; a table left is sent whole when it is
        entered again."""
        held = self.view_data
        if held is not None and held.get("table") != room.number:
            self.view_data = None
        self.send_json({"type": "room", "number": room.number, "name": room.name,
                        "table": table})

    def forget_view(self) -> None:
        """The next view of a table goes out as a whole `state` (another protocol version)."""
        self.view_data = None

    def lacks_objects_of(self, version: int) -> bool:
        """Would an answer made of the objects of protocol `version` not reach this connection?
        Machine mode: when it reads an older version (`/set` alone's `settings`, the friends
        commands' objects: the command is refused instead)."""
        return self.session.protocol < version

    def next_page(self) -> bool:
        """Machine mode pages nothing: ``/next`` has nothing to show."""
        return False


def switch_before_login(session: Connection, version: str) -> None:
    """`%json` (protocol 1) or `%json N` before the login: machine mode from here on. A version
    this server does not speak is refused in text (`unknown-protocol`, naming the versions), and
    the connection stays as it was."""
    session.telnet.sendLine("")    # ends the text prompt already on the line
    if version.strip():
        chosen = parse_protocol(version)
        if chosen is None:
            session.deliver(error_event("unknown-protocol", version=version.strip()[:20],
                                        versions=" ".join(map(str, PROTOCOL_VERSIONS)),
                                        newest=PROTOCOL_VERSIONS[-1]))
            session.show_prompt()
            return
        session.protocol = chosen
    output = session.output = JsonOutput(session)
    output.reply_id, output.replied = None, False
    session.deliver(Event("iset", name="json", value="1", protocol=session.protocol))
    output.reply_id, output.replied = _NO_ID, True
    session.deliver(Event("greeting", protocol=session.protocol,
                          protocols=list(PROTOCOL_VERSIONS)))
    motd = session.services.motd
    if motd:
        session.deliver(Event("motd", text=motd))
    session.show_prompt()
