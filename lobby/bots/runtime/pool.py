"""Worker processes for the search bots: the expert's thinking never runs on the reactor thread.

`BotPool(reactor, workers)` keeps `workers` worker processes, each started with the `spawn`
method of multiprocessing (a fresh interpreter: no copy of the server's sockets, threads or
database handles) at the lowest CPU priority (`os.nice(WORKER_NICE)` in the worker, so that the
server process always wins the CPU), each with its own pipe and one reader thread in the server.
`think(job)` returns a Deferred that fires on the reactor thread with the job's `Answer`
(lobby/bots/strategies/search.py `Job`: the seat's view and knowledge, the budget, a seed, and the heuristic
bot's answer), or fails with one of the exceptions below; the caller (lobby/bots/runtime/player.py) then
plays the heuristic's answer (`Job.heuristic`), so a table never waits for a worker longer than
described here.

Dispatch: a job goes to a worker only when that worker is free, so no job ever waits inside a
worker's pipe behind another one. When every worker is busy the job waits in the pool's queue,
at most `queue_limit` jobs (`--bot-queue`, default: as many as there are workers) and at most its
own budget (`Job.seconds`; a job with a fixed number of playouts: `PLAYOUT_BUDGET`). Otherwise:

- `Overloaded` at once, when the queue is full, or when a queued job has waited its budget: the
  heuristic decides without delay and the bot's table goes on (people should not wait for
  machines that are busy).
- `ThinkTimeout` when the worker reported the job's start (the deadline counts from that moment,
  never from the submission) and sent no answer within the budget plus `slack` seconds. The job is
  abandoned; its worker finishes it (the late answer is dropped) and stays busy meanwhile. Only a
  worker that is still busy `hang` seconds after that deadline counts as hung: it is killed and
  replaced.
- `WorkerLost` when the worker process died (killed, out of memory): it is replaced by a new one
  at once, and the next job runs there.
- `WorkerError` when the search raised an exception (a bug): the worker goes on.

Fair shares (issue 23): every job names its table and its budget group (`think(job, table=...,
group=...)`: the address group of the table's opener, lobby/world.py `bot_group`), and the pool
keeps each one's worker time (seconds, decaying with a half-life of `USAGE_HALF_LIFE`). A free
worker takes the waiting job of the group that used least, and within it of the table that used
least, so one user's many bot tables cannot starve another's. While other tables have asked for
a worker within `ACTIVE_WINDOW` seconds, a job thinks at most `quantum` seconds (`--bot-quantum`;
the decision is searched that long instead), so a long `expert:10` never holds a worker
long while others wait. When the queue is full, a job of a group that used less takes the place
of the newest waiting job of the group that used most (that one: the heuristic at once,
`evicted`).

Every such fallback is counted (`outcomes`, by decision type and reason) and logged at most once
per `log_interval` seconds, as one line with the counts of that interval (`FallbackLog`). The
pool also keeps the time from `think()` to the answer by decision type and outcome (`latency`),
and the CPU
time its workers report (`worker_cpu()`); protocol/process/metrics.py serves them as `tichu_bot_*`.

Timers (deadlines, waits, the log interval) run on the injected `clock` (default: the reactor);
the reactor is used for `callFromThread` only. `stop()` ends the workers (what waits for them
is dropped: its Deferred never fires, so no bot acts while the server stops) and returns a
Deferred that fires when they are gone; the workers are started on the first job (or `warm()`).
"""
from __future__ import annotations

import multiprocessing
import os
import threading
import time
from bisect import bisect_left
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThread
from twisted.logger import Logger

from lobby.bots.strategies.search import Answer, Job, think

__all__ = ["BotPool", "WorkerLost", "ThinkTimeout", "Overloaded", "WorkerError", "FallbackLog",
           "default_workers", "SLACK", "HANG", "WORKER_NICE", "LOG_INTERVAL",
           "DECISION_BUCKETS", "PLAYOUT_BUDGET", "QUANTUM", "ACTIVE_WINDOW", "USAGE_HALF_LIFE"]

log = Logger(namespace="lobby.bots.pool")

#: seconds a started job may take beyond its budget before the heuristic answers for it
SLACK = 2.0
#: seconds beyond that deadline after which a worker still busy with the job counts as hung
HANG = 30.0
#: the workers' nice value: the lowest priority, the server process always wins the CPU
WORKER_NICE = 19
#: seconds between two log lines about fallbacks (each line: the counts of its interval)
LOG_INTERVAL = 60.0
#: the budget of a job with a fixed number of playouts (the arena, tests) instead of seconds
PLAYOUT_BUDGET = 60.0
#: seconds a search may think at most while other tables want a worker too (--bot-quantum)
QUANTUM = 0.25
#: seconds after its last job during which a table counts as wanting a worker
ACTIVE_WINDOW = 10.0
#: seconds after which a table's or a group's worker time counts half
USAGE_HALF_LIFE = 30.0
#: buckets (seconds) of a decision's time from the bot's request to its answer
DECISION_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.55, 0.6, 0.75, 1.0, 1.5, 2.0,
                    3.0, 5.0, 10.0, 30.0)


def default_workers() -> int:
    """One worker per core beyond the first, at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


class WorkerLost(Exception):
    """The worker process running a job died (or hung and was killed)."""


class ThinkTimeout(Exception):
    """A started job took longer than its budget plus the slack."""


class Overloaded(Exception):
    """Every worker was busy and the queue full, or the job waited its budget in the queue."""


class WorkerError(Exception):
    """The search raised an exception in the worker."""


# ---- the worker process --------------------------------------------------------------------------
def _serve(conn: Any, nice: int) -> None:
    """A worker's main loop: a job in, its start and its answer (or error) out."""
    try:
        os.nice(nice)
    except OSError:
        pass
    conn.send(("ready", os.getpid(), time.process_time()))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        job_id, job = msg
        conn.send(("start", job_id))
        try:
            answer = think(job)
        except Exception as exc:
            conn.send(("error", job_id, f"{type(exc).__name__}: {exc}", time.process_time()))
        else:
            conn.send(("done", job_id, answer, time.process_time()))


# ---- the server's side ---------------------------------------------------------------------------
class FallbackLog:
    """Fallbacks counted by reason and logged once per `interval` seconds (on `clock`): the first
    one schedules a line for the end of its interval, which says how many there were."""

    def __init__(self, clock: Any, interval: float = LOG_INTERVAL,
                 logger: Logger | None = None) -> None:
        self.clock = clock
        self.interval = interval
        self.log = logger if logger is not None else log
        self.counts: dict[str, int] = {}
        #: the last detail told with each reason in this interval (a search's exception)
        self.details: dict[str, str] = {}
        self._call: Any = None

    def count(self, reason: str, detail: str | None = None) -> None:
        self.counts[reason] = self.counts.get(reason, 0) + 1
        if detail is not None:
            self.details[reason] = detail
        if self._call is None:
            self._call = self.clock.callLater(self.interval, self.flush)

    def flush(self) -> None:
        """Log the counts so far (one line) and start a new interval."""
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
        counts, self.counts = self.counts, {}
        details, self.details = self.details, {}
        if counts:
            self.log.warn("{total} bot decisions in the last {interval:g} s were the heuristic's "
                          "({reasons})", total=sum(counts.values()), interval=self.interval,
                          reasons=", ".join(f"{k} {v}" + (f" (last: {details[k]})"
                                                          if k in details else "")
                                            for k, v in sorted(counts.items())),
                          counts=counts, details=details)

    def stop(self) -> None:
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None


class _Usage:
    """Worker seconds per key (a table, a budget group), decaying with ``USAGE_HALF_LIFE``."""

    def __init__(self, half_life: float = USAGE_HALF_LIFE) -> None:
        self.half_life = half_life
        self._used: dict[Any, tuple[float, float]] = {}

    def get(self, key: Any, now: float) -> float:
        entry = self._used.get(key)
        if entry is None:
            return 0.0
        value, stamp = entry
        decay: float = 0.5 ** (max(0.0, now - stamp) / self.half_life)
        return value * decay

    def add(self, key: Any, seconds: float, now: float) -> None:
        self._used[key] = (self.get(key, now) + seconds, now)
        if len(self._used) > 10000:           # forget the keys that decayed to nothing
            self._used = {k: v for k, v in self._used.items()
                          if v[0] * 0.5 ** ((now - v[1]) / self.half_life) > 0.001}


@dataclass(eq=False)
class _Task:
    id: int
    job: Job
    d: Deferred[Answer]
    asked: float
    budget: float
    table: Any = None
    group: Any = None
    done: bool = False
    started: float | None = None
    timers: list[Any] = field(default_factory=list)

    def cancel_timers(self) -> None:
        for t in self.timers:
            if t.active():
                t.cancel()
        self.timers.clear()


@dataclass(eq=False)
class _Worker:
    proc: Any
    conn: Any
    pid: int
    task: _Task | None = None
    ready: bool = False
    cpu: float = 0.0
    reader: threading.Thread | None = None


class BotPool:
    """A pool of `workers` worker processes (see the module doc)."""

    def __init__(self, reactor: Any, workers: int, *, slack: float = SLACK, hang: float = HANG,
                 queue_limit: int | None = None, wait: bool = True, clock: Any = None,
                 log_interval: float = LOG_INTERVAL, nice: int = WORKER_NICE,
                 quantum: float = QUANTUM) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        if queue_limit is not None and queue_limit < 0:
            raise ValueError("the queue limit is 0 or more")
        self.reactor = reactor
        self.clock = clock if clock is not None else reactor
        self.workers = workers
        self.slack = slack
        self.hang = hang
        #: jobs that may wait for a free worker (more: the heuristic answers at once)
        self.queue_limit = workers if queue_limit is None else queue_limit
        #: whether a queued job waits at most its own budget
        self.wait = wait
        self.nice = nice
        #: the most a search thinks while other tables want a worker (0: no limit)
        self.quantum = quantum
        #: worker seconds per table and per budget group; the last job of each table
        self.table_usage = _Usage()
        self.group_usage = _Usage()
        self._last_asked: dict[Any, float] = {}
        self.evicted = 0
        self.fallback_log = FallbackLog(self.clock, log_interval)
        self._ctx = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._queue: deque[_Task] = deque()
        #: ended workers, joined by stop()
        self._retired: list[_Worker] = []
        self._stopped = False
        self._next_id = 0
        #: CPU seconds reported by workers that are gone
        self._cpu_gone = 0.0
        #: counts for the log, the metrics and the benchmarks
        self.jobs = 0
        self.started = 0
        self.lost = 0
        self.timeouts = 0
        self.overloaded = 0
        self.errors = 0
        self.replaced = 0
        #: (decision type, outcome) -> count; outcome `searched` or a fallback's reason
        self.outcomes: dict[tuple[str, str], int] = {}
        #: (decision type, outcome) -> [count per DECISION_BUCKETS bound (the last: above
        #: all), seconds]: the time from think() to the answer
        self.latency: dict[tuple[str, str], list[float]] = {}

    # ---- the workers -----------------------------------------------------------------------------
    def _start_workers(self) -> None:
        while len(self._workers) < self.workers:
            self._workers.append(self._spawn())

    def _spawn(self) -> _Worker:
        ours, theirs = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(target=_serve, args=(theirs, self.nice), daemon=True,
                                 name="tichu-bot-worker")
        proc.start()
        theirs.close()          # only the worker holds its end: its death is our end's EOF
        assert proc.pid is not None         # (started)
        worker = _Worker(proc, ours, proc.pid)
        worker.reader = threading.Thread(target=self._read, args=(worker,), daemon=True,
                                         name=f"bot-worker-{proc.pid}")
        worker.reader.start()
        return worker

    def _read(self, worker: _Worker) -> None:
        """The reader thread of one worker: its messages to the reactor thread, then its end."""
        while True:
            try:
                msg = worker.conn.recv()
            except Exception:      # EOF (the worker is gone), a closed pipe, an unpicklable answer
                break
            self.reactor.callFromThread(self._message, worker, msg)
        worker.proc.join(10)       # reaped here, off the reactor thread
        self.reactor.callFromThread(self._exited, worker)

    def _retire(self, worker: _Worker, kill: bool) -> None:
        if worker in self._workers:
            self._workers.remove(worker)
        self._cpu_gone += worker.cpu
        worker.cpu = 0.0
        if kill and worker.proc.is_alive():
            worker.proc.kill()
        self._retired = [w for w in self._retired if w.proc.is_alive()
                         or (w.reader is not None and w.reader.is_alive())]
        self._retired.append(worker)

    def _replace(self, worker: _Worker, why: str, kill: bool) -> None:
        """A new worker instead of `worker` (which is killed when `kill`)."""
        self.replaced += 1
        log.warn("bot worker {pid} replaced ({why})", pid=worker.pid, why=why)
        self._retire(worker, kill)
        if not self._stopped:
            fresh = self._spawn()
            self._workers.append(fresh)
            self._dispatch()

    def pids(self) -> list[int]:
        """The worker processes' ids (tests: to kill one; benchmarks: their CPU)."""
        return sorted(w.pid for w in self._workers)

    def worker_cpu(self) -> float:
        """CPU seconds the workers used (each reports its own with every answer)."""
        return self._cpu_gone + sum(w.cpu for w in self._workers)

    def running(self) -> list[tuple[Any, Any, float]]:
        """(table, budget group, seconds it may think) of each job a worker is on now."""
        return [(w.task.table, w.task.group, w.task.budget) for w in self._workers
                if w.task is not None]

    def waiting(self) -> int:
        """Jobs waiting for a free worker now."""
        return len(self._queue)

    def busy(self) -> int:
        """Workers thinking about a job (or finishing an abandoned one) now."""
        return sum(1 for w in self._workers if w.task is not None)

    def warm(self) -> Deferred[list[int]]:
        """Start every worker now (the first jobs would wait for their start-up otherwise);
        fires with the workers' process ids once each has reported that it is ready."""
        self._start_workers()
        d: Deferred[list[int]] = Deferred()

        def check() -> None:
            if d.called:
                return
            if self._stopped or all(w.ready for w in self._workers):
                d.callback(self.pids())
            else:
                # polled on the reactor, not on the injected clock (tests may never advance it)
                self.reactor.callLater(0.01, check)
        check()
        return d

    # ---- jobs ------------------------------------------------------------------------------------
    def think(self, job: Job, table: Any = None, group: Any = None) -> Deferred[Answer]:
        """The job's Answer from a worker, or one of the failures of the module doc. ``table``
        and ``group`` (the budget group; default: the table) share the workers fairly."""
        d: Deferred[Answer] = Deferred()
        if self._stopped:
            return d            # never fires: the server is stopping, no bot acts any more
        self.jobs += 1
        self._next_id += 1
        budget = job.seconds if job.playouts is None else PLAYOUT_BUDGET
        now = self.clock.seconds()
        task = _Task(self._next_id, job, d, now, budget, table,
                     table if group is None else group)
        self._note_asked(table, now)
        self._start_workers()
        free = self._free()
        if free is not None:
            self._send(free, task)
            return d
        if len(self._queue) >= self.queue_limit:
            victim = self._heaviest_waiting(task, now)
            if victim is None:
                self._fail(task, "overloaded", Overloaded(
                    f"{self.workers} busy workers, {len(self._queue)} decisions waiting"))
                return d
            self._queue.remove(victim)
            victim.cancel_timers()
            self.evicted += 1
            self._fail(victim, "evicted", Overloaded(
                "a decision of a table that used the workers less took its place"))
        self._queue.append(task)
        if self.wait:
            task.timers.append(self.clock.callLater(budget, self._waited, task))
        return d

    def _note_asked(self, table: Any, now: float) -> None:
        self._last_asked[table] = now
        if len(self._last_asked) > 10000:
            self._last_asked = {k: t for k, t in self._last_asked.items()
                                if now - t < ACTIVE_WINDOW}

    def _contended(self, task: _Task, now: float) -> bool:
        """Whether another table wants a worker: one of its jobs waits, or it asked lately."""
        if any(t.table != task.table for t in self._queue):
            return True
        return any(table != task.table and now - when < ACTIVE_WINDOW
                   for table, when in self._last_asked.items())

    def _rank(self, task: _Task, now: float) -> tuple[float, float, float]:
        return (self.group_usage.get(task.group, now), self.table_usage.get(task.table, now),
                task.asked)

    def _heaviest_waiting(self, task: _Task, now: float) -> _Task | None:
        """The newest waiting job of the group (then table) that used the workers most, if it
        used more than ``task``'s; None: ``task`` is the one refused."""
        if not self._queue:
            return None
        mine = self._rank(task, now)[:2]
        worst = max(self._queue, key=lambda t: (*self._rank(t, now)[:2], t.asked))
        if self._rank(worst, now)[:2] > mine:
            return worst
        return None

    def _free(self) -> _Worker | None:
        for w in self._workers:
            if w.task is None:
                return w
        return None

    def _send(self, worker: _Worker, task: _Task) -> None:
        task.cancel_timers()
        now = self.clock.seconds()
        job = task.job
        if (self.quantum > 0 and job.playouts is None and job.seconds > self.quantum
                and self._contended(task, now)):
            # others want a worker too: this decision thinks one quantum, not its whole level
            task.job = job = replace(job, seconds=self.quantum)
            task.budget = self.quantum
        # charged at the start (what it may use), corrected when it ends (_charge)
        self.table_usage.add(task.table, task.budget, now)
        self.group_usage.add(task.group, task.budget, now)
        worker.task = task
        # a worker that neither starts nor ends the job by then is hung (a started one gets its
        # own deadline too: _message)
        task.timers.append(self.clock.callLater(task.budget + self.slack + self.hang,
                                                self._hung, worker, task))
        try:
            worker.conn.send((task.id, task.job))
        except Exception:      # the worker is gone (its reader reports it) or the job unpicklable
            worker.task = None
            task.cancel_timers()
            if worker.proc.is_alive():
                self._fail(task, "error", WorkerError("the job could not be sent"))
            else:
                self.lost += 1
                self._replace(worker, "it died", kill=False)
                self._fail(task, "lost", WorkerLost("the worker is gone"))

    def _dispatch(self) -> None:
        while self._queue:
            free = self._free()
            if free is None:
                return
            now = self.clock.seconds()
            task = min(self._queue, key=lambda t: self._rank(t, now))
            self._queue.remove(task)
            self._send(free, task)

    def _charge(self, task: _Task) -> None:
        """A job ended: its table and group are charged what it used instead of its budget."""
        if task.started is None:
            return
        now = self.clock.seconds()
        used = max(0.0, now - task.started)
        self.table_usage.add(task.table, used - task.budget, now)
        self.group_usage.add(task.group, used - task.budget, now)

    def _message(self, worker: _Worker, msg: tuple[Any, ...]) -> None:
        if self._stopped or worker not in self._workers:
            return
        kind = msg[0]
        if kind == "ready":
            worker.ready = True
            worker.cpu = msg[2]
            return
        task = worker.task
        if task is None or msg[1] != task.id:
            return
        if kind == "start":
            self.started += 1
            task.started = self.clock.seconds()
            if not task.done:
                task.timers.append(self.clock.callLater(task.budget + self.slack,
                                                        self._overran, task))
            return
        # done or error: the worker is free again
        worker.cpu = msg[3]
        worker.task = None
        task.cancel_timers()
        self._charge(task)
        if not task.done:
            if kind == "done":
                self._answer(task, msg[2])
            else:
                self.errors += 1          # (logged with the fallbacks: once per interval)
                self._fail(task, "error", WorkerError(msg[2]), detail=msg[2])
        self._dispatch()

    def _exited(self, worker: _Worker) -> None:
        """A worker's pipe ended: it died (or was ended by _replace or stop)."""
        if self._stopped or worker not in self._workers:
            return
        task, worker.task = worker.task, None
        self.lost += 1
        # the pool is whole again before the bot hears of it (its callback may think again)
        if worker.ready:
            self._replace(worker, "it died", kill=False)
        else:
            # it died before it was ready (cannot start at all?): again in a second, not in a loop
            log.error("bot worker {pid} ended before it was ready", pid=worker.pid)
            self._retire(worker, kill=False)
            self.reactor.callLater(1.0, self._respawn)
        if task is not None:
            task.cancel_timers()
            if not task.done:
                self._fail(task, "lost", WorkerLost(f"worker {worker.pid} died"))

    def _respawn(self) -> None:
        if not self._stopped:
            self._start_workers()
            self._dispatch()

    def _overran(self, task: _Task) -> None:
        """A started job is not answered within its budget + slack: abandoned, the heuristic
        answers; its worker finishes it (or counts as hung later)."""
        if task.done or self._stopped:
            return
        self.timeouts += 1
        self._fail(task, "timeout", ThinkTimeout(
            f"no answer {task.budget + self.slack:g} s after the worker started"))

    def _hung(self, worker: _Worker, task: _Task) -> None:
        if self._stopped or worker.task is not task or worker not in self._workers:
            return
        worker.task = None
        task.cancel_timers()
        self._replace(worker, "it hung", kill=True)
        if not task.done:
            self.timeouts += 1
            self._fail(task, "timeout", ThinkTimeout("the worker hung"))

    def _waited(self, task: _Task) -> None:
        """A queued job waited its whole budget: the heuristic answers at once."""
        if task.done or self._stopped or task not in self._queue:
            return
        self._queue.remove(task)
        self._fail(task, "waited", Overloaded(f"waited {task.budget:g} s for a worker"))

    # ---- outcomes --------------------------------------------------------------------------------
    def _record(self, task: _Task, outcome: str) -> None:
        todo = task.job.todo
        key = (todo, outcome)
        self.outcomes[key] = self.outcomes.get(key, 0) + 1
        seconds = max(0.0, self.clock.seconds() - task.asked)
        stats = self.latency.get(key)
        if stats is None:
            stats = self.latency[key] = [0.0] * (len(DECISION_BUCKETS) + 2)
        stats[bisect_left(DECISION_BUCKETS, seconds)] += 1
        stats[-1] += seconds

    def _answer(self, task: _Task, answer: Answer) -> None:
        task.done = True
        self._record(task, "searched")
        task.d.callback(answer)

    def _fail(self, task: _Task, reason: str, exc: Exception, detail: str | None = None) -> None:
        task.done = True
        if reason in ("overloaded", "waited"):
            self.overloaded += 1
        self._record(task, reason)
        self.fallback_log.count(reason, detail)
        task.d.errback(exc)

    def fallbacks(self) -> int:
        """Decisions the heuristic answered for the search so far."""
        return sum(n for (_, outcome), n in self.outcomes.items() if outcome != "searched")

    def stop(self) -> Deferred[None]:
        """End the workers (a job being thought about is dropped: its bot has the heuristic's
        answer); fires when they are gone (waited for in a thread)."""
        self._stopped = True
        for task in self._queue:
            task.cancel_timers()
        self._queue.clear()
        for w in list(self._workers):
            if w.task is not None:
                w.task.cancel_timers()
            try:
                w.conn.send(None)       # a free worker ends by itself; a busy one is ended
            except Exception:
                pass
            if w.task is not None and w.proc.is_alive():
                w.proc.terminate()
            self._retire(w, kill=False)
        self.fallback_log.flush()
        self.fallback_log.stop()
        retired, self._retired = self._retired, []

        def wait() -> None:
            for w in retired:
                w.proc.join(10)
                if w.proc.is_alive():
                    w.proc.kill()
                    w.proc.join(10)
                if w.reader is not None:
                    w.reader.join(10)
                try:
                    w.conn.close()
                except Exception:
                    pass
        return deferToThread(wait)
