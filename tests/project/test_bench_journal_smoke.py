"""scripts/bench_journal.py works: both paths, back to back and on a timer, at a tiny size. No
time is asserted: only that every action was journaled on the path it names."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("pace", ["turns", "2000"])
def test_the_journal_benchmark_runs_both_paths(pace: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_journal.py"), "--passes", "1",
         "--actions", "60", "--tables", "5", "--pace", pace],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = {m.group(1): m for m in re.finditer(
        r"(thread|inline): best +[\d.]+ µs CPU per action.*transactions inline (\d+), "
        r"thread (\d+) \(locked (\d+)\)", done.stdout)}
    assert set(lines) == {"thread", "inline"}, done.stdout
    assert int(lines["thread"].group(2)) == 0 and int(lines["thread"].group(3)) > 0
    assert int(lines["inline"].group(2)) > 0 and int(lines["inline"].group(3)) == 0
