"""docs/protocol.schema.json: a valid JSON Schema that accepts what the server writes and rejects
what it must never write; docs/protocol.md documents every object type it defines."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

DOCS = Path(__file__).resolve().parent.parent / "docs"
SCHEMA = json.loads((DOCS / "protocol.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)

STATE: dict[str, Any] = {
    "type": "state", "table": 1, "status": "playing", "you": "Anna", "seat": 0, "host": "Anna",
    "names": ["Anna", "Bot1~random", "Cleo", "Dirk"], "options": {"target": "1000"},
    "bots": {"Bot1~random": "random"}, "gone": [], "phase": "play", "player": 0,
    "hand": "S2 R7 Ph Dr", "trick": [{"seat": 3, "cards": "G5 Ph=5", "combo": "pair"}],
    "trick_won": False, "holder": 3, "turn": 0, "wish": None, "wish_pending": None,
    "calls": [None, "tichu", None, "grand"], "grand_decided": [True] * 4,
    "exchanged": [True] * 4, "cards_left": [4, 10, 12, 9], "out": [], "points": [0, 10, 0, 5],
    "legal": ["R7 Ph=7"], "can_pass": True, "bombs": [], "round_no": 2, "scores": [120, 80],
    "round_scores": [[120, 80]], "match_finished": False, "match_result": None,
    "round_result": None, "player_seats": [0, 1, 2, 3], "id": "c12",
}


def test_the_schema_is_a_valid_json_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)


def test_a_good_state_validates() -> None:
    VALIDATOR.validate(STATE)
    waiting = {k: STATE[k] for k in ("type", "table", "you", "seat", "host", "names", "options",
                                     "bots", "gone")}
    VALIDATOR.validate(dict(waiting, status="waiting"))


@pytest.mark.parametrize("change", [
    {"hand": "S2 X7"}, {"seat": 4}, {"status": "sleeping"}, {"names": ["a", "b", "c"]},
    {"legal": ["R7 Ph=1"]}, {"calls": [None, "big", None, None]}, {"secret": 1},
    {"id": "has space"}, {"trick": [{"seat": 0, "cards": "S2", "combo": "quad"}]},
])
def test_a_broken_state_is_rejected(change: dict[str, Any]) -> None:
    broken = copy.deepcopy(STATE)
    broken.update(change)
    assert not VALIDATOR.is_valid(broken)


def test_a_state_with_a_hand_has_legal_plays() -> None:
    broken = copy.deepcopy(STATE)
    del broken["legal"]
    assert not VALIDATOR.is_valid(broken)


@pytest.mark.parametrize("obj,ok", [
    ({"type": "error", "code": "seat-taken", "message": "...", "params": {"seat": 2}}, True),
    ({"type": "error", "message": "...", "params": {}}, False),
    ({"type": "error", "code": "Bad Code", "message": "", "params": {}}, False),
    ({"type": "ok", "command": "play", "id": "c1"}, True),
    ({"type": "ok"}, False),
    ({"type": "prompt", "prompt": "login", "text": "login:"}, True),
    ({"type": "prompt", "prompt": "name", "text": "login:"}, False),
    ({"type": "game-play", "table": 1, "names": ["a", "b", "c", "d"], "seat": 1,
      "cards": "S2 B2", "combo": "pair"}, True),
    ({"type": "game-play", "table": 1, "names": ["a", "b", "c", "d"], "seat": 5,
      "cards": "S2 B2", "combo": "pair"}, False),
    ({"type": "game-round-over", "table": 1, "names": ["a", "b", "c", "d"], "order": [0, 2],
      "double_victory": 0, "card_points": [200, 0], "tichu": [0, 0],
      "calls": [None] * 4, "score": [200, 0]}, True),
    ({"type": "table-joined", "name": "Anna", "seat": 1}, False),        # no table number
    ({"type": "says", "name": "Anna", "text": "hi", "room": "Lobby"}, True),
    ({"type": "Says"}, False),
    ({"no": "type"}, False),
])
def test_other_objects(obj: dict[str, Any], ok: bool) -> None:
    assert VALIDATOR.is_valid(obj) is ok


def test_protocol_md_documents_every_object_type() -> None:
    doc = (DOCS / "protocol.md").read_text(encoding="utf-8")
    assert "## Machine mode" in doc
    section = doc.split("## Machine mode", 1)[1]
    types = [c["if"]["properties"]["type"]["const"] for c in SCHEMA["allOf"]
             if "const" in c["if"]["properties"]["type"]]
    missing = [t for t in types if f"`{t}`" not in section]
    assert missing == []
    # the documented transcript is machine-mode output: every line of it validates
    transcript = section.split("```jsonl", 1)[1].split("```", 1)[0]
    lines = [l for l in transcript.splitlines() if l.startswith("< ")]
    assert len(lines) > 20
    for line in lines:
        VALIDATOR.validate(json.loads(line[2:]))
