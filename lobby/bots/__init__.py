"""Bots: the pure strategies apart from their runtime.

- ``lobby.bots.strategies``: how a bot decides from a seat's view (``random``, ``heuristic``,
  ``expert`` and their planning, knowledge and search). Pure: no Twisted, no clock, no I/O, no
  import of the runtime; a TCP bot in machine mode (tichu_bot) reuses them unchanged.
- ``lobby.bots.runtime``: where strategies run: ``BotPlayer`` seated at a table, answering through
  the injected clock, and the worker-process pool the search bots think in (Twisted).

Imports (tests/project/test_layers.py): strategies import lobby.tichu, lobby.bots.strategies and the
client library tichu_bot only; the runtime imports the strategies, lobby.tichu, lobby.events and
lobby.text. Nothing here imports lobby.tables, lobby.world, lobby.storage or protocol.
"""
