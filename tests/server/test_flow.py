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
from kartentisch.server.protocol import ProtocolError, TakeOver, decode_message

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
        notice = await first.until(lambda m: m["type"] == "notice")
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
