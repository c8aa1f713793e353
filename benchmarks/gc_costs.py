"""What the garbage collector and the compiled core's name lookups cost in random play.

Issue 14 (engineer G): compiled Casino needs fewer instructions per action than OpenSpiel's
``dou_dizhu`` driven from Python and was still slower in time. This helper measures the
costs that an instruction count hides, in one process, the way ``engine_speed.py --modes``
times a row (one warm-up game, then games with seeds 0, 1, ... for ``--seconds`` of CPU time,
``state.legal_actions()`` + ``state.apply``; or OpenSpiel's ``dou_dizhu`` / ``crazy_eights``
stepped from Python):

* the collections of each generation per 1000 actions and their CPU time
  (``gc.callbacks`` timed with ``time.thread_time``), and their share of the row's time;
* actions/s per bin of ``--bin`` games (does the row start cold: move tables filling?);
* ``--young``: what the young generation holds when a young collection starts (by type,
  per action): the objects that survive long enough for the collector to walk them;
* ``--objects``: the tracked objects by type at the end (caches, actions, tables) and the
  size of each generation;
* ``--gc-off``: the same row with the collector disabled (its upper bound of cost).

``--scan-build DIR`` reads mypyc's ``DIR/build/ops.txt`` (the intermediate code a build of
the compiled core leaves behind) and lists, per compiled function, the names it looks up in
a module's globals dict at run time: names imported from a module outside the compiled
group (tables, classes, functions) and module-level variables that are not ``Final``. Each
is a string-keyed dict probe (~100 instructions) every time the line runs; a module-level
``Final`` binding in the compiled module itself is a C static instead.

    .venv/bin/python benchmarks/gc_costs.py --src /tmp/b/src                # Casino 2p
    .venv/bin/python benchmarks/gc_costs.py --src /tmp/b/src --young --objects
    .venv/bin/python benchmarks/gc_costs.py --spiel dou_dizhu
    .venv/bin/python benchmarks/gc_costs.py --scan-build /tmp/b --only casino

Results go to stdout as one JSON object (``--scan-build``: one line per function). The
library itself never changes the collector's settings; only this benchmark disables it
(``--gc-off``) to bound its cost.
"""

from __future__ import annotations

import argparse
import collections
import gc
import importlib
import json
import math
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def kartentisch_game(name: str, players: int, rng: random.Random) -> Callable[[int], int]:
    """One random game of a kartentisch game through the public protocol; returns actions."""
    from kartentisch import load_game

    game = load_game(name, players)

    def one_game(seed: int) -> int:
        state = game.new_initial_state(seed)
        actions = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
        return actions

    return one_game


def spiel_game(name: str, rng: random.Random) -> Callable[[int], int]:
    """One random game of an OpenSpiel game stepped from Python (``engine_speed.py``'s own
    driver, so both scripts time the same loop)."""
    from engine_speed import _openspiel_random_game

    game = importlib.import_module("pyspiel").load_game(name)

    def one_game(seed: int) -> int:
        return _openspiel_random_game(game, rng, math.inf)

    return one_game


def _kind(obj: object) -> str:
    """A type name, with tuples split by what they hold (ints only, tuples, other)."""
    name = type(obj).__name__
    if type(obj) is tuple:
        if all(type(x) is int for x in obj):
            return "tuple of ints"
        if obj and type(obj[0]) is tuple:
            return "tuple of tuples"
    return name


def measure(play: Callable[[int], int], *, seconds: float, games: int, seed: int,
            bin_games: int, gc_off: bool, young: bool, objects: bool) -> dict[str, Any]:
    """Play one warm-up game, then the timed games; the collector's work while they ran."""
    play(seed + 10_000_000)  # the warm-up game of engine_speed.py's timed rows
    stats = {g: [0, 0.0] for g in range(3)}
    started = [0.0]
    held: collections.Counter[str] = collections.Counter()

    def callback(phase: str, info: dict[str, int]) -> None:
        generation = info["generation"]
        if phase == "start":
            if young and generation == 0:
                held.update(_kind(o) for o in gc.get_objects(0))
            started[0] = time.thread_time()
        else:
            stats[generation][0] += 1
            stats[generation][1] += time.thread_time() - started[0]

    gc.callbacks.append(callback)
    if gc_off:
        gc.disable()
    bins: list[int] = []
    played = actions = bin_actions = 0
    start = bin_start = time.process_time()
    try:
        while (played < games) if games else (time.process_time() - start < seconds):
            n = play(seed + played)
            played += 1
            actions += n
            bin_actions += n
            if played % bin_games == 0:
                now = time.process_time()
                bins.append(round(bin_actions / max(now - bin_start, 1e-9)))
                bin_start, bin_actions = now, 0
        elapsed = time.process_time() - start
    finally:
        gc.callbacks.remove(callback)
        if gc_off:
            gc.enable()
    per = max(actions, 1)
    result: dict[str, Any] = {
        "games": played, "actions": actions,
        "actions_per_s": round(actions / max(elapsed, 1e-9)),
        "actions_per_s_by_bin": bins,
        "collections": {
            f"gen{g}": {"count": n, "per_1000_actions": round(1000 * n / per, 3),
                        "cpu_ms": round(1000 * t, 2), "us_per_action": round(1e6 * t / per, 3)}
            for g, (n, t) in stats.items()},
        "gc_share_of_cpu": round(sum(t for _, t in stats.values()) / max(elapsed, 1e-9), 4),
        "generation_sizes": [len(gc.get_objects(g)) for g in range(3)],
        "gc_off": gc_off,
    }
    if young:
        result["young_at_collection_per_action"] = {
            k: round(v / per, 3) for k, v in held.most_common(12)}
    if objects:
        counts = collections.Counter(_kind(o) for o in gc.get_objects())
        result["tracked_objects"] = sum(counts.values())
        result["tracked_by_type"] = dict(counts.most_common(15))
    return result


def scan_build(build: Path, only: str) -> list[str]:
    """Per compiled function, the names looked up in a globals dict at run time."""
    ops = build / "build" / "ops.txt"
    text = ops.read_text()
    lines = []
    for block in re.split(r"\n(?=def )", text):
        head = block.split("\n", 1)[0]
        if not head.startswith("def ") or (only and only not in block):
            continue
        literals = dict(re.findall(r"(r\d+) = '([^']*)'\n", block))
        names = [literals.get(m.group(1), m.group(1))
                 for m in re.finditer(r"= CPyDict_GetItem\(r\d+, (r\d+)\)", block)]
        if names:
            counted = ", ".join(f"{k} x{v}" for k, v in collections.Counter(names).items())
            lines.append(f"{head[4:].split('(')[0]}: {counted}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="casino", help="kartentisch game (default casino)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--spiel", help="an OpenSpiel game instead (e.g. dou_dizhu)")
    parser.add_argument("--src", type=Path,
                        help="put this src directory first on sys.path (a compiled build)")
    parser.add_argument("--seconds", type=float, default=1.5,
                        help="CPU seconds of timed games (default 1.5, as --modes rows)")
    parser.add_argument("--games", type=int, default=0,
                        help="play exactly this many timed games instead (for callgrind)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bin", type=int, default=100, help="games per rate bin")
    parser.add_argument("--gc-off", action="store_true", help="disable the collector")
    parser.add_argument("--young", action="store_true",
                        help="count the young generation's objects at each young collection")
    parser.add_argument("--objects", action="store_true",
                        help="tracked objects by type at the end")
    parser.add_argument("--scan-build", type=Path, metavar="DIR",
                        help="list the globals-dict lookups of the mypyc build in DIR")
    parser.add_argument("--only", default="",
                        help="with --scan-build: functions whose code mentions this text")
    args = parser.parse_args()
    if args.scan_build:
        print("\n".join(scan_build(args.scan_build, args.only)))
        return
    if args.src:
        sys.path.insert(0, str(args.src))
    rng = random.Random(args.seed)
    if args.spiel:
        play = spiel_game(args.spiel, rng)
        row = f"OpenSpiel {args.spiel}"
    else:
        play = kartentisch_game(args.game, args.players, rng)
        import kartentisch

        row = f"{args.game} {args.players}p, {'compiled' if kartentisch.compiled else 'pure'}"
    result = measure(play, seconds=args.seconds, games=args.games, seed=args.seed,
                     bin_games=args.bin, gc_off=args.gc_off, young=args.young,
                     objects=args.objects)
    print(json.dumps({"row": row, **result}))


if __name__ == "__main__":
    main()
