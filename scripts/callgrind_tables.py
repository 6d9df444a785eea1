#!/usr/bin/env python3
"""The server's instructions per accepted game action at tables of four machine-mode random bots
(the load of scripts/bench_tables.py), counted by valgrind's callgrind: a figure that does not
depend on what else the machine does, for comparing two checkouts and bisecting.

    .venv/bin/python scripts/callgrind_tables.py                         # this checkout
    .venv/bin/python scripts/callgrind_tables.py --tree ../wt-base       # another (its .venv)
    .venv/bin/python scripts/callgrind_tables.py --tables 1 --actions 100,600
    .venv/bin/python scripts/callgrind_tables.py --human --tables 8 --warmup 1000 --actions 200,800

For each of two action counts (``--actions A,B``) the lobby server of the tree (``python -m
protocol`` with bench_tables.py's SERVER_LIMITS, a temporary database, its deals seeded: every
table's random source is ``random.Random(42)``) runs under ``valgrind --tool=callgrind`` while
``--tables`` tables of bench_tables.py's TableBot (the tree's own, seeded) play until the
server has accepted that many game actions; then the server is stopped and callgrind's total is
read. Printed: both totals and (total B - total A) / (actions B - actions A), the instructions
of one action with the start, the log-ins and the stop taken out. The same seeds play the same
games, so a run gives the same figure to within about 0.3 % each time. The server is slowed
down some 50 times under callgrind, so its reads take several tables' lines at once: with many
tables the figure leaves out part of the per-read cost, ``--tables 1`` has none of it left out.

``--warmup N``: N actions are played first and callgrind's counters zeroed then
(``callgrind_control --zero``), so that what the first rounds do once (lazy imports, memos
filled) is not counted as the cost of the measured actions.

``--human``: the load of scripts/bench_human.py instead (the tree's own): at each table the opener
in machine mode (protocol 3) and the other three, or as many as ``--text-share`` says, in text
mode reading their screens, each thinking ``--think`` seconds (uniform, seeded) before a move;
the figure is the instructions per accepted move (the text players' screens are rendered, so
this is where text mode's cost shows).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: run as the server's main: every random source of the deal seeded, then `python -m protocol`
LAUNCH = """\
import random, runpy, secrets, sys
secrets.SystemRandom = random.SystemRandom = lambda *a, **k: random.Random(42)
sys.argv = ["protocol", *sys.argv[1:]]
runpy.run_module("protocol", run_name="__main__", alter_sys=True)
"""

#: one measurement, run with the tree's own Python: TREE TABLES ACTIONS OUT LAUNCH
LOAD = """\
import asyncio, os, random, signal, subprocess, sys, tempfile, time
from pathlib import Path
tree, tables, actions, out, launch = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), \\
    sys.argv[4], sys.argv[5]
human = tuple(map(float, sys.argv[6].split(","))) if sys.argv[6] != "-" else None
warmup = int(sys.argv[7])
sys.path[:0] = [str(tree), str(tree / "scripts")]
import bench_tables as bt
from loadgen import Target
work = Path(tempfile.mkdtemp(prefix="callgrind-tables"))
log = work / "server.log"
argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
        str(tree / ".venv/bin/python"), launch, "--db", str(work / "t.sqlite3"),
        "--port", "tcp:0:interface=127.0.0.1:backlog=4096",
        *(__import__("bench_human").SERVER_LIMITS if human else bt.SERVER_LIMITS)]
env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
proc = subprocess.Popen(argv, stdout=open(log, "w"), stderr=subprocess.STDOUT, env=env, cwd=work)
port = None
deadline = time.monotonic() + 600
while port is None:
    if proc.poll() is not None or time.monotonic() > deadline:
        sys.exit(log.read_text()[-3000:])
    for line in log.read_text().splitlines():
        if "listening on" in line:
            port = int(line.rstrip(")").rsplit(":", 1)[1])
    time.sleep(0.2)

async def zero_after(stats, field):
    # the warm-up's actions played (the start, the first rounds' lazy imports and memos):
    # callgrind counts from zero from here on
    while getattr(stats, field) < warmup:
        await asyncio.sleep(0.05)
    if warmup:
        subprocess.run(["callgrind_control", "--zero", str(proc.pid)], check=True,
                       capture_output=True)
        setattr(stats, field, warmup)      # (the actions counted from the zero on)

async def go():
    target = Target("127.0.0.1", port, 8)
    if human is not None:
        return await go_human(target)
    stats, rng = bt.Stats(), random.Random(1)
    groups = [await bt._set_up_table(target, "B0t", k, stats, rng) for k in range(tables)]
    bots = [b for g in groups for b in g]
    act = bt.TableBot.act
    bt.TableBot.act = lambda self: act(self) if stats.actions < warmup + actions else None
    for b in bots:
        b.playing = True
        b.events.clear()
    stats.measuring = True
    for g in groups:
        g[0]._send_game("/start", "start")
    await zero_after(stats, "actions")
    while stats.actions < warmup + actions:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)            # the actions in flight are answered
    for b in bots:
        b.playing = False
        b.conn.close()
    return stats.actions, stats.refused

async def go_human(target):
    import argparse
    import bench_human as bh
    opts = argparse.Namespace(text_share=human[0], think_range=human[1:])
    stats, rng = bh.Stats(), random.Random(1)
    groups = [await bh._set_up_table(target, "H0t", k, stats, rng, opts) for k in range(tables)]
    stats.measuring = True
    for g in groups:
        for p in g:
            p.playing = True
            p.lines.clear()
        g[0].consider()                   # the opener starts after a think time
    await zero_after(stats, "moves")
    while stats.moves < warmup + actions:
        await asyncio.sleep(0.05)
    players = [p for g in groups for p in g]
    for p in players:
        p.playing = False
    await asyncio.sleep(2.0)            # the moves in flight are answered
    for p in players:
        p.conn.close()
    return stats.moves, stats.server_refused + stats.misread

done, refused = asyncio.run(go())
time.sleep(1.0)
proc.send_signal(signal.SIGTERM)
proc.wait(600)
print(done, refused)
"""


def measure(tree: Path, tables: int, actions: int, workdir: Path,
            human: str | None = None, warmup: int = 0) -> tuple[int, int, int]:
    """(accepted actions, refused, instructions) of one server run (``human``: the text share
    and the think times, ``SHARE,MIN,MAX``, for bench_human's load)."""
    launch = workdir / "launch.py"
    launch.write_text(LAUNCH)
    load = workdir / "load.py"
    load.write_text(LOAD)
    out = workdir / f"callgrind.{tables}.{actions}.out"
    res = subprocess.run([str(tree / ".venv/bin/python"), str(load), str(tree), str(tables),
                          str(actions), str(out), str(launch), human or "-", str(warmup)],
                         capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise SystemExit(f"callgrind_tables: the run failed:\n{res.stdout}{res.stderr}")
    done, refused = map(int, res.stdout.split()[-2:])
    total = 0
    for line in out.read_text().splitlines():
        m = re.match(r"(?:summary|totals): (\d+)", line)
        if m:
            total = int(m.group(1))
    return done, refused, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=str(ROOT),
                        help="the checkout to measure (with its .venv; default: this one)")
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--actions", default="200,1200",
                        help="the two action counts whose difference is measured")
    parser.add_argument("--warmup", type=int, default=0,
                        help="actions played before callgrind counts (its counters are zeroed "
                             "then): the first rounds' lazy imports and memos left out")
    parser.add_argument("--human", action="store_true",
                        help="bench_human.py's players (text and machine mode) instead")
    parser.add_argument("--text-share", type=float, default=0.5,
                        help="with --human: the share of text-mode players (default 0.5)")
    parser.add_argument("--think", default="0.5,1.0",
                        help="with --human: think time MIN,MAX in seconds (default 0.5,1.0)")
    opts = parser.parse_args()
    a, b = (int(x) for x in opts.actions.split(","))
    tree = Path(opts.tree).resolve()
    human = f"{opts.text_share},{opts.think}" if opts.human else None
    with tempfile.TemporaryDirectory(prefix="callgrind-tables") as tmp:
        ra = measure(tree, opts.tables, a, Path(tmp), human, opts.warmup)
        rb = measure(tree, opts.tables, b, Path(tmp), human, opts.warmup)
    for done, refused, total in (ra, rb):
        print(f"{tree.name}: {opts.tables} tables, {done} actions ({refused} refused), "
              f"{total:,} instructions")
    print(f"{tree.name}: {(rb[2] - ra[2]) / max(1, rb[0] - ra[0]):,.0f} instructions per action")


if __name__ == "__main__":
    main()
