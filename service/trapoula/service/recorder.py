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
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eventsourcing import persistence
from eventsourcing.persistence import StoredEvent
from eventsourcing_sqlalchemy.factory import SQLAlchemyFactory
from eventsourcing_sqlalchemy.recorders import SQLAlchemyApplicationRecorder

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


class TableRecorder(SQLAlchemyApplicationRecorder):
    """The library's application recorder; on PostgreSQL its saves take one round trip (see the
    module docstring)."""

    replica: str = ""
    """The saving process's id in the ``NOTIFY`` payload (the store sets it)."""

    def __init__(self, datastore: Any, *, events_table_name: str, schema_name: str | None = None) -> None:
        """The library's recorder, whose notification channel also names the schema (see
        :func:`channel_name`), so stores in two schemas of one database never hear each other."""
        super().__init__(datastore, events_table_name=events_table_name, schema_name=schema_name)
        self.channel_name = channel_name(events_table_name, schema_name)

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

    def _insert_in_one_message(self, engine: Any, stored_events: Sequence[StoredEvent]) -> list[int]:
        import psycopg  # the PostgreSQL driver: only on this path

        table = self.events_record_cls.__table__
        name = f'"{table.schema}"."{table.name}"' if table.schema else f'"{table.name}"'
        rows = ",".join(["(%s,%s,%s,%s)"] * len(stored_events))
        sql = (
            f"LOCK TABLE {name} IN EXCLUSIVE MODE;"
            f"WITH saved AS (INSERT INTO {name} (originator_id, originator_version, topic, state) "
            f"VALUES {rows} RETURNING id) "
            "SELECT array_agg(id ORDER BY id), pg_notify(%s, %s || max(id)) FROM saved"
        )
        params: list[Any] = []
        for e in stored_events:
            params.extend((e.originator_id, e.originator_version, e.topic, e.state))
        params.extend((self.channel_name, notify_payload(self.replica, stored_events)))
        try:
            with engine.connect() as connection:
                connection = connection.execution_options(isolation_level="AUTOCOMMIT")
                raw = connection.connection.driver_connection
                try:
                    with psycopg.ClientCursor(raw) as cursor:
                        cursor.execute(sql, params)
                        cursor.nextset()
                        row = cursor.fetchone()
                except psycopg.OperationalError:
                    if raw.broken:
                        connection.invalidate()  # a broken connection goes back to no pool
                    raise
        except psycopg.IntegrityError as exc:
            raise persistence.IntegrityError(str(exc)) from exc
        except psycopg.InterfaceError as exc:
            raise persistence.InterfaceError(str(exc)) from exc
        except psycopg.Error as exc:
            raise persistence.OperationalError(str(exc)) from exc
        assert row is not None
        return list(row[0])


class TableFactory(SQLAlchemyFactory):
    """The library's SQLAlchemy persistence, with :class:`TableRecorder` as the application recorder
    (``PERSISTENCE_MODULE=trapoula.service.recorder:TableFactory``)."""

    application_recorder_class = TableRecorder
