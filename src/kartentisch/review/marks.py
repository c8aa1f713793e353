"""Which moves the review marks, and why those thresholds.

Each reviewed decision has two estimates of the chance to win, one after the move played and
one after the search's best move, each the mean of many sampled worlds and playouts, so each
has a standard error (the spread of its playouts over the square root of their count). The
*loss* is the best move's chance minus the played move's (zero when the player chose the
search's move), and its standard error combines the two: ``sqrt(se_best² + se_played²)``
(the estimates come from different playouts, so their errors add as independent ones).

A move is marked when the loss is both large and clearly more than noise:

- a **mistake** when the loss is at least :data:`MISTAKE` (15 points of chance to win);
- an **inaccuracy** when it is at least :data:`INACCURACY` (5 points);
- and in both cases only when the loss is at least :data:`Z_SCORE` (2) standard errors, so
  that under a normal approximation a move is marked wrongly in about one decision of 40
  where it was in truth as good as the best. A move whose loss is large but uncertain (few
  playouts through it) is not marked.

The thresholds are those of chess sites (a drop in the chance to win) halved for
inaccuracies: a card game's single decisions move the outcome less than a chess move, and the
study in ``benchmarks/RESULTS.md`` looks at how the marks relate to losing.
"""

from __future__ import annotations

import math
from typing import Final, Literal

INACCURACY: Final = 0.05
"""Loss of chance to win (0-1) from which a move is an inaccuracy."""
MISTAKE: Final = 0.15
"""Loss of chance to win (0-1) from which a move is a mistake."""
Z_SCORE: Final = 2.0
"""How many standard errors the loss must be at least for any mark."""

Mark = Literal["inaccuracy", "mistake"]


def mark_of(loss: float, loss_se: float) -> Mark | None:
    """The mark of a move that lost ``loss`` chance to win with standard error ``loss_se``."""
    if not math.isfinite(loss) or not loss > 0 or loss < Z_SCORE * loss_se:
        return None
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def thresholds() -> dict[str, float]:
    """The thresholds as the review document states them."""
    return {"inaccuracy": INACCURACY, "mistake": MISTAKE, "z": Z_SCORE}
