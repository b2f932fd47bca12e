"""The projection that keeps the read models (:mod:`trapoula.service.readmodels`) from the event log.

It reads the application's notification log (every stored event of every table, numbered by the
store: ``recorder.select_notifications``) after its position, decodes each notification with the
application's mapper into a :class:`~trapoula.service.projectionfold.Fact`, folds a batch of facts
into the read-model rows (:mod:`trapoula.service.projectionfold`) and writes the rows and the new
position **in one transaction**.  So:

* exactly once: a batch is applied with its position or not at all; a notification at or before
  the position is skipped (idempotent by position);
* resumable: after a crash or a restart the projection goes on from the stored position;
* replicas: on PostgreSQL the position row is locked (``SELECT ... FOR UPDATE SKIP LOCKED``) for
  the whole transaction, so two replicas running the projection never apply one notification
  twice (the one that finds the row locked leaves the batch to the other and looks again
  later); on SQLite the transaction holds the database's write lock from its start;
* rebuildable: :meth:`Projection.rebuild` empties the tables, resets the position and folds the
  whole log again; the rows it makes equal those kept live (every value comes from the log:
  times are the events' own).

Positions may have gaps (a save that lost a race used one up); the projection only ever
compares them.  On PostgreSQL the store takes a table lock for each save, so notifications
become visible in the order of their numbers and none is passed over.

:class:`Projection` runs in a background thread of the server: woken by the application's
listeners after each save (and, on PostgreSQL, after other replicas' saves that
``Tables.follow_store`` announces), and every ``poll_seconds`` in case a wake-up was missed; it
pauses after each catch-up (:meth:`Projection.pause_after`: longer after a longer one) so that
a busy server's saves are applied in batches, and keeps the lobby rows it wrote for its next
batch while no other replica has applied one since.  Read models are eventually consistent: a
finished match is listed shortly after its ``match_ended`` event is saved (docs/read-models.md).
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from trapoula.service.application import Tables
from trapoula.service.projectionfold import Fact, Fold, fact_of
from trapoula.service.projectionrows import LOBBY, MATCHES, PLAYERS, POSITION, STANDINGS, FoldedTable
from trapoula.service.readmodels import ReadModels
from trapoula.service.readtables import PROJECTION_NAME
from trapoula.service.status import store_down

log = logging.getLogger(__name__)

KNOWN_TABLES = 4096
"""Most lobby rows (with their players) the projection keeps between its batches (the tables
played most recently): a batch reads from the database only the rows of tables it has not
kept."""
BATCH_SIZE = 500
"""Most notifications applied in one transaction."""
POLL_SECONDS = 5.0
"""The background projection looks at the log at least this often, even without a wake-up."""
PAUSE_SECONDS = 0.1
"""Shortest pause after each catch-up, so that the saves of a busy server are applied in batches."""
PAUSE_FACTOR = 4.0
"""After a catch-up that took t seconds the background thread pauses at least this many times t
(so it spends at most a fifth of its time applying, and a busy server's batches grow instead of
their number: each transaction costs a few queries whatever its size)."""
PAUSE_MAX_SECONDS = 1.0
"""Longest pause after a catch-up (the read models lag the log by about this much at most, on a
server keeping up)."""
RETRY_SECONDS = 0.5
"""First wait after a failed catch-up (doubles each time)."""
RETRY_MAX_SECONDS = 30.0
"""Longest wait between two tries after failures."""


class Projection:
    """Keeps ``read_models`` up to date with the log of ``tables`` (see the module docstring).

    Args:
        tables: the application whose notification log is read (``recorder``, ``mapper``,
            ``add_listener``).
        read_models: where the rows and the position are written (migrated already:
            :meth:`ReadModels.migrate`).
        batch_size: most notifications per transaction.
        poll_seconds: the background thread looks at the log at least this often.
        pause_seconds: the background thread's shortest pause after each catch-up.
    """

    def __init__(
        self,
        tables: Tables,
        read_models: ReadModels,
        *,
        batch_size: int = BATCH_SIZE,
        poll_seconds: float = POLL_SECONDS,
        pause_seconds: float = PAUSE_SECONDS,
    ) -> None:
        self.tables = tables
        self.read_models = read_models
        self.batch_size = max(1, batch_size)
        self.poll_seconds = poll_seconds
        self.pause_seconds = pause_seconds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._listening = False
        self.observed: tuple[int, int] = (0, 0)
        """``(position, head)`` as the background thread last saw them (for the metrics; no I/O)."""
        self.failures = 0
        """Catch-ups of the background thread that failed (each is logged)."""
        self.known_tables = KNOWN_TABLES
        """Most tables whose rows are kept between batches (:data:`KNOWN_TABLES`)."""
        self._known: dict[str, FoldedTable] = {}
        """The rows as this projection last wrote them, oldest use first; valid only while the
        stored position is :attr:`_known_at` (nobody else has applied a batch since)."""
        self._known_at: int | None = None
        self._steps = threading.Lock()
        """One batch at a time in this process (other processes: the position row's lock)."""

    # ----------------------------------------------------------------------- transactions

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        serial = self.read_models.serial
        if serial is not None:
            serial.acquire()
        try:
            with self.read_models.write_engine.begin() as conn:
                yield conn
        finally:
            if serial is not None:
                serial.release()

    def _lock_position(self, conn: Connection, *, wait: bool = False) -> int | None:
        """The stored position, its row locked until the transaction ends (PostgreSQL); None when
        another replica holds the lock (and ``wait`` is False).  A missing row is made at 0."""
        stmt = select(POSITION.c.position).where(POSITION.c.name == PROJECTION_NAME)
        postgres = conn.dialect.name == "postgresql"
        if postgres:
            stmt = stmt.with_for_update(skip_locked=not wait)
        found = conn.execute(stmt).first()
        if found is not None:
            return int(found[0])
        if postgres and not wait:
            count = select(func.count()).select_from(POSITION).where(POSITION.c.name == PROJECTION_NAME)
            if conn.execute(count).scalar():
                return None  # locked by another replica: it is applying this batch
        conn.execute(insert(POSITION).values(name=PROJECTION_NAME, position=0))
        return 0

    def _step(self, fetch: Callable[[int], Sequence[Fact]]) -> int:
        """One transaction: lock the position, fold the facts ``fetch(position)`` gives after it,
        write the rows and the new position.  Returns how many facts were applied (-1: another
        replica holds the position).

        The rows this projection wrote are kept for the next batch while they are what is stored:
        when the position it finds is the one it last wrote.  A batch that fails leaves none."""
        with self._steps:
            with self._transaction() as conn:
                position = self._lock_position(conn)
                if position is None:
                    return -1
                known = self._known if position == self._known_at else {}
                self._known_at = None  # until this transaction has committed
                facts = [f for f in fetch(position) if f.position > position]
                if not facts:
                    self._known_at = position if known else None
                    return 0
                for before, after in itertools.pairwise(facts):
                    if after.position <= before.position:
                        raise ValueError(f"facts out of order: position {after.position} after {before.position}")
                fold = Fold(conn, known)
                fold.run(facts)
                fold.flush()
                position = facts[-1].position
                conn.execute(update(POSITION).where(POSITION.c.name == PROJECTION_NAME).values(position=position))
            self._keep(known, fold.tables, position)
            return len(facts)

    def _keep(self, known: dict[str, FoldedTable], written: dict[str, FoldedTable], position: int) -> None:
        """Keep the rows of a committed batch (``written``, now stored at ``position``) with those
        kept before (``known``), the most recently used :attr:`known_tables` of them."""
        for table_id, table in written.items():
            table.stored()
            known.pop(table_id, None)
            known[table_id] = table
        while len(known) > self.known_tables:
            del known[next(iter(known))]
        self._known, self._known_at = known, position

    def _fetch(self, position: int) -> list[Fact]:
        recorder = self.tables.recorder
        notifications = recorder.select_notifications(start=position + 1, limit=self.batch_size)
        return [fact_of(n, self.tables.mapper) for n in notifications]

    # ----------------------------------------------------------------------- public API

    @property
    def position(self) -> int:
        """The notification id of the last stored event applied (0: none)."""
        return self.read_models.position()

    def head(self) -> int:
        """The notification id of the newest stored event of the log (0: none)."""
        return int(self.tables.recorder.max_notification_id() or 0)

    def apply(self, facts: Sequence[Fact]) -> int:
        """Fold ``facts`` (in log order, increasing positions) in one transaction with the new
        position; those at or before the stored position are skipped.  Returns how many were
        applied (-1: another replica holds the position; nothing was done).

        The entry point of :meth:`catch_up`, and of tools and tests that feed facts directly.

        Raises:
            ValueError: the facts are not in increasing position order (nothing is applied).
            Exception: what the database raises (nothing is applied).
        """
        given = list(facts)
        return self._step(lambda _position: given)

    def catch_up(self, max_batches: int | None = None) -> int:
        """Apply the log after the position, :attr:`batch_size` notifications per transaction,
        until its end (or ``max_batches`` transactions, or :meth:`stop`); returns how many
        notifications were applied.  Stops early, without error, when another replica holds the
        position (it is catching up).

        Raises:
            Exception: what the store, the mapper or the database raises; the batches before
                the failing one stay applied, the failing one is not.
        """
        total = 0
        batches = 0
        while (max_batches is None or batches < max_batches) and not self._stop.is_set():
            applied = self._step(self._fetch)
            if applied <= 0:
                break
            total += applied
            batches += 1
            if applied < self.batch_size:
                break  # the log's end, as it was when this batch was read
        return total

    def rebuild(self) -> int:
        """Empty the read models, set the position to 0 (one transaction, waiting for a replica's
        batch in progress), then apply the whole log again (:meth:`catch_up`); returns how many
        notifications were applied.  Readers see the tables fill up again meanwhile.

        Raises:
            Exception: as :meth:`catch_up`.
        """
        with self._steps:
            self._known, self._known_at = {}, None
            with self._transaction() as conn:
                self._lock_position(conn, wait=True)
                for table in (STANDINGS, MATCHES, PLAYERS, LOBBY):
                    conn.execute(delete(table))
                conn.execute(update(POSITION).where(POSITION.c.name == PROJECTION_NAME).values(position=0))
        return self.catch_up()

    def wait_caught_up(self, timeout: float = 10.0, position: int | None = None) -> bool:
        """Wait until the stored position reaches ``position`` (default: the log's head now); False
        on timeout.  For tests and tools; the background thread does the work."""
        target = self.head() if position is None else position
        deadline = time.monotonic() + timeout
        while self.position < target:
            if time.monotonic() >= deadline:
                return False
            self._wake.set()
            time.sleep(0.02)
        return True

    # ----------------------------------------------------------------------- background thread

    def start(self) -> None:
        """Catch up and keep up in a background thread (woken by every save of ``tables``)."""
        if self._thread is not None:
            return
        self._stop.clear()
        self.tables.add_listener(self._woken)
        self._listening = True
        self._wake.set()
        self._thread = threading.Thread(target=self._run, name="trapoula-projection", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the background thread (the batch being applied is finished or rolled back; waits up
        to ``timeout`` seconds)."""
        if self._listening:
            self.tables.remove_listener(self._woken)
            self._listening = False
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _woken(self, _table_id: str, _version: int) -> None:
        self._wake.set()

    def _run(self) -> None:
        delay = RETRY_SECONDS
        failing = False
        while not self._stop.is_set():
            self._wake.wait(self.poll_seconds)
            if self._stop.is_set():
                return
            self._wake.clear()
            started = time.monotonic()
            try:
                head, position = self.head(), self.position  # two reads; an idle poll takes no write lock
                if head > position:
                    self.catch_up()
                    position = self.position
                self.observed = (position, max(head, position))
            except Exception as exc:
                self.failures += 1
                lines = str(exc).strip().splitlines()
                log.warning(
                    "projection: cannot apply the event log after position %s (%s); trying again in %.1fs",
                    self._safe_position(),
                    lines[0][:300] if lines else type(exc).__name__,
                    delay,
                    exc_info=not failing and not store_down(exc),  # a bug's traceback, once
                )
                failing = True
                self._stop.wait(delay)
                delay = min(delay * 2, RETRY_MAX_SECONDS)
                self._wake.set()
                continue
            if failing:
                log.info("projection: applying the event log again")
            failing = False
            delay = RETRY_SECONDS
            self._stop.wait(self.pause_after(time.monotonic() - started))

    def pause_after(self, took: float) -> float:
        """Seconds the background thread pauses after a catch-up that took ``took`` seconds:
        :data:`PAUSE_FACTOR` times as long, at least ``pause_seconds``, at most
        :data:`PAUSE_MAX_SECONDS` (or ``pause_seconds`` if that is longer)."""
        return max(self.pause_seconds, min(PAUSE_MAX_SECONDS, PAUSE_FACTOR * took))

    def _safe_position(self) -> str:
        try:
            return str(self.position)
        except Exception:
            return "?"
