"""The strategies the ``tichu-bot`` program can play, found by name among the installed
distributions: the entry points of the group ``tichu_bot.strategies``. Each entry point is named
after a strategy and loads a factory ``make(spec, seed) -> strategy``, where ``spec`` is the name
as given (``expert:2``: the part before the colon is the entry point's name) and a strategy has
``decide(state) -> command text | None`` (docs/bots.md, "Writing a bot"). The tichu-lobby
distribution declares its own three (``heuristic``, ``random``, ``expert``: lobby/bots); any other
distribution may add more. The client library knows none of them by itself, so it depends on
nothing of the server."""
from __future__ import annotations

from importlib import metadata
from typing import Any, Protocol

__all__ = ["GROUP", "Strategy", "strategy_names", "make_strategy"]

GROUP = "tichu_bot.strategies"


class Strategy(Protocol):
    """Decides one command at a time from a seat's state."""

    name: str

    def decide(self, view: Any) -> str | None: ...


def _entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=GROUP)}


def strategy_names() -> tuple[str, ...]:
    """The names of the installed strategies, sorted."""
    return tuple(sorted(_entry_points()))


def make_strategy(spec: str, seed: int | None = None) -> Strategy:
    """A new strategy object for ``spec`` (``heuristic``, ``expert:2``, ...); ValueError when no
    installed distribution provides it."""
    entry = _entry_points().get(spec.partition(":")[0])
    if entry is None:
        raise ValueError(f"no installed strategy {spec!r} (installed: "
                         f"{', '.join(strategy_names()) or 'none'})")
    strategy: Strategy = entry.load()(spec, seed)
    return strategy
