"""What the read-model calls return, as plain values: the lobby, the match history, the standings.

:class:`~trapoula.clients.table.TableClient` builds them from the replies of ``ListLobby``,
``ListMatches`` and ``GetStandings`` (:meth:`~trapoula.clients.table.TableClient.lobby`,
:meth:`~trapoula.clients.table.TableClient.matches`,
:meth:`~trapoula.clients.table.TableClient.standings`).  The server keeps these lists from the
event log a moment after each change (eventually consistent); each call returns one
:class:`Page`, and its ``next_page_token`` asks for the next.  Times are aware ``datetime`` values
in UTC.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from trapoula.api.v1 import table_pb2
from trapoula.domain.listings import LobbyTable, MatchPlayer, MatchSummary, SeatedPlayer

__all__ = ["LobbyTable", "MatchPlayer", "MatchSummary", "Page", "SeatedPlayer", "Standing"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list: its items and the token of the next page (``""``: this is the last)."""

    items: tuple[T, ...]
    next_page_token: str


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's results in one game: a verified player (``player_id``, docs/identity.md) under
    the latest display name, or a display name with a bot level (``player_id`` ``""``: unverified)."""

    game: str
    player: str
    bot: str
    played: int
    won: int
    last_finished_at: datetime | None
    player_id: str = ""
    """The verified player's id; ``""`` for a name only."""
    verified: bool = False
    """True when ``player_id`` comes from a verified identity token."""


def _time(text: str) -> datetime | None:
    """An RFC 3339 time of the server (None for ``""`` or anything unreadable)."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _json(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def lobby_page(reply: table_pb2.ListLobbyResponse) -> Page[LobbyTable]:
    """The page of a ``ListLobby`` reply."""
    return Page(
        tuple(
            LobbyTable(
                table_id=t.table_id,
                game=t.game,
                seats=t.seats,
                free_seats=tuple(t.free_seats),
                open_places=t.open_places,
                status=t.status,
                options=_json(t.options_json),
                manual_deal=t.manual_deal,
                players=tuple(SeatedPlayer(p.seat, p.name, p.bot) for p in t.players),
                waiting=t.waiting,
                created_at=_time(t.created_at),
            )
            for t in reply.tables
        ),
        reply.next_page_token,
    )


def matches_page(reply: table_pb2.ListMatchesResponse) -> Page[MatchSummary]:
    """The page of a ``ListMatches`` reply."""
    return Page(
        tuple(
            MatchSummary(
                table_id=m.table_id,
                game=m.game,
                created_at=_time(m.created_at),
                started_at=_time(m.started_at),
                finished_at=_time(m.finished_at),
                players=tuple(
                    MatchPlayer(
                        p.seat,
                        p.name,
                        p.bot,
                        p.total if p.HasField("total") else None,
                        p.won,
                        p.left,
                        p.team if p.HasField("team") else None,
                        p.player_id if p.verified else None,
                    )
                    for p in m.players
                ),
                winner_seats=tuple(m.winner_seats),
                winner_team=m.winner_team if m.HasField("winner_team") else None,
                team_totals=tuple(m.team_totals),
                result=_json(m.result_json),
                hands=m.hands,
                record_hands=m.record_hands,
                record_complete=m.record_complete,
                version=int(m.version),
            )
            for m in reply.matches
        ),
        reply.next_page_token,
    )


def standings_page(reply: table_pb2.GetStandingsResponse) -> Page[Standing]:
    """The page of a ``GetStandings`` reply."""
    return Page(
        tuple(
            Standing(s.game, s.player, s.bot, s.played, s.won, _time(s.last_finished_at), s.player_id, s.verified)
            for s in reply.standings
        ),
        reply.next_page_token,
    )
