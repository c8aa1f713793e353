"""Casino on the shared state core: checked entry points, one error policy, fair deals."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

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
from kartentisch.core.registry import all_reasons
from kartentisch.games.casino import Build, Capture, Casino, CasinoState, Trail
from kartentisch.games.casino.cards import DECK, parse_card
from kartentisch.games.casino.reasons import REASONS
from kartentisch.games.casino.state import deal_order

from .conftest import refusal

C = parse_card
Setup = Callable[..., CasinoState]

BAD_INPUTS: list[object] = [
    object(), None, 7, -1, 2**80, 1.5, float("nan"), True, "7h -", b"7h", [1, 2], {"card": 1},
    (26,), Trail, Trail(52), Trail("7h"), Capture(C("7h"), [C("3c")]),  # type: ignore[arg-type]
    Build(C("2h"), 8, (C("6c"),), 0, "yes"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("bad", BAD_INPUTS, ids=lambda b: type(b).__name__)
def test_bad_actions_are_refused_cleanly(setup: Setup, bad: object) -> None:
    state = setup(hands=["7h 2h 8s", "Kc Kd Qc"], loose="3c 4d 6c")
    error = refusal(state, bad)
    assert isinstance(error, InvalidActionError) and error.code == "action.invalid"
    json.dumps(error.to_json())


@pytest.mark.parametrize("bad", [b for b in BAD_INPUTS if type(b) is not int]
                         + [-1, 2**80, Casino(2).num_distinct_actions])
def test_bad_ids_are_refused_cleanly(setup: Setup, bad: object) -> None:
    state = setup(hands=["7h 2h 8s", "Kc Kd Qc"], loose="3c 4d 6c")
    before = state.to_json()
    with pytest.raises(InvalidActionError) as info:
        state.apply_id(bad)  # type: ignore[arg-type]
    assert info.value.code == "action.bad_id" and state.to_json() == before


def test_seat_checks(setup: Setup) -> None:
    state = setup(hands=["7h 2h 8s", "Kc Kd Qc"], loose="3c 4d 6c")
    before = state.to_json()
    with pytest.raises(NotYourTurnError):
        state.apply(Trail(C("Kc")), seat=1)
    for seat in (2, -1, True, "0", None.__class__):
        with pytest.raises(InvalidSeatError):
            state.apply(Trail(C("7h")), seat=seat)  # type: ignore[arg-type]
    assert state.to_json() == before
    state.apply(Trail(C("7h")), seat=0)
    assert state.current_player == 1


def test_messages_name_the_cards(setup: Setup) -> None:
    state = setup(hands=["7h 2h 8s", "Kc Kd Qc"], loose="3c 4d 6c")
    error = refusal(state, Trail(C("Kc")))
    assert str(error).startswith("'Kc -': Kc is not in your hand (2h, 7h, 8s)")
    assert error.params == {"action": "Kc -", "card": "Kc", "hand": ["2h", "7h", "8s"],
                            "legal": []}


def test_illegal_actions_leave_the_state_alone(setup: Setup) -> None:
    state = setup(hands=["7h 2h 8s", "Kc Kd Qc"], loose="3c 4d 6c")
    for action in (Trail(C("Kc")), Capture(C("7h"), (C("3c"),)), Build(C("2h"), 9, (C("6c"),))):
        error = refusal(state, action)
        assert isinstance(error, IllegalActionError) and error.code.startswith("casino.")
        assert error.code in REASONS and error.code in all_reasons()
        aid = state.game.action_to_id(action)
        before = state.to_json()
        with pytest.raises(IllegalActionError) as info:
            state.apply_id(aid)
        assert info.value.code == error.code and state.to_json() == before


def test_legal_ids_are_immutable_and_shared_safely(setup: Setup) -> None:
    state = setup(hands=["7h 2h 8s", "Kc Kd Qc"], loose="3c 4d 6c")
    ids = state.legal_action_ids()
    assert type(ids) is tuple
    listed = state.legal_actions()
    listed.clear()  # a fresh list each time: emptying it changes nothing
    assert state.legal_actions() and state.legal_action_ids() == ids
    clone = state.clone()
    clone.apply_id(ids[0])
    assert state.legal_action_ids() == ids


def test_game_over_and_seeds() -> None:
    game = Casino(2)
    for seed in (-1, 2**53, True, 1.0, "3"):
        with pytest.raises(InvalidSeedError):
            game.new_initial_state(seed)  # type: ignore[arg-type]
    state = game.new_initial_state(2**53 - 1)
    rng = random.Random(1)
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.randrange(len(ids))])
    assert state.legal_action_ids() == () and state.legal_actions() == []
    with pytest.raises(GameOverError):
        state.apply(Trail(0))
    with pytest.raises(GameOverError):
        state.apply_id(0)
    with pytest.raises(GameOverError):
        game.parse_action("7h -", state)


def test_every_code_has_a_template_with_plain_params() -> None:
    assert all(code.startswith("casino.") for code in REASONS)
    assert Casino.reasons is REASONS


def test_deals_are_uniform() -> None:
    """Chi-square of where card 0 lands, and of the first card dealt, over 4000 seeds."""
    seeds = 4000
    where = [0] * 52
    first = [0] * 52
    for seed in range(seeds):
        deck = deal_order(seed, 0)
        assert sorted(deck) == list(DECK)
        where[deck.index(0)] += 1
        first[deck[-1]] += 1  # cards are dealt from the end
    expected = seeds / 52
    for counts in (where, first):
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        # 51 degrees of freedom: P(chi2 > 90) is about 0.0006 for a uniform shuffle
        assert chi2 < 90, chi2
    assert deal_order(7, 0) != deal_order(7, 1) != deal_order(8, 1)


def test_errors_are_kartentisch_errors(setup: Setup) -> None:
    state = setup(hands=["7h 2h 8s", "Kc Kd Qc"], loose="3c 4d 6c")
    before = state.to_json()
    for text in ("", "zz", "7h x q", "9c -", "7h x 5c", "7h + a = 11", "\x00", "7h" * 1000,
                 None, 7, b"7h -", ["7h -"]):
        with pytest.raises(KartentischError):
            state.game.parse_action(text, state)  # type: ignore[arg-type]
    assert state.to_json() == before
