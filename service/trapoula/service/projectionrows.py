"""The read-model rows as the projection folds them (:mod:`trapoula.service.projectionfold`), and the
SQL tables it reads and writes them in (:mod:`trapoula.service.readtables`).

A :class:`FoldedTable` is a ``trapoula_lobby`` row being folded, with its table's
:class:`FoldedPlayer` rows (``trapoula_players``): read once per transaction, changed in memory,
written back together; ``new`` and ``dirty`` say which to insert and which to update.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Table

from trapoula.service.readtables import Base

LOBBY: Table = Base.metadata.tables["trapoula_lobby"]
"""The lobby's table (one row per table)."""
PLAYERS: Table = Base.metadata.tables["trapoula_players"]
"""The players' table (one row per seat taken)."""
MATCHES: Table = Base.metadata.tables["trapoula_matches"]
"""The match history's table (one row per finished match)."""
STANDINGS: Table = Base.metadata.tables["trapoula_standings"]
"""The standings' table (one row per player and game)."""
POSITION: Table = Base.metadata.tables["trapoula_projection"]
"""The projection's position (one row per projection)."""


@dataclass(slots=True)
class FoldedPlayer:
    """A ``trapoula_players`` row being folded."""

    table_id: str
    joined: int
    seat: int
    name: str
    bot: str
    player_id: str | None = None
    left_version: int | None = None
    team: int | None = None
    total: int | None = None
    won: bool = False
    new: bool = False
    dirty: bool = False

    def row(self) -> dict[str, Any]:
        """The row's columns, by name."""
        return {
            "table_id": self.table_id,
            "joined": self.joined,
            "seat": self.seat,
            "name": self.name,
            "bot": self.bot,
            "player_id": self.player_id,
            "left_version": self.left_version,
            "team": self.team,
            "total": self.total,
            "won": self.won,
        }


@dataclass(slots=True)
class FoldedTable:
    """A ``trapoula_lobby`` row being folded, with the table's players."""

    table_id: str
    created_seq: int
    game: str
    seats: int
    options: str
    manual_deal: bool
    private: bool
    status: str
    free_seats: str
    open_places: int
    seated: int
    waiting: int
    hands: int
    record_cut: int
    record_hands: int
    created_at: datetime
    started_at: datetime | None
    players: list[FoldedPlayer] = field(default_factory=list)
    new: bool = False
    dirty: bool = False

    _COLUMNS = (
        "table_id", "created_seq", "game", "seats", "options", "manual_deal", "private", "status", "free_seats",
        "open_places", "seated", "waiting", "hands", "record_cut", "record_hands", "created_at", "started_at",
    )  # fmt: skip

    def row(self) -> dict[str, Any]:
        """The row's columns, by name."""
        return {c: getattr(self, c) for c in self._COLUMNS}

    def stored(self) -> None:
        """Mark the row and its players' rows as written (neither new nor changed)."""
        self.new = self.dirty = False
        for player in self.players:
            player.new = player.dirty = False

    @property
    def started(self) -> bool:
        """True once the match has started (``playing`` or ``over``)."""
        return self.status in ("playing", "over")

    def occupant(self, seat: int) -> FoldedPlayer | None:
        """Who holds ``seat`` now."""
        for player in reversed(self.players):
            if player.seat == seat and player.left_version is None:
                return player
        return None
