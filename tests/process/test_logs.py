"""The server's log options (protocol/process/logs.py; docs/operations.md, Logs): --log-format json writes
one JSON object per line that json.loads and twisted.logger both read, --log-level leaves out the
events below it, --log-file rotates at the size limit and keeps --log-rotate-keep old files; the
console script takes them (a real subprocess), and refuses options that do not go together."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from twisted.logger import Logger, eventsFromJSONLogFile, formatEvent
from twisted.python.failure import Failure
from twisted.python.logfile import DailyLogFile, LogFile

from protocol.process.logs import LEVELS, make_observer, open_log_file
from protocol.process.options import parse_args
from server_process import ServerProcess, command, greeting, json_port


def opts(*argv: str) -> Any:
    return parse_args(list(argv))


def emit(observer: Any, count: int = 1, level: str = "info") -> None:
    log = Logger(namespace="tests.logs", observer=observer)
    for i in range(count):
        getattr(log, level)("event {number} of {kind} at table {table}", number=i, kind=level,
                            table=7)


def test_json_lines_parse_with_json_and_twisted(tmp_path: Path) -> None:
    path = tmp_path / "lobby.log"
    options = opts("--log-format", "json", "--log-file", str(path))
    out = open_log_file(options)
    observer = make_observer(options, out)
    emit(observer, 3)
    log = Logger(namespace="tests.logs", observer=observer)
    try:
        raise ValueError("a broken table")
    except ValueError:
        log.failure("table {table} failed", Failure(), table=3)
    out.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    records = [json.loads(line) for line in lines]           # plain JSON lines, no 0x1E prefix
    assert [r["number"] for r in records[:3]] == [0, 1, 2]
    assert all(r["log_namespace"] == "tests.logs" for r in records)
    assert records[0]["log_level"]["name"] == "info" and records[0]["table"] == 7
    assert records[3]["log_level"]["name"] == "critical" and "log_failure" in records[3]
    with path.open(encoding="utf-8") as f:
        events = list(eventsFromJSONLogFile(f))
    assert [formatEvent(e) for e in events[:2]] == ["event 0 of info at table 7",
                                                    "event 1 of info at table 7"]


@pytest.mark.parametrize("level", ["debug", "info", "warn", "error", "critical"])
def test_log_level_filters(level: str) -> None:
    out = io.StringIO()
    observer = make_observer(opts("--log-level", level), out)
    for kind in LEVELS:
        emit(observer, 1, kind)
    logged = [kind for kind in LEVELS if f"of {kind} " in out.getvalue()]
    assert logged == list(LEVELS[LEVELS.index(level):])


def test_the_default_is_text_at_info() -> None:
    out = io.StringIO()
    observer = make_observer(opts(), out)
    emit(observer, 1, "debug")
    emit(observer, 1, "info")
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].endswith("[tests.logs#info] event 0 of info at table 7")


def test_rotation_happens_at_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "lobby.log"
    options = opts("--log-file", str(path), "--log-rotate-bytes", "1000", "--log-rotate-keep", "2")
    out = open_log_file(options)
    assert isinstance(out, LogFile)
    observer = make_observer(options, out)
    emit(observer, 1)
    record = path.stat().st_size                      # one event's line
    assert not (tmp_path / "lobby.log.1").exists()
    per_file = -(-1000 // record)                     # events until the file reaches 1000 bytes
    emit(observer, per_file - 1)
    assert not (tmp_path / "lobby.log.1").exists()    # at the limit, not yet past it
    assert path.stat().st_size >= 1000 - record
    emit(observer, 1)                                 # the first write at the limit rotates
    assert (tmp_path / "lobby.log.1").exists()
    emit(observer, 4 * per_file)
    out.close()
    old = sorted(p.name for p in tmp_path.iterdir())
    assert old == ["lobby.log", "lobby.log.1", "lobby.log.2"]   # --log-rotate-keep 2
    for name in old[1:]:
        size = (tmp_path / name).stat().st_size
        assert 1000 <= size < 1000 + record
    assert path.stat().st_size < 1000 + record


def test_daily_rotation_and_no_size_limit(tmp_path: Path) -> None:
    daily = open_log_file(opts("--log-file", str(tmp_path / "a.log"), "--log-rotate-daily"))
    assert isinstance(daily, DailyLogFile)
    daily.close()
    unlimited = open_log_file(opts("--log-file", str(tmp_path / "b.log"),
                                   "--log-rotate-bytes", "0", "--log-rotate-keep", "0"))
    assert isinstance(unlimited, LogFile)
    assert not unlimited.shouldRotate() and unlimited.maxRotatedFiles is None
    unlimited.close()
    assert open_log_file(opts()) is sys.stdout


@pytest.mark.parametrize("argv, message", [
    (["--log-rotate-bytes", "5"], "give --log-file PATH too"),
    (["--log-file", "x.log", "--log-rotate-daily", "--log-rotate-bytes", "3"], "rotates by date"),
    (["--log-level", "loud"], "--log-level: one of "),
    (["--log-format", "xml"], "--log-format: one of 'text', 'json', not 'xml'"),
    (["--log-file", "x.log", "--log-rotate-bytes", "-1"], "must be 0 or more"),
])
def test_options_that_do_not_go_together(argv: list[str], message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        parse_args(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_the_console_script_logs_json_lines(tmp_path: Path) -> None:
    argv = [command("tichu-lobby"), "--log-format", "json", "--db", str(tmp_path / "l.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1"]

    with ServerProcess(argv, tmp_path, find_port=json_port) as server:
        greeting(server.port)
        code, out = server.stop()
    assert code == 0, out
    records = [json.loads(line) for line in out.splitlines()]    # every line is one object
    formats = [r["log_format"] for r in records]
    assert "listening on {endpoint} ({address})" in formats
    assert "stopped; database {path} closed" in formats
    assert all(r["log_level"]["name"] in LEVELS for r in records)


def test_an_unwritable_log_file_stops_the_start(tmp_path: Path) -> None:
    done = subprocess.run([command("tichu-lobby"), "--log-file", str(tmp_path / "no" / "x.log"),
                           "--db", str(tmp_path / "l.sqlite3")],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("tichu-lobby: cannot open the log file ")
    assert len(done.stderr.splitlines()) == 1


def test_sighup_reopens_the_log_file(tmp_path: Path) -> None:
    """An external logrotate renames the file and sends SIGHUP: a new file begins."""
    import signal

    from twisted.internet import reactor

    from protocol.process import logs
    path = tmp_path / "lobby.log"
    options = opts("--log-file", str(path), "--log-rotate-bytes", "0")
    out = open_log_file(options)
    observer = make_observer(options, out)
    emit(observer, 2)
    path.rename(tmp_path / "lobby.log.old")
    before = signal.getsignal(signal.SIGHUP)
    try:
        assert logs.reopen_on_sighup(reactor)
        handler = signal.getsignal(signal.SIGHUP)
        assert callable(handler) and handler is not before
    finally:
        signal.signal(signal.SIGHUP, before)
    logs.reopen_log_files()              # what the handler schedules on the reactor thread
    emit(observer, 1)
    out.close()
    assert len((tmp_path / "lobby.log.old").read_text().splitlines()) == 2
    assert path.read_text().splitlines()[0].endswith("event 0 of info at table 7")
    assert len(path.read_text().splitlines()) == 1


def _check_record(r: dict[str, object]) -> None:
    from datetime import datetime
    when = str(r["time"])
    assert when.endswith("Z") and datetime.fromisoformat(when.replace("Z", "+00:00"))
    assert r["level"] in LEVELS and isinstance(r["namespace"], str)
    assert isinstance(r["message"], str) and r["message"]
    assert "unpersistable" not in json.dumps(r)


def test_json_lines_carry_time_level_namespace_message_and_the_exception(tmp_path: Path) -> None:
    """Issue 27: every JSON line has `time` (ISO 8601 UTC), `level`, `namespace`, the rendered
    `message`, the event's own fields (as text when JSON cannot hold them) and, for a failure,
    the whole traceback as `exception`: "database or disk is full" is in the log."""
    import sqlite3
    path = tmp_path / "lobby.log"
    options = opts("--log-format", "json", "--log-file", str(path))
    out = open_log_file(options)
    observer = make_observer(options, out)
    log = Logger(namespace="lobby.persistence", observer=observer)
    log.info("saving table {table} for {who}", table=3, who=object())
    try:
        raise sqlite3.OperationalError("database or disk is full")
    except sqlite3.OperationalError:
        log.failure("journal commit of table {table} failed", Failure(), table=3,
                    error=sqlite3.OperationalError("database or disk is full"))
    log.warn("stopping")
    out.close()
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 3
    for r in records:
        _check_record(r)
    assert records[0]["message"].startswith("saving table 3 for <object object")
    assert records[0]["table"] == 3 and str(records[0]["who"]).startswith("<object")
    failed = records[1]
    assert failed["level"] == "critical" and failed["namespace"] == "lobby.persistence"
    assert failed["message"] == "journal commit of table 3 failed"
    assert "Traceback" in failed["exception"] and "database or disk is full" in failed["exception"]
    assert failed["error"] == "database or disk is full"
    assert records[2]["level"] == "warn" and "exception" not in records[2]


def test_every_json_line_of_a_server_session_is_complete(tmp_path: Path) -> None:
    argv = [command("tichu-lobby"), "--log-format", "json", "--db", str(tmp_path / "l.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1", "--motd", str(tmp_path / "missing-later")]
    (tmp_path / "missing-later").write_text("hello\n", encoding="utf-8")
    with ServerProcess(argv, tmp_path, find_port=json_port) as server:
        greeting(server.port)
        code, out = server.stop()
    assert code == 0, out
    records = [json.loads(line) for line in out.splitlines()]
    assert records
    for r in records:
        _check_record(r)
    assert any(r["message"].startswith("listening on ") for r in records)


def test_daily_names_sort_and_keep_applies_to_them(tmp_path: Path) -> None:
    """Issue 27: PATH.YYYY-MM-DD (not PATH.2026_12_1), and --log-rotate-keep prunes them."""
    import os
    import stat

    from protocol.process.logs import DatedLogFile
    old = os.umask(0o022)
    try:
        daily = open_log_file(opts("--log-file", str(tmp_path / "a.log"), "--log-rotate-daily",
                                   "--log-rotate-keep", "2"))
    finally:
        os.umask(old)
    assert isinstance(daily, DatedLogFile)
    assert stat.S_IMODE((tmp_path / "a.log").stat().st_mode) == 0o640
    assert daily.suffix((2026, 12, 1)) == "2026-12-01"
    for day in (1, 2, 3, 9, 10):
        daily.write(f"a line of day {day}\n")
        daily.lastDate = (2026, 12, day)          # the day the current file began
        daily.rotate()
    daily.close()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["a.log", "a.log.2026-12-09", "a.log.2026-12-10"], names


def test_sighup_reloads_the_motd_and_says_so(tmp_path: Path) -> None:
    """Issue 27: SIGHUP reopens the logs and reloads the MOTD, with one log line saying what."""
    import signal
    motd = tmp_path / "motd.txt"
    motd.write_text("The old news.\n", encoding="utf-8")
    argv = [command("tichu-lobby"), "--log-format", "json", "--db", str(tmp_path / "l.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1", "--motd", str(motd)]
    with ServerProcess(argv, tmp_path, find_port=json_port) as server:
        assert "The old news." in greeting(server.port)
        motd.write_text("The new news.\n", encoding="utf-8")
        server.proc.send_signal(signal.SIGHUP)
        line = server.wait_for(lambda text: "SIGHUP" in text)
        record = json.loads(line)
        assert record["message"].startswith("SIGHUP: ") and "MOTD reloaded" in record["message"]
        assert "The new news." in greeting(server.port)
        code, _ = server.stop()
    assert code == 0


def test_a_sighup_during_the_start_never_ends_scripts_serve(tmp_path: Path) -> None:
    """Outside finding U11: SIGHUP sent to scripts/serve over and over from its first moment on
    (while it checks the environment, while the server imports, until it listens) never ends
    it: the process started is the server itself (exec), it comes up, and a SIGHUP then is
    handled (a log line), so one sent during the start-up never leaves an orphan either."""
    import signal
    import threading

    from server_process import ROOT
    argv = [str(ROOT / "scripts" / "serve"), "--db", str(tmp_path / "h.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1"]
    def under_way(pid: int) -> bool:
        """Past the wrapper's first line: it runs a command (its environment check) or it is
        the server already (exec'd). Before that no program can hold a SIGHUP."""
        try:
            if b"protocol" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return True
        except OSError:
            return True                                   # gone: the test sees it below
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    return True
            except (OSError, IndexError, ValueError):
                continue
        return False

    with ServerProcess(argv, tmp_path, find_port=None) as server:
        done = threading.Event()

        def hang_up() -> None:
            while not under_way(server.proc.pid) and not done.wait(0.002):
                pass
            while not done.is_set() and server.proc.poll() is None:
                server.proc.send_signal(signal.SIGHUP)
                done.wait(0.02)
        sender = threading.Thread(target=hang_up, daemon=True)
        sender.start()
        try:
            server.wait_for(lambda text: "listening on" in text)
        finally:
            done.set()
            sender.join()
        assert server.proc.poll() is None
        assert "SIGHUP: " in server.output           # those of the start-up were handled
        server.proc.send_signal(signal.SIGHUP)
        server.wait_for(lambda text: "SIGHUP: " in text)
        code, _ = server.stop()
    assert code == 0


def _sig_mask(pid: int, field: str) -> int:
    """A signal mask of /proc/PID/status (SigCgt: caught, SigIgn: ignored); 0 when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1], 16)
    except (OSError, ValueError):
        pass
    return 0


def test_a_sighup_while_scripts_serve_checks_its_environment_is_kept(tmp_path: Path) -> None:
    """Outside finding (issue 27 review, item 1): one SIGHUP sent to scripts/serve while it still
    checks its environment (the wrapper, not yet the server) is not lost: the server it execs
    handles it once it runs (a "SIGHUP: " line), and then runs on."""
    import signal
    import time

    from server_process import ROOT
    argv = [str(ROOT / "scripts" / "serve"), "--db", str(tmp_path / "h.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1"]
    hup = 1 << (signal.SIGHUP - 1)
    with ServerProcess(argv, tmp_path, find_port=None) as server:
        pid = server.proc.pid
        # the wrapper has its trap (SIGHUP caught or, before the fix, ignored) and is no server yet
        while not (_sig_mask(pid, "SigCgt") | _sig_mask(pid, "SigIgn")) & hup:
            assert server.proc.poll() is None
            time.sleep(0.001)
        assert b"protocol" not in Path(f"/proc/{pid}/cmdline").read_bytes()
        server.proc.send_signal(signal.SIGHUP)
        server.wait_for(lambda text: "listening on" in text)
        if "SIGHUP: " not in server.output:          # (it is handled as the server starts)
            server.wait_for(lambda text: "SIGHUP: " in text)
        assert server.proc.poll() is None
        code, _ = server.stop()
    assert code == 0


@pytest.mark.parametrize("how", ["tichu-lobby", "python -m protocol"])
def test_a_sighup_while_the_server_imports_never_ends_it(tmp_path: Path, how: str) -> None:
    """Outside finding (issue 27 review, item 1): a SIGHUP in the first second of ``tichu-lobby``
    (the console script) or ``python -m protocol`` ended it (exit 129, nothing logged): the
    handler came after the server's imports. Now every entry point holds SIGHUP before them.
    The SIGHUP is sent the moment the first Twisted module is imported (``-X importtime``
    reports each import on the standard error as it ends), while the imports go on; the server
    comes up, handles it once (a "SIGHUP: " line) and stops cleanly."""
    import signal
    argv = ([command("tichu-lobby")] if how == "tichu-lobby"
            else [sys.executable, "-m", "protocol"])
    argv += ["--db", str(tmp_path / "h.sqlite3"), "--port", "tcp:0:interface=127.0.0.1"]
    with ServerProcess(argv, tmp_path, find_port=None,
                       env={"PYTHONPROFILEIMPORTTIME": "1"}) as server:
        server.wait_for(lambda text: "import time:" in text and "twisted" in text)
        server.proc.send_signal(signal.SIGHUP)
        server.wait_for(lambda text: "listening on" in text)
        if "SIGHUP: " not in server.output:          # (it is handled as the server starts)
            server.wait_for(lambda text: "SIGHUP: " in text)
        assert server.proc.poll() is None
        code, _ = server.stop()
    assert code == 0
