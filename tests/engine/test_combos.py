"""Combinations and their comparison (docs/rules.md 5-14)."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lobby.tichu import DECK, parse_cards
from lobby.tichu.cards import PHOENIX_BIT, cards_mask
from lobby.tichu.combos import Combo, beats, classify, readings


def c(text: str, phoenix_as: int | None = None, on: Combo | None = None) -> Combo | None:
    return classify(parse_cards(text), phoenix_as, on)


def kind(text: str) -> str | None:
    combo = c(text)
    return combo.kind if combo else None


def test_rule_05_combination_kinds() -> None:
    assert kind("R7") == "single" and c("R7").rank == 7
    assert kind("R7 G7") == "pair" and kind("R7 G7 S7") == "triple"
    house = c("R9 G9 S9 R3 G3")
    assert house.kind == "fullhouse" and house.rank == 9 and house.length == 5
    assert c("R3 G3 S9 R9 G9").rank == 9
    straight = c("R3 G4 S5 B6 R7 G8")
    assert straight.kind == "straight" and straight.rank == 8 and straight.length == 6
    stairs = c("R5 G5 S6 B6 R7 G7")
    assert stairs.kind == "stairs" and stairs.rank == 7 and stairs.length == 6
    assert kind("R5 G5 S6 B6") == "stairs"
    # not combinations
    for bad in ("R7 G8", "R5 G5 S7 B7", "R3 G4 S5 B6", "R5 G5 S6", "R9 G9 S9 R3 G4",
                "R9 G9 R3 G3 S3 B3", "R2 G3 S4 B5 R7", "Ma R2", "Dr R2", "Hu R3", "Dr Ph",
                "R5 G5 S5 B5 R6 G6"):
        assert c(bad) is None, bad


def test_rule_05_mahjong_straight_and_high_ace() -> None:
    assert c("Ma R2 G3 S4 B5").kind == "straight" and c("Ma R2 G3 S4 B5").rank == 5
    assert c("RA R2 G3 S4 B5") is None
    assert c("R10 GB SD BK RA").rank == 14


def test_rule_06_same_kind_length_higher_rank() -> None:
    assert beats(c("R9 G9"), c("R8 G8"))
    assert not beats(c("R8 S8"), c("R8 G8"))
    assert not beats(c("R7 G7"), c("R8 G8"))
    assert not beats(c("R9 G9"), c("R8"))
    assert not beats(c("R9 G9 S9"), c("R8 G8"))
    assert beats(c("R4 G5 S6 B7 R8"), c("R3 G4 S5 B6 R7"))
    assert not beats(c("R4 G5 S6 B7 R8 G9"), c("R3 G4 S5 B6 R7"))
    assert not beats(c("R5 G5 S6 B6 R7 G7"), c("R3 G3 S4 B4"))
    assert beats(c("R9 G9 S9 R3 G3"), c("R8 G8 S8 BA GA"))


def test_rule_07_phoenix_readings() -> None:
    pair = c("Ph S9")
    assert pair.kind == "pair" and pair.rank == 9 and pair.phoenix_as == 9
    assert c("Ph S9 G9").kind == "triple"
    assert c("R7 G7 S7 Ph") is None                     # three of a kind + Phoenix
    assert c("R7 G7 S7 B7 Ph") is None                  # four + Phoenix is no full house
    assert c("R2 R3 R4 R5 Ph").kind == "straight"       # never a bomb
    house = readings(parse_cards("R7 G7 S9 B9 Ph"))
    assert [(h.rank, h.phoenix_as) for h in house] == [(9, 9), (7, 7)]
    assert c("R7 G7 S9 B9 Ph", phoenix_as=7).rank == 7
    assert c("R7 G7 S9 B9 Ph", phoenix_as=5) is None
    low = c("R7 G7 S9 B9 Ph", on=c("R8 G8 S8 B2 G2"))
    assert low.rank == 9
    # open-ended straight: both readings, highest first; never past the Ace, never the 1
    assert [s.rank for s in readings(parse_cards("R5 G6 S7 B8 Ph"))] == [9, 8]
    assert [s.phoenix_as for s in readings(parse_cards("R10 GB SD BK Ph"))] == [14, 9]
    assert [s.phoenix_as for s in readings(parse_cards("RB GD SK BA Ph"))] == [10]
    assert [s.phoenix_as for s in readings(parse_cards("R2 G3 S4 B5 Ph"))] == [6]
    assert [s.phoenix_as for s in readings(parse_cards("Ma G3 S4 B5 Ph"))] == [2]
    assert [s.phoenix_as for s in readings(parse_cards("Ma R2 S4 B5 Ph"))] == [3]
    assert c("G4 G5 G6 G7 Ph").kind == "straight"
    stairs = c("R6 G6 S7 Ph")
    assert stairs.kind == "stairs" and stairs.rank == 7 and stairs.phoenix_as == 7
    assert c("R6 S7 Ph") is None


def test_rule_08_phoenix_single_half_rank() -> None:
    led = c("Ph")
    assert led.kind == "single" and led.rank == 1.5
    assert beats(c("R2"), led) and not beats(c("Ma"), led)
    on7 = c("Ph", on=c("R7"))
    assert on7.rank == 7.5 and beats(on7, c("R7"))
    assert beats(c("G8"), on7) and not beats(c("G7"), on7)
    assert c("Ph", on=c("SA")).rank == 14.5
    assert c("Ph", on=c("Ma")).rank == 1.5
    assert not beats(c("Ph"), c("Dr"))
    assert beats(c("Ph"), c("SA")) and beats(c("Ph"), c("Ma"))


def test_rule_09_dragon() -> None:
    dragon = c("Dr")
    assert dragon.kind == "single" and dragon.rank == 15
    assert beats(dragon, c("SA")) and beats(dragon, c("Ph", on=c("SA")))
    assert not beats(c("SA"), dragon)
    assert beats(c("R2 G2 S2 B2"), dragon)
    assert c("Dr Ph") is None and c("Dr SA") is None


def test_rule_10_dog() -> None:
    dog = c("Hu")
    assert dog.kind == "dog" and not beats(dog, c("R2"))
    assert not beats(c("R2 G2 S2 B2"), dog) and not beats(c("R3"), dog)
    assert beats(dog, None)


def test_rule_11_mahjong() -> None:
    ma = c("Ma")
    assert ma.kind == "single" and ma.rank == 1
    assert beats(c("R2"), ma) and not beats(ma, c("R2"))


def test_rule_12_bombs() -> None:
    four = c("R7 G7 S7 B7")
    assert four.kind == "bomb" and four.is_bomb and four.rank == 7
    flush = c("G3 G4 G5 G6 G7")
    assert flush.is_bomb and flush.rank == 7 and flush.length == 5
    assert not c("G3 G4 G5 G6 R7").is_bomb
    assert not c("Ma G2 G3 G4 G5").is_bomb
    assert c("G3 G4 G5 G6 Ph").kind == "straight"


def test_rule_13_bomb_order() -> None:
    assert beats(c("G3 G4 G5 G6 G7"), c("RA GA SA BA"))
    assert beats(c("R9 G9 S9 B9"), c("R8 G8 S8 B8"))
    assert not beats(c("R7 G7 S7 B7"), c("R8 G8 S8 B8"))
    assert beats(c("R2 R3 R4 R5 R6 R7"), c("G8 G9 G10 GB GD"))
    assert not beats(c("G8 G9 G10 GB GD"), c("R2 R3 R4 R5 R6 R7"))
    assert beats(c("G4 G5 G6 G7 G8"), c("R3 R4 R5 R6 R7"))


def test_rule_14_bomb_beats_everything_but_the_dog() -> None:
    bomb = c("R2 G2 S2 B2")
    for top in ("Dr", "SA", "RA GA", "R3 G4 S5 B6 R7 G8 S9 B10 RB GD SK BA", "R9 G9 S9 R3 G3"):
        assert beats(bomb, c(top))
    assert not beats(bomb, c("Hu"))
    assert not beats(c("Dr"), bomb)


def test_combo_interface() -> None:
    pair = c("R9 G9")
    assert frozenset(pair) == frozenset(parse_cards("R9 G9"))
    assert len(pair) == 2 == pair.length and pair.phoenix_as is None and not pair.is_bomb
    assert c("G9 R9") is pair and hash(pair) == hash(c("R9 G9"))
    assert parse_cards("R9")[0] in pair and parse_cards("S9")[0] not in pair
    with pytest.raises(AttributeError):
        pair.rank = 10  # type: ignore[misc]


_card_sets = st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True)


@settings(max_examples=300, deadline=None)
@given(_card_sets, _card_sets)
def test_classify_consistent_with_beats(a: list, b: list) -> None:
    b = [card for card in b if card not in a]          # two plays never share a card
    top = classify(b) if b else None
    combo = classify(a, on=top)
    if combo is None or top is None:
        return
    # classify's default picks a reading that beats `on` whenever one does
    assert beats(combo, top) == any(beats(r, top) for r in readings(a)) or \
        cards_mask(a) == PHOENIX_BIT
    # beats is a strict order among non-Phoenix-single plays
    if beats(combo, top) and combo.kind != "single":
        assert not beats(top, combo)
    if beats(combo, top) and not combo.is_bomb and not top.is_bomb:
        assert combo.kind == top.kind and combo.length == top.length and combo.rank > top.rank


def test_every_reading_is_classified_back() -> None:
    rng = random.Random(7)
    for _ in range(40):
        hand = rng.sample(DECK, 8)
        for size in range(1, 7):
            for cards in itertools.combinations(hand, size):
                for r in readings(cards):
                    assert frozenset(r) == frozenset(cards)
                    assert classify(cards, r.phoenix_as) == r or cards_mask(cards) == PHOENIX_BIT
