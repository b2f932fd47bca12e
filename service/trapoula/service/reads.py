"""The reads of the tables: tokens, views, watches, records and lists (the query side of ``Tables``).

Each read loads the table (from the in-process cache, fast-forwarded from the store, or only from
the cache where that cannot show an old state) and renders it with :mod:`trapoula.service.views`;
a read also resumes automatic play left due at the table (a stop, a restart, a store error).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from trapoula.domain.events import Payload
from trapoula.domain.listings import GameInfo, TableSummary
from trapoula.service.automation import Automation
from trapoula.service.entries import Entry
from trapoula.service.errors import ErrorContext, PermissionDenied
from trapoula.service.inputs import check_version
from trapoula.service.principals import Principal, principal_of
from trapoula.service.queries import TableIndex, list_games, record_of
from trapoula.service.store import TableStore
from trapoula.service.views import (
    WatchBatch,
    renders_missing,
    table_view,
    watch_batch,
)

MAX_WATCH_RENDERS_INLINE = 8
"""Most new renderings :meth:`TableReads.watch_in_memory` makes itself; more go to a thread."""


class TableReads:
    """The read methods of ``Tables`` (see the module docstring); ``Tables`` sets the parts."""

    store: TableStore
    automation: Automation
    index: TableIndex
    signing_key: Ed25519PrivateKey

    def authenticate(self, table_id: str, token: str | None) -> Principal:
        """The principal of ``token`` at a table: a seat, the owner, or (no token) a spectator.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: the token is not one of this table's.
        """
        cached = self.store.peek(table_id)
        if cached is not None:
            found = principal_of(cached.state, token)
            if found is not None and found.kind in ("seat", "owner", "spectator"):
                self.automation.resume_if_due(cached.state)
                return found
        state = self.store.load(table_id).state
        self.automation.resume_if_due(state)
        found = principal_of(state, token)
        if found is None:
            raise PermissionDenied(
                f"the token is not valid at table {table_id}", reason="bad_token", context=ErrorContext(table_id)
            )
        return found

    def open_here(self, table_id: str, idle_seconds: float | None = None) -> bool:
        """True while the table is in this process's memory and its match is not over there, and
        (``idle_seconds``) it changed less than that long ago; no store read (a copy another replica
        has moved on since may be a moment behind).  The limit of open tables per client counts a
        table while this holds (:mod:`trapoula.service.limits`)."""
        try:
            table = self.store.cached(table_id)
        except Exception:  # a bad id: nothing to count
            return False
        if table is None or table.state.over:
            return False
        if idle_seconds is None:
            return True
        changed = table.modified_on
        return changed is None or (datetime.now(UTC) - changed).total_seconds() < idle_seconds

    # ----------------------------------------------------------------------- reads

    def view(self, table_id: str, principal: Principal) -> tuple[int, Payload]:
        """``(version, view)`` of ``principal`` now (see :func:`~trapoula.service.views.table_view`).

        Raises:
            InvalidInput: a bad table id (``bad_table_id``).
            TableNotFound: no such table.
        """
        state = self.store.load(table_id).state
        self.automation.resume_if_due(state)
        return state.position(principal.viewer), table_view(state, principal)

    def events_after(
        self,
        table_id: str,
        principal: Principal,
        after: int,
        limit: int = 1000,
        *,
        fresh: bool = True,
        max_age: float | None = None,
        every_view: bool = True,
    ) -> WatchBatch:
        """The events after position ``after`` that ``principal`` may receive (at most ``limit``),
        redacted for it, each with ``principal``'s view after it; with ``every_view`` False, one
        :class:`~trapoula.service.views.WatchRun` of them with the view after the last only (a
        batched watch).

        ``fresh`` False: read the table as this process knows it, without asking the store when
        its cached copy is at the newest version announced (:meth:`TableStore.current`; for a
        watch woken by an announcement); True: bring it up to date from the store first, unless
        this process did so less than ``max_age`` seconds ago (:meth:`TableStore.load`; for a
        watch's poll, which the table's other watchers make at the same moment).

        Positions are the viewer's own count of the events it receives (``TableState.position``):
        the log's versions, except at a table of a game with withheld events (``Event.withheld``), where
        another seat's withheld events are neither sent nor counted.

        Raises:
            TableNotFound: no such table.
            InvalidInput: ``after`` is negative (``bad_version``), a bad table id.
            VersionAhead: ``after`` is beyond the viewer's position at the head (``version_ahead``):
                that position does not exist yet, and may never (it is not waited for).
        """
        check_version(after)
        table = self.store.load(table_id, max_age) if fresh else self.store.current(table_id)
        batch = watch_batch(table, principal, after, limit, every_view=every_view)
        self.automation.resume_if_due(table.state)
        return batch

    def watch_in_memory(
        self, table_id: str, principal: Principal, after: int, limit: int = 1000, *, every_view: bool = True
    ) -> WatchBatch | None:
        """:meth:`events_after` with ``fresh`` False when it needs neither the store nor much work
        (the table in memory at the newest version known, at most :data:`MAX_WATCH_RENDERS_INLINE`
        renderings to make), so an event loop may call it without a thread; else None.

        Raises:
            InvalidInput, VersionAhead: as :meth:`events_after`.
        """
        check_version(after)
        table = self.store.peek(table_id)
        if table is None:
            return None
        missing = renders_missing(table, principal, after, every_view=every_view)
        if not 0 <= missing <= MAX_WATCH_RENDERS_INLINE:
            return None
        return watch_batch(table, principal, after, limit, every_view=every_view)

    def record(self, table_id: str) -> tuple[str, int]:
        """The table's record: ``(jsonl, finished hands)``.

        JSON Lines: a header ``{"format": "trapoula-record", "version": 2, "table_id", "game",
        "hands", "events", "signer", "complete", "signature"}`` signed with :attr:`signing_key`
        (docs/record.md 2.5), then every stored event from version 1 up to the last event of the
        last finished hand (its ``hand_revealed`` event, or the ``between_hands`` events after it), full payloads with
        ``seq, name, payload, prev_hash, hash``.  Nothing of a hand in progress; no token, only
        hashes; never the server secret.

        Raises:
            TableNotFound: no such table.
        """
        return record_of(self.store.load(table_id), self.signing_key)

    def list_tables(self, game: str = "", page_size: int = 0, page_token: str = "") -> tuple[list[TableSummary], str]:
        """Tables, newest first, optionally of one game; returns ``(summaries, next_page_token)``
        (``""`` after the last page).  ``page_size`` 0 means 50; at most 500.

        A page token is the decimal number (ASCII digits only) this server gave.

        Raises:
            InvalidInput: a bad page token (``bad_page_token``), page size (``bad_page_size``) or
                game key (``unknown_game``, longer than 32 characters).
        """
        return self.index.page(self.store.load, game, page_size, page_token)

    @staticmethod
    def list_games() -> list[GameInfo]:
        """The games this server plays."""
        return list_games()

    def stored_events(self, table_id: str) -> tuple[Entry, ...]:
        """Every stored event of a table, full and unredacted, with its ``command_id`` and
        ``actor`` (for operators and tests; never send this to a player).

        Raises:
            TableNotFound: no such table.
        """
        table = self.store.load(table_id)
        return tuple(table.entries[: table.state.version])

    def table_ids(self) -> Iterable[str]:
        """Every table id, oldest first."""
        return [tid for _, tid, _ in self.index.refresh()]
