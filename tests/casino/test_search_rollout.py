"""The state-based rollout move agrees with the heuristic bot it stands in for."""

from __future__ import annotations

import random

import pytest

from kartentisch.games.casino import Casino
from kartentisch.games.casino.heuristic import HeuristicBot
from kartentisch.games.casino.rollout import heuristic_scores, rollout_action


@pytest.mark.parametrize("options", [{}, {"sweeps": True}])
def test_rollout_action_plays_as_the_heuristic_bot(options: dict[str, object]) -> None:
    game = Casino(2, options)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.pack == 0:
            seat = state.current_player
            legal = state.legal_actions()
            ids = state.legal_action_ids()
            scores = heuristic_scores(state, legal)
            top = max(scores)
            best = {game.action_to_id(a) for a, s in zip(legal, scores, strict=True)
                    if s >= top - 1e-9}
            bot_choice = HeuristicBot(game, rng.randrange(1000)).act(
                state.observation(seat), legal)
            assert game.action_to_id(bot_choice) in best
            choice = rollout_action(state, ids, rng)
            assert choice in best
            if len(best) == 1:
                assert choice == game.action_to_id(bot_choice)
            checked += 1
            state.apply(legal[rng.randrange(len(legal))])  # random play: varied positions
    assert checked > 200


def test_game_hook_uses_the_rollout_action() -> None:
    game = Casino(2)
    state = game.new_initial_state(3)
    ids = state.legal_action_ids()
    assert game.rollout_action(state, ids, random.Random(1)) in ids
