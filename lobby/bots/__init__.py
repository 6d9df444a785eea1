"""In-process players and the bot strategies.

- `strategy.py`: the interface (`Strategy.decide(view) -> command text | None`), `make_strategy`,
  `command_action` (a bot command as an engine action) and view helpers (`my_turn_to` is the
  client library's, tichu_bot/view.py: it reads a view as a TCP bot's state);
- `random_bot.py` (`random`) and `heuristic.py` (`heuristic`, planning in `plan.py`);
- `player.py`: `BotPlayer`, a strategy seated at a TableActor, answering through the clock.

Strategies only read the seat's view, so a TCP bot in machine mode reuses them unchanged.
"""
from lobby.bots.strategy import (
    STRATEGY_NAMES,
    Strategy,
    command_action,
    make_strategy,
    my_turn_to,
    play_cards,
)

__all__ = ["STRATEGY_NAMES", "Strategy", "command_action", "make_strategy", "my_turn_to",
           "play_cards"]
