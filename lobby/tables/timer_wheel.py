"""One timer wheel: many deadlines behind one timer of the injected clock.

The guard keeps the log-in and idle deadlines of every connection in one (protocol/connection/guard.py),
the world the move timers of every table (lobby/tables/table.py, ``/option timer``): at 5,000 tables
a table that waits for a decision costs one dict entry, not a DelayedCall and no periodic call.
"""
from __future__ import annotations

import heapq
import math
from typing import Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

__all__ = ["TimerWheel", "WheelTimer"]

log = Logger(namespace="lobby.timer_wheel")


class WheelTimer:
    """One deadline in a `TimerWheel` (the `active()` / `cancel()` of a DelayedCall)."""

    __slots__ = ("wheel", "slot", "fn")

    def __init__(self, wheel: TimerWheel | None, slot: int, fn: Any) -> None:
        self.wheel = wheel
        self.slot = slot
        self.fn = fn

    def active(self) -> bool:
        return self.wheel is not None

    def cancel(self) -> None:
        wheel, self.wheel = self.wheel, None
        if wheel is not None:
            timers = wheel._slots.get(self.slot)
            if timers is not None:
                timers.pop(self, None)


class TimerWheel:
    """Many deadlines behind ONE timer of the clock (the log-in and idle timers of every
    connection: protocol/connection/guard.py; the move timers of every table: lobby/tables/table.py): each
    deadline is rounded up to a slot of `resolution` seconds, and one DelayedCall waits for the
    earliest slot that has a deadline. An idle connection, or a table waiting for a move, costs
    one dict entry, no timer and no periodic call of its own; a slot's deadlines run in the
    order they were set. `call_at(when, fn)` -> a `WheelTimer` (`cancel()`, `active()`)."""

    def __init__(self, clock: IReactorTime, resolution: float = 1.0) -> None:
        self.clock = clock
        self.resolution = resolution
        self._slots: dict[int, dict[WheelTimer, None]] = {}
        self._heap: list[int] = []          # the slots' numbers (each once)
        self._call: Any = None
        self._call_slot: int | None = None

    def __len__(self) -> int:
        return sum(len(t) for t in self._slots.values())

    def call_at(self, when: float, fn: Any) -> WheelTimer:
        slot = math.ceil(when / self.resolution - 1e-9)
        timers = self._slots.get(slot)
        if timers is None:
            timers = self._slots[slot] = {}
            heapq.heappush(self._heap, slot)
        timer = WheelTimer(self, slot, fn)
        timers[timer] = None
        if self._call_slot is None or slot < self._call_slot:
            self._arm(slot)
        return timer

    def call_later(self, seconds: float, fn: Any) -> WheelTimer:
        return self.call_at(self.clock.seconds() + seconds, fn)

    def _arm(self, slot: int) -> None:
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call_slot = slot
        self._call = self.clock.callLater(
            max(0.0, slot * self.resolution - self.clock.seconds()), self._fire)

    def _fire(self) -> None:
        self._call = self._call_slot = None
        now = self.clock.seconds()
        heap = self._heap
        while heap and heap[0] * self.resolution <= now + 1e-9:
            slot = heapq.heappop(heap)
            for timer in list(self._slots.pop(slot, {})):
                if timer.wheel is None:
                    continue
                timer.wheel = None
                try:
                    timer.fn()
                except Exception:
                    log.failure("a timer of the wheel failed")
        while heap and not self._slots.get(heap[0]):     # slots emptied by cancel()
            self._slots.pop(heapq.heappop(heap), None)
        if heap:
            self._arm(heap[0])
