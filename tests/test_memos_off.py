"""Every memo off (lobby/tichu/memo.py): with ``TICHU_MEMOS=off`` each value is made from its
inputs every time, and what anybody receives is the same, byte for byte. This runs the
memo-sensitive tests in a fresh interpreter with the switch off from the start: the byte-pinned
transcripts (tests/test_table_output_bytes.py, test_record_output_bytes.py: their digests are
those of the code before any memo), the lean updates, the views' texts, the fast state line,
the engine's fast paths and the move generator. (``TICHU_MEMOS=off scripts/test`` runs the whole
suite so.)"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lobby.tichu import memo

ROOT = Path(__file__).resolve().parents[1]

MEMO_SENSITIVE = ["tests/test_table_output_bytes.py", "tests/test_record_output_bytes.py",
                  "tests/test_lean_updates.py", "tests/test_view_texts.py",
                  "tests/test_state_line.py", "tests/test_engine_fastpaths.py",
                  "tests/test_moves.py", "tests/test_round.py", "tests/test_json_mode.py"]


@pytest.mark.slow
def test_the_memo_sensitive_tests_pass_with_every_memo_off() -> None:
    env = dict(os.environ, TICHU_MEMOS="off")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-x", *MEMO_SENSITIVE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "[100%]" in done.stdout          # they ran (the summary line is quieted by -q)


def test_the_switch_is_read_from_the_environment() -> None:
    probe = "from lobby.tichu import memo; print(memo.ON)"
    for value, expected in (("off", "False"), ("0", "False"), ("on", "True"), ("", "True")):
        done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                              text=True, timeout=60, env=dict(os.environ, TICHU_MEMOS=value))
        assert done.stdout.strip() == expected, (value, done.stdout, done.stderr)


@pytest.mark.skipif(not memo.ON, reason="tests the memos themselves")
def test_the_helpers_obey_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    last: memo.LastMemo[str] = memo.LastMemo()
    bounded: memo.BoundedMemo[str] = memo.BoundedMemo(size=2)
    key = (object(), object())
    monkeypatch.setattr(memo, "ON", True)
    assert last.get(key) is memo.MISSING
    last.put(key, "made")
    assert last.get(key) == "made" and last.get((key[0], object())) is memo.MISSING
    assert last.get(tuple(key)) == "made"        # the same objects in a new tuple
    bounded.put("a", "A")
    bounded.put("b", "B")
    assert bounded.get("a") == "A"
    bounded.put("c", "C")                        # full: emptied, then "c"
    assert len(bounded) == 1 and bounded.get("a") is memo.MISSING
    memo.set_memos(False)
    try:
        assert last.get(key) is memo.MISSING and bounded.get("c") is memo.MISSING
        bounded.put("d", "D")
        assert len(bounded) == 0                 # nothing is kept while off
    finally:
        memo.set_memos(True)
    assert last.get(key) is memo.MISSING         # emptied by the switch


@pytest.mark.skipif(not memo.ON, reason="tests the memos themselves")
def test_every_memo_is_emptied_by_the_switch() -> None:
    """set_memos empties the memos of every layer (the engine's, the renderers')."""
    from lobby.tichu import Round, legal_plays, parse_cards
    from lobby.tichu.moves import _ANSWERS
    from lobby.tichu.view_text import _HAND_TEXT, hand_text
    legal_plays(parse_cards("R5 G5 S9"), [], None)
    hand_text(0b111)
    assert len(_ANSWERS) and len(_HAND_TEXT)
    memo.set_memos(True)
    assert not _ANSWERS and not len(_HAND_TEXT)
    assert Round  # the facade names the engine's Round (its caches: Round._caches)
