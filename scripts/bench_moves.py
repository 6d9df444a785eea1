#!/usr/bin/env python3
"""Micro-benchmark of the move generator (lobby/tichu/moves.py).

1. Isolated calls: microseconds per legal_plays call on random 14-card hands, leading and
   following a random play, each hand seen for the first time (nothing cached).
2. Random rounds: four random 14-card hands played out by random players (a random legal play,
   uniformly among the legal plays and the pass when allowed, as a random bot choosing among a
   round's legal actions would; wish, Dog and Dragon handled simply); the time spent
   in legal_plays / can_pass / check_play per round and per call, as a round would ask them.
   Run twice: with the engine as it is, and with its per-hand index and answer cache switched
   off (plain generation from the hand each call; follows are generated from the hand in both
   runs): the baseline measured in the same run.
Run: .venv/bin/python scripts/bench_moves.py [--hands N] [--rounds N]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lobby.tichu import (
    DECK,
    MAHJONG_BIT,
    can_pass,
    cards_mask,
    check_play,
    clear_move_caches,
    legal_plays,
    moves,
)


def fresh_caches() -> None:
    clear_move_caches()


def isolated(n: int, seed: int) -> None:
    rng = random.Random(seed)
    leading, following = [], []
    for _ in range(n):
        deck = list(DECK)
        rng.shuffle(deck)
        hand, other = cards_mask(deck[:14]), cards_mask(deck[14:28])
        leading.append((hand, []))
        following.append((hand, [rng.choice(legal_plays(other, [], None))]))
    for name, cases in (("leading", leading), ("following", following)):
        best = float("inf")
        count = 0
        for _ in range(3):
            start = time.perf_counter()
            for hand, trick in cases:
                fresh_caches()
                count = len(legal_plays(hand, trick, None))
            best = min(best, time.perf_counter() - start)
        plays = sum(len(legal_plays(h, t, None)) for h, t in cases) / len(cases)
        print(f"isolated {name:9}: {best / len(cases) * 1e6:7.1f} us/call "
              f"({plays:.1f} plays on average, {len(cases)} hands, first sight)")
        del count


def key_of(play: object) -> int:
    return play.key  # type: ignore[attr-defined]


def play_round(rng: random.Random, stats: list[float]) -> None:
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [cards_mask(deck[i * 14:(i + 1) * 14]) for i in range(4)]
    turn = next(s for s in range(4) if hands[s] & MAHJONG_BIT)
    trick: list = []
    holder = turn
    passes = 0
    wish = None
    out = 0
    clock = time.perf_counter
    while True:
        if not hands[turn]:
            turn = (turn + 1) & 3
            continue
        t0 = clock()
        plays = legal_plays(hands[turn], trick, wish)
        may_pass = can_pass(hands[turn], trick, wish)
        stats[0] += clock() - t0
        stats[1] += 2
        plays.sort(key=key_of)             # the same game whatever order the plays come in
        if trick and may_pass and rng.randrange(len(plays) + 1) == len(plays):
            passes += 1
        else:
            play = plays[rng.randrange(len(plays))]
            t0 = clock()
            check_play(hands[turn], trick, wish, play.cards, play.phoenix_as)
            stats[0] += clock() - t0
            stats[1] += 1
            hands[turn] &= ~play.mask
            if wish is not None and play.mask & (0xF << ((wish - 2) * 4)):
                wish = None
            if play.mask & MAHJONG_BIT:
                wish = rng.choice([None, *range(2, 15)])
            if play.kind == "dog":
                trick, holder, passes = [], (turn + 2) & 3, 0
                turn = holder
                if sum(1 for h in hands if h) <= 1:
                    break
                continue
            trick.append(play)
            holder, passes = turn, 0
            if not hands[turn]:
                out += 1
        if sum(1 for h in hands if h) <= 1:
            break
        active = sum(1 for s in range(4) if hands[s] and s != holder)
        if trick and passes >= active:
            trick, passes = [], 0
            turn = holder
            continue
        turn = (turn + 1) & 3


def rounds(n: int, seed: int, label: str) -> float:
    rng = random.Random(seed)
    stats = [0.0, 0]
    for _ in range(n):
        play_round(rng, stats)
    per_round = stats[0] / n * 1e6
    print(f"rounds {label:9}: {per_round:7.1f} us of move questions per round, "
          f"{stats[0] / stats[1] * 1e6:5.2f} us per question ({stats[1] / n:.0f} questions a round)")
    return per_round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    isolated(args.hands, args.seed)
    fresh_caches()
    engine = rounds(args.rounds, args.seed, "engine")
    answer, index = moves._answer, moves._generate
    try:
        moves._generate = moves._generate_direct          # no per-hand index
        moves._answer = moves._compute_answer              # no answer cache
        baseline = rounds(args.rounds, args.seed, "baseline")
    finally:
        moves._answer, moves._generate = answer, index
    print(f"ratio: the engine answers a round's move questions {baseline / engine:.1f}x faster "
          f"than plain generation")


if __name__ == "__main__":
    main()
