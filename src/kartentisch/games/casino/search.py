"""Search advice for Casino: the search bots' default parameters for this game.

Both bots play out with the heuristic bot (about 40 µs a move) only to the end of the
current hand (``Casino.horizon_key``) and score it with ``Casino.evaluate`` (expected pack
points, majorities as probabilities): short, cheap playouts with a dense signal beat
random playouts to the end of the pack by far (one-pack duplicate deals against the
heuristic, 200 iterations: mean pack margin about +3 points instead of about 0). The
anchor (keep the heuristic's move unless the search finds one better by more than one
standard error) helps: without it the margin fell to about +2.
"""

from __future__ import annotations

from typing import Any

SEARCH_DEFAULTS: dict[str, dict[str, Any]] = {
    "ismcts": {"iterations": 200, "rollout": "heuristic", "widening": 0.0,
               "max_playout": None, "max_steps": 10_000, "prior": True, "anchor": 1.0},
    "pimc": {"iterations": 200, "rollout": "heuristic", "max_playout": None,
             "max_steps": 10_000, "anchor": 1.0},
}
"""Default parameters of the search bots for this game (a move well under a second)."""
