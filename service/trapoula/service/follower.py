"""Following the store: announce the saves of other replicas (PostgreSQL LISTEN/NOTIFY).

On PostgreSQL a background thread listens on the event table's channel.  Each save's ``NOTIFY``
says which replica saved which tables at which versions (:mod:`trapoula.service.recorder`): the
follower skips this process's own saves (already announced, and applied in memory) and announces
the others' ``(table_id, version)`` through :meth:`~trapoula.service.heads.Heads.announce`, without reading a row;
a watcher or command then loads only the events its copy of that table lacks.  A notification
it cannot read (another writer's, or a save of too many tables to list) makes it read the
notification log from the last id it knows.

When the connection breaks (the database restarts or the network drops) the thread listens
again after :data:`FOLLOW_RETRY_SECONDS` (doubling up to :data:`FOLLOW_RETRY_MAX_SECONDS`) and
then reads the notification log from the last id it had, so saves made meanwhile are announced
late, never lost; watchers also re-read the store on their own every few seconds.  SQLite cannot
be listened to: there only this process's saves are announced.
"""

from __future__ import annotations

import logging
import threading
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
        self._last = 0
        self.skipped = 0
        """Notifications of this process's own saves, skipped."""
        self.announced = 0
        """Tables' versions announced from other replicas' notifications."""

    def start(self) -> bool:
        """Start following; False (and nothing started) on a store that cannot be listened to.

        Raises:
            Exception: what the store raises when it cannot be reached at the start.
        """
        if self._thread is not None:
            return True
        engine = self.store.engine
        if engine is None or engine.dialect.name != "postgresql":
            return False
        self._last = self.store.recorder.max_notification_id() or 0
        connection = self._listen()
        self._thread = threading.Thread(target=self._follow, args=(connection,), name="trapoula-follow", daemon=True)
        self._thread.start()
        return True

    def stop(self, timeout: float = 5.0) -> None:
        """Stop following and wait up to ``timeout`` seconds for the thread to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout)

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
                    self._catch_up()
                for notify in connection.notifies(timeout=WAKE_SECONDS):
                    delay = FOLLOW_RETRY_SECONDS
                    self._notified(notify.payload)
                    if self._stop.is_set():
                        break
            except Exception as exc:
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
                self._last = max(self._last, int(last))
                return
        saved = parse_payload(payload)
        if saved is None or saved.heads is None:
            self._catch_up()
        elif saved.replica == self.store.replica:
            self.skipped += 1
            self._last = max(self._last, saved.last)
        else:
            for table_id, version in saved.heads:
                self.store.heads.announce(table_id, version)
                self.announced += 1
            self._last = max(self._last, saved.last)

    def _catch_up(self) -> None:
        """Announce every table saved after the last notification id known (its newest version)."""
        recorder = self.store.recorder
        while True:
            found = recorder.select_notifications(start=self._last + 1, limit=CATCH_UP_BATCH)
            heads: dict[str, int] = {}
            for n in found:
                key = str(n.originator_id)
                heads[key] = max(heads.get(key, 0), n.originator_version)
            for table_id, version in heads.items():
                self.store.heads.announce(table_id, version)
            if found:
                self._last = max(self._last, found[-1].id)
            if len(found) < CATCH_UP_BATCH:
                return


def _close(connection: Any) -> None:
    try:
        connection.close()
    except Exception:  # already broken
        log.debug("closing the listening connection failed", exc_info=True)
