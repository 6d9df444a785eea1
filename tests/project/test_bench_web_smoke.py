"""scripts/bench_web.py works: a table of WebSocket players and a table of TCP machine-mode
players play against one real server process in alternating phases, and the server's CPU per
action of each kind is measured. No time or ratio is asserted: only that both kinds played the
actions asked for and the figures are there."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from system_tools import need

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_websocket_table_beside_a_tcp_table_is_measured(tmp_path: Path) -> None:
    out = tmp_path / "web.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_web.py"), "--tables", "1", "--rounds",
         "1", "--actions", "40", "--think", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=200, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["tables_per_kind"] == 1 and figures["phases_per_kind"] == 1
    assert len(figures["ws_us_per_action"]) == len(figures["tcp_us_per_action"]) == 1
    assert figures["ws_median_us"] > 0 and figures["tcp_median_us"] > 0
    assert figures["ratio_ws_to_tcp"] > 0
    assert "ratio" in done.stdout


@pytest.mark.slow
def test_the_instructions_per_action_are_counted(tmp_path: Path) -> None:
    """``--instructions``: the server under callgrind, counting only in the phases."""
    need(("valgrind", "callgrind_control"), "apt-get install valgrind")
    out = tmp_path / "web.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_web.py"), "--instructions", "--tables",
         "1", "--rounds", "1", "--actions", "20", "--think", "1", "--protocol", "4",
         "--json", str(out)],
        capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["unit"] == "instructions" and figures["protocol"] == 4
    assert len(figures["ws_instructions_per_action"]) == 1
    # an action is hundreds of thousands of instructions, not the whole server's start-up
    assert 10_000 < figures["ws_median_instructions"] < 50_000_000
    assert 10_000 < figures["tcp_median_instructions"] < 50_000_000
    assert "instructions (user space)" in done.stdout
