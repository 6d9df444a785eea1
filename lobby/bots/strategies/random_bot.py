"""The `random` strategy: uniform over the legal plays (and the pass where it is allowed).

Grand Tichu and Tichu calls are legal but rare, the exchange gives three random cards, the wish
is a random rank (or none), the Dragon trick goes to a random opponent. Bombs out of turn are
thrown now and then.
"""
from __future__ import annotations

import random

from lobby.bots.strategies.strategy import View, my_turn_to
from lobby.tichu import MAHJONG, parse_cards, rank_name

__all__ = ["RandomStrategy"]

WISHES = ("none", *(rank_name(r) for r in range(2, 15)))


class RandomStrategy:
    """Random but legal decisions. `seed` makes a bot's choices reproducible."""

    name = "random"

    def __init__(self, seed: int | None = None, *, grand: float = 0.02, tichu: float = 0.02,
                 bomb: float = 0.1) -> None:
        self.rng = random.Random(seed)
        self.p_grand = grand
        self.p_tichu = tichu
        self.p_bomb = bomb

    def decide(self, view: View) -> str | None:
        rng = self.rng
        seat = view.get("seat")
        if seat is None:
            return None
        todo = my_turn_to(view)
        if todo == "grand":
            return "grand" if rng.random() < self.p_grand else "nogrand"
        if todo == "exchange":
            hand = list(parse_cards(view.get("hand") or ""))
            return "schupf " + " ".join(str(c) for c in rng.sample(hand, 3))
        if todo == "wish":
            return "wish " + rng.choice(WISHES)
        if todo == "dragon":
            return "dragon " + rng.choice(("left", "right"))
        calls = view.get("calls") or [None] * 4
        if (todo == "play" and calls[seat] is None and view.get("cards_left", [0] * 4)[seat] == 14
                and rng.random() < self.p_tichu):
            return "tichu"
        if todo == "play":
            options: list[str | None] = list(view.get("legal") or [])
            if view.get("can_pass"):
                options.append(None)
            if not options:
                return None
            choice = rng.choice(options)
            if choice is None:
                return "pass"
            if str(MAHJONG) in choice.split():
                return f"play {choice} wish {rng.choice(WISHES)}"
            return "play " + choice
        bombs: list[str] = view.get("bombs") or []
        if bombs and rng.random() < self.p_bomb:
            return "bomb " + rng.choice(bombs)
        return None
