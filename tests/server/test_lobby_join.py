"""The page's table settings that must outlive the server process, and seats taken from the
lobby: the hint switch is stored with the table (a restart keeps hints off, and the server
refuses hints there); invitation seats marked open are listed without any link, the first
claim gets the seat's only link, and of clients racing for the last seat exactly one wins,
in one process and across two processes on one database."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from tests.server.conftest import migrate_to

from kartentisch.server.client import TableClient
from kartentisch.server.storage import SeatRow, Storage, TableRow
from kartentisch.server.tables import new_id, new_token


def web_create(server: Any, **table: Any) -> dict[str, Any]:
    """A table through the page's route (``POST /api/web/tables``)."""
    with server.http() as http:
        answer = http.post("/api/web/tables", json={"table": table})
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def hint(server: Any, token: str) -> httpx.Response:
    with server.http() as http:
        return http.post("/api/web/hint", json={"token": token})


async def join_each(server: Any, tokens: list[str]) -> None:
    """Each seat's person opens their link once (a table starts when all have joined)."""
    for token in tokens:
        client = await TableClient.join(server.ws, token)
        await client.close()


def test_hints_off_is_stored_and_survives_a_restart(start_server: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    first = start_server(db, bot_workers=0)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    off = web_create(first, game="casino", players=2, seats=seats, hints=False)
    on = web_create(first, game="casino", players=2, seats=[{"kind": "human"}] * 2)
    assert off["hints"] is False and on["hints"] is True
    refused = hint(first, off["seats"][0]["token"])
    assert refused.status_code == 403 and refused.json()["code"] == "web.hints_off"
    first.kill()  # SIGKILL: nothing but the database remembers the switch
    second = start_server(db, bot_workers=0)
    with second.http() as http:
        for table, wanted in ((off, False), (on, True)):
            settings = http.get(f"/api/web/tables/{table['table']}").json()
            assert settings["hints"] is wanted
            assert http.get(f"/api/tables/{table['table']}").json()["table"]["hints"] is wanted
        assert http.get("/api/web/tables/nosuchtable").status_code == 404
    refused = hint(second, off["seats"][0]["token"])
    assert refused.status_code == 403 and refused.json()["code"] == "web.hints_off"
    asyncio.run(join_each(second, [seat["token"] for seat in on["seats"]]))  # the start
    answers = [hint(second, seat["token"]) for seat in on["seats"]]  # hints stay on here
    given = [a.json() for a in answers if a.status_code == 200]
    assert len(given) == 1, [a.text for a in answers]
    assert given[0]["move"] == 0 and given[0]["id"] >= 0 and 0 <= given[0]["win"] <= 1
    assert {a.json().get("code") for a in answers} == {None, "web.hint_not_your_turn"}


def lobby(server: Any) -> list[dict[str, Any]]:
    with server.http() as http:
        tables: list[dict[str, Any]] = http.get("/api/web/lobby").json()["tables"]
    return tables


def claim(server: Any, table_id: str, seat: int | None = None) -> httpx.Response:
    body = {} if seat is None else {"seat": seat}
    with server.http() as http:
        return http.post(f"/api/web/tables/{table_id}/claim", json=body)


def test_open_seats_are_listed_without_links_and_claimed_once(start_server: Any) -> None:
    server = start_server(bot_workers=0)
    made = web_create(server, game="krumme20", players=3, options={"turn_limit": 12}, seats=[
        {"kind": "human"}, {"kind": "human", "open": True}, {"kind": "bot", "bot": "random"}])
    private = made["seats"][0]["token"]
    assert made["seats"][1] == {"seat": 1, "kind": "human", "bot": None, "strength": None,
                                "open": True, "name": None}  # no token, no link
    listed = {t["id"]: t for t in lobby(server)}[made["table"]]
    assert listed["open_seats"] == [1]
    assert [s["open"] for s in listed["seats"]] == [False, True, False]
    with server.http() as http:
        text = http.get("/api/web/lobby").text + http.get("/api/tables").text
    assert private not in text and "#seat=" not in text

    # the seat's link reaches the claimer only, and it plays that seat
    taken = claim(server, made["table"])
    assert taken.status_code == 201, taken.text
    answer = taken.json()
    assert answer["seat"] == 1 and answer["link"].endswith("#seat=" + answer["token"])
    assert [t["open_seats"] for t in lobby(server) if t["id"] == made["table"]] == [[]]
    again = claim(server, made["table"])
    assert again.status_code == 409 and again.json()["code"] == "web.no_open_seat"
    assert claim(server, made["table"], 0).status_code == 409  # seat 0 was never open
    assert claim(server, "nosuchtable").status_code == 404

    async def play() -> None:
        rng = random.Random(3)
        guest = await TableClient.join(server.ws, answer["token"])
        host = await TableClient.join(server.ws, private)
        welcome = next(m for m in guest.received if m["type"] == "welcome")
        assert welcome["role"] == "seat" and welcome["seat"] == 1
        assert [s["open"] for s in welcome["table"]["seats"]] == [False, False, False]
        ends = await asyncio.gather(guest.play(lambda legal: rng.choice(legal)),
                                    host.play(lambda legal: rng.choice(legal)))
        assert ends[0]["status"] == ends[1]["status"] == "finished"
        await guest.close()
        await host.close()

    asyncio.run(play())

    # an open seat needs a listed table and a person's seat
    with server.http() as http:
        for seats, listed_flag in (([{"kind": "human", "open": True}, {"kind": "human"}], False),
                                   ([{"kind": "human"}, {"kind": "bot", "bot": "random",
                                                         "open": True}], True)):
            refused = http.post("/api/web/tables", json={"table": {
                "game": "casino", "players": 2, "seats": seats, "listed": listed_flag}})
            assert refused.status_code == 400
            assert refused.json()["code"] == "lobby.bad_request"


def test_racing_threads_claim_the_last_seat_once(database: str) -> None:
    """Eight threads claim the one open seat of each of five tables at the same moment,
    straight on the storage: exactly one wins each seat, and only its link is stored."""
    store = Storage(database)
    store.migrate()
    store.start()
    try:
        for _round in range(5):
            row = TableRow(id=new_id(), game="casino", players=2, options={}, seed=1,
                           clock=None, listed=True, stand_in="heuristic",
                           seats=[SeatRow(0, "human"), SeatRow(1, "human", open=True)])
            store.submit("create", row, {new_token(): 0}).result(10)
            assert store.open_seats([row.id]) == {row.id: [1]}
            tokens = [new_token() for _ in range(8)]
            barrier = threading.Barrier(len(tokens))
            results: list[int | None] = [None] * len(tokens)
            errors: list[BaseException] = []

            def racer(index: int, row_id: str = row.id, tokens: list[str] = tokens,
                      barrier: threading.Barrier = barrier,
                      results: list[int | None] = results,
                      errors: list[BaseException] = errors) -> None:
                barrier.wait()
                try:
                    results[index] = store.claim_seat(row_id, tokens[index])
                except BaseException as error:  # reported below
                    errors.append(error)

            threads = [threading.Thread(target=racer, args=(i,)) for i in range(len(tokens))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert not errors, errors
            winners = [i for i, seat in enumerate(results) if seat is not None]
            assert len(winners) == 1, results
            assert results[winners[0]] == 1
            assert store.resolve_link(tokens[winners[0]]) == (row.id, 1)
            assert all(store.resolve_link(tokens[i]) is None
                       for i in range(len(tokens)) if i not in winners)
            assert store.open_seats([row.id]) == {}
            assert not store.seats(row.id)[1].open
    finally:
        store.close()


def test_two_processes_race_for_the_last_seat(start_server: Any, pg_cluster: Any) -> None:
    """Clients of two server processes on one PostgreSQL database (the set-up for more than
    one process) claim the last open seat at once: one gets it (and sits there), every
    other one is refused with ``web.no_open_seat``."""
    db = pg_cluster.database()
    one, two = start_server(db, bot_workers=0), start_server(db, bot_workers=0)
    made = web_create(one, game="krumme20", players=3, options={"turn_limit": 12}, seats=[
        {"kind": "human", "open": True}, {"kind": "human", "open": True},
        {"kind": "bot", "bot": "random"}])
    first = claim(two, made["table"])
    assert first.status_code == 201 and first.json()["seat"] == 0

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=30) as http:
            return list(await asyncio.gather(*(
                http.post(f"{server.url}/api/web/tables/{made['table']}/claim", json={})
                for server in (one, two) * 4)))

    answers = asyncio.run(race())
    won = [a for a in answers if a.status_code == 201]
    assert len(won) == 1, [a.text for a in answers]
    assert won[0].json()["seat"] == 1
    for lost in answers:
        if lost is not won[0]:
            assert lost.status_code == 409 and lost.json()["code"] == "web.no_open_seat"
    for server in (one, two):
        assert [t["open_seats"] for t in lobby(server) if t["id"] == made["table"]] == [[]]
        # each process's live table hears of claims made at the other (NOTIFY)
        deadline = time.monotonic() + 10
        with server.http() as http:
            while True:
                seats = http.get(f"/api/tables/{made['table']}").json()["table"]["seats"]
                if not any(s["open"] for s in seats) or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
        assert [s["open"] for s in seats] == [False, False, False]

    async def join() -> None:
        for server, answer in ((one, won[0].json()), (two, first.json())):
            client = await TableClient.join(server.ws, answer["token"])
            welcome = next(m for m in client.received if m["type"] == "welcome")
            assert welcome["seat"] == answer["seat"]
            await client.close()

    asyncio.run(join())


def test_migration_0002_keeps_older_tables(database: str) -> None:
    """A database made by migration 0001 with a table in it upgrades to the newest schema:
    the old table offers hints and has no open seat."""
    store = Storage(database)
    with migrate_to(store, "0001") as conn, conn.begin():
        conn.execute(sa.text(
            "INSERT INTO kt_tables (id, game, players, options, seed, clock, listed, stand_in,"
            " watch, status, returns, created_at, finished_at) VALUES ('old', 'casino', 2,"
            " '{}', 5, NULL, TRUE, 'heuristic', NULL, 'playing', NULL, 1.0, NULL)"))
        conn.execute(sa.text(
            "INSERT INTO kt_seats (table_id, seat, kind, bot, strength, \"left\") VALUES"
            " ('old', 0, 'human', NULL, NULL, FALSE), ('old', 1, 'human', NULL, NULL, FALSE)"))
    store.migrate()
    try:
        loaded = store.load_table("old")
        assert loaded is not None
        row, moves = loaded
        assert row.hints is True and moves == []
        assert [s.open for s in row.seats] == [False, False]
        assert store.open_seats(["old"]) == {}
        assert store.claim_seat("old", new_token()) is None
    finally:
        store.close()
