"""The message catalog: every text meant for people, one key and one template per message.

Error codes ARE the keys of error messages (stable, documented in docs/protocol.md, matched by
scripts). Templates use str.format fields. Translations can be added as further dicts keyed by
language without touching handlers; English is the default and the fallback.

Add entries to the section of your layer; never rename a key that has shipped.
"""
from __future__ import annotations

from typing import Any

from lobby.tichu.errors import ENGINE_MESSAGES

# ---- errors: key -> template (the key is the stable error code) --------------------------------
ERRORS: dict[str, str] = {
    # protocol / session
    "line-too-long": "Line too long ({length} bytes, limit {limit}); it was discarded.",
    "unknown-command": "Unknown command /{name}. Type /help for a list of commands.",
    "ambiguous-command": "Ambiguous command /{name}: could be {candidates}.",
    "bad-arguments": "Usage: {usage}",
    "internal-error": "Internal error while handling your command; it was logged and nothing changed.",
}
# the engine's reasons (illegal plays, wrong phase, ...) are part of the same catalog
ERRORS.update(ENGINE_MESSAGES)

# ---- informational messages ------------------------------------------------------------------
INFO: dict[str, str] = {
}

CATALOGS: dict[str, dict[str, str]] = {"en": {**INFO, **ERRORS}}


def text(key: str, lang: str = "en", /, **params: Any) -> str:
    """Render message `key` in `lang` (falling back to English) with `params`."""
    template = CATALOGS.get(lang, {}).get(key) or CATALOGS["en"].get(key)
    if template is None:
        return key + ("" if not params else " " + " ".join(f"{k}={v}" for k, v in params.items()))
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


class LobbyError(Exception):
    """A refused command: `code` is a catalog key from ERRORS, `params` fill its template."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def text(self, lang: str = "en") -> str:
        return text(self.code, lang, **self.params)
