"""Background automatic play: the bots' moves and automatic deals that did not fit in a command.

Automatic play never makes one call unbounded and never wedges a table: what does not fit in a
command's batch (:data:`~trapoula.service.autoplay.CHUNK_EVENTS` events) is played by a worker
thread after the caller has its answer, one batch at a time, each under the table's lock like any
command, until a person must act or the match ends.  Watchers see every batch as it is saved.
Workers check a stop flag between batches (:meth:`Automation.stop`); a table left with automatic
play due (a stop, a restart, a store error) resumes the next time anyone reads or acts at it
(:meth:`Automation.resume_if_due`).
"""

from __future__ import annotations

import logging
import queue
import threading
import time

from eventsourcing.persistence import IntegrityError

from trapoula.service.autoplay import Dealer, automatic_due
from trapoula.service.commands import MAX_ATTEMPTS, Commands
from trapoula.service.drafts import Draft
from trapoula.service.errors import Conflict
from trapoula.service.recording import Table
from trapoula.service.tablestate import TableState

log = logging.getLogger(__name__)

AUTO_WORKERS = 2
"""Threads playing the bots' moves and automatic deals in the background (all tables share them)."""


class Automation:
    """The worker threads of automatic play (see the module docstring).

    Args:
        commands: saves the batches (and holds the tables' locks).
        dealer: drafts them.
        workers: threads at most (started as needed).
    """

    def __init__(self, commands: Commands, dealer: Dealer, workers: int = AUTO_WORKERS) -> None:
        self.commands = commands
        self.dealer = dealer
        self._workers = max(1, workers)
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._pending: set[str] = set()
        self._threads: list[threading.Thread] = []
        self._cond = threading.Condition()
        self._stop = threading.Event()

    def after_save(self, table: Table) -> None:
        """Schedule a table whose save left automatic play due."""
        if automatic_due(table.state):
            self.schedule(str(table.id))

    def schedule(self, table_id: str) -> None:
        """Have a worker play a table's automatic moves (once; no-op when stopping)."""
        with self._cond:
            if self._stop.is_set() or table_id in self._pending:
                return
            self._pending.add(table_id)
            if len(self._threads) < self._workers:
                thread = threading.Thread(target=self._work, name=f"trapoula-auto-{len(self._threads)}", daemon=True)
                self._threads.append(thread)
                thread.start()
        self._queue.put(table_id)

    def resume_if_due(self, state: TableState) -> None:
        """Schedule the table of ``state`` if automatic play is due there and not yet scheduled."""
        if state.table_id not in self._pending and automatic_due(state):
            self.schedule(state.table_id)

    def stop(self, timeout: float = 5.0) -> None:
        """No new batch starts; waits up to ``timeout`` seconds for the batches being saved."""
        with self._cond:
            self._stop.set()
            threads = list(self._threads)
            self._pending.clear()
            self._cond.notify_all()
        for _ in threads:
            self._queue.put(None)
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until no automatic play is pending; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending, timeout)

    def _work(self) -> None:
        while True:
            table_id = self._queue.get()
            if table_id is None or self._stop.is_set():
                return
            self._batch(table_id)

    def _batch(self, table_id: str) -> None:
        """Save one batch of a table's automatic play, then queue the table again if more is due.

        Runs under the table's lock; whether the table stays pending is decided under that lock
        too, so a command that makes automatic play due again is never lost.
        """
        more = False
        try:
            with self.commands.lock(table_id):
                try:
                    if not self._stop.is_set():
                        more = self._save(table_id)
                except Exception:
                    log.exception("table %s: automatic play failed; it resumes at the next call", table_id)
                finally:
                    with self._cond:
                        if not (more and not self._stop.is_set()):
                            self._pending.discard(table_id)
                            self._cond.notify_all()
                            more = False
        except Exception:  # the lock: the table vanished (never happens: tables are not deleted)
            log.exception("table %s: automatic play failed", table_id)
            with self._cond:
                self._pending.discard(table_id)
                self._cond.notify_all()
        if more:
            self._queue.put(table_id)

    def _save(self, table_id: str) -> bool:
        """Save one batch of automatic play (the table's lock is held); True when more is due."""
        store = self.commands.store
        for _attempt in range(MAX_ATTEMPTS):
            table = store.current(table_id)  # a copy behind another replica's save collides, then reloads
            state = table.state
            drafts: list[Draft] = []
            self.dealer.autoplay(state, state.game_state, drafts)
            if not drafts:
                return False
            try:
                table = self.commands.save(table, drafts, None)
            except IntegrityError:
                log.info("table %s: automatic save at v%d lost a race; retrying", table_id, state.version + 1)
                store.load(table_id)
                continue
            return automatic_due(table.state)
        raise Conflict(f"table {table_id}: automatic play kept losing the race")
