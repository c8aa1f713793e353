"""How fast the trainer plays and learns: decisions per second for 1 and 2 actor processes.

For each game, in one run (so the numbers share the machine's load):

* ``old``: the single-process trainer as it was before the actor processes (commit
  ``3ce3f4f``, read from git into a temporary file), which played and learned in turn;
* ``actors=1`` and ``actors=2``: :mod:`kartentisch.rl.train` with that many actor processes
  and the learner in the main process (CPU);
* ``actors=N cuda``: the learner on the GPU, when PyTorch sees one.

Each row trains ``--seconds`` of training time (no evaluation besides a 1-game one at the end)
and reads the counters of its checkpoint: decisions/s (actions the actors applied, all seats),
games/s, samples/s (learner decisions kept with their targets) and the learner's samples/s
(update batches times batch size). The old trainer counted no decisions, so the ratios
compare games per second, which both count the same way: per second of training time, and
per CPU second that the whole run used (every process, start and the final 1-game
evaluation included), which says more than wall time on a machine shared with others.
Then it counts one actor's decisions per CPU second (in this process: what a free core gives
an actor, whatever else runs), and times the actors' scoring of one step, numpy against
PyTorch (one thread each), with the shapes of a real step.

``python benchmarks/train_speed.py --seconds 30`` (``make compiled`` first: the actors use the
compiled batch stepper when it is built).
"""
# ruff: noqa: E402  (the thread settings come before numpy's import)

from __future__ import annotations

import os

# numpy's matrix products on one thread, as in the actors (set before numpy is imported)
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse
import platform
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

import kartentisch
from kartentisch.core.registry import load_game
from kartentisch.rl.actors import Actor, ActorConfig
from kartentisch.rl.dmc import QNetwork
from kartentisch.rl.encodings import encoding_for

OLD_COMMIT = "3ce3f4f"
GAMES = ("krass-kariert", "casino", "krumme20")
COMMON = ["--num-envs", "64", "--eval-minutes", "100000", "--eval-games", "1"]


def counters(out: Path) -> dict[str, Any]:
    import torch

    progress: dict[str, Any] = torch.load(out / "checkpoint.pt", weights_only=False)["progress"]
    return progress


def children_cpu() -> float:
    """CPU seconds of the finished child processes so far (their own children included)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_new(game: str, seconds: float, actors: int, device: str, out: Path) -> dict[str, Any]:
    cpu = children_cpu()
    subprocess.run(
        [sys.executable, "-m", "kartentisch.rl.train", "--game", game, "--out", str(out),
         "--minutes", str(seconds / 60), "--actors", str(actors), "--device", device,
         "--report-seconds", "1000", *COMMON],
        check=True, stdout=subprocess.DEVNULL)
    p = counters(out)
    return {"decisions": p["decisions"] / p["seconds"], "games": p["games"] / p["seconds"],
            "cpu_games": p["games"] / (children_cpu() - cpu),
            "samples": p["samples"] / p["seconds"],
            "learned": p["updates"] * 1024 / p["seconds"]}


def run_old(game: str, seconds: float, out: Path) -> dict[str, Any] | None:
    try:
        source = subprocess.run(["git", "show", f"{OLD_COMMIT}:src/kartentisch/rl/train.py"],
                                check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    script = out.parent / f"old_train_{game}.py"
    script.write_text(source)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "COLUMNS": "200"}
    cpu = children_cpu()
    subprocess.run([sys.executable, str(script), "--game", game, "--out", str(out),
                    "--minutes", str(seconds / 60), *COMMON],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    p = counters(out)
    return {"decisions": None, "games": p["games"] / p["seconds"],
            "cpu_games": p["games"] / (children_cpu() - cpu),
            "samples": p["samples"] / p["seconds"],
            "learned": p["updates"] * 1024 / p["seconds"]}


def scoring(game: str) -> tuple[int, int, float, float]:
    """Rows, actions, and milliseconds per step of numpy's and PyTorch's scoring."""
    import torch

    from kartentisch.rl.train import build_network, numpy_arrays

    torch.set_num_threads(1)
    enc = encoding_for(load_game(game))
    net = build_network(torch, enc.obs_size, enc.feature_size, (256, 128))
    numpy_net = QNetwork(game=game, info={}, **numpy_arrays(net))
    actor = Actor(ActorConfig(game, None, 64, "learner", "game", 0.0, 1), numpy_net)
    for _ in range(10):
        actor.step()
    tables = actor.stepper.tables
    rows = [i for i in range(64) if len(actor.stepper.legal_ids(i)) > 1]
    obs = np.zeros((len(rows), enc.obs_size), dtype=np.float32)
    enc.write_rows([tables[i].state for i in rows], [tables[i].current_player for i in rows],
                   obs)
    feats = np.concatenate([enc.features(tables[i].observation_to_act(),
                                         actor.stepper.legal_ids(i)) for i in rows])
    row_of = np.repeat(np.arange(len(rows)),
                       [len(actor.stepper.legal_ids(i)) for i in rows])

    def best(f: Any) -> float:
        f()
        times = []
        for _ in range(20):
            t = time.perf_counter()
            f()
            times.append(time.perf_counter() - t)
        return 1000 * min(times)

    with torch.no_grad():
        o, f, r = torch.from_numpy(obs), torch.from_numpy(feats), torch.from_numpy(row_of)
        torch_ms = best(lambda: net.score(o, f, r).numpy())
    numpy_ms = best(lambda: numpy_net.q_rows(obs, feats, row_of))
    return len(rows), len(feats), numpy_ms, torch_ms


def actor_rate(game: str, cpu_seconds: float = 3.0) -> float:
    """Decisions per CPU second of one actor in this process (64 games, the default
    opponents): what one free core gives an actor, whatever else runs on the machine."""
    enc = encoding_for(load_game(game))
    rng = np.random.default_rng(0)

    def r(*shape: int) -> Any:
        return (rng.normal(size=shape) * 0.05).astype(np.float32)

    net = QNetwork(game=game, w_obs=r(enc.obs_size, 256), w_act=r(enc.feature_size, 256),
                   b1=r(256), w2=r(256, 128), b2=r(128), w3=r(128, 1), b3=r(1), info={})
    actor = Actor(ActorConfig(game, None, 64, "learner:0.6,random:0.2,heuristic:0.2",
                              "game", 0.05, 1), net)
    for _ in range(20):
        actor.step()
    start, before = time.process_time(), actor.decisions
    while time.process_time() - start < cpu_seconds:
        actor.step()
    return (actor.decisions - before) / (time.process_time() - start)


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    cli.add_argument("--seconds", type=float, default=30.0, help="training time per row")
    cli.add_argument("--games", nargs="*", default=list(GAMES))
    args = cli.parse_args()
    import torch

    setups: list[tuple[str, int, str]] = [("actors=1", 1, "cpu"), ("actors=2", 2, "cpu")]
    if torch.cuda.is_available():
        n = max(1, (os.cpu_count() or 2) - 1)
        setups.append((f"actors={n} cuda", n, "cuda"))
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()},"
          f" {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f},"
          f" compiled core: {kartentisch.compiled}, {args.seconds:.0f} s of training per row")
    print(f"{'game':<14} {'setup':<16} {'decisions/s':>12} {'games/s':>9} {'samples/s':>10}"
          f" {'learner samples/s':>18} {'games/s vs old':>15} {'games/CPU-s vs old':>19}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            old = run_old(game, args.seconds, Path(tmp) / f"old-{game}")
            rows: list[tuple[str, dict[str, Any] | None]] = [("old trainer", old)]
            for label, actors, device in setups:
                rows.append((label, run_new(game, args.seconds, actors, device,
                                            Path(tmp) / f"{label}-{game}")))
            for label, r in rows:
                if r is None:
                    print(f"{game:<14} {label:<16} (no git history here)")
                    continue
                decisions = "-" if r["decisions"] is None else f"{r['decisions']:.0f}"
                ratio = f"{r['games'] / old['games']:.1f}x" if old else "-"
                cpu_ratio = f"{r['cpu_games'] / old['cpu_games']:.1f}x" if old else "-"
                print(f"{game:<14} {label:<16} {decisions:>12} {r['games']:>9.2f}"
                      f" {r['samples']:>10.0f} {r['learned']:>18.0f} {ratio:>15}"
                      f" {cpu_ratio:>19}")
    print("\none actor in this process, decisions per CPU second (64 games):")
    for game in args.games:
        print(f"{game:<14} {actor_rate(game):.0f}")
    print("\nscoring one actor step (64 games), best of 20, one thread:")
    for game in args.games:
        n_rows, n_actions, numpy_ms, torch_ms = scoring(game)
        print(f"{game:<14} {n_rows} decisions, {n_actions} actions:"
              f" numpy {numpy_ms:.2f} ms, PyTorch {torch_ms:.2f} ms")


if __name__ == "__main__":
    main()
