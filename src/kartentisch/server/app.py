"""The Starlette application: the lobby over plain HTTP, the tables over one websocket each.

Routes (``docs/server.md`` and ``docs/protocol.md`` describe them):

- ``GET /`` the static start page (``static/index.html``), ``/static/...`` its files;
- ``GET /api/games`` the games, their options and bots;
- ``POST /api/tables`` create a table (returns its secret seat links and watch link);
- ``GET /api/tables`` the listed tables in play; ``GET /api/tables/{id}`` one table;
- ``GET /api/tables/{id}/record`` a finished table's record (``kartentisch replay`` reads it);
- ``GET /health``;
- ``WS /ws`` the table protocol: the first message is ``hello`` with the link's token.

No link token ever appears in a URL path (links carry it after ``#``, which browsers do not
send), so the access log cannot show one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from kartentisch.bots import list_bots
from kartentisch.core.errors import KartentischError
from kartentisch.core.options import describe_options
from kartentisch.core.registry import game_class, list_games
from kartentisch.server.bots import STRENGTH_SECONDS, BotPool
from kartentisch.server.flow import series_routes
from kartentisch.server.guard import Guard, client_address, retry_seconds
from kartentisch.server.limits import AddressCount, KeyedBuckets, Limits, TokenBucket
from kartentisch.server.outbox import QueueConn, pump
from kartentisch.server.protocol import PROTOCOL_VERSION, error_message, refuse
from kartentisch.server.review import review_routes
from kartentisch.server.site import Site
from kartentisch.server.storage import Storage
from kartentisch.server.tables import LOBBY_EXPIRY_SECONDS, STAND_IN_PACE, CreateTable, Hub
from kartentisch.server.web import web_routes

log = logging.getLogger("kartentisch.server")

STATIC = Path(__file__).parent / "static"
MAX_REQUEST_BYTES = 65536

_STATUS = {"lobby.unknown_table": 404, "lobby.not_finished": 409, "lobby.too_large": 413,
           "lobby.too_many_tables": 429, "server.storage": 503}


def _error(error: KartentischError) -> JSONResponse:
    return JSONResponse(error_message(error), status_code=_STATUS.get(error.code, 400))


def create_app(storage: Storage, *, bot_workers: int = 1,
               on_ready: Callable[[], None] | None = None, secret: bytes | None = None,
               lobby_expiry: float = LOBBY_EXPIRY_SECONDS,
               stand_in_pace: float = STAND_IN_PACE, limits: Limits | None = None,
               site: Site | None = None) -> Starlette:
    """The server application on ``storage``; ``on_ready`` runs once tables are resumed.

    ``secret`` derives every link (:mod:`kartentisch.server.links`; a random one lasting
    this process when None); the lobby leaves out a listed table nobody is connected to
    that was last active more than ``lobby_expiry`` seconds ago; ``stand_in_pace``: the
    seconds a stand-in takes at least per move; ``limits`` and ``site`` (the public URL
    and allowed origins): see ``docs/security.md``."""
    limits = limits or Limits()
    hub = Hub(storage, BotPool(bot_workers, hints_waiting=limits.hints_waiting),
              secret=secret, lobby_expiry=lobby_expiry, stand_in_pace=stand_in_pace,
              limits=limits, site=site)
    connections = AddressCount()
    address_messages = KeyedBuckets(limits.address_messages_burst,
                                     limits.address_messages_rate)
    requests = KeyedBuckets(limits.requests_burst, limits.requests_rate)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        hub.pool.warm_up()
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            await hub.stop()

    async def index(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def health(_request: Request) -> Response:
        return JSONResponse({"v": PROTOCOL_VERSION, "ok": hub.health.storage_ok,
                             "tables": len(hub.tables), "errors": hub.errors,
                             "connections": sum(len(t.conns) for t in hub.tables.values()),
                             **hub.health.as_json()})

    async def games(_request: Request) -> Response:
        out = []
        for name in list_games():
            cls = game_class(name)
            spec = cls.spec
            out.append({
                "name": name, "title": spec.title, "min_players": spec.min_players,
                "max_players": spec.max_players, "default_players": spec.default_players,
                "options": [{"name": n, "default": d, "allowed": a}
                            for n, d, a in describe_options(cls.options_type)],
                "bots": list_bots(name)})
        return JSONResponse({"v": PROTOCOL_VERSION, "games": out,
                             "strengths": {str(i + 1): s for i, s in enumerate(STRENGTH_SECONDS)}})

    async def create_table(request: Request) -> Response:
        try:
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_REQUEST_BYTES:
                    raise refuse("lobby.too_large", limit=MAX_REQUEST_BYTES)
            try:
                wanted = msgspec.json.decode(body, type=CreateTable, strict=True)
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                raise refuse("lobby.bad_request", detail=str(exc)[:160]) from None
            except RecursionError:
                raise refuse("lobby.bad_request", detail="nested too deeply") from None
            hub.admit_table(client_address(request.scope))
            answer = await hub.create(wanted)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(answer, status_code=201)

    async def list_tables(_request: Request) -> Response:
        return JSONResponse({"v": PROTOCOL_VERSION, "tables": await hub.summaries()})

    async def one_table(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        table = await hub.table(table_id)
        if table is None:
            return _error(refuse("lobby.unknown_table", table=table_id))
        return JSONResponse({"v": PROTOCOL_VERSION, "table": table.info()})

    async def record(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            found = await hub.record(table_id)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(found.to_json(), headers={
            "Content-Disposition": f'attachment; filename="kartentisch-{table_id}.json"'})

    async def websocket(socket: WebSocket) -> None:
        if not hub.site.allows(socket.headers):
            hub.health.refused["server.bad_origin"] += 1
            await socket.close(1008, "origin not allowed")  # before accept: HTTP 403
            return
        address = client_address(socket.scope)
        if not connections.open(address, limits.connections_per_address):
            hub.health.refused["session.too_many_connections"] += 1
            await socket.accept()
            await socket.send_text(msgspec.json.encode(error_message(refuse(
                "session.too_many_connections", limit=limits.connections_per_address)))
                .decode())
            await socket.close(1008)
            return
        try:
            await socket.accept()
            await _serve_socket(socket, address)
        finally:
            connections.close(address)

    async def _serve_socket(socket: WebSocket, address: str) -> None:
        conn = QueueConn(limits.outbox_bytes)
        bucket = TokenBucket(limits.messages_burst, limits.messages_rate)
        sender = asyncio.create_task(_send(socket, conn, limits.send_timeout))
        reader = asyncio.create_task(_read(socket, conn, bucket, address))
        try:
            await asyncio.wait([sender, reader], return_when=asyncio.FIRST_COMPLETED)
        finally:
            reader.cancel()
            hub.disconnect(conn)
            conn.close_outbox()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(sender, 5)
            if conn.slow:
                hub.health.slow_disconnects += 1
                log.info("a connection read nothing for %.0f s: closed", limits.send_timeout)
            elif conn.overflowed:
                hub.health.overflows += 1
            hub.health.coalesced += conn.coalesced

    async def _read(socket: WebSocket, conn: QueueConn, bucket: TokenBucket,
                    address: str) -> None:
        with contextlib.suppress(WebSocketDisconnect):
            while not conn.overflowed:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                wait = bucket.take() or address_messages.take(address)
                if wait:  # answered, not carried out; the connection stays
                    hub.health.refused["rate.too_fast"] += 1
                    seconds = retry_seconds(wait)
                    conn.push(error_message(refuse("rate.too_fast", retry_after=seconds),
                                            retry_after=seconds))
                    continue
                text = message.get("text")
                if text is None:
                    conn.push(error_message(refuse("message.not_text")))
                    continue
                await hub.handle(conn, text)

    routes: list[Any] = [
        Route("/", index),
        Route("/health", health),
        Route("/api/games", games),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables),
        Route("/api/tables/{table_id}", one_table),
        Route("/api/tables/{table_id}/record", record),
        WebSocketRoute("/ws", websocket),
        *web_routes(hub),  # the browser page's routes (web.py)
        *series_routes(hub),  # a rematch series (flow.py)
        *review_routes(hub),  # the game review's routes (review.py)
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    def count(code: str, error: BaseException | None) -> None:
        if code == "server.internal":
            hub.errors += 1
        elif code == "server.storage" and error is not None:
            hub.health.store_failed(error)
        else:
            hub.health.refused[code] += 1

    app = Starlette(routes=routes, lifespan=lifespan, middleware=[
        Middleware(Guard, site=lambda: hub.site, requests=lambda: requests, count=count)])
    app.state.hub = hub
    return app


async def _send(socket: WebSocket, conn: QueueConn, timeout: float) -> None:
    """Send ``conn``'s messages until ``None`` or until the client leaves one unread for
    ``timeout`` seconds; then close the socket (1008 when it was cut off)."""
    try:
        await pump(conn, socket.send_text, timeout)
    except Exception:  # the client went away; the reader notices too
        pass
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                socket.close(1008 if conn.overflowed or conn.slow else 1000), 1)
