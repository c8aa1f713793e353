"""The batch loops' two steps agree with the protocol at every position they can meet.

``random_games`` and random playouts never list the legal ids: they ask
``KKState._legal_count()`` and apply ``KKState._apply_nth(i)``. Both walk the move table
on their own, so each is held here to ``legal_action_ids()`` directly, in every phase and
for every option that changes what is legal, not only through whole games' results.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kartentisch.games.krass_kariert import KrassKariert
from kartentisch.games.krass_kariert.state import KKState

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"x_with_x": True},
    {"voluntary_concession": False},
    {"x_with_x": True, "voluntary_concession": False},
]


def _positions(players: int, options: dict[str, Any], seed: int) -> list[KKState]:
    """Every state of one random game, terminal state left out."""
    game = KrassKariert(players, options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    seen = []
    while not state.is_terminal():
        seen.append(state.clone())
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.randrange(len(ids))])
    return seen


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_apply_nth_is_the_nth_legal_action(players: int, options: dict[str, Any]) -> None:
    phases: set[str] = set()
    for seed in range(2):
        for state in _positions(players, options, seed):
            ids = state.legal_action_ids()
            assert state._legal_count() == len(ids)
            phases.add(state.phase)
            # every index where the choice is small, a sample of them where it is not
            picks = range(len(ids)) if len(ids) <= 12 else (0, 1, len(ids) // 2, len(ids) - 1)
            for i in picks:
                mine, theirs = state.clone(), state.clone()
                mine._apply_nth(i)
                theirs.apply_unchecked(ids[i])
                assert mine.to_json() == theirs.to_json()
                assert mine.history_ids() == theirs.history_ids()
                assert mine.round_acts == theirs.round_acts
    assert phases == {"play", "draw"}
