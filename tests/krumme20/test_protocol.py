"""Krumme20 on the shared state core: checked entry points, immutable legal ids, clones."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from kartentisch.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidSeatError,
    InvalidSeedError,
    KartentischError,
    NotYourTurnError,
)
from kartentisch.core.rng import SEED_MAX
from kartentisch.games.krass_kariert.actions import Concede
from kartentisch.games.krumme20 import Claim33, ClaimSum, K20State, Krumme20, Pass, Play, Take
from kartentisch.games.krumme20.actions import ACTIONS, NUM_ACTIONS
from kartentisch.games.krumme20.cards import deck_pairs
from kartentisch.games.krumme20.state import PASS_ID


def snapshot(state: K20State) -> tuple[Any, ...]:
    """Everything a refused call must leave as it was."""
    return (json.dumps(state.to_json()), len(state.history), len(state.events),
            state.legal_action_ids())


def mid_game(seed: int = 3, moves: int = 20) -> K20State:
    state = Krumme20(3).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
    return state


def test_legal_ids_are_an_immutable_tuple_the_state_keeps() -> None:
    state = Krumme20(3).new_initial_state(1)
    ids = state.legal_action_ids()
    assert isinstance(ids, tuple) and ids
    with pytest.raises(AttributeError):
        ids.clear()  # type: ignore[attr-defined]
    listed = list(ids)
    listed.clear()  # a caller's copy: the state keeps its moves
    assert state.legal_action_ids() == ids and state.legal_actions()
    twin = state.clone()
    assert twin.legal_action_ids() == ids
    state.apply_id(ids[0])
    assert twin.legal_action_ids() == ids  # the clone's moves did not change with the state


BAD_IDS: list[Any] = [10**6, -1, True, False, NUM_ACTIONS, 1.0, "1", None, 10**5000, [0]]


@pytest.mark.parametrize("bad", BAD_IDS, ids=[f"bad{i}" for i in range(len(BAD_IDS))])
def test_apply_id_refuses_what_is_not_an_id(bad: Any) -> None:
    state = mid_game()
    before = snapshot(state)
    with pytest.raises(InvalidActionError) as caught:
        state.apply_id(bad)
    assert caught.value.code == "action.bad_id"
    assert len(str(caught.value)) < 200
    assert snapshot(state) == before


def test_minus_one_is_not_pass() -> None:
    state = Krumme20(3).new_initial_state(1)
    assert state.phase == "turn"  # a pass would be illegal anyway: the id must not even parse
    with pytest.raises(InvalidActionError):
        state.apply_id(-1)
    while state.phase == "turn":
        ids = state.legal_action_ids()
        state.apply_id(ids[0])
    assert PASS_ID in state.legal_action_ids()
    before = snapshot(state)
    with pytest.raises(InvalidActionError):
        state.apply_id(-1)
    assert snapshot(state) == before


@pytest.mark.parametrize("bad", [Play(True), Play(10**6), Play(-1), Play(1.0), ClaimSum(1),
                                 Claim33((True, 1, 2)), Claim33([0, 1, 2]), Take(-1, 0),
                                 "p1", None, 0, [Play(0)], Concede(), object()])
def test_apply_refuses_what_is_not_an_action(bad: Any) -> None:
    state = Krumme20(3).new_initial_state(2)
    before = snapshot(state)
    with pytest.raises(InvalidActionError) as caught:
        state.apply(bad)
    assert caught.value.code == "action.invalid"
    assert snapshot(state) == before


def test_illegal_and_seat_checks_leave_the_state_alone() -> None:
    state = mid_game()
    mover = state.current_player
    other = (mover + 1) % 3
    legal = state.legal_actions()[0]
    before = snapshot(state)
    for call, error in [
        (lambda: state.apply(legal, seat=other), NotYourTurnError),
        (lambda: state.apply_id(state.legal_action_ids()[0], seat=other), NotYourTurnError),
        (lambda: state.apply(legal, seat=3), InvalidSeatError),
        (lambda: state.apply(legal, seat=True), InvalidSeatError),
        (lambda: state.apply(legal, seat=-1), InvalidSeatError),
        (lambda: state.apply(ACTIONS[next(i for i in range(NUM_ACTIONS)
                                          if i not in state.legal_action_ids())]),
         IllegalActionError),
    ]:
        with pytest.raises(error):
            call()
        assert snapshot(state) == before
    state.apply(legal, seat=mover)
    assert state.history[-1] == legal


def test_seat_check_accepts_the_mover() -> None:
    state = mid_game()
    before = len(state.history)
    state.apply_id(state.legal_action_ids()[0], seat=state.current_player)
    assert len(state.history) == before + 1


def test_finished_game_refuses_everything() -> None:
    state = mid_game(moves=0)
    rng = random.Random(1)
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
    before = snapshot(state)
    for call in (lambda: state.apply(Pass()), lambda: state.apply_id(PASS_ID),
                 lambda: state.apply_id(10**6), lambda: state.apply(Pass(), seat=0)):
        with pytest.raises(GameOverError):
            call()
        assert snapshot(state) == before
    assert state.legal_action_ids() == () and state.legal_actions() == []


def test_clone_shares_nothing_mutable() -> None:
    state = mid_game(moves=30)
    twin = state.clone()
    assert twin.to_json() == state.to_json()
    for name in K20State.__slots__:
        mine, theirs = getattr(state, name), getattr(twin, name)
        if isinstance(mine, list):
            assert mine is not theirs, name
            for a, b in zip(mine, theirs, strict=True):
                if isinstance(a, list):
                    assert a is not b, name
    before = state.to_json()
    twin.hands[0].clear()
    twin.face[0] = 9
    twin.queue.append(("foul", 1))
    twin.history.clear()
    twin.events.clear()
    rng = random.Random(2)
    other = state.clone()
    while not other.is_terminal():
        ids = other.legal_action_ids()
        other.apply_id(ids[rng.randrange(len(ids))])
    assert state.to_json() == before and state.history and state.events


@pytest.mark.parametrize("seed", [-1, 2**53, 1.5, True, "7", None, 10**400],
                         ids=["minus", "2^53", "float", "bool", "text", "none", "huge"])
def test_seeds_are_checked(seed: Any) -> None:
    with pytest.raises(InvalidSeedError):
        Krumme20(3).new_initial_state(seed)


def test_largest_seed_deals_and_round_trips() -> None:
    game = Krumme20(3)
    state = game.new_initial_state(SEED_MAX)
    assert state.seed == SEED_MAX
    assert game.state_from_json(json.loads(json.dumps(state.to_json()))).to_json() == \
        state.to_json()


def test_odd_input_anywhere_gives_a_kartentisch_error() -> None:
    state = Krumme20(3).new_initial_state(5)
    before = snapshot(state)
    for call in (lambda: state.apply(Play(0), seat="0"),  # type: ignore[arg-type]
                 lambda: state.apply_id(0, seat=2.0),  # type: ignore[arg-type]
                 lambda: state.game.parse_action("\x00", state),
                 lambda: state.game.state_from_json([]),  # type: ignore[arg-type]
                 lambda: state.game.state_from_json({"format": None})):
        with pytest.raises(KartentischError):
            call()
        assert snapshot(state) == before


# ------------------------------------------------------------------ the deal (core.rng)
def test_deal_is_uniform_enough() -> None:
    """Which pair type lands in each place, and which side faces up, over many seeds.

    Chi-square of the first card's pair type (21 types, 20 degrees of freedom: the 0.1 %
    point is 45.3) and a two-sided check of the orientation of mixed cards.
    """
    game = Krumme20(3)
    seeds = 800
    first: Counter[tuple[int, int]] = Counter()
    last: Counter[tuple[int, int]] = Counter()
    up_low = mixed = 0
    for seed in range(seeds):
        state = game.new_initial_state(seed)
        pairs = [(min(f, b), max(f, b)) for f, b in zip(state.face, state.back, strict=True)]
        first[pairs[0]] += 1
        last[pairs[-1]] += 1
        for f, b in zip(state.face, state.back, strict=True):
            if f != b:
                mixed += 1
                up_low += f < b
    deck = Counter(deck_pairs("pairs"))
    for counts in (first, last):
        chi2 = sum((counts[p] - seeds * k / 54) ** 2 / (seeds * k / 54) for p, k in deck.items())
        assert chi2 < 45.3, chi2
    assert abs(up_low / mixed - 0.5) < 4 * (0.25 / mixed) ** 0.5
