"""The server's limits in one place: token buckets, per-address counts and their defaults.

Every limit a client can meet is a field of :class:`Limits` with its default here and in
``docs/security.md``; ``kartentisch serve --limit NAME=VALUE`` (or the environment variable
``KARTENTISCH_LIMITS="name=value,..."``) changes any of them. A refused request is answered
with a reason code and ``retry_after`` (seconds), never by dropping a connection.

A :class:`TokenBucket` holds up to ``burst`` tokens and gains ``rate`` per second; every
request takes one. :class:`KeyedBuckets` keeps one bucket per key (a connection's address,
a table) and forgets the full ones, so a flood of addresses cannot grow it without bound.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit of one server process (defaults for a club or a small public site)."""

    outbox_bytes: int = 256 * 1024
    """Bytes of messages waiting for one slow reader before its updates are coalesced and
    further small messages are dropped (it gets one fresh whole view once it reads)."""
    send_timeout: float = 30.0
    """Seconds a client may leave the server's messages unread before it is disconnected
    (it may rejoin with its link at once)."""
    watchers_per_table: int = 200
    """Watchers one table takes (seats always get in)."""
    connections_per_address: int = 64
    """Open websockets from one address (behind a NAT a whole club shares one)."""
    messages_burst: float = 60.0
    """Messages one connection may send at once ..."""
    messages_rate: float = 20.0
    """... and per second after that."""
    address_messages_burst: float = 600.0
    """Messages all connections of one address may send at once ..."""
    address_messages_rate: float = 200.0
    """... and per second after that."""
    tables_burst: float = 20.0
    """Tables one address may create at once ..."""
    tables_rate: float = 0.1
    """... and per second after that (one every ten seconds)."""
    all_tables_burst: float = 200.0
    """Tables all addresses together may create at once ..."""
    all_tables_rate: float = 5.0
    """... and per second after that."""
    requests_burst: float = 120.0
    """HTTP requests to the table routes (create, claim, explain, hint, replay) one address
    may make at once ..."""
    requests_rate: float = 20.0
    """... and per second after that."""
    hints_waiting: int = 64
    """Hints waiting for the hint worker, all tables together (one per seat at a time)."""
    watcher_count_interval: float = 1.0
    """Seconds between two ``watchers`` messages to the seated players (the count of a
    table's watchers; joins and leaves in between are told as one)."""
    finished_expiry: float = 7 * 24 * 3600.0
    """Seconds after its end a finished table's links stop working (its record stays
    readable by id)."""
    unload_after: float = 60.0
    """Seconds a table with no connection stays in memory after its end, or while nobody
    is connected and no bot is to move (it is read back from the database when needed)."""

    @classmethod
    def parse(cls, text: str, base: Limits | None = None) -> Limits:
        """``base`` (or the defaults) with ``name=value`` pairs, comma-separated, applied;
        raises ``ValueError`` naming an unknown limit or a value that is not a number > 0."""
        limits = base or cls()
        changes: dict[str, float | int] = {}
        types = {f.name: f.type for f in dataclasses.fields(cls)}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, value = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in types:
                raise ValueError(f"unknown limit {name!r}; limits: {', '.join(types)}")
            number = float(value) if types[name] in ("float", float) else int(value)
            if not number > 0:
                raise ValueError(f"limit {name} must be greater than 0, not {value}")
            changes[name] = number
        return dataclasses.replace(limits, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_environment(cls) -> Limits:
        """The defaults with ``KARTENTISCH_LIMITS`` applied."""
        return cls.parse(os.environ.get("KARTENTISCH_LIMITS", ""))

    def as_json(self) -> dict[str, float | int]:
        """Every limit by name (the documentation test reads them)."""
        return dataclasses.asdict(self)


class TokenBucket:
    """``burst`` tokens at most, ``rate`` more per second; :meth:`take` spends one."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(self, burst: float, rate: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, count: float = 1.0) -> float:
        """Spend ``count`` tokens: 0.0 when they were there, else the seconds until they
        will be (nothing is spent then)."""
        self._refill()
        if self.tokens >= count:
            self.tokens -= count
            return 0.0
        return (count - self.tokens) / self.rate

    @property
    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


class KeyedBuckets:
    """One :class:`TokenBucket` per key, at most ``keys`` of them (full ones are forgotten
    first: a full bucket is the same as a new one)."""

    def __init__(self, burst: float, rate: float, *, keys: int = 10000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate, self.keys, self.clock = burst, rate, keys, clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, key: str, count: float = 1.0) -> float:
        """:meth:`TokenBucket.take` on ``key``'s bucket."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.keys:
                self._prune()
            bucket = self._buckets[key] = TokenBucket(self.burst, self.rate, self.clock)
        else:
            self._buckets.move_to_end(key)
        return bucket.take(count)

    def _prune(self) -> None:
        for key in [k for k, b in self._buckets.items() if b.full]:
            del self._buckets[key]
        while len(self._buckets) >= self.keys:  # all busy: the least recently used goes
            self._buckets.popitem(last=False)

    def __len__(self) -> int:
        return len(self._buckets)


class AddressCount:
    """Open connections per address, to refuse the one beyond the limit."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def open(self, address: str, limit: int) -> bool:
        """Count a new connection from ``address``; False (not counted) past ``limit``."""
        count = self._open.get(address, 0)
        if count >= limit:
            return False
        self._open[address] = count + 1
        return True

    def close(self, address: str) -> None:
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)

    def __getitem__(self, address: str) -> int:
        return self._open.get(address, 0)


UNKNOWN_ADDRESS: Final = "unknown"
"""The address of a client whose address the server was not told."""


__all__ = ["UNKNOWN_ADDRESS", "AddressCount", "KeyedBuckets", "Limits", "TokenBucket"]
