"""Load on the table server: N concurrent tables of scripted websocket players on loopback.

Every human seat is a client that plays a random legal move; when a table's game ends, its
players open a new table, so N tables stay in play. Two ways to drive them (``--rate``):

- ``closed`` (saturation): every client answers its turn at once. Each table has one move
  in flight at a time, so by Little's law the round trip is tables / throughput: this mode
  measures the most moves per second the server carries, and its round trips only say how
  long the queue is at that throughput.
- a number R (paced, open loop): the tables together offer R moves per second, each table
  one move every tables/R seconds on its own schedule (random phase). A move is due at its
  slot whether or not the server has kept up; its round trip is timed from the slot, so time
  spent waiting for a late update counts (no coordinated omission). A human turn that comes
  after a bot's move is due when it arrives at the earliest (the bot's thinking is the
  game's time, not the server's delay).

Reported per row: moves per second (all moves, and the scripted humans' acknowledged
moves), p50/p99/max round trip of a human move (due -> the mover's own update received),
the server process's CPU (cores, and milliseconds per move), the players' CPU and the
machine's load average. ``--bot ismcts`` (or ``--bot none,ismcts``) adds rows with one
ISMCTS bot per table (``--bot-players`` seats: the humans and the bot), thinking in the
server's worker process while the humans play (asked for beside paced rates, bot rows
run at the paced rates only: closed, they go at the bots' pace). ``--profile N`` instead
plays N moves through an in-process hub (no network) and prints the event loop's CPU per
move and where it goes (cProfile).

    python benchmarks/server_load.py --tables 200 --rate closed,500 --db sqlite,postgresql \
        --bot none,ismcts
    python benchmarks/server_load.py --tables 50,100,200,400 --db sqlite
    python benchmarks/server_load.py --profile 3000
    python benchmarks/server_load.py --hostile --db sqlite

``--hostile`` runs the hostile rows of issue 28 instead (``docs/security.md``): 30 clients
that never read (the server's memory against its documented bound), 1,000 watchers joining
one table (server CPU, messages to the seated player), 200 concurrent hints from one seat
(a random bot's reply time at another table).

Only loopback is used; every run stops by itself after ``--seconds`` (plus a warm-up).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import math
import os
import platform
import random
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from kartentisch.server.client import TableClient
from kartentisch.server.run import READY_LINE
from kartentisch.testing.pgtemp import Cluster, start_cluster

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Result:
    """One measured configuration."""

    db: str
    tables: int
    bot: str | None
    rate: float | None
    """Offered moves per second (None: closed loop)."""
    moves_per_s: float
    human_moves_per_s: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    server_cpu: float
    """Server CPU seconds per wall second during the measurement (1.0 = one core)."""
    client_cpu: float
    """The same for this process, the scripted players."""
    errors: int
    games: int
    load: float
    """The machine's 1-minute load average at the end of the run."""

    def row(self) -> str:
        offered = "closed" if self.rate is None else f"{self.rate:.0f}"
        per_move = 1000 * self.server_cpu / self.moves_per_s if self.moves_per_s else 0.0
        return (f"| {self.db} | {self.tables} | {self.bot or '-'} | {offered} | "
                f"{self.moves_per_s:.0f} | {self.human_moves_per_s:.0f} | {self.p50_ms:.1f} | "
                f"{self.p99_ms:.1f} | {self.max_ms:.0f} | {self.server_cpu:.2f} | "
                f"{per_move:.2f} | {self.client_cpu:.2f} | {self.games} | {self.errors} | "
                f"{self.load:.1f} |")


HEADER = ("| database | tables | bot | offered moves/s | moves/s | human moves/s | p50 ms |"
          " p99 ms | max ms | server CPU | server ms/move | client CPU | games ended |"
          " errors | load |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(f) for f in fields[11:13]) / ticks


ONE_ADDRESS = ("tables_burst=1000000,all_tables_burst=1000000,requests_burst=1000000,"
               "address_messages_burst=1000000,address_messages_rate=1000000,"
               "connections_per_address=100000,watchers_per_table=100000")
"""Every scripted player connects from 127.0.0.1: the per-address limits (docs/security.md)
are lifted, the per-connection ones stay."""


class Server:
    """A server process of its own for one run."""

    def __init__(self, db: str, bot_workers: int, limits: str = ONE_ADDRESS) -> None:
        command = [sys.executable, "-m", "kartentisch.server", "--port", "0", "--db", db,
                   "--bot-workers", str(bot_workers), "--log-level", "warning",
                   "--no-access-log", "--limit", limits]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, cwd=ROOT)
        assert self.process.stdout is not None
        self.url = ""
        for raw in self.process.stdout:
            line = raw.decode()
            if line.startswith(READY_LINE):
                self.url = line.split()[3]
                break
        if not self.url:
            raise RuntimeError("the server did not start")
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://") + "/ws"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Schedule:
    """One table's move slots in a paced run: one every ``interval`` seconds."""

    def __init__(self, first: float, interval: float) -> None:
        self.next = first
        self.interval = interval

    def due(self, arrived: float, after_bot: bool) -> float:
        """The slot of the move whose turn arrived at ``arrived``; the next slot follows it
        by ``interval`` however late this one is sent (open loop)."""
        slot = max(self.next, arrived) if after_bot else self.next
        self.next = slot + self.interval
        return slot


async def paced_play(client: TableClient, rng: random.Random, schedule: Schedule) -> None:
    """Play this seat's turns, each at its table's next slot (at once if the slot is past),
    timing the round trip from the slot."""
    acted = -1
    while True:
        update = client.latest
        if update is not None:
            if update["status"] == "finished":
                return
            if update["legal"] and update["move"] != acted:
                acted = update["move"]
                last = update.get("last")
                slot = schedule.due(client.update_times[-1],
                                    after_bot=last is not None and last["by"] != "human")
                wait = slot - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                await client.move(rng.choice(update["legal"])["id"], move=acted, since=slot)
        await client.until(lambda m: m["type"] in ("update", "error"), timeout=120)


async def run_load(server: Server, *, tables: int, game: str, players: int, bot: str | None,
                   strength: int, warmup: float, seconds: float, seed: int,
                   rate: float | None = None) -> Result:
    """Set up ``tables`` tables, then keep them busy for ``warmup + seconds`` and measure
    the last ``seconds`` (the clock starts once every table is set up, so a slow start on
    a busy machine does not eat the window). ``rate``: the moves per second all tables
    together offer (None: closed loop)."""
    rng = random.Random(seed)
    http = httpx.AsyncClient(base_url=server.url, timeout=60,
                             limits=httpx.Limits(max_connections=64))
    seats: list[dict[str, Any]] = [{"kind": "human"}] * players
    if bot is not None:
        seats = [*seats[:-1], {"kind": "bot", "bot": bot, "strength": strength}]
    window_at = {"start": math.inf, "stop": math.inf}
    """The measured window (``time.perf_counter``), set once every table is set up."""
    ready = asyncio.Event()
    joined = [0]
    trips: list[tuple[float, float]] = []
    counts = {"games": 0, "errors": 0, "retries": 0}
    arrivals: list[float] = []

    async def table_loop() -> None:
        schedule: Schedule | None = None
        first = True
        while time.perf_counter() < window_at["stop"]:
            for attempt in range(5):  # a loaded machine may drop a connection; try again
                try:
                    answer = await http.post("/api/tables", json={
                        "game": game, "players": players, "seats": seats, "listed": False})
                    made = answer.json()
                    clients = [await TableClient.join(server.ws, s["token"], history=False)
                               for s in made["seats"] if "token" in s]
                    break
                except (httpx.HTTPError, OSError, ConnectionError, TimeoutError):
                    if attempt == 4:
                        raise
                    counts["retries"] += 1
                    await asyncio.sleep(0.5)
            watcher = clients[-1]  # the last to join started the table: no extra update
            if first:  # wait for every table, then the clock starts
                first = False
                joined[0] += 1
                if joined[0] == tables:
                    now = time.perf_counter()
                    window_at.update(start=now + warmup, stop=now + warmup + seconds)
                    ready.set()
                await ready.wait()
                if rate is not None:
                    interval = tables / rate
                    schedule = Schedule(time.perf_counter() + rng.uniform(0, interval),
                                        interval)
            plays: list[asyncio.Future[Any]]
            if schedule is None:
                plays = [asyncio.ensure_future(c.play(lambda legal: rng.choice(legal),
                                                      timeout=120)) for c in clients]
            else:  # a new table starts on the next slot from now (setting up is not a move)
                schedule.next = max(schedule.next, time.perf_counter())
                plays = [asyncio.ensure_future(paced_play(c, rng, schedule)) for c in clients]
            await asyncio.wait(plays, timeout=max(0.0, window_at["stop"] - time.perf_counter()))
            for task in plays:
                task.cancel()
            await asyncio.gather(*plays, return_exceptions=True)
            for client in clients:
                trips.extend(client.trips)
                counts["errors"] += client.errors
            last = watcher.latest or {}
            arrivals.extend(watcher.update_times[1:])  # one update per move after the first
            if last.get("status") == "finished":
                counts["games"] += 1
            for client in clients:
                await client.close()

    pid = server.process.pid
    cpu0: list[float] = []

    tasks = [asyncio.ensure_future(table_loop()) for _ in range(tables)]
    waiter = asyncio.ensure_future(ready.wait())
    await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if not ready.is_set():  # a table could not be set up: say why
        waiter.cancel()
        for task in tasks:
            if task.done() and task.exception() is not None:
                raise RuntimeError("a table could not be set up") from task.exception()
    measure_from, stop_at = window_at["start"], window_at["stop"]
    await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
    cpu0.append(cpu_seconds(pid))
    cpu0.append(cpu_seconds(os.getpid()))
    await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
    cpu = (cpu_seconds(pid) - cpu0[0]) / seconds  # the measured window only
    client_cpu = (cpu_seconds(os.getpid()) - cpu0[1]) / seconds
    await asyncio.gather(*tasks, return_exceptions=True)
    await http.aclose()
    window = [rt for sent, rt in trips if measure_from <= sent < stop_at]
    window.sort()
    humans = len(window) / seconds
    moves = sum(measure_from <= t < stop_at for t in arrivals) / seconds
    if not window:
        window = [float("nan")]
    return Result(
        db="", tables=tables, bot=bot, rate=rate, moves_per_s=moves, human_moves_per_s=humans,
        p50_ms=1000 * window[len(window) // 2],
        p99_ms=1000 * window[min(len(window) - 1, int(len(window) * 0.99))],
        max_ms=1000 * window[-1], server_cpu=cpu, client_cpu=client_cpu, errors=counts["errors"],
        games=counts["games"], load=os.getloadavg()[0])


def profile(moves: int, game: str, players: int, seed: int) -> None:
    """Play ``moves`` random moves through an in-process hub on an SQLite file (two seat
    connections per table, no network) and print the event loop thread's CPU per move and
    a cProfile of it: the server's own cost of a move, websockets aside."""
    import cProfile
    import json
    import pstats

    from kartentisch.server.bots import BotPool
    from kartentisch.server.outbox import QueueConn
    from kartentisch.server.storage import Storage
    from kartentisch.server.tables import CreateTable, Hub

    async def play(profiler: cProfile.Profile | None) -> float:
        hub = Hub(Storage(f"sqlite:///{tempfile.mkdtemp(prefix='kt-prof-')}/t.sqlite3"),
                  BotPool(0))
        await hub.start()
        rng = random.Random(seed)
        done, cpu = 0, 0.0
        try:
            while done < moves:
                made = await hub.create(CreateTable(game=game, players=players), "http://x/")
                conns = [QueueConn() for _ in made["seats"]]
                for conn, seat in zip(conns, made["seats"], strict=True):
                    await hub.handle(conn, json.dumps({"v": 1, "type": "hello",
                                                       "token": seat["token"]}))
                table = hub.tables[made["table"]]
                while not table.finished and done < moves:
                    for conn in conns:  # what the sender tasks would send
                        while not conn.outbox.empty():
                            conn.outbox.get_nowait()
                    aid = rng.choice(table.state.legal_action_ids())
                    message = json.dumps({"v": 1, "type": "move", "move": table.moves,
                                          "action": aid, "ref": table.moves})
                    mover = conns[table.state.current_player]
                    start = time.thread_time()
                    if profiler is not None:
                        profiler.enable()
                    await hub.handle(mover, message)
                    if profiler is not None:
                        profiler.disable()
                    cpu += time.thread_time() - start
                    done += 1
                for conn in conns:
                    hub.disconnect(conn)
        finally:
            await hub.stop()
        return cpu / done

    per_move = asyncio.run(play(None))
    print(f"{game}, {players} seats, {moves} moves: {1000 * per_move:.3f} ms event-loop CPU"
          f" per move (load average {os.getloadavg()[0]:.1f})")
    profiler = cProfile.Profile()
    asyncio.run(play(profiler))
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


# ---------------------------------------------------------------- hostile rows (issue 28)
def rss_mib(pid: int) -> float:
    """Resident memory of a process in MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return math.nan


async def health_of(server: Server) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        answer: dict[str, Any] = (await http.get("/health")).json()
    return answer


async def until_true(check: Any, timeout: float = 180) -> None:
    end = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > end:
            raise TimeoutError(str(check))
        await asyncio.sleep(0.1)


async def never_reading(server: Server, clients: int = 30, rounds: int = 300) -> str:
    """``clients`` watchers of a finished 5-player Krass Kariert table (whose whole view is
    about 20 KB) each send ``5 * rounds`` ``sync`` and read nothing."""
    from kartentisch.server.client import MuteClient

    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        made = (await http.post("/api/tables", json={
            "game": "krass-kariert", "players": 5, "seats": [{"kind": "bot", "bot": "random"}] * 5,
        })).json()

        async def finished() -> bool:
            return (await http.get(f"/api/tables/{made['table']}/record")).status_code == 200

        await until_true(finished)
    pid = server.process.pid
    before = peak = rss_mib(pid)
    mutes = [MuteClient(server.url) for _ in range(clients)]
    for mute in mutes:
        mute.send({"type": "hello", "token": made["watch"]["token"]})
    for _ in range(rounds):
        for mute in mutes:
            mute.send({"type": "sync"}, times=5)
        await asyncio.sleep(0.01)
        peak = max(peak, rss_mib(pid))
    sent = time.monotonic()

    async def closed() -> bool:
        return int((await health_of(server))["slow_disconnects"]) >= clients

    await until_true(closed)
    after = time.monotonic() - sent
    peak = max(peak, rss_mib(pid))
    for mute in mutes:
        mute.close()
    health = await health_of(server)
    return (f"| {clients} clients that never read, {5 * rounds} `sync` each | RSS {before:.0f} "
            f"-> peak {peak:.0f} MiB (+{peak - before:.1f}; bound +{clients * 1.0:.0f}) | all "
            f"{health['slow_disconnects']} closed {after:.1f} s after their last frame | "
            f"errors {health['errors']} |")


async def watcher_crowd(server: Server, watchers: int = 1000) -> str:
    """``watchers`` watchers join one table (100 at a time) and leave again while one seat
    is connected: the server's CPU and what the seated player is sent."""
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        made = (await http.post("/api/tables", json={
            "game": "krumme20", "players": 2, "options": {"turn_limit": 12}})).json()
    pid = server.process.pid
    async with await TableClient.join(server.ws, made["seats"][0]["token"]) as seat:
        start = len(seat.received)
        cpu, wall = cpu_seconds(pid), time.monotonic()
        crowd: list[TableClient] = []
        for _ in range(watchers // 100):
            crowd += await asyncio.gather(*(TableClient.join(
                server.ws, made["watch"]["token"], history=False) for _ in range(100)))
        joined_cpu, joined = cpu_seconds(pid) - cpu, time.monotonic() - wall
        await seat.until(lambda m: m["type"] == "watchers" and m["count"] == watchers,
                         start=start, timeout=120)
        for index in range(0, len(crowd), 100):
            await asyncio.gather(*(c.close() for c in crowd[index:index + 100]))
        await seat.until(lambda m: m["type"] == "watchers" and m["count"] == 0,
                         start=start, timeout=120)
        total_cpu, total = cpu_seconds(pid) - cpu, time.monotonic() - wall
        told = seat.received[start:]
    kinds: dict[str, int] = {}
    for message in told:
        kinds[message["type"]] = kinds.get(message["type"], 0) + 1
    shown = ", ".join(f"{n} `{k}`" for k, n in sorted(kinds.items()))
    return (f"| {watchers} watchers join one table, then leave | server CPU {joined_cpu:.2f} s "
            f"for the joins ({joined:.1f} s), {total_cpu:.2f} s in all ({total:.1f} s) | "
            f"the seated player got {len(told)} messages ({shown}) | - |")


async def hint_storm(server: Server, hints: int = 200, replies: int = 12) -> str:
    """``hints`` concurrent hint requests from one seat while a person plays a random bot at
    another table: the bot's reply time (the person's move sent -> the bot's move seen)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=120,
                                 limits=httpx.Limits(max_connections=hints)) as http:
        hinted = (await http.post("/api/tables", json={
            "game": "krumme20", "players": 2, "options": {"turn_limit": 12}})).json()
        played = (await http.post("/api/tables", json={
            "game": "casino", "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})).json()
        seats = [await TableClient.join(server.ws, s["token"]) for s in hinted["seats"]]
        while not (seats[0].latest or {}).get("legal"):  # until seat 0 is to move
            latest = seats[1].latest
            if latest is not None and latest["legal"]:
                ref = await seats[1].move(latest["legal"][0]["id"])
                await seats[1].until(lambda m, ref=ref: m.get("ref") == ref)
            else:
                count = len(seats[0].received)
                await seats[0].until(lambda m: m["type"] == "update", start=count)
        token = hinted["seats"][0]["token"]

        async def bot_replies(count: int) -> list[float]:
            times: list[float] = []
            async with await TableClient.join(server.ws, played["seats"][0]["token"]) as me:
                while len(times) < count:
                    latest = me.latest
                    assert latest is not None
                    if latest["status"] != "playing":
                        break
                    if not latest["legal"]:
                        mark = len(me.received)
                        await me.until(lambda m: m["type"] == "update", start=mark)
                        continue
                    mark = len(me.received)
                    sent = time.perf_counter()
                    await me.move(latest["legal"][0]["id"])
                    answer = await me.until(lambda m: (m["type"] == "update" and m["legal"])
                                            or (m["type"] == "update" and m["status"] != "playing")
                                            , start=mark, timeout=120)
                    if answer["status"] == "playing":
                        times.append(time.perf_counter() - sent)
            return times

        quiet = await bot_replies(replies // 2)
        storm = asyncio.gather(*(http.post("/api/web/hint", json={"token": token})
                                 for _ in range(hints)))
        during, answers = await asyncio.gather(bot_replies(replies), storm)
        for seat in seats:
            await seat.close()
    codes: dict[int, int] = {}
    for answer in answers:
        codes[answer.status_code] = codes.get(answer.status_code, 0) + 1
    return (f"| {hints} concurrent hints from one seat | answers {dict(sorted(codes.items()))}"
            f" | a random bot's reply at another table: quiet max {1000 * max(quiet):.0f} ms,"
            f" during the hints p50 {1000 * sorted(during)[len(during) // 2]:.0f} ms, max "
            f"{1000 * max(during):.0f} ms | - |")


def hostile(db_kind: str, bot_workers: int) -> None:
    """The hostile rows of issue 28, each on a fresh server with the default limits but the
    per-address ones (every client here is 127.0.0.1)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    print(f"# {platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()}"
          f" · {time.strftime('%Y-%m-%d %H:%M')} · {db_kind} · load average "
          f"{os.getloadavg()[0]:.1f}")
    print("| row | server | result | errors |\n|---|---|---|---|", flush=True)
    databases = Databases()
    try:
        for row in (never_reading, watcher_crowd, hint_storm):
            server = Server(databases.fresh(db_kind), bot_workers)
            try:
                print(asyncio.run(row(server)), flush=True)
            finally:
                server.stop()
    finally:
        databases.close()


class Databases:
    """A fresh database for each run: an SQLite file, or a database of one PostgreSQL
    cluster started at the first one."""

    def __init__(self) -> None:
        self.cluster: Cluster | None = None

    def fresh(self, kind: str) -> str:
        if kind == "postgresql":
            if self.cluster is None:
                self.cluster = start_cluster(max_connections=300)
            return self.cluster.database()
        return f"sqlite:///{tempfile.mkdtemp(prefix='kt-load-')}/tables.sqlite3"

    def close(self) -> None:
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="200", help="comma-separated table counts")
    parser.add_argument("--db", default="sqlite,postgresql", help="sqlite and/or postgresql")
    parser.add_argument("--game", default="casino")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="none",
                        help="comma-separated: none, or a bot at every table (e.g. ismcts)")
    parser.add_argument("--bot-players", type=int, default=3,
                        help="seats of a table with a bot (the bot and scripted humans)")
    parser.add_argument("--strength", type=int, default=1)
    parser.add_argument("--rate", default="closed",
                        help="comma-separated: closed (saturation) or offered moves/s in all")
    parser.add_argument("--profile", type=int, default=0,
                        help="play this many moves in-process and profile instead")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hostile", action="store_true",
                        help="the hostile rows instead (issue 28; docs/security.md)")
    args = parser.parse_args()
    if args.hostile:
        for db_kind in args.db.split(","):
            hostile(db_kind, args.bot_workers)
        return
    if args.profile:
        profile(args.profile, args.game, args.players, args.seed)
        return
    bots = [None if b == "none" else b for b in args.bot.split(",")]
    rates = [None if r == "closed" else float(r) for r in args.rate.split(",")]
    print(f"# {platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()}"
          f" · {time.strftime('%Y-%m-%d %H:%M')} · {args.game}, {args.players} seats"
          f" ({args.bot_players} with a bot, strength {args.strength}) · {args.warmup:g} s"
          f" warm-up, {args.seconds:g} s measured · load average {os.getloadavg()[0]:.1f}")
    print(HEADER, flush=True)
    databases = Databases()
    try:
        for db_kind in args.db.split(","):
            for count, bot, rate in itertools.product(
                    (int(t) for t in args.tables.split(",")), bots, rates):
                if bot is not None and rate is None and any(r is not None for r in rates):
                    continue  # with a bot, only the paced rows (closed: the bots' pace)
                server = Server(databases.fresh(db_kind), args.bot_workers)
                # The players' process is the measuring instrument, not the system measured:
                # its own garbage collections (hundreds of websocket clients) paused it for up
                # to 290 ms and showed up as the server's p99. So it collects between rows
                # only; the server process keeps Python's default collector.
                gc.collect()
                gc.disable()
                try:
                    result = asyncio.run(run_load(
                        server, tables=count, game=args.game,
                        players=args.players if bot is None else args.bot_players,
                        bot=bot, strength=args.strength, warmup=args.warmup,
                        seconds=args.seconds, seed=args.seed, rate=rate))
                finally:
                    gc.enable()
                    server.stop()
                result.db = db_kind
                print(result.row(), flush=True)
    finally:
        databases.close()


if __name__ == "__main__":
    main()
