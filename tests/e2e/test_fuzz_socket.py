"""A short bounded run of scripts/fuzz.py against a server it starts itself: random bytes, telnet
sequences, overlong lines, invalid UTF-8, other protocols and broken commands over many
connections; the server must still answer a normal client, log no traceback and stop cleanly."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "fuzz.py"


def _module():
    return load_script("fuzz")


def test_the_log_check_recognises_trouble() -> None:
    bad = _module().BAD_LOG
    assert bad.search("2026-11-30T06:15:21+0000 [protocol.session#critical] handling a line")
    assert bad.search("\tTraceback (most recent call last):")
    assert bad.search("2026-11-30T06:15:21+0000 [x#error] an error")
    assert not bad.search("2026-11-30T06:15:21+0000 [protocol.guard#warn] flood: closing the "
                          "connection of Fuzz1 from 127.0.0.1 after 500 dropped lines")
    assert not bad.search("2026-11-30T06:15:21+0000 [protocol.session#info] Guest1234 logged in")


@pytest.mark.slow
def test_a_short_fuzz_run_breaks_nothing() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--lines", "15000", "--seconds", "15",
                           "--connections", "12", "--seed", "7"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["ok"], json.dumps({k: summary[k] for k in (
        "problems", "normal_client_answer", "server_exit_code")}, indent=1, ensure_ascii=False)
    assert done.returncode == 0
    assert summary["lines"] >= 1000 and summary["connections"] >= 12
    assert summary["normal_client_answer"] == "FuzzCheck is in the lobby (room 0)."
    assert summary["bad_log_lines"] == [] and summary["server_exit_code"] == 0
