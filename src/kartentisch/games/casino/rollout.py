"""The heuristic bot's move computed straight from a state, for search playouts.

Search playouts on sampled worlds ask the heuristic for every move. Going through the bot
means building an observation (every public field) for each move; :func:`rollout_action`
instead hands the heuristic's own scoring (:func:`.heuristic.score_actions`) a light view of
the state, :meth:`.heuristic.HeuristicView.of_state`, holding only what the player to move
could see. A playout so plays exactly as the heuristic bot would (ties are broken at random
with the search's generator).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kartentisch.games.casino.heuristic import HeuristicView, best_indices, score_actions
from kartentisch.games.casino.movegen import recent_action

if TYPE_CHECKING:
    from kartentisch.games.casino.state import CasinoState


def rollout_action(state: CasinoState, ids: Sequence[int], rng: random.Random) -> int:
    """The heuristic bot's choice among the legal ``ids`` of ``state`` (ties at random)."""
    if len(ids) == 1:
        return ids[0]
    actions = [recent_action(i) for i in ids]
    scores = score_actions(HeuristicView.of_state(state), actions,
                           state.game.options.sweeps)
    best = best_indices(scores)
    return ids[best[0]] if len(best) == 1 else ids[best[rng.randrange(len(best))]]
