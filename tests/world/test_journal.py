"""The action journal (lobby/storage/journal.py): one transaction per reactor turn, events held until
the writes before them are committed, restore data for Match.replay, and no torn records after
a SIGKILL."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from hypothesis import given
from hypothesis import strategies as st
from twisted.internet import task
from twisted.python.threadable import isInIOThread

from conftest import fired, within
from game_support import random_game
from lobby.storage.journal import Journal, _entry, _reference_entry
from lobby.storage.records import GameArchive, Participant, finished_game
from lobby.storage.store import Store, inline_runner
from lobby.tichu.match import Match

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Alice", "Bob", ("Bot1~heuristic", "bot"), "Dave"]
NAMES = ["Alice", "Bob", "Bot1~heuristic", "Dave"]


@pytest.fixture
def inline(sqlite_store: Store):
    store = sqlite_store
    commits: list[str] = []
    store._conn.set_trace_callback(
        lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
    clock = task.Clock()
    return store, clock, Journal(store, clock), commits


def rows(path: str, sql: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def journal_game(journal: Journal, table_no: int, match: Match, actions: list) -> None:
    journal.start_table(table_no, options={"round": "2"}, players=PLAYERS, head=match.record(),
                        extra={"host": "Alice"}, started_at=5.0)
    for seq, (player, action) in enumerate(actions, 1):
        journal.record_action(table_no, seq, player, action)


def test_the_writes_of_one_turn_are_one_transaction(inline) -> None:
    store, clock, journal, commits = inline
    match = random_game(1, rounds=1)
    for t in (1, 2, 3):
        journal_game(journal, t, Match(match.options, seed=match.seed), match.actions[:60])
    assert rows(store.path, "SELECT count(*) FROM journal_actions") == [(0,)]   # nothing yet
    assert commits == []
    clock.advance(0)
    assert len(commits) == 1 and journal.transactions == 1
    assert journal.writes == 3 * 61
    assert rows(store.path, "SELECT count(*) FROM journal_actions") == [(180,)]
    # the next turn is the next transaction
    journal.record_action(1, 61, *match.actions[60])
    journal.record_action(2, 61, *match.actions[60])
    clock.advance(0)
    assert len(commits) == 2 and journal.transactions == 2
    clock.advance(0)                       # an idle turn writes nothing
    assert len(commits) == 2


def test_the_entries_of_one_transaction_are_few_statements_in_their_order(sqlite_store: Store
                                                                         ) -> None:
    """The store's thread takes the interpreter lock again after every statement, up to 5 ms
    each while the reactor is busy: a transaction's entries go as one INSERT per
    ROWS_PER_INSERT of them, in order (a later entry of the same key replaces the earlier one,
    a table's new game deletes its old entries first, as separate statements would)."""
    from lobby.storage.journal import ROWS_PER_INSERT
    store = sqlite_store
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    clock = task.Clock()
    journal = Journal(store, clock)
    match = random_game(3, rounds=1)
    for t in range(1, 9):                   # 8 tables: more entries than one statement takes
        journal_game(journal, t, Match(match.options, seed=match.seed), match.actions)
    journal.record(2, 5, {"p": 0, "a": "again"})           # entry 5 of table 2 rewritten
    journal_game(journal, 3, Match(match.options, seed=match.seed), match.actions[:10])
    journal_game(journal, 9, Match(match.options, seed=match.seed), [])
    for seq in range(1, 2 * ROWS_PER_INSERT + 2):          # one table: more than two statements
        journal.record(9, seq, {"p": seq % 4, "a": {"a": "pass"}})
    clock.advance(0)
    assert journal.transactions == 1
    inserts = [s for s in statements if s.startswith("INSERT OR REPLACE INTO journal_actions")]
    # one run of entries per table between the starts (10), table 9's in three statements; one
    # statement per entry would be 8 * n + 2 * ROWS_PER_INSERT + 12
    assert len(inserts) == 12, len(inserts)
    got = rows(store.path, "SELECT table_no, seq, payload FROM journal_actions "
                          "ORDER BY table_no, seq")
    want = []
    for t in range(1, 9):
        for seq, (player, action) in enumerate(match.actions[:10] if t == 3 else match.actions, 1):
            entry = json.dumps({"p": player, "a": action.to_json()})
            want.append((t, seq, json.dumps({"p": 0, "a": "again"}) if (t, seq) == (2, 5)
                         else entry))
    want += [(9, seq, json.dumps({"p": seq % 4, "a": {"a": "pass"}}))
             for seq in range(1, 2 * ROWS_PER_INSERT + 2)]
    assert [(t, s) for t, s, _ in got] == [(t, s) for t, s, _ in want]
    assert [json.loads(p) for _, _, p in got] == [json.loads(p) for _, _, p in want]


class HeldRunner:
    """A store runner whose calls wait until the test releases them (the worker thread busy)."""

    def __init__(self) -> None:
        self.held: list[tuple[Any, tuple[Any, ...], Any]] = []

    def __call__(self, f: Any, *args: Any, **kwargs: Any) -> Any:
        from twisted.internet.defer import Deferred
        d: Any = Deferred()
        self.held.append((f, args, d))
        return d

    def release(self) -> None:
        f, args, d = self.held.pop(0)
        d.callback(f(*args))


def test_while_a_transaction_is_out_later_turns_go_as_one_next_transaction(tmp_path: Path
                                                                            ) -> None:
    """Group commit: one transaction in flight at a time; what later turns buffer meanwhile is
    the next transaction, handed over as soon as the first is back, and each table's events
    still leave only after their writes are committed."""
    runner = HeldRunner()
    store = Store(str(tmp_path / "group.sqlite3"), runner)
    opened = store.open()
    while runner.held:                     # the schema, before the test
        runner.release()
    assert opened.called
    clock = task.Clock()
    journal = Journal(store, clock, inline=False)      # the thread path
    sent: list[str] = []
    match = random_game(3, until_actions=5)
    journal.start_table(1, options={}, players=PLAYERS, head=match.record())
    journal.record_action(1, 1, *match.actions[0])
    journal.send(1, sent.append, "one")
    clock.advance(0)
    assert len(runner.held) == 1            # the first transaction is out
    for seq in (2, 3, 4):                   # three more turns, each with an action
        journal.record_action(1, seq, *match.actions[seq - 1])
        journal.send(1, sent.append, f"after {seq}")
        clock.advance(0)
    assert len(runner.held) == 1 and sent == []     # nothing more handed over, nothing sent
    runner.release()
    assert sent == ["one"] and len(runner.held) == 1   # the three turns: one transaction
    runner.release()
    assert sent == ["one", "after 2", "after 3", "after 4"]
    assert journal.transactions == 2 and journal.writes == 5
    clock.advance(0)
    assert runner.held == []                # idle: nothing more


def test_with_an_interval_at_most_one_transaction_per_interval_goes_to_the_store(inline
                                                                                 ) -> None:
    """`interval`: after a hand-off, the writes of the next turns wait until the interval is
    over and then go as one transaction; their events wait with them; after a quiet interval
    the next write goes at the end of its turn again."""
    store, clock, _, commits = inline
    journal = Journal(store, clock, interval=0.005)
    sent: list[str] = []
    match = random_game(3, until_actions=6)
    journal.start_table(1, options={}, players=PLAYERS, head=match.record())
    journal.record_action(1, 1, *match.actions[0])
    journal.send(1, sent.append, "one")
    clock.advance(0)                        # idle before: at once
    assert len(commits) == 1 and sent == ["one"]
    for seq in (2, 3, 4):                   # three turns within the interval
        clock.advance(0.001)
        journal.record_action(1, seq, *match.actions[seq - 1])
        journal.send(1, sent.append, f"after {seq}")
    clock.advance(0.001)
    assert len(commits) == 1 and sent == ["one"]      # held: the interval is not over
    clock.advance(0.001)                    # 5 ms after the first hand-off
    assert len(commits) == 2 and journal.transactions == 2
    assert sent == ["one", "after 2", "after 3", "after 4"]
    clock.advance(1.0)                      # quiet: the next write goes at once
    journal.record_action(1, 5, *match.actions[4])
    journal.send(1, sent.append, "after 5")
    clock.advance(0)
    assert len(commits) == 3 and sent[-1] == "after 5"


def test_events_wait_for_the_commit_and_keep_their_order(inline) -> None:
    store, clock, journal, _commits = inline
    sent: list[tuple] = []

    def deliver(table: int, what: str) -> None:
        # whatever a table sends, the journal entries before it are on disk
        count = rows(store.path, f"SELECT count(*) FROM journal_actions WHERE table_no = {table}")
        sent.append((table, what, count[0][0]))

    journal.send(7, deliver, 7, "nothing pending: at once")
    assert sent == [(7, "nothing pending: at once", 0)]
    match = random_game(2, until_actions=3)
    journal.start_table(1, options={}, players=PLAYERS, head=match.record())
    journal.record_action(1, 1, *match.actions[0])
    journal.send(1, deliver, 1, "first")
    journal.send(7, deliver, 7, "other table, still nothing pending")
    journal.record_action(1, 2, *match.actions[1])
    journal.send(1, deliver, 1, "second")
    assert journal.pending(1) == 2 and sent[-1][1] == "other table, still nothing pending"
    clock.advance(0)
    assert [s[1:] for s in sent if s[0] == 1] == [("first", 2), ("second", 2)]
    assert journal.pending(1) == 0
    # nothing pending any more: the next send goes at once
    journal.send(1, deliver, 1, "third")
    assert sent[-1] == (1, "third", 2)


@pytest_twisted.ensureDeferred
async def test_on_the_thread_path_events_leave_only_after_the_commit(tmp_path: Path) -> None:
    from twisted.internet import reactor
    store = Store.threaded(str(tmp_path / "threaded.sqlite3"), reactor)
    await within(store.open())
    threads: list[bool] = []
    original = store._transaction

    def spy(fn, args):
        threads.append(isInIOThread())
        return original(fn, args)

    store._transaction = spy  # type: ignore[method-assign]
    journal = Journal(store, reactor, inline=False)     # the thread path
    sent: list[int] = []
    try:
        match = random_game(3, until_actions=50)
        journal.start_table(1, options={}, players=PLAYERS, head=match.record())
        for seq, (player, action) in enumerate(match.actions, 1):
            journal.record_action(1, seq, player, action)
            journal.send(1, sent.append, seq)
        assert sent == []                       # held back: not committed yet
        await within(journal.flush())
        assert sent == list(range(1, 51))
        assert threads == [False] and journal.transactions == 1
        tables = await within(journal.load_open_tables())
        assert tables[0].last_seq == 50
    finally:
        await within(store.close())


def test_open_tables_come_back_as_they_were(inline) -> None:
    _store, clock, journal, _ = inline
    match = random_game(4, rounds=2, until_actions=150)
    journal_game(journal, 3, Match(match.options, seed=match.seed), match.actions[:100])
    clock.advance(0)
    for seq in range(101, 151):                 # later turns
        journal.record_action(3, seq, *match.actions[seq - 1])
        if seq % 7 == 0:
            clock.advance(0)
    journal.set_players(3, ["Alice", "Bob", ("Bot2~random", "bot"), "Dave"])
    journal.set_extra(3, {"host": "Bob", "bombwindow": 2})
    other = random_game(5, until_actions=10)
    journal_game(journal, 9, Match(other.options, seed=other.seed), other.actions)
    clock.advance(0)
    tables = fired(journal.load_open_tables())
    assert [t.table_no for t in tables] == [3, 9]
    t = tables[0]
    assert t.last_seq == 150 and t.started_at == 5.0 and t.options == {"round": "2"}
    assert t.players[2] == Participant("Bot2~random", "bot")
    assert t.extra == {"host": "Bob", "bombwindow": 2}
    restored = t.match()
    assert restored.record() == match.record()
    for p in (None, 0, 1, 2, 3):
        assert restored.view(p) == match.view(p)
    assert tables[1].match().record() == other.record()


def test_finishing_stores_the_game_and_closes_the_journal(inline) -> None:
    store, clock, journal, commits = inline
    match = random_game(6, rounds=1)
    journal_game(journal, 2, Match(match.options, seed=match.seed), match.actions)
    game = finished_game(match, PLAYERS, table_no=2, ended_at=9.0)
    done = journal.finish_table(2, game)
    other = random_game(7, until_actions=5)
    journal_game(journal, 5, Match(other.options, seed=other.seed), other.actions)
    abandoned = journal.end_table(5)
    clock.advance(0)
    assert len(commits) == 1                     # actions, the game and both closings together
    rec = fired(done)
    assert rec.game_id == 1 and rec.game.unrated_reason == "bots"
    assert fired(abandoned) is None
    assert fired(journal.load_open_tables()) == []
    assert rows(store.path, "SELECT count(*) FROM journal_actions") == [(0,)]
    stored = fired(GameArchive(store).load(1))
    assert Match.replay(stored.game.record).result == match.result


def test_a_game_finished_from_the_journal_stores_the_record_of_its_entries(inline) -> None:
    """`from_journal`: the finished game carries no actions; the finishing transaction takes
    them from the table's journal entries, each action's text as the journal encoded it, and
    the stored record is byte for byte `json.dumps(match.record())`."""
    store, clock, journal, _commits = inline
    match = random_game(6, rounds=1)
    journal_game(journal, 2, Match(match.options, seed=match.seed), match.actions)
    game = finished_game(match, PLAYERS, table_no=2, ended_at=9.0, from_journal=True)
    assert "actions" not in game.record and game.journal_actions == len(match.actions)
    done = journal.finish_table(2, game)
    clock.advance(0)
    rec = fired(done)
    assert rec.game.record == match.record() and rec.game.journal_actions is None
    assert rows(store.path, "SELECT record FROM games") == [(json.dumps(match.record()),)]
    assert rows(store.path, "SELECT count(*) FROM journal_actions") == [(0,)]
    stored = fired(GameArchive(store).load(1))
    assert Match.replay(stored.game.record).result == match.result


def test_a_game_whose_journal_lacks_entries_is_not_stored_from_it(inline) -> None:
    """(A journal that lost an entry without the journal knowing: the game is refused, the
    rest of the transaction, another table's actions here, commits.)"""
    store, clock, journal, commits = inline
    match = random_game(6, rounds=1)
    journal_game(journal, 2, Match(match.options, seed=match.seed), match.actions[:-1])
    done = journal.finish_table(2, finished_game(match, PLAYERS, table_no=2, ended_at=9.0,
                                                 from_journal=True))
    other = random_game(7, until_actions=5)
    journal_game(journal, 5, Match(other.options, seed=other.seed), other.actions)
    clock.advance(0)
    assert done.called and isinstance(done.result.value, ValueError)
    done.addErrback(lambda f: None)
    assert len(commits) == 1 and journal.failures == 0
    assert rows(store.path, "SELECT count(*) FROM games") == [(0,)]
    assert rows(store.path, "SELECT count(*) FROM journal_actions WHERE table_no = 5") == [(5,)]
    assert rows(store.path, "SELECT count(*) FROM journal_tables WHERE table_no = 2") == [(0,)]


def test_a_failed_commit_is_logged_and_releases_the_events(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "fail.sqlite3"), inline_runner)
    fired(store.open())
    clock = task.Clock()
    journal = Journal(store, clock)
    journal.start_table(1, options={}, players=PLAYERS, head=Match(seed=1).record())
    sent: list[str] = []
    journal.send(1, sent.append, "after the failed batch")
    fired(store.close())                        # every later write fails
    clock.advance(0)
    assert journal.failures == 1 and sent == ["after the failed batch"]
    assert journal.transactions == 0
    # the table's game lost a write: its record will not be taken from the journal
    assert journal.failed_tables == {1}
    journal.start_table(1, options={}, players=PLAYERS, head=Match(seed=2).record())
    assert journal.failed_tables == set()          # a new game


KILLED_WRITER = textwrap.dedent("""
    import sys
    from twisted.internet import task
    from lobby.storage.journal import Journal
    from lobby.storage.store import Store, inline_runner
    from lobby.tichu.match import Match

    if sys.argv[2] == "inline":     # a worker thread that is always free: the journal commits
        def run(f, *args, **kwargs):  # on its reactor connection (lobby/storage/store.py)
            return inline_runner(f, *args, **kwargs)
    else:
        run = inline_runner
    store = Store(sys.argv[1], run)
    store.open()
    clock = task.Clock()
    journal = Journal(store, clock)
    head = Match(seed=1).record()
    for t in (1, 2, 3):
        journal.start_table(t, options={}, players=["A", "B", "C", "D"], head=head)
    clock.advance(0)
    seq = 0
    while True:
        seq += 1
        for t in (1, 2, 3):   # one entry per table per turn, payloads of varying size
            journal.record(t, seq, {"p": seq % 4, "a": {"a": "pass"},
                                    "check": [t, seq], "pad": "x" * (seq * 37 % 3000)})
        clock.advance(0)
        sys.stdout.write(f"{seq} {journal.inline_transactions}\\n")
        sys.stdout.flush()
""")


@pytest.mark.parametrize("kill_after", [50, 400])
@pytest.mark.parametrize("where", ["thread", "inline"])
def test_sigkill_leaves_a_consistent_prefix(tmp_path: Path, kill_after: int, where: str) -> None:
    """(``thread``: every commit through the store's runner; ``inline``: on the reactor
    thread's own connection, which never checkpoints: the commits the writer reported are in
    the WAL, and the next open recovers them.)"""
    path = str(tmp_path / "killed.sqlite3")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, path, where],
                            stdout=subprocess.PIPE, env=env, cwd=str(ROOT))
    committed = inline = 0
    deadline = time.monotonic() + 60
    try:
        assert proc.stdout is not None
        while committed < kill_after and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            committed, inline = map(int, line.split())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    assert committed >= kill_after, "the writer did not get far enough"
    assert (inline == committed + 1) if where == "inline" else inline == 0
    store = Store(path, inline_runner)
    fired(store.open())                          # opens (and recovers the WAL) cleanly
    tables = fired(Journal(store, task.Clock()).load_open_tables())
    counts = [t.last_seq for t in tables]
    # every commit the writer reported is there, and the tables of a turn went in together
    assert [t.table_no for t in tables] == [1, 2, 3]
    assert len(set(counts)) == 1 and counts[0] >= committed
    for t, payload in fired(store.run_query(lambda c: c.execute(
            "SELECT table_no, payload FROM journal_actions ORDER BY table_no, seq").fetchall())):
        data = json.loads(payload)
        assert data["check"][0] == t and len(data["pad"]) == data["check"][1] * 37 % 3000
    assert [[a[0] for a in t.record["actions"]] for t in tables] == \
        [[s % 4 for s in range(1, counts[0] + 1)]] * 3
    assert rows(path, "PRAGMA integrity_check") == [("ok",)]
    fired(store.close())


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8)


@given(st.integers(0, 3), _JSON)
def test_the_fast_entry_is_what_json_dumps_writes(player: int, action: Any) -> None:
    """The journal writes an entry by joining the action's text into the entry's (no second
    encoding): the same text as json.dumps of the whole entry, its reference beside it."""
    text = json.dumps(action)
    assert _entry(player, text) == _reference_entry(player, text) \
        == json.dumps({"p": player, "a": action})
