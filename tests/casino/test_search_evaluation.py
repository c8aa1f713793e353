"""Casino's search advice: the hand horizon, expected pack points and the bots' defaults."""

from __future__ import annotations

import random

import pytest

from kartentisch.bots.registry import make_bot
from kartentisch.games.casino import Casino
from kartentisch.games.casino.evaluation import (
    expected_pack_points,
    hand_key,
    majority_chance,
    win_values,
)
from kartentisch.games.casino.state import score_pack

from .conftest import Setup, cards


def test_majority_chance_is_certain_without_cards_left() -> None:
    assert majority_chance(1, 0) == (1.0, 0.0)
    assert majority_chance(-2, 0) == (0.0, 1.0)
    assert majority_chance(0, 0) == (0.0, 0.0)
    assert majority_chance(5, 4) == (1.0, 0.0)  # the other side cannot catch up


def test_majority_chance_grows_with_the_lead_and_shrinks_with_the_cards_left() -> None:
    even_a, even_b = majority_chance(0, 30)
    assert even_a == pytest.approx(even_b)
    assert even_a + even_b < 1.0  # a tie scores for nobody
    leads = [majority_chance(lead, 30)[0] for lead in range(0, 22, 2)]
    assert leads == sorted(leads) and leads[-1] > 0.9
    assert majority_chance(4, 40)[0] < majority_chance(4, 10)[0]
    for lead, rest in ((1, 7), (2, 8), (3, 21), (0, 1)):
        ahead, behind = majority_chance(lead, rest)
        assert 0.0 <= behind <= ahead <= 1.0 and ahead + behind <= 1.0 + 1e-12


def test_hand_key_changes_when_new_cards_are_dealt() -> None:
    game = Casino(2)
    state = game.new_initial_state(4)
    start = hand_key(state)
    assert game.horizon_key(state) == start
    for _ in range(7):  # four cards each: the eighth play brings the next deal
        state.apply(state.legal_actions()[0])
        assert hand_key(state) == start
    state.apply(state.legal_actions()[0])
    assert hand_key(state) == (0, start[1] - 8)


def test_a_finished_count_matches_the_pack_score(setup: Setup) -> None:
    state = setup(hands=("", ""), deck="")
    rest = state.captured[1]
    state.captured = [rest[:30], rest[30:]]  # 52 cards captured: nothing left to guess
    state.sweeps = [1, 0]
    exact = score_pack(state.captured, state.sweeps, 2, state.game.side_of)["total"]
    assert expected_pack_points(state) == pytest.approx([float(p) for p in exact])


def test_captured_cards_count_as_chances_of_the_majorities(setup: Setup) -> None:
    state = setup(hands=("2h 3h", "4h 5h"), deck="")
    state.captured = [cards("3s 4s 5s 6s 3c 4c 5c 6c 7c 8c"), cards("3d 4d 5d 6d")]
    points = expected_pack_points(state)
    assert points[0] > points[1]  # more cards and more spades
    assert points[0] + points[1] < 4.0  # the majorities are not decided yet
    state.captured = [cards("3s 4s 5s 6s 3c 4c"), cards("7s 8s 9s Ts 3d 4d")]
    even = expected_pack_points(state)
    assert even[0] == pytest.approx(even[1])


def test_win_values_favour_the_expected_leader_and_sum_to_zero(setup: Setup) -> None:
    state = setup(hands=("2h 3h", "4h 5h"), deck="")
    state.captured = [cards("Ac Ad Ah"), cards("Kc")]
    values = win_values(state)
    assert values[0] > 0 > values[1] and sum(values) == pytest.approx(0.0)
    assert state.game.evaluate(state) == values


@pytest.mark.parametrize("name", ["ismcts", "pimc"])
def test_search_bots_with_casino_defaults_are_deterministic(name: str) -> None:
    game = Casino(2)

    def moves(seed: int) -> list[object]:
        state = game.new_initial_state(9)
        bot = make_bot(name, game, seed, iterations=16)
        out = []
        for _ in range(12):
            seat = state.current_player
            action = (bot.act(state.observation(seat), state.legal_actions()) if seat == 0
                      else state.legal_actions()[0])
            out.append(action)
            state.apply(action)
        return out

    random.seed(1)
    first = moves(5)
    random.seed(2)
    assert moves(5) == first


@pytest.mark.parametrize("name", ["ismcts", "pimc"])
def test_search_bots_take_the_big_casino(setup: Setup, name: str) -> None:
    state = setup(hands=("Td 3c 9h Kc", "4h 5h 6h 7h"), loose="Tc Qh 2d")
    game = state.game
    bot = make_bot(name, game, 3, iterations=200, anchor=None)
    action = bot.act(state.observation(0), state.legal_actions())
    assert action.card == cards("Td")[0] and cards("Tc")[0] in action.loose
