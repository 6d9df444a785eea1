"""Every situation of tests/engine/cases.json, answered exactly (one test per case id).

The case file is the project's own (beside the engine's tests, not shipped with the package);
each case names the numbered rule of docs/rules.md that it checks."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from lobby.tichu import can_pass, check_play, legal_plays, parse_cards

ROOT = Path(__file__).resolve().parents[2]
CASES_FILE = ROOT / "tests" / "engine" / "cases.json"
RULES_FILE = ROOT / "docs" / "rules.md"


def _load() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]
    return cases


CASES = _load()


def test_cases_file_is_there() -> None:
    assert CASES_FILE.exists(), f"missing {CASES_FILE}"
    assert len(CASES) >= 40
    assert len({case["id"] for case in CASES}) == len(CASES)


def test_each_case_names_a_rule_of_the_spec() -> None:
    """The rule a case checks is one of the numbered rules of docs/rules.md (the spec), and the
    spec numbers its rules 1..N without a gap."""
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", RULES_FILE.read_text(encoding="utf-8"), re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 32
    assert {case["rule"] for case in CASES} <= set(numbers)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case(case: dict[str, Any]) -> None:
    hand = parse_cards(case["hand"])
    trick = [parse_cards(play) for play in case["trick"]]
    wish = case["wish"]
    plays = legal_plays(hand, trick, wish)
    as_sets = {frozenset(play) for play in plays}
    if "all_legal" in case:
        assert as_sets == {frozenset(parse_cards(p)) for p in case["all_legal"]}
    for play in case.get("legal", []):
        assert frozenset(parse_cards(play)) in as_sets, play
        check_play(hand, trick, wish, parse_cards(play))
    for play in case.get("illegal", []):
        assert frozenset(parse_cards(play)) not in as_sets, play
    assert (not can_pass(hand, trick, wish)) == case["must_play"]
    # check_play agrees with legal_plays on each listed play
    for play in plays:
        assert check_play(hand, trick, wish, play.cards, play.phoenix_as) == play
