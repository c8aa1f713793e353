"""The learned bot: numpy weights that load without PyTorch, and legal, deterministic play."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from kartentisch.bots.registry import list_bots, make_bot
from kartentisch.core.errors import KartentischError
from kartentisch.core.registry import load_game
from kartentisch.rl.dmc import QNetwork
from kartentisch.rl.encodings import encoding_for
from kartentisch.rl.learned import LearnedBot, weights_path


def _network(seed: int = 0, h1: int = 8, h2: int = 4) -> QNetwork:
    enc = encoding_for(load_game("krass-kariert", 4))
    rng = np.random.default_rng(seed)

    def r(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    return QNetwork("krass-kariert", r(enc.obs_size, h1), r(enc.feature_size, h1), r(h1),
                    r(h1, h2), r(h2), r(h2, 1), r(1), {"test": True})


def test_weights_round_trip(tmp_path) -> None:
    net = _network()
    path = tmp_path / "w.npz"
    net.save(path)
    back = QNetwork.load(path)
    assert back.info == {"test": True} and back.game == "krass-kariert"
    obs = np.random.default_rng(1).random(net.obs_size, dtype=np.float32)
    feats = np.random.default_rng(2).random((5, net.feature_size), dtype=np.float32)
    # float16 storage: close, not equal
    assert np.allclose(back.q_values(obs, feats), net.q_values(obs, feats), rtol=0.05, atol=0.5)


def test_a_save_cut_short_leaves_the_old_weights_whole(tmp_path, monkeypatch) -> None:
    """A trainer killed (here: a full disk) while saving leaves the previous file, not half
    of the new one, and no temporary file; a name without ``.npz`` gets it, as numpy does."""
    import os

    old = _network(0)
    old.save(tmp_path / "kk")
    path = tmp_path / "kk.npz"
    assert QNetwork.load(path).info == {"test": True}

    def full_disk(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        _network(1).save(path)
    monkeypatch.undo()
    kept = QNetwork.load(path)
    assert np.array_equal(kept.w_obs, old.w_obs.astype(np.float16).astype(np.float32))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kk.npz"]


def test_bad_weights_files_are_refused(tmp_path) -> None:
    path = tmp_path / "bad.npz"
    path.write_bytes(b"not a zip")
    with pytest.raises(KartentischError):
        QNetwork.load(path)
    net = _network()
    np.savez(tmp_path / "shapes.npz", format=np.array("kartentisch-dmc/1"),
             game=np.array("krass-kariert"), info=np.array("{}"),
             **{k: getattr(net, k) for k in ("w_obs", "w_act", "b1", "w2", "b2", "b3")},
             w3=np.zeros((3, 1), dtype=np.float32))
    with pytest.raises(KartentischError):
        QNetwork.load(tmp_path / "shapes.npz")


SHIPPED = [("krass-kariert", 4, 21), ("casino", 2, 5), ("casino", 3, 8)]
"""Games with shipped weights: (game, players, deal seed) for the play tests."""


def _learned_moves(name: str, players: int, deal: int, moves: int) -> list[object]:
    game = load_game(name, players)
    bots = [make_bot("learned", game, 0), *(make_bot("random", game, s)
                                            for s in range(1, players))]
    if players > 2:
        bots[-1] = make_bot("learned", game, players - 1)
    learned = {0, players - 1} if players > 2 else {0}
    state = game.new_initial_state(deal)
    played = []
    for _ in range(moves):
        if state.is_terminal():
            break
        seat = state.current_player
        legal = state.legal_actions()
        action = bots[seat].act(state.observation(seat), legal)
        assert action in legal
        if seat in learned:
            played.append(action)
        state.apply(action)
    return played


@pytest.mark.parametrize(("name", "players", "deal"), SHIPPED)
def test_shipped_bot_is_registered_and_plays_legal_moves(name: str, players: int,
                                                         deal: int) -> None:
    assert weights_path(name).is_file()
    assert "learned" in list_bots(name)
    first = _learned_moves(name, players, deal, 80)
    assert len(first) > 20
    assert _learned_moves(name, players, deal, 80) == first  # deterministic on the same deal


def test_casino_bot_scores_every_legal_action_and_plays_the_best() -> None:
    game = load_game("casino", 2)
    bot = make_bot("learned", game, 0)
    state = game.new_initial_state(3)
    rng = np.random.default_rng(4)
    checked = 0
    while not state.is_terminal() and checked < 12:
        seat = state.current_player
        ids = state.legal_action_ids()
        legal = state.legal_actions()
        if seat == 0 and len(ids) > 1:
            values = bot.values(state.observation(seat), ids)
            assert values.shape == (len(ids),) and np.isfinite(values).all()
            chosen = bot.act(state.observation(seat), legal)
            assert game.action_to_id(chosen) == ids[int(np.argmax(values))]
            checked += 1
            state.apply(chosen)
        else:
            state.apply(legal[int(rng.integers(len(legal)))])
    assert checked == 12


def test_bot_with_other_weights_and_mismatches(tmp_path) -> None:
    path = tmp_path / "w.npz"
    _network().save(path)
    game = load_game("krass-kariert", 3)
    bot = make_bot("learned", game, 0, weights=str(path))
    state = game.new_initial_state(1)
    ids = state.legal_action_ids()
    values = bot.values(state.observation(state.current_player), ids)
    assert values.shape == (len(ids),)
    chosen = bot.act(state.observation(state.current_player), state.legal_actions())
    assert game.action_to_id(chosen) == ids[int(np.argmax(values))]
    small = QNetwork("krass-kariert", np.zeros((5, 2), np.float32),
                     np.zeros((3, 2), np.float32), np.zeros(2, np.float32),
                     np.zeros((2, 1), np.float32), np.zeros(1, np.float32),
                     np.zeros((1, 1), np.float32), np.zeros(1, np.float32), {})
    small.save(tmp_path / "small.npz")
    with pytest.raises(KartentischError):
        LearnedBot(game, weights=tmp_path / "small.npz")


@pytest.mark.parametrize("name", [name for name, _, _ in SHIPPED[:2]])
def test_playing_needs_neither_pytorch_nor_the_environment_libraries(name: str) -> None:
    code = (
        "import sys\n"
        "from kartentisch.core.registry import load_game\n"
        "from kartentisch.bots.registry import make_bot\n"
        f"g = load_game({name!r}); s = g.new_initial_state(0)\n"
        "b = make_bot('learned', g)\n"
        "b.act(s.observation(s.current_player), s.legal_actions())\n"
        "bad = [m for m in ('torch', 'pettingzoo', 'gymnasium', 'pyspiel') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
