"""Verified players and private tables: ``trapoula_lobby.private``, ``trapoula_players.player_id``,
and the standings keyed by player (a verified id, or a display name) instead of by name.

Every row of the standings so far is a display name's (no server verified identities before
this revision): each is kept as the player ``name:<name>``.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_TIME = sa.DateTime(timezone=True)


def _standings(player: bool) -> list[sa.Column[Any]]:
    keyed = [sa.Column("player", sa.String(length=200), nullable=False)] if player else []
    named = [sa.Column("name", sa.String(length=64), nullable=False)]
    ident = [sa.Column("player_id", sa.String(length=128), nullable=True)] if player else []
    return [
        sa.Column("game", sa.String(length=32), nullable=False),
        *keyed,
        *named,
        *ident,
        sa.Column("bot", sa.String(length=32), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("last_finished_at", _TIME, nullable=False),
    ]


def upgrade() -> None:
    """Add the two columns; rebuild the standings keyed by player, keeping every row."""
    op.add_column("trapoula_lobby", sa.Column("private", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column("trapoula_players", sa.Column("player_id", sa.String(length=128), nullable=True))
    op.create_index(op.f("ix_trapoula_players_player_id"), "trapoula_players", ["player_id"])
    old = sa.table("trapoula_standings", *_standings(player=False))
    rows = [dict(r._mapping) for r in op.get_bind().execute(sa.select(old))]
    op.drop_index("ix_trapoula_standings_rank", table_name="trapoula_standings")
    op.drop_table("trapoula_standings")
    new = op.create_table(
        "trapoula_standings",
        *_standings(player=True),
        sa.PrimaryKeyConstraint("game", "player", "bot", name=op.f("pk_trapoula_standings")),
    )
    op.create_index("ix_trapoula_standings_rank", "trapoula_standings", ["won", "played"])
    op.create_index(op.f("ix_trapoula_standings_name"), "trapoula_standings", ["name"])
    if rows:
        op.bulk_insert(new, [{**r, "player": f"name:{r['name']}", "player_id": None} for r in rows])


def downgrade() -> None:
    """Back to revision 0001: a verified player's rows are kept under the player's latest name
    (two players of one name and bot level: their counts are added)."""
    new = sa.table("trapoula_standings", *_standings(player=True))
    merged: dict[tuple[str, str, str], dict[str, object]] = {}
    for r in op.get_bind().execute(sa.select(new)):
        key = (r.game, r.name, r.bot)
        row = merged.setdefault(key, {"game": r.game, "name": r.name, "bot": r.bot, "played": 0, "won": 0})
        row["played"] = int(row["played"]) + r.played  # type: ignore[call-overload]
        row["won"] = int(row["won"]) + r.won  # type: ignore[call-overload]
        last = row.get("last_finished_at")
        row["last_finished_at"] = r.last_finished_at if last is None or r.last_finished_at > last else last
    op.drop_index(op.f("ix_trapoula_standings_name"), table_name="trapoula_standings")
    op.drop_index("ix_trapoula_standings_rank", table_name="trapoula_standings")
    op.drop_table("trapoula_standings")
    old = op.create_table(
        "trapoula_standings",
        *_standings(player=False),
        sa.PrimaryKeyConstraint("game", "name", "bot", name=op.f("pk_trapoula_standings")),
    )
    op.create_index("ix_trapoula_standings_rank", "trapoula_standings", ["won", "played"])
    if merged:
        op.bulk_insert(old, list(merged.values()))
    op.drop_index(op.f("ix_trapoula_players_player_id"), table_name="trapoula_players")
    op.drop_column("trapoula_players", "player_id")
    op.drop_column("trapoula_lobby", "private")
