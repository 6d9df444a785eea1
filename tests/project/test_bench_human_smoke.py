"""scripts/bench_human.py works: 4 tables of players at (a fast) human pace, half of them in text
mode, play against a real server process with its reactor probe, the echo baseline beside them.

No wall-clock time is asserted: only that both kinds of player moved and were measured, read
their screens, nothing was refused by the server or the rules or lost, and the figures (CPU, RSS,
the probe's pause) are there.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_four_human_paced_tables_play_and_are_measured(tmp_path: Path) -> None:
    out = tmp_path / "human.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_human.py"), "--tables", "4",
         "--seconds", "4", "--warmup", "1", "--think", "0.05,0.2", "--batch", "2",
         "--batch-pause", "0.1", "--probe", "1", "--echo-conns", "4", "--no-pin",
         "--time-limit", "90", "--json", str(out)],
        capture_output=True, text=True, timeout=200, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text())
    row, = figures["runs"]
    assert row["tables"] == 4 and row["conns"] == 16 and row["text_conns"] == 8
    assert row["closed"] == 0 and row["server_refused"] == 0, row["codes"]
    assert row["moves"] > 0
    # every text-mode player read its screen: the trick line's en dash (' \u2013 won by') was
    # read as a card once, and half the players' moves were refused (must-lead) unseen
    assert row["misread"] == 0 and row["rule_refused"] == 0, row["misread_examples"]
    assert row["latency_json"]["count"] > 0 and row["latency_text"]["count"] > 0
    assert row["latency"]["count"] <= row["moves"]
    assert row["server_cpu_s"] > 0 and row["server_rss_mib"] > 0
    assert row["probe"]["windows"] >= 1 and row["probe"]["max_pause_ms"] is not None
    assert figures["echo"]["round_trips"] > 0 and row["ratio_to_echo"]["p99"] > 0
    assert figures["echo"]["server_cpu_us_per_round_trip"] > 0
    assert set(row["ratio_to_echo"]) == {"p50", "p99", "p999", "max", "moves_per_s",
                                         "cpu_per_move"}
    assert "| 4 (16) |" in done.stdout
