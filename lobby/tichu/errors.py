"""Why the rules engine rejects an action: a stable code and its parameters, no text.

The codes are keys of the lobby's message catalog (lobby/text/messages.py, `ENGINE_ERRORS`, and every
language's catalog), which alone holds their text: the lobby renders a refusal in the player's
language, and docs/protocol.md lists the codes with the other error codes. The engine knows no
template and no language (tests/engine/test_engine_alone.py checks it).
"""
from __future__ import annotations

from typing import Any


class Rejected(Exception):
    """An action the engine refused; nothing changed. `code` is stable; `params` are the values
    its catalog text names (cards as BSW text, ranks and kinds as codes: `A`, `pair`)."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code, params)

    def __str__(self) -> str:
        if not self.params:
            return self.code
        return self.code + " " + " ".join(f"{k}={v!r}" for k, v in self.params.items())
