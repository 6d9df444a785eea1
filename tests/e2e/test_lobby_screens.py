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


# ---- each language's quotation marks --------------------------------------------------------------
QUOTED_NAME = {"en": '"Zoe"', "de": "„Zoe“", "fr": "«\u00a0Zoe\u00a0»", "es": "«Zoe»",
               "da": "»Zoe«"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest_twisted.ensureDeferred
async def test_a_quoted_name_and_quoted_words_have_the_languages_own_marks(
        server: RunningServer, lang: str) -> None:
    """A quotation reads in the reader's language: the log-in's question about a name that is
    not registered (Spanish and Danish quoted with English marks before) and the help's quoted
    words; French keeps its marks with no-break spaces, which the wrap never breaks. One rule
    in the catalog layer (lobby/text/messages.py ``quote_marks``)."""
    c = await server.client()
    await c.expect(text("login-prompt", "en"))
    c.send(f"/set lang {lang}")
    await c.expect(text("login-prompt", lang))
    c.send("Zoe")
    asked = str(await c.expect(QUOTED_NAME[lang][-1] + " "))
    assert asked.endswith(QUOTED_NAME[lang] + " "), asked
    await c.expect(": ")
    c.send("")
    c.send("/help tell")
    c.send("/whereis Zoe")                      # its answer ends what the help wrote
    got = str(await c.expect("\r\nZoe "))
    if lang != "en":
        assert '"' not in got and QUOTED_NAME[lang][0] in got, got


# ---- /replay a page at a time (#13) ----------------------------------------------------------------
def naws(width: int, height: int) -> bytes:
    """Telnet NAWS: the client's window is ``width`` columns and ``height`` rows."""
    return bytes([255, 250, 31, width >> 8, width & 255, height >> 8, height & 255, 255, 240])


async def saved_game(server: RunningServer) -> int:
    from game_support import random_game
    from lobby.storage.records import finished_game
    archive = server.server.persistence.archive
    rec = await archive.save(finished_game(random_game(23, rounds=2, tichu_rate=0.2),
                                           ["Ann", "Ben", "Cy", "Di"], table_no=1))
    return int(rec.game_id)


async def until_whereis(c: LineClient, name: str, lang: str = "en") -> list[str]:
    """The lines ``c`` gets before the answer to a ``/whereis`` of itself sent now."""
    c.send(f"/whereis {name}")
    end = text("whereis", lang, name=name, room=text("room-lobby", lang), number=0)
    got = str(await c.expect(end + "\r\n"))
    return got[:-len(end) - 2].split("\r\n")[:-1]


@pytest_twisted.ensureDeferred
async def test_a_long_replay_comes_a_page_at_a_time(server: RunningServer) -> None:
    """Outside finding #13: one round of /replay is about 100 lines, and a person at a 24-row
    terminal lost its start. A text-mode answer longer than the window comes a page at a time
    (the NAWS rows, else 24, less the -- more -- line and the line one types on), the more line
    in the reader's language; /next shows the next page, exactly where the last one stopped;
    machine mode gets its one object as before."""
    game = await saved_game(server)
    tall = await guest(server, "Tall")
    tall.transport.write(naws(80, 1000))
    tall.send(f"/replay {game} 1")
    whole = await until_whereis(tall, "Tall")
    assert whole[0].startswith(f"Game #{game}") and len(whole) > 60

    c = await guest(server, "Short")             # no NAWS: 24 rows
    c.send(f"/replay {game} 1")
    pages = [await until_whereis(c, "Short")]
    while pages[-1][-1].startswith("-- more ("):
        c.send("/next")
        pages.append(await until_whereis(c, "Short"))
    assert len(pages) >= 3
    assert all(len(page) == 23 for page in pages[:-1]), pages      # 22 lines and the more line
    assert pages[0][-1] == text("more", "en", last=22, total=len(whole))
    assert [line for page in pages for line in page if not line.startswith("-- more (")] == whole
    assert (await reply(c, "/next")).startswith("! [no-more-pages] ")

    de = await guest(server, "Hoch", "de")
    de.transport.write(naws(80, 30))
    de.send(f"/replay {game} 1")
    page = await until_whereis(de, "Hoch", "de")
    assert len(page) == 29 and page[-1].startswith("-- weiter (28 von ")   # 28 lines + more

    bot = await guest(server, "Prog")
    await reply(bot, "/iset json 1")
    bot.send(f"/replay {game} 1")
    got = str(await bot.expect("\r\n"))
    assert got.startswith('{"type":"replay"') and got.rstrip().endswith("}")
    refused = await reply(bot, "/next")
    assert '"type":"error"' in refused and "no-more-pages" in refused


@pytest.mark.parametrize("before", ["/room 1", "/spielinfo 1", "/history"])
@pytest_twisted.ensureDeferred
async def test_replay_still_pages_after_a_table_was_seen(server: RunningServer,
                                                         before: str) -> None:
    """Issue 26 telnet review, item 1: after ``/room 5`` or ``/spielinfo 5`` (anything that
    showed a table) ``/replay 1`` came all at once (its event took the table view's way, which
    pages nothing) and ``/next`` said there was nothing more. It pages as in a fresh session,
    in Spanish too."""
    game = await saved_game(server)
    host = await guest(server, "Hanne")
    await reply(host, "/newroom", "four sit.\r\n")
    c = await guest(server, "Pepa", "es")
    c.send(before)
    if before == "/room 1":
        c.send("/room 0")
    await until_whereis(c, "Pepa", "es")
    c.send(f"/replay {game} 1")
    page = await until_whereis(c, "Pepa", "es")
    assert len(page) == 23 and page[-1] == text("more", "es", last=22, total=page_total(page))
    c.send("/next")
    assert len(await until_whereis(c, "Pepa", "es")) > 1
    out = await reply(c, "/next")
    assert "no-more-pages" not in out


def page_total(page: list[str]) -> int:
    """The total of a ``-- more --`` line."""
    return int(re.findall(r"\d+", page[-1])[-1])


# ---- a bot's name in one form (#4) -----------------------------------------------------------------
@pytest_twisted.ensureDeferred
async def test_a_bots_name_has_one_form_in_every_line(server: RunningServer) -> None:
    """Outside finding #4 (part): a bot was ``Bot1~expert (expert bot)`` when seated, ``Bot1``
    with ``(strategy expert)`` in /finger, ``Bot1~expert`` in the seats line, /replay and
    /history. Its name is one form everywhere (``Bot1~expert``: its strategy after the ~), and
    no line names the strategy a second time; a narrow screen drops the strategy alike in
    every seats line (protocol/render/wrap.py ``name_forms``)."""
    from game_support import random_game
    from lobby.storage.records import Participant, finished_game
    c = await guest(server, "Hanne")
    await reply(c, "/newroom", "four sit.\r\n")
    await reply(c, "/join", "4 -\r\n")
    seen = await reply(c, "/addbot expert", "4 -\r\n")
    for command in ("/spielinfo", "/who", "/finger Bot1", "/listroom"):
        c.send(command)
        seen += "\r\n".join(await until_whereis_at_table(c))
    assert "Bot1~expert" in seen and "Bot1 " not in seen.replace("\u00a0", " "), seen
    assert seen.count("expert") == seen.count("Bot1~expert"), seen

    archive = server.server.persistence.archive
    rec = await archive.save(finished_game(
        random_game(12, rounds=1), [Participant("Alice"), Participant("Guest4711", "guest"),
                                    Participant("Bot1~random", "bot"), Participant("Bob")],
        table_no=2))
    r = await guest(server, "Reader")
    r.transport.write(naws(80, 1000))
    r.send(f"/replay {rec.game_id}")
    r.send("/history Alice")
    records = "\r\n".join(await until_whereis(r, "Reader"))
    assert records.count("Bot1") == records.count("Bot1~random") > 5, records


async def until_whereis_at_table(c: LineClient) -> list[str]:
    """The lines ``c`` (Hanne, in table 1's room) gets before the answer to a /whereis."""
    c.send("/whereis Hanne")
    end = text("whereis-table", "en", name="Hanne", number=1)
    got = str(await c.expect(end + "\r\n"))
    return got[:-len(end) - 2].split("\r\n")[:-1]


# ---- every listing of a table's seats: the one rule (issue 26 telnet review, items 3 and 4) -------
def seat_pieces(out: str) -> list[str]:
    """The physical lines of ``out``, each checked to keep a seat's number with its name: no
    line ends with a bare seat number."""
    lines = out.split("\r\n")
    for line in lines:
        assert not re.search(r"(?:^|[,|:] ?)[1-4]$", line.rstrip()), (line, out)
    return lines


@pytest_twisted.ensureDeferred
async def test_spielinfo_never_parts_a_seat_number_from_its_name(server: RunningServer) -> None:
    """Item 3: at 45 columns ``/spielinfo N`` read ``Seats: 1 bernd, 2 Bot1~heuristic, 3`` /
    ``Bot2~heuristic, ...``: its seats are broken between two seats only (``seats_packed``,
    the rule of /listroom), the full names kept."""
    host = await guest(server, "bernd")
    await reply(host, "/newroom", "four sit.\r\n")
    await reply(host, "/join", "4 -\r\n")
    for _ in range(3):
        await reply(host, "/addbot heuristic", "\r\nSeats: ")
    c = await guest(server, "Lotte", None, 45)
    out = await reply(c, "/spielinfo 1", "defaults\r\n")
    lines = seat_pieces(out)
    assert all(len(line) < 45 for line in lines), out
    joined = " ".join(line.strip() for line in lines)
    for seat, name in enumerate(("bernd", "Bot1~heuristic", "Bot2~heuristic", "Bot3~heuristic")):
        assert f"{seat + 1} {name}" in joined, out


@pytest_twisted.ensureDeferred
async def test_long_names_stay_whole_where_each_seat_fits_a_line(server: RunningServer) -> None:
    """Item 4: at 45 columns, Maximilian_Langn at seat 2 and Wolfgang_Amadeus at seat 4 with
    two bots: /listroom showed ``2 Maximilian… | 3 Bot2 | 4 Wolfgang_A…`` and the table's seats
    line ``2 Maximilian_… | 3 Bot2 |`` / ``4 Wolfgang_Am…`` though each seat fits a line of its
    own. A name is cut only where its seat does not fit a line of its own: full names on more
    lines."""
    host = await guest(server, "Maximilian_Langn")
    await reply(host, "/set width 45")
    await reply(host, "/newroom", "four sit.\r\n")
    await reply(host, "/join 2", "\r\n")
    await reply(host, "/addbot 1", "\r\nSeats: ")
    await reply(host, "/addbot 3", "\r\nSeats: ")
    other = await guest(server, "Wolfgang_Amadeus")
    await reply(other, "/room 1", "\r\nSeats: ")
    other.send("/join 4")
    await host.expect("seat 4.\r\n")
    seats = str(await host.expect(" 4 ")) + str(await host.expect("\r\n"))
    c = await guest(server, "Lotte", None, 45)
    c.send("/listroom")
    out = str(await c.expect(text("options-default", "en")))
    out += str(await c.expect("\r\n"))
    for got in (out, str(seats)):
        assert "…" not in got, got
        assert "2 Maximilian_Langn" in got and "4 Wolfgang_Amadeus" in got, got
        assert all(len(line) < 45 for line in seat_pieces(got)), got
