"""Search advice for Krass Kariert: default bot parameters, playout horizon and evaluation.

Games last many deals, so search playouts stop at the end of the current deal and the chip
counts are turned into each seat's chance of losing the game, assuming every later deal is
lost by a uniformly random seat. Playouts follow the heuristic for every seat (see
:mod:`.rollout`): the heuristic is the opponent, and it beats random play in every game.

Where to search (:func:`search_candidates`): measured on heuristic self-play, 200 sampled
worlds per move showed the heuristic's choice of *play* (which combination to lead or beat
with, or a special card) to be clearly improvable, by about 0.03 in the chance of losing
the deal per decision, while its reserve placements and insertions of drawn cards showed no
gain. So the search looks only at the heuristic's few best moves where its favourite is a
play, and trusts the heuristic's own move elsewhere, which puts the whole budget where it
pays.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kartentisch.games.krass_kariert.actions import ACTIONS, TakeReserve
from kartentisch.games.krass_kariert.heuristic import HeuristicBot
from kartentisch.games.krass_kariert.observation import KKObservation
from kartentisch.games.krass_kariert.state import DRAW, KKState

CANDIDATES = 5
"""How many of the heuristic's best moves the search compares when its favourite is a play."""

SEARCH_DEFAULTS: dict[str, dict[str, Any]] = {
    # A bandit over the candidate moves (tree depth 1) on sampled worlds, heuristic playouts
    # to the end of the deal; about 32 worlds per candidate.
    "ismcts": {"iterations": 160, "rollout": "heuristic", "widening": 0.0, "depth": 1,
               "max_playout": 400, "max_steps": 8000, "prior": True, "anchor": 0.5},
    # 160 playouts over at most 5 candidates: 32 worlds each, compared world by world.
    "pimc": {"iterations": 160, "rollout": "heuristic", "max_playout": 400,
             "max_steps": 8000, "candidates": CANDIDATES, "anchor": 0.5},
}
"""Default parameters of the search bots for this game (a move well under a second)."""


_SCORERS: dict[bool, HeuristicBot] = {}


def search_candidates(observation: KKObservation, ids: list[int],
                      x_with_x: bool = False) -> list[int]:
    """The moves worth searching among the legal ``ids``, the heuristic's best first.

    A single move (the heuristic's favourite) when the search is not worth its time: an
    insertion of a drawn card, or a favourite that takes a reserve card. Otherwise the
    heuristic's :data:`CANDIDATES` best moves.
    """
    scorer = _SCORERS.get(x_with_x)
    if scorer is None:
        scorer = _SCORERS[x_with_x] = HeuristicBot(None, 0)
        scorer.x_with_x = x_with_x
    scored = sorted((scorer.score(observation, ACTIONS[aid]), k, aid)
                    for k, aid in enumerate(ids))
    best = scored[0][2]
    if observation.phase == DRAW or type(ACTIONS[best]) is TakeReserve:
        return [best]
    return [aid for _, _, aid in scored[:CANDIDATES]]


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
