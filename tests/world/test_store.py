"""The SQLite store: migrations, accounts, clear errors; and password hashing."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import pytest_twisted
from twisted.python.threadable import isInIOThread

from conftest import FAST_SCRYPT, fired, within
from lobby.storage.accounts import (
    ScryptParams,
    check_name,
    check_password,
    hash_password,
    hash_password_scrypt,
    is_reserved,
    valid_name,
    verify_password,
)
from lobby.storage.store import MIGRATIONS, Migration, Store, StoreError, inline_runner
from lobby.text.messages import LobbyError


def test_accounts_round_trip(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "a.sqlite3"), inline_runner)
    assert fired(store.open()) == MIGRATIONS[-1].version
    assert fired(store.get_account("alice")) is None
    assert fired(store.create_account("Alice", "h1", 100.0)) is True
    assert fired(store.create_account("ALICE", "h2", 101.0)) is False
    account = fired(store.get_account("aLiCe"))
    assert (account.name, account.password_hash, account.registered_at, account.last_seen) == (
        "Alice", "h1", 100.0, 100.0)
    assert fired(store.set_password("alice", "h3")) is True
    assert fired(store.touch("alice", 200.0)) is True
    assert fired(store.touch("nobody", 200.0)) is False
    account = fired(store.get_account("alice"))
    assert (account.password_hash, account.last_seen) == ("h3", 200.0)
    fired(store.close())
    # it survives reopening
    again = Store(str(tmp_path / "a.sqlite3"), inline_runner)
    fired(again.open())
    assert fired(again.get_account("alice")).password_hash == "h3"
    fired(again.close())


def test_wal_mode_and_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"
    store = Store(str(path), inline_runner)
    fired(store.open())
    fired(store.close())
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == MIGRATIONS[-1].version
    conn.close()


def test_an_older_database_is_upgraded_not_recreated(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite3")
    old = Store(path, inline_runner, MIGRATIONS)
    fired(old.open())
    fired(old.create_account("Bob", "hash", 5.0))
    fired(old.close())
    later = [*MIGRATIONS, Migration(MIGRATIONS[-1].version + 1, "ratings", [
        "CREATE TABLE ratings (name_key TEXT PRIMARY KEY, rating INTEGER NOT NULL)",
        "INSERT INTO ratings SELECT name_key, 1500 FROM accounts",
    ])]
    new = Store(path, inline_runner, later)
    assert fired(new.open()) == later[-1].version
    assert fired(new.get_account("bob")).password_hash == "hash"
    assert fired(new._run(lambda: new._db().execute("SELECT * FROM ratings").fetchall())) == [
        ("bob", 1500)]
    fired(new.close())
    # and the older server refuses the newer file clearly
    with pytest.raises(StoreError, match=r"old\.sqlite3.*newer"):
        fired(Store(path, inline_runner, MIGRATIONS).open())


def test_a_failing_migration_leaves_the_old_version(tmp_path: Path) -> None:
    path = str(tmp_path / "m.sqlite3")
    fired(Store(path, inline_runner).open())
    broken = [*MIGRATIONS, Migration(99, "broken", ["CREATE TABLE x (a)", "NOT SQL AT ALL"])]
    with pytest.raises(StoreError, match=r"m\.sqlite3"):
        fired(Store(path, inline_runner, broken).open())
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == MIGRATIONS[-1].version
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'x'").fetchone() is None
    conn.close()


def test_corrupt_and_unusable_files_give_a_clear_error_naming_the_file(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.sqlite3"
    corrupt.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(StoreError, match=r"corrupt\.sqlite3"):
        fired(Store(str(corrupt), inline_runner).open())
    missing_dir = tmp_path / "no" / "such" / "dir.sqlite3"
    with pytest.raises(StoreError, match=r"dir\.sqlite3"):
        fired(Store(str(missing_dir), inline_runner).open())
    with pytest.raises(StoreError, match="is_a_dir"):
        (tmp_path / "is_a_dir").mkdir()
        fired(Store(str(tmp_path / "is_a_dir"), inline_runner).open())


@pytest_twisted.ensureDeferred
async def test_the_threaded_store_runs_queries_off_the_reactor_thread(tmp_path: Path) -> None:
    from twisted.internet import reactor
    store = Store.threaded(str(tmp_path / "t.sqlite3"), reactor)
    try:
        await within(store.open())
        assert await within(store.create_account("Zed", "h", 1.0))
        assert isInIOThread() and await within(store._run(isInIOThread)) is False
        assert (await within(store.get_account("zed"))).name == "Zed"
    finally:
        await within(store.close())


def test_password_hashes_are_salted_self_describing_and_verified() -> None:
    a = hash_password("correct horse", FAST_SCRYPT)
    b = hash_password("correct horse", FAST_SCRYPT)
    assert a != b and a.startswith("$argon2id$v=19$m=8,t=1,p=1$") and "correct" not in a
    assert verify_password("correct horse", a) and verify_password("correct horse", b)
    assert not verify_password("correct hors", a)
    assert not verify_password("x", "garbage") and not verify_password("x", "md5$1$2$3$4$5")
    assert not verify_password("x", "$argon2id$v=19$m=8,t=1,p=1$broken")
    strong = hash_password("pw12")
    assert strong.startswith("$argon2id$v=19$m=19456,t=2,p=1$") and verify_password("pw12", strong)
    old = hash_password_scrypt("pw12", ScryptParams(n=2**8))   # the first version's scheme
    assert old.startswith("scrypt$256$8$1$") and verify_password("pw12", old)
    assert not verify_password("pw13", old)


def test_names_and_passwords() -> None:
    assert valid_name("Bob") and valid_name("a_b-c123") and valid_name("x" * 16)
    for bad in ("ab", "x" * 17, "bob smith", "bób", "bob\n", "", "a.b"):
        assert not valid_name(bad)
    for reserved in ("guest", "Guest1234", "GUESTS", "admin", "Server"):
        assert is_reserved(reserved)
        with pytest.raises(LobbyError) as e:
            check_name(reserved)
        assert e.value.code == "reserved-name"
    assert not is_reserved("administrator") and not is_reserved("myguest")
    with pytest.raises(LobbyError) as e:
        check_name("no way")
    assert e.value.code == "bad-name"
    check_password("abcd")
    for bad in ("abc", "with space", "x" * 129):
        with pytest.raises(LobbyError) as e:
            check_password(bad)
        assert e.value.code == "bad-password"


def test_a_final_checkpoint_that_cannot_finish_is_logged_as_an_error(tmp_path: Path) -> None:
    """Found by an external review: on a full disk a clean stop said "database closed" while all
    its data stayed in the -wal file, and the docs said the file alone was enough to copy. Here
    another process's open read transaction keeps the checkpoint from finishing (the same path
    as a full disk: the WAL cannot be folded in)."""
    import sqlite3 as sq

    from twisted.logger import formatEvent

    from conftest import fired, logged_events
    from lobby.storage.store import Store
    path = tmp_path / "t.sqlite3"
    store = Store(str(path))
    fired(store.open())
    reader = sq.connect(str(path))
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM accounts").fetchone()   # a snapshot held open
    fired(store.create_account("Ann", "x", 0.0))
    with logged_events() as events:
        fired(store.close())
    reader.close()
    errors = [formatEvent(e) for e in events if e.get("log_level") is not None
              and e["log_level"].name == "error"]
    assert len(errors) == 1 and "final checkpoint did not finish" in errors[0]
    assert f"{path}-wal" in errors[0]
    # an ordinary close folds the WAL in and logs nothing
    store = Store(str(path))
    fired(store.open())
    with logged_events() as events:
        fired(store.close())
    assert not [e for e in events if e.get("log_level") is not None
                and e["log_level"].name == "error"]
    wal = tmp_path / "t.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
