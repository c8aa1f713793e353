"""The flow of a game night at one table: its start, the rematch, and the series.

**The start.** A table waits (``started_at`` is None) until every person invited to it has
joined once (an open seat nobody has claimed, and a seat a bot covers, are not awaited), or
the host sends ``start``. Until then neither bots nor the clock move, and nobody's move is
taken (``move.not_started``): nobody loses a turn to a clock before they have even opened
their link. A table without invited people starts at once.

**The rematch.** At a finished table any seated person sends ``rematch``. The first one
makes the rematch table: the same game, options, clock, hints, listing, watcher chat, seats
(bots, strengths, names), a new deal, ``series`` = the old table's series (or its id) and
``series_no`` + 1; the old table remembers it (``rematch``). Every ``rematch`` marks the
sender's seat as accepted and answers that connection alone with its own new link (and the
host token to the host); everyone at the old table is told who accepted (no tokens). The new
table waits by the start rule above, so it begins when every person has come over, or when
the host starts it or lets bots play the seats of those who do not come.

No game's options set the dealer or the start player, and each game's rules decide them:
Casino deals from seat 0 first and moves the deal on within the game, Krass Kariert's first
round is led by seat 1 (left of the oldest, seat 0), Krumme20's start player is the one whose
dealt cards sum highest. So a rematch keeps the seats and the rules choose again with the
new deal (docs/protocol.md says the same).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kartentisch.core.errors import KartentischError
from kartentisch.core.rng import SEED_MAX
from kartentisch.server import links
from kartentisch.server.people import night_error
from kartentisch.server.protocol import PROTOCOL_VERSION, error_message, refuse
from kartentisch.server.storage import SeatRow, TableRow, token_hash

if TYPE_CHECKING:
    from kartentisch.server.tables import Conn, Hub, LiveTable

log = logging.getLogger("kartentisch.server")

JSON = dict[str, Any]

HUMAN = "human"


# ---------------------------------------------------------------- the start
def awaited(table: LiveTable) -> list[SeatRow]:
    """The seats whose invited person has not joined yet (the table waits for them)."""
    return [s for s in table.row.seats
            if s.kind == HUMAN and not s.open and not s.joined and not s.left]


def started(table: LiveTable) -> bool:
    """Whether the table has started (bots and the clock move only then)."""
    return table.row.started_at is not None


def start_if_ready(hub: Hub, table: LiveTable, *, by_host: bool = False,
                   announce: bool = True) -> bool:
    """Start ``table`` if nobody is awaited any more (or the host says so); True if it has
    started (now or before). Called under the table's lock wherever the next move is
    scheduled; the start is stored through the journal in order with the moves after it,
    and told to everyone as the notice ``host.started`` (by a task; ``announce`` False: the
    caller awaits :func:`announce_start` itself, so the notice comes first in the log)."""
    if started(table):
        return True
    if table.finished or table.row.status != "playing":
        return False
    if not by_host and awaited(table):
        return False
    now = time.time()
    table.row.started_at = now
    stored = hub.storage.submit("table", table.id, {"started_at": now})
    stored.add_done_callback(lambda done: _start_stored(table.id, done))
    if announce:
        hub.spawn(announce_start(hub, table, by_host=by_host))
    return True


async def announce_start(hub: Hub, table: LiveTable, *, by_host: bool) -> None:
    """The notice ``host.started`` in the table's log (``by``: ``host`` or ``everyone``,
    when the last invited person joined)."""
    await hub.log_entry(table, "notice", "host.started",
                        params={"by": "host" if by_host else "everyone"})


def _start_stored(table_id: str, done: Future[Any]) -> None:
    """Log a start the journal could not store (the table still plays; after a restart it
    would wait again for whoever has not joined, which the stored seats tell)."""
    if not done.cancelled() and done.exception() is not None:
        log.error("table %s: its start could not be stored", table_id,
                  exc_info=done.exception())


async def start(hub: Hub, conn: Conn, table: LiveTable) -> None:
    """The host's ``start``: begin now, though not every person has joined (their seats
    wait without a clock until they come, or the host lets a bot play them)."""
    if not conn.host:
        raise night_error("host.not_host")
    async with table.lock:
        if table.row.status == "closed":
            raise night_error("table.closed")
        if started(table) or table.finished:
            raise refuse("start.already")
        start_if_ready(hub, table, by_host=True, announce=False)
        hub._schedule(table)
        table.broadcast()
    await announce_start(hub, table, by_host=True)


# ---------------------------------------------------------------- the rematch
async def rematch(hub: Hub, conn: Conn, table: LiveTable) -> None:
    """``rematch`` from a seated person at a finished table: make the rematch table if
    nobody has yet, mark the seat as accepted, answer with the person's own new link and
    tell everyone at the old table who accepted."""
    if (conn.watcher or conn.seat is None) and not conn.host:
        raise refuse("rematch.watcher")
    if not table.finished:
        raise refuse("rematch.not_finished")
    async with table.lock:
        if table.row.rematch is None:
            stored = await asyncio.to_thread(hub.storage.table_row, table.id)
            if stored is not None and stored.rematch is not None:  # made by another process
                table.row.rematch = stored.rematch
            else:
                new_id = await _make_rematch(hub, table)
                await asyncio.wrap_future(
                    hub.storage.submit("table", table.id, {"rematch": new_id}))
                table.row.rematch = new_id
        new_id = table.row.rematch
        answer: JSON = {"v": PROTOCOL_VERSION, "type": "rematch", "table": new_id,
                        "seat": conn.seat}
        host = links.host_token(hub.secret, new_id)
        if conn.seat is not None:
            seat = table.row.seats[conn.seat]
            if not seat.rematch:
                await hub._store_seat(table, seat, {"rematch": True})
            answer["link"] = f"#seat={links.seat_token(hub.secret, new_id, conn.seat, 0)}"
        else:  # the host without a seat of their own: the new table's host page
            answer["link"] = f"#host={host}"
        if conn.host:
            answer["host"] = host
        conn.push(answer)
        table.tell_all(offer_message(table))


def offer_message(table: LiveTable) -> JSON:
    """The ``rematch_offer`` everyone at ``table`` gets (who accepted; no tokens)."""
    return {"v": PROTOCOL_VERSION, "type": "rematch_offer", "table": table.row.rematch,
            "from": table.id,
            "accepted": [s.seat for s in table.row.seats if s.rematch]}


async def _make_rematch(hub: Hub, table: LiveTable) -> str:
    """Store the rematch table of ``table`` (the lock is held); returns its id."""
    old = table.row
    new_id = secrets.token_urlsafe(9)
    seats = [SeatRow(s.seat, s.kind, s.bot if s.kind != HUMAN else None,
                     s.strength if s.kind != HUMAN else None, open=s.open and s.kind == HUMAN,
                     name=s.name)
             for s in old.seats]
    row = TableRow(id=new_id, game=old.game, players=old.players, options=dict(old.options),
                   seed=secrets.randbelow(SEED_MAX + 1), clock=old.clock, listed=old.listed,
                   stand_in=old.stand_in, seats=seats, hints=old.hints,
                   watcher_chat=old.watcher_chat, key_id=hub.key_id,
                   series=old.series or old.id, series_no=old.series_no + 1)
    if old.host_hash is not None:
        row.host_hash = token_hash(links.host_token(hub.secret, new_id))
    tokens: dict[str, int | None] = {}
    for seat in seats:
        if seat.kind == HUMAN and not seat.open:
            tokens[links.seat_token(hub.secret, new_id, seat.seat, 0)] = seat.seat
    watch = links.watch_token(hub.secret, new_id)
    tokens[watch] = None
    row.watch = watch if old.listed else None
    await asyncio.wrap_future(hub.storage.submit("create", row, tokens))
    log.info("table %s: rematch %s (series %s, game %d)", old.id, new_id, row.series,
             row.series_no + 1)
    return new_id


# ---------------------------------------------------------------- the series
async def series(hub: Hub, table_id: str) -> JSON:
    """The series ``table_id`` belongs to: every table of it in order, with its status,
    returns and names (``lobby.unknown_table`` for no such table)."""
    if not 1 <= len(table_id) <= 32:
        raise refuse("lobby.unknown_table", table=table_id[:32])
    row = await asyncio.to_thread(hub.storage.table_row, table_id)
    if row is None:
        raise refuse("lobby.unknown_table", table=table_id)
    first = row.series or row.id
    rows = await asyncio.to_thread(hub.storage.series_tables, first)
    return {"v": PROTOCOL_VERSION, "series": first,
            "tables": [{"id": r.id, "series_no": r.series_no, "status": r.status,
                        "returns": r.returns, "names": [s.name for s in r.seats],
                        "seats": [s.kind for s in r.seats]}
                       for r in rows]}


def series_routes(hub: Hub) -> list[Route]:
    """``GET /api/web/series/{table_id}``: the series of a table (see :func:`series`)."""

    async def series_route(request: Request) -> Response:
        try:
            return JSONResponse(await series(hub, request.path_params["table_id"]))
        except KartentischError as error:
            return JSONResponse(error_message(error), status_code=404)

    return [Route("/api/web/series/{table_id}", series_route)]
