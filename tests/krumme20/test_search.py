"""Krumme20's search advice: playout evaluation, fast rollout policy, trusted steps."""

from __future__ import annotations

import random

from kartentisch.bots import make_bot
from kartentisch.games.krumme20 import Krumme20
from kartentisch.games.krumme20.actions import action_id
from kartentisch.games.krumme20.heuristic import HeuristicBot
from kartentisch.games.krumme20.rollout import rollout_action
from kartentisch.games.krumme20.search import win_chances


def test_win_chances_favour_the_leader_more_as_the_draw_pile_runs_out() -> None:
    early = win_chances([6, 2, 2], [3, 3, 3], 40)
    late = win_chances([6, 2, 2], [3, 3, 3], 0)
    assert abs(sum(early) - 1) < 1e-9 and abs(sum(late) - 1) < 1e-9
    assert early[0] > early[1] == early[2]
    assert late[0] > early[0] > 0.5
    assert late[0] > 0.9
    even = win_chances([3, 3, 3], [2, 4, 3], 20)
    assert even[1] > even[2] > even[0]  # a personal card is a chance to score


def test_evaluate_reads_score_piles_and_is_exact_at_the_end(build) -> None:
    state = build(hands=[["1/2"], ["4/1"], ["5/5"]], scores=[["5/5", "4/4"], [], ["1/1"]])
    values = state.game.evaluate(state)
    assert abs(sum(values) - 1) < 1e-9
    assert values[0] > values[2] > values[1]
    game = Krumme20(3)
    final = game.new_initial_state(4)
    rng = random.Random(4)
    while not final.is_terminal():
        ids = final.legal_action_ids()
        final.apply_id(ids[rng.randrange(len(ids))])
    assert game.evaluate(final) == final.returns()


def test_rollout_policy_makes_the_heuristics_choices() -> None:
    game = Krumme20(3)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        bots = [make_bot("heuristic", game, seat) for seat in range(3)]
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            chosen = bots[seat].act(state.observation(seat), legal)
            if len(legal) > 1:
                fast = rollout_action(state, state.legal_action_ids(), random.Random(0))
                assert fast == action_id(chosen), (seed, state.phase)
                checked += 1
            state.apply(chosen)
    assert checked > 100


def test_trusted_steps_get_the_heuristics_move_and_plays_are_searched(build) -> None:
    four = build(hands=[["2/4", "0/0"], ["4/1"], ["5/5"]])
    four.apply(four.game.parse_action("p1", four))  # a 4: sit out or pass
    game = four.game
    obs = four.observation(four.current_player)
    advice = game.search_candidates(obs, four.legal_action_ids())
    expected = HeuristicBot(game).act(obs, four.legal_actions())
    assert advice == [action_id(expected)] and game.format_action(expected) == "sitout"
    turn = build(hands=[["1/2", "1/5", "0/0"], ["4/1"], ["5/5"]])
    assert turn.phase == "turn"
    assert game.search_candidates(turn.observation(0), turn.legal_action_ids()) is None


def test_search_bots_with_krumme20_defaults_are_deterministic() -> None:
    game = Krumme20(3)
    state = game.new_initial_state(9)
    rng = random.Random(9)
    while len(state.legal_action_ids()) < 2 or state.phase != "turn":
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
    obs = state.observation(state.current_player)
    for name in ("ismcts", "pimc"):
        moves = {make_bot(name, game, 5, iterations=20).act(obs, state.legal_actions())
                 for _ in range(2)}
        assert len(moves) == 1
