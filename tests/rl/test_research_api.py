"""The research APIs without traps: reward options, masks for samplers, per-seat infos, the
observation's fields, whole-move choices (issue 29, item 4)."""

from __future__ import annotations

import itertools
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test

from kartentisch.core.errors import KartentischError
from kartentisch.core.registry import load_game
from kartentisch.rl import pettingzoo_env
from kartentisch.rl.encodings import encoding_for
from kartentisch.rl.gymnasium_env import KartentischEnv
from kartentisch.rl.rewards import deal_result, pack_result, schemes

GAMES = ["krass-kariert", "casino", "krumme20"]


def _play_aec(env: Any, seed: int) -> tuple[dict[str, float], list[tuple[Any, dict[str, float]]]]:
    """A game of random tokens: every agent's summed rewards, and each step's non-zero
    rewards with a copy of the state after it."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    events: list[tuple[Any, dict[str, float]]] = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if any(env.rewards.values()):
            events.append((env.table.state.clone(), dict(env.rewards)))
    return totals, events


def test_each_game_offers_its_own_parts_and_refuses_others() -> None:
    assert schemes("krass-kariert") == ("game", "deal", "shaped")
    assert schemes("casino") == ("game", "pack", "shaped")
    assert schemes("krumme20") == ("game", "shaped")
    with pytest.raises(KartentischError, match="offers: game, shaped"):
        KartentischEnv("krumme20", reward="deal")
    with pytest.raises(KartentischError, match="not offered by casino"):
        pettingzoo_env.raw_env("casino", reward="deal")


def test_deal_and_pack_results_are_the_trainers_targets() -> None:
    """One definition: the trainer's actors import these (rl/actors.py), the environments
    use them."""
    from kartentisch.rl import actors

    assert actors.deal_result is deal_result and actors.pack_result is pack_result
    assert deal_result([3, 3, 3, 3], [2, 3, 3, 3]) == [-1.0, 1 / 3, 1 / 3, 1 / 3]
    assert deal_result([3, 2, 1], [2, 1, 1]) == [-1.0, -1.0, 2.0]
    assert deal_result([3, 3], [3, 3]) is None  # nobody gave a chip: nothing to share


def test_pettingzoo_per_deal_rewards_krass_kariert() -> None:
    """Each deal that ends gives -1 to the seats that gave up a chip and shares that among
    the others; the end adds the game's returns: totals = returns + the deals' results."""
    env = pettingzoo_env.raw_env("krass-kariert", players=4, reward="deal")
    totals, events = _play_aec(env, 5)
    returns = env.table.returns()
    deals = events[:-1]
    assert len(deals) >= 2  # dense: several deals before the end
    chips = [3, 3, 3, 3]
    summed = [0.0] * 4
    for state, rewards in deals:
        values = [rewards[f"player_{s}"] for s in range(4)]
        lost = [s for s in range(4) if state.chips[s] < chips[s]]
        assert lost and [s for s in range(4) if values[s] == -1.0] == lost
        assert sum(values) == pytest.approx(0.0)
        summed = [a + b for a, b in zip(summed, values, strict=True)]
        chips = list(state.chips)
    assert events[-1][0].is_terminal()
    expected = [r + d for r, d in zip(returns, summed, strict=True)]
    assert [totals[f"player_{s}"] for s in range(4)] == pytest.approx(expected)


def test_pettingzoo_per_pack_rewards_casino() -> None:
    env = pettingzoo_env.raw_env("casino", players=2, reward="pack")
    totals, events = _play_aec(env, 2)
    final = events[-1][0]
    assert final.is_terminal() and len(final.pack_results) >= 2
    margins = [0.0, 0.0]
    for result in final.pack_results:
        points = result["total"]
        margins = [margins[0] + (points[0] - points[1]) / 11,
                   margins[1] + (points[1] - points[0]) / 11]
    returns = env.table.returns()
    assert len(events) == len(final.pack_results)  # one reward per pack, the end with the last
    assert [totals["player_0"], totals["player_1"]] == pytest.approx(
        [returns[0] + margins[0], returns[1] + margins[1]])


@pytest.mark.parametrize(("game", "players"), [("krass-kariert", 3), ("casino", 3),
                                               ("krumme20", 4)])
def test_shaped_rewards_add_up_to_the_game_return(game: str, players: int) -> None:
    env = pettingzoo_env.raw_env(game, players=players, reward="shaped")
    totals, events = _play_aec(env, 1)
    assert len(events) > 10  # a reward after most moves, not only at the end
    assert list(totals.values()) == pytest.approx(env.table.returns(), abs=1e-9)
    gym_env = KartentischEnv(game, players=players, reward="shaped", opponents="heuristic",
                             seat=1)
    gym_env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, rewarded, done = 0.0, 0, False
    while not done:
        _, reward, done, _, _ = gym_env.step(int(rng.choice(np.flatnonzero(
            gym_env.action_masks()))))
        total += float(reward)
        rewarded += reward != 0
    assert rewarded > 3
    assert total == pytest.approx(gym_env.table.returns()[1], abs=1e-9)


def test_gymnasium_per_deal_rewards_add_the_deals_to_the_return() -> None:
    env = KartentischEnv("krass-kariert", players=3, reward="deal", opponents="random")
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    chips = list(env.table.state.chips)
    total, done, deals = 0.0, False, 0.0
    while not done:
        _, reward, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += float(reward)
        state = env.table.state
        if not done:
            result = deal_result(chips, state.chips)
            deals += 0.0 if result is None else result[0]
            chips = list(state.chips)
    assert deals != 0.0
    assert total == pytest.approx(env.table.returns()[0] + deals)


@pytest.mark.parametrize("game", GAMES)
def test_action_masks_and_a_terminal_mask_that_samplers_survive(game: str) -> None:
    """``action_masks()`` (sb3-contrib's MaskablePPO convention) is the observation's mask;
    under Gymnasium's next-step autoreset the final observation's mask allows token 0, so a
    masked sampler keeps running across episode ends."""
    env = KartentischEnv(game, players=2 if game != "krass-kariert" else 3, opponents="random")
    obs, _ = env.reset(seed=0)
    masks = env.action_masks()
    assert masks.dtype == bool and np.array_equal(masks, obs["action_mask"].astype(bool))
    vec = gymnasium.vector.SyncVectorEnv(
        [lambda: KartentischEnv(game, players=2 if game != "krass-kariert" else 3,
                                opponents="random")] * 2,
        autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP)
    obs, _ = vec.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(3000 if game != "krass-kariert" else 6000):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        obs, _, terminated, _, infos = vec.step(actions)
        for row in np.flatnonzero(terminated):
            ended += 1
            final_mask = obs["action_mask"][row]
            assert final_mask[0] == 1 and final_mask.sum() == 1
            assert infos["legal_tokens"][row] == 0 and infos["legal_actions"][row] == 0
        if ended >= 2:
            break
    assert ended >= 2


@pytest.mark.parametrize(("game", "players"), [("krass-kariert", 4), ("casino", 3),
                                               ("krumme20", 5)])
def test_pettingzoo_infos_per_seat(game: str, players: int) -> None:
    env = pettingzoo_env.env(game, players=players)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    raw = env.unwrapped
    stat_keys = {"krass-kariert": {"deals", "rounds"}, "casino": {"packs", "points"},
                 "krumme20": {"turns", "fouls"}}[game]
    for step, agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert info["seat"] == raw.possible_agents.index(agent)
        assert info["legal_tokens"] == int(mask.sum()) >= 1
        assert info["legal_actions"] == len(raw.legal_moves()) >= 1
        assert np.array_equal(raw.action_mask(), mask.astype(bool))
        assert stat_keys <= set(info)
        for other in raw.agents:
            if other != agent:
                assert raw.infos[other]["legal_tokens"] == 0
                assert not raw.action_mask(other).any()
        if game == "krass-kariert":
            state = raw.table.state
            assert info["deals"] == state.deal + 1 and info["rounds"] == state.rounds
        env.step(int(rng.choice(np.flatnonzero(mask))))
        if step > 300:
            break


def test_casino_whole_moves_are_the_arenas_random() -> None:
    """Casino's tokens: ``legal_moves()`` lists each legal action's tokens; stepping one
    list plays exactly that action, so drawing among them is a random over whole moves."""
    env = KartentischEnv("casino", players=2, opponents="random")
    env.reset(seed=9)
    state = env.table.state
    legal_ids = sorted(state.legal_action_ids())
    moves = env.legal_moves()
    assert len(moves) == len(legal_ids) and len(set(moves)) == len(moves)
    enc = env.table.encoding
    assert sorted(moves) == sorted(enc.tokens(state.observation(env.seat), a) for a in legal_ids)
    chosen = moves[len(moves) // 2]
    history = len(state.history)
    env.step(chosen[0])
    assert env.legal_moves() == [m[1:] for m in moves if m[0] == chosen[0]]
    for token in chosen[1:]:
        env.step(token)
    played = state.history[history]
    assert enc.tokens(None, state.game.checked_action_id(played)) == chosen


@pytest.mark.parametrize("game", GAMES)
def test_observation_fields_cover_the_vector_and_name_its_parts(game: str) -> None:
    enc = encoding_for(load_game(game))
    fields = list(enc.fields().values())
    assert fields[0].start == 0 and fields[-1].stop == enc.obs_size
    for before, after in itertools.pairwise(fields):
        assert before.stop == after.start and before.size > 0
    assert all(f.doc for f in fields)


def test_krass_kariert_fields_read_the_observation() -> None:
    game = load_game("krass-kariert", 4)
    enc = encoding_for(game)
    state = game.new_initial_state(3)
    seat = state.current_player
    obs = state.observation(seat)
    vector = enc.encode(obs)
    fields = enc.fields()
    hand = fields["own_hand"].of(vector)
    cards = obs.to_json()["hand"]
    assert hand.shape == (18, 15) and hand.sum() == len(cards)
    assert [int(np.argmax(hand[i])) + 1 for i in range(len(cards))] == [
        _kk_card_index(c) for c in cards]
    assert fields["players"].of(vector).tolist() == [0, 1, 0]
    assert fields["seats"].of(vector)[:, 0].tolist() == [1, 1, 1, 1, 0]  # present, padded
    batch = np.stack([vector, vector])
    assert fields["own_hand"].of(batch).shape == (2, 18, 15)


def _kk_card_index(card: Any) -> int:
    """A Krass Kariert card of the observation's JSON as the encoding's 1-15."""
    value = card["card"] if isinstance(card, dict) else card
    names = {"X": 13, "N": 14, "S": 15}
    return names[value] if value in names else int(value)


def test_casino_and_krumme20_fields_read_the_observation() -> None:
    casino = load_game("casino", 3)
    enc = encoding_for(casino)
    state = casino.new_initial_state(1)
    obs = state.observation(0)
    vector = enc.encode(obs)
    fields = enc.fields()
    assert np.flatnonzero(fields["own_hand"].of(vector)).tolist() == sorted(obs.hand)
    assert fields["players"].of(vector).tolist() == [0, 1, 0]
    k20 = load_game("krumme20", 5)
    enc = encoding_for(k20)
    vector = enc.encode(k20.new_initial_state(1).observation(2))
    fields = enc.fields()
    assert fields["players"].of(vector).tolist() == [0, 0, 0, 1, 0]
    assert fields["personal_cards"].of(vector)[:, :, 0].sum(axis=1)[5] == 0  # padded seat
    assert not fields["spare"].of(vector).any()
    assert not fields["team_mates"].of(vector).any()  # every seat alone
    pairs = load_game("krumme20", 4, {"teams": "pairs"})
    vector = encoding_for(pairs).encode(pairs.new_initial_state(1).observation(1))
    assert fields["team_mates"].of(vector).tolist() == [1, 0, 1, 0, 0, 0]  # seats 1 and 3


@pytest.mark.parametrize(("game", "scheme"), [("krass-kariert", "deal"),
                                              ("krass-kariert", "shaped"),
                                              ("casino", "pack"), ("krumme20", "shaped")])
def test_pettingzoo_api_test_with_each_reward(game: str, scheme: str) -> None:
    api_test(pettingzoo_env.env(game, players=3, reward=scheme), num_cycles=60)


@pytest.mark.parametrize(("game", "scheme"), [("krass-kariert", "deal"), ("casino", "pack"),
                                              ("krumme20", "shaped")])
def test_gymnasium_env_checker_with_each_reward(game: str, scheme: str) -> None:
    import warnings

    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(f"kartentisch/{game}-v0", players=3, opponents="heuristic",
                         reward=scheme)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
