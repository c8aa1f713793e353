"""Game night at a real server process: names, chat and reactions, the host's powers, private
tables and the lobby's expiry. Every new message type is checked for what it refuses."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from kartentisch.server.client import TableClient
from kartentisch.server.people import Bucket, clean_chat, clean_name
from kartentisch.server.protocol import (
    Chat,
    Close,
    Hello,
    Name,
    ProtocolError,
    React,
    Remove,
    SeatBot,
    SeatHuman,
    decode_message,
)

HUMAN = {"kind": "human"}
QUICK = {"turn_limit": 12}
"""Krumme20 with a short draw pile: whole games of about 33 moves."""


def night_table(server: Any, **extra: Any) -> dict[str, Any]:
    request: dict[str, Any] = {
        "game": "krumme20", "players": 3, "options": QUICK, "listed": False,
        "seats": [{"kind": "human", "name": "Anna"}, HUMAN,
                  {"kind": "bot", "bot": "heuristic"}]}
    request.update(extra)
    return server.create(**request)  # type: ignore[no-any-return]


async def barrier(client: TableClient) -> None:
    ref = random.randrange(1, 2**40)
    await client.send({"type": "ping", "ref": ref})
    await client.until(lambda m: m["type"] == "pong" and m["ref"] == ref, start=0)


async def refused(client: TableClient, frame: dict[str, Any], code: str) -> dict[str, Any]:
    start = len(client.received)
    await client.send(frame)
    error = await client.until(lambda m: m["type"] == "error", start=start, timeout=10)
    assert error["code"] == code, error
    assert error["message"] and isinstance(error["params"], dict)
    return error


def chats(client: TableClient) -> list[dict[str, Any]]:
    return [m for m in client.received if m["type"] == "chat"]


# ---------------------------------------------------------------- decoding and checks
def test_the_new_messages_decode() -> None:
    assert decode_message('{"v":1,"type":"hello","host":"h","name":"Anna"}') == Hello(
        v=1, host="h", name="Anna")
    assert decode_message('{"v":1,"type":"name","name":"Bo"}') == Name(v=1, name="Bo")
    assert decode_message('{"v":1,"type":"chat","text":"hi"}') == Chat(v=1, text="hi")
    assert decode_message('{"v":1,"type":"react","reaction":"gg"}') == React(v=1, reaction="gg")
    assert decode_message('{"v":1,"type":"seat_bot","seat":1,"bot":"ismcts","strength":2}') \
        == SeatBot(v=1, seat=1, bot="ismcts", strength=2)
    assert decode_message('{"v":1,"type":"seat_human","seat":1}') == SeatHuman(v=1, seat=1)
    assert decode_message('{"v":1,"type":"remove","seat":0}') == Remove(v=1, seat=0)
    assert decode_message('{"v":1,"type":"close"}') == Close(v=1)


@pytest.mark.parametrize("text", [
    '{"v":1,"type":"hello"}',
    '{"v":1,"type":"hello","name":"Anna"}',
    '{"v":1,"type":"hello","token":"t","host":""}',
    '{"v":1,"type":"hello","token":"t","name":7}',
    '{"v":1,"type":"name","name":"' + "a" * 65 + '"}',
    '{"v":1,"type":"name"}',
    '{"v":1,"type":"chat","text":"' + "a" * 601 + '"}',
    '{"v":1,"type":"chat","text":["hi"]}',
    '{"v":1,"type":"chat","text":"hi","to":3}',
    '{"v":1,"type":"react","reaction":"poo"}',
    '{"v":1,"type":"react","reaction":"<b>"}',
    '{"v":1,"type":"seat_bot","seat":-1,"bot":"heuristic"}',
    '{"v":1,"type":"seat_bot","seat":1,"bot":""}',
    '{"v":1,"type":"seat_bot","seat":1,"bot":"heuristic","strength":0}',
    '{"v":1,"type":"seat_bot","seat":1,"bot":"heuristic","strength":true}',
    '{"v":1,"type":"seat_human","seat":"1"}',
    '{"v":1,"type":"remove","seat":16}',
    '{"v":1,"type":"close","now":true}',
])
def test_bad_new_messages_are_malformed(text: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_message(text)
    assert caught.value.code == "message.malformed"


@pytest.mark.parametrize(("text", "name"), [
    ("Anna", "Anna"), ("  Anna   Lena\t", "Anna Lena"), ("Zoë", "Zoë"),
    ("O'Brien (Jr.), 2", "O'Brien (Jr.), 2"), ("Jürgen-Marie_3", "Jürgen-Marie_3"),
    ("Zoe\u0308", "Zoë"), ("x" * 24, "x" * 24), ("李小龍", "李小龍"),
])
def test_good_names(text: str, name: str) -> None:
    assert clean_name(text) == name


@pytest.mark.parametrize("text", [
    "", "   ", "x" * 25, "<b>x</b>", "a&b", 'say "hi"', "Anna\u202eevil", "a\x00b",
    "tab\u200bzero", "...", "🙂", "x;y",
])
def test_bad_names(text: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        clean_name(text)
    assert caught.value.code == "name.invalid" and caught.value.params["detail"]


def test_chat_lines() -> None:
    assert clean_chat("  <b>x</b>\n\n  next ") == "<b>x</b> next"
    assert clean_chat("a" * 300) == "a" * 300
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 \U0001f44d\U0001f3fd"
    assert clean_chat(family) == family  # emoji sequences join with U+200D
    for text, code in (("  \n ", "chat.empty"), ("a" * 301, "chat.too_long"),
                       ("evil\u202etext", "chat.bad_character"),
                       ("bell\x07", "chat.bad_character")):
        with pytest.raises(ProtocolError) as caught:
            clean_chat(text)
        assert caught.value.code == code


def test_the_chat_bucket_allows_a_burst_then_one_every_two_seconds() -> None:
    now = [100.0]
    bucket = Bucket(clock=lambda: now[0])
    assert [bucket.take() for _ in range(5)] == [0.0] * 5
    assert bucket.take() == pytest.approx(2.0)
    now[0] += 1.0
    assert bucket.take() == pytest.approx(1.0)
    now[0] += 1.0
    assert bucket.take() == 0.0
    now[0] += 60
    assert [bucket.take() for _ in range(6)][-1] > 0  # never more than the burst


# ---------------------------------------------------------------- at a real server
def test_names_chat_and_history(sqlite_server: Any) -> None:
    made = night_table(sqlite_server, watcher_chat=False)
    assert made["listed"] is False and made["host"]["link"].endswith(made["host"]["token"])
    assert [s.get("name") for s in made["seats"]] == ["Anna", None, None]

    async def run() -> None:
        anna = await TableClient.join(sqlite_server.ws, made["seats"][0]["token"])
        assert anna.welcome is not None and anna.welcome["host"] is False
        assert anna.welcome["table"]["seats"][0]["name"] == "Anna"
        with pytest.raises(ConnectionError, match=r"name\.invalid"):
            await TableClient.join(sqlite_server.ws, made["seats"][1]["token"], name="<b>")
        bo = await TableClient.join(sqlite_server.ws, made["seats"][1]["token"], name=" Bo ")
        seats = await anna.until(lambda m: m["type"] == "seats" and m["seats"][1]["name"])
        assert [(s["name"], s["joined"]) for s in seats["seats"]] == [
            ("Anna", True), ("Bo", True), (None, False)]
        await bo.send({"type": "chat", "text": "  <b>x</b>  "})
        line = await anna.until(lambda m: m["type"] == "chat" and m["kind"] == "chat")
        assert (line["seat"], line["name"], line["kind"], line["text"]) == (
            1, "Bo", "chat", "<b>x</b>")
        await anna.send({"type": "react", "reaction": "wave"})
        wave = await bo.until(lambda m: m["type"] == "chat" and m["kind"] == "react")
        assert (wave["name"], wave["text"]) == ("Anna", "wave")
        await anna.send({"type": "name", "name": "Anna B."})
        await bo.until(lambda m: m["type"] == "seats" and m["seats"][0]["name"] == "Anna B.")
        await refused(anna, {"type": "name", "name": "a<b"}, "name.invalid")
        await refused(anna, {"type": "chat", "text": "x" * 301}, "chat.too_long")
        await refused(anna, {"type": "chat", "text": " "}, "chat.empty")
        await refused(anna, {"type": "chat", "text": "a\u202eb"}, "chat.bad_character")
        watcher = await TableClient.join(sqlite_server.ws, made["watch"]["token"], name="Cy")
        assert watcher.welcome is not None
        history = watcher.welcome["chat"]
        assert [(e["n"], e["kind"], e["text"]) for e in history] == [  # Bo came: the start
            (0, "notice", "host.started"), (1, "chat", "<b>x</b>"), (2, "react", "wave")]
        await refused(watcher, {"type": "chat", "text": "hello"}, "chat.watchers_off")
        await refused(watcher, {"type": "react", "reaction": "gg"}, "chat.watchers_off")
        start = len(anna.received)
        for n in range(6):  # at once: at most 5 pass (fewer while the tokens of her reaction
            # and her rename are not back: one comes back every 2 s)
            await anna.send({"type": "chat", "text": f"line {n}"})
        await barrier(anna)
        answers = [m for m in anna.received[start:] if m["type"] in ("chat", "error")]
        passed = [m["text"] for m in answers if m["type"] == "chat"]
        errors = [m for m in answers if m["type"] == "error"]
        assert passed == [f"line {n}" for n in range(len(passed))] and len(passed) in (3, 4, 5)
        assert {e["code"] for e in errors} == {"chat.too_fast"}
        assert all(e["params"]["retry_after"] >= 1 for e in errors)
        await barrier(bo)
        assert [m["text"] for m in chats(bo)][-len(passed):] == passed
        for client in (anna, bo, watcher):
            await client.close()

    asyncio.run(run())


def test_watchers_chat_where_the_table_allows_it(sqlite_server: Any) -> None:
    made = night_table(sqlite_server, watcher_chat=True)

    async def run() -> None:
        anna = await TableClient.join(sqlite_server.ws, made["seats"][0]["token"])
        watcher = await TableClient.join(sqlite_server.ws, made["watch"]["token"], name="Cy")
        await watcher.send({"type": "chat", "text": "good luck"})
        line = await anna.until(lambda m: m["type"] == "chat")
        assert (line["seat"], line["name"], line["text"]) == (None, "Cy", "good luck")
        for client in (anna, watcher):
            await client.close()

    asyncio.run(run())


def test_the_host_links_route(sqlite_server: Any) -> None:
    made = night_table(sqlite_server)
    with sqlite_server.http() as http:
        for body in ({"host": "wrong"}, {"host": made["seats"][0]["token"]}):
            answer = http.post("/api/web/host/links", json=body)
            assert answer.status_code == 403 and answer.json()["code"] == "host.not_host"
        for body in ({}, {"host": ""}, {"host": "x" * 129}, {"host": "h", "extra": 1}):
            answer = http.post("/api/web/host/links", json=body)
            assert answer.status_code == 400 and answer.json()["code"] == "lobby.bad_request"
        answer = http.post("/api/web/host/links", json={"host": made["host"]["token"]})
        assert answer.status_code == 200
        data = answer.json()
    assert data["table"] == made["table"] and data["status"] == "playing"
    assert [s["link"] for s in data["seats"]] == [
        made["seats"][0]["link"], made["seats"][1]["link"], None]
    assert [s["name"] for s in data["seats"]] == ["Anna", None, None]
    assert data["watch"]["link"] == made["watch"]["link"]


def test_links_survive_a_restart_and_a_claimed_seat_is_not_shown(start_server: Any) -> None:
    server = start_server()
    made = server.create(game="krumme20", players=2, listed=True,
                         seats=[{"kind": "human", "name": "Host"},
                                {"kind": "human", "open": True}])
    with server.http() as http:
        claim = http.post(f"/api/web/tables/{made['table']}/claim", json={})
        assert claim.status_code == 201
    server.stop()
    server.start()
    with server.http() as http:
        data = http.post("/api/web/host/links", json={"host": made["host"]["token"]}).json()
    assert data["seats"][0]["link"] == f"{server.url}/#seat={made['seats'][0]['token']}"
    assert (data["seats"][1]["link"], data["seats"][1]["claimed"]) == (None, True)


def test_host_messages_are_the_hosts_alone(sqlite_server: Any) -> None:
    made = night_table(sqlite_server)
    other = night_table(sqlite_server)

    async def run() -> None:
        anna = await TableClient.join(sqlite_server.ws, made["seats"][0]["token"])
        for frame in ({"type": "seat_bot", "seat": 1, "bot": "heuristic"},
                      {"type": "seat_human", "seat": 1}, {"type": "remove", "seat": 1},
                      {"type": "close"}):
            await refused(anna, frame, "host.not_host")
        with pytest.raises(ConnectionError, match=r"host\.not_host"):  # another table's host
            await TableClient.join(sqlite_server.ws, made["seats"][0]["token"],
                                   host=other["host"]["token"])
        with pytest.raises(ConnectionError, match=r"host\.not_host"):
            await TableClient.join(sqlite_server.ws, None, host="not-a-host-token")
        host = await TableClient.join(sqlite_server.ws, made["seats"][0]["token"],
                                      host=made["host"]["token"])
        assert host.welcome is not None and host.welcome["host"] is True
        assert host.welcome["seat"] == 0
        await refused(host, {"type": "seat_bot", "seat": 2, "bot": "heuristic"},
                      "host.bad_seat")
        await refused(host, {"type": "seat_bot", "seat": 5, "bot": "heuristic"},
                      "host.bad_seat")
        await refused(host, {"type": "seat_bot", "seat": 1, "bot": "nobody"},
                      "lobby.unknown_bot")
        await refused(host, {"type": "seat_bot", "seat": 1, "bot": "ismcts", "strength": 9},
                      "lobby.bad_strength")
        await refused(host, {"type": "seat_human", "seat": 1}, "host.bad_seat")
        for client in (anna, host):
            await client.close()

    asyncio.run(run())


def test_the_host_seats_a_bot_removes_a_player_and_closes_the_table(
        sqlite_server: Any) -> None:
    made = night_table(sqlite_server)

    async def run() -> None:
        host = await TableClient.join(sqlite_server.ws, None, host=made["host"]["token"],
                                      name="Anna")
        assert host.welcome is not None
        assert (host.welcome["host"], host.welcome["role"]) == (True, "watcher")
        anna = await TableClient.join(sqlite_server.ws, made["seats"][0]["token"])
        bo = await TableClient.join(sqlite_server.ws, made["seats"][1]["token"], name="Bo")
        await bo.close()  # Bo is away: the host lets a bot play for him
        await host.send({"type": "seat_bot", "seat": 1, "bot": "heuristic"})
        plain = await anna.until(lambda m: m["type"] == "notice"
                                 and m["code"] != "host.started")
        notice = await anna.until(lambda m: m["type"] == "chat" and m["kind"] == "notice"
                                  and m["text"] != "host.started")
        assert (notice["text"], notice["params"]) == (
            "host.bot_seated", {"seat": 1, "name": "Bo", "bot": "heuristic"})
        assert "Bo" in notice["message"]
        assert (plain["code"], plain["params"], plain["n"], plain["message"]) == (
            notice["text"], notice["params"], notice["n"], notice["message"])
        rng = random.Random(5)
        # Anna plays; the bot in Bo's seat plays too: the game goes on past Bo's turns
        update = await anna.play(lambda legal: rng.choice(legal), until_move=6)
        assert update["move"] >= 6
        moved_by = {(m["last"]["seat"], m["last"]["by"]) for m in anna.received
                    if m["type"] == "update" and m.get("last")}
        assert (1, "bot") in moved_by
        # Bo comes back and takes his seat from the bot himself
        bo = await TableClient.join(sqlite_server.ws, made["seats"][1]["token"])
        await bo.send({"type": "take_seat"})
        seats = await anna.until(lambda m: m["type"] == "seats" and not m["seats"][1]["left"])
        assert seats["seats"][1]["bot"] is None
        # the host removes Bo: his link stops working, a new one is shown to the host
        await host.send({"type": "remove", "seat": 1})
        removed = await anna.until(lambda m: m["type"] == "chat" and m["text"] == "host.removed")
        assert removed["params"] == {"seat": 1, "name": "Bo"}
        gone = await bo.until(lambda m: m["type"] == "update" and m["full"])
        assert gone["legal"] == []
        await refused(bo, {"type": "take_seat"}, "seat.watcher")
        with pytest.raises(ConnectionError, match=r"session\.unknown_link"):
            await TableClient.join(sqlite_server.ws, made["seats"][1]["token"])
        with sqlite_server.http() as http:
            links = http.post("/api/web/host/links",
                              json={"host": made["host"]["token"]}).json()
        new_link = links["seats"][1]["link"]
        assert new_link and new_link != made["seats"][1]["link"]
        assert (links["seats"][1]["name"], links["seats"][1]["joined"]) == (None, False)
        cy = await TableClient.join(sqlite_server.ws, new_link.split("#seat=")[1], name="Cy")
        seats = await anna.until(lambda m: m["type"] == "seats" and m["seats"][1]["name"])
        assert (seats["seats"][1]["name"], seats["seats"][1]["left"]) == ("Cy", False)
        # the host closes the table: no more moves, the record is what was played
        await host.send({"type": "close"})
        closed = await anna.until(lambda m: m["type"] == "update" and m["status"] == "closed")
        assert closed["legal"] == [] and closed["to_move"] is None
        await anna.until(lambda m: m["type"] == "chat" and m["text"] == "host.closed")
        await refused(anna, {"type": "move", "move": closed["move"], "action": 0},
                      "table.closed")
        await refused(host, {"type": "close"}, "table.closed")
        for client in (host, anna, bo, cy):
            await client.close()
        with sqlite_server.http() as http:
            record = http.get(f"/api/tables/{made['table']}/record")
            assert record.status_code == 200
            assert record.json()["names"] == ["Anna", "Cy", None]
            assert len(record.json()["actions"]) == closed["move"]
            data = http.post("/api/web/host/links", json={"host": made["host"]["token"]})
            assert data.json()["status"] == "closed"

    asyncio.run(run())


def test_a_private_table_is_not_in_the_lobby(sqlite_server: Any) -> None:
    private = night_table(sqlite_server)
    public = night_table(sqlite_server, listed=True)
    with sqlite_server.http() as http:
        for route in ("/api/tables", "/api/web/lobby"):
            ids = {t["id"] for t in http.get(route).json()["tables"]}
            assert public["table"] in ids and private["table"] not in ids


def test_an_idle_table_nobody_is_at_expires_from_the_lobby(start_server: Any) -> None:
    server = start_server(args=["--lobby-expiry", "0.002"])  # 0.12 seconds
    made = server.create(game="krumme20", players=2, listed=True)

    def listed() -> bool:
        with server.http() as http:
            return made["table"] in {t["id"] for t in http.get("/api/tables").json()["tables"]}

    async def gone() -> bool:
        """Whether the table leaves the lobby (polled: the expiry is 0.12 s, but a loaded
        machine may take longer to notice a closed connection)."""
        for _ in range(200):
            if not listed():
                return True
            await asyncio.sleep(0.05)
        return False

    async def run() -> None:
        assert await gone()  # idle, nobody there: gone from the lobby
        client = await TableClient.join(server.ws, made["seats"][0]["token"])
        assert listed()  # someone is at it
        await client.close()
        assert await gone()
        with server.http() as http:  # still reachable by its id
            assert http.get(f"/api/tables/{made['table']}").status_code == 200

    asyncio.run(run())


def test_create_refuses_bad_names_and_named_bots(sqlite_server: Any) -> None:
    with httpx.Client(base_url=sqlite_server.url, timeout=30) as http:
        for seats, code in (
                ([{"kind": "human", "name": "<script>"}, HUMAN], "name.invalid"),
                ([{"kind": "bot", "bot": "heuristic", "name": "Robo"}, HUMAN],
                 "lobby.bad_request"),
                ([{"kind": "human", "name": "x" * 65}, HUMAN], "lobby.bad_request")):
            answer = http.post("/api/tables", json={"game": "krumme20", "players": 2,
                                                    "seats": seats})
            assert answer.status_code == 400 and answer.json()["code"] == code


def test_two_processes_share_the_talk_and_the_hosts_acts(start_server: Any,
                                                         pg_cluster: Any) -> None:
    """Two server processes on one PostgreSQL database (one secret): a chat line, a name and
    the host's acts made at one process reach the people connected to the other."""
    db = pg_cluster.database()
    one, two = start_server(db), start_server(db)
    made = night_table(one)

    async def run() -> None:
        anna = await TableClient.join(one.ws, made["seats"][0]["token"])
        bo = await TableClient.join(two.ws, made["seats"][1]["token"], name="Bo")
        await anna.until(lambda m: m["type"] == "seats" and m["seats"][1]["name"] == "Bo",
                         timeout=15)
        await bo.send({"type": "chat", "text": "hallo"})
        line = await anna.until(lambda m: m["type"] == "chat" and m["kind"] == "chat",
                                timeout=15)
        assert (line["name"], line["text"]) == ("Bo", "hallo")
        host = await TableClient.join(two.ws, None, host=made["host"]["token"])
        await host.send({"type": "close"})
        closed = await anna.until(lambda m: m["type"] == "update" and m["status"] == "closed",
                                  timeout=15)
        assert closed["legal"] == []
        # the log entry and the closing come by two notifications, in either order
        notice = await anna.until(lambda m: m["type"] == "chat" and m["kind"] == "notice"
                                  and m["text"] != "host.started", timeout=15, start=0)
        assert notice["text"] == "host.closed"
        await refused(anna, {"type": "move", "move": closed["move"], "action": 0},
                      "table.closed")
        for client in (anna, bo, host):
            await client.close()
        with one.http() as http:  # the links the other process shows are the same
            links = http.post("/api/web/host/links", json={"host": made["host"]["token"]})
        assert [s["link"] for s in links.json()["seats"]][:2] == [
            s["link"] for s in made["seats"][:2]]

    asyncio.run(run())
