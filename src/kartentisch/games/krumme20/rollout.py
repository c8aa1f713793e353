"""The heuristic's moves for Krumme20 search playouts, taken straight from the (sampled) state.

The registered heuristic bot (:mod:`kartentisch.games.krumme20.heuristic`) decides from an
observation, and building one costs more than a whole step of the engine. Its scoring,
however, reads only a light view of what the acting seat knows
(:class:`~.heuristic.Situation`): the seat's own personal cards and score pile as it sees
them, the play pile's total and 0s, and the pair types it has not seen with both sides. This
module builds that view from the state's knowledge masks and hands it to the heuristic's own
scoring, so a playout makes exactly the heuristic's move (the best worth, the first of
equals) at a fraction of the cost.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kartentisch.games.krumme20.actions import ACTIONS
from kartentisch.games.krumme20.heuristic import DECK_PAIRS, NO_PAIRS, Situation
from kartentisch.games.krumme20.observation import CardView

if TYPE_CHECKING:
    from kartentisch.games.krumme20.state import K20State


def remaining_pairs(state: K20State, seat: int) -> list[int]:
    """How many cards of each pair type (index ``6 * low + high``) ``seat`` has not seen
    with both sides: :func:`~.heuristic.unaccounted` of its observation, from the state."""
    rem = DECK_PAIRS[state.game.options.deck].copy()
    bit = 1 << seat
    face, back, kup, kdown = state.face, state.back, state.kup, state.kdown
    for c in range(len(face)):
        if kup[c] & bit and kdown[c] & bit:
            a, b = face[c], back[c]
            rem[6 * a + b if a <= b else 6 * b + a] -= 1
    return rem


def _views(state: K20State, cards: list[int], bit: int, crosswise: bool) -> list[CardView]:
    """``cards`` as the seat with knowledge bit ``bit`` sees them (as in its observation)."""
    face, back, kup, kdown, cross = state.face, state.back, state.kup, state.kdown, state.cross
    return [CardView(face[c] if kup[c] & bit else None, back[c] if kdown[c] & bit else None,
                     kup[c], kdown[c], cross[c] if crosswise else False) for c in cards]


def situation(state: K20State, seat: int) -> Situation:
    """The heuristic's light view for ``seat`` (the player to move) in ``state``.

    Only what the step can use is filled in: the pair table only where a card is played
    (``turn``, ``five``), the score pile only where it can be turned over (``flip``); the
    heuristic reads nothing else in those steps.
    """
    bit = 1 << seat
    phase = state.phase
    return Situation(
        _views(state, state.hands[seat], bit, False),
        _views(state, state.scores[seat], bit, True) if phase == "flip" else (),
        target=state.game.options.target, total=state.total, zeros=state.zeros,
        remaining=remaining_pairs(state, seat) if phase in ("turn", "five") else NO_PAIRS,
        play_flips=state.game.options.play_flips,
        any_crosswise=state.game.options.last_card_crosswise == "any_card")


def rollout_action(state: K20State, ids: Sequence[int], rng: random.Random) -> int:
    """The heuristic's choice among the legal ``ids`` for the player to move."""
    if len(ids) == 1:
        return ids[0]
    view = situation(state, state.current_player)
    best = ids[0]
    best_worth = view.worth(ACTIONS[best])
    for aid in ids[1:]:
        worth = view.worth(ACTIONS[aid])
        if worth > best_worth:
            best, best_worth = aid, worth
    return best
