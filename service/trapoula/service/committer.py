"""Group commit: the saves of many tables that arrive together are stored in one transaction.

A thread that saves hands its table's events to :meth:`GroupCommit.commit` and waits.  When no
save is under way it leads at once: it stores every save waiting then (its own and those that
arrived while the last batch was being stored) in one call of the store's save, which on
PostgreSQL is one round trip, one table lock and one ``NOTIFY``
(:mod:`trapoula.service.recorder`).  When a batch is done the leader wakes the savers of that
batch and hands the lead to the oldest save waiting, so no thread leads twice in a row and a
save alone on a quiet server waits for nobody.

Each table keeps what it had alone: its events are saved all or none, at the versions chained
to its head, and a version another replica took first fails that table's save only.  When a
batch's save fails with ``IntegrityError`` the tables' saves are tried one by one, so exactly
the ones that lost their race get the error (and are decided again by their commands).  Within
one process a table has at most one save under way: its commands hold its lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from eventsourcing.persistence import IntegrityError

MAX_BATCH_EVENTS = 2000
"""Most events one batch stores (the rest wait for the next)."""


class Waiting(Protocol):
    """A save waiting for its batch: its events."""

    events: Sequence[Any]


W = TypeVar("W", bound=Waiting)


def next_batch(waiting: list[W]) -> list[W]:
    """Take the next batch off the front of ``waiting`` (oldest first): the saves whose events add
    up to at most :data:`MAX_BATCH_EVENTS`, and always at least one (a bigger save goes alone).

    >>> class S:
    ...     def __init__(self, n): self.events = [0] * n
    >>> queue = [S(1500), S(400), S(200), S(5000)]
    >>> [len(s.events) for s in next_batch(queue)], [len(s.events) for s in queue]
    ([1500, 400], [200, 5000])
    >>> [len(s.events) for s in next_batch(queue)], [len(s.events) for s in next_batch(queue)]
    ([200], [5000])
    """
    batch: list[W] = []
    count = 0
    while waiting and (not batch or count + len(waiting[0].events) <= MAX_BATCH_EVENTS):
        save = waiting.pop(0)
        batch.append(save)
        count += len(save.events)
    return batch


class _Save:
    """One table's save waiting in :class:`GroupCommit`: its events, and how its thread is woken
    (``done``, a lock held until the save is stored or the lead passes to it: a lighter signal
    than ``threading.Event``, made only for a save that waits)."""

    __slots__ = ("done", "error", "events", "lead")

    def __init__(self, events: Sequence[Any]) -> None:
        self.events = events
        self.done: threading.Lock | None = None
        self.lead = False
        self.error: BaseException | None = None

    def wake(self) -> None:
        """Let the thread of this save go on (once; nothing when it never waited)."""
        done = self.done
        if done is not None:
            self.done = None
            done.release()


class GroupCommit:
    """Stores saves in batches through ``save(*events)`` (see the module docstring).

    ``on_batch(tables, events)`` hears of every batch stored (for metrics and tests).
    """

    def __init__(self, save: Callable[..., Any], on_batch: Callable[[int, int], None] | None = None) -> None:
        self._save = save
        self._on_batch = on_batch
        self._lock = threading.Lock()
        self._waiting: list[_Save] = []
        self._leading = False

    def commit(self, events: Sequence[Any]) -> None:
        """Store ``events`` (one table's, chained to its head), alone or with other tables' saves.

        Raises:
            IntegrityError: another save took one of these versions first (none of them stored).
            Exception: what the store raises (none of them stored).
        """
        mine = _Save(events)
        done: threading.Lock | None = None
        with self._lock:
            self._waiting.append(mine)
            lead = not self._leading
            self._leading = True
            if not lead:
                done = mine.done = threading.Lock()
                done.acquire()
        if done is not None:
            done.acquire()  # released by the leader that stored this save or passed the lead to it
        if lead or mine.lead:
            self._lead()
        if mine.error is not None:
            raise mine.error

    def _lead(self) -> None:
        """Store one batch of the saves waiting, wake them, and pass the lead on."""
        with self._lock:
            batch = next_batch(self._waiting)
        try:
            self._store(batch)
        finally:
            with self._lock:
                successor = self._waiting[0] if self._waiting else None
                if successor is None:
                    self._leading = False
                else:
                    successor.lead = True
                for save in batch:
                    save.wake()
                if successor is not None:
                    successor.wake()

    def _store(self, batch: list[_Save]) -> None:
        try:
            self._save(*(e for save in batch for e in save.events))
        except IntegrityError as exc:
            if len(batch) == 1:
                batch[0].error = exc
                return
            for save in batch:  # find the table(s) that lost their race; the others are stored alone
                try:
                    self._save(*save.events)
                except BaseException as alone:
                    save.error = alone
        except BaseException as exc:
            for save in batch:
                save.error = exc
        else:
            if self._on_batch is not None:
                self._on_batch(len(batch), sum(len(s.events) for s in batch))
