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
    for name in PLAYERS + ["Eve"]:
        await game.connect(name)
    # colour on for one player and the spectator: the hiding check strips the ANSI codes
    for name in ("Bert", "Eve"):
        await game.say(name, "/set color on", "color is on now.\r\n")
    await game.setup({"seed": "4242", "target": "200"}, starter="Cleo")
    steps = await game.play(random.Random(4242))
    table = game.table
    assert table.state == "finished" and table.result and "winner" in table.result
    assert steps > 100
    for name in PLAYERS + ["Eve"]:
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
