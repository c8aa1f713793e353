"""A rule-of-thumb Krass Kariert player that sees only its observation.

The bot scores every legal action by the hand it leaves behind plus a few costs for
using up "lives" (reserve cards and special cards, which are what keeps a follower from
conceding) and for the risk of having to draw after a Nachzieh round, and plays the
cheapest. A hand is valued by splitting it, in hand order, into the fewest and strongest
combinations (see :func:`hand_cost`): every combination is one turn's play, and weak ones
are hard to get rid of as a follower. From this the usual habits follow:

* as leader it sheds the combination whose removal helps most, which is usually a weak
  one, and prefers windows that remove more cards and keep good combinations together;
* as follower it beats with the cheapest combination that keeps the hand's structure;
* when it cannot beat it plays Nachzieh, then Stopp (unless a Nachzieh already fell this
  round, so the Stopp would make it draw), then a reserve card, and concedes only when
  nothing else is left;
* reserve cards and drawn cards go where they join a pair or run, never into the middle of
  an existing combination.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from kartentisch.games.krass_kariert.actions import (
    Action,
    Concede,
    InsertDrawn,
    Play,
    TakeReserve,
)
from kartentisch.games.krass_kariert.cards import (
    NACHZIEH,
    NO_COMBINATION,
    PAIR,
    RUN2,
    RUN3,
    SINGLE,
    STOPP,
    TRIPLE,
    X,
    evaluate,
    kind_of,
)
from kartentisch.games.krass_kariert.observation import KKObservation

MAX_STRENGTH: Final = TRIPLE * 16 + 12
"""The strongest combination there is (a triple of 12s)."""

WEAKNESS: Final = 0.6
"""Extra cost of the weakest combination over the strongest one (a combination costs 1)."""

SPECIAL_COST: Final[dict[int, float]] = {STOPP: 0.15, NACHZIEH: 0.3}
"""What a special card in the hand costs: it is always playable, so it is nearly free."""

STOPP_USE: Final = 0.45
"""Cost of spending a Stopp (a life that also wins a round)."""

NACHZIEH_USE: Final = 0.2
"""Cost of spending a Nachzieh as a follower."""

RESERVE_USE: Final[dict[int, float]] = {2: 0.9, 1: 1.6}
"""Cost of taking a reserve card, by how many reserves were left before taking it."""

DRAW_COST: Final = 0.55
"""Expected cost of one card drawn after a Nachzieh round."""

CONCEDE_COST: Final = 100.0

_WIN_CHANCE: Final[dict[int, float]] = {SINGLE: 0.3, RUN2: 0.4, PAIR: 0.55, RUN3: 0.75,
                                        TRIPLE: 0.9}
"""Rough chance that a combination of each kind, played mid-round, wins the round."""


@lru_cache(maxsize=4096)
def _window_strength(window: tuple[int, ...], x_with_x: bool) -> int:
    """The best strength a window of cards can be played as, or ``NO_COMBINATION``."""
    if any(c >= NACHZIEH for c in window):
        return NO_COMBINATION
    n_x = window.count(X)
    if n_x > 1 and not x_with_x:
        return NO_COMBINATION
    numbers = tuple(c for c in window if c != X)
    if n_x == 0:
        return evaluate(numbers)
    best = NO_COMBINATION
    for first in range(1, 13):
        for second in range(first, 13) if n_x == 2 else (0,):
            declared = (first, second) if n_x == 2 else (first,)
            best = max(best, evaluate(numbers + declared))
    return best


@lru_cache(maxsize=1 << 16)
def hand_cost(hand: tuple[int, ...], x_with_x: bool = False) -> float:
    """How hard ``hand`` is to get rid of: the cheapest split into combinations, in order.

    Each combination costs 1 plus up to :data:`WEAKNESS` the weaker it is; a special card
    costs :data:`SPECIAL_COST`. The split keeps cards in hand order (removing a card can
    join its neighbours later, which this ignores).

    >>> hand_cost(()) == 0.0
    True
    >>> hand_cost((6, 7)) < hand_cost((6, 12, 7))
    True
    """
    n = len(hand)
    best = [0.0] + [float("inf")] * n
    for end in range(1, n + 1):
        card = hand[end - 1]
        if card >= NACHZIEH:
            best[end] = best[end - 1] + SPECIAL_COST[card]
            continue
        for length in (1, 2, 3):
            start = end - length
            if start < 0:
                break
            value = _window_strength(hand[start:end], x_with_x)
            if value == NO_COMBINATION:
                continue
            cost = 1.0 + WEAKNESS * (1.0 - value / MAX_STRENGTH)
            if best[start] + cost < best[end]:
                best[end] = best[start] + cost
    return best[n]


class HeuristicBot:
    """Sheds cards in good combinations, beats cheaply, and saves its lives for later."""

    name = "heuristic"

    def __init__(self, game: Any = None, seed: int = 0):
        options = getattr(game, "options", None)
        self.x_with_x: bool = bool(getattr(options, "x_with_x", False))
        self.rng = random.Random(seed)

    def act(self, observation: KKObservation, legal_actions: Sequence[Action]) -> Action:
        """The legal action with the lowest score; ties are broken by the seeded generator."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        scored = [(self.score(observation, a), a) for a in legal_actions]
        low = min(s for s, _ in scored)
        best = [a for s, a in scored if s <= low + 1e-9]
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]

    # ------------------------------------------------------------------ scoring
    def score(self, obs: KKObservation, action: Action) -> float:
        """Lower is better: the cost of the hand left behind plus the action's own cost."""
        hand = obs.hand
        if isinstance(action, InsertDrawn):
            card = obs.pending if obs.pending is not None else 0
            return self._cost(_inserted(hand, action.position, card)) if card else 0.0
        if isinstance(action, TakeReserve):
            reserves = obs.reserves[obs.seat]
            card = reserves[action.reserve]
            left = len(reserves)
            return (self._cost(_inserted(hand, action.position, card))
                    + RESERVE_USE.get(left, RESERVE_USE[1]) + self._specials_discount(hand))
        if isinstance(action, Concede):
            return CONCEDE_COST
        return self._score_play(obs, action)

    def _score_play(self, obs: KKObservation, action: Play) -> float:
        hand = obs.hand
        end = action.start + action.length
        rest = hand[:action.start] + hand[end:]
        after = self._cost(rest)
        leading = obs.act_index == 0
        last = obs.act_index == len(obs.participants) - 1
        card = hand[action.start]
        if card == STOPP:
            # Ends the round now and wins it: drawing for any Nachzieh already played.
            return after + STOPP_USE + DRAW_COST * 3 * obs.nachzieh_played
        if card == NACHZIEH:
            if leading:
                if not rest:
                    return after
                # If nobody plays a combination after it, the leader wins and draws three.
                return after + NACHZIEH_USE + DRAW_COST * 3 * 0.35
            return after + NACHZIEH_USE
        value = self._play_strength(hand[action.start:end], action.x_values)
        score = after
        if leading:
            # A stronger lead is likelier to win the round and lead again.
            score -= 0.01 * value / MAX_STRENGTH
        else:
            # Beat cheaply: keep strong combinations for later rounds.
            score += 0.01 * value / MAX_STRENGTH
            if obs.nachzieh_played:
                chance = 1.0 if last else _WIN_CHANCE[kind_of(value)]
                score += chance * DRAW_COST * 3 * obs.nachzieh_played
        return score

    def _play_strength(self, window: tuple[int, ...], x_values: tuple[int, ...]) -> int:
        return evaluate(tuple(c for c in window if c != X) + tuple(x_values))

    def _specials_discount(self, hand: tuple[int, ...]) -> float:
        """A reserve is cheaper to spend while special cards still guard against conceding."""
        return -0.15 if STOPP in hand or NACHZIEH in hand else 0.0

    def _cost(self, hand: tuple[int, ...]) -> float:
        return hand_cost(hand, self.x_with_x)


def _inserted(hand: tuple[int, ...], position: int, card: int) -> tuple[int, ...]:
    return (*hand[:position], card, *hand[position:])
