"""Facts the docs state about the code, checked against the code (outside finding, issue 27
review item 7: docs/protocol.md showed `protocols` [1, 2, 3] while the server sends [1, 2, 3, 4],
told bots to send `%json 3`, listed no `expert` strategy; docs/operations.md said schema version 7
(it was 8) and that the MOTD is read once at start (SIGHUP reads it again))."""
from __future__ import annotations

import json
import re

from lobby.bots.strategies.registry import STRATEGY_NAMES
from lobby.storage.store import MIGRATIONS
from protocol.render.json_lines import PROTOCOL_VERSIONS
from server_process import ROOT

PROTOCOL_MD = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
OPERATIONS_MD = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")


def test_the_greeting_row_lists_every_version() -> None:
    row = next(line for line in PROTOCOL_MD.splitlines() if line.startswith("| `greeting` |"))
    found = re.search(r"oldest first: `(\[[\d, ]+\])`", row)
    assert found, row
    assert json.loads(found.group(1)) == list(PROTOCOL_VERSIONS)


def test_every_json_switch_the_docs_recommend_is_the_newest() -> None:
    newest = PROTOCOL_VERSIONS[-1]
    for pattern in (r"skips all of it by sending `%json (\d+)`", r"asks for the\s+newest \(`%json (\d+)`\)"):
        found = re.search(pattern, PROTOCOL_MD)
        assert found and int(found.group(1)) == newest, pattern
    assert "(protocols " + " ".join(map(str, PROTOCOL_VERSIONS)) + ")" in PROTOCOL_MD


def test_the_bot_added_row_names_every_strategy() -> None:
    row = next(line for line in PROTOCOL_MD.splitlines()
               if line.startswith("| `table-bot-added` |"))
    assert all(f"`{name}`" in row for name in STRATEGY_NAMES), row


def test_the_names_rule_says_what_every_later_version_does() -> None:
    assert "protocols 2 and 3 leave" not in PROTOCOL_MD
    assert "of protocols 2 and 3" not in PROTOCOL_MD


def test_the_schema_version_of_the_docs_is_the_codes() -> None:
    found = re.findall(r"schema version (\d+)\)", OPERATIONS_MD)
    assert found and all(int(v) == len(MIGRATIONS) for v in found), found


def test_the_motd_row_says_sighup_reads_it_again() -> None:
    row = next(line for line in OPERATIONS_MD.splitlines() if line.startswith("| `--motd FILE` |"))
    assert "once" not in row and "SIGHUP" in row, row


def test_the_architecture_names_every_module() -> None:
    """docs/architecture.md's tables name each module of the server and the client library
    (a module it does not name is a room missing from the plan)."""
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [str(path.relative_to(ROOT)) for top in ("lobby", "protocol", "tichu_bot")
               for path in sorted((ROOT / top).rglob("*.py"))
               if path.name not in ("__init__.py", "__main__.py") and path.name not in architecture]
    assert missing == []
