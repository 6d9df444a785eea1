"""What the rendering of an event for one connection depends on, besides the event itself.

Text for people depends on the event and on the connection's settings: the colour of the cards
(``/set color``), the language and the terminal width (telnet NAWS, or ``/set width N``; every
text line is wrapped to it, protocol/render/wrap.py). A ``RenderContext`` holds all of them, and
every cache of rendered bytes is keyed by ``(event, context)`` (protocol/connection/session.py for text
lines, protocol/connection/machine.py for JSON lines). A new setting that
changes what people see is one new field here (and where the session reads it from its
settings): every cache keys on it at once.

Contexts are interned: the same settings give the very same object (``RenderContext.of``), so a
cache compares its key by identity (``is``), as cheaply as the event.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["RenderContext", "DEFAULT_CONTEXT", "DEFAULT_HEIGHT", "DEFAULT_WIDTH", "MIN_HEIGHT",
           "MIN_WIDTH", "MAX_WIDTH", "clamp_height", "clamp_width"]

#: the width (columns) of a text-mode connection whose client told none (no NAWS, no /set width)
DEFAULT_WIDTH = 80
#: the narrowest and widest width used: a NAWS width or ``/set width N`` outside is clamped
#: (NAWS) or refused (``/set width``, error ``bad-width``); see docs/operations.md
MIN_WIDTH = 20
MAX_WIDTH = 250


#: the rows of a text-mode terminal whose client told none (telnet NAWS): a long answer
#: (/replay) comes a page at a time, a page sized to the rows (protocol/connection/machine.py)
DEFAULT_HEIGHT = 24
#: the fewest rows a page is sized to (a NAWS height below is taken as this)
MIN_HEIGHT = 5


def clamp_height(height: int) -> int:
    """The rows the client told (NAWS; 0: unknown, DEFAULT_HEIGHT) -> the rows a page is sized
    to, at least MIN_HEIGHT."""
    return DEFAULT_HEIGHT if height <= 0 else max(MIN_HEIGHT, height)


def clamp_width(width: int) -> int:
    """A width the client told (NAWS) -> the width used: 0 (unknown) is DEFAULT_WIDTH, others
    are clamped to MIN_WIDTH..MAX_WIDTH."""
    if width <= 0:
        return DEFAULT_WIDTH
    return min(MAX_WIDTH, max(MIN_WIDTH, width))

#: interned contexts, by their fields (bounded: settings have few values each)
_INTERNED: dict[tuple[Any, ...], RenderContext] = {}
_MAX_INTERNED = 4096


@dataclass(frozen=True, slots=True)
class RenderContext:
    """The settings of a connection that the text it gets depends on."""

    lang: str = "en"          # the catalog's language (lobby/text/messages.py)
    color: bool = False       # ANSI colours for cards (/set color on)
    width: int = DEFAULT_WIDTH  # columns every text line is wrapped to (NAWS, /set width)

    @classmethod
    def of(cls, lang: str = "en", color: bool = False,
           width: int = DEFAULT_WIDTH) -> RenderContext:
        """The one context with these settings (interned)."""
        key = (lang, color, width)
        ctx = _INTERNED.get(key)
        if ctx is None:
            if len(_INTERNED) >= _MAX_INTERNED:    # a cache keyed on an old one just misses
                _INTERNED.clear()
            ctx = _INTERNED[key] = cls(lang, color, width)
        return ctx


#: the context of a connection that changed no setting
DEFAULT_CONTEXT = RenderContext.of()
