"""``loopsave.simple_query``: a save's statement sent on psycopg's libpq connection and read back
on the event loop, without a cursor (PostgreSQL).

* A message of several statements: every result is read, the connection is idle afterwards and
  the rows are there.
* A duplicate key (SQLSTATE 23505, class 23) is the library's ``IntegrityError``; the statements
  of the message before it are rolled back with it (one implicit transaction); the connection
  serves the next statement.
* Any other refusal (a division by zero, 22012; a lock timeout, 55P03) is ``OperationalError``,
  with PostgreSQL's message and SQLSTATE.
* A message longer than the socket's buffer is sent whole (the wait for the socket to take more).
* A connection the server ended is ``psycopg.OperationalError``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest
from eventsourcing import persistence

from trapoula.service import loopsave
from trapoula.service.loopsave import simple_query

pytestmark = pytest.mark.postgres


def _conninfo(url: str) -> str:
    """The libpq connection string of a SQLAlchemy ``postgresql+psycopg://`` URL."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _run(postgres_store: Any, body: Any) -> Any:
    async def main() -> Any:
        connection = await psycopg.AsyncConnection.connect(_conninfo(postgres_store.url), autocommit=True)
        try:
            await connection.execute(f'SET search_path TO "{postgres_store.schema}"')
            await connection.execute("CREATE TABLE t (k int PRIMARY KEY, v text)")
            return await body(connection)
        finally:
            await connection.close()

    return asyncio.run(main())


async def _rows(connection: Any) -> list[tuple[int, str]]:
    cursor = await connection.execute("SELECT k, v FROM t ORDER BY k")
    return list(await cursor.fetchall())


def test_every_result_of_a_message_is_read_and_its_rows_stored(postgres_store: Any) -> None:
    async def body(connection: Any) -> Any:
        refused = await simple_query(
            connection.pgconn, b"INSERT INTO t VALUES (1, 'a');INSERT INTO t VALUES (2, 'b');SELECT 7"
        )
        return refused, connection.pgconn.transaction_status, await _rows(connection)

    refused, status, rows = _run(postgres_store, body)
    assert refused is None
    assert status == psycopg.pq.TransactionStatus.IDLE
    assert rows == [(1, "a"), (2, "b")]


def test_a_duplicate_key_is_an_integrity_error_and_rolls_the_whole_message_back(postgres_store: Any) -> None:
    async def body(connection: Any) -> Any:
        assert await simple_query(connection.pgconn, b"INSERT INTO t VALUES (1, 'a')") is None
        refused = await simple_query(connection.pgconn, b"INSERT INTO t VALUES (2, 'b');INSERT INTO t VALUES (1, 'c')")
        after = await simple_query(connection.pgconn, b"INSERT INTO t VALUES (3, 'd')")
        return refused, after, await _rows(connection)

    refused, after, rows = _run(postgres_store, body)
    assert isinstance(refused, persistence.IntegrityError)
    assert "23505" in str(refused) and "duplicate key" in str(refused)
    assert after is None
    assert rows == [(1, "a"), (3, "d")]  # (2, 'b') went with the failed message


def test_other_refusals_are_operational_errors_with_their_sqlstate(postgres_store: Any) -> None:
    async def body(connection: Any) -> Any:
        zero = await simple_query(connection.pgconn, b"SELECT 1/0")
        async with await psycopg.AsyncConnection.connect(_conninfo(postgres_store.url)) as holder:
            await holder.execute(f'LOCK TABLE "{postgres_store.schema}".t IN EXCLUSIVE MODE')
            locked = await simple_query(connection.pgconn, b"SET lock_timeout = '50ms';LOCK TABLE t IN EXCLUSIVE MODE")
        return zero, locked

    zero, locked = _run(postgres_store, body)
    assert type(zero) is persistence.OperationalError and "22012" in str(zero) and "division by zero" in str(zero)
    assert type(locked) is persistence.OperationalError and "55P03" in str(locked)


def test_a_message_longer_than_the_socket_buffer_is_sent_whole(
    postgres_store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    value = "x" * 40_000_000  # far more than a socket takes at once: libpq's flush leaves some to send
    waits: list[bool] = []
    socket_ready = loopsave._socket_ready

    async def counted(loop: Any, fd: int, *, write: bool = False) -> None:
        waits.append(write)
        await socket_ready(loop, fd, write=write)

    monkeypatch.setattr(loopsave, "_socket_ready", counted)

    async def body(connection: Any) -> Any:
        refused = await simple_query(connection.pgconn, f"INSERT INTO t VALUES (1, '{value}')".encode())
        cursor = await connection.execute("SELECT length(v) FROM t")
        return refused, await cursor.fetchone()

    assert _run(postgres_store, body) == (None, (40_000_000,))
    assert True in waits  # it waited for the socket to take the rest


def test_a_connection_the_server_ended_raises_the_driver_error(postgres_store: Any) -> None:
    async def body(connection: Any) -> Any:
        async with await psycopg.AsyncConnection.connect(_conninfo(postgres_store.url), autocommit=True) as killer:
            await killer.execute("SELECT pg_terminate_backend(%s)", [connection.pgconn.backend_pid])
        with pytest.raises(psycopg.OperationalError):
            await simple_query(connection.pgconn, b"SELECT 1")
        return True

    async def main() -> Any:
        connection = await psycopg.AsyncConnection.connect(_conninfo(postgres_store.url), autocommit=True)
        try:
            return await body(connection)
        finally:
            await connection.close()

    assert asyncio.run(main())
