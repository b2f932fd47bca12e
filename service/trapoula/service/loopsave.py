"""Saves sent from the event loop: group commit on psycopg's asynchronous connection (PostgreSQL).

A command run on a store thread waits for its save on that thread: the loop hands the call to
the thread, the thread waits for the database's answer (letting go of the GIL and taking it back)
and hands the result back to the loop, several wake-ups of several threads per command.  A
command run on the event loop (:mod:`trapoula.service.loopacts`) sends its save through
:class:`LoopSaver` instead: the statement goes out on an asynchronous connection whose socket is
in the loop's ``epoll``, and the loop serves other calls until the answer comes.

The statement is the store's own (:func:`~trapoula.service.recorder.insert_sql`: the table lock,
the inserts and the ``NOTIFY`` in one message, so the lock is never held across a round trip),
and the saves are grouped as the store's threads group theirs
(:mod:`trapoula.service.committer`): the saves that arrive while one batch is on its way go
together in the next, one transaction, one lock, one ``NOTIFY``; when a batch collides with
another replica's save (``IntegrityError``) each table's save is sent alone, so exactly the ones
that lost their race fail.  Each table keeps its optimistic check, its hash chain and its command
ids, exactly as on the store's threads.

While saves of several tables come close together, the sender waits :data:`GATHER_SECONDS`
for more before it sends a batch (PostgreSQL's own ``commit_delay`` and ``commit_siblings`` for
a server's commits): fewer, larger transactions, each one round trip, one lock and one
``NOTIFY`` that every replica reads.  Under the paced load at 400 tables a batch held 1.2 saves
without the wait and about two with it; at 300 moves a second the server spent about a tenth less
CPU, for 2 to 3 ms more of median ``Act`` latency (docs/benchmarks.md).  A table alone never
waits: its next save cannot come before this one is answered (its lock is held across its save).

A batch is sent by a task of its own: a caller cancelled while waiting (its client went away)
does not cut its save off; the save's ``finish`` step (applying the events to the table in
memory, announcing them) runs when the answer comes, whoever still waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing import persistence
from eventsourcing.persistence import StoredEvent

from trapoula.service.committer import next_batch
from trapoula.service.recorder import TableRecorder, insert_sql, library_error, notify_payload

log = logging.getLogger(__name__)

GATHER_SECONDS = 0.002
"""How long the sender waits for other tables' saves before sending a batch, while saves of
several tables come close together (:data:`SIBLINGS_SECONDS`); the latency it adds to a save."""
SIBLINGS_SECONDS = 0.01
"""Saves of two different tables less than this apart are close together: the batches sent in
the next :data:`SIBLINGS_SECONDS` wait :data:`GATHER_SECONDS` for company."""


class NotOnLoop(Exception):
    """This save cannot be sent from the loop (a value the statement cannot hold as a literal, or
    a session whose settings forbid literals): nothing was sent; the store's threads save it."""


class _Pending:
    """One table's save waiting in :class:`LoopSaver`."""

    __slots__ = ("events", "finish", "future")

    def __init__(self, events: Sequence[StoredEvent], finish: Callable[[BaseException | None], Any]) -> None:
        self.events = events
        self.finish = finish
        self.future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()


class LoopSaver:
    """Saves tables' stored events from the event loop, in batches (see the module docstring).

    Made and used on one event loop (:func:`~trapoula.service.server.create_server` makes one per
    server on PostgreSQL); ``connect_args`` are the psycopg connection's (the store engine's,
    with its timeouts and keepalives).  ``on_batch(tables, events)`` hears of every batch stored.
    """

    def __init__(
        self,
        recorder: TableRecorder,
        connect_args: dict[str, Any],
        on_batch: Callable[[int, int], None] | None = None,
        *,
        gather_seconds: float = GATHER_SECONDS,
        siblings_seconds: float = SIBLINGS_SECONDS,
    ) -> None:
        table = recorder.events_record_cls.__table__
        self._name = f'"{table.schema}"."{table.name}"' if table.schema else f'"{table.name}"'
        self._recorder = recorder
        self._connect_args = connect_args
        self._on_batch = on_batch
        self._connection: Any = None
        self._waiting: list[_Pending] = []
        self._sender: asyncio.Task[None] | None = None
        self._closed = False
        self._gather = gather_seconds
        self._siblings = siblings_seconds
        self._last_save: tuple[Any, float] = (None, -math.inf)
        """``(table id, loop time)`` of the latest save handed over."""
        self._company_until = -math.inf
        """Loop time until which the batches wait for company (saves of several tables came close)."""
        self.gathered = 0
        """Batches sent after waiting for company so far."""
        self.usable = True
        """False once the database's session settings turned out to forbid literals (every save
        then goes to the store's threads)."""

    @classmethod
    def for_engine(
        cls, recorder: Any, engine: Any, on_batch: Callable[[int, int], None] | None = None, **waits: float
    ) -> LoopSaver | None:
        """A saver for the store of ``recorder`` on ``engine`` (SQLAlchemy), or None where the
        loop cannot save: not PostgreSQL with psycopg, or not the store's own recorder.  ``waits``:
        ``gather_seconds``, ``siblings_seconds`` (:data:`GATHER_SECONDS`, :data:`SIBLINGS_SECONDS`)."""
        if engine is None or engine.dialect.name != "postgresql" or engine.dialect.driver != "psycopg":
            return None
        if not isinstance(recorder, TableRecorder):
            return None
        _args, kwargs = engine.dialect.create_connect_args(engine.url)
        kwargs = {k: v for k, v in kwargs.items() if k != "context"}  # SQLAlchemy's type adapters: not needed here
        return cls(recorder, kwargs, on_batch, **waits)

    def save(self, events: Sequence[StoredEvent], finish: Callable[[BaseException | None], Any]) -> asyncio.Future[Any]:
        """Send one table's stored ``events`` (chained to its head) with the next batch; returns a
        future of what ``finish(error)`` returns once the batch's answer came (``error`` None: the
        events are stored), or of the error ``finish`` raises.

        ``finish`` runs on the loop exactly once per save, even when no one waits for the future
        any more.  The save's own error reaches it: ``IntegrityError`` (another save took one of
        these versions; none stored), ``OperationalError``/``InterfaceError`` (the database cannot
        be reached or a timeout ended the statement; none stored, or the commit's answer lost),
        :class:`NotOnLoop` (nothing sent).

        Raises:
            RuntimeError: the saver is closed.
        """
        if self._closed:
            raise RuntimeError("the loop's saver is closed")
        loop = asyncio.get_running_loop()
        now = loop.time()
        table = events[0].originator_id if events else None
        last_table, last_at = self._last_save
        if table != last_table and now - last_at < self._siblings:
            self._company_until = now + self._siblings
        self._last_save = (table, now)
        pending = _Pending(events, finish)
        self._waiting.append(pending)
        if self._sender is None:
            self._sender = loop.create_task(self._send_all())
        return pending.future

    async def close(self) -> None:
        """Let the batches waiting be sent, then close the connection."""
        self._closed = True
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._sender)
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()

    async def _send_all(self) -> None:
        """The sender task: one batch after another until none waits."""
        try:
            loop = asyncio.get_running_loop()
            while self._waiting:
                if self._gather > 0 and loop.time() < self._company_until:
                    await asyncio.sleep(self._gather)  # other tables' saves are near: let them join
                    self.gathered += 1
                batch = next_batch(self._waiting)
                try:
                    errors = await self._store(batch)
                except BaseException:  # cancelled (the loop is closing) with the batch on its way
                    lost = persistence.OperationalError("the server stopped while this save was on its way")
                    for pending in batch:
                        _settle(pending, lost)
                    raise
                for pending, error in zip(batch, errors, strict=True):
                    _settle(pending, error)
        finally:
            self._sender = None
            if self._waiting:  # cancelled (the loop is closing): nothing more is sent
                for pending in self._waiting:
                    _settle(pending, persistence.OperationalError("the server stopped before this save was sent"))
                self._waiting.clear()

    async def _store(self, batch: list[_Pending]) -> list[BaseException | None]:
        """Store a batch in one statement; on a collision, each save alone.  The error of each save."""
        try:
            await self._insert([e for pending in batch for e in pending.events])
        except persistence.IntegrityError as exc:
            if len(batch) == 1:
                return [exc]
            errors: list[BaseException | None] = []
            for pending in batch:  # find the table(s) that lost their race; the others are stored alone
                try:
                    await self._insert(pending.events)
                except Exception as alone:
                    errors.append(alone)
                else:
                    errors.append(None)
            return errors
        except Exception as exc:
            return [exc] * len(batch)
        if self._on_batch is not None:
            self._on_batch(len(batch), sum(len(p.events) for p in batch))
        return [None] * len(batch)

    async def _insert(self, events: Sequence[StoredEvent]) -> None:
        """One statement: the events of one or several tables, all or none.

        Raises:
            NotOnLoop: a value or a session setting the statement cannot take as a literal.
            eventsourcing.persistence.IntegrityError: a version taken (nothing stored).
            eventsourcing.persistence.OperationalError, InterfaceError: the database.
        """
        import psycopg  # the PostgreSQL driver: only on this path

        recorder = self._recorder
        sql = insert_sql(self._name, events, recorder.channel_name, notify_payload(recorder.replica, events))
        if sql is None:
            raise NotOnLoop("a value the statement cannot hold as a literal")
        try:
            connection = await self._connect()
        except psycopg.Error as exc:
            raise library_error(exc) from exc
        try:
            refused = await simple_query(connection.pgconn, sql)
        except psycopg.Error as exc:  # the connection failed under the statement: a new one next time
            self._connection = None
            with contextlib.suppress(Exception):
                await connection.close()
            raise library_error(exc) from exc
        if refused is not None:
            raise refused

    async def _connect(self) -> Any:
        """The saves' connection (autocommit), opened on first use and again after it broke.

        Raises:
            NotOnLoop: the session is not UTF-8 with ``standard_conforming_strings`` on.
            psycopg.Error: the database cannot be reached.
        """
        import psycopg

        connection = self._connection
        if connection is not None and not connection.closed:
            return connection
        connection = await psycopg.AsyncConnection.connect(autocommit=True, **self._connect_args)
        info = connection.info
        if info.encoding != "utf-8" or info.parameter_status("standard_conforming_strings") != "on":
            await connection.close()
            self.usable = False
            raise NotOnLoop("the session's settings forbid literals")
        self._connection = connection
        return connection


async def simple_query(pgconn: Any, sql: bytes) -> Exception | None:
    """Send ``sql`` as one simple-query message on the libpq connection ``pgconn`` (psycopg's
    ``pq.PGconn``, nonblocking, idle, autocommit) and read all its results, waiting for the socket
    on the running loop: a save costs the driver's calls and no more (no cursor, no query object).

    Returns the eventsourcing library's error for the first statement PostgreSQL refused
    (``IntegrityError`` for an integrity violation, SQLSTATE class 23; ``OperationalError`` for any
    other, such as a lock or statement timeout), None when every statement succeeded: the
    connection is idle again either way.

    Raises:
        psycopg.OperationalError: the connection failed (closed by the server, cut); it is unusable.
    """
    from psycopg import pq

    loop = asyncio.get_running_loop()
    fd = pgconn.socket
    pgconn.send_query(sql)
    while pgconn.flush():  # the message is not all sent: wait to write (and read what the server sends)
        await _socket_ready(loop, fd, write=True)
        pgconn.consume_input()
    refused: Exception | None = None
    while True:
        while pgconn.is_busy():
            await _socket_ready(loop, fd)
            pgconn.consume_input()
        result = pgconn.get_result()
        if result is None:
            return refused
        if result.status == pq.ExecStatus.FATAL_ERROR and refused is None:
            sqlstate = (result.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode("ascii", "replace")
            message = (result.error_message or b"").decode("utf-8", "replace").strip()
            error = persistence.IntegrityError if sqlstate.startswith("23") else persistence.OperationalError
            refused = error(f"{message} (SQLSTATE {sqlstate})")


async def _socket_ready(loop: asyncio.AbstractEventLoop, fd: int, *, write: bool = False) -> None:
    """Wait until ``fd`` can be read (or, with ``write``, read or written)."""
    ready = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, wake)
    if write:
        loop.add_writer(fd, wake)
    try:
        await ready
    finally:
        loop.remove_reader(fd)
        if write:
            loop.remove_writer(fd)


def _settle(pending: _Pending, error: BaseException | None) -> None:
    """Run a save's ``finish`` and hand its outcome to the save's future."""
    future = pending.future
    try:
        result = pending.finish(error)
    except BaseException as exc:
        if not future.done():
            future.set_exception(exc)
        return
    if not future.done():
        future.set_result(result)
