"""Command execution: load → decide → save → publish, once per command id, safe against races.

A command is known by ``(caller, command_id)``: a repeated id from the same caller returns the
first result and stores nothing (whatever the repeated payload); the same id from another caller
is another command.  A refused command stores nothing and does not use up its id.

Within one process the commands of one table are serialised by a lock; between replicas sharing
a PostgreSQL database the store's optimistic check keeps them apart: a save that collides with
another at the same version (``IntegrityError``) is decided again on the new state, up to
:data:`MAX_ATTEMPTS` times, then refused with :class:`~trapoula.service.errors.Conflict`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from eventsourcing.persistence import IntegrityError

from trapoula.domain.errors import CommandRejected
from trapoula.service.drafts import Draft, chain
from trapoula.service.errors import Conflict, ErrorContext, PermissionDenied, StaleView, VersionAhead, annotate
from trapoula.service.jsontext import dumps
from trapoula.service.principals import Principal
from trapoula.service.recording import Table
from trapoula.service.store import TableStore
from trapoula.service.views import ActResult, act_result, table_view

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
"""Saves tried for one command before it is refused with :class:`Conflict`."""

Decide = Callable[[Table], list[Draft]]
"""A command's decision: the drafts to store on the table as it is (raises to refuse)."""

LegalAt = Callable[[Table, int], bool]
"""Whether a command the rules refuse now was legal when the table stood at a given version."""


class Commands:
    """Runs commands against the tables of ``store`` (see the module docstring).

    ``after_save(table)`` is called after every save, under the table's lock, with the table as
    saved (automatic play uses it to schedule what is due).
    """

    def __init__(self, store: TableStore, after_save: Callable[[Table], None] = lambda table: None) -> None:
        self.store = store
        self.after_save = after_save
        self.locks: dict[str, threading.Lock] = {}
        """One lock per table this process has touched (made only for tables that exist)."""
        self._locks_lock = threading.Lock()

    def lock(self, table_id: str) -> threading.Lock:
        """The lock of an existing table.

        Raises:
            InvalidInput, TableNotFound: as :meth:`TableStore.load`.
        """
        with self._locks_lock:
            lock = self.locks.get(table_id)
        if lock is None:
            self.store.load(table_id)  # a bad or unknown id raises here and leaves no lock behind
            with self._locks_lock:
                lock = self.locks.setdefault(table_id, threading.Lock())
        return lock

    def save(self, table: Table, drafts: Sequence[Draft], command_id: str | None) -> Table:
        """Chain ``drafts`` after ``table``'s version, save them and announce them; returns the
        table with them (the copy in memory, else loaded).

        Raises:
            IntegrityError: another save took one of these versions first (nothing saved).
            Exception: what the store raises.
        """
        table_id = str(table.id)
        saved = self.store.save_events(table_id, chain(table, drafts, command_id))
        return saved if saved is not None else self.store.load(table_id)

    def execute(
        self,
        table_id: str,
        command_id: str | None,
        principal: Principal,
        decide: Decide,
        view_version: int | None = None,
        legal_at: LegalAt | None = None,
    ) -> ActResult:
        """Run one command: idempotent by ``(principal.caller, command_id)``, decided on the cached
        copy first (a refusal there is checked again on the store's latest state), saved with the
        optimistic check and retried on a lost race.

        ``view_version`` is the caller's position (``TableState.position``) in the view the
        command was chosen from, or None: when the rules refuse the command after the table moved
        past it, and ``legal_at`` says it was legal at that version (None: assume so), the refusal
        is a :class:`StaleView` instead.

        Raises:
            PermissionDenied: a former seat's or a queued newcomer's new command (``seat_left``,
                ``join_queued``).
            VersionAhead: ``view_version`` beyond the caller's position now (``version_ahead``).
            StaleView: the rules refuse the command, which was legal at ``view_version``, and the
                table has moved past it (``stale_view``; the refusal in :attr:`StaleView.refusal`).
            Conflict: concurrent commands kept winning the race.
            Exception: what ``decide`` raises, annotated with the table, seat and position.
        """
        with self.lock(table_id):
            key = (principal.caller, command_id) if command_id is not None else None
            cached = True  # the first look may take the cached copy (peek); a refusal is then checked afresh
            attempt = 0
            table: Table | None = None
            while attempt < MAX_ATTEMPTS:
                table = self.store.peek(table_id) if cached else None
                if table is None:
                    cached = False
                    table = self.store.load(table_id)
                if key is not None and key in table.commands:
                    span = table.commands[key]
                    if principal.kind != "former" or span[0] <= principal.until:
                        return act_result(table, span, principal)
                if principal.kind in ("former", "waiting"):
                    if cached:
                        cached = False
                        continue
                    raise _not_seated(table, principal)
                state = table.state
                if view_version is not None and view_version > state.position(principal.viewer):
                    if cached:  # the cached copy may be behind the store
                        cached = False
                        continue
                    raise _ahead(table, principal, view_version)
                try:
                    drafts = decide(table)
                except Exception as exc:
                    if cached:  # refused on the cached copy: decide again on the store's latest state
                        cached = False
                        continue
                    position = state.position(principal.viewer)
                    context = ErrorContext(table_id, principal.seat, position)
                    if (
                        isinstance(exc, CommandRejected)
                        and view_version is not None
                        and position > view_version
                        and (legal_at is None or legal_at(table, state.version_at(principal.viewer, view_version)))
                    ):
                        raise StaleView(
                            f"table {table_id} has moved on from version {view_version} to {position} since the view "
                            f"this command was chosen from, and the rules now refuse it ({exc.message}): refresh the "
                            "view and choose again",
                            exc,
                            context=context,
                        ) from exc
                    annotate(exc, context)
                    raise
                if not drafts:
                    if cached:
                        cached = False
                        continue
                    return ActResult(state.position(principal.viewer), (), dumps(table_view(state, principal)))
                try:
                    table = self.save(table, drafts, command_id)
                except IntegrityError:
                    log.info("table %s: save at v%d lost a race; retrying", table_id, state.version + 1)
                    attempt += 1
                    cached = False
                    continue
                self.after_save(table)
                return act_result(table, (state.version + 1, state.version + len(drafts)), principal)
        assert table is not None
        raise Conflict(
            f"table {table_id}: concurrent commands kept winning the race; retry",
            context=ErrorContext(table_id, principal.seat, table.state.position(principal.viewer)),
        )


def _ahead(table: Table, principal: Principal, view_version: int) -> VersionAhead:
    """The refusal of a command that claims a view beyond the caller's position."""
    position = table.state.position(principal.viewer)
    return VersionAhead(
        f"view_version {view_version} is beyond the table's version {position} (as this caller counts it)",
        context=ErrorContext(table.state.table_id, principal.seat, position),
    )


def _not_seated(table: Table, principal: Principal) -> PermissionDenied:
    """The refusal of a new command from a former seat or a queued newcomer."""
    state = table.state
    table_id = state.table_id
    if principal.kind == "former":
        why = f"this token's seat at table {table_id} is no longer its own"
    elif state.over:
        why = f"table {table_id}: the match ended before this newcomer could be seated"
    else:
        why = f"table {table_id}: this newcomer is seated when the hand in progress ends"
    return PermissionDenied(
        why,
        reason="seat_left" if principal.kind == "former" else "join_queued",
        context=ErrorContext(table_id, principal.seat),
    )
