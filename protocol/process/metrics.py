"""Metrics: the counters, gauges and histograms of the server, for Prometheus (``--metrics``).

``ServerMetrics`` is made once per server (``LobbyFactory.metrics``) with its own
``CollectorRegistry`` (several servers in one process, as in the tests, never share one). The hot
paths only increment: a command, an error, a dropped line, a new connection is one ``inc()`` of a
prometheus_client child that was looked up once per label value; a command, the most frequent,
is two additions to plain numbers (its count per latency bucket and its time), which the scrape
turns into a counter and a histogram (``_CommandCollector``). Everything that is
a state rather than an event (users online, connections, tables, the journal's backlog) is read
when Prometheus scrapes, by ``_StateCollector``, on the reactor thread (the resource renders
there: prometheus_client's own Twisted resource would collect in a worker thread, which must
not read the world).

Every metric, its labels and a scrape configuration: docs/operations.md, "Metrics".

The web port that serves them (``--metrics``, ``MetricsSite``) is protocol/process/metrics_site.py,
imported only when ``--metrics`` is given: this module needs no twisted.web (nor the web package, nor
TLS), so a server without the metrics port never imports them (issue 25: the start of every server).
"""
from __future__ import annotations

import platform
from bisect import bisect_left
from collections.abc import Iterator
from typing import Any, Protocol

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

import lobby
from lobby.text.messages import ERRORS


class Watched(Protocol):
    """What the metrics read of the server they watch at every scrape (protocol.process.server's
    LobbyServer is one): declared here, so that the metrics never import the server."""

    reactor: Any
    world: Any
    store: Any
    factory: Any
    persistence: Any


__all__ = ["ServerMetrics", "HEALTH_TIMEOUT", "LATENCY_BUCKETS"]


#: seconds /healthz waits for the database's worker thread (the default of --health-timeout)
HEALTH_TIMEOUT = 5.0
#: seconds after a failed journal commit (with none working since) during which /healthz
#: answers 503 (the default of --health-journal-window; docs/operations.md, "Health")
JOURNAL_FAILURE_WINDOW = 60.0
#: the default of --health-cache: seconds /healthz gives the verdict of its last test write
#: (at most one test write on the database that often, however fast /healthz is asked)
HEALTH_CACHE = 1.0
#: the default of --metrics-requests-per-second: requests of one address group a second on
#: average (five seconds' worth at once); past it 429
METRICS_REQUESTS_PER_SECOND = 10.0
#: command latency buckets (seconds): most commands take well under a millisecond; a log-in
#: with a password hash tens of milliseconds; a slow database query seconds
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                   5.0, 10.0)
#: journal commit buckets (seconds): one transaction per reactor turn
JOURNAL_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)



class ServerMetrics:
    """The metrics of one server (see the module's docstring)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        # the usual collectors of a Python process: process_* (CPU, memory, open files, start
        # time; where /proc exists), python_info and python_gc_*
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        GCCollector(registry=r)
        self.build_info = Gauge("tichu_build_info", "The server's version (always 1)",
                                ["version", "python"], registry=r)
        self.build_info.labels(lobby.__version__, platform.python_version()).set(1)
        self.errors = Counter("tichu_errors", "Error lines sent, by error code (the catalog key, "
                              "docs/protocol.md)", ["code"], registry=r)
        self.flood_drops = Counter("tichu_flood_drops", "Lines, telnet subnegotiations and "
                                   "WebSocket pings dropped by flood control", ["kind"],
                                   registry=r)
        self.connections_total = Counter("tichu_connections_accepted", "Connections accepted "
                                         "(on every --port listener)", registry=r)
        self.logins = Counter("tichu_logins", "Log-ins, by kind", ["kind"], registry=r)
        self.journal_seconds = Histogram(
            "tichu_journal_commit_duration_seconds", "Time from the start of a journal "
            "transaction (one or more reactor turns' writes) to its commit, inline or on the "
            "database's worker thread",
            buckets=JOURNAL_BUCKETS, registry=r)
        #: command name -> [count per latency bucket (the last: above every bound), sum of
        #: seconds]: plain numbers on the hot path (the reactor thread is the only writer),
        #: turned into tichu_commands_total and the histogram at a scrape (_CommandCollector)
        self._commands: dict[str, list[float]] = {}
        self.registry.register(_CommandCollector(self._commands))
        self._errors: dict[str, Any] = {}
        self._drops = {"line": self.flood_drops.labels("line"),
                       "subnegotiation": self.flood_drops.labels("subnegotiation"),
                       "ping": self.flood_drops.labels("ping")}
        self._logins = {kind: self.logins.labels(kind) for kind in ("registered", "guest")}
        self._state: _StateCollector | None = None

    # ---- what the hot paths call ---------------------------------------------------------------
    def command(self, name: str, seconds: float) -> None:
        """A command ``name`` (a name of the command table) ran in ``seconds``."""
        stats = self._commands.get(name)
        if stats is None:
            stats = self._commands[name] = [0.0] * (len(LATENCY_BUCKETS) + 2)
        stats[bisect_left(LATENCY_BUCKETS, seconds)] += 1   # the first bound >= seconds
        stats[-1] += seconds

    def error(self, code: str) -> None:
        """An error line with ``code`` (a key of lobby.text.messages.ERRORS) was sent."""
        child = self._errors.get(code)
        if child is None:
            child = self._errors[code] = self.errors.labels(code)
        child.inc()

    def flood_drop(self, kind: str) -> None:
        """Flood control dropped a ``line``, a ``subnegotiation`` or a WebSocket ``ping``."""
        self._drops[kind].inc()

    def connection(self) -> None:
        self.connections_total.inc()

    def login(self, registered: bool) -> None:
        self._logins["registered" if registered else "guest"].inc()

    def journal_commit(self, seconds: float) -> None:
        self.journal_seconds.observe(seconds)

    # ---- what is read at a scrape ----------------------------------------------------------------
    def watch(self, server: Watched) -> None:
        """Read ``server``'s state (users, connections, tables, journal) at every scrape."""
        if self._state is None:
            self._state = _StateCollector(server)
            self.registry.register(self._state)
            self.registry.register(_BotCollector(server))

    def text(self) -> bytes:
        """The Prometheus text format of everything (tests, the resource)."""
        from prometheus_client import generate_latest
        return generate_latest(self.registry)


#: the error codes (an event whose type is one of them is an error line)
ERROR_CODES = frozenset(ERRORS)


class _CommandCollector(Collector):
    """tichu_commands_total and tichu_command_duration_seconds from ServerMetrics' plain
    per-command numbers."""

    def __init__(self, commands: dict[str, list[float]]) -> None:
        self.commands = commands

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        counts = CounterMetricFamily("tichu_commands", "Commands run, by command name (speech "
                                     "to a room is not a command)", labels=["command"])
        latency = HistogramMetricFamily(
            "tichu_command_duration_seconds", "Time from a command's line to the end of its "
            "work (a command that waits for the database or a password hash included)",
            labels=["command"])
        bounds = [floatToGoString(b) for b in LATENCY_BUCKETS] + ["+Inf"]
        for name, stats in sorted(self.commands.items()):
            cumulative, buckets = 0.0, []
            for bound, count in zip(bounds, stats[:-1], strict=False):
                cumulative += count
                buckets.append((bound, cumulative))
            counts.add_metric([name], cumulative)
            latency.add_metric([name], buckets, sum_value=stats[-1])
        yield counts
        yield latency


class _StateCollector(Collector):
    """Gauges read from the server when Prometheus scrapes (on the reactor thread)."""

    def __init__(self, server: Watched) -> None:
        self.lobby = server

    def describe(self) -> list[Any]:
        return []          # described at collect time (the registry calls collect otherwise)

    def collect(self) -> Iterator[Any]:
        server = self.lobby
        world = server.world
        services = server.factory.services
        kinds = {"registered": 0, "guest": 0, "bot": 0}
        for user in list(world.users.values()):
            # the connection's output mode says whether it is a bot's (a listener that is no
            # connection, e.g. a test's, has none: a person's)
            if getattr(getattr(user.listener, "output", None), "is_bot_client", False):
                kinds["bot"] += 1
            else:
                kinds["registered" if user.registered else "guest"] += 1
        users = GaugeMetricFamily("tichu_users_online", "Users logged in now, by kind (bot: a "
                                  "connection in machine mode)", labels=["kind"])
        for kind, count in kinds.items():
            users.add_metric([kind], count)
        yield users
        yield GaugeMetricFamily("tichu_connections", "Open connections (logged in or not)",
                                value=len(services.sessions))
        yield GaugeMetricFamily("tichu_mccp_connections", "Connections compressing with MCCP2",
                                value=services.telnet_options.compressing)
        states: dict[str, int] = {"waiting": 0, "playing": 0, "finished": 0}
        seated_bots = 0
        for table in list(world.tables.values()):
            states[table.state] = states.get(table.state, 0) + 1
            seated_bots += len(table.bots)
        tables = GaugeMetricFamily("tichu_tables", "Open tables, by status", labels=["status"])
        for state, count in states.items():
            tables.add_metric([state], count)
        yield tables
        yield GaugeMetricFamily("tichu_table_bots", "Computer players seated at open tables",
                                value=seated_bots)
        persistence = server.persistence
        yield CounterMetricFamily("tichu_actions", "Game actions accepted (plays, passes, "
                                  "bombs, calls, exchanges, wishes, Dragon gifts)",
                                  value=persistence.actions)
        journal = persistence.journal
        writes, held = journal.backlog()
        backlog = GaugeMetricFamily("tichu_journal_backlog", "Journal writes not yet committed "
                                    "and table events held back behind them", labels=["kind"])
        backlog.add_metric(["writes"], writes)
        backlog.add_metric(["events"], held)
        yield backlog
        yield CounterMetricFamily("tichu_journal_failures", "Journal batches that were not "
                                  "committed", value=journal.failures)
        paths = CounterMetricFamily("tichu_journal_transactions", "Journal transactions by where "
                                    "they ran: inline (the reactor thread's own connection) or "
                                    "thread (the database's worker thread)", labels=["path"])
        paths.add_metric(["inline"], journal.inline_transactions)
        paths.add_metric(["thread"], journal.thread_transactions)
        yield paths
        yield CounterMetricFamily("tichu_journal_locked", "Journal transactions that found the "
                                  "database locked inline and went to the worker thread",
                                  value=journal.locked_fallbacks)
        yield CounterMetricFamily("tichu_journal_checkpoints", "WAL checkpoints the journal "
                                  "asked the database's worker thread for",
                                  value=journal.checkpoints)
        yield GaugeMetricFamily("tichu_start_time_seconds", "When the server started (unix "
                                "time)", value=services.telnet_options.started)


class _BotCollector(Collector):
    """The search bots' worker pool (lobby/bots/runtime/pool.py), read when Prometheus scrapes; nothing
    when the bots think in the server process (``--bot-workers 0``)."""

    def __init__(self, server: Watched) -> None:
        self.lobby = server

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        pool = getattr(self.lobby, "bot_pool", None)
        if pool is None:
            return
        from lobby.bots.runtime.pool import DECISION_BUCKETS
        decisions = CounterMetricFamily(
            "tichu_bot_decisions", "Search bot decisions, by decision type and outcome "
            "(searched: a worker's answer; else the heuristic's, because: overloaded, waited, "
            "timeout, lost, error)", labels=["todo", "outcome"])
        for (todo, outcome), count in sorted(pool.outcomes.items()):
            decisions.add_metric([todo, outcome], count)
        yield decisions
        latency = HistogramMetricFamily(
            "tichu_bot_decision_duration_seconds", "Time from a search bot's request to its "
            "answer, by decision type and outcome (as tichu_bot_decisions_total)",
            labels=["todo", "outcome"])
        bounds = [floatToGoString(b) for b in DECISION_BUCKETS] + ["+Inf"]
        for (todo, outcome), stats in sorted(pool.latency.items()):
            cumulative, buckets = 0.0, []
            for bound, count in zip(bounds, stats[:-1], strict=False):
                cumulative += count
                buckets.append((bound, cumulative))
            latency.add_metric([todo, outcome], buckets, sum_value=stats[-1])
        yield latency
        yield GaugeMetricFamily("tichu_bot_workers", "Worker processes of the search bots",
                                value=len(pool.pids()))
        yield GaugeMetricFamily("tichu_bot_workers_busy", "Workers thinking now",
                                value=pool.busy())
        yield GaugeMetricFamily("tichu_bot_queue", "Decisions waiting for a free worker now",
                                value=pool.waiting())
        yield CounterMetricFamily("tichu_bot_worker_replacements", "Workers replaced (died or "
                                  "hung)", value=pool.replaced)
        yield CounterMetricFamily("tichu_bot_worker_cpu_seconds", "CPU seconds the workers "
                                  "used (each reports its own with every answer)",
                                  value=pool.worker_cpu())
