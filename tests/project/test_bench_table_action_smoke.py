"""scripts/bench_table_action.py works: in process, machine-mode and text-mode players play
accepted actions through the whole server path, back to back and with an idle pause before
each action.

No time is asserted: only that the passes ran the actions asked for, bytes reached the players,
and a text-mode player's lines were the lines people get (no `state` objects) while it acted.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))


@pytest.mark.slow
@pytest.mark.parametrize("extra", [[], ["--text", "2", "--idle", "0.2"]])
def test_the_in_process_bench_plays_its_actions(extra: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_table_action.py"), "--tables", "2",
         "--actions", "120", "--passes", "2", "--warmup", "20", *extra],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    passes = re.findall(r"pass \d: (\d+) actions, +[\d.]+ µs CPU per action, +(\d+) bytes",
                        done.stdout)
    assert len(passes) == 2, done.stdout
    assert all(int(n) >= 120 and int(b) > 0 for n, b in passes)
    assert "best:" in done.stdout


def test_text_players_act_from_their_seat_s_view_and_get_text() -> None:
    import bench_table_action as bench

    b = bench.Bench(1, 3, text=2)
    b.run(60)
    _table, players = b.tables[0]
    assert [p.text for p in players] == [False, True, True, False]
    for p in players[1:3]:
        # what people read: lines of text, no JSON objects
        assert not p.transport.view_lines and p.transport.written > 0
        assert p.view() is not None and p.view()["seat"] == players.index(p)
    assert players[0].transport.view_lines or players[0].state is not None
