"""The host's powers at a table: every invite link again, bots for absent people, removing
a player, closing the table.

The host is whoever created the table: their page holds the host token (derived from the
server secret like every link, see :mod:`kartentisch.server.links`; the database keeps its
SHA-256). A connection that showed the token in ``hello`` may send the host's messages;
everyone else gets ``host.not_host``. Every act is stored in the table's log as a notice and
told to everyone, so nobody is surprised by a bot in a friend's seat.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from kartentisch.bots import list_bots
from kartentisch.server import links
from kartentisch.server.bots import STRENGTH_SECONDS
from kartentisch.server.people import night_error
from kartentisch.server.protocol import PROTOCOL_VERSION, Close, Remove, SeatBot, SeatHuman, refuse

if TYPE_CHECKING:
    from kartentisch.server.storage import SeatRow
    from kartentisch.server.tables import Conn, Hub, LiveTable

JSON = dict[str, Any]

HOST_MESSAGES = (SeatBot, SeatHuman, Remove, Close)
"""The client messages only the host may send (``start`` joins them with the start rule)."""


def require_host(conn: Conn) -> None:
    """Refuse ``conn`` unless it showed the table's host token."""
    if not conn.host:
        raise night_error("host.not_host")


def _person_seat(table: LiveTable, number: int) -> SeatRow:
    if number >= len(table.row.seats):
        raise night_error("host.bad_seat", seat=number,
                          detail=f"the table has seats 0 to {len(table.row.seats) - 1}")
    seat = table.row.seats[number]
    if seat.kind != "human":
        raise night_error("host.bad_seat", seat=number, detail="a bot sits there for good")
    return seat


def _playing(table: LiveTable) -> None:
    if table.row.status == "closed":
        raise night_error("table.closed")
    if table.finished:
        raise night_error("host.game_over")


async def host_act(hub: Hub, conn: Conn, table: LiveTable, message: Any) -> None:
    """Carry out one of :data:`HOST_MESSAGES` from ``conn`` (checked to be the host)."""
    require_host(conn)
    if isinstance(message, SeatBot):
        await seat_bot(hub, table, message.seat, message.bot, message.strength)
    elif isinstance(message, SeatHuman):
        await seat_human(hub, table, message.seat)
    elif isinstance(message, Remove):
        await remove(hub, table, message.seat)
    elif isinstance(message, Close):
        await close(hub, table)


async def seat_bot(hub: Hub, table: LiveTable, number: int, bot: str,
                   strength: int | None) -> None:
    """A bot of ``strength`` plays the person's seat ``number`` until the host (or the
    person, with ``take_seat``) gives it back; an unclaimed open seat stops being open."""
    known = list_bots(table.row.game)
    if bot not in known:
        raise refuse("lobby.unknown_bot", bot=bot, game=table.row.game, known=", ".join(known))
    if strength is not None and not 1 <= strength <= len(STRENGTH_SECONDS):
        raise refuse("lobby.bad_strength", high=len(STRENGTH_SECONDS), value=strength)
    async with table.lock:
        _playing(table)
        seat = _person_seat(table, number)
        await hub._store_seat(table, seat, {"left": True, "bot": bot, "strength": strength,
                                            "open": False})
        hub._schedule(table)
        hub._seats_changed(table)
        table.broadcast()
    await hub.log_entry(table, "notice", "host.bot_seated",
                        params={"seat": number, "name": seat.name, "bot": bot})


async def seat_human(hub: Hub, table: LiveTable, number: int) -> None:
    """The seat a bot played for its person is the person's again (their link works as
    before; the clock covers them while they are away)."""
    async with table.lock:
        _playing(table)
        seat = _person_seat(table, number)
        if not seat.left:
            raise night_error("host.bad_seat", seat=number, detail="its person plays it")
        await hub._store_seat(table, seat, {"left": False, "bot": None, "strength": None})
        hub._schedule(table)
        hub._seats_changed(table)
        table.broadcast()
    await hub.log_entry(table, "notice", "host.person_seated",
                        params={"seat": number, "name": seat.name})


async def remove(hub: Hub, table: LiveTable, number: int) -> None:
    """Revoke the seat's link: its generation goes up, so the new link differs and the old
    one's hash is deleted; the table's stand-in plays until someone joins with the new link
    (who then takes the seat). The removed person's connections become watchers'."""
    if table.row.key_id != hub.key_id:
        raise night_error("host.other_key")
    async with table.lock:
        _playing(table)
        seat = _person_seat(table, number)
        if seat.open:
            raise night_error("host.bad_seat", seat=number, detail="nobody has taken it yet")
        old_name = seat.name
        generation = seat.generation + 1
        token = links.seat_token(hub.secret, table.id, number, generation)
        await asyncio.wrap_future(hub.storage.submit("relink", table.id, number, {token: number}))
        await hub._store_seat(table, seat, {"generation": generation, "left": True, "bot": None,
                                            "strength": None, "joined": False, "name": None})
        for other in list(table.conns):
            if other.seat == number:
                other.seat, other.watcher = None, True
                other.push(table.update_for(other, full=True))
        hub._schedule(table)
        hub._seats_changed(table)
        table.broadcast()
    await hub.log_entry(table, "notice", "host.removed", params={"seat": number,
                                                                 "name": old_name})


async def close(hub: Hub, table: LiveTable) -> None:
    """End the table now: no more moves, bots or clock; what was played is its record."""
    async with table.lock:
        if table.row.status == "closed":
            raise night_error("table.closed")
        if table.finished:
            raise night_error("host.game_over")
        await asyncio.wrap_future(hub.storage.submit("table", table.id, {"status": "closed"}))
        table.row.status = "closed"
        hub._schedule(table)
        table.broadcast()  # every update says "status": "closed" from now on
    await hub.log_entry(table, "notice", "host.closed")


def host_links(hub: Hub, table: LiveTable, stored: dict[str, int | None], base: str) -> JSON:
    """Every link of ``table`` as its host may see it again: recomputed from the secret and
    shown only where the database still knows it (``stored``: token hash -> seat). A seat
    someone claimed in the lobby has its claimer's random token: ``claimed``, no link."""
    from kartentisch.server.storage import token_hash

    if table.row.key_id != hub.key_id:
        raise night_error("host.other_key")
    seats: list[JSON] = []
    for seat in table.row.seats:
        entry: JSON = {"seat": seat.seat, "name": seat.name, "kind": seat.kind,
                       "bot": seat.bot, "strength": seat.strength, "left": seat.left,
                       "joined": seat.joined, "open": seat.open, "link": None,
                       "claimed": False}
        if seat.kind == "human" and not seat.open:
            token = links.seat_token(hub.secret, table.id, seat.seat, seat.generation)
            if stored.get(token_hash(token), -1) == seat.seat:
                entry["link"] = hub.site.link("seat", token)
            else:
                entry["claimed"] = True
        seats.append(entry)
    watch = links.watch_token(hub.secret, table.id)
    return {"v": PROTOCOL_VERSION, "table": table.id, "game": table.row.game,
            "title": table.game.spec.title, "status": table.status(),
            "listed": table.row.listed, "seats": seats,
            "watch": {"link": hub.site.link("watch", watch)}}


__all__ = ["HOST_MESSAGES", "close", "host_act", "host_links", "remove", "require_host",
           "seat_bot", "seat_human"]
