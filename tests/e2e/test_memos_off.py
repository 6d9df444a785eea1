"""Every memo off (lobby/tichu/memo.py): with ``TICHU_MEMOS=off`` each value is made from its
inputs every time, and what anybody receives is the same, byte for byte. This runs the
memo-sensitive tests in a fresh interpreter with the switch off from the start: the byte-pinned
transcripts (tests/e2e/test_table_output_bytes.py, test_record_output_bytes.py: their digests are
those of the code before any memo), the lean updates, the views' texts, the fast state line,
the engine's fast paths and the move generator. (``TICHU_MEMOS=off scripts/test`` runs the whole
suite so.)"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lobby.tichu import memo

ROOT = Path(__file__).resolve().parents[2]

MEMO_SENSITIVE = ["tests/e2e/test_table_output_bytes.py", "tests/wire/test_record_output_bytes.py",
                  "tests/wire/test_lean_updates.py", "tests/engine/test_view_texts.py",
                  "tests/wire/test_state_line.py", "tests/engine/test_engine_fastpaths.py",
                  "tests/engine/test_moves.py", "tests/engine/test_round.py", "tests/wire/test_json_mode.py"]


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


#: the module-level containers of lobby and protocol that are not memos (what each holds)
NOT_MEMOS = {
    ("lobby/storage/accounts.py", "_HASHERS"): "one argon2 hasher per parameter set (not a value's memo)",
    ("lobby/tichu/cards.py", "_CARDS"): "the deck, made once at import",
    ("lobby/tichu/combos.py", "_INTERNED"): "interning: the one Combo of a key",
    ("lobby/tichu/moves.py", "_INDEXES"): "the store of the `_INDEX_OF` memo, emptied with it",
    ("lobby/tichu/moves.py", "_NO_PLAYS"): "the shared empty answer",
    ("lobby/tichu/memo.py", "_CLEARERS"): "the memos' clear functions",
    ("protocol/process/hold.py", "_held"): "a SIGHUP that arrived during the start-up, handled once ready",
    ("protocol/telnet/gathered_write.py", "_pending"): "the writes waiting for the end of a turn",
    ("protocol/process/logs.py", "_opened"): "the log files opened",
    ("protocol/render/context.py", "_INTERNED"): "interning: the one context of its settings",
    ("protocol/render/table.py", "_NO_CATALOG"): "the empty catalog (a constant)",
    ("lobby/text/messages.py", "_NO_CATALOG"): "the empty catalog (a constant)",
}


def _module_containers() -> set[tuple[str, str]]:
    """(file, name) of every module-level name bound to a dict or list display, or decorated
    with functools' caches, in lobby and protocol."""
    import ast
    found: set[tuple[str, str]] = set()
    for path in sorted([*ROOT.glob("lobby/**/*.py"), *ROOT.glob("protocol/**/*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(
                    node.value, (ast.Dict, ast.List)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id.startswith("_") and (
                            not node.value.elts if isinstance(node.value, ast.List)
                            else not node.value.keys):
                        found.add((rel, target.id))
                    elif (isinstance(target, ast.Name) and isinstance(node.value, ast.List)
                          and any(isinstance(e, ast.Constant) and e.value is None
                                  for e in node.value.elts)):
                        found.add((rel, target.id))     # a positional memo: [None, None, ...]
            elif isinstance(node, ast.FunctionDef) and any(
                    "cache" in ast.unparse(d) for d in node.decorator_list):
                found.add((rel, node.name))
    return found


def test_every_module_level_memo_is_one_of_the_helpers() -> None:
    """No memo of a module is a bare dict, a positional list or an lru_cache: each is a
    LastMemo or a BoundedMemo (so the switch turns it off), or is listed above as no memo."""
    found = _module_containers()
    assert found - NOT_MEMOS.keys() == set(), "a memo kept by hand: use lobby.tichu.memo"
    assert NOT_MEMOS.keys() - found == set(), "listed but gone: take it off the list"


@pytest.mark.skipif(not memo.ON, reason="tests the memos themselves")
def test_the_bots_caches_obey_the_switch() -> None:
    """The bots' plan caches are memos like the others: filled while on, bypassed (and empty)
    while off, the answers the same."""
    from lobby.bots.strategies import plan, search
    from lobby.tichu import parse_cards
    memo.set_memos(True)                         # (empty, so each is asked afresh)
    hand = parse_cards("R2 R3 G4 S5 B6 R9 G9 S9 BK Ph Dr")
    other = parse_cards("R2 G2 S7 B8 R10 GB SD")
    mask = sum(1 << c for c in parse_cards("R4 G4 S4 B10 RB GD SK BA Ma"))

    def ask() -> tuple[Any, ...]:
        return (plan.analyse(hand), plan.plan_cost(other), search._cost(mask),
                search.fast_plan(mask))
    answers = ask()
    caches = (plan._CACHE, plan._SEARCH_COST, search._COST, search._FAST)
    assert all(len(c) for c in caches)
    memo.set_memos(False)
    try:
        assert not any(len(c) for c in caches)
        assert ask() == answers
        assert not any(len(c) for c in caches)
    finally:
        memo.set_memos(True)
