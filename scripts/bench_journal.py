#!/usr/bin/env python3
"""In-process benchmark of the action journal alone (lobby/storage/journal.py): the CPU per journaled
action on a real SQLite file, the thread path (every transaction handed to the store's worker
thread) against the inline path (the reactor thread's own connection).

Runs on the real asyncio reactor with ``Store.threaded`` on a temporary file, as the server does.
``--tables`` tables are started, then ``--actions`` journal entries (an action's entry, as
``record_action`` writes it) are written, each followed by ``send`` of its "events" (a no-op
callback that the outbox holds until the commit):

- ``--pace turns``: each action in a reactor turn of its own, the next one as soon as the
  previous one's events left (human pace without the idle time: every action its own
  transaction, unless the interval groups them);
- ``--pace R`` (a number): R actions per second on a timer, round robin over the tables (the
  reactor sleeps in between, as at human pace).

Measured: ``time.process_time()`` of the whole process (the reactor and the store's thread)
from the first action to the last release, divided by the actions; best (lowest) and median of
``--passes`` passes, each on a fresh file. CPU time, never wall-clock: the machine may be
shared, so the figures are indicative. Also printed: transactions per path and checkpoints.

    .venv/bin/python scripts/bench_journal.py                       # both paths, turns
    .venv/bin/python scripts/bench_journal.py --pace 500 --actions 2000 --interval 0.005
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from twisted.internet import asyncioreactor

asyncioreactor.install()
from twisted.internet import defer, reactor

from lobby.storage.journal import Journal
from lobby.storage.store import Store
from lobby.tichu import (
    Match,
    Pass,
)

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


async def one_pass(path: str, inline: bool, opts: argparse.Namespace) -> dict[str, Any]:
    store = Store.threaded(path, reactor)
    await store.open()
    journal = Journal(store, reactor, inline=inline, interval=opts.interval)
    head = Match(seed=1).record()
    for t in range(1, opts.tables + 1):
        journal.start_table(t, options={}, players=PLAYERS, head=head, extra={"host": "Ann"})
    await journal.flush()
    seqs = [0] * (opts.tables + 1)
    done: defer.Deferred[None] = defer.Deferred()
    released = [0]
    action = Pass()

    def released_one() -> None:
        released[0] += 1
        if released[0] == opts.actions:
            done.callback(None)
        elif opts.pace == "turns":
            reactor.callLater(0, act, released[0])

    def act(i: int) -> None:
        t = i % opts.tables + 1
        seqs[t] += 1
        journal.record_action(t, seqs[t], i % 4, action)
        journal.send(t, released_one)

    def timed(i: int) -> None:
        act(i)
        if i + 1 < opts.actions:        # the next one on the timer, whatever was released
            reactor.callLater(max(0.0, start + (i + 1) * gap - reactor.seconds()), timed, i + 1)

    cpu = time.process_time()
    start = reactor.seconds()
    gap = 0.0 if opts.pace == "turns" else 1.0 / float(opts.pace)
    if opts.pace == "turns":
        act(0)
    else:
        timed(0)
    await done
    cpu = time.process_time() - cpu
    figures = {"us": cpu / opts.actions * 1e6, "inline": journal.inline_transactions,
               "thread": journal.thread_transactions, "locked": journal.locked_fallbacks,
               "checkpoints": journal.checkpoints}
    await store.close()
    return figures


async def main(opts: argparse.Namespace) -> None:
    paths = {"thread": False, "inline": True}
    chosen = list(paths) if opts.path == "both" else [opts.path]
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in chosen}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(opts.passes):
            for name in chosen:            # alternating, so both see the same machine
                path = str(Path(tmp) / f"{name}{n}.sqlite3")
                results[name].append(await one_pass(path, paths[name], opts))
    print(f"{opts.actions} actions over {opts.tables} tables, pace {opts.pace}, interval "
          f"{opts.interval:g} s, {opts.passes} passes (load average "
          f"{os.getloadavg()[0]:.2f})")
    for name, runs in results.items():
        us = sorted(r["us"] for r in runs)
        last = runs[-1]
        print(f"  {name:6}: best {us[0]:6.1f} µs CPU per action, median "
              f"{statistics.median(us):6.1f} (passes: {', '.join(f'{u:.1f}' for u in us)}); "
              f"transactions inline {last['inline']}, thread {last['thread']} (locked "
              f"{last['locked']}), checkpoints {last['checkpoints']}")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", choices=("both", "thread", "inline"), default="both")
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--pace", default="turns",
                        help="'turns' (each action its own reactor turn, back to back) or "
                             "actions per second (default turns)")
    parser.add_argument("--interval", type=float, default=0.0,
                        help="the journal's interval in seconds (default 0)")
    opts = parser.parse_args(argv)
    if opts.pace != "turns":
        float(opts.pace)
    return opts


if __name__ == "__main__":
    options = parse()

    def run() -> defer.Deferred[None]:
        d = defer.ensureDeferred(main(options))
        d.addErrback(lambda f: (f.printTraceback(), None))
        d.addBoth(lambda _: reactor.stop())
        return d

    reactor.callWhenRunning(run)
    reactor.run()
