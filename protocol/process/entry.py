"""The first code of every way to start the server: ``tichu-lobby`` (setup.cfg's console script),
``python -m protocol`` and ``scripts/serve`` (which runs ``python -m protocol``).

A SIGHUP (logrotate, ``systemctl reload``, a MOTD change) ends a process that has no handler for it.
This module imports nothing but ``os``, ``signal`` and ``sys`` (and ``protocol`` and
``protocol.process``, which import nothing at load time), so its ``main`` holds SIGHUP within the
interpreter's own start, before the server's imports (Twisted and the rest take a second or more
on a busy machine); ``protocol.process.logs.reopen_on_sighup`` handles one kept SIGHUP once the
server runs. Before this module runs no program can hold a SIGHUP: only the interpreter's start
(tens of milliseconds) is left uncovered. ``scripts/serve`` keeps a SIGHUP that arrives while it
checks its environment and says so with ``TICHU_SERVE_SIGHUP=1`` (docs/operations.md, "SIGHUP").
"""
from __future__ import annotations

import os
import signal
import sys

#: the environment variable with which scripts/serve says a SIGHUP arrived before the server ran
WRAPPER_HELD = "TICHU_SERVE_SIGHUP"

#: SIGHUPs that arrived between ``hold_sighup()`` and ``reopen_on_sighup()`` (the start-up)
held: list[int] = []


def _keep(signum: int, frame: object) -> None:
    held.append(signum)


def hold_sighup() -> None:
    """From here on a SIGHUP is kept instead of ending the process; one that scripts/serve kept
    (``TICHU_SERVE_SIGHUP=1``) counts as kept here."""
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, _keep)
        if os.environ.pop(WRAPPER_HELD, "") == "1":
            held.append(signal.SIGHUP)


def main() -> int:
    """``tichu-lobby``: hold SIGHUP, then import and run the server (protocol.process.server)."""
    if sys.argv[1:2] != ["admin"]:
        hold_sighup()
    from protocol.process.server import main as server_main
    return server_main()
