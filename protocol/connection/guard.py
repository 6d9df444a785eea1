"""Defences of the public port: connection limits, flood control, log-in limits, timers.

One ``Guard`` per server holds the shared counts (connections in total and per IP address, log-in
attempts per IP address); every connection gets a ``ConnectionGuard`` from
``Guard.connection_made(session)`` that does the per-connection work (a refused one gets its
``! [code]`` line only the first ``refusals_per_minute`` times a minute per address group; later
ones are closed without a word, on a plain listener before a session is made:
``Guard.refused_at_once``):

- other protocols: the first bytes go through ``protocol.telnet.sniff``; an HTTP request, a TLS
  ClientHello or an SSH banner gets one short answer and the connection is closed (logged once).
  The session holds its greeting back for ``greeting_delay`` seconds or until those first bytes
  came, so that answer is the first thing such a client receives;
- flood control: a token bucket on lines (and on telnet subnegotiations: GMCP and any other)
  (``flood_rate`` lines per second, ``flood_burst`` at once). A line without a token is dropped; the
  first dropped line gets one ``flooding`` warning, the next ones are dropped silently, and after
  ``flood_kick`` dropped lines (counted until the bucket is full again, i.e. until the client calmed
  down) the connection is closed and logged;
- the log-in timer: who has not logged in after ``login_timeout`` seconds is disconnected;
- the idle timer: ``idle_warning`` seconds before ``idle_timeout`` a warning, then the disconnect.
  For a player seated at a table only real activity there counts (a move, a vote, an option,
  table talk: ``GuardWorld.seated_activity``), not every line; the warning says so.
  A player seated at a running table is never disconnected for idleness while that table waits
  on somebody else (``TableActor.waiting_for()``); the check is repeated later instead.

Password work (a log-in password, ``/register``, ``/password``: each one hash run at least) goes
through ``Guard.password_attempt(session, account, kind)`` BEFORE any hash runs; it refuses at
once, without hashing, with a rate-limit code, or gives an ``Attempt`` that the caller ends with
``succeeded()`` or ``failed()``. An attempt counts while it runs, so a burst of simultaneous
attempts is limited like a sequence of failed ones:

- per address group (an IPv4 address, an IPv6 /64: ``address_group``), at most
  ``login_attempts_per_minute`` in the last 60 s (``too-many-attempts``). A log-in that succeeds
  is taken off the count again, and the account is then known at that address: its later
  log-ins from there pass the address's limit (the account's own limit still applies), so a NAT
  of many users is not locked out by one of them guessing; ``/register`` and ``/password``
  always count;
- per address group, at most ``password_checks_per_minute`` hash runs in the last 60 s,
  whatever their outcome and whether the account is known there (``too-many-attempts``): the
  hash work one address group may cause, so a valid account cannot be used to pump hashes;
- per connection, at most ``password_attempts_per_connection`` in the last 60 s
  (``too-many-attempts-here``), counted the same way;
- throttle, never lock out: failures are counted per (account, address group); after
  ``account_failures_before_delay`` of them every further attempt from that group waits a
  growing delay (``account_delay_first`` seconds, doubled with each failure, at most
  ``account_delay_max``; ``account-wait``). The same count over the address groups the account
  never logged in from is the account's ceiling, which slows only such groups that failed for
  the account themselves (a group with no failure of its own, such as the owner on a new
  address, only past ``account_failures_ceiling``): a group the account logged in from
  (remembered ``known_address_days`` in the store, ``load_known``; a guest's address for its
  reconnect key, in memory) is never delayed by failures elsewhere. A success resets both;
  failures are forgotten ``account_failures_forgotten`` seconds after the last one.

``Guard.registration_attempt(session)`` allows ``registrations_per_hour`` new accounts per address
group in the last hour (``too-many-registrations``). ``Guard.failure_delay()`` is the pause after
a wrong password. ``Guard.may_enter(session, name, registered)`` refuses guests beyond
``max_guests`` and banned names (lobby.world.moderation).

The guard never reaches into a connection or the world: it asks a connection through
``GuardedConnection`` (its address, whether it is still logging in, its user's name) and tells
it through the same interface (an event, an event aside from the running command, a disconnect,
a refusal at connect, another protocol's answer); what it needs of the world is
``GuardWorld`` (the log budget, moderation, how many guests are online, whether a player's
running table waits on somebody else).

Per-address limits (connections, password attempts, registrations) do not apply to loopback
addresses unless ``limit_loopback`` is set: local bots, benchmarks and a TLS terminator in front
of the server all connect from there. The per-connection and per-account limits always apply.
Time comes only from the injected clock. A value of 0 turns a limit off; ``Limits()`` is
everything off (tests, embedding; the greeting goes out at once, only the two bounds of the
telnet side channel keep their sizes), ``Limits.public()`` the documented defaults of the
command line (docs/operations.md, "Limits").
"""
from __future__ import annotations

import ipaddress
from collections import deque
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet.defer import Deferred, succeed
from twisted.internet.interfaces import IReactorTime
from twisted.internet.task import deferLater
from twisted.logger import Logger

from lobby.events import error_event
from lobby.tables.timer_wheel import TimerWheel, WheelTimer
from lobby.text.messages import LobbyError
from lobby.world.addresses import address_group, is_loopback, set_ipv6_prefixes
from lobby.world.world import TableLimits
from protocol.option_fields import option, public_values
from protocol.telnet import sniff

if TYPE_CHECKING:
    from lobby.events import Event
    from lobby.world.log_budget import LogBudget


class GuardedConnection(Protocol):
    """What the guard asks of one connection and tells it (protocol.connection.session.Session is one);
    the guard never reads or writes anything else of it."""

    @property
    def address(self) -> str:
        """The peer's IP address in canonical form (``peer_host``)."""

    @property
    def is_open(self) -> bool:
        """Still reading lines and told events (False: closed or closing)."""

    @property
    def awaiting_login(self) -> bool:
        """In a state of the log-in the log-in timer closes (not yet logged in)."""

    @property
    def active_user(self) -> str | None:
        """The name of the user logged in on it (None: not logged in, or closing)."""

    @property
    def user_name(self) -> str | None:
        """The name of its user whatever the state (for the log), None before the log-in."""

    def deliver(self, event: Event) -> None:
        """Tell the connection's user ``event`` (the idle warning)."""

    def answer_aside(self, event: Event) -> None:
        """Tell ``event`` aside from the command now running (machine mode: never with its
        id): a flood or budget warning."""

    def disconnect(self, event: Event) -> None:
        """Say ``event`` and close."""

    def refuse(self, line: str | None) -> None:
        """Refused at connect: send ``line`` (a text error line) and close; None: close at
        once without a word (past ``refusals_per_minute``)."""

    def answer_foreign(self, data: bytes) -> None:
        """The client speaks another protocol: send ``data`` as it is and close."""


class GuardWorld(Protocol):
    """What the guard needs of the world (lobby.world.world.World is one)."""

    log_budget: LogBudget
    #: lobby.world.moderation.Moderation (banned names and addresses), or None
    moderation: Any

    def guest_count(self) -> int:
        """How many guests are online."""

    def waits_on_others(self, name: str) -> bool:
        """Whether ``name`` sits at a running table that now waits on somebody else."""

    def seated_activity(self, name: str) -> float | None:
        """When ``name``, seated at a table, last did something real there (None: not
        seated): the idle timer of a seated player counts only that."""


__all__ = ["Limits", "PUBLIC_LIMITS", "TokenBucket", "Allowance", "Guard", "ConnectionGuard",
           "RequestBudget", "Refusal",
           "GuardedConnection", "GuardWorld", "OpenConnections", "canonical_host", "peer_host",
           "is_loopback", "address_group", "Attempt", "Registration", "ACCOUNT_DELAY_BASE",
           "ACCOUNT_FAILURES_FORGOTTEN"]

log = Logger(namespace="protocol.guard")


@dataclass(frozen=True, slots=True)
class Limits:
    """Every defence's setting; 0 turns it off. Each field is also an option of the command line
    (protocol/option_fields.py): the dataclass's default is off (``Limits()``: tests, embedding),
    ``public=`` is the command line's default for a public server (``PUBLIC_LIMITS``)."""

    max_connections: int = option(0, public=None, help=(
        "connections in total (default: the open-files limit minus 100)"))
    max_per_ip: int = option(0, public=8, help=(
        "connections from one IP address (default {default}; loopback addresses are exempt "
        "unless --limit-loopback)"))
    max_guests: int = option(0, public=5000, help="guests online in total (default {default})")
    connections_per_minute: int = option(0, public=60, help=(
        "new connections from one address group in a minute (default {default}; loopback "
        "addresses are exempt unless --limit-loopback): connect-and-log-in loops are paced"))
    refusals_per_minute: int = option(0, public=20, help=(
        "connections of one address group refused at connect (too-many-connections, "
        "connecting-too-fast, server-full) in a minute that get the ! [code] line; past it a "
        "refused connection is closed at once, before a session is made, without a word or a "
        "log line (counted in the log's summary a minute; default {default}; 0: every one "
        "gets its line)"))
    login_attempts_per_minute: int = option(0, public=10, help=(
        "password attempts (failed log-ins, /register, /password; a log-in that succeeds does "
        "not count) per IP address or IPv6 /64 per minute (default {default})"))
    password_checks_per_minute: int = option(0, public=30, help=(
        "password checks (each an argon2 hash: every log-in, right or wrong, from an address "
        "the account knows too; /register, /password; a guest's reconnect key) per IP address "
        "or IPv6 /64 per minute, the hash work one address group may cause (default "
        "{default})"))
    password_attempts_per_connection: int = option(0, public=3, help=(
        "password attempts per connection per minute, counted the same way (default {default})"))
    account_failures_before_delay: int = option(0, public=3, help=(
        "wrong passwords for one account from one address group before each further attempt "
        "from there waits a growing delay; the same count over the address groups the account "
        "never used slows only those (default {default})"))
    account_failures_ceiling: int = option(0, public=50, help=(
        "wrong passwords for one account, over all address groups it never used, after which "
        "even an address group with no failure of its own waits (the growing delay counted "
        "from there); below it the account's ceiling slows only groups that failed themselves, "
        "so an owner on a new address is not delayed by others' guessing (default {default}; "
        "0: never)"))
    account_delay_max: float = option(0.0, public=900.0, help=(
        "the longest such delay (default {default})"))
    account_delay_first: float = option(5.0, help=(
        "the first such delay, doubled with each further failure (default {default})"))
    account_failures_forgotten: float = option(3600.0, help=(
        "an account's failures are forgotten this long after the last one (default {default})"))
    known_address_days: float = option(90.0, metavar="DAYS", help=(
        "how long an address group an account logged in from is remembered; wrong passwords "
        "from other addresses never delay a log-in from there (default {default})"))
    ipv6_group_prefix: int = option(64, metavar="BITS", help=(
        "the IPv6 network of one address group, which the per-address limits and budgets "
        "count together (default /{default}: one household or customer)"))
    ipv6_ban_prefix: int = option(64, public=56, metavar="BITS", help=(
        "the IPv6 network a guest ban holds (default /{default}: providers give one customer a "
        "/56 or a /48, so a banned guest cannot come back from the next /64)"))
    registrations_per_hour: int = option(0, public=5, help=(
        "new accounts (/register) per IP address or IPv6 /64 per hour (default {default})"))
    login_failure_delay: float = option(0.0, public=3.0, help=(
        "pause before a wrong password is answered (default {default})"))
    login_timeout: float = option(0.0, public=120.0, help=(
        "time to finish logging in (default {default})"))
    idle_timeout: float = option(0.0, public=3600.0, help=(
        "disconnect after this long without input (default {default}); never a player at a "
        "running table that waits on somebody else"))
    idle_warning: float = option(0.0, public=300.0, help=(
        "warn this long before the idle disconnect (default {default})"))
    flood_rate: float = option(0.0, public=20.0, metavar="LINES", help=(
        "lines per second per connection, on average (default {default})"))
    flood_burst: int = option(0, public=20, metavar="LINES", help=(
        "lines at once before flood control drops lines (default {default})"))
    flood_kick: int = option(0, public=500, metavar="LINES", help=(
        "dropped lines after which a flooding connection is closed (default {default})"))
    limit_loopback: bool = option(False, help=(
        "apply the per-address limits to 127.0.0.0/8 and ::1 as well"))
    # the first bytes and the telnet side channel (the last two are bounds even in Limits())
    greeting_delay: float = option(0.0, public=0.2, help=(
        "how long the greeting waits for the client's first bytes, so that an HTTP or TLS "
        "client gets its own protocol's answer first (default {default}; 0: greet at once)"))
    naws_wait: float = option(0.0, public=0.3, help=(
        "how long the greeting text waits, after the telnet offers, for the client's window "
        "size (NAWS) or its refusal, so that it is drawn at the client's width "
        "(default {default}; 0: at once)"))
    max_subnegotiation: int = option(8192, metavar="BYTES", help=(
        "bytes of one telnet subnegotiation (a GMCP message); longer ones are dropped "
        "(default {default})"))
    max_gmcp_supports: int = option(64, help=(
        "GMCP packages kept of a client's Core.Supports.* (default {default})"))
    typeahead_window: float = option(1.0, help=(
        "a line at the guest confirmation of an unregistered name is dropped unseen (it may be "
        "a password typed ahead); within this time of the question the question is asked "
        "again, later the login prompt follows (default {default})"))
    typeahead_after_refusal: float = option(0.0, public=1.0, help=(
        "after any refusal at the log-in (bad-name, banned, wrong-password ...) a line that "
        "arrives within this time is dropped unseen, never taken as a name; lines already "
        "received then are dropped always (default {default})"))
    log_lines_per_minute: int = option(3, help=(
        "log lines of one kind (connects, disconnects, log-ins, log-in failures, refused "
        "commands) one address group may cause in a minute; the others are counted and "
        "summarised in one line (default {default}; 0: log every line)"))
    max_tables_per_user: int = option(0, public=2, help=(      # as on BSW: a seat at one table
        "open tables one user hosts or sits at (default {default})"))   # and one more hosted
    max_seats_per_user: int = option(0, public=1, help=(
        "open tables one user sits at (default {default})"))
    max_tables_per_ip: int = option(0, public=4, help=(
        "open tables the users of one IP address host or sit at (default {default}; loopback "
        "addresses are exempt unless --limit-loopback)"))
    tables_per_minute: int = option(0, public=10, help=(
        "tables one user may open (/newroom) in a minute (default {default})"))
    abandon_after: float = option(3600.0, help=(
        "how long a running table none of whose players is online is kept, at least its grace "
        "time (default {default})"))
    max_grace: float = option(86400.0, public=600.0, metavar="SECONDS", help=(
        "the highest grace time /option grace may set: how long a vanished player's seat "
        "keeps the others waiting before they may /remove them (default {default})"))
    max_timer: float = option(3600.0, public=300.0, metavar="SECONDS", help=(
        "the highest move timer /option timer may set, in seconds per decision (default "
        "{default})"))
    max_target: int = option(100000, public=10000, metavar="POINTS", help=(
        "the highest target score /option target may set: how long a game lasts (default "
        "{default})"))
    max_round: int = option(1000, public=100, metavar="ROUNDS", help=(
        "the most rounds /option round may set (a turnier plays 9: below 9 it is refused; "
        "default {default})"))
    max_bombwindow: float = option(60.0, public=10.0, metavar="SECONDS", help=(
        "the longest bomb window /option bombwindow may set (default {default})"))
    min_rated_timer: float = option(30.0, metavar="SECONDS", help=(
        "the shortest move timer of a rated game, in seconds per decision: a shorter one is "
        "raised to it there, and timer off is auto (default {default})"))
    min_rated_grace: float = option(30.0, metavar="SECONDS", help=(
        "the shortest grace time of a rated game, in seconds: a shorter /option grace is "
        "raised to it there, so a moment's drop never makes a player a leaver (default "
        "{default})"))
    rated_remove_timeouts: int = option(2, metavar="COUNT", help=(
        "time-outs of a present player in a rated game before the others may vote to remove "
        "them, their partner's yes needed (default {default})"))
    max_friends: int = option(100, metavar="NAMES", help=(
        "names on one friends list (/notify; default {default})"))
    presence_per_minute: int = option(0, public=12, metavar="LINES", help=(
        "lines telling that one user enters or leaves a room, in a minute (default {default}; "
        "0: all): hopping between rooms moves the user, but does not flood the rooms"))
    group_presence_per_minute: int = option(0, public=30, metavar="LINES", help=(
        "lines telling that the users of one address group enter or leave rooms, in a minute, "
        "all together (default {default}; 0: no such limit; loopback addresses are exempt "
        "unless --limit-loopback): several users of one address hopping do not add up"))
    presence_quiet: float = option(60.0, metavar="SECONDS", help=(
        "a player of a game who vanished twice within this time is announced, when vanishing "
        "again, only if still away this long after, and their return then not at all (default "
        "{default}; 0: every vanishing and return is told)"))
    # the byte layer's budget (issue 23): every byte a connection sends, telnet commands and an
    # unterminated line's bytes included, and the telnet commands (negotiation, NOP, ...) alone
    input_bytes_per_second: float = option(0.0, public=32768.0, metavar="BYTES", help=(
        "bytes one connection may send per second on average, telnet commands and overlong "
        "lines included (default {default}); past it input is dropped, then the connection is "
        "closed"))
    input_bytes_burst: int = option(0, public=131072, metavar="BYTES", help=(
        "bytes one connection may send at once (default {default})"))
    telnet_commands_per_second: float = option(0.0, public=20.0, metavar="N", help=(
        "telnet commands (negotiation, NOP ...) per connection per second on average (default "
        "{default}); past it they are ignored, then the connection is closed"))
    telnet_commands_burst: int = option(0, public=400, metavar="N", help=(
        "telnet commands at once (default {default})"))
    # speech (issue 23): per address group and channel (a room: the lobby, a table's room; the
    # tells to one recipient), loopback included (a proxy in front passes the addresses)
    speech_per_second: float = option(0.0, public=1.0, metavar="LINES", help=(
        "lines one address group may say per second on average in one room, and tell one "
        "recipient (default {default}); over it a line is not sent"))
    speech_burst: int = option(0, public=15, metavar="LINES", help=(
        "lines one address group may say at once in one room or tell one recipient (default "
        "{default})"))
    repeat_window: float = option(0.0, public=30.0, metavar="SECONDS", help=(
        "a line said again in a row (the same text in the same room or to the same recipient, "
        "from the same address group) within this time is not sent (default {default})"))
    tells_per_second: float = option(0.0, public=2.0, metavar="LINES", help=(
        "tells one address group may send per second on average to all recipients together "
        "(default {default}); over it a tell is not sent, whomever it is for"))
    tells_burst: int = option(0, public=20, metavar="LINES", help=(
        "tells one address group may send at once to all recipients together (default "
        "{default})"))
    # what one user makes a table's people read (issue 23, B5): sitting down, standing up,
    # options, bots, votes (the commands that declare ``notices``, lobby/tables/table.py)
    table_changes_per_minute: int = option(0, public=20, metavar="N", help=(
        "table changes that tell the table's people something (/join, /leave, /option NAME, "
        "/addbot, /removebot, /unseat, /bar, /unbar, /remove, /reset, /accept, /refuse; a "
        "seated player's /room, /newroom, /lobby or disconnect, a player's return to a running "
        "game) one user may make in a minute on average (default {default}); over it the change "
        "is refused with table-budget (a disconnect or a return is only counted)"))
    table_changes_burst: int = option(0, public=15, metavar="N", help=(
        "such table changes of one user at once (default {default})"))
    group_table_changes_per_minute: int = option(0, public=60, metavar="N", help=(
        "such table changes all users of one address group together may make in a minute on "
        "average (default {default}; loopback exempt unless --limit-loopback)"))
    group_table_changes_burst: int = option(0, public=45, metavar="N", help=(
        "such table changes of one address group at once (default {default})"))
    speech_kick: int = option(0, public=200, metavar="LINES", help=(
        "lines over the speech budget after which a connection that keeps talking is closed "
        "(default {default})"))
    # the bot workers (issue 23): a guest's expert bots and the expert tables of one user
    guest_expert_seconds: float = option(0.0, public=2.0, metavar="SECONDS", help=(
        "the most seconds a guest may give an expert bot per decision (/addbot expert:SECONDS; "
        "more is refused; default {default}; 0: up to the expert's own maximum)"))
    expert_tables_per_user: int = option(0, public=1, metavar="N", help=(
        "open tables with expert bots one user may host or sit at (default {default})"))
    # the budget of work: commands that cost more than an ordinary one (an archive query, a
    # replay: the cost each command declares, protocol/commands/base.py Command.cost), per connection and per
    # address group (loopback exempt unless limit_loopback)
    work_per_second: float = option(0.0, public=2.0, metavar="UNITS", help=(
        "the budget of work of one connection, in ordinary commands per second: the commands "
        "that declare a cost above 1 (/replay 5, /tchlog 5, /history 3, /rangliste 3, /finger "
        "2; /who and /wwho 1 more per 25 users online, at most 10) spend it (default {default})"))
    work_burst: int = option(0, public=20, metavar="UNITS", help=(
        "the budget of work of one connection at once (default {default})"))
    group_work_per_second: float = option(0.0, public=6.0, metavar="UNITS", help=(
        "the budget of work of one address group per second (default {default}; loopback "
        "exempt unless --limit-loopback)"))
    group_work_burst: int = option(0, public=60, metavar="UNITS", help=(
        "the budget of work of one address group at once (default {default})"))

    @classmethod
    def public(cls, **overrides: Any) -> Limits:
        """The command line's defaults for a public server, with ``overrides``."""
        return replace(PUBLIC_LIMITS, **overrides)

    def table_limits(self) -> TableLimits:
        """The world's share: how many tables a user and an address may take part in."""
        return TableLimits(tables_per_user=self.max_tables_per_user,
                           seats_per_user=self.max_seats_per_user,
                           tables_per_address=self.max_tables_per_ip,
                           limit_loopback=self.limit_loopback,
                           opens_per_minute=self.tables_per_minute,
                           abandon_after=self.abandon_after, max_grace=self.max_grace,
                           max_timer=self.max_timer, max_target=self.max_target,
                           max_rounds=self.max_round, max_bombwindow=self.max_bombwindow,
                           min_rated_timer=self.min_rated_timer,
                           min_rated_grace=self.min_rated_grace, max_friends=self.max_friends,
                           rated_remove_timeouts=self.rated_remove_timeouts,
                           presence_quiet=self.presence_quiet,
                           presence_per_minute=self.presence_per_minute,
                           group_presence_per_minute=self.group_presence_per_minute,
                           guest_expert_seconds=self.guest_expert_seconds,
                           expert_tables_per_user=self.expert_tables_per_user)

    def describe(self, most: int = 8) -> str:
        """One short line for the start-up log: the limits that differ from the command line's
        defaults, as their options (at most ``most`` of them, then how many more);
        ``--print-config`` lists every value."""
        changed = [f"--{f.name.replace('_', '-')} {_shown(getattr(self, f.name))}"
                   for f in fields(self) if getattr(self, f.name) != getattr(PUBLIC_LIMITS, f.name)]
        count = len(fields(self))
        if not changed:
            return f"the {count} defaults (--print-config lists them)"
        more = f" and {len(changed) - most} more" if len(changed) > most else ""
        return (f"the defaults (--print-config lists all {count}) except "
                + ", ".join(changed[:most]) + more)


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


#: the command line's defaults (the ``public=`` of each field; ``max_connections`` the command line
#: derives from the open-files limit)
_PUBLIC: dict[str, Any] = {name: 0 if value is None else value
                           for name, value in public_values(Limits).items()}
PUBLIC_LIMITS = Limits(**_PUBLIC)


class TokenBucket:
    """``burst`` tokens at most, ``rate`` new tokens per second; ``take`` spends one."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(max(1, burst))
        self.tokens = self.burst
        self.stamp = now

    def _refill(self, now: float) -> None:
        if now > self.stamp:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float, amount: float = 1.0) -> bool:
        """Spend ``amount`` tokens (one) if there are that many."""
        self._refill(now)
        if self.tokens >= amount:
            self.tokens -= amount
            return True
        return False

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.burst

    def spend(self, now: float, amount: float) -> bool:
        """Spend ``amount`` tokens if the bucket is not empty (it may go into debt, so one
        large chunk passes once and what follows waits until the debt is paid)."""
        self._refill(now)
        if self.tokens > 0.0:
            self.tokens -= amount
            return True
        return False


#: what an `Allowance` answers to one spending
ALLOWED, WARNED, DROPPED, KICKED = 0, 1, 2, 3


class Allowance:
    """One resource of a connection's or an address group's budget (protocol.connection.guard is the one
    place that accounts them): a `TokenBucket` and what happens when it runs out. The first
    refusal is WARNED (the caller answers with a `! [code]` line), the next ones DROPPED, and
    once ``kick`` units were refused since the bucket was last full (the client kept going)
    KICKED (the caller disconnects, logged once). The count starts again once the bucket is
    full (the client calmed down)."""

    __slots__ = ("bucket", "kick", "warned", "refused", "debt")

    def __init__(self, rate: float, burst: float, kick: float, now: float,
                 debt: bool = False) -> None:
        self.bucket = TokenBucket(rate, int(burst), now)
        self.kick = kick
        self.warned = False
        self.refused = 0.0
        self.debt = debt        # amounts larger than one token pass once (bytes)

    def spend(self, now: float, amount: float = 1.0) -> int:
        bucket = self.bucket
        if self.warned and bucket.full(now):
            self.warned = False
            self.refused = 0.0
        if bucket.spend(now, amount) if self.debt else bucket.take(now, amount):
            return ALLOWED
        if bucket.tokens > 0.0:
            bucket.tokens = 0.0          # what was over the budget used up what was left
        return self.refuse(amount)

    def refuse(self, amount: float = 1.0) -> int:
        """``amount`` was refused (by this budget, or by a larger one it belongs to: an address
        group's): WARNED the first time, then DROPPED, KICKED past ``kick``."""
        self.refused += amount
        if not self.warned:
            self.warned = True
            return WARNED
        if self.kick and self.refused >= self.kick:
            return KICKED
        return DROPPED


def peer_host(connection: Any) -> str:
    """The IP address of a connection's peer ("?" when the transport has none, e.g. in tests):
    behind a ``haproxy:`` listener the client's from the PROXY header (protocol/telnet/proxy.py), in
    the canonical form (IPv6 compressed, an IPv4-mapped IPv6 address as IPv4), so one client is
    one key for every limit and ban whatever wrote its address."""
    try:
        peer = connection.transport.getPeer()
    except Exception:
        return "?"
    return canonical_host(str(getattr(peer, "host", "?")))


def canonical_host(host: str) -> str:
    """An IP address in the canonical form (``peer_host``); anything else as it is."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


#: the defaults of ``Limits.account_delay_first`` (the first delay for an account after
#: ``account_failures_before_delay`` failures; it doubles with each further failure, up to
#: ``account_delay_max``) and ``Limits.account_failures_forgotten`` (seconds after the last
#: failure)
ACCOUNT_DELAY_BASE = 5.0
ACCOUNT_FAILURES_FORGOTTEN = 3600.0


class RequestBudget:
    """HTTP requests per address group on one listener (the web port, the metrics port): a
    token bucket each, ``rate`` requests a second and ``burst`` at once (0: no limit). A request
    without a token is answered ``429 Too Many Requests`` by the listener, without any other
    work (issue 23: 2900 page loads a second from one address)."""

    __slots__ = ("rate", "burst", "clock", "buckets", "refused")

    def __init__(self, rate: float, burst: int, clock: IReactorTime) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}
        self.refused = 0

    def allow(self, host: str) -> bool:
        """Whether one more request from ``host`` is served now."""
        if self.rate <= 0:
            return True
        now = self.clock.seconds()
        group = address_group(host)
        bucket = self.buckets.get(group)
        if bucket is None:
            if len(self.buckets) >= 10000:       # the full ones are as good as new
                self.buckets = {g: b for g, b in self.buckets.items() if not b.full(now)}
            bucket = self.buckets[group] = TokenBucket(self.rate, self.burst, now)
        if bucket.take(now):
            return True
        self.refused += 1
        return False


def shared_allowance(table: dict[Any, Allowance], key: Any, rate: float, burst: int,
                     now: float, kept: int = 10000) -> Allowance:
    """The shared ``Allowance`` of ``key`` in ``table`` (an address group's, a channel's), made
    when missing; past ``kept`` entries the full ones (nobody spent of them lately) are
    forgotten first, so the table stays bounded however many keys come."""
    allowance = table.get(key)
    if allowance is None:
        if len(table) > kept:
            for old in [k for k, a in table.items() if a.bucket.full(now)]:
                del table[old]
        allowance = table[key] = Allowance(rate, burst, 0, now)
    return allowance


class OpenConnections:
    """Connections open at once on one listener, in total and per address group, each count
    with its cap (0: none). The guard counts the lobby's connections here (without caps: it
    refuses by its own rules, ``Guard._refusal``); the metrics port counts its connections here
    (``--metrics-max-connections``, ``--metrics-max-per-address``: one address never holds every
    slot, so the operator's monitor still gets its ``/healthz``)."""

    __slots__ = ("max_total", "max_per_group", "total", "per_group")

    def __init__(self, max_total: int, max_per_group: int) -> None:
        self.max_total = max_total
        self.max_per_group = max_per_group
        self.total = 0
        self.per_group: dict[str, int] = {}

    def admit(self, host: str) -> str | None:
        """Count one more connection from ``host``; or the cap it is over (``total``, ``address``:
        not counted, the caller closes it)."""
        if self.max_total and self.total >= self.max_total:
            return "total"
        group = address_group(host)
        here = self.per_group.get(group, 0)
        if self.max_per_group and here >= self.max_per_group:
            return "address"
        self.total += 1
        self.per_group[group] = here + 1
        return None

    def release(self, host: str) -> None:
        """A connection ``admit`` counted closed."""
        self.total -= 1
        group = address_group(host)
        left = self.per_group.get(group, 0) - 1
        if left > 0:
            self.per_group[group] = left
        else:
            self.per_group.pop(group, None)


@dataclass(frozen=True)
class Refusal:
    """A connection refused at its connect (``Guard.refuse``): the error's code, the line that
    tells it (None: closed without a word), and the seconds to wait (``connecting-too-fast``)."""

    code: str
    line: str | None
    seconds: int


class Guard:
    """The shared counts of one server and the factory of per-connection guards."""

    def __init__(self, limits: Limits, clock: IReactorTime, world: GuardWorld) -> None:
        self.limits = limits
        self.clock = clock
        self.world = world
        set_ipv6_prefixes(limits.ipv6_group_prefix, limits.ipv6_ban_prefix)
        # the log lines a client can cause (lobby/log_budget)
        world.log_budget.per_minute = limits.log_lines_per_minute
        #: the log-in and idle deadlines of every connection: one timer of the clock for all
        self.wheel = TimerWheel(clock)
        #: the connections open now, in total and per address group (their caps, with the
        #: loopback exemption and the refusal codes, are ``_refusal``'s)
        self.open = OpenConnections(0, 0)
        self._attempts: dict[str, deque[float]] = {}         # address group -> attempt times
        self._checks: dict[str, deque[float]] = {}           # address group -> hash runs
        self._account_failures: dict[str, tuple[int, float]] = {}   # key -> (count, last)
        self._registrations: dict[str, deque[float]] = {}    # address group -> times
        self._connects: dict[str, deque[float]] = {}         # address group -> connect times
        #: address group -> [the minute's start, connections refused in it]
        self._refusals: dict[str, list[float]] = {}
        #: address group -> keys of the accounts that logged in from there (see password_attempt;
        #: loaded from the store's login_addresses by ``load_known``, kept there by ``_logged_in``)
        self._known: dict[str, set[str]] = {}
        #: (account key, address group) -> (failures, last): the growing delay of one pair
        self._pair_failures: dict[tuple[str, str], tuple[int, float]] = {}
        #: the store that remembers the address groups of the accounts (None: memory only)
        self.store: Any = None
        #: address group -> its share of the budget of work (``ConnectionGuard.command_cost``)
        self._group_work: dict[str, Allowance] = {}
        #: (address group, channel) -> its speech budget, and the last line said there
        self._speech: dict[tuple[str, str], Allowance] = {}
        self._last_said: dict[tuple[str, str], tuple[str, float]] = {}
        #: address group (or "user NAME" where loopback is exempt) -> its table changes' budget
        self._table_changes: dict[str, Allowance] = {}
        self._group_table_changes: dict[str, Allowance] = {}
        #: what a refused password attempt was refused for -> when that was last logged
        self._refusals_logged: dict[str, float] = {}
        #: counters for the operator and the tests
        self.stats: dict[str, int] = {"refused": 0, "foreign": 0, "flood_kicks": 0,
                                      "idle_kicks": 0, "login_timeouts": 0, "dropped_lines": 0,
                                      "refused_attempts": 0, "over_budget": 0,
                                      "budget_kicks": 0, "silent_refusals": 0,
                                      "closed_at_once": 0}

    def _limited(self, host: str) -> bool:
        return self.limits.limit_loopback or not is_loopback(host)

    # ---- connections ------------------------------------------------------------------------

    def connection_made(self, session: GuardedConnection) -> ConnectionGuard | None:
        """Admit a new connection (a ConnectionGuard) or refuse it: one error line (the first
        ``refusals_per_minute`` refusals of its address group in a minute; later ones not a
        word), closed, None."""
        host = session.address
        refused = self.refuse(host)
        if refused is not None:
            session.refuse(refused.line)
            return None
        limits = self.limits
        now = self.clock.seconds()
        group = address_group(host)
        if limits.connections_per_minute and self._limited(host):
            # how often, not only how many at once: connect-and-log-in loops (each a session,
            # a greeting, a guest's enters/leaves lines, a password hash) are paced
            self._connects.setdefault(group, deque()).append(now)
            if len(self._connects) > 10000:
                self._connects = {g: q for g, q in self._connects.items()
                                  if q and q[-1] > now - 60.0}
        self.open.admit(host)
        return ConnectionGuard(self, session, host)

    def refuse(self, host: str) -> Refusal | None:
        """Whether a new connection from ``host`` is refused now (None: it may have its session;
        nothing is counted then). A refusal is counted and logged (within the log budget) here:
        its ``line`` is the error line to tell it, or None past the address group's
        ``refusals_per_minute`` answers this minute (closed without a word). The web port asks
        this before a WebSocket's upgrade and answers it with an HTTP error; a session asks it
        at its connect (``connection_made``)."""
        now = self.clock.seconds()
        group = address_group(host)
        code, wait = self._refusal(host, group, now)
        if code is None:
            return None
        self.stats["refused"] += 1
        seconds = _ceil(wait)
        if not self._refusal_said(group, now):
            self._refused_silently(group)
            return Refusal(code, None, seconds)
        if self.world.log_budget.allow(group, "refused-connection"):
            log.info("refused a connection from {host}: {code} ({total} open, {here} from "
                     "there)", host=host, code=code, total=self.total,
                     here=self.per_ip.get(group, 0))
        limits = self.limits
        limit = (limits.connections_per_minute if code == "connecting-too-fast"
                 else limits.max_per_ip)
        return Refusal(code, _error_text(code, limit=limit, seconds=seconds), seconds)

    def refusal_code(self, host: str) -> str | None:
        """The code a new connection from ``host`` would be refused with now (None: admitted);
        nothing is counted or logged (the web page asks why its WebSocket was refused)."""
        return self._refusal(host, address_group(host), self.clock.seconds())[0]

    @property
    def total(self) -> int:
        """Connections open now."""
        return self.open.total

    @property
    def per_ip(self) -> dict[str, int]:
        """Connections open now per address group."""
        return self.open.per_group

    def refused_at_once(self, host: str) -> bool:
        """Before a connection from ``host`` (a plain listener's peer) gets a session: True when
        it is refused and its address group had its ``refusals_per_minute`` lines this minute.
        The caller closes it at once, writing and logging nothing (counted in the log budget's
        summary): a refused connect costs next to nothing, however fast they come (A9)."""
        limit = self.limits.refusals_per_minute
        if not limit:
            return False
        group = address_group(host)
        said = self._refusals.get(group)
        now = self.clock.seconds()
        if said is None or said[1] < limit or now - said[0] >= 60.0:
            return False               # the session says it (or admits it)
        if self._refusal(host, group, now)[0] is None:
            return False
        self.stats["refused"] += 1
        self.stats["closed_at_once"] += 1
        said[1] += 1
        self._refused_silently(group)
        return True

    def _refusal(self, host: str, group: str, now: float) -> tuple[str | None, float]:
        """Why a new connection from ``host`` is refused now (None: admitted), and the seconds
        to wait (connecting-too-fast); nothing is counted."""
        limits = self.limits
        if limits.max_connections and self.total >= limits.max_connections:
            return "server-full", 0.0
        if not self._limited(host):
            return None, 0.0
        if limits.max_per_ip and self.per_ip.get(group, 0) >= limits.max_per_ip:
            return "too-many-connections", 0.0
        if limits.connections_per_minute:
            window = self._connects.get(group)
            if window is not None:
                wait = _window_wait(window, limits.connections_per_minute, 60.0, now)
                if wait > 0:
                    return "connecting-too-fast", wait
        return None, 0.0

    def _refusal_said(self, group: str, now: float) -> bool:
        """Count one refusal of ``group``: whether it still gets its line this minute."""
        limit = self.limits.refusals_per_minute
        if not limit:
            return True
        said = self._refusals.get(group)
        if said is None or now - said[0] >= 60.0:
            if len(self._refusals) > 10000:
                self._refusals = {g: w for g, w in self._refusals.items() if now - w[0] < 60.0}
            said = self._refusals[group] = [now, 0.0]
        said[1] += 1
        return said[1] <= limit

    def _refused_silently(self, group: str) -> None:
        self.stats["silent_refusals"] += 1
        self.world.log_budget.count(group, "refused-connection")

    def _released(self, host: str) -> None:
        self.open.release(host)

    def _log_refusal(self, what: str, now: float) -> bool:
        """Whether a refused password attempt of ``what`` (an account, an address group, a
        connection) is logged: the first of each minute is, the others are only counted, so a
        client below flood control cannot write a log line with every line it sends."""
        self.stats["refused_attempts"] += 1
        last = self._refusals_logged.get(what)
        if last is not None and now - last < 60.0:
            return False
        if len(self._refusals_logged) > 10000:
            self._refusals_logged = {k: t for k, t in self._refusals_logged.items()
                                     if now - t < 60.0}
        self._refusals_logged[what] = now
        return True

    # ---- logging in -------------------------------------------------------------------------
    def password_attempt(self, session: GuardedConnection, account: str | None,
                         kind: str = "login",
                         connection: ConnectionGuard | None = None) -> Attempt:
        """Admit one password attempt (``kind``: ``login``, ``register``, ``password``) for
        ``account`` (a name) before its hash runs: an ``Attempt`` to end with ``succeeded()`` or
        ``failed()``, or LobbyError ``too-many-attempts`` (address), ``too-many-attempts-here``
        (connection; ``connection``: the connection's own guard) or ``account-wait`` (account) --
        refused without any hash work."""
        limits = self.limits
        now = self.clock.seconds()
        host = session.address
        group = address_group(host)
        key = account.lower() if account else None
        # an address group the account logged in from before (remembered for
        # known_address_days): failures from elsewhere never delay it (throttle, never lock out)
        known = key is not None and kind == "login" and key in self._known.get(group, ())
        if key is not None and limits.account_failures_before_delay:
            # the growing delay of this (account, address group); the account's own ceiling,
            # counted over the groups it never used, slows only such groups
            wait = self._delay_wait(self._pair_failures, (key, group), now)
            if wait <= 0 and not known:
                # the ceiling slows a group that failed for this account itself; a group with
                # no failure of its own (the owner on a new address) only past the much higher
                # account_failures_ceiling
                if (key, group) in self._pair_failures:
                    wait = self._delay_wait(self._account_failures, key, now)
                elif limits.account_failures_ceiling:
                    wait = self._delay_wait(self._account_failures, key, now,
                                            limits.account_failures_ceiling)
            if wait > 0:
                if self._log_refusal("account " + key, now):
                    log.info("password attempt for {account} from {host} refused: too many "
                             "failures, next attempt in {seconds} s (further refusals of this "
                             "minute are counted, not logged)", account=account, host=host,
                             seconds=_ceil(wait))
                raise LobbyError("account-wait", name=account, seconds=_ceil(wait))
        conn_window: deque[float] | None = None
        if limits.password_attempts_per_connection and connection is not None:
            if connection.attempts is None:
                connection.attempts = deque()
            conn_window = connection.attempts
            wait = _window_wait(conn_window, limits.password_attempts_per_connection, 60.0, now)
            if wait > 0:
                if self._log_refusal(f"connection {id(connection)}", now):
                    log.info("too many password attempts on one connection from {host} (further "
                             "refusals of this minute are counted, not logged)", host=host)
                raise LobbyError("too-many-attempts-here", seconds=_ceil(wait))
        checks: deque[float] | None = None
        if limits.password_checks_per_minute and self._limited(host):
            # every hash run draws on the address group's budget, right or wrong, known or
            # not: a valid account cannot pump hashes (issue 23, A4)
            checks = self._checks.setdefault(group, deque())
            wait = _window_wait(checks, limits.password_checks_per_minute, 60.0, now)
            if wait > 0:
                if self._log_refusal("checks " + group, now):
                    log.info("too many password checks from {host} ({count} in a minute; "
                             "further refusals of this minute are counted, not logged)",
                             host=host, count=len(checks))
                raise LobbyError("too-many-attempts", seconds=_ceil(wait))
            if len(self._checks) > 10000:  # forget addresses that went quiet
                for k in [k for k, q in self._checks.items() if not q or q[-1] <= now - 60.0]:
                    del self._checks[k]
        addr_window: deque[float] | None = None
        if limits.login_attempts_per_minute and self._limited(host) and not known:
            addr_window = self._attempts.setdefault(group, deque())
            wait = _window_wait(addr_window, limits.login_attempts_per_minute, 60.0, now)
            if wait > 0:
                if self._log_refusal("address " + group, now):
                    log.info("too many log-in attempts from {host} ({count} in a minute; further "
                             "refusals of this minute are counted, not logged)", host=host,
                             count=len(addr_window))
                raise LobbyError("too-many-attempts", seconds=_ceil(wait))
            if len(self._attempts) > 10000:  # forget addresses that went quiet
                for k in [k for k, q in self._attempts.items() if not q or q[-1] <= now - 60.0]:
                    del self._attempts[k]
        if checks is not None:
            checks.append(now)        # never taken off again: the hash ran
        if addr_window is not None:
            addr_window.append(now)
        if conn_window is not None:
            conn_window.append(now)
        if key is not None and limits.account_failures_before_delay:
            # running attempts count as failures until they succeed (a simultaneous burst)
            counters: list[dict[Any, tuple[int, float]]] = [self._pair_failures]
            if not known:
                counters.append(self._account_failures)
            for counter, ckey in zip(counters, ((key, group), key), strict=False):  # 1 or 2 counters
                count, _ = counter.get(ckey, (0, now))
                counter[ckey] = (count + 1, now)
                if len(counter) > 100000:
                    self._forget_failures(counter, now)
        return Attempt(self, kind, key, now, addr_window, conn_window, group, known)

    def _delay_wait(self, counter: dict[Any, tuple[int, float]], key: Any, now: float,
                    threshold: int | None = None) -> float:
        """The seconds ``key`` still waits: the growing delay past ``threshold`` failures
        (default: account_failures_before_delay) of ``counter``."""
        entry = counter.get(key)
        if entry is None:
            return 0.0
        count, last = entry
        if now - last >= self.limits.account_failures_forgotten:
            del counter[key]
            return 0.0
        excess = count - (self.limits.account_failures_before_delay if threshold is None
                          else threshold)
        if excess < 0:
            return 0.0
        delay = self.limits.account_delay_first * (2.0 ** min(excess, 30))
        if self.limits.account_delay_max > 0:
            delay = min(delay, self.limits.account_delay_max)
        return last + delay - now

    def _forget_failures(self, counter: dict[Any, tuple[int, float]], now: float) -> None:
        for k in [k for k, (_, last) in counter.items()
                  if now - last >= self.limits.account_failures_forgotten]:
            del counter[k]

    def _account_failed(self, key: str, group: str, known: bool, now: float) -> None:
        pairs: tuple[tuple[dict[Any, tuple[int, float]], Any], ...] = (
            (self._pair_failures, (key, group)), (self._account_failures, key))
        for counter, ckey in pairs:
            if counter is self._account_failures and known:
                continue
            count, _ = counter.get(ckey, (1, now))
            counter[ckey] = (count, now)   # counted at the start; the delay from now

    def _account_succeeded(self, key: str, group: str) -> None:
        self._pair_failures.pop((key, group), None)
        self._account_failures.pop(key, None)

    def _logged_in(self, group: str, key: str, remember: bool = True) -> None:
        """``key`` logged in from ``group``: known there from now on (in memory, bounded; a
        registered account's also in the store, for ``known_address_days``)."""
        known = self._known.get(group)
        if known is None:
            if len(self._known) >= 100000:
                self._known.pop(next(iter(self._known)))   # the oldest address group
            known = self._known[group] = set()
        if len(known) < 10000:
            known.add(key)
        if remember and self.store is not None and self.limits.known_address_days > 0:
            self.store.note_login_address(key, group, self.clock.seconds()).addErrback(
                lambda f: log.failure("remembering the address of {account}", f, account=key))

    def note_guest(self, session: GuardedConnection, name: str) -> None:
        """A guest entered as ``name``: its address group is known for the name's reconnect key
        (memory only; a guest's key follows the rule of a password)."""
        self._logged_in(address_group(session.address), name.lower(), remember=False)

    def load_known(self, store: Any) -> Deferred[int]:
        """Remember the address groups of the accounts' log-ins of the last
        ``known_address_days`` (older ones are deleted); from now on new ones are stored."""
        self.store = store
        since = self.clock.seconds() - self.limits.known_address_days * 86400.0

        def loaded(rows: list[tuple[str, str]]) -> int:
            for key, group in rows:
                self._logged_in(group, key, remember=False)
            return len(rows)
        done: Deferred[int] = store.login_addresses(since).addCallback(loaded)
        return done

    def registration_attempt(self, session: GuardedConnection) -> Registration:
        """Admit one new account from the session's address group: a ``Registration`` (call
        ``cancel()`` if no account was made), or LobbyError ``too-many-registrations``."""
        limit = self.limits.registrations_per_hour
        host = session.address
        if not limit or not self._limited(host):
            return Registration(None, 0.0)
        now = self.clock.seconds()
        window = self._registrations.setdefault(address_group(host), deque())
        wait = _window_wait(window, limit, 3600.0, now)
        if wait > 0:
            log.info("too many new accounts from {host} ({count} in an hour)", host=host,
                     count=len(window))
            raise LobbyError("too-many-registrations", limit=limit,
                             seconds=60 * max(1, _ceil(wait / 60.0)))
        window.append(now)
        if len(self._registrations) > 10000:
            for k in [k for k, q in self._registrations.items()
                      if not q or q[-1] <= now - 3600.0]:
                del self._registrations[k]
        return Registration(window, now)

    def failure_delay(self) -> Deferred[None]:
        """Fires after ``login_failure_delay`` seconds of the clock (at once when it is 0)."""
        if self.limits.login_failure_delay <= 0:
            return succeed(None)
        return deferLater(self.clock, self.limits.login_failure_delay, lambda: None)

    def may_enter(self, session: GuardedConnection, name: str, registered: bool) -> None:
        """LobbyError when ``name`` may not come in now: banned, or one guest too many."""
        world = self.world
        moderation = world.moderation
        if moderation is not None:   # banned names; guests also by their address
            moderation.check_login(name, session.address, registered)
        limit = self.limits.max_guests
        if not registered and limit and world.guest_count() >= limit:
            log.info("guest limit {limit} reached; refused {name}", limit=limit, name=name)
            raise LobbyError("too-many-guests", limit=limit)


def _ceil(seconds: float) -> int:
    return max(1, int(seconds + 0.999))


def _window_wait(window: deque[float], limit: int, span: float, now: float) -> float:
    """Drop the times older than ``span``; the seconds until one more fits (0: it fits now)."""
    while window and window[0] <= now - span:
        window.popleft()
    if len(window) < limit:
        return 0.0
    return window[0] + span - now


class Attempt:
    """One admitted password attempt (``Guard.password_attempt``); end it once."""

    __slots__ = ("guard", "kind", "key", "stamp", "addr_window", "conn_window", "group", "ended",
                 "known")

    def __init__(self, guard: Guard | None, kind: str, key: str | None, stamp: float,
                 addr_window: deque[float] | None, conn_window: deque[float] | None,
                 group: str = "?", known: bool = False) -> None:
        self.guard = guard
        self.group = group
        self.known = known
        self.kind = kind
        self.key = key
        self.stamp = stamp
        self.addr_window = addr_window
        self.conn_window = conn_window
        self.ended = False

    def succeeded(self) -> None:
        """The password was right: a log-in is taken off the address's and the connection's
        counts (successful log-ins never count); the account's failures are forgotten."""
        if self.ended or self.guard is None:
            return
        self.ended = True
        if self.kind == "login":
            for window in (self.addr_window, self.conn_window):
                if window is not None:
                    try:
                        window.remove(self.stamp)
                    except ValueError:   # dropped from the window meanwhile
                        pass
            if self.key is not None:
                self.guard._logged_in(self.group, self.key)
        if self.key is not None and self.guard.limits.account_failures_before_delay:
            self.guard._account_succeeded(self.key, self.group)

    def failed(self) -> None:
        """The password was wrong: it stays counted; the account's delay runs from now."""
        if self.ended or self.guard is None:
            return
        self.ended = True
        if self.key is not None and self.guard.limits.account_failures_before_delay:
            self.guard._account_failed(self.key, self.group, self.known,
                                       self.guard.clock.seconds())


class Registration:
    """One admitted new account (``Guard.registration_attempt``)."""

    __slots__ = ("window", "stamp")

    def __init__(self, window: deque[float] | None, stamp: float) -> None:
        self.window = window
        self.stamp = stamp

    def cancel(self) -> None:
        """No account was made after all (name taken, bad password): it does not count."""
        window, self.window = self.window, None
        if window is not None:
            try:
                window.remove(self.stamp)
            except ValueError:
                pass


def _error_text(code: str, **params: Any) -> str:
    from protocol.render.text import error_line
    return error_line(code, **params)


class ConnectionGuard:
    """The defences of one connection (made by ``Guard.connection_made``)."""

    __slots__ = ("guard", "session", "host", "bucket", "warned", "dropped", "dropped_pings",
                 "prefix",
                 "_login_call", "_idle_call", "_last_line", "_idle_warned", "_done", "attempts",
                 "in_bytes", "telnet", "work", "speech_refused")

    def __init__(self, guard: Guard, session: GuardedConnection, host: str) -> None:
        self.guard = guard
        self.session = session
        self.host = host
        limits = guard.limits
        now = guard.clock.seconds()
        self.bucket = TokenBucket(limits.flood_rate, limits.flood_burst, now) \
            if limits.flood_rate > 0 else None
        self.warned = False
        self.dropped = 0
        #: of the dropped ones, WebSocket pings (a flood of them only is kicked as a ping flood)
        self.dropped_pings = 0
        self.prefix: bytes | None = b""   # None once the first bytes were judged
        self._last_line = now
        self._idle_warned: float | None = None   # when the idle warning was sent
        self._done = False
        self.attempts: deque[float] | None = None   # password attempt times (Guard)
        self._login_call = guard.wheel.call_at(now + limits.login_timeout, self._login_expired) \
            if limits.login_timeout > 0 else None
        self._idle_call: WheelTimer | None = None
        if limits.idle_timeout > 0:
            self._schedule_idle(now + max(0.0, limits.idle_timeout - limits.idle_warning))
        #: every byte received (the telnet layer's cost): refused past the budget, and a
        #: connection that goes on sending another burst's worth is closed
        self.in_bytes = Allowance(limits.input_bytes_per_second, limits.input_bytes_burst,
                                  limits.input_bytes_burst, now, debt=True) \
            if limits.input_bytes_per_second > 0 else None
        #: telnet commands (negotiation, NOP, EC ...): a client that keeps negotiating past
        #: the rate is told once and closed after another burst
        self.telnet = Allowance(limits.telnet_commands_per_second,
                                limits.telnet_commands_burst, limits.telnet_commands_burst,
                                now) if limits.telnet_commands_per_second > 0 else None
        #: the connection's budget of work (made with its first expensive command)
        self.work: Allowance | None = None
        self.speech_refused = 0      # lines over the speech budget (speech_kick closes)

    # ---- the budget of the byte layer ---------------------------------------------------------
    def bytes_received(self, count: int) -> bool:
        """``count`` bytes arrived: False when they are over the connection's byte budget (they
        are dropped unparsed; the first time with an ``input-flood`` line, and a connection
        that keeps going is closed)."""
        allowance = self.in_bytes
        if allowance is None:
            return True
        verdict = allowance.spend(self.guard.clock.seconds(), float(count))
        if verdict == ALLOWED:
            return True
        self._over_budget(verdict, "input-flood", "bytes",
                          rate=f"{self.guard.limits.input_bytes_per_second:g}")
        return False

    def stream_bytes(self, count: int) -> bool:
        """``count`` bytes of a stream that cannot drop any (a WebSocket's frames, counted as
        they arrive, before they are parsed: protocol/web) arrived: False when they are over the
        connection's byte budget; the caller closes the connection at once, without reading on
        (logged once, as a budget's disconnect)."""
        allowance = self.in_bytes
        if allowance is None:
            return True
        guard = self.guard
        if allowance.spend(guard.clock.seconds(), float(count)) == ALLOWED:
            return True
        guard.stats["over_budget"] += 1
        guard.stats["budget_kicks"] += 1
        if self._log_allowed("budget-close"):
            log.warn("budget: closing the connection of {who} from {host}: it kept sending "
                     "bytes past the budget (input-flood)", who=self._who(), host=self.host)
        return False

    def telnet_commands(self, count: int) -> bool:
        """``count`` telnet commands arrived (IAC NOP, IAC WILL x ...; IAC IAC is a data byte):
        False when they are over the budget (ignored; the first time a ``telnet-flood`` line,
        and a connection that keeps negotiating is closed)."""
        allowance = self.telnet
        if allowance is None:
            return True
        verdict = allowance.spend(self.guard.clock.seconds(), float(count))
        if verdict == ALLOWED:
            return True
        self._over_budget(verdict, "telnet-flood", "telnet commands",
                          rate=f"{self.guard.limits.telnet_commands_per_second:g}")
        return False

    def frames_received(self, count: int) -> bool:
        """``count`` WebSocket frames arrived that carry no line of their own (a pong, a close,
        a frame of a message that is not its last: a message of zero-length continuation frames
        never ends): they draw on the telnet commands' budget, as a telnet client's
        negotiation does (a ping is a subnegotiation, a message's last frame a line). False
        when over it (the first time a ``frame-flood`` line, and a connection that keeps going
        is closed)."""
        allowance = self.telnet
        if allowance is None:
            return True
        verdict = allowance.spend(self.guard.clock.seconds(), float(count))
        if verdict == ALLOWED:
            return True
        self._over_budget(verdict, "frame-flood", "WebSocket frames",
                          rate=f"{self.guard.limits.telnet_commands_per_second:g}")
        return False

    def command_cost(self, cost: int, command: str) -> bool:
        """A command that declares ``cost`` (in ordinary commands) is about to run: False when
        the connection's or its address group's budget of work cannot pay it (``work-budget``
        first, and a connection that keeps going is closed). An ordinary command (cost 1) is
        paid by its line's flood-control token alone."""
        if cost <= 1:
            return True
        guard = self.guard
        limits = guard.limits
        now = guard.clock.seconds()
        own = self.work
        if own is None and limits.work_per_second > 0:
            own = self.work = Allowance(limits.work_per_second, limits.work_burst,
                                        5 * limits.work_burst, now)
        verdict = own.spend(now, float(cost)) if own is not None else ALLOWED
        if verdict == ALLOWED and limits.group_work_per_second > 0 and guard._limited(self.host):
            shared = shared_allowance(guard._group_work, address_group(self.host),
                                      limits.group_work_per_second, limits.group_work_burst, now)
            if shared.spend(now, float(cost)) != ALLOWED:
                # refused for its group: the connection pays what it asked for and the refusal
                # counts against its own budget, so one that keeps asking is warned once, then
                # dropped, then closed (a refund and a warning each time let it flood for ever)
                verdict = own.refuse(float(cost)) if own is not None else WARNED
        if verdict == ALLOWED:
            return True
        self._over_budget(verdict, "work-budget", "expensive commands", command=command,
                          cost=cost)
        return False

    def speech(self, channel: str, text: str) -> bool:
        """A line to say in ``channel`` (``room N``, ``tell NAME``): False drops it silently,
        LobbyError ``speech-budget`` (the first over the budget) or ``repeated-line`` refuses
        it with a line; a connection that keeps talking past the budget is closed."""
        guard = self.guard
        limits = guard.limits
        if limits.speech_per_second <= 0 and limits.repeat_window <= 0 \
                and limits.tells_per_second <= 0:
            return True
        now = guard.clock.seconds()
        key = (address_group(self.host), channel)
        said = guard._last_said
        if limits.repeat_window > 0:
            last = said.get(key)
            if last is not None and last[0] == text.strip() and now - last[1] < limits.repeat_window:
                said[key] = (last[0], now)
                raise LobbyError("repeated-line")
        if limits.speech_per_second > 0 or limits.tells_per_second > 0:
            verdict, rate = ALLOWED, limits.speech_per_second
            if limits.speech_per_second > 0:
                verdict = self._speech_spend(key, limits.speech_per_second, limits.speech_burst,
                                             now)
            if verdict == ALLOWED and limits.tells_per_second > 0 and channel.startswith("tell "):
                # B7: the tells of one address group to everybody together, so that spreading
                # them over many recipients does not multiply the budget
                verdict = self._speech_spend((key[0], "tells"), limits.tells_per_second,
                                             limits.tells_burst, now)
                if verdict != ALLOWED:
                    rate = limits.tells_per_second
                    if limits.speech_per_second > 0:
                        guard._speech[key].bucket.tokens += 1.0      # (not sent: not spent)
            if verdict != ALLOWED:
                self.speech_refused += 1
                guard.stats["over_budget"] += 1
                if limits.speech_kick and self.speech_refused >= limits.speech_kick:
                    self._over_budget(KICKED, "speech-budget", "speech")
                    return False
                if verdict == WARNED or self.speech_refused == 1:
                    raise LobbyError("speech-budget", rate=f"{rate:g}")
                return False
        if len(said) > 20000:
            guard._last_said = said = {k: v for k, v in said.items()
                                       if now - v[1] < limits.repeat_window}
        said[key] = (text.strip(), now)
        return True

    def _speech_spend(self, key: tuple[str, str], rate: float, burst: int, now: float) -> int:
        return shared_allowance(self.guard._speech, key, rate, burst, now, 20000).spend(now)

    def table_change(self, command: str, forced: bool = False, name: str | None = None) -> None:
        """A change that tells a table's people something about this connection's user
        (``notices``: a seat, an option, a bot, a vote; leaving a seat at a waiting table by a
        move or a disconnect) is about to happen: LobbyError ``table-budget`` when its user made
        ``table_changes_per_minute`` of them recently, or all users of its address group
        together ``group_table_changes_per_minute`` (where loopback is not exempt) (B5:
        /join-/leave and /option cycles flooded a waiting table; the review: one user behind a
        shared address must not use up everybody's budget there). The refusal reaches only the
        one who asked. ``forced``: it happens all the same (a disconnect): counted, a debt the
        next changes wait for, never refused. ``name``: the user's (after the log-out the
        session has none)."""
        guard = self.guard
        limits = guard.limits
        if limits.table_changes_per_minute <= 0 and limits.group_table_changes_per_minute <= 0:
            return
        now = guard.clock.seconds()
        budgets: list[tuple[Allowance, int]] = []     # the user's, then the address group's
        if limits.table_changes_per_minute > 0:
            budgets.append((shared_allowance(guard._table_changes,
                                             "user " + (name or self.session.user_name
                                                        or "").lower(),
                                             limits.table_changes_per_minute / 60.0,
                                             limits.table_changes_burst, now),
                            limits.table_changes_per_minute))
        if limits.group_table_changes_per_minute > 0 and guard._limited(self.host):
            budgets.append((shared_allowance(guard._group_table_changes,
                                             address_group(self.host),
                                             limits.group_table_changes_per_minute / 60.0,
                                             limits.group_table_changes_burst, now),
                            limits.group_table_changes_per_minute))
        taken: list[Allowance] = []
        for allowance, rate in budgets:
            bucket = allowance.bucket
            if forced:
                if not bucket.take(now):
                    bucket.tokens = max(-bucket.burst, bucket.tokens - 1.0)
            elif allowance.spend(now) == ALLOWED:
                taken.append(allowance)
            else:
                for done in taken:                # (not done: nothing is spent)
                    done.bucket.tokens += 1.0
                guard.stats["over_budget"] += 1
                raise LobbyError("table-budget", command=command, rate=str(rate))

    def _over_budget(self, verdict: int, code: str, what: str, **params: Any) -> None:
        """A budget ran out: WARNED -> the ``! [code]`` line; KICKED -> the disconnect (logged
        once, the one log line of the whole episode); DROPPED -> nothing."""
        session = self.session
        if not session.is_open:
            return
        self.guard.stats["over_budget"] += 1
        if verdict == WARNED:
            session.answer_aside(error_event(code, **params))
        elif verdict == KICKED:
            self.guard.stats["budget_kicks"] += 1
            if self._log_allowed("budget-close"):
                log.warn("budget: closing the connection of {who} from {host}: it kept "
                         "sending {what} past the budget ({code})", who=self._who(),
                         host=self.host, what=what, code=code)
            session.disconnect(error_event(code + "-disconnect"))

    # ---- bytes ----------------------------------------------------------------------------
    def filter_bytes(self, data: bytes) -> bytes | None:
        """The bytes the telnet layer may see (held back while the first bytes might be another
        protocol); None when the connection speaks another protocol (answered and closing)."""
        if self.prefix is None:
            return data
        prefix = self.prefix + data
        verdict = sniff.classify(prefix[:sniff.MAX_PREFIX])
        if verdict == sniff.MAYBE and len(prefix) < sniff.MAX_PREFIX:
            self.prefix = prefix
            return b""
        self.prefix = None
        if verdict is None or verdict == sniff.MAYBE:
            return prefix
        self.guard.stats["foreign"] += 1
        if self._log_allowed("foreign"):
            log.info("{host} speaks {protocol}, not telnet: answered and closed", host=self.host,
                     protocol=verdict)
        self.session.answer_foreign(sniff.answer(verdict))
        return None

    # ---- lines ------------------------------------------------------------------------------
    def line_received(self) -> bool:
        """A line arrived: False when flood control drops it (the warning is sent here)."""
        clock = self.guard.clock
        now = clock.seconds()
        bucket = self.bucket
        if bucket is not None:
            if self.warned and bucket.full(now):
                self.warned = False
                self.dropped = self.dropped_pings = 0
            if not bucket.take(now):
                self._flood(now)
                return False
        self._last_line = now
        return True

    def subnegotiation_received(self, ping: bool = False) -> bool:
        """A telnet subnegotiation (GMCP or any other) or a WebSocket ping (``ping``) arrived:
        it spends a token of the same bucket as a line (False: dropped, counted toward
        ``flood_kick``), but is no activity for the idle timer."""
        bucket = self.bucket
        if bucket is None:
            return True
        now = self.guard.clock.seconds()
        if self.warned and bucket.full(now):
            self.warned = False
            self.dropped = self.dropped_pings = 0
        if not bucket.take(now):
            self._flood(now, ping)
            return False
        return True

    def _flood(self, now: float, ping: bool = False) -> None:
        self.guard.stats["dropped_lines"] += 1
        self.dropped += 1
        if ping:
            self.dropped_pings += 1
        limits = self.guard.limits
        if not self.warned:
            self.warned = True
            # (in machine mode without an id: never the id of a command still running)
            self.session.answer_aside(error_event("flooding", rate=f"{limits.flood_rate:g}"))
            return
        if limits.flood_kick and self.dropped >= limits.flood_kick:
            self.guard.stats["flood_kicks"] += 1
            if self._log_allowed("flood-close"):
                log.warn("flood: closing the connection of {who} from {host} after {dropped} "
                         "dropped lines", who=self._who(), host=self.host,
                         dropped=self.dropped)
            # a flood of mostly WebSocket pings is named for what it was, not "lines"
            pings = 2 * self.dropped_pings > self.dropped
            self.session.disconnect(error_event(
                "ping-flood-disconnect" if pings else "flood-disconnect"))

    def _log_allowed(self, kind: str) -> bool:
        """Whether a line of ``kind`` this connection caused is logged: a few a minute per
        address group, then one summary (lobby/world/log_budget.py), never one per connection
        of a client that opens many."""
        return self.guard.world.log_budget.allow(address_group(self.host), kind)

    def _who(self) -> str:
        name = self.session.user_name
        return name if name is not None else "(not logged in)"

    # ---- timers ------------------------------------------------------------------------------
    def _login_expired(self) -> None:
        self._login_call = None
        session = self.session
        if session.awaiting_login:
            self.guard.stats["login_timeouts"] += 1
            if self._log_allowed("login-timeout"):
                log.info("{host} did not log in within {seconds} s; closed", host=self.host,
                         seconds=self.guard.limits.login_timeout)
            session.disconnect(error_event("login-timeout",
                                           seconds=f"{self.guard.limits.login_timeout:g}"))

    def _idle_check(self) -> None:
        """The idle timer: the warning, then (``idle_warning`` seconds later) the disconnect."""
        self._idle_call = None
        if self._done:
            return
        limits = self.guard.limits
        clock = self.guard.clock
        now = clock.seconds()
        last = self._last_line
        session = self.session
        user = session.active_user
        if user is None:
            warn_at = last + limits.idle_timeout - limits.idle_warning
            self._schedule_idle(max(warn_at, now + 60.0))  # the log-in timer closes it anyway
            return
        # a seated player is idle unless they do something real at the table (a move, a vote,
        # table talk): any other line (/who, /look) does not count for them
        seated = self.table_activity(user)
        if seated is not None:
            last = seated
        warn_at = last + limits.idle_timeout - limits.idle_warning
        if now < warn_at:
            self._idle_warned = None                 # active since the warning (if any)
            self._schedule_idle(warn_at)
            return
        if self.table_waits_on_others(user):
            # seated at a running game that waits on somebody else: never now; look again later
            self._idle_warned = None
            self._schedule_idle(now + max(1.0, min(60.0, limits.idle_warning or 60.0)))
            return
        if limits.idle_warning > 0:
            if self._idle_warned is None:
                self._idle_warned = now
                session.deliver(error_event("idle-warning-seated" if seated is not None
                                            else "idle-warning",
                                            seconds=f"{limits.idle_warning:.0f}"))
                self._schedule_idle(now + limits.idle_warning)
                return
            if now < self._idle_warned + limits.idle_warning:
                self._schedule_idle(self._idle_warned + limits.idle_warning)
                return
        self.guard.stats["idle_kicks"] += 1
        log.info("{user} idle for {seconds} s; disconnected", user=user,
                 seconds=int(now - self._last_line))
        session.disconnect(error_event("idle-timeout", seconds=limits.idle_timeout))

    def _schedule_idle(self, when: float) -> None:
        self._idle_call = self.guard.wheel.call_at(max(when, self.guard.clock.seconds()),
                                                   self._idle_check)

    def table_activity(self, name: str) -> float | None:
        """When ``name``, seated at a table, last did something real there (the world tells;
        None: seated nowhere, every line counts)."""
        found = getattr(self.guard.world, "seated_activity", None)
        return found(name) if callable(found) else None

    def table_waits_on_others(self, name: str) -> bool:
        """Whether ``name`` sits at a running table that now waits on somebody else (the
        world tells)."""
        return self.guard.world.waits_on_others(name)

    def connection_lost(self) -> None:
        if self._done:
            return
        self._done = True
        for call in (self._login_call, self._idle_call):
            if call is not None and call.active():
                call.cancel()
        self._login_call = self._idle_call = None
        self.guard._released(self.host)
