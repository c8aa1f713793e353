"""The stored reviews (``kt_reviews``, migration 0004): read, claim, finish, share.

A review is asked for once per seat: :func:`claim` inserts its row, and the primary key
``(table_id, seat)`` lets exactly one request (of any server process) claim it, so it is
computed once. These are short transactions of their own, outside the move journal (a
review is not a move and never waits for one).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from kartentisch.server.storage import Storage, metadata

reviews_t = sa.Table(
    "kt_reviews", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("shared", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("budget", sa.String(16), nullable=False),
    sa.Column("review", sa.Text, nullable=True),
    sa.Column("requested_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
)

QUEUED = "queued"
DONE = "done"
FAILED = "failed"


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """One seat's review as stored."""

    table_id: str
    seat: int
    status: str
    shared: bool
    budget: str
    review: str | None
    requested_at: float


def load(storage: Storage, table_id: str, seat: int) -> ReviewRow | None:
    """The stored review of ``seat`` at ``table_id``, or None when nobody asked for it."""
    with storage.engine.connect() as conn:
        row = conn.execute(sa.select(reviews_t).where(
            reviews_t.c.table_id == table_id, reviews_t.c.seat == seat)).first()
    if row is None:
        return None
    return ReviewRow(row.table_id, row.seat, row.status, bool(row.shared), row.budget,
                     row.review, row.requested_at)


def claim(storage: Storage, table_id: str, seat: int, budget: str, *,
          stale_before: float | None = None) -> bool:
    """Claim the computation of a review: True for the one caller that inserted its row
    (or, with ``stale_before``, that took over a queued row requested before then: its
    process ended before the review was done)."""
    now = time.time()
    try:
        with storage.engine.begin() as conn:
            conn.execute(reviews_t.insert().values(
                table_id=table_id, seat=seat, status=QUEUED, shared=False, budget=budget,
                review=None, requested_at=now))
        return True
    except IntegrityError:
        if stale_before is None:
            return False
    with storage.engine.begin() as conn:
        done = conn.execute(reviews_t.update().where(
            reviews_t.c.table_id == table_id, reviews_t.c.seat == seat,
            reviews_t.c.status != DONE, reviews_t.c.requested_at < stale_before,
        ).values(status=QUEUED, requested_at=now))
        return bool(done.rowcount == 1)


def finish(storage: Storage, table_id: str, seat: int, review: str | None) -> None:
    """Store the computed review (``None``: it failed)."""
    with storage.engine.begin() as conn:
        conn.execute(reviews_t.update().where(
            reviews_t.c.table_id == table_id, reviews_t.c.seat == seat,
        ).values(status=DONE if review is not None else FAILED, review=review,
                 finished_at=time.time()))


def share(storage: Storage, table_id: str, seat: int, shared: bool) -> None:
    """Let everyone at the table read the seat's review, or only the seat again."""
    with storage.engine.begin() as conn:
        conn.execute(reviews_t.update().where(
            reviews_t.c.table_id == table_id, reviews_t.c.seat == seat).values(shared=shared))
