"""The options of ``tichu-lobby``: each declared once, on a dataclass field (name, default, help:
protocol/option_fields.py), and the command line built from the declarations.

The groups, in the order ``--help`` and ``--print-config`` list them: ``ListenOptions`` (where
and how the server listens), ``LogOptions`` (protocol/process/logs.py), ``Limits`` (the defences,
protocol/connection/guard.py), ``MudClientOptions`` (MSSP, MCCP2), ``MetricsOptions``,
``HealthOptions`` (the garbage collector and the reactor probe), ``WebListenerOptions`` (the web
client), ``JournalOptions``, ``BotOptions`` and ``AdminOptions``. A configuration file and the
environment (protocol/process/config.py) read the same parser, so a new field here is an option
everywhere at once: ``--flag``, ``flag = ...`` in the file and ``TICHU_LOBBY_FLAG``.

``parse_args`` is what ``tichu-lobby`` and ``twist tichu-lobby`` run; the composition root
(protocol/process/server.py) reads the parsed values.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lobby import __version__
from lobby.bots.runtime.pool import HANG, QUANTUM, SLACK
from lobby.storage.journal import CHECKPOINT_PAGES, FAILURE_SUMMARY
from lobby.text.messages import LANGUAGES
from protocol.option_fields import add_options, option, values_from
from protocol.process.config import OptionParser
from protocol.process.logs import whole_number
from protocol.process.metrics import (
    HEALTH_CACHE,
    HEALTH_TIMEOUT,
    JOURNAL_FAILURE_WINDOW,
    METRICS_REQUESTS_PER_SECOND,
)
from protocol.process.reactor_health import DEFAULT_GEN0
from protocol.telnet.options import DEFAULT_MAX_MCCP, TelnetOptions, mssp_pair
from protocol.web_options import WebOptions

__all__ = ["AdminOptions", "BotOptions", "DEFAULT_DB", "DEFAULT_LANG", "DEFAULT_PORT",
           "HealthOptions", "JournalOptions", "ListenOptions", "MetricsOptions", "MudClientOptions",
           "WebListenerOptions", "build_parser", "configure_journal", "limits_from",
           "parse_args", "parser_help", "web_options_from"]

DEFAULT_PORT = "tcp:4000:interface=127.0.0.1"
#: the language of a connection that chose none (--lang)
DEFAULT_LANG = "en"
DEFAULT_DB = "tichu.sqlite3"
#: --staff-refresh: how often the staff accounts are read again (seconds)
STAFF_REFRESH = 60.0


@dataclass(frozen=True)
class ListenOptions:
    """Where the server listens, what it keeps, how it greets and writes."""

    port: tuple[str, ...] | None = option(
        None, many=True, metavar="ENDPOINT",
        help=f"a Twisted server endpoint string (default {DEFAULT_PORT}); give several --port "
             "options for several listeners")
    db: str = option(
        DEFAULT_DB, metavar="PATH",
        help=f"the SQLite database file (default {DEFAULT_DB} in the working directory; created "
             "if missing)")
    motd: str | None = option(
        None, metavar="FILE",
        help="a text file shown to everybody who connects, before the login prompt")
    uvloop: bool = option(
        False,
        help="run the asyncio reactor on uvloop's event loop when uvloop is installed (the "
             "optional extra: pip install tichu-lobby[uvloop]); the standard loop otherwise (the "
             "log says which)")
    twisted_writes: bool = option(
        False,
        help="leave every write to Twisted's buffered write path instead of gathering a "
             "connection's writes of one turn into one send (for comparison)")
    lang: str = option(
        DEFAULT_LANG, choices=LANGUAGES,
        help=f"the language of a connection until it chooses one with /set lang (a registered "
             f"name keeps its own): {', '.join(LANGUAGES)} (default {DEFAULT_LANG})")


@dataclass(frozen=True)
class MudClientOptions:
    """The MUD client conventions (docs/operations.md, "MUD clients"; protocol/telnet/options.py)."""

    mssp_name: str = option(
        TelnetOptions().name, metavar="NAME",
        help=f"the server's name for MUD listings (MSSP NAME; default {TelnetOptions().name!r})")
    mssp: tuple[tuple[str, str], ...] = option(
        (), public=[], many=True, parse=mssp_pair, metavar="VAR=VALUE",
        help="an MSSP variable, e.g. CONTACT=ops@example.org, WEBSITE=https://..., "
             "HOSTNAME=..., LANGUAGE=German; several values separated by TABs; replaces a default "
             "value; give several --mssp")
    no_mccp: bool = option(
        False, help="do not offer MCCP2 compression (each compressing connection costs about 40 "
                    "KiB of zlib state)")
    max_mccp: int = option(
        DEFAULT_MAX_MCCP,
        help="connections compressing with MCCP2 at once; further clients are not offered it "
             "(default {default}; 0: no limit)")


@dataclass(frozen=True)
class MetricsOptions:
    """The metrics port (protocol/process/metrics.py)."""

    metrics: str | None = option(
        None, metavar="ENDPOINT",
        help="serve /metrics (Prometheus), /healthz and /games/GAME.tch over HTTP on this "
             "Twisted endpoint, e.g. tcp:4001:interface=127.0.0.1 (default: off; "
             "docs/operations.md, Metrics)")
    metrics_timeout: float = option(
        30.0, help="an HTTP connection to the metrics port that sends nothing for SECONDS is "
                   "closed, a half request too (default {default})")
    metrics_request_timeout: float = option(
        10.0, help="a request to the metrics port that is not whole SECONDS after its first byte "
                   "is closed, however slowly it trickles (default {default}; 0: off)")
    metrics_max_connections: int = option(
        64, help="connections to the metrics port at once; more are closed at once (default "
                 "{default}; 0: no limit)")
    metrics_max_per_address: int = option(
        8, help="connections to the metrics port at once from one address group (an IPv4 "
                "address, an IPv6 --ipv6-group-prefix network, loopback included); more are "
                "closed at once, so one address never holds every slot and the monitor still "
                "gets /healthz (default {default}; 0: no limit)")
    metrics_requests_per_second: float = option(
        METRICS_REQUESTS_PER_SECOND, metavar="N",
        help="requests to the metrics port per address group a second on average (loopback "
             "included), five seconds' worth at once; more are answered 429 (default "
             "{default}; 0: no limit)")
    health_cache: float = option(
        HEALTH_CACHE, metavar="SECONDS",
        help="/healthz gives the verdict of its last database test write for SECONDS: at most "
             "one test write that long, whatever the request rate (default {default}; 0: one "
             "for every request)")
    health_timeout: float = option(
        HEALTH_TIMEOUT, help="/healthz answers 503 when its test write on the database takes "
                             "longer than SECONDS (default {default})")
    health_journal_window: float = option(
        JOURNAL_FAILURE_WINDOW, help="/healthz answers 503 for SECONDS after a failed journal "
                                     "commit, unless one worked since (default {default})")


@dataclass(frozen=True)
class HealthOptions:
    """The garbage-collection policy and the reactor probe (protocol/process/reactor_health.py)."""

    gc_threshold: int = option(
        DEFAULT_GEN0,
        help="allocations before a collection of the young generation (default {default}; 0: "
             "CPython's own thresholds)")
    gc_freeze_interval: float = option(
        60.0,
        help="every SECONDS the young generations are collected and what survived is frozen out "
             "of the collector's way (default {default}; 0: only once after start-up)")
    gc_thaw_interval: float = option(
        3600.0,
        help="every SECONDS everything is unfrozen, collected once and frozen again, which "
             "reclaims reference cycles among frozen objects (default {default}; 0: never)")
    gc_freeze_survivors: bool = option(
        True, flag="--no-gc-freeze-survivors",
        help="do not freeze the survivors of every young collection at once (by default they "
             "are: a collection then walks only what was made since the last one)")
    no_gc_policy: bool = option(
        False, help="leave the garbage collector as CPython sets it (no freezing, no thresholds)")
    reactor_probe: float = option(
        0.0, help="log the longest reactor pause and the garbage collections every SECONDS "
                  "(default 0: off)")


@dataclass(frozen=True)
class WebListenerOptions:
    """The web client (protocol/web: the page and its WebSocket, docs/web.md): its listeners;
    the listener's settings follow, declared on protocol.web.WebOptions."""

    web: tuple[str, ...] | None = option(
        None, many=True, metavar="ENDPOINT",
        help="serve the web client (the page and its WebSocket) on this Twisted endpoint, e.g. "
             "tcp:8080:interface=127.0.0.1, or ssl:8443:privateKey=KEY:certKey=CERT for TLS "
             "(default: off; several --web for several listeners)")


@dataclass(frozen=True)
class JournalOptions:
    """The action journal (lobby/storage/journal.py)."""

    journal_interval: float = option(
        0.005,
        help="at most one journal transaction begins per SECONDS (inline or on the database "
             "thread); an action's events wait for its commit (default {default}; 0: one at the "
             "end of every reactor turn)")
    journal_inline: bool = option(
        True, negatable=True,
        help="commit the journal's small transactions on the reactor thread's own database "
             "connection, which never waits for a lock (a locked database, a finished game: the "
             "database thread); --no-journal-inline: every transaction on the database thread "
             "(default: inline)")
    journal_checkpoint_pages: int | None = option(
        None, parse=whole_number(1), metavar="PAGES",
        help="the database thread checkpoints the WAL about every PAGES pages that the inline "
             f"commits wrote (default {CHECKPOINT_PAGES})")
    journal_fsync: bool = option(
        False, negatable=True,
        help="every journal transaction commits on the database thread with synchronous = FULL "
             "(an fsync per transaction): the moves survive a power cut, not only a killed "
             "server (default: off)")
    journal_failure_summary: float = option(
        FAILURE_SUMMARY, help="a run of failed journal commits logs its first traceback whole, "
                              "then one line with a count every SECONDS (default {default})")


@dataclass(frozen=True)
class BotOptions:
    """Where the expert bots think (lobby/bots/runtime/pool.py)."""

    bot_workers: int | None = option(
        None,
        help="worker processes in which the expert bots think (default: one per core beyond "
             "the first, at least 1; 0: in the server process, which then waits while a bot "
             "thinks)")
    bot_queue: int | None = option(
        None,
        help="bot decisions that may wait for a busy worker (default: as many as there are "
             "workers; 0: none); one more, or one that waited its budget, is the heuristic bot's "
             "decision at once")
    bot_slack: float = option(
        SLACK,
        help="seconds a worker may take beyond a decision's budget before the heuristic bot "
             "decides instead (default {default})")
    bot_quantum: float = option(
        QUANTUM,
        help="the most seconds an expert bot thinks per decision while bots of other tables "
             "want a worker too; a free worker takes the decision of the table and address group "
             "that used the workers least (default {default}; 0: every bot its whole level)")
    bot_hang: float = option(
        HANG,
        help="seconds a worker may stay busy after that before it counts as hung and is "
             "replaced (default {default})")


@dataclass(frozen=True)
class AdminOptions:
    """The first admin."""

    admin: str | None = option(
        None, metavar="NAME",
        help="the first admin: this account gets the role admin (it can then give roles with "
             "/role NAME admin|moderator|none); it must exist, or the server does not start: "
             "create it offline with 'tichu-lobby admin create NAME'")
    staff_refresh: float = option(
        STAFF_REFRESH, metavar="SECONDS",
        help="read the staff accounts again every SECONDS (default {default}; 0: only at "
             "start and at their log-ins), so that a role given offline while the server runs "
             "protects its name from look-alikes within that time")


def build_parser(prog: str = "tichu-lobby") -> argparse.ArgumentParser:
    """The command line, from the declarations above (and the log options and the limits
    declared in their modules), in the order of ``--help``."""
    from protocol.connection.guard import Limits
    from protocol.process.logs import add_log_options
    parser = OptionParser(                 # usage errors without the usage of every option
        prog=prog,
        description="The Tichu lobby server (BrettspielWelt style) on a classic line protocol.",
        epilog="Offline administration (accounts, roles, bans, backups): tichu-lobby admin "
               "--help.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="read options from this TOML file, keys named as the options "
                             "(db = \"lobby.sqlite3\"); the environment (TICHU_LOBBY_NAME) and "
                             "the command line override it (docs/operations.md, Configuration)")
    parser.add_argument("--print-config", action="store_true",
                        help="print every option's value and where it came from (flag, env, "
                             "file, default) as TOML, and exit")
    add_options(parser, ListenOptions)
    add_log_options(parser)
    add_options(parser.add_argument_group(
        "limits (0 turns a limit off; docs/operations.md, Limits)"), Limits)
    add_options(parser.add_argument_group("MUD clients (docs/operations.md, MUD clients)"),
                MudClientOptions)
    add_options(parser, MetricsOptions)
    add_options(parser, HealthOptions)
    web = parser.add_argument_group("web client (docs/web.md)")
    add_options(web, WebListenerOptions)
    add_options(web, WebOptions)
    add_options(parser, JournalOptions)
    add_options(parser, BotOptions)
    add_options(parser, AdminOptions)
    return parser


def parser_help(prog: str = "tichu-lobby") -> str:
    return build_parser(prog).format_help()


def parse_args(argv: Sequence[str] | None = None, prog: str = "tichu-lobby") -> argparse.Namespace:
    """The options of ``tichu-lobby`` (and of ``twist tichu-lobby``: ``prog``); argparse exits
    with status 2 and a usage line on a bad option."""
    from protocol.process.config import configure, render_config
    from protocol.process.logs import check_log_options
    parser = build_parser(prog)
    args = list(sys.argv[1:] if argv is None else argv)
    configured = configure(parser, args)       # --config FILE and TICHU_LOBBY_* under the flags
    opts = parser.parse_args(args)
    opts.port = opts.port or [DEFAULT_PORT]
    problem = check_log_options(opts)
    if problem:
        parser.error(problem)
    if opts.bot_workers is None:
        from lobby.bots.runtime.pool import default_workers
        opts.bot_workers = default_workers()
    elif opts.bot_workers < 0:
        parser.error("--bot-workers must be 0 or more")
    if opts.bot_queue is not None and opts.bot_queue < 0:
        parser.error("--bot-queue must be 0 or more")
    if not 0 < opts.bot_slack <= 600:
        parser.error("--bot-slack must be more than 0 and at most 600 seconds")
    if not 0 <= opts.bot_quantum <= 60:
        parser.error("--bot-quantum must be 0 to 60 seconds")
    if not 0 < opts.bot_hang <= 3600:
        parser.error("--bot-hang must be more than 0 and at most 3600 seconds")
    if opts.web_max_message < 64:
        parser.error("--web-max-message must be at least 64 bytes")
    if opts.web_requests_per_second < 0 or opts.metrics_requests_per_second < 0 \
            or opts.health_cache < 0:
        parser.error("--web-requests-per-second, --metrics-requests-per-second and "
                     "--health-cache must be 0 or more")
    if opts.web_pending_per_address < 0 or opts.web_request_timeout < 0:
        parser.error("--web-pending-per-address and --web-request-timeout must be 0 or more")
    if (opts.metrics_request_timeout < 0 or opts.metrics_max_connections < 0
            or opts.metrics_max_per_address < 0):
        parser.error("--metrics-request-timeout, --metrics-max-connections and "
                     "--metrics-max-per-address must be 0 or more")
    for flag in ("ipv6_group_prefix", "ipv6_ban_prefix"):
        if not 1 <= getattr(opts, flag) <= 128:
            parser.error(f"--{flag.replace('_', '-')} must be 1 to 128 (bits of an IPv6 address)")
    try:
        from protocol.web_options import parse_proxies
        parse_proxies(opts.trusted_proxy or ())
    except ValueError as e:
        parser.error(f"--trusted-proxy: {e}")
    if opts.print_config:
        sys.stdout.write(render_config(parser, opts, configured))
        sys.stdout.flush()
        raise SystemExit(0)
    return opts


def configure_journal(journal: Any, opts: argparse.Namespace) -> None:
    """The journal options of the command line (--journal-*) on the server's Journal."""
    journal.interval = max(0.0, opts.journal_interval)
    journal.inline = opts.journal_inline
    journal.fsync = opts.journal_fsync
    journal.failure_summary = opts.journal_failure_summary
    if opts.journal_checkpoint_pages is not None:
        journal.checkpoint_pages = opts.journal_checkpoint_pages


def web_options_from(opts: argparse.Namespace) -> Any:
    """protocol.web.WebOptions from the parsed options (generated from its declared fields)."""
    return WebOptions.from_options(opts)


def limits_from(opts: argparse.Namespace, nofile: tuple[int, int] | None = None) -> Any:
    """protocol.connection.guard.Limits from the parsed options; ``nofile`` = (soft, hard) open
    files (the default of ``--max-connections``: the soft limit minus 100, at least 100)."""
    from protocol.connection.guard import Limits
    values = values_from(Limits, opts)
    if values["max_connections"] is None:
        values["max_connections"] = max(100, nofile[0] - 100) if nofile and nofile[0] > 0 else 0
    return Limits(**values)
