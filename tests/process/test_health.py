"""/healthz tells the truth (issue 27, docs/operations.md "Health"): 503 with the reason when the
test write alone fails, when the database file was replaced by another (device/inode), for
``--health-journal-window`` seconds after a failed journal commit, and on a full filesystem
during a game (a real server process on a small tmpfs); 200 again once writes work. The options
(``--health-timeout``, ``--health-journal-window``, ``--journal-failure-summary``) reach the
server and its journal."""
from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted

from conftest import within
from protocol.process.server import parse_args
from server_process import BOUND, ServerProcess, command
from test_metrics import MetricsServer, web  # noqa: F401  (the fixture)

# Twisted's readBody warns about the plain TCP transport of its own Agent (not our code)
pytestmark = pytest.mark.filterwarnings("ignore:Using readBody:DeprecationWarning")


def healthz(code_body: tuple[int, Any, bytes]) -> tuple[int, dict[str, Any]]:
    code, _, body = code_body
    return code, json.loads(body)


def test_the_health_options_and_their_defaults() -> None:
    opts = parse_args([])
    assert (opts.health_timeout, opts.health_journal_window, opts.journal_failure_summary) \
        == (5.0, 60.0, 60.0)
    opts = parse_args(["--health-timeout", "2", "--health-journal-window", "10",
                       "--journal-failure-summary", "300"])
    assert (opts.health_timeout, opts.health_journal_window, opts.journal_failure_summary) \
        == (2.0, 10.0, 300.0)


@pytest_twisted.ensureDeferred
async def test_a_failing_test_write_alone_is_503(web: MetricsServer) -> None:  # noqa: F811
    """No journal commit fails and the file is the one opened: only the test write (on the
    database's worker thread) is refused, and that alone makes /healthz 503."""
    store = web.server.store
    assert healthz(await web.get("/healthz"))[0] == 200
    await within(store.run_query(lambda conn: conn.execute("PRAGMA query_only = ON")))
    code, reply = healthz(await web.get("/healthz"))
    assert code == 503 and reply["status"] == "error"
    assert reply["store"].startswith("test write failed: ") and "readonly" in reply["store"]
    assert web.server.persistence.journal.failures == 0
    await within(store.run_query(lambda conn: conn.execute("PRAGMA query_only = OFF")))
    code, reply = healthz(await web.get("/healthz"))
    assert code == 200 and reply["store"] == "ok"


@pytest_twisted.ensureDeferred
async def test_a_replaced_database_file_is_503(web: MetricsServer) -> None:  # noqa: F811
    """Another file renamed over the path (a restore run beside a live server): the server still
    writes into the one it opened, which nobody will read again."""
    assert healthz(await web.get("/healthz"))[0] == 200
    other = web.db.with_name("restored.sqlite3")
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    os.replace(other, web.db)
    code, reply = healthz(await web.get("/healthz"))
    assert code == 503
    assert reply["store"] == "the database file is no longer the one opened (deleted or replaced)"


@pytest_twisted.ensureDeferred
async def test_the_journal_window_is_the_option(web: MetricsServer) -> None:  # noqa: F811
    """A failed commit counts for --health-journal-window seconds: with the window at 0 an old
    failure no longer makes /healthz 503 (the test write works), with the default it does."""
    journal = web.server.persistence.journal
    journal.failing_since = journal.last_failure = web.server.reactor.seconds() - 1.0
    code, reply = healthz(await web.get("/healthz"))
    assert code == 503 and reply["store"] == "journal commits fail"
    web.server.health_journal_window = 0.5
    assert healthz(await web.get("/healthz"))[0] == 200


# ---- a full filesystem during a game, on a real server process ----------------------------------
def _can_mount_tmpfs() -> str | None:
    """None when `unshare -rm` can mount a tmpfs here, else why not."""
    if shutil.which("unshare") is None:
        return "unshare (util-linux) is not installed"
    done = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return f"unshare -rm cannot mount a tmpfs here: {done.stderr.strip()}"
    return None


class _Blocking:
    """A blocking line client of the telnet port (negotiation stripped)."""

    def __init__(self, port: int) -> None:
        import socket
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
        self.buffer = ""

    def expect(self, text: str) -> str:
        from conftest import strip_telnet
        deadline = time.monotonic() + BOUND
        while text not in self.buffer:
            self.sock.settimeout(max(0.1, deadline - time.monotonic()))
            data = self.sock.recv(65536)
            assert data and time.monotonic() < deadline, f"no {text!r} in {self.buffer[-2000:]!r}"
            self.buffer += strip_telnet(data).decode("utf-8", "replace")
        at = self.buffer.index(text) + len(text)
        got, self.buffer = self.buffer[:at], self.buffer[at:]
        return got

    def send(self, line: str) -> None:
        self.sock.sendall((line + "\r\n").encode("utf-8"))


def _get(port: int, path: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=BOUND) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.mark.slow   # a real server on a tmpfs in its own mount namespace
def test_a_full_filesystem_during_a_game(tmp_path: Path) -> None:
    """The database on a 1 MiB tmpfs; a game starts, then a file fills the tmpfs: the next action's
    journal commit fails, the player is told once, /healthz is 503 with the reason and the log
    has one whole traceback; the file removed, the next action commits and /healthz is 200."""
    why = _can_mount_tmpfs()
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(why + " (CI=true runs this test)")
        pytest.skip(why)
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    db = mnt / "lobby.sqlite3"
    script = f'mount -t tmpfs -o size=1m tmpfs "{mnt}" && exec "$@"'
    argv = ["unshare", "-rm", "sh", "-c", script, "full-disk", command("tichu-lobby"),
            "--db", str(db), "--port", "tcp:0:interface=127.0.0.1",
            "--metrics", "tcp:0:interface=127.0.0.1", "--journal-failure-summary", "3600"]
    with ServerProcess(argv, tmp_path) as server:
        line = next((text for text in server.lines if "metrics on " in text), None) \
            or server.wait_for(lambda text: "metrics on " in text)
        found = re.search(r"\(127\.0\.0\.1:(\d+)\)", line)
        assert found, line
        metrics = int(found.group(1))
        assert _get(metrics, "/healthz")[0] == 200
        c = _Blocking(server.port)
        c.expect("login: ")
        c.send("Anna")
        c.expect("or type another name: ")
        c.send("")
        c.expect("/help for the commands.\r\n")
        for cmd in ("/newroom", "/join 1", "/addbot random", "/addbot random", "/addbot random"):
            c.send(cmd)
        c.send("/whereis Anna")
        c.expect("Anna is in the ")
        # the tmpfs full, written through the server's own mount namespace
        filler = Path(f"/proc/{server.proc.pid}/root") / str(mnt).lstrip("/") / "filler"
        with open(filler, "wb") as f:
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError:
                pass
        c.send("/start")
        assert "! [game-not-saved]" in c.expect("[game-not-saved]")
        code, reply = _get(metrics, "/healthz")
        assert code == 503 and reply["status"] == "error", reply
        assert reply["store"] == "journal commits fail", reply
        os.unlink(filler)
        c.send("/nogrand")                    # the next action's commit works
        c.send("/whereis Anna")
        c.expect("Anna is in the ")
        deadline = time.monotonic() + BOUND
        while (answer := _get(metrics, "/healthz"))[0] != 200:   # until that commit is done
            assert time.monotonic() < deadline, answer
            time.sleep(0.05)
        assert answer[1]["store"] == "ok"
        code, out = server.stop()
    assert code == 0, out
    # one whole traceback for the run of failures, with SQLite's own words
    assert out.count("Traceback (most recent call last)") == 1, out
    assert "database or disk is full" in out, out
