"""Per-table hint switch and invitation seats open to anyone in the lobby.

``kt_tables.hints``: whether the page offers the hint button at the table (kept so a restart
does not switch hints back on). ``kt_seats.open``: a human seat that has no link yet and that
anyone in the lobby may claim; the claim sets it false (one conditional update, so of two
racing claims exactly one wins) and stores the hash of the seat's new link.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns (existing tables keep hints on and have no open seat).

    A plain ``ADD COLUMN`` with a constant default, on SQLite too: a batch operation would
    copy and drop ``kt_tables``, which the seats' and moves' foreign keys forbid."""
    op.add_column("kt_tables", sa.Column("hints", sa.Boolean, nullable=False,
                                         server_default=sa.true()))
    op.add_column("kt_seats", sa.Column("open", sa.Boolean, nullable=False,
                                        server_default=sa.false()))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("kt_seats") as batch:
        batch.drop_column("open")
    with op.batch_alter_table("kt_tables") as batch:
        batch.drop_column("hints")
