"""``Tables``: the eventsourcing application that holds every table (DESIGN, Layers: service).

One aggregate per table (:class:`~trapoula.service.recording.Table`); each fact is one stored
event, hash-chained.  ``Tables`` speaks domain types only: plain dicts and ints in, plain
results out, domain errors and :mod:`trapoula.service.errors` raised; no gRPC.

Commands run as: load the table, check the command id (a repeated id returns the first result
and appends nothing), decide, then let the server's bots move and deal the next hand while it
is their turn, and save everything the command caused in one batch.  A save that collides with
a concurrent one at the same version (``IntegrityError``, from another thread or another
replica) is retried against the new state a few times, then refused with :class:`Conflict`.
Within one process commands on one table are serialised by a lock; the optimistic check is
what keeps replicas sharing a PostgreSQL database apart.

Every hand's seed is ``HMAC-SHA256(secret, table_id + "/" + hand_no)`` in hex; the secret never
enters the log, the seed does (hidden in ``HandStarted`` until ``SeedRevealed``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import secrets
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import Environment, get_topic

from trapoula.domain import bots
from trapoula.domain.chain import GENESIS, event_hash
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import Event, Payload, Viewer, redact, to_payload
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo
from trapoula.domain.registry import GAMES, find_game
from trapoula.service.errors import (
    AlreadyStarted,
    Conflict,
    ErrorContext,
    PermissionDenied,
    SeatTaken,
    TableNotFound,
    annotate,
)
from trapoula.service.recording import (
    HAND_STARTED,
    SEAT_TAKEN,
    TABLE_CREATED,
    Entry,
    Table,
    TableState,
    apply_entry,
    created_payload,
    state_at,
)

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
"""Saves tried for one command before it is refused with :class:`Conflict`."""
MAX_AUTO_STEPS = 20_000
"""Bot moves and automatic deals after one command, at most (a bound, not a rule)."""
MAX_NAME = 40
"""Longest display name."""
MAX_COMMAND_ID = 128
"""Longest command id (proto: 1-128 characters)."""
DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500


# --------------------------------------------------------------------------- public value types


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a seat, the table's owner, or a spectator (no token)."""

    kind: Literal["seat", "owner", "spectator"]
    seat: int | None = None
    """The seat, for ``kind == "seat"``."""

    @property
    def viewer(self) -> Viewer:
        """The seat whose view this principal gets (None: a spectator's view)."""
        return self.seat if self.kind == "seat" else None

    @property
    def actor(self) -> str:
        """How the log names this principal (``seat:2``, ``owner``)."""
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind


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
    name: str
    payload: Payload
    """Redacted for the viewer (hidden fields and other seats' cards are None)."""


@dataclass(frozen=True, slots=True)
class ActResult:
    """What a command returns to its caller."""

    version: int
    """The table's version after the command (and the bot moves and deals it set off)."""
    events: tuple[SeenEvent, ...]
    """The caller's view of every event the command caused."""
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
    """The table's version when read."""
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


@dataclass(frozen=True, slots=True)
class _Draft:
    name: str
    payload: Payload
    actor: str


# --------------------------------------------------------------------------- helpers


def token_hash(token: str) -> str:
    """SHA-256 (hex) of a token: what the log keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _new_token() -> str:
    return secrets.token_urlsafe(32)


def _check_command_id(command_id: str) -> None:
    if not isinstance(command_id, str) or not 1 <= len(command_id) <= MAX_COMMAND_ID:
        raise InvalidInput(
            f"command_id {command_id!r}: expected 1 to {MAX_COMMAND_ID} characters", reason="bad_command_id"
        )


def _check_name(name: str) -> str:
    if not isinstance(name, str):
        raise InvalidInput(f"name {name!r} is not text", reason="bad_name")
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise InvalidInput(f"name {name!r}: expected 1 to {MAX_NAME} printable characters", reason="bad_name")
    return name


def _check_int(value: Any, what: str, reason: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} {value!r} is not an integer", reason=reason)
    return value


def _parse_table_id(table_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(table_id))
    except ValueError:
        raise TableNotFound(f"no table {table_id!r}", context=ErrorContext(table_id=str(table_id))) from None


def _seen(entry: Entry, viewer: Viewer) -> SeenEvent:
    payload = redact(entry.event, viewer) if entry.event is not None else dict(entry.payload)
    return SeenEvent(entry.seq, entry.name, payload)


def table_view(state: TableState, principal: Principal) -> Payload:
    """What ``principal`` may see of a table: the game's view for its viewer plus a ``table`` part.

    Before the match starts the game's view is that of its initial state (free seats have empty
    names).  The ``table`` part: ``table_id, version, status, seats ([{seat, name, bot} or
    {seat, free: true}]), manual_deal, viewer ("seat" / "owner" / "spectator"), needs_deal``
    (the table waits for ``next_hand``: a manual-deal table between hands).
    """
    spec = state.spec
    game_state = state.game_state if state.game_state is not None else spec.initial_state(state.config())
    view = dict(spec.seat_view(game_state, principal.viewer))
    needs_deal = state.started and not state.over and bool(spec.needs_deal(game_state))
    view["table"] = {
        "table_id": state.table_id,
        "version": state.version,
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
    """

    name = "trapoula"

    def __init__(
        self,
        database_url: str = "sqlite:///trapoula.sqlite3",
        secret: bytes | None = None,
        *,
        schema: str | None = None,
        cache_size: int = 1000,
    ) -> None:
        env = {
            "PERSISTENCE_MODULE": "eventsourcing_sqlalchemy",
            "SQLALCHEMY_URL": database_url,
            "AGGREGATE_CACHE_MAXSIZE": str(cache_size),
            "AGGREGATE_CACHE_FASTFORWARD": "y",
            "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
        }
        if schema:
            env["SQLALCHEMY_SCHEMA"] = schema
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        self._locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._listeners: list[Callable[[str, int], None]] = []
        self._index: list[tuple[int, str, str]] = []
        self._index_lock = threading.Lock()
        self._follow_stop = threading.Event()
        self._follower: threading.Thread | None = None
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
        for listener in list(self._listeners):
            try:
                listener(table_id, version)
            except Exception:  # a listener must never undo a saved command
                log.exception("listener %r failed for table %s v%d", listener, table_id, version)

    def follow_store(self) -> bool:
        """Tell the listeners about events other replicas save (PostgreSQL LISTEN/NOTIFY).

        Starts a background thread on stores that can be subscribed to; returns False (and does
        nothing) on the others, such as SQLite, where only this process's saves are announced.
        """
        if self._follower is not None:
            return True
        try:
            start = self.recorder.max_notification_id()
            subscription = self.recorder.subscribe(gt=start)
        except NotImplementedError:
            return False

        def follow() -> None:
            with subscription:
                for notification in subscription:
                    if self._follow_stop.is_set():
                        break
                    self._published(str(notification.originator_id), notification.originator_version)

        def stopper() -> None:
            self._follow_stop.wait()
            subscription.stop()

        self._follower = threading.Thread(target=follow, name="trapoula-follow", daemon=True)
        self._follower.start()
        threading.Thread(target=stopper, name="trapoula-follow-stop", daemon=True).start()
        return True

    def close(self) -> None:
        """Stop following the store and close the database connections."""
        self._follow_stop.set()
        if self._follower is not None:
            self._follower.join(timeout=5)
        super().close()
        engine = getattr(getattr(self.factory, "datastore", None), "engine", None)
        dispose = getattr(engine, "dispose", None)
        if callable(dispose):
            dispose()

    # ----------------------------------------------------------------------- loading

    def _lock(self, table_id: str) -> threading.Lock:
        with self._locks_lock:
            lock = self._locks.get(table_id)
            if lock is None:
                lock = self._locks[table_id] = threading.Lock()
            return lock

    def _load(self, table_id: str) -> Table:
        tid = _parse_table_id(table_id)
        try:
            table: object = self.repository.get(tid)
        except AggregateNotFoundError:
            raise TableNotFound(f"no table {table_id!r}", context=ErrorContext(table_id=str(table_id))) from None
        assert isinstance(table, Table)
        return table

    def _state_at(self, table: Table, version: int) -> TableState:
        return state_at(table, version)

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
        """Run one command with idempotency, optimistic concurrency and retries."""
        with self._lock(table_id):
            for _attempt in range(MAX_ATTEMPTS):
                table = self._load(table_id)
                if command_id is not None and command_id in table.commands:
                    return self._result(table, table.commands[command_id], principal)
                state = table.state
                try:
                    drafts = decide(table)
                except Exception as exc:
                    annotate(exc, ErrorContext(table_id, principal.seat, state.version))
                    raise
                if not drafts:
                    return ActResult(state.version, (), table_view(state, principal))
                events = self._chain(table, drafts, command_id)
                try:
                    self.save(*events)
                except IntegrityError:
                    log.info("table %s: save at v%d lost a race; retrying", table_id, state.version + 1)
                    continue
                last = events[-1].originator_version
                self._published(table_id, last)
                table = self._load(table_id)
                return self._result(table, (state.version + 1, last), principal)
        raise Conflict(
            f"table {table_id}: concurrent commands kept winning the race; retry",
            context=ErrorContext(table_id, principal.seat, table.state.version),
        )

    def _result(self, table: Table, span: tuple[int, int], principal: Principal) -> ActResult:
        first, last = span
        state = self._state_at(table, last)
        viewer = principal.viewer
        events = tuple(_seen(e, viewer) for e in table.entries[first - 1 : last])
        return ActResult(last, events, table_view(state, principal))

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
                raise InvalidInput(f"explicit deal {deal!r} is not a mapping (S5.3)", reason="bad_deal")
            made = spec.explicit_deal(game_state, deal)
        else:
            made = Deal.from_seed(spec.deck(game_state), self.hand_seed(state.table_id, hand_no))
        return spec.deal_command(game_state, made)

    def _autoplay(self, state: TableState, game_state: Any, drafts: list[_Draft]) -> None:
        """Bot moves and automatic deals after a command, appended to ``drafts`` (bounded)."""
        spec = state.spec
        bot_seats = state.bot_seats()
        hands = state.hands_started + sum(d.name == HAND_STARTED for d in drafts)
        version = state.version + len(drafts)
        for _step in range(MAX_AUTO_STEPS):
            if spec.is_terminal(game_state):
                return
            if spec.needs_deal(game_state):
                if state.manual_deal:
                    return
                command = self._deal(state, game_state, hands + 1, None)
                actor = "table"
            else:
                mover = next(((s, lv) for s, lv in bot_seats if spec.legal_commands(game_state, s)), None)
                if mover is None:
                    return
                seat, level = mover
                view = spec.seat_view(game_state, seat)
                command = spec.parse_command(bots.choose(spec.key, view, level, self._bot_rng(state.table_id, version)))
                actor = f"bot:{seat}"
            try:
                events = spec.decide(game_state, command)
            except (CommandRejected, InvalidInput):
                log.exception("table %s: automatic command %r refused", state.table_id, command)
                return
            for event in events:
                game_state = spec.evolve(game_state, event)
                drafts.append(_Draft(event.event_name(), to_payload(event), actor))
                hands += event.event_name() == HAND_STARTED
            version += len(events)
        log.warning("table %s: stopped automatic play after %d steps", state.table_id, MAX_AUTO_STEPS)

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
        spec = find_game(game)
        seats = _check_int(seats, "seats", "bad_seats")
        if not spec.min_players <= seats <= spec.max_players:
            raise InvalidInput(
                f"{game} takes {spec.min_players} to {spec.max_players} seats, not {seats}", reason="bad_seats"
            )
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise InvalidInput(f"options {options!r} is not a mapping", reason="bad_option")
        if first_dealer is not None:
            _check_int(first_dealer, "first_dealer", "bad_config")
        totals = tuple(_check_int(t, "initial total", "bad_config") for t in initial_totals or ()) or None
        # Validate the whole configuration now: later hands must never fail on it.
        spec.initial_state(
            MatchConfig(
                game, tuple(SeatInfo(i, f"seat {i}") for i in range(seats)), dict(options), first_dealer, totals
            )
        )
        payload = created_payload(game, seats, options, first_dealer, totals, bool(manual_deal))
        try:
            json.dumps(payload, allow_nan=False)
        except (TypeError, ValueError):
            raise InvalidInput(f"options {options!r} are not plain JSON data", reason="bad_option") from None
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
        return str(tid), owner_token

    def _take_seat(self, table_id: str, seat: int | None, name: str, bot: str | None) -> tuple[int, str | None]:
        name = _check_name(name)
        token = None if bot is not None else _new_token()
        chosen: list[int] = []

        def decide(table: Table) -> list[_Draft]:
            state = table.state
            if state.started:
                raise AlreadyStarted(f"table {table_id}: the match has started; no seat can be taken")
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
                "name": name,
                "bot": bot,
                "token_hash": token_hash(token) if token is not None else None,
            }
            return [_Draft(SEAT_TAKEN, payload, "table" if bot is not None else f"seat:{target}")]

        self._execute(table_id, None, SPECTATOR, decide)
        return chosen[0], token

    def join(self, table_id: str, name: str, seat: int | None = None) -> tuple[int, str]:
        """Take a seat (``seat``, or the first free one); returns ``(seat, seat_token)``.

        Raises:
            TableNotFound: no such table.
            InvalidInput: a bad name (``bad_name``) or a seat out of range (``bad_seat``).
            SeatTaken: the seat is taken or none is free.
            AlreadyStarted: the match has started.
        """
        seat_no, token = self._take_seat(table_id, seat, name, None)
        assert token is not None
        return seat_no, token

    def add_bot(self, table_id: str, level: str, seat: int | None = None, name: str | None = None) -> int:
        """Seat a server-side bot of ``level`` (``random``, ``heuristic``); returns its seat.

        Raises:
            TableNotFound, InvalidInput (also ``bad_bot_level``), SeatTaken, AlreadyStarted: as
            :meth:`join`.
        """
        bots.check_level(level)
        seat_no, _ = self._take_seat(table_id, seat, name or f"{level} bot", level)
        return seat_no

    def authenticate(self, table_id: str, token: str | None) -> Principal:
        """The principal of ``token`` at a table: a seat, the owner, or (no token) a spectator.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: the token is not one of this table's.
        """
        state = self._load(table_id).state
        if not token:
            return SPECTATOR
        h = token_hash(token)
        if hmac.compare_digest(h, state.owner_token_hash):
            return OWNER
        for i, s in enumerate(state.seats):
            if s is not None and s.token_hash is not None and hmac.compare_digest(h, s.token_hash):
                return seat_principal(i)
        raise PermissionDenied(
            f"the token is not valid at table {table_id}", reason="bad_token", context=ErrorContext(table_id)
        )

    def start_match(
        self, table_id: str, principal: Principal, command_id: str, deal: Mapping[str, Any] | None = None
    ) -> ActResult:
        """Start the match: deal the first hand (from ``deal``, an explicit deal S5.3, or a seed),
        then let bots move; needs the owner or a seat.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: a spectator.
            InvalidInput: a bad command id or deal.
            CommandRejected: a seat is free (``seats_free``, S3.1).
            AlreadyStarted: the match has already started (under another command id).
        """
        _check_command_id(command_id)
        if principal.kind == "spectator":
            raise PermissionDenied(
                f"starting table {table_id} needs the owner's or a seat's token", context=ErrorContext(table_id)
            )

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

    def act(self, table_id: str, principal: Principal, command_id: str, command: Mapping[str, Any]) -> ActResult:
        """Issue a command; returns the caller's view of what it caused.

        ``command`` is the game's command payload; its seat is the principal's (a ``seat`` field, as
        in the view's ``legal`` list, must name the caller's own seat):
        ``{"kind": "play", "card": "7H", "suit": "S", "announce": false}``, ``{"kind": "draw"}``,
        ``{"kind": "pass"}``, ``{"kind": "choose_suit", "suit": "H"}``; or the table command
        ``{"kind": "next_hand", "deal": None | {"hands": [...], "starter": ..., "stock": [...]}}``
        (owner or any seat).  A repeated ``command_id`` returns the first result and saves nothing.

        Raises:
            TableNotFound: no such table.
            PermissionDenied: a spectator, the owner issuing a seat command, or a command naming
                another seat.
            InvalidInput: a malformed command (bad card code, unknown kind, bad command id ...).
            CommandRejected: the rules refuse it (reason and rule number), or the match has not
                started (``match_not_started``, S11).
            Conflict: concurrent commands kept winning the race.
        """
        _check_command_id(command_id)
        if not isinstance(command, Mapping):
            raise InvalidInput(f"command {command!r} is not a mapping", reason="bad_command")
        raw = dict(command)
        kind = raw.get("kind")
        if "seat" in raw:
            if principal.kind != "seat" or raw["seat"] != principal.seat:
                raise PermissionDenied(
                    f"the command names seat {raw['seat']!r}: a token acts only for its own seat",
                    context=ErrorContext(table_id, principal.seat),
                )
            del raw["seat"]
        if principal.kind == "spectator":
            raise PermissionDenied(f"{kind!r} at table {table_id} needs a token", context=ErrorContext(table_id))
        if kind != "next_hand" and principal.kind != "seat":
            raise PermissionDenied(
                f"the owner has no seat: {kind!r} needs a seat token", context=ErrorContext(table_id)
            )
        if kind == "next_hand" and set(raw) - {"kind", "deal"}:
            raise InvalidInput(f"next_hand takes only 'deal', not {sorted(set(raw) - {'kind', 'deal'})}", "bad_command")

        def decide(table: Table) -> list[_Draft]:
            state = table.state
            spec = state.spec
            command_obj = None if kind == "next_hand" else spec.parse_command({**raw, "seat": principal.seat})
            if not state.started:
                raise CommandRejected("match_not_started", "S11", f"table {table_id}: the match has not started")
            if command_obj is None:
                command_obj = self._deal(state, state.game_state, state.hands_started + 1, raw.get("deal"))
            game_state, drafts = self._game_drafts(spec, state.game_state, command_obj, principal.actor)
            self._autoplay(state, game_state, drafts)
            return drafts

        return self._execute(table_id, command_id, principal, decide)

    def view(self, table_id: str, principal: Principal) -> tuple[int, Payload]:
        """``(version, view)`` of ``principal`` now (see :func:`table_view`).

        Raises:
            TableNotFound: no such table.
        """
        state = self._load(table_id).state
        return state.version, table_view(state, principal)

    def events_after(self, table_id: str, principal: Principal, after: int, limit: int = 1000) -> WatchBatch:
        """The events with a version greater than ``after`` (at most ``limit``), redacted for
        ``principal``, each with ``principal``'s view after it.

        Raises:
            TableNotFound: no such table.
            InvalidInput: ``after`` is negative.
        """
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise InvalidInput(f"from_version {after!r}: expected an integer >= 0", reason="bad_version")
        table = self._load(table_id)
        head_state = table.state
        head = head_state.version
        entries = table.entries[:head]
        stop = min(head, after + limit)
        items: list[WatchItem] = []
        if after < stop:
            viewer = principal.viewer
            if after == 0:
                state = state_at(table, 1)
                items.append(WatchItem(_seen(entries[0], viewer), table_view(state, principal)))
                begin = 1
            else:
                state = state_at(table, after)
                begin = after
            for entry in entries[begin:stop]:
                state = apply_entry(state, entry)
                items.append(WatchItem(_seen(entry, viewer), table_view(state, principal)))
        return WatchBatch(tuple(items), head, head_state.over)

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
        header = {
            "format": "trapoula-record",
            "version": 1,
            "table_id": state.table_id,
            "game": state.game,
            "hands": state.record_hands,
            "events": len(entries),
        }
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

        Raises:
            InvalidInput: a bad page token (``bad_page_token``) or page size.
        """
        if isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 0:
            raise InvalidInput(f"page_size {page_size!r}: expected an integer >= 0", reason="bad_page_size")
        size = min(page_size or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
        before: int | None = None
        if page_token:
            try:
                before = int(page_token)
            except ValueError:
                raise InvalidInput(f"page_token {page_token!r} is not one this server gave", "bad_page_token") from None
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
                TableSummary(tid, state.game, len(state.seats), state.free_seats, state.status, state.version)
            )
        next_token = str(page[-1][0]) if len(rows) > size else ""
        return summaries, next_token

    @staticmethod
    def list_games() -> list[GameInfo]:
        """The games this server plays."""
        return [
            GameInfo(s.key, s.title, s.summary, s.min_players, s.max_players, dict(s.option_defaults()))
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
