"""The wire: bytes <-> commands and events (telnet, text and machine mode). Knows no game rules.

``json_schema()`` is the JSON Schema of every machine-mode object (draft 2020-12). Its one copy is
the package data file ``protocol/protocol.schema.json``, so an installed server or bot carries
it; read it through ``importlib.resources`` (never a path relative to a checkout).
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any

SCHEMA_FILE = "protocol.schema.json"


def json_schema_text() -> str:
    """The JSON Schema of machine mode as shipped in the package."""
    return resources.files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def json_schema() -> dict[str, Any]:
    """The JSON Schema of machine mode, parsed (a new dict on every call)."""
    schema: dict[str, Any] = json.loads(json_schema_text())
    return schema
