"""The expert bot thinking in worker processes (lobby/bots/pool.py) at a server over real sockets:
complete games without a refused command, other users answered while a bot thinks, a killed
worker replaced with the decision falling back to the heuristic, no process left behind."""
from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import pytest
import pytest_twisted
from twisted.internet import reactor
from twisted.internet.task import deferLater

from conftest import RunningServer, play_to_the_end
from lobby.bots.pool import BotPool, WorkerLost
from lobby.bots.search import Job
from lobby.bots.strategy import make_strategy

#: the tests' pool waits long for an answer (a busy machine), the kill test does not rely on it
TEST_SLACK = 60.0


class PoolServer(RunningServer):
    def __init__(self, db: Path, pool: BotPool) -> None:
        super().__init__(db)
        self.server_options = dict(RunningServer.server_options, bot_pool=pool)


@pytest_twisted.async_yield_fixture
async def pooled(tmp_path: Path) -> AsyncIterator[tuple[PoolServer, BotPool]]:
    pool = BotPool(reactor, 1, slack=TEST_SLACK)
    running = PoolServer(tmp_path / "lobby.sqlite3", pool)
    await running.start()
    pids = await pool.warm()
    assert len(pids) == 1
    yield running, pool
    await running.stop()
    for pid in pids + pool.pids():
        assert not _alive(pid), f"worker {pid} left behind"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def until(check: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    """Wait (polling the reactor every 10 ms) until `check()` is true; fail after `timeout`."""
    waited = 0.0
    while True:
        got = check()
        if got:
            return got
        if waited >= timeout:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        await deferLater(reactor, 0.01, lambda: None)
        waited += 0.01


async def open_table(running: PoolServer, name: str, lines: list[tuple[str, str]]) -> Any:
    c = await running.client()
    await c.login(name)
    c.send("/newroom tichu")
    await c.expect("You open table ")
    table = running.server.world.online(name).room.table
    table.bot_delay = 0
    for line, answer in lines:
        c.send(line)
        await c.expect(answer)
    return c, table


@pytest.mark.reactor_timeout(240)
@pytest_twisted.ensureDeferred
async def test_expert_bots_in_workers_play_a_complete_game_with_a_person(pooled: Any) -> None:
    running, pool = pooled
    c, table = await open_table(running, "Hanna", [
        ("/join 1", "sits down in seat 1"), ("/addbot expert:0.05", "seat 2"),
        ("/addbot 3 heuristic", "seat 3"), ("/addbot expert:0.05", "seat 4"),
        ("/option target 100", "sets target to 100"), ("/start", "the game starts")])
    person = make_strategy("random", 3)
    everything = await play_to_the_end(c, table, "Hanna", person)
    assert table.state == "finished" and not table.result.get("abandoned")
    assert "! [" not in everything                  # no command of the person was refused
    experts = [b for b in table.bots.values() if b.strategy_name.startswith("expert")]
    assert len(experts) == 2
    assert all(not b.errors for b in table.bots.values())   # no bot command was refused
    assert pool.jobs > 0 and pool.lost == 0
    assert all(b.sent for b in experts)


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_other_users_are_answered_while_an_expert_thinks(pooled: Any) -> None:
    """A bot with a long budget (10 s per decision) thinks in its worker; meanwhile another
    user's commands are answered, and the bot is still thinking when the answers arrive."""
    running, pool = pooled
    c, table = await open_table(running, "Ida", [
        ("/addbot expert:10", "seat 1"), ("/addbot heuristic", "seat 2"),
        ("/addbot heuristic", "seat 3"), ("/addbot heuristic", "seat 4"),
        ("/start", "the game starts")])
    bot = table.bots[table.seated[0]]
    await until(lambda: bot._thinking is not None, "the expert to think")
    other = await running.client()
    await other.login("Jens")
    for i in range(5):
        other.send("/whereis Ida")
        await other.expect("Ida is in the ")
    assert bot._thinking is not None               # still on the same decision
    assert pool.jobs >= 1


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_a_killed_worker_is_replaced_and_the_decision_falls_back(pooled: Any) -> None:
    running, pool = pooled
    c, table = await open_table(running, "Kai", [
        ("/addbot expert:10", "seat 1"), ("/addbot heuristic", "seat 2"),
        ("/addbot heuristic", "seat 3"), ("/addbot heuristic", "seat 4"),
        ("/start", "the game starts")])
    bot = table.bots[table.seated[0]]
    await until(lambda: bot._thinking is not None, "the expert to think")
    [pid] = pool.pids()
    sent = len(bot.sent)
    os.kill(pid, signal.SIGKILL)
    await until(lambda: bot.fallbacks == 1, "the fallback")
    assert pool.lost == 1 and pool.replaced == 1
    # the heuristic's answer went to the table (a decision the heuristic makes: never nothing
    # in the Grand Tichu or exchange phase, where the first decisions are)
    await until(lambda: len(bot.sent) > sent, "the bot's command")
    assert not bot.errors
    # the next job runs in a new worker
    await until(lambda: bot._thinking is not None and pool.pids(), "the next job")
    assert pool.pids() != [pid]
    assert not _alive(pid)


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_the_pool_answers_jobs_and_survives_a_killed_worker() -> None:
    pool = BotPool(reactor, 1, slack=TEST_SLACK)
    try:
        expert = make_strategy("expert:p4", 1)
        view = {"seat": 0, "phase": "grand", "hand": "Dr Ph SA BA GA RA SK BK",
                "calls": [None] * 4, "grand_decided": [False] * 4, "exchanged": [False] * 4,
                "cards_left": [8] * 4, "trick": [], "out": [], "points": [0] * 4}
        expert.observe("round-start", {})
        expert.observe("deal", {"seat": 0, "cards": view["hand"]})
        job = expert.prepare(view)                 # type: ignore[attr-defined]
        assert isinstance(job, Job)
        answer = await pool.think(job)
        assert answer.command in ("grand", "nogrand") and answer.playouts >= 4
        [pid] = pool.pids()
        slow = Job("grand", job.view, job.knowledge, job.heuristic, seconds=10.0, seed=2)
        thinking = pool.think(slow)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(WorkerLost):
            await thinking
        again = await pool.think(job)
        assert again.command == answer.command      # the same job, the same seed: the same
        assert pool.pids() and pool.pids() != [pid]
    finally:
        pids = pool.pids()
        await pool.stop()
    assert not any(_alive(p) for p in pids)
