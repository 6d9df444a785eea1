"""The Twisted application plugin: ``twist tichu-lobby [options]`` runs the lobby server.

The options after ``tichu-lobby`` are those of the ``tichu-lobby`` command (protocol.server.
parse_args; ``twist tichu-lobby --help`` lists them); Twisted's own ``--log-level``,
``--log-format``, ``--log-file`` and ``--reactor`` go before the plugin name. The asyncio reactor
is installed here unless ``--reactor`` chose another one (``--uvloop`` runs it on uvloop).

This directory is a namespace portion of ``twisted.plugins`` (Twisted's plugin system finds a
``twisted/plugins`` directory without ``__init__.py`` on every sys.path entry): neither ``twisted/``
nor ``twisted/plugins/`` of this project may have an ``__init__.py``. The module is imported
whenever Twisted looks for plugins, so it imports the server only when asked for it.
"""
from __future__ import annotations

from typing import Any

from twisted.application.service import IServiceMaker
from twisted.plugin import IPlugin
from twisted.python import usage
from zope.interface import implementer

PROG = "twist tichu-lobby"


class Options(usage.Options):
    """The options of ``tichu-lobby``, parsed by its own argparse parser."""

    def parseOptions(self, options: Any = None) -> None:
        from protocol.process.server import twist_options
        self.update(twist_options(list(options or []), getattr(self, "parent", None), PROG))

    def getUsage(self, width: Any = None) -> str:
        from protocol.process.options import parser_help
        return parser_help(PROG)


@implementer(IServiceMaker, IPlugin)
class LobbyServiceMaker:
    tapname = "tichu-lobby"
    description = "The Tichu lobby server (BrettspielWelt style) on a classic line protocol."
    options = Options

    def makeService(self, options: Any) -> Any:
        from protocol.process.server import LobbyService, exit_status_at_exit
        service = LobbyService(options["opts"], options["motd"], options["loop"])
        service.on_failure = exit_status_at_exit
        return service


serviceMaker = LobbyServiceMaker()
