"""The clock the tables are paced by: a live table's betting window and pause, a poker
player's time to act, the breath between poker hands.

A :class:`Clock` tells the time (:meth:`~Clock.now`, in seconds) and waits
(:meth:`~Clock.sleep`); that is all a table asks of time. The server runs on
:class:`SystemClock`; a test gives the server a :class:`ManualClock` and moves time
itself, so that a window closes or a timer runs out exactly when the test says and
never after real seconds.

>>> import asyncio
>>> clock = ManualClock()
>>> async def window() -> float:
...     started = clock.now()
...     await clock.sleep(15)  # a betting window
...     return clock.now() - started
>>> async def main() -> tuple[bool, float]:
...     task = asyncio.create_task(window())
...     await asyncio.sleep(0)  # the window starts waiting
...     clock.advance(10)
...     await asyncio.sleep(0)
...     closed_early = task.done()  # no: five seconds to go
...     clock.advance(5)
...     return closed_early, await task
>>> asyncio.run(main())
(False, 15.0)
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from dataclasses import dataclass
from typing import Protocol


class Clock(Protocol):
    """What a table needs of time: the time now, and a wait."""

    def now(self) -> float:
        """The time now, in seconds (from any fixed point)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return when ``seconds`` have passed on this clock."""
        ...


class SystemClock:
    """The real time: :func:`time.time` and :func:`asyncio.sleep`."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@dataclass
class _Sleeper:
    until: float
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


def _wake(done: asyncio.Future[None]) -> None:
    if not done.done():
        done.set_result(None)


class ManualClock:
    """Time that moves only when told to: :meth:`advance` by so many seconds, or
    :meth:`tick` to the end of the next wait.

    The tables wait on their event loop while a test moves time from its own thread
    (as with Starlette's ``TestClient``), so the clock is safe to move from any
    thread: a wait that is over is woken on its own loop.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._sleepers: list[_Sleeper] = []
        self._changed = threading.Condition()

    def now(self) -> float:
        with self._changed:
            return self._now

    async def sleep(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        with self._changed:
            sleeper = _Sleeper(self._now + max(0.0, seconds), loop, loop.create_future())
            if seconds <= 0:
                _wake(sleeper.done)
            else:
                self._sleepers.append(sleeper)
                self._changed.notify_all()
        try:
            await sleeper.done
        finally:
            with self._changed, contextlib.suppress(ValueError):
                self._sleepers.remove(sleeper)

    @property
    def waiting(self) -> int:
        """How many waits are not over yet."""
        with self._changed:
            return len(self._sleepers)

    def advance(self, seconds: float) -> float:
        """Move the time on by ``seconds`` and wake every wait that is over; the time
        now."""
        with self._changed:
            self._now += seconds
            return self._wake_due()

    def tick(self, timeout: float = 10.0) -> float:
        """Wait (in real time, at most ``timeout`` seconds) until something waits on
        this clock, then move the time to the end of the first wait and wake it; the
        time now. Call it from another thread than the waiting event loop's."""
        with self._changed:
            if not self._changed.wait_for(lambda: bool(self._sleepers), timeout):
                raise TimeoutError(f"nothing waited on the clock for {timeout} s")
            self._now = max(self._now, min(s.until for s in self._sleepers))
            return self._wake_due()

    def _wake_due(self) -> float:
        due = [s for s in self._sleepers if s.until <= self._now]
        for sleeper in due:
            self._sleepers.remove(sleeper)
            sleeper.loop.call_soon_threadsafe(_wake, sleeper.done)
        return self._now


async def wait_for_event(event: asyncio.Event, clock: Clock, seconds: float) -> bool:
    """Wait until ``event`` is set or ``seconds`` have passed on ``clock``, whichever
    comes first; whether the event was set."""
    if event.is_set():
        return True
    waiting = asyncio.ensure_future(event.wait())
    sleeping = asyncio.ensure_future(clock.sleep(seconds))
    try:
        await asyncio.wait((waiting, sleeping), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (waiting, sleeping):
            task.cancel()
        await asyncio.gather(waiting, sleeping, return_exceptions=True)
    return event.is_set()
