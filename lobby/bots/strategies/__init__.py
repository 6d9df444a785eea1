"""The bot strategies: pure decisions from a seat's view (no Twisted, no clock, no I/O).

- `strategy.py`: the interface (`Strategy.decide(view) -> command text | None`),
  `command_action` (a bot command as an engine action) and view helpers (`my_turn_to` is the
  client library's, tichu_bot/view.py: it reads a view as a TCP bot's state);
- `random_bot.py` (`random`) and `heuristic.py` (`heuristic`, planning in `plan.py`);
- `expert.py` (`expert`): search (`search.py`) over deals of the unseen cards (`knowledge.py`);
- `registry.py`: the strategies by name (`make_strategy`, `STRATEGY_NAMES`), the one place each
  is registered (it imports them; they import only the interface).

Strategies only read the seat's view, so a TCP bot in machine mode reuses them unchanged. Where
they run (a table's `BotPlayer`, the worker pool) is lobby.bots.runtime, which they never import.

May import: lobby.tichu (its facade), lobby.bots.strategies, tichu_bot; the standard library.
"""
from lobby.bots.strategies.registry import STRATEGY_NAMES, make_strategy
from lobby.bots.strategies.strategy import Strategy, command_action, my_turn_to, play_cards

__all__ = ["STRATEGY_NAMES", "Strategy", "command_action", "make_strategy", "my_turn_to",
           "play_cards"]
