"""The linter and the type checker run with the suite: `scripts/test` runs them, the inner loop
`scripts/test -m "not slow"` leaves them out. Their configuration is in pyproject.toml: ruff over
the whole tree; mypy --strict over the engine (lobby/tichu), the client library (tichu_bot) and the
connection's parts,
mypy over lobby, protocol and tichu_bot."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


#: the connection's parts (docs/architecture.md, "The connection"): strict like the engine
CONNECTION = ("protocol/connection", "protocol/telnet")


def test_the_engine_and_the_client_library_are_strictly_typed() -> None:
    done = _run("mypy", "--strict", "lobby/tichu", "tichu_bot", *CONNECTION)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_lobby_and_the_wire_type_check() -> None:
    done = _run("mypy", "lobby", "protocol", "tichu_bot")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_linter_finds_nothing() -> None:
    done = _run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
