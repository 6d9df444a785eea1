"""The world of the Tichu lobby: users, rooms, tables, chat, accounts (no sockets, no text).

Layers, each a package whose docstring says what it may import (tests/project/test_layers.py checks it),
from the bottom up: ``lobby.tichu`` (the game: pure rules, imports nothing above it, no Twisted),
``lobby.text`` (the message catalog and its translations), ``lobby.events`` (this module beside
them: the world's one event type, which every layer speaks), ``lobby.bots.strategies`` (pure) and
``lobby.bots.runtime``, ``lobby.storage``, ``lobby.tables``, ``lobby.world`` (the top). Nothing in
lobby imports ``protocol``.

``__version__`` is the one place of the version: setup.cfg reads it (``version = attr:``),
``tichu-lobby --version`` and ``tichu-bot --version`` print it.
"""

__version__ = "0.1.0"
