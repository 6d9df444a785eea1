"""The world: who is online, the rooms they are in, chat routing, and the table registry.

It knows no sockets: each online user has a ``Listener`` (the wire layer's session) and the world
answers with ``Event`` objects delivered to listeners. Room 0 is the lobby (BSW's village), where
everybody starts.

Tables: ``open_table`` (``/newroom tichu``) creates a ``TableActor`` and a ``Room`` with the same
number, with the opener as host, and moves the opener there. Entering a table room means watching
the table (``TableActor.add_member``); leaving it tells the table (``remove_member``), and a user who
disconnects while in it is ``member_gone`` for the table. Table numbers are reused: a new table gets
the smallest number >= 1 that no open table has. A table keeps its number while anybody is in its
room; it is closed (``TableActor.close()``) and its number freed when its room is empty and no game
runs. A running game whose room is empty and none of whose human players is online is kept for
``abandon_after`` seconds, and at least the table's grace time (its players may log in again and
play on), then closed.

Limits (``TableLimits``, set by the server from its command line): a user hosts or sits at no
more than ``tables_per_user`` open tables and sits at no more than ``seats_per_user`` of them;
the users of one IP address host or sit at no more than ``tables_per_address``. ``/newroom`` is
checked here (``open_table``), ``/join`` by the table asking ``may_sit`` (its seat policy).

Reconnecting: a player of a running game who logs in again (``returning``, called by the session
after the log-in) is put back into the table's room and so into their seat, with the full state.
Who may come back is the table's policy (``TableActor.holds_seat_for``): a registered player
proves themselves with the password, a guest with the reconnect key told to them alone when they
sat down. While the table's grace time (``/option grace``) runs nobody else may use a guest's
name (``seat-held``); after it the name is free again, and whoever takes it without the key
gets neither the seat nor that table's room (``User.barred``), while the guest with the key
still gets the seat back unless it was given away (a bot took it over).
"""
from __future__ import annotations

import math
import random
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from lobby.events import Event, Listener
from lobby.storage.accounts import name_key
from lobby.tables.recording import Deliver, Recorder
from lobby.tables.timer_wheel import TimerWheel
from lobby.text.messages import LobbyError, Msg
from lobby.world.addresses import address_group, ban_group, is_loopback
from lobby.world.log_budget import LogBudget

if TYPE_CHECKING:
    from lobby.tables.table import TableActor

__all__ = ["LOBBY", "GAMES", "LISTROOM_PAGE", "Room", "TableLimits", "User", "World",
           "visible_text"]

LOBBY = 0
#: the games a table can be opened for (``/newroom GAME``)
GAMES = ("tichu",)

#: tables per /listroom page (a screenful); /listroom 2 shows the next ones
LISTROOM_PAGE = 10   # two lines a table: a page fits a 24-row screen


def room_name(number: int) -> Msg:
    """A room's name: data (the room's number, in the catalog's words ``room-lobby`` and
    ``room-table``), a ``str`` of its English words for machine mode and logs, and rendered in
    the reader's language wherever a message names it."""
    if number == LOBBY:
        return Msg.named(LOBBY_NAME, "room-lobby")
    return Msg("room-table", number=number)


#: the lobby's name in machine mode's data (JSON, GMCP): what programs know, whatever the
#: catalog's English words for people are ("the lobby")
LOBBY_NAME = "Lobby"

log = Logger(namespace="lobby.world")

#: the Unicode categories taken out of what people say: control (Cc), format (Cf: the bidi
#: overrides and isolates such as U+202E, which turn the rest of a line around on the reader's
#: screen, zero-width characters, the BOM) and the line and paragraph separators (Zl, Zp)
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
#: format characters that are kept: the zero-width (non-)joiner, which emoji sequences and
#: several scripts (Persian, Indic) need and which cannot reorder a line
KEPT_FORMAT = frozenset({"\u200c", "\u200d"})


#: characters that are not format characters but print as nothing: the Hangul fillers, the
#: blank Braille pattern, the Khmer inherent vowels, the musical symbols' invisible beams...; a
#: line of nothing but these (and spaces) looks blank and is refused like an invisible one
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e\u2062\u2063"
                          "\u2064\u034f\U0001d159\U0001d173\U0001d174\U0001d175"
                          "\U0001d176\U0001d177\U0001d178\U0001d179\U0001d17a\u3000")
#: combining marks in a row on one character ("Zalgo" text that spills over the lines above
#: and below); more are refused (``too-many-marks``). Scripts that stack marks need 3 at most
MAX_COMBINING_RUN = 4
#: the kept joiners (``KEPT_FORMAT``) in a row: an emoji sequence or a Persian word needs one
#: between two characters; a longer run (hundreds of U+200D, invisible bytes relayed to every
#: listener) is refused (``too-many-joiners``); marks between them do not end the run
MAX_JOINER_RUN = 2


def visible_text(text: str) -> str:
    """What somebody says (speech, whispers, announcements) without the characters that are
    invisible or rearrange the reader's line (``INVISIBLE_CATEGORIES``, but not
    ``KEPT_FORMAT``). LobbyError 'invisible-text' when nothing visible is left (blank-looking
    characters, ``BLANK_LOOKING``, count as nothing), 'too-many-marks' for a run of more than
    ``MAX_COMBINING_RUN`` combining marks, 'too-many-joiners' for a run of more than
    ``MAX_JOINER_RUN`` zero-width joiners (``KEPT_FORMAT``)."""
    if text.isascii() and text.isprintable():
        return text
    kept_chars: list[str] = []
    visible = False
    run = joiners = 0
    for c in text:
        category = unicodedata.category(c)
        if c in KEPT_FORMAT:
            kept_chars.append(c)
            joiners += 1
            if joiners > MAX_JOINER_RUN:
                raise LobbyError("too-many-joiners", limit=MAX_JOINER_RUN)
            continue
        if category in INVISIBLE_CATEGORIES:
            continue
        kept_chars.append(c)
        if category in ("Mn", "Me"):
            run += 1
            if run > MAX_COMBINING_RUN:
                raise LobbyError("too-many-marks", limit=MAX_COMBINING_RUN)
            continue
        run = joiners = 0
        if not visible and c not in BLANK_LOOKING and not c.isspace():
            visible = True
    if not visible:
        raise LobbyError("invisible-text")
    return "".join(kept_chars)


@dataclass(frozen=True, slots=True)
class TableLimits:
    """How many open tables (waiting or running) one user and one address may take part in; 0
    turns a limit off. A user *takes part* in a table they host or sit at (a seat at a waiting
    table, or a place in a running game, away or not, until a bot takes it over). The server's
    defaults are protocol.connection.guard.PUBLIC_LIMITS (docs/operations.md, "Limits")."""

    tables_per_user: int = 0        # tables a user hosts or sits at (/newroom is refused beyond)
    seats_per_user: int = 0         # tables a user sits at (/join is refused beyond)
    tables_per_address: int = 0     # tables the users of one IP address host or sit at
    limit_loopback: bool = False    # count 127.0.0.0/8 and ::1 per address too
    opens_per_minute: int = 0       # tables one user may open (/newroom) in a minute
    #: the most seconds a guest may give an expert bot (``/addbot expert:SECONDS``; 0: no cap)
    guest_expert_seconds: float = 0.0
    #: tables with expert bots one user may host or sit at (0: no limit)
    expert_tables_per_user: int = 0
    #: "enters"/"leaves" lines about one user told in a minute (0: all)
    presence_per_minute: int = 0
    #: the same lines about the users of one address group together (0: no such limit; loopback
    #: exempt unless ``limit_loopback``): several users of one address hopping together
    group_presence_per_minute: int = 0
    #: seconds a running table none of whose human players is online is kept (at least its
    #: grace time; 0 and grace 0: closed at once)
    abandon_after: float = 3600.0
    #: the highest grace time /option grace may set (seconds a vanished player's seat waits)
    max_grace: float = 86400.0
    #: the highest move timer (seconds per decision) and target score /option may set
    max_timer: float = 3600.0
    max_target: int = 100000
    #: the most rounds /option round may set (a turnier's 9 need at least 9) and the longest
    #: bomb window /option bombwindow may set
    max_rounds: int = 1000
    max_bombwindow: float = 60.0
    #: the shortest move timer of a rated game (seconds per decision; `off` there is `auto`)
    min_rated_timer: float = 30.0
    #: the shortest grace time of a rated game (seconds; a shorter /option grace is raised)
    min_rated_grace: float = 30.0
    #: time-outs of a present player in a rated game before the others may vote to remove them
    #: (and then their partner's yes is needed: docs/rating.md)
    rated_remove_timeouts: int = 2
    #: names on one friends list (/notify)
    max_friends: int = 100
    #: seconds within which a player's vanishing again is not announced at once (TableActor)
    presence_quiet: float = 60.0

    def limits_address(self, address: str | None) -> bool:
        """Whether the per-address limit applies to ``address``."""
        if not self.tables_per_address or not address:
            return False
        return self.limit_loopback or not is_loopback(address)


class User:
    """Somebody online. A replacing log-in keeps the User (and so any seat) and swaps the listener."""

    __slots__ = ("name", "key", "registered", "listener", "room", "since", "barred", "identity",
                 "quit_warned")

    def __init__(self, name: str, registered: bool, listener: Listener, since: float) -> None:
        self.name = name
        self.key = name_key(name)
        self.registered = registered
        self.listener = listener
        self.room: Room | None = None
        self.since = since
        #: the tables whose running game holds a seat for another guest of this name (this one
        #: came without the seat's key): they may not enter them
        self.barred: frozenset[Any] = frozenset()
        #: who this is, whatever the name: a registered account (``acct:KEY``) or one guest
        #: (``guest:N``, a guest who proves a held seat with its key keeps theirs); a name
        #: taken by somebody else after a guest's grace time is another identity
        self.identity = ("acct:" + self.key) if registered else ""
        #: told once that /quit leaves a running game waiting (protocol/commands/people.py)
        self.quit_warned = False

    def __repr__(self) -> str:
        return f"User({self.name!r}, registered={self.registered})"


#: see World.announce_limit
ANNOUNCE_LIMIT = 50
#: the table events a table's players' friends hear of (lobby/world/friends.py)
_FRIEND_EVENTS = frozenset({"table-started", "game-match-over"})
#: identities the world remembers (guests' names, who talked to whom), and per user the names
#: it remembers whom they talked to under: the oldest are forgotten first
IDENTITIES_KEPT = 20000
ACQUAINTANCES_KEPT = 200


class Room:
    """A place people talk in: the lobby (number 0), later one per table (``table`` set)."""

    __slots__ = ("number", "name", "members", "table")

    def __init__(self, number: int, name: str, table: TableActor | None = None) -> None:
        self.number = number
        self.name = name
        self.members: dict[str, User] = {}
        self.table = table  # the TableActor of a table room; None for the lobby

    def names(self) -> list[str]:
        return sorted((u.name for u in self.members.values()), key=str.lower)

    def __repr__(self) -> str:
        return f"Room({self.number}, {self.name!r}, {len(self.members)} members)"


class TableIndex:
    """Which tables a name, or an address group, may take part in: a superset, kept as names
    reach a table (its host, its players and seats when it is opened or restored, whoever sits
    down through the seat policy or enters its room, since a member may become its host) and
    dropped when the table closes. Without it a log-in, a ``/join`` and a log-out each looked at
    every table (World._tables_of, guest_seats, returning, logout): 4,750 tables made setting up
    the tables quadratic."""

    __slots__ = ("_by_name", "_by_group", "_names_at", "_groups_at")

    def __init__(self) -> None:
        self._by_name: dict[str, set[int]] = {}
        self._by_group: dict[str, set[int]] = {}
        self._names_at: dict[int, set[str]] = {}
        self._groups_at: dict[int, set[str]] = {}

    def add_table(self, table: Any, addresses: Iterable[str | None] = ()) -> None:
        names = [table.host, *table.seats, *table.players, *getattr(table, "members", ())]
        for name in names:
            if name:
                self.add_name(table.number, name_key(name))
        for address in addresses:
            self.add_address(table.number, address)

    def add_name(self, number: int, key: str) -> None:
        self._by_name.setdefault(key, set()).add(number)
        self._names_at.setdefault(number, set()).add(key)

    def add_address(self, number: int, address: str | None) -> None:
        if address is None:
            return
        group = address_group(address)
        self._by_group.setdefault(group, set()).add(number)
        self._groups_at.setdefault(number, set()).add(group)

    def tables_of(self, key: str) -> set[int]:
        return self._by_name.get(key, _NONE)

    def tables_of_group(self, group: str) -> set[int]:
        return self._by_group.get(group, _NONE)

    def remove_table(self, number: int) -> None:
        for index, at in ((self._by_name, self._names_at), (self._by_group, self._groups_at)):
            for key in at.pop(number, ()):
                numbers = index.get(key)
                if numbers is not None:
                    numbers.discard(number)
                    if not numbers:
                        del index[key]


_NONE: set[int] = set()


class World:
    """All users and rooms of one server. ``clock`` is an IReactorTime (task.Clock in tests)."""

    def __init__(self, clock: IReactorTime, rng: random.Random | None = None,
                 table_limits: TableLimits | None = None, bot_pool: Any = None) -> None:
        self.clock = clock
        #: the move timers of every table (/option timer) behind one timer of the clock
        self.wheel = TimerWheel(clock)
        #: lobby/bots/runtime/pool.py BotPool: every table's search bots think there (None: in process)
        self.bot_pool = bot_pool
        #: how many tables a user and an address may take part in (everything off by default)
        self.table_limits = table_limits if table_limits is not None else TableLimits()
        self.users: dict[str, User] = {}
        self.rooms: dict[int, Room] = {LOBBY: Room(LOBBY, room_name(LOBBY))}
        #: name key -> the language a guest away from a held seat had chosen (keep_guest_language)
        self._guest_languages: dict[str, str] = {}
        self.tables: dict[int, TableActor] = {}  # by number (the room has the same number)
        self._rng = rng if rng is not None else random.Random()
        #: called with every new TableActor before anybody enters it (tests: bot_delay, deals)
        self.on_new_table: Callable[[TableActor], None] | None = None
        #: lobby.world.moderation.Moderation (mute lists, silence, bans) when the server has one
        self.moderation: Any = None
        #: lobby.world.friends.Friends (/notify lists) when the server has one
        self.friends: Any = None
        #: the log lines a client can cause: the first of each minute written, the rest counted
        self.log_budget = LogBudget(clock)
        #: table number -> the name keys of those who added its expert bots (may_add_bot)
        self._expert_adders: dict[int, set[str]] = {}
        #: True once a shutdown was announced: no new tables, no new games
        self.closing = False
        #: the journal and game records (lobby/world/persistence.py): every new table is built with it
        #: and with its delivery behind the recorder's journal gate
        self.recorder: Recorder[TableActor] | None = None
        self._abandon_calls: dict[int, Any] = {}
        #: table number -> name key -> the IP address each of its hosts and seated players had
        #: when they opened it or sat down (the per-address limit counts them while offline too)
        self._origins: dict[int, dict[str, str | None]] = {}
        #: who may take part in which table, so that a log-in, a /join or a log-out looks at the
        #: few tables of one name or address rather than at every table (TableIndex)
        self._index = TableIndex()
        #: user key -> when they opened tables in the last minute (TableLimits.opens_per_minute)
        self._opened: dict[str, deque[float]] = {}
        #: arrivals and departures are announced only in rooms with fewer members than this: in
        #: a crowded lobby they would be noise, and every log-in would cost a line per member
        #: (N log-ins into a room of N cost N**2/2 lines); /who still lists everyone
        self.announce_limit: int = ANNOUNCE_LIMIT
        #: user key -> when "enters"/"leaves" lines about them were told (_presence_allowed)
        self._presence_told: dict[str, deque[float]] = {}
        #: identities (``User.identity``): the last guest of each name, so that the guest who
        #: proves a held seat with its key is who they were; and, by identity, whom each user
        #: last talked to under each name (name key -> identity; ``tell``), bounded
        self._guest_serial = 0
        self._run = secrets.token_hex(4)
        self._guest_identity: dict[str, str] = {}
        self._acquainted: dict[str, dict[str, str]] = {}
        #: (sender identity, new holder identity): the sender was told the name is somebody
        #: else's now; the new holder is told so (namesake-notice) with the first tell
        self._notice_due: dict[tuple[str, str], None] = {}
        #: table number -> name key -> the identity that sat down there under the name (a
        #: namesake who speaks in the room later is shown as such: ``says-namesake``)
        self._sat_as: dict[int, dict[str, str]] = {}
        #: table number -> (identity, address group) of its host who disconnected: the host who
        #: logs in again within the table's hand-over time goes back into the room and stays the
        #: host; a namesake who is somebody else makes the table pass on at once (returning)
        self._away_hosts: dict[int, tuple[str, str | None]] = {}
        #: set by the wire layer: ``bulk_deliver(listeners, event)`` shows one event to many
        #: listeners at once (a crowded room's speech) and handles each listener's failure
        #: itself; None: one ``listener.deliver(event)`` after the other
        self.bulk_deliver: Callable[[list[Any], Event], None] | None = None

    @property
    def abandon_after(self) -> float:
        """Seconds a running table none of whose human players is online is kept (at least its
        grace time)."""
        return self.table_limits.abandon_after

    @property
    def lobby(self) -> Room:
        return self.rooms[LOBBY]

    # ---- who ------------------------------------------------------------------------------------
    def online(self, name: str) -> User | None:
        return self.users.get(name_key(name))

    def guest_count(self) -> int:
        """How many guests are online (protocol.connection.guard's --max-guests)."""
        return sum(1 for u in self.users.values() if not u.registered)

    def waits_on_others(self, name: str) -> bool:
        """Whether ``name`` sits at a running table that now waits on somebody else (the
        guard's idle timer never closes such a player's connection)."""
        for table in list(self.tables.values()):
            if table.state == "playing" and name in table.players \
                    and name not in table.waiting_for():
                return True
        return False

    def seated_activity(self, name: str) -> float | None:
        """When ``name``, seated at a table (waiting, or a player of its running game), last
        did something real there (``TableActor.last_activity``: a move, a vote, an option, table
        talk); None: seated nowhere. The guard's idle timer counts only this for a seated
        player, not every line (a /who now and then keeps nobody at a table)."""
        found: float | None = None
        for _, table in self._candidates(name_key(name)):
            last = getattr(table, "last_activity", None)
            when = last(name) if callable(last) else None
            if when is not None and (found is None or when > found):
                found = when
        return found

    def free_guest_name(self) -> str:
        """A name ``GuestNNNN`` that nobody online has."""
        for _ in range(100):
            name = f"Guest{self._rng.randrange(1000, 10000)}"
            if name_key(name) not in self.users:
                return name
        n = 10000
        while name_key(f"Guest{n}") in self.users:
            n += 1
        return f"Guest{n}"

    # ---- arriving and leaving ---------------------------------------------------------------------
    def login(self, name: str, listener: Listener, registered: bool,
              key: str | None = None) -> User:
        """Bring ``name`` online in the lobby. A registered name that is online already is taken
        over by the new listener (the old one is told and disconnected); a guest name that is
        online is refused with LobbyError('name-in-use'). A guest name a running game holds a
        seat for (``guest_seats``): ``key``, the seat's reconnect key, gives the seat back;
        without it the name is refused while the seat is reserved for its guest
        (LobbyError('seat-held')), and after that the new guest has the name but not the seat
        (they may not enter that table's room, ``seat-held-here``)."""
        existing = self.users.get(name_key(name))
        if existing is not None and not registered and self.keyless_namesake(existing, key):
            # the guest of a held seat came back with its key while a guest without the key had
            # taken the name after the grace time: the key proves the name's owner
            log.info("the guest {user} came back with the key of their seat; the namesake "
                     "without it is logged out", user=existing.name)
            old = existing.listener
            self.logout(existing, old)
            self._safe(old.disconnect, Event("name-reclaimed", name=existing.name))
            existing = None
        if existing is not None:
            if not registered:
                raise LobbyError("name-in-use", name=existing.name)
            old = existing.listener
            existing.listener = listener
            existing.registered = True
            existing.identity = "acct:" + existing.key
            log.info("{user} logged in again; the old connection is replaced", user=existing.name)
            self._safe(old.disconnect, Event("replaced", name=existing.name))
            return existing
        held = self.guest_seats(name, key)
        others = [h for h in held if not h.proved]
        if not registered:
            reserved = [h for h in others if h.reserved]
            if reserved:
                raise LobbyError("seat-held", name=reserved[0].name, table=reserved[0].table)
            name = next((h.name for h in held if h.proved), name)   # the seat's spelling
        # a guest's seat is not for an account registered under the name later either: only
        # the key proves the guest
        barred = frozenset(self.tables[h.table] for h in others)
        user = User(name, registered, listener, self.clock.seconds())
        user.barred = barred
        if not registered:
            self._guest_identity_for(user, proved=any(h.proved for h in held))
        self.users[user.key] = user
        self.enter(user, self.lobby, None)
        if self.friends is not None:
            self.friends.logged_in(user)
        return user

    def identity_at(self, number: int, name: str) -> str | None:
        """The identity that sat down under ``name`` at table ``number`` (the journal keeps a
        guest player's: lobby/world/persistence.py)."""
        return self._sat_as.get(number, {}).get(name_key(name))

    def host_record(self, number: int) -> dict[str, str] | None:
        """What the journal keeps of table ``number``'s host (lobby/world/persistence.py): their
        ``identity`` (a registered account, one guest session) and ``group`` (their address
        group, when known), so that after a restart the host who comes back is recognised as
        before (``_host_returning``): online now, or away within the hand-over time."""
        table = self.tables.get(number)
        if table is None or table.host is None:
            return None
        user = self.users.get(name_key(table.host))
        if user is not None:
            address = _address(user)
            identity, group = user.identity, address_group(address) if address else None
        elif number in self._away_hosts:
            identity, group = self._away_hosts[number]
        else:
            return None
        record = {"identity": identity}
        if group:
            record["group"] = group
        return record

    def restore_identities(self, number: int, identities: Mapping[str, str]) -> None:
        """After a restart: the guest players of restored table ``number`` are who they were
        (``name -> identity`` from the journal): the one who proves the seat with its key gets
        the identity back (so those they talked to do not take them for a newcomer), and a
        namesake speaking in the room is shown as somebody else (``says-namesake``)."""
        if number not in self.tables:
            return
        sat = self._sat_as.setdefault(number, {})
        for name, identity in identities.items():
            sat[name_key(name)] = identity
            self._guest_identity[name_key(name)] = identity

    def _guest_identity_for(self, user: User, *, proved: bool) -> None:
        """A guest's identity: the one the last guest of the name had when this one proves a
        held seat with its key (the same person), else a new one."""
        known = self._guest_identity.get(user.key) if proved else None
        if known is None:
            self._guest_serial += 1
            # (this run's mark: an identity journaled before a restart is never handed out again)
            known = f"guest:{self._run}:{self._guest_serial}"
        self._guest_identity.pop(user.key, None)
        self._guest_identity[user.key] = known
        if len(self._guest_identity) > IDENTITIES_KEPT:      # the oldest go first
            del self._guest_identity[next(iter(self._guest_identity))]
        user.identity = known

    def _acquaint(self, user: User, other: User) -> str | None:
        """``user`` talks to ``other`` now: the identity ``user`` last talked to under
        ``other``'s name if it was somebody else (None: the same, or nobody before)."""
        seen = self._acquainted.get(user.identity)
        if seen is None:
            seen = self._acquainted[user.identity] = {}
            if len(self._acquainted) > IDENTITIES_KEPT:
                del self._acquainted[next(iter(self._acquainted))]
        before = seen.pop(other.key, None)
        seen[other.key] = other.identity
        if len(seen) > ACQUAINTANCES_KEPT:
            del seen[next(iter(seen))]
        return before if before is not None and before != other.identity else None

    def talked_with(self, user: User, name: str) -> bool:
        """Whether ``user`` exchanged tells with somebody called ``name`` (online or not; the
        last ``ACQUAINTANCES_KEPT`` names, memory only): a bare ``tell NAME ...`` to them is a
        tell even when they are away, never speech to the room (protocol/commands/bare.py)."""
        return name_key(name) in self._acquainted.get(user.identity, {})

    def returning(self, user: User) -> None:
        """After a log-in (the session calls it once ``logged-in`` is shown): a player of a
        running game goes back into the table's room and so into their seat, and gets the full
        state with their own hand; a replacing connection at a table gets the table again."""
        for number, table in self._candidates(user.key):
            room = self.rooms.get(number)
            if table.state != "playing" or user.name not in table.players or room is None \
                    or table in user.barred:
                continue
            self._safe(user.listener.deliver, Event("game-rejoined", table=number))
            if user.room is room:
                self._coming_back(user, table, "login")
                self._tell_table(table, table.member_back, user.name)
            else:
                self.enter(user, room, None)
            return
        if user.room is not None and user.room.table is not None:
            self._tell_table(user.room.table, user.room.table.member_back, user.name)
        self._host_returning(user)

    def _host_returning(self, user: User) -> None:
        """A table's host who disconnected logs in again within its hand-over time: they go back
        into the table's room (and so stay its host). The same identity (a registered account,
        the same guest session) or, for a guest, the same address group counts as the host; a
        guest namesake from elsewhere is somebody else: the table is handed on at once."""
        for number, (identity, group) in list(self._away_hosts.items()):
            table = self.tables.get(number)
            if table is None or table.host is None or not table.host_away():
                del self._away_hosts[number]
                continue
            if name_key(table.host) != user.key:
                continue
            del self._away_hosts[number]
            address = _address(user)
            same = identity == user.identity or (
                not user.registered and not identity.startswith("acct:") and group is not None
                and address is not None and address_group(address) == group)
            room = self.rooms.get(number)
            if not same or room is None:
                self._tell_table(table, table.host_replaced, table.host)
                continue
            if user.room is not room:
                try:
                    self.enter(user, room, None)
                except LobbyError:
                    self._tell_table(table, table.host_replaced, table.host)

    _returning = returning

    def guest_seats(self, name: str, key: str | None = None) -> list[Any]:
        """The seats running games hold for a guest called ``name`` (lobby.tables.seats.HeldSeat, from
        each table's ``holds_seat_for``), ``proved`` where ``key`` is that seat's key."""
        out = []
        for _, table in self._candidates(name_key(name)):
            if table.state == "playing":
                held = table.holds_seat_for(name, key)
                if held is not None and held.guest:
                    out.append(held)
        return out

    def keep_guest_language(self, name: str, lang: str) -> None:
        """A guest who holds a seat in a running game goes away having chosen ``lang`` (/set
        lang): it waits for them, and the seat's key brings it back (``guest_language``). Kept
        only while a running game holds a seat for the name."""
        self._guest_languages = {key: value for key, value in self._guest_languages.items()
                                 if self.guest_seats(key)}
        if self.guest_seats(name):
            self._guest_languages[name_key(name)] = lang

    def guest_language(self, name: str, keep: bool = False) -> str | None:
        """The language the guest ``name`` had chosen when they went away (None: none);
        forgotten unless ``keep`` (the seat-key prompt reads it before the key is given)."""
        if keep:
            return self._guest_languages.get(name_key(name))
        return self._guest_languages.pop(name_key(name), None)

    def keyless_namesake(self, user: User, key: str | None = None) -> bool:
        """Whether ``user`` is a guest online under the name of a held guest seat without its
        key (they logged in after the grace time and may not enter that table), so that the
        seat's guest, coming back with the key (``key``; None: any key), takes the name back."""
        if user.registered or not user.barred:
            return False
        held = self.guest_seats(user.name, key)
        return any(self.tables.get(h.table) in user.barred and (key is None or h.proved)
                   for h in held)

    def logout(self, user: User, listener: Listener) -> bool:
        """Take ``user`` offline if ``listener`` is still theirs (a replaced connection is not)."""
        if self.users.get(user.key) is not user or user.listener is not listener:
            return False
        del self.users[user.key]
        try:
            self._leaving_seat(user, "quit", forced=True)
        except LobbyError:                      # (forced: never refused; a listener's own)
            pass
        self.leave(user, gone=True)
        if self.moderation is not None:
            self.moderation.forget_guest(user)
        if self.friends is not None:
            self.friends.logged_out(user)
            self.friends.forget_guest(user)
        for _, table in self._candidates(user.key):   # their other tables may be orphaned now
            if user.name in table.players:
                self._maybe_close(table.number)
        return True

    def enter(self, user: User, room: Room, command: str | None = "room") -> None:
        """Move ``user`` into ``room`` (leaving their current one); both rooms are told. Entering
        a table room means watching the table. ``command``: the user's own command that moves
        them (it spends their budget of table changes when they leave a seat at a waiting
        table: LobbyError ``table-budget``, nothing done); None: somebody else moves them."""
        if user.room is room:
            return
        if (room.table is not None and room.table in user.barred
                and room.table.holds_seat_for(user.name) is not None):
            raise LobbyError("seat-held-here", table=room.number, name=user.name)
        if room.table is not None and room.table.is_barred(user.name):
            raise LobbyError("barred-from-table", table=room.number, host=room.table.host or "-")
        if command is not None:
            self._leaving_seat(user, command)
        self.leave(user)
        if len(room.members) < self.announce_limit and (
                room.table is None or room.table.tells_presence(user.name)) \
                and self._presence_allowed(user):
            self.deliver(room.members.values(), Event("enters", name=user.name, room=room.name))
        room.members[user.key] = user
        user.room = room
        if room.table is not None:
            self._coming_back(user, room.table, command or "login")
            self._index.add_name(room.number, user.key)      # a member may become the host
            call = self._abandon_calls.pop(room.number, None)   # kept: the time starts anew
            if call is not None and call.active():
                call.cancel()
            self._pause_bots(room.table, False)                  # somebody watches again
            self._tell_table(room.table, room.table.add_member, user.name)

    def _leaving_seat(self, user: User, command: str, forced: bool = False) -> None:
        """``user`` is about to leave their room: seated at its waiting table (``table-left``),
        or a player of its running game (``table-vanished``, unless presence_quiet keeps it
        quiet), that tells the table's people, so it spends the user's budget of table changes
        as /leave does (the listener's ``table_change``, protocol.connection.guard: LobbyError
        ``table-budget`` refuses a move of their own; ``forced``, a disconnect, is only
        counted). Review of B5: /join and /room 0 cycles put twice the budget on the table."""
        room = user.room
        table = room.table if room is not None else None
        if table is not None and table.tells_leaving(user.name):
            self._spend_table_change(user, command, forced)

    def _coming_back(self, user: User, table: TableActor, command: str) -> None:
        """``user``, a player of ``table``'s running game, comes back into its room (a log-in,
        /room): when that tells the table's people (``table-back``) it is counted in their
        budget of table changes, never refused (nobody is kept out of their game)."""
        if table.tells_return(user.name):
            try:
                self._spend_table_change(user, command, True)
            except LobbyError:                  # (forced: never refused; a listener's own)
                pass

    def _spend_table_change(self, user: User, command: str, forced: bool) -> None:
        spend = getattr(user.listener, "table_change", None)
        if callable(spend):
            spend(command, user.name, forced)

    def _presence_allowed(self, user: User) -> bool:
        """Whether one more "enters"/"leaves" line about ``user`` is told: at most
        ``presence_per_minute`` of them a minute (TableLimits; 0: all), and at most
        ``group_presence_per_minute`` about the users of one address group together, so hopping
        between rooms cannot flood the lobby and the tables' rooms, not even with several
        users of one address (the move itself always happens)."""
        limits = self.table_limits
        rate = limits.presence_per_minute
        group_rate = limits.group_presence_per_minute
        if rate <= 0 and group_rate <= 0:
            return True
        now = self.clock.seconds()
        windows: list[deque[float] | None] = []
        if rate > 0:
            windows.append(self._presence_window(user.key, rate, now))
        address = _address(user) if group_rate > 0 else None
        if address is not None and (limits.limit_loopback or not is_loopback(address)):
            windows.append(self._presence_window("group " + address_group(address), group_rate,
                                                 now))
        if any(w is None for w in windows):
            return False
        for told in windows:
            if told is not None:
                told.append(now)
        if len(self._presence_told) > 10000:
            self._presence_told = {k: q for k, q in self._presence_told.items()
                                   if q and q[-1] > now - 60.0}
        return True

    def _presence_window(self, key: str, rate: int, now: float) -> deque[float] | None:
        """The times of the last minute's presence lines of ``key`` (a user's key, or "group "
        and an address group), or None when they are ``rate`` already."""
        told = self._presence_told.setdefault(key, deque())
        while told and told[0] <= now - 60.0:
            told.popleft()
        return None if len(told) >= rate else told

    def leave(self, user: User, gone: bool = False) -> None:
        """Take ``user`` out of their room; ``gone``: because they disconnected."""
        room = user.room
        if room is None:
            return
        room.members.pop(user.key, None)
        user.room = None
        if gone and room.table is not None and room.table.host == user.name:
            address = _address(user)
            self._away_hosts[room.number] = (
                user.identity, address_group(address) if address is not None else None)
        if len(room.members) < self.announce_limit and (
                room.table is None or room.table.tells_presence(user.name)) \
                and self._presence_allowed(user):
            self.deliver(room.members.values(), Event("leaves", name=user.name, room=room.name))
        if room.table is not None:
            self._tell_table(room.table, room.table.member_gone if gone else room.table.remove_member,
                             user.name)
            self._maybe_close(room.number)

    # ---- rooms and tables -------------------------------------------------------------------------
    def room(self, number: int) -> Room:
        """Room ``number``; LobbyError('no-such-room') if there is none."""
        room = self.rooms.get(number)
        if room is None:
            raise LobbyError("no-such-room", number=number)
        return room

    def table_of(self, user: User) -> TableActor:
        """The TableActor of the room ``user`` is in; LobbyError('not-at-table') in the lobby."""
        room = user.room
        if room is None or room.table is None:
            raise LobbyError("not-at-table")
        return room.table

    def free_table_number(self) -> int:
        """The smallest number >= 1 that no open table has."""
        n = 1
        while n in self.rooms:
            n += 1
        return n

    def open_table(self, user: User, game: str = "tichu") -> Any:
        """``/newroom GAME``: a new table with ``user`` as its host; ``user`` moves there."""
        from lobby.tables.table import TableActor  # the table module pulls in the rules engine and bots
        if game.lower() not in GAMES:
            raise LobbyError("unknown-game", name=game)
        if self.closing:
            raise LobbyError("shutting-down")
        self._may_open(user)                   # LobbyError too-many-tables / address-tables
        self._leaving_seat(user, "newroom")    # LobbyError table-budget: nothing done
        self.leave(user)                       # the room they leave may close and free its number
        number = self.free_table_number()
        table = TableActor(number, self.clock, self.table_deliver(number), host=user.name,
                           seat_policy=self, recorder=self.recorder, bot_pool=self.bot_pool,
                           wheel=self.wheel)
        self._configure(table)
        self._origins[number] = {user.key: _address(user)}
        self._index.add_table(table, self._origins[number].values())
        if self.on_new_table is not None:
            self.on_new_table(table)
        room = Room(number, room_name(number), table)
        self.rooms[number] = room
        self.tables[number] = table
        if self.log_budget.allow(self._log_source(user), "opens-table"):
            log.info("{user} opens table {table}", user=user.name, table=number)
        self._safe(user.listener.deliver, Event("newroom", table=number))
        self.enter(user, room)
        return table

    # ---- how many tables one user and one address take part in ------------------------------------
    def _takes_part(self, table: TableActor, key: str, *, seated_only: bool = False) -> bool:
        """Whether the name ``key`` hosts or sits at ``table`` and the table is open (waiting or
        running; a finished game holds nobody)."""
        if table.state == "finished":
            return False
        if not seated_only and table.host is not None and name_key(table.host) == key:
            return True
        return any(n is not None and name_key(n) == key for n in table.seats)

    def _tables_of(self, user: User, skip: Any = None, *, seated_only: bool = False
                   ) -> list[int]:
        return [n for n, t in self._candidates(user.key)
                if t is not skip and t not in user.barred
                and self._takes_part(t, user.key, seated_only=seated_only)]

    def _candidates(self, key: str) -> list[tuple[int, TableActor]]:
        """The tables, by number, at which the name ``key`` may host, sit or play: a superset
        (TableIndex) that the callers filter exactly as they would filter every table."""
        out = []
        for number in sorted(self._index.tables_of(key)):
            table = self.tables.get(number)
            if table is not None:
                out.append((number, table))
        return out

    def address_of(self, number: int, name: str) -> str | None:
        """The IP address ``name`` had when they opened table ``number`` or sat down there."""
        return self._origins.get(number, {}).get(name_key(name))

    def _tables_of_address(self, address: str, skip: Any = None) -> list[int]:
        """The open tables somebody from ``address``'s group (the address; an IPv6 /64) hosts or
        sits at (their address when they opened the table or sat down)."""
        group = address_group(address)
        out = []
        for number in sorted(self._index.tables_of_group(group)):
            origins = self._origins.get(number, {})
            table = self.tables.get(number)
            if table is None or table is skip:
                continue
            if any(a is not None and address_group(a) == group and self._takes_part(table, key)
                   for key, a in origins.items()):
                out.append(number)
        return out

    def _may_open(self, user: User) -> None:
        """``/newroom`` within the limits (TableLimits): the user's tables and their address's.
        The waiting table of the room they are in does not count: opening a new one leaves it
        (its seat is freed, the host handed on)."""
        limits = self.table_limits
        here = user.room.table if user.room is not None else None
        skip = here if here is not None and here.state != "playing" else None
        if limits.tables_per_user:
            mine = self._tables_of(user, skip)
            if len(mine) >= limits.tables_per_user:
                raise LobbyError("too-many-tables", limit=limits.tables_per_user,
                                 tables=", ".join(map(str, mine)))
        address = _address(user)
        if address is not None and limits.limits_address(address):
            theirs = self._tables_of_address(address, skip)
            if len(theirs) >= limits.tables_per_address:
                raise LobbyError("address-tables", limit=limits.tables_per_address)
        if limits.opens_per_minute:
            # opening and closing tables in a loop (each is a log line and a broadcast): a rate
            now = self.clock.seconds()
            opened = self._opened.setdefault(user.key, deque())
            while opened and opened[0] <= now - 60.0:
                opened.popleft()
            if len(opened) >= limits.opens_per_minute:
                raise LobbyError("tables-too-fast", limit=limits.opens_per_minute,
                                 seconds=math.ceil(opened[0] + 60.0 - now))
            opened.append(now)
            if len(self._opened) > 10000:
                self._opened = {k: q for k, q in self._opened.items() if q and q[-1] > now - 60}

    def may_sit(self, table: TableActor, name: str) -> bool:
        """The seat policy of every table (``TableActor(seat_policy=...)``): ``name`` sits down
        at ``table`` (``/join``) within the limits (TableLimits) or LobbyError seat-limit /
        too-many-tables / address-tables. Returns whether ``name`` is a guest."""
        user = self.online(name)
        if user is None:
            return False
        limits = self.table_limits
        if limits.seats_per_user:
            # a game that waits for another player who vanished does not hold its players:
            # they may sit down elsewhere meanwhile (docs/protocol.md, "Grace time")
            seats = [n for n in self._tables_of(user, table, seated_only=True)
                     if not self.tables[n].waits_for_vanished(user.name)]
            if len(seats) >= limits.seats_per_user:
                raise LobbyError("seat-limit", limit=limits.seats_per_user,
                                 tables=", ".join(map(str, seats)))
        if limits.tables_per_user and not self._takes_part(table, user.key):
            mine = self._tables_of(user, table)
            if len(mine) >= limits.tables_per_user:
                raise LobbyError("too-many-tables", limit=limits.tables_per_user,
                                 tables=", ".join(map(str, mine)))
        address = _address(user)
        if address is not None and limits.limits_address(address) \
                and table.number not in self._tables_of_address(address) \
                and len(self._tables_of_address(address, table)) >= limits.tables_per_address:
            raise LobbyError("address-tables", limit=limits.tables_per_address)
        self._origins.setdefault(table.number, {})[user.key] = address
        self._sat_as.setdefault(table.number, {})[user.key] = user.identity
        self._index.add_name(table.number, user.key)
        self._index.add_address(table.number, address)
        return not user.registered

    def bot_group(self, table: TableActor) -> str | None:
        """The budget group of ``table``'s bots (lobby/bots/runtime/pool.py): the address group its host
        had when opening it or sitting down, else that of anybody who did (None: none known)."""
        origins = self._origins.get(table.number, {})
        address = origins.get(name_key(table.host)) if table.host else None
        if address is None:
            address = next((a for a in origins.values() if a is not None), None)
        return None if address is None else "address " + address_group(address)

    def may_add_bot(self, table: TableActor, name: str, seconds: float) -> None:
        """The seat policy for a search bot (``/addbot expert[:SECONDS]``) that ``name`` adds
        at ``table``: LobbyError ``guest-bot-level`` beyond the guests' thinking time,
        ``expert-tables`` beyond the user's tables with expert bots (TableLimits)."""
        user = self.online(name)
        if user is None:
            return
        limits = self.table_limits
        if not user.registered and limits.guest_expert_seconds \
                and seconds > limits.guest_expert_seconds:
            raise LobbyError("guest-bot-level", seconds=f"{limits.guest_expert_seconds:g}")
        if limits.expert_tables_per_user:
            # the tables with expert bots this user added, hosts or sits at (a game of bots
            # only goes on after its host left: it still counts for whoever added them)
            others = [t.number for t in self.tables.values() if t is not table
                      and (user.key in self._expert_adders.get(t.number, ())
                           or t.host == user.name or user.name in t.seats
                           or user.name in t.players)
                      and any(getattr(b, "strategy_name", "").startswith("expert")
                              for b in t.bots.values())]
            if len(others) >= limits.expert_tables_per_user:
                raise LobbyError("expert-tables", limit=limits.expert_tables_per_user,
                                 tables=", ".join(map(str, sorted(others))))
        self._expert_adders.setdefault(table.number, set()).add(user.key)

    def is_registered(self, name: str) -> bool:
        """The seat policy: whether ``name`` is online as a registered user."""
        user = self.online(name)
        return user is not None and user.registered

    def send_away(self, table: TableActor, name: str) -> None:
        """The seat policy: ``name``, barred by the host of ``table`` (/bar), goes to the lobby
        (the table hears of it by ``remove_member``, after its current command)."""
        user = self.online(name)
        room = self.rooms.get(table.number)
        if user is not None and room is not None and user.room is room:
            self.enter(user, self.lobby, None)
            self._safe(user.listener.deliver, self.who(user))

    def identity_of(self, name: str) -> tuple[str | None, str | None, bool]:
        """The seat policy: who ``name`` is for a table's bar (/bar holds against the person,
        not only the name: docs/protocol.md, "The host in charge")."""
        user = self.online(name)
        if user is None:
            return None, None, False
        address = _address(user)
        return (user.identity or None, ban_group(address) if address else None,
                user.registered)

    def table_deliver(self, number: int) -> Deliver:
        """The deliver callback table ``number`` is built with: to whoever of the names is
        online, behind the recorder's journal gate when the server keeps a journal."""
        if self.recorder is None:
            return self._table_deliver
        return self.recorder.gate(number, self._table_deliver)

    def _table_deliver(self, names: list[str], event: Event) -> None:
        """The deliver callback of every table: events go to whoever of ``names`` is online;
        the start and the end of a game are told to the players' friends too."""
        if self.friends is not None and event.type in _FRIEND_EVENTS:
            self._tell_friends(event)
        for name in names:
            user = self.users.get(name_key(name))
            if user is not None:
                self._safe(user.listener.deliver, event)

    def _tell_friends(self, event: Event) -> None:
        number = event.data.get("table")
        table = self.tables.get(number) if isinstance(number, int) else None
        if table is None:
            return
        humans = [n for n in table.players if n not in table.bots]
        try:
            identities = self._sat_as.get(table.number)
            if event.type == "table-started":
                self.friends.game_started(table.number, humans, identities)
            else:
                self.friends.game_over(table.number, humans, identities)
        except Exception:
            log.failure("telling the friends of table {table}'s players failed",
                        table=table.number)

    def playing_at(self, user: User) -> int | None:
        """The number of a running table at which ``user`` plays (away from its room), or
        None."""
        for number, table in self._candidates(user.key):
            if table.state == "playing" and user.name in table.players:
                return number
        return None

    def _tell_table(self, table: TableActor, tell: Callable[[str], None], name: str) -> None:
        """``tell(name)``, one of ``table``'s notifications (``add_member``, ``member_back``,
        ...); a failure is logged and never reaches the caller."""
        try:
            tell(name)
        except Exception:
            log.failure("table {table}: {method} of {user} failed", table=table.number,
                        method=tell.__name__, user=name)

    def _maybe_close(self, number: int) -> None:
        """Close table ``number`` if its room is empty and nobody can come back to its game."""
        room = self.rooms.get(number)
        table = self.tables.get(number)
        if room is None or table is None or room.members:
            return
        if table.state == "playing":
            if self._players_online(table):
                return
            # nobody watches and no player is online: its bots stop (issue 23: a game of bots
            # alone must not keep the bot workers busy for nobody) until somebody enters
            self._pause_bots(table, True)
            # kept a while: they may come back, at least for their seats' grace time; a game of
            # bots alone only its grace time (nobody can come back to it)
            wait = self._abandon_wait(table)
            if wait > 0:
                if number not in self._abandon_calls:
                    self._abandon_calls[number] = self.clock.callLater(
                        wait, self._abandon, number, table)
                return
        self._close_table(number)

    def _abandon_wait(self, table: TableActor) -> float:
        grace: float = table.grace_seconds()
        if not self._humans(table):
            return grace
        return max(self.abandon_after, grace)

    @staticmethod
    def _humans(table: TableActor) -> list[str]:
        """The human players of ``table``'s game (a restored table's bots are seated again
        later: their names say they are bots)."""
        from lobby.bots.runtime.player import is_bot_name
        return [n for n in table.players if n not in table.bots and not is_bot_name(n)]

    def _pause_bots(self, table: TableActor, paused: bool) -> None:
        try:
            table.pause_bots(paused)
        except Exception:
            log.failure("table {table}: pausing its bots failed", table=table.number)

    def _abandon(self, number: int, table: TableActor) -> None:
        self._abandon_calls.pop(number, None)
        if self.tables.get(number) is not table:
            return
        room = self.rooms.get(number)
        if room is None or room.members or self._players_online(table):
            return
        if self._humans(table):
            log.info("table {table}: none of its players came back in {seconds} s",
                     table=number, seconds=self._abandon_wait(table))
        else:
            log.info("table {table}: a game of bots alone, nobody watching for {seconds} s: "
                     "closed", table=number, seconds=self._abandon_wait(table))
        self._close_table(number)

    def _players_online(self, table: TableActor) -> bool:
        """Whether any human player of ``table``'s game is online (not a namesake of a guest
        the table holds the seat for)."""
        for name in table.players:
            user = self.online(name) if name not in table.bots else None
            if user is not None and table not in user.barred:
                return True
        return False

    def _configure(self, table: TableActor) -> None:
        """The server's limits a table applies (TableLimits): the ceilings of its options, the
        shortest move timer of a rated game, the quiet time of its presence lines."""
        limits = self.table_limits
        table.ceilings = {"grace": limits.max_grace, "timer": limits.max_timer,
                          "target": limits.max_target, "max_rounds": limits.max_rounds,
                          "bombwindow": limits.max_bombwindow}
        table.min_rated_timer = limits.min_rated_timer
        table.min_rated_grace = limits.min_rated_grace
        table.rated_remove_timeouts = limits.rated_remove_timeouts
        table.presence_quiet = limits.presence_quiet

    def add_restored_table(self, table: TableActor, addresses: dict[str, str] | None = None,
                           host: Mapping[str, Any] | None = None) -> Room:
        """A table rebuilt from the journal at start-up (lobby/world/restore.py), under its number;
        ``addresses``: the IP address of each of its players where the journal has one (the
        per-address limit counts them); ``host``: what the journal keeps of the host
        (``host_record``: their identity and address group)."""
        number = table.number
        self._configure(table)
        self._origins[number] = {name_key(n): a for n, a in (addresses or {}).items()}
        self._index.add_table(table, self._origins[number].values())
        room = Room(number, room_name(number), table)
        self.rooms[number] = room
        self.tables[number] = table
        if table.host is not None:       # the host is away until they log in again
            host_address = (addresses or {}).get(table.host)
            group = address_group(host_address) if host_address else None
            # (review) who the host was: a guest who only watched is no account, and a seated
            # guest is the guest session the journal names, not just an address group
            identity = (host or {}).get("identity")
            kept = (host or {}).get("group")
            if not isinstance(identity, str) or not identity:   # (a journal of an older version)
                identity = "" if table.host in table.seat_keys else "acct:" + name_key(table.host)
            self._away_hosts[number] = (identity, kept if isinstance(kept, str) and kept
                                        else group)
        if table.state == "playing" and not self._humans(table):
            # a game of bots alone is not restored as a running game: abandoned (its journal
            # ends, so it is not restored again either)
            log.info("table {table}: a game of bots alone is not restored", table=number)
            self._close_table(number)
            return room
        self._maybe_close(number)                      # nobody online yet: the abandon timer
        return room

    def halt(self) -> None:
        """The server stops: no abandon timer fires any more and every table is halted
        (TableActor.halt: no bot plays on, no timer fires); the tables stay as they are."""
        calls, self._abandon_calls = self._abandon_calls, {}
        for call in calls.values():
            if call.active():
                call.cancel()
        for table in self.tables.values():
            table.halt()

    def force_close(self, number: int, by: str, reason: str) -> None:
        """A moderator's ``/closetable``: everybody in the table's room is told and moved to the
        lobby, the table closed (a running game abandoned: its journal ends, so it is never
        restored). LobbyError('no-such-room') if there is none."""
        room = self.rooms.get(number)
        if room is None or room.table is None:
            raise LobbyError("no-such-room", number=number)
        event = Event("table-closed-by", table=number, by=by, reason=reason or "-")
        members = list(room.members.values())
        self.deliver(members, event)
        for user in members:
            try:
                self.enter(user, self.lobby, None)
            except LobbyError:
                pass
        if number in self.tables:
            self._close_table(number)

    def _log_source(self, user: User) -> str:
        """Where a line a user causes comes from, for the log budget: their address group."""
        address = _address(user)
        return address_group(address) if address is not None and address != "?" else user.key

    def _close_table(self, number: int) -> None:
        table = self.tables[number]
        origins = self._origins.get(number) or {}
        opener = next((a for a in origins.values() if a is not None), None)
        source = address_group(opener) if opener is not None else f"table {number}"
        call = self._abandon_calls.pop(number, None)
        if call is not None and call.active():
            call.cancel()
        del self.rooms[number]
        del self.tables[number]
        self._origins.pop(number, None)
        self._expert_adders.pop(number, None)
        self._sat_as.pop(number, None)
        self._away_hosts.pop(number, None)
        self._index.remove_table(number)
        if self.log_budget.allow(source, "table-closed"):
            log.info("table {table} closed ({state})", table=number, state=table.state)
        try:
            table.close()
        except Exception:
            log.failure("closing table {table} failed", table=number)

    def listroom(self, page: int = 1) -> Event:
        """``/listroom [PAGE]``: the open tables by number, LISTROOM_PAGE at a time, each with
        game, state, seats, options and spectators; with how many there are in all and how
        many wait and play (LobbyError('no-such-page') beyond the last page)."""
        numbers = sorted(self.tables)
        pages = max(1, -(-len(numbers) // LISTROOM_PAGE))
        if not 1 <= page <= pages:
            raise LobbyError("no-such-page", page=page, pages=pages)
        states = [t.state for t in self.tables.values()]
        shown = numbers[(page - 1) * LISTROOM_PAGE:page * LISTROOM_PAGE]
        return Event("listroom", tables=[self.tables[n].summary() for n in shown],
                     total=len(numbers), page=page, pages=pages,
                     waiting=states.count("waiting"), playing=states.count("playing"),
                     per_page=LISTROOM_PAGE)

    def whereis(self, name: str) -> Event:
        """``/whereis NAME``; LobbyError('not-online')."""
        target = self.online(name)
        if target is None or target.room is None:
            raise LobbyError("not-online", name=name)
        return Event("whereis", name=target.name, room=target.room.name,
                     number=target.room.number)

    # ---- talking ----------------------------------------------------------------------------------
    def say(self, user: User, text: str) -> None:
        """Speech to everybody in the speaker's room (the speaker sees it too)."""
        room = user.room
        if room is None:
            return
        text = visible_text(text)
        listeners: Iterable[User] = room.members.values()
        moderation = self.moderation
        if moderation is not None:
            if moderation.is_silenced(user):
                raise LobbyError("silenced")
            ignorers = moderation.ignorers(user.key)
            if ignorers:
                listeners = [u for u in listeners if u.key not in ignorers]
        if room.table is not None and self._sat_as.get(room.number, {}).get(
                user.key, user.identity) != user.identity:
            # somebody else sat here under this name (a guest whose name was free again after
            # the grace time): the room's chat never shows the newcomer as the old player
            self.deliver(listeners, Event("says-namesake", name=user.name, text=text,
                                          room=room.name))
            return
        self.deliver(listeners, Event("says", name=user.name, text=text, room=room.name))
        if room.table is not None:
            room.table.note_activity(user.name)         # table talk counts for idleness

    def tell(self, user: User, to: str, text: str) -> None:
        """A private message; LobbyError('not-online') if nobody called ``to`` is online. A
        name that is somebody else now than when ``user`` last talked to it (a guest's name,
        taken after the guest left and the grace time was over) is refused once with
        LobbyError('name-now-someone-else'): the tell reaches the new holder only when sent
        again; the new holder, written to by somebody who knew another under the name, is
        told so (``namesake-notice``) before the tell."""
        target = self.online(to)
        if target is None:
            raise LobbyError("not-online", name=to)
        text = visible_text(text)
        # (a tell to yourself is delivered: a note to yourself, as in MUDs, and the benchmarks'
        # round-trip probe, scripts/loadgen.py)
        # a tell to somebody who ignores you looks sent to you (it fails quietly), and nothing
        # of it reaches them: no tell, no namesake notice either
        heard = self.moderation is None or not self.moderation.ignores(target.key, user.key)
        if target is not user:
            if self._acquaint(user, target) is not None:
                # the sender knew somebody else under the name: told first; the new holder
                # hears of it with the first message that reaches them (namesake-notice)
                self._notice_due[(user.identity, target.identity)] = None
                if len(self._notice_due) > IDENTITIES_KEPT:
                    del self._notice_due[next(iter(self._notice_due))]
                raise LobbyError("name-now-someone-else", name=target.name)
            if self._acquaint(target, user) is not None and heard:
                # the sender is the newcomer (they write first): the one who knew somebody
                # else under the sender's name is told that this is somebody else
                self._safe(target.listener.deliver, Event("namesake-writes", name=user.name))
            if heard and self._notice_due.pop((user.identity, target.identity), 0) is None:
                self._safe(target.listener.deliver, Event("namesake-notice", name=user.name))
        if heard:
            self._safe(target.listener.deliver, Event("tells", name=user.name, text=text))
        if target is not user:
            self._safe(user.listener.deliver, Event("told", name=target.name, text=text))

    # ---- lists ------------------------------------------------------------------------------------
    def who(self, user: User) -> Event:
        room = user.room or self.lobby
        table = room.table
        bots = sorted(table.bots) if table is not None else []
        names = room.names()
        staff = {n: r for n in names if (r := self.staff_role(n)) is not None}
        return Event("who", room=room.name, number=room.number, names=names, bots=bots,
                     staff=staff)

    def wwho(self) -> Event:
        users = sorted(self.users.values(), key=lambda u: u.key)
        listed = []
        for u in users:
            entry: dict[str, Any] = {"name": u.name, "room": u.room.name if u.room else "",
                                     "registered": u.registered}
            role = self.staff_role(u.name) if u.registered else None
            if role is not None:
                entry["role"] = role
            listed.append(entry)
        return Event("wwho", users=listed)

    def staff_role(self, name: str) -> str | None:
        """``admin`` or ``moderator`` when ``name`` is a staff member's (marked in /who, /wwho
        and /finger; protocol 4 in machine mode), else None."""
        moderation = self.moderation
        return moderation.staff_role(name) if moderation is not None else None

    # ---- delivery ---------------------------------------------------------------------------------
    def deliver(self, users: Iterable[User], event: Event) -> None:
        listeners = [u.listener for u in users]
        bulk = self.bulk_deliver
        if bulk is not None and len(listeners) > 1:
            bulk(listeners, event)
            return
        for listener in listeners:
            try:                 # one listener's failure never stops the others' delivery
                listener.deliver(event)
            except Exception:
                log.failure("delivering {event_type} failed", event_type=event.type)

    def broadcast(self, event: Event) -> None:
        self.deliver(self.users.values(), event)

    @staticmethod
    def _safe(method: Any, event: Event) -> None:
        try:
            method(event)
        except Exception:
            log.failure("delivering {event_type} failed", event_type=event.type)


def _address(user: User) -> str | None:
    """The IP address ``user`` is connected from (None for a listener without one)."""
    address = getattr(user.listener, "address", None)
    return address if isinstance(address, str) else None
