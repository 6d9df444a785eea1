"""The expert bot thinking in worker processes (lobby/bots/runtime/pool.py) at a server over real sockets:
complete games without a refused command, other users answered while a bot thinks, a killed
worker replaced with the decision falling back to the heuristic, no process left behind; and the
pool itself: a job's deadline counts from its start in a worker (the pool's timers on a
task.Clock, so that no test depends on the machine's speed), a full queue or a job that waited
its budget is answered by the heuristic at once, a hung worker is replaced, fallbacks are logged
once per interval, the workers run at the lowest priority."""
from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import reactor
from twisted.internet.task import Clock, deferLater
from twisted.logger import Logger

from conftest import RunningServer, play_to_the_end, started
from lobby.bots.runtime.pool import (
    WORKER_NICE,
    BotPool,
    FallbackLog,
    Overloaded,
    ThinkTimeout,
    WorkerLost,
)
from lobby.bots.strategies.registry import make_strategy
from lobby.bots.strategies.search import Job

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
        ("/join 1", "down in seat 1"), ("/addbot expert:0.05", "seat 2"),
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
    _c, table = await open_table(running, "Ida", [
        ("/addbot expert:10", "seat 1"), ("/addbot heuristic", "seat 2"),
        ("/addbot heuristic", "seat 3"), ("/addbot heuristic", "seat 4"),
        ("/start", "the game starts")])
    bot = table.bots[table.seated[0]]
    await until(lambda: bot._thinking is not None, "the expert to think")
    other = await running.client()
    await other.login("Jens")
    for _i in range(5):
        other.send("/whereis Ida")
        await other.expect("Ida is in the ")
    assert bot._thinking is not None               # still on the same decision
    assert pool.jobs >= 1


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_a_killed_worker_is_replaced_and_the_decision_falls_back(pooled: Any) -> None:
    running, pool = pooled
    _c, table = await open_table(running, "Kai", [
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


def grand_job(seconds: float | None = None, seed: int = 1) -> Job:
    """A Grand Tichu decision of the expert: `seconds` of search (None: 4 playouts)."""
    expert = make_strategy("expert:p4", seed)
    view = {"seat": 0, "phase": "grand", "hand": "Dr Ph SA BA GA RA SK BK",
            "calls": [None] * 4, "grand_decided": [False] * 4, "exchanged": [False] * 4,
            "cards_left": [8] * 4, "trick": [], "out": [], "points": [0] * 4}
    expert.observe("round-start", {})
    expert.observe("deal", {"seat": 0, "cards": view["hand"]})
    job = expert.prepare(view)                 # type: ignore[attr-defined]
    assert isinstance(job, Job)
    if seconds is None:
        return job
    return Job("grand", job.view, job.knowledge, job.heuristic, seconds=seconds, seed=seed)


def failure_of(d: Any) -> Any:
    """The failure a Deferred has already failed with (it must have fired)."""
    assert d.called, "the Deferred has not fired"
    got: list[Any] = []
    d.addErrback(got.append)
    assert got, "the Deferred did not fail"
    return got[0]


@pytest_twisted.async_yield_fixture
async def clocked() -> AsyncIterator[tuple[BotPool, Clock]]:
    """One worker whose deadlines run on a task.Clock: nothing times out unless the test says."""
    clock = Clock()
    pool = BotPool(reactor, 1, clock=clock, slack=1.0, hang=100.0)
    pids = await pool.warm()
    yield pool, clock
    pids += pool.pids()
    await pool.stop()
    assert not any(_alive(p) for p in pids)


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_the_deadline_starts_when_a_worker_starts_the_job(clocked: Any) -> None:
    """Two jobs for one worker: the second waits for the first; 50 s passing on the pool's
    clock before either has started (far beyond budget + slack, below the hang limit) times
    neither out (the old pool counted from the submission, so a job queued behind a slow one
    timed out before it ever ran)."""
    pool, clock = clocked
    pool.wait = False                          # (the queue's own limit is another test)
    slow, quick = grand_job(0.3, 1), grand_job(0.05, 2)
    first, second = pool.think(slow), pool.think(quick)
    assert pool.busy() == 1 and pool.waiting() == 1
    clock.advance(50)                          # no reactor turn yet: neither job has started
    assert not first.called and not second.called
    a, b = await first, await second
    assert a.command in ("grand", "nogrand") and a.playouts > 0
    assert b.command in ("grand", "nogrand") and b.playouts > 0
    assert pool.timeouts == 0 and pool.replaced == 0 and pool.fallbacks() == 0
    assert pool.outcomes == {("grand", "searched"): 2}


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_an_overrun_is_answered_without_a_new_worker_and_a_hung_one_is_replaced(
        clocked: Any) -> None:
    pool, clock = clocked
    [pid] = pool.pids()
    # (4 s of real thinking: the poll below sees the start long before the answer comes)
    long = pool.think(grand_job(4.0, 3))
    await until(lambda: pool.started == 1, "the worker to start the job")
    clock.advance(4.0 + pool.slack + 0.01)    # past its budget + slack since its start
    assert isinstance(failure_of(long).value, ThinkTimeout)
    assert pool.timeouts == 1 and pool.replaced == 0 and pool.pids() == [pid]
    # the worker finishes the abandoned job (its answer is dropped), then takes the next one
    after = pool.think(grand_job(None, 4))
    assert pool.waiting() == 1
    answer = await after
    assert answer.playouts >= 4 and pool.pids() == [pid]
    # a worker still busy `hang` seconds past the deadline is hung: killed and replaced
    hung = pool.think(grand_job(10.0, 5))
    await until(lambda: pool.started == 3, "the worker to start the job")
    clock.advance(10.0 + pool.slack + pool.hang + 0.01)
    assert isinstance(failure_of(hung).value, ThinkTimeout)
    assert pool.replaced == 1 and pool.pids() != [pid]
    await until(lambda: not _alive(pid), "the hung worker to end")
    again = await pool.think(grand_job(None, 4))
    assert again.command == answer.command     # the same job and seed in the new worker
    assert pool.outcomes == {("grand", "timeout"): 2, ("grand", "searched"): 2}


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_a_full_queue_and_a_long_wait_are_answered_by_the_heuristic_at_once(
        clocked: Any) -> None:
    pool, clock = clocked
    assert pool.queue_limit == 1                    # the default: as many as there are workers
    running, queued, overflow = (pool.think(grand_job(1.0, k)) for k in (6, 7, 8))
    assert isinstance(failure_of(overflow).value, Overloaded)      # at once, not queued
    assert not queued.called and pool.waiting() == 1
    clock.advance(1.0)                              # the queued job waited its budget
    assert isinstance(failure_of(queued).value, Overloaded)
    assert pool.waiting() == 0
    answer = await running
    assert answer.playouts > 0
    assert pool.outcomes == {("grand", "overloaded"): 1, ("grand", "waited"): 1,
                             ("grand", "searched"): 1}
    assert pool.fallback_log.counts == {"overloaded": 1, "waited": 1}


def test_fallbacks_are_logged_once_per_interval() -> None:
    clock = Clock()
    lines: list[dict[str, Any]] = []
    flog = FallbackLog(clock, 60.0, Logger(namespace="test", observer=lines.append))
    for _ in range(50):
        flog.count("overloaded")
    flog.count("error", "ValueError: x")
    assert lines == []
    clock.advance(59.9)
    assert lines == []
    clock.advance(0.1)
    assert len(lines) == 1
    assert lines[0]["total"] == 51 and lines[0]["counts"] == {"overloaded": 50, "error": 1}
    assert lines[0]["details"] == {"error": "ValueError: x"}
    clock.advance(600)                         # nothing new: no line
    assert len(lines) == 1
    flog.count("timeout")
    clock.advance(60)
    assert len(lines) == 2 and lines[1]["counts"] == {"timeout": 1}


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_the_workers_run_at_the_lowest_priority(clocked: Any) -> None:
    pool, _ = clocked
    [pid] = pool.pids()
    assert os.getpriority(os.PRIO_PROCESS, pid) == max(WORKER_NICE, os.nice(0))


@pytest.mark.reactor_timeout(120)
@pytest_twisted.ensureDeferred
async def test_bots_whose_decisions_find_no_free_worker_play_the_heuristic_at_once(
        tmp_path: Path) -> None:
    """One worker, no queue: four expert bots with 10 s per decision reach the exchange together;
    while one of them thinks, the others' exchanges are the heuristic's, sent at once, and the
    game goes on; /metrics counts them."""
    pool = BotPool(reactor, 1, slack=TEST_SLACK, queue_limit=0)
    running = PoolServer(tmp_path / "lobby.sqlite3", pool)
    async with started(running):
        await pool.warm()
        _c, table = await open_table(running, "Lena", [
            ("/addbot expert:10", "seat 1"), ("/addbot expert:10", "seat 2"),
            ("/addbot expert:10", "seat 3"), ("/addbot expert:10", "seat 4"),
            ("/start", "the game starts")])
        bots = list(table.bots.values())
        await until(lambda: sum(b.fallbacks for b in bots) >= 3, "three fallbacks")
        overloaded = sum(n for (_, why), n in pool.outcomes.items() if why == "overloaded")
        assert overloaded == sum(b.fallbacks for b in bots) and pool.timeouts == 0
        fell_back = [b for b in bots if b.fallbacks]
        await until(lambda: all(b.sent for b in fell_back), "their commands")
        assert not any(b.errors for b in bots)
        text = running.server.factory.services.metrics.text().decode()
        assert 'tichu_bot_decisions_total{outcome="overloaded"' in text or \
            'outcome="overloaded"' in text
        assert "tichu_bot_worker_cpu_seconds_total" in text


def test_a_restored_expert_knows_the_round_so_far(clock: Any) -> None:
    """After a restart in the middle of a round the expert is seated again with the round's
    history as its seat received it (lobby/bots/runtime/player.py round_history), so its knowledge is
    the one it had and it searches at once (it played the heuristic until the next round
    before: a fresh Knowledge that missed the deal is not usable)."""
    import random

    from twisted.internet.defer import Deferred

    from conftest import fired
    from table_support import PLAYERS, Lobby, play
    before = Lobby(clock)
    clients = {}
    for name in PLAYERS[:3]:
        before.register(name, "pw" + name.lower() + "1")
        clients[name] = c = before.connect()
        c.login(name, "pw" + name.lower() + "1")
    before.say(clients["Ann"], "/newroom")
    for name in PLAYERS[1:3]:
        before.say(clients[name], "/room 1")
    for name in PLAYERS[:3]:
        before.say(clients[name], "/join")
    before.say(clients["Ann"], "/addbot expert:0.05")
    before.say(clients["Ann"], "/option seed 5")
    before.say(clients["Ann"], "/start")
    old = before.world.tables[1]
    [name] = old.bots
    play(before, random.Random(4), until=lambda t: t.match.round.phase == "play"
         and len(t.match.round.trick) >= 1 and len(t.match.actions) >= 14)
    player = old.players.index(name)
    view = old.match.view(player)
    known = old.bots[name].strategy.knowledge          # type: ignore[attr-defined]
    known.note_view(view)
    assert known.usable(view)
    after = Lobby(clock, before.store)
    fired(Deferred.fromCoroutine(after.persistence.restore()))
    table = after.world.tables[1]
    assert table.match.record() == old.match.record()
    bot = table.bots[name]
    restored = bot.strategy.knowledge                  # type: ignore[attr-defined]
    restored.note_view(view)
    assert restored.usable(view)
    assert restored == known


@pytest.mark.reactor_timeout(60)
@pytest_twisted.ensureDeferred
async def test_a_search_that_raises_is_the_heuristic_s_and_the_worker_goes_on(
        clocked: Any) -> None:
    from lobby.bots.runtime.pool import WorkerError
    from lobby.bots.strategies.knowledge import Knowledge
    pool, _clock = clocked
    [pid] = pool.pids()
    bad = Job("play", {}, Knowledge(), "pass", seconds=0.05)      # no seat: the search raises
    with pytest.raises(WorkerError):
        await pool.think(bad)
    answer = await pool.think(grand_job(None, 4))
    assert answer.playouts >= 4 and pool.pids() == [pid] and pool.replaced == 0
    assert pool.outcomes == {("play", "error"): 1, ("grand", "searched"): 1}
    assert "KeyError" in pool.fallback_log.details["error"]


def test_the_bot_queue_option() -> None:
    from protocol.process.options import parse_args
    assert parse_args([]).bot_queue is None               # the pool's default: one per worker
    assert parse_args(["--bot-queue", "0"]).bot_queue == 0
    assert parse_args(["--bot-queue", "7", "--bot-workers", "2"]).bot_queue == 7
    with pytest.raises(SystemExit) as exc:
        parse_args(["--bot-queue", "-1"])
    assert exc.value.code == 2
    assert BotPool(reactor, 3).queue_limit == 3
    from lobby.bots.runtime.pool import HANG, SLACK
    opts = parse_args([])
    assert (opts.bot_slack, opts.bot_hang) == (SLACK, HANG) == (2.0, 30.0)
    opts = parse_args(["--bot-slack", "0.5", "--bot-hang", "12"])
    assert (opts.bot_slack, opts.bot_hang) == (0.5, 12.0)
    for bad in (["--bot-slack", "0"], ["--bot-hang", "-3"], ["--bot-slack", "nan"]):
        with pytest.raises(SystemExit):
            parse_args(bad)
    assert BotPool(reactor, 3, queue_limit=0).queue_limit == 0
    with pytest.raises(ValueError):
        BotPool(reactor, 1, queue_limit=-1)
