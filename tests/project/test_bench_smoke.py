"""The server benchmarks work: every scenario at a tiny size, and the load generator's histogram.

No wall-clock time is asserted: only that every scenario ran, held and delivered what it should.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"


def _loadgen() -> Any:
    return load_script("loadgen")


def test_histogram_percentiles_merge_and_round_trip() -> None:
    lg = _loadgen()
    h = lg.Histogram()
    for ms in range(1, 1001):  # 1 ms .. 1000 ms, one each
        h.record(ms / 1000)
    assert h.count == 1000
    assert h.percentile(50) == pytest.approx(0.500, rel=0.02)
    assert h.percentile(99) == pytest.approx(0.990, rel=0.02)
    assert h.percentile(99.9) == pytest.approx(0.999, rel=0.02)
    assert h.percentile(100) == pytest.approx(1.0, rel=0.02)
    other = lg.Histogram()
    for _ in range(1000):
        other.record(2.0)
    merged = lg.Histogram.from_dict(json.loads(json.dumps(h.to_dict()))).merge(other)
    assert merged.count == 2000
    assert merged.percentile(25) == pytest.approx(0.5, rel=0.02)
    assert merged.percentile(75) == pytest.approx(2.0, rel=0.02)
    assert merged.summary()["max_ms"] == pytest.approx(2000.0)
    assert lg.Histogram().summary()["p99_ms"] == 0.0


def test_the_load_generator_refuses_addresses_off_loopback() -> None:
    lg = _loadgen()
    with pytest.raises(SystemExit):
        lg.Target("192.0.2.1", 4000)
    assert lg.Target("127.0.0.1", 4000, sources=4).source(5) == "127.0.0.3"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc, pins CPUs")
def test_every_scenario_runs_at_a_tiny_size(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(SCRIPTS / "bench_server.py"), "--quick",
                           "--json", str(out)],
                          capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| figure (asyncio) |" in done.stdout and "chat fan-out: delivery p99" in done.stdout
    (run,) = json.loads(out.read_text())
    assert run["echo"]["round_trips"] > 0 and run["lobby_echo"]["round_trips"] > 0
    for key in ("echo_idle", "idle_prompt", "idle_login"):
        assert run[key]["held"] == run[key]["conns"] == 20, key
        assert run[key]["who"]["count"] == 3, key
        assert run[key]["rss_after"] > 0, key
    assert run["idle_login"]["who_names"] >= 21  # the crowd and the probe itself
    for key in ("chat", "echo_fanout"):
        assert run[key]["messages"] > 0, key
        assert run[key]["received_at_sampled"] == run[key]["expected_at_sampled"] > 0, key
    assert run["logins"]["logins"] > 0 and run["logins"]["failures"] == 0
    assert run["logins"]["probe_quiet"]["count"] > 0 and run["logins"]["probe_storm"]["count"] > 0
    assert run["flood"]["flood_lines"] > 0 and run["flood"]["probe_flood"]["count"] > 0
