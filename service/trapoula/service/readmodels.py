"""Read models: the lobby, match history and standings, as SQL tables (DESIGN, Layers: service).

The event log is the only source of truth; these tables (:mod:`trapoula.service.readtables`) are
derived from it by the projection (:mod:`trapoula.service.projection`); their rows can be deleted
and rebuilt from it at any time (docs/read-models.md).  They live in the event store's database
(and PostgreSQL schema), beside ``trapoula_events``, and are created and changed by the Alembic
migrations of :mod:`trapoula.service.migrations`.

:class:`ReadModels` opens the tables through an engine of its own (:func:`make_engine`) and answers
the queries behind ``ListLobby``, ``ListMatches`` and ``GetStandings``: plain frozen dataclasses
out (:mod:`trapoula.service.readresults`), no wire types; bad filters and page tokens raise
:class:`~trapoula.domain.errors.InvalidInput` with a reason (:mod:`trapoula.service.readpages`).
Every time is UTC; every list is paged by a key (never an offset), so a page never repeats or
skips a row that was already there when the first page was read.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from typing import Any

import sqlalchemy
from sqlalchemy import and_, event, or_, select
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.pool import StaticPool

from trapoula.service.application import store_url
from trapoula.service.readpages import (
    encode_standings_token,
    filter_text,
    page_size_of,
    parse_time,
    seq_token,
    standings_token,
)
from trapoula.service.readresults import LobbyTable, MatchPlayer, MatchSummary, SeatedPlayer, Standing
from trapoula.service.readtables import PROJECTION_NAME, Base, LobbyRow, MatchRow, PlayerRow, PositionRow, StandingRow

SQLITE_BUSY_SECONDS = 30.0
"""How long a SQLite connection of the read models waits for the database's write lock."""


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
                _wal(dbapi_connection)

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


def _wal(dbapi_connection: Any) -> None:
    """``PRAGMA journal_mode=WAL`` on a new SQLite connection.  SQLite refuses it at once, without
    its busy timeout ("database is locked"), while another connection of the same new file is
    switching it too (replicas, or a server's threads, opening the file together): tried again
    every 10 ms for up to :data:`SQLITE_BUSY_SECONDS`.

    Raises:
        sqlite3.OperationalError: still locked after that, or another failure.
    """
    deadline = time.monotonic() + SQLITE_BUSY_SECONDS
    while True:
        try:
            dbapi_connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(0.01)


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
        game = filter_text(game, "game", "unknown_game")
        size = page_size_of(page_size)
        stmt = select(*columns(LobbyRow)).where(LobbyRow.open_places > 0, LobbyRow.private.is_(False))
        if game:
            stmt = stmt.where(LobbyRow.game == game)
        rows, players, token = self._newest_first(stmt, LobbyRow.created_seq, page_token, size)
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
            for r in rows
        ]
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
        player_id: str = "",
    ) -> tuple[list[MatchSummary], str]:
        """Finished matches, newest first (in the order they ended in the log); returns
        ``(matches, next_page_token)`` (``""`` after the last page).

        Filters: ``player`` an exact display name (person or bot) among the match's players;
        ``player_id`` a verified player's id among them (docs/identity.md);
        ``game`` a game key; ``finished_after`` (inclusive) and ``finished_before`` (exclusive)
        times as :func:`~trapoula.service.readpages.parse_time` reads them.

        Raises:
            InvalidInput: a bad filter (``bad_player``, ``unknown_game``, ``bad_time``), page
                size (``bad_page_size``) or page token (``bad_page_token``).
        """
        player = filter_text(player, "player", "bad_player")
        player_id = filter_text(player_id, "player_id", "bad_player")
        game = filter_text(game, "game", "unknown_game")
        after = parse_time(finished_after, "finished_after")
        before_time = parse_time(finished_before, "finished_before")
        size = page_size_of(page_size)
        stmt = select(*columns(MatchRow))
        if game:
            stmt = stmt.where(MatchRow.game == game)
        if after is not None:
            stmt = stmt.where(MatchRow.finished_at >= after)
        if before_time is not None:
            stmt = stmt.where(MatchRow.finished_at < before_time)
        if player:  # IN, not a correlated EXISTS, which SQLite runs as a search of the name per match
            stmt = stmt.where(MatchRow.table_id.in_(select(PlayerRow.table_id).where(PlayerRow.name == player)))
        if player_id:
            stmt = stmt.where(MatchRow.table_id.in_(select(PlayerRow.table_id).where(PlayerRow.player_id == player_id)))
        rows, players, token = self._newest_first(stmt, MatchRow.ended_seq, page_token, size)
        return [_summary(r, players[r.table_id]) for r in rows], token

    def _newest_first(
        self, stmt: sqlalchemy.Select[Any], seq: Any, page_token: str, size: int
    ) -> tuple[list[Row[Any]], dict[str, list[Row[Any]]], str]:
        """One page of ``stmt``'s rows, newest first by the log position ``seq`` (a column of the
        rows), before the position ``page_token`` names: ``(rows, the player rows of their tables
        by table, next_page_token)`` (``""`` after the last page).

        Raises:
            InvalidInput: a bad page token (``bad_page_token``).
        """
        before = seq_token(page_token)
        if before is not None:
            stmt = stmt.where(seq < before)
        stmt = stmt.order_by(seq.desc()).limit(size + 1)
        with self._read() as conn:
            rows = list(conn.execute(stmt))
            players = _players_of(conn, [r.table_id for r in rows[:size]])
        token = str(getattr(rows[size - 1], seq.key)) if len(rows) > size else ""
        return rows[:size], players, token

    # ----------------------------------------------------------------------- standings

    def standings(
        self, game: str = "", player: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[Standing], str]:
        """Players' results per game, most wins first (then fewest matches played, then game,
        name, player and bot level); returns ``(standings, next_page_token)`` (``""`` after the last
        page).  A verified player (docs/identity.md) has one row per game and bot level whatever
        names its tokens gave (the latest shown); ``player`` filters by display name.

        Raises:
            InvalidInput: a bad filter (``unknown_game``, ``bad_player``), page size
                (``bad_page_size``) or page token (``bad_page_token``).
        """
        game = filter_text(game, "game", "unknown_game")
        player = filter_text(player, "player", "bad_player")
        size = page_size_of(page_size)
        last = standings_token(page_token)
        s = StandingRow
        stmt = select(*columns(s))
        if game:
            stmt = stmt.where(s.game == game)
        if player:
            stmt = stmt.where(s.name == player)
        if last is not None:
            won, played, g, name, key, bot = last
            same = and_(s.won == won, s.played == played, s.game == g)
            stmt = stmt.where(
                or_(
                    s.won < won,
                    and_(s.won == won, s.played > played),
                    and_(s.won == won, s.played == played, s.game > g),
                    and_(same, s.name > name),
                    and_(same, s.name == name, s.player > key),
                    and_(same, s.name == name, s.player == key, s.bot > bot),
                )
            )
        stmt = stmt.order_by(s.won.desc(), s.played, s.game, s.name, s.player, s.bot).limit(size + 1)
        with self._read() as conn:
            rows = [Standing(**r._mapping) for r in conn.execute(stmt)]
        token = encode_standings_token(rows[size - 1]) if len(rows) > size else ""
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
            MatchPlayer(p.seat, p.name, p.bot, p.total, p.won, p.left_version is not None, p.team, p.player_id)
            for p in players
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
