"""Search advice for Krass Kariert: default bot parameters, playout horizon and evaluation.

Games last many deals, so search playouts stop at the end of the current deal and the chip
counts are turned into each seat's chance of losing the game, assuming every later deal is
lost by a uniformly random seat.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kartentisch.games.krass_kariert.state import KKState

SEARCH_DEFAULTS: dict[str, dict[str, Any]] = {
    "ismcts": {"iterations": 100, "rollout": "heuristic", "widening": 1.0,
               "max_playout": 200, "max_steps": 1000, "prior": True, "anchor": 1.0},
    "pimc": {"iterations": 100, "rollout": "heuristic", "max_playout": 200,
             "max_steps": 1000, "candidates": 6, "anchor": 1.0},
}
"""Default parameters of the search bots for this game (a move well under a second)."""


def horizon_key(state: KKState) -> int:
    """Krass Kariert playouts stop when the deal number changes (a chip was lost)."""
    return state.deal


@cache
def _kk_lose_probabilities(chips: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's chance to lose the game if every future deal has a uniform random loser.

    A deal's loser gives a chip; one who has none loses the game.
    """
    n = len(chips)
    total = [0.0] * n
    for j in range(n):
        if chips[j] == 0:
            total[j] += 1.0 / n
        else:
            after = list(chips)
            after[j] -= 1
            for i, p in enumerate(_kk_lose_probabilities(tuple(after))):
                total[i] += p / n
    return tuple(total)


def evaluate(state: KKState) -> list[float]:
    """Expected Krass Kariert returns from the chip counts (a single loser assumed).

    The current deal's loser is guessed from the cards each seat still has to shed,
    weighting seats in the deal by ``(hand + reserves + 1) ** 2`` (uniform at a fresh deal,
    which is where playouts normally stop); later deals have a uniform random loser.
    """
    n = state.game.players
    if state.is_terminal():
        return list(state.returns())
    chips = tuple(state.chips)
    weights = [
        (len(state.hands[s]) + len(state.reserves[s]) + 1) ** 2 if state.in_deal[s] else 0
        for s in range(n)
    ]
    total_w = sum(weights)
    lose = [0.0] * n
    for j, w in enumerate(weights):
        if not w:
            continue
        if chips[j] == 0:
            lose[j] += w / total_w
            continue
        after = list(chips)
        after[j] -= 1
        for i, p in enumerate(_kk_lose_probabilities(tuple(after))):
            lose[i] += p * w / total_w
    win = 1.0 / (n - 1)
    return [-p + (1.0 - p) * win for p in lose]
