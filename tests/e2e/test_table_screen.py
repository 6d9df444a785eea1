"""Issue 26, "the table view": what a person at an 80-column telnet terminal sees of a whole game,
over real sockets (four scripted players and a spectator on a running server):

- every "your turn" prompt comes with the trick and the hand (they scrolled off a 24-row screen);
- the partner is marked in the players line;
- the reader's own moves and decisions say "you" (not `Anna passes.` to Anna);
- another player's move followed by a turn that is not yours is one line;
- the bomb hint is given once per trick, and not while the reader's side holds the trick;
- a spectator gets the declined Grand Tichu decisions of a deal as one line;
- leaving a finished table does not print it again;
- the card legend comes once per account, after its first deal."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest
import pytest_twisted

from conftest import RunningServer, unwrap
from lobby.text.messages import text
from protocol.render.table import card_legend
from protocol.render.wrap import visible_width, wrap_lines
from wire_tables import WireGame

PLAYERS = ["Anna", "Bert", "Cleo", "Dirk"]       # seats 1..4: Anna+Cleo against Bert+Dirk
ANSI = re.compile(r"\x1b\[[0-9;]*m")
PARTNER = {"Anna": "Cleo", "Cleo": "Anna", "Bert": "Dirk", "Dirk": "Bert"}
PLAY = re.compile(r"^(\w+) (?:plays|BOMBS) ")


def screen(game: WireGame, name: str) -> list[str]:
    return [ANSI.sub("", line) for line in game.clients[name].lines
            if not re.match(r"\w+ is in the ", line)]          # WireGame's own probes


async def a_game(server: RunningServer, seed: int) -> WireGame:
    game = WireGame(server, PLAYERS, ["Eve"])
    await game.setup({"seed": str(seed), "round": "1"})
    await game.play(random.Random(seed))
    assert game.table.state == "finished"
    return game


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_the_table_view_of_a_whole_game(server: RunningServer) -> None:
    game = await a_game(server, 8)
    hints = 0
    for name in PLAYERS:
        lines = screen(game, name)
        prompts = [i for i, l in enumerate(lines) if l.startswith(("Your turn:", "Your lead:"))]
        assert len(prompts) > 3, name
        for i in prompts:
            # the hand right above the prompt; above it the trick (a lead after a won trick:
            # no trick to show)
            assert lines[i - 1].startswith("Your hand: "), (name, lines[i - 3:i + 1])
            if lines[i].startswith("Your turn:"):
                assert lines[i - 2].startswith("Trick: "), (name, lines[i - 3:i + 1])
        # the partner marked, nobody else
        players = [l for l in lines if re.match(r"^[ >]?1 Anna ", l)]
        assert players and all(re.search(rf"\b{PARTNER[name]} [^|]*\(partner\)", l)
                               and l.count("(partner)") == 1 for l in players), (name, players)
        # "you", not the reader's own name
        assert not any(l.startswith(f"{name} passes") or l.startswith(f"{name} plays ")
                       or l.startswith(f"{name} does not call") or l.startswith(f"{name} wins ")
                       for l in lines), name
        assert any(l.startswith(("You pass", "You play ")) for l in lines), name
        # another player's move and the next turn, not the reader's: one line
        assert any(re.fullmatch(r"\w+ passes; \w+'s turn\.", l) for l in lines), name
        # the bomb hint: once per trick, never right after a play of the reader's own side
        since_trick = 0
        last_play: str | None = None
        for l in lines:
            m = PLAY.match(l) or re.match(r"^(You) (?:play|BOMB) ", l)
            if m:
                last_play = name if m.group(1) == "You" else m.group(1)
            if re.search(r"\bwins? the (Dragon )?trick\b", l) or l.startswith("Round "):
                since_trick = 0
            if l.startswith("You may bomb: "):
                hints += 1
                since_trick += 1
                assert since_trick == 1, (name, "a second hint in one trick")
                assert last_play not in (name, PARTNER[name]), (name, last_play)
    assert hints > 0                      # this seed deals a bomb that is hinted
    eve = screen(game, "Eve")
    assert not any("does not call Grand Tichu" in l for l in eve)
    assert any(l.startswith("No Grand Tichu from ") or l == "Nobody calls Grand Tichu."
               for l in eve)
    assert not any(l.startswith("Waiting for Grand Tichu decisions: ") and "," not in l
                   for l in eve)          # no "who is still awaited" after each decision
    # leaving the finished table: the line that says so, no reprint of the table
    marks = {n: len(game.clients[n].lines) for n in game.clients}
    await game.say("Anna", "/leave", "You leave seat 1.")
    await game.settle()
    for n in game.clients:
        new = [ANSI.sub("", l) for l in game.clients[n].lines[marks[n]:]
               if not re.match(r"\w+ is in the ", l)]
        assert new == (["You leave seat 1."] if n == "Anna" else ["Anna leaves seat 1."]), (n, new)


async def _deal_with_bots(c: Any, server: RunningServer, name: str) -> str:
    """``name`` (logged in on ``c``) opens a table, sits down with three bots and starts; what
    came up to the first Grand Tichu question."""
    c.send("/newroom")
    await c.expect("/start when four sit.\r\n")
    world: Any = server.server.world
    world.tables[world.online(name).room.number].bot_delay = 0
    c.send("/join")
    await c.expect("You sit down in seat 1.\r\n")
    for _ in range(3):
        c.send("/addbot")
        await c.expect(" in seat ")
    c.send("/start")
    return unwrap(await c.expect("Grand Tichu? /grand or /nogrand\r\n"))


LEGEND = "How to read the cards (shown once). Suits: S\u00a0Schwert\u00a0(Sword)"


@pytest_twisted.ensureDeferred
async def test_the_card_legend_once_per_account(server: RunningServer) -> None:
    store: Any = server.server.store
    c = await server.client()
    await c.login("Lena")
    c.send("/register secret12")
    await c.expect("\r\n")
    got = await _deal_with_bots(c, server, "Lena")
    assert LEGEND in got and "(partner) or (P) your partner" in got
    assert got.index("Your first 8 cards: ") < got.index(LEGEND)       # right after the deal
    account = await store.get_account("Lena")
    assert account.legend_seen                                        # the account keeps it
    # an account that has seen it: not again
    c2 = await server.client()
    await c2.login("Lara")
    c2.send("/register secret12")
    await c2.expect("\r\n")
    await store.set_legend_seen("Lara")
    c2.send("/quit")
    await c2.expect("Lara.\r\n")
    again = await server.client()
    await again.expect("login: ")
    again.send("Lara")
    await again.expect("password: ")
    again.send("secret12")
    await again.expect("/help for the commands.\r\n")
    got = await _deal_with_bots(again, server, "Lara")
    assert "Your first 8 cards: " in got and LEGEND not in got


#: a prompt that waits for the reader's move in the play
YOUR_MOVE = ("Your turn:", "Your lead:", "Give the Dragon trick:")


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_every_turn_shows_the_players_line_the_trick_and_the_hand(
        server: RunningServer) -> None:
    """Issue 26, review #14: the players line (cards left, whose turn) was missing at the lead
    after a trick won by a player who is out (the lead passes on: the line read as before) and
    at the lead after the Dragon gift. Every prompt for a move of the reader's comes with the
    players line, the trick and the hand, at 80 and at 45 columns (Bert and Cleo)."""
    game = WireGame(server, PLAYERS, ["Eve"])
    for name in ("Bert", "Cleo"):
        await game.connect(name)
        await game.say(name, "/set width 45", "Width")
    await game.setup({"seed": "8", "round": "1"})
    await game.play(random.Random(8))
    cases = {"out": 0, "dragon": 0}
    for name in PLAYERS:
        lines = unwrap("\n".join(screen(game, name))).split("\n")
        out: set[str] = set()
        for i, line in enumerate(lines):
            found = re.match(r"(\w+) is out ", line)
            if found:
                out.add(found.group(1))
            if not line.startswith(YOUR_MOVE):
                continue
            assert lines[i - 1].startswith("Your hand: "), (name, lines[i - 5:i + 1])
            players = [k for k in range(max(0, i - 4), i) if re.match(r"^[ >]?1 Anna ", lines[k])]
            assert players, (name, lines[i - 6:i + 1])
            before = lines[players[0] - 1]
            won = re.match(r"(\w+) wins the trick\.", before)
            if won and won.group(1) in out:
                cases["out"] += 1
            if "Dragon trick to" in lines[players[0] - 1] or any(
                    "give the Dragon trick to" in l for l in lines[i - 5:i]):
                cases["dragon"] += 1
    assert cases["out"] and cases["dragon"], cases       # the seed has both


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_the_card_legend_wraps_as_paragraphs_and_names_the_ace_ass(
        server: RunningServer) -> None:
    """Review #10: the legend wrote BSW's Ace `As` (the German catalog's word is `Ass`), and
    as one long line it broke between a card's notation and its name (`K` / `König`, `B` /
    `(valet, Bube)`). Now, in five languages at 80 and 45 columns: four paragraphs (suits,
    ranks, specials, the players line's marks), no line fills the last column, every card's
    entry (``A\u00a0(Ass)``, ``S\u00a0Schwert\u00a0(Sword)``) whole on one line, and the Ace
    `Ass` in every language."""
    world: Any = server.server.world
    for lang in ("en", "de", "fr", "es", "da"):
        for width in (80, 45):
            c = await server.client()
            await c.login(f"L{lang}{width}")
            c.send(f"/set lang {lang}")
            await c.expect("\r\n")
            c.send(f"/set width {width}")
            await c.expect("\r\n")
            c.send("/newroom")
            await c.expect("[")                               # the hint: /join [SEAT]
            world.tables[world.online(f"L{lang}{width}").room.number].bot_delay = 0
            for line in ("/join", "/addbot", "/addbot", "/addbot", "/start"):
                c.send(line)
            legend = card_legend(lang)
            last = wrap_lines(legend[-1:], width)[-1]
            got = await c.expect(last + "\r\n")
            shown = got[got.index(wrap_lines(legend, width)[0]):].split("\r\n")[:-1]
            assert shown == wrap_lines(legend, width), (lang, width, shown)
            assert unwrap("\n".join(shown)).split("\n") == legend       # four paragraphs
            assert all(visible_width(line) < width for line in shown), (lang, width)
            entries = [e for p in legend for e in re.findall(r"\S*\u00a0\S*(?:\u00a0\S*)*", p)]
            assert len(entries) == 12, entries                    # 4 suits, 4 ranks, 4 specials
            for entry in entries:
                assert any(entry in line for line in shown), (lang, width, entry)
            ace = next(e for e in entries if e.startswith("A\u00a0"))
            assert text("rank-A", "de") == "Ass" and "Ass" in ace, (lang, ace)
            assert "Ass" in text("cmd-play-help", lang), lang     # the help says it alike


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_a_spectator_gets_the_exchange_condensed(server: RunningServer) -> None:
    """Issue 26 telnet review, item 6: a spectator got ``Waiting for the exchange: anna, Bot1,
    Bot2, Bot3`` and then the list less one name after each give (4-5 lines a deal). A
    spectator gets one line when the exchange starts and one when it is complete; the Grand
    Tichu decisions were condensed already (one line)."""
    game = await a_game(server, 8)
    eve = screen(game, "Eve")
    waits = [l for l in eve if l.startswith("Waiting for the exchange: ")]
    assert len(waits) == 1, waits
    assert not any(" has given three cards" in l for l in eve), eve
    done = eve.index(text("game-exchange-done", "en"))
    assert eve.count(eve[done]) == 1 and " leads." in eve[done + 1], eve[done - 3:done + 3]
    # the Grand Tichu decisions: one line when the phase ends, whatever came between them
    assert len([l for l in eve if l.startswith("No Grand Tichu from ")
                or l == text("game-grand-no-nobody", "en")]) == 1, eve
    for name in PLAYERS:              # the players keep who gave, one by one
        assert sum(" has given three cards." in l for l in screen(game, name)) == 3, name
