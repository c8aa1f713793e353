"""A fast rollout policy for Krumme20 search playouts, working on the (sampled) state.

The registered heuristic bot (:mod:`kartentisch.games.krumme20.heuristic`) decides from an
observation, and building one costs more than a whole step of the engine. Search playouts
only need a *model* of how the heuristic opponents play, so :func:`rollout_action` scores
the legal actions with the heuristic's rules of thumb and constants directly on the state,
using only what the acting seat knows (the knowledge masks): a counting side it has not
seen is weighted, like the heuristic does, by the pair types it has not yet seen with
both sides. The best action is taken, ties broken in favour of the first legal one like
the heuristic does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from kartentisch.games.krumme20.actions import (
    ACTIONS,
    Claim33,
    ClaimSum,
    Draw,
    FlipScore,
    Lowest,
    Pass,
    Play,
    Second,
    SitOut,
    TakeDiscard,
    TakeDraw,
)
from kartentisch.games.krumme20.cards import DECKS, pair_counts
from kartentisch.games.krumme20.heuristic import ACTION_BONUS, FOUL_COST, REACH_COST, SCORE_BONUS

if TYPE_CHECKING:
    from kartentisch.games.krumme20.state import K20State

def _pair_table(deck: str) -> list[int]:
    """The deck's count of each pair type, indexed ``6 * low + high``."""
    table = [0] * 36
    for (a, b), k in pair_counts(deck).items():
        table[6 * a + b] = k
    return table


_DECK_PAIRS: Final[dict[str, list[int]]] = {deck: _pair_table(deck) for deck in DECKS}


def remaining_pairs(state: K20State, seat: int) -> list[int]:
    """How many cards of each pair type (index ``6 * low + high``) ``seat`` has not seen
    with both sides, like the heuristic's bookkeeping (partial knowledge ignored)."""
    rem = _DECK_PAIRS[state.game.options.deck].copy()
    bit = 1 << seat
    face, back, kup, kdown = state.face, state.back, state.kup, state.kdown
    for c in range(len(face)):
        if kup[c] & bit and kdown[c] & bit:
            a, b = face[c], back[c]
            rem[6 * a + b if a <= b else 6 * b + a] -= 1
    return rem


def counting_dist(state: K20State, seat: int, card: int, rem: list[int]) -> list[float]:
    """Probabilities (index 0-5) of the number ``card`` counts with, as ``seat`` sees it,
    given the pair types ``rem`` it has not accounted for (:func:`remaining_pairs`)."""
    bit = 1 << seat
    if state.game.options.play_flips:
        number, known, other, other_known = (state.back[card], state.kdown[card],
                                             state.face[card], state.kup[card])
    else:
        number, known, other, other_known = (state.face[card], state.kup[card],
                                             state.back[card], state.kdown[card])
    if known & bit:
        return [1.0 if w == number else 0.0 for w in range(6)]
    weights = [0.0] * 6
    if other_known & bit:
        for w in range(6):
            k = rem[6 * other + w if other <= w else 6 * w + other]
            if k > 0:
                weights[w] = k
    else:
        for a in range(6):
            for b in range(a, 6):
                k = rem[6 * a + b]
                if k > 0:
                    weights[a] += k
                    weights[b] += k
    total = sum(weights)
    if total <= 0:
        return [1 / 6] * 6
    return [w / total for w in weights]


def play_worth(state: K20State, seat: int, card: int, rem: list[int], *, last: bool) -> float:
    """The heuristic's expected worth of playing ``card`` now (see the heuristic module)."""
    target = state.game.options.target
    base = state.total
    zeros = state.zeros
    worth = 0.0
    for w, p in enumerate(counting_dist(state, seat, card, rem)):
        if p <= 0:
            continue
        total = base + w
        if w == 0 and zeros == 2:
            value = -2.0
        elif total == target:
            value = w * (2 if last else 1) + SCORE_BONUS
        elif total > target:
            value = -FOUL_COST
        else:
            value = ACTION_BONUS.get(w, 0.0)
            if target - total <= 5:
                value -= REACH_COST
        worth += p * value
    return worth


def action_worth(state: K20State, seat: int, aid: int, rem: list[int]) -> float:
    """The heuristic's worth of the legal action ``aid`` for ``seat`` (higher is better);
    ``rem`` as from :func:`remaining_pairs`."""
    action = ACTIONS[aid]
    hand = state.hands[seat]
    bit = 1 << seat
    if isinstance(action, Play):
        return play_worth(state, seat, hand[action.index], rem, last=len(hand) == 1)
    if isinstance(action, Pass):
        return 0.0
    if isinstance(action, Second):
        p5 = counting_dist(state, seat, hand[action.index], rem)[5]
        return p5 * (5 + SCORE_BONUS) - (1 - p5) * FOUL_COST
    if isinstance(action, SitOut | Lowest):
        if isinstance(action, Lowest):
            return 1.0 + 0.01 * state.face[hand[action.index]]
        return 1.0
    if isinstance(action, Draw | TakeDraw):
        return 0.5
    if isinstance(action, TakeDiscard):
        return 0.3
    if isinstance(action, Claim33):
        cards = [hand[i] for i in action.indices]
        sure = all(state.kup[c] & bit and state.kdown[c] & bit and state.face[c] == 3
                   and state.back[c] == 3 for c in cards)
        return 20.0 if sure else -20.0
    if isinstance(action, ClaimSum):
        sides, masks = (state.back, state.kdown) if action.down else (state.face, state.kup)
        if all(masks[c] & bit for c in hand) and sum(sides[c] for c in hand) == \
                state.game.options.target:
            return 25.0
        return -20.0
    if isinstance(action, FlipScore):
        card = state.scores[seat][action.index]
        down = float(state.back[card]) if state.kdown[card] & bit else 2.5
        gain = (down - state.face[card]) * (2 if state.cross[card] else 1)
        return gain - 0.5
    return -1.0  # taking or turning others' cards, throwing: not worth the risk


_NO_PAIRS: Final[list[int]] = []


def rollout_action(state: K20State, ids: Sequence[int], rng: random.Random) -> int:
    """The heuristic-like choice among the legal ``ids`` for the player to move."""
    if len(ids) == 1:
        return ids[0]
    seat = state.current_player
    phase = state.phase
    rem = remaining_pairs(state, seat) if phase in ("turn", "five") else _NO_PAIRS
    best = ids[0]
    best_worth = action_worth(state, seat, best, rem)
    for aid in ids[1:]:
        worth = action_worth(state, seat, aid, rem)
        if worth > best_worth:
            best, best_worth = aid, worth
    return best
