"""Fair turns for work that waits for a worker: round-robin over tables, a cap on waiting.

A :class:`FairQueue` runs at most ``slots`` jobs at once. Waiting jobs are kept per key (a
table) and started in turn, one key after the other, so one table that asks for a hundred
hints waits for its own, while every other table's next job starts after at most one of
its. ``waiting`` caps how many may wait in all (:class:`QueueFull` beyond it), and
``per_key`` how many one key may have waiting or running.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


class QueueFull(Exception):
    """Too many jobs wait (all keys together, or this key)."""


class FairQueue:
    """At most ``slots`` jobs running; the waiting ones started round-robin by key."""

    def __init__(self, slots: int, *, waiting: int = 1 << 30, per_key: int = 1 << 30) -> None:
        self.slots = max(1, slots)
        self.waiting_limit = waiting
        self.per_key = per_key
        self.running = 0
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._count = 0
        self._per_key: dict[str, int] = {}

    @property
    def waiting(self) -> int:
        """Jobs waiting for a slot."""
        return self._count

    def busy(self, key: str) -> int:
        """Jobs of ``key`` waiting or running."""
        return self._per_key.get(key, 0)

    async def run(self, key: str, job: Callable[[], Awaitable[T]]) -> T:
        """Run ``job()`` when its turn comes; raises :class:`QueueFull` at once when the
        caps are reached."""
        if self._per_key.get(key, 0) >= self.per_key:
            raise QueueFull(key)
        if self.running >= self.slots and self._count >= self.waiting_limit:
            raise QueueFull(key)
        self._per_key[key] = self._per_key.get(key, 0) + 1
        try:
            await self._turn(key)
            try:
                return await job()
            finally:
                self._release()
        finally:
            left = self._per_key[key] - 1
            if left:
                self._per_key[key] = left
            else:
                del self._per_key[key]

    async def _turn(self, key: str) -> None:
        if self.running < self.slots and not self._count:
            self.running += 1
            return
        gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, deque()).append(gate)
        self._count += 1
        try:
            await gate  # _release started it (and counted it as running)
        except asyncio.CancelledError:
            if gate.done() and not gate.cancelled():
                self._release()  # started, then cancelled before it ran: pass the slot on
            else:
                self._forget(key, gate)
            raise

    def _forget(self, key: str, gate: asyncio.Future[None]) -> None:
        queue = self._waiting.get(key)
        if queue is not None and gate in queue:
            queue.remove(gate)
            self._count -= 1
            if not queue:
                del self._waiting[key]

    def _release(self) -> None:
        """A job ended: the next key in turn starts its oldest waiting job."""
        self.running -= 1
        while self._waiting and self.running < self.slots:
            key, queue = next(iter(self._waiting.items()))
            gate = queue.popleft()
            self._count -= 1
            del self._waiting[key]
            if queue:
                self._waiting[key] = queue  # to the end of the round
            if not gate.done():
                self.running += 1
                gate.set_result(None)


__all__ = ["FairQueue", "QueueFull"]
