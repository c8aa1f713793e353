"""A rule-of-thumb Casino bot: greedy on points, careful with what it leaves on the table.

It scores every legal action from what its seat may know and plays the best:

* a capture is worth the points it takes (casinos, aces, a share of the spades and cards
  majorities) plus a little for any capture and a sweep when sweeps count;
* a build is worth most of the points it gathers (the bot holds the card to take it), less
  the chance that an opponent holds a card of its value and takes it first;
* a trail costs the card's points, more when an unseen card could take it (same rank, or a
  sum with a loose card), so the bot trails face cards and harmless small cards first and
  keeps casinos and aces.

The formula lives once, in :func:`score_actions`, which reads a :class:`HeuristicView`: the
few fields of an observation it needs. The bot builds the view from its observation; search
playouts (:mod:`.rollout`) build it straight from a world state, which is much cheaper than
a whole observation, and so play exactly the bot's moves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from kartentisch.games.casino.actions import Action, Build, Capture
from kartentisch.games.casino.cards import (
    BIG_CASINO,
    LITTLE_CASINO,
    SPADES,
    VALUES,
    rank_of,
    suit_of,
)
from kartentisch.games.casino.observation import CasinoObservation
from kartentisch.games.casino.table import BuildUnit

if TYPE_CHECKING:
    from kartentisch.games.casino.state import CasinoState

TIE: Final = 1e-9
"""Scores closer than this are a tie, broken at random."""


def card_points(card: int) -> float:
    """What capturing ``card`` is worth on average: points plus shares of the majorities."""
    points = 0.15  # share of the 3 points for most cards
    if suit_of(card) == SPADES:
        points += 0.25
    if card == BIG_CASINO:
        points += 2.0
    elif card == LITTLE_CASINO:
        points += 1.0
    if rank_of(card) == 1:
        points += 1.0
    return points


POINTS: Final[tuple[float, ...]] = tuple(card_points(c) for c in range(52))
"""``card_points`` of every card, looked up instead of recomputed in the scoring loop."""


def chance_held(k: int, others_hold: int, n_unseen: int) -> float:
    """Rough chance that the other hands (``others_hold`` cards in all) hold one of ``k``
    unseen cards of some value, drawing without replacement from ``n_unseen`` cards."""
    if not k or not others_hold:
        return 0.0
    miss = 1.0
    for i in range(min(others_hold, n_unseen)):
        miss *= max(0.0, 1 - k / max(n_unseen - i, 1))
    return 1 - miss


class HeuristicView:
    """What the heuristic reads of a seat's knowledge: its hand, the hand sizes, the table
    and the captured piles. Built from an observation or, for playouts, from a state (then
    it holds the state's own lists: nothing is copied, and nothing hidden is read)."""

    __slots__ = ("builds", "captured", "hand", "hand_sizes", "loose", "seat")

    def __init__(self, seat: int, hand: Sequence[int], hand_sizes: Sequence[int],
                 loose: Sequence[int], builds: Mapping[int, BuildUnit],
                 captured: Sequence[Sequence[int]]):
        self.seat = seat
        self.hand = hand
        self.hand_sizes = hand_sizes
        self.loose = loose
        self.builds = builds
        self.captured = captured

    @classmethod
    def of_observation(cls, obs: CasinoObservation) -> HeuristicView:
        """The view of a seat's observation."""
        if obs.seat is None:
            raise ValueError("the heuristic plays a seat; a spectator's view has no hand")
        return cls(obs.seat, obs.hand, obs.hand_sizes, obs.loose,
                   {b.value: b for b in obs.builds}, obs.captured)

    @classmethod
    def of_state(cls, state: CasinoState) -> HeuristicView:
        """The view of the player to act in ``state`` (the other hands stay unread)."""
        seat = state.current_player
        return cls(seat, state.hands[seat], [len(h) for h in state.hands], state.loose,
                   state.builds, state.captured)


def score_actions(view: HeuristicView, actions: Sequence[Action], sweeps: bool) -> list[float]:
    """The heuristic's score of each action (higher is better); see the module docstring.

    ``sweeps``: whether the game's option ``sweeps`` counts a cleared table.
    """
    seat = view.seat
    seen = [False] * 52
    for c in view.hand:
        seen[c] = True
    for c in view.loose:
        seen[c] = True
    builds = view.builds
    for b in builds.values():
        for c in b.cards:
            seen[c] = True
    for pile in view.captured:
        for c in pile:
            seen[c] = True
    unseen = [c for c in range(52) if not seen[c]]
    unseen_values = [VALUES[c] for c in unseen]
    n_unseen = max(len(unseen), 1)
    others_hold = sum(view.hand_sizes) - view.hand_sizes[seat]
    table_count = len(view.loose) + len(builds)
    points = POINTS
    out: list[float] = []
    for action in actions:
        card = action.card
        if type(action) is Capture:
            score = 1.0 + points[card] + sum(points[c] for c in action.loose)
            if action.build:
                score += sum(points[c] for c in builds[action.build].cards)
            if sweeps and len(action.loose) + (1 if action.build else 0) == table_count:
                score += 1.0
        elif type(action) is Build:
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
            if v:  # taken by a card of its value, or of its value plus a loose card's
                threat = {v}
                threat.update(v + VALUES[c] for c in view.loose
                              if VALUES[c] and v + VALUES[c] <= 10)
                threats = sum(1 for uv in unseen_values if uv in threat)
            else:  # a face card is taken only by its rank
                rank = rank_of(card)
                threats = sum(1 for c in unseen if rank_of(c) == rank)
            danger = min(1.0, threats * max(others_hold, 1) / n_unseen)
            score = -points[card] * (0.6 + danger) - 0.3 * danger - 0.5
        out.append(score)
    return out


def best_indices(scores: Sequence[float]) -> list[int]:
    """Indices of the best scores (ties within :data:`TIE`)."""
    top = max(scores)
    return [i for i, s in enumerate(scores) if s >= top - TIE]


class HeuristicBot:
    """Greedy Casino bot (see the module docstring)."""

    name = "heuristic"

    def __init__(self, game: Any = None, seed: int = 0):
        self.rng = random.Random(seed)
        self.sweeps = bool(game is not None and game.options.sweeps)

    def act(self, observation: CasinoObservation, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        scores = score_actions(HeuristicView.of_observation(observation), legal_actions,
                               self.sweeps)
        best = best_indices(scores)
        return legal_actions[best[self.rng.randrange(len(best))]]
