"""``Heads``: the newest version this process knows of each table, and who is told of each new one.

A table's head moves when this process saves it (:meth:`~trapoula.service.store.TableStore.save_events`)
or when the store follower hears another replica's save (:mod:`trapoula.service.follower`); each
move is announced to the listeners (the fan-out, the metrics, the projection, the turn clocks).
``Heads`` also notes when each table was last brought up to date from the store, so that the
watchers of one table polling together share one read (``TableStore.load``'s ``max_age``).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable

log = logging.getLogger(__name__)


class Heads:
    """Each table's newest known version, its listeners, and its last read from the store (all
    methods safe from any thread).

    Args:
        reads_kept: tables whose last read is remembered (the oldest forgotten first); at least 1.
    """

    def __init__(self, reads_kept: int) -> None:
        self._lock = threading.Lock()
        self._heads: dict[str, int] = {}
        self._listeners: list[Callable[[str, int], None]] = []
        self._read_at: OrderedDict[str, float] = OrderedDict()
        """When each table was last brought up to date from the store (``time.monotonic``), the
        most recent last; at most :attr:`_reads_kept` tables."""
        self._reads_kept = max(1, reads_kept)

    def add_listener(self, listener: Callable[[str, int], None]) -> None:
        """Call ``listener(table_id, version)`` after every head announced (any thread)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[str, int], None]) -> None:
        """Stop calling ``listener`` (one never added is ignored)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def announce(self, table_id: str, version: int) -> None:
        """Table ``table_id`` reached ``version`` (saved here, or by another replica): remember it
        as the newest known and tell the listeners; a listener's failure is logged, never raised.

        >>> heads = Heads(8)
        >>> heard = []
        >>> heads.add_listener(lambda table_id, version: heard.append((table_id, version)))
        >>> heads.announce("t", 3); heads.announce("t", 2)
        >>> heads.known("t"), heard
        (3, [('t', 3), ('t', 2)])
        """
        with self._lock:
            if version > self._heads.get(table_id, 0):
                self._heads[table_id] = version
        for listener in list(self._listeners):
            try:
                listener(table_id, version)
            except Exception:  # a listener must never undo a saved command
                log.exception("listener %r failed for table %s v%d", listener, table_id, version)

    def known(self, table_id: str) -> int:
        """The newest version of a table this process knows of (0: none announced)."""
        with self._lock:
            return self._heads.get(table_id, 0)

    def read_at(self, table_id: str) -> float | None:
        """When the table was last brought up to date from the store (``time.monotonic`` seconds),
        or None when not among the :attr:`_reads_kept` most recent."""
        with self._lock:
            return self._read_at.get(table_id)

    def note_read(self, table_id: str, asked: float) -> None:
        """The table was brought up to date from the store as it stood at ``asked``
        (``time.monotonic`` seconds, when the store was asked)."""
        with self._lock:
            self._read_at.pop(table_id, None)
            self._read_at[table_id] = asked
            if len(self._read_at) > self._reads_kept:
                self._read_at.popitem(last=False)
