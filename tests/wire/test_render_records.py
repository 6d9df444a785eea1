"""Every word people read of the records and of the game events comes from the message catalog.

A made-up language whose every catalog template is the English one with its words ROT13-encoded
renders stored games (/replay, /history, /rangliste, the /finger statistics) and everything a
player and a spectator of a live table are sent (game events and views, text-mode rendering):
any English word left in the output was written by the code, not the catalog, and would stay
English in every translation.
"""
from __future__ import annotations

import codecs
import random
import re
import string
from collections.abc import Iterator

import pytest

from conftest import fired
from game_support import random_game
from lobby.storage.records import GameArchive, Participant, PlayerStats, finished_game, replay_game
from lobby.storage.store import Store
from lobby.text.messages import CATALOGS
from protocol.render.records import history_lines, ranking_lines, replay_lines, stats_lines
from protocol.render.table import TableFeed, render_table
from table_support import NAMES as TABLE_NAMES
from table_support import new_table, play_to_end

LANG = "qq"
NAMES = ["Alice", "Bob", "Carol", "Dave"]
#: the letters of cards (S2, BK, Ma, Hu, Ph, Dr, Ph=7) and of ranks in a wish (B, D, K, A)
CARD = re.compile(r"^(?:[SBGR](?:[BDKA])?|[BDKA]|Ma|Hu|Ph|Dr)$")
#: the names of table options are command words (``/option round 2``), the same in every language
OPTION_WORDS = ["round", "turnier", "on"]


def _rot13_template(template: str) -> str:
    out = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        out.append(codecs.encode(literal, "rot13").replace("{", "{{").replace("}", "}}"))
        if field is not None:
            if conversion == "p":        # the word forms of a plural are words too
                spec = codecs.encode(spec, "rot13")
            out.append("{" + field + ("!" + conversion if conversion else "")
                       + (":" + spec if spec else "") + "}")
    return "".join(out)


@pytest.fixture
def made_up_language() -> Iterator[set[str]]:
    """The catalog in LANG; yields the words its templates use."""
    catalog = {k: _rot13_template(v) for k, v in CATALOGS["en"].items()}
    words = {w for v in catalog.values()
             for literal, *_ in string.Formatter().parse(v)
             for w in re.findall(r"[A-Za-z]+", literal)}
    CATALOGS[LANG] = catalog
    try:
        yield words
    finally:
        del CATALOGS[LANG]


def english_left(lines: list[str], words: set[str], names: list[str]) -> set[str]:
    name_words = {w for n in names for w in re.findall(r"[A-Za-z]+", n)}
    left = set()
    for line in lines:
        for word in re.findall(r"[A-Za-z]+", line):
            if word not in words and word not in name_words and not CARD.match(word):
                left.add(word)
    return left


def test_the_records_have_no_text_outside_the_catalog(made_up_language: set[str],
                                                      sqlite_store: Store) -> None:
    archive = GameArchive(sqlite_store)
    games = [
        finished_game(random_game(31, rounds=3, tichu_rate=0.2, grand_rate=0.3), NAMES,
                      table_no=4, ended_at=1_800_000_000.0),
        finished_game(random_game(8, turnier=True), NAMES, table_no=1),
        finished_game(random_game(12, rounds=2), [Participant("Alice"),
                                                  Participant("Guest7", "guest"),
                                                  Participant("Carol"), Participant("Dave")]),
    ]
    lines: list[str] = []
    for game in games:
        rec = fired(archive.save(game))
        lines += replay_lines(replay_game(fired(archive.load(rec.game_id))).to_json(), LANG)
    hist = fired(archive.recent_games("Alice"))
    lines += history_lines("Alice", [g.to_json() for g in hist], LANG)
    lines += history_lines("Zed", [], LANG)
    lines += ranking_lines([r.to_json() for r in fired(archive.top_players())], LANG)
    lines += ranking_lines([], LANG)
    lines += stats_lines(fired(archive.player_stats("Alice")).to_json(), LANG)
    lines += stats_lines(PlayerStats.empty("Zed").to_json(), LANG)
    assert len(lines) > 1000
    assert english_left(lines, made_up_language, [*NAMES, "Guest7", "Zed"]) == set()
    # and the English rendering is English (the check sees what it should)
    english = replay_lines(replay_game(fired(archive.load(1))).to_json())
    assert {"plays", "passes", "Round"} <= english_left(english, made_up_language, NAMES)


@pytest.mark.parametrize("seed,options", [(3, {"round": "2"}), (4, {"turnier": "on"})])
def test_a_live_table_has_no_text_outside_the_catalog(made_up_language: set[str], seed: int,
                                                      options: dict[str, str]) -> None:
    table, rec, _ = new_table(spectator="zed", options=options)
    table.submit("ann", "start")
    play_to_end(table, rec, random.Random(seed))
    lines: list[str] = []
    for who in ("ann", "zed"):
        feed = TableFeed()
        for event in rec.to(who):
            if event.is_error:
                continue
            lines += render_table(event, LANG) or []
            lines += feed.render(event, LANG) or []
    assert len(lines) > 500
    assert english_left(lines, made_up_language, [*TABLE_NAMES, "zed", *OPTION_WORDS]) == set()
