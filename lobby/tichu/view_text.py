"""The texts a round's views show (BSW notation), memoised: plays and hands.

Every change of a round is shown to four seats and the spectators, and most of what they see is
the same text as before (the plays of the trick, a hand that did not change, the legal plays of
the seat in turn). A Combo keeps its own text once made (`Combo._text`: it lives as long as the
plays that hold it); a hand's text is memoised by its card mask here, and kept per seat by the
round (`Round._add_seat_view`), so that thousands of tables, whose hands outnumber the memo, do
not empty it over and over. A text is a function of its key alone (no seat, no game), so a seat
can only ever get the text of its own cards from them. Bounded: a memo is emptied when it holds
TEXT_CACHE_SIZE texts (they are rebuilt as they are asked for again).

What is not memoised, because measuring showed no gain (docs/performance.md, "Tables"): the
bombs a seat could throw in (`Round.bombs`, asked for every view), the three cards a seat gave.
"""
from __future__ import annotations

from typing import Any

from . import memo as _memo
from .cards import format_cards, format_play, mask_cards, sort_cards
from .combos import Combo

__all__ = ["TEXT_CACHE_SIZE", "hand_text", "play_text", "play_texts", "received_text"]

TEXT_CACHE_SIZE = 8192
_PLAY_TEXT: _memo.BoundedMemo[str] = _memo.BoundedMemo(TEXT_CACHE_SIZE)
_HAND_TEXT: _memo.BoundedMemo[str] = _memo.BoundedMemo(TEXT_CACHE_SIZE)


def play_text(combo: Any) -> str:
    """A play in BSW notation, the Phoenix with its reading in multi-card plays (`R5 G5 Ph=5`).
    `combo` is a Combo (its text is kept on it once made: a Combo lives as long as a hand's
    plays or the trick need it, however many tables there are) or anything with `cards` and
    `phoenix_as` (memoised by its `key` if it has one)."""
    if type(combo) is Combo:
        text = combo._text if _memo.ON else None
        if text is None:
            text = format_play(sort_cards(combo.cards), combo.phoenix_as)
            if _memo.ON:
                object.__setattr__(combo, "_text", text)
        return text
    key = getattr(combo, "key", None)
    if key is not None:
        text = _PLAY_TEXT.get(key)
        if text is not _memo.MISSING:
            return text
    text = format_play(sort_cards(combo.cards), getattr(combo, "phoenix_as", None))
    if key is not None:
        _PLAY_TEXT.put(key, text)
    return text


def play_texts(combos: list[Any]) -> list[str]:
    """`[play_text(c) for c in combos]` for Combos (legal plays, bombs)."""
    if not _memo.ON:
        return [play_text(c) for c in combos]
    return [c._text or play_text(c) for c in combos]


def hand_text(mask: int) -> str:
    """The cards of a mask in BSW notation, sorted (a hand in a view)."""
    text = _HAND_TEXT.get(mask)
    if text is _memo.MISSING:
        text = _HAND_TEXT.put(mask, format_cards(mask_cards(mask)))
    return text


def received_text(received: dict[int, Any]) -> dict[str, str]:
    """{from seat: card} as a view shows it: {"0": "R5", ...}, by seat."""
    return {str(f): str(c) for f, c in sorted(received.items())}
