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

import itertools
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

CONCEDE_COST: Final = 100.0
INFINITY: Final = float("inf")

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


@lru_cache(maxsize=64)
def _cost_table(x_with_x: bool, weakness: float, stopp_cost: float,
                nachzieh_cost: float) -> dict[tuple[int, ...], float]:
    """The cost of every window of 1-3 cards that can be played as one unit."""
    table: dict[tuple[int, ...], float] = {(STOPP,): stopp_cost, (NACHZIEH,): nachzieh_cost}
    cards = range(1, X + 1)
    for size in (1, 2, 3):
        for window in itertools.product(cards, repeat=size):
            value = _window_strength(window, x_with_x)
            if value != NO_COMBINATION:
                table[window] = 1.0 + weakness * (1.0 - value / MAX_STRENGTH)
    return table


@lru_cache(maxsize=1 << 17)
def hand_cost(hand: tuple[int, ...], x_with_x: bool = False, weakness: float = 0.6,
              stopp_cost: float = 0.15, nachzieh_cost: float = 0.3) -> float:
    """How hard ``hand`` is to get rid of: the cheapest split into combinations, in order.

    Each combination costs 1 plus up to ``weakness`` the weaker it is (the weakness grows
    linearly from the strongest combination to the weakest, which roughly follows how
    often a follower finds a combination standing that it cannot beat). A special card is
    always playable, so it costs only ``stopp_cost`` or ``nachzieh_cost``. The split keeps
    cards in hand order (removing a card can join its neighbours later, which this ignores).

    >>> hand_cost(()) == 0.0
    True
    >>> hand_cost((6, 7)) < hand_cost((6, 12, 7))
    True
    """
    table = _cost_table(x_with_x, weakness, stopp_cost, nachzieh_cost)
    best = [0.0]
    for end in range(1, len(hand) + 1):
        low = INFINITY
        for start in (end - 1, end - 2, end - 3):
            if start < 0:
                break
            cost = table.get(hand[start:end])
            if cost is not None and best[start] + cost < low:
                low = best[start] + cost
        best.append(low)
    return best[-1]


class HandCosts:
    """:func:`hand_cost` of one hand after inserting or removing cards, in constant time.

    Splits of the hand's prefixes and suffixes are computed once; a changed hand's cost is
    then the best join of a prefix split, one combination across the change, and a suffix
    split. This gives exactly the costs :func:`hand_cost` gives, much faster when a turn
    asks about many insertions or plays.
    """

    __slots__ = ("bwd", "fwd", "hand", "table")

    def __init__(self, hand: tuple[int, ...], table: dict[tuple[int, ...], float]):
        self.hand = hand
        self.table = table
        n = len(hand)
        fwd = [0.0] * (n + 1)
        for end in range(1, n + 1):
            low = INFINITY
            for start in range(max(0, end - 3), end):
                cost = table.get(hand[start:end])
                if cost is not None and fwd[start] + cost < low:
                    low = fwd[start] + cost
            fwd[end] = low
        bwd = [0.0] * (n + 1)
        for start in range(n - 1, -1, -1):
            low = INFINITY
            for end in range(start + 1, min(n, start + 3) + 1):
                cost = table.get(hand[start:end])
                if cost is not None and cost + bwd[end] < low:
                    low = cost + bwd[end]
            bwd[start] = low
        self.fwd = fwd
        self.bwd = bwd

    def total(self) -> float:
        """The cost of the hand itself."""
        return self.fwd[-1]

    def inserted(self, position: int, card: int) -> float:
        """The cost after ``card`` goes in at index ``position``."""
        hand, table, fwd, bwd = self.hand, self.table, self.fwd, self.bwd
        left = hand[max(0, position - 2):position]
        right = hand[position:position + 2]
        low = INFINITY
        for i in range(len(left) + 1):
            before = left[len(left) - i:]
            for j in range(min(len(right), 2 - i) + 1):
                cost = table.get((*before, card, *right[:j]))
                if cost is not None and fwd[position - i] + cost + bwd[position + j] < low:
                    low = fwd[position - i] + cost + bwd[position + j]
        return low

    def removed(self, start: int, end: int) -> float:
        """The cost after the cards at indices ``start .. end-1`` leave the hand."""
        hand, table, fwd, bwd = self.hand, self.table, self.fwd, self.bwd
        low = fwd[start] + bwd[end]
        left = hand[max(0, start - 2):start]
        right = hand[end:end + 2]
        for i in range(1, len(left) + 1):
            for j in range(1, min(len(right), 3 - i) + 1):
                cost = table.get(left[len(left) - i:] + right[:j])
                if cost is not None and fwd[start - i] + cost + bwd[end + j] < low:
                    low = fwd[start - i] + cost + bwd[end + j]
        return low


class HeuristicBot:
    """Sheds cards in good combinations, beats cheaply, and saves its lives for later.

    The costs below are class attributes so that a subclass can try other values. They
    were checked in self-play (one variant against three default bots, 4 players, 1200
    games each): halving or doubling the weakness, raising the draw or Stopp cost, or
    making reserves cheaper or dearer changed the variant's loss share by less than the
    noise (about ±0.025 around 0.25). Two changes of habit did worse: leading the strongest
    combination instead of the weakest (0.26), and, as follower, preferring a stronger beat
    that is likelier to win the round (0.31 to 0.37 of 2000 games, by how strongly).
    """

    name = "heuristic"

    weakness: float = 0.6
    """Extra cost of the weakest combination over the strongest one (a combination costs 1)."""
    stopp_cost: float = 0.15
    """What a Stopp in the hand costs: it is always playable, so it is nearly free."""
    nachzieh_cost: float = 0.3
    """What a Nachzieh in the hand costs."""
    stopp_use: float = 0.45
    """Cost of spending a Stopp (a life that also wins a round)."""
    nachzieh_use: float = 0.2
    """Cost of spending a Nachzieh as a follower."""
    reserve_use: tuple[float, float] = (1.6, 0.9)
    """Cost of taking a reserve card when it is the last one, and when two are left."""
    draw_cost: float = 0.55
    """Expected cost of one card drawn after a Nachzieh round."""
    card_bonus: float = 0.0
    """Bonus per card a play removes (ties towards shedding more cards)."""
    specials_discount: float = 0.15
    """A reserve is cheaper to spend while special cards still guard against conceding."""

    def __init__(self, game: Any = None, seed: int = 0):
        options = getattr(game, "options", None)
        self.x_with_x: bool = bool(getattr(options, "x_with_x", False))
        self.rng = random.Random(seed)
        self._last: HandCosts | None = None

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
            return self._costs(hand).inserted(action.position, card) if card else 0.0
        if isinstance(action, TakeReserve):
            assert obs.seat is not None  # a bot acts for a seat, never as a spectator
            reserves = obs.reserves[obs.seat]
            card = reserves[action.reserve]
            use = self.reserve_use[min(len(reserves), 2) - 1]
            if STOPP in hand or NACHZIEH in hand:
                use -= self.specials_discount
            return self._costs(hand).inserted(action.position, card) + use
        if isinstance(action, Concede):
            return CONCEDE_COST
        return self._score_play(obs, action)

    def _score_play(self, obs: KKObservation, action: Play) -> float:
        hand = obs.hand
        end = action.start + action.length
        after = self._costs(hand).removed(action.start, end)
        leading = obs.act_index == 0
        last = obs.act_index == len(obs.participants) - 1
        card = hand[action.start]
        if card == STOPP:
            # Ends the round now and wins it: drawing for any Nachzieh already played.
            return after + self.stopp_use + self.draw_cost * 3 * obs.nachzieh_played
        if card == NACHZIEH:
            if leading:
                if len(hand) == 1:
                    return after
                # If nobody plays a combination after it, the leader wins and draws three.
                return after + self.nachzieh_use + self.draw_cost * 3 * 0.35
            return after + self.nachzieh_use
        value = self._play_strength(hand[action.start:end], action.x_values)
        score = after - self.card_bonus * action.length
        if leading:
            # A stronger lead is likelier to win the round and lead again.
            score -= 0.01 * value / MAX_STRENGTH
        else:
            # Beat cheaply: keep strong combinations for later rounds.
            score += 0.01 * value / MAX_STRENGTH
            if obs.nachzieh_played:
                chance = 1.0 if last else _WIN_CHANCE[kind_of(value)]
                score += chance * self.draw_cost * 3 * obs.nachzieh_played
        return score

    def _play_strength(self, window: tuple[int, ...], x_values: tuple[int, ...]) -> int:
        return evaluate(tuple(c for c in window if c != X) + tuple(x_values))

    def _costs(self, hand: tuple[int, ...]) -> HandCosts:
        """The cost helper for ``hand``, kept while the same hand is asked about."""
        costs = self._last
        if costs is None or costs.hand != hand:
            table = _cost_table(self.x_with_x, self.weakness, self.stopp_cost, self.nachzieh_cost)
            costs = self._last = HandCosts(hand, table)
        return costs
