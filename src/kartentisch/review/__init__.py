"""The game review: every decision of one seat of a finished game rated by the search bot.

For each decision of the reviewed seat that was not forced, the review's search bot
estimates, from that seat's observation at that moment only (never the hidden cards), the
chance to win after the move played and after the best move it finds. A move clearly worse
than the best is marked as an inaccuracy or a mistake (:mod:`kartentisch.review.marks`). A
review is reproducible: the same record, seat, seed and budget give the same review on every
machine, with any number of worker processes.

- :mod:`~kartentisch.review.budget` how hard the review's bot searches;
- :mod:`~kartentisch.review.search` the estimate of one decision;
- :mod:`~kartentisch.review.marks` the marks and their thresholds;
- :mod:`~kartentisch.review.engine` the decisions of a record and the review document
  (``docs/review.md`` describes its JSON form).
"""

from __future__ import annotations

from kartentisch.review.budget import FAST_BUDGET, ReviewBudget, review_budget
from kartentisch.review.engine import (
    REVIEW_FORMAT,
    Position,
    positions_of,
    review_positions,
    review_record,
)
from kartentisch.review.marks import INACCURACY, MISTAKE, Z_SCORE, mark_of

__all__ = ["FAST_BUDGET", "INACCURACY", "MISTAKE", "REVIEW_FORMAT", "Z_SCORE", "Position",
           "ReviewBudget", "mark_of", "positions_of", "review_budget", "review_positions",
           "review_record"]
