"""The games as OpenSpiel games: OpenSpiel's own checks, observers, and IS-MCTS in our arena."""

from __future__ import annotations

import os
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

from kartentisch.core.registry import load_game
from kartentisch.rl import openspiel as kos
from kartentisch.rl.encodings import encoding_for

NAMES = kos.register_games()


def test_every_encoded_game_is_registered() -> None:
    assert "python_kartentisch_krass_kariert" in pyspiel.registered_names()
    assert "python_kartentisch_casino" in pyspiel.registered_names()
    assert "python_kartentisch_krumme20" in pyspiel.registered_names()
    assert set(NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("players", [3, 4])
def test_random_simulation_checks(players: int) -> None:
    game = pyspiel.load_game("python_kartentisch_krass_kariert", {"players": players})
    assert game.num_players() == players and game.num_distinct_actions() == 4972
    pyspiel.random_sim_test(game, num_sims=1, serialize=players == 3, verbose=False)


@pytest.mark.parametrize("players", [2, 4] if os.environ.get("KARTENTISCH_SOAK") else [2])
def test_random_simulation_checks_casino(players: int) -> None:
    game = pyspiel.load_game("python_kartentisch_casino", {"players": players})
    assert game.num_distinct_actions() == 148  # tokens: card, code, loose cards, confirm
    pyspiel.random_sim_test(game, num_sims=1, serialize=players == 2, verbose=False)


@pytest.mark.parametrize("players", [2, 6])
def test_random_simulation_checks_krumme20(players: int) -> None:
    game = pyspiel.load_game("python_kartentisch_krumme20", {"players": players})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_observer_tensor_is_our_encoding_and_hides_other_hands() -> None:
    game = pyspiel.load_game("python_kartentisch_krass_kariert", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(17)  # the deal seed
    ours = load_game("krass-kariert", 3).new_initial_state(17)
    enc = encoding_for(ours.game)
    for player in range(3):
        assert np.array_equal(np.asarray(state.observation_tensor(player)),
                              enc.encode(ours.observation(player)))
    assert state.observation_string(0) != state.observation_string(1)
    assert sorted(state.legal_actions()) == sorted(ours.legal_action_ids())
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    assert np.array_equal(public.tensor, enc.encode(ours.observation(None)))
    private = make_observation(game)
    private.set_from(state, 2)
    assert np.array_equal(private.tensor, enc.encode(ours.observation(2)))


def test_clone_and_resample_keep_what_the_player_knows() -> None:
    game = pyspiel.load_game("python_kartentisch_krass_kariert", {"players": 4})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = np.random.default_rng(0)
    for _ in range(15):
        state.apply_action(int(rng.choice(state.legal_actions())))
    copy = state.clone()
    assert copy.history() == state.history()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.history()) == 16  # the original is untouched
    player = state.current_player()
    world = state.world_for(player, random.Random(3))
    assert world.observation_string(player) == state.observation_string(player)
    assert world.legal_actions() == state.legal_actions()


def test_openspiel_ismcts_plays_legal_moves_through_the_adapter(monkeypatch) -> None:
    """The adapter gets only an observation and the legal actions, as every bot does; the
    arena finds it by name once registered."""
    from kartentisch.bots import registry
    from kartentisch.bots.registry import list_bots, make_bot

    # registered for this test only: other tests see the registry as shipped
    monkeypatch.setitem(registry._PER_GAME, "krass-kariert",
                        dict(registry._PER_GAME.get("krass-kariert", {})))
    kos.register_arena_bot()

    assert "openspiel-ismcts" in list_bots("krass-kariert")
    game = load_game("krass-kariert", 3)
    bot = make_bot("openspiel-ismcts", game, 4, iterations=2)
    state = game.new_initial_state(8)
    for _ in range(4):
        legal = state.legal_actions()
        action = bot.act(state.observation(state.current_player), legal)
        assert action in legal
        state.apply(action)
