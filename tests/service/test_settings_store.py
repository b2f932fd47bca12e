"""Settings of the store and the streams (docs/replicas.md, docs/storage.md), and how an unreachable
store is reported (DESIGN, Errors)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import grpc
import psycopg.errors
import pytest
import sqlalchemy.engine
import sqlalchemy.exc
from databases import NO_POSTGRES
from eventsourcing import persistence
from eventsourcing_sqlalchemy.datastore import SQLAlchemyDatastore

from trapoula.service import status
from trapoula.service.application import store_url
from trapoula.service.errors import Conflict
from trapoula.service.settings import Settings


def test_the_poll_interval_and_the_snapshot_interval_come_from_flags_over_the_environment() -> None:
    assert (Settings.from_env({}).watch_poll_seconds, Settings.from_env({}).snapshot_every) == (5.0, 512)
    env = {"TRAPOULA_WATCH_POLL_SECONDS": "0.5", "TRAPOULA_SNAPSHOT_EVERY": "0"}
    assert (Settings.from_env(env).watch_poll_seconds, Settings.from_env(env).snapshot_every) == (0.5, 0)
    flagged = Settings.from_args(["--watch-poll-seconds", "600", "--snapshot-every", "64"], env)
    assert (flagged.watch_poll_seconds, flagged.snapshot_every) == (600.0, 64)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TRAPOULA_WATCH_POLL_SECONDS", "0"),
        ("TRAPOULA_WATCH_POLL_SECONDS", "nan"),
        ("TRAPOULA_WATCH_POLL_SECONDS", "3601"),
        ("TRAPOULA_SNAPSHOT_EVERY", "-1"),
        ("TRAPOULA_SNAPSHOT_EVERY", "1.5"),
        ("TRAPOULA_SNAPSHOT_EVERY", "1000001"),
    ],
)
def test_a_bad_interval_is_refused_with_its_value(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=repr(value).replace(".", r"\.")):
        Settings.from_env({name: value})


def test_bad_flags_exit_with_usage() -> None:
    with pytest.raises(SystemExit) as stop:
        Settings.from_args(["--snapshot-every", "ten"], {})
    assert stop.value.code == 2


def test_postgresql_urls_get_bounded_waits_unless_they_set_their_own() -> None:
    url = sqlalchemy.engine.make_url(store_url("postgresql+psycopg://ann:pw@db/t"))
    assert (url.username, url.password, url.host, url.database) == ("ann", "pw", "db", "t")
    assert dict(url.query) == {
        "connect_timeout": "5",
        "keepalives": "1",
        "keepalives_idle": "5",
        "keepalives_interval": "2",
        "keepalives_count": "3",
        "tcp_user_timeout": "10000",
        "options": "-c idle_in_transaction_session_timeout=10000 -c lock_timeout=5000",
    }
    own = sqlalchemy.engine.make_url(store_url("postgresql+psycopg://db/t?connect_timeout=1&options=-c+x%3D1"))
    assert (own.query["connect_timeout"], own.query["options"]) == ("1", "-c x=1")
    assert store_url("sqlite:///x.sqlite3") == "sqlite:///x.sqlite3"


@pytest.mark.postgres
def test_a_session_left_idle_in_a_transaction_is_ended_by_the_server(postgres_url: str | None) -> None:
    """A replica cut off mid-save leaves its session holding the event table's lock: with the
    settings :func:`store_url` adds, PostgreSQL ends such a session after 10 s and a save waits at
    most 5 s for a lock, so one lost replica cannot stall the others (docs/replicas.md)."""
    if not postgres_url:
        pytest.skip(NO_POSTGRES)
    engine = sqlalchemy.create_engine(store_url(postgres_url))
    try:
        with engine.connect() as conn:
            shown = [
                conn.execute(sqlalchemy.text(f"SHOW {name}")).scalar()
                for name in ("lock_timeout", "idle_in_transaction_session_timeout")
            ]
        assert shown == ["5s", "10s"]
    finally:
        engine.dispose()


def test_an_unreachable_store_is_unavailable_without_the_database_message() -> None:
    """The database's own words (host, port) stay in the server's log, not in the reply."""
    down = persistence.OperationalError('connection to server at "10.0.0.9", port 5432 failed: Connection refused')
    code, message, reason, _ = status.describe(down)
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "store_unavailable")
    assert "10.0.0.9" not in message and "retry" in message
    lost = sqlalchemy.exc.OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly"))
    assert status.describe(lost)[0] is grpc.StatusCode.UNAVAILABLE
    assert status.describe(persistence.IntegrityError("duplicate key"))[0] is grpc.StatusCode.INTERNAL


def wrapped(driver: Exception, layer: type[sqlalchemy.exc.DBAPIError], outer: type[Exception] | None) -> Exception:
    """``driver`` (psycopg's error) as SQLAlchemy raises it (``layer``, ``from`` it), and as the
    eventsourcing recorders raise that in turn (``outer``, ``from`` it; None: not wrapped again)."""
    middle = layer("SELECT 1", {}, driver)
    middle.__cause__ = driver
    if outer is None:
        return middle
    top = outer(middle)
    top.__cause__ = middle
    return top


SESSION_ENDED = psycopg.errors.IdleInTransactionSessionTimeout(
    "terminating connection due to idle-in-transaction timeout"
)


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (SESSION_ENDED, grpc.StatusCode.UNAVAILABLE),
        (wrapped(SESSION_ENDED, sqlalchemy.exc.InternalError, None), grpc.StatusCode.UNAVAILABLE),
        (wrapped(SESSION_ENDED, sqlalchemy.exc.InternalError, persistence.InternalError), grpc.StatusCode.UNAVAILABLE),
        (
            wrapped(psycopg.errors.TransactionTimeout("transaction timeout"), sqlalchemy.exc.InternalError, None),
            grpc.StatusCode.UNAVAILABLE,
        ),
        (
            wrapped(
                psycopg.errors.LockNotAvailable("lock timeout"),
                sqlalchemy.exc.OperationalError,
                persistence.OperationalError,
            ),
            grpc.StatusCode.UNAVAILABLE,
        ),
        (
            wrapped(psycopg.errors.QueryCanceled("statement timeout"), sqlalchemy.exc.OperationalError, None),
            grpc.StatusCode.UNAVAILABLE,
        ),
        (psycopg.OperationalError("consuming input failed: server closed the connection"), grpc.StatusCode.UNAVAILABLE),
        (
            wrapped(
                psycopg.errors.InFailedSqlTransaction("current transaction is aborted"),
                sqlalchemy.exc.InternalError,
                persistence.InternalError,
            ),
            grpc.StatusCode.INTERNAL,
        ),
        (
            wrapped(
                psycopg.errors.UniqueViolation("duplicate key"),
                sqlalchemy.exc.IntegrityError,
                persistence.IntegrityError,
            ),
            grpc.StatusCode.INTERNAL,
        ),
    ],
    ids=[
        "idle-in-transaction",
        "idle-in-transaction-by-sqlalchemy",
        "idle-in-transaction-by-eventsourcing",
        "transaction-timeout",
        "lock-timeout",
        "statement-timeout",
        "connection-lost",
        "aborted-transaction",
        "duplicate-key",
    ],
)
def test_store_timeouts_and_lost_connections_are_unavailable_however_wrapped(
    error: Exception, code: grpc.StatusCode
) -> None:
    """The database's timeouts and connection errors answer ``UNAVAILABLE`` / ``store_unavailable``
    whether psycopg, SQLAlchemy or eventsourcing raised them; other database errors stay ``INTERNAL``."""
    answered, _, reason, _ = status.describe(error)
    assert (answered, reason) == (code, "store_unavailable" if code is grpc.StatusCode.UNAVAILABLE else "internal")


def test_a_service_error_caused_by_a_store_error_keeps_its_own_code() -> None:
    conflict = Conflict("saves kept colliding")
    conflict.__cause__ = persistence.OperationalError("connection refused")
    assert status.describe(conflict)[:3:2] == (grpc.StatusCode.ABORTED, "conflict")


@pytest.mark.postgres
def test_a_session_ended_by_the_idle_in_transaction_timeout_is_unavailable(postgres_url: str | None) -> None:
    """The error a real PostgreSQL session ended by ``idle_in_transaction_session_timeout`` raises,
    through the store's own transaction (eventsourcing over SQLAlchemy over psycopg), answers
    ``UNAVAILABLE`` / ``store_unavailable`` (it was ``INTERNAL``)."""
    if not postgres_url:
        pytest.skip(NO_POSTGRES)
    datastore = SQLAlchemyDatastore(url=postgres_url)
    assert datastore.engine is not None
    try:
        with pytest.raises(persistence.InternalError) as ended, datastore.transaction(commit=False) as session:
            session.execute(sqlalchemy.text("SET LOCAL idle_in_transaction_session_timeout = '50ms'"))
            time.sleep(0.5)  # idle in the transaction until the server ends the session
            session.execute(sqlalchemy.text("SELECT 1"))
    finally:
        datastore.engine.dispose()
    assert isinstance(ended.value.__cause__.__cause__, psycopg.errors.IdleInTransactionSessionTimeout)
    code, _, reason, _ = status.describe(ended.value)
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "store_unavailable")


def test_a_new_sqlite_file_is_in_wal_mode_once_the_store_is_open(tmp_path: Path) -> None:
    """The store sets WAL mode when it opens, before any thread uses it: the library would set it
    at the first transaction, where it can meet another thread's first write ("database is
    locked", seen as a turn clock pausing on a new file)."""
    from trapoula.service.store import TableStore

    path = tmp_path / "new.sqlite3"
    store = TableStore(f"sqlite:///{path}")
    try:
        with sqlite3.connect(path) as connection:  # no transaction of the store has run yet
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        store.close()
