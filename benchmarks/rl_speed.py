"""Steps per second: our PettingZoo AEC environments and batch stepper beside PettingZoo's
classic environments (Leduc hold'em, gin rummy), in one run on this machine.

Every measurement plays random legal actions (chosen from the action mask) and counts
*steps* (one agent action, with its observation and mask built). Each runs in its own
subprocess, one after another, and reports CPU seconds of that process (``time.process_time``)
so that other load on a shared machine disturbs the comparison less; best of ``--repeats``.

* ``ours-aec``: ``kartentisch.rl.pettingzoo_env.env(game)`` (PettingZoo's order-enforcing
  wrapper, as PettingZoo's classic ``env()`` returns), the loop ``env.last()``, choose from
  the mask, ``env.step``; the choice is a uniformly random index into the mask's nonzero
  entries drawn by Python's ``random`` (numpy's ``Generator.choice`` alone took about 45
  microseconds, more than a step of the environment, and would be measured instead of it);
* ``ours-batch``: :class:`~kartentisch.rl.batch.BatchStepper` with ``--num-envs`` games,
  ``step`` with one uniformly random legal token per row, drawn from the stacked masks with
  a few numpy calls (a batch policy is vectorized; drawing it per row in Python would
  measure the policy, not the stepper): one pass over the masks finds the allowed entries,
  their rows counted from their positions (a second pass, ``count_nonzero`` per row, cost
  as much as the first over Krass Kariert's 4 972-wide masks); stacked observations,
  masks, rewards;
* ``pz-<name>``: PettingZoo's classic ``leduc_holdem_v4`` and ``texas_holdem_v4`` (the
  rlcard card games PettingZoo 1.27 still ships; ``gin_rummy_v4`` was removed in 1.25), the
  same loop as ``ours-aec``. They need ``rlcard``, installed into ``benchmarks/.venv-pettingzoo`` on
  first use (``pip install pettingzoo rlcard pygame-ce``; ``--no-install`` to use it as it is).

``python benchmarks/rl_speed.py --seconds 3`` prints a table and ``--json`` writes the
numbers. Rows are interleaved: each repetition measures every row once, so a change in the
machine's load falls on all rows alike. ``--compiled-src DIR`` (a ``src`` directory built
with ``make compiled``, whose compiled list holds the encoders' byte modules) measures each
of our rows twice, pure Python (``KARTENTISCH_PURE=1``) and with the compiled core, both
from that directory; a compiled row whose process does not run compiled is an error.

``--breakdown`` says instead where a step's time goes in our environments: the
game (``Table.step_token``: the token, and on a whole action the rules' transition, the next
legal ids and the next decision), the encoding (``state_bytes``, the fast path; since the
tables serve the seat to act through a one-row core of :mod:`kartentisch.rl.fast.rows`, its
vector is written inside ``observe`` and counts under arrays), writing numpy arrays (the rest
of ``observe`` and ``mask``), and the rest
(PettingZoo's loop and the random policy). Each part is timed with ``time.process_time``
around the calls, which adds a little to every part. The batch stepper steps all its rows in
one call of its rows' core (:mod:`kartentisch.rl.fast.rows`, compiled with the rules), which
is not split: its rows show everything but the encoding of a game without a native byte
builder under "rest" (the policy included).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PZ_VENV = HERE / ".venv-pettingzoo"


def _aec_loop(env: Any, seconds: float, seed: int) -> tuple[int, float]:
    import random

    import numpy as np

    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.process_time()
    while True:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            done = term or trunc
            if done:
                env.step(None)
            else:
                # a uniformly random legal action; numpy's nonzero is several times faster
                # on booleans than on int8, and numpy's Generator.choice costs more than a
                # whole step of a small game, so the pick is Python's
                legal = np.flatnonzero(obs["action_mask"].astype(bool, copy=False))
                env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps, elapsed
        env.reset()


def batch_policy(masks: Any, rng: Any) -> Any:
    """The batch rows' random policy: ``pick(masks)`` is one uniformly random allowed token
    per row (the k-th allowed entry of each row's mask for a uniformly random k), vectorized.

    The stepper returns its own mask array on every step (``copy=False``), so ``masks`` is
    the array every call sees. The allowed entries are found in two passes over little
    data: the masks' 8-byte words that hold any (one comparison over an eighth of the
    entries), then the bytes of those words. The same picks as ``np.flatnonzero`` over the
    whole masks, which walked every one of a Krass Kariert row's 4 972 entries and cost
    about as much as the stepper's rules (callgrind: 12k of 78k instructions per row).
    Each row's allowed entries are then found by bisecting the sorted positions at the
    rows' starts (a count per row by ``bincount`` and ``cumsum`` cost 0.6k instructions
    per row more; the same picks).
    """
    import numpy as np

    rows, width = masks.shape
    flat = masks.reshape(-1)
    row_starts = np.arange(rows, dtype=np.int64) * width
    bounds = np.arange(rows + 1, dtype=np.int64) * width
    if flat.size % 8 == 0:
        words = flat.view(np.uint64)
        lanes = flat.reshape(-1, 8)

        def allowed(_: Any) -> Any:
            held = np.flatnonzero(words != 0)
            inside = np.flatnonzero(lanes[held].view(bool).reshape(-1))
            return held[inside >> 3] * 8 + (inside & 7)
    else:
        def allowed(_: Any) -> Any:
            return np.flatnonzero(flat.view(bool))

    def pick(current: Any) -> Any:
        assert current is masks or np.shares_memory(current, masks)
        legal = allowed(current)
        edges = np.searchsorted(legal, bounds)  # each row's first allowed entry, and the end
        starts = edges[:-1]
        counts = edges[1:] - starts
        return legal[starts + (rng.random(rows) * counts).astype(np.int64)] - row_starts

    return pick


def worker(kind: str, game: str, players: int | None, seconds: float, num_envs: int,
           seed: int, after_warmup: Any = None) -> dict[str, Any]:
    """One measurement in this process (``after_warmup()`` is called between the warm-up
    and the measured run)."""
    hook = after_warmup or (lambda: None)
    if kind == "ours-aec":
        from kartentisch.rl.pettingzoo_env import env as make_env

        env = make_env(game, players=players)
        _aec_loop(env, min(1.0, seconds / 3), seed)  # warm the move tables
        hook()
        steps, elapsed = _aec_loop(env, seconds, seed)
    elif kind == "ours-batch":
        import numpy as np

        from kartentisch.rl.batch import BatchStepper

        stepper = BatchStepper(game, num_envs, seed=seed, players=players, copy=False)
        _, masks, _ = stepper.reset()
        pick = batch_policy(masks, np.random.default_rng(seed))

        def run(limit: float) -> tuple[int, float]:
            nonlocal masks
            steps = 0
            start = time.process_time()
            while time.process_time() - start < limit:
                _, masks, _, _, _ = stepper.step(pick(masks))
                steps += num_envs
            return steps, time.process_time() - start

        run(min(1.0, seconds / 3))
        hook()
        steps, elapsed = run(seconds)
    elif kind.startswith("pz-"):
        import importlib

        name = {"pz-leduc_holdem": "leduc_holdem_v4", "pz-texas_holdem": "texas_holdem_v4",
                "pz-gin_rummy": "gin_rummy_v4"}[kind]
        env = importlib.import_module(f"pettingzoo.classic.{name}").env()
        _aec_loop(env, min(1.0, seconds / 3), seed)
        steps, elapsed = _aec_loop(env, seconds, seed)
    else:
        raise SystemExit(f"unknown kind {kind}")
    compiled = None
    if kind.startswith("ours"):
        import kartentisch

        compiled = bool(kartentisch.compiled)
    return {"kind": kind, "game": game if kind.startswith("ours") else kind[3:],
            "steps": steps, "cpu_seconds": elapsed, "steps_per_second": steps / elapsed,
            "compiled": compiled}


def breakdown(kind: str, game: str, players: int | None, seconds: float, num_envs: int,
              seed: int) -> dict[str, Any]:
    """Where the time of a step goes (see the module docstring), in this process."""
    from kartentisch.rl import table as table_module
    from kartentisch.rl.encodings import encoding_for

    clock = time.process_time
    spent = {"game": 0.0, "encoding": 0.0, "arrays": 0.0}
    encoding_cls = type(encoding_for(table_module.Table(game, players).game))

    def timed(cls: Any, name: str, part: str, minus: str | None = None) -> None:
        inner = getattr(cls, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            before = clock()
            inside = spent[minus] if minus else 0.0
            try:
                return inner(*args, **kwargs)
            finally:
                # time spent in a nested timed part is that part's, not this one's
                spent[part] += clock() - before - ((spent[minus] - inside) if minus else 0.0)

        setattr(cls, name, wrapper)

    timed(table_module.Table, "step_token", "game")
    timed(encoding_cls, "state_bytes", "encoding")
    timed(table_module.Table, "observe", "arrays", "encoding")
    timed(table_module.Table, "mask", "arrays")
    result = worker(kind, game, players, seconds, num_envs, seed,
                    after_warmup=lambda: spent.update(dict.fromkeys(spent, 0.0)))
    steps = result["steps"]
    measured = result["cpu_seconds"]
    rest = max(measured - sum(spent.values()), 0.0)
    result["us_per_step"] = {**{k: 1e6 * v / steps for k, v in spent.items()},
                             "rest": 1e6 * rest / steps, "total": 1e6 * measured / steps}
    return result


def _print_breakdown(args: argparse.Namespace) -> int:
    players = "-" if args.players is None else str(args.players)
    results = []
    print(f"{'environment':>26} {'game':>8} {'encoding':>9} {'arrays':>8} {'rest':>8}"
          f" {'total':>8}  (CPU microseconds per step)")
    for game in args.games.split(","):
        for kind in ("ours-aec", "ours-batch"):
            out = subprocess.run(
                [sys.executable, str(Path(__file__)), "--breakdown-worker", kind, game,
                 players, str(args.seconds), str(args.num_envs), "0"],
                check=True, capture_output=True, text=True)
            res: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
            results.append(res)
            us = res["us_per_step"]
            print(f"{kind + ' ' + game:>26} {us['game']:>8.1f} {us['encoding']:>9.1f}"
                  f" {us['arrays']:>8.1f} {us['rest']:>8.1f} {us['total']:>8.1f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


def _ensure_pettingzoo_venv(install: bool) -> Path | None:
    python = PZ_VENV / "bin" / "python"
    if not python.exists():
        if not install:
            return None
        subprocess.run([sys.executable, "-m", "venv", str(PZ_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "pettingzoo", "rlcard",
                        "numpy", "pygame-ce"], check=True)
    return python


def _measure(python: str, args: list[str], mode: str | None = None,
             src: Path | None = None) -> dict[str, Any]:
    """One worker run; ``mode`` "pure" or "compiled" runs our code from ``src``."""
    env = dict(os.environ)
    if mode is not None and src is not None:
        env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")
        env.pop("KARTENTISCH_PURE", None)
        if mode == "pure":
            env["KARTENTISCH_PURE"] = "1"
    out = subprocess.run([python, str(Path(__file__)), "--worker", *args], check=True,
                         capture_output=True, text=True, env=env)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if mode == "compiled" and not result.get("compiled"):
        raise SystemExit(f"{args[0]} {args[1]}: not running compiled from {src} (stale or"
                         " missing build; run make compiled there)")
    result["mode"] = mode
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="krass-kariert",
                        help="our games, comma-separated")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--no-install", action="store_true")
    parser.add_argument("--pettingzoo", default="leduc_holdem,texas_holdem",
                        help="PettingZoo classic environments to compare with (gin_rummy left"
                             " PettingZoo in 1.25; it runs where an older PettingZoo is"
                             " installed)")
    parser.add_argument("--json", default=None)
    parser.add_argument("--compiled-src", type=Path, default=None,
                        help="a src directory built with make compiled: measure our rows"
                             " pure and compiled from it")
    parser.add_argument("--breakdown", action="store_true",
                        help="where a step's time goes in our environments (no PettingZoo)")
    parser.add_argument("--worker", nargs=6, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--breakdown-worker", nargs=6, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker or args.breakdown_worker:
        kind, game, players, seconds, num_envs, seed = args.worker or args.breakdown_worker
        run = worker if args.worker else breakdown
        print(json.dumps(run(kind, game, None if players == "-" else int(players),
                             float(seconds), int(num_envs), int(seed))))
        return 0
    if args.breakdown:
        return _print_breakdown(args)
    pz_python = _ensure_pettingzoo_venv(not args.no_install)
    src = args.compiled_src.resolve() if args.compiled_src else None
    modes: list[str | None] = ["pure", "compiled"] if src else [None]
    jobs: list[tuple[str, str, str, str | None]] = []
    for game in args.games.split(","):
        for kind in ("ours-aec", "ours-batch"):
            jobs += [(sys.executable, kind, game, mode) for mode in modes]
    if pz_python is not None:
        jobs += [(str(pz_python), f"pz-{name}", "-", None) for name in args.pettingzoo.split(",")]
    else:
        print("PettingZoo's classic environments skipped: no benchmarks/.venv-pettingzoo",
              file=sys.stderr)
    players = "-" if args.players is None else str(args.players)
    best: list[dict[str, Any] | None] = [None] * len(jobs)
    for r in range(args.repeats):  # interleaved: each repetition runs every row once
        for j, (python, kind, game, mode) in enumerate(jobs):
            res = _measure(python, [kind, game, players, str(args.seconds),
                                    str(args.num_envs), str(r)], mode, src)
            found = best[j]
            if found is None or res["steps_per_second"] > found["steps_per_second"]:
                best[j] = res
    results = [b for b in best if b is not None]
    for res in results:
        label = res["kind"] + (f" [{res['mode']}]" if res.get("mode") else "")
        print(f"{label:>29} {res['game']:>14}: {res['steps_per_second']:>10.0f} "
              f"steps per CPU second", flush=True)
    pz = [r for r in results if r["kind"].startswith("pz-")]
    for row in results:
        if row["kind"].startswith("ours") and pz:
            ratios = ", ".join(f"{row['steps_per_second'] / p['steps_per_second']:.1f}x "
                               f"{p['game']}" for p in pz)
            label = row["kind"] + (f" [{row['mode']}]" if row.get("mode") else "")
            print(f"{label} {row['game']}: {ratios}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
