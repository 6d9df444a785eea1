"""Reading numbers typed by people: ASCII digits only, bounded.

`str.isdigit()` is true for characters such as '²' or '⁴' that `int()` refuses, and SQLite
refuses integers of 2**63 and above; every number read from a command line goes through here.
"""
from __future__ import annotations

MAX_NUMBER = 2**62


def ascii_int(text: str, maximum: int = MAX_NUMBER) -> int | None:
    """The non-negative integer `text` spells in ASCII digits, or None (also when > maximum)."""
    text = text.strip()
    if not (text and text.isascii() and text.isdigit()) or len(text) > 20:
        return None
    value = int(text)
    return value if value <= maximum else None
