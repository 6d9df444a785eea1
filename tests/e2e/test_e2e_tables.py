"""Complete Tichu games over real loopback sockets (port 0): four scripted clients type text
commands, spectators watch, and every byte each connection receives is checked for cards that are
hidden from it at that moment (another player's hand, a gift in transit, the undealt last 6)."""
from __future__ import annotations

import os
import random
import re

import pytest
import pytest_twisted

from conftest import RunningServer
from wire_tables import ERROR_LINE, WireGame

PLAYERS = ["Anna", "Bert", "Cleo", "Dirk"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def dump(game: WireGame, name: str) -> None:
    """With TICHU_TRANSCRIPT=DIR set, write what `name` saw (for reviewing the rendering)."""
    where = os.environ.get("TICHU_TRANSCRIPT")
    if where:
        with open(os.path.join(where, f"{name}.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(game.clients[name].lines) + "\n")


def assert_no_leaks(game: WireGame) -> None:
    assert game.leaks() == []
    for c in game.clients.values():
        assert c.checked_lines > 50 and len(c.raw) > 1000


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_a_complete_game_with_a_spectator(server: RunningServer) -> None:
    game = WireGame(server, PLAYERS, ["Eve"])
    for name in [*PLAYERS, "Eve"]:
        await game.connect(name)
    # colour on for one player and the spectator: the hiding check strips the ANSI codes
    for name in ("Bert", "Eve"):
        await game.say(name, "/set color on", "Color is on now.\r\n")
    await game.setup({"seed": "4242", "target": "200"}, starter="Anna")
    steps = await game.play(random.Random(4242))
    table = game.table
    assert table.state == "finished" and table.result and "winner" in table.result
    assert steps > 100
    for name in [*PLAYERS, "Eve"]:
        dump(game, name)
        text = "\n".join(ANSI.sub("", l) for l in game.clients[name].lines)
        assert "Game over after " in text
        assert "Score after round 1: " in text
    eve = [ANSI.sub("", l) for l in game.clients["Eve"].lines]
    # a spectator gets one line per pass (and per play within a trick)
    assert any(re.fullmatch(r"\w+ passes; \w+'s turn\.", l) for l in eve)
    assert any(re.fullmatch(r"\w+ plays .+ \(\d+ left\); \w+'s turn\.", l) for l in eve)
    assert not any(l.startswith("Your hand:") for l in eve)
    # colour reached Bert's hand, not Anna's
    assert any("\x1b[" in l and l.startswith("Your hand:") for l in game.clients["Bert"].lines)
    assert not any("\x1b[" in l for l in game.clients["Anna"].lines)
    assert_no_leaks(game)


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_round_2_ends_after_two_rounds(server: RunningServer) -> None:
    game = WireGame(server, PLAYERS, ["Eve"])
    await game.setup({"seed": "77", "round": "2"})
    await game.play(random.Random(77))
    table = game.table
    assert table.state == "finished" and table.match.round_no == 2
    for name in [*PLAYERS, "Eve"]:
        lines = game.clients[name].lines
        assert "Game over after 2 rounds: " in "\n".join(lines)
        assert not any(l.startswith("Round 3 begins") for l in lines)
    info = await game.command("Eve", "/spielinfo")
    assert info[0] == f"Table {table.number}: finished, host Anna."
    assert any(l.startswith("  Options: round 2, seed 77") for l in info)
    assert_no_leaks(game)


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_turnier_victory_points_after_the_first_round(server: RunningServer) -> None:
    game = WireGame(server, PLAYERS)
    await game.setup({"turnier": "on", "seed": "31"})
    match = game.table.match
    await game.play(random.Random(31), until=lambda: match.round_no > 1)
    assert match.round_no == 2 and match.round_scores
    vp = match.victory_points
    assert sum(vp) > 0 and vp[0] == vp[2] and vp[1] == vp[3]  # partners 1+3, 2+4 in rounds 1-3
    expected = "Victory points: " + ", ".join(f"{n} {vp[p]}" for p, n in enumerate(PLAYERS))
    for name in PLAYERS:
        assert expected in game.clients[name].lines
    # turnier rounds have no Grand Tichu
    answer = await game.command(game.table.players[0], "/grand")
    assert any(ERROR_LINE.match(l) for l in answer)
    assert_no_leaks(game)


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_tichujoin_seats_the_first_two_joiners_together(server: RunningServer) -> None:
    game = WireGame(server, PLAYERS)
    await game.setup({"tichujoin": "on", "seed": "12"}, start=False)
    # before the start the seats follow /join
    info = await game.command("Dirk", "/spielinfo")
    assert "  Seats: 1 Anna, 2 Bert, 3 Cleo, 4 Dirk" in info
    started = await game.command("Anna", "/start")
    assert f"Table {game.table.number}: the game starts, Anna+Bert against Cleo+Dirk." in started
    assert game.table.seated == ["Anna", "Cleo", "Bert", "Dirk"]
    info = await game.command("Anna", "/spielinfo")
    assert "  Seats: 1 Anna, 2 Cleo, 3 Bert, 4 Dirk" in info
    match = game.table.match
    await game.play(random.Random(12), until=lambda: match.round_no > 1)
    assert "Score after round 1: Anna+Bert " in "\n".join(game.clients["Cleo"].lines)
    assert_no_leaks(game)


def code(answer: list[str]) -> str | None:
    for line in answer:
        m = ERROR_LINE.match(line)
        if m:
            return m.group(1)
    return None


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_bad_input_at_a_table_gets_its_code_and_the_game_goes_on(server: RunningServer) -> None:
    game = WireGame(server, PLAYERS, ["Eve"])
    for name in [*PLAYERS, "Eve"]:
        await game.connect(name)
    assert code(await game.command("Anna", "/play S2")) == "not-at-table"
    assert code(await game.command("Anna", "/newroom chess")) == "unknown-game"
    assert code(await game.command("Anna", "/room 42")) == "no-such-room"
    assert code(await game.command("Eve", "/set color purple")) == "bad-setting-value"
    assert code(await game.command("Eve", "/set sound on")) == "unknown-setting"
    # a target no single round reaches: the planted leak at the end needs a round still running
    await game.setup({"seed": "2024", "target": "1000"}, start=False, joins=PLAYERS[:3])
    table = game.table
    assert code(await game.command("Anna", "/start")) == "need-four"
    assert code(await game.command("Anna", "/play S2")) == "no-game"
    assert code(await game.command("Anna", "/join 2")) == "already-seated"
    assert code(await game.command("Dirk", "/join 5")) == "no-such-seat"
    assert code(await game.command("Dirk", "/join 1")) == "seat-taken"
    assert code(await game.command("Anna", "/option colour on")) == "unknown-option"
    assert code(await game.command("Anna", "/option target lots")) == "bad-option-value"
    assert code(await game.command("Anna", "/reset")) == "not-finished"
    await game.command("Dirk", "/join")
    assert table.state == "waiting"
    await game.command("Anna", "/start")
    assert table.state == "playing"
    match = table.match
    # the Grand Tichu phase: no plays, no exchange yet
    anna_hand = match.view(0)["hand"].split()
    assert code(await game.command("Anna", f"/play {anna_hand[0]}")) == "wrong-phase"
    assert code(await game.command("Anna", f"/schupf {' '.join(anna_hand[:3])}")) == "wrong-phase"
    assert code(await game.command("Eve", "/join")) == "game-running"
    assert code(await game.command("Eve", "/grand")) == "not-a-player"
    assert code(await game.command("Bert", "/option target 500")) == "game-running"
    assert code(await game.command("Bert", "/leave")) == "leave-in-game"
    assert code(await game.command("Cleo", "/remove Dirk")) == "not-vanished"
    assert code(await game.command("Cleo", "/accept")) == "no-vote"
    rng = random.Random(2024)
    await game.play(rng, until=lambda: match.round.phase == "play")
    # the play phase
    rnd = match.round
    turn = table.seated[rnd.turn]
    other = table.seated[(rnd.turn + 1) % 4]
    own = rnd.view(rnd.turn)["hand"].split()
    theirs = rnd.view((rnd.turn + 1) % 4)["hand"].split()
    before = (rnd.turn, list(rnd.cards_left()), len(match.actions))
    singles = [c for c in theirs if c not in ("Hu", "Dr", "Ph")]
    assert code(await game.command(other, f"/play {singles[0]}")) == "not-your-turn"
    assert code(await game.command(turn, f"/play {singles[0]}")) == "cards-not-in-hand"
    assert code(await game.command(turn, "/play X9")) == "bad-card"
    assert code(await game.command(turn, "/play R11")) == "bad-card"
    assert code(await game.command(turn, f"/play {own[-1]} {own[-1]}")) == "duplicate-card"
    assert code(await game.command(turn, "/play")) == "bad-arguments"
    assert code(await game.command(turn, "/pass")) == "must-lead"
    assert code(await game.command(turn, f"/schupf {' '.join(own[:3])}")) == "exchange-over"
    assert code(await game.command(turn, "/wish 5")) == "no-wish-pending"
    assert code(await game.command(turn, "/dragon left")) == "no-dragon-pending"
    assert code(await game.command(turn, "/grand")) == "grand-already-decided"
    assert code(await game.command(other, "/bomb S2 S3")) == "not-a-bomb"
    assert (rnd.turn, list(rnd.cards_left()), len(match.actions)) == before   # nothing changed
    # ... and the game goes on to the end of the round
    await game.play(rng, until=lambda: match.round_no > 1)
    assert "Score after round 1: " in "\n".join(game.clients["Eve"].lines)
    assert_no_leaks(game)
    # the checker does see a card it must not: a line to Eve naming a card in Anna's hand
    hidden = match.round.view(table.seated.index("Anna"))["hand"].split()[0]
    from lobby.events import Event
    game.world._table_deliver(["Eve"], Event("says", name="Anna", text=f"I hold {hidden}"))
    await game.settle()
    assert [(n, l) for n, l, _ in game.leaks()] == [("Eve", f"<Anna> I hold {hidden}")]
