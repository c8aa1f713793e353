"""Game reviews: one row per reviewed seat of a finished table (``kt_reviews``).

``status`` is ``queued`` from the first request until the review is stored (``done``) or
could not be computed (``failed``); ``review`` is the review document as JSON text
(``docs/review.md``), so a review is computed once; ``shared`` says that the seat's player
lets everyone at the table read it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the reviews table."""
    op.create_table(
        "kt_reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("shared", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("budget", sa.String(16), nullable=False),
        sa.Column("review", sa.Text, nullable=True),
        sa.Column("requested_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )


def downgrade() -> None:
    """Drop the reviews table."""
    op.drop_table("kt_reviews")
