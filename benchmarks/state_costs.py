"""What a game state costs outside play: record replay, JSON round trips, memory.

For each game, random games with fixed seeds are played through the public protocol and
then measured three ways:

* **replay us/action**: ``GameRecord.from_state(...).replay()``, the way a saved game is
  read back (each action's text parsed against the state and applied with checks), per
  action of the record;
* **JSON round trip us**: ``game.state_from_json(state.to_json())`` on mid-game states
  (each game's state after half of its actions), per state;
* **state bytes**: a deep ``sizeof`` of those mid-game states: every object reachable from
  the state, each counted once, except what all states share: the game description,
  classes, modules, functions, and whatever the package's modules reach (tables, caches of
  shared immutable objects such as interned actions). That is what one more state costs.

Times are CPU seconds of this process (``time.process_time``), best of ``--repeat`` runs,
so the machine's load disturbs them less than wall-clock time would.

    .venv/bin/python benchmarks/state_costs.py                # all three games
    .venv/bin/python benchmarks/state_costs.py --games 20 --repeat 5 casino

``--play N`` instead plays N random games through the public protocol and prints the
action count (a fixed workload for ``valgrind --tool=callgrind``; run it with two values of
N and divide the difference of the instruction counts by the difference of the actions).
``--trips N`` likewise makes N JSON round trips of each mid-game state (of ``--games``
games; run it with N and 0 and divide the difference by N times the games). One round trip
of each state before them is not counted (in both runs): what happens once per process,
such as msgspec building its type information on the first read, is then not divided
among the round trips.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import types
from typing import Any

from kartentisch import load_game
from kartentisch.core.records import GameRecord

GAMES: dict[str, tuple[str, int]] = {
    "krass-kariert": ("Krass Kariert", 4),
    "casino": ("Casino", 2),
    "krumme20": ("Krumme20", 3),
}
"""Registry name -> (title, players)."""

_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
         types.MethodType)


def _reachable(roots: list[object], seen: set[int]) -> Any:
    """Yield every object reachable from ``roots`` not in ``seen`` (ids; updated), once,
    without entering classes, modules and functions."""
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _SKIP):
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif isinstance(obj, (str, bytes, int, float, bool)) or obj is None:
            continue
        else:
            if hasattr(obj, "__dict__"):
                stack.append(vars(obj))
            for cls in type(obj).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(obj, name):
                        stack.append(getattr(obj, name))


def package_objects() -> set[int]:
    """Ids of the objects the package's modules reach (tables, caches): shared by all
    states, so not counted for any one of them."""
    seen: set[int] = set()
    roots = [vars(m) for k, m in list(sys.modules.items())
             if k.startswith("kartentisch") and m is not None]
    for _ in _reachable(roots, seen):
        pass
    return seen


def deep_sizeof(root: object, skip: tuple[object, ...] = (),
                shared: set[int] | None = None) -> int:
    """Bytes of every object reachable from ``root`` (each once), except ``skip``, the ids
    in ``shared``, and classes, modules and functions (with everything only they reach)."""
    seen = {id(s) for s in skip} | (shared or set())
    return sum(sys.getsizeof(obj) for obj in _reachable([root], seen))


def random_game(game: Any, seed: int) -> tuple[Any, Any]:
    """(the final state, the state after half of the actions) of a seeded random game."""
    rng = random.Random(seed)
    length = 0
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        length += 1
    rng = random.Random(seed)
    mid = game.new_initial_state(seed)
    for _ in range(length // 2):
        legal = mid.legal_actions()
        mid.apply(legal[rng.randrange(len(legal))])
    return state, mid


def best(repeat: int, run: Any) -> float:
    """The smallest CPU time of ``repeat`` calls of ``run()``."""
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def measure(name: str, games: int, repeat: int, seed: int) -> dict[str, float]:
    """Replay, JSON round trip and state size for ``games`` random games of ``name``."""
    _title, players = GAMES[name]
    game = load_game(name, players)
    finals, mids = [], []
    for i in range(games):
        final, mid = random_game(game, seed + i)
        finals.append(final)
        mids.append(mid)
    records = [GameRecord.from_state(name, s) for s in finals]
    actions = sum(len(r.actions) for r in records)

    def replay_all() -> None:
        for r in records:
            r.replay()

    documents = [m.to_json() for m in mids]
    for d, m in zip(documents, mids, strict=True):  # the round trip must be exact
        assert game.state_from_json(d).to_json() == d, f"{name}: JSON round trip differs"
        assert d == m.to_json()

    def round_trips() -> None:
        for m in mids:
            game.state_from_json(m.to_json())

    replay = best(repeat, replay_all) / actions * 1e6
    trip = best(repeat, round_trips) / len(mids) * 1e6
    shared = package_objects()
    size = sum(deep_sizeof(m, skip=(m.game,), shared=shared) for m in mids) / len(mids)
    return {"replay_us": replay, "json_us": trip, "bytes": size,
            "actions": actions / games}


def play(name: str, games: int, seed: int) -> int:
    """``games`` random games through the public protocol; the number of actions."""
    _title, players = GAMES[name]
    game = load_game(name, players)
    rng = random.Random(seed)
    actions = 0
    for i in range(games):
        state = game.new_initial_state(seed + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
    return actions


def trips(name: str, games: int, seed: int, count: int) -> int:
    """``count`` JSON round trips of each mid-game state of ``games`` random games; the
    number of round trips."""
    _title, players = GAMES[name]
    game = load_game(name, players)
    mids = [random_game(game, seed + i)[1] for i in range(games)]
    for m in mids:  # warm-up, not counted: what is made once per process (msgspec's type
        game.state_from_json(m.to_json())  # information, caches) stays out of a difference
    for _ in range(count):
        for m in mids:
            game.state_from_json(m.to_json())
    return count * len(mids)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"games to measure (default all: {', '.join(GAMES)})")
    parser.add_argument("--games", dest="count", type=int, default=10,
                        help="random games per game (default 10)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--play", type=int, default=None, metavar="N",
                        help="only play N random games of the first game named")
    parser.add_argument("--trips", type=int, default=None, metavar="N",
                        help="only make N JSON round trips of each mid-game state")
    args = parser.parse_args(argv)
    names = args.games or list(GAMES)
    for name in names:
        if name not in GAMES:
            parser.error(f"unknown game {name!r}; choose from {', '.join(GAMES)}")
    if args.trips is not None:
        print(f"{names[0]}: {trips(names[0], args.count, args.seed, args.trips)} round trips")
        return
    if args.play is not None:
        print(f"{names[0]}: {play(names[0], args.play, args.seed)} actions")
        return
    print(f"{args.count} random games per game, seeds from {args.seed}; "
          f"best of {args.repeat}; CPU time")
    print()
    print("| game | players | actions/game | replay us/action | JSON round trip us "
          "| mid-game state bytes |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        title, players = GAMES[name]
        m = measure(name, args.count, args.repeat, args.seed)
        print(f"| {title} | {players} | {m['actions']:.1f} | {m['replay_us']:.1f} "
              f"| {m['json_us']:.0f} | {m['bytes']:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
