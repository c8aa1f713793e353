"""Bots think in worker processes, so the event loop keeps answering every other table.

A bot gets what any bot gets: its seat's observation and the legal actions, never the state.
The worker builds the bot afresh for every move (seeded from the table's seed, the seat and
the move number, so a fixed-iteration bot replays the same choice) and returns an action id.
Workers run at a lower priority than the server and leave by themselves when the server
process is gone (even after SIGKILL).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final, TypeVar

from kartentisch.bots import list_bots, make_bot
from kartentisch.core.protocol import Game
from kartentisch.core.registry import load_game
from kartentisch.server.work import FairQueue, QueueFull

log = logging.getLogger("kartentisch.server")

T = TypeVar("T")

SEARCH_BOTS: Final = ("ismcts", "pimc")
"""Bots whose strength is a thinking time."""

STRENGTH_SECONDS: Final = (0.1, 0.25, 0.5, 1.0, 2.0)
"""Thinking time per move of a search bot at strength 1 to 5."""

DEFAULT_STRENGTH: Final = 3


def bot_params(bot: str, strength: int | None) -> dict[str, Any]:
    """The factory parameters of ``bot`` at ``strength`` (1-5): search bots think for
    :data:`STRENGTH_SECONDS` seconds a move; the heuristic and random bots have no dial."""
    if bot in SEARCH_BOTS:
        level = DEFAULT_STRENGTH if strength is None else strength
        return {"seconds": STRENGTH_SECONDS[level - 1], "iterations": 1_000_000}
    return {}


def stand_in_bot(game_name: str) -> str:
    """The bot that plays for a player who left or whose clock ran out: the heuristic."""
    return "heuristic" if "heuristic" in list_bots(game_name) else "random"


@functools.lru_cache(maxsize=64)
def _game(name: str, players: int, options: str) -> Game[Any, Any, Any]:
    import json

    return load_game(name, players, json.loads(options))


def choose(game_name: str, players: int, options: str, bot: str, params: dict[str, Any],
           seed: int, observation: Any, legal: list[Any]) -> int:
    """The action id ``bot`` chooses (runs in a worker; ``options`` is JSON text)."""
    game = _game(game_name, players, options)
    player = make_bot(bot, game, seed, **params)
    return game.action_to_id(player.act(observation, legal))


def _warm() -> None:
    """Import the search bots (the imports are the warm-up)."""
    import kartentisch.bots.ismcts
    import kartentisch.bots.pimc  # noqa: F401


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


def _init_worker(parent: int, niceness: int = 5) -> None:
    with contextlib.suppress(OSError):
        os.nice(niceness)  # the server's event loop comes first (and bots before hints)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


HINT_NICENESS: Final = 10
"""The hint worker's niceness: below the bot workers' 5, so live games' bots come first."""


class BotPool:
    """The worker processes (``workers`` of them; none means bots think inline).

    The page's hints think in a worker of their own (``hint_workers``, started at the first
    hint, at a lower priority than the bots): a storm of hints never delays a live game's
    bot. They wait their turn in a :class:`~kartentisch.server.work.FairQueue`, round-robin
    by table, one per seat at a time, at most ``hints_waiting`` in all."""

    def __init__(self, workers: int, *, hint_workers: int = 1, hints_waiting: int = 64) -> None:
        self.workers = workers
        self.hint_workers = hint_workers
        self._pool: ProcessPoolExecutor | None = None
        self._hint_pool: ProcessPoolExecutor | None = None
        self.live = 0
        """Bot moves and hints asked for and not answered yet (they go before idle work)."""
        self._calm: asyncio.Event | None = None
        if workers > 0:
            self._pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker, initargs=(os.getpid(),))
        self.hints = FairQueue(hint_workers, waiting=hints_waiting, per_key=1 << 30)
        self._seats_hinting: set[tuple[str, int]] = set()

    async def choose(self, game_name: str, players: int, options: str, bot: str,
                     params: dict[str, Any], seed: int, observation: Any,
                     legal: list[Any]) -> int:
        """The action id the bot chooses, computed off the event loop."""
        call = functools.partial(choose, game_name, players, options, bot, params, seed,
                                 observation, legal)
        with self._counted():
            return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def run(self, function: Callable[..., T], /, *args: Any) -> T:
        """``function(*args)`` computed off the event loop: in a worker process (so both
        must pickle), or in a thread when the pool has no workers. The page's hint search
        runs here, beside the bots, so it never stalls the tables."""
        call = functools.partial(function, *args)
        with self._counted():
            return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def run_idle(self, function: Callable[..., T], /, *args: Any) -> T:
        """``function(*args)`` as :meth:`run` computes it, but only once no bot move or hint
        is waiting or being computed: work at low priority (a game review, one decision a
        call), which a live table's next move never queues behind for more than one call."""
        if self._calm is None:
            self._calm = asyncio.Event()
        while self.live:
            self._calm.clear()
            await self._calm.wait()
        call = functools.partial(function, *args)
        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def hint(self, table: str, seat: int, function: Callable[..., T], /,
                   *args: Any) -> T:
        """``function(*args)`` in the hint worker, when ``table``'s turn comes; raises
        :class:`HintBusy` (``seat``: that seat already waits for one; else: too many hints
        wait) without queueing."""
        if (table, seat) in self._seats_hinting:
            raise HintBusy(seat=True)
        call = functools.partial(function, *args)
        loop = asyncio.get_running_loop()
        if self.workers > 0 and self._hint_pool is None:
            self._hint_pool = ProcessPoolExecutor(
                max_workers=self.hint_workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker, initargs=(os.getpid(), HINT_NICENESS))
        pool = self._hint_pool

        async def job() -> T:
            return await loop.run_in_executor(pool, call)

        self._seats_hinting.add((table, seat))
        try:
            with self._counted():
                return await self.hints.run(table, job)
        except QueueFull:
            raise HintBusy(seat=False) from None
        finally:
            self._seats_hinting.discard((table, seat))

    @contextlib.contextmanager
    def _counted(self) -> Iterator[None]:
        """Count a live call while it runs (and wake idle work when none is left)."""
        self.live += 1
        try:
            yield
        finally:
            self.live -= 1
            if not self.live and self._calm is not None:
                self._calm.set()

    def warm_up(self) -> None:
        """Start the workers now (without waiting for them) rather than at the first bot
        move, and have them import the games and bots."""
        if self._pool is not None:
            for _ in range(self.workers):
                self._pool.submit(_warm)

    def close(self) -> None:
        """Stop the workers (queued moves are cancelled, a running one ends first)."""
        for pool in (self._pool, self._hint_pool):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        self._pool = self._hint_pool = None


class HintBusy(Exception):
    """A hint is refused for now: the seat waits for one already (``seat``) or too many
    hints wait for the hint worker."""

    def __init__(self, *, seat: bool) -> None:
        super().__init__("seat" if seat else "queue")
        self.seat = seat
