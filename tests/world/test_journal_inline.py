"""The journal's inline path (lobby/storage/journal.py, lobby/storage/store.py
``reactor_connection``): ordinary batches committed on the reactor thread's own SQLite
connection, events released in the same call and in order; a locked database sends the batch to
the store's thread at once, without waiting and without reordering; checkpoints on the store's
thread keep the WAL bounded; a failed inline commit takes the journal's failure path; finishings
and ``fsync`` stay on the thread; in-memory and inline-runner stores keep the thread path.

Real SQLite files in a temporary folder; ``task.Clock`` for the reactor, a runner that holds
the store thread's calls until the test releases them (``HeldRunner``) or runs them at once
(``immediate``: a worker thread that is always free), and the real reactor with the real worker
thread where the thread itself matters."""
from __future__ import annotations

import os
import sqlite3
import struct
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import task
from twisted.internet.defer import Deferred
from twisted.python.threadable import isInIOThread

from conftest import fired, logged_events, within
from game_support import random_game
from lobby.storage.journal import Journal
from lobby.storage.records import finished_game
from lobby.storage.store import REACTOR_BUSY_TIMEOUT, Store, inline_runner
from lobby.tichu.match import Match

PLAYERS = ["Alice", "Bob", ("Bot1~heuristic", "bot"), "Dave"]


class HeldRunner:
    """A store runner whose calls wait until the test releases them (the worker thread busy)."""

    def __init__(self) -> None:
        self.held: list[tuple[Any, tuple[Any, ...], Deferred[Any]]] = []

    def __call__(self, f: Any, *args: Any, **kwargs: Any) -> Deferred[Any]:
        d: Deferred[Any] = Deferred()
        self.held.append((f, args, d))
        return d

    def release(self) -> None:
        f, args, d = self.held.pop(0)
        try:
            result = f(*args)
        except Exception as e:
            d.errback(e)
        else:
            d.callback(result)

    def release_all(self) -> None:
        while self.held:
            self.release()


def immediate(f: Any, *args: Any, **kwargs: Any) -> Deferred[Any]:
    """A worker thread that is always free: runs ``f`` at once (unlike ``inline_runner``, the
    store treats it as a thread of its own, so the journal gets a reactor connection)."""
    return inline_runner(f, *args, **kwargs)


def held_store(path: Path) -> tuple[Store, HeldRunner]:
    runner = HeldRunner()
    store = Store(str(path), runner)
    opened = store.open()
    runner.release_all()                       # the schema, before the test
    assert opened.called
    return store, runner


def rows(path: str, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def entries(path: str, table: int) -> list[int]:
    return [s for (s,) in rows(path, f"SELECT seq FROM journal_actions WHERE table_no = {table} "
                                     "ORDER BY seq")]


def test_ordinary_batches_commit_inline_and_release_their_events_in_order(tmp_path: Path
                                                                           ) -> None:
    store, runner = held_store(tmp_path / "inline.sqlite3")
    clock = task.Clock()
    journal = Journal(store, clock)
    sent: list[tuple[int, str, list[int]]] = []

    def deliver(table: int, what: str) -> None:
        # whatever a table sends, its journal entries before it are committed (another
        # connection sees them)
        sent.append((table, what, entries(store.path, table)))

    match = random_game(2, until_actions=6)
    for t in (1, 2):
        journal.start_table(t, options={}, players=PLAYERS, head=match.record(),
                            extra={"host": "Alice"})
    journal.record_action(1, 1, *match.actions[0])
    journal.send(1, deliver, 1, "first")
    journal.record_action(1, 2, *match.actions[1])
    journal.send(1, deliver, 1, "second")
    journal.send(3, deliver, 3, "nothing pending: at once")
    assert sent == [(3, "nothing pending: at once", [])]
    clock.advance(0)                           # the end of the turn: committed, released
    assert runner.held == []                   # nothing went to the store's thread
    assert journal.inline_transactions == 1 and journal.thread_transactions == 0
    assert sent[1:] == [(1, "first", [1, 2]), (1, "second", [1, 2])]
    for seq in (3, 4):                         # later turns: one inline transaction each
        journal.record_action(1, seq, *match.actions[seq - 1])
        journal.record_action(2, seq - 2, *match.actions[seq - 3])
        journal.send(1, deliver, 1, f"after {seq}")
        journal.send(2, deliver, 2, f"after {seq - 2}")
        clock.advance(0)
    assert runner.held == [] and journal.inline_transactions == 3
    assert sent[3:] == [(1, "after 3", [1, 2, 3]), (2, "after 1", [1]),
                        (1, "after 4", [1, 2, 3, 4]), (2, "after 2", [1, 2])]
    journal.set_players(2, ["Alice", "Bob", ("Bot2~random", "bot"), "Dave"])
    journal.set_extra(2, {"host": "Bob"})
    clock.advance(0)
    assert journal.inline_transactions == 4 and runner.held == []
    loaded = journal.load_open_tables()           # (a read: the store's thread)
    runner.release_all()
    tables = fired(loaded)
    assert [(t.table_no, t.last_seq) for t in tables] == [(1, 4), (2, 2)]
    assert tables[1].extra == {"host": "Bob"} and tables[1].players[2].name == "Bot2~random"
    # the reactor's connection never waits and never checkpoints
    here = store.reactor_connection()
    assert here is not None
    assert here.execute("PRAGMA busy_timeout").fetchone() == (REACTOR_BUSY_TIMEOUT,) == (0,)
    assert here.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    assert here.execute("PRAGMA synchronous").fetchone() == (1,)      # NORMAL
    closed = store.close()
    runner.release_all()
    assert closed.called


def test_a_locked_database_sends_the_batch_to_the_thread_at_once_in_order(tmp_path: Path
                                                                          ) -> None:
    """The store's thread holds the write lock (here: another connection's open write
    transaction): the inline attempt is refused at once, the batch goes to the thread, later
    turns wait for it (one transaction in flight), and nothing overtakes: table 3's game starts
    in the refused batch and its first actions come in the next one, which would be deleted by
    that start if it committed first."""
    store, runner = held_store(tmp_path / "locked.sqlite3")
    clock = task.Clock()
    journal = Journal(store, clock)
    sent: list[str] = []
    match = random_game(4, until_actions=4)
    journal.start_table(1, options={}, players=PLAYERS, head=match.record())
    clock.advance(0)
    assert journal.inline_transactions == 1

    blocker = sqlite3.connect(store.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")         # the write lock, as the store's thread takes it
    journal.record_action(1, 1, *match.actions[0])
    journal.send(1, sent.append, "1:1")
    journal.start_table(3, options={}, players=PLAYERS, head=match.record())
    journal.send(3, sent.append, "3:start")
    clock.advance(0)                           # refused at once: handed to the thread
    assert journal.locked_fallbacks == 1 and journal.thread_transactions == 1
    assert len(runner.held) == 1 and sent == []
    journal.send(2, sent.append, "2: nothing pending")     # other tables do not wait
    assert sent == ["2: nothing pending"]
    journal.record_action(1, 2, *match.actions[1])
    journal.send(1, sent.append, "1:2")
    journal.record_action(3, 1, *match.actions[0])
    journal.record_action(3, 2, *match.actions[1])
    journal.send(3, sent.append, "3:2")
    clock.advance(0)                           # one in flight: this turn waits for it
    assert journal.inline_transactions == 1 and len(runner.held) == 1
    assert sent == ["2: nothing pending"]
    blocker.execute("COMMIT")
    blocker.close()
    runner.release()                           # the thread commits; the next batch goes inline
    assert runner.held == []
    assert journal.inline_transactions == 2 and journal.thread_transactions == 1
    assert sent == ["2: nothing pending", "1:1", "3:start", "1:2", "3:2"]
    assert entries(store.path, 1) == [1, 2] and entries(store.path, 3) == [1, 2]
    closed = store.close()
    runner.release_all()
    assert closed.called


def test_finishing_a_table_and_fsync_mode_stay_on_the_thread(tmp_path: Path) -> None:
    store, runner = held_store(tmp_path / "finish.sqlite3")
    clock = task.Clock()
    journal = Journal(store, clock)
    match = random_game(6, rounds=1)
    journal.start_table(2, options={}, players=PLAYERS, head=Match(match.options,
                                                                     seed=match.seed).record())
    for seq, (player, action) in enumerate(match.actions, 1):
        journal.record_action(2, seq, player, action)
    clock.advance(0)
    assert journal.inline_transactions == 1 and runner.held == []
    done = journal.finish_table(2, finished_game(match, PLAYERS, table_no=2, ended_at=9.0,
                                                 from_journal=True))
    clock.advance(0)
    assert journal.thread_transactions == 1 and len(runner.held) == 1 and not done.called
    runner.release()
    assert fired(done).game_id == 1
    abandoned = journal.end_table(5)           # (closing a journal: the thread too)
    clock.advance(0)
    assert journal.thread_transactions == 2
    runner.release()
    assert fired(abandoned) is None
    assert rows(store.path, "SELECT count(*) FROM journal_actions") == [(0,)]

    safe = Journal(store, clock, fsync=True)   # every commit fsyncs: never on the reactor
    safe.start_table(7, options={}, players=PLAYERS, head=match.record())
    safe.record_action(7, 1, *match.actions[0])
    clock.advance(0)
    assert safe.inline_transactions == 0 and safe.thread_transactions == 1
    assert len(runner.held) == 2               # synchronous = FULL, then the transaction
    runner.release_all()
    assert safe.transactions == 1
    sync = store.run_query(lambda c: c.execute("PRAGMA synchronous").fetchone())
    runner.release()
    assert fired(sync) == (2,)                 # FULL on the store's thread's connection
    closed = store.close()
    runner.release_all()
    assert closed.called


@pytest.mark.parametrize("path", [":memory:", "file"])
def test_an_inline_runner_store_and_a_memory_store_keep_the_thread_path(tmp_path: Path,
                                                                        path: str) -> None:
    """An in-memory database cannot be shared with a second connection, and a store on
    ``inline_runner`` already runs on the calling thread: no reactor connection; the journal
    commits through the store's runner (at once) as before."""
    store = Store(":memory:" if path == ":memory:" else str(tmp_path / "s.sqlite3"),
                  inline_runner)
    fired(store.open())
    clock = task.Clock()
    journal = Journal(store, clock)
    sent: list[str] = []
    match = random_game(2, until_actions=2)
    journal.start_table(1, options={}, players=PLAYERS, head=match.record())
    journal.record_action(1, 1, *match.actions[0])
    journal.send(1, sent.append, "after 1")
    clock.advance(0)
    assert store.reactor_connection() is None
    assert sent == ["after 1"]
    assert journal.inline_transactions == 0 and journal.thread_transactions == 1
    assert fired(journal.load_open_tables())[0].last_seq == 1
    fired(store.close())


def _wal_size(path: str) -> int:
    try:
        return os.path.getsize(path + "-wal")
    except FileNotFoundError:
        return 0


def _write_turns(path: Path, checkpoint_pages: int, turns: int = 300, tables: int = 6) -> int:
    """``turns`` inline transactions of one action per table; the largest the WAL file got."""
    store = Store(str(path), immediate)
    fired(store.open())
    clock = task.Clock()
    journal = Journal(store, clock, checkpoint_pages=checkpoint_pages)
    head = Match(seed=1).record()
    for t in range(1, tables + 1):
        journal.start_table(t, options={}, players=PLAYERS, head=head)
    clock.advance(0)
    largest = 0
    for seq in range(1, turns + 1):
        for t in range(1, tables + 1):
            journal.record(t, seq, {"p": seq % 4, "a": {"a": "pass"}, "pad": "x" * 300})
        clock.advance(0)
        largest = max(largest, _wal_size(store.path))
    assert journal.inline_transactions == turns + 1 and journal.failures == 0
    assert (journal.checkpoints > 0) == (checkpoint_pages > 0)
    tables_back = fired(journal.load_open_tables())
    assert [t.last_seq for t in tables_back] == [turns] * tables
    fired(store.close())
    return largest


def test_checkpoints_on_the_store_s_thread_keep_the_wal_bounded(tmp_path: Path) -> None:
    """The reactor's connection never checkpoints (``wal_autocheckpoint = 0``); the journal
    asks the store's thread for one every ``checkpoint_pages`` (estimated) pages, so the WAL
    file stays within about that many pages; without them it grows with every commit."""
    pages = 60
    page_size = 4096 + 24                      # a WAL frame: a page and its header
    bounded = _write_turns(tmp_path / "bounded.sqlite3", pages)
    unbounded = _write_turns(tmp_path / "unbounded.sqlite3", 0)
    assert bounded <= 3 * pages * page_size, bounded
    assert unbounded > 5 * bounded, (unbounded, bounded)


def test_the_estimate_of_pages_learns_from_the_checkpoints(tmp_path: Path) -> None:
    """The entries of one transaction (their tables' b-tree leaves, one parent) write fewer
    frames than two pages per entry: the first checkpoint finds that, the journal scales its
    estimate down, and later checkpoints come as often as the WAL really grows (still
    bounded)."""
    store = Store(str(tmp_path / "scale.sqlite3"), immediate)
    fired(store.open())
    clock = task.Clock()
    journal = Journal(store, clock, checkpoint_pages=200)
    head = Match(seed=1).record()
    tables = 40
    for t in range(1, tables + 1):
        journal.start_table(t, options={}, players=PLAYERS, head=head)
    clock.advance(0)
    largest = 0
    turns = 150
    for seq in range(1, turns + 1):
        for t in range(1, tables + 1):
            journal.record(t, seq, {"p": seq % 4, "a": {"a": "pass"}})
        clock.advance(0)
        largest = max(largest, _wal_size(store.path))
    # unscaled: (2 x 40 + 2) estimated pages a turn, 12,300 in all: ~61 checkpoints
    assert journal.page_scale < 0.8, journal.page_scale
    assert 2 <= journal.checkpoints < 45, journal.checkpoints
    assert largest <= 4 * 200 * (4096 + 24), largest   # about checkpoint_pages, and a turn
    assert [t.last_seq for t in fired(journal.load_open_tables())] == [turns] * tables
    fired(store.close())


def _wal_frames(path: str) -> int:
    """The frames in the WAL now: ``mxFrame`` of the wal-index header at the start of the -shm
    file (offset 16, native byte order; sqlite.org/walformat.html), read without touching the
    database."""
    with open(path + "-shm", "rb") as shm:
        return int(struct.unpack_from("=I", shm.read(32), 16)[0])


def test_commits_during_a_checkpoint_get_a_second_one_so_the_wal_starts_over(tmp_path: Path
                                                                             ) -> None:
    """SQLite writes the WAL from its beginning again only at a commit that finds every frame
    copied: after a checkpoint during which the journal committed, a second checkpoint runs
    with the journal's next transaction held behind it; then the next commit starts the WAL
    over (a WAL written during every checkpoint would otherwise grow without end)."""
    store, runner = held_store(tmp_path / "catch-up.sqlite3")
    clock = task.Clock()
    journal = Journal(store, clock, checkpoint_pages=40)
    head = Match(seed=1).record()
    for t in (1, 2):
        journal.start_table(t, options={}, players=PLAYERS, head=head)
    clock.advance(0)
    seq = 0
    while not runner.held:                     # until the journal asks for a checkpoint
        seq += 1
        journal.record(1, seq, {"p": 0, "a": {"a": "pass"}, "pad": "z" * 500})
        clock.advance(0)
    assert journal.checkpoints == 1 and len(runner.held) == 1
    for _ in range(3):                         # commits while the checkpoint is out: go on
        seq += 1
        journal.record(1, seq, {"p": 0, "a": {"a": "pass"}, "pad": "z" * 500})
        clock.advance(0)
    assert journal.inline_transactions == seq + 1
    frames = _wal_frames(store.path)
    assert frames >= 40
    runner.release()                           # the checkpoint; a second one is asked for
    assert journal.checkpoints == 2 and len(runner.held) == 1
    sent: list[str] = []
    journal.record(2, 1, {"p": 1, "a": {"a": "pass"}})
    journal.send(2, sent.append, "held behind the second checkpoint")
    clock.advance(0)
    assert sent == [] and journal.inline_transactions == seq + 1
    assert _wal_frames(store.path) == frames    # (nothing committed meanwhile)
    runner.release()                           # done: the held batch commits, inline
    assert sent == ["held behind the second checkpoint"]
    assert journal.inline_transactions == seq + 2
    assert _wal_frames(store.path) < 10 < frames     # the WAL started over
    assert entries(store.path, 1) == list(range(1, seq + 1)) and entries(store.path, 2) == [1]
    closed = store.close()
    runner.release_all()
    assert closed.called


def test_a_failed_inline_commit_takes_the_failure_path(tmp_path: Path) -> None:
    """A real SQLITE_FULL on the reactor's connection (its ``max_page_count`` reached: what a
    full disk gives): logged as an error with the table numbers, nothing of the batch
    committed, its held events released, ``failures`` counted, ``on_failure`` called; the next
    batch commits inline again."""
    store, runner = held_store(tmp_path / "full.sqlite3")
    clock = task.Clock()
    told: list[list[int]] = []
    journal = Journal(store, clock, on_failure=told.append)
    match = random_game(2, until_actions=3)
    for t in (4, 6):
        journal.start_table(t, options={}, players=PLAYERS, head=match.record())
    clock.advance(0)
    here = store.reactor_connection()
    assert here is not None
    pages = here.execute("PRAGMA page_count").fetchone()[0]
    here.execute(f"PRAGMA max_page_count = {pages}")
    sent: list[str] = []
    for t in (4, 6):
        for seq in range(1, 40):               # more than the pages left
            journal.record(t, seq, {"p": 0, "a": {"a": "pass"}, "pad": "y" * 2000})
        journal.send(t, sent.append, f"table {t}")
    with logged_events() as events:
        clock.advance(0)
    assert journal.failures == 1 and told == [[4, 6]]
    assert sent == ["table 4", "table 6"]
    assert journal.failed_tables == {4, 6} and runner.held == []
    errors = [e for e in events if "NOT committed" in e.get("log_format", "")]
    assert len(errors) == 1 and errors[0]["tables"] == [4, 6]
    assert "full" in str(errors[0]["log_failure"].value)
    assert entries(store.path, 4) == [] and entries(store.path, 6) == []   # rolled back
    here.execute("PRAGMA max_page_count = 1073741823")
    journal.record(4, 1, {"p": 0, "a": {"a": "pass"}})
    journal.send(4, sent.append, "table 4 again")
    clock.advance(0)
    assert sent[-1] == "table 4 again" and entries(store.path, 4) == [1]
    assert journal.failures == 1 and journal.inline_transactions == 3
    closed = store.close()
    runner.release_all()
    assert closed.called


def test_a_closed_store_fails_as_before(tmp_path: Path) -> None:
    """After ``close()`` there is no reactor connection: the batch goes to the store's runner,
    which fails (the failure path), and the events are released."""
    store = Store(str(tmp_path / "closed.sqlite3"), immediate)
    fired(store.open())
    clock = task.Clock()
    journal = Journal(store, clock)
    journal.start_table(1, options={}, players=PLAYERS, head=Match(seed=1).record())
    clock.advance(0)
    assert journal.inline_transactions == 1
    journal.record(1, 1, {"p": 0, "a": {"a": "pass"}})
    sent: list[str] = []
    journal.send(1, sent.append, "released")
    fired(store.close())
    clock.advance(0)
    assert store.reactor_connection() is None
    assert journal.failures == 1 and sent == ["released"] and journal.thread_transactions == 1


@pytest_twisted.ensureDeferred
async def test_with_the_real_thread_the_inline_commits_run_on_the_reactor_thread(
        tmp_path: Path) -> None:
    from twisted.internet import reactor
    store = Store.threaded(str(tmp_path / "threaded.sqlite3"), reactor)
    await within(store.open())
    where: dict[str, list[bool]] = {"here": [], "thread": []}
    run_here, transaction = store.run_here, store._transaction

    def spy_here(fn: Any, *args: Any) -> Any:
        where["here"].append(isInIOThread())
        return run_here(fn, *args)

    def spy_thread(fn: Any, args: Any) -> Any:
        where["thread"].append(isInIOThread())
        return transaction(fn, args)

    store.run_here = spy_here  # type: ignore[method-assign]
    store._transaction = spy_thread  # type: ignore[method-assign]
    journal = Journal(store, reactor, checkpoint_pages=20)
    sent: list[int] = []
    try:
        match = random_game(3, until_actions=50)
        journal.start_table(1, options={}, players=PLAYERS, head=match.record())
        for seq, (player, action) in enumerate(match.actions, 1):
            journal.record_action(1, seq, player, action)
            journal.send(1, sent.append, seq)
            if seq % 10 == 0:
                assert sent == list(range(1, seq - 9))      # this turn's: held back
                await within(journal.flush())              # committed at once, inline
                assert sent == list(range(1, seq + 1))
        assert where == {"here": [True] * 5, "thread": []}
        assert journal.checkpoints >= 1           # asked of the worker thread
        tables = await within(journal.load_open_tables())
        assert tables[0].last_seq == 50
        # a finished game goes to the worker thread
        await within(journal.end_table(1))
        assert where["thread"] == [False]
    finally:
        await within(store.close())


def test_a_reactor_connection_that_cannot_be_opened_leaves_the_thread_path(tmp_path: Path
                                                                           ) -> None:
    """(The store's folder moved away after the store opened: a new connection to its path
    cannot be opened.) Logged once as an error; every transaction goes to the store's thread,
    which still has its open connection."""
    folder = tmp_path / "db"
    folder.mkdir()
    store, runner = held_store(folder / "moved.sqlite3")
    folder.rename(tmp_path / "elsewhere")
    clock = task.Clock()
    journal = Journal(store, clock)
    sent: list[str] = []
    journal.start_table(1, options={}, players=PLAYERS, head=Match(seed=1).record())
    journal.send(1, sent.append, "after the start")
    with logged_events() as events:
        clock.advance(0)
    assert [e for e in events if "cannot be opened" in e.get("log_format", "")]
    assert journal.inline is False and journal.inline_transactions == 0
    assert journal.thread_transactions == 1 and len(runner.held) == 1
    runner.release()
    assert sent == ["after the start"] and journal.failures == 0
    journal.record(1, 1, {"p": 0, "a": {"a": "pass"}})
    clock.advance(0)
    assert journal.thread_transactions == 2
    runner.release_all()
    closed = store.close()
    runner.release_all()
    assert closed.called


def test_the_server_option_turns_the_inline_path_off_and_is_on_by_default() -> None:
    from protocol.process.options import parse_args
    assert parse_args([]).journal_inline is True
    assert parse_args(["--no-journal-inline"]).journal_inline is False
    assert parse_args(["--journal-inline"]).journal_inline is True
    assert Journal(None, task.Clock()).inline is True          # the library's default too


def test_the_journal_s_server_options_reach_the_journal() -> None:
    from lobby.storage.journal import CHECKPOINT_PAGES
    from protocol.process.options import configure_journal, parse_args
    journal = Journal(None, task.Clock())
    configure_journal(journal, parse_args([]))
    assert (journal.fsync, journal.checkpoint_pages, journal.interval) == \
        (False, CHECKPOINT_PAGES, 0.005)
    configure_journal(journal, parse_args(["--journal-fsync", "--journal-checkpoint-pages", "7",
                                           "--journal-interval", "0"]))
    assert (journal.fsync, journal.checkpoint_pages, journal.interval) == (True, 7, 0.0)
    for bad in ("0", "-3", "many"):
        with pytest.raises(SystemExit):
            parse_args(["--journal-checkpoint-pages", bad])


def test_flush_while_a_transaction_is_on_the_thread_commits_after_it(tmp_path: Path) -> None:
    """``flush()`` (shutdown) while a finishing is on the store's thread: what is buffered
    does not overtake it inline (the finishing deletes the table's entries; a new game's
    entries committed before it would be deleted too); it commits as soon as the finishing is
    back, and the flush fires then."""
    store, runner = held_store(tmp_path / "flush.sqlite3")
    clock = task.Clock()
    journal = Journal(store, clock, interval=0.005)
    match = random_game(5, until_actions=3)
    journal.start_table(1, options={}, players=PLAYERS, head=match.record())
    journal.record_action(1, 1, *match.actions[0])
    clock.advance(0)
    ended = journal.end_table(1)
    clock.advance(0.01)
    assert len(runner.held) == 1                # the closing, on the thread
    journal.start_table(1, options={}, players=PLAYERS, head=match.record())   # a new game
    journal.record_action(1, 1, *match.actions[0])
    flushed = journal.flush()
    assert not flushed.called and journal.inline_transactions == 1
    runner.release()                            # back: the new game commits at once, inline
    assert fired(ended) is None and fired(flushed) is None
    assert journal.inline_transactions == 2 and runner.held == []
    assert entries(store.path, 1) == [1]
    closed = store.close()
    runner.release_all()
    assert closed.called
