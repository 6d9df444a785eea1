"""A test that needs a system program: skipped with the one line that says what to install, or
failed under CI=true (.ci/run installs what the tests need)."""
from __future__ import annotations

import os
import shutil

import pytest


def need(programs: tuple[str, ...], install: str) -> None:
    """Skip (fail under CI=true) unless every one of ``programs`` is on the PATH; ``install``:
    the line that says how to get them (``apt-get install valgrind``)."""
    absent = [p for p in programs if shutil.which(p) is None]
    if not absent:
        return
    why = f"needs {', '.join(absent)}: {install}"
    if os.environ.get("CI", "").lower() not in ("", "0", "false", "no"):
        pytest.fail(f"CI=true, but the test {why}")
    pytest.skip(why)
