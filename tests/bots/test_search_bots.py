"""PIMC and ISMCTS: determinism, legality, observation-only access, widening, KK evaluation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kartentisch.bots.ismcts import ISMCTSBot, Node
from kartentisch.bots.pimc import PIMCBot
from kartentisch.bots.registry import make_bot, parse_params
from kartentisch.core.protocol import State
from kartentisch.core.registry import list_games, load_game
from kartentisch.games.krass_kariert.search import evaluate as kk_evaluate

FAST: dict[str, Any] = {"iterations": 12, "rollout": "random"}


def _position(game: Any, seed: int, plies: int) -> Any:
    """A KK-style mid-game position reached by random play."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def _moves(bot_cls: type[Any], seed: int) -> list[Any]:
    game = load_game("krass-kariert", 4)
    bot = bot_cls(game, seed, **FAST)
    out = []
    for plies in (0, 7, 19, 33):
        state = _position(game, 5, plies)
        seat = state.current_player
        out.append(bot.act(state.observation(seat), state.legal_actions()))
    return out


@pytest.mark.parametrize("bot_cls", [ISMCTSBot, PIMCBot])
def test_fixed_seed_and_iterations_give_identical_moves(bot_cls: type[Any]) -> None:
    random.seed(1)
    first = _moves(bot_cls, 11)
    random.seed(2)  # the global generator must not matter
    assert _moves(bot_cls, 11) == first


@pytest.mark.parametrize("name", ["ismcts", "pimc"])
@pytest.mark.parametrize("game_name", list_games())
def test_search_bots_play_whole_games_legally(name: str, game_name: str) -> None:
    game = load_game(game_name)
    state = game.new_initial_state(3)
    bots = [make_bot(name if seat == 0 else "random", game, seat, **(FAST if seat == 0 else {}))
            for seat in range(game.players)]
    moves = 0
    while not state.is_terminal() and moves < 400:
        seat = state.current_player
        legal = state.legal_actions()
        action = bots[seat].act(state.observation(seat), legal)
        assert action in legal
        state.apply(action)  # validates: raises on an illegal action
        moves += 1
    assert moves > 0


class SpyGame:
    """Wraps a game and records which of its attributes a bot uses."""

    def __init__(self, game: Any):
        self._game = game
        self.used: set[str] = set()
        self.sampled_from: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        self.used.add(name)
        return getattr(self._game, name)

    def sample_world(self, observation: Any, rng: random.Random) -> Any:
        self.used.add("sample_world")
        self.sampled_from.append(observation)
        return self._game.sample_world(observation, rng)


@pytest.mark.parametrize("bot_cls", [ISMCTSBot, PIMCBot])
def test_bots_see_only_the_observation(bot_cls: type[Any]) -> None:
    game = load_game("krass-kariert", 4)
    state = _position(game, 8, 12)
    seat = state.current_player
    observation = state.observation(seat)
    legal = state.legal_actions()
    spy = SpyGame(game)
    bot = bot_cls(spy, 4, **FAST)
    # The real state is wrecked before the bot acts: a bot holding it would notice.
    state.hands = [[] for _ in state.hands]
    state.draw_pile = []
    action = bot.act(observation, legal)
    assert action in legal
    assert not isinstance(observation, State)
    assert spy.sampled_from and all(o is observation for o in spy.sampled_from)
    forbidden = {"new_initial_state", "state_from_json"}
    assert not spy.used & forbidden, spy.used


def test_tree_nodes_use_slots_and_widening_limits_children() -> None:
    assert not hasattr(Node(None, -1), "__dict__")
    game = load_game("krass-kariert", 4)
    # A follower with reserves has many placement actions.
    state = _position(game, 2, 1)
    seat = state.current_player
    legal = state.legal_actions()
    assert len(legal) > 10
    bot = ISMCTSBot(game, 1, iterations=16, rollout="random", widening=1.0, use_prior=False)
    root = bot.search(state.observation(seat))
    assert root.visits == 16
    assert len(root.children) <= 1 + 16 ** 0.5
    wide = ISMCTSBot(game, 1, iterations=16, rollout="random", widening=0.0, use_prior=False)
    assert len(wide.search(state.observation(seat)).children) == min(16, len(legal))


def test_visits_are_backed_up_along_the_path() -> None:
    game = load_game("krass-kariert", 3)
    state = _position(game, 4, 3)
    bot = ISMCTSBot(game, 2, iterations=30, rollout="random")
    root = bot.search(state.observation(state.current_player))
    assert root.visits == 30
    assert sum(c.visits for c in root.children.values()) == 30
    for child in root.children.values():
        assert child.player == state.current_player
        assert child.avail >= child.visits


def test_kk_evaluation_prefers_more_chips_and_is_zero_sum() -> None:
    game = load_game("krass-kariert", 4)
    state = game.new_initial_state(1)
    state.chips = [3, 3, 3, 3]
    even = kk_evaluate(state)
    assert even == pytest.approx([0.0] * 4, abs=1e-9)
    state.chips = [0, 3, 2, 3]
    values = kk_evaluate(state)
    assert sum(values) == pytest.approx(0.0, abs=1e-9)
    assert values[0] < values[2] < values[1] == pytest.approx(values[3])


def test_step_budget_stops_the_search_early() -> None:
    game = load_game("krass-kariert", 4)
    state = _position(game, 6, 5)
    bot = ISMCTSBot(game, 1, iterations=10_000, rollout="random", max_steps=300)
    bot.search(state.observation(state.current_player))
    assert 1 <= bot.last_iterations < 10_000


def test_registry_builds_bots_with_parameters() -> None:
    game = load_game("krass-kariert", 4)
    bot = make_bot("ismcts", game, 3, iterations=7)
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 7
    assert isinstance(make_bot("pimc", game, 3), PIMCBot)
    assert parse_params("pimc:iterations=5:rollout=random") == (
        "pimc", {"iterations": "5", "rollout": "random"})
    with pytest.raises(ValueError, match="key=value"):
        parse_params("pimc:fast")


@pytest.mark.parametrize("bot_cls", [ISMCTSBot, PIMCBot])
def test_a_huge_anchor_keeps_the_heuristics_favourite(bot_cls: type[Any]) -> None:
    from kartentisch.games.krass_kariert.heuristic import HeuristicBot

    game = load_game("krass-kariert", 4)
    scorer = HeuristicBot(game)
    for plies in (0, 9, 21):
        state = _position(game, 13, plies)
        observation = state.observation(state.current_player)
        legal = state.legal_actions()
        scores = [scorer.score(observation, a) for a in legal]
        bot = bot_cls(game, 2, iterations=12, rollout="random", anchor=1e9)
        assert scores[legal.index(bot.act(observation, legal))] == min(scores)
