"""What the read-model queries return (:class:`~trapoula.service.readmodels.ReadModels`): plain
frozen dataclasses, no wire types (``convert`` builds the messages); every time is aware, in UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


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
    """True when the player left or was eliminated before the end (``seat_vacated``)."""
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
    """The payload of the game's ``match_ended`` event."""
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
