"""SIGHUPs kept from the first line of the start-up on (protocol/process/entry.py holds them
before the server's imports; protocol.process.logs.reopen_on_sighup handles one once the server
runs). Imports nothing but ``os`` and ``signal``, so the entry points load it within the
interpreter's own start; nothing here imports the server (no import circle through it)."""
from __future__ import annotations

import os
import signal

__all__ = ["WRAPPER_HELD", "hold_sighup", "take_held"]

#: the environment variable with which scripts/serve says a SIGHUP arrived before the server ran
WRAPPER_HELD = "TICHU_SERVE_SIGHUP"

#: SIGHUPs that arrived between ``hold_sighup()`` and ``reopen_on_sighup()`` (the start-up)
_held: list[int] = []


def _keep(signum: int, frame: object) -> None:
    _held.append(signum)


def hold_sighup() -> None:
    """From here on a SIGHUP is kept instead of ending the process; one that scripts/serve kept
    (``TICHU_SERVE_SIGHUP=1``) counts as kept here."""
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, _keep)
        if os.environ.pop(WRAPPER_HELD, "") == "1":
            _held.append(signal.SIGHUP)


def take_held() -> bool:
    """Whether a SIGHUP was kept since ``hold_sighup`` (and forget it: it is handled once)."""
    kept = bool(_held)
    _held.clear()
    return kept
