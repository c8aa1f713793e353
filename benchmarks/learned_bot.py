"""The learned bot in the arena, and our IS-MCTS against OpenSpiel's IS-MCTS.

``learned`` (default): the shipped ``learned`` bot (or ``--weights``) against three bots of
one kind at a time (``--opponents random,heuristic,ismcts``): 4 players, every bot in every
seat (seat rotation), duplicate deals, 95% Wilson intervals on the learned bot's share of
games lost and won, and its mean return.

``openspiel``: our ``ismcts`` against OpenSpiel's Python IS-MCTS (through
:mod:`kartentisch.rl.openspiel`) at the same number of iterations per move
(``--iterations``; for Casino per token of a move), heuristic bots in the other seats
(``--players``; 2 players: head to head), seat-rotated with duplicate deals. Our IS-MCTS
keeps its game defaults otherwise (e.g. heuristic playouts to the end of a Krass Kariert
deal); OpenSpiel's uses its random-rollout evaluator to the end of the game, UCT
constant 2, the move by visit count: each library's own way of searching.

Runs on one process (OpenSpiel's bot is registered in this process only). Prints a JSON
summary; ``--json`` writes it to a file.

    python benchmarks/learned_bot.py learned --games 400 --opponents random,heuristic
    python benchmarks/learned_bot.py learned --games 48 --opponents ismcts
    python benchmarks/learned_bot.py openspiel --players 3 --games 12 --iterations 20
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from kartentisch.arena.runner import run_arena
from kartentisch.arena.stats import wilson_interval


def _entrant(result: Any, label: str) -> dict[str, Any]:
    st = result.stats[label]
    lo, hi = wilson_interval(st.losses, st.games)
    wlo, whi = wilson_interval(st.wins, st.games)
    return {"label": label, "games": st.games, "lost": st.losses,
            "loss_share": round(st.loss_share, 4), "loss_interval": [round(lo, 4), round(hi, 4)],
            "won": st.wins, "win_share": round(st.win_share, 4),
            "win_interval": [round(wlo, 4), round(whi, 4)],
            "mean_return": round(st.mean_return, 4),
            "median_move_seconds": round(st.median_move_seconds, 4)}


def learned(args: argparse.Namespace) -> list[dict[str, Any]]:
    spec = "learned" if args.weights is None else f"learned:weights={args.weights}"
    out = []
    for opponent in args.opponents.split(","):
        start = time.perf_counter()
        result = run_arena(args.game, [spec] + [opponent] * (args.players - 1), args.games,
                           players=args.players, seed=args.seed, workers=args.workers)
        row = _entrant(result, spec)
        row.update(game=args.game, players=args.players, opponent=opponent,
                   seconds=round(time.perf_counter() - start, 1))
        out.append(row)
        print(json.dumps(row), flush=True)
    return out


def openspiel(args: argparse.Namespace) -> list[dict[str, Any]]:
    from kartentisch.rl.openspiel import register_arena_bot

    register_arena_bot()
    ours = f"ismcts:iterations={args.iterations}"
    theirs = f"openspiel-ismcts:iterations={args.iterations}"
    players = args.players
    fillers = ["heuristic"] * (players - 2)
    start = time.perf_counter()
    result = run_arena(args.game, [ours, theirs, *fillers], args.games, players=players,
                       seed=args.seed, workers=1)
    labels = [ours, theirs, *result.labels[2:]]
    rows = [_entrant(result, label) for label in labels]
    for row in rows:
        row.update(game=args.game, players=players,
                   seconds=round(time.perf_counter() - start, 1))
        print(json.dumps(row), flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("learned", "openspiel"), nargs="?", default="learned")
    parser.add_argument("--game", default="krass-kariert")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--opponents", default="random,heuristic,ismcts")
    parser.add_argument("--weights", default=None)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rows = learned(args) if args.mode == "learned" else openspiel(args)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
