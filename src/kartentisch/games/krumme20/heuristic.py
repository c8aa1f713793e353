"""A rule-of-thumb Krumme20 player that sees only its observation.

It plays towards exactly the target and away from fouls:

* a play is scored by its expected worth over the number it may count (known sides count
  for sure; an unknown side is weighted by the pair types still unaccounted for): reaching
  the target scores the card (doubled when it was the last personal card), going over is a
  foul that gifts every opponent a card, and leaving the total within reach of the next
  player costs a little; numbers with a useful special action earn a small bonus;
* claims (3/3, Σ20) are made only when every side involved is known to be right;
* the second card on 15 is played only when it is a known 5 or very likely one;
* special actions: a 4 always makes the next player sit out; a 2 draws; a 1 takes the draw
  pile's top (or the discard's); a 0 turns a low card on its own score pile when that is
  expected to gain; further 3s are not thrown (no gain, only risk);
* compensations are always taken (a card on the score pile is a point gained).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from kartentisch.games.krumme20.actions import (
    Action,
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
from kartentisch.games.krumme20.cards import pair_counts, pair_key
from kartentisch.games.krumme20.observation import CardView, K20Observation

FOUL_COST: Final = 6.0
SCORE_BONUS: Final = 3.0
REACH_COST: Final = 1.5
ACTION_BONUS: Final[dict[int, float]] = {0: 0.3, 1: 0.5, 2: 0.8, 3: 0.0, 4: 1.0, 5: 0.2}


class HeuristicBot:
    """Plays the action with the best expected worth by simple rules (see module doc)."""

    name = "heuristic"

    def __init__(self, game: Any = None, seed: int = 0):
        self.rng = random.Random(seed)
        options = getattr(game, "options", None)
        self.play_flips: bool = bool(getattr(options, "play_flips", True))
        self.deck: str = str(getattr(options, "deck", "pairs"))
        self._remaining: Counter[tuple[int, int]] = Counter()

    # ----------------------------------------------------------------- beliefs
    def _unaccounted(self, obs: K20Observation) -> Counter[tuple[int, int]]:
        """Pair types not yet seen with both sides (partial knowledge ignored)."""
        remaining = pair_counts(self.deck)
        piles: list[tuple[CardView, ...]] = [*obs.hands, *obs.scores, obs.ablage, obs.abwurf,
                                             obs.draw_pile]
        for pile in piles:
            for c in pile:
                if c.up is not None and c.down is not None:
                    remaining[pair_key(c.up, c.down)] -= 1
        return remaining

    def counting_dist(self, card: CardView, remaining: Counter[tuple[int, int]]) -> list[float]:
        """Probabilities of the number ``card`` counts with when played (index 0-5)."""
        known = card.down if self.play_flips else card.up
        if known is not None:
            return [1.0 if w == known else 0.0 for w in range(6)]
        other = card.up if self.play_flips else card.down
        weights = [0.0] * 6
        for (a, b), k in remaining.items():
            if k <= 0:
                continue
            if other is None:
                weights[a] += k
                weights[b] += k
            elif a == other:
                weights[b] += k
            elif b == other:
                weights[a] += k
        total = sum(weights)
        if total <= 0:
            return [1 / 6] * 6
        return [w / total for w in weights]

    # ----------------------------------------------------------------- choice
    def act(self, observation: K20Observation, legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions``."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        obs = observation
        self._remaining = self._unaccounted(obs)
        legal = list(legal_actions)
        best = max(legal, key=lambda a: (self._worth(obs, a), -legal.index(a)))
        return best

    def score(self, observation: K20Observation, action: Action) -> float:
        """The cost of ``action`` (lower is better): the search bots' move ordering prior."""
        self._remaining = self._unaccounted(observation)
        return -self._worth(observation, action)

    def _worth(self, obs: K20Observation, action: Action) -> float:
        hand = obs.hand
        if isinstance(action, Pass):
            return 0.0
        if isinstance(action, Claim33):
            cards = [hand[i] for i in action.indices]
            return 20.0 if all(c.up == 3 and c.down == 3 for c in cards) else -20.0
        if isinstance(action, ClaimSum):
            sides = [c.down if action.down else c.up for c in hand]
            if all(v is not None for v in sides) and sum(v or 0 for v in sides) == obs.target:
                return 25.0
            return -20.0
        if isinstance(action, Play):
            return self._play_worth(obs, action.index)
        if isinstance(action, Second):
            p5 = self.counting_dist(hand[action.index], self._remaining)[5]
            return p5 * (5 + SCORE_BONUS) - (1 - p5) * FOUL_COST
        if isinstance(action, SitOut):
            return 1.0
        if isinstance(action, Draw | TakeDraw):
            return 0.5
        if isinstance(action, TakeDiscard):
            return 0.3
        if isinstance(action, Lowest):
            return 1.0 + 0.01 * (hand[action.index].up or 0)
        if isinstance(action, FlipScore):
            card = obs.scores[obs.seat][action.index]
            down = card.down if card.down is not None else 2.5
            gain = (down - (card.up or 0)) * (2 if card.cross else 1)
            return gain - 0.5
        return -1.0  # taking or turning others' cards, throwing: not worth the risk

    def _play_worth(self, obs: K20Observation, index: int) -> float:
        hand = obs.hand
        dist = self.counting_dist(hand[index], self._remaining)
        target = obs.target
        last = len(hand) == 1
        worth = 0.0
        for w, p in enumerate(dist):
            if p <= 0:
                continue
            total = obs.total + w
            if w == 0 and obs.zeros == 2:
                value = -2.0  # the third 0 turns three cards over: a gamble
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
