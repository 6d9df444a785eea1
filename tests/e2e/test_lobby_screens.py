"""The lobby and room screens of a telnet player in every language, at 80 and 45 columns (issue
26, the telnet review's items left from the tenth session): /listroom at a narrow width (#5),
the paging of /replay (#13), each language's quotation marks, one form of a bot's name, /spielinfo
N from the lobby and the name of a table's room. Over real sockets, as a person sees it."""
from __future__ import annotations

import re

import pytest
import pytest_twisted

from conftest import LineClient, RunningServer
from lobby.text.messages import LANGUAGES, text


async def guest(server: RunningServer, name: str, lang: str | None = None,
                width: int | None = None) -> LineClient:
    c = await server.client()
    await c.login(name)
    if lang is not None:
        c.send(f"/set lang {lang}")
        await c.expect("/set lang " + "|".join(LANGUAGES))
        await c.expect("\r\n")
    if width is not None:
        c.send(f"/set width {width}")
        await c.expect("\r\n")
    return c


async def reply(c: LineClient, line: str, until: str = "\r\n") -> str:
    """What ``line`` is answered with, up to and including ``until``."""
    c.send(line)
    return str(await c.expect(until))


# ---- /spielinfo N from the lobby ----------------------------------------------------------------
@pytest_twisted.ensureDeferred
async def test_spielinfo_with_a_table_number_works_from_the_lobby(server: RunningServer) -> None:
    """``/spielinfo 1`` in the lobby was ``bad-arguments`` ("Usage: /spielinfo"): it shows table
    1 as its room shows it; a number no table has is ``no-such-table``, in the reader's
    language."""
    host = await guest(server, "Hanne")
    await reply(host, "/newroom", "four sit.\r\n")
    await reply(host, "/join", "4 -\r\n")
    c = await guest(server, "Lotte", "de")
    out = await reply(c, "/spielinfo 1", "keine).\r\n")
    assert "Tisch 1: wartet, Gastgeber Hanne." in out and "1 Hanne" in out
    assert "bad-arguments" not in out
    out = await reply(c, "spielinfo 1", "keine).\r\n")     # without the slash too
    assert "Tisch 1" in out
    for number in ("7", "0"):
        assert await reply(c, f"/spielinfo {number}") == "! [no-such-table] " + text(
            "no-such-table", "de", number=number) + "\r\n"
    assert (await reply(c, "/spielinfo")).startswith("! [not-at-table]")


# ---- the name of a table's room -----------------------------------------------------------------
#: how a table's room reads in each language when somebody comes and goes, and in /who
ROOM_WORDS = {"en": ("Bob comes to table 1.", "Bob leaves table 1.", "At table 1 (2):"),
              "de": ("Bob kommt an Tisch 1.", "Bob verlässt Tisch 1.", "An Tisch 1 (2):"),
              "fr": ("Bob arrive à la table 1.", "Bob quitte la table 1.", "À la table 1 (2) :"),
              "es": ("Bob llega a la mesa 1.", "Bob se va de la mesa 1.", "En la mesa 1 (2):"),
              "da": ("Bob kommer hen til bord 1.", "Bob forlader bord 1.", "Ved bord 1 (2):")}


@pytest.mark.parametrize("lang", sorted(ROOM_WORDS))
@pytest_twisted.ensureDeferred
async def test_a_tables_room_reads_naturally_in_every_language(server: RunningServer,
                                                               lang: str) -> None:
    """"Bob leaves the Table 2 room": the room's data words (machine mode's ``Table 2 room``)
    were English text in every message; a table's room is now read as each language says it."""
    ann = await guest(server, "Ann", lang)
    ann.send("/newroom")
    await ann.expect("/start")
    bob = await guest(server, "Bob", lang)
    comes, leaves, who = ROOM_WORDS[lang]
    bob.send("/room 1")
    assert (await ann.expect_any((comes, "room."))).endswith(comes)   # was "... the Table 1 room."
    assert who in await reply(bob, "/who", "Ann, Bob\r\n")
    bob.send("/room 0")
    assert (await ann.expect_any((leaves, "room."))).endswith(leaves)
    out = await reply(bob, "/whereis Ann")
    assert "room" not in out.replace("/room", "")


# ---- /listroom at any width (#5) -----------------------------------------------------------------
LONG = ("Bartholomew_Long", "Wilhelmina_Berg")
SEAT = re.compile(r"[1-4] (\S+)")


def listroom_seats(out: str, lang: str) -> list[list[str]]:
    """The seats of each table of a /listroom answer, each physical line checked: a seat's
    number and its name on one line (a line ends with ``|`` between two seats, never with a
    bare number)."""
    tables: list[list[str]] = []
    for line in out.split("\r\n"):
        head = re.match(r" {2,4}\d+ tichu ", line)
        if head is None and not (tables and re.match(r" {6}[1-4] ", line)):
            continue                              # the header, the details, the empty line
        if head is not None:
            tables.append([])
            line = line[head.end():]
            for state in ("waiting", "playing", "finished"):
                line = line.replace(text("table-state-" + state, lang), "", 1)
        pieces = line.strip().removesuffix(" |").split(" | ")
        for piece in filter(None, pieces):
            seat = SEAT.fullmatch(piece.strip())
            assert seat is not None, (line, piece)
            tables[-1].append(seat.group(1))
    return tables


@pytest.mark.parametrize("width", [80, 45])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest_twisted.ensureDeferred
async def test_listroom_keeps_each_seat_with_its_name_at_any_width(server: RunningServer,
                                                                   lang: str, width: int) -> None:
    """Outside finding #5: at 45 columns /listroom cut the names (``Ann…``) and parted a seat's
    number from its name (``| 3`` ending a line, ``Bot2`` starting the next). A table's seats
    are broken between two seats only, no name is cut without ``…``, and no line fills the
    terminal's last column."""
    host = await guest(server, LONG[0])
    await reply(host, "/newroom", "four sit.\r\n")
    await reply(host, "/join", "4 -\r\n")
    for level in ("expert", "heuristic", "random"):
        await reply(host, f"/addbot {level}", "\r\nSeats: ")
    other = await guest(server, LONG[1])
    await reply(other, "/newroom", "four sit.\r\n")
    await reply(other, "/join", "4 -\r\n")
    c = await guest(server, "Lotte", lang, width)
    c.send("/listroom")
    out = str(await c.expect(text("options-default", lang)))
    out += str(await c.expect(text("options-default", lang)))
    out += str(await c.expect("\r\n"))
    assert all(len(line) < width for line in out.split("\r\n")), out
    seats = listroom_seats(out, lang)
    assert len(seats) == 2 and all(len(s) == 4 for s in seats), out
    for name, full in zip(seats[0] + seats[1], [LONG[0], "Bot1", "Bot2", "Bot3", LONG[1], "-", "-",
                                                "-"], strict=True):
        assert name == full or (name.endswith("…") and full.startswith(name[:-1])) \
            or name.startswith(full + "~"), (name, out)
