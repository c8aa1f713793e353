"""Search playouts play the heuristic bot's moves: one scoring, fed a light view of the state."""

from __future__ import annotations

import random

import pytest

from kartentisch.games.casino import Casino
from kartentisch.games.casino.heuristic import (
    HeuristicBot,
    HeuristicView,
    best_indices,
    score_actions,
)
from kartentisch.games.casino.rollout import rollout_action


@pytest.mark.parametrize(("players", "options"), [(2, {}), (2, {"sweeps": True}), (3, {})])
def test_rollout_action_plays_as_the_heuristic_bot(players: int,
                                                   options: dict[str, object]) -> None:
    game = Casino(players, options)
    checked = 0
    for seed in range(4):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.pack == 0:
            seat = state.current_player
            legal = state.legal_actions()
            ids = state.legal_action_ids()
            obs = state.observation(seat)
            # the view from the state scores exactly as the view from the observation
            from_obs = score_actions(HeuristicView.of_observation(obs), legal,
                                     game.options.sweeps)
            assert score_actions(HeuristicView.of_state(state), legal,
                                 game.options.sweeps) == from_obs
            best = {ids[i] for i in best_indices(from_obs)}
            bot_choice = HeuristicBot(game, rng.randrange(1000)).act(obs, legal)
            assert game.action_to_id(bot_choice) in best
            choice = rollout_action(state, ids, rng)
            assert choice in best
            if len(best) == 1:
                assert choice == game.action_to_id(bot_choice)
            checked += 1
            state.apply(legal[rng.randrange(len(legal))])  # random play: varied positions
    assert checked > 100


def test_rollout_scores_only_the_ids_given() -> None:
    game = Casino(2)
    state = game.new_initial_state(3)
    ids = state.legal_action_ids()
    assert game.rollout_action(state, ids, random.Random(1)) in ids
    for aid in ids:
        assert rollout_action(state, (aid,), random.Random(1)) == aid
    assert rollout_action(state, ids[:2], random.Random(1)) in ids[:2]


def test_the_view_reads_no_hidden_card() -> None:
    state = Casino(2).new_initial_state(8)
    view = HeuristicView.of_state(state)
    seat = state.current_player
    assert view.hand is state.hands[seat] and view.seat == seat
    assert not hasattr(view, "deck") and not hasattr(view, "hands")
