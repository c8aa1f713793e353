"""Bot-against-bot simulation: many seeded games, optionally in several processes.

Game ``i`` uses the seed ``derive_seed(seed, "game", i)`` and the bot in seat ``s`` the seed
``derive_seed(game_seed, "bot", s)``, so the results depend on the base seed alone, never
on the number of worker processes. A seat *loses* a game when its return is the lowest and
not every seat has the same return (in Krass Kariert: the players who had no chip to give).
With ``rotate`` the bots change seats from game to game and results are per bot.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from kartentisch.arena.pool import worker_pool
from kartentisch.arena.runner import build_bot
from kartentisch.arena.stats import wilson_interval
from kartentisch.cli.presenters import load_presenter
from kartentisch.cli.session import losers
from kartentisch.core.errors import KartentischError
from kartentisch.core.registry import load_game
from kartentisch.core.rng import derive_seed

MAX_ACTIONS: Final = 1_000_000
"""A game longer than this is taken to be stuck in a loop (a bug), and stops the run."""


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


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The result of one simulated game."""

    index: int
    returns: tuple[float, ...]
    """One return per bot entry of the configuration (equal to per seat unless rotated)."""
    actions: int
    stats: Mapping[str, float]


def play_game(config: SimulationConfig, index: int) -> GameOutcome:
    """Play game number ``index`` of a simulation between bots."""
    game = load_game(config.game, len(config.bots), dict(config.options))
    seed = derive_seed(config.seed, "game", index)
    state = game.new_initial_state(seed)
    n = len(config.bots)
    shift = index % n if config.rotate else 0
    entry_of_seat = [(seat + shift) % n for seat in range(n)]
    bots = [build_bot(config.bots[entry_of_seat[seat]], game, derive_seed(seed, "bot", seat))
            for seat in range(n)]
    actions = 0
    while not state.is_terminal():
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
        actions += 1
        if actions > MAX_ACTIONS:
            raise KartentischError(f"game {index} (seed {seed}) did not end after "
                                   f"{MAX_ACTIONS} actions")
    stats = load_presenter(config.game).game_stats(state)
    by_seat = state.returns()
    returns = [0.0] * n
    for seat, entry in enumerate(entry_of_seat):
        returns[entry] = by_seat[seat]
    return GameOutcome(index, tuple(returns), actions, stats)


def play_games(config: SimulationConfig, indices: Sequence[int]) -> list[GameOutcome]:
    """Play several games (one task of a worker process)."""
    return [play_game(config, i) for i in indices]


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
    """Game-specific means per game (from the presenter's ``game_stats``)."""
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


def summarise(config: SimulationConfig, outcomes: Sequence[GameOutcome], *, workers: int,
              seconds: float) -> SimulationSummary:
    """Aggregate game outcomes (in index order) into per-seat results."""
    ordered = sorted(outcomes, key=lambda o: o.index)
    n = len(ordered)
    seats = []
    for seat, bot in enumerate(config.bots):
        lost = sum(1 for o in ordered if seat in losers(o.returns))
        low, high = wilson_interval(lost, n)
        mean_return = sum(o.returns[seat] for o in ordered) / n if n else 0.0
        seats.append(SeatSummary(seat, bot, lost, lost / n if n else 0.0, low, high,
                                 mean_return))
    keys: list[str] = []
    for o in ordered:
        keys.extend(k for k in o.stats if k not in keys)
    stats = {k: sum(o.stats.get(k, 0.0) for o in ordered) / n for k in keys} if n else {}
    mean_actions = sum(o.actions for o in ordered) / n if n else 0.0
    return SimulationSummary(config.game, n, config.seed, workers, seconds, mean_actions,
                             config.rotate, stats, seats)


def run_simulation(config: SimulationConfig, games: int, *, workers: int = 1,
                   on_progress: Callable[[int], None] | None = None) -> SimulationSummary:
    """Play ``games`` games and summarise them; ``on_progress(k)`` reports k more games done.

    With ``workers > 1`` the games are shared out to that many processes in small chunks.
    """
    if games < 1:
        raise KartentischError(f"the number of games must be at least 1, not {games}")
    if workers < 1:
        raise KartentischError(f"the number of workers must be at least 1, not {workers}")
    # Fail early, in this process, on a bad game, player count, option or bot name.
    game = load_game(config.game, len(config.bots), dict(config.options))
    for spec in config.bots:
        build_bot(spec, game, 0)
    started = time.perf_counter()
    outcomes: list[GameOutcome] = []
    if workers == 1:
        for index in range(games):
            outcomes.append(play_game(config, index))
            if on_progress is not None:
                on_progress(1)
    else:
        size = max(1, min(64, games // (workers * 8)))
        chunks = [list(range(i, min(i + size, games))) for i in range(0, games, size)]
        fork = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        with worker_pool(workers, fork) as pool:
            # Workers are forked; callers should show progress without a refresh thread
            # (rich: ``Progress(auto_refresh=False)``), as the ``simulate`` command does.
            for done in pool.imap_unordered(partial(play_games, config), chunks):
                outcomes.extend(done)
                if on_progress is not None:
                    on_progress(len(done))
    seconds = time.perf_counter() - started
    return summarise(config, outcomes, workers=workers, seconds=seconds)
