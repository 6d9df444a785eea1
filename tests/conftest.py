"""Shared fixtures and helpers.

- A per-test timeout INSIDE the reactor: every test run by pytest-twisted (async def tests marked
  with ``pytest_twisted.ensureDeferred``, ``inlineCallbacks`` tests, tests returning Deferreds)
  gets ``addTimeout(..., reactor)``, so a hanging test fails alone. Default 60 s; change it with
  ``@pytest.mark.reactor_timeout(SECONDS)``.
- ``lobby``: a LobbyFactory with an in-memory store, inline "threads", a task.Clock and cheap
  argon2 parameters (FAST_HASH), for StringTransport tests; ``lobby.connect()`` gives a ``FakeClient``.
- ``fired(d)``: the result of a Deferred that has fired already (an inline store's), raising
  its failure; ``sqlite_store``: an opened inline Store on a temporary SQLite file, closed after.
- ``logged_events()``: a context manager giving the list of every event logged inside it;
  ``logged``: the same as a fixture, for the whole test.
- ``load_script(name)``: scripts/NAME.py loaded as the module NAME, for tests of the scripts.
- ``server``: a real LobbyServer on 127.0.0.1 port 0 with a temporary database file;
  ``line_client(port)`` connects to it over real loopback and reads lines with a timeout.
- Hypothesis profiles: ``ci`` (chosen when the environment variable CI is set: the same examples
  on every run, no deadline, a fixed number of examples where a test does not set its own) and
  ``local`` (elsewhere: new random examples each run, the example database kept, and no deadline
  either, so a busy machine never fails a property); HYPOTHESIS_PROFILE=name picks one by name.
  See `hypothesis_profile`.
- ``write_path``: runs a test twice, on the gathered writes (protocol/telnet/gathered_write.py) and on
  Twisted's own write path (forced with ``TelnetLineProtocol.GATHER_WRITES = False``).
- Markers: ``slow`` (soak, fuzz and benchmark-smoke tests; ``scripts/test -m "not slow"`` is the
  inner loop) and ``reactor_timeout``.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import inspect
import os
import random
import re
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import pytest_twisted
from hypothesis import settings
from twisted.internet import task
from twisted.internet.defer import Deferred, fail, succeed
from twisted.internet.protocol import Protocol
from twisted.internet.testing import StringTransport
from twisted.logger import globalLogPublisher

from lobby.storage.accounts import Accounts, Argon2Params
from lobby.storage.store import Store, inline_runner
from lobby.world.world import World

# cheap argon2id parameters for unit tests only (the server's default: 19 MiB, 2 passes)
FAST_HASH = Argon2Params(time_cost=1, memory_cost=8, parallelism=1)
FAST_SCRYPT = FAST_HASH  # the name of the first version's cheap parameters, still imported
DEFAULT_TEST_TIMEOUT = 60.0
#: the bound of one real-time wait in a test (a reply over a socket, a server start): a guard
#: against a hang that fails with a readable message, never a measure of speed. It is far above
#: what a wait takes on a quiet machine (milliseconds), so a machine busy with other work (six
#: test suites on two cores, password hashes at the lowest CPU priority) does not trip it.
WAIT = 20.0
#: the end of the question after an unregistered name in text mode (an empty line confirms it)
GUEST_CONFIRM = "or type another name: "
IAC = 0xFF


#: examples per property in CI where a test does not set max_examples itself
CI_MAX_EXAMPLES = 100
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=CI_MAX_EXAMPLES,
                          database=None, print_blob=True)
#: a developer's run: Hypothesis's default examples and database, but no deadline (its default of
#: 200 ms per example failed test_fast_encoders once on a machine busy with other work)
settings.register_profile("local", deadline=None, print_blob=True)


def hypothesis_profile(environ: Any) -> str:
    """The Hypothesis profile for an environment: HYPOTHESIS_PROFILE if set, else "ci" when CI
    is set to anything but "" / "0" / "false" (CI services set CI=true), else "local"."""
    name = environ.get("HYPOTHESIS_PROFILE")
    if name:
        return str(name)
    ci = environ.get("CI", "")
    return "ci" if ci and ci.lower() not in ("0", "false", "no") else "local"


settings.load_profile(hypothesis_profile(os.environ))


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "reactor_timeout(seconds): per-test timeout in the reactor")
    config.addinivalue_line(
        "markers", "slow: a soak, fuzz or benchmark-smoke test (deselect with -m 'not slow')")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: Any) -> None:
    """Wrap the test so its Deferred gets a timeout in the reactor; pytest-twisted then runs it."""
    original = pyfuncitem.obj
    if getattr(original, "hypothesis", None) is not None or getattr(original, "_timeout_wrapped", False):
        return None
    marker = pyfuncitem.get_closest_marker("reactor_timeout")
    seconds = float(marker.args[0]) if marker else DEFAULT_TEST_TIMEOUT

    @functools.wraps(original)
    def with_timeout(**kwargs: Any) -> Any:
        from twisted.internet import reactor
        try:
            result = original(**kwargs)
        except BaseException:
            return fail()
        if inspect.iscoroutine(result):  # ensureDeferred-marked or plain async def tests
            d = Deferred.fromCoroutine(result)
        elif isinstance(result, Deferred):  # inlineCallbacks tests
            d = result
        else:
            return succeed(result)
        return d.addTimeout(seconds, reactor)

    with_timeout._pytest_twisted_mark = None  # type: ignore[attr-defined]
    with_timeout._timeout_wrapped = True  # type: ignore[attr-defined]
    pyfuncitem.obj = with_timeout
    return None


def within(d: Any, seconds: float = WAIT) -> Deferred:
    """``d`` (a Deferred or coroutine) with a timeout in the reactor."""
    from twisted.internet import reactor
    if not isinstance(d, Deferred):
        d = Deferred.fromCoroutine(d)
    return d.addTimeout(seconds, reactor)


def fired(d: Any) -> Any:
    """The result of a Deferred that has fired already (an inline store's); a failure raises."""
    out: list[Any] = []
    d.addBoth(out.append)
    assert out, "the Deferred has not fired"
    if hasattr(out[0], "raiseException"):
        out[0].raiseException()
    return out[0]


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    """An opened Store on a temporary SQLite file with inline "threads"; closed after the test."""
    store = Store(str(tmp_path / "store.sqlite3"), inline_runner)
    fired(store.open())
    yield store
    fired(store.close())


@contextlib.contextmanager
def logged_events() -> Iterator[list[dict[str, Any]]]:
    """Every event logged (twisted.logger's global publisher) while the block runs."""
    events: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(events.append)
    try:
        yield events
    finally:
        globalLogPublisher.removeObserver(events.append)


@pytest.fixture(params=["gathered", "twisted"])
def write_path(request: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both write paths of protocol.telnet.transport for a test over real sockets: "gathered" (the probe
    must pass on this Twisted) and "twisted" (Twisted's own path, forced)."""
    from protocol.telnet import gathered_write
    from protocol.telnet.transport import TelnetLineProtocol
    if request.param == "twisted":
        monkeypatch.setattr(TelnetLineProtocol, "GATHER_WRITES", False)
    else:
        from twisted.internet import reactor
        assert gathered_write.available(reactor), gathered_write.probe(reactor)
    return str(request.param)


@pytest.fixture
def logged() -> Iterator[list[dict[str, Any]]]:
    """Every event logged during the test."""
    with logged_events() as events:
        yield events


def load_script(name: str) -> Any:
    """scripts/NAME.py loaded as a module named NAME (put in sys.modules first, as dataclasses
    need, unless a module of that name is there already)."""
    path = Path(__file__).resolve().parent.parent / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


def strip_telnet(data: bytes) -> bytes:
    """Remove telnet commands from server output (IAC IAC stays one 0xFF byte)."""
    out = bytearray()
    i = 0
    while i < len(data):
        b = data[i]
        if b != IAC:
            out.append(b)
            i += 1
            continue
        if i + 1 >= len(data):
            break
        cmd = data[i + 1]
        if cmd == IAC:
            out.append(IAC)
            i += 2
        elif cmd in (251, 252, 253, 254):  # WILL WONT DO DONT option
            i += 3
        elif cmd == 250:  # SB ... IAC SE
            end = data.find(bytes((IAC, 240)), i + 2)
            i = len(data) if end < 0 else end + 2
        else:
            i += 2
    return bytes(out)


def unwrap(text: str, indent: int = 0) -> str:
    """Server text with the lines the session wrapped at its width joined again (protocol/
    render/wrap.py: a continuation line starts with two more spaces than its line), for finding a long
    message in it: every line indented by more than ``indent`` spaces is joined to the one
    before it (``indent`` 2 keeps the items of an indented list apart)."""
    return re.sub(rf"\r?\n {{{indent + 2},}}", " ", text)


# ---- StringTransport sessions -------------------------------------------------------------------
class FakeClient:
    """A Session on a StringTransport: feed bytes in, read text out."""

    def __init__(self, factory: Any) -> None:
        self.factory = factory
        self.transport = StringTransport()
        self.session = factory.buildProtocol(None)
        self.session.makeConnection(self.transport)
        self.closed = False

    def send(self, data: bytes | str) -> None:
        if isinstance(data, str):
            data = (data + "\r\n").encode("utf-8")
        self.session.dataReceived(data)
        self._check_closed()

    def _check_closed(self) -> None:
        if self.transport.disconnecting and not self.closed:
            self.closed = True
            self.session.connectionLost(None)

    def raw(self) -> bytes:
        """All bytes written since the last read, and forget them."""
        self._check_closed()
        data = self.transport.value()
        self.transport.clear()
        return data

    def text(self) -> str:
        return strip_telnet(self.raw()).decode("utf-8", "replace")

    def lines(self) -> list[str]:
        return [line for line in self.text().split("\r\n") if line]

    def login(self, name: str = "guest", password: str | None = None) -> str:
        """Log in; an unregistered name is confirmed with an empty line (text mode asks)."""
        self.send(name)
        if password is not None:
            self.send(password)
        out = self.text()
        if password is None and out.endswith(GUEST_CONFIRM):
            self.send("")
            out += self.text()
        return out


class FakeLobby:
    def __init__(self, clock: task.Clock, motd: str = "") -> None:
        from protocol.process.server import LobbyFactory
        self.clock = clock
        self.store = Store(":memory:", inline_runner)
        self.store.open()
        self.world = World(clock, rng=random.Random(7))
        self.accounts = Accounts(inline_runner, FAST_SCRYPT)
        self.factory = LobbyFactory(self.world, self.store, self.accounts, motd)

    def connect(self) -> FakeClient:
        return FakeClient(self.factory)

    def register(self, name: str, password: str) -> None:
        """Create an account directly (as a previous /register would have)."""
        from lobby.storage.accounts import hash_password
        self.store.create_account(name, hash_password(password, FAST_SCRYPT), self.clock.seconds())


@pytest.fixture
def clock() -> task.Clock:
    c = task.Clock()
    c.advance(1_800_000_000)  # some fixed date (2027-01-15), so timestamps look real
    return c


@pytest.fixture
def lobby(clock: task.Clock) -> FakeLobby:
    return FakeLobby(clock)


# ---- real sockets -------------------------------------------------------------------------------
class LineClient(Protocol):
    """A raw TCP client that reads CRLF lines (and prompts) with timeouts."""

    def __init__(self) -> None:
        self.buffer = ""
        self._waiter: tuple[Any, Deferred] | None = None
        self.lost: Deferred = Deferred()

    def dataReceived(self, data: bytes) -> None:
        self.buffer += strip_telnet(data).decode("utf-8", "replace")
        self._check()

    def connectionLost(self, reason: Any = None) -> None:
        if self._waiter is not None:
            _, d = self._waiter
            self._waiter = None
            d.errback(ConnectionError(f"connection closed; unread: {self.buffer!r}"))
        if not self.lost.called:
            self.lost.callback(None)

    def _check(self) -> None:
        if self._waiter is None:
            return
        wanted, d = self._waiter
        found = [(at, t) for t in ((wanted,) if isinstance(wanted, str) else wanted)
                 if (at := self.buffer.find(t)) >= 0]
        if found:
            at, text = min(found)
            self._waiter = None
            got, self.buffer = self.buffer[:at + len(text)], self.buffer[at + len(text):]
            d.callback(got)

    def expect(self, text: str, timeout: float = WAIT) -> Deferred:
        """Fires with everything received up to and including ``text`` (which must arrive)."""
        from twisted.internet import reactor
        d: Deferred = Deferred()
        self._waiter = (text, d)
        self._check()
        return d.addTimeout(timeout, reactor)

    async def read_line(self, timeout: float = WAIT) -> str:
        return (await self.expect("\r\n", timeout))[:-2]

    def send(self, line: str) -> None:
        self.transport.write((line + "\r\n").encode("utf-8"))

    async def login(self, name: str = "guest", password: str | None = None) -> str:
        """Log in; an unregistered name is confirmed with an empty line (text mode asks)."""
        await self.expect("login: ")
        self.send(name)
        if password is not None:
            await self.expect("password: ")
            self.send(password)
        elif name.strip() and name.strip().lower() != "guest":
            got = await self.expect_any((GUEST_CONFIRM, "/help for the commands.\r\n"))
            if not got.endswith(GUEST_CONFIRM):
                return got
            self.send("")
        return await self.expect("/help for the commands.\r\n")

    def expect_any(self, texts: tuple[str, ...], timeout: float = WAIT) -> Deferred:
        """Fires with everything up to and including the first of ``texts`` that arrives."""
        from twisted.internet import reactor
        d: Deferred = Deferred()
        self._waiter = (texts, d)
        self._check()
        return d.addTimeout(timeout, reactor)

    def close(self) -> Deferred:
        self.transport.loseConnection()
        return self.lost


async def line_client(port: int, host: str = "127.0.0.1") -> LineClient:
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    client = LineClient()
    await within(connectProtocol(TCP4ClientEndpoint(reactor, host, port), client))
    return client


class RunningServer:
    # keyword arguments of LobbyServer; a subclass may name others (e.g. admin)
    server_options: dict[str, Any] = {"motd": "Test server."}
    #: the listeners (a subclass may name others, e.g. a haproxy: endpoint)
    endpoints: list[str] = ["tcp:0:interface=127.0.0.1"]

    def __init__(self, db: Path) -> None:
        self.db = db
        self.server: Any = None
        self.clients: list[LineClient] = []

    async def start(self) -> None:
        from twisted.internet import reactor

        from protocol.process.host import thread_runner
        from protocol.process.server import LobbyServer
        options = dict(self.server_options)
        if not {"accounts", "scrypt", "password_params"} & set(options):
            # cheap password hashes in the reactor's thread pool: these tests are not about the
            # hash's cost, and a hash of the server's strength in its thread of the lowest CPU
            # priority (protocol.process.host.HashPool) waits seconds for a CPU when other processes
            # keep the machine busy (a moderation test timed out that way)
            options["accounts"] = Accounts(thread_runner(reactor), FAST_HASH)
        self.server = LobbyServer(reactor, Store.threaded(str(self.db), reactor),
                                  self.endpoints, **options)
        await within(self.server.start())

    async def stop(self) -> None:
        for c in self.clients:
            if c.transport is not None and c.transport.connected:
                c.transport.loseConnection()
        await within(self.server.stop())
        # server.stop() writes the log budget's summaries first and then closes the connections,
        # whose disconnect lines (more than a minute's few from 127.0.0.1) start the budget's
        # minute timer again, on the real reactor: its summary line then came 60 s later, in the
        # log of whichever test ran then (test_proxy's "nothing logged from 127.0.0.1" failed so
        # now and then). Stopped again here, nothing of this server outlives its test.
        self.server.world.log_budget.stop()

    async def restart(self) -> None:
        await self.stop()
        self.clients = []
        await self.start()

    def bots_without_delay(self) -> None:
        """Tables made from now on have bots that act at once (no ``bot_delay`` of half a
        second of real time per decision): for tests of what the game's lines say, not of
        the bots' pace."""
        self.server.world.on_new_table = lambda table: setattr(table, "bot_delay", 0.0)

    @property
    def port(self) -> int:
        return self.server.port_numbers()[0]

    async def client(self) -> LineClient:
        c = await line_client(self.port)
        self.clients.append(c)
        return c


_Server = TypeVar("_Server", bound=RunningServer)


@contextlib.asynccontextmanager
async def started(running: _Server) -> AsyncIterator[_Server]:
    """``running`` started for the block and stopped after it, whatever the block does:
    ``async with started(running): ...`` (the one start/stop of the tests' servers)."""
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


def server_fixture(make: Callable[[Path], RunningServer], name: str) -> Any:
    """A fixture called ``name``: the server ``make(db)`` (a RunningServer or a subclass of it,
    on a fresh database in the test's tmp_path), started before its test and stopped after it.
    Every server fixture is made here: ``web = server_fixture(WebServer, "web")``."""
    @pytest_twisted.async_yield_fixture(name=name)
    async def fixture(tmp_path: Path) -> AsyncIterator[RunningServer]:
        async with started(make(tmp_path / "lobby.sqlite3")) as running:
            yield running
    return fixture


server = server_fixture(RunningServer, "server")


def held_runner(pending: list[Deferred]) -> Callable[..., Deferred]:
    """A stand-in for Accounts' thread runner that holds every password check back: each call
    appends a Deferred to ``pending``; firing it runs the check. Tests see what a connection does
    while a command is still working."""
    def run(f: Callable[..., Any], *args: Any) -> Deferred:
        d: Deferred = Deferred()
        pending.append(d)
        d.addCallback(lambda _: f(*args))
        return d
    return run


async def play_to_the_end(c: Any, table: Any, name: str, strategy: Any) -> str:
    """Play seat `name` of a running `table` through the text client `c` with `strategy` (its
    decisions read from the engine's view of that seat) until the game ends; what `c` read."""
    from twisted.internet import reactor
    from twisted.internet.task import deferLater
    text: list[str] = []
    for _ in range(3000):
        if table.state != "playing":
            break
        c.send(f"/whereis {name}")                  # settle: everything before it was handled
        text.append(await c.expect(f"{name} is in the "))
        command = strategy.decide(table.match.view(table.players.index(name)))
        if command:
            c.send("/" + command)
        else:
            await deferLater(reactor, 0.005, lambda: None)
    c.send("/spielinfo")
    text.append(await c.expect("finished"))
    return "".join(text)
