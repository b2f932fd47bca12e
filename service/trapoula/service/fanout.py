"""In-process fan-out of "table T is now at version V" to the watchers of T.

SQLite has no subscription, so ``Tables`` calls :meth:`Fanout.publish` after every successful
save (from whichever worker thread saved); on PostgreSQL ``Tables.follow_store`` also publishes
the saves of other replicas.  Watchers never receive events from here, only a wake-up: they
then read the events after their last version from the store, redacted for their viewer, so
nothing is missed or repeated across a wake-up, a timeout or a reconnect.

:meth:`Fanout.close` (a stopping server) wakes every watcher at once and makes every later wait
return at once; watchers then check :attr:`Fanout.closed` and end their streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from trapoula.service.handoff import waker


def _wake(futures: list[asyncio.Future[bool]]) -> None:
    for future in futures:
        if not future.done():
            future.set_result(True)


_EARLY = 0.001
"""Seconds before its deadline a wait may time out (the loop runs a timer up to its clock's
resolution early; a wait due this close is not worth another turn of the timer)."""


class _Deadlines:
    """The timeouts of one event loop's waits, kept without a timer each.

    Waits of the same timeout end in the order they began, so each timeout has one dict of its
    waiting futures (insertion order: deadline order) and at most one loop timer, set for the
    earliest deadline; when it fires, the futures whose deadline passed get False, and the
    timer is set again for the next.  A wait woken before its deadline leaves its dict at once.
    A watch stream waits up to :attr:`TableServicer.poll_seconds` for each of its wake-ups, so a
    timer a wait (a ``TimerHandle``, its context and arguments in the loop's heap) would be
    three objects a stream message for the collector to walk, and comparisons in the heap.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waits: dict[float, dict[asyncio.Future[bool], float]] = {}
        """timeout -> {future: its deadline on the loop's clock}, earliest first."""
        self._timers: dict[float, asyncio.TimerHandle] = {}
        """timeout -> the timer set for its earliest deadline."""

    def add(self, future: asyncio.Future[bool], timeout: float) -> None:
        """Set ``future`` to False ``timeout`` seconds from now unless it is done by then."""
        waits = self._waits.get(timeout)
        if waits is None:
            waits = self._waits[timeout] = {}
        deadline = self._loop.time() + timeout
        waits[future] = deadline
        if timeout not in self._timers:
            self._timers[timeout] = self._loop.call_at(deadline, self._expire, timeout)

    def discard(self, future: asyncio.Future[bool], timeout: float) -> None:
        """Forget ``future``'s deadline (it was woken, or its wait ended otherwise)."""
        waits = self._waits.get(timeout)
        if waits is not None:
            waits.pop(future, None)

    def _expire(self, timeout: float) -> None:
        """The timer of ``timeout``: time out the waits whose deadline passed, then set the timer
        for the next deadline (none when nobody waits)."""
        del self._timers[timeout]
        waits = self._waits.get(timeout)
        if not waits:
            self._waits.pop(timeout, None)
            return
        now = self._loop.time() + _EARLY
        expired = []
        following = None
        for future, deadline in waits.items():
            if deadline > now:
                following = deadline
                break
            expired.append(future)
        for future in expired:
            del waits[future]
            if not future.done():
                future.set_result(False)
        if following is not None:
            self._timers[timeout] = self._loop.call_at(following, self._expire, timeout)
        elif not waits:
            del self._waits[timeout]


def _wake_all(waiters: list[tuple[int, asyncio.AbstractEventLoop, asyncio.Future[bool]]]) -> None:
    """Wake ``waiters`` with one call into each of their event loops (not one per watcher),
    through its :class:`~trapoula.service.handoff.Waker` (one wake-up of the loop for the
    hand-offs that arrive before it runs them)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[bool]]] = {}
    for _, loop, future in waiters:
        by_loop.setdefault(loop, []).append(future)
    for loop, futures in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits there any more
            waker(loop).call(_wake, futures)


class Fanout:
    """Thread-safe wake-ups for asyncio watchers, per table."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: dict[str, int] = {}
        self._waiters: dict[str, list[tuple[int, asyncio.AbstractEventLoop, asyncio.Future[bool]]]] = {}
        self._closed = False
        self._deadlines: dict[asyncio.AbstractEventLoop, _Deadlines] = {}
        """Each event loop's wait timeouts (touched on that loop only)."""

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed

    def close(self) -> None:
        """Wake every watcher now and let no later :meth:`wait` block (any thread)."""
        with self._lock:
            self._closed = True
            waiting = [w for ws in self._waiters.values() for w in ws]
            self._waiters.clear()
        _wake_all(waiting)

    def publish(self, table_id: str, version: int) -> None:
        """Table ``table_id`` reached ``version``: wake every watcher waiting for less (any thread)."""
        with self._lock:
            if version > self._latest.get(table_id, 0):
                self._latest[table_id] = version
            waiting = self._waiters.get(table_id, [])
            ready = [w for w in waiting if w[0] < version]
            if ready:
                self._waiters[table_id] = [w for w in waiting if w[0] >= version]
        _wake_all(ready)

    def latest(self, table_id: str) -> int:
        """The highest version published for a table (0 if none)."""
        with self._lock:
            return self._latest.get(table_id, 0)

    def watchers(self, table_id: str) -> int:
        """How many watchers wait on a table now."""
        with self._lock:
            return len(self._waiters.get(table_id, []))

    async def wait(self, table_id: str, after: int, timeout: float | None = None) -> bool:
        """Wait until a version greater than ``after`` is published; False on timeout.

        Returns at once when such a version was already published, or when the fan-out is
        closed (True).  Cancellation propagates.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        entry = (after, loop, future)
        with self._lock:
            if self._closed or self._latest.get(table_id, 0) > after:
                return True
            self._waiters.setdefault(table_id, []).append(entry)
        deadlines = None
        if timeout is not None:  # not asyncio.wait_for: no task per wait, nor a timer
            deadlines = self._deadlines.get(loop)
            if deadlines is None:  # a loop's first wait: forget the loops closed since
                for closed in [other for other in self._deadlines if other.is_closed()]:
                    self._deadlines.pop(closed, None)
                deadlines = self._deadlines.setdefault(loop, _Deadlines(loop))
            deadlines.add(future, timeout)
        try:
            return await future
        finally:
            if deadlines is not None and timeout is not None:
                deadlines.discard(future, timeout)
            with self._lock:
                waiting = self._waiters.get(table_id)
                if waiting is not None:
                    if entry in waiting:
                        waiting.remove(entry)
                    if not waiting:
                        del self._waiters[table_id]
