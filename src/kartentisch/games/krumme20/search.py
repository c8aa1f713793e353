"""Search advice for Krumme20: the search bots' defaults and the playout evaluation.

Without help a search playout runs to the end of the game (about 90 actions from the deal),
so an iteration is expensive and its result (who won) is a single noisy bit. The game
therefore offers :func:`evaluate`: an estimate of every seat's expected return from the
score piles, the personal cards and how much of the draw pile is left. Playouts are cut
after a few actions (the bots' ``max_playout``) and scored with it.

The model is a softmax over seats of ``score / temperature + HAND_WEIGHT * personal
cards``, where the temperature grows with the draw pile (early in the game the lead is
worth little, at the end it decides). Its constants were fitted by maximum likelihood to
127 000 turn-start positions of 3000 games of three heuristic bots (the bots the search
plays against); the fitted log loss is 0.79 against 1.10 for "everybody equal".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from kartentisch.games.krumme20.actions import ACTIONS, action_id
from kartentisch.games.krumme20.heuristic import HeuristicBot

if TYPE_CHECKING:
    from kartentisch.games.krumme20.observation import K20Observation
    from kartentisch.games.krumme20.state import K20State

TEMPERATURE_END: Final = 1.25
"""Points per unit of log-odds once the draw pile is empty."""
TEMPERATURE_PER_CARD: Final = 0.076
"""How much each card left in the draw pile adds to the temperature."""
HAND_WEIGHT: Final = 0.06
"""Log-odds per personal card (a card in hand is a chance to score)."""


def win_chances(scores: list[int], hands: list[int], draw_left: int) -> list[float]:
    """Each seat's chance to win from scores, personal card counts and draw pile size.

    Ties are not modelled separately: the chances sum to one, like the game's returns
    (a shared win pays 1/k to each winner).
    """
    inv = 1.0 / (TEMPERATURE_END + TEMPERATURE_PER_CARD * draw_left)
    logits = [s * inv + HAND_WEIGHT * h for s, h in zip(scores, hands, strict=True)]
    top = max(logits)
    weights = [math.exp(z - top) for z in logits]
    total = sum(weights)
    return [w / total for w in weights]


def evaluate(state: K20State) -> list[float]:
    """The expected returns of ``state`` (its true returns once the game is over).

    In the team game the model runs over teams (a team's points and its members' personal
    cards), and every member gets its team's chance, as the returns give every member of a
    winning team its team's share: a search never plays against its own teammate."""
    if state.is_terminal():
        return state.returns()
    hands = [len(h) for h in state.hands]
    if not state.teamed:
        return win_chances(state.final_scores(), hands, len(state.draw))
    team = state.team
    team_hands = [0] * (max(team) + 1)
    for s, h in enumerate(hands):
        team_hands[team[s]] += h
    chances = win_chances(state.team_scores(), team_hands, len(state.draw))
    return [chances[t] for t in team]


TRUSTED_PHASES: Final = frozenset({"draw", "loss", "four", "sitout", "foul", "throw"})
"""Steps where the heuristic's choice is kept without a search: drawing a card (the 2's
action, a compensation), making the next player sit out, putting a lowest card on the score
pile, declining to throw further cards. Each is a plain gain (or, for throwing, a risk
without gain) in almost every position, and together they are half of a player's choices."""


def search_candidates(game: Any, observation: K20Observation,
                      ids: Sequence[int]) -> list[int] | None:
    """The heuristic's move alone in the trusted steps (no search), else no advice."""
    if observation.phase not in TRUSTED_PHASES:
        return None
    choice = HeuristicBot(game).act(observation, [ACTIONS[i] for i in ids])
    return [action_id(choice)]


SEARCH_DEFAULTS: dict[str, dict[str, Any]] = {
    "ismcts": {"iterations": 200, "rollout": "heuristic", "widening": 0.0,
               "max_playout": 16, "max_steps": None, "prior": True, "anchor": 1.0},
    "pimc": {"iterations": 200, "rollout": "heuristic", "max_playout": 16,
             "max_steps": None, "anchor": 1.0},
}
"""Default parameters of the search bots for this game: playouts of 16 actions by the
heuristic's rules (:mod:`~kartentisch.games.krumme20.rollout`) scored with
:func:`evaluate`; the heuristic's move is kept unless the search finds one better by more
than one standard error. About 0.2 s per searched move on one core."""
