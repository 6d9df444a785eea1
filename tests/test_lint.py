"""The type checker (and, below, the linter) run with the suite: `scripts/test` runs them, the
inner loop `scripts/test -m "not slow"` leaves them out. Their configuration is in
pyproject.toml; the engine (lobby/tichu) is checked with `mypy --strict`."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_the_engine_is_strictly_typed() -> None:
    done = _run("mypy", "--strict", "lobby/tichu")
    assert done.returncode == 0, done.stdout + done.stderr
