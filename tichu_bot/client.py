"""The client library for Tichu bots: one connection to a lobby server in machine mode.

    from tichu_bot import connect

    async with await connect("127.0.0.1", 4000, "Robo") as bot:   # machine mode, logged in
        await bot.must("/newroom tichu")                            # the reply, or CommandRefused
        async for state in bot.states():                            # every new state of the table
            ...
            reply = await bot.command("play R5 G5")                 # `#c7 play R5 G5` -> its reply

The wire (docs/protocol.md, "Machine mode"): the bot sends ``%json 4`` (machine mode, protocol 4,
the newest: ``PROTOCOL``) as its first line; from then
on every server line is one JSON object with a ``type``. A command line may start with ``#ID``;
the server's reply to it (the answer, an ``error`` or ``ok``) carries that ``id``, everything else
(chat, game events, states) carries none. ``command()`` numbers its lines ``c1``, ``c2``, ...,
sends one and reads until the reply with its id has come; what arrives meanwhile is kept (the
table's state is tracked, other objects are queued for ``next_object``/``events``). One command
is in flight at a time (the server answers a connection's lines in order anyway).

The table's state: a ``state`` object replaces the one held; an ``update`` object (machine mode
protocols 2 and later, announced by ``iset``'s ``protocol`` field) changes the keys it names, appends its
``trick_add`` to the trick, and removes the keys listed in its ``unset`` -- ``Client.state`` is
always the whole state as the server would send it now, and ``state_no`` counts the changes. A bot
decides from ``Client.state`` (the same fields as the engine's view of its seat: ``phase``,
``hand``, ``turn``, ``legal``, ``can_pass``, ``bombs``, ...; tichu_bot.view.my_turn_to says
what the seat is asked to do).

Flood control: ``rate`` lines per second at most on average (default 6, below the server's
default ``--flood-rate`` 20), ``burst`` at once; a line dropped anyway (the error ``flooding``,
which has no id) is sent again after ``flood_pause`` seconds.
"""
from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

__all__ = ["Client", "ClientError", "CommandRefused", "connect", "apply_update"]

#: the version of machine mode's objects this library reads (the newest the server speaks; a
#: client that names none gets protocol 1, a whole `state` after every change)
PROTOCOL = 4
#: what a client sends first to switch a new connection to machine mode, naming its version
JSON_SWITCH = f"%json {PROTOCOL}"
#: the objects kept in ``inbox`` (not yet taken) and ``events`` (the latest): a long-running bot
#: that never looks at them does not grow; the oldest go first
KEEP = 1000


class ClientError(Exception):
    """The connection cannot go on: closed by the server, or a line that is not machine mode."""


#: the codes of the client's own refusals of a log-in (never sent by the server, whose codes are in
#: docs/protocol.md; docs/bots.md, "The client library", lists these): a registered name without
#: a password; a password given for a name that logged in as a guest (not registered there)
CLIENT_PASSWORD_NEEDED = "client-password-needed"
CLIENT_PASSWORD_UNUSED = "client-password-unused"


class CommandRefused(ClientError):
    """``must()``: the server answered the command with an ``error`` (``code``, ``message``)."""

    def __init__(self, line: str, reply: dict[str, Any]) -> None:
        self.line = line
        self.reply = reply
        self.code = str(reply.get("code", ""))
        self.message = str(reply.get("message", ""))
        super().__init__(f"{line!r} refused: [{self.code}] {self.message}")


def apply_update(state: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """The state after an ``update`` object (a new dict): its keys replace the state's,
    ``trick_add`` is appended to the ``trick``, the keys in its ``unset`` are removed
    (docs/protocol.md, "The update object": the client's side of
    protocol.render.json_lines.state_update; tests/e2e/test_bot_library.py checks that it undoes it)."""
    out = dict(state)
    for key, value in update.items():
        if key == "trick_add":                  # protocol 3: plays on top of the trick
            out["trick"] = [*out.get("trick", ()), *value]
        elif key not in ("type", "unset"):
            out[key] = value
    for key in update.get("unset", ()):
        out.pop(key, None)
    return out


class Client:
    """One connection in machine mode (made by ``connect``). ``on_line`` sees every line."""

    #: seconds to wait before sending a line again that flood control dropped
    flood_pause: float = 2.0

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                 rate: float = 6.0, burst: int = 20,
                 on_line: Callable[[str], None] | None = None) -> None:
        self.reader = reader
        self.writer = writer
        self.rate = rate                    # lines per second at most (0: no pacing)
        self.burst = burst
        self.on_line = on_line
        self._tokens = float(burst)
        self._refilled = 0.0
        self.next_id = 0
        self.name: str | None = None        # the name logged in with
        self.protocol = 1                   # machine mode's version (iset's `protocol`)
        self.state: dict[str, Any] | None = None   # the table's state as the server sees it
        self.state_no = 0                   # how many states and updates arrived
        self._seen_no = 0                   # the state_no states() / next_state() returned
        self.prelude: list[str] = []        # the text lines before the switch
        #: objects without an id that arrived during command() or next_state(), not yet taken
        #: by next_object() (the newest KEEP)
        self.inbox: deque[dict[str, Any]] = deque(maxlen=KEEP)
        #: the latest KEEP objects that were neither states nor replies
        self.events: deque[dict[str, Any]] = deque(maxlen=KEEP)
        self.commands = 0                   # lines sent by command()
        self.replies = 0                    # replies paired with their command by id
        self.lines = 0                      # machine-mode lines received

    # ---- reading ------------------------------------------------------------------------------
    async def _read_raw(self) -> str:
        raw = await self.reader.readline()
        if not raw:
            raise ClientError("the server closed the connection")
        return raw.decode("utf-8", "replace").rstrip("\r\n")

    async def _read_line(self) -> str:
        line = await self._read_raw()
        if self.on_line is not None:
            self.on_line(line)
        return line

    async def read_object(self) -> dict[str, Any]:
        """The next object from the server (states and updates tracked in ``state``)."""
        line = await self._read_line()
        self.lines += 1
        try:
            obj = json.loads(line)
        except ValueError:
            raise ClientError(f"not a machine-mode line: {line[:200]!r}") from None
        if not isinstance(obj, dict) or "type" not in obj:
            raise ClientError(f"not a machine-mode object: {line[:200]!r}")
        self._track(obj)
        return obj

    def _track(self, obj: dict[str, Any]) -> None:
        kind = obj["type"]
        if kind == "state":
            self.state = {k: v for k, v in obj.items() if k != "id"}
            self.state_no += 1
        elif kind == "update":
            if self.state is not None and self.state.get("table") == obj.get("table"):
                self.state = apply_update(self.state, obj)
                self.state_no += 1
        elif kind == "iset" and obj.get("name") == "json" and "protocol" in obj:
            self.protocol = int(obj["protocol"])
        elif kind == "room" and self.state is not None and obj.get("table") != self.state.get(
                "table"):
            self.state = None               # left the table: its state is no longer ours

    async def next_object(self) -> dict[str, Any]:
        """The next object that is not a reply to a command (queued ones first)."""
        if self.inbox:
            return self.inbox.popleft()
        obj = await self.read_object()
        if obj["type"] not in ("state", "update"):
            self.events.append(obj)
        return obj

    async def next_state(self) -> dict[str, Any]:
        """The table's state once it has changed since the last one this returned (at once when
        it changed meanwhile: several changes give the newest state once)."""
        while self.state is None or self.state_no == self._seen_no:
            await self._take()
        self._seen_no = self.state_no
        return self.state

    async def states(self) -> AsyncIterator[dict[str, Any]]:
        """Every new state of the table (``next_state`` in a loop) until the connection closes."""
        while True:
            try:
                state = await self.next_state()
            except ClientError:
                return
            yield state

    async def wait_for(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read until the table's state passes ``test``; that state."""
        while self.state is None or not test(self.state):
            await self._take()
        self._seen_no = self.state_no
        return self.state

    async def _take(self) -> None:
        obj = await self.read_object()
        if obj["type"] not in ("state", "update"):
            self.events.append(obj)
            self.inbox.append(obj)

    # ---- writing ------------------------------------------------------------------------------
    def send_line(self, line: str) -> None:
        """Send one line as it is (no id, no pacing)."""
        self.writer.write((line + "\r\n").encode("utf-8"))

    async def _pace(self) -> None:
        """At most ``rate`` lines per second on average and ``burst`` at once (a token bucket,
        like the server's flood control)."""
        if self.rate <= 0:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._tokens = min(float(self.burst), self._tokens + (now - self._refilled) * self.rate)
        self._refilled = now
        if self._tokens < 1:
            await asyncio.sleep((1 - self._tokens) / self.rate)
            self._tokens = 1.0
            self._refilled = loop.time()
        self._tokens -= 1

    async def command(self, line: str) -> dict[str, Any]:
        """Send ``#ID line`` and return the server's reply with that id (an ``error`` too: see
        ``must``). Objects without an id that arrive meanwhile are tracked and queued."""
        self.next_id += 1
        cid = f"c{self.next_id}"
        await self._pace()
        self.send_line(f"#{cid} {line}")
        self.commands += 1
        while True:
            obj = await self.read_object()
            if obj["type"] == "error" and obj.get("code") == "flooding" and "id" not in obj:
                await asyncio.sleep(self.flood_pause)
                self.send_line(f"#{cid} {line}")
                continue
            if "id" in obj:
                if obj["id"] != cid:
                    raise ClientError(f"a reply for {obj['id']!r} while waiting for {cid!r}: "
                                      f"{obj}")
                self.replies += 1
                return obj
            if obj["type"] not in ("state", "update"):
                self.events.append(obj)
                self.inbox.append(obj)

    async def must(self, line: str) -> dict[str, Any]:
        """``command``, raising CommandRefused when the reply is an ``error``."""
        reply = await self.command(line)
        if reply["type"] == "error":
            raise CommandRefused(line, reply)
        return reply

    # ---- session ------------------------------------------------------------------------------
    async def switch(self) -> None:
        """Send ``%json 4`` and read up to the login prompt (the greeting's text lines before the
        switch are kept in ``prelude``). ClientError when the server refuses the version (an
        error line ``! [unknown-protocol]``: a server older than this library)."""
        self.send_line(JSON_SWITCH)
        while True:                         # ``on_line`` sees machine mode's lines only
            line = await self._read_raw()
            if line.startswith("! [unknown-protocol]"):
                raise ClientError(f"the server does not speak protocol {PROTOCOL}: {line}")
            if line.startswith("{"):
                obj = json.loads(line)
                if isinstance(obj, dict) and obj.get("type") == "iset":
                    if self.on_line is not None:
                        self.on_line(line)
                    self.lines += 1
                    self._track(obj)
                    break
            self.prelude.append(line)
        while (await self.read_object())["type"] != "prompt":
            pass

    async def login(self, name: str, password: str | None = None) -> dict[str, Any]:
        """Log in as ``name`` (``password`` for a registered name); the ``logged-in`` or
        ``logged-in-guest`` reply. CommandRefused when the server refuses."""
        reply = await self.command(name)
        if reply["type"] == "prompt" and reply.get("prompt") == "password":
            if password is None:
                raise CommandRefused(name, {"code": CLIENT_PASSWORD_NEEDED,
                                            "message": f"{name} is registered: a password is "
                                                       "needed"})
            reply = await self.command(password)
        if reply["type"] not in ("logged-in", "logged-in-guest"):
            raise CommandRefused(name, reply if reply["type"] == "error" else
                                 {"code": reply["type"], "message": json.dumps(reply)})
        if reply["type"] == "logged-in-guest" and password is not None:
            # a password was meant for a registered name, which this is not (a typo, another
            # server): never play on as a guest under the name as if logged in
            raise CommandRefused(name, {"code": CLIENT_PASSWORD_UNUSED,
                                        "message": f"{name} is not a registered name on this "
                                                   "server: the log-in ended as a guest, so the "
                                                   "password was not used"})
        self.name = str(reply.get("name", name))
        return reply

    async def close(self) -> None:
        """``/quit`` (when still connected) and close the connection."""
        if not self.writer.is_closing():
            try:
                await asyncio.wait_for(self.command("/quit"), 10)
            except (TimeoutError, ClientError, ConnectionError, OSError):
                pass                        # closed after the goodbye, or already gone: fine
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()


async def connect(host: str, port: int, name: str | None = None, password: str | None = None,
                  *, rate: float = 6.0, burst: int = 20,
                  on_line: Callable[[str], None] | None = None) -> Client:
    """Connect, switch to machine mode and (with ``name``) log in; the Client."""
    reader, writer = await asyncio.open_connection(host, port)
    client = Client(reader, writer, rate=rate, burst=burst, on_line=on_line)
    try:
        await client.switch()
        if name is not None:
            await client.login(name, password)
    except BaseException:
        writer.close()
        raise
    return client
