"""Issue 28 against real server processes: clients that never read, watcher crowds, caps,
rate limits, one hint per seat, origins and links, tables leaving memory, restarts that
resume only live tables, links that expire with their table, and no raw 500."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import ONE_ADDRESS_LIMITS
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from kartentisch.server.client import MuteClient, TableClient

QUICK = {"turn_limit": 12}
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def rss_kib(server: Any) -> int:
    """The server process's resident memory in KiB."""
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def health(server: Any) -> dict[str, Any]:
    with server.http() as http:
        answer: dict[str, Any] = http.get("/health").json()
    return answer


def wait_for(check: Any, timeout: float = 60, every: float = 0.1) -> Any:
    """Poll ``check()`` until it returns something true (the test fails after ``timeout``)."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"still not true after {timeout} s: {check}")
        time.sleep(every)


async def wait_async(check: Any, timeout: float = 60) -> None:
    """:func:`wait_for` without blocking the event loop (the test's clients keep running)."""
    end = time.monotonic() + timeout
    while not await asyncio.to_thread(check):
        if time.monotonic() > end:
            raise AssertionError(f"still not true after {timeout} s: {check}")
        await asyncio.sleep(0.1)


# ---------------------------------------------------------------- slow readers
def test_clients_that_never_read_are_bounded_and_disconnected(start_server: Any) -> None:
    """Ten watchers of a finished table send 1,500 `sync` each and read nothing: the
    server's memory grows by a bounded amount, each is closed after `send_timeout`, a player
    at another table plays on, and the same watch link joins again at once."""
    server = start_server(limits=ONE_ADDRESS_LIMITS + ",send_timeout=3,messages_burst=100000,"
                          "messages_rate=100000,address_messages_rate=100000")
    made = server.create(game="krass-kariert", players=5, listed=True,
                         seats=[{"kind": "bot", "bot": "random"}] * 5)
    with server.http() as http:  # a finished table's whole view is large (~20 KB)
        wait_for(lambda: http.get(f"/api/tables/{made['table']}/record").status_code == 200)
    player_table = server.create(game="krumme20", players=2, options=QUICK, seats=[
        {"kind": "human"}, {"kind": "bot", "bot": "random"}])
    watch = made["watch"]["token"]

    async def attack() -> tuple[int, int]:
        before = rss_kib(server)
        peak = before
        mutes = [MuteClient(server.url) for _ in range(10)]
        for mute in mutes:
            mute.send({"type": "hello", "token": watch})
        for _ in range(300):  # each round's views are sent (and never read)
            for mute in mutes:
                mute.send({"type": "sync"}, times=5)
            await asyncio.sleep(0.01)
            peak = max(peak, rss_kib(server))
        async with await TableClient.join(server.ws,
                                          player_table["seats"][0]["token"]) as player:
            update = player.latest
            assert update is not None
            if update["legal"]:
                ref = await player.move(update["legal"][0]["id"])
                await player.until(lambda m: m.get("ref") == ref)
            peak = max(peak, rss_kib(server))
            await wait_async(lambda: health(server)["slow_disconnects"] >= 10, timeout=90)
        for mute in mutes:
            mute.close()
        async with await TableClient.join(server.ws, watch) as again:
            assert again.welcome is not None and again.welcome["role"] == "watcher"
        return before, peak

    before, peak = asyncio.run(attack())
    # docs/security.md: at most about 1 MiB a connection; 8 MiB more for the rest of the
    # test (the player's table and connection, the loaded finished table, the allocator)
    assert peak - before < (10 + 8) * 1024, f"the server grew by {(peak - before) // 1024} MiB"
    state = health(server)
    assert state["errors"] == 0 and state["slow_disconnects"] >= 10


# ---------------------------------------------------------------- watchers
def test_watchers_cost_the_seated_players_a_count_not_a_seat_list(sqlite_server: Any) -> None:
    """Forty watchers come and go: the seated player gets no `seats` message for them, a
    few `watchers` counts (at most one a second) ending at 0, and nothing else."""
    made = sqlite_server.create(game="krumme20", players=2, options=QUICK, seats=HUMANS)

    async def crowd() -> list[dict[str, Any]]:
        async with await TableClient.join(sqlite_server.ws, made["seats"][0]["token"]) as seat:
            start = len(seat.received)
            watchers = await asyncio.gather(*(TableClient.join(
                sqlite_server.ws, made["watch"]["token"]) for _ in range(40)))
            await seat.until(lambda m: m["type"] == "watchers" and m["count"] == 40,
                             start=start)
            await asyncio.gather(*(w.close() for w in watchers))
            await seat.until(lambda m: m["type"] == "watchers" and m["count"] == 0,
                             start=start)
            return seat.received[start:]

    told = asyncio.run(crowd())
    assert [m for m in told if m["type"] == "seats"] == []
    counts = [m["count"] for m in told if m["type"] == "watchers"]
    assert 2 <= len(counts) <= 10 and counts[-1] == 0
    assert {m["type"] for m in told} == {"watchers"}


def test_caps_and_rate_limits_answer_with_a_code(start_server: Any) -> None:
    """With the default rates (and small caps): the fourth watcher and the seventh connection
    of an address are refused with their codes; a burst of 100 pings gets 60-odd pongs and
    `rate.too_fast` (with retry_after) for the rest, and the connection stays; the 21st
    table from one address gets 429 `lobby.too_many_tables`; a flood of requests 429
    `rate.too_fast` with Retry-After; nothing is a server error."""
    server = start_server(limits="watchers_per_table=3,connections_per_address=6,"
                          "tables_rate=0.001,messages_rate=1,requests_rate=0.01")
    made = [server.create(game="krumme20", players=2, options=QUICK) for _ in range(20)]
    with server.http() as http:
        refused = http.post("/api/tables", json={"game": "krumme20", "players": 2})
        assert refused.status_code == 429
        assert refused.json()["code"] == "lobby.too_many_tables"
        assert refused.json()["params"]["retry_after"] > 0
    watch = made[0]["watch"]["token"]

    async def visit() -> None:
        flooder = await TableClient.open(server.ws)
        for n in range(100):
            await flooder.send({"type": "ping", "ref": n})
        await flooder.until(lambda m: len(flooder.received) >= 100)
        pongs = [m for m in flooder.received if m["type"] == "pong"]
        slow = [m for m in flooder.received if m["type"] == "error"]
        assert 60 <= len(pongs) < 70 and len(pongs) + len(slow) == 100
        assert {m["code"] for m in slow} == {"rate.too_fast"}
        assert all(m["retry_after"] == m["params"]["retry_after"] > 0 for m in slow)
        await asyncio.sleep(max(m["params"]["retry_after"] for m in slow))
        await flooder.send({"type": "ping", "ref": 1000})  # the connection was kept
        await flooder.until(lambda m: m["type"] == "pong" and m["ref"] == 1000)

        watchers = [await TableClient.join(server.ws, watch) for _ in range(3)]
        fourth = await TableClient.open(server.ws)
        await fourth.send({"type": "hello", "token": watch})
        error = await fourth.until(lambda m: m["type"] == "error")
        assert error["code"] == "session.too_many_watchers"
        assert error["params"]["limit"] == 3
        await asyncio.sleep(1)  # a token for the next message (messages_rate=1)
        await fourth.send({"type": "ping", "ref": 1})  # still served
        await fourth.until(lambda m: m["type"] == "pong")
        sixth = await TableClient.open(server.ws)  # 6 open now
        seventh = await TableClient.open(server.ws)
        closing = await seventh.until(lambda m: m["type"] == "error")
        assert closing["code"] == "session.too_many_connections"
        await asyncio.wait_for(seventh.socket.wait_closed(), 30)
        for client in (flooder, *watchers, fourth, sixth):
            await client.close()

    asyncio.run(visit())
    with httpx.Client(base_url=server.url, timeout=30) as http:
        codes = [http.get(f"/api/tables/{made[0]['table']}").status_code for _ in range(150)]
        assert codes.count(429) > 0 and codes[0] == 200
        last = http.get(f"/api/tables/{made[0]['table']}")
        assert last.status_code == 429 and last.json()["code"] == "rate.too_fast"
        assert int(last.headers["Retry-After"]) >= 1
    state = health(server)
    assert state["errors"] == 0
    assert state["refused"]["lobby.too_many_tables"] >= 1
    assert state["refused"]["session.too_many_watchers"] == 1


def test_a_seat_gets_one_hint_at_a_time(sqlite_server: Any) -> None:
    """Thirty concurrent hints from one seat: one is answered, the others are refused at once
    with 429 `web.hint_busy`; afterwards the seat may ask again."""
    made = sqlite_server.create(game="krumme20", players=2, options=QUICK, seats=HUMANS)
    token = made["seats"][0]["token"]

    async def storm() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=sqlite_server.url, timeout=60) as http:
            return list(await asyncio.gather(*(http.post(
                "/api/web/hint", json={"token": token}) for _ in range(30))))

    answers = asyncio.run(storm_after_turn(sqlite_server, made, storm))
    codes = sorted(a.status_code for a in answers)
    assert codes.count(200) == 1 and codes.count(429) == 29
    assert {a.json()["code"] for a in answers if a.status_code == 429} == {"web.hint_busy"}
    with sqlite_server.http() as http:
        assert http.post("/api/web/hint", json={"token": token}).status_code == 200


async def storm_after_turn(server: Any, made: dict[str, Any], storm: Any) -> Any:
    """Run ``storm`` once seat 0 is to move (both seats joined, so the game started; seat
    1 moves first as long as it has to)."""
    async with await TableClient.join(server.ws, made["seats"][0]["token"]) as mine, \
            await TableClient.join(server.ws, made["seats"][1]["token"]) as other:
        while not (mine.latest or {}).get("legal"):
            latest = other.latest
            if latest is not None and latest["legal"]:
                ref = await other.move(latest["legal"][0]["id"])
                await other.until(lambda m, ref=ref: m.get("ref") == ref)
            else:
                count = len(mine.received)
                await mine.until(lambda m: m["type"] == "update", start=count, timeout=30)
        return await storm()


# ---------------------------------------------------------------- origins and links
def test_origins_are_checked_and_links_use_the_public_url(start_server: Any) -> None:
    server = start_server(args=("--public-url", "https://cards.example.org/",
                                "--allow-origin", "https://friends.example.net"))
    body = {"game": "krumme20", "players": 2, "options": QUICK}
    with server.http() as http:
        evil = http.post("/api/tables", json=body, headers={"Origin": "http://evil.example"})
        assert evil.status_code == 403 and evil.json()["code"] == "server.bad_origin"
        blind = http.post("/api/tables", content=b'{"game": "krumme20"}', headers={
            "Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"})
        assert blind.status_code == 403
        made = http.post("/api/tables", json=body, headers={
            "Origin": "https://cards.example.org", "Host": "evil.example"})
        assert made.status_code == 201
        answer = made.json()
        for link in [s["link"] for s in answer["seats"]] + [answer["watch"]["link"],
                                                           answer["host"]["link"]]:
            assert link.startswith("https://cards.example.org/#"), link
        friend = http.post(f"/api/web/tables/{answer['table']}/claim", json={},
                           headers={"Origin": "https://friends.example.net"})
        assert friend.status_code != 403
        assert http.get("/api/tables", headers={"Origin": "http://evil.example"}
                        ).status_code == 200  # reads are not state-changing

    async def sockets() -> None:
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.ws, origin="http://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        for origin in ("https://cards.example.org", "https://friends.example.net"):
            async with connect(server.ws, origin=origin) as socket:  # type: ignore[arg-type]
                await socket.send('{"v":1,"type":"ping","ref":1}')
                assert '"pong"' in str(await socket.recv())

    asyncio.run(sockets())
    assert health(server)["refused"]["server.bad_origin"] >= 3


def test_links_never_copy_the_host_header(sqlite_server: Any) -> None:
    with sqlite_server.http() as http:
        made = http.post("/api/tables", json={"game": "krumme20", "players": 2},
                         headers={"Host": "evil.example"}).json()
    assert made["seats"][0]["link"].startswith(sqlite_server.url + "/#seat=")
    assert "evil" not in str(made)


# ---------------------------------------------------------------- memory lifecycle
def test_tables_leave_memory_and_a_restart_resumes_only_live_ones(
        start_server: Any, tmp_path: Path) -> None:
    """Bot-only tables leave memory when they end; reading finished tables' records keeps
    none of them; a table waiting for an absent person leaves after `unload_after` and
    comes back when its link is opened; a restart resumes the tables active within the
    lobby expiry only; a finished table's links stop working `finished_expiry` after its
    end, while its record stays readable."""
    db = tmp_path / "tables.sqlite3"
    args = ("--lobby-expiry", "30", "--stand-in-pace", "0")
    server = start_server(f"sqlite:///{db}", args=args,
                          limits=ONE_ADDRESS_LIMITS + ",unload_after=0.4")
    bots = [{"kind": "bot", "bot": "random"}] * 2
    done = [server.create(game="krumme20", players=2, options=QUICK, seats=bots)["table"]
            for _ in range(12)]
    waiting = server.create(game="krumme20", players=2, options=QUICK, seats=HUMANS)
    wait_for(lambda: health(server)["tables"] == 0)  # the bots finished, the humans' table idles
    with server.http() as http:
        for table in done:
            assert http.get(f"/api/tables/{table}/record").status_code == 200
    assert health(server)["tables"] == 0

    async def visit() -> None:
        async with await TableClient.join(server.ws, waiting["seats"][0]["token"]) as seat:
            assert seat.welcome is not None
            assert health(server)["tables"] == 1

    asyncio.run(visit())
    wait_for(lambda: health(server)["tables"] == 0)
    server.stop()

    live = sqlite3.connect(db)
    abandoned = waiting["table"]
    with live:
        live.execute("UPDATE kt_tables SET last_active = 1000, created_at = 1000 WHERE id = ?",
                     (abandoned,))
        live.execute("UPDATE kt_tables SET finished_at = 1000 WHERE id = ?", (done[0],))
    live.close()
    fresh = start_server(f"sqlite:///{db}", args=args)
    recent = fresh.create(game="krumme20", players=2, options=QUICK, seats=HUMANS)
    fresh.stop()
    again = start_server(f"sqlite:///{db}", args=args)
    assert health(again)["tables"] == 1  # the recent one; not the abandoned one
    del recent

    async def old_links() -> None:
        async with await TableClient.join(again.ws, waiting["seats"][1]["token"]) as seat:
            assert seat.welcome is not None  # an abandoned table opens by its link
        with sqlite3.connect(db) as conn:
            token_row = conn.execute("SELECT COUNT(*) FROM kt_links WHERE table_id = ?",
                                     (done[0],)).fetchone()
        assert token_row[0] >= 1

    asyncio.run(old_links())
    with again.http() as http:
        assert http.get(f"/api/tables/{done[0]}/record").status_code == 200
    assert health(again)["errors"] == 0


def test_a_finished_tables_links_expire(start_server: Any, tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    server = start_server(f"sqlite:///{db}")
    made = server.create(game="krumme20", players=2, options=QUICK, seats=[
        {"kind": "human"}, {"kind": "bot", "bot": "random"}])

    async def play(token: str) -> dict[str, Any]:
        async with await TableClient.join(server.ws, token) as seat:
            while True:
                latest = seat.latest
                assert latest is not None
                if latest["status"] != "playing":
                    return latest
                if latest["legal"]:
                    ref = await seat.move(latest["legal"][0]["id"])
                    await seat.until(lambda m, ref=ref: m.get("ref") == ref)
                else:
                    count = len(seat.received)
                    await seat.until(lambda m: m["type"] == "update", start=count)

    assert asyncio.run(play(made["seats"][0]["token"]))["status"] == "finished"
    wait_for(lambda: health(server)["tables"] == 0)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE kt_tables SET finished_at = 1000 WHERE id = ?", (made["table"],))

    async def expired() -> str:
        client = await TableClient.open(server.ws)
        await client.send({"type": "hello", "token": made["seats"][0]["token"]})
        error = await client.until(lambda m: m["type"] == "error")
        await client.close()
        return str(error["code"])

    assert asyncio.run(expired()) == "session.unknown_link"
    with server.http() as http:
        assert http.get(f"/api/tables/{made['table']}/record").status_code == 200


# ---------------------------------------------------------------- no raw 500
def test_the_findings_inputs_get_reasons_on_both_databases(db_server: Any) -> None:
    """The issue's raw 500s: a claimed seat of 2^63, a Casino move of 5,000 digits at
    explain, a NUL byte in a table id in every route with one, overlong ids and tokens."""
    made = db_server.create(game="casino", players=2, seats=[
        {"kind": "human"}, {"kind": "human", "open": True}], listed=True)
    table, token = made["table"], made["seats"][0]["token"]
    before = health(db_server)["errors"]
    with db_server.http() as http:
        for seat in (2**63, 2**31, -1, 64):
            answer = http.post(f"/api/web/tables/{table}/claim", json={"seat": seat})
            assert answer.status_code == 400, answer.text
            assert answer.json()["code"] == "lobby.bad_request"
        explained = http.post("/api/web/explain", json={"token": token, "text": "9" * 5000})
        assert explained.status_code == 400 and explained.json()["code"] == "lobby.bad_request"
        for bad_id in ("a%00b", "%00", "x" * 5000, "a%20b", "%C3%A4"):
            for path in (f"/api/tables/{bad_id}", f"/api/tables/{bad_id}/record",
                         f"/api/web/tables/{bad_id}", f"/api/web/replay/{bad_id}"):
                answer = http.get(path)
                assert answer.status_code == 404, (path, answer.text)
            answer = http.post(f"/api/web/tables/{bad_id}/claim", json={})
            assert answer.status_code == 404, answer.text
        for bad_token in ("a\x00b", "x" * 5000):
            answer = http.post("/api/web/hint", json={"token": bad_token})
            assert answer.status_code in (400, 403), answer.text
    assert health(db_server)["errors"] == before
