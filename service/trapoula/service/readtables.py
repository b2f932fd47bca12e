"""The read models' SQL tables: the lobby, match history, standings and the projection's position,
as SQLAlchemy 2.0 typed models (each column documented here; docs/read-models.md).

| table | one row per | key |
|---|---|---|
| ``trapoula_lobby`` | table (any status) | ``table_id`` |
| ``trapoula_players`` | seat taken (``SeatTaken``) | ``table_id``, ``joined`` (its version) |
| ``trapoula_matches`` | finished match (``match_ended``) | ``table_id`` |
| ``trapoula_standings`` | player and game | ``game``, ``player``, ``bot`` |
| ``trapoula_projection`` | projection | ``name``; ``position``: the last notification applied |

They live in the event store's database (and PostgreSQL schema), beside ``trapoula_events``, and
are created and changed by the Alembic migrations of :mod:`trapoula.service.migrations`, which
compare them with :class:`Base`'s metadata.  Every time is UTC (:class:`UtcDateTime`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, Boolean, DateTime, Index, Integer, MetaData, String, Text, false
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

PROJECTION_NAME = "tables"
"""The ``trapoula_projection`` row of the projection of the ``Tables`` log."""


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
    """Seat numbers 0..seats-1 (grows when a newcomer takes a new seat, ``GameSpec.seat_changes``)."""
    options: Mapped[str] = mapped_column(Text)
    """The options as given at creation, JSON with sorted keys."""
    manual_deal: Mapped[bool] = mapped_column(Boolean)
    private: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """A private table (``TableCreated.private``): never in the lobby."""
    status: Mapped[str] = mapped_column(String(8))
    """``open`` (seats free), ``ready``, ``playing`` or ``over`` (as ``TableState.status``)."""
    free_seats: Mapped[str] = mapped_column(Text)
    """The seats nobody holds, JSON list (``[1, 3]``)."""
    open_places: Mapped[int] = mapped_column(Integer, index=True)
    """Players who may join now: the free seats before the start; in a game with seat changes
    (``GameSpec.seat_changes``) while it is played, the places left up to its most players; else 0."""
    seated: Mapped[int] = mapped_column(Integer)
    waiting: Mapped[int] = mapped_column(Integer)
    """Newcomers queued until the hand in progress ends (``JoinQueued``, R6.9)."""
    hands: Mapped[int] = mapped_column(Integer)
    """Hands finished (events of role ``hand_revealed``)."""
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
    player_id: Mapped[str | None] = mapped_column(String(128), nullable=True, index=True)
    """The verified player's id (``SeatTaken.player_id``, docs/identity.md); None: a name only."""
    left_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The version at which the seat was freed (the game's ``seat_vacated`` event, ``GameSpec.seat_changes``
    R6.6, R6.10); None while the player holds it."""
    team: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The player's team in a game that scores by team (``GameSpec.teams``), else None."""
    total: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The seat's total in the match's result (``MatchResult.totals``), for the seat's last occupant in a
    game without teams."""
    won: Mapped[bool] = mapped_column(Boolean)
    """True when the match ended with the player's seat among the winners."""


class MatchRow(Base):
    """A finished match (role ``match_ended``; ``trapoula_matches``); its players are its tables's
    :class:`PlayerRow` rows."""

    __tablename__ = "trapoula_matches"

    table_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    ended_seq: Mapped[int] = mapped_column(BigInteger, unique=True)
    """The notification id of the match's ``match_ended`` event: the history's order, newest first."""
    game: Mapped[str] = mapped_column(String(32), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    finished_at: Mapped[datetime] = mapped_column(UtcDateTime, index=True)
    version: Mapped[int] = mapped_column(Integer)
    """The table's version at the match's end."""
    hands: Mapped[int] = mapped_column(Integer)
    record_hands: Mapped[int] = mapped_column(Integer)
    """Finished hands in the table's record (``GetRecord``); 0: no record to fetch."""
    record_complete: Mapped[bool] = mapped_column(Boolean)
    """True when the record reaches the match's end (the whole match)."""
    winner_seats: Mapped[str] = mapped_column(Text)
    """JSON list: one seat, the seats of the winning team (``GameSpec.teams``), or none (a tie)."""
    winner_team: Mapped[int | None] = mapped_column(Integer, nullable=True)
    team_totals: Mapped[str | None] = mapped_column(Text, nullable=True)
    """JSON list of each team's score (``MatchResult.team_scores``), else None."""
    result: Mapped[str] = mapped_column(Text)
    """The payload of the match's ``match_ended`` event, JSON with sorted keys."""


class StandingRow(Base):
    """A player's results in one game (``trapoula_standings``).

    A player is a verified player's id (docs/identity.md), whatever display names the identity
    tokens gave, or else a display name with a bot level (``""`` for a person): such names are
    not accounts, so two people who chose the same unverified name share a row.
    """

    __tablename__ = "trapoula_standings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(200), primary_key=True)
    """The player's key: ``id:`` and the verified id, or ``name:`` and the display name
    (:func:`player_key`)."""
    bot: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), index=True)
    """The display name (a verified player's latest, in log order)."""
    player_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    """The verified player's id; None for a display name only."""
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


def player_key(name: str, player_id: str | None) -> str:
    """A player's key in the standings (``StandingRow.player``): ``id:<player_id>`` for a verified
    player, else ``name:<name>``.

    >>> player_key("ann", "u-17"), player_key("ann", None)
    ('id:u-17', 'name:ann')
    """
    return f"id:{player_id}" if player_id is not None else f"name:{name}"
