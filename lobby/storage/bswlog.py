"""A game as a BrettspielWelt (BSW) Tichu log: the ``.tch`` text of BSW's public log archive.

BSW's archive serves one plain-text file per game; public tools that analyse those logs read the
layout below, which this module writes so that they read our games as BSW games. The layout is
the archive's own (taken from its published files and from the tools that read them), line for
line. One block per round, no header, no blank lines, UTF-8, every line ends with ``\\n`` (the
last too); ``\u2423`` marks the single space that ends some lines::

    ---------------Gr.Tichukarten------------------
    (0)Alice Dr BD R9 G8 B6 G5 G4 Hu\u2423          the first 8 cards of each seat, seat 0..3
    (1)Bob ...
    (2)Carol ...
    (3)Dave ...
    ---------------Startkarten------------------
    (0)Alice <all 14 cards>\u2423                   before the exchange
    ...
    Grosses Tichu: (2)Carol                   one line per Grand Tichu call (declines: no line)
    Tichu: (1)Bob                             Tichu calls made before the play began
    Schupfen:
    (0)Alice gibt: Bob: Hu - Carol: BD - Dave: R9 -\u2423
    ...                                       four lines, seat 0..3; the recipients in the order
                                              next seat, partner, previous seat
    BOMBE: (0)Alice (3)Dave\u2423                   the seats holding a bomb after the exchange (only
                                              when somebody does)
    ---------------Rundenverlauf------------------
    (0)Alice: Ma\u2423                              a play (a lead, a follow or a bomb out of turn)
    Wunsch:7                                  the wish of that Mah Jong play (none: no line)
    (1)Bob passt.                             a pass
    Tichu: (1)Bob                             a Tichu call during the play
    (0)Alice passt.                           the trick's winner collects it (see below)
    Drache an: (3)Dave                        the Dragon's trick goes to that seat
    Ergebnis: 120 - -20                       the round's score: seats 0+2, then seats 1+3

``(N)`` is the seat (0..3; seats 0+2 and 1+3 are partners, play goes 0, 1, 2, 3) and the name
follows without a space. Cards are BSW notation (``lobby/tichu/cards.py``): suits ``S B G R``,
ranks ``2..10 B D K A``, ``Ma Hu Ph Dr``. Lines are in the order the actions happened.

How the archive shows a trick, which its readers rely on to find where tricks end:

- When everybody else has passed, the trick's winner takes it with a ``passt`` line of his own
  (the archive logs the collection as his pass), then leads. We write that line when the trick
  is actually taken: when its winner leads again, so a bomb thrown onto the lying trick comes
  before it, as in BSW.
- A winner who is already out writes nothing: the next player in turn simply leads.
- The Dog's trick stays lying: no collection line; the partner (or the next player after him who
  still holds cards) leads.
- The Dragon's trick: the winner's collection line (when he still holds cards), then
  ``Drache an: (N)name``; also when the table option ``dragon fixed`` chose the opponent.
- A bomb out of turn is a play line like any other.
- The round ends with the play that ends it: no collection line after it, only the Dragon's gift
  if the last trick is the Dragon's (not after a double victory), then ``Ergebnis``.

What this writer decides where BSW's files show nothing (docs/operations.md repeats it):

- Cards are listed high to low: in hand lines Dragon, Phoenix, Ace ... 2, Mah Jong, Dog; in a
  play by the rank each card stands for, the Phoenix in front of the cards of the rank it takes
  (``Ph RD`` is a pair of queens, ``Ph S6 B6 G2 S2`` a full house of sixes) and, in a straight, in
  the place of the rank it fills (``S9 S8 G7 S6 S5 Ph R3 B2``), so the log keeps the reading the
  player chose. Cards of one rank follow the suit order R G B S.
- A name's spaces are written as no-break spaces (U+00A0), as BSW does, and a colon as ``_``
  (our names hold neither).
- Wish ranks are ``2..10 B D K A``; the ``Wunsch`` line follows the Mah Jong play even when the
  wish was named with a separate ``/wish``.
- ``turnier``: seats change after rounds 3 and 6, so each round's block names who sat where in
  that round; there is no Grand Tichu in turnier, and ``Gr.Tichukarten`` still lists the first
  8 cards dealt. ``Ergebnis`` is the round's own score (a turnier double victory counts 200
  there, as in any log, though the match credits 100).
- A round that did not finish (an abandoned game) ends without an ``Ergebnis`` line, as BSW's
  truncated logs do.

:func:`bsw_log` writes a finished game's record; :func:`tch_lines` splits a stored text into its
lines (``/tchlog`` sends them; a web view would serve the text itself).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lobby.tichu import (
    DECK,
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    RANK_OF,
    SORT_KEY,
    Exchange,
    Match,
    MatchOptions,
    Play,
    action_from_json,
    classify,
    legal_plays,
    parse_cards,
)

__all__ = ["bsw_log", "bsw_cards", "bsw_play", "bsw_name", "tch_lines",
           "SECTION_GRAND", "SECTION_START", "SECTION_PLAY"]

SECTION_GRAND = "---------------Gr.Tichukarten------------------"
SECTION_START = "---------------Startkarten------------------"
SECTION_PLAY = "---------------Rundenverlauf------------------"

_NAME_FIX = str.maketrans({" ": "\u00a0", "\t": "\u00a0", ":": "_"})
_CARD_NAME = tuple(card.name for card in DECK)


def bsw_cards(cards: Sequence[int]) -> str:
    """Cards in BSW notation, high to low (Dr Ph A ... 2 Ma Hu)."""
    return " ".join(_CARD_NAME[c] for c in sorted(cards, key=SORT_KEY.__getitem__, reverse=True))


def bsw_play(cards: Sequence[int], phoenix_as: int | None = None) -> str:
    """A play's cards as the archive lists them: high to low by the rank each card stands for,
    the Phoenix (standing for ``phoenix_as``) in front of the cards of its rank."""
    cards = list(cards)
    if len(cards) == 1 or PHOENIX not in cards or phoenix_as is None:
        return bsw_cards(cards)

    def key(c: int) -> tuple[int, int]:
        if c == PHOENIX:
            return (int(phoenix_as), 200)
        if c == MAHJONG:
            return (1, 0)
        if c == DOG:
            return (0, 0)
        if c == DRAGON:
            return (15, 0)
        return (RANK_OF[c], SORT_KEY[c])
    return " ".join(_CARD_NAME[c] for c in sorted(cards, key=key, reverse=True))


def bsw_name(name: str) -> str:
    """A player's name as the log writes it (spaces as no-break spaces, no colons)."""
    return str(name).translate(_NAME_FIX)


def tch_lines(text: str) -> list[str]:
    """The lines of a stored ``.tch`` text (without their line ends)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


class _RoundLog:
    """The lines of one round, collected while the match is replayed."""

    def __init__(self, match: Match, names: Sequence[str]) -> None:
        rnd = match.round
        self.names = [bsw_name(names[match.player_at(s)]) for s in range(4)]   # by seat
        self.deal = rnd.deal
        self.grand: list[int] = []
        self.early_tichu: list[int] = []
        self.exchange: list[tuple[Any, ...] | None] = [None] * 4
        self.bombs: list[int] = []
        self.play: list[str] = []
        self.mahjong_line: int | None = None     # index in self.play of the Mah Jong play
        self.score: list[int] | None = None

    def who(self, seat: int) -> str:
        return f"({seat}){self.names[seat]}"

    def lines(self) -> list[str]:
        out = [SECTION_GRAND]
        out += [f"{self.who(s)} {bsw_cards(self.deal[s][:8])} " for s in range(4)]
        out.append(SECTION_START)
        out += [f"{self.who(s)} {bsw_cards(self.deal[s])} " for s in range(4)]
        out += [f"Grosses Tichu: {self.who(s)}" for s in self.grand]
        out += [f"Tichu: {self.who(s)}" for s in self.early_tichu]
        out.append("Schupfen:")
        for s in range(4):
            given = self.exchange[s]
            if given is None:
                continue
            parts = "".join(f"{self.names[(s + i + 1) & 3]}: {given[i]} - " for i in range(3))
            out.append(f"{self.who(s)} gibt: {parts}")
        if self.bombs:
            out.append("BOMBE: " + "".join(self.who(s) + " " for s in self.bombs))
        if all(g is not None for g in self.exchange):
            out.append(SECTION_PLAY)
            out += self.play
        if self.score is not None:
            out.append(f"Ergebnis: {self.score[0]} - {self.score[1]}")
        return out


def bsw_log(record: dict[str, Any], names: Sequence[str]) -> str:
    """The BSW ``.tch`` text of the game ``record`` (``Match.record()``); ``names[p]`` is the
    name of player p (the player who sat in seat p at the start)."""
    if len(names) != 4:
        raise ValueError("a Tichu log needs the names of four players")
    deals = record.get("deals")
    if deals is not None:
        deals = [[parse_cards(h) if isinstance(h, str) else h for h in d] for d in deals]
    match = Match(MatchOptions.from_json(record.get("options", {})), record.get("seed"), deals)
    rounds = [_RoundLog(match, names)]
    for player, data in record.get("actions", []):
        action = action_from_json(data)
        rnd = match.round
        log = rounds[-1]
        seat = match.seat_of(int(player))
        phase = rnd.phase
        left = rnd.cards_left()                  # before the action: who still holds cards
        top = rnd.trick[-1][1] if rnd.trick and not rnd.trick_won else None
        events = match.apply(int(player), action)
        ends = any(e.kind == "round-over" for e in events)
        played = False                           # the action's play is written
        for ev in events:
            kind, d = ev.kind, ev.data
            if kind == "round-over":
                if log.score is None:
                    log.score = list(d["score"])
                break                            # what follows belongs to the next round
            if kind == "grand":
                if d["call"]:
                    log.grand.append(d["seat"])
            elif kind == "tichu":
                if phase in ("grand", "exchange"):
                    log.early_tichu.append(d["seat"])
                else:
                    log.play.append(f"Tichu: {log.who(d['seat'])}")
            elif kind == "exchange-given" and isinstance(action, Exchange):
                log.exchange[d["seat"]] = tuple(_CARD_NAME[c] for c in action.cards)
            elif kind == "play-phase":
                log.bombs = [s for s in range(4)
                             if any(c.is_bomb for c in legal_plays(rnd.hands[s], [], None))]
            elif kind == "trick-taken":
                if played and isinstance(action, Play) and DOG in action.cards:
                    # the Dog's own trick: it stays lying
                    continue
                winner, to = d["winner"], d["seat"]
                if left[winner] and not (ends and (played or not isinstance(action, Play))):
                    # taken by its winner (not the last trick, which the round's end takes)
                    log.play.append(f"{log.who(winner)} passt.")
                if to != winner:
                    log.play.append(f"Drache an: {log.who(to)}")
            elif kind == "play" and isinstance(action, Play):
                log.play.append(f"{log.who(d['seat'])}: {_play_text(rnd, seat, action, top)} ")
                played = True
                if MAHJONG in action.cards:
                    log.mahjong_line = len(log.play) - 1
            elif kind == "pass":
                log.play.append(f"{log.who(d['seat'])} passt.")
            elif kind == "wish" and d["rank"] is not None and log.mahjong_line is not None:
                log.play.insert(log.mahjong_line + 1, f"Wunsch:{d['rank']}")
        if match.round is not rnd:
            rounds.append(_RoundLog(match, names))
    return "".join(line + "\n" for r in rounds for line in r.lines())


def _play_text(rnd: Any, seat: int, action: Play, top: Any) -> str:
    """The cards of an accepted play, with the Phoenix where its reading puts it."""
    cards = action.cards
    if PHOENIX not in cards or len(cards) == 1:
        return bsw_cards(cards)
    combo = None
    if rnd.trick and rnd.trick[-1][0] == seat and PHOENIX in rnd.trick[-1][1]:
        combo = rnd.trick[-1][1]            # the engine's own reading of the play
    if combo is None:                       # the play ended the round: the same reading again
        combo = classify(cards, action.phoenix_as, top)
    return bsw_play(cards, None if combo is None else combo.phoenix_as)
