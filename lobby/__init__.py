"""The world of the Tichu lobby: users, rooms, tables, chat, accounts (no sockets, no text).

``__version__`` is the one place of the version: setup.cfg reads it (``version = attr:``),
``tichu-lobby --version`` and ``tichu-bot --version`` print it.
"""

__version__ = "0.1.0"
