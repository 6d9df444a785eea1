"""The first code of every way to start the server: ``tichu-lobby`` (setup.cfg's console script),
``python -m protocol`` and ``scripts/serve`` (which runs ``python -m protocol``).

A SIGHUP (logrotate, ``systemctl reload``, a MOTD change) ends a process that has no handler for it.
This module (and protocol/process/hold.py, which keeps the SIGHUPs) imports nothing but ``os``,
``signal`` and ``sys`` (and ``protocol`` and
``protocol.process``, which import nothing at load time), so its ``main`` holds SIGHUP within the
interpreter's own start, before the server's imports (Twisted and the rest take a second or more
on a busy machine); ``protocol.process.logs.reopen_on_sighup`` handles one kept SIGHUP once the
server runs. Before this module runs no program can hold a SIGHUP: only the interpreter's start
(tens of milliseconds) is left uncovered. ``scripts/serve`` keeps a SIGHUP that arrives while it
checks its environment and says so with ``TICHU_SERVE_SIGHUP=1`` (docs/operations.md, "Logs").
"""
from __future__ import annotations

import sys

from protocol.process.hold import hold_sighup


def main() -> int:
    """``tichu-lobby``: hold SIGHUP, then import and run the server (protocol.process.server)."""
    if sys.argv[1:2] != ["admin"]:
        hold_sighup()
    from protocol.process.server import main as server_main
    return server_main()
