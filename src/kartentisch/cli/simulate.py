"""Bot-against-bot simulation: many seeded games, optionally in several processes.

Game ``i`` uses the seed ``derive_seed(seed, "game", i)`` and the bot in seat ``s`` the seed
``derive_seed(game_seed, "bot", s)``, so the results depend on the base seed alone, never
on the number of worker processes. A seat *loses* a game when its return is the lowest and
not every seat has the same return (in Krass Kariert: the players who had no chip to give).
With ``rotate`` the bots change seats from game to game and results are per bot.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from kartentisch.arena.pool import SIGINT_EXIT
from kartentisch.arena.runner import GameTask, play_task, run_tasks
from kartentisch.arena.stats import wilson_interval
from kartentisch.bots.match import MAX_ACTIONS, GameOutcome
from kartentisch.bots.registry import build_bot
from kartentisch.cli.session import losers
from kartentisch.core.errors import KartentischError
from kartentisch.core.registry import load_game
from kartentisch.core.rng import derive_seed

__all__ = ["MAX_ACTIONS", "GameOutcome", "SimulationConfig", "SimulationSummary",
           "play_game", "run_simulation"]


@dataclass(frozen=True, slots=True)
class SimulationConfig:
    """What to simulate."""

    game: str
    bots: tuple[str, ...]
    """One bot per seat, a name or a spec (``ismcts:iterations=200``); the player count is
    their number."""
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    rotate: bool = False
    """Rotate the seats: in game ``i`` seat ``s`` holds bot ``(s + i) % players``, so every
    bot sits in every seat equally often. Results are then reported per bot entry."""


def _entries(config: SimulationConfig, index: int) -> list[int]:
    """The bot entry of the configuration in each seat of game ``index``."""
    n = len(config.bots)
    shift = index % n if config.rotate else 0
    return [(seat + shift) % n for seat in range(n)]


def _task(config: SimulationConfig, options: Mapping[str, Any], index: int) -> GameTask:
    seed = derive_seed(config.seed, "game", index)
    n = len(config.bots)
    bots = tuple(config.bots[entry] for entry in _entries(config, index))
    return GameTask(index=index, game=config.game, players=n, options=options, seed=seed,
                    bots=bots, labels=bots,
                    bot_seeds=tuple(derive_seed(seed, "bot", seat) for seat in range(n)),
                    record=False, timed=False, stats=True)


def _tasks(config: SimulationConfig, options: Mapping[str, Any],
           games: int) -> Iterator[GameTask]:
    for index in range(games):
        yield _task(config, options, index)


def _by_entry(config: SimulationConfig, outcome: GameOutcome) -> tuple[float, ...]:
    returns = [0.0] * len(config.bots)
    for seat, entry in enumerate(_entries(config, outcome.index)):
        returns[entry] = outcome.returns[seat]
    return tuple(returns)


def play_game(config: SimulationConfig, index: int) -> GameOutcome:
    """Play game number ``index`` of a simulation between bots; its ``returns`` are given
    per bot entry of the configuration (equal to per seat unless rotated)."""
    options = load_game(config.game, len(config.bots), dict(config.options)).options_json()
    outcome = play_task(_task(config, options, index))
    return dataclasses.replace(outcome, returns=_by_entry(config, outcome))


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's results."""

    seat: int
    """The seat, or with rotation the bot's entry in the configuration."""
    bot: str
    losses: int
    lost_share: float
    lost_low: float
    lost_high: float
    mean_return: float


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """The results of a simulation."""

    game: str
    games: int
    seed: int
    workers: int
    seconds: float
    mean_actions: float
    rotate: bool
    stats: dict[str, float]
    """Game-specific means per game (from the game descriptor's ``statistics``)."""
    seats: list[SeatSummary]

    @property
    def games_per_second(self) -> float:
        """Throughput of the run."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "workers": self.workers,
            "rotate": self.rotate,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "mean_actions": self.mean_actions,
            "stats": self.stats,
            "seats": [
                {"seat": s.seat, "bot": s.bot, "losses": s.losses, "lost_share": s.lost_share,
                 "lost_ci95": [s.lost_low, s.lost_high], "mean_return": s.mean_return}
                for s in self.seats
            ],
        }


class _Summing:
    """Running sums over the games in index order, so that the floating-point sums do not
    depend on the workers (a reorder buffer holds the games finished early; memory does not
    grow with the number of games)."""

    def __init__(self, config: SimulationConfig):
        self.config = config
        self.games = 0
        self.losses = [0] * len(config.bots)
        self.returns = [0.0] * len(config.bots)
        self.actions = 0
        self.stats: dict[str, float] = {}
        self.waiting: dict[int, GameOutcome] = {}
        self.next = 0

    def add(self, outcome: GameOutcome) -> None:
        self.waiting[outcome.index] = outcome
        while self.next in self.waiting:
            self._count(self.waiting.pop(self.next))
            self.next += 1

    def _count(self, outcome: GameOutcome) -> None:
        returns = _by_entry(self.config, outcome)
        self.games += 1
        for entry in losers(returns):
            self.losses[entry] += 1
        for entry, value in enumerate(returns):
            self.returns[entry] += value
        self.actions += outcome.actions
        for key, value in (outcome.stats or {}).items():
            self.stats[key] = self.stats.get(key, 0.0) + value

    def summary(self, *, workers: int, seconds: float) -> SimulationSummary:
        n = self.games
        seats = []
        for entry, bot in enumerate(self.config.bots):
            lost = self.losses[entry]
            low, high = wilson_interval(lost, n)
            seats.append(SeatSummary(entry, bot, lost, lost / n if n else 0.0, low, high,
                                     self.returns[entry] / n if n else 0.0))
        stats = {key: total / n for key, total in self.stats.items()} if n else {}
        return SimulationSummary(self.config.game, n, self.config.seed, workers, seconds,
                                 self.actions / n if n else 0.0, self.config.rotate, stats,
                                 seats)


def run_simulation(config: SimulationConfig, games: int, *, workers: int = 1,
                   on_progress: Callable[[int], None] | None = None) -> SimulationSummary:
    """Play ``games`` games and summarise them; ``on_progress(k)`` reports k more games done.

    The games are played by the arena's lazy runner (:func:`kartentisch.arena.runner.run_tasks`)
    with the match driver: with ``workers > 1`` they are shared out to that many processes in
    chunks, and memory does not grow with ``games``. SIGTERM ends the run with exit status
    143, Ctrl-C with 130 (no traceback from any worker).
    """
    if games < 1:
        raise KartentischError(f"the number of games must be at least 1, not {games}")
    if workers < 1:
        raise KartentischError(f"the number of workers must be at least 1, not {workers}")
    # Fail early, in this process, on a bad game, player count, option or bot name.
    game = load_game(config.game, len(config.bots), dict(config.options))
    for spec in config.bots:
        build_bot(spec, game, 0)
    sums = _Summing(config)
    # Workers are forked; callers should show progress without a refresh thread
    # (rich: ``Progress(auto_refresh=False)``), as the ``simulate`` command does.
    fork = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    started = time.perf_counter()
    batches = run_tasks(_tasks(config, game.options_json(), games), workers=workers,
                        start_method=fork)
    try:
        for batch in batches:
            for outcome in batch:
                sums.add(outcome)
            if on_progress is not None:
                on_progress(len(batch))
    except KeyboardInterrupt:
        raise SystemExit(SIGINT_EXIT) from None
    finally:
        batches.close()
    return sums.summary(workers=workers, seconds=time.perf_counter() - started)
