"""What the read-model queries return (:class:`~trapoula.service.readmodels.ReadModels`): plain
frozen dataclasses, no wire types (``convert`` builds the messages); every time is aware, in UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from trapoula.domain.listings import LobbyTable, MatchPlayer, SeatedPlayer

__all__ = ["LobbyTable", "MatchPlayer", "MatchSummary", "SeatedPlayer", "Standing"]


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
