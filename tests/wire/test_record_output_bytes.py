"""Every byte a text-mode client receives from /history, /replay, /rangliste and /finger, pinned
by its sha256, over stored games of every kind (rated, turnier with changing seats, with a bot
and a guest, /startnosave).

The digests of /history, /rangliste and /finger were computed from the code before the records
became data (lobby/storage/records.py rendered them then); those of /replay after its game events were
rendered by the table view's formatters and its lines indented alike. Changed on purpose for
issue 14 (any terminal width): the /history lines and the /replay head line longer than 80
columns are wrapped at 80 with a two-space hanging indent; nothing else changed. Changed on
purpose for issue 24 (fair play): /finger of a registered player with games has the leaver's
count line `left N of M games started`.

The renderers of the records (protocol/render/records.py) may be restructured, but a person's
screen must not change by a byte unless the change is meant. If it is, run this file with
TRANSCRIPTS_WRITE=1 to write each reply's readable transcript
(tests/transcripts/records-COMMAND.txt, tests/transcript_text.py), review the diff in git, and
update EXPECTED (each digest is derived from its transcript and checked equal to it); a failing
test shows the diff of the lines. RECORD_OUTPUT_DUMP=DIR writes the raw bytes to DIR.
(Changed on purpose for issue 26: no line fills the last column, so /history's and
/replay 3's lines of exactly 80 columns wrap at 79; compared, nothing else changed. For
issue 14: "1 round", not "1 rounds"; a wish names the rank as a word, "wishes for an Ace",
not "a A"; the transcripts were compared, nothing else changed. For issue 26 again: a team
is written `Alice+Carol` and a score `20 : -220` in /history and /replay as on every other line
(`&` and `20:-220` before); compared line by line, nothing else changed. For issue 26, outside
finding U14: /replay's seats line joins each seat's number and name with a no-break space
(U+00A0, looks like a space), so a narrow screen never parts them; nothing else changed.)
Issue 26's outside finding #6 (tenth session): a play line writes the Phoenix's reading in its
place in the sorted combination (`Bob plays RA Ph=A.`, `Dave plays RB Ph=B BD RD.`): the four
/replay digests changed by those lines only (compared line by line in tests/transcripts/).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from twisted.internet import task

from conftest import FakeLobby, fired
from game_support import random_game
from lobby.storage.records import GameArchive, Participant, finished_game
from transcript_text import TRANSCRIPTS, check, digest

#: (command, sha256 of the bytes the client receives)
EXPECTED: dict[str, str] = {
    "/history": "f5a8535135248657c5add2759f0d1c072026fe05044031210b24dc2503eed7e0",
    "/history Bob": "c83c5ae8e184e227365729309aa53c48d75b6e52ee87967274b95a2ee032f90e",
    "/history Zed": "541d65f9f10ca7d91264ed31651fb5c4d6b5d9bc1da655b84f6008eb4dd15250",
    "/history Erin": "7d2c05f3f65eb4d5783ffdfbb374d86fc0c2421327ef9fc4a17c4a312f8f7397",
    "/rangliste": "90962678efee9fc0783332ea9c49ee61ef863472baaab1484b411e16f0bd9a9b",
    "/finger Alice": "438420d27eaa3829929c21c2be7fc9750db8be0346ca758c0ef77c4e606b1caa",
    "/finger Dave": "6762bc651e1cf71bc73882f48f20c10aa473e698df53d3fd4412dd97317f0357",
    "/finger Erin": "c2a2f79d1d19029568dfcbd892b452d91e689b90bc905c2acee09c5d8d3696cb",
    "/finger GUEST": "f5fdffe19ee21a8c3389846bbe9d31c4ee9e6bacea571c103497000117f0cc18",
    "/replay 1": "37688b09295e38a435f643770c85977e46b06b0078032f640d64429696ff1895",
    "/replay 1 2": "d5a08dbeb4854f8c9f8952541e9a40f11900b696c3a6743e9e4d1db8d7cc5c7c",
    "/replay 2 4": "2f910cbbd8bf2156569c492a7bae31f8b64b9f489f311f94cd02d06955fc06e7",
    "/replay 3": "201c60e1a7e0cdfb39194d1641f0e25d61ab17cc022a0126061b9e995d5c47e4",
    "/replay 4 1": "6ba27c11784990f2a0c58929949455b795278f7d2cba2ccd23d0c383d8587d31",
}

REGISTERED = ["Alice", "Bob", "Carol", "Dave", "Erin", "Zed"]  # Zed: registered, no games
DAY = 86400.0


def stored_games(lobby: FakeLobby) -> None:
    archive = GameArchive(lobby.store)
    t0 = 1_800_000_000.0
    games = [
        finished_game(random_game(31, rounds=3, tichu_rate=0.2), ["Alice", "Bob", "Carol", "Dave"],
                      options={"round": "3"}, table_no=4, started_at=t0, ended_at=t0 + 3000),
        finished_game(random_game(8, turnier=True), ["Carol", "Alice", "Dave", "Bob"],
                      options={"turnier": "on"}, table_no=1, started_at=t0 + DAY,
                      ended_at=t0 + DAY + 5400),
        finished_game(random_game(12, rounds=2, tichu_rate=0.3, grand_rate=0.3),
                      [Participant("Alice"), Participant("Guest4711", "guest"),
                       Participant("Bot1~random", "bot"), Participant("Bob")],
                      table_no=2, started_at=t0 + 2 * DAY, ended_at=t0 + 2 * DAY + 900),
        finished_game(random_game(5, rounds=1), ["Dave", "Carol", "Bob", "Alice"], table_no=3,
                      started_at=t0 + 3 * DAY, ended_at=t0 + 3 * DAY + 600, nosave=True),
    ]
    for game in games:
        fired(archive.save(game))


COMMANDS = [
    "/history", "/history Bob", "/history Zed", "/history Erin", "/rangliste", "/finger Alice",
    "/finger Dave", "/finger Erin", "/finger GUEST",
    "/replay 1", "/replay 1 2", "/replay 2 4", "/replay 3", "/replay 4 1",
]


def transcripts() -> dict[str, bytes]:
    clock = task.Clock()
    clock.advance(1_800_400_000)
    lobby = FakeLobby(clock)
    for name in REGISTERED:
        lobby.register(name, "pw" + name.lower() + "1")
    stored_games(lobby)
    guest = lobby.connect()
    guest.login("guest")
    (guest_name,) = [u.name for u in lobby.world.users.values()]
    alice = lobby.connect()
    alice.login("Alice", "pwalice1")
    # a tall window (telnet NAWS: 80 columns, 1000 rows), so that a /replay comes whole, not a
    # page of 24 rows at a time (its paging: tests/e2e/test_lobby_screens.py)
    alice.send(bytes([255, 250, 31, 0, 80, 1000 >> 8, 1000 & 255, 255, 240]))
    alice.raw()
    out = {}
    for command in COMMANDS:
        alice.send(command.replace("GUEST", guest_name))
        clock.advance(0)
        out[command] = alice.raw()
    return out


def test_the_records_commands_write_the_same_bytes_as_before() -> None:
    got = transcripts()
    dump = os.environ.get("RECORD_OUTPUT_DUMP")
    if dump:
        Path(dump).mkdir(parents=True, exist_ok=True)
        for command, data in got.items():
            Path(dump, command.strip("/").replace(" ", "_") + ".txt").write_bytes(data)
    digests = {command: hashlib.sha256(data).hexdigest() for command, data in got.items()}
    for command, data in got.items():
        assert data and b"! [" not in data, (command, data[:200])
    for command, data in got.items():                  # a change shows as a diff of lines
        check(transcript(command), data)
    if not EXPECTED:
        pytest.fail("EXPECTED is empty; the digests now: " + repr(digests))
    assert digests == EXPECTED


def transcript(command: str) -> Path:
    """The readable transcript of a command's reply (tests/transcript_text.py)."""
    return TRANSCRIPTS / ("records-" + command.strip("/").replace(" ", "_") + ".txt")


def test_the_readable_transcripts_are_the_pinned_bytes() -> None:
    """Each transcript in tests/transcripts/ stands for the very bytes its digest pins."""
    assert {command: digest(transcript(command)) for command in EXPECTED} == EXPECTED
