"""The linter and the type checker run with the suite: `scripts/test` runs them, the inner loop
`scripts/test -m "not slow"` leaves them out. Their configuration is in pyproject.toml: ruff over
the whole tree; mypy --strict over `STRICT` (the whole lobby, the client library, the connection's
parts and each other module of protocol as it passes), mypy over lobby, protocol and tichu_bot."""
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


#: what mypy --strict checks: add a package or module here as it passes (pyproject.toml reports
#: a protocol module only once it is listed there too)
STRICT = [
    "lobby", "tichu_bot", "protocol/connection", "protocol/telnet",
    "protocol/__init__.py", "protocol/__main__.py", "protocol/option_fields.py", "protocol/commands",
    "protocol/render", "protocol/process/__init__.py", "protocol/process/admin_cli.py",
    "protocol/process/config.py", "protocol/process/logs.py",
    "protocol/process/options.py", "protocol/process/reactor_health.py",
]


def test_the_lobby_the_client_library_and_the_listed_wire_modules_are_strictly_typed() -> None:
    done = _run("mypy", "--strict", *STRICT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_lobby_and_the_wire_type_check() -> None:
    done = _run("mypy", "lobby", "protocol", "tichu_bot")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_linter_finds_nothing() -> None:
    done = _run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
