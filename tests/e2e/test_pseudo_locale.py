"""A pseudo-locale over a whole game (issue 26): every template of the catalog, wrapped in ⟦ ⟧,
as a language of its own. What a player and a spectator receive of a whole game and of the
commands after it is then catalog text inside the marks, and outside them only data: names,
cards, numbers, punctuation. English outside the marks is text that did not come from the
catalog; words outside the marks next to marked text are text put together in code."""
from __future__ import annotations

import re
import string

import pytest
import pytest_twisted

from lobby.text.messages import CATALOGS
from test_game_languages import play_game
from test_table_output_bytes import fixed_seat_keys  # noqa: F401 (a fixture)

PSEUDO = "qps"
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")
CARD = r"(?:[SBGR](?:10|[2-9BDKA])|Ma|Hu|Ph|Dr)(?:=\w+)?"
#: what may stand outside the marks: data (an error line's code too), never words of a language
DATA = re.compile(rf"(?:! \[[a-z0-9-]+\]|\s|[\d.,:;!?+\-/()|\[\]'#>=~*<]|{'|'.join(NAMES)}|{CARD}"
                  r"|Bot\d\w*|tichu|\d{4}-\d\d-\d\d|UTC|k\d{3})*")


def pseudo(template: str) -> str:
    """``template`` marked ⟦ ⟧ (the braces of its fields kept as they are)."""
    return "⟦" + template + "⟧"


@pytest.fixture
def pseudo_language(monkeypatch: pytest.MonkeyPatch) -> None:
    from protocol.commands import settings
    monkeypatch.setitem(CATALOGS, PSEUDO, {k: pseudo(v) for k, v in CATALOGS["en"].items()})
    monkeypatch.setitem(settings.SETTINGS, "lang", (*settings.SETTINGS["lang"], PSEUDO))


def outside_the_marks(text: str) -> str:
    """``text`` without every marked part (innermost first: a message may fill another)."""
    inner = re.compile(r"⟦[^⟦⟧]*⟧")
    while True:
        shorter = inner.sub("\x00", text)
        if shorter == text:
            return text
        text = shorter


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_a_whole_game_in_the_pseudo_locale_is_catalog_text_and_data(
        pseudo_language: None) -> None:
    assert all(string.Formatter().parse(v) for v in CATALOGS[PSEUDO].values())
    received = await play_game(PSEUDO, width=250, more=("/look", "/schupf", "/set color maybe"))
    problems: dict[str, list[str]] = {}
    for name in NAMES:
        seen = received[name]
        assert seen.count("⟦") > 100, name
        for line in outside_the_marks(seen).split("\r\n"):
            rest = DATA.sub("", line.replace("\x00", " "))
            if rest.strip():
                problems.setdefault(name, []).append(line.replace("\x00", "⟦…⟧"))
    assert problems == {}, {name: lines[:12] for name, lines in problems.items()}


def test_the_check_sees_words_outside_the_marks() -> None:
    """What the check above finds: words that did not come from the catalog (the hard-coded
    ``heuristic or random`` of lobby/tables/table.py before issue 26, a joined ``Table 3 room``)."""
    line = outside_the_marks("⟦There is no bot strategy x; choose heuristic or random.⟧ Bob or Ann")
    assert DATA.sub("", line.replace("\x00", " ")).split() == ["or"]
    assert DATA.sub("", "1 Ann 14 | 2 Bob 9 | R10 Ph=7 ! [bad-card] 2026-05-14").strip() == ""
    assert outside_the_marks("⟦a ⟦b⟧ c⟧ ⟦d⟧") == "\x00 \x00"
