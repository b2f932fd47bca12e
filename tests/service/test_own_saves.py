"""A replica never reads back what it saved itself; the others hear of it (PostgreSQL LISTEN/NOTIFY).

Two ``Tables`` on one PostgreSQL schema, each following the store (``follow_store``).  A move
saved through replica A: A's follower skips the notification of its own save (``skipped``), B's
announces the table's new version (``announced``) from the notification alone.  A applied the
saved events to its table in memory: afterwards its reads (the view, a watch served from memory,
``events_after``) read no event from the store and no notification.  A spectator watching on B
over gRPC, with polling every 10 minutes, receives the move at once, as A's log holds it.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy
from grpc_helpers import ServerThread

from trapoula.clients.table import TableClient
from trapoula.service.application import OWNER, SPECTATOR, Tables

pytestmark = pytest.mark.postgres

WAIT_SECONDS = 15.0
"""How long a notification may take to be heard."""


class ReadSpy:
    """Counts the reads of a ``Tables``' recorder: events read (``select_events``, what every
    load and fast-forward uses) and notification-log reads (``select_notifications``)."""

    def __init__(self, tables: Tables) -> None:
        recorder = tables.store.recorder
        self.select_events = recorder.select_events
        self.select_notifications = recorder.select_notifications
        self.event_reads: list[tuple[Any, int]] = []
        """``(keyword arguments, events returned)`` of each ``select_events``."""
        self.notification_reads = 0
        recorder.select_events = self._events
        recorder.select_notifications = self._notifications

    def _events(self, *args: Any, **kwargs: Any) -> Any:
        found = self.select_events(*args, **kwargs)
        self.event_reads.append((kwargs, len(found)))
        return found

    def _notifications(self, *args: Any, **kwargs: Any) -> Any:
        self.notification_reads += 1
        return self.select_notifications(*args, **kwargs)


class Announcements:
    """The ``(table_id, version)`` a ``Tables``' follower thread announced (not its own saves')."""

    def __init__(self, tables: Tables) -> None:
        heads = tables.store.heads
        self._announce = heads.announce
        self.heard: list[tuple[str, int]] = []
        heads.announce = self._record  # type: ignore[method-assign]

    def _record(self, table_id: str, version: int) -> None:
        if threading.current_thread().name == "trapoula-follow":
            self.heard.append((table_id, version))
        self._announce(table_id, version)


def _until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


@pytest.fixture
def replicas(postgres_store: Any) -> Iterator[tuple[Tables, Tables]]:
    """Two ``Tables`` on one fresh PostgreSQL schema, both following the store."""
    a, b = postgres_store.open(), postgres_store.open()
    try:
        assert a.follow_store() and b.follow_store()
        yield a, b
    finally:
        a.close()
        b.close()


def test_a_replica_skips_its_own_save_and_serves_it_from_memory_while_the_other_hears_of_it(
    replicas: tuple[Tables, Tables], deal: dict[str, Any]
) -> None:
    """Seat 0 plays 4D (agonia R4.1) through replica A: the table goes from version 9 to 11
    (``CardPlayed``, ``TurnStarted``).  A's follower skips exactly that one notification and
    announces nothing of the table; B's follower announces version 11.  A's view, its in-memory
    watch and ``events_after`` then show versions 10 and 11 without any event or notification read
    from the store (a view's fast-forward finds nothing newer).  B's watcher, on a server that
    polls every 10 minutes, receives versions 10 and 11 as A's spectator sees them."""
    a, b = replicas
    table_id, _owner = a.create_table(
        "agonia", 2, {"target_points": 0}, manual_deal=True
    )  # for the explicit deal, S5.3
    _, t0 = a.join(table_id, "ann", 0)
    a.join(table_id, "bob", 1)
    a.start_match(table_id, OWNER, "start", deal)
    _until(lambda: a.follower.skipped == 4, "A's follower did not skip its own four saves")
    assert b.view(table_id, SPECTATOR)[0] == 9
    heard_by_a, heard_by_b = Announcements(a), Announcements(b)
    announced_by_b = b.follower.announced
    # a server whose watches look at the store on their own only every 10 minutes: a watcher learns of
    # a save by its announcement
    with ServerThread(b, poll_seconds=600.0) as server, TableClient(f"127.0.0.1:{server.port}") as client:
        seen: list[tuple[int, str, dict[str, Any]]] = []
        watch = client.watch(table_id, 9)

        def read() -> None:
            for update in watch:
                seen.append((update.version, update.name, update.payload))
                if update.version == 11:
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reads = ReadSpy(a)
        me = a.authenticate(table_id, t0)
        played = a.act(table_id, me, "play", {"kind": "play", "card": "4D"})
        assert played.version == 11 and [e.name for e in played.events] == ["CardPlayed", "TurnStarted"]
        _until(lambda: a.follower.skipped == 5, "A's follower did not skip the notification of its own save")
        _until(lambda: (table_id, 11) in heard_by_b.heard, "B's follower did not announce A's save")
        reader.join(WAIT_SECONDS)
        assert not reader.is_alive(), "B's watcher never received the move"
        watch.cancel()

        in_memory = a.watch_in_memory(table_id, SPECTATOR, 9)
        assert in_memory is not None and [i.event.version for i in in_memory.items] == [10, 11]
        after = a.events_after(table_id, SPECTATOR, 9, fresh=False)
        assert after.items == in_memory.items
        version, view = a.view(table_id, me)
        assert version == 11 and view["table"]["version"] == 11 and view["top_card"] == "4D"
        assert sum(found for _, found in reads.event_reads) == 0, reads.event_reads
        assert all(kwargs.get("gt") == 11 for kwargs, _ in reads.event_reads), reads.event_reads
        assert reads.notification_reads == 0

    assert not [heard for heard in heard_by_a.heard if heard[0] == table_id]
    assert b.follower.announced > announced_by_b
    assert [(v, n) for v, n, _ in seen] == [(10, "CardPlayed"), (11, "TurnStarted")]
    assert [p for _, _, p in seen] == [i.event.payload for i in in_memory.items]
    assert [e.name for e in b.stored_events(table_id)[9:]] == ["CardPlayed", "TurnStarted"]


def test_a_follower_hears_only_its_own_schema(postgres_store: Any) -> None:
    """Stores in two schemas of one database have two notification channels: tables saved in the
    other schema are neither announced nor move the follower's last notification id; a save by
    another replica of its own schema is announced."""
    other = f"trapoula_test_{secrets.token_hex(6)}"
    engine = sqlalchemy.create_engine(postgres_store.url)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text(f'CREATE SCHEMA "{other}"'))
    listening = postgres_store.open()
    neighbour = Tables(postgres_store.url, schema=other)
    same = postgres_store.open()
    try:
        assert listening.follow_store()
        heard: list[tuple[str, int]] = []
        listening.add_listener(lambda table_id, version: heard.append((table_id, version)))
        for _ in range(3):
            neighbour.create_table("agonia", 2)
        time.sleep(1.0)  # a notification would have arrived by now
        assert heard == [] and listening.follower.announced == 0
        assert listening.follower._last == 0
        table_id, _owner = same.create_table("agonia", 2)  # TableCreated, then SeedCommitted (docs/shuffle.md 2a)
        deadline = time.monotonic() + WAIT_SECONDS
        while (table_id, 2) not in heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [(table_id, 1), (table_id, 2)]
    finally:
        listening.close()
        neighbour.close()
        same.close()
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'DROP SCHEMA "{other}" CASCADE'))
        engine.dispose()
