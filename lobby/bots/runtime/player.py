"""An in-process bot seated at a TableActor: it plays through the same submit() API as people.

The table hands the bot every event addressed to it (`receive`): game events go to a strategy
that follows them (`observe`, the expert's knowledge). On its own `table-view` the bot
schedules one decision through the injected clock (`clock.callLater(delay, ...)`), never
re-entrantly: by the time the call fires the table has finished handling the command that caused
the view, and the bot decides from the latest view it received. Its answer (a command in the
table's language, from its Strategy) goes back through `table.submit(name, verb, rest)`.

A searching strategy (`prepare(view)` returns a `Job`) thinks in a worker process when the bot
has a `pool` (lobby/bots/runtime/pool.py): the bot sends the job and returns; the answer comes back on
the reactor thread and is sent only if the bot's newest view still asks the same question
(`decision_key`), otherwise the bot decides again from that view. When the pool cannot answer
(every worker busy and its queue full, a job that waited or thought past its budget, a worker that
died: lobby/bots/runtime/pool.py), the heuristic's answer (computed with the job) is sent instead, at
once. Without a pool the search runs here, synchronously (tests, `--bot-workers 0`).
"""
from __future__ import annotations

from collections import deque
from typing import Any, Protocol

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from lobby.bots.strategies.expert import MAX_SECONDS, MIN_SECONDS, parse_level
from lobby.bots.strategies.registry import STRATEGY_NAMES, make_strategy
from lobby.bots.strategies.search import Job
from lobby.bots.strategies.strategy import Strategy, my_turn_to
from lobby.events import Event, game_event
from lobby.tichu import Match

__all__ = ["BotPlayer", "BOT_MARK", "is_bot_name", "bot_name", "is_bot_level", "STRATEGY_NAMES",
           "MIN_SECONDS", "MAX_SECONDS", "round_history"]

log = Logger(namespace="lobby.bots")

#: bot names contain this character, which user names cannot (letters, digits, _ and - only)
BOT_MARK = "~"


def is_bot_name(name: str | None) -> bool:
    return bool(name) and BOT_MARK in str(name)


def is_bot_level(word: str) -> bool:
    """Whether `word` is `expert` or `expert:SECONDS` with SECONDS in the allowed range."""
    try:
        parse_level(word)
    except ValueError:
        return False
    return True


def bot_name(strategy: str, taken: set[str]) -> str:
    """`Bot1~heuristic`, `Bot2~random`, `Bot3~expert` (any level), ...: the first number no name
    in `taken` uses."""
    strategy = strategy.partition(":")[0]
    n = 1
    while any(t.startswith(f"Bot{n}{BOT_MARK}") for t in taken):
        n += 1
    return f"Bot{n}{BOT_MARK}{strategy}"


#: how many recent commands and refusals a bot keeps
RECENT = 200

def decision_key(game: dict[str, Any]) -> tuple[Any, ...]:
    """What a decision depends on in a seat's view: while it is the same, an answer found for
    it is still legal and still meant."""
    return (game.get("round_no"), game.get("phase"), game.get("turn"), game.get("holder"),
            game.get("trick_won"), game.get("wish"), game.get("wish_pending"), game.get("hand"),
            tuple(p.get("cards") for p in game.get("trick") or ()),
            tuple(game.get("calls") or ()), tuple(game.get("grand_decided") or ()),
            game.get("given"))


def round_history(match: Match, player: int, table: int | None, names: list[str | None],
                  players: list[str]) -> list[Event]:
    """The game events of the current round that `player` received (public ones and those
    addressed to that player: the deal, the cards received), as the table delivered them
    (`game_event`), rebuilt by replaying `match`'s record. A bot seated again after a restore
    follows them first, so that its knowledge is whole (the expert searches at once instead of
    playing the heuristic until the next round)."""
    record = match.record()
    fresh = Match.replay(dict(record, actions=[]))
    events = list(fresh.opening_events())
    for p, action in match.actions:
        round_no = fresh.round_no
        evs = fresh.apply(p, action)
        if fresh.round_no != round_no:         # a new round began within these events
            starts = [i for i, e in enumerate(evs) if e.kind == "round-start"]
            evs = evs[starts[-1]:] if starts else []
            events = []
        events.extend(evs)
    return [game_event(ev, table, names, players) for ev in events
            if ev.to is None or ev.to == player]


class _Table(Protocol):
    def submit(self, user: str, command: str, args: Any = None) -> None: ...


class BotPlayer:
    """One bot at one table. `delay` is the pause (seconds) before each decision."""

    def __init__(self, table: _Table, name: str, strategy: Strategy | str, clock: IReactorTime,
                 *, delay: float = 0.0, seed: int | None = None, pool: Any = None) -> None:
        self.table = table
        self.name = name
        self.strategy: Strategy = (make_strategy(strategy, seed) if isinstance(strategy, str)
                                   else strategy)
        #: the strategy the bot made from a name (reseed() makes it again); a strategy given
        #: or put in its place later is left alone
        self._made: Strategy | None = self.strategy if isinstance(strategy, str) else None
        self.clock = clock
        self.delay = delay
        # the last commands sent and refusals received (tests, logs); bounded: a table lives long
        self.sent: deque[str] = deque(maxlen=RECENT)
        self.errors: deque[Event] = deque(maxlen=RECENT)
        self._data: dict[str, Any] | None = None
        self._call: IDelayedCall | None = None
        # after a refusal (a bug in a strategy) the next decision is a random legal one, so the
        # game never waits for a bot forever
        self._fallback: Strategy = make_strategy("random", seed)
        self._refused = False
        #: lobby/bots/runtime/pool.py BotPool: a searching strategy's jobs go there (None: in process)
        self.pool = pool
        #: the decision key of the job a worker is thinking about, if any
        self._thinking: tuple[Any, ...] | None = None
        #: decisions that fell back to the heuristic (a worker died or timed out)
        self.fallbacks = 0

    @property
    def strategy_name(self) -> str:
        return self.strategy.name

    def reseed(self, seed: int) -> None:
        """Decide from `seed` from now on (a seeded game: same seed, same bot decisions)."""
        if self._made is not None and self.strategy is self._made:
            self.strategy = self._made = make_strategy(self._made.name, seed)
        self._fallback = make_strategy("random", seed)

    def receive(self, event: Event) -> None:
        """An event the table addressed to this bot."""
        if event.is_error:
            self.errors.append(event)
            log.warn("bot {bot}: refused {code}: {data}", bot=self.name, code=event.type,
                     data=event.data)
            if not self._refused:
                self._refused = True
                self._schedule()
            return
        if event.type.startswith("game-"):
            observe = getattr(self.strategy, "observe", None)
            if observe is not None:
                try:
                    observe(event.type[5:], event.data)
                except Exception:
                    log.failure("bot {bot}: strategy {strategy} could not follow {type}",
                                bot=self.name, strategy=self.strategy.name, type=event.type)
            return
        if event.type == "table-view" and event.data.get("you") == self.name:
            self._data = event.data
            self._schedule()

    def catch_up(self, events: list[Event]) -> None:
        """The game events this seat missed (`round_history`), followed before the first view."""
        for event in events:
            if event.type.startswith("game-"):
                self.receive(event)

    def stop(self) -> None:
        """The bot leaves: a pending decision is cancelled."""
        call, self._call = self._call, None
        if call is not None and call.active():
            call.cancel()
        self._data = None

    def pause(self) -> None:
        """The table is paused (nobody watches, no player online): a pending decision is
        cancelled; a worker's answer that comes meanwhile is dropped. The table sends the bot
        its view again when it goes on."""
        call, self._call = self._call, None
        if call is not None and call.active():
            call.cancel()

    @property
    def paused(self) -> bool:
        return bool(getattr(self.table, "bots_paused", False))

    def _schedule(self) -> None:
        if self.paused:
            return
        if self._call is not None and self._call.active():
            return
        self._call = self.clock.callLater(self.delay, self._act)

    def _seated_game(self) -> dict[str, Any] | None:
        """The running game's view of this bot's seat, or None (no game, or not seated)."""
        data = self._data
        if data is None or data.get("state") != "playing":
            return None
        game: dict[str, Any] | None = data.get("game")
        if not game or game.get("seat") is None:
            return None
        return game

    def _act(self) -> None:
        self._call = None
        if self.paused:
            return
        game = self._seated_game()
        if game is None:
            return
        if self._thinking is not None:
            return                      # a worker is on it; its answer looks at the newest view
        strategy = self._fallback if self._refused else self.strategy
        self._refused = False
        prepare = getattr(strategy, "prepare", None)
        try:
            if self.pool is not None and prepare is not None:
                answer = prepare(game)
                if isinstance(answer, Job):
                    self._think(answer, game)
                    return
                command = answer
            else:
                command = strategy.decide(game)
        except Exception:
            log.failure("bot {bot}: strategy {strategy} failed", bot=self.name,
                        strategy=strategy.name)
            return
        self._send(game, command)

    def _think(self, job: Job, game: dict[str, Any]) -> None:
        """The job goes to a worker; its answer (or, when the worker fails, the heuristic's)
        is sent if the bot's view still asks the same question, else the bot decides anew."""
        key = self._thinking = decision_key(game)

        def answered(answer: Any) -> None:
            self._answered(key, answer.command)

        def failed(failure: Any) -> None:
            # (the pool counts the fallbacks and logs them once per interval, not each)
            self.fallbacks += 1
            self._answered(key, job.heuristic)

        # the table and its budget group share the workers fairly with the others (pool.py)
        budget = getattr(self.table, "bot_budget", None)
        table, group = budget() if callable(budget) else (None, None)
        self.pool.think(job, table, group).addCallbacks(answered, failed)

    def _answered(self, key: tuple[Any, ...], command: str | None) -> None:
        self._thinking = None
        if self.paused:
            return                      # the view sent when the table goes on asks again
        game = self._seated_game()
        if game is None:
            return
        if decision_key(game) != key:
            self._schedule()            # the table moved on meanwhile: think again
            return
        self._send(game, command)

    def _send(self, game: dict[str, Any], command: str | None) -> None:
        if not command:
            return
        verb, _, rest = command.partition(" ")
        if (self._data or {}).get("bombwindow_left") and verb != "bomb" and my_turn_to(game) in ("play",
                                                                                  "dragon"):
            return                          # the window's end sends a new view
        self.sent.append(command)
        self.table.submit(self.name, verb, rest)
