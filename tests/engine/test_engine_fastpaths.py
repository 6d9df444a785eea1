"""The engine's fast paths give exactly what the plain generators give.

`moves.follow_plays` / `moves.lead_plays` (what `Round` asks) against the index-free generator
`moves._generate_direct` with the wish rule applied by hand; `Round.legal_plays` / `can_pass`
(per-seat lead lists, the cached may-pass) against the public `moves` functions on every decision
of random rounds; the bomb bit test against the bomb generator.
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from lobby.tichu import moves
from lobby.tichu.actions import Exchange, GiveDragon, GrandTichu, Pass, Play, Wish
from lobby.tichu.cards import DECK, RANK_MASK, cards_mask, mask_cards
from lobby.tichu.round import Round

WISHES = (None, "2", "5", "7", "10", "B", "A")


def expected(hand: int, top: object, w: int) -> tuple[set[int], bool]:
    """(keys of the legal plays, may pass) from the plain generator and docs/rules.md 20-21."""
    plays = moves._generate_direct(hand, top)  # type: ignore[arg-type]
    binds = bool(w) and any(p.mask & RANK_MASK[w] for p in plays)
    if binds:
        plays = [p for p in plays if p.mask & RANK_MASK[w] or p.is_bomb]
    return {p.key for p in plays}, top is not None and not binds


hands = st.lists(st.sampled_from(DECK), min_size=1, max_size=14, unique=True).map(cards_mask)


@settings(max_examples=300, deadline=None)
@given(hand=hands, other=hands, pick=st.integers(0, 10_000), w=st.sampled_from([0, 2, 5, 9, 14]))
def test_follow_plays_equal_the_plain_generator(hand: int, other: int, pick: int, w: int) -> None:
    other &= ~hand
    leads = moves._generate_direct(other, None) if other else []
    tops = [p for p in leads if p.kind != "dog"]
    if not tops:
        return
    top = tops[pick % len(tops)]
    plays, may_pass = moves.follow_plays(hand, top, w)
    keys, expected_pass = expected(hand, top, w)
    assert len(plays) == len(keys) and {p.key for p in plays} == keys
    assert may_pass == expected_pass
    # the public questions (which answer follows the same way) agree
    assert {p.key for p in moves.legal_plays(hand, [top], w or None)} == keys
    assert moves.can_pass(hand, [top], w or None) == expected_pass


@settings(max_examples=200, deadline=None)
@given(hand=hands, w=st.sampled_from([0, 3, 8, 13]))
def test_lead_plays_equal_the_plain_generator(hand: int, w: int) -> None:
    plays = moves.lead_plays(hand, w)
    keys, _ = expected(hand, None, w)
    assert len(plays) == len(keys) and {p.key for p in plays} == keys


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from(DECK), min_size=4, max_size=14, unique=True).map(cards_mask))
def test_bomb_bit_test_misses_no_bomb(hand: int) -> None:
    found: list = []
    moves._gen_bombs(found, hand, moves._nibbles(hand), None)
    assert {b.key for b in moves._hand_bombs(hand)} == {b.key for b in found}


def test_straight_bombs_and_four_of_a_kind_are_followed_with() -> None:
    hand = cards_mask(DECK[i] for i in (0, 4, 8, 12, 16, 20, 1, 2, 3))  # S2..S7 and all four 2s
    top = moves.readings(1 << 50)[0]                  # a single Ace (GA)
    plays, may_pass = moves.follow_plays(hand, top, 0)
    assert may_pass and all(p.is_bomb for p in plays)
    assert len(plays) == len(moves._generate_direct(hand, top)) == 4   # 2222, S2-6, S3-7, S2-7


def play_random_round(rng: random.Random) -> int:
    """A random round in which every decision's answers are checked against `moves`."""
    deck = list(DECK)
    rng.shuffle(deck)
    r = Round([deck[0:14], deck[14:28], deck[28:42], deck[42:56]])
    for s in range(4):
        r.apply(s, GrandTichu(False))
    for s in range(4):
        r.apply(s, Exchange(rng.sample(mask_cards(r.hands[s]), 3)))
    checked = 0
    while r.phase != "finished":
        if r.phase == "wish":
            r.apply(r.wisher, Wish(rng.choice(WISHES)))
            continue
        if r.phase == "dragon":
            r.apply(r.holder, GiveDragon((r.holder + 1) & 3))
            continue
        s = r.turn
        plays = r.legal_plays(s)
        hand = r.hands[s]
        following = bool(r._caches.combos) and not r.trick_won
        trick = list(r._caches.combos) if following else []
        want = {p.key for p in moves.legal_plays(hand, trick, r.wish)}
        if not following and r._caches.combos and s != r.holder:
            want |= {b.key for b in moves.bombs_out_of_turn(hand, r._caches.combos)}
        assert {p.key for p in plays} == want
        assert r.can_pass(s) == (following and moves.can_pass(hand, trick, r.wish))
        checked += 1
        if r.can_pass(s) and (not plays or rng.random() < 0.5):
            r.apply(s, Pass())
        else:
            p = rng.choice(plays)
            wish = rng.choice(WISHES) if p.mask & (1 << 52) else None
            if p.mask & (1 << 52):
                r.apply(s, Play(p.cards, p.phoenix_as, wish))
            else:
                r.apply(s, Play(p.cards, p.phoenix_as))
    return checked


def test_round_answers_equal_the_public_questions_on_random_rounds() -> None:
    rng = random.Random(2026)
    assert sum(play_random_round(rng) for _ in range(60)) > 3000


def test_a_play_with_copied_cards_is_checked_and_accepted() -> None:
    rng = random.Random(5)
    deck = list(DECK)
    rng.shuffle(deck)
    r = Round([deck[0:14], deck[14:28], deck[28:42], deck[42:56]], grand_allowed=False)
    for s in range(4):
        r.apply(s, Exchange(mask_cards(r.hands[s])[:3]))
    s = r.turn
    p = next(c for c in r.legal_plays(s) if c.kind == "single" and c.rank > 1)
    evs = r.apply(s, Play(tuple(list(p.cards))))           # equal cards, another tuple object
    assert evs[0].kind == "play" and evs[0].data["cards"] == p.cards
    assert not r.hands[s] & p.mask
