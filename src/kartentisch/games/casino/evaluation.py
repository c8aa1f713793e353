"""Casino positions scored for search: expected points of the running pack, win chances.

A search playout that stops before the pack is over (at the end of the current hand, see
:func:`hand_key`) needs a score that is dense and fair. Counting the running pack as if it
ended now (who leads in cards takes the 3 points) is neither: early in a pack the leader in
cards changes many times. Instead, :func:`expected_pack_points` counts

* the points already captured (casinos, aces, sweeps) at full value, and
* the cards and spades majorities as *probabilities*: the cards not yet captured are
  assumed to split between the sides like fair coin flips (a normal approximation with a
  wider spread, since cards are taken in clumps), so a lead of two cards with forty to go
  is worth a little, a lead of two with four to go a lot.

Points still out (casinos and aces not captured yet) are shared evenly, so they change no
side's margin. :func:`win_values` turns the scores plus these expectations into the
search's returns: each side's chance to win is a logistic function of its expected lead
(as the game's returns, +share for a win and -1 for a loss, expected).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from kartentisch.games.casino.cards import BIG_CASINO, LITTLE_CASINO, SPADES

if TYPE_CHECKING:
    from kartentisch.games.casino.state import CasinoState

SPREAD: Final = 1.5
"""How much wider than fair coin flips the split of the uncaptured cards is assumed."""
TEMPERATURE: Final = 4.0
"""Points of expected lead that make a side's win about e times as likely (logistic)."""

_POINTS: Final[tuple[float, ...]] = tuple(
    (2.0 if c == BIG_CASINO else 1.0 if c == LITTLE_CASINO else 0.0) + (1.0 if c < 4 else 0.0)
    for c in range(52))
"""Points each card scores by itself (casinos, aces)."""
_SPADE: Final[tuple[int, ...]] = tuple(1 if c % 4 == SPADES else 0 for c in range(52))


def hand_key(state: CasinoState) -> tuple[int, int]:
    """Changes when new cards are dealt or the pack ends: (pack, cards left in the pack).

    >>> from kartentisch.games.casino import Casino
    >>> s = Casino(2).new_initial_state(1)
    >>> hand_key(s)
    (0, 40)
    """
    return state.pack, len(state.deck)


def majority_chance(lead: int, remaining: int, spread: float = SPREAD) -> tuple[float, float]:
    """Chances that the leading side (by ``lead`` >= 0) or the other ends with strictly more.

    ``remaining`` items are still to be shared out between two sides; the final difference
    is the lead plus a normal variable of spread ``spread * sqrt(remaining)`` (fair coin
    flips have spread ``sqrt(remaining)``). Ties score for nobody.

    >>> majority_chance(3, 0)
    (1.0, 0.0)
    >>> majority_chance(0, 0)
    (0.0, 0.0)
    >>> a, b = majority_chance(0, 20); round(a, 6) == round(b, 6)
    True
    """
    if remaining <= 0:
        return (1.0, 0.0) if lead > 0 else (0.0, 1.0) if lead < 0 else (0.0, 0.0)
    if lead > remaining:
        return 1.0, 0.0
    sd = spread * math.sqrt(remaining) * math.sqrt(2.0)
    # the final difference moves in steps of 2: P(D >= 1) and P(D <= -1), with D's parity
    ahead = 0.5 * math.erfc(-(lead - 1.0) / sd) if (lead + remaining) % 2 == 0 else \
        0.5 * math.erfc(-(lead - 0.0) / sd)
    behind = 0.5 * math.erfc((lead + 1.0) / sd) if (lead + remaining) % 2 == 0 else \
        0.5 * math.erfc((lead - 0.0) / sd)
    return ahead, behind


def expected_pack_points(state: CasinoState) -> list[float]:
    """Each side's expected points from the running pack (see the module docstring).

    Uncaptured casinos and aces add nothing here (they are shared evenly, so they do not
    change any margin); for more than two sides the majorities are split by a softer rule.
    """
    game = state.game
    sides = game.sides
    side_of = game.side_of
    points = [0.0] * sides
    cards = [0] * sides
    spades = [0] * sides
    for seat, pile in enumerate(state.captured):
        side = side_of(seat)
        cards[side] += len(pile)
        spades[side] += sum(_SPADE[c] for c in pile)
        points[side] += sum(_POINTS[c] for c in pile) + state.sweeps[seat]
    for counts, total, worth in ((cards, 52, 3.0), (spades, 13, 1.0)):
        remaining = total - sum(counts)
        if sides == 2:
            lead = counts[0] - counts[1]
            if lead >= 0:
                first, second = majority_chance(lead, remaining)
            else:
                second, first = majority_chance(-lead, remaining)
            points[0] += worth * first
            points[1] += worth * second
        else:
            scale = SPREAD * math.sqrt(remaining) + 1.0
            top = max(counts)
            weights = [math.exp((c - top) / scale) for c in counts]
            norm = sum(weights)
            for s in range(sides):
                points[s] += worth * weights[s] / norm
    return points


def win_values(state: CasinoState, temperature: float = TEMPERATURE) -> list[float]:
    """Expected returns per seat: win chances from scores plus expected pack points.

    A side's chance to win is a softmax of its expected total over ``temperature`` points
    (for two sides a logistic function of the expected lead); each seat's value is its
    side's chance times the game's win share minus the chance to lose.
    """
    if state.is_terminal():
        return state.returns()
    game = state.game
    strength = [float(p) for p in state.scores]
    if any(state.captured):
        strength = [a + b for a, b in zip(strength, expected_pack_points(state), strict=True)]
    top = max(strength)
    weights = [math.exp((x - top) / temperature) for x in strength]
    total = sum(weights)
    n = game.players
    seats_per_side = n // game.sides
    win_share = (n - seats_per_side) / seats_per_side
    out = []
    for seat in range(n):
        p = weights[game.side_of(seat)] / total
        out.append(p * win_share - (1 - p))
    return out
