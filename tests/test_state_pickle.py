"""Every game's state survives pickling and ``copy.deepcopy`` in both modes: the copy is the
same position, offers the same moves and plays on exactly as the original does.

Why: OpenSpiel's simulation checks and process pools pickle states, and a class compiled
with mypyc cannot be pickled the default way (each state has a ``__reduce__``).
Krass Kariert's own test (tests/krass_kariert/test_pickle.py) also covers its phases.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from kartentisch import load_game


def _fingerprint(state: Any) -> tuple[Any, ...]:
    return (state.to_json(), state.legal_action_ids(), state.legal_actions(),
            state.current_player, state.history, list(state.history_ids()), state.events,
            state.returns() if state.is_terminal() else None, str(state))


def _play_on(state: Any, seed: int) -> Any:
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
@pytest.mark.parametrize("copier", ["pickle", "deepcopy"])
def test_a_copied_state_is_the_same_and_plays_on_the_same(name: str, copier: str) -> None:
    game = load_game(name)
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        positions = [state.clone()]
        while not state.is_terminal():
            ids = state.legal_action_ids()
            state.apply_unchecked(ids[rng.randrange(len(ids))])
            if rng.random() < 0.04:
                positions.append(state.clone())
        positions.append(state)
        for position in positions:
            if copier == "pickle":
                other = pickle.loads(pickle.dumps(position, protocol=pickle.HIGHEST_PROTOCOL))
            else:
                other = copy.deepcopy(position)
            assert type(other) is type(position) and other is not position
            assert _fingerprint(other) == _fingerprint(position)
            if not position.is_terminal():
                before = position.to_json()
                assert (_fingerprint(_play_on(position.clone(), seed))
                        == _fingerprint(_play_on(other, seed)))
                assert position.to_json() == before  # nothing mutable was shared


def test_a_krumme20_pickle_holds_every_field_of_the_position() -> None:
    """Its fields are listed by name: a new field must be added there (or be derived)."""
    import ast

    from kartentisch._native import module_path
    from kartentisch.games.krumme20 import state as module

    # The slots as written (a compiled class reports none of its own).
    source = module_path("kartentisch.games.krumme20.state").read_text(encoding="utf-8")
    tree = ast.parse(source)
    slots = next(ast.literal_eval(node.value) for node in ast.walk(tree)
                 if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                 and node.targets[0].id == "__slots__")
    derived = {"game", "seed", "play_flips", "peek_own", "draw_top_visible", "target", "team",
               "teamed",
               "_events", "_events_at", "_history"}  # from game and seed, or decoded again
    assert set(slots) - derived == set(module._PICKLED)


@pytest.mark.parametrize("name", ["krass-kariert", "casino"])
def test_a_log_of_big_words_pickles_portably(name: str) -> None:
    """Krass Kariert's and Casino's logs hold words of two and more 30-bit digits, kept in
    the platform's fastest array type (``core.words.WORD_TYPE``, 64 bits wide); a pickle
    carries the log as ``"Q"``, and a pickled state, or one whose log came as ``"Q"`` (as
    every pickle did before), loads with the fast type and plays on alike."""
    from array import array

    from kartentisch.core.words import WORD_TYPE

    state = load_game(name).new_initial_state(31)
    rng = random.Random(3)
    for _ in range(30):
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.randrange(len(ids))])
    assert array(WORD_TYPE).itemsize == 8 and state.log_words.typecode == WORD_TYPE
    assert max(state.log_words) >= 1 << 30  # words of two and more digits
    unpickle, (game, seed, fields) = state.__reduce__()
    assert fields[0].typecode == "Q" and list(fields[0]) == list(state.log_words)
    for again in (pickle.loads(pickle.dumps(state)), unpickle(game, seed, copy.deepcopy(fields))):
        assert again.log_words.typecode == WORD_TYPE and again.log_words == state.log_words
        assert _fingerprint(again) == _fingerprint(state)
        assert _fingerprint(_play_on(again, 5)) == _fingerprint(_play_on(state.clone(), 5))
