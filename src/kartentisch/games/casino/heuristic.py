"""A rule-of-thumb Casino bot: greedy on points, careful with what it leaves on the table.

It scores every legal action from the observation alone and plays the best:

* a capture is worth the points it takes (casinos, aces, a share of the spades and cards
  majorities) plus a little for any capture and a sweep when sweeps count;
* a build is worth most of the points it gathers (the bot holds the card to take it), less
  the chance that an opponent holds a card of its value and takes it first;
* a trail costs the card's points, more when an unseen card could take it (same rank, or a
  sum with a loose card), so the bot trails face cards and harmless small cards first and
  keeps casinos and aces.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kartentisch.games.casino.actions import Action, Build, Capture
from kartentisch.games.casino.cards import (
    BIG_CASINO,
    LITTLE_CASINO,
    SPADES,
    VALUES,
    rank_of,
    suit_of,
)
from kartentisch.games.casino.observation import CasinoObservation, unseen_cards


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



def chance_held(k: int, others_hold: int, n_unseen: int) -> float:
    """Rough chance that the other hands (``others_hold`` cards in all) hold one of ``k``
    unseen cards of some value, drawing without replacement from ``n_unseen`` cards."""
    if not k or not others_hold:
        return 0.0
    miss = 1.0
    for i in range(min(others_hold, n_unseen)):
        miss *= max(0.0, 1 - k / max(n_unseen - i, 1))
    return 1 - miss

class HeuristicBot:
    """Greedy Casino bot (see the module docstring)."""

    name = "heuristic"

    def __init__(self, game: Any = None, seed: int = 0):
        self.rng = random.Random(seed)
        self.sweeps = bool(game is not None and game.options.sweeps)

    def act(self, observation: CasinoObservation, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        obs = observation
        unseen = unseen_cards(obs)
        unseen_values = [VALUES[c] for c in unseen]
        unseen_ranks = [rank_of(c) for c in unseen]
        n_unseen = max(len(unseen), 1)
        others_hold = sum(s for i, s in enumerate(obs.hand_sizes) if i != obs.seat)
        builds = {b.value: b for b in obs.builds}
        table_count = len(obs.loose) + len(obs.builds)

        def chance_opponent_has(value: int) -> float:
            """Rough chance that some opponent holds a card of ``value``."""
            return chance_held(unseen_values.count(value), others_hold, n_unseen)

        best: list[Action] = []
        best_score = float("-inf")
        for action in legal_actions:
            card = action.card
            if isinstance(action, Capture):
                taken = [card, *action.loose]
                if action.build:
                    taken.extend(builds[action.build].cards)
                score = 1.0 + sum(card_points(c) for c in taken)
                items = len(action.loose) + (1 if action.build else 0)
                if self.sweeps and items == table_count:
                    score += 1.0
            elif isinstance(action, Build):
                joined = [card, *action.loose]
                if action.raised:
                    joined.extend(builds[action.raised].cards)
                if action.merged:
                    joined.extend(builds[action.value].cards)
                gain = sum(card_points(c) for c in joined) + 0.5
                mine = action.raised and builds[action.raised].owner == obs.seat
                risk = chance_opponent_has(action.value)
                score = gain * (1 - 0.7 * risk) + (0.0 if mine else 0.2) - 0.3
            else:
                v = VALUES[card]
                threat_values = {v} if v else set()
                if v:
                    threat_values.update(v + VALUES[c] for c in obs.loose
                                         if VALUES[c] and v + VALUES[c] <= 10)
                threats = sum(1 for r, uv in zip(unseen_ranks, unseen_values, strict=True)
                              if (uv in threat_values) or (not v and r == rank_of(card)))
                danger = min(1.0, threats * max(others_hold, 1) / n_unseen)
                score = -card_points(card) * (0.6 + danger) - 0.3 * danger - 0.5
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return best[self.rng.randrange(len(best))]
