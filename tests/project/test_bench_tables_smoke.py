"""scripts/bench_tables.py works: 2 tables of four machine-mode bots play against a real server
process for a few seconds, and the echo baseline runs beside them.

No wall-clock time is asserted: only that the bots played (accepted actions, each with its state
update measured), nobody was refused or disconnected, and the figures are complete.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_two_tables_play_and_are_measured(tmp_path: Path) -> None:
    out = tmp_path / "tables.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_tables.py"), "--tables", "2",
         "--seconds", "2", "--warmup", "0.5", "--echo-conns", "4", "--no-pin",
         "--time-limit", "60", "--json", str(out)],
        capture_output=True, text=True, timeout=150, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text())
    row, = figures["tables"]
    assert row["tables"] == 2 and row["conns"] == 8
    assert row["closed"] == 0
    assert row["actions"] > 0
    assert row["latency"]["count"] == row["actions"] - row["no_state"]
    assert row["no_state"] == 0          # every accepted action brought its state update
    assert row["games_started"] >= 2     # both tables started
    assert 0 < row["latency"]["p50_ms"] <= row["latency"]["p99_ms"] <= row["latency"]["max_ms"]
    assert figures["echo"]["round_trips"] > 0
    assert row["ratio_to_echo"] > 0
    assert "| 2 (8) |" in done.stdout
