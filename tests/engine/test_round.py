"""The round state machine: scoring cases from explicit deals, rejections, events, views."""
from __future__ import annotations

import json

import pytest

from lobby.text.messages import ENGINE_ERRORS
from lobby.tichu.actions import CallTichu, Exchange, GiveDragon, GrandTichu, Pass, Play, Wish
from lobby.tichu.cards import DECK, parse_cards
from lobby.tichu.errors import Rejected
from lobby.tichu.round import Round, mask_points
from roundkit import (
    DOUBLE_VICTORY_HANDS,
    DOUBLE_VICTORY_LINES,
    act,
    deal_for,
    fill,
    last_card_hands,
    last_card_lines,
    make_round,
    script,
    straight,
)


def snapshot(r: Round) -> str:
    return json.dumps([r.view(s) for s in (None, 0, 1, 2, 3)], sort_keys=True) + repr(
        (r.hands, r.won, r.won_points, r.given, r.grand, r.calls, r.played_first, r.out, r.wish,
         r.phase, r.turn, r.trick_won, r.passes, r.holder))


def rejected(r: Round, seat: int, action, code: str) -> None:
    before = snapshot(r)
    with pytest.raises(Rejected) as info:
        r.apply(seat, action)
    assert info.value.code == code, info.value
    assert info.value.code in ENGINE_ERRORS
    assert snapshot(r) == before


def test_last_player_holds_the_dragon():
    r = make_round(last_card_hands("Ph", "Dr"))
    script(r, *last_card_lines("Ph"))
    assert r.phase == "finished"
    res = r.result
    assert res["order"] == [0, 1, 3, 2]
    # seat 0: its straight (R5 R10 RK = 25); seat 1: straight 25, Dog trick 0; seat 3: straight
    # 25 and its own Phoenix trick -25 (the third player going out takes the trick just won);
    # seat 2's hand (G5 G10 GK Dr = 50) goes to the opponents.
    assert res["card_points"] == [25, 75]
    assert res["score"] == [25, 75]
    assert sum(res["card_points"]) == 100


def test_last_player_holds_the_phoenix_and_the_dragon_trick_is_still_given():
    r = make_round(last_card_hands("Dr", "Ph"))
    script(r, *last_card_lines("Dr"))
    # the third player went out with the Dragon: the round is over, but the gift is still due
    assert r.phase == "dragon" and r.turn == 3
    assert [type(a) for a in r.legal_actions(3)] == [GiveDragon, GiveDragon]
    assert r.legal_actions(2) == [] and r.bombs(2) == []
    rejected(r, 2, Play(parse_cards(straight("G", 2, 6))), "waiting-for-dragon")
    rejected(r, 2, CallTichu(), "round-over")
    rejected(r, 3, GiveDragon(1), "dragon-to-opponent")
    rejected(r, 0, GiveDragon(1), "not-your-dragon")
    script(r, "3 dragon 2")   # to the last player: his tricks go to the first finisher
    res = r.result
    assert r.phase == "finished"
    # seat 2's hand: G5 G10 GK Ph = 0 for the opponents; the Dragon trick (25) counts for seat 0
    assert res["card_points"] == [50, 50]


def test_double_victory_with_a_failed_tichu():
    r = make_round(DOUBLE_VICTORY_HANDS, calls={2: "tichu", 1: "tichu"})
    script(r, *DOUBLE_VICTORY_LINES)
    res = r.result
    assert r.phase == "finished"
    assert res["double_victory"] == 0
    assert res["card_points"] == [200, 0]
    assert res["tichu"] == [-100, -100]
    assert res["score"] == [100, -100]
    assert res["order"][:2] == [0, 2]


def test_dragon_given_to_an_opponent_who_is_out():
    hands = fill("Dr " + straight("G"), "Ma " + straight("R", 2, 13) + " Hu",
                 straight("S", 2, 8) + " " + straight("B", 2, 8),
                 "RA " + straight("S", 9, 14) + " " + straight("B", 9, 14) + " Ph")
    r = make_round(hands)
    script(r, "1 play Ma " + straight("R", 2, 13) + " wish none", "2 pass", "3 pass", "0 pass",
           "1 play Hu")
    assert r.out == [1] and r.turn == 3
    script(r, "3 play S9", "0 play Dr", "2 pass", "3 pass")
    assert r.phase == "dragon" and r.turn == 0
    before = r.won_points[1]
    script(r, "0 dragon 1")
    assert r.won_points[1] == before + 25
    assert r.phase == "play" and r.turn == 0 and r.trick == []


def test_dragon_fixed_gives_the_trick_to_the_next_opponent():
    hands = fill("Dr " + straight("G"), "Ma " + straight("R", 2, 13) + " Hu",
                 straight("S", 2, 8) + " " + straight("B", 2, 8),
                 "RA " + straight("S", 9, 14) + " " + straight("B", 9, 14) + " Ph")
    r = make_round(hands, dragon_fixed=True)
    script(r, "1 play Ma " + straight("R", 2, 13) + " wish none", "2 pass", "3 pass", "0 pass",
           "1 play Hu", "3 play S9", "0 play Dr", "2 pass", "3 pass")
    assert r.phase == "play" and r.turn == 0 and r.trick_won
    before = r.won_points[1]
    script(r, "0 play G2")          # collected when its winner leads again
    assert r.won_points[1] == before + 25


def test_dog_led_when_the_partner_is_out():
    hands = ["Ma " + straight("R"), straight("G") + " Ph", "Hu " + straight("B"),
             straight("S") + " Dr"]
    r = make_round(hands)
    script(r, "0 play Ma " + straight("R") + " wish none", "1 pass", "2 pass", "3 pass")
    assert r.out == [0] and r.turn == 1      # the winner is out: the next player leads
    script(r, "1 play G2", "2 play BA", "3 pass", "1 pass")
    assert r.turn == 2 and r.trick_won
    evs = script(r, "2 play Hu")
    # partner 0 is out: the lead goes to the next player after the partner who holds cards
    assert r.turn == 1
    assert r.trick == [] and any(e.kind == "trick-taken" for e in evs)


def test_dog_led_when_the_partner_and_the_next_are_out():
    hands = ["Ma " + straight("R"), straight("G") + " Hu", "Ph " + straight("B"),
             straight("S") + " Dr"]
    r = make_round(hands)
    script(r, "0 play Ma " + straight("R") + " wish none", "1 pass", "2 pass", "3 pass",
           "1 play " + straight("G"), "2 pass", "3 pass", "1 play Hu")
    assert r.out == [0, 1]
    assert r.turn == 3                       # partner 3 holds cards
    script(r, "3 play S2", "2 play B3", "3 pass")
    assert r.turn == 2 and r.trick_won


def test_lead_after_a_trick_winner_went_out():
    hands = fill("Ma R3 R4", "S2 B2 SA", "G9 GD", "")
    r = make_round(hands)
    script(r, "0 play Ma wish none", "1 play S2", "2 play G9", "3 pass", "0 pass", "1 pass")
    assert r.trick_won and r.turn == 2
    # a winner who went out with his last card: the lead goes on to the next holder of cards
    hands = ["Ma " + straight("R"), straight("G") + " Ph", "Hu " + straight("B"),
             straight("S") + " Dr"]
    r = make_round(hands)
    evs = script(r, "0 play Ma " + straight("R") + " wish none", "1 pass", "2 pass", "3 pass")
    won = next(e for e in evs if e.kind == "trick-won")
    assert won.data["seat"] == 0 and won.data["lead"] == 1 and r.turn == 1
    script(r, "1 play G3")
    assert r.won_points[0] == 25 and r.trick[0][0] == 1


def test_bomb_after_three_passes_takes_a_dragon_trick():
    hands = fill("Ma Dr R2 R3", "S7 B7 G7 R7", "", "")
    r = make_round(hands)
    script(r, "0 play Ma wish none", "1 pass", "2 pass", "3 pass", "0 play Dr",
           "1 pass", "2 pass", "3 pass")
    assert r.phase == "dragon"
    evs = script(r, "1 play S7 B7 G7 R7")
    assert r.phase == "play" and r.holder == 1 and r.turn == 2
    assert evs[0].kind == "play" and evs[0].data["combo"] == "bomb"
    script(r, "2 pass", "3 pass", "0 pass")
    assert r.trick_won and r.turn == 1
    before = r.won_points[1]
    script(r, "1 play " + str(r.hand(1)[0]))
    assert r.won_points[1] == before + 25      # the Dragon goes to the bomber, no gift


def test_the_holder_bombs_his_own_dragon_to_keep_it():
    hands = fill("Ma Dr S7 B7 G7 R7", "", "", "")
    r = make_round(hands)
    script(r, "0 play Ma wish none", "1 pass", "2 pass", "3 pass", "0 play Dr",
           "1 pass", "2 pass", "3 pass")
    assert r.phase == "dragon"
    script(r, "0 play S7 B7 G7 R7", "1 pass", "2 pass", "3 pass")
    assert r.phase == "play" and r.turn == 0 and r.trick_won
    script(r, "0 play " + str(r.hand(0)[0]))
    assert r.won_points[0] == 25


def test_phases_and_rejections():
    deal, given = deal_for(fill("", "", "", ""))
    r = Round(deal)
    assert r.phase == "grand" and all(h.bit_count() == 8 for h in r.hands)
    rejected(r, 0, Exchange(given[0]), "wrong-phase")
    rejected(r, 0, Play(deal[0][:1]), "wrong-phase")
    rejected(r, 0, CallTichu(), "grand-undecided")
    rejected(r, 5, GrandTichu(True), "bad-seat")
    r.apply(0, GrandTichu(False))
    rejected(r, 0, GrandTichu(True), "grand-already-decided")
    r.apply(0, CallTichu())                      # after declining, with 8 cards
    rejected(r, 0, CallTichu(), "already-called")
    r.apply(1, GrandTichu(True))
    rejected(r, 1, CallTichu(), "already-called")
    r.apply(2, GrandTichu(False))
    r.apply(3, GrandTichu(False))
    assert r.phase == "exchange" and all(h.bit_count() == 14 for h in r.hands)
    rejected(r, 2, GrandTichu(True), "grand-already-decided")
    rejected(r, 0, Play(deal[0][:1]), "exchange-incomplete")
    rejected(r, 0, Pass(), "exchange-incomplete")
    rejected(r, 0, Exchange(given[0][:2]), "exchange-three-cards")
    rejected(r, 0, Exchange((given[0][0], given[0][0], given[0][1])), "duplicate-card")
    rejected(r, 0, Exchange(given[1]), "cards-not-in-hand")
    for s in range(3):
        r.apply(s, Exchange(given[s]))
    rejected(r, 0, Exchange(given[0]), "already-exchanged")
    assert r.phase == "exchange"
    r.apply(3, Exchange(given[3]))
    assert r.phase == "play"
    rejected(r, 3, Exchange(given[3]), "exchange-over")
    rejected(r, 0, Wish("7"), "no-wish-pending")
    rejected(r, 0, GiveDragon(1), "no-dragon-pending")
    lead = r.turn
    other = (lead + 1) % 4
    rejected(r, lead, Pass(), "must-lead")
    rejected(r, other, Play(r.hand(other)[:1]), "not-your-turn")
    rejected(r, other, Pass(), "not-your-turn")
    rejected(r, lead, Play(r.hand(other)[:1]), "cards-not-in-hand")
    rejected(r, lead, Play(parse_cards("Ma"), None, "Z"), "bad-wish")
    single = next(c for c in r.hand(lead) if c < 52)
    rejected(r, lead, Play((single,), None, "7"), "wish-without-mahjong")
    rejected(r, lead, "play", "bad-action")


def test_wish_named_after_the_play():
    hands = fill("Ma R3 R4", "S2 S7 B9", "", "")
    r = make_round(hands)
    script(r, "0 play Ma")
    assert r.phase == "wish" and r.turn == 0 and r.wisher == 0
    rejected(r, 1, Play(parse_cards("S2")), "waiting-for-wish")
    rejected(r, 1, Wish("7"), "no-wish-pending")
    assert next(a for a in r.legal_actions(0) if isinstance(a, Wish)) == Wish(None)
    script(r, "0 wish 7")
    assert r.phase == "play" and r.turn == 1 and r.wish == 7
    rejected(r, 1, Pass(), "must-fulfil-wish")
    rejected(r, 1, Play(parse_cards("S2")), "wish-not-followed")
    evs = script(r, "1 play S7")
    assert r.wish is None and any(e.kind == "wish-fulfilled" for e in evs)


def test_events_hide_hands_and_gifts():
    deal, given = deal_for(fill("", "", "", ""))
    r = Round(deal)
    evs = r.opening_events()
    for s in range(4):
        evs += r.apply(s, GrandTichu(False))
    for s in range(4):
        evs += r.apply(s, Exchange(given[s]))
    private = [e for e in evs if e.kind in ("deal", "deal-rest", "exchange-received")]
    assert len(private) == 12
    for e in private:
        assert e.to == e.data["seat"]
    for e in evs:
        if e.to is None:
            assert "cards" not in e.data
    received = [e for e in evs if e.kind == "exchange-received"]
    assert {f: c for f, c in received[0].data["cards"].items()} == {
        3: given[3][0], 2: given[2][1], 1: given[1][2]}
    json.dumps([e.to_json() for e in evs])
    # the gifts arrive only when all four have given
    gifts_before = [e for e in evs[:-1] if e.kind == "exchange-received"]
    assert all(evs.index(e) > max(i for i, x in enumerate(evs) if x.kind == "exchange-given")
               for e in gifts_before)


def test_view_for_the_seat_in_turn():
    hands = fill("Ma R5 G5 Ph", "", "", "")
    r = make_round(hands, calls={2: "tichu"})
    v = r.view(0)
    json.dumps(v)
    assert v["phase"] == "play" and v["turn"] == 0 and v["seat"] == 0
    assert v["hand"].split()[0] == "Ma"
    assert "G5 R5 Ph=5" in v["legal"] and "Ma" in v["legal"]
    assert v["can_pass"] is False and v["bombs"] == []
    assert v["calls"] == [None, None, "tichu", None]
    assert v["cards_left"] == [14, 14, 14, 14]
    spectator = r.view(None)
    assert "hand" not in spectator and "legal" not in spectator
    script(r, "0 play R5 G5 Ph=5")
    v = r.view(1)
    assert v["trick"] == [{"seat": 0, "cards": "G5 R5 Ph=5", "combo": "triple"}]
    assert v["turn"] == 1 and isinstance(v["can_pass"], bool)
    assert r.view(0)["legal"] == [] and r.view(0)["can_pass"] is False


def test_all_56_cards_always_accounted_for_and_points():
    r = make_round(last_card_hands("Dr", "Ph"))
    for line in [*last_card_lines("Dr"), "3 dragon 0"]:
        act(r, line)
        cards = r.all_cards()
        assert sorted(cards) == list(DECK)
    assert mask_points((1 << 56) - 1) == 100
    assert sum(r.won_points) + mask_points(r.hands[2]) == 100


def test_a_play_handed_out_for_an_older_state_is_checked_again():
    r = make_round(fill("Ma", "S2 SA", "G9", ""))
    script(r, "0 play Ma wish none")
    low = next(p for p in r.legal_plays(1) if p.cards == parse_cards("S2"))
    script(r, "1 pass", "2 play G9", "3 pass", "0 pass")
    assert r.turn == 1 and r.hand(1) and not r.trick_won
    rejected(r, 1, Play(low.cards), "too-low")
    # and one handed out for this very state is accepted as it is
    high = next(p for p in r.legal_plays(1) if p.cards == parse_cards("SA"))
    r.apply(1, Play(high.cards))
    assert r.holder == 1 and r.trick[-1][1] is high


def test_garbage_is_rejected_as_bad_cards():
    r = make_round(fill("Ma R3", "", "", ""))
    rejected(r, 0, Play(("R3",)), "bad-card")
    rejected(r, 0, Play((99,)), "bad-card")
    rejected(r, 1, Play((-1,)), "bad-card")
    rejected(r, 0, Play(()), "no-cards")
    rejected(r, 0, GiveDragon(True), "no-dragon-pending")
    deal, _given = deal_for(fill("", "", "", ""))
    r = Round(deal, grand_allowed=False)
    rejected(r, 0, Exchange(("x", "y", "z")), "bad-card")
    with pytest.raises(ValueError):
        Round(deal[:3])
    with pytest.raises(ValueError):
        Round([deal[0], deal[0], deal[2], deal[3]])
