"""What the rendering of an event for one connection depends on, besides the event itself.

Text for people depends on the event and on the connection's settings: today the colour of the
cards (``/set color``); the language and the terminal width come next. A ``RenderContext`` holds
all of them, and every cache of rendered bytes is keyed by ``(event, context)``
(protocol/session.py for text lines, protocol/machine.py for JSON lines). A new setting that
changes what people see is one new field here (and where the session reads it from its
settings): every cache keys on it at once.

Contexts are interned: the same settings give the very same object (``RenderContext.of``), so a
cache compares its key by identity (``is``), as cheaply as the event.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["RenderContext", "DEFAULT_CONTEXT"]

#: interned contexts, by their fields (bounded: settings have few values each)
_INTERNED: dict[tuple[Any, ...], "RenderContext"] = {}
_MAX_INTERNED = 4096


@dataclass(frozen=True, slots=True)
class RenderContext:
    """The settings of a connection that the text it gets depends on."""

    lang: str = "en"          # the catalog's language (lobby/messages.py)
    color: bool = False       # ANSI colours for cards (/set color on)

    @classmethod
    def of(cls, lang: str = "en", color: bool = False) -> "RenderContext":
        """The one context with these settings (interned)."""
        key = (lang, color)
        ctx = _INTERNED.get(key)
        if ctx is None:
            if len(_INTERNED) >= _MAX_INTERNED:    # a cache keyed on an old one just misses
                _INTERNED.clear()
            ctx = _INTERNED[key] = cls(lang, color)
        return ctx


#: the context of a connection that changed no setting
DEFAULT_CONTEXT = RenderContext.of()
