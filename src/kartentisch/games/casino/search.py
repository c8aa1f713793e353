"""Search advice for Casino: the search bots' default parameters for this game.

Both bots play out with the heuristic's move (``Casino.rollout_action``, computed from the
world state) only to the end of the current hand (``Casino.horizon_key``) and score it with
``Casino.evaluate`` (scores plus expected pack points, the majorities as probabilities):
short, cheap playouts with a dense signal instead of random playouts to the end of the
pack. Screening on one-pack duplicate deals against the heuristic (30 deals, both seats,
200 iterations): mean pack margin +2.3 to +3.4 points for ismcts and +2.6 to +3.1 for pimc
(paired standard error about 0.6); 400 iterations were not clearly better (+2.6, +3.3) at
twice the time. The anchor (keep the heuristic's move unless the search finds one better
by more than one standard error) helps: without it ismcts fell to +1.9.

Whole games (``benchmarks/strength.py``, one worker, machine shared): ismcts won 78.3% of
120 games [70.1%, 84.8%] (seed 2026), 0.12 s median / 0.57 s max per move; re-measured on
the shared state core (new deals and ids, rollouts through the heuristic's own scoring):
77.0% of 100 [67.8%, 84.2%] (seed 2026), 0.14 s median per move (machine heavily loaded);
pimc won 83.3% of 48 [70.4%, 91.3%] (seed 2026) and 82.6% of 144 [75.6%, 88.0%] (seed 2027), 0.06 s
median / 0.46 s max per move.
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
