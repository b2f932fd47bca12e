"""A seat's command run on the event loop, its save sent from there (PostgreSQL).

``Act`` is the hot call: a player's or a bot's move.  On the store's threads it costs a hand-off
to a thread, the thread's wait for the database and a hand-off back, each waking threads and
passing the GIL around.  When everything the command needs is in memory, :class:`LoopActs` runs
it on the event loop instead, as :meth:`~trapoula.service.commands.Commands.execute` runs its
first look, and sends the save through :class:`~trapoula.service.loopsave.LoopSaver` (group
commit on an asynchronous connection): the loop serves other calls while the save is on its way.

It takes the loop only where the outcome is the same as on a thread:

* the table is in memory at the newest version this process knows (``TableStore.peek``), the
  token is a present seat's, the owner's or a spectator's, and the table's lock is free (taken
  without waiting: the loop never blocks on it);
* a command id already used by this caller returns its first result, as on a thread;
* anything that would look at the store again on a thread (a refusal by the rules, which is
  checked again on the store's latest state; a view version ahead of the copy; a command that
  decides nothing; a save that lost its race to another replica; a save the loop cannot send)
  hands the whole command to the store's threads (:meth:`LoopActs.act` returns None), which run
  it from the start.  Nothing was stored by then, so it is decided once.

Every input error is raised exactly as on a thread (the same checks, in the same order), and the
save keeps each table's optimistic check, hash chain and command ids.  The table's lock is held
from the look until the caller's result is made, as on a thread; a caller that goes away while
its save is on its way leaves the save to finish: its events are applied in memory and
announced, and the lock let go, when the answer comes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from eventsourcing.persistence import IntegrityError

from trapoula.service import logs, moves
from trapoula.service.drafts import chain
from trapoula.service.handoff import run_in
from trapoula.service.inputs import check_command, check_command_id
from trapoula.service.loopsave import LoopSaver, NotOnLoop
from trapoula.service.principals import principal_of
from trapoula.service.recording import Table
from trapoula.service.snapshots import snapshots_due
from trapoula.service.views import ActResult, act_result

if TYPE_CHECKING:
    from trapoula.service.application import Tables

log = logging.getLogger(__name__)


class LoopActs:
    """Runs ``Act`` on the event loop where it can (see the module docstring).

    Args:
        tables: the service.
        saver: sends the saves (made on this loop).
        executor: the store's threads (a table's load when it left the cache, snapshots).
    """

    def __init__(self, tables: Tables, saver: LoopSaver, executor: Executor) -> None:
        self.tables = tables
        self.saver = saver
        self.executor = executor
        self.on_loop = 0
        """Commands run and saved on the loop so far."""
        self.handed = 0
        """Commands handed to the store's threads so far."""

    async def act(
        self,
        table_id: str,
        token: str | None,
        command_id: str,
        command: Mapping[str, Any],
        view_version: int | None = None,
    ) -> ActResult | None:
        """``Tables.act`` for the caller of ``token``, on the loop; None: run it on the store's
        threads (``Tables.authenticate`` then ``Tables.act``), from the start.

        Raises:
            InvalidInput, PermissionDenied, CommandRejected: as ``Tables.act``, for what can be
                told from the table in memory (the rest returns None).
            eventsourcing.persistence.OperationalError, InterfaceError: the database cannot be
                reached, or a timeout ended the save (it may or may not have landed).
        """
        if not self.saver.usable:
            return None
        tables = self.tables
        store = tables.store
        cached = store.peek(table_id)  # a bad table id raises here, as in Tables.authenticate
        if cached is None:
            return self._handed()
        principal = principal_of(cached.state, token)
        if principal is None or principal.kind not in ("seat", "owner", "spectator"):
            return self._handed()
        tables.automation.resume_if_due(cached.state)
        logs.note_seat(principal.seat)
        check_command_id(command_id)
        raw = check_command(table_id, principal, command)
        decide = moves.seat_command(tables.dealer, principal, raw)

        commands = tables.commands
        lock = commands.locks.get(table_id)
        if lock is None or not lock.acquire(blocking=False):
            return self._handed()
        future: asyncio.Future[Any] | None = None
        try:
            table = store.peek(table_id)
            if table is None:
                return self._handed()
            key = (principal.caller, command_id)
            span = table.commands.get(key)
            if span is not None:
                return act_result(table, span, principal)
            state = table.state
            if view_version is not None and view_version > state.position(principal.viewer):
                return self._handed()
            try:
                drafts = decide(table)
            except Exception:  # refused on the copy: a thread decides again on the store's latest state
                return self._handed()
            if not drafts:
                return self._handed()
            events = chain(table, drafts, command_id)
            stored = [store.mapper.to_stored_event(e) for e in events]
            future = self.saver.save(stored, lambda error: self._finish(table_id, events, error))
        finally:
            if future is None:
                lock.release()
        try:
            saved = await asyncio.shield(future)
        except asyncio.CancelledError:  # the caller went away: the save finishes on its own
            future.add_done_callback(lambda done: _release(lock, done))
            raise
        except (IntegrityError, NotOnLoop):  # lost a race, or not for the loop: a thread runs it anew
            lock.release()
            return self._handed()
        except BaseException:
            lock.release()
            raise
        try:
            if saved is None:  # left the cache meanwhile: read it back
                saved = await run_in(self.executor, store.load, table_id)
                commands.after_save(saved)
            self.on_loop += 1
            return act_result(saved, (state.version + 1, state.version + len(drafts)), principal)
        finally:
            lock.release()

    def _handed(self) -> ActResult | None:
        """None, counted: the command goes to the store's threads."""
        self.handed += 1
        return None

    def _finish(self, table_id: str, events: Sequence[Any], error: BaseException | None) -> Table | None:
        """After the save's answer (on the loop, whoever waits): apply the events in memory,
        announce them, schedule automatic play and snapshots due; the table in memory (None when
        it left the cache).

        Raises:
            BaseException: ``error``, the save's.
        """
        if error is not None:
            raise error
        tables = self.tables
        store = tables.store
        table = store.saved(table_id, events)
        if table is not None:
            tables.commands.after_save(table)
        if snapshots_due(events, store.snapshot_every):
            self.executor.submit(_snapshot, store, table_id)
        return table


def _release(lock: Any, done: asyncio.Future[Any]) -> None:
    """Let go of a table's lock once a save nobody waits for is done (its error retrieved)."""
    if not done.cancelled():
        done.exception()
    lock.release()


def _snapshot(store: Any, table_id: str) -> None:
    """A snapshot of a table whose version passed a multiple of ``snapshot_every`` (on a thread);
    a failure is logged: the events are saved all the same."""
    try:
        store.save_snapshot(table_id)
    except Exception:
        log.warning("table %s: snapshot not taken", table_id, exc_info=True)
