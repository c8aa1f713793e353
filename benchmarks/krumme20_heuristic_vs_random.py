"""How much of the win the Krumme20 heuristic bot takes against random bots.

Every game seats the heuristic at seat ``index % players`` against random bots at the other
seats. A game's win is shared between the players with the highest score (the game's
returns: 1/k for each of k winners), so the heuristic's *win share* is the mean of its
return; the baseline of a bot as good as random is ``1 / players``. With ``--bot random``
the script gives that baseline. The interval is a normal 95% interval of the mean.

    .venv/bin/python benchmarks/krumme20_heuristic_vs_random.py --games 1000 --workers 2
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time

from kartentisch import load_game
from kartentisch.bots import make_bot

GAME = "krumme20"


def play_one(args: tuple[int, int, str]) -> tuple[float, int, int, int]:
    """Play game ``index``; returns (subject's return, actions, subject's fouls, others')."""
    index, players, bot = args
    game = load_game(GAME, players)
    subject = index % players
    bots = [make_bot(bot if s == subject else "random", game, seed=index * 16 + s)
            for s in range(players)]
    state = game.new_initial_state(index)
    actions = 0
    while not state.is_terminal():
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
        actions += 1
    fouls = state.fouls  # type: ignore[attr-defined]
    return (state.returns()[subject], actions, fouls[subject],
            sum(fouls) - fouls[subject])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot", default="heuristic")
    args = parser.parse_args()
    jobs = [(i, args.players, args.bot) for i in range(args.games)]
    start = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(play_one, jobs, chunksize=8)
    else:
        results = [play_one(j) for j in jobs]
    seconds = time.perf_counter() - start
    n = args.games
    shares = [r for r, _, _, _ in results]
    mean = sum(shares) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    actions = sum(a for _, a, _, _ in results) / n
    own = sum(f for _, _, f, _ in results) / n
    others = sum(f for _, _, _, f in results) / n / (args.players - 1)
    print(f"{args.bot} vs random, {args.players} players, {n} games: win share "
          f"{mean:.3f} (95% CI {mean - half:.3f}-{mean + half:.3f}; baseline "
          f"{1 / args.players:.3f}); fouls per game: {own:.2f} by it, {others:.2f} by each "
          f"random bot; {actions:.0f} actions per game; {seconds:.1f} s")


if __name__ == "__main__":
    main()
