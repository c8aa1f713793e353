"""simulate and arena with random bots against the bare loop, per game (issue 14).

The bare loop is the least any driver must do: ``legal_action_ids()``, a random pick by the
seat's own generator, ``apply_id``. The rows play the same games (same deal seeds) through:

- ``driver``: :func:`kartentisch.bots.match.play_match` with random bots (ids, no observation);
- ``simulate``: the simulate command's per-game work (driver + the presenter's statistics),
  via :func:`kartentisch.cli.simulate.run_simulation` in this process (``workers=1``);
- ``bare loop, arena's deals``: the bare loop on the deals and bot seeds of the arena's
  schedule (duplicate deals, seats rotated), so it plays exactly the arena's games;
- ``arena``: :func:`kartentisch.arena.run_arena` in this process (driver with timings,
  ratings in index order, bounded memory: ``keep=False``);
- ``arena+records``: the same writing every game's record (``--out``);
- ``old loop``: what every loop did before: an observation and action objects per move.

The arena rows are compared with the bare loop on the arena's deals, the others with the
bare loop on simulate's deals. Every row plays the same number of games: ``--games``
rounded up to whole seat rotations, as the arena plays them.

Rows are interleaved within each repetition, timed in CPU seconds of this process
(``time.process_time``) and compared as ratios within it, so the machine's load (shared by
everyone) cancels out as far as it can. Run:
``python benchmarks/simulate_speed.py [--games 40] [--reps 3] [GAME ...]``.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import time
from collections.abc import Callable

from kartentisch.arena import run_arena
from kartentisch.arena.schedule import iter_schedule, rounded_games
from kartentisch.bots.base import RandomBot
from kartentisch.bots.match import play_match
from kartentisch.cli.simulate import SimulationConfig, run_simulation
from kartentisch.core.registry import load_game
from kartentisch.core.rng import derive_seed

GAMES = [("krass-kariert", 4), ("casino", 2), ("krumme20", 3)]


def _seeds(games: int) -> list[int]:
    # The seeds simulate uses, so that every row plays the same deals.
    return [derive_seed(0, "game", i) for i in range(games)]


def bare(name: str, players: int, games: int) -> None:
    game = load_game(name, players, {})
    for seed in _seeds(games):
        state = game.new_initial_state(seed)
        rngs = [random.Random(derive_seed(seed, "bot", s)) for s in range(players)]
        while not state.is_terminal():
            ids = state.legal_action_ids()
            state.apply_id(ids[rngs[state.current_player].randrange(len(ids))])


def bare_arena(name: str, players: int, games: int) -> None:
    game = load_game(name, players, {})
    for seating in iter_schedule(0, players, games):
        state = game.new_initial_state(seating.deal_seed)
        rngs = [random.Random(seed) for seed in seating.bot_seeds]
        while not state.is_terminal():
            ids = state.legal_action_ids()
            state.apply_id(ids[rngs[state.current_player].randrange(len(ids))])


def old_loop(name: str, players: int, games: int) -> None:
    game = load_game(name, players, {})
    for seed in _seeds(games):
        state = game.new_initial_state(seed)
        bots = [RandomBot(game, derive_seed(seed, "bot", s)) for s in range(players)]
        while not state.is_terminal():
            seat = state.current_player
            state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))


def driver(name: str, players: int, games: int) -> None:
    game = load_game(name, players, {})
    for seed in _seeds(games):
        play_match(game, seed, [RandomBot(game, derive_seed(seed, "bot", s))
                                for s in range(players)])


def simulate(name: str, players: int, games: int) -> None:
    run_simulation(SimulationConfig(name, ("random",) * players, 0), games)


def arena(name: str, players: int, games: int) -> None:
    run_arena(name, "random", games, players=players, keep=False)


def arena_records(name: str, players: int, games: int) -> None:
    run_arena(name, "random", games, players=players, keep=False, out=io.StringIO())


BARE = "bare loop"
BARE_ARENA = "bare loop, arena's deals"
ROWS: list[tuple[str, Callable[[str, int, int], None], str]] = [
    (BARE, bare, BARE), ("driver", driver, BARE), ("simulate", simulate, BARE),
    (BARE_ARENA, bare_arena, BARE_ARENA), ("arena", arena, BARE_ARENA),
    ("arena+records", arena_records, BARE_ARENA), ("old loop", old_loop, BARE)]
"""(row, what it runs, the row it is compared with)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per row and repetition")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("names", nargs="*", metavar="GAME",
                        help="only these games (default: all three)")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"{args.games} games per row, {args.reps} repetitions, one process")
    print()
    print("| game | row | CPU ms/game (median) | vs its bare loop (median of per-rep ratios) |")
    print("|---|---|---:|---:|")
    for name, players in GAMES:
        if args.names and name not in args.names:
            continue
        games = rounded_games(players, args.games)  # what the arena plays
        times: dict[str, list[float]] = {row: [] for row, _, _ in ROWS}
        for _row, run, _base in ROWS:  # warm-up: imports, caches
            run(name, players, players)
        for _rep in range(args.reps):
            for row, run, _base in ROWS:
                started = time.process_time()
                run(name, players, games)
                times[row].append((time.process_time() - started) / games)
        for row, _, base in ROWS:
            ratios = [t / b for t, b in zip(times[row], times[base], strict=True)]
            print(f"| {name} {players}p | {row} | {statistics.median(times[row]) * 1e3:.2f} | "
                  f"{statistics.median(ratios):.2f}x |", flush=True)
    print()
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
