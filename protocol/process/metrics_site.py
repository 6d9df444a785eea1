"""The metrics port: ``--metrics ENDPOINT`` serves ``/metrics`` (Prometheus), ``/healthz`` and
``/games/GAME.tch`` with twisted.web, for the ``ServerMetrics`` of protocol/process/metrics.py.

The server imports this module only when ``--metrics`` is given (twisted.web, the web package's
archive and TLS with it: about 0.1 s of CPU that a server without the port never spends; issue 25).

The web port (``MetricsSite``):

- ``GET /metrics``: the Prometheus text format (or OpenMetrics when the scraper asks for it);
- ``GET /healthz``: ``200 {"status": "ok", ...}`` when the reactor answers, the database file
  is still the one opened (device and inode), no journal commit failed in the last
  ``--health-journal-window`` seconds (``JOURNAL_FAILURE_WINDOW``) without one working since, and
  a test write on the database's worker thread returns within ``--health-timeout`` seconds
  (``HEALTH_TIMEOUT``); else ``503`` with the
  reason in ``store``;
- ``GET /games/GAME.tch``: the BSW log of a stored (finished) game, exactly what ``/tchlog GAME``
  prints to anybody logged in, guests included: ``text/plain; charset=utf-8`` (the archive keeps
  the text as UTF-8). A game that is not stored (running, never played), one played with
  ``/option log off`` and any other path are ``404``. No running game is ever served: a game
  reaches the archive only when it has ended.
- the layout of BSW's public Tichu log archive, which archive tools (BSW-log downloaders) mirror:
  ``GET /`` a page linking every month that has logs, newest first (``<a href="/YYYYMM">``);
  ``GET /YYYYMM`` that month's index (UTC, by the game's end), one line ``<a href="/N.tch">N.tch</a>``
  per game, ascending; ``GET /N.tch`` the log, the same as ``/games/N.tch``. A month without logs
  is ``404``.
"""

from __future__ import annotations

import gzip
import json
import os
from typing import TYPE_CHECKING, Any

from prometheus_client.exposition import choose_encoder
from twisted.internet.defer import Deferred
from twisted.logger import Logger
from twisted.protocols.policies import ProtocolWrapper
from twisted.web.resource import Resource
from twisted.web.server import NOT_DONE_YET, Site

from lobby.world.addresses import address_group
from protocol.connection.guard import OpenConnections, RequestBudget
from protocol.process.metrics import (
    HEALTH_CACHE,
    HEALTH_TIMEOUT,
    JOURNAL_FAILURE_WINDOW,
    METRICS_REQUESTS_PER_SECOND,
    ServerMetrics,
    Watched,
)
from protocol.web.archive import Archive, archive_child, finish

if TYPE_CHECKING:
    from twisted.internet.interfaces import IAddress
    from twisted.web.server import Request

__all__ = ["MetricsSite"]

log = Logger(namespace="protocol.metrics")

class _Metrics(Resource):
    isLeaf = True

    def __init__(self, metrics: ServerMetrics) -> None:
        Resource.__init__(self)
        self.metrics = metrics

    def render_GET(self, request: Request) -> bytes:
        encoder, content_type = choose_encoder(request.getHeader("accept") or "")
        request.setHeader(b"Content-Type", content_type.encode("ascii"))
        request.setHeader(b"Vary", b"Accept, Accept-Encoding")
        body: bytes = encoder(self.metrics.registry)
        if _accepts_gzip(request.getHeader("accept-encoding") or ""):
            request.setHeader(b"Content-Encoding", b"gzip")
            body = gzip.compress(body, compresslevel=6)
        return body


def _accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header allows gzip (not `gzip;q=0`)."""
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "x-gzip", "*"):
            q = params.strip()
            if q.startswith("q="):
                try:
                    return float(q[2:]) > 0
                except ValueError:
                    return False
            return True
    return False


def _identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the database file at ``path``; None when it is not there (or the
    database is not a file)."""
    if path == ":memory:" or path.startswith("file:"):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _test_write(conn: Any) -> None:
    """A real write (one transaction that rewrites the database header's user_version to its
    own value): fails on a full disk, a read-only file or a lost folder."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.execute(f"PRAGMA user_version = {int(version)}")


class _Health(Resource):
    isLeaf = True

    def __init__(self, server: Watched) -> None:
        Resource.__init__(self)
        self.lobby = server
        path = getattr(server.store, "path", ":memory:")
        self.path = path if isinstance(path, str) else ":memory:"
        #: the database file the server opened (see _identity)
        self.opened = _identity(self.path)
        #: the last test write's verdict: (when it came, ok, store), given for --health-cache
        #: seconds; the requests waiting for the test write now running (None: none runs)
        self.verdict: tuple[float, bool, str] | None = None
        self.waiting: list[Any] | None = None

    def _problem(self) -> str | None:
        """Why the store cannot be trusted without asking it, or None."""
        if self.opened is not None and _identity(self.path) != self.opened:
            return "the database file is no longer the one opened (deleted or replaced)"
        journal = getattr(getattr(self.lobby, "persistence", None), "journal", None)
        since = getattr(journal, "last_failure", None)
        if getattr(journal, "failing_since", None) is not None and since is not None \
                and self.lobby.reactor.seconds() - since <= getattr(
                    self.lobby, "health_journal_window", JOURNAL_FAILURE_WINDOW):
            return "journal commits fail"
        return None

    def render_GET(self, request: Request) -> Any:
        server = self.lobby
        started = server.factory.services.telnet_options.started

        def answer(ok: bool, store: str) -> None:
            body = {"status": "ok" if ok else "error", "reactor": "running", "store": store,
                    "started": int(started)}
            finish(request, 200 if ok else 503,
                    (json.dumps(body) + "\n").encode("utf-8"), b"application/json")

        problem = self._problem()
        if problem is not None:
            answer(False, problem)
            return NOT_DONE_YET
        # the test write runs at most once per --health-cache seconds, however fast /healthz
        # is asked: a verdict that young is given again, and requests that come while a test
        # write runs wait for its verdict (issue 23: 1013 test writes a second from one address)
        now = server.reactor.seconds()
        verdict = self.verdict
        if verdict is not None and now - verdict[0] < getattr(server, "health_cache",
                                                              HEALTH_CACHE):
            answer(verdict[1], verdict[2])
            return NOT_DONE_YET
        if self.waiting is not None:
            self.waiting.append(answer)
            return NOT_DONE_YET
        waiting = self.waiting = [answer]

        def told(ok: bool, store: str) -> None:
            self.waiting = None
            self.verdict = (server.reactor.seconds(), ok, store)
            for each in waiting:
                each(ok, store)

        try:
            d: Deferred[Any] = server.store.run_query(_test_write)
        except Exception as e:
            told(False, f"unavailable: {e}")
            return NOT_DONE_YET
        d.addTimeout(getattr(server, "health_timeout", HEALTH_TIMEOUT), server.reactor)
        d.addCallbacks(lambda _: told(True, "ok"),
                       lambda f: told(False, f"test write failed: {f.getErrorMessage()}"))
        return NOT_DONE_YET


class _NotFound(Resource):
    isLeaf = True

    def __init__(self) -> None:
        Resource.__init__(self)

    def render(self, request: Request) -> bytes:
        request.setResponseCode(404)
        request.setHeader(b"Content-Type", b"text/plain; charset=utf-8")
        return b"Not found.\n"


class _TooMany(Resource):
    isLeaf = True

    def __init__(self) -> None:
        Resource.__init__(self)

    def render(self, request: Request) -> bytes:
        request.setResponseCode(429)
        request.setHeader(b"Retry-After", b"1")
        request.setHeader(b"Content-Type", b"text/plain; charset=utf-8")
        return b"Too many requests; try again in a moment.\n"


class _Root(Resource):
    def __init__(self, server: Watched) -> None:
        Resource.__init__(self)
        self.lobby = server
        self.putChild(b"metrics", _Metrics(server.factory.services.metrics))
        self.putChild(b"healthz", _Health(server))

    def _archive(self) -> Archive:
        archive: Archive = self.lobby.persistence.archive
        return archive

    def getChild(self, path: bytes, request: Request) -> Resource:
        # the log archive (protocol/web/archive.py): its months at /, /YYYYMM, /N.tch, /games/N.tch
        found = archive_child(self._archive, path, list(request.postpath or []), b"")
        return found if found is not None else _NotFound()

    def render(self, request: Request) -> bytes:
        return _NotFound().render(request)


class _Connection(ProtocolWrapper):
    """One connection of the web port (``MetricsSite``): its idle timer and the total deadline of
    the request it is sending."""

    def __init__(self, site: MetricsSite, wrapped: Any, host: str) -> None:
        # ProtocolWrapper needs only register/unregisterProtocol of its factory (the site has
        # them); Twisted declares the factory a WrappingFactory
        super().__init__(site, wrapped)       # type: ignore[arg-type]
        self.site = site
        self.host = host                      # the peer, as the connection caps counted it
        self.idle: Any = None
        self.deadline: Any = None
        #: when it was opened (the oldest unfinished one makes room when the port is full), and
        #: whether a whole request came since (a monitor's does at once)
        self.opened = site.clock.seconds()
        self.finished = False

    if TYPE_CHECKING:
        # what twisted.protocols.policies.ProtocolWrapper has, without annotations there
        def getPeer(self) -> IAddress: ...

    def dataReceived(self, data: bytes) -> None:
        site = self.site
        if site.idle_timeout > 0:
            if self.idle is not None and self.idle.active():
                self.idle.reset(site.idle_timeout)
            else:
                self.idle = site.clock.callLater(site.idle_timeout, self._expired, "idle")
        if site.request_timeout > 0 and self.deadline is None:
            # a request begins: it must be whole within request_timeout, however it trickles
            self.deadline = site.clock.callLater(site.request_timeout, self._expired, "request")
        ProtocolWrapper.dataReceived(self, data)

    def request_complete(self) -> None:
        """The request was read whole (twisted.web processes it): the next one gets its own
        deadline."""
        self.finished = True
        if self.deadline is not None and self.deadline.active():
            self.deadline.cancel()
        self.deadline = None

    def _expired(self, what: str) -> None:
        self.site.expired(self, what)

    def cancel_timers(self) -> None:
        for call in (self.idle, self.deadline):
            if call is not None and call.active():
                call.cancel()
        self.idle = self.deadline = None


class MetricsSite(Site):
    """The web port of one server; no access log (a scrape every few seconds would flood it).

    Slowloris cannot hold it (issue 23): a connection that sends nothing for ``timeout`` seconds
    is closed (``--metrics-timeout``), a request that is not whole ``request_timeout`` seconds
    after its first byte is closed however it trickles (``--metrics-request-timeout``), and at
    most ``max_connections`` are open at once (``--metrics-max-connections``; more are closed at
    once), at most ``max_per_address`` of them from one address group
    (``--metrics-max-per-address``: one address never holds every slot, so the operator's
    monitor still gets its ``/healthz``; protocol.connection.guard.OpenConnections counts).
    An address group's requests past ``--metrics-requests-per-second`` are answered 429 (a
    ``RequestBudget``), and ``/healthz`` writes to the database at most once per
    ``--health-cache`` seconds. Those closings are logged within the log budget
    (``World.log_budget``: a few lines a minute per address group, then one summary), never
    once per connection."""

    noisy = False

    def __init__(self, server: Watched, timeout: float = 30.0, reactor: Any = None,
                 *, request_timeout: float = 10.0, max_connections: int = 64,
                 max_per_address: int = 8,
                 requests_per_second: float = METRICS_REQUESTS_PER_SECOND) -> None:
        # twisted.web's own timeout is off: its "Timing out client" line would be one log line
        # per connection; the connection's timers here do the same within the log budget
        Site.__init__(self, _Root(server), timeout=None, reactor=reactor)
        self.server = server
        self.clock = reactor if reactor is not None else _reactor()
        self.idle_timeout = timeout or 0.0
        self.request_timeout = request_timeout
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.caps = OpenConnections(max_connections, max_per_address)
        self.open: set[_Connection] = set()
        #: connections closed by a timer and refused over the cap, requests answered 429
        self.stats = {"idle": 0, "request": 0, "refused": 0, "too_many": 0, "evicted": 0}
        #: --metrics-requests-per-second: requests per address group (loopback included)
        self.requests = RequestBudget(requests_per_second, int(5 * requests_per_second),
                                      self.clock)

    def _log_allowed(self, addr: Any, kind: str) -> bool:
        budget = getattr(getattr(self.server, "world", None), "log_budget", None)
        host = getattr(addr, "host", None) or "?"
        return budget is None or budget.allow(address_group(str(host)), kind)

    def buildProtocol(self, addr: Any) -> Any:
        host = str(getattr(addr, "host", None) or "?")
        over = self.caps.admit(host)
        if over == "total" and self._evict_oldest_unfinished(host):
            over = self.caps.admit(host)
        if over is not None:
            self.stats["refused"] += 1
            if self._log_allowed(addr, "metrics-refused"):
                log.info("metrics port: refused a connection from {host}: {count} open, the "
                         "most {option} allows", host=host,
                         count=(self.caps.total if over == "total"
                                else self.caps.per_group.get(address_group(host), 0)),
                         option=("--metrics-max-connections" if over == "total"
                                 else "--metrics-max-per-address"))
            return None           # twisted closes the connection at once
        channel = Site.buildProtocol(self, addr)
        return _Connection(self, channel, host)

    def _evict_oldest_unfinished(self, host: str) -> bool:
        """Every slot is taken (``--metrics-max-connections``): make room for ``host`` by closing
        the oldest connection that has not sent a whole request yet, from another address group
        (a monitor's request is whole in milliseconds; several addresses trickling half
        requests could otherwise hold every slot and starve ``/healthz``). False when every
        open connection is busy with a whole request or is ``host``'s own group's."""
        group = address_group(host)
        pending = [c for c in self.open if not c.finished
                   and c.transport is not None and address_group(c.host) != group]
        if not pending:
            return False
        oldest = min(pending, key=lambda c: c.opened)
        self.unregisterProtocol(oldest)        # (its slot is free at once)
        self.stats["evicted"] += 1
        transport: Any = oldest.transport
        abort = getattr(transport, "abortConnection", None)
        (abort or transport.loseConnection)()
        return True

    def registerProtocol(self, connection: _Connection) -> None:
        self.open.add(connection)
        if self.idle_timeout > 0:
            connection.idle = self.clock.callLater(self.idle_timeout, connection._expired, "idle")

    def unregisterProtocol(self, connection: _Connection) -> None:
        connection.cancel_timers()
        if connection in self.open:
            self.caps.release(connection.host)
        self.open.discard(connection)

    def expired(self, connection: _Connection, what: str) -> None:
        """``connection`` sent nothing for the idle time (``idle``) or no whole request in time
        (``request``): closed, without waiting for a client that does not read."""
        connection.cancel_timers()
        self.stats[what] += 1
        peer = connection.getPeer()
        if self._log_allowed(peer, "metrics-timeout"):
            log.info("metrics port: closed the connection of {host}: {why}",
                     host=getattr(peer, "host", "?"),
                     why="no whole request in time" if what == "request" else "idle")
        transport: Any = connection.transport
        abort = getattr(transport, "abortConnection", None)
        if abort is not None:
            abort()
        else:
            transport.loseConnection()

    def getResourceFor(self, request: Any) -> Any:
        # called once a request was read whole: its connection's deadline ends
        connection = getattr(getattr(request, "channel", None), "transport", None)
        if isinstance(connection, _Connection):
            connection.request_complete()
            if not self.requests.allow(connection.host):
                # past the address group's --metrics-requests-per-second: 429, nothing else
                self.stats["too_many"] += 1
                return _TooMany()
        return Site.getResourceFor(self, request)

    def log(self, request: Any) -> None:
        pass


def _reactor() -> Any:
    from twisted.internet import reactor
    return reactor
