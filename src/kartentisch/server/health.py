"""What ``/health`` tells about one server process: storage trouble, refusals, slow readers.

The storage's state is what the tables saw of it: a write that failed marks it failing
(with the error's type, never its text, which may hold data) until a write succeeds again.
Tables whose move could not be stored are in ``retrying`` until their retry got through;
:func:`backoff` spaces the retries.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

BACKOFF_FIRST: Final = 0.1
"""Seconds before the first retry of a failed store."""
BACKOFF_MAX: Final = 10.0
"""The longest wait between two retries."""


def backoff(attempt: int) -> float:
    """Seconds before retry ``attempt`` (0, 1, ...): doubling from :data:`BACKOFF_FIRST` up
    to :data:`BACKOFF_MAX`, with jitter (tables that failed together retry apart)."""
    base: float = min(BACKOFF_MAX, BACKOFF_FIRST * 2.0 ** min(attempt, 16))
    return base * (0.5 + random.random() / 2)


@dataclass
class Presence:
    """Who is at a table, as far as the others are told."""

    watchers: int = 0
    """Watchers connected now."""
    told_watchers: int = 0
    """The count the seated players were told last."""
    flush_pending: bool = False
    """A ``watchers`` message is scheduled."""
    told_seats: list[Any] | None = None
    """The seats as everyone was told last (a ``seats`` message is sent only on a change)."""
    idle_since: float = field(default_factory=time.monotonic)
    """When the table last had a move or a connection (for unloading it)."""


@dataclass
class Health:
    """Counters and the storage's state (``/health``)."""

    storage_ok: bool = True
    storage_failures: int = 0
    last_storage_error: str | None = None
    failing_since: float | None = None
    retrying: set[str] = field(default_factory=set)
    """Tables waiting to retry a store."""
    slow_disconnects: int = 0
    """Connections closed because they read nothing for ``send_timeout``."""
    overflows: int = 0
    """Connections closed because their outbox was full of other messages than updates."""
    refused: Counter[str] = field(default_factory=Counter)
    """Requests refused by a limit, by reason code."""
    unloaded: int = 0
    """Tables taken out of memory (finished or idle)."""
    coalesced: int = 0
    """Updates to slow readers replaced by one fresh view (of closed connections)."""

    def store_failed(self, error: BaseException, table: str | None = None) -> None:
        """A write failed (``table``: a move of that table will be retried)."""
        self.storage_failures += 1
        self.last_storage_error = type(error).__name__
        if self.storage_ok:
            self.storage_ok = False
            self.failing_since = time.time()
        if table is not None:
            self.retrying.add(table)

    def stored(self, table: str | None = None) -> None:
        """A write succeeded: the storage works."""
        self.storage_ok = True
        self.failing_since = None
        if table is not None:
            self.retrying.discard(table)

    def as_json(self) -> dict[str, Any]:
        return {"storage": {"ok": self.storage_ok, "failures": self.storage_failures,
                            "last_error": self.last_storage_error,
                            "failing_since": self.failing_since,
                            "retrying": len(self.retrying)},
                "slow_disconnects": self.slow_disconnects, "overflows": self.overflows,
                "refused": dict(self.refused), "unloaded": self.unloaded,
                "coalesced": self.coalesced}


__all__ = ["BACKOFF_MAX", "Health", "Presence", "backoff"]
