"""The composition root: the server built from its parts, started and stopped; the service and
the entry point. The options it is built from are declared in protocol/process/options.py.

``main()`` installs Twisted's asyncio reactor before anything imports the reactor, logs with
twisted.logger to stdout (one line per event), opens the database (migrations applied), listens
on every ``--port`` endpoint and stops cleanly on SIGINT/SIGTERM: listeners closed, users told,
connections closed, database closed.

Tests build a ``LobbyServer`` with an injected reactor (or task.Clock for the world's time), a
temporary or in-memory store, and endpoints like ``tcp:0:interface=127.0.0.1``.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from twisted.application.service import Service
from twisted.internet.defer import (
    Deferred,
    DeferredList,
    TimeoutError,
    gatherResults,
    inlineCallbacks,
    maybeDeferred,
    succeed,
)
from twisted.internet.protocol import Factory
from twisted.logger import Logger

from lobby.events import Event
from lobby.storage.accounts import DEFAULT_PARAMS, Accounts, Argon2Params
from lobby.storage.store import StartupError, Store
from lobby.world.world import World

if TYPE_CHECKING:
    from collections.abc import Callable

    from protocol.connection.session import Services, Session

from protocol.option_fields import values_from
from protocol.process.host import HashPool, install_reactor, raise_fd_limit
from protocol.process.options import (
    DEFAULT_LANG,
    DEFAULT_PORT,
    MetricsOptions,
    configure_journal,
    limits_from,
    parse_args,
    web_options_from,
)

__all__ = ["LobbyFactory", "LobbyServer", "LobbyService", "main", "read_motd"]


log = Logger(namespace="protocol.server")


class LobbyFactory(Factory["Session"]):
    """Builds a Session per connection, each with the one ``Services`` of this server."""

    noisy = False  # the server logs its own "listening on" lines
    #: the connection's class (Session), set in __init__: never None here
    protocol: Callable[[Services], Session]

    def __init__(self, world: World, store: Store, accounts: Accounts, motd: str = "",
                 guard: Any = None, telnet_options: Any = None, metrics: Any = None,
                 lang: str = DEFAULT_LANG) -> None:
        from lobby.world.moderation import Moderation
        from protocol.connection.guard import Guard, Limits
        from protocol.connection.session import Services, Session  # the session imports the telnet layer
        from protocol.process.metrics import ServerMetrics
        from protocol.telnet.options import TelnetOptions
        self.protocol = Session
        if telnet_options is None:
            telnet_options = TelnetOptions()
        #: the MUD options' facts: the server's start and how many are online (MSSP)
        telnet_options.started = world.clock.seconds()
        telnet_options.players = lambda: len(world.users)
        self.services = Services(
            world=world, store=store, accounts=accounts,
            # connection limits, flood control, timers (all off by default)
            guard=guard if guard is not None else Guard(Limits(), world.clock, world),
            metrics=metrics if metrics is not None else ServerMetrics(),
            telnet_options=telnet_options, motd=motd, lang=lang)
        if world.moderation is None:  # mute lists work in every lobby
            Moderation(store, world)

    def buildProtocol(self, addr: Any) -> Session:
        session = self.protocol(self.services)
        session.factory = self
        return session


class RefusingGate(Factory):
    """The factory of a plain TCP listener (no TLS, no PROXY header, so the peer is the client),
    in front of the ``LobbyFactory``: a connection the guard refuses past its address group's
    ``--refusals-per-minute`` is closed at once, before a session is made, without a word
    (``Guard.refused_at_once``); every other one gets its session from the lobby's factory."""

    noisy = False

    def __init__(self, lobby: LobbyFactory) -> None:
        self.lobby = lobby

    def buildProtocol(self, addr: Any) -> Any:
        from protocol.connection.guard import canonical_host
        guard = self.lobby.services.guard          # (a LobbyFactory always has one)
        if guard is not None and guard.refused_at_once(
                canonical_host(str(getattr(addr, "host", "?")))):
            return None                   # twisted closes the socket at once
        return self.lobby.buildProtocol(addr)


def _plain_tcp(description: str) -> bool:
    """``tcp:4000...``, ``tcp6:...``: the peer of a connection is its client."""
    return description.split(":", 1)[0].lower() in ("tcp", "tcp6")


class LobbyServer:
    """One lobby: world + store + listeners. ``start()`` and ``stop()`` return Deferreds."""

    def __init__(self, reactor: Any, store: Store, endpoints: Sequence[str] = (DEFAULT_PORT,),
                 motd: str = "", clock: Any = None, accounts: Accounts | None = None,
                 password_params: Argon2Params = DEFAULT_PARAMS, limits: Any = None,
                 admin: str | None = None, telnet_options: Any = None,
                 metrics: str | None = None, bot_workers: int = 0, bot_pool: Any = None,
                 lang: str = DEFAULT_LANG, bot_queue: int | None = None,
                 bot_slack: float | None = None, bot_hang: float | None = None,
                 bot_quantum: float | None = None,
                 web: Sequence[str] = (), web_options: Any = None,
                 staff_refresh: float = 0.0,
                 metrics_options: MetricsOptions | None = None) -> None:
        from lobby.world.moderation import Moderation
        from protocol.connection.guard import Guard, Limits
        self.reactor = reactor
        self.store = store
        self.endpoints = list(endpoints)
        #: the defences (protocol.connection.guard.Limits; everything off unless given, see parse_args)
        self.limits = limits if limits is not None else Limits()
        #: the search bots' worker processes (lobby/bots/runtime/pool.py; none: they think in process)
        self.bot_pool: Any = bot_pool               # (tests give their own)
        if bot_pool is None and bot_workers > 0:
            from lobby.bots.runtime.pool import HANG, QUANTUM, SLACK, BotPool
            self.bot_pool = BotPool(reactor, bot_workers, queue_limit=bot_queue,
                                    slack=SLACK if bot_slack is None else bot_slack,
                                    hang=HANG if bot_hang is None else bot_hang,
                                    quantum=QUANTUM if bot_quantum is None else bot_quantum)
        self.world = World(clock if clock is not None else reactor,
                           table_limits=self.limits.table_limits(), bot_pool=self.bot_pool)
        from protocol.connection.session import Session
        self.world.bulk_deliver = Session.deliver_many     # a crowded room's speech at once
        self.hash_pool: HashPool | None = None
        if accounts is None:
            self.hash_pool = HashPool(reactor)
            accounts = Accounts(self.hash_pool, password_params)
        self.accounts = accounts
        self.moderation = Moderation(store, self.world, admin)
        #: --staff-refresh: seconds between readings of the staff accounts (0: never)
        self.staff_refresh = staff_refresh
        from lobby.world.friends import Friends
        self.friends = Friends(store, self.world)            # /notify lists (world.friends)
        self.moderation.shutdown_handler = self.shutdown
        self.moderation.cancel_handler = self.cancel_shutdown
        from protocol.process.metrics import ServerMetrics
        #: the defences' state and the Prometheus metrics (the connections read them as
        #: services: self.factory.services)
        self.guard = Guard(self.limits, self.world.clock, self.world)
        self.metrics = ServerMetrics()
        self.factory = LobbyFactory(self.world, store, self.accounts, motd, self.guard,
                                    telnet_options, self.metrics, lang=lang)
        self.ports: list[Any] = []
        self._stopping: Deferred[None] | None = None
        #: run (and waited for) before a /shutdown stops the server: the persistence issue
        #: records every running table here. Each is a callable returning None or a Deferred.
        self.before_shutdown: list[Any] = []
        #: called after a /shutdown has stopped the server (main(): stops the reactor)
        self.exit: Any = None
        #: lobby.world.persistence.Persistence: the action journal (flushed once per reactor turn, so
        #: it runs on the reactor, not the world's clock) and the game records
        from lobby.world.persistence import Persistence
        self.persistence = Persistence(store, self.world, reactor)
        self.world.recorder = self.persistence
        self.before_shutdown.append(self.persistence.shutdown)
        self._shutdown_call: Any = None
        #: --metrics ENDPOINT: the web port of /metrics, /healthz, /games/GAME.tch (None: off)
        self.metrics_endpoint = metrics
        # the metrics port's settings (--metrics-timeout ... --health-cache: MetricsOptions,
        # declared once in protocol/process/options.py, their defaults too)
        defaults = metrics_options if metrics_options is not None else MetricsOptions()
        #: --metrics-timeout SECONDS: an idle or half-sent HTTP connection is closed after it
        self.metrics_timeout = defaults.metrics_timeout
        #: /healthz: the test write's bound, and how long a failed journal commit makes it 503
        self.health_timeout = defaults.health_timeout
        self.health_journal_window = defaults.health_journal_window
        #: a request whole within this many seconds, and connections at once (the web port)
        self.metrics_request_timeout = defaults.metrics_request_timeout
        self.metrics_max_connections = defaults.metrics_max_connections
        self.metrics_max_per_address = defaults.metrics_max_per_address
        #: requests per address group a second (past it 429), and how long /healthz's verdict
        #: stands (--metrics-requests-per-second, --health-cache)
        self.metrics_requests_per_second = defaults.metrics_requests_per_second
        self.health_cache = defaults.health_cache
        self.metrics_port: Any = None
        #: the TLS contexts of the ssl: listeners (telnet and web), which SIGHUP reloads
        self.tls: list[Any] = []
        #: --web ENDPOINT: the web client's listeners (protocol/web; none: off)
        self.web_endpoints = list(web)
        self.web_options = web_options
        self.web_ports: list[Any] = []
        self.metrics.watch(self)
        self.persistence.journal.on_commit = self.metrics.journal_commit

    @inlineCallbacks
    def start(self) -> Any:
        """Open the database, then listen on every endpoint (StoreError / CannotListenError)."""
        from protocol.telnet.proxy import listen
        version = yield self.store.open()
        log.info("database {path} open, schema version {version}", path=self.store.path,
                 version=version)
        try:
            # the address groups the accounts logged in from (protocol/connection/guard.py: throttle,
            # never lock out)
            yield self.guard.load_known(self.store)
            yield Deferred.fromCoroutine(self.moderation.load())
            self.moderation.refresh_every(self.staff_refresh)
            yield Deferred.fromCoroutine(self.friends.load())
            restored = yield Deferred.fromCoroutine(self.persistence.restore())
        except BaseException:
            yield self.store.close()
            raise
        if restored:
            log.info("{count} running tables restored from the journal: {tables}",
                     count=len(restored), tables=[t.number for t in restored])
        log.info("limits: {limits}", limits=self.limits.describe())
        try:
            for description in self.endpoints:
                # (haproxy:ENDPOINT: each connection's PROXY header first, protocol/telnet/proxy.py)
                factory = RefusingGate(self.factory) if _plain_tcp(description) else self.factory
                port = yield listen(self.reactor, description, factory, self.world.clock,
                                    self.limits.login_timeout, tls=self.tls)
                self.ports.append(port)
                log.info("listening on {endpoint} ({address})", endpoint=description,
                         address=_address(port))
            if self.metrics_endpoint:
                yield self._listen_metrics()
            for description in self.web_endpoints:
                yield self._listen_web(description)
        except BaseException:
            yield self._close_ports()
            yield self.store.close()
            if self.hash_pool is not None:
                self.hash_pool.stop()
            raise
        return self

    @inlineCallbacks
    def _listen_metrics(self) -> Any:
        from twisted.internet.endpoints import serverFromString

        from protocol.process.metrics_site import MetricsSite
        endpoint = serverFromString(self.reactor, self.metrics_endpoint)
        self.metrics_port = yield endpoint.listen(MetricsSite(
            self, self.metrics_timeout, request_timeout=self.metrics_request_timeout,
            max_connections=self.metrics_max_connections,
            max_per_address=self.metrics_max_per_address,
            requests_per_second=self.metrics_requests_per_second))
        log.info("metrics on {endpoint} ({address}): /metrics, /healthz, /games/GAME.tch, "
                 "the log archive /",
                 endpoint=self.metrics_endpoint, address=_address(self.metrics_port))

    @inlineCallbacks
    def _listen_web(self, description: str) -> Any:
        from protocol.web.websocket import listen_web
        port = yield listen_web(self.reactor, description, self.factory, self.web_options,
                                tls=self.tls, archive=lambda: self.persistence.archive)
        self.web_ports.append(port)
        log.info("web client on {endpoint} ({address}): open {url}", endpoint=description,
                 address=_address(port), url=_web_url(description, port))

    def web_port_numbers(self) -> list[int]:
        return [p.getHost().port for p in self.web_ports]

    def shutdown(self, seconds: float, reason: str = "", by: str = "the operator") -> None:
        """``/shutdown``: warn everybody, refuse new tables and games, and after ``seconds`` run
        the ``before_shutdown`` hooks, ``stop()`` and ``exit``. A second call restarts the count.
        ``reason`` is empty when none was given."""
        self.world.closing = True
        self.world.broadcast(Event("shutdown-warning", seconds=int(seconds), reason=reason, by=by))
        if self._shutdown_call is not None and self._shutdown_call.active():
            self._shutdown_call.cancel()
        self._shutdown_call = self.world.clock.callLater(seconds, self._shutdown_now)

    def cancel_shutdown(self, by: str) -> bool:
        """``/shutdown cancel``: the count stops, new tables and games may start again, and
        everybody is told; False when no shutdown is under way (or it has begun)."""
        call = self._shutdown_call
        if call is None or not call.active() or self._stopping is not None:
            return False
        call.cancel()
        self._shutdown_call = None
        self.world.closing = False
        self.world.broadcast(Event("shutdown-cancelled", by=by))
        return True

    def _shutdown_now(self) -> Deferred[None]:
        self._shutdown_call = None
        return Deferred.fromCoroutine(self._run_shutdown())

    async def _run_shutdown(self) -> None:
        if self._stopping is not None:  # stopped meanwhile (SIGTERM)
            return
        for hook in list(self.before_shutdown):
            try:
                await maybeDeferred(hook)
            except Exception:
                log.failure("a before-shutdown hook failed")
        await self.stop()
        if self.exit is not None:
            self.exit()

    def port_numbers(self) -> list[int]:
        return [p.getHost().port for p in self.ports]

    def stop(self) -> Deferred[None]:
        """Close the listeners, tell everybody and close their connections, close the database."""
        if self._stopping is None:
            self._stopping = Deferred.fromCoroutine(self._stop())
        return self._stopping

    async def _stop(self) -> None:
        log.info("stopping")
        self.moderation.stop_refreshing()
        self.persistence.frozen = True  # tables closed from now on stay in the journal
        self.world.log_budget.stop()    # the counted log lines' summaries now
        await self._close_ports()
        sessions = list(self.factory.services.sessions)
        closed = [s.when_closed() for s in sessions]
        for session in sessions:
            session.disconnect(Event("shutdown"))
        if closed:
            try:
                await DeferredList(closed).addTimeout(5, self.reactor)
            except TimeoutError:
                log.warn("{count} connections did not close in time", count=len(closed))
        if self.bot_pool is not None:   # first: no bot answer may reach a table any more
            await self.bot_pool.stop()
        self.world.halt()               # then no bot or timer plays on into the closed database
        try:
            await self.persistence.shutdown()  # every running table stays in the journal
        except Exception:
            log.failure("recording the running tables failed")
        await self.store.close()
        if self.hash_pool is not None:
            self.hash_pool.stop()
        log.info("stopped; database {path} closed", path=self.store.path)

    def _close_ports(self) -> Deferred[Any]:
        ports, self.ports = self.ports, []
        ports += self.web_ports
        self.web_ports = []
        if self.metrics_port is not None:
            ports.append(self.metrics_port)
            self.metrics_port = None
        if not ports:
            return succeed(None)
        return gatherResults([p.stopListening() for p in ports])


def _address(port: Any) -> str:
    host = port.getHost()
    return f"{getattr(host, 'host', host)}:{getattr(host, 'port', '')}"


def _web_url(description: str, port: Any) -> str:
    """The address to open in a browser for the web listener ``description``."""
    host = getattr(port.getHost(), "host", "127.0.0.1")
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    scheme = "https" if description.split(":", 1)[0].lower() in ("ssl", "tls") else "http"
    return f"{scheme}://{host}:{port.getHost().port}/"


def read_motd(opts: argparse.Namespace) -> str:
    """The text of ``--motd`` ("" without it); OSError when the file cannot be read."""
    if not opts.motd:
        return ""
    return Path(opts.motd).read_text(encoding="utf-8", errors="replace").rstrip("\n")


class LobbyService(Service):
    """The server as a Twisted service: ``tichu-lobby`` (``main``) and ``twist tichu-lobby``
    (twisted/plugins/tichu_lobby.py) both run one, from the same parsed options.

    ``startService`` builds the ``LobbyServer`` on the installed reactor and starts it; a start
    that fails is logged (critical), written to stderr as one line, sets ``exit_code`` to 1 and
    stops the reactor. ``stopService`` (the reactor's shutdown) returns the server's stop.
    """

    name = "tichu-lobby"

    def __init__(self, opts: argparse.Namespace, motd: str = "", loop: str = "asyncio",
                 reactor: Any = None) -> None:
        self.opts = opts
        self.motd = motd
        self.loop = loop                      # the event loop's description (install_reactor)
        self._reactor = reactor
        self.server: LobbyServer | None = None
        self.exit_code = 0
        #: called with the exit code after a failed start (the twist plugin: exit status 1)
        self.on_failure: Any = None

    @property
    def reactor(self) -> Any:
        if self._reactor is None:
            from twisted.internet import reactor
            self._reactor = reactor
        return self._reactor

    def startService(self) -> None:
        Service.startService(self)
        reactor, opts = self.reactor, self.opts
        if "not installed" in self.loop:
            log.warn("event loop: {loop}", loop=self.loop)
        else:
            log.info("event loop: {loop}", loop=self.loop)
        if opts.twisted_writes:
            from protocol.telnet.transport import TelnetLineProtocol
            TelnetLineProtocol.GATHER_WRITES = False
        else:
            from protocol.telnet.gathered_write import available
            available(reactor)      # the start-up probe: one warning if Twisted's internals moved
        from protocol.process.logs import reopen_on_sighup
        # an external logrotate's postrotate, or a new MOTD: kill -HUP
        reopen_on_sighup(reactor, self._reload)
        nofile = raise_fd_limit()
        from protocol.telnet.options import options_from as telnet_options_from
        self.server = LobbyServer(reactor, Store.threaded(opts.db, reactor), opts.port, self.motd,
                                  limits=limits_from(opts, nofile), admin=opts.admin,
                                  telnet_options=telnet_options_from(opts), metrics=opts.metrics,
                                  bot_workers=opts.bot_workers, lang=opts.lang,
                                  bot_queue=opts.bot_queue, bot_slack=opts.bot_slack,
                                  bot_hang=opts.bot_hang, bot_quantum=opts.bot_quantum,
                                  web=opts.web or (),
                                  web_options=web_options_from(opts),
                                  staff_refresh=opts.staff_refresh,
                                  metrics_options=MetricsOptions(**values_from(MetricsOptions, opts)))
        configure_journal(self.server.persistence.journal, opts)
        self.server.exit = reactor.stop  # after /shutdown
        from protocol.process.reactor_health import GcPolicy, ReactorProbe
        probe = ReactorProbe(reactor, opts.reactor_probe) if opts.reactor_probe > 0 else None
        policy = None if opts.no_gc_policy else GcPolicy(
            reactor, gen0=opts.gc_threshold, freeze_interval=opts.gc_freeze_interval,
            thaw_interval=opts.gc_thaw_interval, freeze_survivors=opts.gc_freeze_survivors)

        def started(result: Any) -> Any:
            if policy is not None:
                policy.start()           # after start-up: what it made is frozen
            if probe is not None:
                probe.start()
            return result

        self.server.start().addCallback(started).addErrback(self._failed)

    def _reload(self) -> list[str]:
        """SIGHUP: read the --motd file again (what new connections are greeted with) and the
        certificate and key of every TLS listener (what new connections are offered); a file
        that cannot be read keeps the old one. What was done, for the log line."""
        if self.server is None:
            return []
        done = [tls.reload() for tls in self.server.tls]
        if not self.opts.motd:
            return done
        try:
            motd = read_motd(self.opts)
        except OSError as e:
            from protocol.telnet.proxy import NotReloaded
            return [NotReloaded(f"the MOTD {self.opts.motd} kept: {e.strerror or e}"), *done]
        self.motd = self.server.factory.services.motd = motd
        return [f"the MOTD reloaded from {self.opts.motd} ({len(motd)} characters)", *done]

    def _failed(self, failure: Any) -> None:
        self.exit_code = 1
        if failure.check(StartupError):
            message = str(failure.value)
        else:
            message = f"cannot start: {failure.getErrorMessage()}"
        log.critical("{message}", message=message)
        # the real stderr: twist redirects sys.stderr into its log
        stderr = sys.__stderr__ or sys.stderr
        stderr.write(f"tichu-lobby: {message}\n")
        stderr.flush()
        if self.on_failure is not None:
            self.on_failure(self.exit_code)
        self.reactor.stop()

    def stopService(self) -> Deferred[None]:
        Service.stopService(self)
        if self.server is None:
            return succeed(None)
        return self.server.stop()


def twist_options(argv: Sequence[str], twist: Any, prog: str) -> dict[str, Any]:
    """``twist tichu-lobby ARGV``: the parsed options, the message of the day and the event loop
    (the asyncio reactor is installed here, before twist would install its default one, unless
    twist's ``--reactor`` installed one). ``twist`` is twist's own options: our logging options
    that were given replace its logging ones. A file that cannot be read is a usage error."""
    from twisted.python.usage import UsageError

    from protocol.process.logs import apply_to_twist
    opts = parse_args(argv, prog)
    try:
        motd = read_motd(opts)
    except OSError as e:
        raise UsageError(f"cannot read the message of the day {opts.motd!r}: {e.strerror or e}") from e
    try:
        apply_to_twist(opts, twist)
    except OSError as e:
        raise UsageError(f"cannot open the log file {opts.log_file!r}: {e.strerror or e}") from e
    return {"opts": opts, "motd": motd, "loop": install_reactor(opts.uvloop)}


def exit_status_at_exit(code: int) -> None:
    """Make the process exit with ``code`` when the interpreter exits (``twist`` itself exits
    with 0 once its reactor has stopped, even after a failed start)."""
    import atexit

    def leave() -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    atexit.register(leave)


def main(argv: Sequence[str] | None = None) -> int:
    """The entry point of ``tichu-lobby``, ``python -m protocol`` and ``scripts/serve``;
    ``tichu-lobby admin ...`` is the offline administration (protocol/process/admin_cli.py)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] != ["admin"]:
        from protocol.process.logs import hold_sighup
        hold_sighup()                   # a SIGHUP before the reactor runs is kept, not fatal
    if args[:1] == ["admin"]:
        from protocol.process.admin_cli import main as admin_main
        return admin_main(args[1:])
    opts = parse_args(args)
    try:
        motd = read_motd(opts)
    except OSError as e:
        sys.stderr.write(f"tichu-lobby: cannot read the message of the day {opts.motd!r}: "
                         f"{e.strerror or e}\n")
        return 2
    from protocol.process.logs import start_logging
    try:
        start_logging(opts)
    except OSError as e:
        sys.stderr.write(f"tichu-lobby: cannot open the log file {opts.log_file!r}: "
                         f"{e.strerror or e}\n")
        return 2

    loop = install_reactor(opts.uvloop)
    from twisted.internet import reactor

    service = LobbyService(opts, motd, loop, reactor)
    reactor.callWhenRunning(service.startService)
    reactor.addSystemEventTrigger("before", "shutdown", service.stopService)
    reactor.run()
    return service.exit_code
