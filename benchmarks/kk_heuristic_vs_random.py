"""How often the Krass Kariert heuristic bot loses against three random bots.

Every game seats one heuristic bot (rotating through the seats) and random bots elsewhere.
The "loss share" is the fraction of games in which the heuristic's seat is among the
losers; for a bot no better than random it is about 1/players by symmetry, so the script
also measures an all-random table as the baseline. Games are spread over worker processes.

    .venv/bin/python benchmarks/kk_heuristic_vs_random.py --games 2000 --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import time

from kartentisch import load_game
from kartentisch.arena.stats import wilson_interval
from kartentisch.bots import make_bot

GAME = "krass-kariert"


def play_one(args: tuple[int, int, str]) -> tuple[bool, int]:
    """Play game ``index`` with ``players`` seats; returns (subject lost, actions played).

    The subject (``bot``) sits at seat ``index % players``; everybody else is random.
    """
    index, players, bot = args
    game = load_game(GAME, players)
    subject = index % players
    bots = [make_bot(bot if s == subject else "random", game, seed=index * 16 + s)
            for s in range(players)]
    state = game.new_initial_state(index)
    actions = 0
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions()
        state.apply(bots[seat].act(state.observation(seat), legal))
        actions += 1
    return state.returns()[subject] < 0, actions


def measure(bot: str, games: int, players: int, workers: int) -> dict[str, float]:
    """Loss share of ``bot`` over ``games`` games, with its 95% interval."""
    jobs = [(i, players, bot) for i in range(games)]
    start = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(play_one, jobs, chunksize=16)
    else:
        results = [play_one(j) for j in jobs]
    seconds = time.perf_counter() - start
    losses = sum(1 for lost, _ in results if lost)
    low, high = wilson_interval(losses, games)
    return {"games": games, "losses": losses, "share": losses / games, "low": low,
            "high": high, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the all-random baseline")
    args = parser.parse_args()
    rows = [(args.bot, measure(args.bot, args.games, args.players, args.workers))]
    if not args.no_baseline:
        rows.append(("random", measure("random", args.games, args.players, args.workers)))
    print(f"Krass Kariert, {args.players} players, one subject bot vs {args.players - 1} random")
    print(f"{'bot':<12}{'games':>7}{'losses':>8}{'loss share':>12}{'95% interval':>18}{'s':>8}")
    for name, r in rows:
        interval = f"[{r['low']:.4f}, {r['high']:.4f}]"
        print(f"{name:<12}{r['games']:>7}{r['losses']:>8}{r['share']:>12.4f}"
              f"{interval:>18}{r['seconds']:>8.1f}")


if __name__ == "__main__":
    main()
