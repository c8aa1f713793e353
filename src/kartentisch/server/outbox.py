"""A websocket client's outgoing messages: bounded in bytes, updates coalesced for slow readers.

Each connection's messages wait, encoded, in its :class:`Outbox` until its sender task writes
them to the socket. The outbox holds at most ``limit`` bytes. When an ``update`` would not
fit, the updates still waiting are dropped and the connection is marked *stale*: once the
client has read what is left, it gets one fresh whole view (``full: true``, built when it is
sent, so it is the newest), rather than every update one by one. Any other message that does
not fit even then ends the connection (``overflowed``): only a client that reads nothing for
long gets there, and it may rejoin with its link at once.

A client that leaves a message unread for ``Limits.send_timeout`` seconds (the socket's
buffers are full) is disconnected by :func:`pump` (``slow``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from kartentisch.server.tables import ENCODER, JSON, Conn


class Outbox:
    """Encoded frames in order, with their byte count; ``None`` ends the sender."""

    def __init__(self) -> None:
        self._items: deque[tuple[bytes | None, bool]] = deque()
        self.bytes = 0
        self._ready = asyncio.Event()

    def put_nowait(self, data: bytes | None, *, update: bool = False) -> None:
        self._items.append((data, update))
        self.bytes += 0 if data is None else len(data)
        self._ready.set()

    def get_nowait(self) -> bytes | None:
        data, _update = self._items.popleft()
        self.bytes -= 0 if data is None else len(data)
        return data

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    def drop_updates(self) -> int:
        """Drop the waiting updates; returns how many."""
        kept = deque(item for item in self._items if not item[1])
        dropped = len(self._items) - len(kept)
        self._items = kept
        self.bytes = sum(len(d) for d, _ in kept if d is not None)
        return dropped

    def wake(self) -> None:
        """Wake the sender without a frame (it has a fresh view to send)."""
        self._ready.set()

    async def wait(self) -> None:
        """Until something is put or :meth:`wake` is called (at once if something waits)."""
        if not self._items:
            self._ready.clear()
            await self._ready.wait()


class QueueConn(Conn):
    """A connection whose messages wait in a bounded :class:`Outbox` for a sender task.

    Never waited for: a message that does not fit is coalesced (an update) or ends the
    connection (``overflowed``; the sender sees ``None`` and closes it)."""

    def __init__(self, limit: int = 256 * 1024) -> None:
        super().__init__()
        self.outbox = Outbox()
        self.limit = limit
        self.overflowed = False
        self.stale = False
        """Updates were dropped: the next frame after the waiting ones is a fresh view."""
        self.stale_ref: int | None = None
        """The ``ref`` of a dropped update of this connection's own move (echoed then)."""
        self.coalesced = 0
        """Updates dropped so far (``/health`` adds them up)."""
        self.slow = False
        """Disconnected because it left a message unread too long."""

    def push(self, message: JSON) -> None:
        self._offer(message, ENCODER.encode(message))

    def push_encoded(self, message: JSON, data: bytes) -> None:
        self._offer(message, data)

    def _offer(self, message: JSON, data: bytes) -> None:
        if self.overflowed:
            return
        update = message.get("type") == "update"
        if update and self.stale:
            self._note_ref(message)
            return  # the fresh view will carry it
        if self.outbox.bytes + len(data) > self.limit:
            dropped = self.outbox.drop_updates()
            self.coalesced += dropped
            if update or dropped:
                self.stale = True
                self.outbox.wake()
            if update:
                self.coalesced += 1
                self._note_ref(message)
                return
            if self.outbox.bytes + len(data) > self.limit:
                self.overflowed = True
                self.outbox.put_nowait(None)
                return
        self.outbox.put_nowait(data, update=update)

    def _note_ref(self, message: JSON) -> None:
        ref = message.get("ref")
        if ref is not None:
            self.stale_ref = ref

    def fresh_view(self) -> bytes | None:
        """The whole view now, for a stale connection (None: not at a table any more)."""
        self.stale = False
        table = self.table
        if table is None or self not in table.conns:
            return None
        message: dict[str, Any] = table.update_for(self, full=True)
        if self.stale_ref is not None:
            message["ref"] = self.stale_ref
            self.stale_ref = None
        return ENCODER.encode(message)

    async def next_frame(self) -> bytes | None:
        """The next frame to send; ``None`` ends the connection."""
        while True:
            if not self.outbox.empty():
                return self.outbox.get_nowait()
            if self.stale:
                view = self.fresh_view()
                if view is not None:
                    return view
            await self.outbox.wait()

    def close_outbox(self) -> None:
        """No more messages: the sender ends after what waits."""
        self.outbox.put_nowait(None)


async def pump(conn: QueueConn, send: Callable[[str], Awaitable[None]],
               timeout: float) -> None:
    """Send ``conn``'s frames until ``None``; a send that does not finish within
    ``timeout`` seconds (the client reads nothing) marks the connection ``slow`` and ends."""
    while True:
        data = await conn.next_frame()
        if data is None:
            return
        try:
            async with asyncio.timeout(timeout):  # a timer, not a task per message
                await send(data.decode())
        except TimeoutError:
            conn.slow = True
            return


__all__ = ["Outbox", "QueueConn", "pump"]
