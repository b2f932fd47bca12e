"""Read models: the lobby, match history and standings, as SQL tables (DESIGN, Layers: service).

The event log is the only source of truth; these tables are derived from it by the projection
(:mod:`trapoula.service.projection`); their rows can be deleted and rebuilt from it at any
time (docs/read-models.md).  They live in the event store's database (and PostgreSQL schema), beside
``trapoula_events``, and are created and changed by the Alembic migrations of
:mod:`trapoula.service.migrations`.

| table | one row per | key |
|---|---|---|
| ``trapoula_lobby`` | table (any status) | ``table_id`` |
| ``trapoula_players`` | seat taken (``SeatTaken``) | ``table_id``, ``joined`` (its version) |
| ``trapoula_matches`` | finished match (``MatchEnded``) | ``table_id`` |
| ``trapoula_standings`` | player and game | ``game``, ``name``, ``bot`` |
| ``trapoula_projection`` | projection | ``name``; ``position``: the last notification applied |

:class:`ReadModels` opens the tables through an engine of its own and answers the queries behind
``ListLobby``, ``ListMatches`` and ``GetStandings``: plain frozen dataclasses out, no wire types;
bad filters and page tokens raise :class:`~trapoula.domain.errors.InvalidInput` with a reason.
Every time is UTC; every list is paged by a key (never an offset), so a page never repeats or
skips a row that was already there when the first page was read.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

import sqlalchemy
from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    and_,
    event,
    or_,
    select,
)
from sqlalchemy.engine import Connection, Dialect, Engine, Row
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool
from sqlalchemy.types import TypeDecorator

from trapoula.domain.errors import InvalidInput
from trapoula.domain.registry import GAMES
from trapoula.service.application import store_url
from trapoula.service.errors import clip

DEFAULT_PAGE_SIZE = 50
"""Rows in a page when the request says 0."""
MAX_PAGE_SIZE = 500
"""Most rows in one page (a larger ``page_size`` is cut to this)."""
MAX_FILTER = 64
"""Longest player name or game key accepted in a filter (names have at most 64 characters)."""
MAX_PAGE_TOKEN = 1200
"""Longest page token accepted (a standings token of three 64-character texts of 4-byte UTF-8
characters has about 1,070)."""
MAX_POSITION = 2**63 - 1
"""Largest notification id a lobby or history page token may name (a 64-bit signed integer)."""
MAX_TIME_TEXT = 40
"""Longest time filter accepted (RFC 3339 with nanoseconds and an offset has 35 characters)."""
SQLITE_BUSY_SECONDS = 30.0
"""How long a SQLite connection of the read models waits for the database's write lock."""
PROJECTION_NAME = "tables"
"""The ``trapoula_projection`` row of the projection of the ``Tables`` log."""
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

_UNIX_SECONDS = re.compile(r"-?[0-9]{1,12}(\.[0-9]{1,9})?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""Control characters: no name or game key holds one (and PostgreSQL text cannot hold NUL)."""


# --------------------------------------------------------------------------- the models


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC ``datetime``: ``timestamp with time zone`` on PostgreSQL, the naive UTC
    text of SQLAlchemy's ``DATETIME`` on SQLite (which sorts and compares as time does).  Values
    read back are always aware, in UTC.

    Raises (when bound):
        ValueError: a naive ``datetime``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """UTC, aware for PostgreSQL, naive for SQLite."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: the read models keep UTC times only")
        value = value.astimezone(UTC)
        return value if dialect.name == "postgresql" else value.replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Aware UTC."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint and index names (stable, so migrations and models compare equal)."""


class Base(DeclarativeBase):
    """The declarative base of the read models (their own ``MetaData``, not the event store's)."""

    metadata = MetaData(naming_convention=NAMING)


class LobbyRow(Base):
    """One table as the lobby sees it (``TableCreated``, seats, status; ``trapoula_lobby``)."""

    __tablename__ = "trapoula_lobby"

    table_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    created_seq: Mapped[int] = mapped_column(BigInteger, unique=True)
    """The notification id of ``TableCreated``: the lobby's order, newest first."""
    game: Mapped[str] = mapped_column(String(32), index=True)
    seats: Mapped[int] = mapped_column(Integer)
    """Seat numbers 0..seats-1 (grows when a newcomer takes a new seat, ``mau_mau`` R6.9.2)."""
    options: Mapped[str] = mapped_column(Text)
    """The options as given at creation, JSON with sorted keys."""
    manual_deal: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(8))
    """``open`` (seats free), ``ready``, ``playing`` or ``over`` (as ``TableState.status``)."""
    free_seats: Mapped[str] = mapped_column(Text)
    """The seats nobody holds, JSON list (``[1, 3]``)."""
    open_places: Mapped[int] = mapped_column(Integer, index=True)
    """Players who may join now: the free seats before the start; in a game with seat changes
    (``mau_mau`` R6.9) while it is played, the places left up to its most players; else 0."""
    seated: Mapped[int] = mapped_column(Integer)
    waiting: Mapped[int] = mapped_column(Integer)
    """Newcomers queued until the hand in progress ends (``JoinQueued``, R6.9)."""
    hands: Mapped[int] = mapped_column(Integer)
    """Hands finished (``SeedRevealed`` / ``ShuffleRevealed``)."""
    record_cut: Mapped[int] = mapped_column(Integer)
    """The version of the last event a record may hold (``TableState.record_cut``)."""
    record_hands: Mapped[int] = mapped_column(Integer)
    """Finished hands up to ``record_cut``."""
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    """The time of the match's first game event; None before the start."""


class PlayerRow(Base):
    """Somebody who took a seat at a table (``SeatTaken``; ``trapoula_players``)."""

    __tablename__ = "trapoula_players"

    table_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    joined: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The version of the ``SeatTaken``."""
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64), index=True)
    bot: Mapped[str] = mapped_column(String(32))
    """The bot's level; ``""`` for a person."""
    left_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The version at which the seat was freed (``PlayerLeft``, ``PlayerEliminated``, ``mau_mau``
    R6.6, R6.10); None while the player holds it."""
    team: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The player's team in a game that scores by team (``vida`` R2.3), else None."""
    total: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The seat's total in ``MatchEnded`` (for the seat's last occupant in a game without teams)."""
    won: Mapped[bool] = mapped_column(Boolean)
    """True when the match ended with the player's seat among the winners."""


class MatchRow(Base):
    """A finished match (``MatchEnded``; ``trapoula_matches``); its players are its tables's
    :class:`PlayerRow` rows."""

    __tablename__ = "trapoula_matches"

    table_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    ended_seq: Mapped[int] = mapped_column(BigInteger, unique=True)
    """The notification id of ``MatchEnded``: the history's order, newest first."""
    game: Mapped[str] = mapped_column(String(32), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    finished_at: Mapped[datetime] = mapped_column(UtcDateTime, index=True)
    version: Mapped[int] = mapped_column(Integer)
    """The table's version at ``MatchEnded``."""
    hands: Mapped[int] = mapped_column(Integer)
    record_hands: Mapped[int] = mapped_column(Integer)
    """Finished hands in the table's record (``GetRecord``); 0: no record to fetch."""
    record_complete: Mapped[bool] = mapped_column(Boolean)
    """True when the record reaches ``MatchEnded`` (the whole match)."""
    winner_seats: Mapped[str] = mapped_column(Text)
    """JSON list: one seat, the seats of the winning team (``vida``), or none (a tie)."""
    winner_team: Mapped[int | None] = mapped_column(Integer, nullable=True)
    team_totals: Mapped[str | None] = mapped_column(Text, nullable=True)
    """JSON list of games won per team (``vida``'s ``games_won``), else None."""
    result: Mapped[str] = mapped_column(Text)
    """The ``MatchEnded`` payload, JSON with sorted keys."""


class StandingRow(Base):
    """A player's results in one game (``trapoula_standings``).

    A player is a display name with a bot level (``""`` for a person): names are not accounts,
    so two people who chose the same name share a row.
    """

    __tablename__ = "trapoula_standings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    bot: Mapped[str] = mapped_column(String(32), primary_key=True)
    played: Mapped[int] = mapped_column(Integer)
    """Finished matches the player sat in (also when the player left or was eliminated)."""
    won: Mapped[int] = mapped_column(Integer)
    last_finished_at: Mapped[datetime] = mapped_column(UtcDateTime)
    """When the player's latest match (in log order) finished."""

    __table_args__ = (Index("ix_trapoula_standings_rank", "won", "played"),)


class PositionRow(Base):
    """Where a projection stands in the event log (``trapoula_projection``)."""

    __tablename__ = "trapoula_projection"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    position: Mapped[int] = mapped_column(BigInteger)
    """The notification id of the last stored event applied (0: none)."""


READ_MODELS: tuple[type[Base], ...] = (LobbyRow, PlayerRow, MatchRow, StandingRow)
"""The tables a rebuild empties (not the projection's position, which it resets)."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player holding a seat of a lobby table."""

    seat: int
    name: str
    bot: str
    """The bot's level; ``""`` for a person."""


@dataclass(frozen=True, slots=True)
class LobbyTable:
    """One line of the lobby (a table players may join)."""

    table_id: str
    game: str
    seats: int
    free_seats: tuple[int, ...]
    open_places: int
    status: str
    """``open`` before the start; ``playing`` for a game with seat changes under way."""
    options: dict[str, Any]
    manual_deal: bool
    players: tuple[SeatedPlayer, ...]
    waiting: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """A player of a finished match."""

    seat: int
    name: str
    bot: str
    total: int | None
    """The seat's total at the end; None in a game with teams or for a seat taken over later."""
    won: bool
    left: bool
    """True when the player left or was eliminated before the end (``mau_mau`` R6.6, R6.10)."""
    team: int | None


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One finished match of the history."""

    table_id: str
    game: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime
    players: tuple[MatchPlayer, ...]
    """In the order they took their seats."""
    winner_seats: tuple[int, ...]
    winner_team: int | None
    team_totals: tuple[int, ...]
    result: dict[str, Any]
    """The game's ``MatchEnded`` payload."""
    hands: int
    record_hands: int
    record_complete: bool
    version: int

    @property
    def record_available(self) -> bool:
        """True when ``GetRecord`` returns a record of this match (one finished hand or more)."""
        return self.record_hands > 0


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's results in one game."""

    game: str
    name: str
    bot: str
    played: int
    won: int
    last_finished_at: datetime


# --------------------------------------------------------------------------- input checks


def page_size_of(page_size: Any) -> int:
    """The number of rows of a page: 0 gives :data:`DEFAULT_PAGE_SIZE`, more than
    :data:`MAX_PAGE_SIZE` gives that.

    Raises:
        InvalidInput: not an integer >= 0 (``bad_page_size``).
    """
    if isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 0:
        raise InvalidInput(f"page_size {clip(page_size)!r}: expected an integer >= 0", reason="bad_page_size")
    return min(page_size or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)


def _filter_text(value: Any, what: str, reason: str) -> str:
    """A name or game filter: text of at most :data:`MAX_FILTER` characters, no control character.

    Raises:
        InvalidInput: anything else (``reason``).
    """
    if not isinstance(value, str) or len(value) > MAX_FILTER or _CONTROL.search(value):
        raise InvalidInput(
            f"{what} {clip(value)!r}: expected text of at most {MAX_FILTER} characters without control characters",
            reason=reason,
        )
    if what == "game" and value and value not in GAMES:
        raise InvalidInput(f"game {clip(value)!r} is not one this server plays: {', '.join(GAMES)}", reason=reason)
    if what == "player" and value and not value.strip():
        raise InvalidInput(f"player {clip(value)!r}: a name cannot be only spaces", reason=reason)
    return value.strip() if what == "player" else value


def _seq_token(token: Any) -> int | None:
    """The notification id a lobby or history page token names (None for ``""``).

    Raises:
        InvalidInput: not a token this server gave (``bad_page_token``).
    """
    if token == "":
        return None
    if not (
        isinstance(token, str)
        and 0 < len(token) <= 20
        and token.isascii()
        and token.isdigit()
        and int(token) <= MAX_POSITION
    ):
        raise InvalidInput(f"page_token {clip(token)!r} is not one this server gave", reason="bad_page_token")
    return int(token)


def _standings_token(token: Any) -> tuple[int, int, str, str, str] | None:
    """The last row of the previous standings page, ``(won, played, game, name, bot)``.

    Raises:
        InvalidInput: not a token this server gave (``bad_page_token``).
    """
    if token == "":
        return None
    bad = InvalidInput(f"page_token {clip(token)!r} is not one this server gave", reason="bad_page_token")
    if not isinstance(token, str) or len(token) > MAX_PAGE_TOKEN or not token.isascii():
        raise bad
    try:
        raw = json.loads(base64.urlsafe_b64decode(token.encode("ascii") + b"=" * (-len(token) % 4)))
    except (ValueError, binascii.Error, UnicodeDecodeError, RecursionError):
        raise bad from None
    if not (isinstance(raw, list) and len(raw) == 5):
        raise bad
    won, played, game, name, bot = raw
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**31 for v in (won, played)):
        raise bad
    if not all(isinstance(v, str) and len(v) <= MAX_FILTER and not _CONTROL.search(v) for v in (game, name, bot)):
        raise bad
    return won, played, game, name, bot


def _encode_standings_token(row: Standing) -> str:
    raw = json.dumps([row.won, row.played, row.game, row.name, row.bot], ensure_ascii=False, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode("utf-8")).decode("ascii").rstrip("=")


def parse_time(text: Any, what: str) -> datetime | None:
    """A time filter: ``""`` (no bound), unix seconds (``1746100800``, ``1746100800.25``) or an
    RFC 3339 date-time with an offset (``2025-05-01T12:00:00Z``, ``...+03:00``); returned in UTC.

    >>> parse_time("1746100800", "finished_after").isoformat()
    '2025-05-01T12:00:00+00:00'
    >>> parse_time("2025-05-01T15:00:00+03:00", "finished_after").isoformat()
    '2025-05-01T12:00:00+00:00'

    Raises:
        InvalidInput: anything else, a time without an offset, or one outside years 1-9999
            (``bad_time``).
    """
    if text == "":
        return None
    if not isinstance(text, str) or len(text) > MAX_TIME_TEXT:
        raise InvalidInput(f"{what} {clip(text)!r}: expected RFC 3339 or unix seconds", reason="bad_time")
    value = text.strip()
    try:
        if _UNIX_SECONDS.fullmatch(value):
            micros = int(Decimal(value) * 1_000_000)
            return EPOCH + timedelta(microseconds=micros)
        when = datetime.fromisoformat(value)
    except (ValueError, OverflowError, InvalidOperation):
        raise InvalidInput(
            f"{what} {clip(text)!r}: expected an RFC 3339 date-time with an offset "
            "(2025-05-01T12:00:00Z) or unix seconds",
            reason="bad_time",
        ) from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise InvalidInput(f"{what} {clip(text)!r} has no UTC offset: add Z or +HH:MM (RFC 3339)", reason="bad_time")
    try:
        return when.astimezone(UTC)
    except OverflowError:
        raise InvalidInput(f"{what} {clip(text)!r} is out of range", reason="bad_time") from None


def rfc3339(when: datetime | None) -> str:
    """``when`` as RFC 3339 in UTC with microseconds (``2025-05-01T12:00:00.000000Z``); ``""`` for None.

    >>> rfc3339(datetime(2025, 5, 1, 12, tzinfo=UTC))
    '2025-05-01T12:00:00.000000Z'
    """
    if when is None:
        return ""
    return when.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


# --------------------------------------------------------------------------- engines


def _quote(schema: str) -> str:
    return '"' + schema.replace('"', '""') + '"'


def make_engine(database_url: str, schema: str | None = None, *, immediate: bool = False) -> Engine:
    """An engine on the event store's database for the read models.

    PostgreSQL: the store's connection settings (:func:`~trapoula.service.application.store_url`)
    and, with ``schema``, ``search_path`` set to it on every connection (committed at once, so a
    rollback keeps it), so that unqualified names are the schema's.  SQLite file: a busy timeout
    of :data:`SQLITE_BUSY_SECONDS` s, write-ahead logging (the event store uses it too), and
    transactions begun by an explicit ``BEGIN`` (``BEGIN IMMEDIATE`` with ``immediate``: the
    write lock is taken at the start, so a transaction that read first never fails to write
    later); SQLite in memory: one shared connection (a database of its own, not the store's).

    Raises:
        sqlalchemy.exc.ArgumentError: ``database_url`` is not a database URL.
    """
    url = sqlalchemy.engine.make_url(store_url(database_url))
    if url.drivername.startswith("sqlite"):
        memory = url.database in (None, "", ":memory:") or "mode=memory" in str(url)
        if memory:
            engine = sqlalchemy.create_engine(
                "sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool
            )
        else:
            engine = sqlalchemy.create_engine(
                url, connect_args={"timeout": SQLITE_BUSY_SECONDS, "check_same_thread": False}
            )
        begin = "BEGIN IMMEDIATE" if immediate and not memory else "BEGIN"

        @event.listens_for(engine, "connect")
        def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # SQLAlchemy's begin event says when
            if not memory:
                dbapi_connection.execute("PRAGMA journal_mode=WAL")

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection: Connection) -> None:
            connection.exec_driver_sql(begin)

        return engine
    engine = sqlalchemy.create_engine(url, pool_pre_ping=True)
    if schema and engine.dialect.name == "postgresql":
        path = _quote(schema)

        @event.listens_for(engine, "connect", insert=True)
        def _search_path(dbapi_connection: Any, _record: Any) -> None:
            with dbapi_connection.cursor() as cursor:
                cursor.execute(f"SET search_path TO {path}")
            dbapi_connection.commit()

    return engine


# --------------------------------------------------------------------------- queries


def columns(model: type[Base]) -> list[sqlalchemy.ColumnElement[Any]]:
    """Every column of a model's table, in order (to select plain rows, not ORM objects)."""
    return list(model.__table__.c)


def _players_of(conn: Connection, table_ids: Sequence[str]) -> dict[str, list[Row[Any]]]:
    """The player rows of ``table_ids``, in the order they took their seats, by table."""
    out: dict[str, list[Row[Any]]] = {tid: [] for tid in table_ids}
    if not table_ids:
        return out
    stmt = (
        select(*columns(PlayerRow))
        .where(PlayerRow.table_id.in_(table_ids))
        .order_by(PlayerRow.table_id, PlayerRow.joined)
    )
    for row in conn.execute(stmt):
        out[row.table_id].append(row)
    return out


class ReadModels:
    """The read-model tables of one database: queries, migrations, and the engines the projection
    writes with.

    Args:
        database_url: the event store's SQLAlchemy URL (the read models live beside the events;
            ``sqlite:///:memory:`` gets an in-memory database of its own).
        schema: the PostgreSQL schema of the event store (None: the default one).

    Raises:
        sqlalchemy.exc.ArgumentError: ``database_url`` is not a database URL.
    """

    def __init__(self, database_url: str, schema: str | None = None) -> None:
        self.database_url = database_url
        self.schema = schema
        self.engine: Engine = make_engine(database_url, schema)
        """For reads (and PostgreSQL writes)."""
        memory = self.engine.pool.__class__ is StaticPool
        self.write_engine: Engine = self.engine if memory else make_engine(database_url, schema, immediate=True)
        """For the projection's writes (SQLite: ``BEGIN IMMEDIATE``)."""
        self.serial: threading.Lock | None = threading.Lock() if memory else None
        """Held around every use of an in-memory database's one connection (None otherwise)."""

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return str(self.engine.dialect.name)

    def migrate(self) -> str:
        """Bring the tables to the newest migration (:func:`trapoula.service.migrations.upgrade`);
        returns its revision.

        Raises:
            Exception: what the database raises (unreachable, no rights to create tables ...).
        """
        from trapoula.service.migrations import upgrade  # alembic is loaded only to migrate

        if self.serial is not None:
            with self.serial:
                return upgrade(self.write_engine, self.schema)
        return upgrade(self.write_engine, self.schema)

    def close(self) -> None:
        """Close the engines' connections."""
        self.engine.dispose()
        if self.write_engine is not self.engine:
            self.write_engine.dispose()

    def _read(self) -> Any:
        """A connection in a transaction for a consistent multi-query read (context manager)."""
        return _Reading(self)

    # ----------------------------------------------------------------------- position

    def position(self) -> int:
        """The notification id of the last stored event the projection applied (0: none)."""
        with self._read() as conn:
            found = conn.execute(select(PositionRow.position).where(PositionRow.name == PROJECTION_NAME)).scalar()
        return int(found or 0)

    # ----------------------------------------------------------------------- the lobby

    def lobby(self, game: str = "", page_size: int = 0, page_token: str = "") -> tuple[list[LobbyTable], str]:
        """Tables players may join now (``open_places`` > 0), newest first, optionally of one
        game; returns ``(tables, next_page_token)`` (``""`` after the last page).

        Raises:
            InvalidInput: a game this server does not play (``unknown_game``), a bad page size
                (``bad_page_size``) or page token (``bad_page_token``).
        """
        game = _filter_text(game, "game", "unknown_game")
        size = page_size_of(page_size)
        before = _seq_token(page_token)
        stmt = select(*columns(LobbyRow)).where(LobbyRow.open_places > 0)
        if game:
            stmt = stmt.where(LobbyRow.game == game)
        if before is not None:
            stmt = stmt.where(LobbyRow.created_seq < before)
        stmt = stmt.order_by(LobbyRow.created_seq.desc()).limit(size + 1)
        with self._read() as conn:
            rows = list(conn.execute(stmt))
            players = _players_of(conn, [r.table_id for r in rows[:size]])
        out = [
            LobbyTable(
                table_id=r.table_id,
                game=r.game,
                seats=r.seats,
                free_seats=tuple(json.loads(r.free_seats)),
                open_places=r.open_places,
                status=r.status,
                options=json.loads(r.options),
                manual_deal=r.manual_deal,
                players=tuple(
                    SeatedPlayer(p.seat, p.name, p.bot)
                    for p in sorted(players[r.table_id], key=lambda p: p.seat)
                    if p.left_version is None
                ),
                waiting=r.waiting,
                created_at=r.created_at,
            )
            for r in rows[:size]
        ]
        token = str(rows[size - 1].created_seq) if len(rows) > size else ""
        return out, token

    # ----------------------------------------------------------------------- match history

    def matches(
        self,
        player: str = "",
        game: str = "",
        finished_after: str = "",
        finished_before: str = "",
        page_size: int = 0,
        page_token: str = "",
    ) -> tuple[list[MatchSummary], str]:
        """Finished matches, newest first (in the order they ended in the log); returns
        ``(matches, next_page_token)`` (``""`` after the last page).

        Filters: ``player`` an exact display name (person or bot) among the match's players;
        ``game`` a game key; ``finished_after`` (inclusive) and ``finished_before`` (exclusive)
        times as :func:`parse_time` reads them.

        Raises:
            InvalidInput: a bad filter (``bad_player``, ``unknown_game``, ``bad_time``), page
                size (``bad_page_size``) or page token (``bad_page_token``).
        """
        player = _filter_text(player, "player", "bad_player")
        game = _filter_text(game, "game", "unknown_game")
        after = parse_time(finished_after, "finished_after")
        before_time = parse_time(finished_before, "finished_before")
        size = page_size_of(page_size)
        before = _seq_token(page_token)
        stmt = select(*columns(MatchRow))
        if game:
            stmt = stmt.where(MatchRow.game == game)
        if after is not None:
            stmt = stmt.where(MatchRow.finished_at >= after)
        if before_time is not None:
            stmt = stmt.where(MatchRow.finished_at < before_time)
        if player:  # IN, not a correlated EXISTS, which SQLite runs as a search of the name per match
            stmt = stmt.where(MatchRow.table_id.in_(select(PlayerRow.table_id).where(PlayerRow.name == player)))
        if before is not None:
            stmt = stmt.where(MatchRow.ended_seq < before)
        stmt = stmt.order_by(MatchRow.ended_seq.desc()).limit(size + 1)
        with self._read() as conn:
            rows = list(conn.execute(stmt))
            players = _players_of(conn, [r.table_id for r in rows[:size]])
        out = [_summary(r, players[r.table_id]) for r in rows[:size]]
        token = str(rows[size - 1].ended_seq) if len(rows) > size else ""
        return out, token

    # ----------------------------------------------------------------------- standings

    def standings(
        self, game: str = "", player: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[Standing], str]:
        """Players' results per game, most wins first (then fewest matches played, then game,
        name and bot level); returns ``(standings, next_page_token)`` (``""`` after the last page).

        Raises:
            InvalidInput: a bad filter (``unknown_game``, ``bad_player``), page size
                (``bad_page_size``) or page token (``bad_page_token``).
        """
        game = _filter_text(game, "game", "unknown_game")
        player = _filter_text(player, "player", "bad_player")
        size = page_size_of(page_size)
        last = _standings_token(page_token)
        s = StandingRow
        stmt = select(*columns(s))
        if game:
            stmt = stmt.where(s.game == game)
        if player:
            stmt = stmt.where(s.name == player)
        if last is not None:
            won, played, g, name, bot = last
            stmt = stmt.where(
                or_(
                    s.won < won,
                    and_(s.won == won, s.played > played),
                    and_(s.won == won, s.played == played, s.game > g),
                    and_(s.won == won, s.played == played, s.game == g, s.name > name),
                    and_(s.won == won, s.played == played, s.game == g, s.name == name, s.bot > bot),
                )
            )
        stmt = stmt.order_by(s.won.desc(), s.played, s.game, s.name, s.bot).limit(size + 1)
        with self._read() as conn:
            rows = [Standing(**r._mapping) for r in conn.execute(stmt)]
        token = _encode_standings_token(rows[size - 1]) if len(rows) > size else ""
        return rows[:size], token


class _Reading:
    """``with`` block: a connection of :attr:`ReadModels.engine` in a transaction (rolled back at the
    end: reads only), serialised for an in-memory database."""

    def __init__(self, models: ReadModels) -> None:
        self._models = models
        self._conn: Connection | None = None

    def __enter__(self) -> Connection:
        if self._models.serial is not None:
            self._models.serial.acquire()
        try:
            self._conn = self._models.engine.connect()
            self._conn.begin()
        except BaseException:
            if self._models.serial is not None:
                self._models.serial.release()
            raise
        return self._conn

    def __exit__(self, *exc: object) -> None:
        try:
            if self._conn is not None:
                self._conn.close()  # rolls the read-only transaction back
        finally:
            if self._models.serial is not None:
                self._models.serial.release()


def _summary(row: Row[Any], players: Sequence[Row[Any]]) -> MatchSummary:
    return MatchSummary(
        table_id=row.table_id,
        game=row.game,
        created_at=row.created_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        players=tuple(
            MatchPlayer(p.seat, p.name, p.bot, p.total, p.won, p.left_version is not None, p.team) for p in players
        ),
        winner_seats=tuple(json.loads(row.winner_seats)),
        winner_team=row.winner_team,
        team_totals=tuple(json.loads(row.team_totals)) if row.team_totals else (),
        result=json.loads(row.result),
        hands=row.hands,
        record_hands=row.record_hands,
        record_complete=row.record_complete,
        version=row.version,
    )
