"""Behaviour cloning with tiny counts: a recording of the teacher's decisions, a fit, and a
weights file the learned bot plays with."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kartentisch.bots.registry import make_bot
from kartentisch.core.registry import load_game
from kartentisch.rl.dmc import QNetwork
from kartentisch.rl.encodings import encoding_for
from kartentisch.rl.imitation import Demonstrations, collect, main


@pytest.mark.parametrize(("name", "players"), [("krumme20", 3), ("casino", 2),
                                               ("krass-kariert", 3)])
def test_recording_holds_the_teachers_choices(name: str, players: int) -> None:
    demos = collect(name, "first-legal", 1, players=players, seed=2, opponents="heuristic")
    enc = encoding_for(load_game(name, players))
    assert len(demos) > 5 and demos.games == 1  # the teacher's seat only
    assert demos.obs.shape == (len(demos), enc.obs_size)
    assert demos.feats.shape == (int(demos.start[-1]), enc.feature_size)
    counts = np.diff(demos.start)
    assert (counts > 1).all()  # forced moves teach nothing and are left out
    assert (demos.chosen == 0).all()  # first-legal always takes the first row
    assert demos.returns.shape == (len(demos),) and np.isfinite(demos.returns).all()


def test_recordings_join_and_round_trip(tmp_path) -> None:
    a = collect("krumme20", "heuristic", 1, players=3, seed=1)
    b = collect("krumme20", "heuristic", 1, players=3, seed=2)
    both = Demonstrations.join([a, b])
    assert len(both) == len(a) + len(b) and both.games == 2
    assert both.start[-1] == len(both.feats)
    k = len(a) + 1
    rows = slice(both.start[k], both.start[k + 1])
    assert np.array_equal(both.feats[rows], b.feats[b.start[1]:b.start[2]])
    both.save(tmp_path / "d.npz")
    back = Demonstrations.load(tmp_path / "d.npz")
    assert np.array_equal(back.start, both.start) and np.array_equal(back.chosen, both.chosen)


def test_tiny_run_writes_weights_the_learned_bot_plays_with(tmp_path) -> None:
    assert main(["--game", "krumme20", "--games", "3", "--epochs", "2", "--hidden", "16", "8",
                 "--teacher", "first-legal", "--opponents", "heuristic",
                 "--out", str(tmp_path)]) == 0
    path = tmp_path / "krumme20.npz"
    net = QNetwork.load(path)
    assert net.info["method"] == "behaviour cloning" and net.info["teacher"] == "first-legal"
    assert net.info["opponents"] == "heuristic"
    assert net.info["games"] == 3 and net.info["decisions"] > 0 and "machine" in net.info
    assert json.loads((tmp_path / "info.json").read_text()) == net.info
    game = load_game("krumme20", 3)
    bot = make_bot("learned", game, 0, weights=str(path))
    state = game.new_initial_state(4)
    legal = state.legal_actions()
    assert bot.act(state.observation(state.current_player), legal) in legal


def test_fitting_learns_a_teacher_it_can_represent(tmp_path) -> None:
    """first-legal's choice is always row 0: the fitted network must agree far above chance
    (a fixed row is learnable from the action features alone)."""
    from kartentisch.rl.imitation import fit

    demos = collect("krumme20", "first-legal", 30, players=3, seed=5, opponents="heuristic")
    enc = encoding_for(load_game("krumme20", 3))
    chance = float(np.mean(1 / np.diff(demos.start)))
    result = fit(demos, enc.obs_size, enc.feature_size, hidden=(32, 16), epochs=30,
                 batch=64, lr=3e-3, seed=1)
    assert result.train_accuracy > chance + 0.2
