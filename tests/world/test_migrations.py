"""Schema migrations: a database written by the first release (schema version 1) is upgraded in
place with its accounts intact; a database newer than the code is refused, naming the file."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from conftest import fired
from game_support import random_game
from lobby.storage.records import GameArchive, finished_game
from lobby.storage.store import MIGRATIONS, ROLES, Store, StoreError, inline_runner

# the schema of version 1 exactly as the first release created it (never changes)
V1_ACCOUNTS = """CREATE TABLE accounts (
               name_key      TEXT PRIMARY KEY,
               name          TEXT NOT NULL,
               password_hash TEXT NOT NULL,
               registered_at REAL NOT NULL,
               last_seen     REAL
           )"""


def build_v1(path: Path) -> None:
    """A version-1 database file made by hand, as the first release left it."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version (version) VALUES (1)")
    conn.execute(V1_ACCOUNTS)
    conn.executemany("INSERT INTO accounts VALUES (?, ?, ?, ?, ?)", [
        ("alice", "Alice", "scrypt$16384$8$1$c2FsdA==$aGFzaA==", 100.0, 150.0),
        ("bob", "Bob", "scrypt$16384$8$1$c2FsdDI=$aGFzaDI=", 200.0, None),
    ])
    conn.commit()
    conn.close()


def test_migration_one_is_never_edited() -> None:
    first = MIGRATIONS[0]
    assert (first.version, first.description, list(first.statements)) == (
        1, "accounts", [V1_ACCOUNTS])
    versions = [m.version for m in MIGRATIONS]
    assert versions == list(range(1, len(MIGRATIONS) + 1))


def test_a_version_1_database_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    build_v1(path)
    inode = path.stat().st_ino
    store = Store(str(path), inline_runner)
    assert fired(store.open()) == MIGRATIONS[-1].version
    # the same file, the accounts as they were, and the new column empty
    assert path.stat().st_ino == inode
    alice = fired(store.get_account("ALICE"))
    assert (alice.name, alice.password_hash, alice.registered_at, alice.last_seen, alice.role) == (
        "Alice", "scrypt$16384$8$1$c2FsdA==$aGFzaA==", 100.0, 150.0, None)
    assert fired(store.get_account("bob")).last_seen is None
    # migration 5: the language an account chose (/set lang), none yet
    assert alice.language is None
    assert fired(store.set_language("alice", "de")) is True
    assert fired(store.get_account("Alice")).language == "de"
    assert fired(store.set_language("nobody", "de")) is False
    # the new tables work on the upgraded file
    assert fired(store.set_role("bob", "admin")) is True
    assert fired(store.get_account("bob")).role == "admin"
    assert fired(store.set_role("nobody", "moderator")) is False
    with pytest.raises(ValueError):
        fired(store.set_role("bob", "emperor"))
    rec = fired(GameArchive(store).save(finished_game(
        random_game(1, rounds=1), ["Alice", "Bob", "Carol", "Dave"])))
    assert rec.game_id == 1
    fired(store.close())
    # reopening finds nothing left to do, and the data is still there
    again = Store(str(path), inline_runner)
    assert fired(again.open()) == MIGRATIONS[-1].version
    assert fired(again.get_account("bob")).role == "admin"
    assert fired(GameArchive(again).load(1)).players[0].name == "Alice"
    fired(again.close())
    conn = sqlite3.connect(path)
    tables = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"accounts", "games", "game_players", "player_stats", "player_ratings",
            "journal_tables", "journal_actions"} <= tables
    # the role column only takes the documented values
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE accounts SET role = 'king' WHERE name_key = 'alice'")
    assert set(ROLES) == {"moderator", "admin"}
    conn.close()


def test_a_database_newer_than_the_code_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "from-the-future.sqlite3"
    build_v1(path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = ?", (MIGRATIONS[-1].version + 1,))
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match=r"from-the-future\.sqlite3.*newer"):
        fired(Store(str(path), inline_runner).open())
    # and it was left alone
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == \
        MIGRATIONS[-1].version + 1
    assert conn.execute("SELECT count(*) FROM accounts").fetchone()[0] == 2
    conn.close()
