"""A real server process on loopback: lobby, whole games, refusals, rejoin, stand-ins, clock,
bots off the event loop, records, and no link token in the log."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from kartentisch.core.records import GameRecord
from kartentisch.server.client import TableClient
from kartentisch.server.protocol import MAX_MESSAGE_BYTES

HUMAN = {"kind": "human"}
QUICK = {"turn_limit": 12}
"""Krumme20 with a short draw pile: whole games of about 33 moves."""


@pytest.fixture
def server(sqlite_server: Any) -> Any:
    """The session's shared SQLite server."""
    return sqlite_server


def pick(rng: random.Random) -> Any:
    return lambda legal: rng.choice(legal)


def only_updates(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == "update"]


def not_pong(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] != "pong"]


async def barrier(client: TableClient) -> None:
    """Ping and wait for the pong: every message the server queued for this connection
    before it is then received (one connection's messages arrive in order)."""
    ref = random.randrange(1, 2**40)
    await client.send({"type": "ping", "ref": ref})
    await client.until(lambda m: m["type"] == "pong" and m["ref"] == ref, start=0)


# ---------------------------------------------------------------- lobby
def test_index_games_and_lobby(server: Any) -> None:
    with server.http() as http:
        page = http.get("/")
        assert page.status_code == 200 and "kartentisch" in page.text
        assert page.headers["content-type"].startswith("text/html")
        assert http.get("/health").json()["ok"] is True
        games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
        assert set(games) == {"casino", "krass-kariert", "krumme20"}
        assert "heuristic" in games["krumme20"]["bots"]
        assert any(o["name"] == "target" for o in games["krumme20"]["options"])

        made = http.post("/api/tables", json={
            "game": "krumme20", "players": 3, "options": {"target": 30}, "clock": 60,
            "seats": [HUMAN, {"kind": "bot", "bot": "heuristic"},
                      {"kind": "bot", "bot": "ismcts", "strength": 1}]}).json()
        assert [s["kind"] for s in made["seats"]] == ["human", "bot", "bot"]
        token = made["seats"][0]["token"]
        assert len(token) >= 43 and made["seats"][0]["link"].endswith("#seat=" + token)
        assert "token" not in made["seats"][1]
        hidden = http.post("/api/tables", json={"game": "krumme20", "listed": False}).json()

        listed = {t["id"]: t for t in http.get("/api/tables").json()["tables"]}
        assert made["table"] in listed and hidden["table"] not in listed
        entry = listed[made["table"]]
        assert entry["options"]["target"] == 30 and entry["clock"] == 60
        assert entry["watch"] == made["watch"]["token"]
        assert token not in json.dumps(entry)
        one = http.get(f"/api/tables/{hidden['table']}").json()["table"]
        assert one["players"] == 3 and one["status"] == "playing"


@pytest.mark.parametrize(("request_body", "code"), [
    ({"game": "schafkopf"}, "game.unknown"),
    ({"game": "krumme20", "players": 9}, "players.invalid"),
    ({"game": "krumme20", "options": {"colour": "red"}}, "options.unknown"),
    ({"game": "krumme20", "options": {"target": "x"}}, "options.bad_int"),
    ({"game": "krumme20", "players": 2, "seats": [HUMAN]}, "lobby.seat_count"),
    ({"game": "krumme20", "players": 2, "seats": [HUMAN, {"kind": "bot", "bot": "alphago"}]},
     "lobby.unknown_bot"),
    ({"game": "krumme20", "players": 2,
      "seats": [HUMAN, {"kind": "bot", "bot": "ismcts", "strength": 9}]}, "lobby.bad_strength"),
    ({"game": "krumme20", "players": 2, "seats": [HUMAN, {"kind": "robot"}]},
     "lobby.bad_request"),
    ({"game": "krumme20", "clock": 0}, "lobby.bad_request"),
    ({"game": "krumme20", "players": True}, "lobby.bad_request"),
    ({"game": "krumme20", "surprise": 1}, "lobby.bad_request"),
])
def test_bad_table_requests_are_refused_with_a_reason(server: Any, request_body: Any,
                                                      code: str) -> None:
    with server.http() as http:
        answer = http.post("/api/tables", json=request_body)
    assert answer.status_code == 400
    body = answer.json()
    assert body["type"] == "error" and body["code"] == code and body["message"]


def test_unreadable_and_huge_requests(server: Any) -> None:
    with server.http() as http:
        assert http.post("/api/tables", content=b"{nope").json()["code"] == "lobby.bad_request"
        huge = http.post("/api/tables", content=b" " * 70000)
        assert huge.status_code == 413 and huge.json()["code"] == "lobby.too_large"
        missing = http.get("/api/tables/nothere/record")
        assert missing.status_code == 404 and missing.json()["code"] == "lobby.unknown_table"


# ---------------------------------------------------------------- whole games
def test_whole_game_with_bots_a_watcher_and_its_record(server: Any, tmp_path: Path) -> None:
    made = server.create(game="krumme20", players=3, options=QUICK, seats=[
        HUMAN, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}])

    async def play() -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        watcher = await TableClient.join(server.ws, made["watch"]["token"])
        seat = await TableClient.join(server.ws, made["seats"][0]["token"])
        final = await seat.play(pick(random.Random(1)))
        await watcher.until(lambda m: m["type"] == "update" and m["status"] == "finished")
        await seat.close()
        await watcher.close()
        return final, seat.received, watcher.received

    final, mine, watched = asyncio.run(play())
    assert final["status"] == "finished" and len(final["returns"]) == 3
    assert mine[0]["type"] == "welcome" and mine[0]["role"] == "seat" and mine[0]["seat"] == 0
    assert watched[0]["role"] == "watcher" and watched[0]["seat"] is None
    seen = only_updates(watched)
    assert all(u["legal"] == [] for u in seen)
    assert all(u["observation"]["seat"] is None for u in seen)
    assert all(u["observation"]["seat"] == 0 for u in only_updates(mine))
    by = {u["last"]["by"] for u in seen if u["last"] is not None}
    assert by == {"human", "bot"}
    # The record: downloadable, replays to the same end, read by `kartentisch replay`.
    with server.http() as http:
        answer = http.get(f"/api/tables/{made['table']}/record")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    path = tmp_path / "record.json"
    path.write_bytes(answer.content)
    record = GameRecord.load(path)
    assert len(record.actions) == final["move"]
    assert record.seats == ["human", "heuristic", "random"]
    state = record.replay()
    assert state.is_terminal() and list(state.returns()) == final["returns"]
    from typer.testing import CliRunner

    from kartentisch.cli.main import app

    shown = CliRunner().invoke(app, ["replay", str(path), "--lang", "en"])
    assert shown.exit_code == 0, shown.output
    assert "Krumme20" in shown.output


def test_record_is_refused_before_the_end(server: Any) -> None:
    made = server.create(game="krumme20", players=2, options=QUICK)
    with server.http() as http:
        answer = http.get(f"/api/tables/{made['table']}/record")
    assert answer.status_code == 409 and answer.json()["code"] == "lobby.not_finished"


# ---------------------------------------------------------------- refusals
BAD_FRAMES: list[tuple[str | bytes, str]] = [
    ("{not json", "message.not_json"),
    ("[1, 2]", "message.malformed"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "message.too_large"),
    ('{"v": 2, "type": "ping"}', "message.bad_version"),
    ('{"type": "ping"}', "message.bad_version"),
    ('{"v": 1, "type": "shuffle"}', "message.unknown_type"),
    ('{"v": 1, "type": "move", "move": 0, "action": true}', "message.malformed"),
    ('{"v": 1, "type": "move", "move": 0, "action": 1.0}', "message.malformed"),
    ('{"v": 1, "type": "move", "move": 0, "action": 1, "extra": 1}', "message.malformed"),
    ('{"v": 1, "type": "ping", "ref": ' + "[" * 3000 + "]" * 3000 + "}", "message.malformed"),
    (b"\x00\x01binary", "message.not_text"),
]


def test_refusals_reach_the_sender_only_and_leave_the_table_alone(server: Any) -> None:
    made = server.create(game="krumme20", players=2, options=QUICK)

    async def scenario() -> None:
        a = await TableClient.join(server.ws, made["seats"][0]["token"])
        b = await TableClient.join(server.ws, made["seats"][1]["token"])
        watcher = await TableClient.join(server.ws, made["watch"]["token"])
        for client in (a, b, watcher):  # the seat lists the joins caused have arrived
            await barrier(client)
        first = a.latest
        assert first is not None and b.latest is not None
        mover, other = (a, b) if first["to_move"] == 0 else (b, a)
        counts = (len(mover.received), len(not_pong(other.received)),
                  len(not_pong(watcher.received)))

        async def refused(client: TableClient, frame: Any, code: str) -> None:
            if isinstance(frame, dict):
                await client.send(frame)
            else:
                await client.send_raw(frame)
            error = await client.until(lambda m: m["type"] == "error", timeout=10)
            assert error["code"] == code, error
            assert error["message"] and isinstance(error["params"], dict)

        for frame, code in BAD_FRAMES:
            await refused(mover, frame, code)
        legal = mover.latest["legal"] if mover.latest else []
        await refused(other, {"type": "move", "move": 0, "action": legal[0]["id"]},
                      "action.not_your_turn")
        await refused(mover, {"type": "move", "move": 5, "action": legal[0]["id"]},
                      "move.stale")
        await refused(mover, {"type": "move", "move": 0, "action": 10**15},
                      "action.bad_id")
        await refused(mover, {"type": "hello", "token": made["seats"][0]["token"]},
                      "session.already_joined")
        await refused(watcher, {"type": "move", "move": 0, "action": legal[0]["id"]},
                      "move.watcher")
        await refused(watcher, {"type": "leave"}, "seat.watcher")
        await refused(mover, {"type": "take_seat"}, "seat.not_left")
        # Errors went to their senders only; nothing else happened at the table. (Whatever
        # a refused frame made the server send to the others was queued before the error
        # answering it, so it has arrived before the pong of a later ping.)
        for client in (mover, other, watcher):
            await barrier(client)
        assert len(not_pong(other.received)) == counts[1] + 1  # its own not_your_turn error
        assert len(not_pong(watcher.received)) == counts[2] + 2  # its own two errors
        assert all(m["type"] == "error" for m in not_pong(mover.received[counts[0]:]))
        # The table goes on as if nothing happened.
        await mover.move(legal[0]["id"], move=0, ref=77)
        answer = await mover.until(lambda m: m["type"] == "update" and m.get("ref") == 77)
        assert answer["move"] == 1 and answer["last"]["action"]["id"] == legal[0]["id"]
        seen = await other.until(lambda m: m["type"] == "update")
        assert seen["move"] == 1 and "action" not in seen["last"] and "ref" not in seen
        for client in (a, b, watcher):
            await client.close()

    asyncio.run(scenario())


def test_unjoined_connections(server: Any) -> None:
    async def scenario() -> None:
        client = await TableClient.open(server.ws)
        await client.send({"type": "move", "move": 0, "action": 1})
        assert (await client.until(lambda m: True))["code"] == "session.hello_first"
        await client.send({"type": "hello", "token": "a" * 43})
        assert (await client.until(lambda m: True))["code"] == "session.unknown_link"
        await client.send({"type": "ping", "ref": 5})
        assert await client.until(lambda m: True) == {"v": 1, "type": "pong", "ref": 5}
        await client.close()

    asyncio.run(scenario())


# ---------------------------------------------------------------- rejoin, leave, clock
def test_rejoin_with_the_same_link_gets_the_full_view(server: Any) -> None:
    made = server.create(game="krumme20", players=2, options=QUICK)
    tokens = [s["token"] for s in made["seats"]]

    async def scenario() -> None:
        rng = random.Random(3)
        a = await TableClient.join(server.ws, tokens[0])
        b = await TableClient.join(server.ws, tokens[1])
        await asyncio.gather(a.play(pick(rng), until_move=6), b.play(pick(rng), until_move=6))
        before = a.latest
        assert before is not None
        await a.close()  # the connection drops
        again = await TableClient.join(server.ws, tokens[0])
        view = again.latest
        assert view is not None and view["full"] is True and view["events_from"] == 0
        assert view["move"] == before["move"]
        assert view["observation"] == before["observation"]
        events: list[Any] = []
        for update in only_updates(a.received):
            events[update["events_from"]:] = update["events"]
        assert view["events"] == events  # the whole story, as this seat saw it
        await asyncio.gather(again.play(pick(rng)), b.play(pick(rng)))
        assert again.latest is not None and again.latest["status"] == "finished"
        for client in (again, b):
            await client.close()

    asyncio.run(scenario())


def test_a_player_who_leaves_is_replaced_and_takes_the_seat_back(server: Any) -> None:
    made = server.create(game="krumme20", players=2, options=QUICK)
    tokens = [s["token"] for s in made["seats"]]

    async def scenario() -> None:
        a = await TableClient.join(server.ws, tokens[0])
        b = await TableClient.join(server.ws, tokens[1])
        await a.send({"type": "leave"})
        seats = await b.until(lambda m: m["type"] == "seats" and m["seats"][0]["left"])
        assert seats["seats"][0]["kind"] == "human"
        # B plays; whenever seat 0 is to move, the stand-in moves for it.
        rng = random.Random(5)
        stand_in = None
        while stand_in is None:
            update = await b.until(lambda m: m["type"] == "update")
            if update is not b.latest:
                continue
            if update["last"] and update["last"]["seat"] == 0:
                stand_in = update["last"]
            elif update["legal"]:
                await b.move(rng.choice(update["legal"])["id"], move=update["move"])
        assert stand_in["by"] == "stand-in"
        if a.latest and a.latest["to_move"] == 0:
            await a.send({"type": "move", "move": a.latest["move"], "action": 0})
            assert (await a.until(lambda m: m["type"] == "error"))["code"] == "move.stand_in"
        await a.send({"type": "take_seat"})
        await a.until(lambda m: m["type"] == "seats" and not m["seats"][0]["left"])
        await asyncio.gather(a.play(pick(rng)), b.play(pick(rng)))
        assert a.latest is not None and a.latest["status"] == "finished"
        later = [u["last"]["by"] for u in only_updates(a.received)
                 if u["last"] and u["last"]["seat"] == 0 and u["move"] > stand_in["move"] + 2]
        assert "human" in later
        for client in (a, b):
            await client.close()

    asyncio.run(scenario())


def test_the_turn_clock_plays_the_heuristic_and_says_so(server: Any) -> None:
    made = server.create(game="krumme20", players=2, options=QUICK, clock=0.3)

    async def scenario() -> None:
        b = await TableClient.join(server.ws, made["seats"][1]["token"])
        a = await TableClient.join(server.ws, made["seats"][0]["token"])  # now it starts
        first = a.latest
        assert first is not None and first["deadline"] is not None
        assert first["deadline"] > time.time() * 1000 - 1000
        notice = await a.until(lambda m: m["type"] == "notice"
                               and m["code"] != "host.started", timeout=20)
        assert notice["code"] == "clock.expired" and notice["params"]["move"] == 0
        assert "time ran out" in notice["message"]
        update = await a.until(lambda m: m["type"] == "update" and m["move"] == 1)
        assert update["last"]["by"] == "clock"
        assert update["last"]["seat"] == first["to_move"]
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_a_thinking_bot_does_not_hold_up_other_tables(server: Any) -> None:
    slow = server.create(game="krumme20", players=2, options={"turn_limit": 60}, seats=[
        HUMAN, {"kind": "bot", "bot": "ismcts", "strength": 4}])  # 1 s a move

    async def slow_side(done: asyncio.Event) -> list[float]:
        """Play against the bot until it has thought twice for most of its budget."""
        rng = random.Random(9)
        thinks: list[float] = []
        a = await TableClient.join(server.ws, slow["seats"][0]["token"])
        while sum(t > 0.8 for t in thinks) < 2:
            update = a.latest
            assert update is not None and update["status"] == "playing"
            number = update["move"]
            if update["to_move"] == 1:
                since = time.perf_counter()
                await a.until(lambda m, n=number: m["type"] == "update" and m["move"] > n)
                thinks.append(time.perf_counter() - since)
            elif update["legal"]:
                await a.move(rng.choice(update["legal"])["id"], move=update["move"])
                await a.until(lambda m, n=number: m["type"] == "update" and m["move"] > n)
            else:
                await a.until(lambda m: m["type"] == "update")
        done.set()
        await a.close()
        return thinks

    async def quick_side(done: asyncio.Event) -> list[float]:
        """Two humans play quick games, table after table, meanwhile."""
        rng = random.Random(10)
        trips: list[float] = []
        while not done.is_set():
            quick = server.create(game="krumme20", players=2, options=QUICK)
            x = await TableClient.join(server.ws, quick["seats"][0]["token"])
            y = await TableClient.join(server.ws, quick["seats"][1]["token"])
            stop = asyncio.ensure_future(done.wait())
            game = asyncio.gather(x.play(pick(rng)), y.play(pick(rng)))
            await asyncio.wait([stop, game], return_when=asyncio.FIRST_COMPLETED)
            game.cancel()
            stop.cancel()
            trips += x.round_trips + y.round_trips
            await x.close()
            await y.close()
        return trips

    async def scenario() -> tuple[list[float], list[float]]:
        done = asyncio.Event()
        thinks, trips = await asyncio.gather(slow_side(done), quick_side(done))
        return thinks, trips

    thinks, trips = asyncio.run(scenario())
    assert sum(t > 0.8 for t in thinks) >= 2  # the bot really thought...
    assert len(trips) >= 20  # ...while the other table kept playing
    assert sorted(trips)[len(trips) * 9 // 10] < 0.25 and max(trips) < 1.0


# ---------------------------------------------------------------- the log
def test_no_link_token_reaches_the_log(start_server: Any, tmp_path: Path) -> None:
    log = tmp_path / "captured.log"
    live = start_server(cli=True, log=log)  # `kartentisch serve`, output captured
    made = live.create(game="krumme20", players=2, options=QUICK)
    tokens = [s["token"] for s in made["seats"]] + [made["watch"]["token"]]

    async def scenario() -> None:
        rng = random.Random(11)
        a = await TableClient.join(live.ws, tokens[0])
        b = await TableClient.join(live.ws, tokens[1])
        w = await TableClient.join(live.ws, tokens[2])
        await a.send({"type": "leave"})
        await a.send({"type": "take_seat"})
        await asyncio.gather(a.play(pick(rng)), b.play(pick(rng)))
        bad = await TableClient.open(live.ws)
        await bad.send({"type": "hello", "token": tokens[0] + "x"})
        await bad.until(lambda m: m["type"] == "error")
        for client in (a, b, w, bad):
            await client.close()

    asyncio.run(scenario())
    with httpx.Client(base_url=live.url) as http:
        assert http.get("/api/tables").status_code == 200
        assert http.get(f"/api/tables/{made['table']}/record").status_code == 200
    live.stop()
    text = log.read_text(errors="replace")
    assert "WebSocket /ws" in text and "GET /api/tables" in text  # the log was written
    assert "finished" in text
    for token in tokens:
        assert token not in text
        assert token[:16] not in text


def test_a_load_client_keeps_no_history_but_counts_errors(server: Any) -> None:
    """The load benchmark's clients (``history=False``) drop what they have read: a client
    that kept every view of a long game grew a heap whose garbage collections paused it for
    up to 290 ms, which the benchmark took for the server's p99."""
    made = server.create(game="krumme20", players=2, options=QUICK)

    async def scenario() -> tuple[list[dict[str, Any]], list[TableClient]]:
        clients = [await TableClient.join(server.ws, seat["token"], history=False)
                   for seat in made["seats"]]
        await clients[0].send_raw(b"\x00\x01binary")
        error = await clients[0].until(lambda m: m["type"] == "error", timeout=10)
        assert error["code"] == "message.not_text"
        rng = random.Random(5)
        finals = await asyncio.gather(*(c.play(pick(rng)) for c in clients))
        for client in clients:  # the game is over: a last look reads what is left
            with pytest.raises(TimeoutError):
                await client.until(lambda m: False, timeout=0.3)
            await client.close()
        return list(finals), clients

    finals, clients = asyncio.run(scenario())
    assert all(final["status"] == "finished" for final in finals)
    moves = finals[0]["move"]
    assert moves > 2
    for client in clients:
        assert client.errors == (1 if client is clients[0] else 0)
        # a whole game's updates arrived (one per move after the first view) ...
        assert len(client.update_times) >= moves
        # ... but none is held once it was looked at
        assert client.received == []


@pytest.mark.parametrize("game", ["krass-kariert", "casino", "krumme20"])
def test_people_play_against_the_learned_bot_in_every_game(server: Any, game: str) -> None:
    """``learned`` is offered for every game and plays its seat; ``first-legal`` too."""
    with server.http() as http:
        games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    assert {"learned", "first-legal"} <= set(games[game]["bots"])
    players = games[game]["min_players"] if game != "casino" else 2
    bots = ["learned", "first-legal", "heuristic", "heuristic"][:players - 1]
    made = server.create(game=game, players=players,
                         seats=[HUMAN, *({"kind": "bot", "bot": b} for b in bots)])

    async def play() -> list[dict[str, Any]]:
        seat = await TableClient.join(server.ws, made["seats"][0]["token"])
        await seat.play(pick(random.Random(3)), until_move=2 * players + 1)
        await seat.close()
        return only_updates(seat.received)

    seen = asyncio.run(play())
    moved = {u["last"]["seat"] for u in seen if u["last"] and u["last"]["by"] == "bot"}
    assert set(range(1, players)) <= moved
    # A bot that fails is replaced by its first legal move and logged: none failed here.
    assert f"table {made['table']}: bot" not in server.log.read_text(errors="replace")
    with server.http() as http:
        table = http.get(f"/api/tables/{made['table']}").json()["table"]
    assert table["status"] == "playing"
