"""Following the store: announce the saves of other replicas (PostgreSQL LISTEN/NOTIFY).

On PostgreSQL a background thread listens on the event table's channel.  Each save's ``NOTIFY``
says which replica saved which tables at which versions (:mod:`trapoula.service.recorder`): the
follower skips this process's own saves (already announced, and applied in memory) and announces
the others' ``(table_id, version)`` through :meth:`~trapoula.service.heads.Heads.announce`, without reading a row;
a watcher or command then loads only the events its copy of that table lacks.  A notification
it cannot read (another writer's, or a save of too many tables to list) makes it read the
notification log from the last id it knows.

Started with the server's event loop (``start(loop)``), the listening socket is read by the
loop instead (``loop.add_reader``, libpq's non-blocking ``consume_input``): every save of every
replica, this process's own included, sends a notification, and a thread woken for each one
costs more than reading it.  The loop only reads and announces; what needs the store (reading
the notification log after a notification it cannot read) goes to a thread.

When the connection breaks (the database restarts or the network drops) a thread listens
again after :data:`FOLLOW_RETRY_SECONDS` (doubling up to :data:`FOLLOW_RETRY_MAX_SECONDS`) and
then reads the notification log from the last id it had, so saves made meanwhile are announced
late, never lost (with a loop, the loop reads the new connection once it is back); watchers also
re-read the store on their own every few seconds; while the follower has listened without a
break since they last read (:meth:`StoreFollower.follows_since`: no save can have been missed),
three polls in four take the table in memory instead (``servicer.MEMORY_POLLS``).  SQLite
cannot be listened to: there only this process's saves are announced.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import Any

from trapoula.service.recorder import parse_payload
from trapoula.service.store import TableStore

log = logging.getLogger(__name__)

FOLLOW_RETRY_SECONDS = 0.5
"""First wait before listening again to a store whose notifications stopped (doubles each time)."""
FOLLOW_RETRY_MAX_SECONDS = 5.0
"""Longest wait between two tries to listen again."""
WAKE_SECONDS = 0.5
"""How often the thread looks at its stop flag while no notification comes."""
CATCH_UP_BATCH = 500
"""Notifications read at once when catching up."""
RESTEADY_SECONDS = 30.0
"""After the follower listens again (or caught up after a notification it could not read), the
watches' polls keep asking the store this long: a save committed during the break under a
notification id below those already read (one held up in a frozen replica until the database
ended its session) is found by them."""


def first_line(exc: BaseException) -> str:
    """The first line of an error's message (at most 200 characters), or its class name."""
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__


class StoreFollower:
    """Announces the saves of other replicas, in a thread of its own (see the module docstring)."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watched: Any = None
        """The connection the loop reads (None: none, or a thread follows)."""
        self._socket = -1
        """Its socket's file descriptor."""
        self._last_lock = threading.Lock()
        self._last = 0
        self._catch_from: int | None = None
        self._catching = False
        self._steady_since: float | None = None
        """``time.monotonic()`` from which every save is announced (listening without a break, no
        catch-up pending); None while not (not started, cut off, catching up)."""
        self.skipped = 0
        """Notifications of this process's own saves, skipped."""
        self.announced = 0
        """Tables' versions announced from other replicas' notifications."""

    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> bool:
        """Start following: on ``loop`` (called on its thread), else in a thread of its own;
        False (and nothing started) on a store that cannot be listened to.

        Raises:
            Exception: what the store raises when it cannot be reached at the start.
        """
        if self._thread is not None or self._loop is not None:
            return True
        engine = self.store.engine
        if engine is None or engine.dialect.name != "postgresql":
            return False
        self._last = self.store.recorder.max_notification_id() or 0
        connection = self._listen()
        self._steady_since = time.monotonic()
        if loop is not None:
            self._loop = loop
            self._watch(connection)
        else:
            self._start_thread(connection)
        return True

    def follows_since(self, moment: float) -> bool:
        """True when every save of every replica committed since ``moment`` (``time.monotonic()``)
        was or will be announced: the follower has listened without a break since then (and for
        :data:`RESTEADY_SECONDS` after it listened again), with no catch-up pending.  A watcher that
        has waited since ``moment`` without a wake-up then missed nothing; False on SQLite."""
        steady = self._steady_since
        return steady is not None and steady <= moment

    def stop(self, timeout: float = 5.0) -> None:
        """Stop following and wait up to ``timeout`` seconds for the thread to end."""
        self._steady_since = None
        self._stop.set()
        loop = self._loop
        if loop is not None and self._watched is not None:
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop or not loop.is_running():
                self._unwatch()
            else:
                with contextlib.suppress(Exception):  # the loop stopped meanwhile: the process is ending
                    asyncio.run_coroutine_threadsafe(_call(self._unwatch), loop).result(timeout)
        thread = self._thread
        if thread is not None:
            thread.join(timeout=timeout)

    def _start_thread(self, connection: Any) -> None:
        self._thread = threading.Thread(target=self._follow, args=(connection,), name="trapoula-follow", daemon=True)
        self._thread.start()

    def _watch(self, connection: Any) -> None:
        """Have the loop read ``connection``'s notifications (on the loop's thread)."""
        assert self._loop is not None
        if self._stop.is_set():
            _close(connection)
            return
        self._thread = None
        self._watched = connection
        self._socket = connection.pgconn.socket  # libpq no longer tells it once the connection is lost
        self._loop.add_reader(self._socket, self._readable)

    def _unwatch(self) -> Any:
        """Stop the loop reading; returns the connection it read (None: none)."""
        connection, self._watched = self._watched, None
        if connection is not None:
            loop = self._loop
            if loop is not None and not loop.is_closed():
                loop.remove_reader(self._socket)
            _close(connection)
        return connection

    def _readable(self) -> None:
        """The loop: the listening socket has data; announce what its notifications say, or hand
        the following to a thread when the connection broke."""
        connection = self._watched
        if connection is None:
            return
        pgconn = connection.pgconn
        try:
            pgconn.consume_input()
            while (notify := pgconn.notifies()) is not None:
                self._notified(notify.extra.decode("utf-8", "replace"))
        except Exception as exc:
            log.warning("lost the store's notifications (%s); listening again", first_line(exc))
            self._unwatch()
            with self._last_lock:  # after the unwatch: a catch-up ending now sees no connection
                self._steady_since = None
            if not self._stop.is_set():
                self._start_thread(None)

    def _listen(self) -> Any:
        """A connection of its own (out of the pool, autocommit) listening on the store's channel."""
        raw = self.store.engine.raw_connection()
        connection = raw.driver_connection
        raw.detach()  # its own from now on: closed by this thread, never returned to the pool
        try:
            connection.autocommit = True
            connection.execute(f'LISTEN "{getattr(self.store.recorder, "channel_name", "")}"')
        except BaseException:
            connection.close()
            raise
        return connection

    def _follow(self, connection: Any) -> None:
        """The thread: announce what each notification says; listen again after a failure."""
        delay = FOLLOW_RETRY_SECONDS
        while not self._stop.is_set():
            try:
                if connection is None:
                    connection = self._listen()
                    log.info("following the store again from notification %d", self._last)
                    self._catch_up(self._last + 1)
                    self._steady_since = time.monotonic() + RESTEADY_SECONDS
                    loop = self._loop
                    if loop is not None:  # back: the loop reads it from now on
                        try:
                            loop.call_soon_threadsafe(self._watch, connection)
                            return
                        except RuntimeError:  # the loop is closed: this thread follows on
                            self._loop = None
                for notify in connection.notifies(timeout=WAKE_SECONDS):
                    delay = FOLLOW_RETRY_SECONDS
                    self._notified(notify.payload)
                    if self._stop.is_set():
                        break
            except Exception as exc:
                self._steady_since = None
                log.warning("lost the store's notifications (%s); listening again in %.1fs", first_line(exc), delay)
                if connection is not None:
                    _close(connection)
                connection = None
                self._stop.wait(delay)
                delay = min(delay * 2, FOLLOW_RETRY_MAX_SECONDS)
        if connection is not None:
            _close(connection)

    def _notified(self, payload: str) -> None:
        own = f"{self.store.replica}|"
        if payload.startswith(own):  # this process's save, its tables listed: only its last id matters
            listed, bar, last = payload[len(own) :].partition("|")
            if bar and listed != "*" and last.isdigit():
                self.skipped += 1
                self._seen(int(last))
                return
        saved = parse_payload(payload)
        if saved is None or saved.heads is None:
            start = self._last + 1
            if self._watched is not None:  # on the loop: the store is read on a thread
                self._catch_up_later(start)
            else:
                self._catch_up(start)
        elif saved.replica == self.store.replica:
            self.skipped += 1
            self._seen(saved.last)
        else:
            for table_id, version in saved.heads:
                self.store.heads.announce(table_id, version)
                self.announced += 1
            self._seen(saved.last)

    def _seen(self, last: int) -> None:
        """Notification ``last`` was read (the log is read again from past the highest one)."""
        with self._last_lock:
            self._last = max(self._last, last)

    def _catch_up_later(self, start: int) -> None:
        """Read the notification log from ``start`` on a thread (one at a time: a thread already
        reading goes on from the earliest start asked)."""
        with self._last_lock:
            self._catch_from = start if self._catch_from is None else min(self._catch_from, start)
            self._steady_since = None  # saves not announced yet: polls ask the store until caught up
            if self._catching:
                return
            self._catching = True
        threading.Thread(target=self._catching_up, name="trapoula-catch-up", daemon=True).start()

    def _catching_up(self) -> None:
        failed = False
        while True:
            with self._last_lock:
                start, self._catch_from = self._catch_from, None
                if start is None:
                    self._catching = False
                    if not failed and self._watched is not None:
                        self._steady_since = time.monotonic() + RESTEADY_SECONDS
                    return
            try:
                self._catch_up(start)
            except Exception as exc:  # watchers re-read the store on their own meanwhile
                failed = True
                log.warning("could not read the store's notification log (%s)", first_line(exc))

    def _catch_up(self, start: int) -> None:
        """Announce every table saved from notification id ``start`` on (its newest version)."""
        recorder = self.store.recorder
        while True:
            found = recorder.select_notifications(start=start, limit=CATCH_UP_BATCH)
            heads: dict[str, int] = {}
            for n in found:
                key = str(n.originator_id)
                heads[key] = max(heads.get(key, 0), n.originator_version)
            for table_id, version in heads.items():
                self.store.heads.announce(table_id, version)
            if found:
                self._seen(found[-1].id)
                start = found[-1].id + 1
            if len(found) < CATCH_UP_BATCH:
                return


async def _call(fn: Any) -> Any:
    """``fn()`` as a coroutine (to run it on a loop from another thread)."""
    return fn()


def _close(connection: Any) -> None:
    try:
        connection.close()
    except Exception:  # already broken
        log.debug("closing the listening connection failed", exc_info=True)
