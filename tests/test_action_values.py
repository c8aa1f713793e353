"""Every game's actions are immutable value objects, whichever way they were made.

An action offered by ``legal_actions()``, one decoded from its id and one read from its
notation are the same value: equal both ways, hashing alike, printing alike, unchangeable,
surviving pickling and copying as equals. Casino's offered actions are filled in lazily from
their id (``games/casino/actions.py``, class ``_Offered``); they must pass the same checks as
every other game's plain frozen dataclasses, also before any of their fields was read.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import pytest

from kartentisch.core.registry import list_games, load_game

PLAYERS = {"krass-kariert": 4, "casino": 2, "krumme20": 3}


def _offered_positions(name: str, games: int = 2) -> list[tuple[Any, Any]]:
    """(game, state) pairs along random games, every fourth position."""
    game = load_game(name, PLAYERS.get(name, 2))
    out = []
    for g in range(games):
        rng = random.Random(g)
        state = game.new_initial_state(300 + g)
        ply = 0
        while not state.is_terminal():
            if ply % 4 == 0:
                out.append((game, state.clone()))
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.randrange(len(ids))])
            ply += 1
    return out


@pytest.mark.parametrize("name", list_games())
def test_actions_are_immutable_values(name: str) -> None:
    checked = 0
    for game, state in _offered_positions(name):
        offered = state.legal_actions()
        fresh = state.clone().legal_actions()  # other objects, no field read yet
        for aid, action, untouched in zip(state.legal_action_ids(), offered, fresh,
                                          strict=True):
            decoded = game.action_from_id(aid)
            # pickled and copied before anything read its fields
            assert pickle.loads(pickle.dumps(untouched)) == decoded
            assert copy.copy(untouched) == decoded == copy.deepcopy(untouched)
            assert type(action) is type(decoded)
            assert action == decoded and decoded == action
            assert not (action != decoded)  # noqa: SIM202 (__ne__ is checked too)
            assert hash(action) == hash(decoded)
            assert repr(action) == repr(decoded)
            assert {action: 1}[decoded] == 1
            assert game.action_to_id(action) == aid
            assert game.parse_action(game.format_action(action), state) == decoded
            assert dataclasses.is_dataclass(action)
            fields = dataclasses.fields(action)
            if fields:
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(action, fields[0].name, getattr(action, fields[0].name))
            else:  # CPython's frozen slotted dataclass without fields raises TypeError here
                with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):
                    action.extra = 1
            with pytest.raises(AttributeError):
                action.no_such_field  # noqa: B018
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", list_games())
def test_different_actions_are_different_values(name: str) -> None:
    for game, state in _offered_positions(name, games=1):
        ids = state.legal_action_ids()
        actions = state.legal_actions()
        assert len(set(actions)) == len(ids)
        assert len({game.format_action(a) for a in actions}) == len(ids)
