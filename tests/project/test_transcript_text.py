"""The readable transcripts (tests/transcript_text.py) stand for their bytes exactly: any bytes
read back the same from their text, and a difference fails with the diff of the lines."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from transcript_text import check, raw, readable

#: bytes like a client's: text lines, telnet commands, colours, stray CR/LF, backslashes
PIECES = st.sampled_from([b"\r\n", b"\xff\xfb\xc9", b"\x1b[1m", b"\r", b"\n", b"\\", b"\\x41",
                          "é · ñ".encode(), b"\xff", b"\x00", b"plain words "])


@given(st.lists(PIECES | st.binary(max_size=8), max_size=30).map(b"".join))
def test_the_text_gives_the_very_bytes_back(data: bytes) -> None:
    text = readable(data)
    assert raw(text) == data
    assert "\r" not in text and all(c >= " " or c == "\n" for c in text)


def test_text_lines_stay_readable() -> None:
    assert readable(b"Table 1: ann R5, bob R7\r\nSpielstand: 0:0\r\n") == \
        "Table 1: ann R5, bob R7\nSpielstand: 0:0\n"
    assert readable(b"\xff\xfb\xc9\x1b[1mS2\x1b[0m") == "\\xff\\xfb\\xc9\\x1b[1mS2\\x1b[0m"


def test_a_difference_fails_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("one\ntwo\nthree\n", encoding="utf-8")
    check(path, b"one\r\ntwo\r\nthree\r\n")
    with pytest.raises(AssertionError) as failed:
        check(path, b"one\r\nTWO\r\nthree\r\n")
    assert "t.txt differs" in str(failed.value)
    assert "\n-two\n+TWO\n" in str(failed.value)
