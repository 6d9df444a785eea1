#!/usr/bin/env python3
"""Refused connects, as an attacker makes them (issue 23, A9): what one refusal costs the server.

    .venv/bin/python scripts/bench_refused_connects.py --seconds 5

A server process with the public defaults and ``--limit-loopback`` (so the per-address limits
hold for 127.0.0.4, the attacker). The attacker holds ``--max-per-ip`` (8) connections, then
connects again and again from the same address with ``--parallel`` sockets at once, each
closed as soon as the server closed it. Printed: refused connects per second, the server's CPU
over the same time, refused connects per CPU second of the server (the cost of one refusal),
how many of them got a ``! [code]`` line, and the server's log lines during the run.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
for path in (ROOT, SCRIPTS):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
from bench_server import Server
from loadgen import cpu_seconds

ATTACKER = "127.0.0.4"


async def _connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))


async def attack(port: int, seconds: float, parallel: int) -> dict[str, int]:
    held = [await _connect(port) for _ in range(8)]      # the address's --max-per-ip
    for reader, _ in held:
        await reader.readuntil(b"login: ")
    counts = {"refused": 0, "with_line": 0, "errors": 0}
    end = time.monotonic() + seconds

    async def loop() -> None:
        while time.monotonic() < end:
            try:
                reader, writer = await _connect(port)
                data = await reader.read(4096)
                while data and not data.endswith(b"\n"):
                    more = await reader.read(4096)
                    if not more:
                        break
                    data += more
                rest = await reader.read(4096)
                writer.close()
                counts["refused"] += 1
                if b"! [" in data + rest:
                    counts["with_line"] += 1
            except OSError:
                counts["errors"] += 1
                await asyncio.sleep(0.001)

    await asyncio.gather(*(loop() for _ in range(parallel)))
    for _, writer in held:
        writer.close()
    return counts


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--parallel", type=int, default=16, help="sockets connecting at once")
    p.add_argument("--server-args", nargs=argparse.REMAINDER, default=[],
                   help="more options of the server (last)")
    opts = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        server = Server([sys.executable, "-m", "protocol", "--db", str(Path(tmp) / "db.sqlite3"),
                         "--port", "tcp:0:interface=127.0.0.1", "--limit-loopback",
                         *opts.server_args], log, cpu=None, nofile=0, cwd=ROOT)
        try:
            time.sleep(0.5)
            lines0 = len(log.read_text(errors="replace").splitlines())
            cpu0, t0 = cpu_seconds(server.pid), time.monotonic()
            counts = asyncio.run(attack(server.port, opts.seconds, opts.parallel))
            cpu = cpu_seconds(server.pid) - cpu0
            wall = time.monotonic() - t0
            lines = len(log.read_text(errors="replace").splitlines()) - lines0
        finally:
            server.stop()
    print(f"{counts['refused']} refused connects in {wall:.1f} s ({counts['refused'] / wall:.0f}/s), "
          f"{counts['with_line']} with a ! [code] line, {counts['errors']} connect errors")
    print(f"server CPU {cpu:.2f} s ({cpu / wall:.2f} of a core): "
          f"{counts['refused'] / cpu if cpu > 0 else float('inf'):.0f} refused connects per CPU "
          f"second; {lines} log lines")


if __name__ == "__main__":
    main()
