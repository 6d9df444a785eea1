"""scripts/callgrind_actions.py works: the server's instructions per action in process, the
players' decisions left out. No figure is asserted beyond its order of magnitude: an action is
hundreds of thousands of instructions, not the server's start-up nor nothing."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from system_tools import need

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_servers_instructions_per_action_are_counted() -> None:
    need(("valgrind", "callgrind_control"), "apt-get install valgrind")
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "callgrind_actions.py"), "--tables", "1",
         "--text", "1", "--warmup", "20", "--actions", "30"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    found = re.search(r"(\d+) actions, ([\d,]+) instructions, ([\d,]+) per action", done.stdout)
    assert found, done.stdout
    assert int(found.group(1)) >= 30
    assert 10_000 < int(found.group(3).replace(",", "")) < 50_000_000
