"""Play scheduled games on a local process pool or on Ray, lazily, and aggregate them in
index order.

Each game is a :class:`GameTask`: everything a worker needs (game, options, bot specs by
seat, seeds), so results never depend on which worker plays it or when. Workers play it with
the match driver (:func:`kartentisch.bots.match.play_match`) and return a
:class:`~kartentisch.bots.match.GameOutcome` (the returns, the bots' seconds per move, the record
when asked for).

Scheduling is lazy: tasks are made from a generator as workers become free, with a bounded
number of chunks in flight, so a run of 10^9 games starts its workers at once and its memory
does not grow with the count. Chunks start at one game (the first result comes quickly) and
grow to about :data:`CHUNK_SECONDS` of work (little overhead per game). Outcomes are
aggregated in game-index order through a reorder buffer (bounded by the chunks in flight), so
ratings and records do not depend on scheduling.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from typing import IO, Any, Final

import msgspec

from kartentisch.arena.pool import WorkerPool, stop_on_sigterm, worker_pool
from kartentisch.arena.schedule import entrant_labels, iter_schedule, parse_lineup, rounded_games
from kartentisch.arena.stats import BotStats, Ratings, outcome_flags
from kartentisch.arena.teams import Teams, TeamStats, TeamTally, team_lineup, team_rotations
from kartentisch.bots.match import BotError, GameOutcome, play_match
from kartentisch.bots.registry import build_bot
from kartentisch.core.errors import KartentischError
from kartentisch.core.protocol import Game
from kartentisch.core.records import GameRecord, read_records, write_atomically
from kartentisch.core.registry import descriptor, game_class, load_game
from kartentisch.locale import _

CHUNK_SECONDS: Final = 0.2
"""About this much work goes to a worker at once (once the time per game is known)."""
MAX_CHUNK: Final = 1024
"""No chunk holds more games than this."""


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
    record: bool = True
    """Build the game's record (``GameRecord.to_json()``)."""
    timed: bool = True
    """Measure every move's seconds."""
    stats: bool = False
    """Compute the presenter's game statistics."""


_GAMES: dict[tuple[str, int, str], Game[Any, Any, Any]] = {}
"""Game instances a worker has made, by name, player count and options."""


def _game(task: GameTask) -> Game[Any, Any, Any]:
    key = (task.game, task.players, json.dumps(task.options, sort_keys=True))
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 64:
            _GAMES.clear()
        game = _GAMES[key] = load_game(task.game, task.players, task.options)
    return game


def play_task(task: GameTask) -> GameOutcome:
    """Play one scheduled game. A bot that returns an illegal action raises (naming bot and
    game); the outcome carries no state, so it travels cheaply between processes."""
    game = _game(task)
    bots = [build_bot(spec, game, seed)
            for spec, seed in zip(task.bots, task.bot_seeds, strict=True)]
    try:
        outcome = play_match(game, task.seed, bots, timed=task.timed, labels=task.labels)
    except BotError as error:  # it names the bot and seat; the game's number joins them
        error.params["game"] = task.index
        raise
    except KartentischError as error:
        raise KartentischError(f"game {task.index}: {error}") from error
    state = outcome.state
    assert state is not None
    outcome.index = task.index
    outcome.labels = task.labels
    if task.record:
        outcome.record = GameRecord.from_state(task.game, state, task.labels,
                                               index=task.index).to_json()
    if task.stats:
        outcome.stats = dict(descriptor(task.game).statistics(state))
    outcome.state = None
    return outcome


play_game = play_task
"""The former name of :func:`play_task`."""


def _play_chunk(tasks: Sequence[GameTask]) -> list[GameOutcome]:
    return [play_task(t) for t in tasks]


# ----------------------------------------------------------------------------- running
class _Window:
    """Submit chunks and collect finished ones (one backend)."""

    def has_room(self) -> bool:
        raise NotImplementedError

    def submit(self, chunk: list[GameTask]) -> None:
        raise NotImplementedError

    def collect(self) -> list[GameOutcome]:
        """The next finished chunk (blocks)."""
        raise NotImplementedError


class _PoolWindow(_Window):
    """One chunk per local worker at a time."""

    def __init__(self, pool: WorkerPool):
        self.pool = pool

    def has_room(self) -> bool:
        return self.pool.has_idle

    def submit(self, chunk: list[GameTask]) -> None:
        self.pool.submit(chunk)

    def collect(self) -> list[GameOutcome]:
        return list(self.pool.collect())


class _RayWindow(_Window):
    """At most ``2 * workers + 1`` chunks queued on Ray.

    ``stops`` collects the signals (SIGTERM, SIGINT) that arrived meanwhile (see
    :func:`_run_ray`); :meth:`collect` waits in short slices and ends the run between two of
    Ray's calls, never inside one."""

    def __init__(self, ray: Any, workers: int, stops: list[int]):
        self.ray = ray
        self.remote = ray.remote(_play_chunk)
        self.pending: list[Any] = []
        self.limit = 2 * workers + 1
        self.stops = stops

    def has_room(self) -> bool:
        return len(self.pending) < self.limit

    def submit(self, chunk: list[GameTask]) -> None:
        self.pending.append(self.remote.remote(chunk))

    def collect(self) -> list[GameOutcome]:
        while True:
            _stop_for(self.stops)
            ready, self.pending = self.ray.wait(self.pending, num_returns=1, timeout=0.25)
            if ready:
                return list(self.ray.get(ready[0]))


def _stop_for(stops: Sequence[int]) -> None:
    """End the run for the first signal noted: Ctrl-C as ``KeyboardInterrupt`` (exit status
    130), SIGTERM as ``SystemExit(143)``, as the local backend does."""
    if stops:
        if stops[0] == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + stops[0])


def _windowed(tasks: Iterable[GameTask], window: _Window,
              workers: int) -> Iterator[list[GameOutcome]]:
    """Feed ``window`` from the lazy ``tasks`` while it has room; yield finished chunks."""
    source = iter(tasks)
    pending = 0
    size = 1
    done = 0
    exhausted = False
    started = time.perf_counter()
    while True:
        while not exhausted and window.has_room():
            chunk = list(islice(source, size))
            if not chunk:
                exhausted = True
                break
            window.submit(chunk)
            pending += 1
        if pending == 0:
            return
        batch = window.collect()
        pending -= 1
        done += len(batch)
        yield batch
        per_game = (time.perf_counter() - started) * workers / max(1, done)
        size = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / max(per_game, 1e-6))))


def _preload(tasks: list[GameTask]) -> list[str]:
    """Modules a worker needs for these games: imported once by the fork server."""
    modules = [__name__]
    for task in tasks[:1]:
        modules.append(game_class(task.game).__module__)
    return modules


def _run_local(tasks: Iterable[GameTask], workers: int,
               start_method: str | None) -> Iterator[list[GameOutcome]]:
    if workers <= 1:
        with stop_on_sigterm():
            for task in tasks:
                yield [play_task(task)]
        return
    source = iter(tasks)
    first = list(islice(source, 1))
    with worker_pool(workers, _play_chunk, start_method, _preload(first)) as pool:
        yield from _windowed(chain(first, source), _PoolWindow(pool), workers)


def _run_ray(tasks: Iterable[GameTask], workers: int,
             address: str | None) -> Iterator[list[GameOutcome]]:
    """Play ``tasks`` on Ray (a local Ray started here, or the cluster at ``address``).

    SIGTERM and Ctrl-C end the run with 143 and 130 as on the local backend. Their handlers
    only note the signal, and the run ends between two of Ray's calls: an exception raised
    from a handler inside one (``ray.wait``) could leave Ray's core worker half stopped, and
    it then ended the process on its own with exit status 1 while Ray shut down. Ray's own
    SIGTERM handler (exit status 15) is replaced, and the handlers from before are back
    afterwards."""
    try:
        import ray
    except ImportError as exc:
        raise KartentischError(
            "the ray backend needs Ray: pip install 'kartentisch[ray]'") from exc
    main = threading.current_thread() is threading.main_thread()
    before = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)
              if main}
    # a signal ignored on purpose (Ctrl-C in a background job) stays ignored
    watched = [number for number, handler in before.items() if handler != signal.SIG_IGN]
    stops: list[int] = []
    started_here = not ray.is_initialized()
    try:
        if started_here:
            try:
                if address:
                    ray.init(address=address, log_to_driver=False)
                else:
                    ray.init(num_cpus=max(1, workers), include_dashboard=False,
                             log_to_driver=False)
            except SystemExit as stop:  # Ray's handler: SIGTERM while Ray starts
                raise SystemExit(128 + signal.SIGTERM if stop.code == signal.SIGTERM
                                 else stop.code) from None
        for number in watched:
            signal.signal(number, lambda signum, _frame: stops.append(signum))
        yield from _windowed(tasks, _RayWindow(ray, max(1, workers), stops), max(1, workers))
    finally:
        try:
            if started_here:
                ray.shutdown()  # a signal meanwhile is only noted: nothing interrupts this
        finally:
            for number, handler in before.items():
                if handler is not None:  # None: a handler not set from Python, left as is
                    signal.signal(number, handler)
    _stop_for(stops)  # a signal during the last games or the shutdown still counts


def run_tasks(tasks: Iterable[GameTask], *, workers: int = 1, backend: str = "local",
              address: str | None = None,
              start_method: str | None = "forkserver") -> Generator[list[GameOutcome]]:
    """Play ``tasks`` (any iterable, consumed lazily) and yield finished outcomes in chunks,
    in completion order. ``workers <= 1`` on the local backend plays in this process.

    SIGTERM ends the run with ``SystemExit(143)``; the workers are stopped either way.
    """
    if backend == "local":
        yield from _run_local(tasks, workers, start_method)
    elif backend == "ray":
        yield from _run_ray(tasks, workers, address)
    else:
        raise KartentischError(f"unknown backend {backend!r}; use 'local' or 'ray'")


# ----------------------------------------------------------------------------- results
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
    """Every game's outcome in index order (empty when the run was made with
    ``keep=False``)."""
    stats: dict[str, BotStats] = field(default_factory=dict)
    seconds: float = 0.0
    games: int = 0
    """Games aggregated."""
    teams: Teams = ()
    """The seats of each team in the first game of every group (``()``: nobody plays in a
    team); see :mod:`kartentisch.arena.teams` for how bots form teams."""
    team_stats: list[TeamStats] = field(default_factory=list)
    """Each team's results (empty without teams)."""

    @property
    def records(self) -> list[dict[str, Any]]:
        """The game records, one JSON object per game."""
        return [o.record for o in self.outcomes if o.record is not None]

    def summary(self, *, timings: bool = True) -> dict[str, Any]:
        """JSON-ready summary; ``timings=False`` gives a scheduling-independent result."""
        data = {
            "game": self.game, "players": self.players, "options": self.options,
            "seed": self.seed, "games": self.games, "lineup": self.lineup,
            "bots": [self.stats[label].to_json(timings=timings) for label in self.labels],
        }
        if self.teams:
            data["teams"] = [team.to_json() for team in self.team_stats]
        return data

    def write_jsonl(self, path: str | Path) -> None:
        """Write the records as JSON Lines, one game per line, in index order (atomically:
        a crash leaves the old file or the whole new one)."""
        write_atomically(path, "".join(_line(record) for record in self.records))


_encode = msgspec.json.Encoder().encode


def _line(record: Mapping[str, Any]) -> str:
    """One JSON Lines line (compact JSON, UTF-8 text as it is)."""
    return _encode(record).decode() + "\n"


def read_jsonl(path: str | Path) -> list[GameRecord]:
    """Read an arena JSON Lines file back as :class:`GameRecord` objects (each checked; see
    :func:`kartentisch.core.records.read_records`)."""
    return list(read_records(path))


def game_teams(game: Game[Any, Any, Any]) -> Teams:
    """The teams of ``game`` as its descriptor tells them (``()``: every seat alone)."""
    return tuple(tuple(seats) for seats in descriptor(game.spec.name).teams(game))


def iter_tasks(game: Game[Any, Any, Any], lineup: Sequence[str], games: int, *, seed: int,
               duplicate: bool, record: bool = True) -> Iterator[GameTask]:
    """The run's tasks, made one at a time from the schedule (a team game's rotations keep
    its teams together: :func:`kartentisch.arena.teams.team_rotations`)."""
    labels = entrant_labels(list(lineup))
    rules = game.options_json()  # one shared, read-only dictionary for every task
    name, players = game.spec.name, game.players
    rotations = team_rotations(game_teams(game), players)
    for s in iter_schedule(seed, players, games, duplicate=duplicate, rotations=rotations):
        yield GameTask(index=s.index, game=name, players=players, options=rules,
                       seed=s.deal_seed, bots=tuple(lineup[e] for e in s.entrants),
                       labels=tuple(labels[e] for e in s.entrants), bot_seeds=s.bot_seeds,
                       record=record)


def _game_with_teams(game_name: str, teams: int,
                     options: Mapping[str, Any] | None) -> Game[Any, Any, Any] | None:
    """The game with the fewest players whose options make ``teams`` teams, or ``None``."""
    spec = game_class(game_name).spec
    for players in range(spec.min_players, spec.max_players + 1):
        try:
            game = load_game(game_name, players, options)
        except KartentischError:
            continue
        if len(game_teams(game)) == teams:
            return game
    return None


def make_game(game_name: str, lineup: Sequence[str], players: int | None,
              options: Mapping[str, Any] | None) -> tuple[Game[Any, Any, Any], list[str]]:
    """The game for a lineup, and the lineup (one bot for every seat: repeated, or in a team
    game one bot per team spread over its seats; see :mod:`kartentisch.arena.teams`).

    Without ``players`` the player count is the number of bots, or the game's default
    when a single bot is named; bots that are too few for a seat each but match a team
    option's number of teams play its smallest team game (two bots and teams of two: four
    players)."""
    lineup = list(lineup)
    n = players if players is not None else len(lineup) if len(lineup) > 1 else None
    try:
        game = load_game(game_name, n, options)
    except KartentischError as refused:
        if players is not None or len(lineup) <= 1:
            raise
        found = _game_with_teams(game_name, len(lineup), options)  # one bot per team
        if found is None:
            raise refused from None
        game = found
    if len(lineup) == 1:
        lineup = lineup * game.players
    teams = game_teams(game)
    lineup = team_lineup(lineup, teams, game.players)
    if len(lineup) != game.players:
        per_team = f" or {len(teams)} (one per team)" if teams else ""
        raise KartentischError(
            f"{game.spec.title} with {game.players} players needs {game.players} bots"
            f"{per_team}, got {len(lineup)} ({', '.join(lineup)}); repeat one with name*count")
    return game, lineup


class _Tally:
    """Aggregates outcomes in index order: statistics, ratings, records to a file."""

    def __init__(self, result: ArenaResult, *, keep: bool, out: IO[str] | None,
                 on_outcome: Callable[[GameOutcome], None] | None):
        self.result = result
        self.keep = keep
        self.out = out
        self.on_outcome = on_outcome
        self.stats = {label: BotStats(label) for label in result.labels}
        self.ratings = Ratings(result.labels)
        self.teams = TeamTally(result.teams, result.labels) if result.teams else None
        self.waiting: dict[int, GameOutcome] = {}
        self.next = 0

    def add(self, outcome: GameOutcome) -> None:
        if self.on_outcome is not None:
            self.on_outcome(outcome)
        self.waiting[outcome.index] = outcome
        while self.next in self.waiting:
            self._count(self.waiting.pop(self.next))
            self.next += 1

    def _count(self, outcome: GameOutcome) -> None:
        returns = outcome.returns
        won, lost = outcome_flags(returns)
        times = outcome.move_seconds
        for seat, label in enumerate(outcome.labels):
            st = self.stats[label]
            st.games += 1
            st.wins += won[seat]
            st.losses += lost[seat]
            st.total_return += returns[seat]
            if times is not None:
                st.add_moves(times[seat])
        self.ratings.update(outcome.labels, returns)
        if self.teams is not None:
            self.teams.add(outcome.labels, returns)
        self.result.games += 1
        if self.out is not None and outcome.record is not None:
            self.out.write(_line(outcome.record))
            self.out.flush()
        if not self.keep:
            outcome.record = None
            outcome.move_seconds = None
        else:
            self.result.outcomes.append(outcome)

    def flush_waiting(self) -> None:
        """Write the records of games finished out of order (a stopped run keeps them)."""
        if self.out is not None:
            for index in sorted(self.waiting):
                record = self.waiting[index].record
                if record is not None:
                    self.out.write(_line(record))
            self.out.flush()

    def finish(self) -> None:
        for label, st in self.stats.items():
            st.mu, st.sigma = self.ratings.mu_sigma(label)
        self.result.stats = self.stats
        if self.teams is not None:
            self.result.team_stats = self.teams.stats


def run_arena(game: str, bots: str | Sequence[str], games: int, *, players: int | None = None,
              options: Mapping[str, Any] | None = None, seed: int = 0, workers: int = 1,
              backend: str = "local", address: str | None = None, duplicate: bool = True,
              progress: bool = False,
              on_outcome: Callable[[GameOutcome], None] | None = None,
              out: IO[str] | None = None, keep: bool = True) -> ArenaResult:
    """Play ``games`` games (rounded up to whole seat rotations) and rate the bots.

    Args:
        game: registry name of the game.
        bots: one spec per seat, as a list or ``"a,b*3"``; a spec may carry parameters
            (``ismcts:iterations=200``). A single bot sits in every seat; in a team game one
            spec per team plays all of its seats (:mod:`kartentisch.arena.teams`).
        games: number of games; rounded up to a multiple of the player count so that every
            bot sits in every seat equally often (in a team game, of the rotations that
            keep its teams together).
        players: player count (default: the number of bots; for one bot the game's default).
        options: the game's rules options.
        seed: the master seed; every deal and bot seed derives from it and the game index.
        workers: processes (local) or CPUs (Ray) to use.
        backend: ``"local"`` (multiprocessing) or ``"ray"``.
        address: a Ray cluster to join (default: start a local Ray).
        duplicate: replay each deal seed once per seat rotation.
        progress: show a rich progress bar on stderr.
        on_outcome: called for every finished game (in completion order).
        out: an open text file: every game's record is written to it as one JSON line as
            soon as the games before it are done (and flushed), so a stopped run keeps every
            finished game (those finished out of order are written when it stops).
        keep: keep every outcome and record in memory (``result.outcomes``); ``False``
            keeps memory bounded however many games are played.
    """
    lineup = parse_lineup(bots) if isinstance(bots, str) else list(bots)
    game_obj, lineup = make_game(game, lineup, players, options)
    labels = entrant_labels(lineup)
    teams = game_teams(game_obj)
    total = rounded_games(len(team_rotations(teams, game_obj.players)), games)
    tasks = iter_tasks(game_obj, lineup, games, seed=seed, duplicate=duplicate,
                       record=keep or out is not None)
    result = ArenaResult(game=game_obj.spec.name, players=game_obj.players,
                         options=game_obj.options_json(), seed=seed, lineup=lineup,
                         labels=labels, teams=teams)
    tally = _Tally(result, keep=keep, out=out, on_outcome=on_outcome)
    start = time.perf_counter()
    batches = run_tasks(tasks, workers=workers, backend=backend, address=address)
    try:
        if progress:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            from kartentisch.arena.progress import ElapsedColumn, EtaColumn

            columns = (TextColumn("[bold]{task.description}"), BarColumn(),
                       MofNCompleteColumn(), ElapsedColumn(), EtaColumn())
            with Progress(*columns, transient=False, redirect_stdout=False,
                          redirect_stderr=False) as bar:
                job = bar.add_task(_("{game} games").format(game=result.game), total=total)
                for batch in batches:
                    for outcome in batch:
                        tally.add(outcome)
                    bar.advance(job, len(batch))
        else:
            for batch in batches:
                for outcome in batch:
                    tally.add(outcome)
    except BaseException:
        tally.flush_waiting()
        raise
    finally:
        batches.close()  # stops the workers when the run ends early
    result.seconds = time.perf_counter() - start
    tally.finish()
    return result
