"""SIGKILL a real server process in the middle of games, start it again: nothing that was
acknowledged is lost, every table continues from its last acknowledged move, clients rejoin.
Then two server processes on one PostgreSQL database play one table together."""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from kartentisch.core.records import GameRecord
from kartentisch.server.client import TableClient


def children(pid: int) -> set[int]:
    """The child processes of ``pid`` (Linux /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.update(int(c) for c in text)
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


def test_sigkill_loses_nothing_acknowledged(start_server: Any, database: str,
                                            tmp_path: Path) -> None:
    first = start_server(database)
    humans = [first.create(game="krumme20", players=2, options={"turn_limit": 12})
              for _ in range(2)]
    with_bot = first.create(game="krumme20", players=2, options={"turn_limit": 12}, seats=[
        {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}])
    tables = [*humans, with_bot]
    tokens = [[s["token"] for s in t["seats"] if "token" in s] for t in tables]
    texts: dict[tuple[str, int], str] = {}
    """(table, move number) -> the notation of the move a client sent there."""
    acked: dict[tuple[str, int], str] = {}
    """The same for every move the server acknowledged (the mover's update echoed its ref)."""

    async def player(url: str, table: dict[str, Any], token: str, rng: random.Random,
                     stop: asyncio.Event) -> None:
        client = await TableClient.join(url, token)
        try:
            while not stop.is_set():
                update = client.latest
                assert update is not None
                if update["status"] == "finished":
                    return
                if update["legal"] and (table["table"], update["move"]) not in texts:
                    choice = rng.choice(update["legal"])
                    texts[(table["table"], update["move"])] = choice["text"]
                    await client.move(choice["id"], move=update["move"], ref=update["move"])
                try:
                    message = await client.until(lambda m: True, timeout=0.5)
                except TimeoutError:
                    continue
                if message["type"] == "update" and message.get("ref") is not None:
                    key = (table["table"], message["ref"])
                    acked[key] = texts[key]
        except ConnectionError:
            pass  # the server died
        finally:
            await client.close()

    async def until_killed() -> None:
        stop = asyncio.Event()
        rng = random.Random(8)
        players = [asyncio.ensure_future(player(first.ws, t, tok, rng, stop))
                   for t, toks in zip(tables, tokens, strict=True) for tok in toks]
        while len(acked) < 12:
            await asyncio.sleep(0.01)
        workers = children(first.process.pid)
        first.kill()  # SIGKILL while the clients keep sending
        assert first.process.returncode == -9
        stop.set()
        await asyncio.gather(*players)
        deadline = time.monotonic() + 5
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not any(alive(w) for w in workers), "bot workers outlived the server"

    asyncio.run(until_killed())
    assert len(acked) >= 12
    second = start_server(database)  # the same database, a new process and port

    async def after_restart() -> list[dict[str, Any]]:
        rng = random.Random(9)
        views: dict[str, int] = {}
        clients = []
        for table, toks in zip(tables, tokens, strict=True):
            for tok in toks:
                client = await TableClient.join(second.ws, tok)  # rejoin with the same link
                # the first view after a rejoin is the full one (a bot may move right after)
                assert client.joined is not None and client.joined["full"]
                views[table["table"]] = client.joined["move"]
                clients.append(client)
        for (table_id, number) in acked:
            assert views[table_id] > number, "an acknowledged move was lost"
        await asyncio.gather(*(c.play(lambda legal: rng.choice(legal)) for c in clients))
        finals = [c.latest for c in clients if c.latest is not None]
        for client in clients:
            await client.close()
        return finals

    finals = asyncio.run(after_restart())
    assert all(f["status"] == "finished" for f in finals)
    with second.http() as http:
        for table in tables:
            path = tmp_path / f"{table['table']}.json"
            path.write_bytes(http.get(f"/api/tables/{table['table']}/record").content)
            record = GameRecord.load(path)
            assert record.replay().is_terminal()
            for (table_id, number), text in acked.items():
                if table_id == table["table"]:
                    assert record.actions[number] == text


@pytest.mark.parametrize("db_server", ["postgresql"], indirect=True)
def test_two_processes_share_one_postgres_table(db_server: Any, start_server: Any,
                                                tmp_path: Path) -> None:
    one = db_server  # the session's PostgreSQL server, and a second process beside it
    two = start_server(one.db)
    made = one.create(game="krumme20", players=2, options={"turn_limit": 12})
    tokens = [s["token"] for s in made["seats"]]
    with two.http() as http:  # the table made at one process is known at the other
        assert http.get(f"/api/tables/{made['table']}").json()["table"]["players"] == 2

    async def scenario() -> tuple[list[dict[str, Any]], ...]:
        rng = random.Random(12)
        a = await TableClient.join(one.ws, tokens[0])
        b = await TableClient.join(two.ws, tokens[1])
        a2 = await TableClient.join(two.ws, tokens[0])  # seat 0 also at the other process
        # Seat 0 sends the same move number twice at once, through both processes.
        while a.latest is None or a.latest["to_move"] != 0:
            mine = b.latest
            if mine is not None and mine["legal"]:
                await b.move(mine["legal"][0]["id"], move=mine["move"])
                await a.until(lambda m, n=mine["move"]: m["type"] == "update" and m["move"] > n)
            else:
                await asyncio.sleep(0.02)
        number, legal = a.latest["move"], a.latest["legal"]
        await asyncio.gather(a.move(legal[0]["id"], move=number, ref=1000),
                             a2.move(legal[-1]["id"], move=number, ref=2000))
        outcomes = []
        for client, ref in ((a, 1000), (a2, 2000)):
            outcomes.append(await client.until(
                lambda m, r=ref: m.get("ref") == r and m["type"] in ("update", "error"),
                start=0))
        assert sorted(o["type"] for o in outcomes) == ["error", "update"]
        refused = next(o for o in outcomes if o["type"] == "error")
        assert refused["code"] in ("move.stale", "action.not_your_turn")
        await a2.close()
        await asyncio.gather(a.play(lambda lg: rng.choice(lg)),
                             b.play(lambda lg: rng.choice(lg)))
        for client in (a, b):
            await client.close()
        return a.received, b.received

    seen_a, seen_b = asyncio.run(scenario())
    ends = [next(m for m in reversed(seen) if m["type"] == "update") for seen in (seen_a, seen_b)]
    assert ends[0]["status"] == ends[1]["status"] == "finished"
    assert ends[0]["move"] == ends[1]["move"] and ends[0]["returns"] == ends[1]["returns"]
    for seen in (seen_a, seen_b):  # every player heard of every move, in order
        numbers = [m["move"] for m in seen if m["type"] == "update"]
        assert numbers == sorted(numbers)
        assert numbers[-1] == ends[0]["move"]
    path = tmp_path / "record.json"
    with one.http() as http:
        path.write_bytes(http.get(f"/api/tables/{made['table']}/record").content)
    assert len(GameRecord.load(path).actions) == ends[0]["move"]
