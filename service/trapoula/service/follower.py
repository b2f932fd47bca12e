"""Following the store: announce the saves of other replicas (PostgreSQL LISTEN/NOTIFY).

On a store that can be subscribed to, a background thread reads the notification log as the
library's subscription delivers it and announces every ``(table_id, version)`` through
:meth:`TableStore.announce`, so watchers of this process see moves made through other replicas
at once.  SQLite cannot be subscribed to: there only this process's saves are announced.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from trapoula.service.store import TableStore

log = logging.getLogger(__name__)

FOLLOW_RETRY_SECONDS = 0.5
"""First wait before subscribing again to a store whose notifications stopped (doubles each time)."""
FOLLOW_RETRY_MAX_SECONDS = 5.0
"""Longest wait between two tries to subscribe again."""


def first_line(exc: BaseException) -> str:
    """The first line of an error's message (at most 200 characters), or its class name."""
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__


class StoreFollower:
    """Announces the notifications of a store, in a thread of its own (see the module docstring)."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._subscription: Any = None
        self._last = 0

    def start(self) -> bool:
        """Start following; False (and nothing started) on a store that cannot be subscribed to.

        When the subscription breaks (the database restarts or the network drops), the thread
        subscribes again after :data:`FOLLOW_RETRY_SECONDS` (doubling up to
        :data:`FOLLOW_RETRY_MAX_SECONDS`) from the last notification it had, so saves made
        meanwhile are announced late, never lost; watchers also re-read the store on their own
        every few seconds.

        Raises:
            Exception: what the store raises when it cannot be read at all at the start.
        """
        if self._thread is not None:
            return True
        recorder = self.store.recorder
        try:
            start = recorder.max_notification_id()
            first = recorder.subscribe(gt=start)
        except NotImplementedError:
            return False
        self._last = start or 0
        self._thread = threading.Thread(target=self._follow, args=(first,), name="trapoula-follow", daemon=True)
        self._thread.start()
        return True

    def stop(self, timeout: float = 5.0) -> None:
        """Stop following and wait up to ``timeout`` seconds for the thread to end."""
        self._stop.set()
        following = self._subscription
        if following is not None:
            following.stop()
        if self._thread is not None:
            self._thread.join(timeout=timeout)

    def _follow(self, subscription: Any) -> None:
        """The thread: announce every notification; subscribe again after a failure."""
        delay = FOLLOW_RETRY_SECONDS
        while not self._stop.is_set():
            if subscription is None:
                try:
                    subscription = self.store.recorder.subscribe(gt=self._last)
                except Exception as exc:
                    log.warning("cannot follow the store (%s); trying again in %.1fs", first_line(exc), delay)
                    self._stop.wait(delay)
                    delay = min(delay * 2, FOLLOW_RETRY_MAX_SECONDS)
                    continue
                log.info("following the store again from notification %d", self._last)
            self._subscription = subscription
            if self._stop.is_set():
                subscription.stop()
            try:
                with subscription:
                    for notification in subscription:
                        delay = FOLLOW_RETRY_SECONDS
                        self._last = max(self._last, notification.id)
                        self.store.announce(str(notification.originator_id), notification.originator_version)
                        if self._stop.is_set():
                            break
            except Exception as exc:
                log.warning("lost the store's notifications (%s); resubscribing in %.1fs", first_line(exc), delay)
                self._stop.wait(delay)
                delay = min(delay * 2, FOLLOW_RETRY_MAX_SECONDS)
            subscription = None
