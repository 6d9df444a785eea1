"""Machine mode, command ids and GMCP for one connection (a mixin of protocol.session.Session).

Machine mode (`/iset json 1`, or a first line `%json` before the login) is a property of the
connection, never saved. The client names the version of the objects it reads (`%json 3`, or
`/iset protocol 3` at any time); a client that names none gets protocol 1 (a whole `state` after
every change, `names` in every `game-*` event), which is what clients written before the versions
expect (render_json.PROTOCOL_VERSIONS says what each version changed). In machine mode every
line the server writes is exactly one JSON object with a `type` (protocol/render_json.py):
events, errors, prompts (as `prompt` objects with a line end, never a bare prompt, never IAC GA)
and the replies below.

Command ids: in machine mode a line may start with `#ID ` (1 to 32 letters, digits, `-`, `_`).
Every non-blank line gets exactly one reply object, which carries `"id": ID` when the line had
one: the answer itself (an event of render_json.REPLY_TYPES addressed to this connection while
the command runs: `who`, `help`, `table-info`...), or the `error` that refused it, or else
`{"type": "ok", "command": NAME}` when the command is done (its effects, such as `game-play` and
`state`, arrive as events). A malformed `#ID` is refused with the error `bad-id`.

GMCP (telnet option 201, when the client agreed): the same objects are also sent as GMCP
messages: `Tichu.State` (each `state`), `Tichu.Event` (each table and game event) and `Room.Info`
(`{"num", "name", "table"}`) whenever the user enters a room. Incoming `Core.Hello` (eight short fields)
and `Core.Supports.Set/Add/Remove` (a bounded set: MAX_GMCP_SUPPORTS packages, the server's
--max-gmcp-supports) are remembered; every other GMCP message is ignored silently.
"""
from __future__ import annotations

import re
from json.encoder import encode_basestring as _encode_str
from typing import TYPE_CHECKING, Any

from lobby.events import Event, error_event
from lobby.messages import text
from lobby.numbers import ascii_int
from lobby.tichu import memo as _memo
from protocol.render_json import (
    DEFAULT_PROTOCOL,
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    REPLY_TYPES,
    dumps,
    for_protocol,
    is_table_event,
    legacy_view_data,
    render_json,
    state_line,
    state_object,
    state_update,
)
from protocol.telnet import TelnetLineProtocol, clean_line

if TYPE_CHECKING:
    from lobby.world import User
    from protocol.render_table import TableFeed
    from protocol.server import LobbyFactory

__all__ = ["MachineMode", "ID_PATTERN", "JSON_SWITCH", "split_id"]

#: a command id: `#ID ` at the start of a line
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: a GMCP package name in Core.Supports (`Char.Items`, `Room`): kept only if it looks like one
_GMCP_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}")
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
#: per audience instead of once per connection (events are never changed once delivered)
_shared: list[Any] = [None, None, b"", 0]     # (event, context, line, protocol)
#: the last `table-view` event and its `state` object, its `state` line, and the last
#: (state before, state after) pair and its `update` line: spectators of a table share one view
#: event and, having followed the same changes, the same state before it
_view_memo: list[Any] = [None, None, b""]
_update_memo: list[Any] = [None, None, b"", 0]


@_memo.register
def _clear_memos() -> None:
    _shared[:] = [None, None, b"", 0]
    _view_memo[:] = [None, None, b""]
    _update_memo[:] = [None, None, b"", 0]


#: the last view event and its copy for protocols 1-3 (render_json.legacy_view_data)
_legacy_view: list[Any] = [None, None]


@_memo.register
def _clear_legacy_view() -> None:
    _legacy_view[:] = [None, None]


def _view_for(event: Event, protocol: int) -> Event:
    """A `table-view` or `table-look` as `protocol` reads it: the event itself for the newest,
    else one event (the same for every listener) of its data without the later fields."""
    if protocol >= PROTOCOL_VERSION:
        return event
    if _legacy_view[0] is event:
        return _legacy_view[1]          # type: ignore[no-any-return]
    data = legacy_view_data(event.data)
    legacy = event if data is event.data else Event(event.type, data)
    if _memo.ON:
        _legacy_view[0], _legacy_view[1] = event, legacy
    return legacy


def _view_state(event: Event) -> dict[str, Any]:
    if not _memo.ON:
        _view_memo[0] = None
        return state_object(event.data)
    if _view_memo[0] is not event:
        _view_memo[0], _view_memo[1], _view_memo[2] = event, state_object(event.data), None
    return _view_memo[1]        # type: ignore[no-any-return]


def _state_bytes(event: Event) -> bytes:
    if not _memo.ON:
        return state_line(event.data).encode("utf-8", "replace") + b"\r\n"
    _view_state(event)
    data = _view_memo[2]
    if data is None:
        # = encode_text(line): a JSON line has no raw line break, UTF-8 no 0xFF byte
        data = _view_memo[2] = state_line(event.data).encode("utf-8", "replace") + b"\r\n"
    return data                 # type: ignore[no-any-return]


def _update_bytes(before: dict[str, Any], after: dict[str, Any], protocol: int) -> bytes:
    memo = _update_memo
    if _memo.ON and memo[0] is before and memo[1] is after and memo[3] == protocol:
        return memo[2]          # type: ignore[no-any-return]
    update = state_update(before, after, trick_add=protocol >= 3)
    data = b"" if update is None else dumps(update).encode("utf-8", "replace") + b"\r\n"
    memo[0], memo[1], memo[2], memo[3] = before, after, data, protocol
    return data


def parse_protocol(word: str) -> int | None:
    """The version a client names (`3`), or None when it is no version this server speaks."""
    value = ascii_int(word.strip(), max(PROTOCOL_VERSIONS))
    return value if value in PROTOCOL_VERSIONS else None


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


class MachineMode(TelnetLineProtocol):
    """Machine mode, ids and GMCP; `Session` calls the hooks `_machine_deliver`,
    `_command_begins` and `_command_ends` around its own work."""

    json_mode: bool = False
    #: the version of machine mode's objects this connection reads (`%json N`, `/iset protocol N`)
    protocol: int = DEFAULT_PROTOCOL
    gmcp_client: dict[str, Any] | None = None       # Core.Hello
    gmcp_supports: dict[str, int] | None = None     # Core.Supports.*
    #: packages kept of Core.Supports.* at most (0: no limit; the server's --max-gmcp-supports)
    MAX_GMCP_SUPPORTS: int = 64
    _reply_id: Any = _NO_ID           # the running command's id (None: a line without id)
    _replied: bool = True             # the running command has had its reply
    _command_name: str = ""
    _room_seen: Any = None            # (number, name) of the last room announced
    #: the `state` this connection's client holds now (machine mode): the last `state` sent
    #: with every `update` after it applied; None: the next view goes out as a whole `state`
    _view_held: dict[str, Any] | None = None

    user: "User | None"
    state: str
    factory: "LobbyFactory"
    _feed: "TableFeed | None"

    # ---- switching -----------------------------------------------------------------------------
    def set_json_mode(self, on: bool) -> None:
        """`/iset json 1|0`: switch this connection; the answer comes in the new mode."""
        if on and not self.json_mode:
            self.json_mode = True
            self._view_held = None
        elif not on and self.json_mode:
            self.deliver(Event("iset", name="json", value="0"))   # the last JSON line
            self.json_mode = False
            return
        if on:
            self.deliver(Event("iset", name="json", value="1", protocol=self.protocol))
        else:
            self.deliver(Event("iset", name="json", value="0"))

    def set_protocol(self, version: int) -> None:
        """`/iset protocol N`: the version of the objects this connection reads from now on (in
        text mode too, for a later switch); the next view of a table comes as a whole `state`."""
        self.protocol = version
        self._view_held = None
        self.deliver(Event("iset", name="protocol", value=str(version), protocol=version))

    # ---- output --------------------------------------------------------------------------------
    def send_json(self, obj: dict[str, Any]) -> None:
        """Write one JSON object as one line (machine mode)."""
        TelnetLineProtocol.sendLine(self, dumps(obj))

    def sendLine(self, line: str) -> None:
        """In machine mode a stray text line is wrapped as `{"type": "text"}` (empty lines are
        dropped), so every line stays one JSON object."""
        if self.json_mode:
            if line.strip():
                self._emit({"type": "text", "text": line})
            return
        TelnetLineProtocol.sendLine(self, line)

    def sendPrompt(self, prompt: str) -> None:
        if self.json_mode:
            kind = self.state if self.state in ("password", "seat-key") else "login"
            self._emit({"type": "prompt", "prompt": kind, "text": prompt.strip()})
            return
        TelnetLineProtocol.sendPrompt(self, prompt)

    def setPasswordMode(self, hidden: bool) -> None:
        if self.json_mode:       # nothing but JSON lines: no ECHO negotiation for programs
            self.password_mode = hidden
            return
        TelnetLineProtocol.setPasswordMode(self, hidden)

    def _emit(self, obj: dict[str, Any], reply: bool = False) -> None:
        """Send `obj`; the first reply-like object of a running command carries its id (`reply`:
        `obj` renders a reply event whatever its type, e.g. the `state` answering `/look`)."""
        if not self._replied and (reply or obj["type"] in ("error", "prompt")
                                  or obj["type"] in REPLY_TYPES):
            self._replied = True
            if self._reply_id is not None and self._reply_id is not _NO_ID:
                obj["id"] = self._reply_id
        self.send_json(obj)

    def _machine_deliver(self, event: Event) -> bool:
        """GMCP copies of table events; in machine mode the JSON object (True: handled)."""
        ctx = self.render_context
        if _shared[0] is event and _shared[1] is ctx and _shared[3] == self.protocol \
                and self.json_mode and not self.gmcp_enabled:
            self._write(_shared[2])     # the line of the event for the listener before this one
            return True
        obj: dict[str, Any] | None = None
        if (self.gmcp_enabled and event.type.startswith(("table-", "game-"))
                and not event.is_error        # (error codes such as game-running stay lines)
                and self.gmcp_wants("Tichu")):
            if event.type == "table-view":
                obj = render_json(_view_for(event, self.protocol), ctx.lang)
            else:
                obj = for_protocol(render_json(event, ctx.lang), self.protocol, ctx.lang)
            if obj is not None:       # (None: a type this connection's version does not have)
                self.sendGMCP("Tichu.State" if obj["type"] == "state" else "Tichu.Event", obj)
                if not is_table_event(event.type) and obj["type"] != "state":
                    obj = None
        if self.gmcp_enabled and event.type.startswith("friend") \
                and self.gmcp_wants("Tichu"):                          # friends: Tichu.Friend
            self.sendGMCP("Tichu.Friend", render_json(event, ctx.lang))
        if not self.json_mode:
            return False
        if event.type == "table-view":
            self._deliver_view(event)
            return True
        if event.type == "table-look":        # /look: the whole state, with the command's id
            after = _view_state(_view_for(event, self.protocol))
            self._view_held = after           # what the client holds now: later updates follow it
            self._emit(dict(after), reply=True)
            return True
        if not event.is_error and event.type not in REPLY_TYPES:   # never gets an id
            if _shared[0] is event and _shared[1] is ctx and _shared[3] == self.protocol:
                data = _shared[2]
            else:
                # protocol 1: the names in every game event; 2 and 3: only in the `state`
                game = self.protocol >= 2 and event.type.startswith("game-") \
                    and "names" in event.data
                if obj is None:
                    obj = render_json(event, ctx.lang)
                if self.protocol < PROTOCOL_VERSION:
                    obj = for_protocol(obj, self.protocol, ctx.lang)
                    if obj is None:             # a type this connection's version does not have
                        return True
                line = dumps(_without_names(obj) if game else obj)
                # = encode_text(line): a JSON line has no raw line break, UTF-8 no 0xFF byte
                data = line.encode("utf-8", "replace") + b"\r\n"
                if _memo.ON:
                    _shared[0], _shared[1], _shared[2], _shared[3] = event, ctx, data, self.protocol
            self._write(data)          # what TelnetLineProtocol.sendLine writes for the line
            return True
        shown: dict[str, Any] | None = obj if obj is not None else render_json(event, ctx.lang)
        if self.protocol < PROTOCOL_VERSION:
            shown = for_protocol(shown, self.protocol, ctx.lang)
        if shown is None:                       # a type this connection's version does not have
            return True
        self._emit(dict(shown), reply=event.type in REPLY_TYPES)
        return True

    def _deliver_view(self, event: Event) -> None:
        """A view of a table in machine mode. Protocols 2 and 3: the whole `state` when the
        client holds none of this table for this seat (it entered, sat down, stood up, came back
        on a new connection), else an `update` with what changed since the state it holds
        (nothing when nothing did). Protocol 1: the whole `state` every time."""
        event = _view_for(event, self.protocol)
        after = _view_state(event)
        before, self._view_held = self._view_held, after
        if (self.protocol == 1 or before is None or before["table"] != after["table"]
                or before["you"] != after["you"] or before["seat"] != after["seat"]):
            self._write(_state_bytes(event))
            return
        data = _update_bytes(before, after, self.protocol)
        if data:
            self._write(data)

    def _send_state(self) -> None:
        """`%state`: the whole state of the table this connection is at, as it holds it now
        (with the line's id); `not-at-table` if it is at none."""
        held = self._view_held
        user = self.user
        room = user.room if user is not None else None
        if (held is None or room is None or room.table is None
                or held.get("table") != room.number):
            self.deliver(error_event("not-at-table"))
            return
        obj = dict(held)
        if self._reply_id is not None and self._reply_id is not _NO_ID:
            obj["id"] = self._reply_id
        self._replied = True
        self.send_json(obj)

    # ---- one command ---------------------------------------------------------------------------
    def cleanLine(self, text: str) -> str:
        """In machine mode the `#ID` word of a line is split off before BS and DEL erase and
        other control characters are dropped, and only the rest is cleaned: a control character
        never changes which id a reply carries (`#c1 \\x7f0` is the command `0` with the id `c1`;
        a control character inside the id word makes it a `bad-id`)."""
        if not self.json_mode:
            return clean_line(text)
        stripped = text.lstrip(" ")
        if not stripped.startswith("#"):
            return clean_line(text)
        word, space, rest = stripped.partition(" ")
        return word + space + clean_line(rest)

    def _command_begins(self, line: str) -> str | None:
        """Before a line runs: the id and `%json`. None when the line is used up here."""
        if self.state == "login" and not self.json_mode:
            word, _, version = line.strip().partition(" ")
            if word == JSON_SWITCH:
                self._switch_before_login(version)
                return None
        if not self.json_mode:
            return line
        if not line.strip():
            return line          # a blank line gets no reply
        try:
            reply_id, rest = split_id(line)
        except ValueError as e:
            self._reply_id, self._replied = None, False
            self.deliver(error_event("bad-id", id=str(e)))
            self._reply_id, self._replied = _NO_ID, True
            return None
        self._reply_id = reply_id
        self._replied = False
        if self.state == "active":
            request = rest.strip()
            if request[:1] in REQUEST_MARKS:
                self._refuse_request(request)
                return None
        self._command_name = self._name_of(rest)
        return rest

    def _refuse_request(self, request: str) -> None:
        """A line of machine mode that is not a command: `%state` (the whole state), another
        `%` word (`unknown-request`), or a JSON object or list (`json-request`: requests are
        command lines). None of them is ever chat."""
        word, _, args = request.partition(" ")
        if word == STATE_REQUEST:
            self._command_name = "state"
            if args.strip():
                self.deliver(error_event("bad-arguments", usage=STATE_REQUEST))
            else:
                self._send_state()
        elif word.startswith("%"):
            self._command_name = "request"
            self.deliver(error_event("unknown-request", request=word[:40], state=STATE_REQUEST))
        else:
            self._command_name = "request"
            self.deliver(error_event("json-request", state=STATE_REQUEST))
        self._command_ends()

    def _answer_aside(self, line: str, event: Event) -> None:
        """Refuse `line`, which will not run (busy, too long, flooding), with `event`: in machine
        mode the error carries the line's own id (if any), never the id of the command still
        running."""
        if not self.json_mode:
            self.deliver(event)
            return
        try:
            reply_id, _ = split_id(line)
        except ValueError:
            reply_id = None
        saved = self._reply_id, self._replied
        self._reply_id, self._replied = reply_id, False
        try:
            self.deliver(event)
        finally:
            self._reply_id, self._replied = saved

    def _name_of(self, line: str) -> str:
        """The command a line names, for its `ok` (`login`, `say`, `tell` for `;NAME text`)."""
        if self.state != "active":
            return self.state
        stripped = line.strip()
        if stripped.startswith(";"):
            return "tell"
        word = stripped.lstrip("/").split(" ", 1)[0]
        try:
            return self.commands.resolve(word).name if word else "say"  # type: ignore[attr-defined]
        except Exception:
            return "say"

    def _command_ends(self) -> None:
        """After a line ran: `Room.Info` (and `room`) if the room changed; `ok` if nothing
        answered the line."""
        self._announce_room()
        if not self._replied and self.state != "closed":
            self._replied = True
            name, reply_id = self._command_name, self._reply_id
            if type(name) is str and (type(reply_id) is str or reply_id is None
                                      or reply_id is _NO_ID):
                # what dumps({"type": "ok", "command": name[, "id": id]}) writes, without it
                line = '{"type":"ok","command":' + _encode_str(name) + (
                    ',"id":' + _encode_str(reply_id) + "}" if type(reply_id) is str else "}")
                TelnetLineProtocol.sendLine(self, line)
            else:
                obj: dict[str, Any] = {"type": "ok", "command": name}
                if reply_id is not None and reply_id is not _NO_ID:
                    obj["id"] = reply_id
                self.send_json(obj)
        self._reply_id = _NO_ID
        self._replied = True

    def _switch_before_login(self, version: str) -> None:
        """`%json` (protocol 1) or `%json N` before the login: machine mode from here on. A
        version this server does not speak is refused in text (`unknown-protocol`, naming the
        versions), and the connection stays as it was."""
        TelnetLineProtocol.sendLine(self, "")    # ends the text prompt already on the line
        if version.strip():
            chosen = parse_protocol(version)
            if chosen is None:
                self.deliver(error_event("unknown-protocol", version=version.strip()[:20],
                                         versions=" ".join(map(str, PROTOCOL_VERSIONS)),
                                         newest=PROTOCOL_VERSIONS[-1]))
                self.sendPrompt(text("login-prompt", self.lang))
                return
            self.protocol = chosen
        self.json_mode = True
        self._view_held = None
        self._reply_id, self._replied = None, False
        self.deliver(Event("iset", name="json", value="1", protocol=self.protocol))
        self._reply_id, self._replied = _NO_ID, True
        self.deliver(Event("greeting", protocol=self.protocol,
                           protocols=list(PROTOCOL_VERSIONS)))
        motd = self.factory.motd
        if motd:
            self.deliver(Event("motd", text=motd))
        self.sendPrompt(text("login-prompt", self.lang))

    def _announce_room(self) -> None:
        user = self.user
        room = user.room if user is not None else None
        if room is None:
            return
        key = (room.number, room.name)
        if key == self._room_seen:
            return
        self._room_seen = key
        held = self._view_held
        if held is not None and held.get("table") != room.number:
            self._view_held = None        # left that table: entering it again sends it whole
        feed = self._feed
        if feed is not None and room.table is None:
            feed.forget()                 # text mode: left the table; coming back shows it whole
        info = {"num": room.number, "name": room.name,
                "table": room.number if room.table is not None else None}
        self.sendGMCP("Room.Info", info)
        if self.json_mode:
            self.send_json({"type": "room", "number": room.number, "name": room.name,
                            "table": info["table"]})

    # ---- GMCP from the client ------------------------------------------------------------------
    def gmcp_wants(self, package: str) -> bool:
        """Whether GMCP messages of `package` (`Tichu`) go to this client: to a client that
        never sent Core.Supports all of them (as before issue 27), else only the packages it
        listed (`Tichu` or `Tichu.State`...; names compared without case)."""
        supports = self.gmcp_supports
        if supports is None:
            return True
        wanted = package.lower()
        return any(p.lower() == wanted or p.lower().startswith(wanted + ".") for p in supports)

    def gmcpReceived(self, package: str, data: object) -> None:
        name = package.lower()
        if name == "core.ping":
            self.sendGMCP("Core.Ping")   # the answer a MUD client measures its latency with
            return
        if name == "core.hello" and isinstance(data, dict):
            # a few short fields (client, version) are kept; nothing else of it is used
            self.gmcp_client = {str(k)[:32]: (v[:100] if isinstance(v, str) else v)
                                for k, v in list(data.items())[:8]
                                if isinstance(v, (str, int, float, bool)) or v is None}
        elif name.startswith("core.supports.") and isinstance(data, list):
            # a bounded set: at most MAX_GMCP_SUPPORTS packages, names as GMCP writes them
            limit = self.MAX_GMCP_SUPPORTS
            supports = dict(self.gmcp_supports or {})
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
                    supports[pkg] = ascii_int(version, 1_000_000) or 1
            self.gmcp_supports = supports
        # anything else: ignored silently
