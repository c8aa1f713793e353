"""How often the Casino heuristic bot wins two-player games against the random bot.

Every game seats the heuristic at seat ``index % 2`` (so it deals half the first packs)
against a random bot, plays to 21, and counts the heuristic's wins. With ``--bot random``
the same script gives the random-vs-random baseline (about one half by symmetry).

    .venv/bin/python benchmarks/casino_heuristic_vs_random.py --games 1000 --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import time

from kartentisch import load_game
from kartentisch.arena.stats import wilson_interval
from kartentisch.bots import make_bot

GAME = "casino"


def play_one(args: tuple[int, int, str]) -> tuple[bool, int, int]:
    """Play game ``index``; returns (subject won, actions played, packs played)."""
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
    return state.returns()[subject] > 0, actions, len(state.pack_results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
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
    wins = sum(1 for won, _, _ in results if won)
    low, high = wilson_interval(wins, args.games)
    packs = sum(p for _, _, p in results) / args.games
    print(f"{args.bot} vs random, {args.players} players, {args.games} games: "
          f"won {wins} = {wins / args.games:.3f} (95% CI {low:.3f}-{high:.3f}); "
          f"{packs:.2f} packs per game; {seconds:.1f} s")


if __name__ == "__main__":
    main()
