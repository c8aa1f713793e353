"""Durable tables: SQLAlchemy Core over SQLite or PostgreSQL, written ahead of every message.

A table is stored as what rebuilds it by replay: its game, player count, options, seed and
its moves (action ids, numbered from 0). The primary key ``(table_id, move_no)`` is the
serialisation point: of two processes that store move ``n`` of one table, one wins and the
other gets :class:`MoveConflict` and catches up. Seat and watch links are stored only as
SHA-256 hashes, so the database never holds a usable link.

Writes go through one *journal* thread that commits whatever is queued in one transaction
(group commit): a move is acknowledged once its transaction committed, and on SQLite the
database runs in WAL mode with ``synchronous=FULL`` so a commit survives even a power cut.
On PostgreSQL every committed move also sends ``NOTIFY kartentisch, 'm:<table>:<move>'``
and :class:`Listener` hands those to the other server processes.

The schema is created and upgraded by the Alembic migrations in ``migrations/``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

log = logging.getLogger("kartentisch.server")

CHANNEL: Final = "kartentisch"
"""The PostgreSQL notification channel of every server process."""

metadata = sa.MetaData()

tables_t = sa.Table(
    "kt_tables", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("clock", sa.Float, nullable=True),
    sa.Column("listed", sa.Boolean, nullable=False),
    sa.Column("stand_in", sa.String(40), nullable=False),
    sa.Column("watch", sa.String(64), nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("returns", sa.Text, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("host_hash", sa.String(64), nullable=True),
    sa.Column("key_id", sa.String(16), nullable=True),
    sa.Column("watcher_chat", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("last_active", sa.Float, nullable=True),
    sa.Column("series", sa.String(32), nullable=True),
    sa.Column("series_no", sa.Integer, nullable=False, server_default="0"),
    sa.Column("rematch", sa.String(32), nullable=True),
    sa.Index("kt_tables_status", "status", "created_at"),
    sa.Index("kt_tables_host", "host_hash"),
)
seats_t = sa.Table(
    "kt_seats", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(40), nullable=True),
    sa.Column("strength", sa.Integer, nullable=True),
    sa.Column("left", sa.Boolean, nullable=False),
    sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("joined", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("generation", sa.Integer, nullable=False, server_default="0"),
    sa.Column("rematch", sa.Boolean, nullable=False, server_default=sa.false()),
)
links_t = sa.Table(
    "kt_links", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Index("kt_links_table", "table_id"),
)
moves_t = sa.Table(
    "kt_moves", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), primary_key=True),
    sa.Column("move_no", sa.Integer, primary_key=True),
    sa.Column("action", sa.BigInteger, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("by", sa.String(8), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
chat_t = sa.Table(
    "kt_chat", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("kt_tables.id"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("text", sa.Text, nullable=True),
    sa.Column("params", sa.Text, nullable=True),
)

TABLE_FIELDS: Final = frozenset({"status", "started_at", "last_active", "series", "series_no",
                                 "rematch", "watcher_chat", "listed"})
"""The table columns the journal's ``table`` write may change."""

SEAT_FIELDS: Final = frozenset({"kind", "bot", "strength", "left", "open", "name", "joined",
                                "generation", "rematch"})
"""The seat columns the journal's ``seat`` write may change."""


STORAGE_ERRORS: Final = (sa.exc.SQLAlchemyError, OSError)
"""What a failing database raises (a full disk, a lost connection, a locked file)."""


class MoveConflict(Exception):
    """Move ``n`` of the table is already stored (another process got there first)."""


def token_hash(token: str) -> str:
    """What the database keeps of a link token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def database_url(text: str) -> URL:
    """The SQLAlchemy URL for ``--db``: a path or ``sqlite:///...`` for SQLite,
    ``postgresql://...`` for PostgreSQL (driven by psycopg 3)."""
    if "://" not in text:
        return make_url("sqlite:///" + str(Path(text).expanduser().resolve()))
    url = make_url(text)
    if url.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        url = url.set(drivername="postgresql+psycopg")
    return url


def shown_url(url: URL) -> str:
    """``url`` fit for a log line: the password hidden."""
    return url.render_as_string(hide_password=True)


@dataclass(slots=True)
class SeatRow:
    """One seat as stored: a human (reached by a link) or a bot of a kind and strength."""

    seat: int
    kind: str
    bot: str | None = None
    strength: int | None = None
    left: bool = False
    """A human who left: the table's stand-in bot plays the seat until they take it back."""
    open: bool = False
    """An invitation seat open to anyone in the lobby that nobody has claimed yet (it has
    no link until :meth:`Storage.claim_seat` makes one)."""
    name: str | None = None
    """The display name of the seat's person (checked by :mod:`kartentisch.server.people`)."""
    joined: bool = False
    """Whether the seat's person has connected at least once."""
    generation: int = 0
    """The seat link's generation (bumped when the host removes the player)."""
    rematch: bool = False
    """The seat's person accepted the rematch of this (finished) table."""


@dataclass(slots=True)
class TableRow:
    """A table as stored, without its moves."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    clock: float | None
    listed: bool
    stand_in: str
    watch: str | None = None
    """The watch link's token, kept only for a listed table (whose watch link is public)."""
    status: str = "playing"
    returns: list[float] | None = None
    created_at: float = field(default_factory=time.time)
    seats: list[SeatRow] = field(default_factory=list)
    hints: bool = True
    """Whether the page offers the hint button at this table (and the server gives hints)."""
    finished_at: float | None = None
    """When the game ended (its links stop working ``Limits.finished_expiry`` later)."""
    host_hash: str | None = None
    """SHA-256 of the host token (None: a table without a host, made before hosts)."""
    key_id: str | None = None
    """Which server secret derived this table's links (:func:`links.key_id`)."""
    watcher_chat: bool = False
    """Whether watchers may chat at this table (players always may)."""
    started_at: float | None = None
    """When the table started (None: it waits for its players)."""
    last_active: float | None = None
    """The last move, join or chat (the lobby leaves out tables idle too long)."""
    series: str | None = None
    """The first table of the rematch series this table belongs to (None: none yet)."""
    series_no: int = 0
    """This table's number in its series (0: the first)."""
    rematch: str | None = None
    """The id of the rematch table made from this one."""


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One entry of a table's log: a chat line, a reaction or a notice (number ``n``)."""

    n: int
    at: float
    seat: int | None
    name: str | None
    kind: str
    """``chat``, ``react`` or ``notice``."""
    text: str | None
    """The chat text, the reaction's key or the notice's code."""
    params: dict[str, Any] | None = None
    """A notice's parameters."""

    def to_json(self) -> dict[str, Any]:
        """The entry as the ``chat`` message and the welcome's history carry it."""
        out: dict[str, Any] = {"n": self.n, "at": round(self.at * 1000), "seat": self.seat,
                               "name": self.name, "kind": self.kind, "text": self.text}
        if self.params is not None:
            out["params"] = self.params
        return out


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One stored move: its number, action id, the seat it was made for and by whom."""

    move_no: int
    action: int
    seat: int
    by: str


@dataclass(slots=True)
class _Op:
    kind: str
    args: tuple[Any, ...]
    future: Future[Any]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Storage:
    """The database of one server process: a journal thread for writes, pooled reads.

    The blocking methods run in threads (the event loop awaits them through futures);
    :meth:`submit` queues a write for the journal and returns its future.
    """

    def __init__(self, url: URL | str, *, pool_size: int = 4) -> None:
        self.url = database_url(url) if isinstance(url, str) else url
        self.is_postgres = self.url.get_backend_name() == "postgresql"
        if self.is_postgres:
            self.engine: Engine = sa.create_engine(
                self.url, pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True)
        else:
            database = self.url.database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            self.engine = sa.create_engine(
                self.url, connect_args={"check_same_thread": False, "timeout": 10},
                pool_size=pool_size, max_overflow=pool_size)
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self._queue: queue.Queue[_Op | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._writer: Connection | None = None
        """The journal thread's own connection, held between batches: a pooled one would
        cost a pre-ping round trip per batch (PostgreSQL's pool pings on every checkout)."""
        self.origin = secrets.token_hex(6)
        """Names this process's notifications, so its own :class:`Listener` skips them:
        the process applied those writes itself, and hearing them back would make each
        table re-read its seats and moves after every move of its own."""

    # ------------------------------------------------------------------ life cycle
    def migrate(self) -> None:
        """Create or upgrade the schema to the newest migration (Alembic ``upgrade head``)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        with self.engine.begin() as conn:
            if self.is_postgres:  # several processes may start at once
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(72741)"))
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def start(self) -> None:
        """Start the journal thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._journal, name="kt-journal",
                                            daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Finish queued writes, stop the journal and close every connection."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
            self._thread = None
        self.engine.dispose()

    # ------------------------------------------------------------------ writes (journal)
    def submit(self, kind: str, *args: Any) -> Future[Any]:
        """Queue a write; the future is done once it committed (or failed)."""
        future: Future[Any] = Future()
        self._queue.put(_Op(kind, args, future))
        return future

    def _journal(self) -> None:
        try:
            self._run_journal()
        finally:
            if self._writer is not None:
                with contextlib.suppress(Exception):
                    self._writer.close()
                self._writer = None

    def _run_journal(self) -> None:
        while True:
            op = self._queue.get()
            if op is None:
                return
            batch = [op]
            stop = False
            while len(batch) < 512:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A transaction on the journal's connection; a connection found broken is dropped
        (the next transaction opens a new one)."""
        if self._writer is None:
            self._writer = self.engine.connect()
        try:
            with self._writer.begin():
                yield self._writer
        except DBAPIError as exc:
            if exc.connection_invalidated:
                with contextlib.suppress(Exception):
                    self._writer.close()
                self._writer = None
            raise

    def _commit(self, batch: list[_Op], *, retry: bool = True) -> None:
        try:
            with self._transaction() as conn:
                # Tables first (moves refer to them), then every move in one statement.
                for op in batch:
                    if op.kind == "create":
                        self._write(conn, op)
                now = time.time()
                moves = [{"table_id": op.args[0], "move_no": op.args[1], "action": op.args[2],
                          "seat": op.args[3], "by": op.args[4], "at": now}
                         for op in batch if op.kind == "move"]
                if moves:
                    conn.execute(moves_t.insert(), moves)
                    conn.execute(tables_t.update().where(
                        tables_t.c.id.in_({m["table_id"] for m in moves})).values(
                        last_active=now))
                for op in batch:
                    if op.kind not in ("create", "move"):
                        self._write(conn, op)
                self._notify(conn, batch)
        except IntegrityError:
            if len(batch) == 1:
                _settle(batch[0].future, self._conflict(batch[0]))
                return
            for op in batch:  # find the conflicting write(s): one transaction each
                self._commit([op])
            return
        except Exception as exc:
            if retry and isinstance(exc, DBAPIError) and exc.connection_invalidated:
                self._commit(batch, retry=False)  # e.g. the database restarted: once more
                return
            # the database is away: every waiter learns it
            log.error("storage: a write failed: %s", type(exc).__name__)
            for op in batch:
                _settle(op.future, exc)
            return
        for op in batch:
            _settle(op.future, None)

    @staticmethod
    def _conflict(op: _Op) -> Exception:
        if op.kind == "move":
            return MoveConflict(f"move {op.args[1]} of table {op.args[0]} is already stored")
        return RuntimeError(f"{op.kind} conflicts with the stored data")

    def _write(self, conn: Connection, op: _Op) -> Any:
        if op.kind == "move":
            table_id, move_no, action, seat, by = op.args
            conn.execute(moves_t.insert().values(
                table_id=table_id, move_no=move_no, action=action, seat=seat, by=by,
                at=time.time()))
            return None
        if op.kind == "create":
            row, links = op.args
            self._insert_table(conn, row, links)
            return None
        if op.kind == "left":
            table_id, seat, left = op.args
            conn.execute(seats_t.update().where(
                seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(left=left))
            return None
        if op.kind == "finish":
            table_id, returns = op.args
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(
                status="finished", returns=json.dumps(returns), finished_at=time.time()))
            return None
        if op.kind == "seat":  # (table_id, seat, {column: value}) of SEAT_FIELDS
            table_id, seat, values = op.args
            if not values or not set(values) <= SEAT_FIELDS:
                raise ValueError(f"seat fields {sorted(values)}")
            conn.execute(seats_t.update().where(
                seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(**values))
            return None
        if op.kind == "table":  # (table_id, {column: value}) of TABLE_FIELDS
            table_id, values = op.args
            if not values or not set(values) <= TABLE_FIELDS:
                raise ValueError(f"table fields {sorted(values)}")
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(**values))
            return None
        if op.kind == "chat":  # (table_id, ChatRow): also the table's last activity
            table_id, entry = op.args
            conn.execute(chat_t.insert().values(
                table_id=table_id, n=entry.n, at=entry.at, seat=entry.seat, name=entry.name,
                kind=entry.kind, text=entry.text,
                params=None if entry.params is None else json.dumps(entry.params)))
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(
                last_active=entry.at))
            return None
        if op.kind == "relink":  # (table_id, seat, {token: seat}): the seat's links replaced
            table_id, seat, links = op.args
            conn.execute(links_t.delete().where(links_t.c.table_id == table_id,
                                                links_t.c.seat == seat))
            if links:
                conn.execute(links_t.insert(), [
                    {"token_hash": token_hash(token), "table_id": table_id, "seat": s}
                    for token, s in links.items()])
            return None
        if op.kind == "host":  # (table_id, host token): the table's host link
            table_id, token = op.args
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(
                host_hash=None if token is None else token_hash(token)))
            return None
        raise ValueError(f"unknown journal operation {op.kind}")

    def _notify(self, conn: Connection, batch: Sequence[_Op]) -> None:
        if not self.is_postgres:
            return
        payloads: dict[str, str] = {}
        for op in batch:
            if op.kind == "move":
                payloads[op.args[0]] = f"m:{op.args[0]}:{op.args[1]}"
            elif op.kind in ("left", "seat", "table", "relink"):
                payloads.setdefault("s:" + op.args[0], f"s:{op.args[0]}")
            elif op.kind == "chat":
                payloads.setdefault("c:" + op.args[0], f"c:{op.args[0]}")
        if payloads:  # one statement for the batch, not a round trip per table
            self._send_notices(conn, list(payloads.values()))

    def _send_notices(self, conn: Connection, payloads: list[str]) -> None:
        conn.execute(
            sa.text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p"),
            {"channel": CHANNEL, "payloads": [f"{self.origin} {p}" for p in payloads]})

    @staticmethod
    def _insert_table(conn: Connection, row: TableRow, links: dict[str, int | None]) -> None:
        conn.execute(tables_t.insert().values(
            id=row.id, game=row.game, players=row.players, options=json.dumps(row.options),
            seed=row.seed, clock=row.clock, listed=row.listed, stand_in=row.stand_in,
            watch=row.watch, status=row.status, returns=None, created_at=row.created_at,
            hints=row.hints, host_hash=row.host_hash, key_id=row.key_id,
            watcher_chat=row.watcher_chat, started_at=row.started_at,
            last_active=row.last_active if row.last_active is not None else row.created_at,
            series=row.series, series_no=row.series_no, rematch=row.rematch))
        conn.execute(seats_t.insert(), [
            {"table_id": row.id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
             "strength": s.strength, "left": s.left, "open": s.open, "name": s.name,
             "joined": s.joined, "generation": s.generation, "rematch": s.rematch}
            for s in row.seats])
        if links:
            conn.execute(links_t.insert(), [
                {"token_hash": token_hash(token), "table_id": row.id, "seat": seat}
                for token, seat in links.items()])

    # ------------------------------------------------------------------ reads (any thread)
    @contextlib.contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    def resolve_link(self, token: str) -> tuple[str, int | None] | None:
        """``(table id, seat)`` of a link token (seat ``None`` for a watch link), or None."""
        with self._read() as conn:
            found = conn.execute(sa.select(links_t.c.table_id, links_t.c.seat).where(
                links_t.c.token_hash == token_hash(token))).first()
        return None if found is None else (found.table_id, found.seat)

    def load_table(self, table_id: str) -> tuple[TableRow, list[MoveRow]] | None:
        """The table and all its moves in order, or None when there is no such table."""
        with self._read() as conn:
            row = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                return None
            table = self._table_row(row._mapping)
            table.seats = self._seats(conn, table_id)
            moves = self._moves(conn, table_id, 0)
        return table, moves

    def moves_since(self, table_id: str, start: int) -> list[MoveRow]:
        """Moves ``start`` and later of a table, in order."""
        with self._read() as conn:
            return self._moves(conn, table_id, start)

    def series_tables(self, series: str) -> list[TableRow]:
        """The tables of the rematch series that began with table ``series`` (that one
        first), in order, with their seats."""
        query = (sa.select(tables_t)
                 .where(sa.or_(tables_t.c.id == series, tables_t.c.series == series))
                 .order_by(tables_t.c.series_no, tables_t.c.created_at))
        with self._read() as conn:
            rows = [self._table_row(r._mapping) for r in conn.execute(query)]
            for table in rows:
                table.seats = self._seats(conn, table.id)
        return rows

    def table_row(self, table_id: str) -> TableRow | None:
        """The table as stored now, with its seats but without its moves."""
        with self._read() as conn:
            row = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                return None
            table = self._table_row(row._mapping)
            table.seats = self._seats(conn, table_id)
        return table

    def chat(self, table_id: str, *, since: int = 0, last: int | None = None) -> list[ChatRow]:
        """The table's log entries numbered ``since`` and later, in order (only the ``last``
        ones when given)."""
        query = sa.select(chat_t).where(chat_t.c.table_id == table_id, chat_t.c.n >= since)
        if last is not None:
            query = query.order_by(chat_t.c.n.desc()).limit(last)
        else:
            query = query.order_by(chat_t.c.n)
        with self._read() as conn:
            rows = [ChatRow(r.n, r.at, r.seat, r.name, r.kind, r.text,
                            None if r.params is None else json.loads(r.params))
                    for r in conn.execute(query)]
        return sorted(rows, key=lambda r: r.n) if last is not None else rows

    def chat_count(self, table_id: str) -> int:
        """How many log entries the table has (the next entry's number)."""
        with self._read() as conn:
            found = conn.execute(sa.select(sa.func.max(chat_t.c.n)).where(
                chat_t.c.table_id == table_id)).scalar()
        return 0 if found is None else int(found) + 1

    def link_hashes(self, table_id: str) -> dict[str, int | None]:
        """The stored link hashes of a table and their seats (None: the watch link)."""
        with self._read() as conn:
            return {r.token_hash: r.seat for r in conn.execute(
                sa.select(links_t.c.token_hash, links_t.c.seat).where(
                    links_t.c.table_id == table_id))}

    def host_table(self, token: str) -> str | None:
        """The id of the table whose host token is ``token``, or None."""
        with self._read() as conn:
            found = conn.execute(sa.select(tables_t.c.id).where(
                tables_t.c.host_hash == token_hash(token))).first()
        return None if found is None else str(found.id)

    def seats(self, table_id: str) -> list[SeatRow]:
        """The table's seats as stored now."""
        with self._read() as conn:
            return self._seats(conn, table_id)

    def table_ids(self, *, status: str | None = None, listed: bool | None = None,
                  limit: int | None = None, active_since: float | None = None) -> list[str]:
        """Ids of the tables with ``status`` (and listing, and last activity at or after
        ``active_since``), newest first."""
        query = sa.select(tables_t.c.id).order_by(tables_t.c.created_at.desc())
        if active_since is not None:
            query = query.where(sa.func.coalesce(tables_t.c.last_active, tables_t.c.created_at)
                                >= active_since)
        if status is not None:
            query = query.where(tables_t.c.status == status)
        if listed is not None:
            query = query.where(tables_t.c.listed == listed)
        if limit is not None:
            query = query.limit(limit)
        with self._read() as conn:
            return [r.id for r in conn.execute(query)]

    def watch_token_hash(self, table_id: str) -> str | None:
        """The hash of the table's watch link (for tests and tools; links are not stored)."""
        with self._read() as conn:
            found = conn.execute(sa.select(links_t.c.token_hash).where(
                links_t.c.table_id == table_id, links_t.c.seat.is_(None))).first()
        return None if found is None else str(found.token_hash)

    def open_seats(self, table_ids: Sequence[str]) -> dict[str, list[int]]:
        """The unclaimed open seats of each of ``table_ids`` (tables without any left out),
        read from the database, so a seat claimed through another process is not listed."""
        if not table_ids:
            return {}
        found: dict[str, list[int]] = {}
        with self._read() as conn:
            rows = conn.execute(
                sa.select(seats_t.c.table_id, seats_t.c.seat)
                .where(seats_t.c.table_id.in_(list(table_ids)), seats_t.c.open == sa.true())
                .order_by(seats_t.c.table_id, seats_t.c.seat))
            for r in rows:
                found.setdefault(r.table_id, []).append(r.seat)
        return found

    def claim_seat(self, table_id: str, token: str, seat: int | None = None) -> int | None:
        """Claim an open seat of ``table_id`` (``seat``, or the lowest open one) for the
        link ``token``: the seat stops being open and the token's hash becomes its link, in
        one transaction. Returns the seat, or None when no (such) seat is open any more.

        The claim is a conditional ``UPDATE ... WHERE open`` per candidate seat: the database
        serialises concurrent claims of one seat (SQLite's single writer, PostgreSQL's row
        lock and re-check), so of two clients racing for the last seat exactly one gets it.
        (The candidates are read first; the update checks ``open`` again under the write
        lock, so a stale read only costs a try.)"""
        candidates = [seat] if seat is not None else None
        with self.engine.begin() as conn:
            if candidates is None:
                candidates = [r.seat for r in conn.execute(
                    sa.select(seats_t.c.seat).where(seats_t.c.table_id == table_id,
                                                    seats_t.c.open == sa.true())
                    .order_by(seats_t.c.seat))]
            for candidate in candidates:
                done = conn.execute(seats_t.update().where(
                    seats_t.c.table_id == table_id, seats_t.c.seat == candidate,
                    seats_t.c.open == sa.true()).values(open=False))
                if done.rowcount == 1:
                    conn.execute(links_t.insert().values(
                        token_hash=token_hash(token), table_id=table_id, seat=candidate))
                    if self.is_postgres:  # the other processes re-read the seats
                        self._send_notices(conn, [f"s:{table_id}"])
                    return candidate
        return None

    @staticmethod
    def _table_row(m: Any) -> TableRow:
        return TableRow(
            id=m["id"], game=m["game"], players=m["players"], options=json.loads(m["options"]),
            seed=int(m["seed"]), clock=m["clock"], listed=bool(m["listed"]),
            stand_in=m["stand_in"], watch=m["watch"], status=m["status"],
            returns=None if m["returns"] is None else json.loads(m["returns"]),
            created_at=m["created_at"], hints=bool(m["hints"]), host_hash=m["host_hash"],
            key_id=m["key_id"], watcher_chat=bool(m["watcher_chat"]),
            started_at=m["started_at"], last_active=m["last_active"], series=m["series"],
            series_no=int(m["series_no"]), rematch=m["rematch"],
            finished_at=m["finished_at"])

    @staticmethod
    def _seats(conn: Connection, table_id: str) -> list[SeatRow]:
        rows = conn.execute(sa.select(seats_t).where(seats_t.c.table_id == table_id)
                            .order_by(seats_t.c.seat))
        return [SeatRow(r.seat, r.kind, r.bot, r.strength, bool(r.left), bool(r.open), r.name,
                        bool(r.joined), int(r.generation), bool(r.rematch))
                for r in rows]

    @staticmethod
    def _moves(conn: Connection, table_id: str, start: int) -> list[MoveRow]:
        rows = conn.execute(
            sa.select(moves_t.c.move_no, moves_t.c.action, moves_t.c.seat, moves_t.c.by)
            .where(moves_t.c.table_id == table_id, moves_t.c.move_no >= start)
            .order_by(moves_t.c.move_no))
        return [MoveRow(r.move_no, int(r.action), r.seat, r.by) for r in rows]


def _settle(future: Future[Any], error: Exception | None) -> None:
    """Tell a write's waiter how it went, unless the waiter gave up (its task was
    cancelled, e.g. at shutdown): the write itself stands either way, and the journal
    thread must not die of a cancelled future (it did, with ``InvalidStateError``)."""
    if future.set_running_or_notify_cancel():
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


class Listener:
    """Hears the other server processes' moves: ``LISTEN kartentisch`` on its own connection.

    ``deliver(payload)`` is called in the listener's thread for every notification; it
    reconnects after a lost connection (and then calls ``deliver("*")``: anything may have
    been missed, so every live table catches up).
    """

    def __init__(self, url: URL, deliver: Callable[[str], None], *, origin: str = "") -> None:
        self.url = url
        self.deliver = deliver
        self.origin = origin
        """Notifications from the :class:`Storage` with this origin are skipped."""
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kt-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        """Start listening; returns once the first LISTEN is in force."""
        self._thread.start()
        self._ready.wait(timeout)

    def stop(self) -> None:
        """Stop listening (within a second)."""
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        dsn = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    if not first:
                        self.deliver("*")
                    first = False
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            origin, _, payload = note.payload.partition(" ")
                            if origin != self.origin:
                                self.deliver(payload)
            except Exception as exc:  # the connection broke: try again shortly
                log.warning("listener: %s; reconnecting", type(exc).__name__)
                self._stop.wait(1.0)
