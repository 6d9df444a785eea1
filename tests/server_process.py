"""A server (``tichu-lobby``, ``python -m protocol``, ``twist tichu-lobby``) as a real subprocess:
its output read line by line in a thread, the port it listens on taken from its log (text or
JSON), a blocking client for its greeting. Every wait has a generous bound (a test that would hang
fails instead); nothing waits for a time to pass."""
from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from conftest import strip_telnet
from lobby.text.messages import INFO

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
#: the text log's line (protocol/process/server.py) and the JSON log's event of the same message
LISTENING = re.compile(r"listening on \S+ \(([\d.]+):(\d+)\)")
LISTENING_FORMAT = "listening on {endpoint} ({address})"
BOUND = 90.0  # seconds: the most any step may take on a loaded machine before the test fails


def command(name: str) -> str:
    """A console script of this environment (tichu-lobby, tichu-bot, twist)."""
    path = BIN / name
    assert path.exists(), f"{name} is not installed next to {sys.executable}"
    return str(path)


def run(argv: Sequence[str], cwd: Path, timeout: float = BOUND) -> subprocess.CompletedProcess[str]:
    """Run to the end with the checkout on PYTHONPATH; output captured as text."""
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))


def run_server(*args: str, wrapper: Sequence[str] = (), timeout: float = BOUND
               ) -> subprocess.CompletedProcess[str]:
    """``python -m protocol ARGS`` run to its end (a start-up error, ``--help``), behind
    ``wrapper`` (a command that runs it, e.g. ``unshare ...``) when given."""
    return run([*wrapper, sys.executable, "-m", "protocol", *args], cwd=ROOT, timeout=timeout)


def json_record(line: str) -> dict[str, Any] | None:
    """One event of a JSON log line: ours (a JSON object a line) or twist's (RFC 7464: each
    record starts with the record separator 0x1E)."""
    text = line.strip().lstrip("\x1e")
    if not text.startswith("{"):
        return None
    obj = json.loads(text)
    assert isinstance(obj, dict)
    return obj


def text_port(line: str) -> int | None:
    found = LISTENING.search(line)
    return int(found.group(2)) if found else None


def json_port(line: str) -> int | None:
    record = json_record(line)
    if record is None or record.get("log_format") != LISTENING_FORMAT:
        return None
    return int(str(record["address"]).rsplit(":", 1)[1])


class ServerProcess:
    """``argv`` running in ``cwd``; ``port`` from the first line ``find_port`` accepts (None: do
    not wait for one). The checkout is on PYTHONPATH (as in the other subprocess tests)."""

    def __init__(self, argv: Sequence[str], cwd: Path,
                 find_port: Callable[[str], int | None] | None = text_port,
                 env: dict[str, str] | None = None) -> None:
        environ = dict(os.environ, PYTHONPATH=str(ROOT))
        environ.update(env or {})
        self.proc = subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env=environ, cwd=cwd)
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.port = 0
        if find_port is not None:
            self.wait_for(lambda line: find_port(line) is not None)
            self.port = next(p for p in map(find_port, self.lines) if p is not None)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line)
        self._queue.put(None)

    def wait_for(self, test: Callable[[str], bool]) -> str:
        """The next line that passes ``test`` (AssertionError if the output ends first)."""
        deadline = time.monotonic() + BOUND
        while True:
            try:
                line = self._queue.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("no such line within the bound:\n" + self.output) from None
            if line is None:
                self.proc.wait(timeout=BOUND)
                raise AssertionError(f"exited ({self.proc.returncode}) first:\n" + self.output)
            self.lines.append(line)
            if test(line):
                return line

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def stop(self) -> tuple[int, str]:
        """SIGTERM, wait for the exit; (exit status, everything it wrote)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=BOUND)
        self._reader.join(timeout=BOUND)
        while True:
            try:
                line = self._queue.get_nowait()
            except queue.Empty:
                break
            if line is not None:
                self.lines.append(line)
        return self.proc.returncode, self.output

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=BOUND)
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def greeting(port: int) -> str:
    """Connect and read up to the login prompt; the text (telnet negotiation stripped)."""
    with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as sock:
        text = ""
        while INFO["login-prompt"].strip() not in text:
            data = sock.recv(4096)
            if not data:
                break
            text += strip_telnet(data).decode("utf-8", "replace")
    assert INFO["greeting"] in text, text
    return text
