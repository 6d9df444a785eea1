"""The strategies a bot may use, by name: the one place a strategy is registered.

`make_strategy(name, seed)` makes one (`addbot [SEAT] [random|heuristic|expert|expert:SECONDS]`);
`STRATEGY_NAMES` lists the names. The strategies import the interface (strategy.py) and never
this module, so the registry imports them at its top with no import circle
(tests/project/test_layers.py checks that lobby has none).

May import: the strategies of this package (lobby.bots.strategies).
"""
from __future__ import annotations

from lobby.bots.strategies.expert import ExpertStrategy, parse_level
from lobby.bots.strategies.heuristic import HeuristicStrategy
from lobby.bots.strategies.random_bot import RandomStrategy
from lobby.bots.strategies.strategy import Strategy

__all__ = ["STRATEGY_NAMES", "make_strategy"]

#: the strategies a bot may use (`addbot [SEAT] [random|heuristic|expert|expert:SECONDS]`)
STRATEGY_NAMES: tuple[str, ...] = ("heuristic", "random", "expert")


def make_strategy(name: str, seed: int | None = None) -> Strategy:
    """A new strategy object by name (`heuristic`, `random`, `expert`, `expert:SECONDS`, or
    `expert:pN`: N playouts per decision, reproducible); ValueError for other names."""
    if name == "expert" or name.startswith("expert:"):
        tail = name.partition(":")[2]
        if tail.startswith("p") and tail[1:].isascii() and tail[1:].isdigit() and int(tail[1:]):
            return ExpertStrategy(seed, playouts=int(tail[1:]))
        return ExpertStrategy(seed, seconds=parse_level(name))
    if name == "random":
        return RandomStrategy(seed)
    if name == "heuristic":
        return HeuristicStrategy(seed)
    raise ValueError(f"unknown strategy {name!r}")
