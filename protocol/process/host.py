"""What the process asks of the machine it runs on, apart from the composition root
(protocol/process/server.py): threads for blocking work (the reactor's pool, and ``HashPool``
for password hashing at the lowest priority), the open-files limit, and the reactor's install
(asyncio, optionally on uvloop). Log lines keep the server's namespace.
"""
from __future__ import annotations

import os
import sys
import threading
from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger

from lobby.storage.accounts import Runner

__all__ = ["UVLOOP_MISSING", "HashPool", "install_reactor", "raise_fd_limit", "thread_runner"]

#: --uvloop without uvloop: the server runs on the standard asyncio loop and says why
UVLOOP_MISSING = "uvloop is not installed: pip install tichu-lobby[uvloop]"
HASH_THREAD_NICE = 19  # the password-hashing threads' nice value (the lowest priority)

log = Logger(namespace="protocol.server")


def thread_runner(reactor: Any) -> Runner:
    """Run blocking functions in the reactor's thread pool."""
    def run(f: Any, *args: Any, **kwargs: Any) -> Deferred[Any]:
        return deferToThreadPool(reactor, reactor.getThreadPool(), f, *args, **kwargs)
    return run


def _lower_thread_priority() -> None:
    """Make the calling thread yield the CPU to the reactor thread (Linux: per-thread nice 19)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_THREAD_NICE)
    except (AttributeError, OSError):  # not Linux, or not allowed: run at normal priority
        pass


class HashPool:
    """Threads for password hashing (argon2id): as many as the process has CPUs, at low priority.

    A password check takes tens of milliseconds of CPU (hashlib releases the GIL meanwhile). In
    the reactor's general pool ten checks would run at once at the reactor's own priority, and on
    a machine with few CPUs the reactor thread would wait for a time slice behind them: every
    other user's command slows down during a login storm. Here at most one check per CPU runs at
    a time (the others wait in the pool's queue, which orders them) and the hashing threads have
    the lowest priority, so the reactor thread gets the CPU as soon as it has work.
    """

    def __init__(self, reactor: Any, size: int | None = None) -> None:
        from twisted.python.threadpool import ThreadPool
        if size is None:
            try:
                size = len(os.sched_getaffinity(0))
            except AttributeError:
                size = os.cpu_count() or 1
        self.reactor = reactor
        self.size = max(1, size)
        self.pool = ThreadPool(minthreads=0, maxthreads=self.size, name="tichu-hash")
        self._reniced: set[int] = set()

    def start(self) -> None:
        if not self.pool.started:
            self.pool.start()

    def stop(self) -> None:
        if self.pool.started:
            self.pool.stop()

    def _call(self, f: Any, *args: Any, **kwargs: Any) -> Any:
        ident = threading.get_ident()
        if ident not in self._reniced:
            self._reniced.add(ident)
            _lower_thread_priority()
        return f(*args, **kwargs)

    def __call__(self, f: Any, *args: Any, **kwargs: Any) -> Deferred[Any]:
        self.start()
        return deferToThreadPool(self.reactor, self.pool, self._call, f, *args, **kwargs)


def raise_fd_limit() -> tuple[int, int] | None:
    """Raise the soft limit of open files (RLIMIT_NOFILE) to the hard limit and log it.

    Every connection is one file descriptor; the soft limit is often 1024 while the hard limit is
    much higher. Returns ``(soft, hard)`` as in force afterwards, or None where the platform has no
    such limit. docs/operations.md says how to raise the hard limit itself.
    """
    try:
        import resource
    except ImportError:  # not a POSIX system
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft == hard:
        log.info("open files limit {soft} (soft = hard)", soft=soft)
        return soft, hard
    wanted = hard
    if hard == resource.RLIM_INFINITY:  # some systems refuse an infinite soft limit
        wanted = max(soft, 1_048_576) if soft != resource.RLIM_INFINITY else soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError) as e:
        log.warn("could not raise the open files limit from {soft} to {hard}: {error}",
                 soft=soft, hard=hard, error=str(e))
        return soft, hard
    log.info("open files limit raised from {old} to {soft} (the hard limit)", old=soft,
             soft=wanted)
    return wanted, hard


def install_reactor(use_uvloop: bool = False) -> str:
    """Install Twisted's asyncio reactor (on uvloop's event loop if asked and installed).

    Returns a description of the event loop for the log. Does nothing when a reactor is installed
    already (tests).
    """
    if "twisted.internet.reactor" in sys.modules:
        installed = sys.modules["twisted.internet.reactor"]
        return f"{type(installed).__module__}.{type(installed).__name__} (installed already)"
    from twisted.internet import asyncioreactor
    if use_uvloop:
        try:
            import uvloop
        except ImportError:
            asyncioreactor.install()
            return f"asyncio (--uvloop asked for it, but {UVLOOP_MISSING})"
        asyncioreactor.install(uvloop.new_event_loop())
        return f"asyncio on uvloop {getattr(uvloop, '__version__', '')}".rstrip()
    asyncioreactor.install()
    return "asyncio"
