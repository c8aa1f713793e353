"""Search advice for Casino: the search bots' default parameters for this game."""

from __future__ import annotations

from typing import Any

SEARCH_DEFAULTS: dict[str, dict[str, Any]] = {
    "ismcts": {"iterations": 250, "rollout": "random", "widening": 0.0,
               "max_playout": None, "max_steps": 10_000, "prior": True, "anchor": 1.0},
    "pimc": {"iterations": 250, "rollout": "random", "max_playout": None,
             "max_steps": 10_000, "anchor": 1.0},
}
"""Default parameters of the search bots for this game (a move well under a second)."""
