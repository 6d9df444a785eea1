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
    # login and accounts (protocol/session.py, protocol/commands.py)
    "bad-name": "{name} is not a valid name: use 3 to 16 letters, digits, _ and -.",
    "reserved-name": "The name {name} is reserved; choose another name (or type guest).",
    "name-in-use": "{name} is online already; choose another name.",
    "wrong-password": "Wrong password.",
    "too-many-failures": "Too many failed log-ins; closing the connection.",
    "bad-password": "A password has {min} to {max} characters and no spaces.",
    "already-registered": "You are registered already; /password OLD NEW changes your password.",
    "not-registered": "You are not registered; /register PASSWORD registers your name.",
    "name-taken": "The name {name} has been registered meanwhile; log in again with another name.",
    "busy": "Still working on your earlier commands; this line was discarded.",
    # chat
    "not-online": "{name} is not online.",
    "no-such-user": "Nobody called {name} is online or registered.",
}
# the engine's reasons (illegal plays, wrong phase, ...) are part of the same catalog
ERRORS.update(ENGINE_MESSAGES)

# ---- informational messages ------------------------------------------------------------------
INFO: dict[str, str] = {
    # connection and login (protocol/session.py)
    "greeting": "Welcome to the Tichu lobby. Log in with your name, or type guest.",
    "motd": "{text}",
    "login-prompt": "login: ",
    "password-prompt": "password: ",
    "logged-in-guest": "Hello {name}! You are a guest; /register PASSWORD keeps this name for you. "
                       "Type /help for the commands.",
    "logged-in": "Welcome back, {name}! Type /help for the commands.",
    "replaced": "You logged in as {name} from another connection; this one is closed.",
    "bye": "Goodbye, {name}.",
    "shutdown": "The server is shutting down. Goodbye.",
    "registered": "{name} is registered now. Next time log in with this name and your password.",
    "password-changed": "Your password has been changed.",
    # rooms and chat (lobby/world.py)
    "enters": "{name} enters the {room}.",
    "leaves": "{name} leaves the {room}.",
    "says": "<{name}> {text}",
    "tells": "{name} tells you: {text}",
    "told": "You tell {name}: {text}",
    "who": "In the {room} ({count}): {names}",
    "wwho": "{count} online:",
    "wwho-line": "  {name:<16} {room}{guest}",
    "wwho-guest": " (guest)",
    "finger": "{name}:",
    "finger-registered": "  registered since {registered_at}, last seen {last_seen}",
    "finger-guest": "  a guest (not registered)",
    "finger-online": "  online now, in the {room}",
    "finger-offline": "  not online",
    "never": "never",
    # help (protocol/commands.py)
    "help": "Commands (the / is optional, unique prefixes work; plain text is speech to your room, "
            ";NAME text whispers):",
    "help-line": "  {usage:<26} {summary}",
    "help-footer": "/help COMMAND tells more about one command.",
    "help-command": "{usage}",
    "help-aliases": "  also: {aliases}",
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
