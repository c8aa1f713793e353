"""A small Python client of the table protocol, for tests, benchmarks and scripted players.

>>> # async with await TableClient.join("ws://127.0.0.1:8000/ws", token) as client:
>>> #     update = await client.until(lambda m: m["type"] == "update" and m["legal"])
>>> #     await client.move(update["legal"][0]["id"])

Every received message is kept in :attr:`TableClient.received` (in order), so a test can
check everything a seat was sent. Needs the ``websockets`` package (the ``server`` extra).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect

from kartentisch.server.protocol import PROTOCOL_VERSION

JSON = dict[str, Any]


class TableClient:
    """One websocket connection: a seat or a watcher once :meth:`hello` was answered."""

    def __init__(self, socket: ClientConnection, *, history: bool = True) -> None:
        self.socket = socket
        self.history = history
        """Keep every message in :attr:`received`; without it, messages :meth:`until` has
        passed are dropped, so a long-running load client holds no growing heap (whose
        garbage collections would stall its own timing)."""
        self.received: list[JSON] = []
        self.errors = 0
        """``error`` messages received."""
        self.latest: JSON | None = None
        """The latest ``update``."""
        self.welcome: JSON | None = None
        self.joined: JSON | None = None
        """The first ``update`` after the hello (``latest`` may already be newer)."""
        self._arrived = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())
        self.closed = False
        self.cursor = 0
        """Messages :meth:`until` has looked at (without ``start``)."""
        self.sent_at: dict[int, float] = {}
        """``ref`` -> when a move with that ref was sent (for round-trip times)."""
        self.round_trips: list[float] = []
        self.trips: list[tuple[float, float]] = []
        """``(sent at, round trip)`` of every acknowledged move (``time.perf_counter``)."""
        self.update_times: list[float] = []
        """When each ``update`` arrived (one per move after the first view)."""

    @classmethod
    async def open(cls, url: str, *, history: bool = True) -> TableClient:
        """A connection that has not said hello yet."""
        socket = await connect(url, max_size=1 << 24, open_timeout=30, ping_interval=None)
        return cls(socket, history=history)

    @classmethod
    async def join(cls, url: str, token: str | None, timeout: float = 30, *,
                   history: bool = True, **hello: Any) -> TableClient:
        """Connect, say hello with ``token`` (and the ``hello`` fields given, such as
        ``name`` or ``host``) and wait for the first update."""
        client = await cls.open(url, history=history)
        fields = {"token": token} if token is not None else {}
        await client.send({"type": "hello", **fields, **hello})
        first = await client.until(lambda m: m["type"] in ("update", "error"), timeout=timeout)
        if first["type"] == "error":
            await client.close()
            raise ConnectionError(f"hello refused: {first['code']}")
        client.joined = first
        return client

    async def __aenter__(self) -> TableClient:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.close()

    async def _read(self) -> None:
        try:
            async for data in self.socket:
                message: JSON = msgspec.json.decode(data)
                now = time.perf_counter()
                if message.get("type") == "update":
                    self.latest = message
                    self.update_times.append(now)
                    ref = message.get("ref")
                    if ref is not None and ref in self.sent_at:
                        sent = self.sent_at.pop(ref)
                        self.round_trips.append(now - sent)
                        self.trips.append((sent, now - sent))
                elif message.get("type") == "welcome":
                    self.welcome = message
                elif message.get("type") == "error":
                    self.errors += 1
                async with self._arrived:
                    self.received.append(message)
                    self._arrived.notify_all()
        except Exception:  # the connection ended
            pass
        finally:
            self.closed = True
            async with self._arrived:
                self._arrived.notify_all()

    async def send(self, message: JSON) -> None:
        """Send ``message`` (the version is added when missing)."""
        await self.socket.send(json.dumps({"v": PROTOCOL_VERSION, **message}))

    async def send_raw(self, data: str | bytes) -> None:
        """Send a frame as it is (for tests of malformed messages)."""
        await self.socket.send(data)

    async def move(self, action: int, *, move: int | None = None, ref: int | None = None,
                   since: float | None = None) -> int:
        """Play ``action`` at ``move`` (the latest update's number by default); returns ref.

        The round trip is timed from now, or from ``since`` (a ``time.perf_counter`` time:
        when the move was due, so a load test counts the time it waited to be sent)."""
        number = move if move is not None else (self.latest or {}).get("move", 0)
        ref = number if ref is None else ref
        self.sent_at[ref] = time.perf_counter() if since is None else since
        await self.send({"type": "move", "move": number, "action": action, "ref": ref})
        return ref

    async def until(self, predicate: Callable[[JSON], bool], *, start: int | None = None,
                    timeout: float = 30) -> JSON:
        """The first message from index ``start`` on that satisfies ``predicate``; raises
        ``TimeoutError`` after ``timeout`` seconds. Without ``start`` the search goes on from
        where the last such search stopped (:attr:`cursor`), so each message is seen once."""
        deadline = time.monotonic() + timeout
        forget = not self.history and start is None
        async with self._arrived:
            if forget:  # without history, what earlier calls looked at goes ...
                del self.received[:self.cursor]
                self.cursor = 0
            index = self.cursor if start is None else start
            while True:
                while index < len(self.received):
                    message = self.received[index]
                    index += 1
                    if start is None:
                        self.cursor = index
                    if predicate(message):
                        return message
                if forget:  # ... and so does what this call looked at, before it waits
                    del self.received[:index]
                    index = self.cursor = 0
                if self.closed:
                    raise ConnectionError("the connection closed")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no such message in time")
                # asyncio.timeout, not wait_for: Python 3.11's wait_for returns normally when
                # the wait completes in the same loop turn as a cancellation, so a cancelled
                # player would go on waiting (up to ``timeout``) instead of stopping.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(left):
                        await self._arrived.wait()

    async def play(self, choose: Callable[[list[JSON]], JSON], *,
                   until_move: int | None = None, timeout: float = 60) -> JSON:
        """Answer every turn of this seat with ``choose(legal)`` until the game is over (or
        the table has reached ``until_move``); returns the last update."""
        acted = -1
        while True:
            update = self.latest
            if update is not None:
                if update["status"] == "finished" or (
                        until_move is not None and update["move"] >= until_move):
                    return update
                if update["legal"] and update["move"] != acted:
                    acted = update["move"]
                    await self.move(choose(update["legal"])["id"], move=acted)
            await self.until(lambda m: m["type"] in ("update", "error"), timeout=timeout)

    async def close(self) -> None:
        """Close the connection."""
        with contextlib.suppress(Exception):
            await self.socket.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._reader, 5)


class MuteClient:
    """A websocket client that reads nothing after the handshake, with a tiny receive
    buffer so that what the server sends piles up on the server's side: the hostile reader
    of the limits' tests and the benchmark (``docs/security.md``). Blocking, plain sockets;
    its frames are masked with a zero key (allowed, and the text stays readable)."""

    def __init__(self, url: str) -> None:
        import socket

        host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
        self.socket = socket.socket()
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.socket.connect((host, int(port)))
        self.socket.sendall((
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:  # the 101 answer; nothing is read after it
            answer += self.socket.recv(1)
        if not answer.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(answer.split(b"\r\n", 1)[0].decode(errors="replace"))

    def send(self, message: JSON, times: int = 1) -> None:
        """Send ``message`` (``times`` over) as text frames."""
        payload = json.dumps({"v": PROTOCOL_VERSION, **message}).encode()
        if len(payload) < 126:
            header = bytes([0x81, 0x80 | len(payload)])
        else:
            header = bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
        self.socket.sendall((header + b"\0\0\0\0" + payload) * times)

    def close(self) -> None:
        self.socket.close()
