"""``Tables``: the eventsourcing application that holds every table (DESIGN, Layers: service).

One aggregate per table (:class:`~trapoula.service.recording.Table`); each fact is one stored
event, hash-chained.  ``Tables`` speaks domain types only: plain dicts and ints in, plain
results out, domain errors and :mod:`trapoula.service.errors` raised; no gRPC.

Commands run as: load the table, check the command id (a repeated id from the same caller
returns the first result and appends nothing), decide, then let the server's bots move and deal
the next hand while it is their turn, up to :data:`CHUNK_EVENTS` events in all, and save that
in one batch.  A save that collides with a concurrent one at the same version
(``IntegrityError``, from another thread or another replica) is retried against the new state a
few times, then refused with :class:`Conflict`.  Within one process commands on one table are
serialised by a lock; the optimistic check is what keeps replicas sharing a PostgreSQL database
apart.

Automatic play (bot moves and automatic deals) never makes one call unbounded and never wedges
a table: what does not fit in the command's batch is played by a background worker after the
caller has its answer, one batch of at most :data:`CHUNK_EVENTS` events at a time, each under
the table's lock like any command, until a person must act or the match ends.  Watchers see
every batch as it is saved.  The worker checks a stop flag between batches
(:meth:`Tables.stop_automatic`, :meth:`Tables.close`); a table left with automatic play due (a
stop, a restart, a store error) resumes the next time anyone reads or acts at it.

Every hand's seed is ``HMAC-SHA256(secret, table_id + "/" + hand_no)`` in hex; the secret never
enters the log, the seed does (hidden in ``HandStarted`` until ``SeedRevealed``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import logging
import queue
import random
import secrets
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy.engine
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import Environment, get_topic

from trapoula.domain import bots
from trapoula.domain.chain import GENESIS, event_hash, record_header
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event, Payload, Viewer, redact, to_payload, visible
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo, acting_seats
from trapoula.domain.registry import GAMES, find_game
from trapoula.service.errors import (
    AlreadyStarted,
    Conflict,
    ErrorContext,
    PermissionDenied,
    SeatTaken,
    TableNotFound,
    VersionAhead,
    annotate,
    clip,
)
from trapoula.service.recording import (
    HAND_STARTED,
    JOIN_QUEUED,
    SEAT_FREEING,
    SEAT_TAKEN,
    TABLE_CREATED,
    Entry,
    SeatRecord,
    Table,
    TableState,
    apply_entry,
    created_payload,
    state_at,
)
from trapoula.service.snapshots import (
    SNAPSHOT_EVERY,
    ColdLoad,
    SnapshotRepository,
    TableSnapshot,
    delete_snapshot,
    project,
)

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
"""Saves tried for one command before it is refused with :class:`Conflict`."""
CHUNK_EVENTS = 200
"""Most events one save holds: a command with the automatic play after it, or one background
batch of automatic play (a bound of the service, not a rule)."""
AUTO_WORKERS = 2
"""Threads playing the bots' moves and automatic deals in the background (all tables share them)."""
CONNECT_TIMEOUT_SECONDS = 5
"""Seconds a new PostgreSQL connection may take (``connect_timeout``, unless the URL sets one)."""
PG_CONNECTION_DEFAULTS: dict[str, str] = {
    "connect_timeout": str(CONNECT_TIMEOUT_SECONDS),
    "keepalives": "1",
    "keepalives_idle": "5",
    "keepalives_interval": "2",
    "keepalives_count": "3",
    "tcp_user_timeout": "10000",
    "options": "-c idle_in_transaction_session_timeout=10000 -c lock_timeout=5000",
}
"""libpq settings a PostgreSQL URL gets unless it sets them (see :func:`store_url`): seconds,
except ``tcp_user_timeout`` and the server settings in ``options`` (milliseconds)."""
FOLLOW_RETRY_SECONDS = 0.5
"""First wait before subscribing again to a store whose notifications stopped (doubles each time)."""
FOLLOW_RETRY_MAX_SECONDS = 5.0
"""Longest wait between two tries to subscribe again."""
MAX_NAME = 64
"""Longest display name (after stripping spaces)."""
MAX_COMMAND_ID = 128
"""Longest command id (proto: 1-128 characters)."""
MAX_KEY = 32
"""Longest game key or bot level."""
MAX_CARD = 8
"""Longest card code or suit text accepted (real ones have 1 or 2 characters)."""
MAX_POINTS = 2**31 - 1
"""Largest magnitude of a command's ``points`` (``vida``'s bid, R4.3): the wire's int32."""
MAX_PAGE_TOKEN = 20
"""Longest page token (a decimal number)."""
DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
_BAD_NAME_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
_NAME_JOINERS = frozenset({"\u200c", "\u200d"})
_VISIBLE = frozenset("LNPS")
"""Unicode major categories of which a name needs one character: letters, numbers, punctuation, symbols."""
_BLANK_LETTERS = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"})
"""Characters of those categories that show nothing (Hangul fillers, the blank Braille pattern)."""


# --------------------------------------------------------------------------- public value types


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a seat, the table's owner, or a spectator (no token).

    ``former`` is the token of a seat its player left or lost (``mau_mau`` R6.6, R6.10): it sees
    what a spectator sees, and may only repeat the seat's earlier commands (``until``: the version
    the seat was freed at).  ``waiting`` is a queued newcomer's token (R6.9), a spectator until the
    next hand seats him.
    """

    kind: Literal["seat", "owner", "spectator", "former", "waiting"]
    seat: int | None = None
    """The seat, for ``kind`` ``seat`` and ``former``."""
    until: int = 0
    """For ``former``: the version at which the seat was freed."""
    since: int = 0
    """For ``seat`` and ``former``: the occupancy (``SeatRecord.since``) its command ids belong to."""

    @property
    def caller(self) -> str:
        """Whose command ids these are (``recording.caller``): the actor, with the occupancy of a
        seat taken after the start."""
        return f"{self.actor}#{self.since}" if self.since and self.kind in ("seat", "former") else self.actor

    @property
    def viewer(self) -> Viewer:
        """The seat whose view this principal gets (None: a spectator's view)."""
        return self.seat if self.kind == "seat" else None

    @property
    def actor(self) -> str:
        """How the log names this principal (``seat:2``, ``owner``)."""
        return f"seat:{self.seat}" if self.kind in ("seat", "former") else self.kind


SPECTATOR = Principal("spectator")
"""The principal of a caller without a token."""
OWNER = Principal("owner")
"""The principal of the table owner's token."""


def seat_principal(seat: int) -> Principal:
    """The principal of a seat token."""
    return Principal("seat", seat)


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """One stored event as one viewer may see it."""

    version: int
    """The event's position for this viewer (``TableState.position``): its version in the log,
    except at a ``romis`` table, where another seat's withheld events are not counted (R5.4)."""
    name: str
    payload: Payload
    """Redacted for the viewer (hidden fields and other seats' cards are None)."""


@dataclass(frozen=True, slots=True)
class ActResult:
    """What a command returns to its caller."""

    version: int
    """The caller's position (``TableState.position``) after the command and the automatic play
    saved with it."""
    events: tuple[SeenEvent, ...]
    """The caller's view of the command's events and of the automatic play saved with them (at
    most :data:`CHUNK_EVENTS` events in all; later automatic play is saved in the background)."""
    view: Payload
    """The caller's view after them."""


@dataclass(frozen=True, slots=True)
class WatchItem:
    """One event for a watcher, with the watcher's view after it."""

    event: SeenEvent
    view: Payload


@dataclass(frozen=True, slots=True)
class WatchBatch:
    """The events after a version, for one viewer."""

    items: tuple[WatchItem, ...]
    head: int
    """The table's version when read (what the fan-out counts)."""
    position: int
    """The viewer's position at ``head`` (``TableState.position``): the batch reached the head
    when its last item, if any, is at this position."""
    over: bool
    """True when the match is over (no event will follow ``head``)."""


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One line of the lobby."""

    table_id: str
    game: str
    seats: int
    free_seats: tuple[int, ...]
    status: str
    """``open``, ``ready``, ``playing`` or ``over``."""
    version: int


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game the server plays."""

    key: str
    title: str
    summary: str
    min_players: int
    max_players: int
    options: Payload
    """Every option with its default."""
    bot_levels: tuple[str, ...] = ()
    """Computer-player levels (``add_bot``)."""
    seat_changes: bool = False
    """True when players may join and leave during the match (``mau_mau`` R6.9-R6.10)."""


@dataclass(frozen=True, slots=True)
class _Draft:
    name: str
    payload: Payload
    actor: str


# --------------------------------------------------------------------------- helpers


def store_url(database_url: str) -> str:
    """``database_url`` with the connection settings of :data:`PG_CONNECTION_DEFAULTS` that it
    does not set itself, for PostgreSQL; other URLs are returned unchanged.

    They bound every wait on a database that is gone: a new connection gives up after 5 s, a
    connection whose peer went silent is dropped after 10 s (TCP keepalives and
    ``tcp_user_timeout``), and on the server's side a session left idle inside a transaction
    (its replica cut off mid-save, still holding the event table's lock) is ended after 10 s and
    a save waits at most 5 s for that lock, so one lost replica cannot stall the others.

    >>> store_url("postgresql+psycopg://ann@db:5432/trapoula?connect_timeout=30").split("?")[1].split("&")[:2]
    ['connect_timeout=30', 'keepalives=1']
    >>> store_url("sqlite:///trapoula.sqlite3")
    'sqlite:///trapoula.sqlite3'
    """
    try:
        url = sqlalchemy.engine.make_url(database_url)
    except Exception:  # not a URL: the store reports it when it opens
        return database_url
    if not url.drivername.startswith("postgresql"):
        return database_url
    missing = {k: v for k, v in PG_CONNECTION_DEFAULTS.items() if k not in url.query}
    return url.update_query_dict(missing).render_as_string(hide_password=False) if missing else database_url


def _first_line(exc: BaseException) -> str:
    """The first line of an error's message (at most 200 characters), or its class name."""
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__


def token_hash(token: str) -> str:
    """SHA-256 (hex) of a token: what the log keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _new_token() -> str:
    return secrets.token_urlsafe(32)


def _check_command_id(command_id: str) -> None:
    if not isinstance(command_id, str) or not 1 <= len(command_id) <= MAX_COMMAND_ID:
        raise InvalidInput(
            f"command_id {clip(command_id)!r}: expected 1 to {MAX_COMMAND_ID} characters", reason="bad_command_id"
        )


def _name_char_ok(ch: str) -> bool:
    category = unicodedata.category(ch)
    if category == "Cf":  # format characters: only the joiners that emoji and some scripts need
        return ch in _NAME_JOINERS
    return category not in _BAD_NAME_CATEGORIES


def _check_name(name: str) -> str:
    if not isinstance(name, str):
        raise InvalidInput(f"name {clip(name)!r} is not text", reason="bad_name")
    name = name.strip()
    if (
        not 1 <= len(name) <= MAX_NAME
        or not all(map(_name_char_ok, name))
        or not any(unicodedata.category(ch)[0] in _VISIBLE and ch not in _BLANK_LETTERS for ch in name)
    ):
        raise InvalidInput(
            f"name {clip(name)!r}: expected 1 to {MAX_NAME} characters with at least one visible letter, digit or "
            "symbol, and no control characters",
            reason="bad_name",
        )
    return name


def _check_key(value: Any, what: str, reason: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_KEY:
        raise InvalidInput(f"{what} {clip(value)!r}: expected at most {MAX_KEY} characters", reason=reason)
    return value


def _check_code(value: Any, what: str, reason: str) -> None:
    """A card code or suit: text of at most :data:`MAX_CARD` characters (the game parses it)."""
    if not isinstance(value, str) or len(value) > MAX_CARD:
        raise InvalidInput(f"{what} {clip(value)!r}: expected a code of at most {MAX_CARD} characters", reason=reason)


def _check_deal_codes(deal: Mapping[str, Any]) -> None:
    """Every card code of an explicit deal (S5.3; ``vida``'s ``deck`` and ``widow``, R3.2) is short
    text; the game checks the rest."""
    lists: list[Any] = [deal.get("stock") or [], deal.get("deck") or [], deal.get("widow") or []]
    for key in ("hands", "reshuffles"):
        groups = deal.get(key) or []
        if not isinstance(groups, list | tuple):
            raise InvalidInput(f"explicit deal: {key!r} must be a list of card lists (S5.3)", reason="bad_deal")
        lists.extend(groups)
    for cards in lists:
        if not isinstance(cards, list | tuple):
            raise InvalidInput(f"explicit deal: {clip(cards)!r} is not a list of cards (S5.3)", reason="bad_deal")
        for code in cards:
            _check_code(code, "card", "bad_card")
    if deal.get("starter") is not None:
        _check_code(deal["starter"], "starter", "bad_card")


def _check_int(value: Any, what: str, reason: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} {clip(value)!r} is not an integer", reason=reason)
    return value


def parse_table_id(table_id: str) -> uuid.UUID:
    """The UUID of a table id, which must be in canonical form (lower-case, hyphenated, 36 characters).

    Other spellings of the same UUID (upper case, braces, ``urn:uuid:``, no hyphens) are
    refused so that one table has exactly one id (and one lock).

    Raises:
        InvalidInput: not a canonical UUID (``bad_table_id``).
    """
    if isinstance(table_id, str) and len(table_id) == 36:
        try:
            tid = uuid.UUID(table_id)
        except ValueError:
            pass
        else:
            if str(tid) == table_id:
                return tid
    raise InvalidInput(
        f"table_id {clip(table_id)!r} is not a table id (a lower-case hyphenated UUID)", reason="bad_table_id"
    )


def _seen(entry: Entry, viewer: Viewer, position: int) -> SeenEvent:
    payload = redact(entry.event, viewer) if entry.event is not None else dict(entry.payload)
    return SeenEvent(position, entry.name, payload)


def _shown(entry: Entry, viewer: Viewer) -> bool:
    """True when ``viewer`` receives ``entry`` at all (``events.visible``: romis R5.4)."""
    return entry.event is None or visible(entry.event, viewer)


def table_view(state: TableState, principal: Principal) -> Payload:
    """What ``principal`` may see of a table: the game's view for its viewer plus a ``table`` part.

    Before the match starts the game's view is that of its initial state (free seats have empty
    names).  The ``table`` part: ``table_id, version, status, seats ([{seat, name, bot} or
    {seat, free: true}]), manual_deal, viewer ("seat" / "owner" / "spectator"), needs_deal``
    (the table waits for ``next_hand``: a manual-deal table between hands).  ``acting`` (top
    level) lists the seats whose move the match waits for (``GameSpec.acting``).
    """
    spec = state.spec
    game_state = state.game_state if state.game_state is not None else spec.initial_state(state.config())
    view = dict(spec.seat_view(game_state, principal.viewer))
    view["acting"] = list(acting_seats(spec, game_state, range(len(state.seats)))) if state.started else []
    needs_deal = state.started and not state.over and bool(spec.needs_deal(game_state))
    view["table"] = {
        "table_id": state.table_id,
        "version": state.position(principal.viewer),
        "status": state.status,
        "seats": [
            {"seat": i, "name": s.name, "bot": s.bot} if s is not None else {"seat": i, "free": True}
            for i, s in enumerate(state.seats)
        ],
        "manual_deal": state.manual_deal,
        "viewer": principal.kind,
        "needs_deal": needs_deal,
    }
    return view


# --------------------------------------------------------------------------- the application


class Tables(Application):  # type: ignore[type-arg]
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

    Raises:
        Exception: whatever the store raises when it cannot be opened (a bad URL, an unwritable
            SQLite file, an unreachable database).
    """

    name = "trapoula"

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
    ) -> None:
        env = {
            "PERSISTENCE_MODULE": "eventsourcing_sqlalchemy",
            "SQLALCHEMY_URL": store_url(database_url),
            "AGGREGATE_CACHE_MAXSIZE": str(cache_size),
            "AGGREGATE_CACHE_FASTFORWARD": "y",
            "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
        }
        if schema:
            env["SQLALCHEMY_SCHEMA"] = schema
        self._snapshot_every = max(0, snapshot_every)
        if self._snapshot_every:
            env["IS_SNAPSHOTTING_ENABLED"] = "y"
        self._load_listeners: list[Callable[[ColdLoad], None]] = []
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        self._locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._chunk = max(1, chunk_events)
        self._auto_workers = max(1, auto_workers)
        self._auto_queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._auto_pending: set[str] = set()
        self._auto_threads: list[threading.Thread] = []
        self._auto_cond = threading.Condition()
        self._auto_stop = threading.Event()
        self._listeners: list[Callable[[str, int], None]] = []
        self._index: list[tuple[int, str, str]] = []
        self._index_lock = threading.Lock()
        self._follow_stop = threading.Event()
        self._follower: threading.Thread | None = None
        self._follow_subscription: Any = None
        self._follow_last = 0
        self._heads: dict[str, int] = {}
        self._heads_lock = threading.Lock()
        super().__init__(env=env)

    def construct_env(self, name: str, env: Mapping[str, str] | None = None) -> Environment:
        """The library's settings from ``env`` only (the process environment is not read)."""
        return Environment(name, dict(env or {}))

    # ----------------------------------------------------------------------- listeners

    def add_listener(self, listener: Callable[[str, int], None]) -> None:
        """Call ``listener(table_id, version)`` after every successful save (any thread)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[str, int], None]) -> None:
        """Stop calling ``listener``."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _published(self, table_id: str, version: int) -> None:
        with self._heads_lock:
            if version > self._heads.get(table_id, 0):
                self._heads[table_id] = version
        for listener in list(self._listeners):
            try:
                listener(table_id, version)
            except Exception:  # a listener must never undo a saved command
                log.exception("listener %r failed for table %s v%d", listener, table_id, version)

    def follow_store(self) -> bool:
        """Tell the listeners about events other replicas save (PostgreSQL LISTEN/NOTIFY).

        Starts a background thread on stores that can be subscribed to; returns False (and does
        nothing) on the others, such as SQLite, where only this process's saves are announced.
        When the subscription breaks (the database restarts or the network drops), the thread
        subscribes again after :data:`FOLLOW_RETRY_SECONDS` (doubling up to
        :data:`FOLLOW_RETRY_MAX_SECONDS`) from the last notification it had, so saves made
        meanwhile are announced late, never lost; watchers also re-read the store on their own
        every few seconds.

        Raises:
            Exception: what the store raises when it cannot be read at all at the start.
        """
        if self._follower is not None:
            return True
        try:
            start = self.recorder.max_notification_id()
            first = self.recorder.subscribe(gt=start)
        except NotImplementedError:
            return False
        self._follow_last = start or 0
        self._follower = threading.Thread(target=self._follow, args=(first,), name="trapoula-follow", daemon=True)
        self._follower.start()
        return True

    def _follow(self, subscription: Any) -> None:
        """The follower thread: announce every notification; subscribe again after a failure."""
        delay = FOLLOW_RETRY_SECONDS
        while not self._follow_stop.is_set():
            if subscription is None:
                try:
                    subscription = self.recorder.subscribe(gt=self._follow_last)
                except Exception as exc:
                    log.warning("cannot follow the store (%s); trying again in %.1fs", _first_line(exc), delay)
                    self._follow_stop.wait(delay)
                    delay = min(delay * 2, FOLLOW_RETRY_MAX_SECONDS)
                    continue
                log.info("following the store again from notification %d", self._follow_last)
            self._follow_subscription = subscription
            if self._follow_stop.is_set():
                subscription.stop()
            try:
                with subscription:
                    for notification in subscription:
                        delay = FOLLOW_RETRY_SECONDS
                        self._follow_last = max(self._follow_last, notification.id)
                        self._published(str(notification.originator_id), notification.originator_version)
                        if self._follow_stop.is_set():
                            break
            except Exception as exc:
                log.warning("lost the store's notifications (%s); resubscribing in %.1fs", _first_line(exc), delay)
                self._follow_stop.wait(delay)
                delay = min(delay * 2, FOLLOW_RETRY_MAX_SECONDS)
            subscription = None

    def close(self) -> None:
        """Stop automatic play (:meth:`stop_automatic`), stop following the store and close the
        database connections."""
        self.stop_automatic()
        self._follow_stop.set()
        following = self._follow_subscription
        if following is not None:
            following.stop()
        if self._follower is not None:
            self._follower.join(timeout=5)
        super().close()
        engine = getattr(getattr(self.factory, "datastore", None), "engine", None)
        dispose = getattr(engine, "dispose", None)
        if callable(dispose):
            dispose()

    # ----------------------------------------------------------------------- loading

    def _lock(self, table_id: str) -> threading.Lock:
        """The lock of an existing table (locks are made only for tables that exist).

        Raises:
            InvalidInput, TableNotFound: as :meth:`_load`.
        """
        with self._locks_lock:
            lock = self._locks.get(table_id)
        if lock is None:
            self._load(table_id)  # a bad or unknown id raises here and leaves no lock behind
            with self._locks_lock:
                lock = self._locks.setdefault(table_id, threading.Lock())
        return lock

    def _load(self, table_id: str) -> Table:
        tid = parse_table_id(table_id)
        try:
            table: object = self.repository.get(tid, projector_func=project)
        except AggregateNotFoundError:
            raise TableNotFound(f"no table {table_id}", context=ErrorContext(table_id=table_id)) from None
        assert isinstance(table, Table)
        return table

    def _peek(self, table_id: str) -> Table | None:
        """The table from the in-process cache, without asking the store, when the cached copy is
        at the newest version this process knows of (its own saves, and other replicas' saves
        announced by :meth:`follow_store`); else None.

        Another replica's save not yet announced can make the copy a moment old, so its users
        only take it where that cannot show: a watch woken by an announcement (the save that woke
        it is in the copy); a command, whose refusal is then checked again on the store's latest
        state and whose save at an old version collides and is retried afresh; a token check,
        redone on the store's latest state unless the token is a present seat's or the owner's.

        Raises:
            InvalidInput: a bad table id.
        """
        cache = self.repository.cache
        with self._heads_lock:
            known = self._heads.get(table_id, 0)
        if not known or cache is None:
            return None
        try:
            cached = cache.get(parse_table_id(table_id))
        except KeyError:
            return None
        return cached if isinstance(cached, Table) and cached.state.version >= known else None

    def _current(self, table_id: str) -> Table:
        """:meth:`_peek`, else :meth:`_load`.

        Raises:
            InvalidInput, TableNotFound: as :meth:`_load`.
        """
        return self._peek(table_id) or self._load(table_id)

    def _state_at(self, table: Table, version: int) -> TableState:
        return state_at(table, version)

    # ----------------------------------------------------------------------- snapshots

    def construct_repository(self) -> SnapshotRepository:
        """The library's repository (the same cache settings), whose cold loads start from a table's
        latest snapshot (:class:`~trapoula.service.snapshots.SnapshotRepository`)."""
        size = self.env.get(self.AGGREGATE_CACHE_MAXSIZE)
        return SnapshotRepository(
            event_store=self.events,
            snapshot_store=self.snapshots,
            cache_maxsize=int(size) if size else None,
            fastforward=self.env.get(self.AGGREGATE_CACHE_FASTFORWARD, "y") == "y",
            deepcopy_from_cache=self.env.get(self.DEEPCOPY_FROM_AGGREGATE_CACHE, "y") == "y",
            on_cold_load=self._cold_loaded,
            on_long_replay=self._snapshot_replayed,
            replay_limit=self._snapshot_every or 2**62,
        )

    def add_load_listener(self, listener: Callable[[ColdLoad], None]) -> None:
        """Call ``listener(report)`` after every cold load of a table (one not served from the
        in-process cache): from which snapshot, how many stored events were read, how long it took."""
        self._load_listeners.append(listener)

    def remove_load_listener(self, listener: Callable[[ColdLoad], None]) -> None:
        """Stop calling ``listener``."""
        if listener in self._load_listeners:
            self._load_listeners.remove(listener)

    def _cold_loaded(self, report: ColdLoad) -> None:
        for listener in list(self._load_listeners):
            try:
                listener(report)
            except Exception:  # a listener must never fail a load
                log.exception("load listener %r failed for table %s", listener, report.table_id)

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """The library's save; then a snapshot (:meth:`save_snapshot`) of each table whose version
        passed a multiple of ``snapshot_every`` in this save.  A snapshot that cannot be taken or
        stored is logged and skipped: the events are saved and the command answered all the same."""
        recordings = super().save(*objs, **kwargs)
        every = self._snapshot_every
        if every:
            spans: dict[str, tuple[int, int]] = {}
            for obj in objs:
                version = getattr(obj, "originator_version", None)
                if isinstance(version, int):
                    key = str(getattr(obj, "originator_id", ""))
                    low, high = spans.get(key, (version, version))
                    spans[key] = (min(low, version), max(high, version))
            for table_id, (low, high) in spans.items():
                if high // every > (low - 1) // every:
                    try:
                        self.save_snapshot(table_id)
                    except Exception:
                        log.warning("table %s: snapshot at v%d not taken", table_id, high, exc_info=True)
        return recordings

    def save_snapshot(self, table_id: str) -> int:
        """Store a snapshot of a table at its current version; returns that version.

        A snapshot already stored at that version (another replica took it) is kept as it is.

        Raises:
            InvalidInput, TableNotFound: as :meth:`view`.
            SnapshotUnusable: the table's state holds a value the snapshot codec cannot write.
            RuntimeError: snapshots are turned off (``snapshot_every=0``).
            Exception: whatever the store raises when it cannot write.
        """
        table = self._load(table_id)
        return self._put_snapshot(table)

    def _put_snapshot(self, table: Table, replace: int = 0) -> int:
        """Store a snapshot of ``table``; one already stored at its version is kept, unless that
        version is ``replace`` (an unusable snapshot), which is then deleted and replaced."""
        if self.snapshots is None:
            raise RuntimeError("snapshots are turned off (snapshot_every=0)")
        snapshot = TableSnapshot.of(table)
        version = snapshot.originator_version
        try:
            self.snapshots.put([snapshot])
        except IntegrityError:
            if version != replace:
                log.debug("table %s: snapshot v%d already stored", table.id, version)
                return version
            delete_snapshot(self.snapshots, table.id, version)
            try:
                self.snapshots.put([snapshot])
            except IntegrityError:  # another replica stored its own meanwhile
                log.debug("table %s: snapshot v%d already stored", table.id, version)
        return version

    def _snapshot_replayed(self, table: Table, ignored: int) -> None:
        """After a cold load that replayed many events (no usable snapshot, ``ignored`` the version of
        an unusable one): store a snapshot so the next cold load is short.  Failures are logged."""
        try:
            version = self._put_snapshot(table, ignored)
            if ignored and ignored != version and self.snapshots is not None:
                # the unusable one stands at another version (even past the head): it must not stay the latest
                delete_snapshot(self.snapshots, table.id, ignored)
        except Exception:
            log.warning("table %s: snapshot after a long replay not taken", table.id, exc_info=True)

    # ----------------------------------------------------------------------- saving

    def _chain(self, table: Table, drafts: Sequence[_Draft], command_id: str | None) -> list[Table.Recorded]:
        state = table.state
        prev, seq = state.last_hash, state.version
        out: list[Table.Recorded] = []
        for d in drafts:
            seq += 1
            h = event_hash(prev, seq, d.name, d.payload)
            out.append(
                Table.Recorded(  # type: ignore[call-arg]
                    originator_id=table.id,
                    originator_version=seq,
                    timestamp=Table.Recorded.create_timestamp(),
                    name=d.name,
                    payload=d.payload,
                    prev_hash=prev,
                    hash=h,
                    command_id=command_id,
                    actor=d.actor,
                )
            )
            prev = h
        return out

    def _execute(
        self,
        table_id: str,
        command_id: str | None,
        principal: Principal,
        decide: Callable[[Table], list[_Draft]],
    ) -> ActResult:
        """Run one command with idempotency, optimistic concurrency and retries.

        A command is known by ``(principal.actor, command_id)``: a repeated id from the same caller
        returns the first result (whatever the repeated payload), the same id from another caller
        is another command.  A refused command stores nothing and does not use up its id: the same
        id may carry a command that succeeds later.  After the save, automatic play that did not
        fit in the batch is handed to the background worker.
        """
        with self._lock(table_id):
            key = (principal.caller, command_id) if command_id is not None else None
            cached = True  # the first look may take the cached copy (see _peek); a refusal is then checked afresh
            attempt = 0
            table: Table | None = None
            while attempt < MAX_ATTEMPTS:
                table = self._peek(table_id) if cached else None
                if table is None:
                    cached = False
                    table = self._load(table_id)
                if key is not None and key in table.commands:
                    span = table.commands[key]
                    if principal.kind != "former" or span[0] <= principal.until:
                        return self._result(table, span, principal)
                if principal.kind in ("former", "waiting"):
                    if cached:
                        cached = False
                        continue
                    if principal.kind == "former":
                        why = f"this token's seat at table {table_id} is no longer its own"
                    elif table.state.over:
                        why = f"table {table_id}: the match ended before this newcomer could be seated"
                    else:
                        why = f"table {table_id}: this newcomer is seated when the hand in progress ends"
                    raise PermissionDenied(
                        why,
                        reason="seat_left" if principal.kind == "former" else "join_queued",
                        context=ErrorContext(table_id, principal.seat),
                    )
                state = table.state
                try:
                    drafts = decide(table)
                except Exception as exc:
                    if cached:  # refused on the cached copy: decide again on the store's latest state
                        cached = False
                        continue
                    annotate(exc, ErrorContext(table_id, principal.seat, state.position(principal.viewer)))
                    raise
                if not drafts:
                    if cached:
                        cached = False
                        continue
                    return ActResult(state.position(principal.viewer), (), table_view(state, principal))
                events = self._chain(table, drafts, command_id)
                try:
                    self.save(*events)
                except IntegrityError:
                    log.info("table %s: save at v%d lost a race; retrying", table_id, state.version + 1)
                    attempt += 1
                    cached = False
                    continue
                last = events[-1].originator_version
                try:
                    table = self._load(table_id)  # before the announcement: woken watchers find it cached
                finally:
                    self._published(table_id, last)
                if self._auto_due(table.state):
                    self._schedule(table_id)
                return self._result(table, (state.version + 1, last), principal)
        assert table is not None
        raise Conflict(
            f"table {table_id}: concurrent commands kept winning the race; retry",
            context=ErrorContext(table_id, principal.seat, table.state.position(principal.viewer)),
        )

    def _result(self, table: Table, span: tuple[int, int], principal: Principal) -> ActResult:
        first, last = span
        state = self._state_at(table, last)
        viewer = principal.viewer
        position = state.position(viewer, first - 1)
        events = []
        for entry in table.entries[first - 1 : last]:
            if _shown(entry, viewer):
                position += 1
                events.append(_seen(entry, viewer, position))
        return ActResult(position, tuple(events), table_view(state, principal))

    # ----------------------------------------------------------------------- seeds and bots

    def hand_seed(self, table_id: str, hand_no: int) -> str:
        """The seed of hand ``hand_no`` of a table: HMAC-SHA256(secret, "table_id/hand_no"), hex."""
        return hmac.new(self._secret, f"{table_id}/{hand_no}".encode(), hashlib.sha256).hexdigest()

    def _bot_rng(self, table_id: str, version: int) -> random.Random:
        digest = hmac.new(self._secret, f"{table_id}/bot/{version}".encode(), hashlib.sha256).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def _deal(self, state: TableState, game_state: Any, hand_no: int, deal: Mapping[str, Any] | None) -> Any:
        spec = state.spec
        if deal is not None:
            if not isinstance(deal, Mapping):
                raise InvalidInput(f"explicit deal {clip(deal)!r} is not a mapping (S5.3)", reason="bad_deal")
            made = spec.explicit_deal(game_state, deal)
            # a secret the one who entered the deal cannot know (romis R5.2), revealed with the hand
            made = dataclasses.replace(made, secret=self.hand_seed(state.table_id, hand_no))
        else:
            made = Deal.from_seed(spec.deck(game_state), self.hand_seed(state.table_id, hand_no))
        return spec.deal_command(game_state, made)

    def _autoplay(self, state: TableState, game_state: Any, drafts: list[_Draft]) -> None:
        """Append bot moves and automatic deals to ``drafts`` while they are due, until ``drafts``
        holds :data:`CHUNK_EVENTS` events (a step that would pass the bound waits for the next
        batch; a first step always goes in).  ``state`` is the table before ``drafts``.

        Deterministic: a bot's choice depends on the secret, the table and the version it moves
        at, a deal's seed on the hand number, so where one batch ends changes nothing.
        """
        spec = state.spec
        bot_seats = state.bot_seats()
        hands = state.hands_started + sum(d.name == HAND_STARTED for d in drafts)
        version = state.version + len(drafts)
        waiting = list(state.waiting)
        for d in drafts:  # seat changes the command itself made
            if d.name == SEAT_TAKEN:
                waiting = [w for w in waiting if w[0] != d.payload.get("queued")]
                if d.payload.get("bot") is not None:
                    bot_seats = tuple(sorted((*bot_seats, (int(d.payload["seat"]), str(d.payload["bot"])))))
            elif d.name in SEAT_FREEING and spec.seat_changes:
                bot_seats = tuple(b for b in bot_seats if b[0] != d.payload.get("seat"))
        while len(drafts) < self._chunk:
            if waiting and spec.needs_deal(game_state) and not spec.is_terminal(game_state):
                queued, who = waiting.pop(0)  # R6.9: the newcomers queued during the hand sit down
                try:
                    game_state, joined = self._seat_newcomer(spec, game_state, who, queued)
                except (CommandRejected, InvalidInput):
                    log.exception("table %s: queued join %d refused", state.table_id, queued)
                    waiting.clear()
                    continue
                drafts.extend(joined)
                version += len(joined)
                if who.bot is not None:
                    bot_seats = tuple(sorted((*bot_seats, (int(joined[-1].payload["seat"]), who.bot))))
                continue
            command, actor = self._next_automatic(state, game_state, bot_seats, hands, version)
            if command is None:
                return
            try:
                events = spec.decide(game_state, command)
            except (CommandRejected, InvalidInput):
                log.exception("table %s: automatic command %r refused", state.table_id, command)
                return
            if not events:
                log.error("table %s: automatic command %r caused no event", state.table_id, command)
                return
            if drafts and len(drafts) + len(events) > self._chunk:
                return  # the next batch starts with this step
            for event in events:
                game_state = spec.evolve(game_state, event)
                name = event.event_name()
                drafts.append(_Draft(name, to_payload(event), actor))
                hands += name == HAND_STARTED
                if name in SEAT_FREEING and spec.seat_changes:  # an eliminated bot plays no more (R6.6)
                    gone = getattr(event, "seat", None)
                    bot_seats = tuple(b for b in bot_seats if b[0] != gone)
            version += len(events)

    def _next_automatic(
        self, state: TableState, game_state: Any, bot_seats: Sequence[tuple[int, str]], hands: int, version: int
    ) -> tuple[Any, str]:
        """The automatic command due in ``game_state`` and its actor; ``(None, "")`` when none is."""
        spec = state.spec
        if game_state is None or spec.is_terminal(game_state):
            return None, ""
        if spec.needs_deal(game_state):
            if state.manual_deal:
                return None, ""
            return self._deal(state, game_state, hands + 1, None), "table"
        levels = dict(bot_seats)
        acting = acting_seats(spec, game_state, tuple(levels))
        if not acting:
            return None, ""
        seat = acting[0]
        level = levels[seat]
        view = spec.seat_view(game_state, seat)
        choice = bots.choose(spec.key, view, level, self._bot_rng(state.table_id, version))
        return spec.parse_command(choice), f"bot:{seat}"

    def _auto_due(self, state: TableState) -> bool:
        """True when a bot must move or the table must deal (automatic play is due)."""
        if not state.started:
            return False
        spec = state.spec
        game_state = state.game_state
        if spec.is_terminal(game_state):
            return False
        if spec.needs_deal(game_state):
            return bool(state.waiting) or not state.manual_deal
        return bool(acting_seats(spec, game_state, tuple(s for s, _ in state.bot_seats())))

    # ----------------------------------------------------------------------- background automatic play

    def _schedule(self, table_id: str) -> None:
        """Have the background worker play a table's automatic moves (once; no-op when stopping)."""
        with self._auto_cond:
            if self._auto_stop.is_set() or table_id in self._auto_pending:
                return
            self._auto_pending.add(table_id)
            if len(self._auto_threads) < self._auto_workers:
                thread = threading.Thread(
                    target=self._auto_worker, name=f"trapoula-auto-{len(self._auto_threads)}", daemon=True
                )
                self._auto_threads.append(thread)
                thread.start()
        self._auto_queue.put(table_id)

    def _resume_if_due(self, state: TableState) -> None:
        if state.table_id not in self._auto_pending and self._auto_due(state):
            self._schedule(state.table_id)

    def _auto_worker(self) -> None:
        while True:
            table_id = self._auto_queue.get()
            if table_id is None or self._auto_stop.is_set():
                return
            self._auto_batch(table_id)

    def _auto_batch(self, table_id: str) -> None:
        """Save one batch of a table's automatic play, then queue the table again if more is due.

        Runs under the table's lock; whether the table stays pending is decided under that lock
        too, so a command that makes automatic play due again is never lost.
        """
        more = False
        try:
            with self._lock(table_id):
                try:
                    if not self._auto_stop.is_set():
                        more = self._auto_save(table_id)
                except Exception:
                    log.exception("table %s: automatic play failed; it resumes at the next call", table_id)
                finally:
                    with self._auto_cond:
                        if not (more and not self._auto_stop.is_set()):
                            self._auto_pending.discard(table_id)
                            self._auto_cond.notify_all()
                            more = False
        except Exception:  # the lock: the table vanished (never happens: tables are not deleted)
            log.exception("table %s: automatic play failed", table_id)
            with self._auto_cond:
                self._auto_pending.discard(table_id)
                self._auto_cond.notify_all()
        if more:
            self._auto_queue.put(table_id)

    def _auto_save(self, table_id: str) -> bool:
        """Save one batch of automatic play (the table's lock is held); True when more is due."""
        for _attempt in range(MAX_ATTEMPTS):
            table = self._load(table_id)
            state = table.state
            drafts: list[_Draft] = []
            self._autoplay(state, state.game_state, drafts)
            if not drafts:
                return False
            events = self._chain(table, drafts, None)
            try:
                self.save(*events)
            except IntegrityError:
                log.info("table %s: automatic save at v%d lost a race; retrying", table_id, state.version + 1)
                continue
            try:
                table = self._load(table_id)  # before the announcement: woken watchers find it cached
            finally:
                self._published(table_id, events[-1].originator_version)
            return self._auto_due(table.state)
        raise Conflict(f"table {table_id}: automatic play kept losing the race")

    def stop_automatic(self, timeout: float = 5.0) -> None:
        """Stop background automatic play: no new batch starts; waits up to ``timeout`` seconds for
        the batches being saved.  Tables left with automatic play due resume when next read by a
        ``Tables`` that is not stopped (after a restart)."""
        with self._auto_cond:
            self._auto_stop.set()
            threads = list(self._auto_threads)
            self._auto_pending.clear()
            self._auto_cond.notify_all()
        for _ in threads:
            self._auto_queue.put(None)
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until no background automatic play is pending (for tests and tools); False on timeout."""
        with self._auto_cond:
            return self._auto_cond.wait_for(lambda: not self._auto_pending, timeout)

    @staticmethod
    def _game_drafts(spec: GameSpec[Any, Any], game_state: Any, command: Any, actor: str) -> tuple[Any, list[_Draft]]:
        events: tuple[Event, ...] = spec.decide(game_state, command)
        drafts = []
        for event in events:
            game_state = spec.evolve(game_state, event)
            drafts.append(_Draft(event.event_name(), to_payload(event), actor))
        return game_state, drafts

    # ----------------------------------------------------------------------- public API

    def create_table(
        self,
        game: str,
        seats: int,
        options: Mapping[str, Any] | None = None,
        first_dealer: int | None = None,
        initial_totals: Sequence[int] | None = None,
        manual_deal: bool = False,
    ) -> tuple[str, str]:
        """Create a table; returns ``(table_id, owner_token)``.

        ``initial_totals`` empty or None means all zero.  The owner token may start the match
        and deal hands; only its hash is stored.

        Raises:
            InvalidInput: unknown game (``unknown_game``), a seat count outside the game's range
                (``bad_seats``), a bad option (``bad_option``), a first dealer or totals that do
                not fit (``bad_config``).
        """
        spec = find_game(_check_key(game, "game", "unknown_game"))
        seats = _check_int(seats, "seats", "bad_seats")
        if not spec.min_players <= seats <= spec.max_players:
            low, high = spec.min_players, spec.max_players
            allowed = f"{low}" if low == high else f"{low} to {high}"
            raise InvalidInput(f"{game} takes {allowed} seats, not {seats}", reason="bad_seats")
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise InvalidInput(f"options {clip(options)!r} is not a mapping", reason="bad_option")
        for key in options:
            _check_key(key, "option", "bad_option")
        if first_dealer is not None:
            _check_int(first_dealer, "first_dealer", "bad_config")
        totals = tuple(_check_int(t, "initial total", "bad_config") for t in initial_totals or ()) or None
        # Validate the whole configuration now: later hands must never fail on it.
        spec.initial_state(
            MatchConfig(
                game, tuple(SeatInfo(i, f"seat {i}") for i in range(seats)), dict(options), first_dealer, totals
            )
        )
        preset = dict(spec.preset_bots(spec.parse_options(options)))
        outside = sorted(s for s in preset if not 0 <= s < seats)
        if outside:
            raise InvalidInput(f"computer seat(s) {outside} are not seats 0..{seats - 1} of the table", "bad_option")
        payload = created_payload(game, seats, options, first_dealer, totals, bool(manual_deal))
        try:
            json.dumps(payload, allow_nan=False)
        except (TypeError, ValueError):
            raise InvalidInput(f"options {clip(options)!r} are not plain JSON data", reason="bad_option") from None
        owner_token = _new_token()
        tid = uuid.uuid4()
        created = Table.Created(  # type: ignore[call-arg]
            originator_topic=get_topic(Table),
            originator_id=tid,
            originator_version=1,
            timestamp=Table.Created.create_timestamp(),
            name=TABLE_CREATED,
            payload=payload,
            prev_hash=GENESIS,
            hash=event_hash(GENESIS, 1, TABLE_CREATED, payload),
            command_id=None,
            actor="owner",
            owner_token_hash=token_hash(owner_token),
        )
        self.save(created)
        self._published(str(tid), 1)
        if preset:  # computer seats an option fixes (mau_mau R7.2 computer_seats)

            def seat_bots(table: Table) -> list[_Draft]:
                return [
                    _Draft(SEAT_TAKEN, {"seat": s, "name": f"{lv} bot {s}", "bot": lv, "token_hash": None}, "table")
                    for s, lv in sorted(preset.items())
                ]

            self._execute(str(tid), None, OWNER, seat_bots)
        return str(tid), owner_token

    def _take_seat(
        self, table_id: str, seat: int | None, name: str | None, bot: str | None
    ) -> tuple[int, str | None, bool]:
        parse_table_id(table_id)
        checked = None if name is None and bot is not None else _check_name(name or "")
        token = None if bot is not None else _new_token()
        chosen: list[int] = []

        def decide(table: Table) -> list[_Draft]:
            state = table.state
            if state.started:
                if seat is not None:
                    _check_int(seat, "seat", "bad_seat")
                who = SeatRecord(checked or f"{bot} bot", bot, token_hash(token) if token is not None else None)
                return self._newcomer(state, who, seat, chosen)
            if seat is not None:
                _check_int(seat, "seat", "bad_seat")
                if not 0 <= seat < len(state.seats):
                    raise InvalidInput(
                        f"seat {seat} is not a seat of table {table_id} (0..{len(state.seats) - 1})", reason="bad_seat"
                    )
                if state.seats[seat] is not None:
                    raise SeatTaken(f"seat {seat} of table {table_id} is taken")
                target = seat
            else:
                if not state.free_seats:
                    raise SeatTaken(f"table {table_id} has no free seat", reason="table_full")
                target = state.free_seats[0]
            chosen[:] = [target]
            payload = {
                "seat": target,
                "name": checked if checked is not None else f"{bot} bot {target}",
                "bot": bot,
                "token_hash": token_hash(token) if token is not None else None,
            }
            return [_Draft(SEAT_TAKEN, payload, "table" if bot is not None else f"seat:{target}")]

        self._execute(table_id, None, SPECTATOR, decide)
        return chosen[0], token, chosen[0] < 0

    def _newcomer(self, state: TableState, who: SeatRecord, seat: int | None, chosen: list[int]) -> list[_Draft]:
        """A player joining a started match (``mau_mau`` R6.9): seated at once between hands,
        queued (``JoinQueued``, seat -1) during a hand.

        Raises:
            AlreadyStarted: the game takes no newcomers once the match has started.
            SeatTaken: every seat is taken or promised to a queued newcomer (``table_full``).
            InvalidInput: a wanted seat other than the one the rules give (``bad_seat``, R6.9.2).
            CommandRejected: the rules refuse the join (``match_over`` ...).
        """
        spec = state.spec
        tid = state.table_id
        if not spec.seat_changes:
            raise AlreadyStarted(f"table {tid}: the match has started; no seat can be taken")
        if spec.is_terminal(state.game_state):
            raise CommandRejected("match_over", "R6.9", f"table {tid}: the match is over; nobody can join")
        if seat is not None and 0 <= seat < len(state.seats) and state.seats[seat] is not None:
            raise SeatTaken(f"seat {seat} of table {tid} is taken")
        seated = sum(s is not None for s in state.seats)
        if seated + len(state.waiting) >= spec.max_players:
            raise SeatTaken(
                f"table {tid} has no free seat: {seated} seated, {len(state.waiting)} waiting, "
                f"{spec.max_players} at most",
                reason="table_full",
            )
        if spec.hand_in_progress(state.game_state) or state.waiting:
            if seat is not None:
                raise InvalidInput(
                    f"seat {seat}: a newcomer takes the lowest vacant seat when the hand ends (R6.9.2)", "bad_seat"
                )
            chosen[:] = [-1]
            payload = {"name": who.name, "bot": who.bot, "token_hash": who.token_hash}
            return [_Draft(JOIN_QUEUED, payload, "table")]
        _, drafts = self._seat_newcomer(spec, state.game_state, who, None, seat)
        chosen[:] = [int(drafts[-1].payload["seat"])]
        return drafts

    @staticmethod
    def _seat_newcomer(
        spec: GameSpec[Any, Any], game_state: Any, who: SeatRecord, queued: int | None, wanted: int | None = None
    ) -> tuple[Any, list[_Draft]]:
        """The game's ``join`` for ``who`` and the ``SeatTaken`` that follows it.

        Raises:
            CommandRejected: the rules refuse the join.
            InvalidInput: ``wanted`` is not the seat the rules give (``bad_seat``, R6.9.2).
        """
        command = spec.parse_command({"kind": "join", "name": who.name, "computer": who.bot})
        game_state, drafts = Tables._game_drafts(spec, game_state, command, "table")
        joined = next((d for d in drafts if d.name == "PlayerJoined"), None)
        if joined is None:  # pragma: no cover - a join that seats nobody is a game defect
            raise CommandRejected("join_failed", "R6.9", "the join seated nobody")
        seat = int(joined.payload["seat"])
        if wanted is not None and wanted != seat:
            raise InvalidInput(f"seat {wanted}: a newcomer takes the lowest vacant seat, {seat} (R6.9.2)", "bad_seat")
        payload = {"seat": seat, "name": who.name, "bot": who.bot, "token_hash": who.token_hash, "queued": queued}
        drafts.append(_Draft(SEAT_TAKEN, payload, "table"))
        return game_state, drafts

    def join(self, table_id: str, name: str, seat: int | None = None) -> tuple[int, str]:
        """Take a seat (``seat``, or the first free one); returns ``(seat, seat_token)``.

        In a started match of a game with seat changes (``mau_mau`` R6.9) the newcomer takes the
        lowest vacant seat between hands, or is queued during a hand: the seat is then -1 and the
        token acts once the next hand seats him.

        Raises:
            TableNotFound: no such table.
            InvalidInput: a bad table id (``bad_table_id``), a bad name (``bad_name``: 1 to
                :data:`MAX_NAME` characters after stripping spaces, no control characters) or a
                seat out of range (``bad_seat``).
            SeatTaken: the seat is taken or none is free.
            AlreadyStarted: the match has started.
        """
        seat_no, token, _ = self._take_seat(table_id, seat, name, None)
        assert token is not None
        return seat_no, token

    def add_bot(self, table_id: str, level: str, seat: int | None = None, name: str | None = None) -> int:
        """Seat a server-side bot of ``level`` (one of ``bots.levels(game)``); returns its seat (-1
        while queued, as in :meth:`join`).

        Raises:
            TableNotFound, InvalidInput (also ``bad_bot_level``), SeatTaken, AlreadyStarted: as
            :meth:`join`.
        """
        level = _check_key(level, "bot level", "bad_bot_level")
        parse_table_id(table_id)
        bots.check_level(level, self._load(table_id).state.spec.key)
        seat_no, _, _ = self._take_seat(table_id, seat, name, level)
        return seat_no

    def authenticate(self, table_id: str, token: str | None) -> Principal:
        """The principal of ``token`` at a table: a seat, the owner, or (no token) a spectator.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: the token is not one of this table's.
        """
        cached = self._peek(table_id)
        if cached is not None:
            found = self._principal(cached.state, token)
            if found is not None and found.kind in ("seat", "owner", "spectator"):
                self._resume_if_due(cached.state)
                return found
        state = self._load(table_id).state
        self._resume_if_due(state)
        found = self._principal(state, token)
        if found is None:
            raise PermissionDenied(
                f"the token is not valid at table {table_id}", reason="bad_token", context=ErrorContext(table_id)
            )
        return found

    @staticmethod
    def _principal(state: TableState, token: str | None) -> Principal | None:
        """Whose ``token`` it is at the table in ``state`` (None: nobody's)."""
        if not token:
            return SPECTATOR
        h = token_hash(token)
        if hmac.compare_digest(h, state.owner_token_hash):
            return OWNER
        for i, s in enumerate(state.seats):
            if s is not None and s.token_hash is not None and hmac.compare_digest(h, s.token_hash):
                return Principal("seat", i, since=s.since)
        for _, who in state.waiting:
            if who.token_hash is not None and hmac.compare_digest(h, who.token_hash):
                return Principal("waiting")
        for gone_hash, seat, until, since in reversed(state.former):
            if hmac.compare_digest(h, gone_hash):
                return Principal("former", seat, until, since)
        return None

    def start_match(
        self, table_id: str, principal: Principal, command_id: str, deal: Mapping[str, Any] | None = None
    ) -> ActResult:
        """Start the match: deal the first hand (from ``deal``, an explicit deal S5.3, or a seed),
        then let bots move; needs the owner or a seat, and the owner for an explicit deal.

        The result holds the caller's view of the start and of the automatic play saved with it
        (at most :data:`CHUNK_EVENTS` events in all); the rest follows in the background.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: a spectator; a seat giving an explicit deal
                (``explicit_deal_owner_only``: explicit deals are for audits and tests).
            InvalidInput: a bad table id, command id or deal.
            CommandRejected: a seat is free (``seats_free``, S3.1).
            AlreadyStarted: the match has already started (under another command id).
        """
        parse_table_id(table_id)
        _check_command_id(command_id)
        if principal.kind == "spectator":
            raise PermissionDenied(
                f"starting table {table_id} needs the owner's or a seat's token", context=ErrorContext(table_id)
            )
        self._check_deal(table_id, principal, deal)

        def decide(table: Table) -> list[_Draft]:
            state = table.state
            if state.started:
                raise AlreadyStarted(f"table {table_id}: the match has already started")
            if state.free_seats:
                raise CommandRejected(
                    "seats_free", "S3.1", f"table {table_id}: seat(s) {list(state.free_seats)} are free"
                )
            spec = state.spec
            game_state = spec.initial_state(state.config())
            command = self._deal(state, game_state, 1, deal)
            game_state, drafts = self._game_drafts(spec, game_state, command, principal.actor)
            self._autoplay(state, game_state, drafts)
            return drafts

        return self._execute(table_id, command_id, principal, decide)

    @staticmethod
    def _check_deal(table_id: str, principal: Principal, deal: Mapping[str, Any] | None) -> None:
        if deal is None:
            return
        if principal.kind != "owner":
            raise PermissionDenied(
                f"only the owner of table {table_id} may give an explicit deal (S5.3); seats deal from a seed",
                reason="explicit_deal_owner_only",
                context=ErrorContext(table_id, principal.seat),
            )
        if not isinstance(deal, Mapping):
            raise InvalidInput(f"explicit deal {clip(deal)!r} is not a mapping (S5.3)", reason="bad_deal")
        _check_deal_codes(deal)

    def act(self, table_id: str, principal: Principal, command_id: str, command: Mapping[str, Any]) -> ActResult:
        """Issue a command; returns the caller's view of what it caused.

        ``command`` is the game's command payload; its seat is the principal's (a ``seat`` field, as
        in the view's ``legal`` list, must name the caller's own seat):
        ``{"kind": "play", "card": "7H", "suit": "S", "announce": false}``, ``{"kind": "draw"}``,
        ``{"kind": "pass"}``, ``{"kind": "choose_suit", "suit": "H"}``; or the table command
        ``{"kind": "next_hand", "deal": None | {"hands": [...], "starter": ..., "stock": [...]}}``
        (owner or any seat; an explicit deal only from the owner).

        Command ids are the caller's: a ``command_id`` this caller (this seat, or the owner) has
        used returns the first result and saves nothing, whatever the command now sent; another
        caller's use of the same id is another command.  A refused command uses up nothing: its id
        may later carry a command that succeeds.  The result holds the caller's view of the
        command's events and of the automatic play saved with them (at most :data:`CHUNK_EVENTS`
        events in all); the rest follows in the background, to be seen through ``events_after``.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: a spectator, the owner issuing a seat command, a command naming
                another seat, or a seat giving an explicit deal (``explicit_deal_owner_only``).
            InvalidInput: a malformed command (bad table id, card code, unknown kind, bad command
                id, ``points`` outside the wire's 32 bits ...).
            CommandRejected: the rules refuse it (reason and rule number), or the match has not
                started (``match_not_started``, S11).
            Conflict: concurrent commands kept winning the race.
        """
        parse_table_id(table_id)
        _check_command_id(command_id)
        if not isinstance(command, Mapping):
            raise InvalidInput(f"command {clip(command)!r} is not a mapping", reason="bad_command")
        raw = dict(command)
        kind = raw.get("kind")
        if not isinstance(kind, str) or len(kind) > MAX_KEY:
            raise InvalidInput(f"command kind {clip(kind)!r} is not a command of the game", reason="bad_command")
        if kind == "join":
            raise InvalidInput("join is not a seat's command: use JoinTable or AddBot (R6.9)", reason="bad_command")
        if "seat" in raw:
            if principal.kind not in ("seat", "former") or raw["seat"] != principal.seat:
                raise PermissionDenied(
                    f"the command names seat {clip(raw['seat'])!r}: a token acts only for its own seat",
                    context=ErrorContext(table_id, principal.seat),
                )
            del raw["seat"]
        if principal.kind == "spectator":
            raise PermissionDenied(f"{kind!r} at table {table_id} needs a token", context=ErrorContext(table_id))
        if kind != "next_hand" and principal.kind == "owner":
            raise PermissionDenied(
                f"the owner has no seat: {kind!r} needs a seat token", context=ErrorContext(table_id)
            )
        if kind == "next_hand":
            extra = set(raw) - {"kind", "deal"}
            if extra:
                raise InvalidInput(f"next_hand takes only 'deal', not {clip(sorted(map(str, extra)))}", "bad_command")
            self._check_deal(table_id, principal, raw.get("deal"))
        for field, reason in (("card", "bad_card"), ("suit", "bad_suit")):
            if raw.get(field) is not None:
                _check_code(raw[field], field, reason)
        given = raw.get("cards")
        if isinstance(given, list | tuple):  # vida's give (R5.1): short codes; the game checks the rest
            for code in given:
                _check_code(code, "card", "bad_card")
        points = raw.get("points")
        if isinstance(points, int) and not -MAX_POINTS - 1 <= points <= MAX_POINTS:  # vida's bid (R4.3)
            raise InvalidInput(  # not echoed: str() of a huge int raises ValueError
                f"points of {points.bit_length()} bits: expected a 32-bit integer", reason="bad_command"
            )

        def decide(table: Table) -> list[_Draft]:
            state = table.state
            spec = state.spec
            command_obj = None if kind == "next_hand" else spec.parse_command({**raw, "seat": principal.seat})
            if not state.started:
                raise CommandRejected("match_not_started", "S11", f"table {table_id}: the match has not started")
            game_state = state.game_state
            seated: list[_Draft] = []
            if command_obj is None:
                if spec.needs_deal(game_state) and not spec.is_terminal(game_state):
                    for queued, who in state.waiting:  # R6.9: the queued newcomers sit down first
                        game_state, joined = self._seat_newcomer(spec, game_state, who, queued)
                        seated.extend(joined)
                command_obj = self._deal(state, game_state, state.hands_started + 1, raw.get("deal"))
            game_state, drafts = self._game_drafts(spec, game_state, command_obj, principal.actor)
            drafts = seated + drafts
            self._autoplay(state, game_state, drafts)
            return drafts

        return self._execute(table_id, command_id, principal, decide)

    def view(self, table_id: str, principal: Principal) -> tuple[int, Payload]:
        """``(version, view)`` of ``principal`` now (see :func:`table_view`).

        Raises:
            InvalidInput: a bad table id (``bad_table_id``).
            TableNotFound: no such table.
        """
        state = self._load(table_id).state
        self._resume_if_due(state)
        return state.position(principal.viewer), table_view(state, principal)

    def events_after(
        self, table_id: str, principal: Principal, after: int, limit: int = 1000, *, fresh: bool = True
    ) -> WatchBatch:
        """The events after position ``after`` that ``principal`` may receive (at most ``limit``),
        redacted for it, each with ``principal``'s view after it.

        ``fresh`` False: read the table as this process knows it, without asking the store when
        its cached copy is at the newest version announced (:meth:`_current`; for a watch woken by
        an announcement); True: bring it up to date from the store first.

        Positions are the viewer's own count of the events it receives (``TableState.position``):
        the log's versions, except at a ``romis`` table, where another seat's withheld events are
        neither sent nor counted (rules/romis.md R5.4).

        Raises:
            TableNotFound: no such table.
            InvalidInput: ``after`` is negative (``bad_version``), a bad table id.
            VersionAhead: ``after`` is beyond the viewer's position at the head (``version_ahead``):
                that position does not exist yet, and may never (it is not waited for).
        """
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise InvalidInput(f"from_version {clip(after)!r}: expected an integer >= 0", reason="bad_version")
        table = self._load(table_id) if fresh else self._current(table_id)
        head_state = table.state
        head = head_state.version
        viewer = principal.viewer
        top = head_state.position(viewer)
        if after > top:
            raise VersionAhead(
                f"from_version {after} is beyond version {top} of table {table_id}",
                context=ErrorContext(table_id, principal.seat, top),
            )
        self._resume_if_due(head_state)
        entries = table.entries[:head]
        items: list[WatchItem] = []
        position = after
        begin = head_state.version_at(viewer, after)
        if begin < head:
            if begin == 0:
                state = state_at(table, 1)
                position += 1
                items.append(WatchItem(_seen(entries[0], viewer, position), table_view(state, principal)))
                begin = 1
            else:
                state = state_at(table, begin)
            for entry in entries[begin:head]:
                if len(items) >= limit:
                    break
                state = apply_entry(state, entry)
                if _shown(entry, viewer):
                    position += 1
                    items.append(WatchItem(_seen(entry, viewer, position), table_view(state, principal)))
        return WatchBatch(tuple(items), head, top, head_state.over)

    def record(self, table_id: str) -> tuple[str, int]:
        """The table's record: ``(jsonl, finished hands)``.

        JSON Lines: a header ``{"format": "trapoula-record", "version": 1, "table_id", "game",
        "hands", "events"}``, then every stored event from version 1 up to the last event of the
        last finished hand (``SeedRevealed``, or the ``MatchEnded`` after it), full payloads with
        ``seq, name, payload, prev_hash, hash``.  Nothing of a hand in progress; no token, only
        hashes; never the server secret.

        Raises:
            TableNotFound: no such table.
        """
        table = self._load(table_id)
        state = table.state
        entries = table.entries[: state.record_cut]
        header = record_header(state.table_id, state.game, state.record_hands, len(entries))
        lines = [json.dumps(header, ensure_ascii=False, separators=(",", ":"))]
        lines.extend(json.dumps(e.record_line(), ensure_ascii=False, separators=(",", ":")) for e in entries)
        return "\n".join(lines) + "\n", state.record_hands

    def _refresh_index(self) -> list[tuple[int, str, str]]:
        topic = get_topic(Table.Created)
        with self._index_lock:
            start = self._index[-1][0] + 1 if self._index else 1
            while True:
                found = self.recorder.select_notifications(start=start, limit=500, topics=[topic])
                for n in found:
                    created = self.mapper.to_domain_event(n)
                    game = getattr(created, "payload", {}).get("game", "")
                    self._index.append((n.id, str(n.originator_id), str(game)))
                if len(found) < 500:
                    break
                start = found[-1].id + 1
            return list(self._index)

    def list_tables(self, game: str = "", page_size: int = 0, page_token: str = "") -> tuple[list[TableSummary], str]:
        """Tables, newest first, optionally of one game; returns ``(summaries, next_page_token)``
        (``""`` after the last page).  ``page_size`` 0 means 50; at most 500.

        A page token is the decimal number (ASCII digits only) this server gave.

        Raises:
            InvalidInput: a bad page token (``bad_page_token``), page size (``bad_page_size``) or
                game key (``unknown_game``, longer than :data:`MAX_KEY`).
        """
        if isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 0:
            raise InvalidInput(f"page_size {clip(page_size)!r}: expected an integer >= 0", reason="bad_page_size")
        _check_key(game, "game", "unknown_game")
        size = min(page_size or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
        before: int | None = None
        if page_token:
            if not (
                isinstance(page_token, str)
                and len(page_token) <= MAX_PAGE_TOKEN
                and page_token.isascii()
                and page_token.isdigit()
            ):
                raise InvalidInput(f"page_token {clip(page_token)!r} is not one this server gave", "bad_page_token")
            before = int(page_token)
        rows = [r for r in reversed(self._refresh_index()) if (not game or r[2] == game)]
        if before is not None:
            rows = [r for r in rows if r[0] < before]
        page = rows[:size]
        summaries = []
        for _, tid, _game in page:
            try:
                state = self._load(tid).state
            except TableNotFound:
                continue
            summaries.append(
                TableSummary(tid, state.game, len(state.seats), state.free_seats, state.status, state.position(None))
            )
        next_token = str(page[-1][0]) if len(rows) > size else ""
        return summaries, next_token

    @staticmethod
    def list_games() -> list[GameInfo]:
        """The games this server plays."""
        return [
            GameInfo(
                s.key,
                s.title,
                s.summary,
                s.min_players,
                s.max_players,
                dict(s.option_defaults()),
                bots.levels(s.key),
                s.seat_changes,
            )
            for s in GAMES.values()
        ]

    def stored_events(self, table_id: str) -> tuple[Entry, ...]:
        """Every stored event of a table, full and unredacted, with its ``command_id`` and
        ``actor`` (for operators and tests; never send this to a player).

        Raises:
            TableNotFound: no such table.
        """
        table = self._load(table_id)
        return tuple(table.entries[: table.state.version])

    def table_ids(self) -> Iterable[str]:
        """Every table id, oldest first."""
        return [tid for _, tid, _ in self._refresh_index()]
