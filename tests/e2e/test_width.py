"""Any terminal width (issue 14): telnet NAWS (RFC 1073), ``/set width``, the one wrap rule of
every text-mode line (protocol/render/wrap.py), abbreviated names in the table view, and the compact,
grouped ``/help``.

The width comes from the real NAWS bytes a telnet client sends (``IAC WILL NAWS`` and
``IAC SB NAWS w1 w0 h1 h0 IAC SE``); whole games with bots are played at 80 and at 60 columns and
no line the clients receive is wider (visible width: ANSI colours stripped, wide characters
counted twice).
"""
from __future__ import annotations

import random
import re
from itertools import takewhile
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import task

from conftest import FakeClient, FakeLobby, RunningServer, server_fixture, strip_telnet
from lobby.bots.strategies.registry import make_strategy
from protocol.connection.guard import Limits
from protocol.render.context import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH, RenderContext
from protocol.render.wrap import (
    SPEECH_INDENT,
    SPEECH_MARK,
    fit_names,
    visible_width,
    wrap_line,
    wrap_lines,
    wrap_prompt,
    wrap_speech,
)
from protocol.telnet.transport import DO, DONT, IAC, NAWS, SB, SE, WILL, WONT

GUEST_CONFIRM = "or type another name: "
#: the seed of the tables' deals in the whole games (the games stay unseeded to their players)
DEAL_SEED = 1


def naws(width: int, height: int = 24) -> bytes:
    """IAC SB NAWS w1 w0 h1 h0 IAC SE, every 0xFF data byte doubled (RFC 1073)."""
    body = bytes((width >> 8, width & 0xFF, height >> 8, height & 0xFF))
    return bytes((IAC, SB, NAWS)) + body.replace(b"\xff", b"\xff\xff") + bytes((IAC, SE))


def telnet_client(lobby: FakeLobby, width: int | None) -> FakeClient:
    """A client that offers NAWS at once, as tintin++, Mudlet and PuTTY do, and tells its width."""
    c = lobby.connect()
    if width is not None:
        c.send(bytes((IAC, WILL, NAWS)) + naws(width))
    return c


def lines_of(raw: bytes) -> list[str]:
    """The lines (and the prompt at the end) of raw server output, telnet commands removed."""
    return strip_telnet(raw).decode("utf-8").split("\r\n")


def screen(chunks: list[bytes]) -> list[str]:
    """The lines a terminal shows of the output that came in ``chunks``, one per line the
    client typed: a prompt ends its line when the user's Enter (echoed) ends it."""
    return [line for chunk in chunks for line in lines_of(chunk)]


def too_wide(chunks: list[bytes], width: int) -> list[str]:
    return [line for line in screen(chunks) if visible_width(line) > width]


# ---- the wrap rule (protocol/render/wrap.py) -------------------------------------------------------------
def test_a_long_line_wraps_at_spaces_with_a_hanging_indent() -> None:
    line = "<Bob> " + "word " * 30
    got = wrap_line(line.rstrip(), 41)          # 40 columns used: the last one stays free
    assert got[0] == "<Bob> word word word word word word word"
    assert all(piece.startswith("  word") and len(piece) <= 40 for piece in got[1:])
    assert " ".join(piece.strip() for piece in got) == line.strip()
    # an indented line keeps its indent, and its continuation is two spaces deeper
    assert wrap_line("  Seats: aaa bbb ccc ddd", 17) == ["  Seats: aaa bbb", "    ccc ddd"]
    assert wrap_line("short", 20) == ["short"]


def test_cards_are_never_split_and_colours_take_no_column() -> None:
    red = "\x1b[31m"
    reset = "\x1b[0m"
    cards = " ".join(f"{red}R{rank}{reset}" for rank in (2, 3, 4, 5, 6, 7, 8, 9, 10))
    line = "Your hand: " + cards
    assert visible_width(line) == len("Your hand: R2 R3 R4 R5 R6 R7 R8 R9 R10")
    assert wrap_line(line, 60) == [line]                 # 38 columns, however many bytes
    got = wrap_line(line, 20)
    assert len(got) > 1 and all(visible_width(piece) <= 20 for piece in got)
    tokens = [t for piece in got for t in piece.split()]
    assert tokens == line.split()                        # every card whole, colour and all


def test_wide_characters_count_twice_and_an_overlong_word_is_cut() -> None:
    assert visible_width("Grüße") == 5 and visible_width("日本") == 4
    got = wrap_line("<Yuki> " + "日本語" * 10, 21)
    assert got[0] == "<Yuki>" and got[-1] == "  日本語"          # 9 wide characters a line
    assert got[1:-1] == ["  " + "日本語" * 3] * 3
    got = wrap_line("see " + "x" * 50, 21)
    assert got == ["see", "  " + "x" * 18, "  " + "x" * 18, "  " + "x" * 14]


def test_the_one_column_fast_path_takes_only_characters_of_one_column() -> None:
    """visible_width counts a line of Latin letters and the catalogs' punctuation by its length
    (wrap._ONE_COLUMN) without asking each character: every character that path takes is one
    column wide for the grapheme rules too, and the soft hyphen (no column) is left to them."""
    from protocol.render import graphemes
    from protocol.render.wrap import _ONE_COLUMN
    taken = [chr(c) for c in range(0x3000) if _ONE_COLUMN.fullmatch(chr(c))]
    assert len(taken) > 500 and "\u2013" in taken and "\u00e9" in taken
    assert all(graphemes.char_width(c) == 1 for c in taken)
    assert "\u00ad" not in taken and "\u0301" not in taken and "\x1b" not in taken
    assert visible_width("Stich \u2013 gewonnen von Åse\u00ad") == \
        sum(graphemes.char_width(c) for c in "Stich \u2013 gewonnen von Åse\u00ad")


def test_a_prompt_keeps_its_last_clause_on_the_line_where_the_answer_is_typed() -> None:
    prompt = ('"Regie" is not a registered name. Press Enter to play as the guest Regie, or '
              'type another name: ')
    assert wrap_prompt("login: ", 20) == ["login: "]
    assert wrap_prompt(prompt, 80) == [
        '"Regie" is not a registered name. Press Enter to play as the guest Regie,',
        "  or type another name: "]
    narrow = wrap_prompt(prompt, 20)
    assert narrow[-1].endswith(" name: ") and all(visible_width(p) <= 20 for p in narrow)
    assert " ".join(p.strip() for p in narrow) + " " == prompt


# ---- NAWS at the telnet layer ----------------------------------------------------------------------
class NawsRecorder:
    """A TelnetLineProtocol that wants NAWS, recording the sizes it is told."""

    def __new__(cls) -> Any:
        from protocol.telnet.transport import TelnetLineProtocol

        class Proto(TelnetLineProtocol):
            WANT_NAWS = True

            def connectionMade(self) -> None:
                super().connectionMade()
                self.sizes: list[tuple[int, int]] = []

            def windowSizeChanged(self, width: int, height: int) -> None:
                self.sizes.append((width, height))
        return Proto()


def naws_proto() -> tuple[Any, Any]:
    from twisted.internet.address import IPv4Address
    from twisted.internet.testing import StringTransport
    proto = NawsRecorder()
    transport = StringTransport(peerAddress=IPv4Address("TCP", "127.0.0.1", 40000))
    proto.makeConnection(transport)
    transport.clear()
    return proto, transport


def test_naws_sizes_with_iac_doubled_and_resizes_at_any_time() -> None:
    proto, transport = naws_proto()
    proto.dataReceived(bytes((IAC, WILL, NAWS)))        # the client offers NAWS: agreed
    assert transport.value() == bytes((IAC, DO, NAWS))
    data = naws(80, 24) + b"hello\r\n" + naws(255, 0xFFFF) + naws(0x1FF, 50)
    assert data.count(b"\xff\xff") == 4                  # every 0xFF data byte doubled
    for cut in range(len(data) + 1):                     # every split of the bytes
        proto.sizes.clear()
        proto.dataReceived(data[:cut])
        proto.dataReceived(data[cut:])
        assert proto.sizes == [(80, 24), (255, 0xFFFF), (511, 50)], cut
    transport.clear()
    proto.dataReceived(bytes((IAC, SB, NAWS, 0, 80, 0, IAC, SE)))      # 3 bytes: invalid
    proto.dataReceived(naws(0, 0))                                     # 0: unknown
    assert proto.sizes[-1] == (0, 0) and (80, 0) not in proto.sizes
    assert transport.value() == b""                      # nothing answered


def test_the_session_asks_do_naws_with_its_offers_and_an_answer_is_not_answered(
        lobby: FakeLobby) -> None:
    c = lobby.connect()
    first = c.raw()
    assert first.index(bytes((IAC, DO, NAWS))) < first.index(b"Welcome")   # with the offers
    assert first.count(bytes((IAC, DO, NAWS))) == 1
    c.send(bytes((IAC, WILL, NAWS)) + naws(100) + bytes((IAC, DO, 3)))
    assert c.raw() == bytes((IAC, WILL, 3))              # SGA agreed; WILL NAWS not answered
    assert c.session.render_context.width == 100
    assert c.session.telnet.optionEnabled(NAWS, local=False)
    c.send(bytes((IAC, WONT, NAWS)))                     # the client turns it off
    assert c.raw() == bytes((IAC, DONT, NAWS))
    c.send(naws(40))                                     # NAWS is off: ignored
    assert c.session.render_context.width == 100         # the last width told stays
    raw = lobby.connect()                                # netcat leaves the offer unanswered
    raw.raw()
    raw.login("Quiet")
    assert raw.session.render_context.width == DEFAULT_WIDTH


def test_the_telnet_layer_refuses_naws_unless_it_wants_it() -> None:
    from twisted.internet.testing import StringTransport

    from protocol.telnet.transport import TelnetLineProtocol
    proto = TelnetLineProtocol()
    transport = StringTransport()
    proto.makeConnection(transport)
    transport.clear()
    proto.dataReceived(bytes((IAC, WILL, NAWS)) + naws(100))
    assert transport.value() == bytes((IAC, DONT, NAWS))
    proto, transport = naws_proto()                      # WANT_NAWS: agreed
    proto.dataReceived(bytes((IAC, WILL, NAWS)) + naws(100))
    assert transport.value() == bytes((IAC, DO, NAWS)) and proto.sizes == [(100, 24)]


# ---- the width of a session ------------------------------------------------------------------------
def test_a_session_wraps_speech_to_the_naws_width_and_follows_a_resize(
        lobby: FakeLobby) -> None:
    ann = telnet_client(lobby, 60)
    ann.login("Ann")
    bob = lobby.connect()                               # a raw client: 80 columns
    bob.login("Bob")
    ann.raw(), bob.raw()
    assert ann.session.render_context.width == 60 and bob.session.render_context.width == 80
    speech = "Have you seen the new tables? " * 4
    bob.send(speech)
    got = ann.lines()
    assert len(got) == 3 and all(visible_width(line) <= 60 for line in got)
    assert got[0].startswith("<Bob> Have you seen") and got[1].startswith(SPEECH_INDENT)
    assert " ".join(line.removeprefix(SPEECH_INDENT) for line in got) == "<Bob> " + speech.strip()
    assert len(bob.lines()) == 2                         # the speaker's own line, at 80
    ann.send(naws(140))                                  # the window was resized
    bob.send(speech)
    assert ann.lines() == ["<Bob> " + speech.strip()]
    ann.send(naws(0))                                    # unknown again: 80
    assert ann.session.render_context.width == DEFAULT_WIDTH
    ann.send(naws(5))                                    # clamped to the narrowest width
    assert ann.session.render_context.width == MIN_WIDTH
    ann.send(naws(4000))
    assert ann.session.render_context.width == MAX_WIDTH
    assert ann.session.render_context is RenderContext.of("en", False, MAX_WIDTH)


def test_set_width_overrides_naws_and_auto_returns_to_it(lobby: FakeLobby) -> None:
    ann = telnet_client(lobby, 100)
    ann.login("Ann")
    ann.raw()
    ann.send("/set width 30")
    assert ann.lines() == ["Width is 30 now."]
    ann.send(naws(120))                                  # a resize does not undo /set width
    ann.send("/who")
    assert ann.session.render_context.width == 30
    ann.raw()
    ann.send("/set width auto")
    assert ann.lines() == ["Width is auto now."]
    assert ann.session.render_context.width == 120       # the last NAWS width
    for bad in ("19", "251", "wide", "８０", "-5", "0"):
        ann.send("/set width " + bad)
        got = ann.lines()
        assert got[0].startswith("! [bad-width] The width is a number of columns from 20 to "
                                 "250, or auto, not"), (bad, got)
    assert ann.session.render_context.width == 120
    raw = lobby.connect()                                # no NAWS: 80, and /set width auto too
    raw.login("Raw")
    raw.send("/set width 64")
    raw.send("/set width auto")
    assert raw.session.render_context.width == DEFAULT_WIDTH


def test_machine_mode_is_never_wrapped(lobby: FakeLobby) -> None:
    bot = lobby.connect()
    bot.send("%json")
    bot.send("Robo")
    ann = lobby.connect()
    ann.login("Ann")
    bot.raw()
    ann.send("x" * 300)                                  # one long speech line
    raw = bot.raw()
    assert bytes((IAC, DO, NAWS)) not in raw and raw.count(b"\r\n") == 1
    assert '"text":"' + "x" * 300 + '"' in raw.decode().replace(" ", "")


# ---- whole games with bots, and /help, at 80 and at 60 columns -------------------------------------
class Server:
    """A LobbyServer (persistence, journal, moderation with the admin Boss) without ports, on a
    task.Clock; clients are Sessions on StringTransports that speak the real telnet bytes."""

    def __init__(self, limits: Any = None) -> None:
        from conftest import FAST_SCRYPT
        from lobby.storage.accounts import Accounts, hash_password
        from lobby.storage.store import Store, inline_runner
        from protocol.connection.guard import Limits
        from protocol.process.server import LobbyServer
        self.clock = task.Clock()
        self.clock.advance(1_800_000_000)
        store = Store(":memory:", inline_runner)
        store.open()
        store.create_account("Boss", hash_password("sesame1", FAST_SCRYPT), self.clock.seconds())
        # the greeting waits for the client's first bytes, as on a public server
        self.server = LobbyServer(self.clock, store, [], clock=self.clock, admin="Boss",
                                  accounts=Accounts(inline_runner, FAST_SCRYPT),
                                  limits=limits or Limits(greeting_delay=0.2))
        started: list[Any] = []
        self.server.start().addBoth(started.append)
        assert started and not hasattr(started[0], "raiseException"), started
        self.world = self.server.world
        self.world.on_new_table = self._new_table
        self.received: dict[str, list[bytes]] = {}      # the output after each line typed
        self.clients: dict[str, FakeClient] = {}

    @staticmethod
    def _new_table(table: Any) -> None:
        table.bot_delay = 0.0
        # the same deals (and bot seeds) every run, as the table draws them: with drawn deals
        # about one game in forty at 60 columns reaches a seats line that cannot fit even with
        # the shortest names ("3 Bot2 out 2nd (P) | 4 Bot3 out 1st T!"), which wraps by the
        # one wrap rule, and the test failed now and then (DEAL_SEED 27 is such a game)
        table._rng = random.Random(DEAL_SEED)

    def turn(self) -> None:
        for _ in range(4):
            self.clock.advance(0)
        for name, c in self.clients.items():
            self.received[name].append(c.raw())

    def connect(self, name: str, width: int | None, password: str | None = None) -> FakeClient:
        c = FakeClient(self.server.factory)
        self.clients[name] = c
        self.received[name] = []
        if width is not None:           # what PuTTY, tintin++ and Mudlet send first
            c.send(bytes((IAC, WILL, NAWS)) + naws(width))
        else:
            self.clock.advance(0.2)     # netcat says nothing: greeted after --greeting-delay
        self.turn()
        self.send(name, name)
        self.send(name, password if password is not None else "")
        return c

    def send(self, name: str, line: str) -> None:
        self.clients[name].send(line)
        self.turn()


SEATS_LINE = re.compile(r"^(Seats: )?[ >]?1 ")


@pytest.mark.parametrize("width", [80, 60])
def test_a_whole_game_with_bots_fits_the_naws_width(width: int) -> None:
    srv = Server()
    srv.connect("Hanna", width)
    srv.connect("Sam", width)                           # a spectator, with colours
    srv.connect("Rawley", None)                         # netcat: no NAWS, 80 columns
    srv.send("Sam", "/set color on")
    srv.send("Hanna", "/newroom tichu")
    for line in ("/join 1", "/addbot", "/addbot 3 random", "/addbot", "/option target 200"):
        srv.send("Hanna", line)
    srv.send("Sam", "/room 1")
    srv.send("Rawley", "/room 1")
    srv.send("Hanna", "/start")
    table = srv.world.tables[1]
    strategy = make_strategy("random", 7)
    for _ in range(3000):
        if table.state != "playing":
            break
        command = strategy.decide(table.match.view(table.players.index("Hanna")))
        assert command, "Hanna always has a move in her view when the bots are done"
        srv.send("Hanna", "/" + command)
    assert table.state == "finished"
    for name in ("Hanna", "Sam", "Rawley"):
        for line in ("/who", "/listroom", "/spielinfo", "/help", "/help option", "/history",
                     "/finger Hanna", "/replay 1 1", "/set width 7"):
            srv.send(name, line)
    for name, limit in (("Hanna", width), ("Sam", width), ("Rawley", 80)):
        got = srv.received[name]
        lines = screen(got)
        assert len(lines) > 200 and not too_wide(got, limit), (name, too_wide(got, limit))
        seats = [line for line in lines if SEATS_LINE.match(line) and " | 2 " in line]
        assert seats and all(" | 4 " in line or "|>4 " in line for line in seats), name
        assert any("Bot1~heuristic" in line for line in lines)   # the full names are told too
        if limit == 60:           # narrow: a bot's name without its strategy (issue 26)
            assert any("2 Bot1 " in line and "~" not in line for line in seats)
        assert any(line.startswith("! [bad-width]") for line in lines)
    assert "\x1b[" in "".join(screen(srv.received["Sam"]))


@pytest.mark.parametrize("width", [80, 60])
def test_help_is_grouped_fits_and_lists_only_what_the_user_may_use(width: int) -> None:
    srv = Server()
    srv.connect("Gina", width)
    srv.connect("Boss", width, password="sesame1")
    srv.send("Boss", "/help")
    srv.send("Gina", "/help")
    helps = {}
    for name in ("Gina", "Boss"):
        got = srv.received[name]
        assert not too_wide(got, width), too_wide(got, width)
        text = "\r\n".join(screen(got))
        listing = text[text.rindex("Commands ("):]
        helps[name] = listing
        assert len(listing.split("\r\n")) <= 20         # compact: a screen, not 50 lines
        groups = [line.split(":")[0] for line in listing.split("\r\n")
                  if re.match(r"^[A-Z][a-z]+: /", line)]
        want = ["Lobby", "Chat", "Tables", "Play", "Records", "Account"]
        assert groups == ([*want, "Moderation"] if name == "Boss" else want), groups
    words = {name: set(re.findall(r"/[a-z]+", text)) for name, text in helps.items()}
    moderation = {"/kick", "/ban", "/unban", "/banlist", "/bmute", "/announce", "/role",
                  "/shutdown"}
    assert not moderation & words["Gina"]
    assert moderation <= words["Boss"] and {"/play", "/finger", "/set"} <= words["Gina"]
    srv.send("Gina", "/help ban")                        # the details stay there for everybody
    assert screen(srv.received["Gina"][-1:])[0] == "/ban NAME [DURATION] [REASON...]"


def test_a_moderator_sees_the_moderator_commands_but_not_the_admin_ones() -> None:
    srv = Server()
    srv.connect("Boss", None, password="sesame1")
    srv.connect("Mod", None)
    srv.send("Mod", "/register sesame2")
    srv.send("Boss", "/role Mod moderator")
    srv.send("Mod", "/help")
    text = "\r\n".join(screen(srv.received["Mod"]))
    listing = text[text.rindex("Commands ("):]
    assert "Moderation: /kick /ban /unban /banlist /bmute /announce" in listing
    assert "/role" not in listing and "/shutdown" not in listing


# ---- over a real socket ------------------------------------------------------------------------
@pytest_twisted.ensureDeferred
async def test_naws_over_a_real_socket_wraps_and_follows_a_resize(server: RunningServer) -> None:
    ann = await server.client()
    await ann.login("Ann")
    teller = await server.client()
    await teller.login("Teller")
    ann.transport.write(bytes((IAC, WILL, NAWS)) + naws(40))    # a telnet client's window
    ann.send("/whereis Ann")
    await ann.expect("Ann is in the lobby (room 0).\r\n")
    message = "one two three four five six seven eight nine ten eleven twelve"
    teller.send(f"/tell Ann {message}")
    got = await ann.expect("twelve\r\n")
    pieces = got.rstrip("\r\n").split("\r\n")
    assert len(pieces) >= 2 and all(visible_width(p) <= 40 for p in pieces), pieces
    assert all(p.startswith(SPEECH_INDENT) for p in pieces[1:])
    ann.transport.write(naws(200))                               # resized
    ann.send("/whereis Ann")
    await ann.expect("(room 0).\r\n")
    teller.send(f"/tell Ann {message}")
    got = await ann.expect("twelve\r\n")
    assert got.count("\r\n") == 1 and message in got


def test_no_line_fills_the_last_column() -> None:
    """A line exactly as wide as the terminal would make an eagerly wrapping terminal show a
    blank line after it: every line leaves the last column free (wrap_line, wrap_lines,
    wrap_prompt and fit_names alike)."""
    line = "x" * 30 + " " + "y" * 49                     # 80 columns
    assert max(visible_width(p) for p in wrap_line(line, 80)) <= 79
    assert wrap_line(line, 81) == [line]
    assert all(visible_width(p) <= 79 for p in wrap_lines([line, line], 80))
    assert all(visible_width(p) <= 44 for p in wrap_prompt("a" * 40 + ", or type a name: ", 45))
    names = ["Annemarie-Louise", "Bartholomew-John", "Catherine-Annie", "Dominique-Josie"]
    fitted = fit_names(names, lambda shown: " | ".join(shown), 71)   # 71 columns in full
    assert visible_width(fitted) <= 70 and "…" in fitted


def test_french_punctuation_stays_with_its_word() -> None:
    line = "Exemple : /schupf R2 SA Hu, « vraiment » ?"
    for width in range(17, len(line)):          # "« vraiment » ?" and its indent fit
        got = wrap_line(line, width)
        assert not any(p.lstrip().startswith((":", "?", "»")) for p in got), (width, got)
        assert not any(p.endswith("«") for p in got), (width, got)
        assert " ".join(p.strip() for p in got) == line


def test_a_seat_number_never_parts_from_its_name_at_45_columns() -> None:
    """The outside user's 45-column screen showed `| 4` / `  Bot3… 14`, and names shortened
    AND wrapped: where the shortest names do not fit, the seats are broken between two seats
    only, with their full names."""
    from lobby.events import Event
    from protocol.render.table import TableFeed
    names = ["Bot1~heuristic", "Bot2~heuristic", "Bot3~heuristic", "Bot4~heuristic"]
    game = {"phase": "play", "turn": 2, "cards_left": [14, 13, 12, 14],
            "calls": ["grand", None, "tichu", None], "out": [], "trick": [],
            "scores": [0, 0], "round_no": 1}
    for width in (30, 45, 60, 80):
        view = Event("table-view", table=1, state="playing", seats=names, game=game,
                     scores=[0, 0], round_no=1)
        lines = wrap_lines(TableFeed().render(view, "en", False, width) or [], width)
        assert all(visible_width(line) < width for line in lines), (width, lines)
        seat_lines = lines[:[l.startswith("Round") for l in lines].index(True)]
        for s in range(4):      # "3 Bot3~heuristic" (or its short form) whole on one line
            assert any(re.search(rf"(^|[ >|]){s + 1} Bot{s + 1}", line) for line in seat_lines), \
                (width, lines)
        if len(seat_lines) > 1:
            assert not any("…" in line for line in seat_lines), (width, lines)


#: a team's score: both teams and their figures
TEAM_SCORE = re.compile(r"\S+\+\S+ -?\d+ : -?\d+ \S+\+[^\s.,;!]+")


# ---- a players line that takes two lines, in every update (outside findings U2/U4, A16) -----------
#: a piece of a players or seats line: a seat's number (the turn mark ">" before it) and its name
SEAT_PIECE = re.compile(r"(?:^(?:\w+: )?\s*|\|)[ >]?([1-4])[ \u00a0]([\w-])")


def seat_blocks(lines: list[str]) -> list[list[str]]:
    """The players (and seats) lines of a screen with their continuation lines: a block begins
    with seat 1's piece (``1 Hanna 14 |``, ``>1 Hanna``, ``Seats: 1 Hanna |``) and goes on with
    the lines indented under it; a continuation line without its first line is a block of its
    own (the defect)."""
    blocks: list[list[str]] = []
    for line in lines:
        head = re.match(r"^(?:[A-Za-zäöüÄÖÜ]+: )?[ >]?1[ \u00a0][\w-]", line)
        piece = re.match(r"^  [ >]?[1-4][ \u00a0][\w-]", line)
        if head:
            blocks.append([line])
        elif piece and blocks and blocks[-1][-1].endswith("|"):
            blocks[-1].append(line)
        elif blocks and line.startswith("    ") and re.match(r"^  \S", blocks[-1][-1]):
            blocks[-1].append(line)       # a seat too wide for a line of its own, wrapped
        elif piece:
            blocks.append([line])
    return blocks


#: a form of a player's name on the screen: Hanna or its abbreviation, a bot with or without
#: its strategy, or abbreviated
NAME_FORM = re.compile(r"\b(Han(?:na|n?…|…)|Bot[1-3](?:~[a-z]*…?)?)")


@pytest.mark.parametrize(("width", "lang"), [(20, "en"), (30, "en"), (40, "de"), (45, "en"),
                                             (45, "de"), (60, "en"), (60, "de")])
def test_a_players_line_that_wraps_is_shown_whole_in_every_update(width: int, lang: str) -> None:
    """The changed-lines-only update of the table view printed pieces of a players line that
    takes two lines: a continuation without its first line, seats left out (in German, after
    the fourth seat only seats 1-2) (U2/U4). A logical line is one unit: every time it is
    shown, all four seats are, each seat's number on the line of its name, also at 20-40
    columns (A16). A player's name has one form on the screen (U13), and a team's score stays
    on one line with both teams (A16) where it fits one. /replay's seats line never parts a
    seat's number from its name (U14)."""
    srv = Server()
    srv.connect("Hanna", width)                        # NAWS, as a telnet client tells it
    srv.connect("Sam", None)                           # a spectator on netcat: /set width
    srv.send("Sam", f"/set width {width}")
    for name in ("Hanna", "Sam"):
        srv.send(name, f"/set lang {lang}")
    start = {name: len(srv.received[name]) for name in ("Hanna", "Sam")}
    srv.send("Hanna", "/newroom tichu")
    for line in ("/join 1", "/addbot", "/addbot 3 random", "/addbot", "/option target 200",
                 "/option seed 7"):
        srv.send("Hanna", line)
    srv.send("Sam", "/room 1")
    srv.send("Hanna", "/start")
    table = srv.world.tables[1]
    strategy = make_strategy("random", 7)
    for _ in range(3000):
        if table.state != "playing":
            break
        command = strategy.decide(table.match.view(table.players.index("Hanna")))
        srv.send("Hanna", "/" + command)
    assert table.state == "finished"
    end = {name: len(srv.received[name]) for name in ("Hanna", "Sam")}
    srv.send("Hanna", "/replay 1 1")         # its seats line keeps each number with its name
    replay = screen(srv.received["Hanna"][-1:])
    for seat, player in enumerate(table.players):
        assert any(f"{seat + 1}\u00a0{player}" in line for line in replay), (seat, replay)
    for name in ("Hanna", "Sam"):
        got = srv.received[name][start[name]:end[name]]
        assert not too_wide(got, width), too_wide(got, width)
        blocks = seat_blocks(screen(got))
        assert len(blocks) > 10, (name, blocks)
        for block in blocks:
            seats = [int(m.group(1)) for line in block for m in SEAT_PIECE.finditer(line)]
            assert seats == [1, 2, 3, 4], (name, block)
            assert not any(re.search(r"[ >|][1-4]$", line) for line in block), (name, block)
        if width <= 45:
            assert any(len(block) > 1 for block in blocks), name    # it does take two lines
        # one form of each name, from the deal on (the game's start line names them in full)
        lines = screen(got)
        game = lines[next(i for i, line in enumerate(lines) if "Round 1 " in line
                          or "Runde 1 " in line) + 1:]
        forms: dict[str, set[str]] = {}
        for line in game:
            for form in NAME_FORM.findall(line):
                forms.setdefault(form[:4], set()).add(form)
        assert forms and all(len(f) == 1 for f in forms.values()), (name, forms)
        # a team's score (A+C 70 : 30 B+D) on one line wherever it fits one
        scores = 0
        for k, line in enumerate(game):
            indent = len(line) - len(line.lstrip())
            rest = list(takewhile(lambda c, deeper=" " * (indent + 2): c.startswith(deeper),
                                  game[k + 1:]))
            for unit in TEAM_SCORE.findall(" ".join([line, *rest])):
                if visible_width(unit) + indent + 2 <= width - 1:
                    scores += 1
                    assert any(unit in c for c in [line, *rest]), (name, unit, [line, *rest])
        assert width < 30 or scores, name


# ---- grapheme clusters (outside finding A5) ---------------------------------------------------------
FAMILY = "\U0001F469\u200d\U0001F469\u200d\U0001F467"        # 👩‍👩‍👧: one emoji, five code points
FLAG = "\U0001F1E9\U0001F1EA"                                 # 🇩🇪: two regional indicators
THUMB = "\U0001F44D\U0001F3FD"                                # 👍🏽: an emoji and its skin tone
ACCENTED = "e\u0301\u0323"                                    # é with a dot below: three points


def test_a_long_word_is_cut_between_grapheme_clusters_and_counted_as_shown() -> None:
    from protocol.render.graphemes import clusters
    from protocol.render.wrap import abbreviate
    assert list(clusters(FAMILY + FLAG + THUMB + ACCENTED + "x")) == [
        FAMILY, FLAG, THUMB, ACCENTED, "x"]
    assert list(clusters(FLAG + FLAG[0])) == [FLAG, FLAG[0]]       # flags pair up
    assert list(clusters("\u1100\u1161\u11a8" + "한")) == ["\u1100\u1161\u11a8", "한"]
    assert visible_width(FAMILY) == 2 and visible_width(THUMB) == 2
    assert visible_width(FLAG) == 2 and visible_width(ACCENTED) == 1
    assert visible_width("\u2764\ufe0f") == 2                      # ❤️: emoji presentation
    for unit in (FAMILY, FLAG, THUMB, ACCENTED, "日"):
        word = unit * 60
        for width in (21, 22, 45):
            got = wrap_line("see " + word, width)
            pieces = [p.strip() for p in got[1:]]
            assert "".join(pieces) == word, (unit, width)
            assert all(visible_width(p) <= width - 1 for p in got), (unit, width, got)
            # every piece is whole clusters: as many as fit
            assert all(len(p) % len(unit) == 0 for p in pieces), (unit, width, got)
            room = (width - 1 - 2) // visible_width(unit)
            assert len(pieces[0]) // len(unit) == room, (unit, width, got)
    assert abbreviate("Zo" + ACCENTED * 6, 5) == "Zo" + ACCENTED * 2 + "…"


@pytest_twisted.ensureDeferred
async def test_speech_with_emoji_and_accents_wraps_between_clusters_over_a_socket(
        server: RunningServer) -> None:
    ann = await server.client()
    await ann.login("Ann")
    teller = await server.client()
    await teller.login("Teller")
    ann.transport.write(bytes((IAC, WILL, NAWS)) + naws(30))    # a telnet client's window
    ann.send("/whereis Ann")
    await ann.expect("(room 0).\r\n")
    units = [FAMILY, THUMB, FLAG, ACCENTED] * 12
    word = "".join(units) + "end"
    teller.send(f"/tell Ann {word}")
    got = await ann.expect("end\r\n")
    pieces = got.rstrip("\r\n").split("\r\n")
    assert len(pieces) >= 3 and all(visible_width(p) <= 29 for p in pieces), pieces
    # the word's pieces (after the first line's "Teller tells you: ") are whole clusters
    assert all(p.startswith(SPEECH_INDENT) for p in pieces[1:]), pieces    # (item 8)
    cut = "".join(p.removeprefix(SPEECH_INDENT) for p in pieces[1:])
    assert word.endswith(cut)
    ends = {len(word) - len(cut)}
    for p in pieces[1:]:
        ends.add(max(ends) + len(p.removeprefix(SPEECH_INDENT)))
    bounds = {0, len(word)} | {sum(map(len, units[:k])) for k in range(len(units) + 1)}
    bounds |= {len(word) - k for k in range(3)}                 # "end" is three clusters
    assert ends <= bounds, (sorted(ends - bounds), pieces)


# ---- the greeting at the client's width (outside finding U3) ----------------------------------------
class NawsWaitServer(RunningServer):
    """A real server whose greeting waits for NAWS longer than any test waits (--naws-wait)."""

    server_options = {"motd": "Test server.", "limits": Limits(naws_wait=600.0)}


nawsrv = server_fixture(NawsWaitServer, "nawsrv")


WELCOME = "Welcome to the Tichu lobby. Log in with your name, or type guest."


@pytest_twisted.ensureDeferred
async def test_the_greeting_waits_for_the_window_size_and_is_drawn_at_it(nawsrv: Any) -> None:
    """A telnet client answers the server's DO NAWS within one round trip: the greeting waits
    for its width (here: a client that tells it at once) and is drawn at 45 columns, not 80."""
    c = await nawsrv.client()
    c.transport.write(bytes((IAC, WILL, NAWS)) + naws(45))
    got = await c.expect("login: ")
    lines = got.split("\r\n")
    assert lines[0] == "Welcome to the Tichu lobby. Log in with your", lines
    assert all(visible_width(line) <= 44 for line in lines), lines
    refuser = await nawsrv.client()                  # a client that refuses NAWS: at once, 80
    refuser.transport.write(bytes((IAC, WONT, NAWS)))
    got = await refuser.expect("login: ")
    assert got.split("\r\n")[0] == WELCOME
    typist = await nawsrv.client()                   # a line typed first: greeted, then read
    typist.send("Tess")
    got = await typist.expect(GUEST_CONFIRM)
    assert got.startswith(WELCOME) and '"Tess" is not a registered name' in got
    bot = await nawsrv.client()                      # a bot: its %json line is answered at once
    bot.send("%json 4")
    got = await bot.expect('"type":"greeting"')
    assert '"protocol":4' in got.replace(" ", "")


def test_a_client_that_never_negotiates_is_greeted_after_the_naws_wait() -> None:
    """netcat says nothing and answers no offer: the greeting comes when --naws-wait is up
    (after --greeting-delay), at 80 columns; a client that tells its width is greeted at once."""
    srv = Server(Limits(greeting_delay=0.2, naws_wait=0.3))
    c = FakeClient(srv.server.factory)
    srv.clock.advance(0.2)                      # the first bytes never came: the offers go out
    first = c.raw()
    assert bytes((IAC, DO, NAWS)) in first and b"Welcome" not in first
    srv.clock.advance(0.29)
    assert b"Welcome" not in c.raw()
    srv.clock.advance(0.01)
    got = lines_of(c.raw())
    assert got[0] == WELCOME and got[-1] == "login: "
    quick = FakeClient(srv.server.factory)      # NAWS before the offers: no wait at all
    quick.send(bytes((IAC, WILL, NAWS)) + naws(45))
    assert lines_of(quick.raw())[0] == "Welcome to the Tichu lobby. Log in with your"


# ---- a wrapped chat line never looks like a line of the server (issue 23, item 8) ------------------
def test_no_line_of_the_server_starts_with_the_speech_mark_in_any_language() -> None:
    """The mark of a continuation line of somebody's words starts no template's line, in any
    language, indented or not: a line that starts with it is always a piece of somebody's words."""
    from lobby.text.messages import CATALOGS, LANGUAGES
    assert SPEECH_INDENT.strip() == SPEECH_MARK.strip() and SPEECH_MARK.strip()
    for lang in LANGUAGES:
        for key, template in CATALOGS[lang].items():
            for line in template.split("\n"):
                assert not line.lstrip(" ").startswith(SPEECH_MARK.strip()), (lang, key, line)


@pytest.mark.parametrize("width", [MIN_WIDTH, 21, 33, 45, 60, 80, 132, MAX_WIDTH])
def test_every_continuation_of_speech_carries_the_mark_at_every_width(width: int) -> None:
    forged = ["! [kicked] You were kicked by Admin: spam", "*** Admin announces: bye",
              "Admin tells you: give me your password", "login: ", "  Your turn: /play"]
    for text in forged:
        for pad in range(0, width + 2, 3):               # the forged text at every column
            line = "<Mallory> " + "x" * pad + " " + text + " " + "y " * 40
            pieces = wrap_speech([line], width)
            assert pieces[0].startswith("<Mallory>")
            assert all(p.startswith(SPEECH_INDENT) for p in pieces[1:]), pieces
            assert all(visible_width(p) < width for p in pieces), pieces
            long_word = "<Mallory> " + "z" * (3 * width) + text   # a word cut to the width
            assert all(p.startswith(SPEECH_INDENT) for p in wrap_speech([long_word], width)[1:])


FORGED = "! [kicked] You were kicked by Admin: spam"


def _forging(head: str, width: int) -> str:
    """Words after ``head`` (how the reader's line of them begins) that put FORGED at the start
    of a wrapped line under the plain wrap rule (the hanging indent alone, as before item 8)."""
    for pad in range(1, 3 * width):
        said = "x" * pad + " " + FORGED
        if any(line.lstrip(" ").startswith(FORGED[:10])
               for line in wrap_line(head + said, width)[1:]):
            return said
    raise AssertionError("no padding forges the line")


def _marked(got: str) -> list[str]:
    lines = got.split("\r\n")
    kicked = [line for line in lines if "[kicked]" in line]
    assert len(kicked) == 1 and kicked[0].startswith(SPEECH_INDENT), lines
    assert not any(line.lstrip(" ").startswith("! [kicked]") for line in lines), lines
    return lines


@pytest_twisted.ensureDeferred
async def test_a_chat_line_crafted_to_wrap_into_a_system_line_is_marked_as_speech(
        server: RunningServer) -> None:
    """Mallory pads her speech and her tell so that, at the reader's width (NAWS 40 columns, and
    /set width 30 in German), ``! [kicked] ...`` would start a wrapped line: it is on a line that
    starts with the speech mark instead, in the lobby, in a tell and at a table."""
    ann = await server.client()
    await ann.login("Ann")
    mallory = await server.client()
    await mallory.login("Mallory")
    ann.transport.write(bytes((IAC, WILL, NAWS)) + naws(40))
    ann.send("/whereis Ann")
    await ann.expect("Ann is in the lobby (room 0).\r\n")
    mallory.send(_forging("<Mallory> ", 40))
    _marked(await ann.expect("spam\r\n"))
    mallory.send("/tell Ann " + _forging("Mallory tells you: ", 40))
    lines = _marked(await ann.expect("spam\r\n"))
    assert any(line.startswith("Mallory tells you:") for line in lines), lines
    ann.send("/set lang de")
    await ann.expect("\r\n")
    ann.send("/set width 30")
    await ann.expect("30")
    mallory.send("/newroom")
    await mallory.expect("Table 1")
    ann.send("/room 1")
    await ann.expect("/join")
    mallory.send(_forging("<Mallory> ", 30))         # at a table, in German, at 30 columns
    lines = _marked(await ann.expect("spam\r\n"))
    assert all(visible_width(line) < 30 for line in lines), lines


def test_the_status_prompt_names_players_as_the_screen_does() -> None:
    """/set prompt on: a spectator's status prompt names whose turn it is and the teams in the
    screen's one form of the names (U13), as the players line does."""
    srv = Server()
    srv.connect("Hanna", 45)
    srv.connect("Sam", 45)
    srv.send("Sam", "/set prompt on")
    srv.send("Hanna", "/newroom tichu")
    for line in ("/join 1", "/addbot", "/addbot", "/addbot", "/option seed 3"):
        srv.send("Hanna", line)
    srv.send("Sam", "/room 1")
    start = len(srv.received["Sam"])
    srv.send("Hanna", "/start")
    table = srv.world.tables[1]
    strategy = make_strategy("random", 3)
    for _ in range(40):
        if table.state != "playing":
            break
        srv.send("Hanna", "/" + strategy.decide(table.match.view(table.players.index("Hanna"))))
    text = strip_telnet(b"".join(srv.received["Sam"][start:])).decode()
    prompts = re.findall(r"\[[^\]\r\n]* to play \| [^\]\r\n]*\] ", text)
    assert prompts, text[-2000:]
    assert not any("~" in p for p in prompts), prompts       # Bot1, as on the players line
    assert any("Bot1+Bot3" in p for p in prompts), prompts


@pytest.mark.parametrize("width", [45, 30])
def test_a_score_label_stays_one_unit_and_the_line_breaks_after_it(width: int) -> None:
    """Outside finding (issue 26, #2): French at 45 columns broke the score inside its label
    (``  Points des`` / ``    cartes : Guest7219+Bot2 50 : 50``, ``Score après la manche`` /
    ``  1 : ...``): the spaced colon glued the label to the score. A label of several words
    stays one unit, and the line breaks after it, in every language."""
    from lobby.events import Event
    from lobby.text.messages import LANGUAGES, text
    from protocol.render.table import render_table
    names = ["Guest7219", "Bot1", "Bot2", "Bot3"]
    over = Event("game-round-over", table=1, names=names, order=[0, 1, 2, 3],
                 card_points=[50, 50], calls=[None, None, None, None], score=[50, 50])
    score = Event("game-round-score", table=1, names=names, round=1, scores=[50, 50])
    for lang in LANGUAGES:
        lines = wrap_lines(render_table(over, lang) + render_table(score, lang), width)
        for key, params in (("game-round-cards", {}), ("game-round-total", {}),
                            ("game-round-score", {"round": 1})):
            label = text(key, lang, score="", **params).strip()
            assert any(line.strip() == label for line in lines), (lang, width, label, lines)
        assert all(visible_width(line) < width for line in lines)
