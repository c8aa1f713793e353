"""A game night: names, the host, chat, the start of a table, rematch series.

``kt_tables``: ``host_hash`` (SHA-256 of the host token), ``key_id`` (which server secret
derived the table's links), ``watcher_chat`` (watchers may chat), ``started_at`` (null while
the table waits for its players), ``last_active`` (the lobby's expiry clock: the last move,
join or chat), ``series``/``series_no``/``rematch`` (a rematch series: its first table, this
table's number in it, and the rematch table made from this one). ``status`` may now also be
``closed`` (the host ended the table).

``kt_seats``: ``name`` (the display name), ``joined`` (its person connected at least once),
``generation`` (bumped when the host removes the player, so the old link stops working),
``rematch`` (the seat accepted the rematch).

``kt_chat`` (new): the table's log of chat lines, reactions and notices, numbered per table.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_TABLE_COLUMNS = ("host_hash", "key_id", "watcher_chat", "started_at", "last_active",
                  "series", "series_no", "rematch")
_SEAT_COLUMNS = ("name", "joined", "generation", "rematch")


def upgrade() -> None:
    """Add the columns (plain ``ADD COLUMN``s with constant defaults, as 0002 does: a batch
    operation would copy and drop ``kt_tables``, which the foreign keys forbid) and the chat
    table. Tables that exist already count as started when they were created (they never
    waited for anyone) and as last active then."""
    op.add_column("kt_tables", sa.Column("host_hash", sa.String(64), nullable=True))
    op.add_column("kt_tables", sa.Column("key_id", sa.String(16), nullable=True))
    op.add_column("kt_tables", sa.Column("watcher_chat", sa.Boolean, nullable=False,
                                         server_default=sa.false()))
    op.add_column("kt_tables", sa.Column("started_at", sa.Float, nullable=True))
    op.add_column("kt_tables", sa.Column("last_active", sa.Float, nullable=True))
    op.add_column("kt_tables", sa.Column("series", sa.String(32), nullable=True))
    op.add_column("kt_tables", sa.Column("series_no", sa.Integer, nullable=False,
                                         server_default="0"))
    op.add_column("kt_tables", sa.Column("rematch", sa.String(32), nullable=True))
    op.create_index("kt_tables_host", "kt_tables", ["host_hash"])
    op.execute("UPDATE kt_tables SET started_at = created_at, last_active = created_at")
    op.add_column("kt_seats", sa.Column("name", sa.String(64), nullable=True))
    op.add_column("kt_seats", sa.Column("joined", sa.Boolean, nullable=False,
                                        server_default=sa.false()))
    op.add_column("kt_seats", sa.Column("generation", sa.Integer, nullable=False,
                                        server_default="0"))
    op.add_column("kt_seats", sa.Column("rematch", sa.Boolean, nullable=False,
                                        server_default=sa.false()))
    op.create_table(
        "kt_chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("params", sa.Text, nullable=True),
    )


def downgrade() -> None:
    """Drop the chat table and the columns again."""
    op.drop_table("kt_chat")
    op.drop_index("kt_tables_host", "kt_tables")
    with op.batch_alter_table("kt_seats") as batch:
        for column in _SEAT_COLUMNS:
            batch.drop_column(column)
    with op.batch_alter_table("kt_tables") as batch:
        for column in _TABLE_COLUMNS:
            batch.drop_column(column)
