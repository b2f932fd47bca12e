"""The store's capacity: events per second one database takes through group commit.

``callers`` threads each save a run of small events to a table of their own, one save after the
other, through ``TableStore.save_events`` (group commit: the saves that arrive together are one
transaction, on PostgreSQL one round trip) and, beside it, through the recorder one save per
transaction (``insert_events`` per save, no grouping).  The figures are events stored per second
and, for group commit, the mean saves per batch.
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

from eventsourcing.persistence import StoredEvent

from trapoula.service.committer import GroupCommit
from trapoula.service.store import TableStore

EVENTS_PER_SAVE = 3
"""Events in one save (a move with the bots' replies saved with it is a few events)."""


@dataclass(frozen=True, slots=True)
class CommitFigures:
    """One run of :func:`commit_run`."""

    callers: int
    grouped_events_per_s: float
    saves_per_batch: float
    single_events_per_s: float


def _run(callers: int, seconds: float, save: Any) -> int:
    stop = time.perf_counter() + seconds
    counts = [0] * callers

    def caller(i: int) -> None:
        stream = uuid.uuid4()
        version = 0
        while time.perf_counter() < stop:
            events = [
                StoredEvent(stream, version + k + 1, "bench:Saved", b'{"n":%d}' % (version + k + 1))
                for k in range(EVENTS_PER_SAVE)
            ]
            save(events)
            version += EVENTS_PER_SAVE
            counts[i] += EVENTS_PER_SAVE

    threads = [threading.Thread(target=caller, args=(i,)) for i in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts)


def commit_run(database_url: str, schema: str | None, callers: int, seconds: float) -> CommitFigures:
    """Events per second through group commit and through one transaction per save."""
    store = TableStore(database_url, schema=schema)
    try:
        recorder = store.recorder
        batches = [0]

        def counted(tables: int, events: int) -> None:
            batches[0] += 1

        committer = GroupCommit(lambda *events: recorder.insert_events(list(events)), counted)
        grouped = _run(callers, seconds, committer.commit)
        single = _run(callers, seconds, recorder.insert_events)
        saves = grouped / EVENTS_PER_SAVE
        return CommitFigures(
            callers,
            grouped / seconds,
            saves / max(1, batches[0]),
            single / seconds,
        )
    finally:
        store.close()
