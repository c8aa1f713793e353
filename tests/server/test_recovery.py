"""Recovery (issue 28): a failed store is answered or retried, and a table resumes by itself
once the database works again, with a real full disk and with PostgreSQL connections killed
in the middle of a game. Nothing acknowledged is lost: every move a client saw acknowledged
is in the database, and the table as stored replays to its end."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from tests.server.test_hostile import health, wait_async

from kartentisch.server.client import TableClient

QUICK = {"turn_limit": 12}


@contextlib.contextmanager
def small_disk(path: Path, megabytes: int = 8) -> Iterator[Path]:
    """A tmpfs of ``megabytes`` mounted at ``path`` (root only: the test says so when the
    machine does not allow it)."""
    path.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs",
                           str(path)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {made.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(disk: Path) -> Path:
    """Write a file until the disk is full; returns it (delete it to free the space)."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out:
        chunk = b"\0" * 65536
        try:
            while True:
                out.write(chunk)
        except OSError as error:
            assert error.errno == errno.ENOSPC
            with contextlib.suppress(OSError):
                for _ in range(64):  # the last blocks
                    out.write(b"\0" * 1024)
    return filler


async def play_to_the_end(server: Any, token: str, *, after_ack: Any = None,
                          refused: Any = None) -> tuple[list[int], dict[str, Any]]:
    """Play seat 0's first legal move until the game ends; ``after_ack(update)`` runs after
    each acknowledged move (with the acknowledging update), ``refused()`` after each
    ``server.storage`` refusal (before the same move is sent again). Returns the
    acknowledged move numbers and the last update."""
    acked: list[int] = []
    async with await TableClient.join(server.ws, token) as seat:
        while True:
            latest = seat.latest
            assert latest is not None
            if latest["status"] != "playing":
                return acked, latest
            if not latest["legal"]:
                count = len(seat.received)
                await seat.until(lambda m: m["type"] == "update", start=count, timeout=120)
                continue
            count = len(seat.received)
            ref = await seat.move(latest["legal"][0]["id"])
            answer = await seat.until(lambda m, ref=ref: m.get("ref") == ref, start=count,
                                      timeout=120)
            if answer["type"] == "error":
                assert answer["code"] in ("server.storage", "move.stale"), answer
                if refused is not None:
                    await refused()
                await seat.send({"type": "sync"})
                await seat.until(lambda m: m["type"] == "update" and m["full"],
                                 start=count, timeout=120)
                continue
            acked.append(latest["move"])
            if after_ack is not None:
                await after_ack(answer)


def test_a_full_disk_stalls_no_table(start_server: Any, tmp_path: Path) -> None:
    """SQLite on a small tmpfs, a person against a thinking bot. After each acknowledged
    move the disk is filled: the bot's move cannot be stored, `/health` says so, and once
    the space is freed the bot's move is stored by the retry and the game goes on by itself;
    a person's move on the full disk is refused `server.storage` (and stored when sent
    again); a new table on the full disk gets 503 `server.storage`. The game ends, and every
    acknowledged move is stored."""
    with small_disk(tmp_path / "disk") as disk:
        db = disk / "tables.sqlite3"
        server = start_server(f"sqlite:///{db}")
        made = server.create(game="krumme20", players=2, options=QUICK, seats=[
            {"kind": "human"}, {"kind": "bot", "bot": "ismcts", "strength": 2}])
        seen = {"bot_retried": 0, "refused": 0, "create_refused": 0}
        filler: list[Path] = []

        def free() -> None:
            while filler:
                filler.pop().unlink()

        def moves() -> int:
            with server.http() as http:
                return int(http.get(f"/api/tables/{made['table']}").json()["table"]["move"])

        async def after_ack(answer: dict[str, Any]) -> None:
            if answer["legal"] or answer["status"] != "playing":
                return  # the person moves again: no bot move to fail
            done = answer["move"]
            filler.append(await asyncio.to_thread(fill, disk))
            if not seen["create_refused"]:
                with server.http() as http:
                    answer = await asyncio.to_thread(http.post, "/api/tables", json={
                        "game": "krumme20", "players": 2})
                assert answer.status_code in (201, 503), answer.text
                if answer.status_code == 503:
                    assert answer.json()["code"] == "server.storage"
                    seen["create_refused"] += 1

            def settled() -> bool:  # the bot's move failed (and waits to retry) or is stored
                state = health(server)
                if state["storage"]["retrying"] > 0:
                    assert state["ok"] is False
                    seen["bot_retried"] += 1
                    return True
                return moves() > done

            await wait_async(settled, timeout=60)
            free()  # a failed bot move is now stored by its retry, and the game goes on

        async def refused() -> None:
            seen["refused"] += 1
            assert health(server)["ok"] is False
            free()

        acked, last = asyncio.run(play_to_the_end(server, made["seats"][0]["token"],
                                                  after_ack=after_ack, refused=refused))
        free()
        assert last["status"] == "finished"
        assert seen["bot_retried"] >= 1 and seen["create_refused"] == 1
        state = health(server)
        assert state["errors"] == 0 and state["storage"]["failures"] >= 1
        wait_for_ok(server)
        server.stop()
        with sqlite3.connect(db) as conn:
            stored = [r[0] for r in conn.execute(
                "SELECT move_no FROM kt_moves WHERE table_id = ? ORDER BY move_no",
                (made["table"],))]
            status = conn.execute("SELECT status FROM kt_tables WHERE id = ?",
                                  (made["table"],)).fetchone()[0]
        assert stored == list(range(last["move"]))
        assert set(acked) <= set(stored) and status == "finished"


def wait_for_ok(server: Any) -> None:
    from tests.server.test_hostile import wait_for

    wait_for(lambda: health(server)["ok"] is True, timeout=60)


def test_killed_postgresql_connections_stall_no_table(start_server: Any,
                                                      pg_cluster: Any) -> None:
    """Every connection of the server to PostgreSQL (the journal's, the pool's, the
    listener's) is killed with pg_terminate_backend after every second acknowledged move:
    the game still ends, bots' moves are retried, a refused move is stored when sent again,
    and every acknowledged move is in the database."""
    db = pg_cluster.database()
    server = start_server(db)
    made = server.create(game="krumme20", players=2, options=QUICK, seats=[
        {"kind": "human"}, {"kind": "bot", "bot": "random"}])
    killed = [0]
    dsn = db.replace("postgresql+psycopg://", "postgresql://")

    def kill() -> int:
        with psycopg.connect(dsn, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
        return len(rows)

    async def after_ack(_answer: dict[str, Any]) -> None:
        killed[0] += 1
        if killed[0] % 2 == 0:
            assert await asyncio.to_thread(kill) >= 1

    acked, last = asyncio.run(play_to_the_end(server, made["seats"][0]["token"],
                                              after_ack=after_ack))
    assert last["status"] == "finished"
    state = health(server)
    assert state["errors"] == 0
    with psycopg.connect(dsn) as conn:
        stored = [r[0] for r in conn.execute(
            "SELECT move_no FROM kt_moves WHERE table_id = %s ORDER BY move_no",
            (made["table"],))]
        status = conn.execute("SELECT status FROM kt_tables WHERE id = %s",
                              (made["table"],)).fetchone()
    assert stored == list(range(last["move"])) and set(acked) <= set(stored)
    assert status is not None and status[0] == "finished"
