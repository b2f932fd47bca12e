"""The event store's recorder: the library's SQLAlchemy recorder, with a PostgreSQL save in one round trip.

On PostgreSQL the library's recorder saves in four or more round trips inside one transaction:
``LOCK TABLE ... IN EXCLUSIVE MODE`` (so notification ids are assigned in commit order and a
reader of the notification log never skips one), the inserts, ``NOTIFY``, then ``COMMIT``.  The
table lock is held across each of them, so a replica that stalls between two (frozen, or its
connection cut) stops every replica's saves until PostgreSQL ends its session.

:class:`TableRecorder` sends the same work as one simple-query message on a connection in
autocommit mode::

    LOCK TABLE <events> IN EXCLUSIVE MODE;
    WITH saved AS (INSERT INTO <events> (originator_id, originator_version, topic, state)
                   VALUES (...), (...) RETURNING id)
    SELECT array_agg(id ORDER BY id), pg_notify('<channel>', '<payload>' || max(id)) FROM saved

PostgreSQL runs the statements of one message as one implicit transaction and commits (or, on
any error, rolls back) at its end, without waiting for the client: the lock is never held across
a round trip.  Several tables' events go in one call (group commit,
:mod:`trapoula.service.committer`): one transaction, one lock, one ``NOTIFY``.

The ``NOTIFY`` payload says who saved what (:func:`notify_payload`), so a replica's follower
skips its own saves and announces the others' without reading them
(:mod:`trapoula.service.follower`).  SQLite, and calls inside a caller's session, take the
library's path unchanged.

The store's tables (the events', :class:`TableRecorder`; the snapshots', :class:`SnapshotRecorder`)
are made where missing when a process opens the store; on PostgreSQL under an advisory lock
(:func:`create_in_turn`), so that replicas opening a new store together take turns.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing import persistence
from eventsourcing.persistence import StoredEvent
from eventsourcing_sqlalchemy.factory import SQLAlchemyFactory
from eventsourcing_sqlalchemy.recorders import SQLAlchemyAggregateRecorder, SQLAlchemyApplicationRecorder
from sqlalchemy import Connection, Engine, Table, text

NOTIFY_LIMIT = 7900
"""Longest payload list of a ``NOTIFY`` (PostgreSQL takes under 8000 bytes); a longer one says ``*``."""


@dataclass(frozen=True, slots=True)
class Saved:
    """What one ``NOTIFY`` of :class:`TableRecorder` says."""

    replica: str
    """The id of the saving process (``TableRecorder.replica``)."""
    heads: tuple[tuple[str, int], ...] | None
    """``(table id, version)`` of each table saved, at its newest version; None: too many to list."""
    last: int
    """The highest notification id of the save."""


def notify_payload(replica: str, events: Sequence[StoredEvent]) -> str:
    """The payload of a save's ``NOTIFY`` before its last notification id (appended by PostgreSQL):
    ``replica|table=version,...|`` (each table at its newest version), or ``replica|*|`` when the
    list would pass :data:`NOTIFY_LIMIT`.

    >>> from uuid import UUID
    >>> e = StoredEvent(UUID(int=1), 7, "t", b"")
    >>> notify_payload("r1", [e])
    'r1|00000000-0000-0000-0000-000000000001=7|'
    """
    heads: dict[str, int] = {}
    for event in events:
        key = str(event.originator_id)
        heads[key] = max(heads.get(key, 0), event.originator_version)
    listed = ",".join(f"{tid}={version}" for tid, version in heads.items())
    return f"{replica}|{listed if len(listed) <= NOTIFY_LIMIT else '*'}|"


def parse_payload(payload: str) -> Saved | None:
    """The :class:`Saved` of a ``NOTIFY`` payload; None when it is not one of ours (say, the
    library's empty one): the follower then reads the notification log.

    >>> parse_payload("r1|00000000-0000-0000-0000-000000000001=7|42")
    Saved(replica='r1', heads=(('00000000-0000-0000-0000-000000000001', 7),), last=42)
    >>> parse_payload("r1|*|42").heads is None
    True
    >>> parse_payload("") is None
    True
    """
    parts = payload.split("|")
    if len(parts) != 3 or not parts[2].isdigit():
        return None
    replica, listed, last = parts
    if listed == "*":
        return Saved(replica, None, int(last))
    heads = []
    for item in listed.split(","):
        tid, _, version = item.partition("=")
        if not version.isdigit():
            return None
        heads.append((tid, int(version)))
    return Saved(replica, tuple(heads), int(last))


def channel_name(events_table_name: str, schema_name: str | None) -> str:
    """The ``LISTEN/NOTIFY`` channel of an event table: ``schema_table`` (dots as underscores), or,
    past PostgreSQL's 63 bytes, its start and a hash of the whole.

    >>> channel_name("trapoula_events", None), channel_name("trapoula_events", "games")
    ('trapoula_events', 'games_trapoula_events')
    >>> len(channel_name("trapoula_events", "s" * 80))
    63
    """
    name = f"{schema_name}_{events_table_name}" if schema_name else events_table_name
    name = name.replace(".", "_")
    if len(name.encode("utf-8")) <= 63:
        return name
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    return f"{name.encode('utf-8')[:46].decode('utf-8', 'ignore')}_{digest}"


def creation_lock_key(schema: str | None) -> int:
    """The PostgreSQL advisory lock key under which the store's tables in ``schema`` are made (a
    signed 64-bit integer; one per schema, apart from the read models' migrations' key)."""
    digest = hashlib.sha256(f"trapoula event store/{schema or ''}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def create_in_turn(engine: Engine | Connection | None, schema: str | None, tables: Sequence[Table]) -> bool:
    """On PostgreSQL, make those of ``tables`` that are missing, in one transaction holding the
    advisory lock of ``schema`` (:func:`creation_lock_key`): replicas opening a new store at once
    take turns, where the library's ``create_table`` (each table's ``CREATE TABLE`` after a look
    for it) lets two of them both find a table missing and the second fail (``relation ...
    already exists``, or a duplicate key in ``pg_type``).  False, doing nothing, elsewhere: the
    library's way then (SQLite: one process's file, its tables made by the first; a store bound to
    a caller's connection: the caller's transaction).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database refused or cannot be reached.
    """
    if not isinstance(engine, Engine) or engine.dialect.name != "postgresql":
        return False
    with engine.begin() as connection:
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": creation_lock_key(schema)})
        for table in tables:
            table.create(connection, checkfirst=True)
    return True


class SnapshotRecorder(SQLAlchemyAggregateRecorder):
    """The library's recorder of snapshots, its table made in turn on PostgreSQL
    (:func:`create_in_turn`)."""

    def create_table(self) -> None:
        """Make the snapshots' table where missing (see :func:`create_in_turn`)."""
        if not create_in_turn(self.datastore.engine, self.schema_name, self.tables):
            super().create_table()


class TableRecorder(SQLAlchemyApplicationRecorder):
    """The library's application recorder; on PostgreSQL its saves take one round trip (see the
    module docstring).

    The saves of the group commit come one at a time (:mod:`trapoula.service.committer`): they
    go over one connection kept for them (taken from the engine once, out of its pool, and taken
    again after it broke), and their statement is written as literals by :func:`insert_sql`; a
    save that comes while another is under way takes a pooled connection.
    """

    replica: str = ""
    """The saving process's id in the ``NOTIFY`` payload (the store sets it)."""

    def __init__(self, datastore: Any, *, events_table_name: str, schema_name: str | None = None) -> None:
        """The library's recorder, whose notification channel also names the schema (see
        :func:`channel_name`), so stores in two schemas of one database never hear each other."""
        super().__init__(datastore, events_table_name=events_table_name, schema_name=schema_name)
        self.channel_name = channel_name(events_table_name, schema_name)
        self._saver: Any = None
        """The psycopg connection kept for saves (autocommit; None until the first, or after it broke)."""
        self._saver_lock = threading.Lock()

    def create_table(self) -> None:
        """Make the events' table where missing (see :func:`create_in_turn`)."""
        if not create_in_turn(self.datastore.engine, self.schema_name, self.tables):
            super().create_table()

    def insert_events(
        self, stored_events: Sequence[StoredEvent], *, session: Any = None, **kwargs: Any
    ) -> Sequence[int] | None:
        """Insert the events (of one or several tables) in one transaction; returns their
        notification ids in order.

        Raises:
            eventsourcing.persistence.IntegrityError: one of the versions is taken (nothing saved).
            eventsourcing.persistence.OperationalError, InterfaceError: the database cannot be
                reached, or a timeout ended the statement (nothing saved).
        """
        engine = self.datastore.engine
        if session is not None or engine is None or engine.dialect.name != "postgresql" or not stored_events:
            return super().insert_events(stored_events, session=session, **kwargs)
        return self._insert_in_one_message(engine, stored_events)

    def close_saver(self) -> None:
        """Close the connection kept for saves (the next save takes a new one)."""
        with self._saver_lock:
            saver, self._saver = self._saver, None
        if saver is not None:
            with contextlib.suppress(Exception):
                saver.close()

    def _insert_in_one_message(self, engine: Any, stored_events: Sequence[StoredEvent]) -> list[int]:
        import psycopg  # the PostgreSQL driver: only on this path

        table = self.events_record_cls.__table__
        name = f'"{table.schema}"."{table.name}"' if table.schema else f'"{table.name}"'
        notify = (self.channel_name, notify_payload(self.replica, stored_events))
        try:
            if self._saver_lock.acquire(blocking=False):
                try:
                    if self._saver is None or self._saver.closed:
                        fairy = engine.raw_connection()
                        saver = fairy.driver_connection
                        fairy.detach()  # kept for saves from now on, never returned to the pool
                        saver.autocommit = True
                        self._saver = saver
                    try:
                        return _send(self._saver, name, stored_events, notify)
                    except psycopg.OperationalError:
                        if self._saver.broken:
                            with contextlib.suppress(Exception):
                                self._saver.close()
                            self._saver = None
                        raise
                finally:
                    self._saver_lock.release()
            with engine.connect() as connection:  # another save is under way on the kept connection
                connection = connection.execution_options(isolation_level="AUTOCOMMIT")
                raw = connection.connection.driver_connection
                try:
                    return _send(raw, name, stored_events, notify)
                except psycopg.OperationalError:
                    if raw.broken:
                        connection.invalidate()  # a broken connection goes back to no pool
                    raise
        except psycopg.Error as exc:
            raise library_error(exc) from exc


def library_error(exc: Exception) -> Exception:
    """The eventsourcing library's error for a psycopg error of a save: ``IntegrityError`` (a
    version taken), ``InterfaceError``, else ``OperationalError`` (the database cannot be reached,
    a timeout ended the statement)."""
    import psycopg

    if isinstance(exc, psycopg.IntegrityError):
        return persistence.IntegrityError(str(exc))
    if isinstance(exc, psycopg.InterfaceError):
        return persistence.InterfaceError(str(exc))
    return persistence.OperationalError(str(exc))


def _send(raw: Any, name: str, stored_events: Sequence[StoredEvent], notify: tuple[str, str]) -> list[int]:
    """Run the save's statement (:func:`insert_sql`; the driver writes the literals on a session
    that is not UTF-8 or not ``standard_conforming_strings``) on the psycopg connection ``raw``
    (autocommit) as one simple-query message; the notification ids of the rows, in order.

    Raises:
        psycopg.Error: what the driver raises.
    """
    import psycopg

    with psycopg.ClientCursor(raw) as cursor:
        info = raw.info
        literal = info.encoding == "utf-8" and info.parameter_status("standard_conforming_strings") == "on"
        sql = insert_sql(name, stored_events, *notify) if literal else None
        if sql is not None:
            cursor.execute(sql)
        else:  # the driver writes the literals
            rows = ",".join(["(%s,%s,%s,%s)"] * len(stored_events))
            params: list[Any] = []
            for e in stored_events:
                params.extend((e.originator_id, e.originator_version, e.topic, e.state))
            cursor.execute(
                f"LOCK TABLE {name} IN EXCLUSIVE MODE;"
                f"WITH saved AS (INSERT INTO {name} (originator_id, originator_version, topic, state) "
                f"VALUES {rows} RETURNING id) "
                "SELECT array_agg(id ORDER BY id), pg_notify(%s, %s || max(id)) FROM saved",
                [*params, *notify],
            )
        cursor.nextset()
        row = cursor.fetchone()
    assert row is not None
    return list(row[0])


def _text(value: str) -> str | None:
    """``value`` as a PostgreSQL string literal where backslashes are plain characters
    (``standard_conforming_strings``); None for a value that cannot be one (a NUL)."""
    if "\x00" in value:
        return None
    return "'" + value.replace("'", "''") + "'"


def insert_sql(name: str, stored_events: Sequence[StoredEvent], channel: str, payload: str) -> bytes | None:
    r"""The save's statement (see the module docstring) for the event table ``name`` (quoted), with
    the events' values and the ``NOTIFY``'s ``channel`` and ``payload`` written as literals: the
    rows stored are those the driver's parameters give.  Only for a session whose
    ``standard_conforming_strings`` is on; None when a value is not of its column's type (the
    driver then writes them, and refuses what it must).

    >>> from uuid import UUID
    >>> sql = insert_sql('"ev"', [StoredEvent(UUID(int=1), 2, "m:T", b"{}")], "ev", "r|'|").decode()
    >>> print(sql.replace(";", ";\n").replace(" VALUES ", "\nVALUES ").replace(" SELECT", "\nSELECT"))
    LOCK TABLE "ev" IN EXCLUSIVE MODE;
    WITH saved AS (INSERT INTO "ev" (originator_id, originator_version, topic, state)
    VALUES ('00000000-0000-0000-0000-000000000001'::uuid,2,'m:T','\x7b7d'::bytea) RETURNING id)
    SELECT array_agg(id ORDER BY id), pg_notify('ev', 'r|''|' || max(id)) FROM saved
    """
    rows: list[str] = []
    for e in stored_events:
        topic = _text(e.topic)
        if (
            topic is None
            or not isinstance(e.originator_id, UUID)
            or type(e.originator_version) is not int
            or not isinstance(e.state, bytes)
        ):
            return None
        rows.append(f"('{e.originator_id}'::uuid,{e.originator_version},{topic},'\\x{e.state.hex()}'::bytea)")
    quoted_channel, quoted_payload = _text(channel), _text(payload)
    if quoted_channel is None or quoted_payload is None:
        return None
    return (
        f"LOCK TABLE {name} IN EXCLUSIVE MODE;"
        f"WITH saved AS (INSERT INTO {name} (originator_id, originator_version, topic, state) "
        f"VALUES {','.join(rows)} RETURNING id) "
        f"SELECT array_agg(id ORDER BY id), pg_notify({quoted_channel}, {quoted_payload} || max(id)) FROM saved"
    ).encode()


class TableFactory(SQLAlchemyFactory):
    """The library's SQLAlchemy persistence, with :class:`TableRecorder` as the application recorder
    (``PERSISTENCE_MODULE=trapoula.service.recorder:TableFactory``)."""

    application_recorder_class = TableRecorder
    aggregate_recorder_class = SnapshotRecorder
