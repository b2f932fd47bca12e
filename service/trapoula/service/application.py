"""``Tables``: every table of the server, the service's one entry point (DESIGN, Layers: service).

``Tables`` speaks domain types only: plain dicts and ints in, plain results out, domain errors
and :mod:`trapoula.service.errors` raised; no gRPC.  It is a small facade over the modules that
each do one part (docs/architecture.md):

* :mod:`~trapoula.service.inputs`: checks of ids, names and commands, before any table is read;
* :mod:`~trapoula.service.principals`: seats, the owner, spectators and their tokens;
* :mod:`~trapoula.service.store`: the event store (the eventsourcing application), loads from
  its cache, saves applied in memory, announcements, snapshots;
* :mod:`~trapoula.service.follower`: other replicas' saves, announced (PostgreSQL LISTEN/NOTIFY);
* :mod:`~trapoula.service.commands`: load → decide → save → publish, idempotent and race-safe;
* :mod:`~trapoula.service.seats`: creating tables and taking seats (``Tables``' methods), the
  identity tokens checked (:mod:`~trapoula.service.identity`);
* :mod:`~trapoula.service.seating`, :mod:`~trapoula.service.autoplay`: the decisions of creating
  a table, taking a seat, dealing and the bots' moves;
* :mod:`~trapoula.service.automation`: the background workers of automatic play;
* :mod:`~trapoula.service.clocks`: the turn clocks, the move made for a seat whose time ran out;
* :mod:`~trapoula.service.views`, :mod:`~trapoula.service.queries`: what callers read.

Commands run as: load the table, check the command id (a repeated id from the same caller
returns the first result and appends nothing), decide, then let the server's bots move and deal
the next hand while it is their turn, up to :data:`CHUNK_EVENTS` events in all, and save that in
one batch; the rest of the automatic play follows in the background.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from trapoula.domain import signing
from trapoula.domain.errors import InvalidInput
from trapoula.domain.listings import GameInfo, TableSummary
from trapoula.domain.seeding import check_seed
from trapoula.service import moves
from trapoula.service.automation import AUTO_WORKERS, Automation
from trapoula.service.autoplay import CHUNK_EVENTS, Dealer
from trapoula.service.clocks import ClockKeeper
from trapoula.service.commands import Commands
from trapoula.service.errors import ErrorContext, PermissionDenied
from trapoula.service.follower import StoreFollower
from trapoula.service.identity import IdentityVerifier
from trapoula.service.inputs import (
    check_command,
    check_command_id,
    check_deal,
    parse_table_id,
)
from trapoula.service.principals import (
    OWNER,
    SPECTATOR,
    Principal,
    seat_principal,
    token_hash,
)
from trapoula.service.queries import TableIndex
from trapoula.service.reads import TableReads
from trapoula.service.recording import Table
from trapoula.service.seating import owner_only
from trapoula.service.seats import TableSeats
from trapoula.service.snapshots import SNAPSHOT_EVERY, ColdLoad
from trapoula.service.store import TableStore, store_url
from trapoula.service.views import (
    ActResult,
    SeenEvent,
    WatchBatch,
    WatchItem,
    WatchRun,
    table_view,
)

__all__ = [
    "CHUNK_EVENTS",
    "OWNER",
    "SPECTATOR",
    "ActResult",
    "GameInfo",
    "Principal",
    "SeenEvent",
    "TableSummary",
    "Tables",
    "WatchBatch",
    "WatchItem",
    "WatchRun",
    "parse_table_id",
    "seat_principal",
    "store_url",
    "table_view",
    "token_hash",
]


class Tables(TableSeats, TableReads):
    """Every table of the server (see the module docstring).

    Args:
        database_url: a SQLAlchemy URL (``sqlite:///file.sqlite3``, ``sqlite:///:memory:``,
            ``postgresql+psycopg://user@host/db``).
        secret: the key hand seeds derive from (random if None).
        schema: a PostgreSQL schema for the event table (None: the default).
        cache_size: tables kept in memory (each fast-forwarded from the store when read).
        chunk_events: most events saved at once (see the module docstring).
        auto_workers: background threads for automatic play.
        snapshot_every: take a table's snapshot each time its version passes a multiple of this
            (:data:`~trapoula.service.snapshots.SNAPSHOT_EVERY`; docs/storage.md); 0 turns
            snapshots off: they are then neither taken nor read, and every cold load replays the log.
        recent_states: the latest folded states each table in memory keeps (``--recent-states``;
            None: as it is, :data:`~trapoula.service.recording.RECENT_STATES` by default); it applies
            to every table of the process.

    Raises:
        Exception: whatever the store raises when it cannot be opened (a bad URL, an unwritable
            SQLite file, an unreachable database).
    """

    def __init__(
        self,
        database_url: str = "sqlite:///trapoula.sqlite3",
        secret: bytes | None = None,
        *,
        schema: str | None = None,
        cache_size: int = 1000,
        chunk_events: int = CHUNK_EVENTS,
        auto_workers: int = AUTO_WORKERS,
        snapshot_every: int = SNAPSHOT_EVERY,
        recent_states: int | None = None,
        identity: IdentityVerifier | None = None,
    ) -> None:
        if recent_states is not None:  # a setting of the process: every table in memory keeps as many
            Table.recent_states = max(1, recent_states)
        self.store = TableStore(database_url, schema=schema, cache_size=cache_size, snapshot_every=snapshot_every)
        """The event store."""
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        self.dealer = Dealer(self._secret, chunk_events)
        self.signing_key = signing.key_from_secret(self._secret)
        """The key that signs this server's records (docs/record.md): derived from the secret, so every
        replica sharing it signs alike."""
        self.commands = Commands(self.store)
        self.automation = Automation(self.commands, self.dealer, auto_workers)
        self.commands.after_save = self.automation.after_save
        self.follower = StoreFollower(self.store)
        self.clocks = ClockKeeper(self.commands, self.dealer)
        """The turn clocks (docs/clock.md), kept once :meth:`keep_clocks` is called."""
        self.index = TableIndex(self.store)
        self.identity = identity
        """The app's identity key (docs/identity.md): with one, creating a table and taking a seat
        need an identity token; None: anonymous, names are whatever players type."""

    # ----------------------------------------------------------------------- the store's parts

    @property
    def recorder(self) -> Any:
        """The event store's application recorder (notification log)."""
        return self.store.recorder

    @property
    def mapper(self) -> Any:
        """The event store's mapper (stored events <-> domain events)."""
        return self.store.mapper

    @property
    def snapshots(self) -> Any:
        """The snapshot store (None when snapshots are off)."""
        return self.store.snapshots

    @property
    def engine(self) -> Any:
        """The event store's SQLAlchemy engine."""
        return self.store.engine

    @property
    def _locks(self) -> Mapping[str, Any]:
        return self.commands.locks

    def _load(self, table_id: str) -> Table:
        """The table, up to date from the store (see :meth:`TableStore.load`)."""
        return self.store.load(table_id)

    def add_listener(self, listener: Callable[[str, int], None]) -> None:
        """Call ``listener(table_id, version)`` after every save, here or announced (any thread)."""
        self.store.heads.add_listener(listener)

    def remove_listener(self, listener: Callable[[str, int], None]) -> None:
        """Stop calling ``listener``."""
        self.store.heads.remove_listener(listener)

    def add_load_listener(self, listener: Callable[[ColdLoad], None]) -> None:
        """Call ``listener(report)`` after every cold load of a table (see :meth:`TableStore.add_load_listener`)."""
        self.store.add_load_listener(listener)

    def remove_load_listener(self, listener: Callable[[ColdLoad], None]) -> None:
        """Stop calling ``listener``."""
        self.store.remove_load_listener(listener)

    def follow_store(self, loop: asyncio.AbstractEventLoop | None = None) -> bool:
        """Announce other replicas' saves (:class:`~trapoula.service.follower.StoreFollower`), read
        by ``loop`` (called on its thread) or by a thread of their own; False on a store that
        cannot be followed (SQLite)."""
        return self.follower.start(loop)

    def keep_clocks(self) -> None:
        """Keep the turn clocks of every table with a time control (:class:`~trapoula.service.clocks.ClockKeeper`):
        a seat whose time ran out is moved by its table's policy (docs/clock.md).  The server calls
        it when it starts serving; once is enough."""
        self.clocks.start()

    def save_snapshot(self, table_id: str) -> int:
        """Store a snapshot of a table at its current version (see :meth:`TableStore.save_snapshot`)."""
        return self.store.save_snapshot(table_id)

    def hand_seed(self, table_id: str, hand_no: int) -> str:
        """The seed of hand ``hand_no`` of a table: HMAC-SHA256(secret, "table_id/hand_no"), hex."""
        return self.dealer.hand_seed(table_id, hand_no)

    def stop_automatic(self, timeout: float = 5.0) -> None:
        """Stop background automatic play: no new batch starts; waits up to ``timeout`` seconds for
        the batches being saved.  Tables left with automatic play due resume when next read by a
        ``Tables`` that is not stopped (after a restart).  The turn clocks stop first: a deadline
        passed meanwhile is kept by another replica, or by this one after a restart."""
        self.clocks.stop(timeout)
        self.automation.stop(timeout)

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until no background automatic play is pending (for tests and tools); False on timeout."""
        return self.automation.settle(timeout)

    def close(self) -> None:
        """Stop the turn clocks and automatic play, stop following the store and close the database
        connections."""
        self.clocks.stop()
        self.automation.stop()
        self.follower.stop()
        self.store.close()

    # ----------------------------------------------------------------------- commands

    def start_match(
        self, table_id: str, principal: Principal, command_id: str, deal: Mapping[str, Any] | None = None
    ) -> ActResult:
        """Start the match: deal the first hand (from ``deal``, an explicit deal S5.3, or a seed),
        then let bots move; needs the owner or a seat, and the owner for an explicit deal, which only
        a table created with ``manual_deal`` accepts.

        The result holds the caller's view of the start and of the automatic play saved with it
        (at most :data:`CHUNK_EVENTS` events in all); the rest follows in the background.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: a spectator; a seat giving an explicit deal
                (``explicit_deal_owner_only``: explicit deals are for audits and tests).
            InvalidInput: a bad table id, command id or deal.
            CommandRejected: a seat is free (``seats_free``, S3.1); an explicit deal at a table not
                created with ``manual_deal`` (``explicit_deal_not_allowed``, S5.3 and the game's
                ``explicit_deal_rule``), which changes nothing.
            AlreadyStarted: the match has already started (under another command id).
        """
        parse_table_id(table_id)
        check_command_id(command_id)
        if principal.kind == "spectator":
            raise PermissionDenied(f"starting table {table_id} needs the owner's token", context=ErrorContext(table_id))
        check_deal(table_id, principal, deal)
        owner_only(table_id, principal, "starts")
        decide = moves.start_match(self.dealer, principal, deal)
        return self.commands.execute(table_id, command_id, principal, decide)

    def give_seed(self, table_id: str, principal: Principal, seed: str, hand: int = 0) -> tuple[int, int]:
        """Give a seat's own seed for the deal of the hand awaiting seeds (``hand``, or 0 for that
        hand whichever it is): the hand's deck is shuffled from the server's committed seed mixed
        with every seat's seed (:mod:`trapoula.domain.seeding`, docs/shuffle.md section 2a).
        Returns ``(hand, the caller's position after it)``; the same seed again stores nothing.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: not a seat's token (``seat_only``).
            InvalidInput: a bad table id, a seed that is not 64 lower-case hex digits (``bad_seed``)
                or a negative hand (``bad_hand``).
            CommandRejected: ``no_seeds`` (a table for explicit deals), ``seed_too_late`` (that hand
                is dealt, or no hand awaits a seed), ``seed_given`` (another seed given already).
        """
        parse_table_id(table_id)
        seed = check_seed(seed)
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0:
            raise InvalidInput(f"hand {hand!r} is not a hand number (0: the next hand)", reason="bad_hand")
        if principal.kind != "seat" or principal.seat is None:
            raise PermissionDenied(
                f"only a seat of table {table_id} gives a seed", reason="seat_only", context=ErrorContext(table_id)
            )
        given: list[int] = []
        result = self.commands.execute(table_id, None, principal, moves.give_seed(principal, seed, hand, given))
        return given[0], result.version

    def act(
        self,
        table_id: str,
        principal: Principal,
        command_id: str,
        command: Mapping[str, Any],
        view_version: int | None = None,
    ) -> ActResult:
        """Issue a command; returns the caller's view of what it caused.

        ``command`` is the game's command payload; its seat is the principal's (a ``seat`` field, as
        in the view's ``legal`` list, must name the caller's own seat):
        ``{"kind": "play", "card": "7H", "suit": "S", "announce": false}``, ``{"kind": "draw"}``,
        ``{"kind": "pass"}``, ``{"kind": "choose_suit", "suit": "H"}``; or the table command
        ``{"kind": "next_hand", "deal": None | {"hands": [...], "starter": ..., "stock": [...]}}``
        (owner or any seat; an explicit deal only from the owner, at a table created with
        ``manual_deal``).

        Command ids are the caller's: a ``command_id`` this caller (this seat, or the owner) has
        used returns the first result and saves nothing, whatever the command now sent; another
        caller's use of the same id is another command.  ``view_version`` is the version of the view
        the caller chose the command from (its position, as in ``ActResult.version``), or None.
        A refused command uses up nothing: its id
        may later carry a command that succeeds.  The result holds the caller's view of the
        command's events and of the automatic play saved with them (at most :data:`CHUNK_EVENTS`
        events in all); the rest follows in the background, to be seen through ``events_after``.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: a spectator, the owner issuing a seat command, a command naming
                another seat, or a seat giving an explicit deal (``explicit_deal_owner_only``).
            InvalidInput: a malformed command (bad table id, card code, unknown kind, bad command
                id, ``points`` outside the wire's 32 bits ...).
            CommandRejected: the rules refuse it (reason and rule number), the match has not
                started (``match_not_started``, S11), or ``next_hand`` gives an explicit deal at a
                table not created with ``manual_deal`` (``explicit_deal_not_allowed``, S5.3).
            StaleView: the rules refuse it, it was legal at ``view_version`` and the table has moved
                past it (``stale_view``: refresh the view and choose again).
            VersionAhead: ``view_version`` beyond the caller's position (``version_ahead``).
            Conflict: concurrent commands kept winning the race.
        """
        parse_table_id(table_id)
        check_command_id(command_id)
        raw = check_command(table_id, principal, command)
        decide = moves.seat_command(self.dealer, principal, raw)
        legal_at = moves.legal_at(principal, raw)
        return self.commands.execute(table_id, command_id, principal, decide, view_version, legal_at)
