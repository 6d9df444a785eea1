"""Random self-play over thousands of rounds: invariants, legality oracle, replay.

The oracle is `legal_actions(seat)`: no random legal action is ever rejected, and random illegal
ones (wrong seat, cards not held, too low or no combination, wrong phase) are always rejected
without changing anything.
"""
from __future__ import annotations

import random

import pytest

from lobby.tichu.actions import UNSET, CallTichu, Exchange, GiveDragon, GrandTichu, Pass, Play, Wish
from lobby.tichu.cards import DECK, mask_cards
from lobby.tichu.errors import Rejected
from lobby.tichu.match import Match, MatchOptions, deal_from
from lobby.tichu.round import Round

WISHES = (None, "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K", "A")
FULL = (1 << 56) - 1


def main_actor(r: Round) -> list[int]:
    """The seats the round waits for."""
    if r.phase == "grand":
        return [s for s in range(4) if r.grand[s] is None]
    if r.phase == "exchange":
        return [s for s in range(4) if r.given[s] is None]
    if r.phase == "wish":
        return [r.wisher]
    if r.phase in ("play", "dragon"):
        return [r.turn]
    return []


def random_move(r: Round, rng: random.Random) -> tuple[int, object]:
    """A random legal action: mostly the seat the round waits for, sometimes a Tichu call or a
    bomb out of turn by anyone."""
    if rng.random() < 0.08:
        seat = rng.randrange(4)
        extra = [a for a in r.legal_actions(seat)
                 if isinstance(a, CallTichu) or (isinstance(a, Play) and seat != r.turn)]
        if extra and (not isinstance(extra[0], CallTichu) or rng.random() < 0.3):
            return seat, rng.choice(extra)
    seats = main_actor(r)
    assert seats, r.phase
    seat = rng.choice(seats)
    ph = r.phase
    if ph == "grand":
        return seat, GrandTichu(rng.random() < 0.05)
    if ph == "exchange":
        return seat, Exchange(rng.sample(mask_cards(r.hands[seat]), 3))
    if ph == "play":
        plays = r.legal_plays(seat)
        k = len(plays) + r.can_pass(seat)
        assert k > 0
        i = rng.randrange(k)
        if i == len(plays):
            return seat, Pass()
        p = plays[i]
        wish = UNSET
        if p.mask >> 52 & 1 and rng.random() < 0.5:
            wish = rng.choice(WISHES)
        return seat, Play(p.cards, p.phoenix_as, wish)
    acts = [a for a in r.legal_actions(seat) if not isinstance(a, CallTichu)]
    return seat, rng.choice(acts)


def check_round_end(r: Round) -> None:
    res = r.result
    assert res is not None
    assert sorted(res["order"]) == [0, 1, 2, 3]
    if res["double_victory"] is None:
        assert sum(res["card_points"]) == 100
        assert len(r.out) == 3
    else:
        assert sorted(res["card_points"]) == [0, 200]
        assert r.out[0] % 2 == r.out[1] % 2
    for x in res["card_points"] + res["tichu"] + res["score"]:
        assert x % 5 == 0


@pytest.mark.slow
def test_thousands_of_random_rounds():
    """Cheap invariants on many rounds: the 56 cards, a legal action for someone, scores."""
    rng = random.Random(20260)
    rounds = 0
    for n in range(1500):
        r = Round(deal_from(rng), grand_allowed=n % 5 != 0, dragon_fixed=n % 7 == 0)
        steps = 0
        while r.phase != "finished":
            seat, action = random_move(r, rng)
            r.apply(seat, action)            # a legal action is never rejected
            steps += 1
            assert steps < 2000
            hands = r.hands
            table = r._table
            won = r.won
            m = hands[0] | hands[1] | hands[2] | hands[3] | table | won[0] | won[1] | won[2] | won[3]
            count = sum(h.bit_count() for h in hands) + table.bit_count() + sum(
                w.bit_count() for w in won)
            if r.phase == "exchange":
                for g in r.given:
                    if g is not None:
                        count += 3
                        for c in g:
                            m |= 1 << c
            if r.phase == "grand":
                count = 56
                m = FULL
            assert m == FULL and count == 56
        check_round_end(r)
        rounds += 1
    assert rounds == 1500


def action_key(action) -> tuple:
    if isinstance(action, Play):
        return ("play", frozenset(action.cards))
    if isinstance(action, Exchange):
        return ("exchange", action.cards)
    return (type(action).__name__, getattr(action, "call", None), getattr(action, "rank", None),
            getattr(action, "seat", None))


def state(r: Round) -> tuple:
    return (r.phase, r.turn, tuple(r.hands), tuple(r.won), tuple(r.won_points), r._table,
            tuple(r.trick), r.passes, r.trick_won, r.holder, r.wish, r.wisher, tuple(r.calls),
            tuple(r.grand), tuple(r.given), tuple(r.out), tuple(r.played_first))


def random_candidates(r: Round, rng: random.Random) -> list[tuple[int, object]]:
    """Random actions, mostly illegal: any seat, cards held or not, wrong phases."""
    out: list[tuple[int, object]] = []
    for _ in range(6):
        seat = rng.randrange(4)
        hand = mask_cards(r.hands[seat])
        kind = rng.randrange(9)
        if kind <= 2 and hand:
            cards = rng.sample(hand, min(len(hand), rng.randint(1, 5)))
            out.append((seat, Play(tuple(cards))))
        elif kind == 3:
            out.append((seat, Play(tuple(rng.sample(DECK, rng.randint(1, 4))))))
        elif kind == 4:
            out.append((seat, Pass()))
        elif kind == 5:
            out.append((seat, rng.choice([GrandTichu(True), GrandTichu(False), CallTichu()])))
        elif kind == 6:
            out.append((seat, Exchange(tuple(rng.sample(DECK, 3)))))
        elif kind == 7:
            out.append((seat, Wish(rng.choice(WISHES))))
        else:
            out.append((seat, GiveDragon(rng.randrange(4))))
    return out


@pytest.mark.slow
def test_legality_oracle_on_random_rounds():
    """No random legal action is rejected; no random illegal one is accepted (nothing changes)."""
    rng = random.Random(77)
    rejected = accepted = 0
    for n in range(120):
        r = Round(deal_from(rng), grand_allowed=n % 4 != 0, dragon_fixed=n % 6 == 0)
        while r.phase != "finished":
            legal = {s: {action_key(a) for a in r.legal_actions(s)}
                     if r.phase != "exchange" else None for s in range(4)}
            assert any(legal[s] for s in range(4) if legal[s] is not None) or \
                r.phase == "exchange"
            for seat, cand in random_candidates(r, rng):
                if legal[seat] is None:       # exchange: legal iff three held distinct cards
                    ok = (isinstance(cand, Exchange) and r.given[seat] is None
                          and len(set(cand.cards)) == 3
                          and all(r.hands[seat] >> c & 1 for c in cand.cards)) or (
                        isinstance(cand, CallTichu) and r.calls[seat] is None)
                else:
                    ok = action_key(cand) in legal[seat]
                if ok:
                    continue
                before = state(r)
                with pytest.raises(Rejected):
                    r.apply(seat, cand)
                assert state(r) == before
                rejected += 1
            seat, action = random_move(r, rng)
            if legal[seat] is not None:
                assert action_key(action) in legal[seat], (seat, action)
            r.apply(seat, action)
            accepted += 1
        check_round_end(r)
    assert rejected > 1000 and accepted > 1000


def play_match(m: Match, rng: random.Random, limit: int = 100_000) -> None:
    for _ in range(limit):
        if m.finished:
            return
        r = m.round
        seat, action = random_move(r, rng)
        m.apply(m.player_at(seat), action)
    raise AssertionError("match did not end")


@pytest.mark.parametrize("options", [
    MatchOptions(target=300), MatchOptions(max_rounds=3, dragon_fixed=True),
    MatchOptions(turnier=True), MatchOptions(target=200, max_rounds=2),
])
def test_replay_reproduces_the_match(options):
    rng = random.Random(hash(repr(options)) & 0xFFFF)
    for seed in range(3):
        m = Match(options, seed=seed)
        play_match(m, rng)
        rec = m.record()
        again = Match.replay(rec)
        assert again.finished and again.result == m.result
        assert again.scores == m.scores and again.round_no == m.round_no
        for p in (None, 0, 1, 2, 3):
            assert again.view(p) == m.view(p)
        # the seed alone decides the deals
        assert Match(options, seed=seed).round.deal == Match(options, seed=seed).round.deal


def test_replay_in_the_middle_of_a_round():
    rng = random.Random(5)
    m = Match(MatchOptions(), seed=99)
    for _ in range(60):
        seat, action = random_move(m.round, rng)
        m.apply(m.player_at(seat), action)
    again = Match.replay(m.record())
    for p in (None, 0, 1, 2, 3):
        assert again.view(p) == m.view(p)
    assert [a.to_json() for _, a in again.actions] == [a.to_json() for _, a in m.actions]
