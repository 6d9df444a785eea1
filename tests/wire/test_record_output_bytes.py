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
RECORD_OUTPUT_DUMP=DIR to write each reply to DIR, compare it with the old one, and update
EXPECTED. (Changed on purpose for issue 26: no line fills the last column, so /history's and
/replay 3's lines of exactly 80 columns wrap at 79; compared, nothing else changed. For
issue 14: "1 round", not "1 rounds"; a wish names the rank as a word, "wishes for an Ace",
not "a A"; the transcripts were compared, nothing else changed.)
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

#: (command, sha256 of the bytes the client receives)
EXPECTED: dict[str, str] = {
    "/history": "f1bd11ff19423cb69948056c94ccfbd471e78db800e3c3250d3ccd970717426e",
    "/history Bob": "7e223c56631e411b37bd15befcfff8693bcbce191f00ee0a3ba5f1a5bf9cc98e",
    "/history Zed": "541d65f9f10ca7d91264ed31651fb5c4d6b5d9bc1da655b84f6008eb4dd15250",
    "/history Erin": "7d2c05f3f65eb4d5783ffdfbb374d86fc0c2421327ef9fc4a17c4a312f8f7397",
    "/rangliste": "90962678efee9fc0783332ea9c49ee61ef863472baaab1484b411e16f0bd9a9b",
    "/finger Alice": "6bc03ad9bcbd1f7b0823be275e668ddc4d27ce2e907eb970bb9b36dd19c72142",
    "/finger Dave": "6762bc651e1cf71bc73882f48f20c10aa473e698df53d3fd4412dd97317f0357",
    "/finger Erin": "c2a2f79d1d19029568dfcbd892b452d91e689b90bc905c2acee09c5d8d3696cb",
    "/finger GUEST": "59fe627514337986401e32d793c87a3dc535ee22c43f0f63e56aea18b41b6047",
    "/replay 1": "9ad7c88e277f5e217ec2ebfeb3af9a244fddf45d58e39e11b8d5ff92a93f4edd",
    "/replay 1 2": "cf24c790828257b4685c7dd7c11750ccf079755adf6d14447007aa2bb05413ca",
    "/replay 2 4": "210a586cddb6722a37da95a36125c220a158a3a87d96ad895f243eb701e102eb",
    "/replay 3": "ed6c353894230d749241a4f592da014e6e1d110cabc18cfdba415f95ba63bce1",
    "/replay 4 1": "9ed3e7e28627bfe6bd6074faa835c9abb2d7df8c7dfc8f9c8f1194410d69eff8",
}

REGISTERED = ["Alice", "Bob", "Carol", "Dave", "Erin"]
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
    if not EXPECTED:
        pytest.fail("EXPECTED is empty; the digests now: " + repr(digests))
    assert digests == EXPECTED
