"""Log lines a client cannot flood (issue 23): every line a client can cause (a refused command,
a failed log-in, a connect or disconnect) is logged the first ``per_minute`` times in a minute for
its source (an address group) and kind; the others are only counted, and one summary line per
source and kind follows at the end of that minute. Time comes from the injected clock.

``LogBudget.allow(source, kind)`` says whether to write the line; the world holds one
(``World.log_budget``), the wire's guard sets its rate (``--log-lines-per-minute``,
protocol/connection/guard.py) and uses it for the lines of the connections.
"""
from __future__ import annotations

from typing import Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

__all__ = ["LogBudget", "LOG_LINES_PER_MINUTE"]

log = Logger(namespace="lobby.log_budget")

#: the default of ``per_minute``: lines of one kind from one source logged in a minute
LOG_LINES_PER_MINUTE = 3
#: sources remembered at most (the oldest minute's are summarised and dropped first)
MAX_SOURCES = 100000


class LogBudget:
    """How many lines of each kind each source may write to the log in a minute."""

    def __init__(self, clock: IReactorTime, per_minute: int = LOG_LINES_PER_MINUTE) -> None:
        self.clock = clock
        self.per_minute = per_minute     # 0: every line is logged
        #: (source, kind) -> [the minute's start, lines logged, lines only counted]
        self._windows: dict[tuple[str, str], list[float]] = {}
        self._call: Any = None
        #: lines only counted, in all (for the operator and the tests)
        self.suppressed = 0

    def allow(self, source: str, kind: str) -> bool:
        """Whether the next line of ``kind`` caused by ``source`` is written (else counted)."""
        if self.per_minute <= 0:
            return True
        now = self.clock.seconds()
        window, new = self._window((source, kind), now, logged=1.0)
        if new:
            return True
        if window[1] < self.per_minute:
            window[1] += 1
            return True
        self._counted(window, now)
        return False

    def count(self, source: str, kind: str) -> None:
        """A line of ``kind`` caused by ``source`` that is never written, only counted in the
        minute's summary (a connection refused without a word)."""
        now = self.clock.seconds()
        window, _ = self._window((source, kind), now, logged=0.0)
        self._counted(window, now)

    def _window(self, key: tuple[str, str], now: float, logged: float
                ) -> tuple[list[float], bool]:
        """The minute of ``key`` now, and whether it began with this line (``logged``: the
        lines it starts with); the summary of the minute before is written."""
        window = self._windows.get(key)
        if window is not None and now - window[0] < 60.0:
            return window, False
        if window is not None:
            self._summary(key, window)
        if len(self._windows) >= MAX_SOURCES:
            self.flush(force=True)
        window = self._windows[key] = [now, logged, 0.0]
        return window, True

    def _counted(self, window: list[float], now: float) -> None:
        """One more line of ``window`` only counted; its summary is due at the minute's end."""
        window[2] += 1
        self.suppressed += 1
        if self._call is None or not self._call.active():
            self._call = self.clock.callLater(max(0.0, window[0] + 60.0 - now), self.flush)

    def _summary(self, key: tuple[str, str], window: list[float]) -> None:
        if window[2]:
            log.info("{count} more log lines of the kind {kind} from {source} in that minute "
                     "were counted, not logged", count=int(window[2]), kind=key[1],
                     source=key[0])

    def flush(self, force: bool = False) -> None:
        """Write the summaries of the minutes that are over (all of them with ``force``)."""
        self._call = None
        now = self.clock.seconds()
        pending: float | None = None
        for key, window in list(self._windows.items()):
            if force or now - window[0] >= 60.0:
                self._summary(key, window)
                del self._windows[key]
            elif window[2] and (pending is None or window[0] < pending):
                pending = window[0]
        if pending is not None:
            self._call = self.clock.callLater(max(0.0, pending + 60.0 - now), self.flush)

    def stop(self) -> None:
        """The server stops: the summaries now, no timer left."""
        if self._call is not None and self._call.active():
            self._call.cancel()
        self.flush(force=True)
