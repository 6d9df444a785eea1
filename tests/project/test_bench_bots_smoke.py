"""scripts/bench_bots.py works: 2 tables of expert bots with a person each against a real server
process for a few seconds, the probes' idle baseline first, the figures from /metrics and /proc.

No wall-clock time is asserted: only that the probes were measured in both phases without an
error, nobody was refused or disconnected, and the figures are complete.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_two_expert_tables_and_the_probes_are_measured(tmp_path: Path) -> None:
    out = tmp_path / "bots.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_bots.py"), "--tables", "2",
         "--level", "expert:0.05", "--probes", "2", "--baseline", "1", "--warmup", "1",
         "--seconds", "3", "--think-min", "0.05", "--think-max", "0.2", "--json", str(out)],
        capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    r = json.loads(out.read_text())
    assert r["tables"] == 2 and r["closed"] == 0 and r["person_refused"] == 0
    for phase in ("probe_baseline", "probe_loaded"):
        assert r[phase]["errors"] == 0
        assert r[phase]["all"]["count"] > 0
        assert r[phase]["all"]["p50_ms"] <= r[phase]["all"]["p99_ms"] <= r[phase]["all"]["max_ms"]
        assert {"who", "say", "tell"} <= set(r[phase])
    assert r["games_started"] >= 2
    assert r["worker_replacements"] == 0
    assert r["workers_cpu_s_reported"] is not None and r["workers_cpu_s_proc"] >= 0
    total = sum(sum(v.values()) for v in r["bot_decisions"].values())
    assert total == r["bot_decisions_total"]
    assert set(r["bot_decision_time"]) == set(r["bot_decisions"])
    assert "other users' commands: p50" in done.stdout
