"""Does the review point at what loses games? (issue 31's short study)

Two heuristic bots play ``--games`` games of each chosen game (seeds 0, 1, ...); seat 0's
decisions (the heuristic's) are reviewed by the search bot, and the script relates the count
of marked moves (inaccuracies and mistakes) to whether seat 0 lost: the loss rate by marks,
the mean marks of won and lost games, and their point-biserial correlation. Games are
reviewed in ``--workers`` processes, each game's review on one core.

The review's budget here is ``--iterations`` searches a decision (default 100, with a
top-up to 30 visits), far below the players' budget, so that a few hundred games fit in a
few minutes on 2 cores: its estimates are noisier, and the z-test of the marks
(:mod:`kartentisch.review.marks`) then marks fewer moves, not more.

    .venv/bin/python benchmarks/review_study.py --games 150 --workers 2
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kartentisch.bots import make_bot
from kartentisch.bots.match import play_match
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game
from kartentisch.review import ReviewBudget, review_record

GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "casino": (2, {}), "krumme20": (2, {}), "krass-kariert": (3, {})}


def one(job: tuple[str, int, int, int]) -> tuple[int, int, int, float, bool, int]:
    """Play and review one game: (inaccuracies, mistakes, reviewed, mean loss, lost,
    decisions)."""
    name, seed, iterations, top_up = job
    players, options = GAMES[name]
    game = load_game(name, players, options)
    state = game.new_initial_state(seed)
    play_match(game, seed, [make_bot("heuristic", game, seed * 10 + s)
                            for s in range(players)], state=state)
    record = GameRecord.from_state(name, state, ["heuristic"] * players)
    budget = ReviewBudget("study", {name: {"iterations": iterations, "max_steps": None}},
                          top_up=top_up)
    s = review_record(record, 0, budget=budget)["summary"]
    returns = list(state.returns())
    lost = returns[0] < max(returns)
    return (s["inaccuracies"], s["mistakes"], s["reviewed"], s["average_loss"], lost,
            s["decisions"])


def correlation(xs: list[float], ys: list[float]) -> float:
    """Pearson's r (point-biserial when ``ys`` is 0/1); nan without spread."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else math.nan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150, help="games per game")
    parser.add_argument("--game", action="append", help="games to study (default: "
                        "casino and krumme20)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--top-up", type=int, default=30)
    args = parser.parse_args()
    names = args.game or ["casino", "krumme20"]
    for name in names:
        start = time.perf_counter()
        jobs = [(name, seed, args.iterations, args.top_up) for seed in range(args.games)]
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(pool.map(one, jobs, chunksize=4))
        seconds = time.perf_counter() - start
        marks = [float(i + m) for i, m, *_ in rows]
        mistakes = [float(m) for _, m, *_ in rows]
        losses = [r[3] for r in rows]
        lost = [1.0 if r[4] else 0.0 for r in rows]
        print(f"\n### {name}, {GAMES[name][0]} players: {len(rows)} games, "
              f"{seconds:.0f} s, {args.iterations} iterations a decision")
        print(f"seat 0 lost {sum(lost):.0f} of {len(rows)}; decisions per game "
              f"{sum(r[5] for r in rows) / len(rows):.1f}, reviewed "
              f"{sum(r[2] for r in rows) / len(rows):.1f}; marks per game "
              f"{sum(marks) / len(rows):.2f} (mistakes {sum(mistakes) / len(rows):.2f})")
        print("| marked moves | games | seat 0 lost |")
        print("|---|---:|---:|")
        for label, low, high in (("0", 0, 0), ("1", 1, 1), ("2", 2, 2), ("3 or more", 3, 99)):
            group = [lo for mk, lo in zip(marks, lost, strict=True) if low <= mk <= high]
            share = f"{sum(group) / len(group):.0%}" if group else "-"
            print(f"| {label} | {len(group)} | {share} |")
        won_marks = [mk for mk, lo in zip(marks, lost, strict=True) if not lo]
        lost_marks = [mk for mk, lo in zip(marks, lost, strict=True) if lo]
        if won_marks and lost_marks:
            print(f"mean marks: won games {sum(won_marks) / len(won_marks):.2f}, lost games "
                  f"{sum(lost_marks) / len(lost_marks):.2f}")
        print(f"correlation with losing: marks r = {correlation(marks, lost):.2f}, "
              f"mistakes r = {correlation(mistakes, lost):.2f}, "
              f"mean loss of chance r = {correlation(losses, lost):.2f}")


if __name__ == "__main__":
    main()
