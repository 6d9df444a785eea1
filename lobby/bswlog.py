"""A game as a BrettspielWelt (BSW) Tichu log: the ``.tch`` text of BSW's public log archive.

BSW's archive serves one plain-text file per game; public tools that analyse those logs read the
layout below, which this module writes so that they can read our games too. One block per round,
no header, no blank lines, lines end with ``\\n``::

    ---------------Gr.Tichukarten------------------
    (0)Alice Dr BD R9 G8 B6 G5 G4 Hu          the first 8 cards of each seat, seat 0..3
    (1)Bob ...
    (2)Carol ...
    (3)Dave ...
    ---------------Startkarten------------------
    (0)Alice <all 14 cards>                   before the exchange
    ...
    Grosses Tichu: (2)Carol                   one line per Grand Tichu call (declines: no line)
    Tichu: (1)Bob                             Tichu calls made before the play began
    Schupfen:
    (0)Alice gibt: Bob: Hu - Carol: BD - Dave: R9 -
    ...                                       four lines, seat 0..3; the recipients in the order
                                              next seat, partner, previous seat
    BOMBE: (0)Alice (3)Dave                   the seats holding a bomb after the exchange (only
                                              when somebody does)
    ---------------Rundenverlauf------------------
    (0)Alice: Ma                              a play (a lead, a follow or a bomb out of turn)
    Wunsch:7                                  the wish of a Mah Jong play (none: no line)
    (1)Bob passt.                             a pass
    Tichu: (1)Bob                             a Tichu call during the play
    Drache an: (3)Dave                        the Dragon trick is given to that seat
    Ergebnis: 120 - -20                       the round's score: seats 0+2, then seats 1+3

``(N)`` is the seat (0..3; seats 0+2 and 1+3 are partners, play goes 0, 1, 2, 3) and the name
follows without a space; names cannot hold spaces or colons here. Cards are BSW notation
(``lobby/tichu/cards.py``): suits ``S B G R``, ranks ``2..10 B D K A``, ``Ma Hu Ph Dr``. Lines are
in the order the actions happened.

What this writer assumes where the archive's layout says nothing (docs/operations.md repeats it):

- Cards in the hand lines and in a play are listed high to low (Dragon, Phoenix, Ace ... 2,
  Mah Jong, Dog), as in BSW's own logs; a Phoenix's reading is not written (the archive has no
  notation for it): a reader takes the highest reading that beats the trick (our engine's
  default), and where a player chose another reading the log still shows the right cards.
- Wish ranks are ``2..10 B D K A``; a Mah Jong play without a wish has no ``Wunsch`` line.
- ``turnier``: seats change after rounds 3 and 6, so the names on the ``(N)`` lines change too;
  there is no Grand Tichu in turnier, and the ``Gr.Tichukarten`` section still lists the first
  8 cards dealt. ``Ergebnis`` is the round's own score (a turnier double victory counts 200
  there, as in any log, though the match credits 100).
- A round that did not finish (an abandoned game) ends without an ``Ergebnis`` line, as BSW's
  truncated logs do.
"""
from __future__ import annotations

from typing import Any, Sequence

from lobby.tichu.actions import (
    UNSET, CallTichu, Exchange, GiveDragon, GrandTichu, Pass, Play, Wish, action_from_json,
)
from lobby.tichu.cards import SORT_KEY, format_cards, parse_cards
from lobby.tichu.match import Match, MatchOptions
from lobby.tichu.moves import legal_plays

__all__ = ["bsw_log", "bsw_cards", "SECTION_GRAND", "SECTION_START", "SECTION_PLAY"]

SECTION_GRAND = "---------------Gr.Tichukarten------------------"
SECTION_START = "---------------Startkarten------------------"
SECTION_PLAY = "---------------Rundenverlauf------------------"


def bsw_cards(cards: Sequence[int]) -> str:
    """Cards in BSW notation, high to low (Dr Ph A ... 2 Ma Hu)."""
    return format_cards(sorted(cards, key=SORT_KEY.__getitem__, reverse=True))


def _wish_text(rank: Any) -> str | None:
    if rank is None or rank is UNSET:
        return None
    return str(rank).upper()


class _RoundLog:
    """The lines of one round, collected while the match is replayed."""

    def __init__(self, match: Match, names: Sequence[str]) -> None:
        rnd = match.round
        self.names = [names[match.player_at(s)] for s in range(4)]   # by seat
        self.deal = rnd.deal
        self.grand: list[int] = []
        self.early_tichu: list[int] = []
        self.exchange: list[tuple | None] = [None] * 4
        self.bombs: list[int] = []
        self.play: list[str] = []
        self.score: list[int] | None = None

    def who(self, seat: int) -> str:
        return f"({seat}){self.names[seat]}"

    def lines(self) -> list[str]:
        out = [SECTION_GRAND]
        out += [f"{self.who(s)} {bsw_cards(self.deal[s][:8])}" for s in range(4)]
        out.append(SECTION_START)
        out += [f"{self.who(s)} {bsw_cards(self.deal[s])}" for s in range(4)]
        out += [f"Grosses Tichu: {self.who(s)}" for s in self.grand]
        out += [f"Tichu: {self.who(s)}" for s in self.early_tichu]
        out.append("Schupfen:")
        for s in range(4):
            given = self.exchange[s]
            if given is None:
                continue
            parts = "".join(f"{self.names[(s + i + 1) & 3]}: {given[i]} - " for i in range(3))
            out.append(f"{self.who(s)} gibt: {parts.rstrip()}")
        if self.bombs:
            out.append("BOMBE: " + " ".join(self.who(s) for s in self.bombs))
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
        match.apply(int(player), action)
        if isinstance(action, GrandTichu):
            if action.call:
                log.grand.append(seat)
        elif isinstance(action, CallTichu):
            if phase in ("grand", "exchange"):
                log.early_tichu.append(seat)
            else:
                log.play.append(f"Tichu: {log.who(seat)}")
        elif isinstance(action, Exchange):
            log.exchange[seat] = tuple(str(c) for c in action.cards)
            if rnd.phase != "exchange":          # the last of the four: play begins
                log.bombs = [s for s in range(4)
                             if any(c.is_bomb for c in legal_plays(rnd.hands[s], [], None))]
        elif isinstance(action, Play):
            log.play.append(f"{log.who(seat)}: {bsw_cards(action.cards)}")
            wish = _wish_text(action.wish)
            if wish is not None:
                log.play.append(f"Wunsch:{wish}")
        elif isinstance(action, Wish):
            wish = _wish_text(action.rank)
            if wish is not None:
                log.play.append(f"Wunsch:{wish}")
        elif isinstance(action, Pass):
            log.play.append(f"{log.who(seat)} passt.")
        elif isinstance(action, GiveDragon):
            log.play.append(f"Drache an: {log.who(action.seat)}")
        if rnd.result is not None and log.score is None:
            log.score = list(rnd.result["score"])
        if match.round is not rnd:
            rounds.append(_RoundLog(match, names))
    return "".join(line + "\n" for r in rounds for line in r.lines())
