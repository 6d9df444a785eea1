"""The bot strategy interface: decide from what a seat may see, answer with a table command.

A strategy sees exactly what a person in that seat sees: the engine's view dict of the seat
(`Match.view(player)` / `Round.view(seat)`: phase, seat, hand, trick, turn, wish, calls, cards_left,
out, legal, can_pass, bombs, given, received, scores, ...). It answers with the command to send in
the table's command language, as text (`play R5 G5`, `play Ma wish 8`, `pass`, `grand`, `nogrand`,
`tichu`, `schupf C1 C2 C3`, `wish 8`, `dragon left`, `bomb S5 S6 S7 S8`), or None when it has
nothing to do now. It never touches engine internals, so the same strategy object drives an
in-process bot at a TableActor (lobby/bots/runtime/player.py), the engine-level arena
(scripts/bot_arena.py) and, later, a TCP bot in machine mode (which receives the same view).

The strategies by name (`make_strategy`, `STRATEGY_NAMES`) are registered in registry.py, which
imports each of them: this module, which they all import, imports none of them.

A strategy object may keep memory between calls (one object per seat and game); it may be asked
several times in the same state, and is not necessarily asked at every change.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from lobby.tichu import (
    PHOENIX,
    Action,
    CallTichu,
    Card,
    Combo,
    Exchange,
    GiveDragon,
    GrandTichu,
    Pass,
    Play,
    Wish,
    classify,
    parse_cards,
    parse_play,
    parse_wish,
)
from tichu_bot.view import View, my_turn_to

__all__ = ["Strategy", "View", "my_turn_to", "play_cards", "play_combo", "command_action"]

@runtime_checkable
class Strategy(Protocol):
    """Decides one command at a time from a seat's view."""

    name: str

    def decide(self, view: View) -> str | None:
        """The command to send now (table command language), or None for nothing to do."""
        ...


def play_cards(text: str) -> tuple[tuple[Card, ...], int | None]:
    """A play as the view writes it (`R5 G5 Ph=5`) -> (cards, Phoenix reading or None)."""
    cards, phoenix_as, _ = parse_play(text, allow_wish=False)
    return tuple(cards), phoenix_as


def play_combo(text: str, on: Combo | None = None) -> Combo | None:
    """The Combo a play text of the view stands for (with its Phoenix reading)."""
    cards, phoenix_as = play_cards(text)
    return classify(cards, phoenix_as=phoenix_as, on=on)


def command_action(command: str, seat: int) -> Action:
    """The engine action a bot command stands for, as the table reads it (for the arena, which
    plays without a table). Understands the commands strategies send: full card notation."""
    word, _, rest = command.strip().partition(" ")
    rest = rest.strip()
    if word == "grand":
        return GrandTichu(True)
    if word == "nogrand":
        return GrandTichu(False)
    if word == "tichu":
        return CallTichu()
    if word == "pass":
        return Pass()
    if word == "schupf":
        return Exchange(tuple(parse_cards(rest)))
    if word == "wish":
        return Wish(parse_wish(rest))
    if word == "dragon":
        if rest == "right":
            return GiveDragon((seat + 1) % 4)
        if rest == "left":
            return GiveDragon((seat + 3) % 4)
        return GiveDragon(int(rest) - 1)
    if word in ("play", "bomb"):
        cards, phoenix_as, wish = parse_play(rest)
        if PHOENIX not in cards or len(cards) == 1:
            phoenix_as = None
        return Play(tuple(cards), phoenix_as, wish)
    raise ValueError(f"not a bot command: {command!r}")
