"""Cards and BSW notation (docs/rules.md: Cards and notation; rule 25 for points)."""
from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lobby.text.messages import text as catalog_text
from lobby.tichu import (
    DECK,
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    Card,
    Rejected,
    format_cards,
    parse_cards,
    parse_rank,
    rank_name,
    sort_cards,
)
from lobby.tichu.cards import card_points, cards_mask, mask_cards


def test_deck_has_56_interned_cards() -> None:
    assert len(DECK) == 56 and len(set(DECK)) == 56
    assert [int(c) for c in DECK] == list(range(56))
    for i, card in enumerate(DECK):
        assert Card(i) is card
        assert isinstance(card, int)
        assert pickle.loads(pickle.dumps(card)) is card
        assert copy.deepcopy(card) is card
    with pytest.raises(ValueError):
        Card(56)
    with pytest.raises(ValueError):
        Card(-1)


def test_card_index_rank_suit() -> None:
    r10 = parse_cards("R10")[0]
    assert int(r10) == (10 - 2) * 4 + 3 and r10.rank == 10 and r10.suit == 3
    assert not r10.is_special
    assert (int(MAHJONG), int(DOG), int(PHOENIX), int(DRAGON)) == (52, 53, 54, 55)
    assert (MAHJONG.rank, DOG.rank, PHOENIX.rank, DRAGON.rank) == (1, 0, 0, 15)
    assert all(c.is_special and c.suit is None for c in (MAHJONG, DOG, PHOENIX, DRAGON))


def test_points_sum_to_100() -> None:
    assert sum(c.points for c in DECK) == 100 == card_points(DECK)
    assert parse_cards("S5")[0].points == 5
    assert parse_cards("B10")[0].points == 10 and parse_cards("GK")[0].points == 10
    assert DRAGON.points == 25 and PHOENIX.points == -25 and parse_cards("RA")[0].points == 0


def test_bsw_notation_round_trip() -> None:
    text = "R10 GB SD BK RA Ma Hu Ph Dr S2"
    cards = parse_cards(text)
    assert format_cards(cards) == text
    assert [str(c) for c in cards] == text.split()
    assert format_cards(parse_cards(format_cards(DECK))) == format_cards(DECK)


@pytest.mark.parametrize("token, expected", [
    ("r10", "R10"), ("RT", "R10"), ("rt", "R10"), ("GJ", "GB"), ("gb", "GB"), ("SQ", "SD"),
    ("sd", "SD"), ("bk", "BK"), ("ra", "RA"), ("BB", "BB"), ("mahjong", "Ma"), ("1", "Ma"),
    ("MA", "Ma"), ("dog", "Hu"), ("hu", "Hu"), ("phoenix", "Ph"), ("PH", "Ph"), ("dragon", "Dr"),
    ("dr", "Dr"), ("Drache", "Dr"),
])
def test_aliases_are_accepted(token: str, expected: str) -> None:
    assert str(parse_cards(token)[0]) == expected


def test_separators() -> None:
    assert format_cards(parse_cards(" R5,G5 ,  S5\tB5 ")) == "R5 G5 S5 B5"
    assert parse_cards("") == ()


@pytest.mark.parametrize("text, token", [("R10 X7", "X7"), ("R1", "R1"), ("R11", "R11"),
                                        ("G", "G"), ("Phx", "Phx"), ("R10 RZ GB", "RZ")])
def test_bad_token_is_named(text: str, token: str) -> None:
    with pytest.raises(Rejected) as info:
        parse_cards(text)
    assert info.value.code == "bad-card" and info.value.params["token"] == token
    assert f'"{token}"' in catalog_text(info.value.code, **info.value.params)   # quoted as typed


def test_duplicate_card() -> None:
    with pytest.raises(Rejected) as info:
        parse_cards("R10 G5 rt")
    assert info.value.code == "duplicate-card" and info.value.params["card"] == "R10"


def test_sort_order() -> None:
    cards = parse_cards("Dr Ph RA S2 Ma Hu R2 G2 B2")
    assert format_cards(sort_cards(cards)) == "Hu Ma S2 B2 G2 R2 RA Ph Dr"
    assert format_cards(mask_cards(cards_mask(cards))) == "Hu Ma S2 B2 G2 R2 RA Ph Dr"


def test_rank_names() -> None:
    assert [rank_name(r) for r in range(2, 15)] == \
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K", "A"]
    for r in range(2, 15):
        assert parse_rank(rank_name(r)) == r
    assert parse_rank("j") == 11 and parse_rank("Q") == 12 and parse_rank("t") == 10
    assert parse_rank("k") == 13 and parse_rank(7) == 7
    for bad in ("1", "15", "X", "", "Ph"):
        with pytest.raises(Rejected) as info:
            parse_rank(bad)
        assert info.value.code == "bad-rank"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(DECK), unique=True))
def test_mask_round_trip(cards: list[Card]) -> None:
    assert set(mask_cards(cards_mask(cards))) == set(cards)
    assert list(mask_cards(cards_mask(cards))) == sort_cards(cards)
    assert parse_cards(format_cards(cards)) == tuple(cards)


def test_the_card_text_of_a_play_is_read_and_written_here() -> None:
    from lobby.tichu.actions import UNSET
    from lobby.tichu.cards import format_play, parse_play
    cards = list(parse_cards("R5 G5 Ph"))
    assert format_play(cards, 5) == "R5 G5 Ph=5"
    assert format_play(parse_cards("Ph"), 5) == "Ph"            # a single Phoenix: no reading
    assert format_play(parse_cards("Ma"), None, "8") == "Ma wish 8"
    assert format_play(parse_cards("Ma"), None, None) == "Ma wish none"
    for text in ("R5 G5 Ph=5", "Ma wish 8", "Ma wish none", "S2 S3 S4 S5 S6"):
        played, reading, wish = parse_play(text)
        assert format_play(played, reading, wish) == text
    assert parse_play("R5 G5 Ph=5", allow_wish=False) == (cards, 5, UNSET)
    with pytest.raises(Rejected) as e:
        parse_play("7 7")                                        # shorthand needs a hand
    assert e.value.code == "bad-card"


def test_card_points_are_defined_once() -> None:
    from lobby.tichu.cards import DECK, POINTS, card_points, cards_mask, mask_points
    assert [c.points for c in DECK] == list(POINTS)
    assert card_points(DECK) == mask_points(cards_mask(DECK)) == 100
    for card in DECK:
        assert mask_points(1 << card) == card.points
