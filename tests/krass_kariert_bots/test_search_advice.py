"""Search advice for Krass Kariert: fast heuristic rollouts and the candidate moves."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kartentisch import load_game
from kartentisch.bots.ismcts import ISMCTSBot
from kartentisch.bots.pimc import PIMCBot
from kartentisch.games.krass_kariert.actions import ACTIONS, InsertDrawn, TakeReserve
from kartentisch.games.krass_kariert.heuristic import HeuristicBot
from kartentisch.games.krass_kariert.rollout import heuristic_action, rollout_deal
from kartentisch.games.krass_kariert.search import CANDIDATES, search_candidates

GAME = load_game("krass-kariert", 4)


def _positions(seed: int, limit: int = 400) -> list[Any]:
    """Every state of one heuristic self-play deal (copies), first to last."""
    state = GAME.new_initial_state(seed)
    bots = [HeuristicBot(GAME, seed + s) for s in range(4)]
    out = []
    while state.deal == 0 and not state.is_terminal() and len(out) < limit:
        out.append(state.clone())
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    return out


def test_rollout_action_is_one_of_the_heuristics_best_moves() -> None:
    scorer = HeuristicBot(GAME)
    rng = random.Random(3)
    checked = 0
    for state in _positions(21) + _positions(22):
        ids = state.legal_action_ids()
        if len(ids) < 2:
            continue
        observation = state.observation(state.current_player)
        scores = {aid: scorer.score(observation, ACTIONS[aid]) for aid in ids}
        chosen = heuristic_action(state, ids, rng)
        assert chosen in ids
        assert scores[chosen] <= min(scores.values()) + 1e-9
        assert GAME.rollout_action(state, ids, rng) in ids
        checked += 1
    assert checked > 10


def test_rollout_deal_ends_the_deal_and_repeats_with_the_seed() -> None:
    start = _positions(5)[6]
    first, second = start.clone(), start.clone()
    rollout_deal(first, random.Random(9))
    rollout_deal(second, random.Random(9))
    assert first.deal == 1 or first.is_terminal()
    assert first.chips == second.chips and first.history == second.history
    assert sum(first.chips) == sum(start.chips) - 1


def test_candidates_start_with_the_favourite_and_skip_trusted_moves() -> None:
    scorer = HeuristicBot(GAME)
    kinds = set()
    for state in _positions(31) + _positions(32):
        ids = state.legal_action_ids()
        observation = state.observation(state.current_player)
        advised = search_candidates(observation, ids)
        scores = [scorer.score(observation, ACTIONS[a]) for a in advised]
        assert set(advised) <= set(ids)
        assert 1 <= len(advised) <= CANDIDATES
        assert scores == sorted(scores)
        assert scores[0] == min(scorer.score(observation, ACTIONS[a]) for a in ids)
        first = ACTIONS[advised[0]]
        if isinstance(first, InsertDrawn | TakeReserve):
            assert len(advised) == 1
            kinds.add(type(first))
        elif len(ids) > 1:
            assert len(advised) == min(len(ids), CANDIDATES)
    assert InsertDrawn in kinds


@pytest.mark.parametrize("bot_cls", [ISMCTSBot, PIMCBot])
def test_search_bots_play_a_single_candidate_without_search(bot_cls: type[Any]) -> None:
    state = next(s for s in _positions(31) if s.phase == "draw" and len(s.legal_action_ids()) > 1)
    observation = state.observation(state.current_player)
    legal = state.legal_actions()
    bot = bot_cls(GAME, 1, iterations=20)
    action = bot.act(observation, legal)
    assert bot.last_iterations == 0
    assert GAME.action_to_id(action) == search_candidates(
        observation, state.legal_action_ids())[0]


@pytest.mark.parametrize("bot_cls", [ISMCTSBot, PIMCBot])
def test_search_stays_within_the_candidates_and_is_deterministic(bot_cls: type[Any]) -> None:
    state = next(s for s in _positions(41)
                 if len(search_candidates(s.observation(s.current_player),
                                          s.legal_action_ids())) > 2)
    observation = state.observation(state.current_player)
    advised = search_candidates(observation, state.legal_action_ids())
    moves = [bot_cls(GAME, 7, iterations=15).act(observation, state.legal_actions())
             for _ in range(2)]
    assert moves[0] == moves[1]
    assert GAME.action_to_id(moves[0]) in advised


def test_ismcts_depth_one_grows_only_root_children() -> None:
    state = next(s for s in _positions(41)
                 if len(search_candidates(s.observation(s.current_player),
                                          s.legal_action_ids())) > 2)
    bot = ISMCTSBot(GAME, 3, iterations=12, depth=1, widening=0.0)
    root = bot.search(state.observation(state.current_player))
    assert root.visits == 12
    assert root.children and all(not c.children for c in root.children.values())
