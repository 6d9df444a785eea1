"""Worker processes for the search bots: the expert's thinking never runs on the reactor thread.

`BotPool(reactor, workers)` keeps a `concurrent.futures.ProcessPoolExecutor` of `workers`
processes started with the `spawn` method (a fresh interpreter each: no copy of the server's
sockets, threads or database handles). `think(job)` sends the job (lobby/bots/search.py `Job`,
plain data: the seat's view and knowledge, the budget, a seed) to a worker and returns a Deferred
that fires on the reactor thread with the `Answer`, or fails with:

- `WorkerLost` when the worker process died (killed, out of memory): the executor is broken then,
  and is replaced by a new one at once, so the next job runs in fresh workers;
- `ThinkTimeout` when no answer came within the job's budget plus `slack` seconds (an overloaded
  machine): the executor is replaced as well and its processes are ended.

The caller (lobby/bots/player.py) falls back to the heuristic's answer in both cases, so a table
never waits for a worker longer than that. `stop()` ends the workers (what waits for them is
dropped: its Deferred never fires, so no bot acts while the server stops) and returns a Deferred
that fires when they are gone; the executor is created on the first job.
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThread
from twisted.logger import Logger

from lobby.bots.search import Answer, Job, think

__all__ = ["BotPool", "WorkerLost", "ThinkTimeout", "default_workers", "SLACK"]

log = Logger(namespace="lobby.bots.pool")

#: seconds a job may take beyond its budget before it counts as lost (a loaded machine)
SLACK = 2.0


def default_workers() -> int:
    """One worker per core beyond the first, at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


class WorkerLost(Exception):
    """The worker process running a job died."""


class ThinkTimeout(Exception):
    """A job took longer than its budget plus the slack."""


def _warm() -> int:
    return os.getpid()


class BotPool:
    """A pool of `workers` worker processes (see the module doc)."""

    def __init__(self, reactor: Any, workers: int, *, slack: float = SLACK) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.reactor = reactor
        self.workers = workers
        self.slack = slack
        self._executor: ProcessPoolExecutor | None = None
        #: ended executors: their processes and manager thread, joined by stop()
        self._retired: list[tuple[list[Any], Any]] = []
        self._stopped = False
        self._timers: set[Any] = set()
        #: counts for the log and the benchmarks
        self.jobs = 0
        self.lost = 0
        self.timeouts = 0
        self.replaced = 0

    # ---- the executor ----------------------------------------------------------------------------
    def _current(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    def _replace(self, broken: ProcessPoolExecutor, why: str) -> None:
        """A new executor instead of `broken` (unless that happened already)."""
        if self._executor is not broken:
            return
        self.replaced += 1
        log.warn("bot workers replaced ({why})", why=why)
        self._executor = None
        self._retire(broken)

    def _retire(self, executor: ProcessPoolExecutor) -> None:
        # the executor's processes and manager thread (private attributes of concurrent.futures,
        # read carefully): ended here, joined by stop()
        procs = list((getattr(executor, "_processes", None) or {}).values())
        manager = getattr(executor, "_executor_manager_thread", None)
        executor.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        self._retired = [(ps, m) for ps, m in self._retired
                         if any(p.is_alive() for p in ps) or (m is not None and m.is_alive())]
        self._retired.append((procs, manager))

    def pids(self) -> list[int]:
        """The worker processes' ids (tests: to kill one)."""
        ex = self._executor
        return sorted(getattr(ex, "_processes", None) or {}) if ex is not None else []

    def warm(self) -> "Deferred[list[int]]":
        """Start every worker now (the first jobs would wait for their start-up otherwise);
        fires with the workers' process ids."""
        ex = self._current()
        futures = [ex.submit(_warm) for _ in range(self.workers)]
        d: Deferred[list[int]] = Deferred()
        left = [len(futures)]
        pids: list[int] = []

        def one(f: Future[int]) -> None:
            self.reactor.callFromThread(got, f)

        def got(f: Future[int]) -> None:
            if not f.cancelled() and f.exception() is None:
                pids.append(f.result())
            left[0] -= 1
            if left[0] == 0 and not d.called:
                d.callback(sorted(set(pids)))
        for f in futures:
            f.add_done_callback(one)
        return d

    # ---- jobs ------------------------------------------------------------------------------------
    def think(self, job: Job) -> "Deferred[Answer]":
        """The job's Answer from a worker (or WorkerLost / ThinkTimeout, see the module doc)."""
        d: Deferred[Answer] = Deferred()
        if self._stopped:
            return d            # never fires: the server is stopping, no bot acts any more
        self.jobs += 1
        ex = self._current()
        try:
            future = ex.submit(think, job)
        except (BrokenProcessPool, RuntimeError):
            self._replace(ex, "broken")
            ex = self._current()
            future = ex.submit(think, job)
        limit = (job.seconds if job.playouts is None else 60.0) + self.slack

        def timed_out() -> None:
            if d.called or self._stopped:
                return
            self.timeouts += 1
            future.cancel()
            self._replace(ex, "a job timed out")
            d.errback(ThinkTimeout(f"no answer in {limit:g} s"))

        timer = self.reactor.callLater(limit, timed_out)
        self._timers.add(timer)
        d.addBoth(self._forget, timer)

        def finished(f: Future[Answer]) -> None:
            if d.called or self._stopped:
                return
            if timer.active():
                timer.cancel()
            if f.cancelled():
                d.errback(WorkerLost("cancelled"))
                return
            exc = f.exception()
            if exc is None:
                d.callback(f.result())
                return
            if isinstance(exc, BrokenProcessPool):
                self.lost += 1
                self._replace(ex, "a worker died")
                d.errback(WorkerLost(str(exc)))
                return
            d.errback(exc)

        future.add_done_callback(lambda f: self.reactor.callFromThread(finished, f))
        return d

    def _forget(self, result: Any, timer: Any) -> Any:
        self._timers.discard(timer)
        return result

    def stop(self) -> "Deferred[None]":
        """End the workers (a job being thought about is dropped: its bot has the heuristic's
        answer); fires when they are gone (waited for in a thread)."""
        self._stopped = True
        for timer in self._timers:
            if timer.active():
                timer.cancel()
        self._timers.clear()
        if self._executor is not None:
            self._retire(self._executor)
        retired, self._executor, self._retired = self._retired, None, []

        def wait() -> None:
            for procs, manager in retired:
                for proc in procs:
                    proc.join(10)
                    if proc.is_alive():
                        proc.kill()
                        proc.join(10)
                if manager is not None:
                    manager.join(10)
        return deferToThread(wait)
