"""The game night's flow on the server (issue 25): one active connection per seat and
``take_over``; the stand-in's human pace; the start of a table; the fair clock; the rematch
and its series."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from tests.server.test_play import barrier

from kartentisch.server.client import TableClient
from kartentisch.server.protocol import ProtocolError, Rematch, Start, TakeOver, decode_message

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "random"}
QUICK = {"turn_limit": 12}


@pytest.fixture
def server(sqlite_server: Any) -> Any:
    """The session's shared SQLite server."""
    return sqlite_server


def test_take_over_is_validated_like_every_message() -> None:
    assert decode_message('{"v": 1, "type": "take_over"}') == TakeOver(v=1)
    with pytest.raises(ProtocolError) as caught:
        decode_message('{"v": 1, "type": "take_over", "seat": 1}')
    assert caught.value.code == "message.malformed"


def test_a_second_connection_of_a_seat_watches_until_it_takes_over(server: Any) -> None:
    made = server.create(game="krumme20", players=2, options=QUICK, seats=[HUMAN, HUMAN])
    tokens = [s["token"] for s in made["seats"]]

    async def scenario() -> None:
        other = await TableClient.join(server.ws, tokens[1])
        first = await TableClient.join(server.ws, tokens[0])
        assert first.welcome is not None and first.welcome["active"] is True
        second = await TableClient.join(server.ws, tokens[0])
        assert second.welcome is not None and second.welcome["active"] is False
        mover = first if first.joined and first.joined["to_move"] == 0 else other
        seat_to_move = 0 if mover is first else 1
        assert second.joined is not None and second.joined["legal"] == []
        assert second.joined["observation"] == first.joined["observation"]  # type: ignore[index]
        for kind in ("leave", "take_seat"):
            await second.send({"type": kind})
            error = await second.until(lambda m: m["type"] == "error")
            assert error["code"] == "seat.other_tab"
        await second.send({"type": "move", "move": 0, "action": 0})
        assert (await second.until(lambda m: m["type"] == "error"))["code"] == "seat.other_tab"

        await second.send({"type": "take_over"})
        assert (await second.until(lambda m: m["type"] == "active"))["active"] is True
        view = await second.until(lambda m: m["type"] == "update" and m["full"])
        assert bool(view["legal"]) == (seat_to_move == 0)
        assert (await first.until(lambda m: m["type"] == "active"))["active"] is False
        notice = await first.until(lambda m: m["type"] == "notice" and m["code"] != "host.started")
        assert notice["code"] == "seat.taken_over" and "another tab" in notice["message"]
        assert (await first.until(lambda m: m["type"] == "update"))["legal"] == []
        await first.send({"type": "leave"})
        assert (await first.until(lambda m: m["type"] == "error"))["code"] == "seat.other_tab"
        # taking over what one has already: still active, nothing else changes
        await second.send({"type": "take_over"})
        assert (await second.until(lambda m: m["type"] == "active"))["active"] is True

        # the active one goes: the one left open plays the seat again
        await second.close()
        assert (await first.until(lambda m: m["type"] == "active"))["active"] is True
        full = await first.until(lambda m: m["type"] == "update" and m["full"])
        assert bool(full["legal"]) == (seat_to_move == 0)
        watcher = await TableClient.join(server.ws, made["watch"]["token"])
        await watcher.send({"type": "take_over"})
        assert (await watcher.until(lambda m: m["type"] == "error"))["code"] == "seat.watcher"
        for client in (first, other, watcher):
            await client.close()

    asyncio.run(scenario())


def test_the_stand_in_waits_its_pace_so_taking_the_seat_back_wins(server: Any) -> None:
    made = server.create(game="krumme20", players=2, options=QUICK, seats=[HUMAN, BOT])

    async def scenario() -> None:
        a = await TableClient.join(server.ws, made["seats"][0]["token"])
        rng = random.Random(3)
        # play until it is this seat's turn (the bot may begin)
        while not (a.latest and a.latest["legal"]):
            await a.until(lambda m: m["type"] == "update")
        turn = a.latest["move"]
        await a.send({"type": "leave"})
        await a.until(lambda m: m["type"] == "seats" and m["seats"][0]["left"])
        await a.send({"type": "take_seat"})  # well within the stand-in's 1.5 s
        await a.until(lambda m: m["type"] == "seats" and not m["seats"][0]["left"])
        await barrier(a)
        update = await a.until(lambda m: m["type"] == "update" and m["legal"], start=0)
        assert a.latest is not None and a.latest["move"] == turn, "the stand-in moved"
        await a.move(rng.choice(update["legal"])["id"], move=turn)
        moved = await a.until(lambda m: m["type"] == "update" and m["move"] == turn + 1)
        assert moved["last"]["by"] == "human"
        await a.close()

    asyncio.run(scenario())


# ---------------------------------------------------------------- the start
def test_start_and_rematch_are_validated_like_every_message() -> None:
    assert decode_message('{"v": 1, "type": "start"}') == Start(v=1)
    assert decode_message('{"v": 1, "type": "rematch"}') == Rematch(v=1)
    for text in ('{"v": 1, "type": "start", "now": true}',
                 '{"v": 1, "type": "rematch", "table": "x"}'):
        with pytest.raises(ProtocolError) as caught:
            decode_message(text)
        assert caught.value.code == "message.malformed"


def test_nothing_moves_before_everyone_joined_then_the_table_starts(server: Any) -> None:
    made = server.create(game="krumme20", players=3, options=QUICK, clock=0.2,
                         seats=[HUMAN, HUMAN, BOT])
    tokens = [s["token"] for s in made["seats"][:2]]

    async def scenario() -> None:
        a = await TableClient.join(server.ws, tokens[0])
        assert a.welcome is not None and a.welcome["table"]["started"] is False
        assert a.joined is not None and a.joined["started"] is False
        assert a.joined["deadline"] is None and a.joined["move"] == 0
        assert a.joined["legal"] == []  # nobody moves before the start
        await a.send({"type": "move", "move": 0, "action": 0})
        error = await a.until(lambda m: m["type"] == "error")
        assert error["code"] == "move.not_started"
        await a.send({"type": "start"})  # not the host
        assert (await a.until(lambda m: m["type"] == "error"))["code"] == "host.not_host"
        await asyncio.sleep(1.0)  # five clock periods: neither the bot nor the clock moved
        await barrier(a)
        assert a.latest is not None and a.latest["move"] == 0
        b = await TableClient.join(server.ws, tokens[1])
        assert b.joined is not None and b.joined["started"] is True
        started = await a.until(lambda m: m["type"] == "update" and m["started"])
        assert started["move"] == 0
        notice = await a.until(lambda m: m["type"] == "chat" and m["kind"] == "notice", start=0)
        assert notice["text"] == "host.started"
        # now the clock runs for the joined seats: it plays when the person does not
        expired = await a.until(lambda m: m["type"] == "notice"
                                and m["code"] == "clock.expired", timeout=20)
        assert expired["params"]["name"] is None and "time ran out" in expired["message"]
        for client in (a, b):
            await client.close()

    asyncio.run(scenario())


def test_the_host_starts_and_the_clock_waits_for_a_person_who_has_not_joined(
        server: Any) -> None:
    # Casino's first player is seat 1 (left of the dealer, seat 0)
    made = server.create(game="casino", players=2, clock=0.3,
                         seats=[{"kind": "human", "name": "Ada"},
                                {"kind": "human", "name": "Bert"}])
    host = made["host"]["token"]
    seat0, seat1 = (s["token"] for s in made["seats"])

    async def scenario() -> None:
        ada = await TableClient.open(server.ws)
        await ada.send({"type": "hello", "token": seat0, "host": host})
        await ada.until(lambda m: m["type"] == "update")
        assert ada.welcome is not None and ada.welcome["host"] is True
        assert ada.latest is not None and ada.latest["to_move"] == 1
        await ada.send({"type": "start"})
        started = await ada.until(lambda m: m["type"] == "update" and m["started"])
        assert started["deadline"] is None, "the clock ran for a seat nobody has joined"
        await ada.send({"type": "start"})
        assert (await ada.until(lambda m: m["type"] == "error"))["code"] == "start.already"
        await asyncio.sleep(1.0)
        await barrier(ada)
        assert ada.latest["move"] == 0
        bert = await TableClient.join(server.ws, seat1)
        assert bert.joined is not None and bert.joined["deadline"] is not None
        notice = await bert.until(lambda m: m["type"] == "notice"
                                  and m["code"] == "clock.expired", timeout=20)
        assert notice["params"] == {"seat": 1, "name": "Bert", "move": 0}
        assert "Bert" in notice["message"]
        moved = await ada.until(lambda m: m["type"] == "update" and m["move"] == 1)
        assert moved["last"]["by"] == "clock" and moved["last"]["seat"] == 1
        stored = await ada.until(lambda m: m["type"] == "chat"
                                 and m["text"] == "clock.expired", start=0)
        assert stored["params"]["name"] == "Bert"
        for client in (ada, bert):
            await client.close()

    asyncio.run(scenario())


# ---------------------------------------------------------------- the rematch
def test_a_rematch_for_everyone_and_its_series(server: Any) -> None:
    made = server.create(game="krumme20", players=3, options=QUICK,
                         seats=[{"kind": "human", "name": "Ada"},
                                {"kind": "human", "name": "Bert"}, BOT])
    host = made["host"]["token"]
    tokens = [s["token"] for s in made["seats"][:2]]

    async def scenario() -> None:
        ada = await TableClient.open(server.ws)
        await ada.send({"type": "hello", "token": tokens[0], "host": host})
        await ada.until(lambda m: m["type"] == "update")
        bert = await TableClient.join(server.ws, tokens[1])
        watcher = await TableClient.join(server.ws, made["watch"]["token"])
        await bert.send({"type": "rematch"})
        assert (await bert.until(lambda m: m["type"] == "error"))["code"] == \
            "rematch.not_finished"
        rng = random.Random(9)
        await asyncio.gather(ada.play(lambda legal: rng.choice(legal)),
                             bert.play(lambda legal: rng.choice(legal)))
        await watcher.send({"type": "rematch"})
        assert (await watcher.until(lambda m: m["type"] == "error"))["code"] == \
            "rematch.watcher"

        await bert.send({"type": "rematch"})
        mine = await bert.until(lambda m: m["type"] == "rematch")
        assert "host" not in mine and mine["link"].startswith("#seat=")
        offer = await ada.until(lambda m: m["type"] == "rematch_offer")
        assert offer["table"] == mine["table"] and offer["accepted"] == [1]
        assert "token" not in str(offer) and mine["link"][6:] not in str(offer)
        seen = await watcher.until(lambda m: m["type"] == "rematch_offer")
        assert seen["accepted"] == [1]
        await ada.send({"type": "rematch"})
        hers = await ada.until(lambda m: m["type"] == "rematch")
        assert hers["table"] == mine["table"] and hers["host"] != host
        both = await bert.until(lambda m: m["type"] == "rematch_offer"
                                and m["accepted"] == [0, 1])
        assert both["table"] == mine["table"]

        # the new table: same seats and names, a new deal, waiting for both
        new_bert = await TableClient.join(server.ws, mine["link"][6:])
        info = new_bert.welcome["table"]  # type: ignore[index]
        assert info["started"] is False and info["options"]["turn_limit"] == 12
        assert [s["name"] for s in info["seats"]] == ["Ada", "Bert", None]
        assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
        new_ada = await TableClient.open(server.ws)
        await new_ada.send({"type": "hello", "token": hers["link"][6:], "host": hers["host"]})
        first = await new_ada.until(lambda m: m["type"] == "update")
        assert first["started"] is True and new_ada.welcome["host"] is True  # type: ignore[index]
        await asyncio.gather(new_ada.play(lambda legal: rng.choice(legal)),
                             new_bert.play(lambda legal: rng.choice(legal)))
        with server.http() as http:
            tally = http.get(f"/api/web/series/{mine['table']}").json()
            again = http.get(f"/api/web/series/{made['table']}").json()
            missing = http.get("/api/web/series/nosuchtable")
        assert tally == again and tally["series"] == made["table"]
        assert [t["id"] for t in tally["tables"]] == [made["table"], mine["table"]]
        assert [t["series_no"] for t in tally["tables"]] == [0, 1]
        assert all(t["status"] == "finished" and len(t["returns"]) == 3
                   for t in tally["tables"])
        assert tally["tables"][1]["names"] == ["Ada", "Bert", None]
        assert missing.status_code == 404 and missing.json()["code"] == "lobby.unknown_table"
        for client in (ada, bert, watcher, new_ada, new_bert):
            await client.close()

    asyncio.run(scenario())
