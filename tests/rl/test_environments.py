"""PettingZoo's and Gymnasium's own checks, and the batch stepper."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from kartentisch.core.errors import IllegalActionError, InvalidActionError
from kartentisch.core.registry import load_game
from kartentisch.rl import pettingzoo_env
from kartentisch.rl.batch import BatchStepper
from kartentisch.rl.gymnasium_env import KartentischEnv, env_id

GAMES = ["krass-kariert", "casino", "krumme20"]


EVERY_COUNT = [(game, players) for game in GAMES
               for players in range(load_game(game).spec.min_players,
                                    load_game(game).spec.max_players + 1)]
"""Every game with every player count it allows."""


@pytest.mark.parametrize(("game", "players"), EVERY_COUNT)
def test_pettingzoo_api_test(game: str, players: int) -> None:
    api_test(pettingzoo_env.env(game, players=players), num_cycles=60)


@pytest.mark.parametrize(("game", "players"), EVERY_COUNT)
def test_pettingzoo_seed_test(game: str, players: int) -> None:
    seed_test(lambda: pettingzoo_env.env(game, players=players), num_cycles=60)


def _play_aec(env, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return totals


def test_pettingzoo_rewards_are_the_game_returns_and_zero_sum() -> None:
    env = pettingzoo_env.raw_env("krass-kariert", players=4)
    totals = _play_aec(env, 3)
    returns = env.table.returns()
    assert [totals[a] for a in env.possible_agents] == returns
    assert sum(returns) == pytest.approx(0.0) and min(returns) == -1.0


def test_pettingzoo_refuses_an_action_outside_the_mask_and_changes_nothing() -> None:
    env = pettingzoo_env.raw_env("krass-kariert", players=3)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    before = env.table.state.to_json()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(bad)
    with pytest.raises(InvalidActionError):
        env.step(True)  # a bool is not a token
    with pytest.raises(InvalidActionError):
        env.step(10**9)
    assert env.table.state.to_json() == before


def test_pettingzoo_max_cycles_truncates() -> None:
    env = pettingzoo_env.raw_env("krass-kariert", players=3, max_cycles=2)
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert all(env.truncations.get(a, True) for a in env.possible_agents)
    assert steps == 2 * 3 + 3  # six tokens, then every agent steps once more with None


def test_pettingzoo_render_is_text_without_hidden_cards() -> None:
    env = pettingzoo_env.raw_env("krass-kariert", players=3, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "Krass Kariert" in text and "seat 1 to act" in text
    assert "hand: []" in text  # a spectator's view: no hand
    state = env.table.state
    hidden = [str(c) for c in state.hands[0] if c <= 12]
    line = next(x for x in text.splitlines() if x.strip().startswith("public_hands:"))
    assert not any(f'"{c}"' in line for c in hidden)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker(game: str) -> None:
    env = gymnasium.make(env_id(game), players=3, opponents="heuristic")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_gymnasium_plays_against_bots_and_reports_the_return() -> None:
    env = KartentischEnv("krass-kariert", players=3, opponents=["random", "heuristic"],
                         seat=None)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    done = False
    total = 0.0
    while not done:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        total += float(reward)
        assert not truncated
    assert total == env.table.returns()[info["seat"]]


def test_gymnasium_illegal_action_policies() -> None:
    env = KartentischEnv("krass-kariert", players=4)
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(bad)
    assert done and info["illegal_action"] and reward == -1.0
    strict = KartentischEnv("krass-kariert", players=4, illegal="raise")
    obs, _ = strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(bad)


def test_batch_stepper_stacks_rows_and_resets_finished_games() -> None:
    stepper = BatchStepper("krass-kariert", 6, seed=3, players=4)
    obs, masks, _current = stepper.reset(seed=3)
    assert obs.shape == (6, stepper.encoding.obs_size) and masks.shape == (6, 4972)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(800):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, masks, rewards, dones, _current = stepper.step(actions)
        assert masks.sum(axis=1).min() >= 1
        for row in np.flatnonzero(dones):
            assert rewards[row].sum() == pytest.approx(0.0, abs=1e-5)
            assert rewards[row].min() == -1.0
        assert not rewards[~dones].any()
        finished += int(dones.sum())
    assert finished >= 1 and stepper.games_finished == finished


@pytest.mark.parametrize(("game", "players"),
                         [("krass-kariert", 3), ("krass-kariert", 4), ("krass-kariert", 5),
                          ("casino", 3), ("krumme20", 4), ("krumme20", 6)])
def test_batch_stepper_rows_match_single_tables(game: str, players: int) -> None:
    """Row i's arrays are exactly what its table's seat to act sees, and that is the
    reference encoding of the seat's observation with the tokens chosen so far (reading the
    tables between steps hands the games back and forth between them and the rows' core)."""
    stepper = BatchStepper(game, 3, seed=9, players=players)
    obs, masks, current = stepper.reset()
    enc = stepper.encoding
    rng = np.random.default_rng(1)
    for _ in range(60):
        for i, table in enumerate(stepper.tables):
            seat = table.current_player
            assert current[i] == seat
            assert np.array_equal(obs[i], table.observe(seat))
            assert np.array_equal(masks[i], table.mask(seat))
            decision = table.decision
            reference = enc.encode(table.state.observation(seat), decision.prefix)
            assert obs[i].tobytes() == reference.tobytes()
            assert np.flatnonzero(masks[i]).tolist() == decision.next_tokens()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, masks, _, _, current = stepper.step(np.array(actions))


def test_batch_stepper_is_deterministic_and_refuses_bad_rows() -> None:
    def run() -> list[float]:
        stepper = BatchStepper("krass-kariert", 4, seed=11, players=3)
        _, masks, _ = stepper.reset()
        out = []
        for _ in range(200):
            obs, masks, rewards, _, _ = stepper.step([int(np.flatnonzero(m)[-1]) for m in masks])
            out.append(float(obs.sum()) + float(rewards.sum()))
        return out

    assert run() == run()
    stepper = BatchStepper("krass-kariert", 2, seed=1, players=3)
    _, masks, _ = stepper.reset()
    with pytest.raises(InvalidActionError):
        stepper.step([0])
    with pytest.raises(InvalidActionError):
        stepper.step(np.array([0, 4972]))  # a whole array is checked too
    with pytest.raises(InvalidActionError):
        stepper.step(np.array([-1, 0]))
    with pytest.raises(IllegalActionError):
        stepper.step_actions([int(np.flatnonzero(masks[0] == 0)[0]), 0])


def test_casino_actions_are_chosen_token_by_token() -> None:
    """A Casino action takes several tokens (card, code, loose cards, confirm); the same
    agent stays selected, the observation shows the tokens chosen so far, and the game's
    action is applied only on confirm."""
    env = pettingzoo_env.raw_env("casino", players=2)
    env.reset(seed=5)
    agent = env.agent_selection
    history = len(env.table.state.history)
    first = env.observe(agent)
    tokens = 0
    while len(env.table.state.history) == history:
        obs = env.observe(agent)
        if tokens:
            assert not np.array_equal(obs["observation"], first["observation"])
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        tokens += 1
        if len(env.table.state.history) == history:
            assert env.agent_selection == agent
    assert tokens >= 3
