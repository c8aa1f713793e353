"""The game review at the table server: computed once per seat after the game, at low
priority, and shown only to that seat (or to everyone once its player shares it).

Routes (``docs/protocol.md`` describes them; link tokens travel in the body only):

- ``POST /api/web/review`` ``{"token": ..., "seat": n?}``: the review of the token's own
  seat (``seat`` left out) or of seat ``n`` when its player shared it. The first request of a
  seat's player queues the review; until it is stored the answer says ``queued`` or
  ``running`` with how many decisions are done, and the page asks again.
- ``POST /api/web/review/share`` ``{"token": ..., "shared": true|false}``: the player lets
  everyone with a link of the table read their review (or stops it).

A review exists only for a finished game (``review.not_finished`` before), is computed by
:mod:`kartentisch.review` in the server's :class:`~kartentisch.server.bots.BotPool` one
decision per call, each call waiting until no bot move or hint is pending
(:meth:`~kartentisch.server.bots.BotPool.run_idle`), and is stored in ``kt_reviews``
(:mod:`kartentisch.server.review_store`), so it is computed once. The review's seed is
:data:`REVIEW_SEED`, the terminal's default: ``kartentisch review`` of the table's record
gives the same review. ``KARTENTISCH_REVIEW_BUDGET=fast`` makes the server's reviews quick
and rough (for tests).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import time
from typing import Annotated, Any, Final

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kartentisch.core.errors import KartentischError
from kartentisch.core.protocol import Seat
from kartentisch.review.budget import FULL_BUDGET, ReviewBudget, review_budget
from kartentisch.review.engine import positions_of, rate, rate_jobs, review_document
from kartentisch.review.reasons import REVIEW_REASONS
from kartentisch.server import review_store as store
from kartentisch.server.protocol import PROTOCOL_VERSION, ProtocolError, error_message, refuse
from kartentisch.server.tables import Hub, LiveTable
from kartentisch.server.web import _body, _decode

log = logging.getLogger("kartentisch.server")

REVIEW_SEED: Final = 0
"""The seed of every server review (the terminal's default)."""

STALE_SECONDS: Final = 30 * 60.0
"""A queued review older than this, not computing in this process, is taken over (the
process that queued it ended)."""

BUDGET_ENV: Final = "KARTENTISCH_REVIEW_BUDGET"

_STATUS: Final = {"review.not_finished": 409, "review.not_your_seat": 403,
                  "review.watcher": 403, "session.unknown_link": 403,
                  "lobby.too_large": 413}

Key = tuple[str, int]
JSON = dict[str, Any]


class ReviewRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/web/review``: a link's token and, for a shared review, the seat."""

    token: Annotated[str, msgspec.Meta(max_length=256)]
    seat: Annotated[int, msgspec.Meta(ge=0, le=64)] | None = None


class ShareRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/web/review/share``: whether the token's seat shares its review."""

    token: Annotated[str, msgspec.Meta(max_length=256)]
    shared: bool


def _refuse(code: str, /, **params: object) -> ProtocolError:
    return REVIEW_REASONS.error(ProtocolError, code, **params)


def _error(error: KartentischError) -> JSONResponse:
    return JSONResponse(error_message(error), status_code=_STATUS.get(error.code, 400))


class ReviewService:
    """The reviews this process computes: a queue worked off one decision at a time."""

    def __init__(self, hub: Hub, budget: ReviewBudget) -> None:
        self.hub = hub
        self.budget = budget
        self.queue: collections.deque[Key] = collections.deque()
        self.progress: dict[Key, tuple[int, int]] = {}
        """Decisions done and in all, of each review queued or computing here."""
        self._worker: asyncio.Task[Any] | None = None

    async def ensure(self, table: LiveTable, seat: int) -> store.ReviewRow | None:
        """Queue ``seat``'s review unless it is stored, queued here, or (recently) claimed by
        another process; returns the stored row as it is now."""
        key = (table.id, seat)
        storage = self.hub.storage
        row = await asyncio.to_thread(store.load, storage, table.id, seat)
        if key in self.progress or (row is not None and row.status == store.DONE):
            return row
        stale = None if row is None else (
            time.time() if row.status == store.FAILED else time.time() - STALE_SECONDS)
        if await asyncio.to_thread(store.claim, storage, table.id, seat, self.budget.name,
                                   stale_before=stale):
            self.progress[key] = (0, 0)
            self.queue.append(key)
            if self._worker is None or self._worker.done():
                self._worker = self.hub.spawn(self._work())
        return await asyncio.to_thread(store.load, storage, table.id, seat)

    async def _work(self) -> None:
        while self.queue:
            key = self.queue.popleft()
            try:
                document = await self._compute(*key)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: the review of seat %d failed", *key)
                document = None
            finally:
                self.progress.pop(key, None)
            await asyncio.to_thread(store.finish, self.hub.storage, key[0], key[1], document)

    async def _compute(self, table_id: str, seat: int) -> str:
        record = await self.hub.record(table_id)
        positions = await asyncio.to_thread(positions_of, record, seat)
        jobs = rate_jobs(record.game, record.players, record.options, seat, positions,
                         seed=REVIEW_SEED, budget=self.budget)
        entries = []
        self.progress[(table_id, seat)] = (0, len(jobs))
        for job in jobs:
            entries.append(await self.hub.pool.run_idle(rate, job))
            self.progress[(table_id, seat)] = (len(entries), len(jobs))
        document = await asyncio.to_thread(review_document, record, seat, entries,
                                           seed=REVIEW_SEED, budget=self.budget)
        return json.dumps(document)

    def answer(self, table: LiveTable, seat: int, row: store.ReviewRow | None) -> JSON:
        """What a reader of ``seat``'s review is told now."""
        done, total = self.progress.get((table.id, seat), (0, 0))
        status = "queued" if row is None else row.status
        if (table.id, seat) in self.progress and total:
            status = "running"
        review = json.loads(row.review) if row is not None and row.review else None
        return {"v": PROTOCOL_VERSION, "type": "review", "table": table.id, "seat": seat,
                "status": status, "done": done, "total": total,
                "shared": bool(row is not None and row.shared), "review": review}


def review_routes(hub: Hub) -> list[Route]:
    """The review routes on ``hub``'s tables (``create_app`` adds them)."""
    name = os.environ.get(BUDGET_ENV, FULL_BUDGET.name)
    service = ReviewService(hub, review_budget(name if name in ("full", "fast") else "full"))

    async def seat_of(token: str) -> tuple[LiveTable, Seat | None]:
        found = await asyncio.to_thread(hub.storage.resolve_link, token)
        table = None if found is None else await hub.table(found[0])
        if table is None or found is None:
            raise refuse("session.unknown_link")
        return table, found[1]

    async def finished_table(token: str) -> tuple[LiveTable, Seat | None]:
        table, own = await seat_of(token)
        if not table.finished:
            raise _refuse("review.not_finished")
        return table, own

    async def review_route(request: Request) -> Response:
        try:
            wanted: ReviewRequest = _decode(await _body(request), ReviewRequest)
            table, own = await finished_table(wanted.token)
            seat = own if wanted.seat is None else wanted.seat
            if seat is None:
                raise _refuse("review.watcher")
            if seat >= table.row.players:
                raise _refuse("review.bad_seat", last=table.row.players - 1, value=seat)
            if seat == own:
                row = await service.ensure(table, seat)
            else:
                row = await asyncio.to_thread(store.load, hub.storage, table.id, seat)
                if row is None or not row.shared:
                    raise _refuse("review.not_your_seat", seat=seat)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(service.answer(table, seat, row))

    async def share_route(request: Request) -> Response:
        try:
            wanted: ShareRequest = _decode(await _body(request), ShareRequest)
            table, own = await finished_table(wanted.token)
            if own is None:
                raise _refuse("review.watcher")
            await service.ensure(table, own)
            await asyncio.to_thread(store.share, hub.storage, table.id, own, wanted.shared)
            row = await asyncio.to_thread(store.load, hub.storage, table.id, own)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(service.answer(table, own, row))

    return [Route("/api/web/review", review_route, methods=["POST"]),
            Route("/api/web/review/share", share_route, methods=["POST"])]


__all__ = ["REVIEW_SEED", "ReviewService", "review_routes"]
