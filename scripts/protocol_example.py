#!/usr/bin/env python3
"""The machine-mode example of docs/protocol.md ("Machine mode", the ```jsonl block), made from a
real server's output.

    .venv/bin/python scripts/protocol_example.py            # print the transcript
    .venv/bin/python scripts/protocol_example.py --write    # and put it into docs/protocol.md

It starts the server (`python -m protocol` on a free loopback port, a temporary database), reads
the text greeting up to `login:` (not shown), then sends the example's lines one by one: each
after the reply to the one before (the object carrying its id) and, where the next line needs
it, a definite object after that reply (`room` after the log-in; the `update` to the exchange
phase before the schupf, to the play phase before the pass), never after a quiet time that a
busy machine stretches; what the bots do meanwhile is in the order it arrived. `>` is what the
client sent, `<` a line it read, exactly as it came. The client asks for the newest protocol (`%json N`, N =
protocol.render.json_lines.PROTOCOL_VERSION), as tichu_bot does. tests/wire/test_schema.py
checks the block against a new run.
"""
from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from protocol.render.json_lines import PROTOCOL_VERSION

DOC = ROOT / "docs" / "protocol.md"
#: what the example's client sends after `%json N` (ids added: `#cK `)
COMMANDS = ["Anna", "/newroom tichu", "/option seed 7", "/join 1", "/addbot random",
            "/addbot heuristic", "/addbot random", "/start", "nogrand", "schupf S2 SA S4",
            "pass", "%state", "/quit"]
#: the object read after a command's reply before the next line is sent, by command: the
#: log-in's room comes after its reply; the schupf waits for the exchange (all four have
#: declined the Grand Tichu, the bots after their pause), the pass for the play
THEN: dict[str, dict[str, str]] = {
    "Anna": {"type": "room"},
    "nogrand": {"type": "update", "phase": "exchange"},
    "schupf S2 SA S4": {"type": "update", "phase": "play"}}
#: seconds the example waits for any one line before it gives up
WAIT = 30


class Lines:
    """The lines of one socket, read with a deadline."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def next(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.rstrip(b"\r")


def transcript(port: int) -> list[str]:
    """The example run against the server on ``port``: its lines, `> ...` and `< ...`."""
    out: list[str] = []
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        text = b""
        while b"login:" not in text:               # the text greeting (telnet bytes and all)
            chunk = sock.recv(65536)
            if not chunk:
                raise SystemExit("the server closed the connection before login:")
            text += chunk
        lines = Lines(sock)

        def send(line: str) -> None:
            out.append(f"> {line}")
            sock.sendall(line.encode("utf-8") + b"\r\n")

        def read_until(done: Any) -> None:
            while True:
                raw = lines.next(WAIT)
                if raw is None:
                    raise SystemExit("no answer; so far:\n" + "\n".join(out))
                if not raw.startswith(b"{"):      # the end of the text greeting's line
                    continue
                out.append("< " + raw.decode("utf-8"))
                if done(json.loads(raw)):
                    break

        def having(fields: dict[str, str]) -> Any:
            return lambda obj: all(obj.get(k) == v for k, v in fields.items())

        send(f"%json {PROTOCOL_VERSION}")
        read_until(having({"type": "prompt"}))
        for number, command in enumerate(COMMANDS, 1):
            cid = f"c{number}"
            send(f"#{cid} {command}")
            read_until(lambda obj, cid=cid: obj.get("id") == cid)
            if command in THEN:
                read_until(having(THEN[command]))
    return out


def run() -> list[str]:
    """A server of its own, the example, the server stopped."""
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "protocol", "--port", "tcp:0:interface=127.0.0.1",
             "--db", str(Path(tmp) / "example.sqlite3"), "--motd", ""],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert server.stdout is not None
            for line in server.stdout:
                found = re.search(r"listening on \S+ \([\d.]+:(\d+)\)", line)
                if found:
                    return transcript(int(found.group(1)))
            raise SystemExit("the server did not start")
        finally:
            server.terminate()
            server.communicate(timeout=60)


def documented() -> list[str]:
    """The example block of docs/protocol.md, line by line."""
    section = DOC.read_text(encoding="utf-8").split("## Machine mode", 1)[1]
    return section.split("```jsonl\n", 1)[1].split("```", 1)[0].splitlines()


def write(lines: list[str]) -> None:
    doc = DOC.read_text(encoding="utf-8")
    head, _, section = doc.partition("## Machine mode")
    before, _, rest = section.partition("```jsonl\n")
    _, _, after = rest.partition("```")
    DOC.write_text(head + "## Machine mode" + before + "```jsonl\n" + "\n".join(lines) + "\n```"
                   + after, encoding="utf-8")


def main(argv: list[str]) -> int:
    lines = run()
    if "--write" in argv:
        write(lines)
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
