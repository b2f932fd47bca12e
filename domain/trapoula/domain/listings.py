"""What a server lists about its games and tables: plain frozen values (docs/read-models.md).

The service fills them from its tables and read models and sends them as messages; the client
reads the messages back into the same values.  Times are aware, in UTC; a time the wire left
empty is None.

* :class:`GameInfo`: a game the server plays (``ListGames``);
* :class:`TableSummary`: a table (``ListTables``);
* :class:`LobbyTable` with its :class:`SeatedPlayer` s: a table players may join (``ListLobby``);
* :class:`MatchSummary` with its :class:`MatchPlayer` s: a finished match (``ListMatches``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["GameInfo", "LobbyTable", "MatchPlayer", "MatchSummary", "SeatedPlayer", "TableSummary"]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game the server plays (``GameSpec``'s listing)."""

    key: str
    title: str
    summary: str
    min_players: int
    max_players: int
    options: dict[str, Any] = field(default_factory=dict)
    """Every option with its default (the game's rules file, section 7)."""
    bot_levels: tuple[str, ...] = ()
    """Computer-player levels (``add_bot``)."""
    seat_changes: bool = False
    """True when players may join and leave during the match (``GameSpec.seat_changes``)."""


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One table of a listing."""

    table_id: str
    game: str
    seats: int
    free_seats: tuple[int, ...]
    status: str
    """``open``, ``ready``, ``playing`` or ``over``."""
    version: int
    """The table's version (as a spectator counts it)."""
    manual_deal: bool = False
    """True for a table created for explicit deals (S5.3): only it accepts one, and it deals only
    on ``next_hand``."""


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player holding a seat of a lobby table."""

    seat: int
    name: str
    bot: str
    """The bot's level; ``""`` for a person."""


@dataclass(frozen=True, slots=True)
class LobbyTable:
    """A table players may join now (a line of the lobby)."""

    table_id: str
    game: str
    seats: int
    free_seats: tuple[int, ...]
    open_places: int
    """How many more players may join now (during the match of a game whose players change,
    ``GameSpec.seat_changes``: places up to its most players)."""
    status: str
    """``open`` (not started) or ``playing`` (a match under way that takes newcomers,
    ``GameSpec.seat_changes``)."""
    options: dict[str, Any]
    manual_deal: bool
    players: tuple[SeatedPlayer, ...]
    waiting: int
    """Newcomers queued until the hand in progress ends."""
    created_at: datetime | None


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """A player of a finished match."""

    seat: int
    name: str
    bot: str
    total: int | None
    """The seat's final total; None in a game scored by team, or for a seat another took over."""
    won: bool
    left: bool
    """True when the player left or was eliminated before the end (role ``seat_vacated``)."""
    team: int | None
    """The team in a game scored by team (``GameSpec.teams``: the index of the player's team), else None."""
    player_id: str | None = None
    """The verified player's id (the app's identity token, docs/identity.md); None: a name only."""

    @property
    def verified(self) -> bool:
        """True when the player's id was verified (anybody may have typed an unverified name)."""
        return self.player_id is not None


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A finished match of the history."""

    table_id: str
    game: str
    created_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    players: tuple[MatchPlayer, ...]
    """In the order they took their seats."""
    winner_seats: tuple[int, ...]
    """One seat, a team's seats (a game scored by team, ``GameSpec.teams``), or none (a tie)."""
    winner_team: int | None
    team_totals: tuple[int, ...]
    """Each team's score in a game scored by team (``MatchResult.team_scores``: games won); empty otherwise."""
    result: dict[str, Any]
    """The payload of the game's event of role ``match_ended``."""
    hands: int
    record_hands: int
    """The finished hands a record of the match holds (``GetRecord``)."""
    record_complete: bool
    """True when the record holds the whole match, up to its end."""
    version: int

    @property
    def record_available(self) -> bool:
        """True when ``GetRecord`` returns a record of this match (one finished hand or more)."""
        return self.record_hands > 0

    @property
    def winners(self) -> tuple[MatchPlayer, ...]:
        """The players who won."""
        return tuple(p for p in self.players if p.won)
