"""The read models: lobby, players, matches, standings and the projection's position.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    """Create the five tables (empty but for the projection's position row at 0)."""
    op.create_table(
        "trapoula_lobby",
        sa.Column("table_id", sa.String(length=36), nullable=False),
        sa.Column("created_seq", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("manual_deal", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("free_seats", sa.Text(), nullable=False),
        sa.Column("open_places", sa.Integer(), nullable=False),
        sa.Column("seated", sa.Integer(), nullable=False),
        sa.Column("waiting", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("record_cut", sa.Integer(), nullable=False),
        sa.Column("record_hands", sa.Integer(), nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("started_at", _TIME, nullable=True),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_trapoula_lobby")),
        sa.UniqueConstraint("created_seq", name=op.f("uq_trapoula_lobby_created_seq")),
    )
    op.create_index(op.f("ix_trapoula_lobby_game"), "trapoula_lobby", ["game"])
    op.create_index(op.f("ix_trapoula_lobby_open_places"), "trapoula_lobby", ["open_places"])

    op.create_table(
        "trapoula_players",
        sa.Column("table_id", sa.String(length=36), nullable=False),
        sa.Column("joined", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("bot", sa.String(length=32), nullable=False),
        sa.Column("left_version", sa.Integer(), nullable=True),
        sa.Column("team", sa.Integer(), nullable=True),
        sa.Column("total", sa.BigInteger(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "joined", name=op.f("pk_trapoula_players")),
    )
    op.create_index(op.f("ix_trapoula_players_name"), "trapoula_players", ["name"])

    op.create_table(
        "trapoula_matches",
        sa.Column("table_id", sa.String(length=36), nullable=False),
        sa.Column("ended_seq", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("started_at", _TIME, nullable=True),
        sa.Column("finished_at", _TIME, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("record_hands", sa.Integer(), nullable=False),
        sa.Column("record_complete", sa.Boolean(), nullable=False),
        sa.Column("winner_seats", sa.Text(), nullable=False),
        sa.Column("winner_team", sa.Integer(), nullable=True),
        sa.Column("team_totals", sa.Text(), nullable=True),
        sa.Column("result", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_trapoula_matches")),
        sa.UniqueConstraint("ended_seq", name=op.f("uq_trapoula_matches_ended_seq")),
    )
    op.create_index(op.f("ix_trapoula_matches_finished_at"), "trapoula_matches", ["finished_at"])
    op.create_index(op.f("ix_trapoula_matches_game"), "trapoula_matches", ["game"])

    op.create_table(
        "trapoula_standings",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("bot", sa.String(length=32), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("last_finished_at", _TIME, nullable=False),
        sa.PrimaryKeyConstraint("game", "name", "bot", name=op.f("pk_trapoula_standings")),
    )
    op.create_index("ix_trapoula_standings_rank", "trapoula_standings", ["won", "played"])

    position = op.create_table(
        "trapoula_projection",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_trapoula_projection")),
    )
    op.bulk_insert(position, [{"name": "tables", "position": 0}])


def downgrade() -> None:
    """Drop the five tables (the event log is untouched; an upgrade and a rebuild restore them)."""
    for table in ("trapoula_projection", "trapoula_standings", "trapoula_matches", "trapoula_players"):
        op.drop_table(table)
    op.drop_table("trapoula_lobby")
