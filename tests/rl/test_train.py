"""The trainer end to end with tiny counts: actor processes, the learner, resuming, stopping.

Each run stops after a few learner updates (``--max-updates``), not after a time, so what
the tests assert does not depend on the machine's speed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from kartentisch.core.registry import load_game
from kartentisch.rl.actors import Actor, ActorConfig
from kartentisch.rl.dmc import QNetwork
from kartentisch.rl.encodings import encoding_for
from kartentisch.rl.learned import LearnedBot
from kartentisch.rl.train import Clock, build_network, export, main

GAMES = ("krass-kariert", "casino", "krumme20")
TINY = ["--num-envs", "4", "--batch", "32", "--buffer", "256", "--chunk", "64",
        "--hidden", "16", "8", "--eval-games", "2", "--eval-minutes", "1000",
        "--report-seconds", "0"]
LINE = re.compile(
    r"^train [a-z0-9-]+  \d+:\d\d:\d\d \(train \d+:\d\d:\d\d \+ eval \d+:\d\d:\d\d\)"
    r"  decisions/s \d+  games \d+  samples \d+  updates \d+  loss (-|\d+\.\d{4})"
    r"  last eval (none yet|at \d+:\d\d:\d\d: lost .*)$")


def checkpoint(out: Path) -> dict[str, object]:
    state: dict[str, object] = torch.load(out / "checkpoint.pt", weights_only=False)
    return state


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pids: list[int], limit: float = 60.0) -> list[int]:
    deadline = time.monotonic() + limit
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [p for p in pids if alive(p)]


@pytest.mark.parametrize("game", GAMES)
def test_actors_and_learner_produce_weights_the_learned_bot_plays(game: str,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / game
    assert main(["--game", game, "--out", str(out), "--actors", "1", "--max-updates", "3",
                 *TINY]) == 0
    path = out / f"{game}.npz"
    network = QNetwork.load(path)
    assert network.info["updates"] == 3
    assert network.info["actors"] == 1
    g = load_game(game)
    bot = LearnedBot(g, weights=path)
    state = g.new_initial_state(5)
    seat = state.current_player
    assert bot.act(state.observation(seat), state.legal_actions()) in state.legal_actions()
    progress = checkpoint(out)["progress"]
    assert isinstance(progress, dict)
    assert progress["samples"] >= 4 * 32  # the buffer was filled before the first update
    assert progress["decisions"] > progress["samples"] > 0
    assert len(progress["curve"]) == 1  # the evaluation at the end


def test_a_rerun_resumes_the_counters_and_the_weights(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = ["--game", "krass-kariert", "--out", str(out), "--actors", "1", *TINY]
    main([*command, "--max-updates", "3"])
    first = checkpoint(out)
    main([*command, "--max-updates", "6"])
    second = checkpoint(out)
    p1, p2 = first["progress"], second["progress"]
    assert isinstance(p1, dict) and isinstance(p2, dict)
    assert (p1["updates"], p2["updates"]) == (3, 6)
    assert (p1["starts"], p2["starts"]) == (1, 2)
    assert p2["games"] >= p1["games"] and p2["samples"] > p1["samples"]
    assert p2["seconds"] > p1["seconds"]
    assert [point["updates"] for point in p2["curve"]] == [3, 6]
    state1 = first["optimizer"]["state"]  # type: ignore[index]
    state2 = second["optimizer"]["state"]  # type: ignore[index]
    assert int(state2[0]["step"]) == int(state1[0]["step"]) + 3  # Adam went on, not anew


def test_init_starts_from_numpy_weights(tmp_path: Path) -> None:
    game = load_game("casino")
    enc = encoding_for(game)
    torch.manual_seed(3)
    net = build_network(torch, enc.obs_size, enc.feature_size, (12, 6))
    start = tmp_path / "start.npz"
    export(net, "casino", {}).save(start)
    out = tmp_path / "run"
    main(["--game", "casino", "--out", str(out), "--actors", "1", "--init", str(start),
          "--max-updates", "0", *TINY])
    trained = QNetwork.load(out / "casino.npz")
    begun = QNetwork.load(start)
    assert trained.info["hidden"] == [12, 6]  # the file's sizes, not --hidden
    np.testing.assert_array_equal(trained.w2, begun.w2)  # no update: the same weights
    LearnedBot(game, weights=out / "casino.npz")


def _random_network(game: str, h1: int, h2: int) -> QNetwork:
    enc = encoding_for(load_game(game))
    rng = np.random.default_rng(0)

    def r(*shape: int) -> np.ndarray:  # type: ignore[type-arg]
        return rng.normal(size=shape).astype(np.float32)

    return QNetwork(game=game, w_obs=r(enc.obs_size, h1), w_act=r(enc.feature_size, h1),
                    b1=r(h1), w2=r(h1, h2), b2=r(h2), w3=r(h2, 1), b3=r(1), info={})


def test_actor_scores_all_rows_at_once_like_the_bot_does_one_by_one() -> None:
    """The batched call gives each row the values the learned bot computes for it alone."""
    network = _random_network("krass-kariert", 16, 8)
    actor = Actor(ActorConfig("krass-kariert", None, 6, "learner", "game", 0.0, 2), network)
    for _ in range(30):
        actor.step()
    enc = actor.encoding
    tables = actor.stepper.tables
    rows = [i for i in range(6) if len(actor.stepper.legal_ids(i)) > 1]
    obs = np.stack([enc.encode(tables[i].observation_to_act()) for i in rows])
    feats = [enc.features(tables[i].observation_to_act(), actor.stepper.legal_ids(i))
             for i in rows]
    row_of = np.repeat(np.arange(len(rows)), [len(f) for f in feats])
    together = network.q_rows(obs, np.concatenate(feats), row_of)
    alone = np.concatenate([network.q_values(o, f) for o, f in zip(obs, feats, strict=True)])
    np.testing.assert_allclose(together, alone, rtol=1e-5, atol=1e-5)
    samples = actor.take()
    assert samples.decisions == 30 * 6
    assert len(samples.obs) == len(samples.features) == len(samples.targets)


def test_the_clock_leaves_evaluation_out_of_training_time() -> None:
    now = [100.0]
    clock = Clock(train=5.0, now=lambda: now[0])
    now[0] += 10
    clock.evaluating(True)
    now[0] += 50
    assert (clock.train, clock.evaluation) == (15.0, 50.0)
    clock.evaluating(False)
    now[0] += 5
    assert (clock.train, clock.evaluation) == (20.0, 50.0)


def test_minutes_count_training_only_however_long_evaluations_take(tmp_path: Path) -> None:
    """With an evaluation after every step, the run still trains its whole budget."""
    out = tmp_path / "run"
    main(["--game", "krass-kariert", "--out", str(out), "--actors", "1", *TINY,
          "--minutes", "0.02", "--eval-minutes", "0.002"])
    progress = checkpoint(out)["progress"]
    assert isinstance(progress, dict)
    assert progress["seconds"] >= 0.02 * 60
    assert progress["eval_seconds"] > 0
    assert len(progress["curve"]) >= 2


def start_trainer(out: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.Popen(
        [sys.executable, "-m", "kartentisch.rl.train", "--game", "krass-kariert",
         "--out", str(out), "--minutes", "30", *TINY, "--report-seconds", "0.2", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def wait_for_samples(trainer: subprocess.Popen[str]) -> list[str]:
    """The progress lines up to the first one that counts samples (the actors run)."""
    assert trainer.stdout is not None
    lines = []
    for line in trainer.stdout:
        lines.append(line.rstrip("\n"))
        if re.search(r"samples [1-9]", line):
            return lines
    raise AssertionError(f"the trainer ended early: {lines} {trainer.stderr}")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_cleanly_with_plain_progress_lines(stop: signal.Signals,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "run"
    trainer = start_trainer(out, "--actors", "2")
    lines = wait_for_samples(trainer)
    pids = json.loads((out / "actors.json").read_text())
    assert len(pids) == 2
    trainer.send_signal(stop)
    rest, errors = trainer.communicate(timeout=120)
    assert trainer.returncode == 0, errors
    lines += rest.splitlines()
    assert lines[-1] == f"weights: {out / 'krass-kariert.npz'}"
    for line in lines[:-1]:
        assert "\x1b" not in line
        assert LINE.match(line), line
    QNetwork.load(out / "krass-kariert.npz")
    assert wait_gone(pids) == []


def test_a_killed_trainer_leaves_no_actor(tmp_path: Path) -> None:
    out = tmp_path / "run"
    trainer = start_trainer(out, "--actors", "2")
    wait_for_samples(trainer)
    pids = json.loads((out / "actors.json").read_text())
    assert all(alive(p) for p in pids)
    trainer.kill()
    trainer.communicate(timeout=60)
    assert wait_gone(pids) == []


def test_an_actor_that_dies_ends_the_run_with_a_reason(tmp_path: Path) -> None:
    out = tmp_path / "run"
    trainer = start_trainer(out, "--actors", "2")
    wait_for_samples(trainer)
    pids = json.loads((out / "actors.json").read_text())
    os.kill(pids[0], signal.SIGKILL)
    _, errors = trainer.communicate(timeout=120)
    assert trainer.returncode != 0
    assert "actor kartentisch-actor-0 ended with exit code -9" in errors
    QNetwork.load(out / "krass-kariert.npz")  # what it learned is kept
    assert wait_gone(pids) == []


def test_unknown_opponents_are_refused_before_the_start(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"--opponents: .*nobody"):
        main(["--game", "casino", "--out", str(tmp_path / "run"),
              "--opponents", "learner:0.5,nobody:0.5", *TINY])
    assert not (tmp_path / "run" / "actors.json").exists()


def test_cuda_without_a_gpu_is_refused_in_words(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(SystemExit, match="--device cuda: PyTorch sees no GPU here"):
        main(["--game", "casino", "--out", str(tmp_path / "run"), "--device", "cuda", *TINY])
    assert not (tmp_path / "run" / "actors.json").exists()
