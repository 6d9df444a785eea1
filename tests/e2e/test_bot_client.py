"""tichu-bot (tichu_bot.runner) and scripts/selfplay.py against the real server over loopback (port 0): four
bots in machine mode play complete games; every line they receive is one JSON object that
validates against protocol/protocol.schema.json, and every reply carries the id of its command."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from jsonschema import Draft202012Validator
from twisted.internet.defer import Deferred

from conftest import RunningServer, load_script, play_to_the_end
from protocol import json_schema
from tichu_bot import runner as bot

selfplay = load_script("selfplay")

SCHEMA = json_schema()
VALIDATOR = Draft202012Validator(SCHEMA)


def as_deferred(coro: Any) -> Deferred:
    return Deferred.fromFuture(asyncio.ensure_future(coro))


class Recorder:
    """Every line one bot receives, checked as it arrives."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.types: dict[str, int] = {}
        self.problems: list[str] = []

    def __call__(self, line: str) -> None:
        self.lines.append(line)
        try:
            obj = json.loads(line)
        except ValueError:
            self.problems.append(f"not JSON: {line!r}")
            return
        if not isinstance(obj, dict):
            self.problems.append(f"not an object: {line!r}")
            return
        self.types[obj.get("type")] = self.types.get(obj.get("type"), 0) + 1
        for error in VALIDATOR.iter_errors(obj):
            self.problems.append(f"{error.message} at {list(error.absolute_path)} in {line[:300]}")


@pytest.mark.slow   # four bot clients play a whole game over TCP
@pytest.mark.reactor_timeout(90)
@pytest_twisted.ensureDeferred
async def test_four_tcp_bots_play_a_complete_game(server: RunningServer) -> None:
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[int] = loop.create_future()
    recorders = [Recorder() for _ in range(4)]
    strategies = ["heuristic", "random", "heuristic", "random"]
    runs = [bot.run_bot(port=server.port, name=f"Tcp{seat + 1}", open_table=seat == 0,
                        table_ready=ready, seat=seat + 1, strategy=strategies[seat],
                        seed=seat, options=[("seed", "11"), ("target", "200")], timeout=80,
                        on_line=recorders[seat])
            for seat in range(4)]
    results = await as_deferred(asyncio.gather(*runs))
    for seat, (result, rec) in enumerate(zip(results, recorders, strict=True)):
        assert result.finished and result.seat == seat
        assert rec.problems == []
        # every command had exactly one reply with its id (BotClient raises on a stray id)
        assert result.ids_checked == result.commands > 10
        assert result.refusals == 0, result.refused
        # protocol 2: a whole state when the bot comes to the table, then updates
        assert rec.types["state"] >= 1 and rec.types["update"] > 20 and rec.types["ok"] > 5
        assert rec.types["game-match-over"] == 1 and rec.types["game-round-over"] >= 1
        assert result.match is not None and max(result.match["scores"]) >= 200
    # all four saw the same end
    assert len({json.dumps(r.match["scores"]) for r in results}) == 1
    table_numbers = {r.table for r in results}
    assert len(table_numbers) == 1


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_selfplay_mirrored_pair_over_tcp(server: RunningServer) -> None:
    tally, seconds = await as_deferred(selfplay.run_selfplay(
        server.port, 2, "heuristic", "random", seed=3, target=200, parallel=2, timeout=100,
        show_progress=False))
    assert tally.failures == []
    assert tally.games == 2 and tally.rounds >= 2
    assert tally.a.wins + tally.b.wins + tally.shared == 2
    text = selfplay.report(tally, seconds, "heuristic", "random")
    assert "games per second" in text and "A wins: " in text and "Tichu calls succeed" in text


def test_wilson_interval() -> None:
    low, high = selfplay.wilson(200, 200)
    assert 0.98 < low < 0.99 and high == 1.0
    low, high = selfplay.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert selfplay.wilson(0, 0) == (0.0, 1.0)


def test_bot_arguments() -> None:
    with pytest.raises(SystemExit):
        bot.main(["--name", "X"])                  # neither --table nor --open
    assert bot.option_pair("seed=5") == ("seed", "5")


@pytest.mark.reactor_timeout(90)
@pytest_twisted.ensureDeferred
async def test_a_person_in_text_mode_plays_with_three_in_process_bots(
        server: RunningServer) -> None:
    """One human-mode client (text lines only) and three /addbot bots play a game to the end.
    The person's moves come from the random strategy on what the person may see."""

    from lobby.bots.strategies.registry import make_strategy

    c = await server.client()
    await c.login("Hanna")
    c.send("/newroom tichu")
    await c.expect("You open table ")
    world = server.server.world
    table = world.online("Hanna").room.table
    table.bot_delay = 0
    for line, answer in (("/join 1", "down in seat 1"), ("/addbot", "seat 2"),
                         ("/addbot 3 random", "seat 3"), ("/addbot", "seat 4"),
                         ("/option target 200", "sets target to 200"),
                         ("/start", "the game starts")):
        c.send(line)
        await c.expect(answer)
    assert c.buffer.count("{") == 0
    strategy = make_strategy("random", 7)
    everything = await play_to_the_end(c, table, "Hanna", strategy)
    assert table.state == "finished" and table.result and table.result.get("winner") in (0, 1)
    assert "Game over after " in everything
    assert "Your turn: /play" in everything or "Your lead: /play" in everything
    assert "! [" not in everything                  # no command of the person was refused
    assert all(not b.errors for b in table.bots.values())


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_a_line_dropped_by_flood_control_is_sent_again(tmp_path: Path) -> None:
    """Against a server with strict flood control an unpaced bot gets `flooding` (no id) for a
    dropped line, sends it again, and still gets exactly one reply per command, in order."""
    from twisted.internet import reactor

    from lobby.storage.store import Store
    from protocol.connection.guard import Limits
    from protocol.process.server import LobbyServer

    server = LobbyServer(reactor, Store.threaded(str(tmp_path / "db.sqlite3"), reactor),
                         ["tcp:0:interface=127.0.0.1"],
                         limits=Limits(flood_rate=20.0, flood_burst=4))
    await server.start()
    try:
        async def go() -> tuple[list[dict[str, Any]], list[str]]:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port_numbers()[0])
            seen: list[str] = []
            client = bot.BotClient(reader, writer, "Flo", on_line=seen.append)
            client.flood_pause = 0.3
            await client.switch()
            await client.login("Flo")
            answers = [await client.command("/whereis Flo") for _ in range(12)]
            await client.close()
            return answers, seen
        answers, seen = await as_deferred(go())
    finally:
        await server.stop()
    assert [a["type"] for a in answers] == ["whereis"] * 12
    assert [a["id"] for a in answers] == [f"c{i}" for i in range(2, 14)]
    assert any('"code":"flooding"' in line for line in seen)
