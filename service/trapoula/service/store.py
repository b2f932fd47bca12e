"""``TableStore``: the event store of the tables, the library's application (DESIGN, Layers: service).

One aggregate per table (:class:`~trapoula.service.recording.Table`), stored by the eventsourcing
library's SQLAlchemy recorders (SQLite or PostgreSQL), with its notification log, its snapshot
store (:mod:`trapoula.service.snapshots`) and its aggregate cache.  This module adds what the
service needs around them:

* loads that take the cached copy without asking the store when it is known to be current
  (:meth:`TableStore.peek`), else fast-forward it (:meth:`TableStore.load`), or when the store
  was asked a moment ago (``load(table_id, max_age)``: the watchers of a table polling together
  share one read);
* saves that apply their own events to the cached copy in memory (never read back), take
  snapshots on the way, and announce ``(table_id, version)`` to the listeners (the fan-out, the
  metrics, the projection);
* the newest version known of each table: this process's saves, and other replicas' saves
  announced by the store follower (:mod:`trapoula.service.follower`), kept with their listeners
  in :attr:`TableStore.heads` (:mod:`trapoula.service.heads`).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sqlalchemy.engine
from eventsourcing.application import AggregateNotFoundError, Application, LRUCache, ProcessingEvent
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import Environment, get_topic

from trapoula.service.committer import GroupCommit
from trapoula.service.errors import ErrorContext, TableNotFound
from trapoula.service.heads import Heads
from trapoula.service.inputs import parse_table_id
from trapoula.service.recorder import TableRecorder
from trapoula.service.recording import Table
from trapoula.service.snapshots import (
    SNAPSHOT_EVERY,
    ColdLoad,
    SnapshotRepository,
    TableSnapshot,
    delete_snapshot,
    project,
    snapshots_due,
)

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_SECONDS = 5
"""Seconds a new PostgreSQL connection may take (``connect_timeout``, unless the URL sets one)."""
PG_CONNECTION_DEFAULTS: dict[str, str] = {
    "connect_timeout": str(CONNECT_TIMEOUT_SECONDS),
    "keepalives": "1",
    "keepalives_idle": "5",
    "keepalives_interval": "2",
    "keepalives_count": "3",
    "tcp_user_timeout": "10000",
    "options": "-c idle_in_transaction_session_timeout=10000 -c lock_timeout=5000",
}
"""libpq settings a PostgreSQL URL gets unless it sets them (see :func:`store_url`): seconds,
except ``tcp_user_timeout`` and the server settings in ``options`` (milliseconds)."""


POLL_LOCKS = 64
"""Locks shared by the tables (by hash) so that the loads of one table with a ``max_age`` take turns."""


def store_url(database_url: str) -> str:
    """``database_url`` with the connection settings of :data:`PG_CONNECTION_DEFAULTS` that it
    does not set itself, for PostgreSQL; other URLs are returned unchanged.

    They bound every wait on a database that is gone: a new connection gives up after 5 s, a
    connection whose peer went silent is dropped after 10 s (TCP keepalives and
    ``tcp_user_timeout``), and on the server's side a session left idle inside a transaction
    (its replica cut off mid-save, still holding the event table's lock) is ended after 10 s and
    a save waits at most 5 s for that lock, so one lost replica cannot stall the others.

    >>> store_url("postgresql+psycopg://ann@db:5432/trapoula?connect_timeout=30").split("?")[1].split("&")[:2]
    ['connect_timeout=30', 'keepalives=1']
    >>> store_url("sqlite:///trapoula.sqlite3")
    'sqlite:///trapoula.sqlite3'
    """
    try:
        url = sqlalchemy.engine.make_url(database_url)
    except Exception:  # not a URL: the store reports it when it opens
        return database_url
    if not url.drivername.startswith("postgresql"):
        return database_url
    missing = {k: v for k, v in PG_CONNECTION_DEFAULTS.items() if k not in url.query}
    return url.update_query_dict(missing).render_as_string(hide_password=False) if missing else database_url


CREATED_BATCH = 500
"""``TableCreated`` notifications read at once (:meth:`TableStore.created`)."""


class TableStore(Application):  # type: ignore[type-arg]
    """The tables' event store (see the module docstring).

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///file.sqlite3``, ``sqlite:///:memory:``,
            ``postgresql+psycopg://user@host/db``); PostgreSQL URLs get :func:`store_url`'s settings.
        schema: a PostgreSQL schema for the event table (None: the default).
        cache_size: tables kept in memory.
        snapshot_every: take a table's snapshot each time its version passes a multiple of this
            (docs/storage.md); 0: snapshots are neither taken nor read.

    Raises:
        Exception: whatever the store raises when it cannot be opened.
    """

    name = "trapoula"

    def __init__(
        self,
        database_url: str = "sqlite:///trapoula.sqlite3",
        *,
        schema: str | None = None,
        cache_size: int = 1000,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        env = {
            "PERSISTENCE_MODULE": "trapoula.service.recorder:TableFactory",
            "SQLALCHEMY_URL": store_url(database_url),
            "AGGREGATE_CACHE_MAXSIZE": str(cache_size),
            "AGGREGATE_CACHE_FASTFORWARD": "y",
            "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
        }
        if schema:
            env["SQLALCHEMY_SCHEMA"] = schema
        self.snapshot_every = max(0, snapshot_every)
        """Events between two snapshots of a table (0: none)."""
        if self.snapshot_every:
            env["IS_SNAPSHOTTING_ENABLED"] = "y"
        self._load_listeners: list[Callable[[ColdLoad], None]] = []
        self.heads = Heads(reads_kept=2 * max(1, cache_size))
        """Each table's newest known version and its listeners (:mod:`trapoula.service.heads`)."""
        self._poll_locks = [threading.Lock() for _ in range(POLL_LOCKS)]
        """Loads with a ``max_age`` of one table take turns (tables share these by hash)."""
        self.replica = uuid.uuid4().hex[:12]
        """This process's id in the store's notifications (its follower skips its own saves)."""
        self.batches = 0
        """Batches of saves stored so far (group commit)."""
        self.committer = GroupCommit(lambda *events: self.save(*events), self.batched)
        """Stores the saves of :meth:`save_events` in batches (:mod:`trapoula.service.committer`)."""
        super().__init__(env=env)
        init_wal = getattr(getattr(self.factory, "datastore", None), "init_sqlite_wal_mode", None)
        if callable(init_wal):
            # A SQLite file goes into WAL mode now, before any thread uses the store: the library
            # does it at the first transaction, where it can meet another thread's first write on
            # a new file and fail ("database is locked").  Elsewhere it does nothing.
            init_wal()
        recorder = self.recorder
        if isinstance(recorder, TableRecorder):
            recorder.replica = self.replica

    def batched(self, tables: int, events: int) -> None:
        """Count a batch of saves stored (``tables`` tables' ``events`` events in one transaction)."""
        self.batches += 1

    def construct_env(self, name: str, env: Mapping[str, str] | None = None) -> Environment:
        """The library's settings from ``env`` only (the process environment is not read)."""
        return Environment(name, dict(env or {}))

    def construct_repository(self) -> SnapshotRepository:
        """The library's repository (the same cache settings), whose cold loads start from a table's
        latest snapshot (:class:`~trapoula.service.snapshots.SnapshotRepository`)."""
        size = self.env.get(self.AGGREGATE_CACHE_MAXSIZE)
        return SnapshotRepository(
            event_store=self.events,
            snapshot_store=self.snapshots,
            cache_maxsize=int(size) if size else None,
            fastforward=self.env.get(self.AGGREGATE_CACHE_FASTFORWARD, "y") == "y",
            deepcopy_from_cache=self.env.get(self.DEEPCOPY_FROM_AGGREGATE_CACHE, "y") == "y",
            on_cold_load=self._cold_loaded,
            on_long_replay=self._snapshot_replayed,
            replay_limit=self.snapshot_every or 2**62,
        )

    @property
    def engine(self) -> Any:
        """The SQLAlchemy engine of the event store (None if the store has none)."""
        return getattr(getattr(self.factory, "datastore", None), "engine", None)

    def close(self) -> None:
        """Close the database connections."""
        super().close()
        recorder = getattr(self, "recorder", None)
        if isinstance(recorder, TableRecorder):
            recorder.close_saver()
        dispose = getattr(self.engine, "dispose", None)
        if callable(dispose):
            dispose()

    # ----------------------------------------------------------------------- loading

    def load(self, table_id: str, max_age: float | None = None) -> Table:
        """The table, brought up to date from the store (the cached copy fast-forwarded).

        ``max_age`` (seconds): the cached copy instead, without asking the store, when this
        process began to bring the table up to date from the store less than ``max_age`` seconds
        ago and the copy is at the newest version known since (:meth:`peek`): what the store held
        then is in the copy.  Such loads of one table wait for each other, so the watchers of a
        table polling for lost wake-ups together (a save woke them alike, and they waited alike)
        ask the store once.

        Raises:
            InvalidInput: a bad table id (``bad_table_id``).
            TableNotFound: no such table.
        """
        tid = parse_table_id(table_id)
        if max_age is None:
            return self._fetch(table_id, tid)
        with self._poll_locks[hash(table_id) % len(self._poll_locks)]:
            read_at = self.heads.read_at(table_id)
            if read_at is not None and time.monotonic() - read_at < max_age:
                cached = self.peek(table_id)
                if cached is not None:
                    return cached
            return self._fetch(table_id, tid)

    def _fetch(self, table_id: str, tid: uuid.UUID) -> Table:
        """The table from the repository (the cached copy fast-forwarded from the store); notes
        when the store was asked (for :meth:`load`'s ``max_age``)."""
        asked = time.monotonic()
        try:
            table: object = self.repository.get(tid, projector_func=project)
        except AggregateNotFoundError:
            raise TableNotFound(f"no table {table_id}", context=ErrorContext(table_id=table_id)) from None
        assert isinstance(table, Table)
        self.heads.note_read(table_id, asked)
        return table

    def peek(self, table_id: str) -> Table | None:
        """The table from the in-process cache, without asking the store, when the cached copy is
        at the newest version this process knows of (its own saves, and other replicas' saves
        announced by the follower); else None.

        Another replica's save not yet announced can make the copy a moment old, so its users
        only take it where that cannot show: a watch woken by an announcement (the save that woke
        it is in the copy); a command, whose refusal is then checked again on the store's latest
        state and whose save at an old version collides and is retried afresh; a token check,
        redone on the store's latest state unless the token is a present seat's or the owner's.

        Raises:
            InvalidInput: a bad table id.
        """
        cache = self.repository.cache
        known = self.heads.known(table_id)
        if not known or cache is None:
            return None
        try:
            cached = cache.get(parse_table_id(table_id))
        except KeyError:
            return None
        return cached if isinstance(cached, Table) and cached.state.version >= known else None

    def cached(self, table_id: str) -> Table | None:
        """The table's copy in this process's cache as it is (None when not cached), without asking
        the store, taking the cache's lock or moving it in the cache's order (for checks that must
        stay cheap: :meth:`~trapoula.service.reads.TableReads.open_here`).

        Raises:
            InvalidInput: a bad table id.
        """
        cache = self.repository.cache
        if cache is None:
            return None
        entry = cache.cache.get(parse_table_id(table_id))  # LRUCache: [prev, next, key, value]
        found = entry[3] if isinstance(cache, LRUCache) and entry is not None else entry
        return found if isinstance(found, Table) else None

    def current(self, table_id: str) -> Table:
        """:meth:`peek`, else :meth:`load`.

        Raises:
            InvalidInput, TableNotFound: as :meth:`load`.
        """
        return self.peek(table_id) or self.load(table_id)

    # ----------------------------------------------------------------------- saving

    def save_events(self, table_id: str, events: Sequence[Any]) -> Table | None:
        """Save one table's new events (all or none; with other tables' saves arriving meanwhile, in
        one transaction: :mod:`trapoula.service.committer`), apply them to its cached copy in memory
        and announce its new version; returns the table in memory (None when it is not cached).

        Raises:
            IntegrityError: another save took one of these versions first (nothing saved).
            Exception: what the store raises when it cannot write.
        """
        self.committer.commit(events)
        return self.saved(table_id, events)

    def saved(self, table_id: str, events: Sequence[Any]) -> Table | None:
        """After this process stored one table's ``events``: apply them to its cached copy and
        announce its new version; the table in memory (None when it is not cached).

        Raises:
            Exception: what the store raises when the copy was behind and cannot be fast-forwarded."""
        try:
            repository = self.repository
            assert isinstance(repository, SnapshotRepository)
            table = repository.apply_saved(parse_table_id(table_id), events)
        finally:  # after the copy has them: woken watchers find them in memory
            self.heads.announce(table_id, events[-1].originator_version)
        return table

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """The library's save; then a snapshot (:meth:`save_snapshot`) of each table whose version
        passed a multiple of ``snapshot_every`` in this save.  A snapshot that cannot be taken or
        stored is logged and skipped: the events are saved and the command answered all the same.

        Stored events alone (what every save of a table's facts passes) go straight to the
        library's recording step (``Application._record``), without its collection of events from
        aggregates, which asks each object whether it is an event through a ``typing`` protocol
        (the slowest kind of ``isinstance``) and has nothing to collect here."""
        if objs and all(isinstance(obj, DomainEvent) for obj in objs):
            processing_event: ProcessingEvent[Any] = ProcessingEvent()
            processing_event.events.extend(objs)
            processing_event.saved_kwargs.update(kwargs)
            recordings = self._record(processing_event)
            self._notify(recordings)
        else:
            recordings = super().save(*objs, **kwargs)
        for table_id, high in snapshots_due(objs, self.snapshot_every):
            try:
                self.save_snapshot(table_id)
            except Exception:
                log.warning("table %s: snapshot at v%d not taken", table_id, high, exc_info=True)
        return recordings

    # ----------------------------------------------------------------------- snapshots

    def add_load_listener(self, listener: Callable[[ColdLoad], None]) -> None:
        """Call ``listener(report)`` after every cold load of a table (one not served from the
        in-process cache): from which snapshot, how many stored events were read, how long it took."""
        self._load_listeners.append(listener)

    def remove_load_listener(self, listener: Callable[[ColdLoad], None]) -> None:
        """Stop calling ``listener``."""
        if listener in self._load_listeners:
            self._load_listeners.remove(listener)

    def _cold_loaded(self, report: ColdLoad) -> None:
        for listener in list(self._load_listeners):
            try:
                listener(report)
            except Exception:  # a listener must never fail a load
                log.exception("load listener %r failed for table %s", listener, report.table_id)

    def save_snapshot(self, table_id: str) -> int:
        """Store a snapshot of a table at its current version; returns that version.

        A snapshot already stored at that version (another replica took it) is kept as it is.

        Raises:
            InvalidInput, TableNotFound: as :meth:`view`.
            SnapshotUnusable: the table's state holds a value the snapshot codec cannot write.
            RuntimeError: snapshots are turned off (``snapshot_every=0``).
            Exception: whatever the store raises when it cannot write.
        """
        table = self.load(table_id)
        return self._put_snapshot(table)

    def _put_snapshot(self, table: Table, replace: int = 0) -> int:
        """Store a snapshot of ``table``; one already stored at its version is kept, unless that
        version is ``replace`` (an unusable snapshot), which is then deleted and replaced."""
        if self.snapshots is None:
            raise RuntimeError("snapshots are turned off (snapshot_every=0)")
        snapshot = TableSnapshot.of(table)
        version = snapshot.originator_version
        try:
            self.snapshots.put([snapshot])
        except IntegrityError:
            if version != replace:
                log.debug("table %s: snapshot v%d already stored", table.id, version)
                return version
            delete_snapshot(self.snapshots, table.id, version)
            try:
                self.snapshots.put([snapshot])
            except IntegrityError:  # another replica stored its own meanwhile
                log.debug("table %s: snapshot v%d already stored", table.id, version)
        return version

    def _snapshot_replayed(self, table: Table, ignored: int) -> None:
        """After a cold load that replayed many events (no usable snapshot, ``ignored`` the version of
        an unusable one): store a snapshot so the next cold load is short.  Failures are logged."""
        try:
            version = self._put_snapshot(table, ignored)
            if ignored and ignored != version and self.snapshots is not None:
                # the unusable one stands at another version (even past the head): it must not stay the latest
                delete_snapshot(self.snapshots, table.id, ignored)
        except Exception:
            log.warning("table %s: snapshot after a long replay not taken", table.id, exc_info=True)


def tables_created(store: TableStore, start: int, stop: int | None = None) -> list[tuple[int, str, dict[str, Any]]]:
    """The tables created in ``store`` from notification id ``start`` up to ``stop`` (None: the
    newest), in order: ``(notification id, table id, TableCreated payload)``; read
    :data:`CREATED_BATCH` notifications at a time.

    Raises:
        Exception: what the store raises when it cannot be read.
    """
    topic = get_topic(Table.Created)
    out: list[tuple[int, str, dict[str, Any]]] = []
    while True:
        found = store.recorder.select_notifications(start=start, limit=CREATED_BATCH, stop=stop, topics=[topic])
        for n in found:
            payload = getattr(store.mapper.to_domain_event(n), "payload", None)
            out.append((n.id, str(n.originator_id), payload if isinstance(payload, dict) else {}))
            start = n.id + 1
        if len(found) < CREATED_BATCH:
            return out
