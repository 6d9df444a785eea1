"""A complete game, seen by text-mode players and spectators who chose a language with /set lang,
has no English catalog text left in it (issue 14): every literal chunk of at least two words of
an English template that the language's own template does not contain must not appear."""
from __future__ import annotations

import random
import re
import string

import pytest
import pytest_twisted

from game_support import Game
from lobby.text.messages import CATALOGS, LANGUAGES
from test_table_output_bytes import fixed_seat_keys  # noqa: F401 (a fixture)


def english_chunks(lang: str) -> set[str]:
    """The chunks of English templates (two words or more) that `lang` does not use."""
    own = CATALOGS[lang]
    chunks = set()
    for key, template in CATALOGS["en"].items():
        for literal, *_ in string.Formatter().parse(template):
            for chunk in literal.split("\n"):
                chunk = chunk.strip(" .,:;()")
                if len(re.findall(r"[A-Za-z]{2,}", chunk)) >= 2 and chunk not in own.get(key, ""):
                    chunks.add(chunk)
    return chunks


async def play_game(lang: str, width: int | None = None,
                    more: tuple[str, ...] = ()) -> dict[str, str]:
    """What each of four players and a spectator receives of a whole game (two rounds, a bomb
    window) and of /spielinfo, /help, /history, /replay, /rangliste, /finger... after it (then the
    lines of ``more``), at ``width`` columns if given."""
    g = Game()
    rng = random.Random(5)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    for name in names:
        await g.connect(name, False)
        await g.send(name, f"/set lang {lang}")
        if width is not None:
            await g.send(name, f"/set width {width}")
        g.received[name].clear()
    await g.send("Ann", "/newroom tichu")
    number = g.world.online("Ann").room.number
    table = g.world.tables[number]
    for line in ("/option round 2", "/option bombwindow 1"):
        await g.send("Ann", line)
    for name in names[1:]:
        await g.send(name, f"/room {number}")
    for name in names[:4]:
        await g.send(name, "/join")
    await g.send("Ann", "/start")
    await g.play(table, rng)
    for line in ("/spielinfo", "/help", "/help play", "/option help", "/history Ann",
                 "/replay 1", "/rangliste", "/finger Ann", "/who", "/wwho", "/listroom", *more):
        await g.send("Ann", line)
    return {name: bytes(g.received[name]).decode("utf-8", "replace") for name in names}


@pytest.mark.reactor_timeout(120)
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES[1:] if lang in CATALOGS])
@pytest_twisted.ensureDeferred
async def test_a_whole_game_in_the_language_has_no_english_left(lang: str) -> None:
    chunks = english_chunks(lang)
    assert len(chunks) > 300
    for name, seen in (await play_game(lang)).items():
        assert len(seen) > 2000, name
        left = sorted(c for c in chunks if c in seen)
        assert left == [], (name, left[:20])
    # the check sees English where there is English: the same game in English shows many
    english = "".join((await play_game("en")).values())
    assert len([c for c in chunks if c in english]) > 40
