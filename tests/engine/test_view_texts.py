"""A round's views are built from what it kept of its last view, and they read exactly as a
view built afresh would: the trick grows by one entry, unchanged lists are the last view's very
objects, a seat's hand text is made again only when its hand changed, and a play's text is kept
on its Combo, so that a server whose hands and plays outnumber the shared memos of
lobby/tichu/view_text.py does not make them again for every view.
"""
from __future__ import annotations

import random
from typing import Any

import pytest

import lobby.tichu.round as round_module
from lobby.tichu import memo, view_text
from lobby.tichu.actions import Exchange, GiveDragon, GrandTichu, Pass, Play, Wish
from lobby.tichu.cards import format_cards, mask_cards, parse_cards
from lobby.tichu.combos import Combo, classify
from lobby.tichu.round import Round

#: a test of a memo itself (skipped while every memo is off: TICHU_MEMOS=off)
MEMOS_ONLY = pytest.mark.skipif(not memo.ON, reason="tests a memo itself")


def fresh_public(r: Round) -> dict[str, Any]:
    """The shared part of a view as it reads, built from the round's state alone."""
    return {
        "phase": r.phase, "seat": None, "turn": r.turn,
        "trick": [{"seat": s, "cards": view_text.play_text(c), "combo": c.kind}
                  for s, c in r.trick],
        "trick_won": r.trick_won, "holder": r.holder,
        "wish": None if r.wish is None else r._wish_text(), "wish_pending": r.wisher,
        "calls": list(r.calls), "grand_decided": [g is not None for g in r.grand],
        "exchanged": [g is not None for g in r.given],
        "cards_left": [h.bit_count() for h in r.hands], "out": list(r.out),
        "points": list(r.won_points),
        "result": None if r.result is None else dict(r.result),
    }


def random_action(r: Round, rng: random.Random) -> tuple[int, Any]:
    if r.phase == "grand":
        seat = next(s for s in range(4) if r.grand[s] is None)
        return seat, GrandTichu(False)
    if r.phase == "exchange":
        seat = next(s for s in range(4) if r.given[s] is None)
        return seat, Exchange(tuple(rng.sample(list(mask_cards(r.hands[seat])), 3)))
    if r.phase == "wish":
        return r.wisher, Wish(rng.choice([None, "5", "10"]))
    if r._ending or r.phase == "dragon":
        return r.holder, GiveDragon((r.holder + 1) & 3)
    seat = r.turn
    plays = r.legal_plays(seat)
    if r.can_pass(seat) and (not plays or rng.random() < 0.5):
        return seat, Pass()
    p = rng.choice(plays)
    return seat, Play(p.cards, p.phoenix_as)


@MEMOS_ONLY
@pytest.mark.parametrize("seed", range(6))
def test_views_read_as_fresh_ones_and_keep_the_objects_of_what_did_not_change(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    deck = list(range(56))
    rng.shuffle(deck)
    r = Round([deck[i * 14:(i + 1) * 14] for i in range(4)])
    made: list[int] = []
    real_hand_text = view_text.hand_text

    def counting_hand_text(mask: int) -> str:
        made.append(mask)
        view_text._HAND_TEXT.clear()        # the shared memo outgrown, every time
        return real_hand_text(mask)
    monkeypatch.setattr(round_module, "hand_text", counting_hand_text)
    last: list[dict[str, Any]] | None = None
    last_hands = [None] * 4
    changes = 0
    while r.phase != "finished":
        views = r.views([0, 1, 2, 3, None])
        for seat, v in enumerate(views[:4]):
            assert v["hand"] == format_cards(mask_cards(r.hands[seat]))
            if last_hands[seat] != r.hands[seat]:
                changes += 1
                last_hands[seat] = r.hands[seat]
        public = fresh_public(r)
        for v in views:
            assert {k: v[k] for k in public if k != "seat"} == \
                {k: public[k] for k in public if k != "seat"}
        if last is not None:
            for key in ("trick", "calls", "cards_left", "out", "points", "exchanged"):
                if last[4][key] == views[4][key]:
                    assert last[4][key] is views[4][key], key
        last = views
        seat, action = random_action(r, rng)
        r.apply(seat, action)
    assert len(made) == changes          # a hand's text made once per change of that hand


@MEMOS_ONLY
def test_a_combo_keeps_its_text_when_the_shared_memo_is_emptied(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pair = classify(parse_cards("R5 G5"))
    assert pair is not None
    combo = Combo(pair.kind, pair.rank, pair.mask, pair.phoenix_as)   # not interned: new
    calls: list[Any] = []
    real = view_text.format_play

    def counting(cards: Any, phoenix_as: Any) -> str:
        calls.append(cards)
        return real(cards, phoenix_as)
    monkeypatch.setattr(view_text, "format_play", counting)
    first = view_text.play_text(combo)
    view_text._PLAY_TEXT.clear()
    assert view_text.play_text(combo) == first and view_text.play_texts([combo]) == [first]
    assert len(calls) == 1
    assert first == format_cards(combo.cards)
