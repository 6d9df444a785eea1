"""TableActor: one Tichu table. Seats, options, spectators, a mailbox, and the Match it drives.

Everything that happens at a table goes through one entry point, `TableActor.submit()` (commands
of people) or the world's notifications (`add_member`, `remove_member`, `member_gone`,
`member_back`), which enter the same mailbox. The mailbox is worked off strictly one item at a
time in arrival order: an item submitted while another is being handled (for example from inside
the `deliver` callback) waits until the current one is finished.

The table talks back only through `deliver(recipients, event)`: a list of user names and one
`lobby.events.Event` (its `type` is a catalog key of lobby/text/messages.py). Refusals go to the
submitter alone as `error` events with a stable code. After every change each seated player gets
their own `table-view` (the engine's view for their player) and every spectator the public one;
hidden information (a hand, gifts received) only ever travels in an event addressed to its owner.

Seats are numbered 1..4 for people and 0..3 inside the engine; seats 1+3 and 2+4 are partners, and
play goes from seat 1 to 2 to 3 to 4 ("right" is the next player in turn order, "left" the
previous one; Tichu is played counter-clockwise).

Time comes only from the injected clock (`IReactorTime`: the reactor, or `task.Clock` in tests):
the bomb window, the grace time (`/option grace`, added up over the game) before a vanished
player may be removed, and the move timer (`/option timer`), whose one deadline per table waits
in the world's timer wheel (lobby/tables/timer_wheel.py). Whether a game is rated is decided at /start
(`rated`, `unrated`); who leaves it (`leavers`) loses it (docs/rating.md).

The recorder (lobby/tables/recording.py `TableRecorder`, the server's lobby/world/persistence.py, given to
the constructor): the table tells it when a game starts, after every accepted action (before
that action's events are handed to `deliver`), when a bot takes over a seat, when the game ends
and when a running table is closed. The table is built with its `deliver` already behind the
recorder's journal gate (`Recorder.gate`, composed by the world). `snapshot()` is what the table
needs besides its match to be rebuilt; `TableActor.restored(...)` rebuilds it after a restart
(lobby/world/restore.py) and `resume()` lets it go on.

Commands (`submit(user, name, args)`) are declared once, each at its handler below
(`@TABLE_COMMANDS.command(name, spec, aliases=...)`, lobby/tables/commands.py): `args` is the
parsed mapping of the spec's keys (what the wire layer gives), or the raw text after the command
name (or its words), which the same spec parses; BSW aliases kartentausch/passe/bomben work too.
The options of `/option` are declared in lobby/tables/options.py; what each person sees is built
by lobby/tables/views.py.

Bots (lobby/bots) sit in seats under names users cannot take (`Bot1~heuristic`), receive the
events addressed to them directly (never through `deliver`) and answer through submit() after
`bot_delay` seconds of the clock. A player removed by the vote is replaced by a heuristic bot
that plays on with the player's hand.

`cards` is BSW text: `R10 GB Ph=7 wish 8`, or rank-only shorthand (`7 7`), read by
`lobby.tichu.cards.parse_play`. `dragon to` is `left`, `right`, a seat number 1..4 or a player's
name.

Events (types are catalog keys; errors are `error_event(code, ...)` to the submitter alone):
`table-view` (per person: state, seats, options, and the engine's view for that person as
`game`), `table-joined/left/started/option-set/options/info/reset/vanished/back/new-host/
remove-proposed/vote/remove-refused/vote-ended/abandoned/window-closed`, and `game-KIND` for each
engine event KIND (deal, deal-rest, grand, tichu, exchange-given, exchange-received, play,
wish, pass, trick-won, dragon-given, trick-taken, out, round-over, round-score, match-over...),
whose data carry the engine's fields plus `table` and `names` (names by seat, 0..3).
"""
from __future__ import annotations

import math
import random
import secrets
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from lobby.bots.runtime.player import (
    MAX_SECONDS,
    MIN_SECONDS,
    STRATEGY_NAMES,
    BotPlayer,
    bot_name,
    is_bot_level,
    round_history,
)
from lobby.bots.strategies.expert import parse_level
from lobby.bots.strategies.registry import make_strategy
from lobby.bots.strategies.strategy import command_action
from lobby.events import Event, error_event, game_event
from lobby.storage.accounts import name_key
from lobby.tables.commands import TABLE_COMMANDS, TableArgs
from lobby.tables.options import (
    RATED_MIN_GRACE,
    RATED_TIMER,
    TableOptions,
    options_from_saved,
)
from lobby.tables.options import find as find_option
from lobby.tables.recording import Deliver, TableRecorder
from lobby.tables.seats import HeldSeat, SeatPolicy, hash_key, key_matches, new_key
from lobby.tables.timer_wheel import TimerWheel, WheelTimer
from lobby.tables.views import TableViews
from lobby.text.messages import LobbyError, Msg, Number, one_of
from lobby.text.numbers import ascii_int
from lobby.tichu import (
    TURNIER_ROUNDS,
    Action,
    CallTichu,
    Card,
    Exchange,
    GiveDragon,
    GrandTichu,
    Match,
    Pass,
    Play,
    Rejected,
    Wish,
    classify,
    format_cards,
    initial_seating,
    json_data,
    parse_play,
    parse_wish,
    sort_cards,
)

__all__ = ["TableActor", "TableOptions", "Deliver", "TABLE_COMMANDS", "WAITING", "PLAYING",
           "FINISHED"]

log = Logger(namespace="lobby.table")
#: the calls the engine names in English in its reasons (`already-called`) -> their catalog words
_CALL_WORDS = {"Tichu": "call-tichu", "Grand Tichu": "call-grand"}

WAITING = "waiting"
#: seconds a bot waits before each decision (tables in tests set `table.bot_delay = 0`)
BOT_DELAY = 0.5
#: the strategy of a bot that takes over a removed player's seat (and of /addbot by default)
BOT_TAKEOVER_STRATEGY = "heuristic"
PLAYING = "playing"
FINISHED = "finished"
#: seconds within which a player's vanishing again is not announced at once (see presence_quiet)
PRESENCE_QUIET = 60.0
#: vanishings of one player announced at once within PRESENCE_QUIET seconds
PRESENCE_BURST = 2

@dataclass
class _RemoveVote:
    target: str
    proposer: str
    voters: set[str]                    # the other seated players (everyone but the target)
    yes: set[str] = field(default_factory=set)
    no: set[str] = field(default_factory=set)
    #: voters whose yes the removal needs besides the majority: in a rated game, for a player
    #: who is present, their partner (or, with no human partner voting, every voter)
    required: set[str] = field(default_factory=set)

    @property
    def needed(self) -> int:
        if self.required and self.required == self.voters:
            return len(self.voters)
        return len(self.voters) // 2 + 1


def _sets_an_option(args: Mapping[str, str]) -> bool:
    """``/option NAME [VALUE]`` tells the table's people; the listing (``/option``, ``/option
    help``) tells only the one who asked."""
    return args.get("name", "").strip().lower() not in OPTION_LISTING


#: the words of ``/option`` that list the options instead of setting one
OPTION_LISTING = frozenset(("", "help", "?", "list"))


#: the words for the Dragon trick's two opponents in every language (``/dragon links``,
#: ``/dragon gauche``, ``/dragon izquierda``, ``/dragon venstre``): the prompts show them
DRAGON_RIGHT = frozenset({"right", "r", "next", "rechts", "droite", "derecha", "højre",
                          "hoejre"})
DRAGON_LEFT = frozenset({"left", "l", "previous", "prev", "links", "gauche", "izquierda",
                         "venstre"})


class TableActor:
    """One table: seats, options, members, a mailbox, and its Match.

    `number` is the table's (room's) number, `clock` the injected IReactorTime, `deliver` the
    callback `deliver(recipients, event)` by which every event leaves the table. `host` is the
    name of the person who opened the table; `recorder` the server's persistence (or None).
    """

    def __init__(self, number: int, clock: IReactorTime, deliver: Deliver, *,
                 host: str | None = None, seat_policy: SeatPolicy | None = None,
                 recorder: TableRecorder[TableActor] | None = None, bot_pool: Any = None,
                 wheel: TimerWheel | None = None) -> None:
        self.number = number
        #: where the move timer's deadline waits (lobby/tables/timer_wheel.py): the world's one wheel
        #: for every table, or (a table on its own) a wheel of its own on the same clock
        self._wheel = wheel if wheel is not None else TimerWheel(clock)
        #: the decisions the move timer watches: name -> [when the decision began, warned]
        self._decisions: dict[str, list[Any]] = {}
        self._timer_call: WheelTimer | None = None
        self._timer_due: float | None = None
        #: players whose decision the timer made since they last decided themselves: the
        #: others may vote to remove them although they are present (/remove)
        self.timed_out: set[str] = set()
        #: how many decisions the timer made for each player in the running game
        self.timeouts: dict[str, int] = {}
        #: the time-outs of a present player before a rated game lets the others vote to remove
        #: them (the server's --rated-remove-timeouts; docs/rating.md)
        self.rated_remove_timeouts: int = 2
        #: lobby/bots/runtime/pool.py BotPool: where the search bots think (None: in this process)
        self.bot_pool = bot_pool
        #: asked before anybody sits down (the world's limits; whether they are a guest)
        self._seat_policy = seat_policy
        #: the guests in seats: name -> the salted hash of their reconnect key (None: not known,
        #: e.g. a journal of an older version); registered players prove themselves otherwise
        self.seat_keys: dict[str, str | None] = {}
        self.clock = clock
        self._deliver = deliver
        self.host = host
        self.options = TableOptions()
        #: the server's ceilings of options, by TableOptions attribute (--max-grace,
        #: --max-timer, --max-target): /option refuses a higher value (bad-option-value)
        self.ceilings: dict[str, float] = {}
        #: the shortest move timer of a rated game (--min-rated-timer; `off` there is auto)
        self.min_rated_timer: float = 30.0
        #: the shortest grace time of a rated game (--min-rated-grace)
        self.min_rated_grace: float = RATED_MIN_GRACE
        #: presence lines of one player are bounded (the server's --presence-quiet): a player
        #: who vanished PRESENCE_BURST times within this many seconds is announced only if
        #: still away this long after vanishing again (and their return then not at all)
        self.presence_quiet: float = PRESENCE_QUIET
        #: name -> when "has vanished" was told about them (within the last presence_quiet s)
        self._announced_gone: dict[str, list[float]] = {}
        self._quiet_gone: set[str] = set()            # away, not announced (yet)
        self.state = WAITING
        self.seats: list[str | None] = [None] * 4   # before the start: chosen seats, index 0..3
        self.join_order: list[str] = []
        self.members: set[str] = set()               # everyone in the table's room
        #: when each member came into the room (clock seconds), and each seated human sat down:
        #: the table passes to the longest-seated human when its host leaves
        self.member_since: dict[str, float] = {}
        self.seated_since: dict[str, float] = {}
        #: the name keys the host barred from the table until it closes (/bar, /sperren)
        self.barred: dict[str, str] = {}
        #: what else each bar holds (name key -> [identity, address group]): the barred person's
        #: identity (account or guest session) and address group, so that a new name does not
        #: get past it; the group keeps out guests only (a registered player from behind the
        #: same NAT is not barred by it)
        self.bar_marks: dict[str, list[str | None]] = {}
        self.gone: set[str] = set()                  # seated players who vanished
        self.gone_since: dict[str, float] = {}       # ... since when (clock seconds)
        #: seconds each player of the game was away before their last return: the grace time
        #: adds up over the game (vanishing and coming back does not start it again)
        self.gone_total: dict[str, float] = {}
        #: the round each away player vanished in (a leaver is marked with it)
        self.gone_round: dict[str, int] = {}
        #: whether the running (or last) game is rated, decided at /start (docs/rating.md), and
        #: why not (``nosave``, ``seed``, ``bots``, ``guests``; None when rated)
        self.rated: bool = False
        self.unrated: str | None = None
        #: the players who left the running game: name -> {"player": index, "round": the round
        #: they left in, "bot": the bot that took the seat over or None}; each loses the game
        self.leavers: dict[str, dict[str, Any]] = {}
        #: the journal and game records (lobby/world/persistence.py) when the server keeps them
        self.recorder = recorder
        #: guests of a restored game: name -> the address they played from (the world gives
        #: their seat back only to the same address)
        self.guest_addresses: dict[str, str] = {}
        self.nosave: bool = False                    # the running game was /startnosave
        self.match: Match | None = None
        self.players: list[str] = []                 # match player index -> name (fixed at start)
        self.seed: int | None = None                 # the seed of the running/last game
        self.result: dict[str, Any] | None = None    # after the game (or "abandoned")
        self._vote: _RemoveVote | None = None
        self._mailbox: deque[tuple[str, str | None, str, Any]] = deque()
        self._busy = False
        #: True after halt(): the server stopped, nothing reaches the table any more
        self.halted = False
        self._window_until: float | None = None
        self._window_call: IDelayedCall | None = None
        #: the deals' seeds (and drawn bot seeds) unless the host sets /option seed: from the
        #: operating system's randomness (secrets), never a predictable generator
        self._rng: random.Random = secrets.SystemRandom()
        self.games_started = 0
        #: explicit deals for the next game (tests, duplicate play): a list of deals, each four
        #: sequences of 14 cards in deal order; the seed still decides the rounds after them
        self.deals: list[Any] | None = None
        #: in-process bots by name (seated, or playing in place of a removed player)
        self.bots: dict[str, BotPlayer] = {}
        self.bot_delay: float = BOT_DELAY
        #: nobody watches and no player is online: the bots decide nothing (World._maybe_close)
        self.bots_paused = False
        self._views = TableViews(self)
        #: a restored table's bots (name -> strategy) until resume() seats them again
        self._restored_bots: dict[str, str] = {}
        self._audience_now: list[str] | None = None
        #: when each seated player last did something real at the table (sat down, a move, a
        #: vote, an option, table talk): the idle timeout of a seated player counts only this
        #: (``last_activity``), so a /who every few minutes keeps nobody seated
        self.active_at: dict[str, float] = {}
        #: the host disconnected: the hand-over waiting in the wheel (None: the host is here)
        self._host_call: WheelTimer | None = None
        if host:
            self.members.add(host)
            self.member_since[host] = clock.seconds()

    # ---- entry points ------------------------------------------------------------------------
    def submit(self, user: str, command: str, args: TableArgs = None) -> None:
        """Queue a table command of `user` (see TABLE_COMMANDS for names and their args)."""
        self._enqueue(("command", user, command, args))

    def pause_bots(self, paused: bool) -> None:
        """The world: nobody is in the room and no player is online (``paused``): the bots
        decide nothing (no worker thinks for nobody) until somebody enters again."""
        self._enqueue(("internal", None, "pause" if paused else "unpause", None))

    def add_member(self, name: str) -> None:
        """The world: `name` entered the table's room (watches; may then /join)."""
        self._enqueue(("internal", name, "enter", None))

    def remove_member(self, name: str) -> None:
        """The world: `name` left the table's room (before the start this frees their seat)."""
        self._enqueue(("internal", name, "exit", None))

    def member_gone(self, name: str) -> None:
        """The world: `name` disconnected (a seated player during a game: may be /removed)."""
        self._enqueue(("internal", name, "gone", None))

    def member_back(self, name: str) -> None:
        """The world: `name` is back (reconnected); a running vote on them ends."""
        self._enqueue(("internal", name, "back", None))

    def halt(self) -> None:
        """The server stops (after its connections are closed, before the journal's last flush
        and the database's close): its bots' pending decisions and the bomb-window timer are
        cancelled, and whatever reaches the table later is ignored. The game stays as it is (the
        journal keeps it for the next start). Without this the bots of a running game played on
        after the stop, into a journal whose database was closed."""
        self.halted = True
        self._mailbox.clear()
        self._clear_window()
        self._stop_timer()
        self._cancel_host_call()
        for bot in self.bots.values():
            bot.stop()

    def close(self) -> None:
        """The world removes the table: a running game is abandoned, the bomb-window timer
        cancelled. Nobody is told (the room is gone or empty)."""
        self._enqueue(("internal", None, "close", None))

    # ---- snapshot and restore ----------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """What the table needs besides its match and players to be rebuilt after a restart
        (`restored`): options (their saved form), host, whether the game is /startnosave, the
        bots of the game (name -> strategy), the guests' addresses and the salted hashes of
        their reconnect keys (never a key), and the players' join order (tichujoin pairs the
        first two joiners again after /reset). JSON-safe."""
        return {
            "options": self.options.saved(),
            "host": self.host,
            "nosave": bool(self.nosave),
            "bots": {name: bot.strategy_name for name, bot in self.bots.items()
                     if name in self.players},
            "guests": dict(self.guest_addresses),
            "guest_keys": {n: h for n, h in self.seat_keys.items() if h and n in self.players},
            "join_order": [n for n in self.join_order if n in self.players],
            "barred": dict(self.barred),
            # (a guest session's identity does not outlive the server: only the groups)
            "bar_groups": {k: m[1] for k, m in self.bar_marks.items() if m[1]},
            "rated": self.rated, "unrated": self.unrated,
            "leavers": {n: dict(v) for n, v in self.leavers.items()},
            "gone_total": dict(self.gone_total), "gone_round": dict(self.gone_round),
        }

    @classmethod
    def restored(cls, number: int, clock: IReactorTime, deliver: Deliver,
                 snapshot: Mapping[str, Any], match: Match, players: list[str],
                 bots: Mapping[str, str], *, recorder: TableRecorder[TableActor] | None = None,
                 seat_policy: SeatPolicy | None = None, guests: Iterable[str] = (),
                 bot_pool: Any = None, wheel: TimerWheel | None = None) -> TableActor:
        """A running table rebuilt from its `snapshot()` and its match as the journal left it:
        `players` by player index, `bots` the bot players' strategies. Every human player is
        away (`gone`) from now on; `resume()` seats the bots again and lets the game go on."""
        table = cls(number, clock, deliver, host=snapshot.get("host"), recorder=recorder,
                    seat_policy=seat_policy, bot_pool=bot_pool, wheel=wheel)
        if table.host is not None:               # nobody is here yet: the host is away too
            table.members.discard(table.host)
            table.member_since.pop(table.host, None)
        table.options = options_from_saved(snapshot.get("options"))
        table.nosave = bool(snapshot.get("nosave"))
        table.match = match
        table.players = list(players)
        order = snapshot.get("join_order")       # (a journal of an older version: none)
        table.join_order = (list(order) if isinstance(order, list)
                            and sorted(map(str, order)) == sorted(players) else list(players))
        table.seats = list(players)                  # as /start leaves them: by player
        table.seed = match.seed
        table.state = PLAYING
        table.games_started = 1
        if "rated" in snapshot:                  # (a journal of an older version: unrated)
            table.rated = bool(snapshot.get("rated"))
            reason = snapshot.get("unrated")
            table.unrated = reason if isinstance(reason, str) else None
        else:
            table.unrated = "bots" if bots else "guests"
        barred = snapshot.get("barred")
        if isinstance(barred, dict):
            table.barred = {str(k): str(v) for k, v in barred.items()}
        groups = snapshot.get("bar_groups")
        if isinstance(groups, dict):
            table.bar_marks = {str(k): [None, str(v)] for k, v in groups.items()}
        leavers = snapshot.get("leavers")
        if isinstance(leavers, dict):
            table.leavers = {str(n): dict(v) for n, v in leavers.items() if isinstance(v, dict)}
        totals = snapshot.get("gone_total")
        if isinstance(totals, dict):
            table.gone_total = {str(n): float(v) for n, v in totals.items()
                                if isinstance(v, (int, float)) and n in players}
        rounds = snapshot.get("gone_round")
        if isinstance(rounds, dict):
            table.gone_round = {str(n): int(v) for n, v in rounds.items() if isinstance(v, int)}
        now = clock.seconds()
        table.active_at = {n: now for n in players}
        for name in players:
            if name in bots:
                table._restored_bots[name] = bots[name]
            else:
                table.gone.add(name)
                table.gone_since[name] = now
        addresses = snapshot.get("guests") or {}
        table.guest_addresses = {n: a for n, a in addresses.items()
                                 if n in players and isinstance(a, str)}
        # `guests`: the guest players; each gets the seat back only with the reconnect key
        # whose hash the snapshot kept (a journal of an older version: with no key at all)
        keys = snapshot.get("guest_keys") or {}
        table.seat_keys = {n: keys[n] if isinstance(keys.get(n), str) else None
                           for n in guests if n in players and n not in bots}
        return table

    def resume(self) -> None:
        """A restored table goes on: its bots are seated again (under their old names and
        strategies; an unknown strategy becomes the takeover strategy) and everybody, bots
        included, gets the current view, so a bot whose turn it is plays on by itself."""
        self._enqueue(("internal", None, "resume", None))

    # ---- state for the world (read-only) ------------------------------------------------------
    @property
    def seated(self) -> list[str | None]:
        """Names by seat (index 0..3 = seat 1..4), following the Match's seating while it runs."""
        if self.match is None or not self.players:
            return list(self.seats)
        out: list[str | None] = [None] * 4
        for player, name in enumerate(self.players):
            out[self.match.seat_of(player)] = name
        return out

    @property
    def spectators(self) -> list[str]:
        seated = {n for n in self.seated if n}
        return sorted(self.members - seated)

    @property
    def is_empty(self) -> bool:
        """Nobody in the room and nobody seated: the world may clean the table up."""
        return not self.members and not any(self.seated)

    def waiting_for(self) -> set[str]:
        """The names of the players the running game waits on now (empty when no game runs):
        those still to decide on Grand Tichu or to give their exchange cards, the player in turn,
        the Mah Jong player naming a wish, the winner of a Dragon trick giving it away. The idle
        timeout (protocol/connection/guard.py) never disconnects a seated player the table does not
        wait on."""
        if self.state != PLAYING or self.match is None or self.match.finished:
            return set()
        rnd = self.match.round
        phase = rnd.phase
        waited: set[str] = set()
        for player, name in enumerate(self.players):
            seat = self.match.seat_of(player)
            if phase == "grand":
                waits = rnd.grand[seat] is None
            elif phase == "exchange":
                waits = rnd.given[seat] is None
            elif phase == "wish":
                waits = rnd.wisher == seat
            elif phase == "dragon":
                waits = rnd.holder == seat
            else:
                waits = phase == "play" and rnd.turn == seat
            if waits:
                waited.add(name)
        return waited

    def holds_seat_for(self, name: str, key: str | None = None) -> HeldSeat | None:
        """The seat-holding policy: whether the running game holds a seat for ``name`` (in any
        case) and for whom. None: no game runs, or ``name`` plays no seat here (a bot took it
        over). ``reserved``: the name is kept for the player, who is here or vanished less than
        the grace time (``/option grace``) ago; after that the name is free, and the seat still
        waits for its player. ``proved``: ``key`` is the guest's reconnect key (a registered
        player proves themselves with the password)."""
        if self.state != PLAYING:
            return None
        key_of = name_key(name)
        held = next((n for n in self.players if name_key(n) == key_of), None)
        if held is None or held in self.bots:
            return None
        reserved = held not in self.gone or self.away_for(held) <= self.grace_seconds()
        guest = held in self.seat_keys
        proved = guest and key is not None and key_matches(key, self.seat_keys[held])
        return HeldSeat(self.number, held, guest, reserved, proved)

    def waits_for_vanished(self, name: str) -> bool:
        """Whether the running game waits for a human player other than ``name`` who vanished
        (the seat limit does not count such a table for ``name``: lobby/world/world.py may_sit)."""
        return self.state == PLAYING and any(
            n in self.gone and n not in self.bots and name_key(n) != name_key(name)
            for n in self.players)

    def last_activity(self, name: str) -> float | None:
        """When ``name``, seated here (at a waiting table, or a player of the running game),
        last did something real at the table: sat down, a move, a vote, an option, or table
        talk (``note_activity``). None: not seated here. Other lines (``/who``, ``/look``) do
        not count: the idle timeout of a seated player reads this (protocol/connection/guard.py)."""
        seated = name in self.players if self.state == PLAYING else name in self.seats
        if not seated:
            return None
        return self.active_at.get(name, self.seated_since.get(name, 0.0))

    def note_activity(self, name: str) -> None:
        """The world: ``name`` spoke in the table's room (table talk is activity)."""
        if name in self.seats or name in self.players:
            self.active_at[name] = self.clock.seconds()

    def tells_leaving(self, name: str) -> bool:
        """Whether ``name`` leaving the table's room (or disconnecting) now tells the table's
        people: ``table-left`` when they sit at it and no game runs, ``table-vanished`` for a
        player of the running game unless presence_quiet keeps it quiet. The world makes such
        a move spend the user's budget of table changes, as /leave does."""
        if self.state != PLAYING:
            return name in self.seats
        if name not in self.players or name in self.gone:
            return False
        now = self.clock.seconds()
        told = [t for t in self._announced_gone.get(name, ()) if t > now - self.presence_quiet]
        return len(told) < PRESENCE_BURST

    def tells_return(self, name: str) -> bool:
        """Whether ``name`` coming back into the room now tells the table's people
        (``table-back``: a player of the running game whose vanishing was told)."""
        return self.state == PLAYING and name in self.gone and name not in self._quiet_gone

    def tells_presence(self, name: str) -> bool:
        """Whether the room's ``enters`` / ``leaves`` lines are shown for ``name``: not for a
        player of the running game, whose vanishing and return the table tells (bounded:
        presence_quiet)."""
        return self.state != PLAYING or name not in self.players

    def away_for(self, name: str) -> float:
        """Seconds ``name`` has been away from the running game in all (every absence since
        the start added up, the one going on included): measured against the grace time."""
        total = self.gone_total.get(name, 0.0)
        since = self.gone_since.get(name)
        if name in self.gone and since is not None:
            total += max(0.0, self.clock.seconds() - since)
        return total

    def summary(self) -> dict[str, Any]:
        """What /listroom shows about this table."""
        return {"table": self.number, "game": "tichu", "state": self.state,
                "seats": self.seated, "options": self.options.as_dict(),
                "spectators": len(self.spectators), "host": self.host, "bots": self.bot_list()}

    def bot_list(self) -> dict[str, str]:
        """Bots at the table: name -> strategy."""
        return {name: bot.strategy_name for name, bot in sorted(self.bots.items())}

    def bombwindow_left(self) -> float | None:
        """Seconds until the bomb window after a won trick closes; None when none is open."""
        if self._window_until is None:
            return None
        return max(0.0, self._window_until - self.clock.seconds())

    # ---- the mailbox -------------------------------------------------------------------------
    def _enqueue(self, item: tuple[str, str | None, str, Any]) -> None:
        if self.halted:
            return
        self._mailbox.append(item)
        if self._busy:
            return
        self._busy = True
        try:
            while self._mailbox:
                self._handle(*self._mailbox.popleft())
                if not self._mailbox and not self.halted:
                    self._arm_timer()           # (may queue nothing: the loop ends)
        finally:
            self._busy = False

    def _handle(self, kind: str, user: str | None, command: str, args: Any) -> None:
        try:
            if kind == "internal":
                self._internal(user, command)
                return
            assert user is not None
            cmd = TABLE_COMMANDS.lookup(command)
            if cmd is None:
                raise LobbyError("unknown-command", name=command)
            cmd.handler(self, user, cmd.parse(args))
        except LobbyError as exc:
            if user is not None:
                self._send([user], error_event(exc.code, **exc.params))
        except Rejected as exc:
            if user is not None:
                own = self._own_move_first(user, exc.code, exc.params)
                self._send([user], own if own is not None else
                           error_event(exc.code, **self._name_seats(exc.params)))
        except Exception:
            log.failure("table {table}: command {command!r} of {user!r} failed",
                        table=self.number, command=command, user=user)
            if user is not None and kind == "command":
                self._send([user], error_event("internal-error"))

    # ---- delivery ----------------------------------------------------------------------------
    def _send(self, recipients: Iterable[str], event: Event) -> None:
        names = [n for n in recipients if n]
        if self.bots:
            for n in [n for n in names if n in self.bots]:
                names.remove(n)
                self.bots[n].receive(event)
        if not names:
            return
        try:
            self._deliver(names, event)
        except Exception:
            log.failure("table {table}: delivering {type!r} failed", table=self.number,
                        type=event.type)

    def _audience(self) -> list[str]:
        """Everyone who follows the table: members of the room and the seated players (while
        an action's events go out, the list computed for its first event)."""
        if self._audience_now is not None:
            return list(self._audience_now)
        names = set(self.members) | {n for n in self.seated if n}
        return sorted(names - self.gone)

    def _tell_all(self, type_: str, **data: Any) -> None:
        self._send(self._audience(), Event(type_, dict(data, table=self.number)))

    def _send_views(self) -> None:
        """Each seated player gets their own view, everyone else the public one (built only
        when somebody watches); lobby/tables/views.py builds them."""
        seated, context = self._views.changed()
        audience = self._audience()
        players = [name for name in audience if name in seated]
        spectators = [name for name in audience if name not in seated]
        looking: list[str | None] = [*players, None] if spectators else [*players]
        views = self._views.views(looking, seated, context)
        for name, view in zip(players, views, strict=False):   # views has the spectators' too
            self._send([name], Event("table-view", view))
        if spectators:
            self._send(spectators, Event("table-view", views[-1]))

    def _own_move_first(self, user: str, code: str, params: dict[str, Any]) -> Event | None:
        """The engine refused an action because the game waits for a decision of somebody: when
        that somebody is `user`, the error says so to them (`give-dragon-first`,
        `name-wish-first`, `give-cards-first`) instead of naming their own seat; None otherwise."""
        match = self.match
        if match is None or user not in self.players:
            return None
        seat = match.seat_of(self.players.index(user))
        rnd = match.round
        if code == "waiting-for-dragon" and params.get("seat") == seat:
            return error_event("give-dragon-first", left=self.seated[(seat + 3) % 4] or "-",
                               right=self.seated[(seat + 1) % 4] or "-")
        if code == "waiting-for-wish" and rnd.wisher == seat:
            return error_event("name-wish-first")
        if code == "exchange-incomplete" and rnd.given[seat] is None:
            return error_event("give-cards-first")
        return None

    def _name_seats(self, params: dict[str, Any]) -> dict[str, Any]:
        """The engine names seats 0..3 in its reasons (`turn`, `seat`): people read seats 1..4
        with the name (`2 (bob)`); the engine's number stays in `turn_seat` / `seat_seat`."""
        out = dict(params)
        seated = self.seated
        for key in ("turn", "seat"):
            v = params.get(key)
            if type(v) is int and 0 <= v < 4:
                out[key] = f"{v + 1} ({seated[v]})" if seated[v] else str(v + 1)
                out[key + "_seat"] = v
        call = params.get("call")
        if call in _CALL_WORDS:                 # the engine's English call, in the reader's language
            out["call"] = Msg(_CALL_WORDS[call])
        return out

    # ---- helpers -----------------------------------------------------------------------------
    def _player_of(self, name: str) -> int:
        if self.state != PLAYING or self.match is None:
            raise LobbyError("no-game")
        if name not in self.players:
            raise LobbyError("not-a-player", name=name)
        return self.players.index(name)

    def _not_seated(self, user: str) -> LobbyError:
        """The refusal of a seat's command to ``user``, who has none: at a waiting table with a
        free seat ``not-seated`` (``/join takes a seat``); else they are watching a game (or a
        full table) and ``not-a-player`` says so, with no hint to a /join that cannot work."""
        if self.state == WAITING and None in self.seats:
            return LobbyError("not-seated")
        return LobbyError("not-a-player", name=user)

    def _require_waiting(self) -> None:
        if self.state == PLAYING:
            raise LobbyError("game-running")
        if self.state == FINISHED:
            raise LobbyError("game-finished")

    def _may_manage(self, user: str) -> None:
        """Every option, /addbot, /removebot and /start at a waiting table: the host's alone
        (issue 24: the host is in charge; ``host-command`` names them). A table left without a
        host (it passed on to nobody) is managed by its seated players, unless option host."""
        if self.host is not None:
            if user != self.host:
                raise LobbyError("host-command", host=self.host)
            return
        if self.options.host:
            raise LobbyError("host-only", host="-")
        if user not in self.seats:
            raise self._not_seated(user)

    def _unseat(self, name: str) -> None:
        self.active_at.pop(name, None)
        self.seat_keys.pop(name, None)
        self.seated_since.pop(name, None)
        if name in self.seats:
            self.seats[self.seats.index(name)] = None
        if name in self.join_order:
            self.join_order.remove(name)

    # ---- the world's notifications -----------------------------------------------------------
    def _internal(self, name: str | None, what: str) -> None:
        if what == "window-closed":
            self._window_closed()
            return
        if what == "timer":
            self._timer_fired()
            return
        if what in ("pause", "unpause"):
            paused = what == "pause"
            if paused != self.bots_paused:
                self.bots_paused = paused
                if paused:
                    for bot in self.bots.values():
                        bot.pause()
                elif self.state == PLAYING:      # the bots get their view again and go on
                    self._send_views_to([n for n in self.bots if n in self.players])
            return
        if what == "presence":               # a quiet vanishing's time is over
            if name is not None and name in self._quiet_gone:
                if name in self.gone and self.state == PLAYING:
                    self._announce_gone(name)
                    self._send_views()
                else:
                    self._quiet_gone.discard(name)
            return
        if what == "resume":
            for bot_name_, strategy in self._restored_bots.items():
                try:
                    bot = BotPlayer(self, bot_name_, strategy, self.clock, delay=self.bot_delay,
                                    pool=self.bot_pool)
                except (KeyError, ValueError):
                    bot = BotPlayer(self, bot_name_, BOT_TAKEOVER_STRATEGY, self.clock,
                                    delay=self.bot_delay, pool=self.bot_pool)
                self.bots[bot_name_] = bot
                if self.match is not None and bot_name_ in self.players:   # the round so far
                    bot.catch_up(round_history(self.match, self.players.index(bot_name_),
                                               self.number, self.seated, self.players))
            self._restored_bots = {}
            if self.host is not None and not self._host_here():
                self._host_away(self.host)       # the host too has the hand-over time to come back
            self._send_views()
            return
        if what == "close":
            self._cancel_host_call()
            self._clear_window()
            self._stop_timer()
            for bot in self.bots.values():
                bot.stop()
            if self.state == PLAYING and self.match is not None:
                self.state = FINISHED
                self._mark_leavers(beyond_grace=False)
                self.result = {"abandoned": True, "removed": None,
                               "scores": list(self.match.scores), "round_no": self.match.round_no,
                               "left": sorted(self.leavers)}
                if self.recorder is not None:
                    self.recorder.abandoned(self)
            return
        assert name is not None
        if what == "enter":
            if name == self.host:
                self._cancel_host_call()         # the host came back within the hand-over time
            self.members.add(name)
            self.member_since.setdefault(name, self.clock.seconds())
            back = name in self.gone
            if back:
                self._back(name)
            else:
                self._send_views_to([name])
        elif what == "exit":
            self.members.discard(name)
            self.member_since.pop(name, None)
            if self.state == PLAYING and name in self.players:
                self._vanished(name)
            elif name in self.seats and self.state != PLAYING:
                seat = self.seats.index(name)
                self._unseat(name)
                self._tell_all("table-left", name=name, seat=seat + 1)
                self._send_views()
            self._host_left(name)
        elif what == "gone":
            self.member_since.pop(name, None)
            if self.state == PLAYING and name in self.players:
                self._vanished(name)
            else:
                self.members.discard(name)
                if name in self.seats:
                    seat = self.seats.index(name)
                    self._unseat(name)
                    self._tell_all("table-left", name=name, seat=seat + 1)
                    self._send_views()
            self._host_away(name)
        elif what == "host-timeout":
            if name == self.host and self._host_call is not None and not self._host_here():
                self._host_call = None
                self._host_left(name)
        elif what == "host-replaced":            # the host's name is somebody else's now
            if name == self.host and not self._host_here():
                self._cancel_host_call()
                self._host_left(name)
        elif what == "back":
            if name == self.host:
                self._cancel_host_call()
            if name in self.gone:
                self._back(name)
            elif name in self.members or name in self.seated:
                self._send_views_to([name])          # a new connection: the full state again

    def _host_here(self) -> bool:
        return self.host is not None and self.host in self.members and self.host not in self.gone

    def host_away(self) -> bool:
        """Whether the host disconnected and the table waits for them (the hand-over time)."""
        return self._host_call is not None

    def _host_away(self, name: str) -> None:
        """The host disconnected: they stay the host for the hand-over time (the table's grace
        time, ``/option grace``), so a short drop changes nothing; still away after it, the
        table is handed on (``_host_left``). Nobody is told before a real hand-over."""
        if name != self.host or self._host_call is not None:
            return
        seconds = self.grace_seconds()
        if seconds <= 0:
            self._host_left(name)
            return
        self._host_call = self._wheel.call_at(
            self.clock.seconds() + seconds,
            lambda: self._enqueue(("internal", name, "host-timeout", None)))

    def _cancel_host_call(self) -> None:
        call, self._host_call = self._host_call, None
        if call is not None:
            call.cancel()

    def host_replaced(self, name: str) -> None:
        """The world: somebody else holds the away host's name now (a guest namesake): the
        table is handed on at once rather than to the newcomer."""
        self._enqueue(("internal", name, "host-replaced", None))

    def _host_left(self, name: str) -> None:
        """The host who leaves the room (or vanishes) hands the table on: to the human who has
        sat at it longest and is still here, else to whoever has watched longest; everyone is
        told (``table-new-host``)."""
        if name != self.host:
            return
        here = [n for n in self.members - self.gone if n not in self.bots and n != name]
        seated = [n for n in here if n in self.seated]
        pool = seated or here
        since = self.seated_since if seated else self.member_since
        far = float("inf")
        self.host = min(pool, key=lambda n: (since.get(n, far), n)) if pool else None
        if self.host is not None:
            self._tell_all("table-new-host", name=self.host)

    def _send_views_to(self, names: list[str]) -> None:
        seated = self.seated
        for name in names:
            self._send([name], Event("table-view",
                                     self._views.view(name if name in seated else None)))

    def _vanished(self, name: str) -> None:
        if name in self.gone:
            return
        self.gone.add(name)
        self.gone_since[name] = self.clock.seconds()
        if self.match is not None:
            self.gone_round[name] = self.match.round_no
        now = self.clock.seconds()
        told = [t for t in self._announced_gone.get(name, ()) if t > now - self.presence_quiet]
        self._announced_gone[name] = told
        if len(told) >= PRESENCE_BURST:
            # vanish-and-return in a loop: told once, not at each cycle; still away after the
            # quiet time, they are announced then (the grace time adds up all along)
            self._quiet_gone.add(name)
            self._wheel.call_at(now + self.presence_quiet, lambda: self._enqueue(
                ("internal", name, "presence", None)))
        else:
            self._announce_gone(name)
        self._send_views()

    def _announce_gone(self, name: str) -> None:
        self._quiet_gone.discard(name)
        self._announced_gone.setdefault(name, []).append(self.clock.seconds())
        # the grace time left: what earlier absences of this game did not use up
        self._tell_all("table-vanished", name=name,
                       grace=max(0, math.ceil(self.grace_seconds() - self.away_for(name))))

    def _back(self, name: str) -> None:
        away = self.gone_total[name] = self.away_for(name)   # the grace time goes on adding up
        self.gone.discard(name)
        self.gone_since.pop(name, None)
        self.gone_round.pop(name, None)
        self.members.add(name)
        self.active_at[name] = self.clock.seconds()
        # a return ends a running vote on them only while they have grace time left (a vote
        # on a player who ran out of move time): once their grace, added up over the game, is
        # used up, the vote goes on, so vanish-and-return cycles cannot dodge it (docs/rating.md)
        if self._vote is not None and self._vote.target == name and away < self.grace_seconds():
            self._vote = None
            self._tell_all("table-vote-ended", name=name)
        if name in self._quiet_gone:          # their vanishing was not told: nor is the return
            self._quiet_gone.discard(name)
        else:
            self._tell_all("table-back", name=name)
        self._send_views()

    # ---- table commands ----------------------------------------------------------------------
    @TABLE_COMMANDS.command("join", "[SEAT]", notices=True)
    def cmd_join(self, user: str, args: dict[str, str]) -> None:
        self._require_waiting()
        if self.is_barred(user):
            raise LobbyError("barred-from-table", table=self.number, host=self.host or "-")
        if user in self.seats:
            raise LobbyError("already-seated", seat=self.seats.index(user) + 1)
        wanted = args.get("seat")
        if wanted:
            number = ascii_int(wanted, 4)       # int() would read ３ or ٣ as 3 too
            if number is None:
                raise LobbyError("no-such-seat", seat=wanted)
            seat = number - 1
            if not 0 <= seat < 4:
                raise LobbyError("no-such-seat", seat=wanted)
            if self.seats[seat] is not None:
                raise LobbyError("seat-taken", seat=seat + 1, name=self.seats[seat])
        else:
            if None not in self.seats:
                raise LobbyError("table-full")
            seat = self.seats.index(None)
        guest = self._seat_policy.may_sit(self, user) if self._seat_policy else False
        self.members.add(user)
        self.member_since.setdefault(user, self.clock.seconds())
        self.seats[seat] = user
        self.seated_since[user] = self.active_at[user] = self.clock.seconds()
        self.join_order.append(user)
        self._tell_all("table-joined", name=user, seat=seat + 1)
        if guest:           # told to the guest alone; the table keeps only the key's hash
            key = new_key()
            self.seat_keys[user] = hash_key(key)
            self._send([user], Event("table-seat-key", name=user, key=key, table=self.number))
        self._send_views()

    # ---- the host in charge ------------------------------------------------------------------
    def is_barred(self, name: str) -> bool:
        """Whether the host barred ``name`` from this table (until it closes): the name, or
        the person under another name (their identity; a guest from the barred person's
        address group). The host and the table's players are never kept out by the person
        marks (someone behind the same NAT who sits here already comes back)."""
        if not self.barred:
            return False
        if name_key(name) in self.barred:
            return True
        if not self.bar_marks or name == self.host or name in self.seats \
                or name in self.players or self._seat_policy is None:
            return False
        identity, group, registered = self._marks_of(name)
        for barred_identity, barred_group in self.bar_marks.values():
            if identity is not None and identity == barred_identity:
                return True
            if not registered and group is not None and group == barred_group:
                return True
        return False

    def _marks_of(self, name: str) -> tuple[str | None, str | None, bool]:
        find = getattr(self._seat_policy, "identity_of", None)
        if not callable(find):
            return None, None, False
        found = find(name)
        return found if isinstance(found, tuple) else (None, None, False)

    def _host_only(self, user: str) -> None:
        if user != self.host:
            raise LobbyError("host-command", host=self.host or "-")

    @TABLE_COMMANDS.command("unseat", "NAME", aliases=("rauswerfen",), notices=True)
    def cmd_unseat(self, user: str, args: dict[str, str]) -> None:
        """`unseat NAME` (BSW: `rauswerfen`): the host takes anyone's seat at a waiting table
        away (a bot's too); they stay in the room, watching."""
        self._require_waiting()
        self._host_only(user)
        text = args.get("name", "").strip()
        names = [n.lower() if n else None for n in self.seats]
        if text.lower() not in names:
            raise LobbyError("not-seated-here", name=text)
        seat = names.index(text.lower())
        name = self.seats[seat]
        assert name is not None
        self._unseat(name)
        if name in self.bots:
            self.bots.pop(name).stop()
        self._tell_all("table-unseated", name=name, seat=seat + 1, by=user)
        self._send_views()

    @TABLE_COMMANDS.command("bar", "NAME", aliases=("sperren",), notices=True)
    def cmd_bar(self, user: str, args: dict[str, str]) -> None:
        """`bar NAME` (BSW: `sperren`): the host bars a name from the table until it closes:
        its seat (at a waiting table) is taken away, it is sent out of the room and may neither
        come in again nor sit down."""
        self._host_only(user)
        name = args.get("name", "").strip()
        if not name:
            raise LobbyError("bad-arguments", usage=TABLE_COMMANDS.commands["bar"].usage)
        if name_key(name) == name_key(user):
            raise LobbyError("not-yourself", command="bar")
        if self.state == PLAYING and any(name_key(n) == name_key(name) for n in self.players):
            raise LobbyError("game-running")
        known = next((n for n in (*self.members, *(s for s in self.seats if s))
                      if name_key(n) == name_key(name)), name)
        self.barred[name_key(known)] = known
        if self._seat_policy is not None:
            identity, group, _registered = self._marks_of(known)
            if identity is not None or group is not None:
                self.bar_marks[name_key(known)] = [identity, group]
        if known in self.seats and self.state != PLAYING:
            seat = self.seats.index(known)
            self._unseat(known)
            if known in self.bots:
                self.bots.pop(known).stop()
            self._tell_all("table-unseated", name=known, seat=seat + 1, by=user)
        self._tell_all("table-barred", name=known, by=user)
        if known in self.members and self._seat_policy is not None:
            self._seat_policy.send_away(self, known)      # out of the room, into the lobby
        self._send_views()

    @TABLE_COMMANDS.command("unbar", "NAME", aliases=("entsperren",), notices=True)
    def cmd_unbar(self, user: str, args: dict[str, str]) -> None:
        """`unbar NAME` (BSW: `entsperren`): the host lifts a bar."""
        self._host_only(user)
        name = args.get("name", "").strip()
        known = self.barred.pop(name_key(name), None)
        self.bar_marks.pop(name_key(name), None)
        if known is None:
            raise LobbyError("not-barred", name=name)
        self._tell_all("table-unbarred", name=known, by=user)

    @TABLE_COMMANDS.command("leave", notices=True)
    def cmd_leave(self, user: str, args: dict[str, str]) -> None:
        if self.state == PLAYING and user in self.players:
            # the seat stays theirs: what happens if they go away (issue 26, telnet review)
            raise LobbyError("leave-in-game", table=self.number, grace=max(
                0, math.ceil(self.grace_seconds() - self.away_for(user))))
        if user not in self.seats:
            raise self._not_seated(user)
        seat = self.seats.index(user)
        self._unseat(user)
        self._tell_all("table-left", name=user, seat=seat + 1)
        self._send_views()

    @TABLE_COMMANDS.command("startnosave")
    def cmd_startnosave(self, user: str, args: dict[str, str]) -> None:
        """`startnosave`: start a game that is unrated and counts in nobody's statistics."""
        self.cmd_start(user, args, nosave=True)

    @TABLE_COMMANDS.command("start")
    def cmd_start(self, user: str, args: dict[str, str], nosave: bool = False) -> None:
        self._require_waiting()
        self._may_manage(user)
        count = sum(1 for s in self.seats if s)
        if count < 4:
            raise LobbyError("need-four", count=count)
        opts = self.options
        # the whole deal follows from the seed: drawn from 2**63 so nobody can search for it
        seed = opts.seed if opts.seed is not None else self._rng.randrange(2 ** 63)
        order = [n for n in self.join_order if n in self.seats]
        if opts.tichujoin or opts.drawseat:
            rng = random.Random(seed ^ 0x5EA7) if opts.drawseat else None
            seats = initial_seating(order, tichujoin=opts.tichujoin, drawseat=opts.drawseat,
                                    rng=rng)
            players: list[str] = [""] * 4
            for name, seat in zip(order, seats, strict=False):
                players[seat] = name
        else:
            players = [n for n in self.seats if n]
        match = Match(opts.match_options(), seed=seed, deals=self.deals)
        self.match = match
        self.players = players
        self.seats = list(players)
        self.seed = seed
        if opts.seed is not None:
            # a seeded game is reproducible: its bots decide from the same seed too (by seat)
            bot_seeds = random.Random(f"bots:{opts.seed}")
            for name in players:
                bot = self.bots.get(name)
                seat_seed = bot_seeds.randrange(2 ** 31)
                if bot is not None:
                    bot.reseed(seat_seed)
        self.result = None
        self.state = PLAYING
        now = self.clock.seconds()
        self.active_at = {n: now for n in players}     # the game starts: everyone's clock too
        self.nosave = nosave
        self.games_started += 1
        # a game counts from its start: rated or not is decided now, whoever leaves later
        self.unrated = self._unrated_reason(players, nosave)
        self.rated = self.unrated is None
        self.leavers = {}
        self.timed_out.clear()
        self.timeouts.clear()
        self.gone_total.clear()
        self.gone_round.clear()
        self._announced_gone.clear()
        self._quiet_gone.clear()
        self._clear_window()
        if self.recorder is not None:              # the journal holds the events behind it
            self.recorder.started(self)
        # the seed deals every hand: one the table drew itself is told after the game (result)
        self._tell_all("table-started", seats=list(players), seed=opts.seed,
                       options=opts.as_dict())
        if opts.seed is not None:       # whoever knows the seed knows every hand: say so
            self._send([n for n in players if n not in self.bots and n not in self.gone],
                       Event("table-seeded", table=self.number, host=self.host, seed=opts.seed))
        if self.rated:
            self._tell_all("table-rated", reason="", grace=math.ceil(self.grace_seconds()))
        else:
            self._tell_all("table-unrated", reason=self.unrated or "",
                           grace=math.ceil(self.grace_seconds()))
        for ev in match.opening_events():
            self._game_event(ev)
        self._send_views()

    def _unrated_reason(self, players: list[str], nosave: bool) -> str | None:
        """Why a game of ``players`` is not rated (docs/rating.md), or None: it is rated. Only
        four registered humans (the seat policy knows who is registered) play a rated game."""
        if nosave:
            return "nosave"
        if self.options.seed is not None:
            return "seed"
        if any(n in self.bots for n in players):
            return "bots"
        policy = self._seat_policy
        if policy is None or not all(policy.is_registered(n) for n in players):
            return "guests"
        return None

    @TABLE_COMMANDS.command("spielinfo", "[NUMBER]")
    def cmd_spielinfo(self, user: str, args: dict[str, str]) -> None:
        """The table's public state, to ``user``: at the table, or from anywhere with the
        table's number (``/spielinfo 2``: protocol/commands/tables.py routes it here)."""
        data: dict[str, Any] = {"table": self.number, "state": self.state, "host": self.host,
                                "seats": self.seated, "options": self.options.as_dict(),
                                "spectators": self.spectators, "gone": sorted(self.gone),
                                "bots": self.bot_list()}
        # the move timer: seconds (0: none); null before the start while it is `auto`
        data["timer"] = (None if self.state == WAITING and self.options.timer is None
                         else self.timer_seconds())
        if self.match is not None:
            data["rated"] = self.rated
            data["unrated"] = self.unrated
            if self._decisions:
                data["timer_left"] = self.timer_left()
            if self.leavers:
                data["left"] = sorted(self.leavers)
            data["scores"] = list(self.match.scores)
            data["round_no"] = self.match.round_no
            data["rounds_done"] = len(self.match.round_scores)     # the rounds finished
            secret = self.state == PLAYING and self.options.seed is None   # it deals every hand
            data["seed"] = None if secret else self.seed
        if self.result is not None:
            data["result"] = self.result
        self._send([user], Event("table-info", data))

    @TABLE_COMMANDS.command("look", aliases=("l",))
    def cmd_look(self, user: str, args: dict[str, str]) -> None:
        """`look`: the whole current view again, to `user` alone (a seated player's own view,
        else the public one): `table-look`, the data of a `table-view`."""
        seated = self.seated
        self._send([user], Event("table-look",
                                 self._views.view(user if user in seated else None)))

    @TABLE_COMMANDS.command("reset", notices=True)
    def cmd_reset(self, user: str, args: dict[str, str]) -> None:
        if self.state != FINISHED:
            raise LobbyError("not-finished")
        if user != self.host and user not in self.seated:
            raise self._not_seated(user)
        keep = [n if n and n in self.seats    # not who did /leave after the game
                and (n in self.bots or (n not in self.gone and n in self.members))
                else None for n in self.seated]
        self.seats = keep
        self.seat_keys = {n: k for n, k in self.seat_keys.items() if n in keep}
        # the order they joined in, not the seats' order: tichujoin pairs the first two joiners
        # again in the next game
        self.join_order = [n for n in self.join_order if n in keep]
        self.match = None
        self.players = []
        self.result = None
        self.members -= self.gone                # disconnected (still kept while the game ran)
        self.gone.clear()
        self.gone_since.clear()
        self.gone_total.clear()
        self.gone_round.clear()
        self._announced_gone.clear()
        self._quiet_gone.clear()
        self.leavers = {}
        self.timed_out.clear()
        self._stop_timer()
        self._vote = None
        self._clear_window()
        self.state = WAITING
        self._tell_all("table-reset", name=user)
        if self.host is not None and self.host not in self.members and self._host_call is None:
            self._host_left(self.host)           # gone during the game: nobody else could start
        self._send_views()

    @TABLE_COMMANDS.command("option", "[NAME] [VALUE...]", aliases=("optionen",),
                             notices=_sets_an_option)
    def cmd_option(self, user: str, args: dict[str, str]) -> None:
        name = args.get("name", "").strip().lower()
        if name in OPTION_LISTING:
            self._send([user], Event("table-options", table=self.number,
                                     options=self.options.listing(), state=self.state))
            return
        option, value = find_option(name, args.get("value"))
        self._require_waiting()
        # every option is the host's (issue 24: the host is in charge of a waiting table);
        # /option seed deals every hand: the host's even at a table left without a host
        if (option.host_only or self.host is not None) and user != self.host:
            raise LobbyError("host-only-option", option=option.name, host=self.host or "-")
        self._may_manage(user)
        new = option.parse(value, getattr(self.options, option.attr))
        high = self.ceilings.get(option.attr)          # the server's ceiling (--max-grace ...)
        if high is not None and new is not None and new > high:
            raise LobbyError("bad-option-value", name=option.name, value=value or "",
                             expected=Msg(option.expects_key, high=f"{high:g}"))
        # a turnier plays 9 rounds: refused where the server allows fewer (--max-round)
        if option.attr == "turnier" and new and self.ceilings.get("max_rounds",
                                                                  TURNIER_ROUNDS) < TURNIER_ROUNDS:
            raise LobbyError("turnier-too-long", rounds=TURNIER_ROUNDS,
                             most=f"{self.ceilings['max_rounds']:g}")
        # a turnier always plays its 9 rounds: `round X` would be ignored, so it is refused
        if (option.attr == "max_rounds" and new is not None and self.options.turnier) or (
                option.attr == "turnier" and new and self.options.max_rounds is not None):
            raise LobbyError("turnier-rounds", rounds=TURNIER_ROUNDS)
        setattr(self.options, option.attr, new)
        if user in self.seats:
            self.active_at[user] = self.clock.seconds()
        shown = option.show(getattr(self.options, option.attr))
        self._tell_all("table-option-set", name=user, option=option.name, value=shown)
        self._send_views()

    # ---- removing a vanished player ----------------------------------------------------------
    @TABLE_COMMANDS.command("remove", "NAME", notices=True)
    def cmd_remove(self, user: str, args: dict[str, str]) -> None:
        target = args.get("name", "").strip()
        if self.state != PLAYING:
            raise LobbyError("no-game")
        if user not in self.players or user in self.gone:
            raise self._not_seated(user)
        target = self._match_player_name(target)
        # a vanished player after the grace time, or a present one who ran out of time
        if target == user or target in self.bots or (target not in self.gone
                                                     and target not in self.timed_out):
            raise LobbyError("not-vanished", name=target)
        if self._vote is not None and self._vote.required & self.gone:
            # it waits for the yes of a partner who vanished: it cannot pass, nor keep the
            # table from voting on somebody else (the vanished partner, say)
            self._tell_all("table-vote-ended", name=self._vote.target)
            self._vote = None
        if self._vote is not None:
            raise LobbyError("vote-running", name=self._vote.target)
        left = self.grace_seconds() - self.away_for(target)
        if left > 0 and target not in self.timed_out:
            raise LobbyError("remove-too-early", name=target, seconds=math.ceil(left))
        voters = {n for n in self.players if n != target and n not in self.bots}  # bots abstain
        required: set[str] = set()
        # a rated game: a player who is here (or away within the grace) is removable for
        # running out of time only after --rated-remove-timeouts time-outs, and only with their
        # partner's yes: two opponents, who gain from the removal, cannot hand them a loss
        if self.rated and (target not in self.gone or left > 0):
            count = self.timeouts.get(target, 0)
            if count < self.rated_remove_timeouts:
                raise LobbyError("remove-needs-timeouts", name=target, count=count,
                                 needed=self.rated_remove_timeouts)
            partner = self._partner_of(target)
            required = {partner} if partner in voters else set(voters)
        self.active_at[user] = self.clock.seconds()
        vote = _RemoveVote(target=target, proposer=user, voters=voters, yes={user},
                           required=required)
        self._vote = vote
        self._tell_all("table-remove-proposed", name=user, target=target,
                       needed=vote.needed, yes=1)
        if required and required != voters:
            self._tell_all("table-remove-needs-partner", target=target,
                           partner=next(iter(required)))
        elif required:
            self._tell_all("table-remove-needs-all", target=target)
        self._count_votes()

    def _partner_of(self, name: str) -> str:
        """Who plays with ``name`` in the current round (seats 1+3, 2+4)."""
        assert self.match is not None
        seat = self.match.seat_of(self.players.index(name))
        return self.players[self.match.player_at((seat + 2) % 4)]

    @TABLE_COMMANDS.command("accept", notices=True)
    def cmd_accept(self, user: str, args: dict[str, str]) -> None:
        self._vote_on(user, True)

    @TABLE_COMMANDS.command("refuse", notices=True)
    def cmd_refuse(self, user: str, args: dict[str, str]) -> None:
        self._vote_on(user, False)

    def _match_player_name(self, text: str) -> str:
        if not text:
            raise LobbyError("bad-arguments", usage="/remove NAME")
        for n in self.players:
            if n.lower() == text.lower():
                return n
        raise LobbyError("not-seated-here", name=text)     # (not-a-player speaks to you)

    def _vote_on(self, user: str, yes: bool) -> None:
        vote = self._vote
        if vote is None:
            raise LobbyError("no-vote")
        if user not in vote.voters or user in self.gone:
            raise LobbyError("not-a-voter")
        (vote.yes if yes else vote.no).add(user)
        (vote.no if yes else vote.yes).discard(user)
        self.active_at[user] = self.clock.seconds()
        self._tell_all("table-vote", name=user, target=vote.target, yes=yes)
        self._count_votes()

    def _count_votes(self) -> None:
        vote = self._vote
        if vote is None:
            return
        if len(vote.yes) >= vote.needed and vote.required <= vote.yes:
            self._vote = None
            self._bot_takes_over(vote.target)
        elif len(vote.no) > len(vote.voters) - vote.needed or vote.required & vote.no:
            self._vote = None
            self._tell_all("table-remove-refused", target=vote.target)

    def _bot_takes_over(self, removed: str) -> None:
        """The removed player's seat goes to a heuristic bot, which plays on with their hand."""
        assert self.match is not None
        player = self.players.index(removed)
        name = self._new_bot(BOT_TAKEOVER_STRATEGY)
        # the record keeps the seat theirs, marked with the round they left in; they lose
        self.leavers[removed] = {"player": player, "bot": name,
                                 "round": self.gone_round.get(removed, self.match.round_no),
                                 "at": self._left_at(removed)}
        self.players[player] = name
        self.seats = [name if n == removed else n for n in self.seats]
        self.join_order = [name if n == removed else n for n in self.join_order]
        present = removed not in self.gone       # timed out: stays in the room, watching
        self.gone.discard(removed)
        self.timed_out.discard(removed)
        self.timeouts.pop(removed, None)
        self._decisions.pop(removed, None)
        self.gone_since.pop(removed, None)
        self.gone_total.pop(removed, None)
        self.gone_round.pop(removed, None)
        self.seat_keys.pop(removed, None)    # the seat is given away
        if not present:
            self.members.discard(removed)    # back later, they enter the room as a spectator
        if self.recorder is not None:
            self.recorder.seats_changed(self)
        seat = self.match.seat_of(player)
        self._tell_all("table-bot-takes-over", target=removed, name=name, seat=seat + 1)
        self._send_views()

    # ---- bots --------------------------------------------------------------------------------
    def bot_budget(self) -> tuple[str, str]:
        """(this table, its budget group) for the bot workers' fair shares (lobby/bots/runtime/pool.py):
        the group is the address group of the table's opener (the seat policy's ``bot_group``),
        else the table itself."""
        table = f"table {self.number}"
        group = getattr(self._seat_policy, "bot_group", None)
        found = group(self) if callable(group) else None
        return table, found or table

    def _new_bot(self, strategy: str) -> str:
        taken = {n for n in self.seats if n} | set(self.players) | self.members | set(self.bots)
        name = bot_name(strategy, taken)
        self.bots[name] = BotPlayer(self, name, strategy, self.clock, delay=self.bot_delay,
                                    pool=self.bot_pool, seed=self._bot_seed(name))
        return name

    def _bot_seed(self, name: str) -> int:
        """A new bot's seed: drawn, or at a table with `/option seed` made from it (a bot that
        takes over a seat in a seeded game decides the same way every time)."""
        if self.options.seed is None:
            return self._rng.randrange(2 ** 31)
        return random.Random(f"bot:{self.options.seed}:{name}").randrange(2 ** 31)

    @TABLE_COMMANDS.command("addbot", "[SEAT] [random|heuristic|expert|expert:SECONDS:strategy]",
                            notices=True)
    def cmd_addbot(self, user: str, args: dict[str, str]) -> None:
        """`addbot [SEAT] [random|heuristic|expert|expert:SECONDS]`: before the start, the host
        (a seated player at a table left without a host)."""
        self._require_waiting()
        self._may_manage(user)
        seat: int | None = None
        strategy = BOT_TAKEOVER_STRATEGY
        # the seat and the strategy in either order: /addbot random, /addbot 3 random
        for word in (w for w in (args.get("seat"), args.get("strategy")) if w):
            if word.isascii() and word.isdigit():   # int() refuses other digits such as ²
                seat = int(word) - 1
                if not 0 <= seat < 4:
                    raise LobbyError("no-such-seat", seat=word)
            elif word.lower() in STRATEGY_NAMES:
                strategy = word.lower()
            elif word.lower().startswith("expert:"):        # expert:SECONDS (lobby/bots/strategies/expert.py)
                if not is_bot_level(word):
                    raise LobbyError("bad-bot-level", level=word, low=Number(f"{MIN_SECONDS:g}"),
                                     high=Number(f"{MAX_SECONDS:g}"))
                strategy = word.lower()
            else:
                raise LobbyError("unknown-strategy", name=word, choices=one_of(STRATEGY_NAMES))
        if seat is None:
            if None not in self.seats:
                raise LobbyError("table-full")
            seat = self.seats.index(None)
        elif self.seats[seat] is not None:
            raise LobbyError("seat-taken", seat=seat + 1, name=self.seats[seat])
        if strategy.startswith("expert") and self._seat_policy is not None:
            # the search workers are shared: a guest's thinking time and the expert tables of
            # one user are limited (lobby/world/world.py may_add_bot)
            self._seat_policy.may_add_bot(self, user, parse_level(strategy))
        name = self._new_bot(strategy)
        self.seats[seat] = name
        self.join_order.append(name)
        self._tell_all("table-bot-added", name=name, seat=seat + 1, strategy=strategy,
                       by=user)
        self._send_views()

    @TABLE_COMMANDS.command("removebot", "SEAT", notices=True)
    def cmd_removebot(self, user: str, args: dict[str, str]) -> None:
        """`removebot SEAT` (or the bot's name): before the start, as /addbot."""
        self._require_waiting()
        self._may_manage(user)
        text = args["seat"].strip()
        if text.isdigit():                      # a seat number, of ASCII digits only
            number = ascii_int(text, 4)
            seat = number - 1 if number is not None else -1
            if not 0 <= seat < 4:
                raise LobbyError("no-such-seat", seat=text)
        else:
            names = [n.lower() if n else None for n in self.seats]
            if text.lower() not in names:
                raise LobbyError("not-a-bot", seat=text)
            seat = names.index(text.lower())
        name = self.seats[seat]
        if name is None or name not in self.bots:
            raise LobbyError("not-a-bot", seat=seat + 1)
        self._unseat(name)
        self.bots.pop(name).stop()
        self._tell_all("table-bot-removed", name=name, seat=seat + 1, by=user)
        self._send_views()

    # ---- the game ----------------------------------------------------------------------------
    @TABLE_COMMANDS.command("grand")
    def cmd_grand(self, user: str, args: dict[str, str]) -> None:
        self._act(user, GrandTichu(True))

    @TABLE_COMMANDS.command("nogrand")
    def cmd_nogrand(self, user: str, args: dict[str, str]) -> None:
        self._act(user, GrandTichu(False))

    @TABLE_COMMANDS.command("tichu")
    def cmd_tichu(self, user: str, args: dict[str, str]) -> None:
        self._act(user, CallTichu())

    @TABLE_COMMANDS.command("pass", aliases=("passe", "paso", "pas"))
    def cmd_pass(self, user: str, args: dict[str, str]) -> None:
        self._act(user, Pass())

    @TABLE_COMMANDS.command("schupf", "NEXT PARTNER PREVIOUS",
                            aliases=("kartentausch", "échange", "echange", "cambio", "byt"))
    def cmd_schupf(self, user: str, args: dict[str, str]) -> None:
        player = self._player_of(user)
        words = [args["next"], args["partner"], args["previous"]]
        cards, _phoenix_as, _wish = parse_play(words, self._hand(player), allow_wish=False)
        if len(cards) != 3:
            raise LobbyError("bad-arguments", usage=TABLE_COMMANDS.commands["schupf"].usage)
        self._act(user, Exchange(tuple(cards)))

    @TABLE_COMMANDS.command("play", "CARDS...", aliases=("spiele", "joue", "juego", "spil"))
    def cmd_play(self, user: str, args: dict[str, str]) -> None:
        player = self._player_of(user)
        cards, phoenix_as, wish = parse_play(args["cards"], self._hand(player), allow_wish=True)
        self._act(user, Play(tuple(cards), phoenix_as, wish))

    @TABLE_COMMANDS.command("bomb", "CARDS...", aliases=("bomben", "bombe", "bomba"))
    def cmd_bomb(self, user: str, args: dict[str, str]) -> None:
        player = self._player_of(user)
        cards, _phoenix_as, _wish = parse_play(args["cards"], self._hand(player), allow_wish=False)
        combo = classify(cards)
        if combo is None or not combo.is_bomb:
            raise LobbyError("not-a-bomb", cards=format_cards(sort_cards(cards)))
        self._act(user, Play(tuple(cards)))

    @TABLE_COMMANDS.command("wish", "RANK", aliases=("wunsch", "souhait", "deseo", "ønske"))
    def cmd_wish(self, user: str, args: dict[str, str]) -> None:
        self._act(user, Wish(parse_wish(args["rank"])))

    @TABLE_COMMANDS.command("dragon", "TO", aliases=("drache", "dragón", "drage"))
    def cmd_dragon(self, user: str, args: dict[str, str]) -> None:
        player = self._player_of(user)
        assert self.match is not None
        if self.match.round is not None and self.match.round.phase != "dragon":
            raise LobbyError("no-dragon-pending")        # not a phase name (issue 26, #8)
        text = args["to"].strip().lower()
        me = self.match.seat_of(player)
        if text in DRAGON_RIGHT:
            seat = (me + 1) % 4
        elif text in DRAGON_LEFT:
            seat = (me + 3) % 4
        elif text.isascii() and text.isdigit() and 1 <= int(text) <= 4:   # int() refuses ²
            seat = int(text) - 1
        else:
            seated = self.seated
            names = [n.lower() if n else None for n in seated]
            if text and text in names:
                seat = names.index(text)
            else:
                raise LobbyError("bad-dragon-target")
        self._act(user, GiveDragon(seat))

    def _hand(self, player: int) -> list[Card]:
        match = self.match
        assert match is not None
        return list(match.round.hand(match.seat_of(player)))   # what the view's hand reads

    def _act(self, user: str, action: Action) -> None:
        """Apply one game action for `user`, then tell everyone what happened."""
        player = self._player_of(user)
        match = self.match
        assert match is not None
        self._check_window(player, action)
        # the seating of the round acted in (frozen, the very list of the views while it
        # does not change: TableViews.names)
        names = self._views.names()
        events = match.apply(player, action)          # raises Rejected; nothing changed then
        if self.recorder is not None:                  # journaled before its events leave
            self.recorder.action(self, player, action)
        if not self._timing_out:
            self.active_at[user] = self.clock.seconds()   # a move of their own: activity
        if self._decisions.pop(user, None) is not None and not self._timing_out:
            self.timed_out.discard(user)             # decided by themselves: not stalling
        if isinstance(action, (Play, GiveDragon)):
            self._clear_window()
        # the audience does not change while the events of one action go out (members, seats
        # and who is gone change only by other commands): computed once for all of them
        self._audience_now = None
        self._audience_now = self._audience()
        try:
            for ev in events:
                if ev.kind == "round-start":               # turnier: new partners from here on
                    names = self._views.names()
                self._game_event(ev, names)
            if match.finished:
                self._finish()
            self._send_views()
        finally:
            self._audience_now = None

    def _check_window(self, player: int, action: Action) -> None:
        """The bomb window: the trick winner's next lead (or Dragon gift) waits until it ends."""
        if self._window_until is None or self.match is None:
            return
        if not isinstance(action, (Play, GiveDragon)):
            return
        rnd = self.match.round
        if isinstance(action, Play) and rnd.turn != self.match.seat_of(player):
            return                                  # a bomb out of turn is always welcome
        left = self._window_until - self.clock.seconds()
        if left > 0:
            raise LobbyError("bomb-window", seconds=math.ceil(left))

    def _open_window(self) -> None:
        seconds = self.options.bombwindow
        self._clear_window()
        if seconds <= 0:
            return
        self._window_until = self.clock.seconds() + seconds
        self._window_call = self.clock.callLater(
            seconds, self._enqueue, ("internal", None, "window-closed", None))

    def _clear_window(self) -> None:
        call = self._window_call
        self._window_call = None
        self._window_until = None
        if call is not None and call.active():
            call.cancel()

    def _window_closed(self) -> None:
        self._window_call = None
        if self._window_until is None or self.match is None or self.state != PLAYING:
            return
        self._window_until = None
        turn = self.match.round.turn
        name = self.seated[turn] if turn is not None else None
        self._tell_all("table-window-closed", name=name)
        self._send_views()

    # ---- the move timer (/option timer) ------------------------------------------------------
    def timer_seconds(self) -> float:
        """The move timer of the running (or next) game in seconds per decision; 0: none.
        ``/option timer auto`` (the default): RATED_TIMER in a rated game, none otherwise."""
        chosen = self.options.timer
        if self.rated:              # a rated game always has one, of at least --min-rated-timer
            return RATED_TIMER if not chosen else max(float(chosen), self.min_rated_timer)
        if chosen is None:
            return 0.0
        return float(chosen)

    def grace_seconds(self) -> float:
        """The grace time (``/option grace``) of the running game; a rated game's is at least
        the server's --min-rated-grace, so a moment's drop never makes a player a leaver."""
        grace = float(self.options.grace)
        return max(grace, self.min_rated_grace) if self.rated else grace

    def timer_left(self) -> dict[str, int]:
        """Seconds left, by name, of the decisions the move timer watches now."""
        seconds = self.timer_seconds()
        now = self.clock.seconds()
        return {n: max(0, math.ceil(d[0] + seconds - now)) for n, d in sorted(self._decisions.items())}

    _timing_out = False

    def _stop_timer(self) -> None:
        self._decisions.clear()
        call, self._timer_call, self._timer_due = self._timer_call, None, None
        if call is not None and call.active():
            call.cancel()

    def _arm_timer(self) -> None:
        """After each change: every decision the game waits for (of a human) is watched from
        when it began (after the bomb window); ONE deadline of the world's timer wheel waits
        for the earliest warning or time-out of the table. A table without a timer, or
        without a game, costs nothing here."""
        try:
            seconds = self.timer_seconds() if self.state == PLAYING else 0.0
            # (nobody to play for when every human player is away: the table waits for them
            # to come back, or to be abandoned)
            if seconds <= 0 or self.match is None or all(
                    n in self.gone or n in self.bots for n in self.players):
                if self._decisions or self._timer_call is not None:
                    self._stop_timer()
                return
            waited = {n for n in self.waiting_for() if n not in self.bots}
            decisions = self._decisions
            for name in [n for n in decisions if n not in waited]:
                del decisions[name]
            if waited - decisions.keys():
                now = self.clock.seconds()
                begins = max(now, self._window_until or now)
                for name in waited - decisions.keys():
                    decisions[name] = [begins, False]
            due = min((d[0] + (seconds if d[1] else seconds / 2) for d in decisions.values()),
                      default=None)
            if due == self._timer_due and self._timer_call is not None \
                    and self._timer_call.active():
                return
            if self._timer_call is not None:
                self._timer_call.cancel()
            self._timer_due = due
            self._timer_call = None if due is None else self._wheel.call_at(
                due, lambda: self._enqueue(("internal", None, "timer", None)))
        except Exception:
            log.failure("table {table}: the move timer failed", table=self.number)

    def _timer_fired(self) -> None:
        """The wheel's deadline: warn who has half the time left, decide for who has none."""
        self._timer_call = self._timer_due = None
        seconds = self.timer_seconds()
        if self.state != PLAYING or self.match is None or seconds <= 0:
            return
        now = self.clock.seconds() + 1e-6
        for name in sorted(self._decisions):
            decision = self._decisions.get(name)
            if decision is None or self.state != PLAYING:
                continue
            if now >= decision[0] + seconds:
                self._time_out(name, seconds)
            elif not decision[1] and now >= decision[0] + seconds / 2:
                decision[1] = True
                if name not in self.gone:
                    self._send([name], Event("table-timer-warning", table=self.number,
                                             name=name,
                                             seconds=math.ceil(decision[0] + seconds - now)))

    def _time_out(self, name: str, seconds: float) -> None:
        """``name``'s time is up: the decision is made for them (a pass where a pass is
        allowed, else the heuristic bot's choice) and the game goes on; the others may now
        vote to remove them (/remove)."""
        self._decisions.pop(name, None)
        try:
            action = self._timeout_action(name)
        except Exception:
            log.failure("table {table}: no decision for {user} who ran out of time",
                        table=self.number, user=name)
            return
        if action is None:
            return
        self.timed_out.add(name)
        count = self.timeouts[name] = self.timeouts.get(name, 0) + 1
        if self.rated and count < self.rated_remove_timeouts and (
                name not in self.gone or self.away_for(name) < self.grace_seconds()):
            # (one slow decision does not make a player of a rated game removable)
            self._tell_all("table-timed-out-rated", name=name, seconds=seconds, count=count,
                           needed=self.rated_remove_timeouts)
        else:
            self._tell_all("table-timed-out", name=name, seconds=seconds)
        self._timing_out = True
        try:
            self._act(name, action)
        except (LobbyError, Rejected) as exc:
            log.warn("table {table}: the decision for {user} who ran out of time was refused "
                     "({code})", table=self.number, user=name, code=getattr(exc, "code", exc))
        finally:
            self._timing_out = False

    def _timeout_action(self, name: str) -> Action | None:
        match = self.match
        assert match is not None
        player = self.players.index(name)
        legal = match.legal_actions(player)
        for action in legal:
            if isinstance(action, Pass) or (isinstance(action, GrandTichu) and not action.call):
                return action
        strategy = make_strategy(BOT_TAKEOVER_STRATEGY, seed=self._bot_seed(name))
        command = strategy.decide(match.view(player))
        if command:
            return command_action(command, match.seat_of(player))
        return legal[0] if legal else None

    def _finish(self) -> None:
        assert self.match is not None
        self._clear_window()
        self._stop_timer()
        self.state = FINISHED
        self._vote = None
        self._mark_leavers(beyond_grace=True)
        result = dict(self.match.result or {})
        if self.leavers:
            result["left"] = sorted(self.leavers)
        result["players"] = list(self.players)
        result["bots"] = self.bot_list()
        result["seed"] = self.seed
        self.result = json_data(result)
        if self.recorder is not None:
            self.recorder.finished(self)

    def _mark_leavers(self, *, beyond_grace: bool) -> None:
        """The players still away when the game ends (``beyond_grace``: only those away longer
        than the grace time in all) or when the table is closed left the game: each loses it."""
        assert self.match is not None
        for name in sorted(self.gone):
            if name in self.leavers or name not in self.players or name in self.bots:
                continue
            if beyond_grace and self.away_for(name) <= self.grace_seconds():
                continue
            self.leavers[name] = {"player": self.players.index(name), "bot": None,
                                  "round": self.gone_round.get(name, self.match.round_no),
                                  "at": self._left_at(name)}

    def _left_at(self, name: str) -> float:
        """When ``name`` left the game: the start of the absence they did not come back from
        (now for a present player removed by the vote). The first to leave takes the loss."""
        return float(self.gone_since.get(name, self.clock.seconds()))

    def first_leaver(self) -> int | None:
        """The player index of who left the game first (None: nobody left): their side takes
        the loss; later leavers have a leave counted (docs/rating.md)."""
        if not self.leavers:
            return None
        far = float("inf")
        name = min(self.leavers, key=lambda n: (float(self.leavers[n].get("at", far)), n))
        player = self.leavers[name].get("player")
        return player if isinstance(player, int) else None

    def _game_event(self, ev: Any, names: list[str | None] | None = None) -> None:
        """One engine event -> a table event `game-KIND` (a catalog key). Events addressed to a
        seat (a hand, gifts received) go to the player in that seat only; the others to all."""
        if ev.kind == "trick-won" and (ev.data.get("dragon") or ev.data.get("lead") is not None):
            self._open_window()
        event = game_event(ev, self.number, names if names is not None else self._views.names(),
                           self.players)
        if ev.to is None:
            self._send(self._audience(), event)
        else:                                       # hidden: Match addresses it to a player
            owner = self.players[ev.to]
            if owner not in self.gone:
                self._send([owner], event)
