"""A state survives pickling (and ``copy.deepcopy``) in both modes: the copy is the same
position, offers the same moves and plays on exactly as the original does.

Why: OpenSpiel's simulation checks and process pools pickle states; a class compiled with
mypyc cannot be pickled the default way (see ``KKState.__reduce__``).
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from kartentisch.games.krass_kariert import KKState, KrassKariert
from kartentisch.games.krass_kariert.actions import ACTIONS
from kartentisch.games.krass_kariert.state import DRAW, OVER, PLAY


def _same(a: KKState, b: KKState) -> None:
    assert a.to_json() == b.to_json()
    assert a.legal_action_ids() == b.legal_action_ids()
    assert a.legal_actions() == b.legal_actions()
    assert a.current_player == b.current_player
    assert a.history == b.history
    assert a.history_ids() == b.history_ids()
    assert a.events == b.events
    assert a.returns() == b.returns()
    assert str(a) == str(b)


def _positions(game: KrassKariert, seed: int) -> list[KKState]:
    """Positions of one random game: its start, in every phase, and its end."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    out = [state.clone()]
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.randrange(len(ids))])
        if rng.random() < 0.05 or state.phase == DRAW:
            out.append(state.clone())
    out.append(state)
    return out


def _play_on(state: KKState, seed: int) -> KKState:
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("copier", ["pickle", "deepcopy"])
def test_round_trip_is_the_same_state(players: int, copier: str) -> None:
    game = KrassKariert(players, options={"x_with_x": players == 4})
    phases = set()
    for seed in range(3):
        for state in _positions(game, seed):
            phases.add(state.phase)
            if copier == "pickle":
                other = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
            else:
                other = copy.deepcopy(state)
            assert type(other) is KKState and other is not state
            _same(state, other)
            # Nothing mutable is shared: playing the copy on leaves the original alone.
            before = state.to_json()
            if not state.is_terminal():
                _same(_play_on(state.clone(), seed), _play_on(other, seed))
                assert state.to_json() == before
    assert phases == {PLAY, DRAW, OVER}


def test_unpickled_history_holds_the_shared_actions() -> None:
    game = KrassKariert(4)
    state = _positions(game, 1)[-1]
    other = pickle.loads(pickle.dumps(state))
    assert other.history and all(a is ACTIONS[i]
                                 for a, i in zip(other.history, other.history_ids(),
                                                 strict=True))
    assert other.phase is OVER


def test_every_protocol_and_assigned_history_and_events() -> None:
    game = KrassKariert(3)
    state = game.new_initial_state(11)
    for _ in range(7):
        state.apply_unchecked(state.legal_action_ids()[0])
    state.history = list(state.history)  # assigned, not decoded from the log
    state.events = list(state.events)
    state.apply_unchecked(state.legal_action_ids()[-1])
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        _same(state, pickle.loads(pickle.dumps(state, protocol=protocol)))
