"""How hard the review's search bot thinks about each decision.

The review's bot is the ``ismcts`` bot with each game's own tuning (``search_defaults``), given
a deterministic budget (iterations and rollout steps, never a clock) at least as large as the
table's strongest bot (``ismcts`` at strength 5, two seconds a move): Krass Kariert and
Casino's strongest bot stops at its game's step cap (8,000 and 10,000 rollout steps) long before
two seconds, so the review searches to the same cap (the same search, made reproducible);
Krumme20's has no step cap and gets about 3,000 iterations in two seconds on the development
machine, so the review runs 3,000.
``benchmarks/review_speed.py`` measures what this costs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """The search parameters of the review's bot per game, and the top-up of the played move.

    ``search`` maps a game's name to ``ismcts`` parameters (``iterations``, ``max_steps``)
    that replace the game's defaults; a game not named keeps its defaults. After the search,
    the played move's estimate is topped up with searches through that move alone until it
    has as many visits as the best move, but at most ``top_up`` (so the two estimates have
    comparable errors even when the search hardly looked at the played move).
    """

    name: str
    search: dict[str, dict[str, Any]] = field(default_factory=dict)
    top_up: int = 200

    def params(self, game_name: str) -> dict[str, Any]:
        """The ``ismcts`` parameters for ``game_name``."""
        return dict(self.search.get(game_name, {}))

    def to_json(self) -> dict[str, Any]:
        """The budget as the review document names it."""
        return {"name": self.name, "search": self.search, "top_up": self.top_up}


FULL_BUDGET: Final = ReviewBudget("full", {
    "krass-kariert": {"iterations": 1_000_000, "max_steps": 8_000},
    "casino": {"iterations": 1_000_000, "max_steps": 10_000},
    "krumme20": {"iterations": 3_000, "max_steps": None},
}, top_up=200)
"""The review players get (terminal and server)."""

FAST_BUDGET: Final = ReviewBudget("fast", {
    "krass-kariert": {"iterations": 40, "max_steps": None},
    "casino": {"iterations": 40, "max_steps": None},
    "krumme20": {"iterations": 40, "max_steps": None},
}, top_up=12)
"""A small budget for tests and quick looks (a weak bot: its marks mean little)."""

BUDGETS: Final = {b.name: b for b in (FULL_BUDGET, FAST_BUDGET)}


def review_budget(name: str) -> ReviewBudget:
    """The budget called ``name`` (``full`` or ``fast``)."""
    return BUDGETS[name]
