"""Where the bot strategies run.

- `player.py`: `BotPlayer`, a strategy seated at a TableActor, answering through the clock;
- `pool.py`: `BotPool`, the worker processes the search bots (`expert`) think in, with the
  heuristic's answer sent instead when a search cannot be answered in time.

May import: lobby.bots.strategies, lobby.tichu (its facade), lobby.events, lobby.text; Twisted.
Never lobby.tables, lobby.world, lobby.storage or protocol.
"""
