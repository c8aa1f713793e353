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


def test_rules_options_reach_the_game_through_the_options_parameter() -> None:
    """Krumme20's team game and Casino's raising reading are played under OpenSpiel with
    the same options the terminal takes (``-o teams=pairs``) as parameters of their own,
    serialized and reloaded."""
    game = pyspiel.load_game("python_kartentisch_krumme20",
                             {"players": 4, "teams": "pairs", "team_targets": False})
    ours = kos.context_of(game).ours
    assert ours.options.teams == "pairs" and ours.options.team_targets is False
    assert ours.teams() == ((0, 2), (1, 3))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(0)
    while not state.is_terminal():
        state.apply_action(random.Random(len(state.history())).choice(state.legal_actions()))
    returns = state.returns()
    assert returns[0] == returns[2] and returns[1] == returns[3]  # partners share a result
    casino = pyspiel.load_game("python_kartentisch_casino", {"raising": "any"})
    assert kos.context_of(casino).ours.options.raising == "any"
    assert kos.context_of(pyspiel.load_game("python_kartentisch_casino")).ours.options.raising \
        == "single"


@pytest.mark.parametrize(("params", "words"), [
    ({"players": 5, "teams": "pairs"}, "4, 6"),
    ({"players": 4, "teams": "couples"}, "couples"),
    ({"players": 4, "colour": "blue"}, "colour"),
])
def test_bad_options_parameter_is_refused_with_what_was_wrong(params: dict[str, object],
                                                              words: str) -> None:
    with pytest.raises(pyspiel.SpielError, match=words):
        pyspiel.load_game("python_kartentisch_krumme20", params)


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


def test_openspiel_ismcts_plays_legal_moves_through_the_adapter() -> None:
    """The adapter gets only an observation and the legal actions, as every bot does; the
    arena finds it by name for every game."""
    from kartentisch.bots.registry import list_bots, make_bot

    for name in ("krass-kariert", "casino", "krumme20"):
        assert "openspiel-ismcts" in list_bots(name, research=True)
        assert "openspiel-ismcts" not in list_bots(name)  # the table server does not offer it
    game = load_game("krass-kariert", 3)
    bot = make_bot("openspiel-ismcts", game, 4, iterations=2)
    state = game.new_initial_state(8)
    for _ in range(4):
        legal = state.legal_actions()
        action = bot.act(state.observation(state.current_player), legal)
        assert action in legal
        state.apply(action)


def _dealt(name: str, players: int, seed: int = 11) -> tuple[object, object]:
    game = pyspiel.load_game(name, {"players": players})
    state = game.new_initial_state()
    state.apply_action(seed)
    return game, state


def test_no_information_state_is_declared_and_asking_for_one_is_refused() -> None:
    """Our observations are not perfect-recall histories: the game type says so, and an
    information-state string or tensor is refused instead of handing out the observation."""
    for name in NAMES:
        game, state = _dealt(name, 2 if "kariert" not in name else 3)
        gtype = game.get_type()
        assert not gtype.provides_information_state_string
        assert not gtype.provides_information_state_tensor
        assert gtype.provides_observation_string and gtype.provides_observation_tensor
        player = state.current_player()
        with pytest.raises(pyspiel.SpielError, match="provides no information state"):
            state.information_state_string(player)
        with pytest.raises(pyspiel.SpielError, match="provides no information state"):
            state.information_state_tensor(player)
        with pytest.raises(pyspiel.SpielError, match="no perfect"):
            make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
        assert state.observation_string(player)  # the observation stays available


def test_perfect_recall_algorithms_refuse_rather_than_run_on_observation_keys() -> None:
    """MCCFR keys its tables by information-state strings: it refuses. An NFSP-style
    learner's rl_environment falls back to the observation, which the game declares, and
    refuses an information-state tensor when asked for one."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr

    game = pyspiel.load_game("python_kartentisch_krumme20", {"players": 2})
    with pytest.raises(pyspiel.SpielError, match="provides no information state"):
        outcome_sampling_mccfr.OutcomeSamplingSolver(game).iteration()
    with pytest.raises(pyspiel.SpielError, match="provides no information state"):
        external_sampling_mccfr.ExternalSamplingSolver(game).iteration()
    env = rl_environment.Environment(game)
    step = env.reset()
    player = step.observations["current_player"]
    assert len(step.observations["info_state"][player]) == encoding_for(
        load_game("krumme20", 2)).obs_size  # the observation tensor, as declared
    with pytest.raises(ValueError, match="information_state_tensor not supported"):
        rl_environment.Environment(
            game, observation_type=rl_environment.ObservationType.INFORMATION_STATE)


def test_openspiels_own_ismcts_bot_resamples_by_itself_and_refuses_information_state_keys(
) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game, state = _dealt("python_kartentisch_krass_kariert", 3)
    evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 3, use_observation_string=True,
                           random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()  # no resampler set: the state's own
    keyed_by_infostate = ismcts.ISMCTSBot(game, evaluator, 2.0, 3)
    with pytest.raises(pyspiel.SpielError, match="provides no information state"):
        keyed_by_infostate.step(state)
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.observation_string(player) == state.observation_string(player)


def test_evaluate_bots_refuses_openspiels_ismcts_and_plays_ours() -> None:
    """OpenSpiel's ISMCTSBot has no restart_at (``evaluate_bots`` refuses it); ours adds
    it and plays a whole game."""
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    game = pyspiel.load_game("python_kartentisch_krumme20", {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(1))
    theirs = ismcts.ISMCTSBot(game, evaluator, 2.0, 2, use_observation_string=True)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), [theirs, theirs],
                                    np.random.RandomState(0))
    ours = [kos.ISMCTSBot(game, evaluator, 2.0, 2, random_state=np.random.RandomState(s))
            for s in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), ours,
                                          np.random.RandomState(0))
    assert sorted(returns) == [0.0, 1.0]


def test_openspiel_ismcts_refuses_too_few_iterations() -> None:
    from kartentisch.bots.registry import make_bot

    game = load_game("casino", 2)
    for bad in ({"iterations": 1}, {"iterations": "many"}, {"uct_c": float("nan")}):
        with pytest.raises(ValueError, match="must be"):
            make_bot("openspiel-ismcts", game, 0, **bad)
