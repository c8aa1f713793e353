"""Load on the table server: N concurrent tables of scripted websocket players on loopback.

Every human seat is a client that answers its turn at once with a random legal move; when a
table's game ends, its players open a new table, so N tables stay in play. Reported: moves
per second (all moves, and the scripted humans' acknowledged moves) and the p50/p99 round
trip of a human move (sent -> the mover's own update received), for SQLite and PostgreSQL,
plus the CPU the server process used. ``--bot ismcts`` puts one ISMCTS bot at every table,
thinking in the server's worker process while the humans play.

    python benchmarks/server_load.py --tables 200 --seconds 20 --db sqlite
    python benchmarks/server_load.py --tables 50,100,200,400 --db sqlite,postgresql
    python benchmarks/server_load.py --tables 200 --bot ismcts --strength 1

Only loopback is used; every run stops by itself after ``--seconds`` (plus a warm-up).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from kartentisch.server.pgtemp import Cluster, start_cluster
from kartentisch.server.run import READY_LINE

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Result:
    """One measured configuration."""

    db: str
    tables: int
    bot: str | None
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

    def row(self) -> str:
        return (f"| {self.db} | {self.tables} | {self.bot or '-'} | {self.moves_per_s:.0f} | "
                f"{self.human_moves_per_s:.0f} | {self.p50_ms:.1f} | {self.p99_ms:.1f} | "
                f"{self.max_ms:.0f} | {self.server_cpu:.2f} | {self.client_cpu:.2f} | "
                f"{self.games} | {self.errors} |")


HEADER = ("| database | tables | bot | moves/s | human moves/s | p50 ms | p99 ms | max ms |"
          " server CPU | client CPU | games ended | errors |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(f) for f in fields[11:13]) / ticks


class Server:
    """A server process of its own for one run."""

    def __init__(self, db: str, bot_workers: int) -> None:
        command = [sys.executable, "-m", "kartentisch.server", "--port", "0", "--db", db,
                   "--bot-workers", str(bot_workers), "--log-level", "warning",
                   "--no-access-log"]
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


async def run_load(server: Server, *, tables: int, game: str, players: int, bot: str | None,
                   strength: int, warmup: float, seconds: float, seed: int) -> Result:
    """Keep ``tables`` tables busy for ``warmup + seconds``; measure the last ``seconds``."""
    rng = random.Random(seed)
    http = httpx.AsyncClient(base_url=server.url, timeout=60,
                             limits=httpx.Limits(max_connections=64))
    seats: list[dict[str, Any]] = [{"kind": "human"}] * players
    if bot is not None:
        seats = [*seats[:-1], {"kind": "bot", "bot": bot, "strength": strength}]
    stop_at = time.perf_counter() + warmup + seconds
    measure_from = time.perf_counter() + warmup
    trips: list[tuple[float, float]] = []
    counts = {"games": 0, "errors": 0}
    arrivals: list[float] = []

    async def table_loop() -> None:
        while time.perf_counter() < stop_at:
            answer = await http.post("/api/tables", json={
                "game": game, "players": players, "seats": seats, "listed": False})
            made = answer.json()
            clients = [await TableClient.join(server.ws, s["token"])
                       for s in made["seats"] if "token" in s]
            watcher = clients[0]
            plays = [asyncio.ensure_future(c.play(lambda legal: rng.choice(legal),
                                                  timeout=120)) for c in clients]
            await asyncio.wait(plays, timeout=max(0.0, stop_at - time.perf_counter()))
            for task in plays:
                task.cancel()
            await asyncio.gather(*plays, return_exceptions=True)
            for client in clients:
                trips.extend(client.trips)
                counts["errors"] += sum(m["type"] == "error" for m in client.received)
            last = watcher.latest or {}
            arrivals.extend(watcher.update_times[1:])  # one update per move after the first
            if last.get("status") == "finished":
                counts["games"] += 1
            for client in clients:
                await client.close()

    pid = server.process.pid
    cpu0: list[float] = []

    async def cpu_start() -> None:
        await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
        cpu0.append(cpu_seconds(pid))
        cpu0.append(cpu_seconds(os.getpid()))

    tasks = [asyncio.ensure_future(table_loop()) for _ in range(tables)]
    await cpu_start()
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
        db="", tables=tables, bot=bot, moves_per_s=moves, human_moves_per_s=humans,
        p50_ms=1000 * window[len(window) // 2],
        p99_ms=1000 * window[min(len(window) - 1, int(len(window) * 0.99))],
        max_ms=1000 * window[-1], server_cpu=cpu, client_cpu=client_cpu, errors=counts["errors"],
        games=counts["games"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="200", help="comma-separated table counts")
    parser.add_argument("--db", default="sqlite,postgresql", help="sqlite and/or postgresql")
    parser.add_argument("--game", default="casino")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default=None, help="a bot at every table (e.g. ismcts)")
    parser.add_argument("--strength", type=int, default=1)
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"# {platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()}"
          f" · {time.strftime('%Y-%m-%d %H:%M')} · {args.game}, {args.players} seats"
          f"{', one ' + args.bot + ' bot per table' if args.bot else ''}")
    print(HEADER, flush=True)
    cluster: Cluster | None = None
    try:
        for db_kind in args.db.split(","):
            for count in (int(t) for t in args.tables.split(",")):
                if db_kind == "postgresql":
                    if cluster is None:
                        cluster = start_cluster(max_connections=300)
                    db = cluster.database()
                else:
                    db = f"sqlite:///{tempfile.mkdtemp(prefix='kt-load-')}/tables.sqlite3"
                server = Server(db, args.bot_workers)
                try:
                    result = asyncio.run(run_load(
                        server, tables=count, game=args.game, players=args.players,
                        bot=args.bot, strength=args.strength, warmup=args.warmup,
                        seconds=args.seconds, seed=args.seed))
                finally:
                    server.stop()
                result.db = db_kind
                print(result.row(), flush=True)
    finally:
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.stop()


if __name__ == "__main__":
    main()
