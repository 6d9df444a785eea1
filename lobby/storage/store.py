"""Persistence: SQLite (stdlib sqlite3) in WAL mode, the queries off the reactor thread.

All database work runs through a *runner*: a callable that executes a blocking function elsewhere
and returns a Deferred of its result. In the server that is ``ThreadRunner`` -- one dedicated
worker thread, so queries are serialised and the sqlite3 connection is only ever used by that
thread. Unit tests may pass ``inline_runner`` (runs at once, for ``:memory:`` databases and
``StringTransport`` tests).

One exception: the action journal's small transactions (lobby/storage/journal.py). A thread hand-off
costs ~70-100 µs of CPU against ~17-30 µs for such a transaction, so the journal commits them on
a second connection owned by the reactor thread (``reactor_connection()``, used through
``run_here``) that never waits: ``busy_timeout = 0`` (``REACTOR_BUSY_TIMEOUT``), so when the
worker thread holds the write lock ``run_here`` raises ``StoreLocked`` at once, having done
nothing, and the journal hands that transaction to the thread instead; and
``wal_autocheckpoint = 0``, so a commit there never checkpoints (a checkpoint writes the
database file and fsyncs it): the journal asks the worker thread for a PASSIVE checkpoint
(``checkpoint()``) every ``Journal.checkpoint_pages`` pages it estimates it wrote. A commit in
WAL mode with ``synchronous = NORMAL`` appends to the -wal file without an fsync, so the
reactor waits for no disk (only for the operating system's page cache; SQLite's own retries of
a WAL read lock that races a checkpoint, microseconds, are left as they are). An in-memory
database or a store on ``inline_runner`` has no such connection (``reactor_connection()`` is
None): its runner already runs on the calling thread, or a second connection could not see its
data.

The schema is versioned: ``schema_version`` holds one row, ``MIGRATIONS`` is an ordered list, and
``open()`` applies every migration newer than the file's version, each in its own transaction. An
older database is upgraded in place, never recreated. Later issues append migrations (game records,
statistics); never edit one that has shipped.
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from twisted.internet.defer import Deferred, fail, succeed
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger
from twisted.python.threadpool import ThreadPool

from lobby.storage.accounts import name_key

__all__ = ["Account", "Migration", "MIGRATIONS", "ROLES", "StartupError", "Store", "StoreError",
           "StoreLocked", "ThreadRunner", "inline_runner", "open_failure"]

T = TypeVar("T")
log = Logger(namespace="lobby.store")
#: seconds the final checkpoint at close waits for other processes' readers to finish
FINAL_CHECKPOINT_WAIT = 1.0
#: milliseconds the reactor thread's own connection waits for a lock the worker thread holds:
#: none (it must never wait; the transaction goes to the worker thread instead)
REACTOR_BUSY_TIMEOUT = 0

#: the values of ``accounts.role`` besides NULL (an ordinary player)
ROLES = ("moderator", "admin")


class StartupError(Exception):
    """The server must not start: the message is the one line the operator reads (main() writes
    it to standard error and exits with status 1)."""


#: the mode of a database file the server creates (it holds password hashes): SQLite gives its
#: -wal and -shm files the mode of the database file
DB_FILE_MODE = 0o600


def create_private(path: str) -> None:
    """Create the database file `path` empty with mode 0600 if it does not exist yet (SQLite
    would make it with the umask's mode, usually 0644); an existing file is left as it is."""
    if path == ":memory:" or path.startswith("file:") or not path:
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, DB_FILE_MODE)
    except FileExistsError:
        return
    except OSError:
        return                  # sqlite3.connect says why it cannot be made
    os.fchmod(fd, DB_FILE_MODE)  # whatever the umask
    os.close(fd)


class StoreError(StartupError):
    """The database cannot be used; the message names the file and says why."""


class StoreLocked(Exception):
    """``Store.run_here``: another connection (the worker thread's) holds the write lock;
    nothing was done."""


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    password_hash: str
    registered_at: float
    last_seen: float | None
    role: str | None = None          # None, "moderator" or "admin"
    language: str | None = None      # the language chosen with /set lang (None: the server's)
    legend_seen: bool = False        # the card legend was shown at a first deal (issue 26)


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    statements: Sequence[str]


MIGRATIONS: list[Migration] = [
    Migration(1, "accounts", [
        """CREATE TABLE accounts (
               name_key      TEXT PRIMARY KEY,
               name          TEXT NOT NULL,
               password_hash TEXT NOT NULL,
               registered_at REAL NOT NULL,
               last_seen     REAL
           )""",
    ]),
    # issue 6 "Nothing lost" (lobby/storage/records.py, lobby/storage/rating.py,
    # lobby/storage/journal.py) and the account role that the hardening issue uses;
    # docs/operations.md describes every table
    Migration(2, "game records, statistics, ratings, action journal, account roles", [
        "ALTER TABLE accounts ADD COLUMN role TEXT "
        "CHECK (role IS NULL OR role IN ('moderator', 'admin'))",
        # one row per finished game; JSON columns hold what Match.replay needs and the results
        """CREATE TABLE games (
               id            INTEGER PRIMARY KEY AUTOINCREMENT,
               table_no      INTEGER,
               started_at    REAL,
               ended_at      REAL NOT NULL,
               options       TEXT NOT NULL,     -- JSON: the table options
               seed          INTEGER,
               record        TEXT NOT NULL,     -- JSON: Match.record() (options, seed, deals, actions)
               rounds        INTEGER NOT NULL,
               round_results TEXT NOT NULL,     -- JSON: per round order, calls, points, score
               score0        INTEGER NOT NULL,  -- final totals, team 0 = seats 1+3 (0+2 inside)
               score1        INTEGER NOT NULL,
               result        TEXT NOT NULL,     -- JSON: Match.result
               rated         INTEGER NOT NULL,  -- 1 rated, 0 unrated (see unrated)
               unrated       TEXT,              -- why not: nosave / bots / guests
               bswlog        TEXT               -- the game as a BSW .tch log (option log)
           )""",
        # the four players of a game (player = the engine's player index = seat at the start)
        """CREATE TABLE game_players (
               game_id       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
               player        INTEGER NOT NULL,
               name          TEXT NOT NULL,
               name_key      TEXT NOT NULL,
               kind          TEXT NOT NULL CHECK (kind IN ('registered', 'guest', 'bot')),
               won           INTEGER NOT NULL,  -- 1 won, 0 lost, and shared victories count 1
               rating_before REAL,
               rating_after  REAL,
               PRIMARY KEY (game_id, player)
           )""",
        "CREATE INDEX game_players_by_name ON game_players (name_key, game_id)",
        # statistics of registered players (docs/rating.md: what counts)
        """CREATE TABLE player_stats (
               name_key         TEXT PRIMARY KEY,
               games            INTEGER NOT NULL DEFAULT 0,
               wins             INTEGER NOT NULL DEFAULT 0,
               rated_games      INTEGER NOT NULL DEFAULT 0,
               rated_wins       INTEGER NOT NULL DEFAULT 0,
               rounds           INTEGER NOT NULL DEFAULT 0,
               tichu_calls      INTEGER NOT NULL DEFAULT 0,
               tichu_made       INTEGER NOT NULL DEFAULT 0,
               grand_calls      INTEGER NOT NULL DEFAULT 0,
               grand_made       INTEGER NOT NULL DEFAULT 0,
               double_victories INTEGER NOT NULL DEFAULT 0,
               first_out        INTEGER NOT NULL DEFAULT 0,
               last_game        INTEGER
           )""",
        """CREATE TABLE player_ratings (
               name_key    TEXT PRIMARY KEY,
               rating      REAL NOT NULL,
               games       INTEGER NOT NULL,   -- rated games played
               peak        REAL NOT NULL,
               updated_at  REAL NOT NULL
           )""",
        "CREATE INDEX player_ratings_by_rating ON player_ratings (rating DESC)",
        # the live action journal of running tables (lobby/storage/journal.py)
        """CREATE TABLE journal_tables (
               table_no    INTEGER PRIMARY KEY,
               started_at  REAL,
               options     TEXT NOT NULL,       -- JSON: the table options
               seats       TEXT NOT NULL,       -- JSON: per player {name, kind}
               head        TEXT NOT NULL,       -- JSON: Match.record() without actions
               extra       TEXT                 -- JSON: whatever the table wants back
           )""",
        """CREATE TABLE journal_actions (
               table_no    INTEGER NOT NULL,
               seq         INTEGER NOT NULL,    -- 1, 2, 3, ... per game
               payload     TEXT NOT NULL,       -- JSON: {"p": player, "a": action.to_json()}
               PRIMARY KEY (table_no, seq)
           ) WITHOUT ROWID""",
    ]),
    # the hardening issue (lobby/world/moderation.py): personal mute lists, bans, public silence
    Migration(3, "mute lists, bans, silenced users", [
        """CREATE TABLE mutes (
               owner_key   TEXT NOT NULL,       -- who ignores (a registered user's name key)
               muted_key   TEXT NOT NULL,
               muted_name  TEXT NOT NULL,
               PRIMARY KEY (owner_key, muted_key)
           ) WITHOUT ROWID""",
        """CREATE TABLE bans (
               name_key    TEXT PRIMARY KEY,
               name        TEXT NOT NULL,
               until       REAL,                -- NULL: until /unban
               reason      TEXT NOT NULL,
               banned_by   TEXT NOT NULL,
               banned_at   REAL NOT NULL
           )""",
        """CREATE TABLE silenced (
               name_key    TEXT PRIMARY KEY,
               name        TEXT NOT NULL,
               silenced_by TEXT NOT NULL,
               silenced_at REAL NOT NULL
           )""",
    ]),
    # issue 12: a /ban of a guest also bans the address it came from (lobby/world/moderation.py)
    Migration(4, "the address of a banned guest", [
        # the address group (an IPv4 address, an IPv6 /64) banned with the name, or NULL
        "ALTER TABLE bans ADD COLUMN address TEXT",
    ]),
    # issue 14: a registered name keeps the language chosen with /set lang (protocol/commands/settings.py)
    Migration(5, "the language of an account", [
        # a code of lobby.text.messages.LANGUAGES (de, en, fr, es, da), or NULL: the server's --lang
        "ALTER TABLE accounts ADD COLUMN language TEXT",
    ]),
    # issue 23: throttle, never lock out -- the address groups an account logged in from are
    # remembered (protocol/connection/guard.py: failures from other addresses never delay them)
    Migration(6, "the address groups an account logged in from", [
        """CREATE TABLE login_addresses (
               name_key      TEXT NOT NULL,
               address_group TEXT NOT NULL,     -- an IPv4 address, an IPv6 prefix
               last_login    REAL NOT NULL,
               PRIMARY KEY (name_key, address_group)
           ) WITHOUT ROWID""",
    ]),
    # issue 24 "Fair play": who left a game (lobby/storage/records.py, docs/rating.md) and friends
    Migration(7, "leavers of games, friends lists", [
        # the round a player who left the game left it in (NULL: stayed), and the bot that
        # took over their seat
        "ALTER TABLE game_players ADD COLUMN left_round INTEGER",
        "ALTER TABLE game_players ADD COLUMN replaced_by TEXT",
        # of the games a player started (games), those they left
        "ALTER TABLE player_stats ADD COLUMN games_left INTEGER NOT NULL DEFAULT 0",
        # /notify NAME of a registered user (lobby/world/world.py Friends)
        """CREATE TABLE friends (
               owner_key   TEXT NOT NULL,       -- whose list (a registered user's name key)
               friend_key  TEXT NOT NULL,
               friend_name TEXT NOT NULL,
               PRIMARY KEY (owner_key, friend_key)
           ) WITHOUT ROWID""",
    ]),
    # issue 26: the card legend is shown once per account, at its first deal
    Migration(8, "whether an account has seen the card legend", [
        "ALTER TABLE accounts ADD COLUMN legend_seen INTEGER NOT NULL DEFAULT 0",
    ]),
]


def _locked(e: sqlite3.OperationalError) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED (with any extended code): another connection has the lock."""
    code = getattr(e, "sqlite_errorcode", None)
    if code is None:
        return "locked" in str(e)
    return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _unusable(path: str, e: sqlite3.Error) -> str:
    """One line naming the file and the cause of an SQLite error at start-up."""
    message = str(e)
    if "readonly" in message:
        return (f"database file {path!r} cannot be written ({message}): a read-only file or "
                "folder?")
    if "disk is full" in message or "disk I/O error" in message:
        return f"database file {path!r} cannot be written ({message}): a full disk?"
    if "unable to open" in message:
        return (f"database file {path!r} cannot be opened ({message}): SQLite creates "
                f"{path}-wal and {path}-shm next to it, so its folder must be writable")
    if "not a database" in message:
        return (f"database file {path!r} is not an SQLite database (another kind of file, or a "
                "damaged one)")
    return f"database file {path!r} is not usable: {message}"


def open_failure(path: str, e: Exception) -> str:
    """Why the file ``path`` cannot be opened or made, in words (not SQLite's or Python's)."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"its folder {os.path.dirname(path) or '.'!r} does not exist"
    if os.path.isdir(path):
        return "it is a folder"
    if not os.access(folder, os.W_OK):
        return f"its folder {os.path.dirname(path) or '.'!r} cannot be written"
    strerror = getattr(e, "strerror", None)
    return str(strerror).lower() if strerror else str(e)


class ThreadRunner:
    """Runs blocking functions on one dedicated worker thread; results come back as Deferreds."""

    def __init__(self, reactor: Any, name: str = "tichu-store") -> None:
        self._reactor = reactor
        self._pool = ThreadPool(minthreads=1, maxthreads=1, name=name)
        self._started = False
        self._stopped = False

    def __call__(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Deferred[Any]:
        if self._stopped:
            return fail(StoreError("the database worker thread has been stopped"))
        if not self._started:
            self._pool.start()
            self._started = True
            # never keep the process alive: stop the worker when the reactor shuts down
            self._trigger = self._reactor.addSystemEventTrigger("during", "shutdown", self.stop)
        return deferToThreadPool(self._reactor, self._pool, f, *args, **kwargs)

    def stop(self) -> None:
        self._stopped = True
        if self._started:
            self._started = False
            self._pool.stop()
            try:
                self._reactor.removeSystemEventTrigger(self._trigger)
            except (ValueError, KeyError, TypeError):
                pass


def inline_runner(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Deferred[Any]:
    """Run ``f`` at once in the calling thread (tests only: in-memory databases, StringTransport)."""
    try:
        return succeed(f(*args, **kwargs))
    except BaseException:
        return fail()


class Store:
    """The lobby's database. Every public method returns a Deferred and runs on the runner."""

    def __init__(self, path: str, run: Callable[..., Deferred[Any]] = inline_runner,
                 migrations: Sequence[Migration] = MIGRATIONS,
                 archive_run: Callable[..., Deferred[Any]] | None = None) -> None:
        self.path = path
        self._run = run
        #: the archive's reads (records, replays: ``run_archive``) on a thread and a read-only
        #: connection of their own, so log-in look-ups never queue behind them (None: ``_run``)
        self._archive_run = archive_run
        self._archive_conn: sqlite3.Connection | None = None
        self._migrations = sorted(migrations, key=lambda m: m.version)
        self._conn: sqlite3.Connection | None = None
        self._closed: Deferred[None] | None = None
        #: the reactor thread's own connection (``reactor_connection``), opened on first use
        self._here: sqlite3.Connection | None = None

    @classmethod
    def threaded(cls, path: str, reactor: Any,
                 migrations: Sequence[Migration] = MIGRATIONS) -> Store:
        """A store with its own worker thread and one more for the archive's reads (both
        stopped by ``close()``)."""
        return cls(path, ThreadRunner(reactor), migrations,
                   archive_run=ThreadRunner(reactor, "tichu-archive"))

    # ---- life cycle -------------------------------------------------------------------------
    def open(self) -> Deferred[int]:
        """Connect, switch to WAL, apply pending migrations. Fires with the schema version;
        fails with StoreError (naming the file) if the file is corrupt, unwritable or too new."""
        return self._run(self._open)

    def close(self) -> Deferred[None]:
        """Close the connection and stop the worker thread. Closing twice is harmless."""
        if self._closed is not None:
            return succeed(None)
        if self._here is not None:           # (the caller's thread: the one that opened it)
            here, self._here = self._here, None
            here.close()
        archive = self._archive_run
        if archive is not None and self._archive_conn is not None:
            archive(self._close_archive)     # (its thread: the one that opened it)
        d = self._closed = self._run(self._close)

        def stop_thread(result: Any) -> Any:
            for runner in (self._run, archive):
                stop = getattr(runner, "stop", None)
                if stop is not None:
                    stop()
            return result

        return d.addBoth(stop_thread)

    def _open(self) -> int:
        if self._conn is not None:       # open already (an in-memory store opened by a test)
            return int(self._conn.execute("SELECT version FROM schema_version").fetchone()[0])
        try:
            create_private(self.path)
            # (a "file:" URI is passed as one: mode=ro and the like are refused by the probe)
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   uri=self.path.startswith("file:"))
        except (sqlite3.Error, OSError) as e:
            raise StoreError(f"cannot open database file {self.path!r}: "
                             f"{open_failure(self.path, e)}") from None
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if self.path != ":memory:" and str(mode).lower() != "wal":
                raise StoreError(f"database file {self.path!r} could not be switched to WAL mode "
                                 f"(journal mode {mode}): an immutable=1 URI, or a file system "
                                 "without shared memory?")
            conn.execute("PRAGMA synchronous = NORMAL")
            version = self._migrate(conn)
            self._check(conn)
        except sqlite3.Error as e:
            conn.close()
            raise StoreError(_unusable(self.path, e)) from None
        except StoreError:
            conn.close()
            raise
        self._conn = conn
        return version

    def _migrate(self, conn: sqlite3.Connection) -> int:
        conn.execute("BEGIN IMMEDIATE")  # also proves the file is writable
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            if row is None:
                conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            else:
                current = int(row[0])
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        known = self._migrations[-1].version if self._migrations else 0
        if current > known:
            raise StoreError(f"database file {self.path!r} has schema version {current}, newer "
                             f"than this server knows ({known}); use a newer server")
        for migration in self._migrations:
            if migration.version <= current:
                continue
            conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in migration.statements:
                    conn.execute(statement)
                conn.execute("UPDATE schema_version SET version = ?", (migration.version,))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            current = migration.version
        return current

    def _check(self, conn: sqlite3.Connection) -> None:
        """Before the server listens: the file is intact (``PRAGMA quick_check``) and can be
        written (a real write, committed: a read-only file or folder, an immutable file, a full
        disk fail here, not at the first game)."""
        rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check(3)").fetchall()]
        if rows != ["ok"]:
            detail = "; ".join(" ".join(r.split()) for r in rows)[:300]   # one line
            raise StoreError(f"database file {self.path!r} fails PRAGMA quick_check (damaged; "
                             f"restore a backup): {detail}")
        if self.path == ":memory:":
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                # a write of the one row there is, committed: pages go to the WAL file
                conn.execute("UPDATE schema_version SET version = version")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            message = _unusable(self.path, e)
            if "cannot be written" not in message:
                message = f"database file {self.path!r} cannot be written: {e}"
            raise StoreError(message) from None

    def _close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            self._final_checkpoint(conn)
            conn.close()

    def _final_checkpoint(self, conn: sqlite3.Connection) -> None:
        """Fold the WAL file into the database file before closing, so that the file alone is a
        whole database (docs/operations.md, "Backups"). A checkpoint that cannot finish (a full
        disk, another process reading) is logged as an error naming the -wal file to keep."""
        if self.path == ":memory:":
            return
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(FINAL_CHECKPOINT_WAIT * 1000)}")
            busy, wal_pages, moved = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            cause = "another connection still uses it" if busy else (
                f"{moved} of {wal_pages} pages written" if moved != wal_pages else None)
        except sqlite3.Error as e:
            cause = str(e)
        if cause is not None:
            log.error("database {path}: the final checkpoint did not finish ({cause}); its data "
                      "is in {path}-wal too: keep that file with the database (copying {path} "
                      "alone loses it)", path=self.path, cause=cause)

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"database {self.path!r} is not open")
        return self._conn

    # ---- generic access for the modules that own their SQL (records, journal) ----------------
    def reactor_connection(self) -> sqlite3.Connection | None:
        """The calling (reactor) thread's own connection to the file, opened on the first call
        once the store is open (see the module's docstring); None for an in-memory database, a
        store on ``inline_runner``, or one that is not open (or closed)."""
        if self._here is not None:
            return self._here
        if (self._run is inline_runner or self._conn is None or self._closed is not None
                or self.path == ":memory:" or "mode=memory" in self.path):
            return None
        conn = sqlite3.connect(self.path, isolation_level=None,
                               uri=self.path.startswith("file:"))
        try:
            conn.execute(f"PRAGMA busy_timeout = {REACTOR_BUSY_TIMEOUT}")
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            conn.execute("PRAGMA synchronous = NORMAL")     # (per connection: FULL fsyncs)
        except BaseException:
            conn.close()
            raise
        self._here = conn
        return conn

    def run_here(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` inside one ``BEGIN IMMEDIATE ... COMMIT`` at once, on
        ``reactor_connection()`` (which must not be None), and return its result. Raises
        StoreLocked, having done nothing, if another connection holds the write lock (never
        waits for it); any other error rolls the transaction back and is raised."""
        conn = self._here
        if conn is None:
            raise StoreError(f"database {self.path!r} has no connection on this thread")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if _locked(e):
                raise StoreLocked(str(e)) from None
            raise
        try:
            out = fn(conn, *args)
            conn.execute("COMMIT")
        except BaseException as e:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(e, sqlite3.OperationalError) and _locked(e):
                raise StoreLocked(str(e)) from None
            raise
        return out

    def checkpoint(self) -> Deferred[tuple[int, int, int]]:
        """A PASSIVE checkpoint on the worker thread (it never waits for a lock; what it cannot
        copy now waits for the next one). Fires with SQLite's (busy, WAL frames, frames
        copied)."""
        def passive(conn: sqlite3.Connection) -> tuple[int, int, int]:
            busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            return int(busy), int(frames), int(copied)
        return self.run_query(passive)

    def run_query(self, fn: Callable[..., T], *args: Any) -> Deferred[T]:
        """Run ``fn(connection, *args)`` on the store's worker thread (reads; a single
        statement commits on its own). Fires with its result."""
        return self._run(lambda: fn(self._db(), *args))

    def run_archive(self, fn: Callable[..., T], *args: Any) -> Deferred[T]:
        """Run the read ``fn(connection, *args)`` of the archive (``/replay``, ``/history``,
        ...) on the archive's own thread and read-only connection (WAL lets it read while the
        worker thread writes), so a flood of archive queries never delays a log-in's look-up
        on the worker thread; on the worker thread itself for an in-memory store."""
        archive = self._archive_run
        if (archive is None or self._conn is None or self._closed is not None
                or self.path == ":memory:" or "mode=memory" in self.path):
            return self.run_query(fn, *args)
        return archive(self._archive_query, fn, args)

    def _archive_query(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        conn = self._archive_conn
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   uri=self.path.startswith("file:"))
            conn.execute("PRAGMA busy_timeout = 5000")
            conn.execute("PRAGMA query_only = 1")
            self._archive_conn = conn
        return fn(conn, *args)

    def _close_archive(self) -> None:
        conn, self._archive_conn = self._archive_conn, None
        if conn is not None:
            conn.close()

    def run_transaction(self, fn: Callable[..., T], *args: Any) -> Deferred[T]:
        """Run ``fn(connection, *args)`` inside one ``BEGIN IMMEDIATE ... COMMIT`` on the worker
        thread: all of it is committed, or (on any exception) none of it."""
        return self._run(self._transaction, fn, args)

    def _transaction(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        conn = self._db()
        conn.execute("BEGIN IMMEDIATE")
        try:
            out = fn(conn, *args)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return out

    # ---- queries ------------------------------------------------------------------------------
    def schema_version(self) -> Deferred[int]:
        return self._run(lambda: int(self._db().execute(
            "SELECT version FROM schema_version").fetchone()[0]))

    def get_account(self, name: str) -> Deferred[Account | None]:
        return self._run(self._get_account, name)

    def _get_account(self, name: str) -> Account | None:
        row = self._db().execute(
            "SELECT name, password_hash, registered_at, last_seen, role, language, legend_seen "
            "FROM accounts WHERE name_key = ?",
            (name_key(name),)).fetchone()
        if row is None:
            return None
        name, password_hash, registered_at, last_seen, role, language, legend_seen = row
        return Account(name, password_hash, registered_at, last_seen, role, language,
                       bool(legend_seen))

    def create_account(self, name: str, password_hash: str, now: float) -> Deferred[bool]:
        """Fires True, or False if the name (case-insensitively) is taken."""
        return self._run(self._create_account, name, password_hash, now)

    def _create_account(self, name: str, password_hash: str, now: float) -> bool:
        try:
            self._db().execute(
                "INSERT INTO accounts (name_key, name, password_hash, registered_at, last_seen) "
                "VALUES (?, ?, ?, ?, ?)", (name_key(name), name, password_hash, now, now))
        except sqlite3.IntegrityError:
            return False
        return True

    def set_password(self, name: str, password_hash: str) -> Deferred[bool]:
        return self._run(self._update, "UPDATE accounts SET password_hash = ? WHERE name_key = ?",
                         (password_hash, name_key(name)))

    def touch(self, name: str, now: float) -> Deferred[bool]:
        """Record that a registered user was seen at ``now`` (log-in, log-out)."""
        return self._run(self._update, "UPDATE accounts SET last_seen = ? WHERE name_key = ?",
                         (now, name_key(name)))

    def set_role(self, name: str, role: str | None) -> Deferred[bool]:
        """Make a registered user a moderator or admin (``role`` in ROLES) or an ordinary
        player (None). Fires False if there is no such account."""
        if role is not None and role not in ROLES:
            return fail(ValueError(f"no role {role!r}; roles are {', '.join(ROLES)}"))
        return self._run(self._update, "UPDATE accounts SET role = ? WHERE name_key = ?",
                         (role, name_key(name)))

    def set_language(self, name: str, language: str | None) -> Deferred[bool]:
        """Keep the language ``name`` chose (/set lang) for their next log-in (None: the
        server's default). Fires False if there is no such account."""
        return self._run(self._update, "UPDATE accounts SET language = ? WHERE name_key = ?",
                         (language, name_key(name)))

    def set_legend_seen(self, name: str) -> Deferred[bool]:
        """``name`` has been shown the card legend (at their first deal): not again."""
        return self._run(self._update, "UPDATE accounts SET legend_seen = 1 WHERE name_key = ?",
                         (name_key(name),))

    def note_login_address(self, name: str, group: str, now: float) -> Deferred[bool]:
        """``name`` logged in from the address group ``group`` at ``now`` (remembered)."""
        return self._run(self._update,
                         "INSERT INTO login_addresses (name_key, address_group, last_login) "
                         "VALUES (?, ?, ?) ON CONFLICT (name_key, address_group) "
                         "DO UPDATE SET last_login = excluded.last_login",
                         (name_key(name), group, now))

    def login_addresses(self, since: float) -> Deferred[list[tuple[str, str]]]:
        """Every (name key, address group) with a log-in after ``since``; older ones are
        forgotten (deleted) first."""
        def query() -> list[tuple[str, str]]:
            conn = self._db()
            conn.execute("DELETE FROM login_addresses WHERE last_login < ?", (since,))
            return [(str(k), str(g)) for k, g in conn.execute(
                "SELECT name_key, address_group FROM login_addresses")]
        return self._run(query)

    def _update(self, sql: str, params: tuple[Any, ...]) -> bool:
        return self._db().execute(sql, params).rowcount > 0
