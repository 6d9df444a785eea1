"""The linter and the type checker run with the suite: `scripts/test` runs them, the inner loop
`scripts/test -m "not slow"` leaves them out. Their configuration is in pyproject.toml: ruff over
the whole tree; mypy --strict over every module of lobby, protocol and the client library, none
of them relaxed (no per-module overrides, no ignore_errors)."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: what mypy --strict checks: everything
STRICT = ["lobby", "protocol", "tichu_bot"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.slow
def test_the_lobby_the_wire_and_the_client_library_are_strictly_typed() -> None:
    done = _run("mypy", "--strict", *STRICT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_module_is_relaxed() -> None:
    """The strict run is the configured one, and no module is left out of it or relaxed: no
    overrides (ignore_errors, a check turned off for some modules), and ruff ignores no rule in
    a module but for the reasons listed (a package's re-exports, the scripts' sys.path, the
    tests' class-level configuration)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mypy = config["tool"]["mypy"]
    assert mypy.get("strict") is True
    assert "overrides" not in mypy
    per_file = config["tool"]["ruff"]["lint"]["per-file-ignores"]
    assert set(per_file) == {"__init__.py", "scripts/*", "tests/*"}, per_file


@pytest.mark.slow
def test_the_linter_finds_nothing() -> None:
    done = _run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_engine_is_typed_without_an_ignore() -> None:
    """The rules engine (lobby/tichu) needs no `type: ignore`: a Phoenix single's half rank is
    the only float rank, and the plays above a whole rank take it as the int it is."""
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in sorted((ROOT / "lobby" / "tichu").rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "type: ignore" in line]
    assert found == []
