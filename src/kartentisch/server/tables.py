"""The authoritative tables of one server process and what each client is told.

A :class:`Hub` keeps the live tables of its process. A table's state is rebuilt from the
database by replay (game, options, seed, moves), changed only under the table's lock, and
only after the move is stored (write-ahead): validate, store durably, apply, then tell every
client. Each client gets its own view: a seat its observation, its legal moves and the events
as that seat may see them, a watcher the spectator's. :func:`update_message` builds that view
from the state's public interface alone, so a test can check that it depends on nothing the
viewer may not know.

Bots, stand-ins for players who left and the turn clock's moves are computed in the
:class:`~kartentisch.server.bots.BotPool` and stored like any other move. With several
processes on one PostgreSQL database, a move another process stored arrives as a
notification and the table catches up from the database.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Final

import msgspec

from kartentisch.bots import list_bots
from kartentisch.core.errors import KartentischError
from kartentisch.core.protocol import Game, Seat, State
from kartentisch.core.reasons import render
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import descriptor, load_game
from kartentisch.core.rng import SEED_MAX, derive_seed
from kartentisch.server import flow, links
from kartentisch.server.bots import STRENGTH_SECONDS, BotPool, bot_params, stand_in_bot
from kartentisch.server.health import Health, Presence, backoff
from kartentisch.server.hosting import HOST_MESSAGES, host_act
from kartentisch.server.limits import KeyedBuckets, Limits, TokenBucket
from kartentisch.server.people import (
    HISTORY,
    Bucket,
    clean_chat,
    clean_name,
    night_error,
)
from kartentisch.server.protocol import (
    PROTOCOL_VERSION,
    SERVER_REASONS,
    Chat,
    Hello,
    Leave,
    Move,
    Name,
    Ping,
    ProtocolError,
    React,
    Rematch,
    Start,
    Sync,
    TakeOver,
    TakeSeat,
    decode_message,
    error_message,
    refuse,
)
from kartentisch.server.reasons import NIGHT_REASONS
from kartentisch.server.site import Site
from kartentisch.server.storage import (
    STORAGE_ERRORS,
    TABLE_FIELDS,
    ChatRow,
    Listener,
    MoveConflict,
    MoveRow,
    SeatRow,
    Storage,
    TableRow,
    token_hash,
)

log = logging.getLogger("kartentisch.server")

JSON = dict[str, Any]

TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a table id may look like (the server makes 12 such characters); any other id is
unknown without asking the database (no NUL byte or megabyte of text reaches a query)."""
NOTICE_TEMPLATES: Final = {**SERVER_REASONS, **NIGHT_REASONS}
"""The English templates of the notices a table's log may hold."""

LOBBY_EXPIRY_SECONDS: Final = 30 * 60.0
"""A listed table nobody is connected to leaves the lobby this long after its last move,
join or chat (``kartentisch serve --lobby-expiry MINUTES``)."""

HUMAN: Final = "human"
BOT: Final = "bot"
STAND_IN_PACE: Final = 1.5
"""Seconds a stand-in waits at least before its move (``serve --stand-in-pace``)."""


# ---------------------------------------------------------------- connections
class Conn:
    """One client: the table and seat it joined (``seat`` None and ``watcher``: a watcher)
    and how many of the table's events it has been sent. Subclasses deliver messages."""

    def __init__(self) -> None:
        self.table: LiveTable | None = None
        self.seat: Seat | None = None
        self.watcher = False
        self.cursor = 0
        """Events sent so far (the next update starts there)."""
        self.active = True
        """Whether this connection plays its seat. One connection per seat is active; a
        later one of the same seat (a second tab) is passive: it sees the seat's view
        without legal moves and is refused moves until it sends ``take_over``."""
        self.name: str | None = None
        """The person's display name (a watcher's lives only here)."""
        self.host = False
        """This connection showed the table's host token."""
        self.bucket = Bucket()
        """How fast this connection may chat."""

    def push(self, message: JSON) -> None:
        """Send ``message`` (in order, without waiting)."""
        raise NotImplementedError

    def push_encoded(self, message: JSON, data: bytes) -> None:
        """Send ``message``, already encoded as ``data`` (shared by several connections
        that get the same message, so it is encoded once)."""
        self.push(message)


ENCODER: Final = msgspec.json.Encoder()
"""The one JSON encoder of every outgoing message (reused: no set-up per message)."""


# ---------------------------------------------------------------- what a client is told
@dataclass(slots=True)
class LastMove:
    """The latest move: public facts for all, and the action itself for its own seat."""

    move: int
    seat: Seat
    by: str
    action: JSON
    """``{"id", "text"}``: sent only to the seat that moved."""

    def for_viewer(self, viewer: Seat | None) -> JSON:
        """The move as ``viewer`` may see it."""
        public: JSON = {"move": self.move, "seat": self.seat, "by": self.by}
        if viewer is not None and viewer == self.seat:
            public["action"] = self.action
        return public


def last_move(game: Game[Any, Any, Any], before: State[Any, Any], move: int, seat: Seat,
              aid: int, by: str, legal: list[JSON] | None = None) -> LastMove:
    """The :class:`LastMove` for action ``aid`` about to be applied to ``before``
    (``legal``: ``before``'s legal moves with their notation, when already built)."""
    if legal is not None:
        for entry in legal:
            if entry["id"] == aid:
                return LastMove(move, seat, by, entry)
    text = game.format_action(game.action_from_id(aid), before)
    return LastMove(move, seat, by, {"id": aid, "text": text})


def legal_moves(game: Game[Any, Any, Any], state: State[Any, Any]) -> list[JSON]:
    """The legal actions of the seat to move, with their notation."""
    decode = game.action_from_id
    return [{"id": aid, "text": game.format_action(decode(aid), state)}
            for aid in state.legal_action_ids()]


def update_message(table_id: str, game: Game[Any, Any, Any], state: State[Any, Any], *,
                   moves: int, viewer: Seat | None, cursor: int, acting: bool,
                   last: LastMove | None, deadline: float | None, full: bool = False,
                   legal: list[JSON] | None = None, closed: bool = False) -> JSON:
    """The ``update`` message for ``viewer`` (None: a watcher) after ``moves`` moves.

    It is built from ``viewer``'s observation, the events from ``cursor`` on as ``viewer``
    may see them, and, when ``acting`` (the viewer is to move and plays the seat itself),
    the legal moves; at the end the returns and the whole deal, which everyone may see then.
    """
    terminal = state.is_terminal()
    message: JSON = {
        "v": PROTOCOL_VERSION,
        "type": "update",
        "table": table_id,
        "move": moves,
        "status": "finished" if terminal else "closed" if closed else "playing",
        "to_move": None if terminal or closed else state.current_player,
        "observation": state.observation(viewer).to_json(),
        "events_from": cursor,
        "events": [e.to_json() for e in state.events_for(viewer, cursor)],
        "legal": (legal if legal is not None else legal_moves(game, state)) if acting else [],
        "last": None if last is None else last.for_viewer(viewer),
        "deadline": None if deadline is None else round(deadline * 1000),
        "full": full,
    }
    if terminal:
        message["returns"] = list(state.returns())
        message["reveal"] = state.reveal()
    return message


def _notice(code: str, params: JSON) -> JSON:
    """A ``notice`` message: a server reason code, its parameters and its English text (a
    person without a name is called by their seat there)."""
    shown = dict(params)
    if "name" in shown and shown["name"] is None:
        shown["name"] = f"seat {shown.get('seat', '?')}"
    return {"v": PROTOCOL_VERSION, "type": "notice", "code": code, "params": params,
            "message": render(SERVER_REASONS[code], shown)}


def _active_message(table: LiveTable, active: bool) -> JSON:
    """Tells a seat's connection whether it plays the seat (``active``) or only watches
    it because another connection of the same seat does."""
    return {"v": PROTOCOL_VERSION, "type": "active", "table": table.id, "active": active}


# ---------------------------------------------------------------- live tables
class LiveTable:
    """A table in play in this process: its stored row, game, state and connections."""

    def __init__(self, row: TableRow, game: Game[Any, Any, Any], state: State[Any, Any],
                 moves: int, last: LastMove | None) -> None:
        self.row = row
        self.id = row.id
        self.game = game
        self.state = state
        self.moves = moves
        self.last = last
        self.lock = asyncio.Lock()
        self.chat_lock = asyncio.Lock()
        """Numbers the log's entries one at a time (moves need not wait for chat)."""
        self.conns: set[Conn] = set()
        self.deadline: float | None = None
        self.clock: asyncio.TimerHandle | None = None
        self.thinking: int | None = None
        """The move number a bot task is working on."""
        self.broken = False
        self.options_text = json.dumps(row.options, sort_keys=True)
        self.chat_next = 0
        """The number of the table's next log entry (read from the database on load)."""
        self._legal: tuple[int, list[JSON]] | None = None
        """The legal moves with their notation at move number ``[0]`` (built once)."""
        self.presence = Presence()
        self.retries = 0
        """Failed stores of the move now due (the next retry waits longer)."""
        self.overdue: int | None = None
        """The move number whose clock ran out but whose stand-in move is not stored yet."""
        self.teams = [list(seats) for seats in descriptor(row.game).teams(game)]
        """The seats of each team (public; empty when every seat plays alone): the game's
        descriptor tells them from the players and options, fixed for the table."""

    def legal(self) -> list[JSON]:
        """The legal moves of the seat to move, with their notation, built once per
        position (every update to the acting seat, sync and rejoin share the list)."""
        cached = self._legal
        if cached is not None and cached[0] == self.moves:
            return cached[1]
        legal = legal_moves(self.game, self.state)
        self._legal = (self.moves, legal)
        return legal

    def legal_if_built(self) -> list[JSON] | None:
        """The current position's legal moves if :meth:`legal` has built them already."""
        cached = self._legal
        return cached[1] if cached is not None and cached[0] == self.moves else None

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def seat_players(self) -> list[str]:
        """Who sits where, as a record names them: ``"human"`` or the bot's name."""
        return [HUMAN if s.kind == HUMAN else str(s.bot) for s in self.row.seats]

    def acting(self, viewer: Seat | None) -> bool:
        """Whether ``viewer`` is to move and plays the seat (not a bot in its place)."""
        if (viewer is None or self.finished or viewer != self.state.current_player
                or self.row.status == "closed" or self.row.started_at is None):
            return False
        seat = self.row.seats[viewer]
        return seat.kind == HUMAN and not seat.left

    def active_conn(self, seat: Seat) -> Conn | None:
        """The connection that plays ``seat`` (None: nobody has it open)."""
        for conn in self.conns:
            if conn.seat == seat and conn.active:
                return conn
        return None

    def seats_json(self) -> list[JSON]:
        """The public facts about every seat (connected: to this server process)."""
        present = {c.seat for c in self.conns if c.seat is not None}
        return [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "strength": s.strength,
                 "left": s.left, "open": s.open, "connected": s.seat in present,
                 "name": s.name, "joined": s.joined}
                for s in self.row.seats]

    def names(self) -> list[str | None]:
        """The seats' display names (None: a bot or a person without a name)."""
        return [s.name for s in self.row.seats]

    def info(self) -> JSON:
        """The table's public description (the lobby's and the welcome message's)."""
        return {"id": self.id, "game": self.row.game, "title": self.game.spec.title,
                "players": self.row.players, "options": self.row.options,
                "clock": self.row.clock, "stand_in": self.row.stand_in, "hints": self.row.hints,
                "status": self.status(), "move": self.moves,
                "listed": self.row.listed, "watcher_chat": self.row.watcher_chat,
                "started": self.row.started_at is not None, "series": self.row.series,
                "series_no": self.row.series_no, "seats": self.seats_json(),
                "teams": self.teams, "watchers": self.presence.watchers}

    @property
    def ended(self) -> bool:
        """Whether no move comes any more: the game is over or the host closed it."""
        return self.finished or self.row.status == "closed"

    def status(self) -> str:
        """``playing``, ``finished`` (the game is over) or ``closed`` (the host ended it)."""
        if self.row.status == "closed":
            return "closed"
        return "finished" if self.finished else "playing"

    def update_for(self, conn: Conn, *, full: bool = False) -> JSON:
        """The update for ``conn`` from its cursor on (which then moves to the end)."""
        cursor = 0 if full else conn.cursor
        acting = conn.active and self.acting(conn.seat)
        message = update_message(
            self.id, self.game, self.state, moves=self.moves, viewer=conn.seat, cursor=cursor,
            acting=acting, last=self.last, deadline=self.deadline, full=full,
            legal=self.legal() if acting else None, closed=self.row.status == "closed")
        message["started"] = self.row.started_at is not None
        conn.cursor = len(self.state.events)
        return message

    def broadcast(self, *, mover: Conn | None = None, ref: int | None = None,
                  skip: Conn | None = None) -> None:
        """Send every connection its update; ``mover`` gets ``ref`` echoed.

        Connections that get the same message (watchers, or two devices of one seat, that
        were sent the same events so far) share one message, built and encoded once."""
        events = len(self.state.events)
        shared: dict[tuple[Seat | None, int, bool], tuple[JSON, list[Conn]]] = {}
        for conn in list(self.conns):
            if conn is skip:
                continue
            if conn is mover and ref is not None:
                message = self.update_for(conn)
                message["ref"] = ref
                conn.push(message)
                continue
            key = (conn.seat, conn.cursor, conn.active)
            group = shared.get(key)
            if group is None:
                shared[key] = (self.update_for(conn), [conn])
            else:
                group[1].append(conn)
                conn.cursor = events
        for message, conns in shared.values():
            if len(conns) == 1:
                conns[0].push(message)
            else:
                data = ENCODER.encode(message)
                for conn in conns:
                    conn.push_encoded(message, data)

    def tell_all(self, message: JSON) -> None:
        for conn in list(self.conns):
            conn.push(message)

    def record(self) -> GameRecord:
        """The game so far as a record (``kartentisch replay`` reads it)."""
        return GameRecord.from_state(self.row.game, self.state, self.seat_players(),
                                     names=self.names() if any(self.names()) else ())


# ---------------------------------------------------------------- creating tables
class SeatSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One seat of a new table: a human (invited by a link) or a bot."""

    kind: str = HUMAN
    bot: str | None = None
    strength: int | None = None
    open: bool = False
    """A human seat anyone in the lobby may claim (listed tables only): it gets no link at
    creation; the first claim makes one (see ``POST /api/web/tables/{id}/claim``)."""
    name: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    """The display name of the seat's person (the host names their own seat)."""


class CreateTable(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A request for a new table (``POST /api/tables``)."""

    game: str
    v: int = PROTOCOL_VERSION
    players: int | None = None
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    seats: list[SeatSpec] | None = None
    clock: float | None = None
    listed: bool = True
    hints: bool = True
    """Whether the page offers the ismcts bot's hint at this table (stored with it)."""
    watcher_chat: bool = False
    """Whether watchers may chat at this table (players always may)."""


def new_id() -> str:
    """A table id: public (it names the table in the lobby), random, short."""
    return secrets.token_urlsafe(9)


def new_token() -> str:
    """A link token: a 256-bit capability from :mod:`secrets`."""
    return secrets.token_urlsafe(32)


# ---------------------------------------------------------------- the hub
class Hub:
    """The live tables of this process, the storage, the bot workers and the listener."""

    def __init__(self, storage: Storage, pool: BotPool, *, secret: bytes | None = None,
                 lobby_expiry: float = LOBBY_EXPIRY_SECONDS,
                 stand_in_pace: float = STAND_IN_PACE, limits: Limits | None = None,
                 site: Site | None = None) -> None:
        self.storage = storage
        self.pool = pool
        self.limits = limits or Limits()
        self.site = site or Site.make("http://localhost:8000/")
        self.health = Health()
        self._table_buckets = KeyedBuckets(self.limits.tables_burst, self.limits.tables_rate)
        self._all_tables = TokenBucket(self.limits.all_tables_burst, self.limits.all_tables_rate)
        self.stand_in_pace = stand_in_pace
        """Seconds a stand-in takes at least for a move of a player who left: a human
        pace, so the game does not rush to its end and ``take_seat`` in time wins."""
        self.lobby_expiry = lobby_expiry
        """Seconds after its last activity that a table nobody is at leaves the lobby."""
        self.secret = secret if secret is not None else secrets.token_bytes(32)
        """The server secret every link of this server's tables is derived from (a random
        one, when none is given, lasts as long as this process)."""
        self.key_id = links.key_id(self.secret)
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listener: Listener | None = None
        self._catching_up: set[str] = set()
        self._again: set[str] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.errors = 0
        """Server errors so far (the fuzz test asserts none)."""

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Migrate the schema, start the journal and listener, and resume unfinished tables."""
        self.loop = asyncio.get_running_loop()
        await asyncio.to_thread(self.storage.migrate)
        self.storage.start()
        if self.storage.is_postgres:
            self._listener = Listener(self.storage.url, self._heard,
                                      origin=self.storage.origin)
            await asyncio.to_thread(self._listener.start)
        since = time.time() - self.lobby_expiry  # older ones are abandoned: not resumed
        for table_id in await asyncio.to_thread(self.storage.table_ids, status="playing",
                                                active_since=since):
            await self.table(table_id)
        self.spawn(self._sweep())

    async def stop(self) -> None:
        """Stop bots, clocks and the listener; finish queued writes."""
        for task in list(self._tasks):
            task.cancel()
        for table in self.tables.values():
            if table.clock is not None:
                table.clock.cancel()
        if self._listener is not None:
            await asyncio.to_thread(self._listener.stop)
        await asyncio.to_thread(self.storage.close)
        self.pool.close()

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run ``coro`` as a task the hub keeps (and cancels at the end)."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.errors += 1
            log.error("table task failed", exc_info=task.exception())

    async def _sweep(self) -> None:
        """Every so often, take the tables out of memory that need not be there."""
        while True:
            await asyncio.sleep(max(0.05, min(60.0, self.limits.unload_after / 4)))
            self.unload_idle()

    def unload_idle(self) -> int:
        """Unload the tables nobody is connected to that are finished, or that wait for an
        absent person's move with no clock and no bot to run them, for ``unload_after``
        seconds; they are read back from the database when someone asks. Returns how many."""
        now = time.monotonic()
        gone = 0
        for table in list(self.tables.values()):
            if table.conns or table.lock.locked() or table.id in self.health.retrying:
                continue
            if not table.ended:
                seat = table.row.seats[table.state.current_player]
                if (seat.kind != HUMAN or seat.left or table.clock is not None
                        or table.thinking == table.moves
                        or now - table.presence.idle_since < self.limits.unload_after):
                    continue
            del self.tables[table.id]
            gone += 1
        self.health.unloaded += gone
        return gone

    # ------------------------------------------------------------------ tables
    async def table(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id``, rebuilt from the database on first use."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if not TABLE_ID.fullmatch(table_id):
            return None  # no such id is ever made: not worth a query
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            loaded = await asyncio.to_thread(self.storage.load_table, table_id)
            live = None if loaded is None else self._rebuild(*loaded)
            if live is not None and not live.ended:  # an ended one only while watched
                live.chat_next = await asyncio.to_thread(self.storage.chat_count, table_id)
                self.tables[table_id] = live
                self._schedule(live)
            elif live is not None and live.row.status == "playing":
                self.spawn(self._finish_later(live))  # its end was not stored yet
            future.set_result(live)
            return live
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[table_id]

    def _rebuild(self, row: TableRow, moves: Sequence[MoveRow]) -> LiveTable:
        """The table after replaying its stored moves."""
        game = load_game(row.game, row.players, row.options)
        state: State[Any, Any] = game.new_initial_state(row.seed)
        live = LiveTable(row, game, state, 0, None)
        for move in moves:
            self._apply_stored(live, move)
        return live

    def _apply_stored(self, table: LiveTable, move: MoveRow) -> None:
        """Apply a move read from the database (made here earlier or by another process)."""
        if move.move_no != table.moves:
            raise RuntimeError(f"table {table.id}: move {move.move_no} where {table.moves} is due")
        last = last_move(table.game, table.state, move.move_no, move.seat, move.action, move.by,
                         table.legal_if_built())
        table.state.apply_id(move.action, seat=move.seat)
        table.moves += 1
        table.last = last

    def admit_table(self, address: str) -> None:
        """Take a token of ``address``'s table bucket and of all addresses' together, or
        refuse ``lobby.too_many_tables`` (with ``retry_after``)."""
        wait = self._table_buckets.take(address) or self._all_tables.take()
        if wait:
            self.health.refused["lobby.too_many_tables"] += 1
            raise refuse("lobby.too_many_tables", retry_after=math.ceil(wait * 10) / 10)

    async def create(self, request: CreateTable, base_url: str | None = None) -> JSON:
        """Create a table; returns its id and links (the only time the links are shown),
        made from the configured public URL (``base_url``: another one, for tests)."""
        site = self.site if base_url is None else Site.make(base_url)
        if request.v != PROTOCOL_VERSION:
            raise refuse("message.bad_version", value=request.v, supported=PROTOCOL_VERSION)
        game = load_game(request.game, request.players, request.options)
        name = game.spec.name
        specs = request.seats if request.seats is not None else [SeatSpec()] * game.players
        if len(specs) != game.players:
            raise refuse("lobby.seat_count", game=name, players=game.players, count=len(specs))
        seats: list[SeatRow] = []
        known = list_bots(name)
        for index, spec in enumerate(specs):
            if spec.open and (spec.kind != HUMAN or not request.listed):
                raise refuse("lobby.bad_request",
                             detail=f"seat {index}: only a human seat at a listed table is open")
            if spec.name is not None and spec.kind != HUMAN:
                raise refuse("lobby.bad_request",
                             detail=f"seat {index}: only a human seat has a name")
            if spec.kind == HUMAN and spec.bot is None and spec.strength is None:
                seats.append(SeatRow(index, HUMAN, open=spec.open,
                                     name=None if spec.name is None else clean_name(spec.name)))
            elif spec.kind == BOT and spec.bot in known:
                strength = spec.strength
                if strength is not None and (type(strength) is not int
                                             or not 1 <= strength <= len(STRENGTH_SECONDS)):
                    raise refuse("lobby.bad_strength", high=len(STRENGTH_SECONDS),
                                 value=strength)
                seats.append(SeatRow(index, BOT, spec.bot, strength))
            elif spec.kind == BOT:
                raise refuse("lobby.unknown_bot", bot=spec.bot, game=name, known=", ".join(known))
            else:
                raise refuse("lobby.bad_request",
                             detail=f"seat {index}: kind is human (alone) or bot (with a bot)")
        clock = request.clock
        if clock is not None and not 0.05 <= clock <= 86400:
            raise refuse("lobby.bad_request", detail="clock is seconds from 0.05 to 86400")
        row = TableRow(id=new_id(), game=name, players=game.players,
                       options=game.options_json(), seed=secrets.randbelow(SEED_MAX + 1),
                       clock=clock, listed=request.listed, stand_in=stand_in_bot(name),
                       seats=seats, hints=request.hints, watcher_chat=request.watcher_chat,
                       key_id=self.key_id)
        host = links.host_token(self.secret, row.id)
        row.host_hash = token_hash(host)
        tokens: dict[str, int | None] = {}
        answer_seats: list[JSON] = []
        for seat in seats:
            entry: JSON = {"seat": seat.seat, "kind": seat.kind, "bot": seat.bot,
                           "strength": seat.strength}
            if seat.open:
                entry["open"] = True  # no link yet: whoever claims the seat gets one
            elif seat.kind == HUMAN:
                token = links.seat_token(self.secret, row.id, seat.seat, seat.generation)
                tokens[token] = seat.seat
                entry.update(token=token, link=site.link("seat", token))
            if seat.kind == HUMAN:
                entry["name"] = seat.name
            answer_seats.append(entry)
        watch = links.watch_token(self.secret, row.id)
        tokens[watch] = None
        row.watch = watch if request.listed else None
        await self._store("create", row, tokens)
        live = self._rebuild(row, [])  # as stored: no need to read it back
        self.tables[row.id] = live
        self._schedule(live)
        log.info("table %s created: %s, %d players", row.id, name, row.players)
        return {"v": PROTOCOL_VERSION, "table": row.id, "seats": answer_seats,
                "teams": live.teams, "hints": row.hints, "listed": row.listed,
                "watcher_chat": row.watcher_chat,
                "watch": {"token": watch, "link": site.link("watch", watch)},
                "host": {"token": host, "link": site.link("host", host)}}

    # ------------------------------------------------------------------ messages
    async def handle(self, conn: Conn, data: str | bytes) -> None:
        """Decode and carry out one client message; any error goes to ``conn`` alone."""
        ref: int | None = None
        try:
            message = decode_message(data)
            if isinstance(message, Move | Ping):
                ref = message.ref
            if isinstance(message, Hello):
                await self.hello(conn, message)
                return
            if isinstance(message, Ping):
                conn.push({"v": PROTOCOL_VERSION, "type": "pong", "ref": message.ref})
                return
            table = conn.table
            if table is None:
                raise refuse("session.hello_first")
            if isinstance(message, Move):
                await self.move(conn, table, message)
            elif isinstance(message, Sync):
                async with table.lock:
                    conn.push(table.update_for(conn, full=True))
            elif isinstance(message, Leave):
                await self.set_left(conn, table, True)
            elif isinstance(message, TakeSeat):
                await self.set_left(conn, table, False)
            elif isinstance(message, Name):
                await self.rename(conn, table, message.name)
            elif isinstance(message, Chat):
                await self.chat(conn, table, "chat", clean_chat(message.text))
            elif isinstance(message, React):
                await self.chat(conn, table, "react", message.reaction)
            elif isinstance(message, HOST_MESSAGES):
                await host_act(self, conn, table, message)
            elif isinstance(message, TakeOver):
                await self.take_over(conn, table)
            elif isinstance(message, Start):
                await flow.start(self, conn, table)
            elif isinstance(message, Rematch):
                await flow.rematch(self, conn, table)
        except KartentischError as error:
            conn.push(self._error(conn, error, ref))
        except STORAGE_ERRORS as error:  # a read failed (writes are turned into refusals)
            self.health.store_failed(error)
            log.error("storage: a read failed: %s", type(error).__name__)
            conn.push(self._error(conn, refuse("server.storage"), ref))
        except Exception:
            self.errors += 1
            log.exception("server error on a client message")
            conn.push(self._error(conn, refuse("server.internal"), ref))

    @staticmethod
    def _error(conn: Conn, error: KartentischError, ref: int | None) -> JSON:
        extra: dict[str, Any] = {}
        if ref is not None:
            extra["ref"] = ref
        if conn.table is not None:
            extra["move"] = conn.table.moves
        return error_message(error, **extra)

    async def hello(self, conn: Conn, message: Hello) -> None:
        """Join the table of the link (or, with only the host token, the host's table as a
        watcher): welcome with the table's recent log, then the whole view.

        A seat's first hello marks it joined; a name given is stored with the seat (a
        watcher's stays on its connection)."""
        if conn.table is not None:
            raise refuse("session.already_joined")
        name = None if message.name is None else clean_name(message.name)
        found: tuple[str, int | None] | None = None
        if message.token is not None:
            found = await asyncio.to_thread(self.storage.resolve_link, message.token)
        if message.host is not None:
            host_of = await asyncio.to_thread(self.storage.host_table, message.host)
            if host_of is None or (found is not None and found[0] != host_of):
                raise night_error("host.not_host")
            if found is None and message.token is None:
                found = (host_of, None)
        table = None if found is None else await self.table(found[0])
        if table is None or found is None or self._expired(table):
            raise refuse("session.unknown_link")
        if found[1] is None and table.presence.watchers >= self.limits.watchers_per_table:
            self.health.refused["session.too_many_watchers"] += 1
            raise refuse("session.too_many_watchers", limit=self.limits.watchers_per_table)
        table = self.tables.setdefault(table.id, table)  # a finished one: kept while watched
        history = await asyncio.to_thread(self.storage.chat, table.id, last=HISTORY)
        async with table.lock:
            conn.table, conn.seat, conn.watcher = table, found[1], found[1] is None
            conn.host, conn.name = message.host is not None, name
            conn.active = conn.seat is None or table.active_conn(conn.seat) is None
            table.conns.add(conn)
            if conn.seat is not None:
                seat = table.row.seats[conn.seat]
                changes: JSON = {}
                if not seat.joined:
                    changes["joined"] = True
                    if seat.left and seat.bot is None and seat.generation > 0:
                        changes["left"] = False  # the host's new invitee takes the seat
                if name is not None and name != seat.name:
                    changes["name"] = name
                if changes:
                    await self._store_seat(table, seat, changes)
                conn.name = seat.name
            first_join = "joined" in changes if conn.seat is not None else False
            was_started = flow.started(table)
            if first_join:  # the table may start now, or the clock may run for this seat
                flow.start_if_ready(self, table, announce=False)
                self._schedule(table)
            await self._touch(table)
            conn.push({"v": PROTOCOL_VERSION, "type": "welcome", "role":
                       "watcher" if conn.watcher else "seat", "seat": conn.seat,
                       "host": conn.host, "active": conn.active, "table": table.info(),
                       "chat": [self._chat_json(table, entry) for entry in history]})
            conn.push(table.update_for(conn, full=True))
            if table.row.rematch is not None:
                conn.push(flow.offer_message(table))
            clock_now = (table.row.clock is not None and flow.started(table)
                         and table.state.current_player == conn.seat)
            if first_join and (flow.started(table) != was_started or clock_now):
                table.broadcast(skip=conn)  # the start, or this seat's clock, changes views
            self._presence_changed(table, conn, 1)
            if flow.started(table) and not was_started:  # in the log before anything else
                await flow.announce_start(self, table, by_host=False)

    async def _store_seat(self, table: LiveTable, seat: SeatRow, changes: JSON) -> None:
        """Store ``changes`` of a seat's columns, then make them (the lock is held)."""
        await asyncio.wrap_future(self.storage.submit("seat", table.id, seat.seat, changes))
        for key, value in changes.items():
            setattr(seat, key, value)

    async def _touch(self, table: LiveTable) -> None:
        """Note the table as active now (the lobby's expiry clock)."""
        now = time.time()
        table.row.last_active = now
        await asyncio.wrap_future(self.storage.submit("table", table.id, {"last_active": now}))

    async def rename(self, conn: Conn, table: LiveTable, text: str) -> None:
        """``name``: the connection's person is called ``text`` from now on (limited like
        chat: each rename of a seat is a write)."""
        name = clean_name(text)
        wait = conn.bucket.take()
        if wait > 0:
            raise night_error("chat.too_fast", retry_after=max(1, round(wait)))
        async with table.lock:
            conn.name = name
            if conn.seat is not None:
                seat = table.row.seats[conn.seat]
                if seat.name != name:
                    await self._store_seat(table, seat, {"name": name})
                    self._seats_changed(table)

    @staticmethod
    def _chat_json(table: LiveTable, entry: ChatRow) -> JSON:
        return {"v": PROTOCOL_VERSION, "type": "chat", "table": table.id, **entry.to_json()}

    async def chat(self, conn: Conn, table: LiveTable, kind: str, text: str) -> None:
        """A chat line or a reaction from ``conn``: checked (watchers, rate), stored, told
        to everyone at the table."""
        if conn.watcher and not table.row.watcher_chat:
            raise night_error("chat.watchers_off")
        wait = conn.bucket.take()
        if wait > 0:
            raise night_error("chat.too_fast", retry_after=max(1, round(wait)))
        await self.log_entry(table, kind, text, seat=conn.seat, name=conn.name)

    async def log_entry(self, table: LiveTable, kind: str, text: str, *,
                        seat: int | None = None, name: str | None = None,
                        params: JSON | None = None) -> ChatRow:
        """Store an entry of the table's log (chat, reaction or notice) and tell everyone.
        A notice's message renders its code's English template with ``params``."""
        async with table.chat_lock:
            entry = ChatRow(table.chat_next, time.time(), seat, name, kind, text, params)
            await self._store("chat", table.id, entry)
            table.chat_next += 1
            table.row.last_active = entry.at
        message = self._chat_json(table, entry)
        if kind == "notice":  # also as a plain notice, for clients that read only those
            shown = dict(params or {})
            if "name" in shown and shown["name"] is None:
                shown["name"] = f"seat {shown.get('seat', '?')}"
            message["message"] = render(NOTICE_TEMPLATES.get(text, text), shown)
            table.tell_all({"v": PROTOCOL_VERSION, "type": "notice", "code": text,
                            "params": params or {}, "message": message["message"],
                            "n": entry.n})
        table.tell_all(message)
        return entry

    def disconnect(self, conn: Conn) -> None:
        """Forget a closed connection (its seat stays; the clock or a stand-in covers it).

        A finished or closed table nobody is connected to leaves memory (the database keeps
        it)."""
        table = conn.table
        if table is not None and conn in table.conns:
            table.conns.discard(conn)
            if conn.seat is not None and conn.active:
                self._promote(table, conn.seat)
            self._presence_changed(table, conn, -1)
            self._evict(table)

    @staticmethod
    def _promote(table: LiveTable, seat: Seat) -> None:
        """The active connection of ``seat`` closed: its newest passive one (another tab
        of the same person that stayed open) plays the seat now."""
        waiting = [c for c in table.conns if c.seat == seat and not c.active]
        if waiting:
            heir = waiting[-1]
            heir.active = True
            heir.push(_active_message(table, True))
            heir.push(table.update_for(heir, full=True))

    async def take_over(self, conn: Conn, table: LiveTable) -> None:
        """``take_over``: this connection plays its seat from now on; the one that did
        (another tab) is told ``seat.taken_over`` and only watches."""
        if conn.watcher or conn.seat is None:
            raise refuse("seat.watcher")
        async with table.lock:
            if conn.active:
                conn.push(_active_message(table, True))
                return
            for other in list(table.conns):
                if other.seat == conn.seat and other.active:
                    other.active = False
                    other.push(_active_message(table, False))
                    other.push(_notice("seat.taken_over", {}))
                    other.push(table.update_for(other, full=True))
            conn.active = True
            conn.push(_active_message(table, True))
            conn.push(table.update_for(conn, full=True))

    def _evict(self, table: LiveTable) -> None:
        if table.ended and not table.conns and self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.health.unloaded += 1

    def _expired(self, table: LiveTable) -> bool:
        """Whether the table ended so long ago that its links stopped working."""
        ended = table.row.finished_at or table.row.last_active
        return (table.ended and ended is not None
                and time.time() - ended > self.limits.finished_expiry)

    def _seats_changed(self, table: LiveTable) -> None:
        """Tell everyone the seats, if they changed since they were told last."""
        seats = table.seats_json()
        if seats == table.presence.told_seats:
            return
        table.presence.told_seats = seats
        table.tell_all({"v": PROTOCOL_VERSION, "type": "seats", "table": table.id,
                        "seats": seats})

    def _presence_changed(self, table: LiveTable, conn: Conn, step: int) -> None:
        """``conn`` joined (``step`` 1) or left (-1). A seat's connection may change the
        seats everyone sees; a watcher changes only the count of watchers, told to the
        seated players at most once per ``watcher_count_interval`` (so a crowd of watchers
        costs each seat a message a second, not one per watcher)."""
        presence = table.presence
        presence.idle_since = time.monotonic()
        if not conn.watcher:
            self._seats_changed(table)
            return
        presence.watchers += step
        if not presence.flush_pending and self.loop is not None:
            presence.flush_pending = True
            self.loop.call_later(self.limits.watcher_count_interval,
                                 self._tell_watchers, table)

    def _tell_watchers(self, table: LiveTable) -> None:
        presence = table.presence
        presence.flush_pending = False
        if presence.watchers == presence.told_watchers:
            return
        presence.told_watchers = presence.watchers
        message = {"v": PROTOCOL_VERSION, "type": "watchers", "table": table.id,
                   "count": presence.watchers}
        data = ENCODER.encode(message)
        for other in list(table.conns):
            if not other.watcher:
                other.push_encoded(message, data)

    async def move(self, conn: Conn, table: LiveTable, message: Move) -> None:
        """A human's move: checked, stored, applied, told (the mover's update echoes ref)."""
        if conn.watcher or conn.seat is None:
            raise refuse("move.watcher")
        if not conn.active:
            raise refuse("seat.other_tab")
        seat = conn.seat
        async with table.lock:
            if table.row.status == "closed":
                raise night_error("table.closed")
            if not flow.started(table):
                raise refuse("move.not_started")
            if table.row.seats[seat].left:
                raise refuse("move.stand_in")
            if message.move != table.moves:
                raise refuse("move.stale", got=message.move, current=table.moves)
            await self._commit(table, seat, message.action, HUMAN, mover=conn, ref=message.ref,
                               number=message.move)

    async def _commit(self, table: LiveTable, seat: Seat, aid: int, by: str, *,
                      mover: Conn | None = None, ref: int | None = None,
                      number: int | None = None) -> bool:
        """Check, store, apply and tell (the table's lock is held); False if another
        process stored this move number first (the table has caught up then)."""
        state, game = table.state, table.game
        state.check_actor(seat)
        game.check_action_id(aid)
        if not state.is_legal_id(aid):
            raise state.why_illegal(game.action_from_id(aid))
        n = table.moves
        try:
            await self._store("move", table.id, n, aid, seat, by, table=table.id)
        except MoveConflict:
            await self._catch_up_locked(table)
            if number is not None:
                raise refuse("move.stale", got=number, current=table.moves) from None
            return False
        table.retries, table.overdue = 0, None
        self._apply_stored(table, MoveRow(n, aid, seat, by))
        if table.finished:
            try:
                await self._finish(table)
            except ProtocolError:  # the move stands; its end is stored later
                self.spawn(self._finish_later(table))
            log.info("table %s finished after %d moves", table.id, table.moves)
        self._after_move(table, mover=mover, ref=ref)
        self._evict(table)  # a finished table nobody watches leaves memory
        return True

    async def _store(self, kind: str, *args: Any, table: str | None = None) -> None:
        """Write through the journal; a failure (other than :class:`MoveConflict`) is
        counted in ``/health``, logged, and raised as ``server.storage``."""
        try:
            await asyncio.wrap_future(self.storage.submit(kind, *args))
        except MoveConflict:
            raise
        except Exception as error:
            self.health.store_failed(error, table)
            log.error("storage: %s of table %s failed: %s: %s", kind, table or "-",
                      type(error).__name__, str(error).split("\n", 1)[0][:200])
            raise refuse("server.storage") from None
        self.health.stored(table)

    async def _finish(self, table: LiveTable) -> None:
        await self._store("finish", table.id, list(table.state.returns()))
        table.row.status, table.row.finished_at = "finished", time.time()

    async def _finish_later(self, table: LiveTable) -> None:
        """Store a finished table's end until it is stored (the moves already are)."""
        attempt = 0
        while True:
            await asyncio.sleep(backoff(attempt))
            attempt += 1
            try:
                await self._finish(table)
                return
            except ProtocolError:
                continue

    def _retry(self, table: LiveTable, n: int, *, overdue: bool = False) -> None:
        """A bot's, stand-in's or clock's move ``n`` was not stored: try it again after
        :func:`~kartentisch.server.health.backoff` (the table never stalls on it)."""
        delay = backoff(table.retries)
        table.retries += 1
        table.thinking = None
        if overdue:
            table.overdue = n
        log.warning("table %s: move %d is retried in %.1f s", table.id, n, delay)
        if self.loop is not None:
            self.loop.call_later(delay, self._resume, table, n)

    def _resume(self, table: LiveTable, n: int) -> None:
        if self.tables.get(table.id) is table and table.moves == n:
            self._schedule(table)

    def _after_move(self, table: LiveTable, *, mover: Conn | None = None,
                    ref: int | None = None) -> None:
        table.presence.idle_since = time.monotonic()
        table.row.last_active = time.time()  # as the journal stored it with the move
        self._schedule(table)  # first, so the update carries the new deadline
        table.broadcast(mover=mover, ref=ref)

    async def set_left(self, conn: Conn, table: LiveTable, left: bool) -> None:
        """``leave`` (a stand-in bot plays the seat) or ``take_seat`` (the player is back)."""
        if conn.watcher or conn.seat is None:
            raise refuse("seat.watcher")
        if not conn.active:
            raise refuse("seat.other_tab")
        async with table.lock:
            seat = table.row.seats[conn.seat]
            if table.row.status == "closed":
                raise night_error("table.closed")
            if seat.kind != HUMAN or seat.left == left:
                raise refuse("seat.already_left" if left else "seat.not_left")
            if not left and seat.bot is not None:  # the host's bot gives the seat back
                await self._store_seat(table, seat, {"left": False, "bot": None,
                                                     "strength": None})
            else:
                await self._store("left", table.id, seat.seat, left)
                seat.left = left
            self._schedule(table)
            self._seats_changed(table)
            table.broadcast()

    # ------------------------------------------------------------------ bots and the clock
    def _schedule(self, table: LiveTable, *, may_start: bool = True) -> None:
        """Start whatever the next move needs: a bot, a stand-in or the turn clock.
        ``may_start`` False: do not start the table here (another process's change is
        being caught up; the process where the last person joined starts it)."""
        if table.clock is not None:
            table.clock.cancel()
            table.clock = None
        table.deadline = None
        if table.finished or table.broken or table.row.status == "closed":
            return
        if not (flow.start_if_ready(self, table) if may_start else flow.started(table)):
            return  # nobody moves before the start (flow.py)
        seat = table.row.seats[table.state.current_player]
        n = table.moves
        if seat.kind == BOT or seat.left:
            if table.thinking != n:
                table.thinking = n
                self.spawn(self._bot_turn(table, n))
        elif table.overdue == n:  # its clock ran out, but the stand-in's move was not stored
            self.spawn(self._clock_ran_out(table, n))
        elif table.row.clock is not None and seat.joined and self.loop is not None:
            # the clock runs only for a person who has come to the table
            table.deadline = time.time() + table.row.clock
            table.clock = self.loop.call_later(
                table.row.clock, lambda: self.spawn(self._clock_ran_out(table, n)))

    async def _bot_choice(self, table: LiveTable, bot: str, params: dict[str, Any]) -> int:
        state = table.state
        seat = state.current_player
        n = table.moves
        observation = state.observation(seat)
        legal = state.legal_actions()
        seed = derive_seed(table.row.seed, "bot", seat, n)
        try:
            return await self.pool.choose(table.row.game, table.row.players, table.options_text,
                                          bot, params, seed, observation, legal)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot %s failed; its first legal move is played", table.id,
                          bot)
            return state.legal_action_ids()[0]

    async def _bot_turn(self, table: LiveTable, n: int) -> None:
        if table.moves != n or table.finished:
            return
        seat = table.row.seats[table.state.current_player]
        if seat.kind == BOT or seat.bot is not None:  # a bot seat, or one the host seated
            bot, params, by = str(seat.bot), bot_params(str(seat.bot), seat.strength), BOT
        else:
            bot, params, by = table.row.stand_in, {}, "stand-in"
        began = time.monotonic()
        aid = await self._bot_choice(table, bot, params)
        if by == "stand-in":
            rest = self.stand_in_pace - (time.monotonic() - began)
            if rest > 0:
                await asyncio.sleep(rest)
        async with table.lock:
            current = table.row.seats[seat.seat]
            if (table.moves != n or (current.kind == HUMAN and not current.left)
                    or table.row.status == "closed"):
                return  # moved meanwhile (another process), the player took the seat back
                # or the host closed the table
            try:
                await self._commit(table, seat.seat, aid, by)
            except ProtocolError as error:
                if error.code != "server.storage":
                    raise
                self._retry(table, n)

    async def _clock_ran_out(self, table: LiveTable, n: int) -> None:
        if table.moves != n or table.finished:
            return
        seat = table.state.current_player
        aid = await self._bot_choice(table, table.row.stand_in, {})
        async with table.lock:
            if table.moves != n or table.row.status == "closed":
                return
            try:
                if table.overdue != n:  # told and logged once, not again at a retry
                    params = {"seat": seat, "name": table.row.seats[seat].name, "move": n}
                    await self.log_entry(table, "notice", "clock.expired", params=params)
                await self._commit(table, seat, aid, "clock")
            except ProtocolError as error:
                if error.code != "server.storage":
                    raise
                self._retry(table, n, overdue=True)

    # ------------------------------------------------------------------ other processes
    def _heard(self, payload: str) -> None:
        """A notification (in the listener's thread): hand it to the event loop."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._notified, payload)

    def _notified(self, payload: str) -> None:
        if payload == "*":
            ids = list(self.tables)
        else:
            kind, _, rest = payload.partition(":")
            table_id = rest.rsplit(":", 1)[0] if kind == "m" else rest
            table = self.tables.get(table_id)
            if table is None:
                return
            if kind == "c":  # a chat line or notice stored by another process
                self.spawn(self._chat_catch_up(table))
                return
            if kind == "m" and int(rest.rsplit(":", 1)[1]) < table.moves:
                return  # our own move coming back
            ids = [table_id]
        for table_id in ids:
            if table_id in self._catching_up:
                self._again.add(table_id)
            else:
                self._catching_up.add(table_id)
                self.spawn(self._catch_up(self.tables[table_id]))

    async def _chat_catch_up(self, table: LiveTable) -> None:
        """Tell this process's connections the log entries other processes stored."""
        async with table.chat_lock:
            rows = await asyncio.to_thread(self.storage.chat, table.id, since=table.chat_next)
            for entry in rows:
                table.tell_all(self._chat_json(table, entry))
                table.chat_next = entry.n + 1

    async def _catch_up(self, table: LiveTable) -> None:
        try:
            while True:
                self._again.discard(table.id)
                async with table.lock:
                    await self._catch_up_locked(table, seats=True)
                if table.id not in self._again:
                    return
        finally:
            self._catching_up.discard(table.id)

    async def _catch_up_locked(self, table: LiveTable, *, seats: bool = False) -> None:
        """Apply the moves other processes stored (the lock is held) and tell everyone."""
        if seats:
            was_started, was_status = flow.started(table), table.row.status
            stored = await asyncio.to_thread(self.storage.table_row, table.id)
            if stored is not None:
                started_at = table.row.started_at  # a start here may not be stored yet
                for key in TABLE_FIELDS:  # the start, closing, rematch ... stored elsewhere
                    setattr(table.row, key, getattr(stored, key, getattr(table.row, key)))
                if started_at is not None:
                    table.row.started_at = started_at
            if stored is not None and stored.seats != table.row.seats:
                for mine, theirs in zip(table.row.seats, stored.seats, strict=True):
                    for key in SeatRow.__slots__:  # left, open (claimed), name, kind ...
                        setattr(mine, key, getattr(theirs, key))
                self._seats_changed(table)
                self._schedule(table, may_start=False)
            if flow.started(table) != was_started or table.row.status != was_status:
                self._schedule(table, may_start=False)  # started or closed at another process
                table.broadcast()
        rows = await asyncio.to_thread(self.storage.moves_since, table.id, table.moves)
        for row in rows:
            self._apply_stored(table, row)
        if rows:
            self._after_move(table)

    # ------------------------------------------------------------------ lobby reads
    async def summaries(self, limit: int = 200) -> list[JSON]:
        """The listed tables in play (newest first), as the lobby shows them: a table
        nobody is connected to whose last move, join or chat is older than the lobby
        expiry is left out (it stays reachable by its links and id)."""
        cutoff = time.time() - self.lobby_expiry
        recent = await asyncio.to_thread(self.storage.table_ids, status="playing", listed=True,
                                         limit=limit, active_since=cutoff)
        present = [t.id for t in self.tables.values()
                   if t.conns and t.row.listed and t.row.status == "playing"]
        found: list[tuple[float, JSON]] = []
        for table_id in dict.fromkeys([*recent, *present]):
            table = await self.table(table_id)
            if table is None or table.finished or table.row.status != "playing":
                continue
            if not table.conns and (table.row.last_active or table.row.created_at) < cutoff:
                continue
            info = table.info()
            info["watch"] = table.row.watch
            found.append((table.row.created_at, info))
        found.sort(key=lambda entry: -entry[0])
        out = [info for _at, info in found[:limit]]
        return out

    async def record(self, table_id: str) -> GameRecord:
        """The record of a finished table; raises ``lobby.*`` errors otherwise."""
        table = await self.table(table_id)
        if table is None:
            raise refuse("lobby.unknown_table", table=table_id)
        if not table.finished and table.row.status != "closed":
            raise refuse("lobby.not_finished", table=table_id)
        record = table.record()
        self._evict(table)
        return record

