"""``tichu-lobby admin ...`` (protocol/process/admin_cli.py) on real database files: create (with a role),
reset-password, remove, bans list/lift, backup -- also while another connection (the running
server's) has the database open -- and ``--admin NAME``, which needs the account to exist."""
from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import FAST_HASH, fired
from lobby.storage.accounts import verify_password
from lobby.storage.store import Store, inline_runner
from protocol.process.admin_cli import main as admin_main

ROOT = Path(__file__).resolve().parents[2]


def admin(db: Path, *args: str, stdin: str = "", ask: Any = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = admin_main(["--db", str(db), *args], stdin=io.StringIO(stdin), stdout=out, stderr=err,
                      ask=ask, params=FAST_HASH)
    return code, out.getvalue(), err.getvalue()


def account(db: Path, name: str) -> Any:
    store = Store(str(db), inline_runner)
    fired(store.open())
    try:
        return fired(store.get_account(name))
    finally:
        fired(store.close())


def test_create_an_admin_with_the_password_from_a_file(tmp_path: Path) -> None:
    db = tmp_path / "lobby.sqlite3"
    pw = tmp_path / "pw.txt"
    pw.write_text("sesame12\n", encoding="utf-8")
    code, out, err = admin(db, "create", "Boss", "--role", "admin", "--password-file", str(pw))
    assert (code, err) == (0, "") and out == f"created the account Boss (admin) in {db}\n"
    boss = account(db, "boss")
    assert boss.name == "Boss" and boss.role == "admin"
    assert boss.password_hash.startswith("$argon2id$") and verify_password("sesame12",
                                                                           boss.password_hash)
    code, out, err = admin(db, "create", "Mod", "--role", "moderator", "--password-file", "-",
                           stdin="modpass1\r\n")
    assert code == 0 and account(db, "Mod").role == "moderator"
    assert verify_password("modpass1", account(db, "Mod").password_hash)
    code, _, err = admin(db, "create", "Plain", "--role", "player", "--password-file", "-",
                         stdin="plainpw1\n")
    assert code == 0 and account(db, "Plain").role is None


def test_create_asks_for_the_password_twice_without_a_file(tmp_path: Path) -> None:
    db = tmp_path / "lobby.sqlite3"
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return "sesame12"
    assert admin(db, "create", "Boss", ask=ask)[0] == 0
    assert asked == ["Password for Boss: ", "The same password again: "]
    answers = iter(["sesame12", "sesame13"])
    code, _, err = admin(db, "create", "Other", ask=lambda prompt: next(answers))
    assert code == 1 and err == "tichu-lobby admin: the two passwords differ; nothing changed\n"
    assert account(db, "Other") is None


def test_refusals_are_one_line_and_exit_status_1(tmp_path: Path) -> None:
    db = tmp_path / "lobby.sqlite3"
    assert admin(db, "create", "Boss", "--password-file", "-", stdin="sesame12\n")[0] == 0
    cases = [
        (("create", "Boss", "--password-file", "-"), "sesame12\n",
         "Boss is registered already; reset-password changes its password"),
        (("create", "no way", "--password-file", "-"), "sesame12\n",
         "no way is not a valid name: use 3 to 16 characters, each an ASCII letter a-z or A-Z, "
         "a digit 0-9, _ or -."),
        (("create", "Shorty", "--password-file", "-"), "abc\n",
         "A password has 4 to 128 characters and no spaces."),
        (("create", "Nofile", "--password-file", str(tmp_path / "missing")), "",
         f"cannot read the password file {str(tmp_path / 'missing')!r}: No such file or "
         "directory"),
        (("reset-password", "Nobody", "--password-file", "-"), "sesame12\n",
         f"Nobody is not a registered name in {db}"),
        (("remove", "Nobody"), "", f"Nobody is not a registered name in {db}"),
        (("bans", "lift", "Nobody"), "", f"Nobody is not banned in {db}"),
    ]
    for args, stdin, message in cases:
        code, out, err = admin(db, *args, stdin=stdin)
        assert (code, out, err) == (1, "", f"tichu-lobby admin: {message}\n"), args
    code, _, err = admin(tmp_path / "none.sqlite3", "remove", "Boss")
    assert code == 1 and "no database file" in err and not (tmp_path / "none.sqlite3").exists()


def test_a_password_is_never_taken_from_the_command_line(tmp_path: Path,
                                                         capsys: Any) -> None:
    code, _, _ = admin(tmp_path / "x.sqlite3", "create", "Boss", "--password", "sesame12")
    assert code == 2 and not (tmp_path / "x.sqlite3").exists()


def test_reset_password_and_remove(tmp_path: Path) -> None:
    db = tmp_path / "lobby.sqlite3"
    assert admin(db, "create", "Ann", "--role", "player", "--password-file", "-",
                 stdin="sesame12\n")[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO mutes VALUES ('ann', 'bob', 'Bob')")
        conn.execute("INSERT INTO player_stats (name_key, games) VALUES ('ann', 3)")
    code, out, _ = admin(db, "reset-password", "ann", "--password-file", "-", stdin="newpass12\n")
    assert code == 0 and out == "the password of Ann is changed\n"
    assert verify_password("newpass12", account(db, "Ann").password_hash)
    assert not verify_password("sesame12", account(db, "Ann").password_hash)
    code, out, _ = admin(db, "remove", "ANN")
    assert code == 0 and out.startswith("removed the account Ann")
    assert account(db, "Ann") is None
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM mutes").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM player_stats").fetchone()[0] == 0


def test_bans_list_and_lift(tmp_path: Path) -> None:
    db = tmp_path / "lobby.sqlite3"
    assert admin(db, "create", "Boss", "--password-file", "-", stdin="sesame12\n")[0] == 0
    assert admin(db, "bans", "list") == (0, "no bans\n", "")
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO bans (name_key, name, until, reason, banned_by, banned_at) "
                     "VALUES ('spammer', 'Spammer', NULL, 'advertising', 'Boss', 1500000000)")
        conn.execute("INSERT INTO bans (name_key, name, until, reason, banned_by, banned_at) "
                     "VALUES ('old', 'Old', 1500000600, 'flooding', 'Boss', 1500000000)")
    code, out, _ = admin(db, "bans", "list")
    assert code == 0 and out.splitlines() == [
        "2 bans:",
        "  Spammer: until further notice, by Boss at 2017-07-14 02:40 UTC: advertising",
        "  Old: until 2017-07-14 02:50 UTC (expired), by Boss at 2017-07-14 02:40 UTC: flooding"]
    code, out, _ = admin(db, "bans", "lift", "spammer")
    assert code == 0 and out.startswith("the ban on spammer is lifted")
    assert admin(db, "bans", "list")[1].splitlines()[0] == "1 ban:"


def test_backup_while_the_server_has_the_database_open(tmp_path: Path) -> None:
    db = tmp_path / "lobby.sqlite3"
    assert admin(db, "create", "Boss", "--password-file", "-", stdin="sesame12\n")[0] == 0
    running = Store(str(db), inline_runner)            # the server's connection, in WAL mode
    fired(running.open())
    try:
        assert fired(running.create_account("Late", "h", 1.0))   # committed, still in the WAL
        assert (tmp_path / "lobby.sqlite3-wal").exists()
        code, out, err = admin(db, "backup", str(tmp_path / "copy.sqlite3"))
        assert (code, err) == (0, "") and out == f"backup of {db} written to " \
                                                 f"{tmp_path / 'copy.sqlite3'}\n"
        code, _, err = admin(db, "backup", str(tmp_path / "copy.sqlite3"))
        assert code == 1 and "exists already" in err
        assert fired(running.create_account("Later", "h", 2.0))  # the server goes on writing
    finally:
        fired(running.close())
    with sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
        names = sorted(r[0] for r in copy.execute("SELECT name FROM accounts"))
        assert names == ["Boss", "Late"]
        assert copy.execute("PRAGMA quick_check").fetchone()[0] == "ok"


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "protocol", *args], capture_output=True,
                          text=True, timeout=60, env=env, cwd=cwd)


def test_admin_without_an_account_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "lobby.sqlite3"
    done = _run("--db", str(db), "--admin", "Boss", "--port", "tcp:0:interface=127.0.0.1",
                cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (f"tichu-lobby: --admin Boss: there is no account Boss in the database "
                           f"{str(db)!r}; create it first: tichu-lobby admin create Boss\n")
    assert "listening on" not in done.stdout and "Traceback" not in done.stdout + done.stderr


def test_the_admin_subcommands_from_the_program(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("sesame12\n", encoding="utf-8")
    made = _run("admin", "create", "Boss", "--role", "admin", "--password-file", "pw",
                cwd=tmp_path)
    assert made.returncode == 0 and "created the account Boss (admin) in tichu.sqlite3" in \
        made.stdout and (tmp_path / "tichu.sqlite3").exists()
    listed = _run("admin", "bans", "list", "--db", "tichu.sqlite3", cwd=tmp_path)
    assert (listed.returncode, listed.stdout) == (0, "no bans\n")
    helped = _run("admin", "--help", cwd=tmp_path)
    for word in ("create", "list", "set-role", "reset-password", "remove", "bans", "backup"):
        assert word in helped.stdout


def test_create_makes_a_player_by_default_and_list_and_set_role(tmp_path: Path) -> None:
    """Issue 27: `create NAME` is a player unless --role says otherwise; `list` shows every
    account with its role; `set-role NAME ROLE` changes it (player: no role)."""
    db = tmp_path / "lobby.sqlite3"
    code, out, _ = admin(db, "create", "Ann", "--password-file", "-", stdin="sesame12\n")
    assert code == 0 and "(player)" in out and account(db, "Ann").role is None
    assert admin(db, "create", "Boss", "--role", "admin", "--password-file", "-",
                 stdin="sesame12\n")[0] == 0
    code, out, _ = admin(db, "list")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "2 accounts:"
    assert lines[1].split()[:2] == ["Ann", "player"] and lines[2].split()[:2] == ["Boss", "admin"]
    code, out, _ = admin(db, "set-role", "ann", "moderator")
    assert code == 0 and account(db, "Ann").role == "moderator" and "was player" in out
    assert admin(db, "set-role", "Ann", "player")[0] == 0 and account(db, "Ann").role is None
    code, _, err = admin(db, "set-role", "Nobody", "admin")
    assert code == 1 and "not a registered name" in err
    assert admin(db, "set-role", "Ann", "king")[0] == 2


def test_set_role_takes_none_as_the_lobby_does_and_says_it_without_an_article(
        tmp_path: Path) -> None:
    """Outside finding (issue 27 review, item 8): `admin set-role Alice none` was refused while
    the lobby's `/role` takes `none`; and the answer read "Alice is a admin now"."""
    db = tmp_path / "lobby.sqlite3"
    assert admin(db, "create", "Alice", "--password-file", "-", stdin="sesame12\n")[0] == 0
    code, out, _ = admin(db, "set-role", "Alice", "admin")
    assert code == 0 and out.startswith("Alice's role is admin now (was player; "), out
    code, out, err = admin(db, "set-role", "Alice", "none")
    assert code == 0, err
    assert account(db, "Alice").role is None and out.startswith("Alice's role is player now "
                                                                "(was admin; "), out


def test_the_database_and_its_backup_are_private(tmp_path: Path) -> None:
    """Issue 27: they hold password hashes: 0600 whatever the umask, the WAL too."""
    import os
    import stat
    db = tmp_path / "lobby.sqlite3"
    old = os.umask(0o022)
    try:
        assert admin(db, "create", "Ann", "--password-file", "-", stdin="sesame12\n")[0] == 0
        assert admin(db, "backup", str(tmp_path / "copy.sqlite3"))[0] == 0
        with sqlite3.connect(db) as conn:          # a WAL file as the server makes it
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("INSERT INTO mutes VALUES ('ann', 'bob', 'Bob')")
            assert (tmp_path / "lobby.sqlite3-wal").exists()
            for path in (db, tmp_path / "copy.sqlite3", tmp_path / "lobby.sqlite3-wal"):
                assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    finally:
        os.umask(old)


def test_the_wording_of_counts_never_seen_accounts_bans_alone_and_bad_files(
        tmp_path: Path) -> None:
    """Outside finding U6: `1 account:` / `1 ban:` (no `1 accounts`), an account nobody has
    logged in with is `never logged in` (not "last seen" at its creation), `bans` alone lists
    them, and a file that cannot be used is said in words, not SQLite's or Python's."""
    db = tmp_path / "lobby.sqlite3"
    assert admin(db, "create", "Ann", "--password-file", "-", stdin="sesame12\n")[0] == 0
    code, out, _ = admin(db, "list")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "1 account:"
    assert lines[1].endswith(", never logged in") and "last seen" not in lines[1]
    store = Store(str(db), inline_runner)
    fired(store.open())
    fired(store.touch("Ann", 2e9))                   # she logged in (and out) later
    fired(store.close())
    assert admin(db, "list")[1].splitlines()[1].endswith(", last seen 2033-05-18")
    assert admin(db, "bans") == (0, "no bans\n", "")
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database, just some text " * 100)
    code, _, err = admin(tmp_path / "junk.sqlite3", "list")
    assert code == 1 and err == ("tichu-lobby admin: database file "
                                 f"{str(tmp_path / 'junk.sqlite3')!r} is not an SQLite database "
                                 "(another kind of file, or a damaged one)\n")
    nowhere = tmp_path / "nowhere" / "x.sqlite3"
    code, _, err = admin(nowhere, "create", "Bob", "--password-file", "-", stdin="sesame12\n")
    assert code == 1 and err == (f"tichu-lobby admin: cannot open database file {str(nowhere)!r}"
                                 f": its folder {str(nowhere.parent)!r} does not exist\n")
    code, _, err = admin(db, "backup", str(nowhere))
    assert code == 1 and err.endswith(f"its folder {str(nowhere.parent)!r} does not exist\n")
    for text in (err, out):
        assert "unable to open" not in text and "file is not a database" not in text
