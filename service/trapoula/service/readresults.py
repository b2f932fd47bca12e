"""What the read-model queries return (:class:`~trapoula.service.readmodels.ReadModels`): plain
frozen dataclasses, no wire types (``convert`` builds the messages); every time is aware, in UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from trapoula.domain.listings import LobbyTable, MatchPlayer, MatchSummary, SeatedPlayer

__all__ = ["LobbyTable", "MatchPlayer", "MatchSummary", "SeatedPlayer", "Standing"]


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's results in one game."""

    game: str
    name: str
    bot: str
    played: int
    won: int
    last_finished_at: datetime
