#!/usr/bin/env python3
"""A raw-socket fuzzer for the lobby server.

Many connections send random bytes, telnet sequences (negotiations, subnegotiations left open,
lone IACs), overlong lines, invalid UTF-8, other protocols' first bytes (HTTP, TLS, SSH) and
valid-looking commands with broken arguments, before and after logging in. Afterwards a normal
client must still log in and get its answer, and the server's log must hold no traceback (and a
self-started server must stop cleanly on SIGTERM).

    .venv/bin/python scripts/fuzz.py                       # self-started server, 20,000 lines
    .venv/bin/python scripts/fuzz.py --long                # 1,000,000 lines
    .venv/bin/python scripts/fuzz.py --port 4000 --server-log lobby.log --seconds 60

Without ``--port`` it starts ``python -m protocol`` on a free loopback port with a temporary
database and the default limits, except ``--flood-rate 0`` (so that every fuzzed line reaches
the parser instead of being dropped by flood control; ``--flood`` keeps the default flood
control) and ``--login-failure-delay 0``. The last line printed is a JSON summary; the exit
status is 0 when nothing broke. Bounded by ``--lines`` and ``--seconds`` (whichever comes first).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LONG_LINES = 1_000_000
IAC, DONT, DO, WONT, WILL, SB, SE, GA, NOP = 255, 254, 253, 252, 251, 250, 240, 249, 241
#: what a log line of trouble looks like (twisted.logger's text format: "[namespace#level]")
BAD_LOG = re.compile(r"Traceback|Unhandled error|#critical\]|#error\]")

COMMANDS = ["who", "wwho", "tell", "finger", "help", "newroom", "room", "manager", "listroom",
            "whereis", "set", "join", "leave", "start", "spielinfo", "reset", "option", "remove",
            "accept", "refuse", "grand", "nogrand", "tichu", "schupf", "play", "pass", "bomb",
            "wish", "dragon", "addbot", "removebot", "add", "sub", "showlist", "kick", "ban",
            "unban", "bmute", "announce", "shutdown", "role", "iset", "history", "replay",
            "rangliste", "xyzzy", "", "register", "password"]
ARGS = ["", "0", "1", "4", "5", "-1", "99999999999999999999", "mute", "Bob", "Guest1234", "S2",
        "Ph=7", "Ma wish 8", "R10 G10", "left", "right", "on", "off", "json 1", "json 0",
        "seed 5", "target -3", "round 0", "tichujoin", "help", "none", "A", "%s", "{}", "{0}",
        "{name}", "\\x00", "'; DROP TABLE accounts;--", "ä€𝄞", "\u202e", "\u200b", "🂡",
        "a" * 300, "#1", "#", "##", "/", ";", "1.5e308", "nan", "None", "null", "[]",
        "²", "٣", "１２", "⁴", "0x10", "+3", " 7"]


class Generator:
    """The inputs: each ``line()`` is one line's bytes, line end included."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.kinds = [self.command] * 6 + [self.random_bytes, self.telnet, self.overlong,
                                          self.bad_utf8, self.speech, self.machine_id,
                                          self.json_line]

    def line(self) -> bytes:
        return self.rng.choice(self.kinds)()

    def end(self) -> bytes:
        return self.rng.choice([b"\r\n", b"\n", b"\r", b"\r\x00", b"\n\r"])

    def command(self) -> bytes:
        rng = self.rng
        word = rng.choice(COMMANDS)
        if word and rng.random() < 0.2:
            word = word[:rng.randint(1, len(word))]          # prefixes, ambiguous ones too
        args = " ".join(rng.choice(ARGS) for _ in range(rng.randint(0, 4)))
        slash = "/" if rng.random() < 0.8 else ""
        text = f"{slash}{word} {args}" if args else f"{slash}{word}"
        if text.strip().lower().lstrip("/").startswith(("q", "e")) and rng.random() < 0.9:
            text = "/who"                    # /quit and /exit are rare (they end the connection)
        return text.encode("utf-8", "surrogatepass") + self.end()

    def random_bytes(self) -> bytes:
        return bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(1, 200))) + self.end()

    def telnet(self) -> bytes:
        rng = self.rng
        parts: list[bytes] = []
        for _ in range(rng.randint(1, 8)):
            choice = rng.random()
            if choice < 0.4:
                parts.append(bytes((IAC, rng.choice((DO, DONT, WILL, WONT)), rng.randrange(256))))
            elif choice < 0.6:
                body = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 40)))
                parts.append(bytes((IAC, SB, rng.choice((201, 24, 31, rng.randrange(256)))))
                             + body + (bytes((IAC, SE)) if rng.random() < 0.8 else b""))
            elif choice < 0.7:
                parts.append(bytes((IAC, rng.choice((GA, NOP, 247, 248, 244, IAC)))))
            elif choice < 0.8:                      # GMCP: agree to it, then a message
                package = rng.choice(["Core.Hello", "Core.Supports.Set", "Core.Supports.Add",
                                      "Core.Supports.Remove", "Char.Login", "core.supports.set",
                                      "Tichu.Play", ""])
                body = rng.choice(['{"client": "fuzz", "version": "1"}', '["Char 1", "Room ²"]',
                                   '["Tichu ٣", 7, null]', '["Room 99999999999999999999"]',
                                   '{"a": [[[[]]]]}', "[", "null", '"x"', "1e999", ""])
                parts.append(bytes((IAC, DO, 201, IAC, SB, 201))
                             + f"{package} {body}".encode() + bytes((IAC, SE)))
            else:
                parts.append(b"who")
        return b"".join(parts) + bytes((IAC, SE)) + self.end()

    def overlong(self) -> bytes:
        return b"/say " + b"x" * self.rng.randint(1000, 6000) + self.end()

    def bad_utf8(self) -> bytes:
        rng = self.rng
        junk = rng.choice([b"\xc3", b"\xe2\x82", b"\xf0\x9f\x82", b"\xed\xa0\x80", b"\xc0\xaf",
                           b"\xff\xfe", b"\x80\x80", b"\xf8\x88\x80\x80\x80"])
        return rng.choice([b"/tell Bob ", b"", b"/play ", b"/finger "]) + junk * rng.randint(1, 5) \
            + self.end()

    def speech(self) -> bytes:
        text = "".join(chr(self.rng.choice((self.rng.randrange(32, 127),
                                            self.rng.randrange(0xa0, 0x3000))))
                       for _ in range(self.rng.randint(1, 60)))
        return text.encode("utf-8") + self.end()

    def machine_id(self) -> bytes:
        rng = self.rng
        ident = rng.choice(["1", "abc", "x" * 40, "", "#", "ä", "a b"])
        return f"#{ident} {rng.choice(COMMANDS)} {rng.choice(ARGS)}".encode() + self.end()

    def json_line(self) -> bytes:
        return self.rng.choice([b"%json", b"{\"cmd\": \"who\"}", b"[1,2", b"null"]) + self.end()


def first_bytes(rng: random.Random) -> bytes:
    """How a connection starts: mostly a login, sometimes another protocol or junk."""
    r = rng.random()
    if r < 0.55:
        return rng.choice([b"guest\r\n", b"%json\r\nguest\r\n", b"Fuzz%d\r\n" % rng.randrange(10**6)])
    if r < 0.65:
        return rng.choice([b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"SSH-2.0-Fuzz\r\n",
                           b"\x16\x03\x01\x00\x50\x01\x00\x00\x4c\x03\x03" + bytes(70),
                           b"POST /x HTTP/1.0\r\n\r\n"])
    return b""                            # straight into the junk, not logged in


class Stats:
    def __init__(self) -> None:
        self.lines = 0
        self.bytes = 0
        self.connections = 0
        self.closed_by_server = 0
        self.received = 0


async def reader(stream: asyncio.StreamReader, stats: Stats) -> None:
    try:
        while True:
            data = await stream.read(65536)
            if not data:
                return
            stats.received += len(data)
    except (ConnectionError, OSError):
        return


async def fuzz_connection(host: str, port: int, gen: Generator, rng: random.Random, stats: Stats,
                          budget: dict[str, float]) -> None:
    """One connection after the other until the budget is spent."""
    while stats.lines < budget["lines"] and time.monotonic() < budget["until"]:
        try:
            r, w = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        stats.connections += 1
        task = asyncio.create_task(reader(r, stats))
        try:
            start = first_bytes(rng)
            if start:
                w.write(start)
            lines_here = rng.choice([5, 50, 500, 5000])
            sent = 0
            while (sent < lines_here and stats.lines < budget["lines"]
                   and time.monotonic() < budget["until"]):
                batch = b"".join(gen.line() for _ in range(50))
                w.write(batch)
                sent += 50
                stats.lines += 50
                stats.bytes += len(batch)
                await asyncio.wait_for(w.drain(), 10)
                if task.done():
                    stats.closed_by_server += 1
                    break
        except (TimeoutError, ConnectionError, OSError):
            stats.closed_by_server += 1
        finally:
            w.close()
            try:
                await asyncio.wait_for(w.wait_closed(), 2)
            except (TimeoutError, ConnectionError, OSError):
                pass
            task.cancel()


async def normal_client(host: str, port: int) -> str:
    """Log in as a guest and ask /who; returns the answer line ("" when none came)."""
    r, w = await asyncio.wait_for(asyncio.open_connection(host, port), 10)
    try:
        buf = b""
        async def until(marker: bytes) -> bytes:
            nonlocal buf
            while marker not in buf:
                data = await asyncio.wait_for(r.read(65536), 10)
                if not data:
                    raise ConnectionError("closed")
                buf += data
            head, _, buf = buf.partition(marker)
            return head
        await until(b"login: ")
        w.write(b"FuzzCheck\r\n")
        await until(b"or type another name: ")   # an unregistered name: Enter confirms it
        w.write(b"\r\n")
        await until(b"/help for the commands.\r\n")
        w.write(b"/whereis FuzzCheck\r\n")
        return (await until(b"\r\n")).decode("utf-8", "replace").strip()
    finally:
        w.close()


def start_server(workdir: Path, flood: bool) -> tuple[subprocess.Popen[bytes], int, Path]:
    log = workdir / "server.log"
    argv = [sys.executable, "-m", "protocol", "--db", str(workdir / "fuzz.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1", "--login-failure-delay", "0"]
    if not flood:
        argv += ["--flood-rate", "0"]
    out = open(log, "wb")  # noqa: SIM115 (the child's log: open while it runs)
    proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        m = re.search(r"listening on \S+ \(127\.0\.0\.1:(\d+)\)", log.read_text(errors="replace"))
        if m:
            return proc, int(m.group(1)), log
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"fuzz: the server did not start:\n{log.read_text(errors='replace')[-2000:]}")


def trouble_signatures(log_text: str) -> dict[str, int]:
    """Each traceback of the log as "file:line in function: exception" (its innermost frame of
    this project), with how often it occurred."""
    found: dict[str, int] = {}
    lines = log_text.splitlines()
    for i, line in enumerate(lines):
        if not BAD_LOG.search(line) or line.startswith("\t"):
            continue
        frame, error = "", line.strip()[:120]
        for follow in lines[i + 1:i + 80]:
            if not follow.startswith("\t"):
                break
            m = re.match(r'\s*File "(.+)", line (\d+), in (\S+)', follow)
            if m and "site-packages" not in m.group(1):
                frame = f"{Path(m.group(1)).name}:{m.group(2)} in {m.group(3)}"
            elif follow.strip() and not follow.startswith("\t "):
                error = follow.strip()
        key = f"{frame}: {error}" if frame else error
        found[key] = found.get(key, 0) + 1
    return found


async def run(opts: argparse.Namespace, port: int) -> tuple[Stats, float, str]:
    rng = random.Random(opts.seed)
    stats = Stats()
    budget = {"lines": float(opts.lines), "until": time.monotonic() + opts.seconds}
    start = time.monotonic()
    workers = [fuzz_connection(opts.host, port, Generator(random.Random(rng.random())),
                               random.Random(rng.random()), stats, budget)
               for _ in range(opts.connections)]
    await asyncio.gather(*workers)
    elapsed = time.monotonic() - start
    try:
        answer = await normal_client(opts.host, port)
    except (TimeoutError, OSError, ConnectionError) as e:
        answer = f"(no answer: {e!r})"
    return stats, elapsed, answer


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, help="a running server (default: start one)")
    p.add_argument("--server-log", help="the running server's log file, checked for tracebacks")
    p.add_argument("--lines", type=int, default=20_000, help="inputs to send (default 20,000)")
    p.add_argument("--seconds", type=float, default=120.0, help="time limit (default 120)")
    p.add_argument("--long", action="store_true", help=f"{LONG_LINES:,} lines, one hour at most")
    p.add_argument("--connections", type=int, default=20, help="concurrent connections")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep-log", metavar="FILE", help="copy the self-started server's log here")
    p.add_argument("--flood", action="store_true",
                   help="self-started server: keep flood control on (lines get dropped)")
    opts = p.parse_args(argv)
    if opts.long:
        opts.lines, opts.seconds = max(opts.lines, LONG_LINES), max(opts.seconds, 3600.0)

    proc = None
    tmp = tempfile.TemporaryDirectory(prefix="tichu-fuzz-")
    log_path = Path(opts.server_log) if opts.server_log else None
    log_offset = log_path.stat().st_size if log_path and log_path.exists() else 0
    if opts.port is None:
        proc, port, log_path = start_server(Path(tmp.name), opts.flood)
    else:
        port = opts.port
    try:
        stats, elapsed, answer = asyncio.run(run(opts, port))
    finally:
        exit_code = None
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            try:
                exit_code = proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                exit_code = -9
    log_text = ""
    if log_path is not None and log_path.exists():
        with open(log_path, "rb") as f:
            f.seek(log_offset)
            log_text = f.read().decode("utf-8", "replace")
    if opts.keep_log:
        Path(opts.keep_log).write_text(log_text, encoding="utf-8")
    bad = [line for line in log_text.splitlines() if BAD_LOG.search(line)]
    problems = trouble_signatures(log_text)
    answered = answer.startswith("FuzzCheck is in")
    ok = answered and not bad and exit_code in (None, 0)
    summary = {
        "lines": stats.lines, "bytes": stats.bytes, "connections": stats.connections,
        "closed_by_server": stats.closed_by_server, "bytes_received": stats.received,
        "seconds": round(elapsed, 1),
        "lines_per_s": round(stats.lines / elapsed) if elapsed else 0,
        "normal_client_answer": answer, "log_lines_checked": len(log_text.splitlines()),
        "bad_log_lines": bad[:10], "problems": problems, "server_exit_code": exit_code,
        "ok": ok,
    }
    tmp.cleanup()
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
