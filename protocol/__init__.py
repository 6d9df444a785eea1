"""The wire: bytes <-> commands and events (telnet, text and machine mode). Knows no game rules.

Layers, each a package whose docstring says what it may import (tests/project/test_layers.py checks it):

- ``protocol.telnet``: the byte layer (framing, IAC, charset, the telnet options); no lobby;
- ``protocol.render``: events and records -> text or JSON; never a connection;
- ``protocol.commands``: THE command table, one module per group;
- ``protocol.connection``: one connection (log-in, output mode, settings, the guard);
- ``protocol.web``: the HTTP listener (the web client, the WebSocket endpoint);
- ``protocol.process``: the composition root, options, config file, logs, metrics, admin CLI;
  nothing below imports it.

Beside them, importable by every layer of protocol and importing nothing of the project:
``protocol.option_fields`` (options declared on dataclass fields) and this module.

``json_schema()`` is the JSON Schema of every machine-mode object (draft 2020-12). Its one copy is
the package data file ``protocol/protocol.schema.json``, so an installed server or bot carries
it; read it through ``importlib.resources`` (never a path relative to a checkout).
"""
from __future__ import annotations

# Nothing is imported at load time (json, importlib.resources where used; typing only for the
# type checker): ``python -m protocol`` and the console script load this module before their
# first line, which holds SIGHUP (protocol/process/entry.py), so it stays light.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_FILE = "protocol.schema.json"


def json_schema_text() -> str:
    """The JSON Schema of machine mode as shipped in the package."""
    from importlib import resources
    return resources.files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def json_schema() -> dict[str, Any]:
    """The JSON Schema of machine mode, parsed (a new dict on every call)."""
    import json
    schema: dict[str, Any] = json.loads(json_schema_text())
    return schema
