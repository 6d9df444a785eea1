"""Every situation of ../shared/tichu/cases.json, answered exactly (one test per case id)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lobby.tichu import can_pass, check_play, legal_plays, parse_cards

CASES_FILE = Path(__file__).resolve().parents[1] / ".." / "shared" / "tichu" / "cases.json"


def _load() -> list[dict[str, Any]]:
    if not CASES_FILE.exists():
        return []
    return json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]


CASES = _load()


def test_cases_file_is_there() -> None:
    assert CASES_FILE.exists(), f"missing {CASES_FILE}"
    assert len(CASES) >= 40
    assert len({case["id"] for case in CASES}) == len(CASES)


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
