"""Reasons the rules engine gives when it rejects an action: a stable code and a template.

The lobby's message catalog (lobby/messages.py) includes these, so they are rendered and
documented like every other error code.
"""
from __future__ import annotations

import string
from typing import Any

ENGINE_MESSAGES: dict[str, str] = {
    "bad-card": "Not a card: {token!r}. Cards are written like R10 GB SD BK RA Ma Hu Ph Dr.",
    # round.py / match.py
    "bad-seat": "There is no seat {seat!r}.",
    "bad-action": "Not an action: {action}.",
    "wrong-phase": "That is not possible now (phase: {phase!w:phase}).",
    "round-over": "The round is over.",
    "match-over": "The game is over.",
    "no-grand-tichu": "Grand Tichu is not played at this table.",
    "grand-already-decided": "You have already decided on the Grand Tichu.",
    "grand-undecided": "First decide on the Grand Tichu (yes or no).",
    "already-called": "You have already called {call}.",
    "tichu-too-late": "Too late for Tichu: you have already played a card.",
    "exchange-over": "The exchange is over.",
    "already-exchanged": "You have already given your three cards.",
    "exchange-three-cards": "Give exactly three cards: to the next player, your partner and "
                            "the previous player (you named {count}).",
    "exchange-incomplete": "Not everybody has given his cards yet.",
    "waiting-for-wish": "Waiting for the Mah Jong player to name a wish.",
    "waiting-for-dragon": "Waiting for seat {seat} to give the Dragon trick away.",
    "you-are-out": "You have no cards left in this round.",
    "not-your-turn": "It is not your turn (seat {turn} plays); out of turn only a bomb may be "
                     "played on the table.",
    "must-lead": "You lead: play something (you cannot pass).",
    "must-fulfil-wish": "The wish binds you: play {rank!w:a-rank}.",
    "bad-wish": "Not a rank to wish for: {rank!r}. Wish 2..10, B, D, K, A or none.",
    "wish-without-mahjong": "Only a play with the Mah Jong may name a wish.",
    "no-wish-pending": "There is no wish for you to name.",
    "no-dragon-pending": "There is no Dragon trick to give away.",
    "not-your-dragon": "The Dragon trick is seat {seat}'s to give away.",
    "dragon-to-opponent": "The Dragon trick must go to an opponent, not to seat {seat}.",
    # cards.py
    "duplicate-card": "{card} is named twice.",
    "bad-rank": "Not a rank: {token!r}. Ranks are 2..10, B (or J), D (or Q), K, A.",
    # cards.py: the rank-only shorthand of a play (`/play 7 7`)
    "ambiguous-cards": "Which {rank!w:ranks}? Every choice breaks a bomb; name the cards, e.g. "
                       "{example}.",
    "missing-rank": "You do not hold {count} {count!p:card|cards} of rank {rank}.",
    # moves.py: why a play is refused
    "no-cards": "Name the cards to play.",
    "cards-not-in-hand": "You do not hold {cards}.",
    "not-a-combination": "{cards} is not a combination.",
    "bad-phoenix-reading": "The Phoenix cannot stand for {rank!w:a-rank} in {cards}.",
    "dog-on-table": "Nothing can be played on the Dog, not even a bomb.",
    "dog-not-lead": "The Dog can only be led, not played on a trick.",
    "phoenix-on-dragon": "The Phoenix cannot be played on the Dragon.",
    "bomb-on-table": "{play} does not beat the bomb {top}: only a higher bomb does.",
    "wrong-kind": "{play} cannot be played on {top}: {kind!w:kind-a} does not go on "
                  "{top_kind!w:kind-a}.",
    "wrong-length": "{play} cannot be played on {top}: a play must have as many cards as the one it beats.",
    "too-low": "{play} does not beat {top}.",
    "wish-not-followed": "You must play {rank!w:a-rank}: the open wish (or a bomb).",
    "not-a-bomb": "{cards} is not a bomb; only a bomb can be played out of turn.",
    "bomb-on-empty-table":
        "A bomb can be thrown in only while a play lies on the table; lead it in your turn.",
}


class _PlainFormatter(string.Formatter):
    """str.format for the engine's own `message` (logs, tests): the catalog's conversions
    `!w` (a word), `!p` (a plural form) and `!t` (a duration) show the plain value; the lobby
    renders the words from its catalog (lobby/messages.py)."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion in ("w", "t"):
            return str(value)
        if conversion == "p":
            return _Bare(value)
        return super().convert_field(value, conversion)

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, _Bare):
            singular, _, plural = format_spec.partition("|")
            return singular if value.value == 1 or not plural else plural
        if isinstance(value, str) and format_spec and not format_spec[:1].isdigit() \
                and format_spec[:1] not in "<>^=":
            return value                       # the prefix of a `!w` word
        return str(super().format_field(value, format_spec))


class _Bare:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


_PLAIN = _PlainFormatter()


class Rejected(Exception):
    """An action the engine refused. Nothing changed. `code` is stable; `message` is for people."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        template = ENGINE_MESSAGES.get(code, code)
        try:
            self.message = _PLAIN.vformat(template, (), params)
        except (KeyError, IndexError, ValueError):
            self.message = template
        super().__init__(f"{code}: {self.message}")
