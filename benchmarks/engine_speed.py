"""Random-play speed of the kartentisch engines next to RLCard and OpenSpiel card games.

Every engine plays whole games with uniformly random legal actions, on one core, in its
own subprocess (so that each row's peak memory is its own), for a fixed budget of CPU
seconds. Rates are per CPU second of the worker, which a busy machine disturbs much less
than wall-clock time; every engine is measured ``--repeat`` times, interleaved with the
others, and the fastest repetition is kept. The table reports games/s, player actions/s,
both relative to Krass Kariert with four players, and the worker's peak resident memory
(interpreter and imports included).

* kartentisch games go through the public protocol only: ``state.legal_actions()`` and
  ``state.apply(action)``, with a seeded ``random.Random`` choosing.
* RLCard (Dou Dizhu, UNO) is driven at the engine level, ``env.game.step`` without the
  RL environment's observation encoding; legal actions come from the game object.
* OpenSpiel's ``dou_dizhu`` and ``crazy_eights`` are stepped from Python through
  ``pyspiel`` (``state.apply_action``); chance outcomes are sampled by their probabilities
  and, like kartentisch's internal shuffles, do not count as actions.

The external engines are not dependencies of kartentisch: they live in their own virtual
environment, ``benchmarks/.venv-compare/``, which this script creates on first use
(``pip install rlcard``, ``pip install open_spiel``, each on its own). A package that
cannot be installed or imported turns its rows into "not available: <reason>" and the
rest still runs; ``--no-install`` never runs pip.

To add a kartentisch game, add a row to :data:`KARTENTISCH_ROWS`; to add an external
engine, write a ``run_*`` function with the signature of :func:`run_rlcard_uno` and add it
to :data:`EXTERNAL_ROWS` together with the module it needs (and that module's package to
:data:`COMPARE_PACKAGES`).

    .venv/bin/python benchmarks/engine_speed.py                 # make bench
    .venv/bin/python benchmarks/engine_speed.py --seconds 2 --no-external
    .venv/bin/python benchmarks/engine_speed.py --modes --compiled-src /path/to/built/src
    valgrind --tool=callgrind .venv/bin/python benchmarks/engine_speed.py \
        --row "Krass Kariert 4p, batch" --fixed-games 40       # and 20: see fixed_games

``--modes`` (issue 14) measures both modes of the engine beside OpenSpiel's ``dou_dizhu`` and
``crazy_eights`` stepped from Python (``pyspiel`` from this interpreter), rows interleaved,
and gives each row's ratio to ``dou_dizhu`` *within each repetition* (the machine's load
changes between repetitions, much less within one): pure Python (``KARTENTISCH_PURE=1``)
and the compiled core (the sources in ``--compiled-src`` after ``make compiled``; default
this checkout's ``src``), through the protocol, through ids, and whole games in one call
(:func:`kartentisch.bots.playout.random_games`, the batch path).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import platform
import random
import resource
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
COMPARE_VENV = HERE / ".venv-compare"
COMPARE_PACKAGES: dict[str, str] = {"rlcard": "rlcard", "pyspiel": "open_spiel"}
"""Module an external row imports -> the pip package that provides it."""

KARTENTISCH_ROWS: dict[str, tuple[str, int]] = {
    "Krass Kariert 3p": ("krass-kariert", 3),
    "Krass Kariert 4p": ("krass-kariert", 4),
    "Krass Kariert 5p": ("krass-kariert", 5),
    "Casino 2p": ("casino", 2),
    "Casino 4p": ("casino", 4),
    "Krumme20 3p": ("krumme20", 3),
}
"""Row label -> (kartentisch registry name, players)."""

KARTENTISCH_FAST_ROWS: dict[str, tuple[str, int]] = {
    "Krass Kariert 4p, ids + apply_unchecked": ("krass-kariert", 4),
}
"""Rows that use the search fast path (``legal_action_ids`` + ``apply_unchecked``) instead."""

REFERENCE_ROW = "Krass Kariert 4p"
"""The row every ratio is relative to."""

MAX_ACTIONS_PER_GAME = 1_000_000
"""A guard against a game that never ends under random play."""


@dataclass
class Tally:
    """What one worker measured."""

    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    """CPU seconds of this process (what the rates are computed from)."""
    wall: float = 0.0
    """Wall-clock seconds, for comparison; larger when the machine is busy."""


def timed(one_game: Callable[[int], int], seconds: float, seed: int) -> Tally:
    """Play ``one_game(game_seed) -> actions`` for ``seconds`` of CPU time, after a warm-up.

    CPU time rather than wall time: the rows are measured one after another, and CPU time
    is much less disturbed by whatever else runs on the machine.
    """
    one_game(seed + 10_000_000)  # warm-up (imports, tables, caches)
    tally = Tally()
    wall = time.perf_counter()
    start = time.process_time()
    while time.process_time() - start < seconds:
        tally.actions += one_game(seed + tally.games)
        tally.games += 1
    tally.seconds = time.process_time() - start
    tally.wall = time.perf_counter() - wall
    return tally


# --------------------------------------------------------------------------- workers
def run_kartentisch(name: str, players: int, seconds: float, seed: int, *,
                    fast: bool = False) -> Tally:
    """Random games of a kartentisch game through the public State protocol.

    With ``fast``, through the integer-id fast path that search code uses instead.
    """
    from kartentisch import load_game

    game = load_game(name, players)
    rng = random.Random(seed)
    if fast:
        def one_game_fast(game_seed: int) -> int:
            state = game.new_initial_state(game_seed)
            actions = 0
            while not state.is_terminal() and actions < MAX_ACTIONS_PER_GAME:
                ids = state.legal_action_ids()
                state.apply_unchecked(ids[rng.randrange(len(ids))])
                actions += 1
            return actions

        return timed(one_game_fast, seconds, seed)

    def one_game(game_seed: int) -> int:
        state = game.new_initial_state(game_seed)
        actions = 0
        while not state.is_terminal() and actions < MAX_ACTIONS_PER_GAME:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
        return actions

    return timed(one_game, seconds, seed)


def _run_rlcard(game: Any, seconds: float, seed: int, legal: Callable[[Any], list[Any]]) -> Tally:
    np = importlib.import_module("numpy")
    rng = random.Random(seed)

    def one_game(game_seed: int) -> int:
        game.np_random = np.random.RandomState(game_seed)
        game.init_game()
        actions = 0
        while not game.is_over() and actions < MAX_ACTIONS_PER_GAME:
            choices = legal(game)
            game.step(choices[rng.randrange(len(choices))])
            actions += 1
        return actions

    return timed(one_game, seconds, seed)


def run_rlcard_doudizhu(seconds: float, seed: int) -> Tally:
    """RLCard's Dou Dizhu engine; the legal actions are in the game's current state."""
    module = importlib.import_module("rlcard.games.doudizhu.game")
    return _run_rlcard(module.DoudizhuGame(), seconds, seed, lambda g: list(g.state["actions"]))


def run_rlcard_uno(seconds: float, seed: int) -> Tally:
    """RLCard's UNO engine (two players, its default); legal actions from the game object."""
    module = importlib.import_module("rlcard.games.uno.game")
    game = module.UnoGame(num_players=2)
    return _run_rlcard(game, seconds, seed, lambda g: list(g.get_legal_actions()))


def _run_openspiel(game_name: str, seconds: float, seed: int) -> Tally:
    pyspiel = importlib.import_module("pyspiel")
    game = pyspiel.load_game(game_name)
    rng = random.Random(seed)

    def one_game(game_seed: int) -> int:
        return _openspiel_random_game(game, rng, MAX_ACTIONS_PER_GAME)

    return timed(one_game, seconds, seed)


def _openspiel_random_game(game: Any, rng: random.Random, limit: float) -> int:
    """Play one game of an OpenSpiel ``game`` with random legal actions (chance nodes sampled
    by ``rng`` with their probabilities), at most ``limit`` actions; returns the actions."""
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal() and actions < limit:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        actions += 1
    return actions


def run_openspiel_doudizhu(seconds: float, seed: int) -> Tally:
    """OpenSpiel's ``dou_dizhu`` (C++), stepped from Python."""
    return _run_openspiel("dou_dizhu", seconds, seed)


def run_openspiel_crazy_eights(seconds: float, seed: int) -> Tally:
    """OpenSpiel's ``crazy_eights`` (C++, default parameters: 5 players), from Python."""
    return _run_openspiel("crazy_eights", seconds, seed)


EXTERNAL_ROWS: dict[str, tuple[Callable[[float, int], Tally], str, str]] = {
    "RLCard Dou Dizhu": (run_rlcard_doudizhu, "3", "rlcard"),
    "RLCard UNO": (run_rlcard_uno, "2", "rlcard"),
    "OpenSpiel dou_dizhu": (run_openspiel_doudizhu, "3", "pyspiel"),
    "OpenSpiel crazy_eights": (run_openspiel_crazy_eights, "5", "pyspiel"),
}
"""Row label -> (worker function, players as shown in the table, module it needs)."""


def peak_rss_mib() -> float:
    """This process's peak resident memory in MiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def run_batch(name: str, players: int, seconds: float, seed: int) -> Tally:
    """Whole random games, 20 per call, inside the engine (``random_games``)."""
    from kartentisch import load_game
    from kartentisch.bots.playout import random_games

    game = load_game(name, players)
    rng = random.Random(seed)
    random_games(game, range(seed + 10_000_000, seed + 10_000_020), rng)  # warm-up
    tally = Tally()
    wall = time.perf_counter()
    start = time.process_time()
    while time.process_time() - start < seconds:
        _, actions = random_games(game, range(seed + tally.games, seed + tally.games + 20), rng)
        tally.actions += actions
        tally.games += 20
    tally.seconds = time.process_time() - start
    tally.wall = time.perf_counter() - wall
    return tally


MODE_ROWS: dict[str, tuple[str, int, str, str]] = {
    "Krass Kariert 4p, protocol": ("krass-kariert", 4, "protocol", "KK"),
    "Krass Kariert 4p, ids": ("krass-kariert", 4, "ids", "KK"),
    "Krass Kariert 4p, batch": ("krass-kariert", 4, "batch", "KK"),
    "Casino 2p, protocol": ("casino", 2, "protocol", "C"),
    "Krumme20 3p, protocol": ("krumme20", 3, "protocol", "K"),
    "Krumme20 3p, ids": ("krumme20", 3, "ids", "K"),
}
"""``--modes`` rows: (game, players, loop, short name); each is run pure and compiled."""
MODE_REFERENCE = "OpenSpiel dou_dizhu"


def fixed_games(label: str, games: int, warmup: int, seed: int) -> int:
    """Play ``warmup`` games, then ``games`` more, of the ``--modes`` row ``label`` (or an
    OpenSpiel row); return the actions of the second part.

    For instruction counts: run this under ``valgrind --tool=callgrind`` for two values of
    ``games`` and divide the difference of the instructions by the difference of the
    actions; the warm-up (move tables, caches) and start-up cancel out.
    """
    base = label.rsplit(" [", 1)[0]
    if base in EXTERNAL_ROWS:
        pyspiel = importlib.import_module("pyspiel")
        spiel = pyspiel.load_game(base.split()[-1])
        rng = random.Random(seed)

        def one_spiel(game_seed: int) -> int:
            return _openspiel_random_game(spiel, rng, math.inf)

        play: Callable[[int], int] = one_spiel
    else:
        from kartentisch import load_game
        from kartentisch.bots.playout import random_games

        name, players, loop, _ = MODE_ROWS[base]
        game = load_game(name, players)
        rng = random.Random(seed)

        def one_game(game_seed: int) -> int:
            if loop == "batch":
                return random_games(game, [game_seed], rng)[1]
            state = game.new_initial_state(game_seed)
            actions = 0
            if loop == "ids":
                while not state.is_terminal():
                    ids = state.legal_action_ids()
                    state.apply_unchecked(ids[rng.randrange(len(ids))])
                    actions += 1
                return actions
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                actions += 1
            return actions

        play = one_game
        if loop == "batch":  # whole runs in one call, as the timed batch row does
            random_games(game, range(seed + 10_000_000, seed + 10_000_000 + warmup), rng)
            return random_games(game, range(seed, seed + games), rng)[1]
    for i in range(warmup):
        play(seed + 10_000_000 + i)
    return sum(play(seed + i) for i in range(games))


def worker(label: str, seconds: float, seed: int) -> None:
    """Measure one row and print it as JSON on stdout."""
    base = label.rsplit(" [", 1)[0]
    if base in MODE_ROWS:
        name, players, loop, _ = MODE_ROWS[base]
        if loop == "batch":
            tally = run_batch(name, players, seconds, seed)
        else:
            tally = run_kartentisch(name, players, seconds, seed, fast=loop == "ids")
        import kartentisch
        print(json.dumps({"games": tally.games, "actions": tally.actions,
                          "seconds": tally.seconds, "wall": tally.wall,
                          "peak_mib": peak_rss_mib(), "compiled": kartentisch.compiled}))
        return
    if label in KARTENTISCH_ROWS:
        name, players = KARTENTISCH_ROWS[label]
        tally = run_kartentisch(name, players, seconds, seed)
    elif label in KARTENTISCH_FAST_ROWS:
        name, players = KARTENTISCH_FAST_ROWS[label]
        tally = run_kartentisch(name, players, seconds, seed, fast=True)
    else:
        tally = EXTERNAL_ROWS[label][0](seconds, seed)
    print(json.dumps({"games": tally.games, "actions": tally.actions,
                      "seconds": tally.seconds, "wall": tally.wall,
                      "peak_mib": peak_rss_mib()}))


# --------------------------------------------------------------------------- driver
def compare_python(*, install: bool = True) -> tuple[Path | None, dict[str, str]]:
    """The comparison venv's interpreter (created if needed) and why modules are missing.

    Each package of :data:`COMPARE_PACKAGES` is installed on its own, so one that cannot
    be installed only takes its own rows out of the table.
    """
    python = COMPARE_VENV / "bin" / "python"
    missing: dict[str, str] = {}
    if not python.exists():
        if not install:
            return None, {m: f"{COMPARE_VENV.name} does not exist (--no-install)"
                          for m in COMPARE_PACKAGES}
        try:
            print(f"creating {COMPARE_VENV} ...", file=sys.stderr)
            venv.EnvBuilder(with_pip=True, clear=True).create(COMPARE_VENV)
        except (OSError, subprocess.SubprocessError) as exc:
            return None, {m: f"could not create {COMPARE_VENV.name}: {exc}"
                          for m in COMPARE_PACKAGES}
    for module, package in COMPARE_PACKAGES.items():
        if _runs(python, f"import {module}"):
            continue
        if not install:
            missing[module] = f"{package} is not installed in {COMPARE_VENV.name} (--no-install)"
            continue
        print(f"installing {package} into {COMPARE_VENV.name} ...", file=sys.stderr)
        try:
            done = subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                                   "--disable-pip-version-check", "--retries", "2", package],
                                  capture_output=True, text=True, timeout=1800)
        except (OSError, subprocess.SubprocessError) as exc:
            missing[module] = f"pip install {package} failed: {exc}"
            continue
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines()
            missing[module] = f"pip install {package} failed: {lines[-1] if lines else '?'}"
        elif not _runs(python, f"import {module}"):
            missing[module] = f"{package} installed but {module} does not import"
    return python, missing


def _runs(python: Path, code: str) -> bool:
    try:
        return subprocess.run([str(python), "-c", code], capture_output=True,
                              timeout=120).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def measure(python: Path, label: str, seconds: float, seed: int, *,
            src_dir: Path | None = None, pure: bool = False) -> dict[str, Any]:
    """Run one row's worker in a fresh interpreter; the result, or why it failed."""
    env = dict(os.environ)
    env.pop("KARTENTISCH_PURE", None)
    if pure:
        env["KARTENTISCH_PURE"] = "1"
    src = str(src_dir or HERE.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    cmd = [str(python), str(Path(__file__).resolve()), "--worker", label,
           "--seconds", str(seconds), "--seed", str(seed)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=seconds * 20 + 300)
    except subprocess.TimeoutExpired:
        return {"error": "timed out"}
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return {"error": lines[-1] if lines else f"exit status {done.returncode}"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def best_of(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """The faster of two measurements of one row (an error only if both failed)."""
    if old is None or "error" in new:
        return new if old is None else old
    if "error" in old:
        return new
    faster = new if new["actions"] / new["seconds"] > old["actions"] / old["seconds"] else old
    return {**faster, "peak_mib": max(old["peak_mib"], new["peak_mib"])}


def machine() -> str:
    """One line about the machine and interpreter."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} logical CPUs; Python {platform.python_version()} "
            f"({platform.python_implementation()}); {platform.system()} {platform.release()}")


def format_table(rows: list[tuple[str, str, dict[str, Any]]]) -> str:
    """A Markdown table of the results, with ratios against :data:`REFERENCE_ROW`."""
    ref = next((r for label, _, r in rows if label == REFERENCE_ROW and "error" not in r), None)
    head = ("| engine | players | games | games/s | actions/s | actions/game | "
            "games/s vs KK4p | actions/s vs KK4p | peak RSS MiB |")
    lines = [head, "|" + "---|" * 9]
    for label, players, r in rows:
        if "error" in r:
            lines.append(f"| {label} | {players} | not available: {r['error']} |"
                         + " |" * 6)
            continue
        gps = r["games"] / r["seconds"]
        aps = r["actions"] / r["seconds"]
        per_game = r["actions"] / max(r["games"], 1)
        if ref is not None:
            rg = f"{gps / (ref['games'] / ref['seconds']):.2f}x"
            ra = f"{aps / (ref['actions'] / ref['seconds']):.2f}x"
        else:
            rg = ra = "-"
        lines.append(f"| {label} | {players} | {r['games']} | {gps:,.1f} | {aps:,.0f} | "
                     f"{per_game:,.1f} | {rg} | {ra} | {r['peak_mib']:.1f} |")
    return "\n".join(lines)


def run_modes(seconds: float, repeat: int, seed: int, compiled_src: Path,
              rows: list[str] | None = None) -> None:
    """The issue-14 table: both modes beside OpenSpiel, ratios within each repetition.

    ``rows``: only these ``--modes`` rows (and their pure or compiled variant when a row
    ends in `` [pure]`` or `` [compiled]``), beside OpenSpiel's ``dou_dizhu`` (the
    reference, always measured); ``None``: every row and ``crazy_eights``.
    """
    import statistics

    plan: list[tuple[str, str, bool]] = []
    for base in MODE_ROWS:
        plan.append((f"{base} [pure]", base, True))
        plan.append((f"{base} [compiled]", base, False))
    plan += [(label, label, False) for label in ("OpenSpiel dou_dizhu", "OpenSpiel crazy_eights")]
    if rows is not None:
        unknown = [r for r in rows if r not in MODE_ROWS and r.rsplit(" [", 1)[0] not in MODE_ROWS]
        if unknown:
            raise SystemExit(f"unknown --rows {unknown}; rows are {list(MODE_ROWS)}")
        plan = [p for p in plan if p[0] == MODE_REFERENCE or p[1] in rows or p[0] in rows]
    rates: dict[str, list[float]] = {label: [] for label, _, _ in plan}
    ratios: dict[str, list[float]] = {label: [] for label, _, _ in plan}
    notes: dict[str, str] = {}
    for rep in range(repeat):
        this: dict[str, float] = {}
        for label, _, pure in plan:
            print(f"measuring {label} ({rep + 1}/{repeat}) ...", file=sys.stderr)
            r = measure(Path(sys.executable), label, seconds, seed + rep,
                        src_dir=compiled_src, pure=pure)
            if "error" in r:
                notes[label] = r["error"]
                continue
            if label.endswith("[compiled]") and not r.get("compiled"):
                notes[label] = "compiled core not active (run make compiled)"
            this[label] = r["actions"] / r["seconds"]
            rates[label].append(this[label])
        for label, rate in this.items():
            if MODE_REFERENCE in this:
                ratios[label].append(rate / this[MODE_REFERENCE])
    print(f"Random play, one core per row, {repeat} x {seconds:g} CPU s, rows interleaved; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(machine())
    if hasattr(os, "getloadavg"):
        print("load average at the end (1/5/15 min): "
              + " / ".join(f"{x:.2f}" for x in os.getloadavg()))
    print()
    print("| row | actions/s (median) | vs OpenSpiel dou_dizhu (median, min-max over reps) |")
    print("|---|---:|---:|")
    for label, _, _ in plan:
        if not rates[label]:
            print(f"| {label} | not available: {notes.get(label, '?')} | |")
            continue
        rs = ratios[label]
        ratio = (f"{statistics.median(rs):.2f}x ({min(rs):.2f}-{max(rs):.2f})" if rs else "-")
        note = f" ({notes[label]})" if label in notes else ""
        print(f"| {label}{note} | {statistics.median(rates[label]):,.0f} | {ratio} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0,
                        help="CPU seconds per engine and repetition (default 4)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="measure every engine this many times, interleaved, and keep "
                             "the fastest (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-external", action="store_true",
                        help="measure only the kartentisch engines")
    parser.add_argument("--no-install", action="store_true",
                        help="use benchmarks/.venv-compare as it is; never run pip")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--modes", action="store_true",
                        help="issue 14: pure and compiled rows beside OpenSpiel (pyspiel from "
                             "this interpreter), ratios within each repetition")
    parser.add_argument("--compiled-src", type=Path, default=HERE.parent / "src",
                        help="the src directory holding the compiled core (make compiled)")
    parser.add_argument("--fixed-games", type=int, metavar="N",
                        help="with --row: play 100 warm-up games and N more of that row in "
                             "this process and print the N games' actions (for callgrind: "
                             "instructions per action from two values of N)")
    parser.add_argument("--row", help="a --modes row or OpenSpiel row, for --fixed-games")
    parser.add_argument("--rows", help="with --modes: only these rows, separated by ; (e.g. "
                                       "'Krass Kariert 4p, batch [compiled]'; a row without "
                                       "[pure]/[compiled] means both), beside dou_dizhu")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fixed_games is not None:
        print(fixed_games(args.row, args.fixed_games, 100, args.seed))
        return
    if args.worker:
        worker(args.worker, args.seconds, args.seed)
        return
    if args.modes:
        rows = None if args.rows is None else [r.strip() for r in args.rows.split(";")]
        run_modes(args.seconds, args.repeat, args.seed, args.compiled_src, rows)
        return

    plan: list[tuple[str, str, Path | None, str]] = [
        (label, str(count), Path(sys.executable), "")
        for label, (_, count) in {**KARTENTISCH_ROWS, **KARTENTISCH_FAST_ROWS}.items()]
    if not args.no_external:
        python, missing = compare_python(install=not args.no_install)
        plan += [(label, players, None if module in missing else python,
                  missing.get(module, ""))
                 for label, (_, players, module) in EXTERNAL_ROWS.items()]
    results: dict[str, dict[str, Any]] = {}
    for rep in range(args.repeat):
        for label, _, python, reason in plan:
            if python is None:
                results[label] = {"error": reason}
                continue
            if "error" in results.get(label, {}):
                continue
            print(f"measuring {label} ({rep + 1}/{args.repeat}) ...", file=sys.stderr)
            result = measure(python, label, args.seconds, args.seed + rep)
            results[label] = best_of(results.get(label), result)
    rows = [(label, players, results[label]) for label, players, _, _ in plan]

    print(f"Random play, one core per engine, best of {args.repeat} x {args.seconds:g} "
          f"CPU seconds each; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(machine())
    if hasattr(os, "getloadavg"):
        print("load average at the end (1/5/15 min): "
              + " / ".join(f"{x:.2f}" for x in os.getloadavg()))
    print()
    print(format_table(rows))
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "seconds": args.seconds,
                                         "rows": [{"engine": label, "players": players, **r}
                                                  for label, players, r in rows]}, indent=2))


if __name__ == "__main__":
    main()
