"""How long a game review takes (issue 31): one seat's whole game of each game, full budget.

For each game, a typical game (heuristic bots, fixed seed, the game's usual player count) is
played and seat 0's decisions are reviewed with the players' budget
(:data:`kartentisch.review.budget.FULL_BUDGET`, as strong as the table's strongest bot) in
``--workers`` processes; the script prints the decisions, those searched, the wall-clock
seconds of the whole review and per searched decision, and the core that ran (compiled or
pure Python). The target: one seat's whole game within about a minute on 2 cores.

    .venv/bin/python benchmarks/review_speed.py --workers 2
    KARTENTISCH_PURE=1 .venv/bin/python benchmarks/review_speed.py --workers 2

Wall-clock time on a shared machine varies with its load, so the script also reports the
CPU seconds of the review (this process and its workers): on two quiet cores the review
takes about that divided by two. Give ``uptime``'s load beside the results.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from typing import Any

from kartentisch.bots import make_bot
from kartentisch.bots.match import play_match
from kartentisch.cli.version import version_line
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game
from kartentisch.review import review_budget, review_record

TYPICAL: list[tuple[str, int, dict[str, Any]]] = [
    ("krass-kariert", 4, {}), ("casino", 2, {}), ("krumme20", 3, {})]
"""Each game at its usual player count, default rules."""


def typical_record(name: str, players: int, options: dict[str, Any], seed: int) -> GameRecord:
    """A game of heuristic bots."""
    game = load_game(name, players, options)
    state = game.new_initial_state(seed)
    play_match(game, seed, [make_bot("heuristic", game, s) for s in range(players)],
               state=state)
    return GameRecord.from_state(name, state, ["heuristic"] * players)


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and its finished workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--budget", default="full")
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args()
    print(version_line())
    print(f"load average before: {os.getloadavg()[0]:.2f}; workers {args.workers}; "
          f"budget {args.budget}")
    print("| game | players | moves | seat 0's decisions | searched | review s | "
          "CPU s | CPU s per searched decision | marks (inaccuracies, mistakes) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, players, options in TYPICAL:
        if args.game and name not in args.game:
            continue
        record = typical_record(name, players, options, args.seed)
        start, cpu = time.perf_counter(), cpu_seconds()
        review = review_record(record, 0, budget=review_budget(args.budget),
                               workers=args.workers)
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
        s = review["summary"]
        per = cpu / s["reviewed"] if s["reviewed"] else 0.0
        print(f"| {name} | {players} | {len(record.actions)} | {s['decisions']} | "
              f"{s['reviewed']} | {seconds:.1f} | {cpu:.1f} | {per:.2f} | "
              f"{s['inaccuracies']}, {s['mistakes']} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
