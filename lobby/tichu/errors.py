"""Reasons the rules engine gives when it rejects an action: a stable code and a template.

The lobby's message catalog (lobby/messages.py) includes these, so they are rendered and
documented like every other error code.
"""
from __future__ import annotations

from typing import Any

ENGINE_MESSAGES: dict[str, str] = {
    "bad-card": "Not a card: {token!r}. Cards are written like R10 GB SD BK RA Ma Hu Ph Dr.",
    # cards.py
    "duplicate-card": "{card} is named twice.",
    "bad-rank": "Not a rank: {token!r}. Ranks are 2..10, B (or J), D (or Q), K, A.",
}


class Rejected(Exception):
    """An action the engine refused. Nothing changed. `code` is stable; `message` is for people."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        template = ENGINE_MESSAGES.get(code, code)
        try:
            self.message = template.format(**params)
        except (KeyError, IndexError, ValueError):
            self.message = template
        super().__init__(f"{code}: {self.message}")
