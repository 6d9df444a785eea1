"""Reading a seat's view: the `state` a bot holds (machine mode) is the engine's view of its seat
(docs/protocol.md, "Machine mode"; docs/engine.md, `round.view`). Pure functions of that dict,
with no import of the server: the server's own strategies (lobby/bots) read their views with the
same functions."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["View", "my_turn_to"]

View = Mapping[str, Any]


def my_turn_to(view: View) -> str | None:
    """What the view's seat is asked to do now: `grand`, `exchange`, `play` (in turn), `wish`,
    `dragon`, or None (it may still call Tichu or bomb out of turn)."""
    seat = view.get("seat")
    if seat is None:
        return None
    phase = view.get("phase")
    if phase == "grand":
        decided = view.get("grand_decided") or []
        return "grand" if seat < len(decided) and not decided[seat] else None
    if phase == "exchange":
        return "exchange" if not view.get("given") else None
    if phase == "wish":
        return "wish" if view.get("wish_pending") == seat else None
    if phase == "dragon":
        return "dragon" if view.get("holder") == seat else None
    if phase == "play":
        return "play" if view.get("turn") == seat else None
    return None
