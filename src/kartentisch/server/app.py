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
from kartentisch.server.protocol import PROTOCOL_VERSION, error_message, refuse
from kartentisch.server.storage import Storage
from kartentisch.server.tables import LOBBY_EXPIRY_SECONDS, CreateTable, Hub, QueueConn
from kartentisch.server.web import web_routes

log = logging.getLogger("kartentisch.server")

STATIC = Path(__file__).parent / "static"
MAX_REQUEST_BYTES = 65536

_STATUS = {"lobby.unknown_table": 404, "lobby.not_finished": 409, "lobby.too_large": 413}


def _error(error: KartentischError) -> JSONResponse:
    return JSONResponse(error_message(error), status_code=_STATUS.get(error.code, 400))


def create_app(storage: Storage, *, bot_workers: int = 1,
               on_ready: Callable[[], None] | None = None, secret: bytes | None = None,
               lobby_expiry: float = LOBBY_EXPIRY_SECONDS) -> Starlette:
    """The server application on ``storage``; ``on_ready`` runs once tables are resumed.

    ``secret`` derives every link (:mod:`kartentisch.server.links`; a random one lasting
    this process when None); the lobby leaves out a listed table nobody is connected to
    that was last active more than ``lobby_expiry`` seconds ago."""
    hub = Hub(storage, BotPool(bot_workers), secret=secret, lobby_expiry=lobby_expiry)

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
        return JSONResponse({"v": PROTOCOL_VERSION, "ok": True, "tables": len(hub.tables),
                             "errors": hub.errors})

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
            base = str(request.base_url)
            answer = await hub.create(wanted, base)
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
        await socket.accept()
        conn = QueueConn()
        sender = asyncio.create_task(_send(socket, conn))
        try:
            while not conn.overflowed:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    conn.push(error_message(refuse("message.not_text")))
                    continue
                await hub.handle(conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            hub.disconnect(conn)
            conn.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 5)

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
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app


async def _send(socket: WebSocket, conn: QueueConn) -> None:
    """Send ``conn``'s queued messages until ``None``; then close the socket."""
    try:
        while True:
            data = await conn.outbox.get()
            if data is None:
                break
            await socket.send_text(data.decode())
    except Exception:  # the client went away; the reader notices too
        pass
    finally:
        with contextlib.suppress(Exception):
            await socket.close(1008 if conn.overflowed else 1000)
