"""Readable transcripts: the bytes a client received as a text file beside the digest that pins
them (tests/transcripts/), so that a change shows as a diff of lines.

`readable(data)` writes each CRLF-ended line as one text line (UTF-8 text as it is); a backslash,
a control character (ESC of a colour, a lone CR or LF, telnet's IAC bytes...) and a byte that is
no UTF-8 are written as ``\\\\`` and ``\\xNN``. `raw(text)` gives the very bytes back, so a
digest is derived from the file: `digest(path)`. `check(path, data)` asserts the bytes read as
the file (a failure shows the unified diff of the lines, its first `DIFF_LINES` lines); with
``TRANSCRIPTS_WRITE=1`` in the environment it writes the file instead (after an intended change:
review the diff in git).
"""
from __future__ import annotations

import difflib
import hashlib
import itertools
import os
import re
from pathlib import Path

__all__ = ["TRANSCRIPTS", "check", "digest", "raw", "readable"]

#: the most lines of a difference shown
DIFF_LINES = 80
#: where the transcripts are kept
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"

_ESCAPED = re.compile(r"[\\\x00-\x1f\x7f\udc80-\udcff]")
_ESCAPE = re.compile(r"\\(\\|x[0-9a-f]{2})")


def _escape(match: re.Match[str]) -> str:
    c = match.group()
    if c == "\\":
        return "\\\\"
    code = ord(c)
    return f"\\x{code - 0xDC00 if code >= 0xDC80 else code:02x}"


def readable(data: bytes) -> str:
    """The bytes as text lines (see the module doc); `raw` is its inverse."""
    return "\n".join(_ESCAPED.sub(_escape, line.decode("utf-8", "surrogateescape"))
                     for line in data.split(b"\r\n"))


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if code == "\\":
        return "\\"
    n = int(code[1:], 16)
    return chr(n if n < 0x80 else 0xDC00 + n)


def raw(text: str) -> bytes:
    """The bytes a readable transcript stands for."""
    return b"\r\n".join(_ESCAPE.sub(_unescape, line).encode("utf-8", "surrogateescape")
                        for line in text.split("\n"))


def _read(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def digest(path: Path) -> str:
    """The sha256 of the bytes the transcript at `path` stands for."""
    return hashlib.sha256(raw(_read(path))).hexdigest()


def check(path: Path, data: bytes) -> None:
    """Assert that `data` reads as the transcript at `path` (or write it: TRANSCRIPTS_WRITE=1)."""
    got = readable(data)
    if os.environ.get("TRANSCRIPTS_WRITE"):
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(got)
    assert path.exists(), f"no transcript {path.name}: write it with TRANSCRIPTS_WRITE=1"
    want = _read(path)
    if got != want:
        diff = difflib.unified_diff(want.split("\n"), got.split("\n"), f"{path.name} (kept)",
                                    f"{path.name} (received)", lineterm="")
        shown = list(itertools.islice(diff, DIFF_LINES))
        raise AssertionError(f"{path.name} differs:\n" + "\n".join(shown))
