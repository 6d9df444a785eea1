"""Legal plays, passing, bombs out of turn and the wish (docs/rules.md 5-14, 19-22)."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lobby.text.messages import text
from lobby.tichu import (
    DECK,
    Combo,
    Rejected,
    beats,
    bombs_out_of_turn,
    can_pass,
    check_bomb_out_of_turn,
    check_play,
    classify,
    fulfils_wish,
    legal_plays,
    memo,
    parse_cards,
    trick_top,
    wish_binds,
)
from lobby.tichu.cards import PHOENIX_BIT, RANK_MASK, cards_mask, parse_rank
from lobby.tichu.combos import readings

#: a test of a memo itself (skipped while every memo is off: TICHU_MEMOS=off)
MEMOS_ONLY = pytest.mark.skipif(not memo.ON, reason="tests a memo itself")


def P(text: str) -> tuple:
    return parse_cards(text)


def sets(plays: list[Combo]) -> set[frozenset]:
    return {frozenset(p) for p in plays}


def S(*texts: str) -> set[frozenset]:
    return {frozenset(P(t)) for t in texts}


def rejected(code: str, hand: str, trick: list[str], wish: str | None, cards: str,
             phoenix_as: str | None = None) -> Rejected:
    with pytest.raises(Rejected) as info:
        check_play(P(hand), [P(t) for t in trick], wish, P(cards), phoenix_as)
    assert info.value.code == code, info.value
    return info.value


# ---- the rules, one test each --------------------------------------------------------------------
def test_rule_05_every_kind_can_be_led() -> None:
    hand = P("Ma R2 G3 S4 B5 R5 G5 S6 B6 R6")
    plays = sets(legal_plays(hand, [], None))
    for play in ("Ma R2 G3 S4 B5", "R5 G5", "B6 R6 S6", "R5 G5 S6 B6", "R5 G5 S6 B6 R6",
                 "Ma R2 G3 S4 B5 S6", "R2"):
        assert frozenset(P(play)) in plays, play
    assert frozenset(P("R2 G3 S4 B5 S6")) in plays
    assert frozenset(P("Ma R2")) not in plays


def test_rule_06_same_kind_same_length_higher() -> None:
    assert sets(legal_plays(P("R9 G9 R8 G8 R7 S7"), [P("SD BD")], None)) == set()
    assert sets(legal_plays(P("RA GA R8"), [P("SD BD")], None)) == S("RA GA")
    err = rejected("too-low", "R9 G9 SA", ["RK GK"], None, "R9 G9")
    assert text(err.code, **err.params) == "G9 R9 does not beat GK RK."
    err = rejected("wrong-kind", "R9 G9 SA", ["R8"], None, "R9 G9")
    assert (err.params["kind"], err.params["top_kind"]) == ("pair", "single")
    assert text(err.code, **err.params) == \
        "G9 R9 cannot be played on R8: a pair does not go on a single card."
    rejected("wrong-length", "G8 S9 B10 RB GD SK", ["R3 G4 S5 B6 R7"], None, "G8 S9 B10 RB GD SK")
    rejected("not-a-combination", "R9 G8", [], None, "R9 G8")
    rejected("cards-not-in-hand", "R9 G8", [], None, "R9 S9")


def test_rule_07_phoenix_readings_in_plays() -> None:
    plays = legal_plays(P("R7 G7 S9 B9 Ph"), [], None)
    houses = [p for p in plays if p.kind == "fullhouse"]
    assert sorted(p.phoenix_as for p in houses) == [7, 9]
    # the player chooses the reading; by default the highest one that beats the table
    on = [P("R8 G8 S8 R2 G2")]
    assert check_play(P("R7 G7 S9 B9 Ph"), on, None, P("R7 G7 S9 B9 Ph")).rank == 9
    rejected("too-low", "R7 G7 S9 B9 Ph", ["R8 G8 S8 R2 G2"], None, "R7 G7 S9 B9 Ph", "7")
    lead = check_play(P("R7 G7 S9 B9 Ph"), [], None, P("R7 G7 S9 B9 Ph"), "7")
    assert lead.rank == 7 and lead.phoenix_as == 7
    rejected("bad-phoenix-reading", "R7 G7 S9 B9 Ph", [], None, "R7 G7 S9 B9 Ph", "8")
    low = check_play(P("R5 G6 S7 B8 Ph"), [], None, P("R5 G6 S7 B8 Ph"), "4")
    assert low.rank == 8
    assert check_play(P("R5 G6 S7 B8 Ph"), [], None, P("R5 G6 S7 B8 Ph")).rank == 9
    rejected("not-a-combination", "R7 G7 S7 Ph", [], None, "R7 G7 S7 Ph")


def test_rule_08_phoenix_single() -> None:
    assert sets(legal_plays(P("G7 G8"), [P("R7"), P("Ph")], None)) == S("G8")
    assert sets(legal_plays(P("Ma R2"), [P("Ph")], None)) == S("R2")
    top = trick_top([P("SA"), P("Ph")])
    assert top.rank == 14.5
    assert check_play(P("Ph R3"), [P("R7")], None, P("Ph")).rank == 7.5
    rejected("phoenix-on-dragon", "Ph R3", ["Dr"], None, "Ph")


def test_rule_09_dragon() -> None:
    assert sets(legal_plays(P("Dr SA"), [P("SA"), P("Ph")], None)) == S("Dr")
    err = rejected("too-low", "SA", ["Dr"], None, "SA")
    assert text(err.code, **err.params) == "SA does not beat Dr."
    rejected("wrong-kind", "SA BA", ["Dr"], None, "SA BA")


def test_rule_10_dog() -> None:
    assert frozenset(P("Hu")) in sets(legal_plays(P("Hu R3"), [], None))
    assert sets(legal_plays(P("Hu R3"), [P("R2")], None)) == S("R3")
    rejected("dog-not-lead", "Hu R3", ["R2"], None, "Hu")
    assert legal_plays(P("R3 R4 G4 S4 B4"), [P("Hu")], None) == []
    rejected("dog-on-table", "R3", ["Hu"], None, "R3")
    assert bombs_out_of_turn(P("R4 G4 S4 B4"), [P("Hu")]) == []


def test_rule_11_mahjong() -> None:
    assert sets(legal_plays(P("Ma"), [P("R2")], None)) == set()
    assert frozenset(P("Ma")) in sets(legal_plays(P("Ma R2"), [], None))
    assert check_play(P("Ma R2 G3 S4 B5"), [], None, P("Ma R2 G3 S4 B5")).kind == "straight"


def test_rule_12_bombs_are_plays_too() -> None:
    plays = legal_plays(P("R7 G7 S7 B7 G3 G4 G5 G6"), [], None)
    bombs = {frozenset(p) for p in plays if p.is_bomb}
    assert bombs == S("R7 G7 S7 B7", "G3 G4 G5 G6 G7")
    # the straight flush is only listed once (as a bomb), never as a plain straight
    assert sum(1 for p in plays if frozenset(p) == frozenset(P("G3 G4 G5 G6 G7"))) == 1


def test_rule_13_bomb_order_in_plays() -> None:
    hand = P("R7 G7 S7 B7 G3 G4 G5 G6 G8 G9")
    on_four = sets(legal_plays(hand, [P("R8 G8 S8 B8")], None))
    assert frozenset(P("R7 G7 S7 B7")) not in on_four
    assert frozenset(P("G3 G4 G5 G6 G7")) in on_four
    on_six = sets(legal_plays(hand, [P("R2 R3 R4 R5 R6 R7")], None))
    assert on_six == S("G3 G4 G5 G6 G7 G8", "G4 G5 G6 G7 G8 G9", "G3 G4 G5 G6 G7 G8 G9")
    rejected("too-low", "R7 G7 S7 B7", ["R8 G8 S8 B8"], None, "R7 G7 S7 B7")
    rejected("bomb-on-table", "R9 G9", ["R8 G8 S8 B8"], None, "R9 G9")


def test_rule_14_bombs_out_of_turn() -> None:
    hand = P("R7 G7 S7 B7 R2")
    assert sets(bombs_out_of_turn(hand, [P("Dr")])) == S("R7 G7 S7 B7")
    assert bombs_out_of_turn(hand, []) == []
    assert bombs_out_of_turn(hand, [P("R8 G8 S8 B8")]) == []
    assert check_bomb_out_of_turn(hand, [P("SA")], P("R7 G7 S7 B7")).is_bomb
    for code, trick, cards in (("bomb-on-empty-table", [], "R7 G7 S7 B7"),
                               ("dog-on-table", ["Hu"], "R7 G7 S7 B7"),
                               ("not-a-bomb", ["R3"], "R7 G7 S7"),
                               ("too-low", ["R8 G8 S8 B8"], "R7 G7 S7 B7"),
                               ("cards-not-in-hand", ["R3"], "R8 G8 S8 B8")):
        with pytest.raises(Rejected) as info:
            check_bomb_out_of_turn(hand, [P(t) for t in trick], P(cards))
        assert info.value.code == code
    # a bomb may be led as an ordinary lead
    assert frozenset(P("R7 G7 S7 B7")) in sets(legal_plays(hand, [], None))


def test_rule_19_wish_names_a_rank() -> None:
    assert [parse_rank(w) for w in ("2", "10", "B", "J", "d", "Q", "K", "A")] == \
        [2, 10, 11, 11, 12, 12, 13, 14]
    with pytest.raises(Rejected):
        legal_plays(P("R7"), [], "1")
    # the wish can be given as a rank name in any accepted form
    for wish in ("B", "J", "b", 11):
        assert sets(legal_plays(P("GB R3"), [], wish)) == S("GB")


def test_rule_20_wish_obligation() -> None:
    assert sets(legal_plays(P("G7 SA"), [P("R5")], "7")) == S("G7")
    assert not can_pass(P("G7 SA"), [P("R5")], "7")
    err = rejected("wish-not-followed", "G7 SA", ["R5"], "7", "SA")
    assert err.params == {"rank": "7"}
    assert text(err.code, **err.params).startswith("You must play a 7")
    # impossible: free
    assert can_pass(P("G7 SA"), [P("R9")], "7")
    assert check_play(P("G7 SA"), [P("R9")], "7", P("SA")).rank == 14
    # leading included
    assert sets(legal_plays(P("G7 R7 R3 Hu"), [], "7")) == S("G7", "R7", "G7 R7")
    rejected("wish-not-followed", "G7 R7 R3 Hu", [], "7", "Hu")
    # with the Phoenix if that is the only way
    assert sets(legal_plays(P("G7 Ph S2"), [P("R5 G5")], "7")) == S("G7 Ph")
    # the Phoenix never counts as the wished rank
    assert can_pass(P("Ph SA"), [P("R5")], "7")
    assert not wish_binds(P("Ph SA"), [P("R5")], "7")
    # as a bomb if that is the only way
    assert sets(legal_plays(P("R8 G8 S8 B8 R3"), [P("R9 G9")], "8")) == S("R8 G8 S8 B8")
    # inside a straight
    assert sets(legal_plays(P("G5 S6 B7 R8 G9 S2"), [P("R3 G4 S5 B6 R7")], "9")) == \
        S("G5 S6 B7 R8 G9")


def test_rule_21_any_bomb_instead_of_the_wish() -> None:
    assert sets(legal_plays(P("G7 R2 G2 S2 B2"), [P("R5")], "7")) == S("G7", "R2 G2 S2 B2")
    assert check_play(P("G7 R2 G2 S2 B2"), [P("R5")], "7", P("R2 G2 S2 B2")).is_bomb
    # out of turn a bomb never needs the wished rank
    assert check_bomb_out_of_turn(P("G7 R2 G2 S2 B2"), [P("R5")], P("R2 G2 S2 B2")).is_bomb


def test_rule_22_wish_fulfilled_only_by_a_real_card() -> None:
    assert fulfils_wish(classify(P("G7")), "7")
    assert fulfils_wish(classify(P("G5 S6 B7 R8 G9")), "7")
    assert not fulfils_wish(classify(P("G5 S6 Ph R8 G9")), "7")
    assert not fulfils_wish(classify(P("G8")), "7")
    assert not fulfils_wish(classify(P("G8")), None)


def test_check_play_basics() -> None:
    rejected("no-cards", "R3", [], None, "")
    with pytest.raises(Rejected) as info:
        check_play(P("R3 G3"), [], None, [P("R3")[0], P("R3")[0]])
    assert info.value.code == "duplicate-card"
    assert check_play(P("R3 G3"), [], None, "R3 G3").kind == "pair"
    assert legal_plays(P("R3"), [], None) is not legal_plays(P("R3"), [], None)


# ---- properties ------------------------------------------------------------------------------------
def brute_force(hand: list, top: Combo | None, wish: int | None) -> tuple[set[int], bool]:
    """Reference: every subset of the hand, every reading, kept if it beats the top."""
    found = set()
    for size in range(1, len(hand) + 1):
        for cards in itertools.combinations(hand, size):
            for r in readings(cards):
                if r.mask == PHOENIX_BIT:
                    r = classify(cards, on=top)
                if top is None or beats(r, top):
                    found.add(r)
    binds = False
    if wish and cards_mask(hand) & RANK_MASK[wish]:
        wished = {r for r in found if r.mask & RANK_MASK[wish]}
        if wished:
            binds = True
            found = wished | {r for r in found if r.is_bomb}
    return {r.key for r in found}, top is not None and not binds


@st.composite
def situations(draw: st.DrawFn, max_hand: int = 14) -> tuple:
    cards = draw(st.permutations(DECK))
    hand = list(cards[:draw(st.integers(1, max_hand))])
    trick: list = []
    if draw(st.booleans()):
        other = cards[len(hand):len(hand) + 14]
        plays = [p for p in legal_plays(other, [], None) if p.kind != "dog"]
        trick = [draw(st.sampled_from(plays))]
    wish = draw(st.one_of(st.none(), st.integers(2, 14)))
    return hand, trick, wish


@settings(max_examples=200, deadline=None)
@given(situations(max_hand=9))
def test_legal_plays_equal_brute_force(situation: tuple) -> None:
    hand, trick, wish = situation
    plays = legal_plays(hand, trick, wish)
    assert len({p.key for p in plays}) == len(plays)          # no duplicates
    expected, may_pass = brute_force(hand, trick_top(trick), wish)
    assert {p.key for p in plays} == expected
    assert can_pass(hand, trick, wish) == may_pass


@settings(max_examples=200, deadline=None)
@given(situations())
def test_every_legal_play_is_accepted_by_check_play(situation: tuple) -> None:
    hand, trick, wish = situation
    for play in legal_plays(hand, trick, wish):
        assert check_play(hand, trick, wish, play.cards, play.phoenix_as) == play


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(situations(), st.data())
def test_accepted_subsets_are_legal_plays(situation: tuple, data: st.DataObject) -> None:
    hand, trick, wish = situation
    legal = sets(legal_plays(hand, trick, wish))
    for _ in range(20):
        cards = data.draw(st.lists(st.sampled_from(hand), min_size=1, max_size=len(hand),
                                   unique=True))
        try:
            combo = check_play(hand, trick, wish, cards)
        except Rejected:
            # rejected (with the default reading): no reading of these cards is a legal play
            assert frozenset(cards) not in legal
            continue
        assert frozenset(cards) in legal
        assert frozenset(combo) == frozenset(cards)


@settings(max_examples=150, deadline=None)
@given(situations())
def test_bombs_out_of_turn_are_checked_bombs(situation: tuple) -> None:
    hand, trick, _ = situation
    bombs = bombs_out_of_turn(hand, trick)
    for bomb in bombs:
        assert check_bomb_out_of_turn(hand, trick, bomb.cards) == bomb
    if trick:
        in_turn = {p for p in legal_plays(hand, trick, None) if p.is_bomb}
        assert set(bombs) == in_turn
    else:
        assert bombs == []


@settings(max_examples=150, deadline=None)
@given(situations(), st.data())
def test_index_of_a_larger_hand_gives_the_same_plays(situation: tuple, data: st.DataObject) -> None:
    """The per-hand index, built for the full hand and filtered for a smaller one (a hand after
    some plays), gives exactly what direct generation from the smaller hand gives."""
    from lobby.tichu import moves

    hand, trick, _wish = situation
    full = cards_mask(hand)
    moves._generate(full, None)                        # index the full hand
    kept = data.draw(st.lists(st.sampled_from(hand), min_size=1, max_size=len(hand), unique=True))
    smaller = cards_mask(kept)
    top = trick_top(trick)
    assert {p.key for p in moves._generate(smaller, top)} == \
        {p.key for p in moves._generate_direct(smaller, top)}
    assert {p.key for p in moves._generate(smaller, None)} == \
        {p.key for p in moves._generate_direct(smaller, None)}


@MEMOS_ONLY
def test_a_shrinking_hand_reuses_its_index() -> None:
    """The hand of a seat only loses cards: its plays are indexed once, then filtered."""
    from lobby.tichu import moves

    hand = cards_mask(P("Ma R2 G3 S4 B5 R6 G6 S9 B9 RB GB SD BK Ph"))
    moves._generate(hand, None)
    index = moves._index_for(hand)[0]
    for gone in ("Ma", "R2 G3 S4 B5 R6", "G6 S9 B9"):
        hand &= ~cards_mask(P(gone))
        assert sets(legal_plays(hand, [], None)) == sets(moves._generate_direct(hand, None))
        assert legal_plays(hand, [P("R3")], None)
        assert moves._index_for(hand)[0] is index
