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

The scoring lives in :class:`Situation`, a light view of what the acting seat knows; the
bot builds one from its observation, and the search playouts (:mod:`.rollout`) build one
straight from a state, so both score every action with the same code.
"""

from __future__ import annotations

import random
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
from kartentisch.games.krumme20.cards import DECKS, pair_counts
from kartentisch.games.krumme20.observation import CardView, K20Observation

FOUL_COST: Final = 6.0
"""What a foul costs: every opponent may bank a card."""
SCORE_BONUS: Final = 3.0
"""Worth of reaching the target beyond the card's points (the play pile is cleared)."""
REACH_COST: Final = 1.5
"""Cost of leaving the total within one card of the target for the next player."""
THIRD_ZERO: Final = -2.0
"""Worth of a third 0 in a row: it turns three cards over, a gamble."""
UNKNOWN_DOWN: Final = 2.5
"""The expected number of an unknown side, for turning a score card over."""
ACTION_BONUS: Final[dict[int, float]] = {0: 0.3, 1: 0.5, 2: 0.8, 3: 0.0, 4: 1.0, 5: 0.2}
"""Worth of the special action a counting number opens."""


def _pair_table(deck: str) -> list[int]:
    """The deck's count of each pair type, indexed ``6 * low + high``."""
    table = [0] * 36
    for (a, b), k in pair_counts(deck).items():
        table[6 * a + b] = k
    return table


DECK_PAIRS: Final[dict[str, list[int]]] = {deck: _pair_table(deck) for deck in DECKS}
"""Every deck's pair table (copy it before changing it)."""
NO_PAIRS: Final[list[int]] = []
"""The pair table of a situation whose scoring never needs one (no card is played)."""


def counting_dist(card: CardView, remaining: list[int], play_flips: bool) -> list[float]:
    """Probabilities (index 0-5) of the number ``card`` counts with when played, given the
    pair types ``remaining`` (indexed ``6 * low + high``) the viewer has not accounted for."""
    known = card.down if play_flips else card.up
    if known is not None:
        return [1.0 if w == known else 0.0 for w in range(6)]
    other = card.up if play_flips else card.down
    weights = [0.0] * 6
    if other is not None:
        for w in range(6):
            k = remaining[6 * other + w if other <= w else 6 * w + other]
            if k > 0:
                weights[w] = k
    else:
        for a in range(6):
            for b in range(a, 6):
                k = remaining[6 * a + b]
                if k > 0:
                    weights[a] += k
                    weights[b] += k
    total = sum(weights)
    if total <= 0:
        return [1 / 6] * 6
    return [w / total for w in weights]


class Situation:
    """What the acting seat knows that the heuristic's scoring reads: a light view.

    ``hand`` and ``score_pile`` are the seat's own personal cards and score pile as it sees
    them; ``remaining`` counts the pair types it has not seen with both sides, partial
    knowledge ignored (needed only to score plays and the second card: :data:`NO_PAIRS`
    elsewhere). :meth:`worth` is the one scoring of the bot and of the search playouts.
    """

    __slots__ = ("any_crosswise", "hand", "play_flips", "remaining", "score_pile", "target",
                 "total", "zeros")

    def __init__(self, hand: Sequence[CardView], score_pile: Sequence[CardView], *,
                 target: int, total: int, zeros: int, remaining: list[int],
                 play_flips: bool, any_crosswise: bool = True):
        """``any_crosswise``: whether any card making the target as the last personal card
        lies crosswise (the option ``last_card_crosswise``), or only one counting 5."""
        self.hand = hand
        self.any_crosswise = any_crosswise
        self.score_pile = score_pile
        self.target = target
        self.total = total
        self.zeros = zeros
        self.remaining = remaining
        self.play_flips = play_flips

    def worth(self, action: Action) -> float:
        """The expected worth of ``action`` (higher is better)."""
        hand = self.hand
        if isinstance(action, Play):
            return self.play_worth(action.index)
        if isinstance(action, Pass):
            return 0.0
        if isinstance(action, Second):
            p5 = counting_dist(hand[action.index], self.remaining, self.play_flips)[5]
            return p5 * (5 + SCORE_BONUS) - (1 - p5) * FOUL_COST
        if isinstance(action, SitOut):
            return 1.0
        if isinstance(action, Lowest):
            return 1.0 + 0.01 * (hand[action.index].up or 0)
        if isinstance(action, Draw | TakeDraw):
            return 0.5
        if isinstance(action, TakeDiscard):
            return 0.3
        if isinstance(action, Claim33):
            cards = [hand[i] for i in action.indices]
            return 20.0 if all(c.up == 3 and c.down == 3 for c in cards) else -20.0
        if isinstance(action, ClaimSum):
            sides = [c.down if action.down else c.up for c in hand]
            if all(v is not None for v in sides) and sum(v or 0 for v in sides) == self.target:
                return 25.0
            return -20.0
        if isinstance(action, FlipScore):
            card = self.score_pile[action.index]
            down = float(card.down) if card.down is not None else UNKNOWN_DOWN
            gain = (down - (card.up or 0)) * (2 if card.cross else 1)
            return gain - 0.5
        return -1.0  # taking or turning others' cards, throwing: not worth the risk

    def play_worth(self, index: int) -> float:
        """The expected worth of playing personal card ``index`` now."""
        hand = self.hand
        dist = counting_dist(hand[index], self.remaining, self.play_flips)
        target = self.target
        last = len(hand) == 1
        worth = 0.0
        for w, p in enumerate(dist):
            if p <= 0:
                continue
            total = self.total + w
            if w == 0 and self.zeros == 2:
                value = THIRD_ZERO
            elif total == target:
                doubled = last and (self.any_crosswise or w == 5)
                value = w * (2 if doubled else 1) + SCORE_BONUS
            elif total > target:
                value = -FOUL_COST
            else:
                value = ACTION_BONUS.get(w, 0.0)
                if target - total <= 5:
                    value -= REACH_COST
            worth += p * value
        return worth


def unaccounted(obs: K20Observation, deck: str) -> list[int]:
    """Pair types (indexed ``6 * low + high``) the viewer has not seen with both sides."""
    remaining = DECK_PAIRS[deck].copy()
    for pile in (*obs.hands, *obs.scores, obs.ablage, obs.abwurf, obs.draw_pile):
        for c in pile:
            a, b = c.up, c.down
            if a is not None and b is not None:
                remaining[6 * a + b if a <= b else 6 * b + a] -= 1
    return remaining


class HeuristicBot:
    """Plays the action with the best expected worth by simple rules (see module doc)."""

    name = "heuristic"

    def __init__(self, game: Any = None, seed: int = 0):
        self.rng = random.Random(seed)
        options = getattr(game, "options", None)
        self.play_flips: bool = bool(getattr(options, "play_flips", True))
        self.deck: str = str(getattr(options, "deck", "pairs"))
        self.any_crosswise: bool = getattr(options, "last_card_crosswise", "any_card") == "any_card"

    def situation(self, obs: K20Observation) -> Situation:
        """The light view of ``obs`` that the scoring reads."""
        if obs.seat is None:
            raise ValueError("a spectator's observation has no player to choose for")
        return Situation(obs.hand, obs.scores[obs.seat], target=obs.target, total=obs.total,
                         zeros=obs.zeros, remaining=unaccounted(obs, self.deck),
                         play_flips=self.play_flips, any_crosswise=self.any_crosswise)

    def act(self, observation: K20Observation, legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions``: the best worth, the first of equals."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        view = self.situation(observation)
        best = legal_actions[0]
        best_worth = view.worth(best)
        for action in legal_actions[1:]:
            worth = view.worth(action)
            if worth > best_worth:
                best, best_worth = action, worth
        return best

    def score(self, observation: K20Observation, action: Action) -> float:
        """The cost of ``action`` (lower is better): the search bots' move ordering prior."""
        return -self.situation(observation).worth(action)
