#!/usr/bin/env python3
"""The server's instructions per accepted game action in process (scripts/bench_table_action.py's
load: the whole server path minus the sockets), counted by valgrind's callgrind with the players'
own work left out: a figure that does not depend on the machine and is the same to the
instruction on every run, for comparing two checkouts within seconds.

    .venv/bin/python scripts/callgrind_actions.py                        # this checkout
    .venv/bin/python scripts/callgrind_actions.py --tree ../wt-base      # another (its .venv)
    .venv/bin/python scripts/callgrind_actions.py --text 2 --actions 400

How: bench_table_action.py's ``Bench`` (``--tables`` tables of four players, ``--text`` of each
table's seats in text mode, the `random` strategy deciding) plays ``--warmup`` actions and then
``--actions`` more, and the commands it sent are written down (the run with the players'
decisions: every random source seeded, so the same games every time). Then the tree's Python
runs under ``valgrind --tool=callgrind --instr-atstart=no`` and sends the same commands again
without deciding anything; callgrind counts only while the measured actions are sent
(``callgrind_control -i on``), so the count is the server's: the line received, the command,
the engine, the journal, the views, the rendering and the writes. Printed: the instructions
per accepted action. The same games are played only while the two trees answer alike.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: run with the tree's own Python: record|replay TREE TABLES TEXT WARMUP ACTIONS SCRIPT
RUN = """\
import json, os, random, secrets, subprocess, sys
mode, tree, tables, text, warmup, actions, script = sys.argv[1:8]
tables, text, warmup, actions = int(tables), int(text), int(warmup), int(actions)
# every random source of the deals seeded (the tables' SystemRandom too)
secrets.SystemRandom = random.SystemRandom = lambda *a, **k: random.Random(42)
sys.path[:0] = [tree, os.path.join(tree, "scripts")]
import bench_table_action as bta
bench = bta.Bench(tables, 1, text)

def send(player, command):
    prefix = "/" if player.text else "#a "
    player.session.dataReceived((prefix + command + "\\r\\n").encode("utf-8"))
    bench.turn()

if mode == "record":
    log = []

    def round_of_tables():
        accepted = 0
        for t, (table, players) in enumerate(bench.tables):
            if table.state != "playing":
                log.append([t, 0, None])
                players[0].send("#r /reset")
                players[0].send("#r /start")
                bench.turn()
                continue
            player, command = bench.decide(players)
            log.append([t, players.index(player), command])
            before = len(table.match.actions)
            send(player, command)
            accepted += len(table.match.actions) - before
        return accepted
    accepted = 0
    while accepted < warmup:
        accepted += round_of_tables()
    mark, accepted = len(log), 0
    while accepted < actions:
        accepted += round_of_tables()
    json.dump({"mark": mark, "log": log, "accepted": accepted}, open(script, "w"))
else:
    plan = json.load(open(script))
    def play(entries):
        for t, p, command in entries:
            table, players = bench.tables[t]
            if command is None:
                players[0].send("#r /reset")
                players[0].send("#r /start")
                bench.turn()
            else:
                send(players[p], command)
            for q in players:
                q.transport.view_lines.clear()     # (the player's reading is not measured)
    play(plan["log"][:plan["mark"]])
    pid = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
    play(plan["log"][plan["mark"]:])
    subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)
"""


def measure(tree: Path, tables: int, text: int, warmup: int, actions: int,
            workdir: Path) -> tuple[int, int]:
    """(accepted actions, instructions) of the measured actions."""
    run = workdir / "run.py"
    run.write_text(RUN)
    script = workdir / "plan.json"
    python = str(tree / ".venv/bin/python")
    args = [str(tree), str(tables), str(text), str(warmup), str(actions), str(script)]
    env = dict(os.environ, PYTHONHASHSEED="0")
    subprocess.run([python, str(run), "record", *args], check=True, env=env, cwd=workdir)
    out = workdir / "callgrind.out"
    subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                    f"--callgrind-out-file={out}", python, str(run), "replay", *args],
                   check=True, env=env, cwd=workdir, capture_output=True)
    import json
    accepted = int(json.loads(script.read_text())["accepted"])
    total = 0
    for line in out.read_text().splitlines():
        m = re.match(r"totals: (\d+)", line)
        if m:
            total = int(m.group(1))
    return accepted, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=str(ROOT),
                        help="the checkout to measure (with its .venv; default: this one)")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--text", type=int, default=0, choices=range(4),
                        help="text-mode players per table (default 0; the host is in machine "
                             "mode)")
    parser.add_argument("--warmup", type=int, default=300,
                        help="actions before the measured ones (default 300)")
    parser.add_argument("--actions", type=int, default=400,
                        help="the measured actions (default 400)")
    opts = parser.parse_args()
    tree = Path(opts.tree).resolve()
    with tempfile.TemporaryDirectory(prefix="callgrind-actions") as tmp:
        accepted, total = measure(tree, opts.tables, opts.text, opts.warmup, opts.actions,
                                  Path(tmp))
    print(f"{tree.name}: {opts.tables} tables, {opts.text} text players each, {accepted} "
          f"actions, {total:,} instructions, {total / max(1, accepted):,.0f} per action")


if __name__ == "__main__":
    sys.exit(main())
