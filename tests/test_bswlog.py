"""The BSW .tch log of a game reads back, with a parser written here from the format description
(lobby/bswlog.py docstring, docs/operations.md), to the same deals, calls, exchanges, plays and
scores -- and replaying what was read gives the same game."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from lobby.bswlog import bsw_log
from lobby.tichu.actions import (UNSET, CallTichu, Exchange, GiveDragon, GrandTichu, Pass, Play,
                                 Wish)
from lobby.tichu.match import Match
from game_support import random_game

NAMES = ["Alice", "Bob-2", "Carol_x", "Dave"]

# ---- a reader of the .tch layout, independent of the writer ------------------------------------
SUIT_LETTERS = "SBGR"
RANK_WORDS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
              "B": 11, "D": 12, "K": 13, "A": 14}
SPECIAL_WORDS = {"Ma": 52, "Hu": 53, "Ph": 54, "Dr": 55}


def card_index(token: str) -> int:
    """BSW card notation to the card's index (suit letter + rank word, or a special)."""
    if token in SPECIAL_WORDS:
        return SPECIAL_WORDS[token]
    suit, rank = token[0], token[1:]
    if suit not in SUIT_LETTERS or rank not in RANK_WORDS:
        raise ValueError(f"not a BSW card: {token!r}")
    return (RANK_WORDS[rank] - 2) * 4 + SUIT_LETTERS.index(suit)


def cards_of(text: str) -> frozenset[int]:
    tokens = text.split()
    cards = frozenset(card_index(t) for t in tokens)
    assert len(cards) == len(tokens), text
    return cards


@dataclass
class ParsedRound:
    names: list[str] = field(default_factory=lambda: [""] * 4)      # by seat
    first8: list[frozenset[int]] = field(default_factory=list)
    start14: list[frozenset[int]] = field(default_factory=list)
    grand: list[int] = field(default_factory=list)                   # seats
    early_tichu: list[int] = field(default_factory=list)
    exchange: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    bomb_holders: list[int] = field(default_factory=list)
    # ("play", seat, cards, wish-or-None-or-UNSET) ("pass", seat) ("tichu", seat) ("dragon", to)
    play: list[tuple] = field(default_factory=list)
    score: tuple[int, int] | None = None


SEAT_NAME = re.compile(r"^\((\d)\)([^ :]+)")


def seat_and_name(text: str) -> tuple[int, str, str]:
    m = SEAT_NAME.match(text)
    assert m, text
    return int(m.group(1)), m.group(2), text[m.end():]


def parse_tch(text: str) -> list[ParsedRound]:
    lines = text.split("\n")
    assert lines[-1] == "", "the log ends with a newline"
    lines.pop()
    rounds: list[ParsedRound] = []
    i = 0

    def expect(header: str) -> None:
        nonlocal i
        assert re.fullmatch(r"-{15}" + re.escape(header) + r"-{18}", lines[i]), lines[i]
        i += 1

    while i < len(lines):
        r = ParsedRound()
        rounds.append(r)
        expect("Gr.Tichukarten")
        for seat in range(4):
            s, name, rest = seat_and_name(lines[i])
            assert s == seat
            r.names[seat] = name
            r.first8.append(cards_of(rest))
            i += 1
        expect("Startkarten")
        for seat in range(4):
            s, name, rest = seat_and_name(lines[i])
            assert (s, name) == (seat, r.names[seat])
            r.start14.append(cards_of(rest))
            i += 1
        while lines[i].startswith("Grosses Tichu: "):
            r.grand.append(seat_and_name(lines[i][len("Grosses Tichu: "):])[0])
            i += 1
        while lines[i].startswith("Tichu: "):
            r.early_tichu.append(seat_and_name(lines[i][len("Tichu: "):])[0])
            i += 1
        assert lines[i] == "Schupfen:", lines[i]
        i += 1
        while i < len(lines) and " gibt: " in lines[i]:
            s, _, rest = seat_and_name(lines[i])
            parts = rest[len(" gibt: "):].rstrip(" -").split(" - ")
            assert len(parts) == 3, lines[i]
            gifts = []
            for k, part in enumerate(parts):
                to_name, card = part.split(": ")
                assert to_name == r.names[(s + k + 1) % 4]      # next, partner, previous
                gifts.append(card_index(card))
            r.exchange[s] = tuple(gifts)  # type: ignore[assignment]
            i += 1
        if i < len(lines) and lines[i].startswith("BOMBE: "):
            r.bomb_holders = [seat_and_name(t)[0] for t in lines[i][7:].split(" ")]
            i += 1
        if i == len(lines):
            break
        expect("Rundenverlauf")
        while i < len(lines) and not lines[i].startswith("-"):
            line = lines[i]
            i += 1
            if line.startswith("Ergebnis: "):
                a, b = line[len("Ergebnis: "):].split(" - ")
                r.score = (int(a), int(b))
                break
            if line.startswith("Wunsch:"):
                kind, seat, cards, wish = r.play[-1]
                assert kind == "play" and 52 in cards and wish is UNSET, line
                r.play[-1] = (kind, seat, cards, line[len("Wunsch:"):])
            elif line.startswith("Tichu: "):
                r.play.append(("tichu", seat_and_name(line[7:])[0]))
            elif line.startswith("Drache an: "):
                r.play.append(("dragon", seat_and_name(line[len("Drache an: "):])[0]))
            elif line.endswith(" passt."):
                r.play.append(("pass", seat_and_name(line)[0]))
            else:
                seat, _, rest = seat_and_name(line)
                assert rest.startswith(": "), line
                r.play.append(("play", seat, cards_of(rest[2:]), UNSET))
        for k, entry in enumerate(r.play):   # a Mah Jong play without a Wunsch line: no wish
            if entry[0] == "play" and 52 in entry[2] and entry[3] is UNSET:
                r.play[k] = entry[:3] + (None,)
    return rounds


# ---- what the match itself says, in the same shape ---------------------------------------------
def expected_rounds(match: Match) -> list[ParsedRound]:
    """Replay the match's actions and sort them into the log's sections."""
    m = Match(match.options, seed=match.seed)
    out = [ParsedRound()]

    def begin() -> None:
        r = out[-1]
        r.names = [NAMES[m.player_at(s)] for s in range(4)]
        r.first8 = [frozenset(h[:8]) for h in m.round.deal]
        r.start14 = [frozenset(h) for h in m.round.deal]

    begin()
    for player, action in match.actions:
        rnd, r = m.round, out[-1]
        seat, phase = m.seat_of(player), rnd.phase
        m.apply(player, action)
        if isinstance(action, GrandTichu):
            if action.call:
                r.grand.append(seat)
        elif isinstance(action, CallTichu):
            (r.early_tichu.append(seat) if phase in ("grand", "exchange")
             else r.play.append(("tichu", seat)))
        elif isinstance(action, Exchange):
            r.exchange[seat] = tuple(action.cards)
        elif isinstance(action, Play):
            wish = action.wish if 52 in action.cards else UNSET
            r.play.append(("play", seat, frozenset(action.cards), wish))
        elif isinstance(action, Wish):
            k = max(k for k, e in enumerate(r.play) if e[0] == "play" and 52 in e[2])
            r.play[k] = r.play[k][:3] + (action.rank,)
        elif isinstance(action, Pass):
            r.play.append(("pass", seat))
        elif isinstance(action, GiveDragon):
            r.play.append(("dragon", action.seat))
        if rnd.result is not None and r.score is None:
            r.score = tuple(rnd.result["score"])
        if m.round is not rnd:
            out.append(ParsedRound())
            begin()
    for r in out:       # a Mah Jong play whose wish was never named (the round ended): no wish
        r.play = [e[:3] + (None,) if e[0] == "play" and 52 in e[2] and e[3] is UNSET else e
                  for e in r.play]
    return out


def replay_parsed(match: Match, rounds: list[ParsedRound]) -> Match:
    """Play the game again from nothing but the parsed log (seats -> players by name)."""
    m = Match(match.options, seed=match.seed)
    for r in rounds:
        player = {s: NAMES.index(r.names[s]) for s in range(4)}
        assert [frozenset(h) for h in m.round.deal] == r.start14
        if m.round.phase == "grand":
            for s in range(4):
                m.apply(player[s], GrandTichu(s in r.grand))
        for s in r.early_tichu:
            m.apply(player[s], CallTichu())
        for s in range(4):
            m.apply(player[s], Exchange(r.exchange[s]))
        for entry in r.play:
            if entry[0] == "play":
                wish = entry[3] if 52 in entry[2] else UNSET
                m.apply(player[entry[1]], Play(sorted(entry[2]), None, wish))
            elif entry[0] == "pass":
                m.apply(player[entry[1]], Pass())
            elif entry[0] == "tichu":
                m.apply(player[entry[1]], CallTichu())
            else:
                giver = m.round.holder
                m.apply(m.player_at(giver), GiveDragon(entry[1]))
        assert tuple(m.round_scores[-1]) == r.score or match.options.turnier
    return m


@pytest.mark.parametrize("seed,turnier", [(11, False), (12, False), (13, False), (5, True)])
def test_a_stored_log_reads_back_to_the_same_actions_and_scores(seed: int, turnier: bool) -> None:
    check_round_trip(random_game(seed, rounds=4, turnier=turnier))


def check_round_trip(match: Match) -> str:
    turnier = match.options.turnier
    assert match.finished
    text = bsw_log(match.record(), NAMES)
    parsed = parse_tch(text)
    expected = expected_rounds(match)
    assert len(parsed) == match.round_no == len(expected)
    for got, want in zip(parsed, expected):
        assert got.names == want.names
        assert got.first8 == want.first8 and got.start14 == want.start14
        assert got.grand == want.grand and got.early_tichu == want.early_tichu
        assert got.exchange == want.exchange
        assert got.play == want.play
        assert got.score == want.score
        assert all(len(h) == 8 for h in got.first8) and all(len(h) == 14 for h in got.start14)
    # the Ergebnis lines are the rounds' scores; the match totals follow from them
    if not turnier:
        assert [list(r.score) for r in parsed] == match.round_scores
    again = replay_parsed(match, parsed)
    assert again.finished and again.result == match.result and again.scores == match.scores
    return text


def test_the_log_shows_calls_wishes_dragon_gifts_and_bombs_somewhere() -> None:
    """Across a few seeded games every kind of line appears, and each game reads back."""
    seen: set[str] = set()
    for seed in range(20, 26):
        text = check_round_trip(random_game(seed, rounds=3, tichu_rate=0.2))
        for line in text.splitlines():
            for kind in ("Grosses Tichu: ", "Tichu: ", "Wunsch:", "Drache an: ", "BOMBE: ",
                         " passt.", "Ergebnis: "):
                if line.startswith(kind) or line.endswith(kind):
                    seen.add(kind)
        if len(seen) == 7:
            break
    assert seen == {"Grosses Tichu: ", "Tichu: ", "Wunsch:", "Drache an: ", "BOMBE: ",
                    " passt.", "Ergebnis: "}


def test_an_unfinished_game_ends_without_an_ergebnis_line() -> None:
    match = random_game(3, until_actions=40)
    assert not match.finished
    rounds = parse_tch(bsw_log(match.record(), NAMES))
    assert len(rounds) == 1 and rounds[0].score is None


def test_the_layout_of_a_round_block() -> None:
    match = random_game(7, rounds=1)
    lines = bsw_log(match.record(), NAMES).splitlines()
    assert lines[0] == "---------------Gr.Tichukarten------------------"
    assert lines[5] == "---------------Startkarten------------------"
    assert re.fullmatch(r"\(0\)Alice( \S+){8}", lines[1])
    assert re.fullmatch(r"\(3\)Dave( \S+){14}", lines[9])
    assert "Schupfen:" in lines and "---------------Rundenverlauf------------------" in lines
    assert re.fullmatch(r"Ergebnis: -?\d+ - -?\d+", lines[-1])
    # hands are listed high to low: the Dragon first, the Dog last
    for line in lines[1:10]:
        tokens = line.split()[1:]
        if "Dr" in tokens:
            assert tokens[0] == "Dr"
        if "Hu" in tokens:
            assert tokens[-1] == "Hu"
