"""The match driver (kartentisch.bots.match): one loop for play, simulate and arena."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kartentisch.bots.base import RandomBot
from kartentisch.bots.match import BotError, GameOutcome, needs_observation, play_match
from kartentisch.bots.registry import make_bot
from kartentisch.core.errors import KartentischError
from kartentisch.core.protocol import State
from kartentisch.core.registry import load_game

GAMES = [("krass-kariert", 4), ("krass-kariert", 3), ("casino", 2), ("krumme20", 3)]


def _old_loop(game: Any, seed: int, bot_seeds: list[int]) -> State[Any, Any]:
    """Random play as every loop did it before the driver: observation and actions."""
    state = game.new_initial_state(seed)
    bots = [RandomBot(game, s) for s in bot_seeds]
    while not state.is_terminal():
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_random_bots_play_the_same_game_on_ids(name: str, players: int) -> None:
    game = load_game(name, players, {})
    for seed in range(4):
        bot_seeds = [seed * 10 + s for s in range(players)]
        expected = _old_loop(game, seed, bot_seeds)
        outcome = play_match(game, seed, [RandomBot(game, s) for s in bot_seeds])
        assert outcome.state is not None
        assert outcome.state.history == expected.history
        assert outcome.returns == tuple(expected.returns())
        assert outcome.actions == len(expected.history)
        assert outcome.finished


def test_a_bot_that_needs_no_observation_gets_none(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game("krass-kariert", 4, {})
    state = game.new_initial_state(3)

    def no_observation(seat: Any) -> Any:
        raise AssertionError("an observation was built for a random bot")

    monkeypatch.setattr(state, "observation", no_observation)
    assert not needs_observation(RandomBot())
    outcome = play_match(game, 3, [RandomBot(game, s) for s in range(4)], state=state)
    assert outcome.state is state and state.is_terminal()


def test_bots_that_look_get_their_own_observation() -> None:
    game = load_game("krass-kariert", 3, {})
    seen: list[tuple[int, int]] = []

    class Looking:
        def __init__(self, seat: int):
            self.seat, self.inner = seat, RandomBot(None, seat)

        def act(self, observation: Any, legal: Any) -> Any:
            seen.append((self.seat, observation.seat))
            return self.inner.act(observation, legal)

    outcome = play_match(game, 1, [Looking(s) for s in range(3)])
    assert seen and all(bot == viewer for bot, viewer in seen)
    assert len(seen) == outcome.actions


def test_timing_and_the_move_callback() -> None:
    game = load_game("krumme20", 3, {})
    moves: list[tuple[int, Any]] = []
    outcome = play_match(game, 5, [make_bot("heuristic", game, 1), RandomBot(game, 2),
                                   RandomBot(game, 3)],
                         timed=True, on_move=lambda state, seat, action: moves.append(
                             (seat, action)))
    assert outcome.move_seconds is not None
    assert outcome.actions == len(moves)
    assert all(t >= 0 for seat in outcome.move_seconds for t in seat)
    counts = [sum(1 for s, _ in moves if s == seat) for seat in range(3)]
    # The heuristic bot is timed at every move; random bots (ids only) are not timed.
    assert [len(t) for t in outcome.move_seconds] == [counts[0], 0, 0]
    assert counts[0] > 0


class _StateSeat:
    """A chooser given the state (as the human at the keyboard is)."""

    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.calls = 0

    def choose(self, state: State[Any, Any]) -> Any:
        self.calls += 1
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]


def test_a_state_chooser_is_given_the_state() -> None:
    game = load_game("casino", 2, {})
    human = _StateSeat()
    outcome = play_match(game, 4, [human, RandomBot(game, 1)])
    assert outcome.finished and human.calls > 0


class _BadIds:
    needs_observation = False

    def __init__(self, answer: Any):
        self.answer = answer

    def act(self, observation: Any, legal: Any) -> Any:
        assert observation is None
        return self.answer


@pytest.mark.parametrize("answer", [10**9, -1, "3", 2.0, None])
def test_an_illegal_id_is_refused_and_the_state_kept(answer: Any) -> None:
    game = load_game("krass-kariert", 3, {})
    state = game.new_initial_state(2)
    before = [state.to_json()]  # the position after the last good move

    def keep(position: State[Any, Any], seat: int, action: Any) -> None:
        before[0] = position.to_json()

    with pytest.raises(BotError, match="the bot liar in seat 0 played an illegal") as caught:
        play_match(game, 2, [_BadIds(answer), RandomBot(), RandomBot()], state=state,
                   labels=["liar", "r", "r2"], on_move=keep)
    assert caught.value.code == "bot.illegal_action"
    assert {key: caught.value.params[key] for key in ("bot", "seat", "seed")} == {
        "bot": "liar", "seat": 0, "seed": 2}
    assert state.to_json() == before[0]
    assert state.current_player == 0


def test_an_illegal_action_is_refused() -> None:
    game = load_game("krass-kariert", 3, {})

    class Wrong:
        def act(self, observation: Any, legal: Any) -> Any:
            from kartentisch.games.krass_kariert.actions import TakeReserve

            return TakeReserve(0, 17)

    with pytest.raises(KartentischError, match="seat 0 played an illegal action"):
        play_match(game, 2, [Wrong(), RandomBot(), RandomBot()])


def test_seat_count_and_endless_games_are_refused() -> None:
    game = load_game("krass-kariert", 3, {})
    with pytest.raises(KartentischError, match="3 seats need 3 choosers"):
        play_match(game, 1, [RandomBot()])
    with pytest.raises(KartentischError, match="did not end after 5 actions"):
        play_match(game, 1, [RandomBot(), RandomBot(), RandomBot()], max_actions=5)


def test_the_outcome_is_one_type() -> None:
    game = load_game("krass-kariert", 3, {})
    outcome = play_match(game, 1, [RandomBot(), RandomBot(), RandomBot()])
    assert isinstance(outcome, GameOutcome)
    assert outcome.seed == 1 and outcome.move_seconds is None
