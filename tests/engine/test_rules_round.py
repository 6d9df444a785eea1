"""One test per numbered rule of docs/rules.md that concerns rounds, scoring and matches:
1-4, 10-11 (leading), 14-18, 22-32."""
from __future__ import annotations

import json

import pytest

from lobby.tichu.actions import CallTichu, Exchange, GrandTichu, Pass, Play
from lobby.tichu.cards import DECK, parse_cards
from lobby.tichu.errors import Rejected
from lobby.tichu.match import Match, MatchOptions, initial_seating
from lobby.tichu.round import Round, mask_points
from roundkit import (
    DOUBLE_VICTORY_HANDS,
    DOUBLE_VICTORY_LINES,
    deal_for,
    fill,
    last_card_hands,
    last_card_lines,
    make_round,
    play_in_match,
    rotate_hands,
    rotate_lines,
    script,
    straight,
)


def code_of(r, seat, action) -> str:
    with pytest.raises(Rejected) as info:
        r.apply(seat, action)
    return info.value.code


def test_rule_01_eight_cards_then_grand_tichu_then_six_more():
    deal, _ = deal_for(fill("", "", "", ""))
    r = Round(deal)
    evs = r.opening_events()
    assert [(e.kind, e.to, len(e.data["cards"])) for e in evs] == [("deal", s, 8) for s in range(4)]
    assert all(set(e.data["cards"]) == set(deal[e.to][:8]) for e in evs)
    for s in range(3):
        evs = r.apply(s, GrandTichu(s == 1))
        assert [e.kind for e in evs] == ["grand"] and evs[0].to is None
        assert r.hands[s].bit_count() == 8
    evs = r.apply(3, GrandTichu(False))
    rest = [e for e in evs if e.kind == "deal-rest"]
    assert [(e.to, len(e.data["cards"])) for e in rest] == [(s, 6) for s in range(4)]
    assert all(h.bit_count() == 14 for h in r.hands)
    assert r.calls == [None, "grand", None, None]


def test_rule_02_exchange_revealed_at_once_when_all_four_gave():
    deal, given = deal_for(fill("", "", "", ""))
    r = Round(deal, grand_allowed=False)
    for s in range(3):
        evs = r.apply(s, Exchange(given[s]))
        assert [e.kind for e in evs] == ["exchange-given"]
        assert r.hands[s].bit_count() == 11
    evs = r.apply(3, Exchange(given[3]))
    got = {e.to: e.data["cards"] for e in evs if e.kind == "exchange-received"}
    assert set(got) == {0, 1, 2, 3}
    for s in range(4):
        # from the previous player, the partner, the next player: their next/partner/previous card
        assert got[s] == {(s + 3) % 4: given[(s + 3) % 4][0], (s + 2) % 4: given[(s + 2) % 4][1],
                          (s + 1) % 4: given[(s + 1) % 4][2]}
        assert r.hands[s].bit_count() == 14


def test_rule_03_small_tichu_timing():
    # before the exchange (after the Grand Tichu decision), after it, after someone went out
    hands = ["Ma " + straight("R"), straight("G") + " Ph", "Hu " + straight("B"),
             straight("S") + " Dr"]
    deal, given = deal_for(hands)
    r = Round(deal)
    for s in range(4):
        r.apply(s, GrandTichu(s == 3))
    r.apply(1, CallTichu())
    assert code_of(r, 3, CallTichu()) == "already-called"       # not after a Grand Tichu
    for s in range(4):
        r.apply(s, Exchange(given[s]))
    script(r, "0 play Ma " + straight("R") + " wish none")
    assert code_of(r, 0, CallTichu()) == "tichu-too-late"
    r.apply(2, CallTichu())                                     # after seat 0 went out
    assert r.calls == [None, "tichu", "tichu", "grand"]
    script(r, "1 pass", "2 pass", "3 pass")
    assert r.view(None)["calls"] == [None, "tichu", "tichu", "grand"]


def test_rule_04_no_grand_tichu_in_turnier():
    deal, _ = deal_for(fill("", "", "", ""))
    r = Round(deal, grand_allowed=False)
    assert r.phase == "exchange" and all(h.bit_count() == 14 for h in r.hands)
    assert code_of(r, 0, GrandTichu(True)) == "no-grand-tichu"
    assert not any(isinstance(a, GrandTichu) for a in r.legal_actions(0))
    assert Match(MatchOptions(turnier=True), seed=3).round.phase == "exchange"


def test_rule_10_dog_passes_the_lead_to_the_partner():
    r = make_round(fill("Ma Hu R3", "", "", ""))
    script(r, "0 play Ma wish none", "1 pass", "2 pass", "3 pass")
    evs = script(r, "0 play Hu")
    assert r.turn == 2 and r.trick == [] and r.won[0] >> 53 & 1
    # nothing can be played on the Dog, not even a bomb: it is taken at once
    assert code_of(r, 1, Play(r.hand(1)[:4])) in ("bomb-on-empty-table", "not-your-turn")
    assert any(e.kind == "trick-taken" for e in evs)


def test_rule_11_mahjong_holder_leads_with_any_play():
    r = make_round(fill("Ma R3", "", "", ""))
    assert r.turn == 0
    assert code_of(r, 1, Play(r.hand(1)[:1])) == "not-your-turn"
    script(r, "0 play R3")                      # need not play the Mah Jong
    assert r.turn == 1


def test_rule_14_bomb_out_of_turn_while_a_play_lies_on_the_table():
    r = make_round(fill("Ma R2", "S7 B7 G7 R7 S9 B9 G9 R9", "", ""))
    bomb, big = parse_cards("S7 B7 G7 R7"), parse_cards("S9 B9 G9 R9")
    assert code_of(r, 1, Play(bomb)) == "bomb-on-empty-table"
    script(r, "0 play Ma wish none")
    assert r.bombs(1) == [] and r.view(1)["bombs"] == []      # seat 1 is in turn
    assert {p.cards for p in r.legal_plays(1)} >= {bomb, big}
    script(r, "1 play S7 B7 G7 R7")                         # in turn
    assert r.view(1)["bombs"] == ["S9 B9 G9 R9"]
    script(r, "1 play S9 B9 G9 R9")                         # on his own play, out of turn
    assert r.holder == 1 and r.turn == 2
    script(r, "2 pass", "3 pass", "0 pass")
    assert r.trick_won and r.turn == 1


def test_rule_15_a_bomb_takes_the_trick_dragon_included():
    r = make_round(fill("Ma Dr", "S7 B7 G7 R7", "", ""))
    script(r, "0 play Ma wish none", "1 pass", "2 pass", "3 pass", "0 play Dr",
           "1 play S7 B7 G7 R7", "2 pass", "3 pass", "0 pass")
    assert r.phase == "play" and r.turn == 1
    script(r, "1 play " + str(r.hand(1)[0]))
    assert r.won_points[1] == 25 and r.won_points[0] == 0


def test_rule_16_trick_ends_when_all_others_with_cards_passed():
    r = make_round(fill("Ma R3", "S5", "B6", "G7"))
    script(r, "0 play Ma wish none", "1 play S5", "2 pass", "3 pass")
    assert not r.trick_won and r.turn == 0
    evs = script(r, "0 pass")
    assert r.trick_won and r.turn == 1 and evs[-1].kind == "trick-won"
    script(r, "1 play " + str(r.hand(1)[0]))
    assert r.won_points[1] == 5


def test_rule_17_dragon_trick_to_an_opponent_of_choice():
    r = make_round(fill("Ma Dr R3", "", "", ""))
    script(r, "0 play Ma wish none", "1 pass", "2 pass", "3 pass", "0 play Dr",
           "1 pass", "2 pass", "3 pass")
    assert r.phase == "dragon"
    assert code_of(r, 0, GiveDragonTo(2)) == "dragon-to-opponent"
    assert code_of(r, 0, Pass()) == "waiting-for-dragon"
    script(r, "0 dragon 3")
    assert r.won_points[3] == 25 and r.turn == 0          # the Dragon's owner leads next


def GiveDragonTo(seat):
    from lobby.tichu.actions import GiveDragon
    return GiveDragon(seat)


def test_rule_18_a_won_trick_stays_bombable_until_its_winner_leads():
    r = make_round(fill("Ma R3 R4", "SK", "", "S8 B8 G8 R8"))
    script(r, "0 play Ma wish none", "1 play SK", "2 pass", "3 pass", "0 pass")
    assert r.trick_won and r.turn == 1 and r.won_points == [0, 0, 0, 0]
    script(r, "3 play S8 B8 G8 R8")                     # after three passes
    assert not r.trick_won and r.holder == 3
    script(r, "0 pass", "1 pass", "2 pass")
    assert code_of(r, 0, Play(parse_cards("R3"))) == "not-your-turn"
    script(r, "3 play " + str(r.hand(3)[0]))
    assert r.won_points[3] == 10


def test_rule_22_wish_persists_across_tricks_until_a_real_card_fulfils_it():
    r = make_round(fill("Ma R3", "SA Ph S2", "G9", "S9 B9 R9"))
    script(r, "0 play Ma wish 9", "1 play SA", "2 pass", "3 pass", "0 pass")
    assert r.trick_won and r.turn == 1 and r.wish == 9      # no 9 could beat the Ace
    script(r, "1 play Ph")                                  # the Phoenix never fulfils the wish
    assert r.wish == 9 and r.turn == 2
    assert code_of(r, 2, Pass()) == "must-fulfil-wish"      # still open in the next trick
    assert code_of(r, 2, Play(parse_cards("B8"))) == "wish-not-followed"
    evs = script(r, "2 play G9")
    assert r.wish is None and [e.kind for e in evs].count("wish-fulfilled") == 1
    script(r, "3 pass")                                     # no obligation any more
    m = Match(seed=4)
    assert m.round.wish is None                             # expires with the round


def test_rule_23_round_ends_when_one_player_holds_cards_or_a_double_victory():
    r = make_round(last_card_hands("Ph", "Dr"))
    lines = last_card_lines("Ph")
    script(r, *lines[:-1])
    assert r.phase == "play" and len(r.out) == 2
    evs = script(r, lines[-1])
    assert r.phase == "finished" and [e.kind for e in evs][-2:] == ["trick-taken", "round-over"]
    r = make_round(DOUBLE_VICTORY_HANDS)
    script(r, *DOUBLE_VICTORY_LINES)
    assert r.phase == "finished" and r.out == [0, 2] and all(r.hands[s] for s in (1, 3))


def test_rule_24_last_players_hand_to_opponents_and_tricks_to_the_first():
    hands = fill("Ma " + straight("R", 2, 13) + " Hu", "", "", "")
    r = make_round(hands)
    # seat 1 takes a trick with points, then finishes last
    script(r, "0 play Ma " + straight("R", 2, 13) + " wish none", "1 pass", "2 pass", "3 pass",
           "0 play Hu")
    assert r.out == [0] and r.turn == 2
    r2 = make_round(last_card_hands("Ph", "Dr"))
    script(r2, *last_card_lines("Ph"))
    # seat 2 is last: its hand (50) goes to team 1; its tricks (none) to seat 0
    assert r2.result["card_points"] == [25, 75]
    assert r2.won_points == [25, 25, 0, 0]


def test_rule_25_card_points():
    assert mask_points((1 << 56) - 1) == 100
    assert mask_points(1 << 55) == 25 and mask_points(1 << 54) == -25
    five, ten, king = parse_cards("R5 R10 RK")
    assert mask_points(1 << five) == 5 and mask_points(1 << ten) == 10
    assert mask_points(1 << king) == 10


def test_rule_26_double_victory_200_no_cards_counted():
    r = make_round(DOUBLE_VICTORY_HANDS)
    script(r, *DOUBLE_VICTORY_LINES)
    assert r.result["card_points"] == [200, 0] and r.result["score"] == [200, 0]
    r = make_round(rotate_hands(DOUBLE_VICTORY_HANDS, 1))
    script(r, *rotate_lines(DOUBLE_VICTORY_LINES, 1))
    assert r.result["score"] == [0, 200]


def test_rule_27_tichu_and_grand_tichu_bonuses():
    r = make_round(last_card_hands("Ph", "Dr"), calls={0: "tichu", 1: "grand", 3: "tichu"})
    script(r, *last_card_lines("Ph"))
    assert r.result["tichu"] == [100, -300]
    assert r.result["score"] == [125, -225]


def test_rule_28_invariants_over_a_round():
    r = make_round(last_card_hands("Dr", "Ph"))
    for line in [*last_card_lines("Dr"), "3 dragon 0"]:
        script(r, line)
        assert sorted(r.all_cards()) == list(DECK)
    assert sum(r.result["card_points"]) == 100
    assert all(x % 5 == 0 for x in r.result["score"])


def _deals(*scripted):
    return [deal_for(h)[0] for h, *_ in scripted]


def test_rule_29_target_and_a_tie_over_it():
    even = (last_card_hands("Dr", "Ph"), [*last_card_lines("Dr"), "3 dragon 2"])
    dv = (DOUBLE_VICTORY_HANDS, DOUBLE_VICTORY_LINES)
    m = Match(MatchOptions(target=50), seed=2, deals=_deals(even, dv))
    play_in_match(m, *even)
    assert not m.finished and m.scores == [50, 50]        # a tie at the target: one more round
    play_in_match(m, *dv)
    assert m.finished and m.result["winner"] == 0 and m.scores == [250, 50]
    assert MatchOptions().target == 1000


def test_rule_30_round_limit_shared_victory():
    even = (last_card_hands("Dr", "Ph"), [*last_card_lines("Dr"), "3 dragon 2"])
    m = Match(MatchOptions(max_rounds=1), seed=2, deals=_deals(even))
    play_in_match(m, *even)
    assert m.finished and m.result["shared"] and m.result["winners"] == [0, 1, 2, 3]


def test_rule_31_tichujoin_seating():
    assert initial_seating(["ann", "bob", "cid", "dan"], tichujoin=True) == [0, 2, 1, 3]
    assert initial_seating(["ann", "bob", "cid", "dan"]) == [0, 1, 2, 3]


def test_rule_32_turnier():
    m = Match(MatchOptions(turnier=True), seed=8)
    assert m.round.grand_allowed is False
    assert [m.seat_of(p) for p in range(4)] == [0, 1, 2, 3]
    dv = (DOUBLE_VICTORY_HANDS, DOUBLE_VICTORY_LINES)
    m = Match(MatchOptions(turnier=True), seed=8, deals=_deals(*[dv] * 9))
    for no in range(9):
        play_in_match(m, *dv, calls={2: "tichu"} if no == 0 else None)
    assert m.finished and m.round_no == 9
    # round 1: the winners' failed Tichu: 2 victory points and 100 - 100 points
    assert m.round_scores[0] == [0, 0] and m.round_scores[1] == [100, 0]
    assert sum(m.victory_points) == 2 * 2 + 8 * 2 * 3
    assert m.result["winners"] == [0]
    json.dumps(m.record())
