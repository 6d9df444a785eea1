"""Matches: target, `round X`, turnier, seating, records and replay (docs/rules.md 29-32)."""
from __future__ import annotations

import json
import random

import pytest

from lobby.tichu.actions import GrandTichu, Pass
from lobby.tichu.errors import Rejected
from lobby.tichu.match import Match, MatchOptions, initial_seating
from roundkit import (
    DOUBLE_VICTORY_HANDS,
    DOUBLE_VICTORY_LINES,
    deal_for,
    last_card_hands,
    last_card_lines,
    play_in_match,
    rotate_hands,
    rotate_lines,
)

# scripted rounds: (final hands, lines, calls) and their round scores
DV0 = (DOUBLE_VICTORY_HANDS, DOUBLE_VICTORY_LINES, {})                      # [200, 0]
DV0_FAILED = (DOUBLE_VICTORY_HANDS, DOUBLE_VICTORY_LINES, {2: "tichu"})     # [100, 0]
DV1 = (rotate_hands(DOUBLE_VICTORY_HANDS, 1), rotate_lines(DOUBLE_VICTORY_LINES, 1), {})  # [0, 200]
EVEN = (last_card_hands("Dr", "Ph"), [*last_card_lines("Dr"), "3 dragon 2"], {})  # [50, 50]
UNEVEN = (last_card_hands("Ph", "Dr"), last_card_lines("Ph"), {})           # [25, 75]


def run(options: MatchOptions, rounds: list[tuple]) -> tuple[Match, list]:
    m = Match(options, seed=1, deals=[deal_for(h)[0] for h, _, _ in rounds])
    evs = list(m.opening_events())
    for hands, lines, calls in rounds:
        assert not m.finished
        evs += play_in_match(m, hands, lines, calls=calls)
    return m, evs


def test_initial_seating():
    assert initial_seating(["a", "b", "c", "d"]) == [0, 1, 2, 3]
    # tichujoin: the second joiner sits opposite the first, the others follow join order
    assert initial_seating(["a", "b", "c", "d"], tichujoin=True) == [0, 2, 1, 3]
    seats = initial_seating("abcd", drawseat=True, rng=random.Random(3))
    assert sorted(seats) == [0, 1, 2, 3]
    assert seats == initial_seating("abcd", drawseat=True, rng=random.Random(3))
    for k in range(20):
        seats = initial_seating("abcd", tichujoin=True, drawseat=True, rng=random.Random(k))
        assert sorted(seats) == [0, 1, 2, 3] and (seats[0] - seats[1]) % 4 == 2
    with pytest.raises(ValueError):
        initial_seating("abc")


def test_target_reached_ends_the_match():
    m, evs = run(MatchOptions(target=300), [DV0, DV0])
    assert m.finished and m.scores == [400, 0] and m.round_no == 2
    assert m.result["winner"] == 0 and m.result["winners"] == [0, 2]
    assert [e.kind for e in evs].count("round-score") == 2
    assert evs[-1].kind == "match-over"
    with pytest.raises(Rejected) as info:
        m.apply(0, Pass())
    assert info.value.code == "match-over"
    assert m.legal_actions(0) == []


def test_tie_at_the_target_plays_another_round():
    m = Match(MatchOptions(target=50), seed=1, deals=[deal_for(EVEN[0])[0], deal_for(DV1[0])[0]])
    play_in_match(m, *EVEN[:2])
    assert not m.finished and m.scores == [50, 50] and m.round_no == 2
    play_in_match(m, *DV1[:2])
    assert m.finished and m.scores == [50, 250] and m.result["winner"] == 1


def test_round_limit():
    m, _ = run(MatchOptions(max_rounds=1), [EVEN])
    assert m.finished and m.result["shared"] and m.result["winner"] is None
    m, _ = run(MatchOptions(max_rounds=2), [EVEN, UNEVEN])
    assert m.finished and m.scores == [75, 125] and m.result["winner"] == 1
    assert m.result["winners"] == [1, 3]


def test_turnier_nine_rounds_rotation_and_victory_points():
    rounds = [DV0, DV0_FAILED, EVEN, UNEVEN, DV0, DV0, DV0, DV0, DV0]
    m = Match(MatchOptions(turnier=True), seed=1, deals=[deal_for(h)[0] for h, _, _ in rounds])
    assert m.round.phase == "exchange"                 # no Grand Tichu
    with pytest.raises(Rejected) as info:
        m.apply(0, GrandTichu(True))
    assert info.value.code == "no-grand-tichu"
    seatings = []
    for no, (hands, lines, calls) in enumerate(rounds, 1):
        assert m.round_no == no and not m.finished
        seatings.append(tuple(m.seat_of(p) for p in range(4)))
        evs = play_in_match(m, hands, lines, calls=calls)
        if no < 9:
            deals = [e for e in evs if e.kind == "deal"]
            assert len(deals) == 4
            for e in deals:                             # addressed to the player in that seat
                assert m.seat_of(e.to) == e.data["seat"]
    assert seatings[:3] == [(0, 1, 2, 3)] * 3
    assert seatings[3:6] == [(0, 2, 1, 3)] * 3
    assert seatings[6:] == [(0, 1, 3, 2)] * 3
    partners = {frozenset(p for p in range(4) if s[p] % 2 == s[0] % 2) for s in seatings}
    assert partners == {frozenset({0, 2}), frozenset({0, 1}), frozenset({0, 3})}
    assert m.finished and m.round_no == 9
    # double victory 3 (100 points); with the winners' failed Tichu 2; tie 1; win 2
    assert m.round_scores[0] == [100, 0] and m.round_scores[1] == [0, 0]
    assert m.victory_points == [21, 7, 8, 12]
    assert m.tichu_points == [675, 275, 225, 425]
    assert m.result["winners"] == [0] and m.result["victory_points"] == [21, 7, 8, 12]


def test_record_is_json_and_replays():
    m, _ = run(MatchOptions(target=1000), [EVEN])
    m.apply(0, GrandTichu(False))       # a few actions into the next (seeded) round
    m.apply(1, GrandTichu(True))
    rec = json.loads(json.dumps(m.record()))
    again = Match.replay(rec)
    assert again.round_no == m.round_no == 2
    for p in (None, 0, 1, 2, 3):
        assert again.view(p) == m.view(p)
    json.dumps(m.view(0))


def test_seed_decides_every_deal():
    a, b, c = Match(seed=5), Match(seed=5), Match(seed=6)
    assert a.round.deal == b.round.deal != c.round.deal
    assert Match().seed is not None


def test_options_to_json_names_every_field() -> None:
    from dataclasses import asdict, fields

    from lobby.tichu.match import MatchOptions
    options = MatchOptions(target=500, max_rounds=3, turnier=True, dragon_fixed=True)
    assert options.to_json() == asdict(options)
    assert set(options.to_json()) == {f.name for f in fields(MatchOptions)}
    assert MatchOptions.from_json(options.to_json()) == options
