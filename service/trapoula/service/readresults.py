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
    """A player's results in one game: a verified player (``player_id``, docs/identity.md) under the
    latest display name, or a display name only (``player_id`` None: anybody may have used it)."""

    game: str
    player: str
    """The key of the row (``readtables.player_key``): ``id:<player_id>`` or ``name:<name>``."""
    name: str
    player_id: str | None
    bot: str
    played: int
    won: int
    last_finished_at: datetime

    @property
    def verified(self) -> bool:
        """True for a verified player (an id from the app's identity token)."""
        return self.player_id is not None
