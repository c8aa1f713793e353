"""Tables, seats, links (hashed) and moves: what rebuilds every table by replay.

Revision ID: 0001
Revises:
Create Date: 2026-11-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "kt_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("clock", sa.Float, nullable=True),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("stand_in", sa.String(40), nullable=False),
        sa.Column("watch", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("returns", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("kt_tables_status", "kt_tables", ["status", "created_at"])
    op.create_table(
        "kt_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("strength", sa.Integer, nullable=True),
        sa.Column("left", sa.Boolean, nullable=False),
    )
    op.create_table(
        "kt_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("kt_links_table", "kt_links", ["table_id"])
    op.create_table(
        "kt_moves",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), primary_key=True),
        sa.Column("move_no", sa.Integer, primary_key=True),
        sa.Column("action", sa.BigInteger, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("by", sa.String(8), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("kt_moves")
    op.drop_table("kt_links")
    op.drop_table("kt_seats")
    op.drop_index("kt_tables_status", "kt_tables")
    op.drop_table("kt_tables")
