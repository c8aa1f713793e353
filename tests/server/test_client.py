"""The Python table client's waiting: a cancelled wait stops at once, whatever arrives."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from kartentisch.server.client import TableClient


class FakeSocket:
    """Frames put into :attr:`frames` arrive at the client, as from a websocket."""

    def __init__(self) -> None:
        self.frames: asyncio.Queue[str | None] = asyncio.Queue()

    def __aiter__(self) -> FakeSocket:
        return self

    async def __anext__(self) -> str:
        frame = await self.frames.get()
        if frame is None:
            raise StopAsyncIteration
        return frame

    async def send(self, data: str) -> None:
        """Nothing listens."""

    async def close(self) -> None:
        self.frames.put_nowait(None)


def test_a_cancelled_wait_stops_even_when_a_message_arrives_in_the_same_turn() -> None:
    """The load benchmark cancels its players when the measured window ends, while their
    tables are still sending updates. Python 3.11's ``asyncio.wait_for`` returned normally
    when its wait finished in the loop turn of the cancellation, so such a player waited
    on for its full timeout and the benchmark hung for minutes after its window."""

    async def scenario() -> list[int]:
        survivors = []
        for steps in range(40):  # the race's moment moves with the loop turns in between
            socket = FakeSocket()
            client = TableClient(socket, history=False)  # type: ignore[arg-type]
            waiter = asyncio.ensure_future(
                client.until(lambda message: message["type"] == "never", timeout=60))
            for _ in range(3):
                await asyncio.sleep(0)  # the waiter is waiting now
            socket.frames.put_nowait(json.dumps({"type": "update", "move": steps}))
            for _ in range(steps % 8):
                await asyncio.sleep(0)
            waiter.cancel()
            done, _ = await asyncio.wait([waiter], timeout=2)
            if not done:
                survivors.append(steps)
                waiter.cancel()
            await client.close()
        return survivors

    assert asyncio.run(scenario()) == []


def test_a_wait_still_times_out_and_finds_its_message() -> None:
    async def scenario() -> tuple[dict[str, Any], bool]:
        socket = FakeSocket()
        client = TableClient(socket)  # type: ignore[arg-type]
        socket.frames.put_nowait(json.dumps({"type": "update", "move": 3}))
        found = await client.until(lambda message: message["move"] == 3, timeout=5)
        try:
            await client.until(lambda message: message["move"] == 4, timeout=0.05)
        except TimeoutError:
            timed_out = True
        else:
            timed_out = False
        await client.close()
        return found, timed_out

    found, timed_out = asyncio.run(scenario())
    assert found["move"] == 3
    assert timed_out
