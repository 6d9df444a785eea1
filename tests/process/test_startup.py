"""Honest start-up and honest failures (issue 12): a database that cannot be written (an immutable
file or folder -- chattr +i, which holds for root too --, a full disk: a tiny tmpfs in a user
and mount namespace) or that fails PRAGMA quick_check stops the server before it listens: exit
status 1, one line naming the file and the cause. A journal write that fails while the server
runs is logged as an error and the players of the table are told that their game cannot be
saved."""
from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from twisted.logger import LogLevel, formatEvent

from conftest import fired, unwrap
from lobby.storage.store import Store, StoreError, inline_runner
from server_process import run_server

ROOT = Path(__file__).resolve().parents[2]


def start_on(db: Path, *wrapper: str) -> subprocess.CompletedProcess[str]:
    """The server started on ``db`` (and a free port), run to its end: a refused start."""
    return run_server("--db", str(db), "--port", "tcp:0:interface=127.0.0.1", wrapper=wrapper)


def make_db(path: Path, rows: int = 0) -> None:
    """A database of the current schema (and ``rows`` accounts), closed cleanly."""
    store = Store(str(path), inline_runner)
    fired(store.open())
    for i in range(rows):
        fired(store.create_account(f"Player{i:05d}", "h" * 60, 1.0))
    fired(store.close())


def refused_before_listening(done: subprocess.CompletedProcess[str], db: Path) -> str:
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tichu-lobby: ") and repr(str(db)) in lines[0]
    assert "listening on" not in done.stdout and "Traceback" not in done.stdout + done.stderr
    return lines[0]


def _chattr(flag: str, path: Path) -> bool:
    return shutil.which("chattr") is not None and subprocess.run(
        ["chattr", flag, str(path)], capture_output=True).returncode == 0


@pytest.mark.parametrize("what", ["file", "folder"])
def test_an_unwritable_database_stops_the_start(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "lobby.sqlite3"
    make_db(db)
    target = db if what == "file" else folder
    if not _chattr("+i", target):
        pytest.skip("chattr +i is not available here (no e2fsprogs, or a file system without "
                    "the immutable flag)")
    try:
        line = refused_before_listening(start_on(db), db)
    finally:
        _chattr("-i", target)
    assert "cannot be written" in line or "cannot be opened" in line, line
    if what == "file":
        assert "readonly" in line
    else:
        assert "folder" in line


def test_the_write_probe_finds_a_read_only_database_in_process(tmp_path: Path) -> None:
    """Without chattr: the same probe on a connection SQLite opened read-only (URI mode=ro)."""
    db = tmp_path / "lobby.sqlite3"
    make_db(db)
    store = Store(f"file:{db}?mode=ro", inline_runner)
    with pytest.raises(StoreError) as e:
        fired(store.open())
    assert "cannot be written" in str(e.value) and "readonly" in str(e.value)


def test_a_full_disk_at_the_write_probe_stops_the_start(tmp_path: Path) -> None:
    if shutil.which("unshare") is None or subprocess.run(
            ["unshare", "-rm", "true"], capture_output=True).returncode != 0:
        pytest.skip("no user and mount namespaces here (unshare -rm) for a tiny tmpfs")
    made = tmp_path / "made.sqlite3"
    make_db(made)
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    db = mnt / "lobby.sqlite3"
    script = (f'mount -t tmpfs -o size=512k tmpfs "{mnt}" && cp "{made}" "{db}" && '
              f'(dd if=/dev/zero of="{mnt}/filler" bs=4k 2>/dev/null; true) && exec "$@"')
    line = refused_before_listening(start_on(db, "unshare", "-rm", "sh", "-c", script,
                                               "full-disk"), db)
    assert "cannot be written" in line and "full disk" in line, line


def test_a_database_that_fails_quick_check_stops_the_start(tmp_path: Path) -> None:
    db = tmp_path / "lobby.sqlite3"
    make_db(db, rows=3000)
    with sqlite3.connect(db) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    with open(db, "r+b") as f:            # scribble over a page of the accounts' b-tree
        f.seek(size * (pages // 2) + 100)
        f.write(random.Random(7).randbytes(2000))
    line = refused_before_listening(start_on(db), db)
    assert "fails PRAGMA quick_check" in line, line


# ---- while running: a journal write fails ------------------------------------------------------
def test_a_failed_journal_write_is_an_error_and_the_players_are_told(clock: Any,
                                                                      logged: Any) -> None:
    from table_support import Lobby, play, seat_players
    lobby = Lobby(clock)
    clients = seat_players(lobby)
    lobby.turn()
    for c in clients.values():
        c.lines()
    # from now on every write fails: SQLite refuses writes on this connection
    fired(lobby.store.run_query(lambda conn: conn.execute("PRAGMA query_only = ON")))
    play(lobby, random.Random(3), steps=3)
    lobby.turn()
    told = {name: [l for l in unwrap("\r\n".join(c.lines())).split("\r\n")
                   if "[game-not-saved]" in l] for name, c in clients.items()}
    for name, lines in told.items():
        assert lines == ["! [game-not-saved] The server cannot save the game at table 1 (a "
                         "database write failed; the operator finds it in the log). You can play "
                         "on, but this game may be lost if the server stops."], (name, lines)
    assert lobby.persistence.journal.failures >= 1
    errors = [e for e in logged if e.get("log_level") == LogLevel.error
              and "was NOT committed" in formatEvent(e)]
    assert errors and "tables [1]" in formatEvent(errors[0])
    assert lobby.world.tables[1].state == "playing"          # the game goes on


def test_commits_that_work_again_are_a_warning_with_the_count_meanwhile(clock: Any,
                                                                         logged: Any) -> None:
    """Outside finding (issue 27 review, item 5): the recovery line was an error ending in a
    stray "(-)" (`journal: commits work again: 129 more batches NOT committed since the last
    line (-)`); it is a warning that says the trouble is over and how many failed meanwhile."""
    from table_support import Lobby, play, seat_players
    lobby = Lobby(clock)
    seat_players(lobby)
    lobby.turn()
    fired(lobby.store.run_query(lambda conn: conn.execute("PRAGMA query_only = ON")))
    play(lobby, random.Random(3), steps=6)
    lobby.turn()
    failed = lobby.persistence.journal.failures
    assert failed >= 2
    fired(lobby.store.run_query(lambda conn: conn.execute("PRAGMA query_only = OFF")))
    play(lobby, random.Random(4), steps=3)
    lobby.turn()
    again = [e for e in logged if "commits work again" in formatEvent(e)]
    assert len(again) == 1, [formatEvent(e) for e in again]
    assert again[0]["log_level"] == LogLevel.warn
    assert formatEvent(again[0]) == (f"journal: commits work again; {failed - 1} more batches "
                                     "failed since the last line")


@pytest.mark.parametrize("every", [None, 3600.0])
def test_a_run_of_failed_journal_writes_logs_one_traceback_then_a_summary_a_minute(
        clock: Any, logged: Any, every: float | None) -> None:
    """The summary comes a minute after the first failure; with --journal-failure-summary 3600
    (configure_journal sets it on the journal) not yet."""
    from protocol.process.options import configure_journal, parse_args
    from table_support import Lobby, play, seat_players
    lobby = Lobby(clock)
    if every is not None:
        class Journal:
            failure_summary = 60.0
        configured = Journal()
        configure_journal(configured, parse_args(["--journal-failure-summary", str(every)]))
        assert configured.failure_summary == every
        lobby.persistence.journal.failure_summary = every
    clients = seat_players(lobby)
    lobby.turn()
    fired(lobby.store.run_query(lambda conn: conn.execute("PRAGMA query_only = ON")))
    play(lobby, random.Random(3), steps=3)
    lobby.turn()
    journal = lobby.persistence.journal
    first = journal.failures
    clock.advance(61)
    play(lobby, random.Random(4), steps=3)
    lobby.turn()
    assert journal.failures > first >= 1
    whole = [e for e in logged if "was NOT committed" in formatEvent(e)]
    assert len(whole) == 1 and whole[0].get("log_failure") is not None
    summaries = [formatEvent(e) for e in logged if "commits still fail" in formatEvent(e)]
    if every is not None:
        assert summaries == []
        return
    assert len(summaries) == 1 and "more batches NOT committed" in summaries[0], summaries
    assert clients


def test_a_server_without_a_web_listener_never_imports_autobahn() -> None:
    """autobahn (the WebSocket of ``--web``, protocol/web/websocket.py) cost about 0.13 s of CPU
    of every server start, ``--help`` and admin command; it is imported when a web listener is
    made, and only then (issue 25: most of the quick loop's subprocesses are such starts)."""
    assert _modules_left_after(
        "import protocol.process.entry, protocol.process.server, protocol.process.options\n"
        "import protocol.process.admin_cli, protocol.process.metrics, protocol.web\n",
        "m.split('.')[0] == 'autobahn'") == "[]"


def test_a_server_without_a_metrics_or_web_port_never_imports_twisted_web_nor_babel() -> None:
    """twisted.web (with twisted.spread, hyperlink and the web package's archive) cost about
    0.1 s of CPU of every server start and ``--help``, because the options imported the metrics
    port's site and the web package to declare their options; now the site is
    protocol/process/metrics_site.py, imported for ``--metrics`` only, and the --web-* options
    are declared in protocol/web_options.py (issue 25). OpenSSL is still imported: Twisted's own
    TCP transport (twisted.internet.tcp) imports it for startTLS. Nor babel.messages: the
    catalogs' .mo files are read with ``struct`` (lobby/text/translations.py), not with Babel's
    read_mo (about 25 ms more)."""
    assert _modules_left_after(
        "import protocol.process.entry, protocol.process.server, protocol.process.options\n"
        "import protocol.process.admin_cli, protocol.process.metrics, protocol.web_options\n"
        "from protocol.process.options import build_parser\n"
        "build_parser()\n",
        "m.startswith(('twisted.web', 'twisted.spread', 'protocol.web',"
        " 'protocol.process.metrics_site', 'babel.messages')) and m != 'protocol.web_options'",
    ) == "[]"


def _modules_left_after(code: str, which: str) -> str:
    """Run ``code`` in a fresh interpreter, then print the sorted names ``m`` of sys.modules for
    which the expression ``which`` holds."""
    import sys

    from server_process import run
    done = run([sys.executable, "-c",
                f"import sys\n{code}print(sorted(m for m in sys.modules if {which}))"], cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip()
