"""The action journal: every accepted game action is committed to SQLite before its events leave.

A running table tells the journal what it must not lose:

    journal.start_table(no, options=..., players=..., head=match.record())   # at /start
    journal.record_action(no, seq, player, action)     # after each accepted match.apply
    journal.send(no, deliver_events)                   # the events of that action: held back
    journal.finish_table(no, finished_game(...))       # the game is over: stored, journal closed
    journal.end_table(no)                              # abandoned / reset: journal closed

Nothing is written at once. The first call in a reactor turn schedules one flush
(``clock.callLater(0, ...)``); the flush commits everything buffered in that turn as ONE
transaction (WAL: one commit, however many tables and actions). The outbox (``send``) holds a
table's outgoing events until every write that table buffered before them is committed, then
releases them in the order they were queued: a table's events never overtake its journal, and
a table with nothing pending sends at once. Tables do not wait for one another.

Where a transaction runs (``inline``, the server's ``--journal-inline``, on by default):

- **inline**: an ordinary batch (the entries of actions, ``start_table``, ``set_players``,
  ``set_extra``, ``record``: small INSERTs and UPDATEs) is committed at once on the reactor
  thread's own connection (``Store.reactor_connection()`` / ``run_here``, lobby/storage/store.py), and
  its events are released in the same call: no thread hop. That connection never waits: its
  ``busy_timeout`` is 0, so when the store's worker thread holds the write lock (an account
  write, a finished game) SQLite says "locked" at once, nothing is done, and that batch goes to
  the worker thread instead (``locked_fallbacks``). It never checkpoints
  (``wal_autocheckpoint = 0``): after every ``checkpoint_pages`` (1000) pages it estimates its
  commits added to the WAL (two per write and two per commit, scaled by the frames the last
  checkpoint found against that estimate: ``page_scale``, since the entries of a transaction
  share pages; without it a busy server asked for a checkpoint several times a second), the
  journal asks the worker
  thread for a PASSIVE checkpoint (``Store.checkpoint()``) and goes on committing meanwhile;
  if it committed during it, a second checkpoint copies those few frames with the journal's
  next transaction held behind it (~1 ms), so that the next commit writes the WAL from its
  beginning again: the WAL stays bounded and the checkpoints' writes and fsyncs stay off the
  reactor. Measured (``scripts/bench_journal.py``: the journal alone, a real file, 100
  tables, one action per reactor turn back to back, best of 5 passes, a shared machine at load
  1.7-2.2): 46-49 µs of CPU per action inline against 121-144 µs on the thread path.
- **the worker thread**: what can be big or slow: a batch with a ``finish_table`` or
  ``end_table`` (the finished game's records, statistics and ratings), the whole journal with
  ``fsync=True`` (every commit fsyncs: never on the reactor), every batch when ``inline`` is off
  or the store has no reactor connection (an in-memory database, a store on ``inline_runner``,
  whose runner runs on the calling thread anyway), and a batch that found the database locked.
  While a transaction is on the worker thread, what later turns buffer waits and goes as the
  next transaction as soon as that one is back (group commit): one transaction in flight at a
  time, on either path, so the batches commit in the order they were buffered and a table's
  entries are committed in order.

``interval`` (seconds; the server's ``--journal-interval``, default 5 ms; 0 here and in tests)
lets at most one transaction begin per interval, on both paths: a write that comes less than
``interval`` after the last transaction began waits for the rest of it, with everything else
that comes meanwhile. At human pace nearly every action comes in a reactor turn of its own; a
hand-off to the thread and back costs ~70-100 µs of CPU (the queue, the thread's wake-up, the
GIL, the reactor's wake-up by ``callFromThread``), an inline transaction ~17-30 µs. The
interval still pays inline, so it stays on both paths: at 500 actions/s on a timer over 100
tables (``scripts/bench_journal.py --pace 500``, best of 5 passes, load 0.9-2.5) the journal
cost 165-183 µs of CPU per action inline with a transaction per action and 136-170 with the
5 ms interval (a third of the transactions); the thread path 344 without, 227 with the interval.
The price: an action's events wait up to ``interval`` longer. An idle server still commits at
once (the last transaction began long ago).

If a commit fails (disk full, I/O error) the failure is logged as an error with the table
numbers, the held events are released anyway (the game goes on; only its crash safety is lost),
``failures`` counts it, and ``on_failure(table_numbers)`` is called: the server's Persistence
tells the players of those tables that their game cannot be saved. SQLite in WAL mode with
``synchronous = NORMAL`` (lobby/storage/store.py) keeps every commit across a killed process (SIGKILL);
``Journal(..., fsync=True)`` switches the worker thread's connection to ``synchronous = FULL``
and commits everything there, so commits also survive a power cut (one fsync per
transaction). The reactor thread's connection has ``synchronous = NORMAL`` too: its commits
survive a killed process like the thread's.

At start-up ``load_open_tables()`` gives, per table that was playing, what ``Match.replay``
needs (``OpenTable.record``), its players and options: the consistent prefix of its actions
(sequence numbers 1, 2, 3 ... without a gap).
"""
from __future__ import annotations

import json
import math
import sqlite3
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from twisted.internet.defer import Deferred, succeed
from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger, LogLevel
from twisted.python.failure import Failure

from lobby.storage.records import FinishedGame, GameRecord, Participant, insert_game
from lobby.storage.store import StoreLocked
from lobby.tichu import Action, Match

__all__ = ["Journal", "OpenTable", "load_open_tables"]

log = Logger(namespace="lobby.journal")


#: seconds between the summary lines of a run of failed commits (its first is logged whole); the
#: default of ``Journal.failure_summary`` (``--journal-failure-summary``)
FAILURE_SUMMARY = 60.0


@dataclass(frozen=True)
class OpenTable:
    """A table that was playing when the process stopped, as the journal holds it."""

    table_no: int
    options: dict[str, Any]              # the table options (TableOptions.as_dict())
    players: tuple[Participant, ...]     # by player index
    record: dict[str, Any]               # Match.record() form: options, seed, deals, actions
    extra: Any                           # what the table stored with set_extra / start_table
    started_at: float | None

    @property
    def last_seq(self) -> int:
        return len(self.record["actions"])

    def match(self) -> Match:
        """The match in the state of its last recorded action."""
        return Match.replay(self.record)


#: pages (estimated) the reactor thread's commits add to the WAL between two checkpoints on the
#: store's thread: SQLite's own default ``wal_autocheckpoint`` (1000 pages of 4 KiB: ~4 MB)
CHECKPOINT_PAGES = 1000


# ---- SQL (the reactor thread's connection or the store's worker thread) -----------------------
#: journal entries written by one INSERT statement at most (3 parameters each, within SQLite's
#: oldest limit of 999 parameters per statement)
ROWS_PER_INSERT = 300
_INSERT_ACTIONS = "INSERT OR REPLACE INTO journal_actions (table_no, seq, payload) VALUES "


def _insert_actions(conn: sqlite3.Connection, rows: list[Any]) -> None:
    """The entries of consecutive ``action`` operations, in their order, by one statement per
    ROWS_PER_INSERT of them: each statement is one release and one re-acquisition of the
    interpreter lock by the store's thread, and while the reactor thread is busy each
    re-acquisition waits up to the switch interval (5 ms): one statement per entry made a batch
    of N entries wait up to N x 5 ms, and the journal's one transaction in flight held up every
    table's events behind it (at 4,750 human-paced tables, p50 above a second while the server
    used 0.7 of its CPU). Within one statement the rows are written in order, as separate
    statements would write them (a later row of the same key replaces an earlier one)."""
    for first in range(0, len(rows), 3 * ROWS_PER_INSERT):
        chunk = rows[first:first + 3 * ROWS_PER_INSERT]
        conn.execute(_INSERT_ACTIONS + ", ".join(["(?, ?, ?)"] * (len(chunk) // 3)), chunk)


def _write_batch(conn: sqlite3.Connection, ops: Sequence[tuple[Any, ...]]) -> list[Any]:
    results: list[Any] = []
    rows: list[Any] = []                     # the entries of the actions not yet written
    for op in ops:
        kind = op[0]
        out: Any = None
        if kind == "action":
            rows.extend(op[1:])
            results.append(None)
            continue
        if rows:
            _insert_actions(conn, rows)
            rows = []
        if kind == "start":
            _, table_no, started_at, options, players, head, extra = op
            conn.execute("DELETE FROM journal_actions WHERE table_no = ?", (table_no,))
            conn.execute("INSERT OR REPLACE INTO journal_tables (table_no, started_at, options, "
                         "seats, head, extra) VALUES (?, ?, ?, ?, ?, ?)",
                         (table_no, started_at, options, players, head, extra))
        elif kind == "seats":
            conn.execute("UPDATE journal_tables SET seats = ? WHERE table_no = ?", (op[2], op[1]))
        elif kind == "extra":
            conn.execute("UPDATE journal_tables SET extra = ? WHERE table_no = ?", (op[2], op[1]))
        elif kind == "finish":
            _, table_no, game = op
            if game is not None and game.journal_actions is not None:
                try:
                    full, text = _with_journal_actions(conn, table_no, game)
                except ValueError as e:          # (this game only: the batch goes on)
                    out = _NotStored(e)
                else:
                    out = insert_game(conn, full, text)
            elif game is not None:
                out = insert_game(conn, game)
            conn.execute("DELETE FROM journal_actions WHERE table_no = ?", (table_no,))
            conn.execute("DELETE FROM journal_tables WHERE table_no = ?", (table_no,))
        elif kind == "pragma":
            pass                                   # handled before the transaction
        else:  # pragma: no cover - only this module builds ops
            raise ValueError(f"unknown journal operation {kind!r}")
        results.append(out)
    if rows:
        _insert_actions(conn, rows)
    return results


class _NotStored:
    """The result of a finishing whose game could not be stored (its Deferred fails with
    ``error``); the rest of the transaction commits."""

    def __init__(self, error: Exception) -> None:
        self.error = error


#: how the journal writes an entry: ``json.dumps({"p": player, "a": action_json})``
_ENTRY_HEAD = '{"p": '
_ENTRY_ACTION = ', "a": '


def _entry(player: int, action_text: str) -> str:
    """The journal entry of an action: the text of ``json.dumps({"p": player, "a": a})``,
    from ``action_text`` = ``json.dumps(a)``."""
    return _ENTRY_HEAD + str(int(player)) + _ENTRY_ACTION + action_text + "}"


def _reference_entry(player: int, action_text: str) -> str:
    """What `_entry` writes, the slow way (tests/world/test_journal.py checks them equal)."""
    return json.dumps({"p": int(player), "a": json.loads(action_text)})


def _with_journal_actions(conn: sqlite3.Connection, table_no: int,
                          game: FinishedGame) -> tuple[FinishedGame, str]:
    """``game`` with the actions of its record taken from the table's journal entries 1..N
    (``game.journal_actions``), and the record's JSON text: each action's text as the journal
    stored it, not encoded again."""
    expected = game.journal_actions or 0
    parts: list[str] = []
    for seq, payload in conn.execute(
            "SELECT seq, payload FROM journal_actions WHERE table_no = ? ORDER BY seq",
            (table_no,)):
        if seq != len(parts) + 1:
            break
        player, sep, action = payload[len(_ENTRY_HEAD):].partition(_ENTRY_ACTION)
        if not (payload.startswith(_ENTRY_HEAD) and sep and player.isdigit()
                and action.endswith("}")):
            data = json.loads(payload)       # (not the journal's own spelling: read it)
            player, action = str(int(data["p"])), json.dumps(data["a"]) + "}"
        parts.append("[" + player + ", " + action[:-1] + "]")
    if len(parts) != expected:
        raise ValueError(f"the journal of table {table_no} holds {len(parts)} of the game's "
                         f"{expected} actions")
    head = json.dumps(game.record)
    text = head[:-1] + (", " if len(head) > 2 else "") + '"actions": [' + ", ".join(parts) + "]}"
    return replace(game, record=json.loads(text), journal_actions=None), text


def load_open_tables(conn: sqlite3.Connection) -> list[OpenTable]:
    """Every table in the journal with the consistent prefix of its actions."""
    tables = []
    for table_no, started_at, options, seats, head, extra in conn.execute(
            "SELECT table_no, started_at, options, seats, head, extra FROM journal_tables "
            "ORDER BY table_no").fetchall():
        actions: list[list[Any]] = []
        for seq, payload in conn.execute(
                "SELECT seq, payload FROM journal_actions WHERE table_no = ? ORDER BY seq",
                (table_no,)):
            if seq != len(actions) + 1:
                log.warn("journal of table {table} has a gap before action {seq}; restoring the "
                         "first {count}", table=table_no, seq=seq, count=len(actions))
                break
            data = json.loads(payload)
            actions.append([int(data["p"]), data["a"]])
        record = dict(json.loads(head))
        record["actions"] = actions
        tables.append(OpenTable(
            int(table_no), json.loads(options),
            tuple(Participant.from_json(p) for p in json.loads(seats)), record,
            None if extra is None else json.loads(extra), started_at))
    return tables


# ---- the journal -------------------------------------------------------------------------------
class Journal:
    """Buffered, per-turn-grouped journal writes and the outbox that holds events behind them.

    ``store`` is a lobby.storage.store.Store (its worker thread runs the transactions), ``clock`` the
    reactor (``task.Clock`` in tests)."""

    def __init__(self, store: Any, clock: IReactorTime, *, fsync: bool = False,
                 on_failure: Callable[[list[int]], Any] | None = None,
                 interval: float = 0.0, inline: bool = True,
                 checkpoint_pages: int = CHECKPOINT_PAGES) -> None:
        self.store = store
        #: seconds between two hand-offs of a transaction to the store at least (see the module)
        self.interval = interval
        self._last_handed = -math.inf
        #: called with the table numbers of a batch that was not committed
        self.on_failure = on_failure
        self.clock = clock
        self.fsync = fsync
        self._buffer: list[tuple[Any, ...]] = []
        self._waiting: list[tuple[int, Deferred[Any]]] = []   # (index in buffer, result)
        self._call: IDelayedCall | None = None
        self._batch = 1                 # the batch being filled
        self._committed = 0             # every batch up to this one is finished
        self._last_batch: dict[int, int] = {}
        self._outbox: dict[int, deque[tuple[int, Callable[..., Any], tuple[Any, ...]]]] = {}
        self._flushed: dict[int, list[Deferred[None]]] = {}
        self._fsync_set = False
        self._out = 0                   # transactions handed to the worker thread, not back
        #: figures for tests and the operations page
        self.transactions = 0
        self.writes = 0
        self.failures = 0
        #: the clock's time of the last failed commit of the current run of failures (None:
        #: the last commit worked); /healthz reports 503 while it is set and recent
        self.failing_since: float | None = None
        self.last_failure: float | None = None
        #: seconds between the summary lines of a run of failed commits
        self.failure_summary = FAILURE_SUMMARY
        #: failures after the first of a run, not yet summarised in the log (one line a minute)
        self._unlogged = 0
        self._summarised = 0.0
        #: tables whose game lost a write (a failed commit) since its start: its record takes
        #: the match's own actions, not the journal's
        self.failed_tables: set[int] = set()
        #: writes handed to the store and not yet committed (or failed)
        self._in_flight = 0
        #: called with the seconds of each committed batch, from handing it to the store to its
        #: commit (the server's metrics); None: nobody asks
        self.on_commit: Callable[[float], Any] | None = None
        #: commit the ordinary batches on the reactor thread's own connection (the server's
        #: ``--journal-inline``; see the module); ignored with ``fsync`` and where the store
        #: has no such connection (in memory, ``inline_runner``)
        self.inline = inline
        #: pages the reactor thread's commits may add to the WAL before the journal asks the
        #: store's thread for a checkpoint (an estimate: two per write, a b-tree leaf and its
        #: parent, and two per commit, scaled by what the last checkpoint found: page_scale;
        #: 0: never)
        self.checkpoint_pages = checkpoint_pages
        self._pages = 0.0               # the estimate since the last checkpoint was asked for
        #: what the last checkpoint found of the estimate: the WAL's frames for each estimated
        #: page (a transaction writes its entries as a few multi-row INSERTs, so many entries
        #: share a page); the estimate is scaled by it, within [1/64, 4]
        self.page_scale = 1.0
        self._asked_at = 0.0            # the estimate when the last checkpoint was asked for
        self._checkpointing = False
        self._forced = False            # flush() asked while a transaction was out
        #: transactions run on the reactor thread / handed to the store's thread (committed or
        #: failed; of the latter, ``locked_fallbacks`` found the database locked inline),
        #: checkpoints asked for (metrics, tests)
        self.inline_transactions = 0
        self.thread_transactions = 0
        self.locked_fallbacks = 0
        self.checkpoints = 0

    # ---- what tables call ----------------------------------------------------------------------
    def start_table(self, table_no: int, *, options: dict[str, Any],
                    players: Sequence[Participant | tuple[str, str] | str],
                    head: dict[str, Any], extra: Any = None,
                    started_at: float | None = None) -> None:
        """A game starts at ``table_no``: ``head`` is ``match.record()`` of the new match (its
        actions, if any, are ignored), ``players`` by player index. Replaces whatever the
        journal held for that table number."""
        self.failed_tables.discard(table_no)
        people = [_participant(p) for p in players]
        head = {k: v for k, v in head.items() if k != "actions"}
        self._add(table_no, ("start", table_no, started_at, json.dumps(options),
                             json.dumps([p.to_json() for p in people]), json.dumps(head),
                             None if extra is None else json.dumps(extra)))

    def record(self, table_no: int, seq: int, payload: dict[str, Any]) -> None:
        """Journal entry ``seq`` (1, 2, 3, ...) of the table's game: ``{"p": player, "a":
        action.to_json()}``."""
        self._add(table_no, ("action", table_no, int(seq), json.dumps(payload)))

    def record_action(self, table_no: int, seq: int, player: int, action: Action) -> None:
        """``record`` for an accepted ``match.apply(player, action)``; ``seq`` is
        ``len(match.actions)`` after it."""
        self._add(table_no, ("action", table_no, int(seq),
                             _entry(player, json.dumps(action.to_json()))))

    def set_players(self, table_no: int,
                    players: Sequence[Participant | tuple[str, str] | str]) -> None:
        """Who plays now (a bot took over a seat, a player came back)."""
        people = [_participant(p) for p in players]
        self._add(table_no, ("seats", table_no, json.dumps([p.to_json() for p in people])))

    def set_extra(self, table_no: int, extra: Any) -> None:
        """Table state that is not in the match (JSON-safe), returned by load_open_tables."""
        self._add(table_no, ("extra", table_no, json.dumps(extra)))

    def finish_table(self, table_no: int, game: FinishedGame | None) -> Deferred[GameRecord | None]:
        """The game at ``table_no`` is over: store ``game`` (records, statistics, ratings) and
        close the table's journal in the same transaction, after the table's earlier writes.
        ``game`` None (abandoned, reset) only closes the journal. Fires with the GameRecord."""
        d: Deferred[Any] = Deferred()
        self._add(table_no, ("finish", table_no, game))
        self._waiting.append((len(self._buffer) - 1, d))
        return d

    def end_table(self, table_no: int) -> Deferred[GameRecord | None]:
        """Close the table's journal without storing a game."""
        return self.finish_table(table_no, None)

    def send(self, table_no: int, fn: Callable[..., Any], *args: Any) -> None:
        """Call ``fn(*args)`` once every write ``table_no`` buffered so far is committed (at once
        if there is none), after the table's earlier ``send`` calls."""
        needed = self._last_batch.get(table_no, 0)
        queue = self._outbox.get(table_no)
        if needed <= self._committed and not queue:
            fn(*args)
            return
        if queue is None:
            queue = self._outbox[table_no] = deque()
        queue.append((needed, fn, args))

    def pending(self, table_no: int) -> int:
        """How many ``send`` calls of the table are held back."""
        return len(self._outbox.get(table_no, ()))

    def backlog(self) -> tuple[int, int]:
        """(writes not yet committed: buffered or in the store's hands, ``send`` calls held
        back behind them) of every table."""
        return (len(self._buffer) + self._in_flight,
                sum(len(queue) for queue in self._outbox.values()))

    def flush(self) -> Deferred[None]:
        """Commit what is buffered now (shutdown, tests); fires when every batch so far is
        committed (or failed)."""
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
        if self._buffer and not self._out:
            self._flush()
        elif self._buffer:                   # (after the one in flight, at once: see _next)
            self._forced = True
        last = self._batch - 1 if not self._buffer else self._batch
        if last <= self._committed:
            return succeed(None)
        d: Deferred[None] = Deferred()
        self._flushed.setdefault(last, []).append(d)
        return d

    def load_open_tables(self) -> Deferred[list[OpenTable]]:
        """The tables that were playing (start-up restore)."""
        loaded: Deferred[list[OpenTable]] = self.store.run_query(load_open_tables)
        return loaded

    # ---- inside ----------------------------------------------------------------------------
    def _add(self, table_no: int, op: tuple[Any, ...]) -> None:
        self._buffer.append(op)
        self._last_batch[table_no] = self._batch
        if self._call is None:
            self._call = self.clock.callLater(self._wait(), self._turn_over)

    def _wait(self) -> float:
        """Seconds until the next transaction may begin (0: at the end of this reactor turn);
        the same on both paths (see the module)."""
        if self.interval <= 0:
            return 0
        return max(0.0, self._last_handed + self.interval - self.clock.seconds())

    def _here(self) -> sqlite3.Connection | None:
        """The reactor thread's connection the ordinary batches go to, or None (thread path)."""
        if not self.inline or self.fsync:
            return None
        connect = getattr(self.store, "reactor_connection", None)
        if connect is None:
            return None
        try:
            here: sqlite3.Connection = connect()
            return here
        except (sqlite3.Error, OSError):
            self.inline = False              # (once: every transaction on the thread from now)
            log.failure("journal: the reactor thread's database connection cannot be opened; "
                        "every journal transaction goes to the database thread",
                        level=LogLevel.error)
            return None

    def _turn_over(self) -> None:
        self._call = None
        if self._buffer and not self._out:
            self._flush()              # (else: the next transaction when this one is back)

    def _next(self) -> None:
        """A transaction is back: what was buffered meanwhile goes now."""
        self._out -= 1
        if self._buffer and not self._out:
            wait = 0.0 if self._forced else self._wait()
            self._forced = False
            if wait > 0:                 # not yet: the call of _add (or a new one) flushes
                if self._call is None or not self._call.active():
                    self._call = self.clock.callLater(wait, self._turn_over)
                return
            if self._call is not None and self._call.active():
                self._call.cancel()
            self._call = None
            self._flush()

    def _flush(self) -> None:
        ops, self._buffer = self._buffer, []
        waiting, self._waiting = self._waiting, []
        batch = self._batch
        self._batch += 1
        started = self._last_handed = self.clock.seconds()
        here = None if waiting else self._here()     # (a finishing: the thread, see the module)
        if here is not None:
            try:
                results = self.store.run_here(_write_batch, ops)
            except StoreLocked:
                self.locked_fallbacks += 1       # the store's thread writes: it goes there
            except Exception:
                self.inline_transactions += 1    # (tried here: the same failure path)
                self._failed(Failure(), ops, batch, waiting)
                return
            else:
                self.inline_transactions += 1
                self._pages += (2 * len(ops) + 2) * self.page_scale
                self._committed_batch(results, batch, ops, waiting, started)
                if self._pages >= self.checkpoint_pages > 0 and not self._checkpointing:
                    self._checkpoint()
                return
        if self.fsync and not self._fsync_set:
            self._fsync_set = True
            self.store.run_query(_full_sync)
        self._in_flight += len(ops)
        self._out += 1
        self.thread_transactions += 1
        d = self.store.run_transaction(_write_batch, ops)
        d.addCallbacks(self._thread_committed, self._thread_failed,
                       callbackArgs=(batch, ops, waiting, started),
                       errbackArgs=(batch, ops, waiting))
        d.addBoth(self._back)

    def _thread_committed(self, results: list[Any], batch: int, ops: list[tuple[Any, ...]],
                          waiting: list[tuple[int, Deferred[Any]]], handed: float) -> None:
        self._in_flight -= len(ops)
        self._committed_batch(results, batch, ops, waiting, handed)

    def _thread_failed(self, failure: Failure, batch: int, ops: list[tuple[Any, ...]],
                       waiting: list[tuple[int, Deferred[Any]]]) -> None:
        self._in_flight -= len(ops)
        self._failed(failure, ops, batch, waiting)

    def _back(self, result: Any) -> None:
        """A transaction handed to the store's thread is back (committed or not)."""
        try:
            if isinstance(result, Failure):
                log.failure("journal: handling a committed batch failed", result)
        finally:
            self._next()

    def _checkpoint(self) -> None:
        """Ask the store's thread for a PASSIVE checkpoint of what the reactor thread's commits
        put in the WAL (that connection never checkpoints itself); the journal goes on
        committing meanwhile."""
        self._checkpointing = True
        self._asked_at, self._pages = self._pages, 0.0
        self.checkpoints += 1
        self.store.checkpoint().addBoth(self._checkpointed, self.inline_transactions)

    def _checkpointed(self, result: Any, commits_before: int) -> None:
        """SQLite starts the WAL file over (writes it from its beginning) only at a commit
        that finds every frame in it copied; a commit during the checkpoint added frames it
        did not copy. Then one more checkpoint, of those few frames, with the journal's next
        transaction held behind it (as behind a transaction in flight), so that the next
        commit starts the WAL over: without it, a WAL written during every checkpoint would
        grow without end."""
        if isinstance(result, Failure):
            self._checkpointing = False
            log.failure("journal: the checkpoint of the database's WAL failed", result,
                        level=LogLevel.warn)
            return
        frames = result[1] if isinstance(result, tuple) and len(result) == 3 else None
        if isinstance(frames, int) and frames > 0 and self._asked_at > 0:
            # the WAL started over after the last checkpoint (see below): its frames are what
            # the commits since then wrote, against what was estimated for them
            self.page_scale = min(4.0, max(1 / 64, self.page_scale * frames / self._asked_at))
        if self.inline_transactions == commits_before:
            self._checkpointing = False
            return
        self.checkpoints += 1
        self._out += 1
        self.store.checkpoint().addBoth(self._caught_up)

    def _caught_up(self, result: Any) -> None:
        self._checkpointing = False
        if isinstance(result, Failure):
            log.failure("journal: the checkpoint of the database's WAL failed", result,
                        level=LogLevel.warn)
        self._next()

    def _committed_batch(self, results: list[Any], batch: int, ops: list[tuple[Any, ...]],
                         waiting: list[tuple[int, Deferred[Any]]], handed: float = 0.0) -> None:
        self.transactions += 1
        self.writes += len(ops)
        if self.failing_since is not None:
            if self._unlogged:           # (a warning: the trouble is over, its count stays)
                log.warn("journal: commits work again; {count} more batches failed since the "
                         "last line", count=self._unlogged)
            else:
                log.warn("journal: commits work again")
            self._unlogged = 0
            self.failing_since = None
        if self.on_commit is not None:
            self.on_commit(self.clock.seconds() - handed)
        self._done(batch)
        for index, d in waiting:
            result = results[index]
            if isinstance(result, _NotStored):
                d.errback(Failure(result.error))
            else:
                d.callback(result)

    def _failed(self, failure: Failure, ops: list[tuple[Any, ...]], batch: int,
                waiting: list[tuple[int, Deferred[Any]]]) -> None:
        self.failures += 1
        tables = sorted({op[1] for op in ops})
        self.failed_tables.update(tables)
        now = self.clock.seconds()
        self.last_failure = now
        if self.failing_since is None:   # the first of a run: its traceback whole
            self.failing_since = self._summarised = now
            self._unlogged = 0
            log.failure("journal: a batch of {count} writes for tables {tables} was NOT "
                        "committed; those tables cannot be restored after a crash", failure,
                        level=LogLevel.error, count=len(ops), tables=tables)
        else:                            # then one summary line a minute
            self._unlogged += 1
            if now - self._summarised >= self.failure_summary:
                self._summarise("journal: commits still fail", failure.getErrorMessage())
        self._done(batch)
        if self.on_failure is not None:
            try:
                self.on_failure(tables)
            except Exception:
                log.failure("journal: telling the players of tables {tables} failed",
                            tables=tables)
        for _, d in waiting:
            d.errback(failure)

    def _summarise(self, what: str, error: str) -> None:
        if self._unlogged:
            log.error("{what}: {count} more batches NOT committed since the last line ({error})",
                      what=what, count=self._unlogged, error=error)
        self._unlogged = 0
        self._summarised = self.clock.seconds()

    def _done(self, batch: int) -> None:
        self._committed = max(self._committed, batch)
        for table_no in list(self._outbox):
            queue = self._outbox.get(table_no)
            while queue and queue[0][0] <= self._committed:
                _, fn, args = queue.popleft()
                try:
                    fn(*args)
                except Exception:
                    log.failure("journal: releasing events of table {table} failed",
                                table=table_no)
            if queue is not None and not queue and self._outbox.get(table_no) is queue:
                del self._outbox[table_no]
        for b in [b for b in self._flushed if b <= self._committed]:
            for d in self._flushed.pop(b):
                d.callback(None)
        for table_no in [t for t, b in self._last_batch.items() if b <= self._committed]:
            del self._last_batch[table_no]


def _full_sync(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA synchronous = FULL")


def _participant(p: Participant | tuple[str, str] | str) -> Participant:
    if isinstance(p, Participant):
        return p
    if isinstance(p, str):
        return Participant(p)
    return Participant(p[0], p[1])
