"""The heuristic bot's move computed straight from a state, for search playouts.

Search playouts on sampled worlds ask the heuristic for every move. Going through the bot
means building an observation (all public fields, about 16 µs) and action objects for each
move; :func:`rollout_action` scores the same actions the same way (see
:mod:`kartentisch.games.casino.heuristic`) from the state itself, using only what the
player to move could see, so a playout plays exactly as the heuristic bot would (ties are
broken at random with the search's generator).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kartentisch.games.casino.actions import Action, Build, Capture
from kartentisch.games.casino.cards import VALUES, rank_of
from kartentisch.games.casino.heuristic import card_points, chance_held

if TYPE_CHECKING:
    from kartentisch.games.casino.state import CasinoState

_POINTS = tuple(card_points(c) for c in range(52))


def heuristic_scores(state: CasinoState, actions: Sequence[Action]) -> list[float]:
    """The heuristic bot's score of each action for the player to move (higher is better)."""
    seat = state.current_player
    hands = state.hands
    seen = [False] * 52
    for c in hands[seat]:
        seen[c] = True
    for c in state.loose:
        seen[c] = True
    builds = state.builds
    for b in builds.values():
        for c in b.cards:
            seen[c] = True
    for pile in state.captured:
        for c in pile:
            seen[c] = True
    unseen = [c for c in range(52) if not seen[c]]
    unseen_values = [VALUES[c] for c in unseen]
    n_unseen = max(len(unseen), 1)
    others_hold = sum(len(h) for i, h in enumerate(hands) if i != seat)
    table_count = len(state.loose) + len(builds)
    sweeps = state.game.options.sweeps
    points = _POINTS
    out: list[float] = []
    for action in actions:
        card = action.card
        if isinstance(action, Capture):
            score = 1.0 + points[card] + sum(points[c] for c in action.loose)
            if action.build:
                score += sum(points[c] for c in builds[action.build].cards)
            if sweeps and len(action.loose) + (1 if action.build else 0) == table_count:
                score += 1.0
        elif isinstance(action, Build):
            gain = points[card] + sum(points[c] for c in action.loose) + 0.5
            if action.raised:
                gain += sum(points[c] for c in builds[action.raised].cards)
            if action.merged:
                gain += sum(points[c] for c in builds[action.value].cards)
            mine = action.raised and builds[action.raised].owner == seat
            risk = chance_held(unseen_values.count(action.value), others_hold, n_unseen)
            score = gain * (1 - 0.7 * risk) + (0.0 if mine else 0.2) - 0.3
        else:
            v = VALUES[card]
            if v:
                threat = {v}
                threat.update(v + VALUES[c] for c in state.loose
                              if VALUES[c] and v + VALUES[c] <= 10)
                threats = sum(1 for uv in unseen_values if uv in threat)
            else:
                rank = rank_of(card)
                threats = sum(1 for c in unseen if rank_of(c) == rank)
            danger = min(1.0, threats * max(others_hold, 1) / n_unseen)
            score = -points[card] * (0.6 + danger) - 0.3 * danger - 0.5
        out.append(score)
    return out


def rollout_action(state: CasinoState, ids: Sequence[int], rng: random.Random) -> int:
    """The heuristic bot's choice among the legal ``ids`` of ``state`` (ties at random)."""
    actions = state.legal_actions()
    if len(actions) != len(ids):  # ids is not the full legal list: score exactly those
        from kartentisch.games.casino.actions import action_from_id

        actions = [action_from_id(a) for a in ids]
        ids_in_order = list(ids)
    else:
        ids_in_order = state.legal_action_ids()
    scores = heuristic_scores(state, actions)
    top = max(scores)
    best = [aid for aid, s in zip(ids_in_order, scores, strict=True) if s >= top - 1e-9]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
