"""A watch's poll for lost wake-ups: the watchers of a table that poll together ask the store once.

A watch that waited ``poll_seconds`` without a wake-up re-reads its table from the store, in case
a wake-up was lost.  The watchers of one table wait alike (one save woke them all), so they poll
at the same moment: the first reads the store, the others take the table in memory that read
brought up to date (``TableStore.load`` with ``max_age``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.service.application import Tables
from trapoula.service.servicer import POLL_SHARED


class ReadSpy:
    """Counts the events reads of a ``Tables``' recorder (``select_events``: every load and fast-forward)."""

    def __init__(self, tables: Tables) -> None:
        recorder = tables.store.recorder
        self._select = recorder.select_events
        self.reads = 0
        self._lock = threading.Lock()
        recorder.select_events = self._events

    def _events(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.reads += 1
        return self._select(*args, **kwargs)


@pytest.fixture
def two_replicas(sqlite_store: Any) -> Iterator[tuple[Tables, Tables]]:
    """Two ``Tables`` on one SQLite file (SQLite has no notifications: neither hears the other)."""
    a, b = sqlite_store.open(), sqlite_store.open()
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def test_a_load_with_a_max_age_takes_the_copy_read_within_it_and_asks_the_store_after(
    two_replicas: tuple[Tables, Tables],
) -> None:
    a, b = two_replicas
    table_id, _owner = a.create_table("agonia", 3, {"target_points": 0})
    a.join(table_id, "ann", 0)
    # versions: TableCreated, SeedCommitted (docs/shuffle.md 2a), then one SeatTaken per join
    assert a.store.load(table_id).state.version == 3  # read from the store just now
    b.join(table_id, "bob", 1)  # another replica's save: nobody tells A
    spy = ReadSpy(a)
    assert a.store.load(table_id, max_age=3600).state.version == 3  # the copy: the store was asked within the hour
    assert spy.reads == 0
    assert a.store.load(table_id, max_age=0.0).state.version == 4  # older than no time at all: asked again
    assert spy.reads == 1
    b.join(table_id, "cat", 2)
    assert a.store.load(table_id).state.version == 5  # without a max_age: always asked
    assert spy.reads == 2


def test_the_watchers_of_an_idle_table_share_their_polls(
    sqlite_tables: Tables, serve_tables: Callable[[Tables], Any]
) -> None:
    """Five spectators of a table where nothing happens, on a server polling every 0.2 s: each poll
    round of the five asks the store about once (five times without the sharing)."""
    tables = sqlite_tables
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0})
    server = serve_tables(tables)
    servicer_poll = 1.0  # the fixture's server polls every second
    polls: list[float | None] = []
    events_after = tables.events_after

    def counted(*args: Any, **kwargs: Any) -> Any:
        if "max_age" in kwargs:
            polls.append(kwargs["max_age"])
        return events_after(*args, **kwargs)

    tables.events_after = counted  # type: ignore[method-assign]
    spy = ReadSpy(tables)
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        streams = [stub.WatchTable(pb.WatchTableRequest(table_id=table_id)) for _ in range(5)]
        firsts = [next(s) for s in streams]  # each stream's first read (a full one each)
        assert [f.event.name for f in firsts] == ["TableCreated"] * 5
        reads_open = spy.reads
        deadline = time.monotonic() + 60
        while len(polls) < 25 and time.monotonic() < deadline:
            time.sleep(0.05)
        reads = spy.reads - reads_open
        done = len(polls)
        for s in streams:
            s.cancel()
    assert done >= 25, f"only {done} polls in a minute"
    assert set(polls) == {servicer_poll * POLL_SHARED}
    assert 1 <= reads <= done // 2 + 1, f"{reads} store reads for {done} polls"
