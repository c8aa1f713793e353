"""What the browser page needs beyond the table protocol: words, explanations, hints, replays.

The page (``static/``) plays over the websocket protocol of :mod:`kartentisch.server.tables`;
these routes add what a person at a table needs and the protocol leaves out:

- ``GET /api/web/catalogue?lang=de`` the gettext catalogue the terminal uses (every message,
  plural forms, and the English template of every reason code, which is the message id), so
  the page speaks the same words as ``kartentisch play``;
- ``GET /api/web/games`` per game its rules options with a label, a one-line explanation and
  words for their values (from the game's descriptor; English message ids the page
  translates);
- ``POST /api/web/tables`` create a table as ``POST /api/tables`` does, plus whether the
  hint button is offered at it;
- ``GET /api/web/tables/{id}`` the page's settings of a table (hints on or off);
- ``POST /api/web/explain`` why a move is not allowed: the page sends the move it tried (in
  the game's notation) with its link's token, and gets the engine's reason code and params,
  or the move's id when it is allowed after all. It never plays anything;
- ``POST /api/web/hint`` the ismcts bot's suggestion for the seat to move, with its estimate
  of the chance to win;
- ``GET /api/web/replay/{id}?view=...`` and ``POST /api/web/replay?view=...`` (a
  ``kartentisch replay`` record as the body) every step of a finished game as one view sees
  it: a seat's, a watcher's, or ``all`` with every hand open.

Link tokens travel in request bodies only, never in a URL, as with the websocket.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import time
from collections.abc import Sequence
from typing import Annotated, Any, Final

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kartentisch.core.errors import KartentischError
from kartentisch.core.protocol import Game, Seat, State
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import all_reasons, descriptor_of, descriptors, load_game
from kartentisch.core.rng import derive_seed
from kartentisch.locale import LANGUAGES, catalogue_path
from kartentisch.server.bots import HintBusy
from kartentisch.server.guard import client_address
from kartentisch.server.hosting import host_links
from kartentisch.server.people import night_error
from kartentisch.server.protocol import (
    MAX_TOKEN_CHARS,
    PROTOCOL_VERSION,
    SERVER_REASONS,
    ProtocolError,
    error_message,
    refuse,
)
from kartentisch.server.reasons import NIGHT_REASONS, WEB_REASONS
from kartentisch.server.tables import CreateTable, Hub, LiveTable, new_token

JSON = dict[str, Any]

MAX_BODY_BYTES: Final = 1 << 20
"""The largest request body read (a record of a long game fits easily)."""

HINT_SECONDS: Final = 0.6
"""How long the hint's search thinks."""

# WEB_REASONS, the codes of these routes, live in kartentisch.server.reasons (no Starlette
# there), so that kartentisch.core.registry.all_reasons() and docs/reason-codes.md have them.


def _refuse_web(code: str, /, **params: object) -> ProtocolError:
    return WEB_REASONS.error(ProtocolError, code, **params)


# The page's own words are listed in kartentisch.server.page_words (one module per part of
# the page), so `python -m kartentisch.locale.update` extracts them into the catalogue.
# What the page says about a game's options comes from the game's descriptor.


@functools.cache
def games_words() -> dict[str, JSON]:
    """Per game, what the lobby says about it: every rules option with its label, one-line
    help and value words (English message ids; the page translates them), and a sentence on
    what the returns mean."""
    return {d.name: {"options": [o.to_json() for o in d.options()],
                     "returns": d.returns_help, "page_module": d.page_module}
            for d in descriptors()}


def reason_templates() -> dict[str, str]:
    """Every reason code the page may meet and its English template (the message id)."""
    return {**all_reasons(), **SERVER_REASONS, **WEB_REASONS, **NIGHT_REASONS}


@functools.cache
def catalogue(language: str) -> JSON:
    """The catalogue of ``language`` as the page reads it: ``messages`` (id -> text),
    ``plurals`` (singular id -> forms) and ``reasons`` (code -> English template).

    An untranslated message maps to itself; the plural rule of both languages is
    "one" for 1, else "other".
    """
    if language not in LANGUAGES:
        raise ValueError(language)
    from babel.messages.pofile import read_po

    with catalogue_path(language).open("rb") as handle:
        catalog = read_po(handle, locale=language)
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            messages[message.id] = str(message.string or message.id)
        else:
            ids = [str(i) for i in message.id]
            forms = [str(f) for f in message.string] if message.string else []
            plurals[ids[0]] = forms if forms and all(forms) else ids
    return {"v": PROTOCOL_VERSION, "language": language, "messages": messages,
            "plurals": plurals, "reasons": reason_templates()}


# ---------------------------------------------------------------- requests
class WebCreate(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/web/tables``: the table as ``POST /api/tables`` takes it (its ``hints``
    says whether the hint button is offered; ``hints`` here, when given, overrides it)."""

    table: CreateTable
    hints: bool | None = None


MAX_MOVE_TEXT: Final = 200
"""The longest move text ``explain`` reads (the games' longest notation is far shorter)."""

_Token = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TOKEN_CHARS)]
_SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=63)]


class ClaimRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/web/tables/{id}/claim``: take an open seat (``seat``, or any)."""

    seat: _SeatNumber | None = None


class TokenRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A request made with a link's token (``hint``)."""

    token: _Token


class HostRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/web/host/links``: the host token of a table."""

    host: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TOKEN_CHARS)]


class ExplainRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/web/explain``: the move a player tried, in the game's notation."""

    token: _Token
    text: Annotated[str, msgspec.Meta(max_length=MAX_MOVE_TEXT)]


async def _body(request: Request) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise refuse("lobby.too_large", limit=MAX_BODY_BYTES)
    return body


def _decode(body: bytes, kind: type[Any]) -> Any:
    try:
        return msgspec.json.decode(body, type=kind, strict=True)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise refuse("lobby.bad_request", detail=str(exc)[:160]) from None
    except RecursionError:
        raise refuse("lobby.bad_request", detail="nested too deeply") from None


def _error(error: KartentischError, status: int = 400) -> JSONResponse:
    status = {"lobby.unknown_table": 404, "lobby.not_finished": 409,
              "lobby.too_large": 413, "web.hints_off": 403,
              "web.no_open_seat": 409, "host.not_host": 403,
              "host.other_key": 409, "lobby.too_many_tables": 429,
              "web.hint_busy": 429, "web.hints_busy": 503,
              "server.storage": 503}.get(error.code, status)
    return JSONResponse(error_message(error), status_code=status)


# ---------------------------------------------------------------- hints
def win_chance(game: Game[Any, Any, Any], mean: float) -> float:
    """A mean return turned into a chance of winning, as the game's descriptor maps it."""
    return descriptor_of(game).win_chance(game, mean)


def compute_hint(game_name: str, players: int, options: str, seed: int, observation: Any,
                 legal: Sequence[Any], seconds: float) -> tuple[int, float | None, int]:
    """The ismcts bot's move for ``observation`` (its id), its estimated chance of winning
    and the number of searched worlds; runs in a bot worker or a thread."""
    from kartentisch.bots import make_bot
    from kartentisch.bots.ismcts import ISMCTSBot

    game = load_game(game_name, players, json.loads(options))
    bot = make_bot("ismcts", game, seed, seconds=seconds, iterations=1_000_000)
    assert isinstance(bot, ISMCTSBot)
    action = bot.act(observation, legal)
    aid = game.action_to_id(action)
    root = bot.search(observation) if bot.last_iterations == 0 else None
    if root is None:
        # act() searched: search again briefly for the statistics (the tree is not kept)
        bot.seconds = min(seconds, 0.3)
        root = bot.search(observation)
    child = root.children.get(aid)
    if child is not None and child.visits:
        mean = child.total / child.visits
    else:
        visits = sum(c.visits for c in root.children.values())
        mean = (sum(c.total for c in root.children.values()) / visits) if visits else math.nan
    chance = None if math.isnan(mean) else win_chance(game, mean)
    return aid, chance, bot.last_iterations


# ---------------------------------------------------------------- replays
def open_view(state: State[Any, Any]) -> JSON:
    """The spectator's observation with every hidden card shown (a finished game's replay
    "with all hands open"), as the game's descriptor shows it."""
    obs = descriptor_of(state.game).open_view(state)
    obs["open"] = True
    return obs


def parse_view(text: str | None, players: int) -> Seat | str | None:
    """``all``, ``watch`` (a watcher: None) or a seat number."""
    if text in (None, "", "watch"):
        return None
    if text == "all":
        return "all"
    assert text is not None
    if text.isdigit() and int(text) < players:
        return int(text)
    raise _refuse_web("web.bad_view", last=players - 1, value=text[:20])


def replay_frames(record: GameRecord, view: Seat | str | None) -> JSON:
    """Every position of ``record``'s game as ``view`` sees it, with the moves between.

    A frame holds the observation, the events since the previous frame and, for the seat
    that moved (or for every move with all hands open), the move's notation. ``teams`` are
    the game's teams as at the table (``[]`` when every seat plays alone).
    """
    game = record.new_game()
    state: State[Any, Any] = game.new_initial_state(record.seed)
    viewer: Seat | None = None if view == "all" or view is None else int(view)

    def frame(move: int, seat: Seat | None, text: str | None, cursor: int) -> JSON:
        obs = open_view(state) if view == "all" else state.observation(viewer).to_json()
        shown = text if text is not None and (view == "all" or seat == viewer) else None
        events = [e.to_json() for e in state.events_for(
            None if view == "all" else viewer, cursor)]
        return {"move": move, "seat": seat, "text": shown, "observation": obs,
                "events": events}

    frames = [frame(0, None, None, 0)]
    for index, text in enumerate(record.actions):
        cursor = len(state.events)
        seat = state.current_player
        try:
            state.apply(game.parse_action(text, state))
        except KartentischError as error:
            raise SERVER_REASONS.error(
                ProtocolError, "lobby.bad_request",
                detail=f"move {index + 1} ({text}) does not replay: {error.code}") from error
        frames.append(frame(index + 1, seat, text, cursor))
    return {"v": PROTOCOL_VERSION, "game": record.game, "players": record.players,
            "options": record.options, "seats": record.seats, "names": record.names,
            "teams": [list(seats) for seats in descriptor_of(game).teams(game)],
            "view": view,
            "returns": state.returns() if state.is_terminal() else None,
            "reveal": state.reveal() if state.is_terminal() else None, "frames": frames}


# ---------------------------------------------------------------- routes
def web_routes(hub: Hub) -> list[Route]:
    """The routes above, on ``hub``'s tables (``create_app`` adds them)."""
    async def seat_of(token: str) -> tuple[LiveTable, Seat | None]:
        found = await asyncio.to_thread(hub.storage.resolve_link, token)
        table = None if found is None else await hub.table(found[0])
        if table is None or found is None:
            raise refuse("session.unknown_link")
        return table, found[1]

    async def catalogue_route(request: Request) -> Response:
        language = request.query_params.get("lang", "en")
        if language not in LANGUAGES:
            language = "en"
        data = await asyncio.to_thread(catalogue, language)
        return JSONResponse(data, headers={"Cache-Control": "max-age=300"})

    async def games_route(_request: Request) -> Response:
        return JSONResponse({"v": PROTOCOL_VERSION, "games": games_words(),
                             "hint_seconds": HINT_SECONDS})

    async def create_route(request: Request) -> Response:
        try:
            wanted: WebCreate = _decode(await _body(request), WebCreate)
            table = wanted.table
            if wanted.hints is not None:
                table = msgspec.structs.replace(table, hints=wanted.hints)
            hub.admit_table(client_address(request.scope))
            answer = await hub.create(table)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(answer, status_code=201)

    async def settings_route(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        table = await hub.table(table_id)
        if table is None:
            return _error(refuse("lobby.unknown_table", table=table_id))
        return JSONResponse({"v": PROTOCOL_VERSION, "table": table_id,
                             "hints": table.row.hints})

    async def lobby_route(_request: Request) -> Response:
        tables = await hub.summaries()
        open_seats = await asyncio.to_thread(hub.storage.open_seats,
                                             [t["id"] for t in tables])
        for table in tables:
            mine = open_seats.get(table["id"], [])
            table["open_seats"] = mine
            for seat in table["seats"]:
                seat["open"] = seat["seat"] in mine
        return JSONResponse({"v": PROTOCOL_VERSION, "tables": tables})

    async def claim_route(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            body = await _body(request)
            wanted: ClaimRequest = _decode(body or b"{}", ClaimRequest)
            table = await hub.table(table_id)
            if table is None:
                raise refuse("lobby.unknown_table", table=table_id)
            if table.finished or not table.row.listed or table.row.status != "playing":
                raise _refuse_web("web.no_open_seat", table=table_id)
            token = new_token()
            seat = await asyncio.to_thread(hub.storage.claim_seat, table_id, token,
                                           wanted.seat)
            if seat is None:
                raise _refuse_web("web.no_open_seat", table=table_id)
        except KartentischError as error:
            return _error(error)
        table.row.seats[seat].open = False
        table.tell_all({"v": PROTOCOL_VERSION, "type": "seats", "table": table.id,
                        "seats": table.seats_json()})
        return JSONResponse({"v": PROTOCOL_VERSION, "table": table_id, "seat": seat,
                             "token": token, "link": hub.site.link("seat", token)},
                            status_code=201)

    async def host_links_route(request: Request) -> Response:
        try:
            wanted: HostRequest = _decode(await _body(request), HostRequest)
            table_id = await asyncio.to_thread(hub.storage.host_table, wanted.host)
            table = None if table_id is None else await hub.table(table_id)
            if table is None:
                raise night_error("host.not_host")
            stored = await asyncio.to_thread(hub.storage.link_hashes, table.id)
            answer = host_links(hub, table, stored, hub.site.base_url)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(answer)

    async def explain_route(request: Request) -> Response:
        try:
            wanted: ExplainRequest = _decode(await _body(request), ExplainRequest)
            table, seat = await seat_of(wanted.token)
            if seat is None:
                raise refuse("move.watcher")
            state, game = table.state, table.game
            try:
                state.check_actor(seat)
                action = game.parse_action(wanted.text, state)
                aid = game.action_to_id(action)
                if not state.is_legal_id(aid):
                    raise state.why_illegal(action)
            except KartentischError as error:
                return JSONResponse(error_message(error, move=table.moves))
        except KartentischError as error:
            return _error(error)
        return JSONResponse({"v": PROTOCOL_VERSION, "type": "legal", "id": aid,
                             "text": game.format_action(action, state), "move": table.moves})

    async def hint_route(request: Request) -> Response:
        try:
            wanted: TokenRequest = _decode(await _body(request), TokenRequest)
            table, seat = await seat_of(wanted.token)
            if not table.row.hints:
                raise _refuse_web("web.hints_off")
            if seat is None or not table.acting(seat):
                raise _refuse_web("web.hint_not_your_turn")
            state = table.state
            moves = table.moves
            observation = state.observation(seat)
            legal = state.legal_actions()
            seed = derive_seed(table.row.seed, "hint", seat, moves, int(time.time()))
            try:
                aid, chance, worlds = await hub.pool.hint(
                    table.id, seat, compute_hint, table.row.game, table.row.players,
                    table.options_text, seed, observation, legal, HINT_SECONDS)
            except HintBusy as busy:
                code = "web.hint_busy" if busy.seat else "web.hints_busy"
                hub.health.refused[code] += 1
                raise _refuse_web(code) from None
        except KartentischError as error:
            return _error(error)
        text = table.game.format_action(table.game.action_from_id(aid), state)
        return JSONResponse({"v": PROTOCOL_VERSION, "move": moves, "id": aid, "text": text,
                             "win": chance, "worlds": worlds})

    async def replay_table_route(request: Request) -> Response:
        try:
            record = await hub.record(request.path_params["table_id"])
            view = parse_view(request.query_params.get("view"), record.players)
            data = await asyncio.to_thread(replay_frames, record, view)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(data)

    async def replay_record_route(request: Request) -> Response:
        try:
            body = await _body(request)
            try:
                raw = json.loads(body)
            except (ValueError, RecursionError):
                raise refuse("lobby.bad_request", detail="the record is not JSON") from None
            record = GameRecord.from_json(raw)
            view = parse_view(request.query_params.get("view"), record.players)
            data = await asyncio.to_thread(replay_frames, record, view)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(data)

    return [
        Route("/api/web/catalogue", catalogue_route),
        Route("/api/web/games", games_route),
        Route("/api/web/tables", create_route, methods=["POST"]),
        Route("/api/web/tables/{table_id}", settings_route),
        Route("/api/web/tables/{table_id}/claim", claim_route, methods=["POST"]),
        Route("/api/web/lobby", lobby_route),
        Route("/api/web/host/links", host_links_route, methods=["POST"]),
        Route("/api/web/explain", explain_route, methods=["POST"]),
        Route("/api/web/hint", hint_route, methods=["POST"]),
        Route("/api/web/replay/{table_id}", replay_table_route),
        Route("/api/web/replay", replay_record_route, methods=["POST"]),
    ]


__all__ = ["WEB_REASONS", "catalogue", "games_words",
           "open_view", "replay_frames", "web_routes"]
