#!/usr/bin/env python3
"""Benchmark of the rules engine: complete rounds between uniformly random legal players.

Each round: a seeded deal, random Grand Tichu decisions (5 %), a random exchange, a Tichu call by
each other player with 5 % chance, then every player in turn picks uniformly among its legal plays
(passing included where allowed); a Mah Jong play names a random wish, a Dragon trick goes to a
random opponent. One core, one process, bounded in
time. Prints rounds per second, then (measured separately, after the timed rounds) the cost of one
legal-move generation: per Round.legal_plays call as the rounds ask it, and per moves.legal_plays
call on positions met in the rounds with every cache of moves.py emptied.

    python scripts/bench_engine.py --seconds 10
    python scripts/bench_engine.py --replay      # the engine alone, without the random players
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from lobby.tichu import (
    DECK,
    CallTichu,
    Exchange,
    GiveDragon,
    GrandTichu,
    Pass,
    Play,
    Round,
    Wish,
    clear_move_caches,
    legal_plays,
    mask_cards,
)

WISHES = (None, "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K", "A")
MAHJONG_BIT = 1 << 52
PASS = Pass()


def play_round(rng: random.Random, positions: list | None = None) -> int:
    """One complete round between random players; returns the number of actions applied."""
    deck = list(DECK)
    rng.shuffle(deck)
    r = Round([deck[0:14], deck[14:28], deck[28:42], deck[42:56]])
    apply = r.apply
    for s in range(4):
        apply(s, GrandTichu(rng.random() < 0.05))
    for s in range(4):
        apply(s, Exchange(rng.sample(mask_cards(r.hands[s]), 3)))
    n = 8
    for s in range(4):
        if r.calls[s] is None and rng.random() < 0.05:
            apply(s, CallTichu())
            n += 1
    legal = r.legal_plays
    randrange = rng.randrange
    bits = rng.getrandbits
    while True:
        ph = r.phase
        if ph == "play":
            s = r.turn
            plays = legal(s)
            k = len(plays)
            if positions is not None:
                positions.append((r.hands[s], list(r._combos) if not r.trick_won else [],
                                  r.wish))
            m = k + 1 if r._combos and not r.trick_won and (r.wish is None or r.can_pass(s)) else k
            # exactly uniform in range(m), drawn as random.randrange does (without its call layers)
            width = m.bit_length()
            i = bits(width)
            while i >= m:
                i = bits(width)
            if i == k:
                apply(s, PASS)
            else:
                p = plays[i]
                if p.mask & MAHJONG_BIT:
                    apply(s, Play(p.cards, p.phoenix_as, WISHES[randrange(14)]))
                else:
                    apply(s, Play(p.cards, p.phoenix_as))
        elif ph == "finished":
            return n
        elif ph == "dragon":
            h = r.holder
            apply(h, GiveDragon((h + 1 + 2 * randrange(2)) & 3))
        elif ph == "wish":
            apply(r.wisher, Wish(WISHES[randrange(14)]))
        n += 1


def legal_cost(rng: random.Random, rounds: int) -> tuple[float, int]:
    """Microseconds per Round.legal_plays call as the rounds ask it (the engine's caches on)."""
    spent = [0.0, 0]
    inner = Round.legal_plays
    clock = time.perf_counter

    def timed(self: Round, seat: int) -> list:
        t0 = clock()
        plays = inner(self, seat)
        spent[0] += clock() - t0
        spent[1] += 1
        return plays

    Round.legal_plays = timed  # type: ignore[method-assign]
    try:
        for _ in range(rounds):
            play_round(rng)
    finally:
        Round.legal_plays = inner  # type: ignore[method-assign]
    return spent[0] / max(1, spent[1]) * 1e6, spent[1]


def phase_costs(rng: random.Random, rounds: int) -> dict[str, float]:
    """Microseconds per round spent in Round.apply, in Round.legal_plays and elsewhere (the random
    players and the bench's loop), timed in place; the timer's own cost per call is subtracted."""
    clock = time.perf_counter
    spent = {"apply": 0.0, "legal_plays": 0.0}
    calls = {"apply": 0, "legal_plays": 0}
    inner_apply, inner_legal = Round.apply, Round.legal_plays

    by_kind: dict[str, list] = {}

    def timed_apply(self: Round, seat: int, action: object) -> list:
        t0 = clock()
        evs = inner_apply(self, seat, action)  # type: ignore[arg-type]
        dt = clock() - t0
        spent["apply"] += dt
        calls["apply"] += 1
        k = by_kind.setdefault(action.__class__.__name__, [0.0, 0])
        k[0] += dt
        k[1] += 1
        return evs

    def timed_legal(self: Round, seat: int) -> list:
        t0 = clock()
        plays = inner_legal(self, seat)
        spent["legal_plays"] += clock() - t0
        calls["legal_plays"] += 1
        return plays

    def empty() -> None:
        return None

    def timed_empty() -> None:
        t0 = clock()
        empty()
        spent["timer"] += clock() - t0

    spent["timer"] = 0.0
    for _ in range(20000):
        timed_empty()
    timer = spent.pop("timer") / 20000           # what a timed call costs beyond the call itself
    Round.apply, Round.legal_plays = timed_apply, timed_legal  # type: ignore[method-assign]
    try:
        t0 = clock()
        for _ in range(rounds):
            play_round(rng)
        total = clock() - t0
    finally:
        Round.apply, Round.legal_plays = inner_apply, inner_legal  # type: ignore[method-assign]
    out = {k: (v - calls[k] * timer) / rounds * 1e6 for k, v in spent.items()}
    out["rest"] = (total - sum(spent.values())) / rounds * 1e6   # incl. the wrappers' cost
    out["apply_calls"] = calls["apply"] / rounds
    for name, (t, n) in by_kind.items():
        out["apply " + name] = (t / n - timer) * 1e6          # us per call of that action
        out["per round " + name] = n / rounds
    return out


def record_rounds(rng: random.Random, count: int) -> list:
    """Random rounds as (hands, steps) to replay: a step is (seat, action) or, for a play in turn,
    (seat, ("play", key, wish)) so that the replay hands over the Combo of its own legal list."""
    recorded = []
    for _ in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [deck[0:14], deck[14:28], deck[28:42], deck[42:56]]
        r = Round(hands)
        steps: list = []

        def act(seat: int, action: object, step: object = None) -> None:
            r.apply(seat, action)  # type: ignore[arg-type]  # noqa: B023 (called in this iteration)
            steps.append((seat, action if step is None else step))  # noqa: B023 (called in this iteration)

        for s in range(4):
            act(s, GrandTichu(rng.random() < 0.05))
        for s in range(4):
            act(s, Exchange(rng.sample(mask_cards(r.hands[s]), 3)))
        while r.phase != "finished":
            ph = r.phase
            if ph == "play":
                s = r.turn
                plays = r.legal_plays(s)
                k = len(plays)
                m = k + 1 if r._combos and not r.trick_won and (r.wish is None or r.can_pass(s)) else k
                i = rng.randrange(m)
                if i == k:
                    act(s, PASS, ("pass",))
                else:
                    p = plays[i]
                    wish = WISHES[rng.randrange(14)] if p.mask & MAHJONG_BIT else None
                    play = (Play(p.cards, p.phoenix_as, wish) if p.mask & MAHJONG_BIT
                            else Play(p.cards, p.phoenix_as))
                    act(s, play, ("play", p.key, wish))
            elif ph == "dragon":
                act(r.holder, GiveDragon((r.holder + 1 + 2 * rng.randrange(2)) & 3))
            elif ph == "wish":
                act(r.wisher, Wish(WISHES[rng.randrange(14)]))
        recorded.append((hands, steps))
    return recorded


def replay_cost(recorded: list, repeat: int) -> float:
    """Microseconds per round for the engine alone: the recorded rounds replayed through
    Round.legal_plays (asked before every decision in turn, as a player would) and Round.apply,
    the caches of moves.py emptied before each pass; the best of `repeat` passes (CPU time)."""
    best = float("inf")
    for _ in range(repeat):
        clear_move_caches()
        t0 = time.process_time()
        for hands, steps in recorded:
            r = Round(hands)
            apply, legal = r.apply, r.legal_plays
            for seat, step in steps:
                if step.__class__ is not tuple:
                    apply(seat, step)
                elif step[0] == "pass":
                    legal(seat)
                    apply(seat, PASS)
                else:
                    key, wish = step[1], step[2]
                    for p in legal(seat):
                        if p.key == key:
                            break
                    if p.mask & MAHJONG_BIT:
                        apply(seat, Play(p.cards, p.phoenix_as, wish))
                    else:
                        apply(seat, Play(p.cards, p.phoenix_as))
        best = min(best, time.process_time() - t0)
    return best / len(recorded) * 1e6


def floor_costs(rng: random.Random) -> dict[str, float]:
    """The cheapest engine calls measured alone (timeit, best of 7): apply() of a pass on a trick
    and legal_plays following a single (the state reset around them timed and subtracted), and an
    empty Python call for scale. Microseconds."""
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        r = Round([deck[0:14], deck[14:28], deck[28:42], deck[42:56]], grand_allowed=False)
        for s in range(4):
            r.apply(s, Exchange(mask_cards(r.hands[s])[:3]))
        s = r.turn
        lows = [p for p in r.legal_plays(s) if p.kind == "single" and 3 <= p.rank <= 8]
        if not lows:
            continue
        r.apply(s, Play(lows[0].cards))
        if len(r.legal_plays(r.turn)) >= 6:
            break
    seat = r.turn

    def empty(a: object, b: object) -> None:
        return None

    env = {"r": r, "seat": seat, "PASS": PASS, "empty": empty}
    n = 100_000

    def best(stmt: str) -> float:
        return min(timeit.repeat(stmt, globals=env, number=n, repeat=7)) / n * 1e6

    reset = best("r.passes = 0; r.turn = seat")
    reset_legal = best("r.passes = 0; r.turn = seat; r._legal = ()")
    return {
        "pass": best("r.passes = 0; r.turn = seat; r.apply(seat, PASS)") - reset,
        "follow": best("r.passes = 0; r.turn = seat; r._legal = (); r.legal_plays(seat)")
        - reset_legal,
        "plays": float(len(r.legal_plays(seat))),
        "call": best("empty(seat, PASS)"),
    }


def uncached_cost(positions: list) -> float:
    """Microseconds per moves.legal_plays call with every cache of moves.py emptied first."""
    clear = clear_move_caches
    t0 = time.perf_counter()
    for hand, trick, wish in positions:
        clear()
        legal_plays(hand, trick, wish)
    t1 = time.perf_counter()
    for _ in positions:
        clear()
    t2 = time.perf_counter()
    return ((t1 - t0) - (t2 - t1)) / max(1, len(positions)) * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="how long to play rounds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gc-freeze", action="store_true",
                    help="gc.freeze() after the warm-up and a gen0 threshold of 100000")
    ap.add_argument("--rounds-only", action="store_true",
                    help="skip the per-call legal-move figures")
    ap.add_argument("--replay", action="store_true",
                    help="only the engine alone: 300 recorded random rounds replayed through "
                         "legal_plays and apply, best of 7 passes (steady on a shared machine)")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    if args.replay:
        recorded = record_rounds(rng, 300)
        per_round = replay_cost(recorded, 7)
        print(f"replay: {per_round:.0f} us of CPU per round in Round.legal_plays + Round.apply "
              f"(300 recorded rounds, best of 7) = {1e6 / per_round:,.0f} rounds per CPU second "
              f"for the engine alone")
        return 0
    for _ in range(20):                  # warm-up
        play_round(rng)
    if args.gc_freeze:
        gc.freeze()                      # what is alive now is never scanned again
        gc.set_threshold(100_000, 50, 100)
    collections = sum(s["collections"] for s in gc.get_stats())
    rounds = actions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            actions += play_round(rng)
            rounds += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    collections = sum(s["collections"] for s in gc.get_stats()) - collections
    per_call, calls = legal_cost(random.Random(args.seed + 1), 300)
    positions: list = []
    while len(positions) < 5000:
        play_round(rng, positions)
    print(f"rounds: {rounds} in {elapsed:.2f} s = {rounds / elapsed:,.0f} rounds/s "
          f"({actions / rounds:.1f} actions per round, "
          f"{elapsed / actions * 1e6:.2f} us per action incl. choosing)")
    print(f"cpu: {cpu:.2f} s of CPU = {rounds / cpu:,.0f} rounds per CPU second "
          f"(the figure to compare on a shared machine); {collections} garbage collections"
          f"{' (gc frozen, gen0 threshold 100000)' if args.gc_freeze else ''}")
    if args.rounds_only:
        return 0
    ph = phase_costs(random.Random(args.seed + 2), 300)
    print(f"per round: {ph['apply']:.0f} us in Round.apply ({ph['apply_calls']:.0f} calls, "
          f"{ph['apply'] / ph['apply_calls']:.2f} us each), {ph['legal_plays']:.0f} us in "
          f"Round.legal_plays, {ph['rest']:.0f} us in the random players and the loop "
          f"(timed in place); apply() alone caps the engine at "
          f"{1e6 / ph['apply']:,.0f} rounds/s")
    print("apply() per action: " + ", ".join(
        f"{name[6:]} {ph[name]:.2f} us x {ph['per round ' + name[6:]]:.1f}"
        for name in sorted(ph) if name.startswith("apply ")))
    fl = floor_costs(random.Random(args.seed + 3))
    print(f"floor, measured alone: apply(seat, Pass()) {fl['pass']:.2f} us, Round.legal_plays "
          f"following a single ({fl['plays']:.0f} plays) {fl['follow']:.2f} us, an empty Python "
          f"call {fl['call']:.3f} us")
    print(f"legal-move generation: {per_call:.2f} us per Round.legal_plays call as rounds ask it "
          f"({calls / 300:.0f} calls per round), {uncached_cost(positions[:5000]):.2f} us "
          f"uncached (every cache of moves.py emptied before each call)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
