"""Play scheduled games on a local process pool or on Ray, and aggregate them in index order.

Each game is a :class:`GameTask`: everything a worker needs (game, options, bot specs by
seat, seeds), so results never depend on which worker plays it or when. Workers return a
:class:`GameOutcome` holding the game's record (the :class:`~kartentisch.core.records.GameRecord`
fields) and the bots' thinking time per move. Results are sorted by game index before any
statistic or rating is computed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kartentisch.arena.pool import worker_pool
from kartentisch.arena.schedule import entrant_labels, parse_lineup, schedule
from kartentisch.arena.stats import BotStats, Ratings, outcome_flags
from kartentisch.bots.playout import parse_params
from kartentisch.bots.registry import make_bot
from kartentisch.core.errors import IllegalActionError, KartentischError
from kartentisch.core.records import GameRecord, read_records, write_atomically
from kartentisch.core.registry import load_game
from kartentisch.locale import _


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: self-contained and picklable."""

    index: int
    game: str
    players: int
    options: Mapping[str, Any]
    seed: int
    bots: tuple[str, ...]
    """Bot spec by seat (``name`` or ``name:key=value:...``)."""
    labels: tuple[str, ...]
    """Entrant label by seat."""
    bot_seeds: tuple[int, ...]


@dataclass(slots=True)
class GameOutcome:
    """What a worker sends back."""

    index: int
    record: dict[str, Any]
    """The game record as JSON (``GameRecord.to_json()``, with the game's ``index``)."""
    labels: tuple[str, ...]
    move_seconds: list[list[float]]
    """Per seat, the seconds each of that seat's moves took."""


def _convert(value: str) -> Any:
    low = value.lower()
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def build_bot(spec: str, game: Any, seed: int) -> Any:
    """A bot from a spec like ``ismcts`` or ``ismcts:iterations=200:rollout=heuristic``."""
    name, params = parse_params(spec)
    return make_bot(name, game, seed, **{k: _convert(v) for k, v in params.items()})


def play_game(task: GameTask) -> GameOutcome:
    """Play one game. A bot that returns an illegal action raises (naming bot and game)."""
    game = load_game(task.game, task.players, task.options)
    state = game.new_initial_state(task.seed)
    bots = [build_bot(spec, game, seed) for spec, seed in zip(task.bots, task.bot_seeds,
                                                                strict=True)]
    times: list[list[float]] = [[] for _ in range(task.players)]
    clock = time.perf_counter
    while not state.is_terminal():
        seat = state.current_player
        observation = state.observation(seat)
        legal = state.legal_actions()
        start = clock()
        action = bots[seat].act(observation, legal)
        times[seat].append(clock() - start)
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise KartentischError(
                f"game {task.index}: bot {task.labels[seat]!r} in seat {seat} played an "
                f"illegal action: {exc}") from exc
    record = GameRecord.from_state(task.game, state, task.labels, index=task.index).to_json()
    return GameOutcome(task.index, record, task.labels, times)


def _play_chunk(tasks: Sequence[GameTask]) -> list[GameOutcome]:
    return [play_game(t) for t in tasks]


@dataclass(slots=True)
class ArenaResult:
    """Everything an arena run produced, aggregated in game-index order."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    lineup: list[str]
    labels: list[str]
    outcomes: list[GameOutcome] = field(default_factory=list)
    stats: dict[str, BotStats] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def records(self) -> list[dict[str, Any]]:
        """The game records, one JSON object per game."""
        return [o.record for o in self.outcomes]

    def summary(self, *, timings: bool = True) -> dict[str, Any]:
        """JSON-ready summary; ``timings=False`` gives a scheduling-independent result."""
        return {
            "game": self.game, "players": self.players, "options": self.options,
            "seed": self.seed, "games": len(self.outcomes), "lineup": self.lineup,
            "bots": [self.stats[label].to_json(timings=timings) for label in self.labels],
        }

    def write_jsonl(self, path: str | Path) -> None:
        """Write the records as JSON Lines, one game per line, in index order (atomically:
        a crash leaves the old file or the whole new one)."""
        write_atomically(path, "".join(json.dumps(record, separators=(",", ":")) + "\n"
                                       for record in self.records))


def read_jsonl(path: str | Path) -> list[GameRecord]:
    """Read an arena JSON Lines file back as :class:`GameRecord` objects (each checked; see
    :func:`kartentisch.core.records.read_records`)."""
    return list(read_records(path))


def make_tasks(game_name: str, lineup: Sequence[str], games: int, *, players: int | None,
               options: Mapping[str, Any] | None, seed: int,
               duplicate: bool) -> tuple[Any, list[GameTask], list[str]]:
    """The game instance, the tasks and the entrant labels for a run."""
    lineup = list(lineup)
    n = len(lineup) if players is None else players
    game = load_game(game_name, n, options)
    if len(lineup) != game.players:
        raise KartentischError(
            f"{game.spec.title} with {game.players} players needs {game.players} bots, "
            f"got {len(lineup)} ({', '.join(lineup)}); repeat one with name*count")
    labels = entrant_labels(lineup)
    rules = game.options_json()  # one shared, read-only dictionary for every task
    tasks = []
    for s in schedule(seed, game.players, games, duplicate=duplicate):
        tasks.append(GameTask(
            index=s.index, game=game.spec.name, players=game.players,
            options=rules, seed=s.deal_seed,
            bots=tuple(lineup[e] for e in s.entrants),
            labels=tuple(labels[e] for e in s.entrants),
            bot_seeds=s.bot_seeds))
    return game, tasks, labels


def _chunks(tasks: Sequence[GameTask], size: int) -> list[list[GameTask]]:
    return [list(tasks[i:i + size]) for i in range(0, len(tasks), size)]


def _run_local(tasks: Sequence[GameTask], workers: int) -> Iterator[list[GameOutcome]]:
    if workers <= 1:
        for task in tasks:
            yield [play_game(task)]
        return
    size = max(1, min(8, len(tasks) // (workers * 8)))
    with worker_pool(workers, "forkserver") as pool:
        yield from pool.imap_unordered(_play_chunk, _chunks(tasks, size))


def _run_ray(tasks: Sequence[GameTask], workers: int,
             address: str | None) -> Iterator[list[GameOutcome]]:
    try:
        import ray
    except ImportError as exc:
        raise KartentischError(
            "the ray backend needs Ray: pip install 'kartentisch[ray]'") from exc
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(_play_chunk)
        size = max(1, min(8, len(tasks) // (max(1, workers) * 8)))
        pending = [remote.remote(chunk) for chunk in _chunks(tasks, size)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()


def aggregate(result: ArenaResult) -> None:
    """Fill ``result.stats`` from ``result.outcomes`` (which must be in index order)."""
    stats = {label: BotStats(label) for label in result.labels}
    ratings = Ratings(result.labels)
    for outcome in result.outcomes:
        returns = outcome.record["returns"]
        won, lost = outcome_flags(returns)
        for seat, label in enumerate(outcome.labels):
            st = stats[label]
            st.games += 1
            st.wins += won[seat]
            st.losses += lost[seat]
            st.total_return += returns[seat]
            st.move_seconds.extend(outcome.move_seconds[seat])
        ratings.update(outcome.labels, returns)
    for label, st in stats.items():
        st.mu, st.sigma = ratings.mu_sigma(label)
    result.stats = stats


def run_arena(game: str, bots: str | Sequence[str], games: int, *, players: int | None = None,
              options: Mapping[str, Any] | None = None, seed: int = 0, workers: int = 1,
              backend: str = "local", address: str | None = None, duplicate: bool = True,
              progress: bool = False,
              on_outcome: Callable[[GameOutcome], None] | None = None) -> ArenaResult:
    """Play ``games`` games (rounded up to whole seat rotations) and rate the bots.

    Args:
        game: registry name of the game.
        bots: one spec per seat, as a list or ``"a,b*3"``; a spec may carry parameters
            (``ismcts:iterations=200``).
        games: number of games; rounded up to a multiple of the player count so that every
            bot sits in every seat equally often.
        players: player count (default: the number of bots).
        options: the game's rules options.
        seed: the master seed; every deal and bot seed derives from it and the game index.
        workers: processes (local) or CPUs (Ray) to use.
        backend: ``"local"`` (multiprocessing) or ``"ray"``.
        address: a Ray cluster to join (default: start a local Ray).
        duplicate: replay each deal seed once per seat rotation.
        progress: show a rich progress bar on stderr.
        on_outcome: called for every finished game (in completion order).
    """
    lineup = parse_lineup(bots) if isinstance(bots, str) else list(bots)
    game_obj, tasks, labels = make_tasks(game, lineup, games, players=players, options=options,
                                         seed=seed, duplicate=duplicate)
    result = ArenaResult(game=game_obj.spec.name, players=game_obj.players,
                         options=game_obj.options_json(), seed=seed, lineup=lineup,
                         labels=labels)
    if backend == "local":
        batches: Iterable[list[GameOutcome]] = _run_local(tasks, workers)
    elif backend == "ray":
        batches = _run_ray(tasks, workers, address)
    else:
        raise KartentischError(f"unknown backend {backend!r}; use 'local' or 'ray'")
    start = time.perf_counter()
    outcomes: list[GameOutcome] = []
    if progress:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TimeRemainingColumn())
        with Progress(*columns, transient=False) as bar:
            job = bar.add_task(_("{game} games").format(game=result.game), total=len(tasks))
            for batch in batches:
                for outcome in batch:
                    outcomes.append(outcome)
                    if on_outcome is not None:
                        on_outcome(outcome)
                bar.advance(job, len(batch))
    else:
        for batch in batches:
            for outcome in batch:
                outcomes.append(outcome)
                if on_outcome is not None:
                    on_outcome(outcome)
    result.seconds = time.perf_counter() - start
    outcomes.sort(key=lambda o: o.index)
    result.outcomes = outcomes
    aggregate(result)
    return result
