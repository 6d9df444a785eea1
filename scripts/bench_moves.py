#!/usr/bin/env python3
"""Micro-benchmark of the move generator: microseconds per legal_plays call.

Random 14-card hands (fixed seed), leading and following a random play of another hand, with the
answer cache cleared before each call ("cold": the real cost of generating) and without ("warm":
the same question asked again, as a round does for the view, legal actions and the check).
Run: .venv/bin/python scripts/bench_moves.py [--hands N]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lobby.tichu import DECK, legal_plays  # noqa: E402
from lobby.tichu import moves  # noqa: E402


def situations(n: int, seed: int) -> tuple[list, list]:
    rng = random.Random(seed)
    leading, following = [], []
    for _ in range(n):
        deck = list(DECK)
        rng.shuffle(deck)
        hand, other = deck[:14], deck[14:28]
        leading.append((hand, []))
        plays = legal_plays(other, [], None)
        following.append((hand, [rng.choice(plays)]))
    return leading, following


def per_call(cases: list, cold: bool, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for hand, trick in cases:
            if cold:
                moves._ANSWERS.clear()
            legal_plays(hand, trick, None)
        best = min(best, time.perf_counter() - start)
    return best / len(cases) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    leading, following = situations(args.hands, args.seed)
    n_lead = sum(len(legal_plays(h, t, None)) for h, t in leading) / len(leading)
    n_follow = sum(len(legal_plays(h, t, None)) for h, t in following) / len(following)
    for name, cases, n in (("leading", leading, n_lead), ("following", following, n_follow)):
        cold = per_call(cases, True, 3)
        warm = per_call(cases, False, 3)
        print(f"{name:9}: {cold:7.1f} us/call cold, {warm:5.2f} us/call cached "
              f"({n:.1f} plays on average, {args.hands} hands)")
    # the baseline in the same run: classifying one 5-card play, to compare machines
    five = leading[0][0][:5]
    from lobby.tichu.combos import _compute_readings
    from lobby.tichu.cards import cards_mask
    m = cards_mask(five)
    start = time.perf_counter()
    for _ in range(20000):
        _compute_readings(m)
    print(f"baseline : {(time.perf_counter() - start) / 20000 * 1e6:7.2f} us per uncached classification")


if __name__ == "__main__":
    main()
