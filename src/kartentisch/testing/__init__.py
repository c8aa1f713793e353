"""The conformance suite every game must pass, as a library.

- :func:`check_game` plays seeded random games of one variant and checks every invariant
  of the game protocol (see :mod:`.conformance`);
- :func:`variants` lists the variants a run covers: every player count, every option value;
- :mod:`.determinism` replays games in interpreters with other hash seeds;
- :mod:`.soak` is ``make soak``: a million random games per game with a lean check per move;
- :mod:`.playthrough` writes and checks the golden playthroughs in ``tests/playthroughs``;
- :mod:`.mutations` makes one-change copies of a written document, to hold a game's fast
  document reader to its checked one;
- :mod:`.strategies` holds hypothesis strategies for fuzzing the public API (it imports
  hypothesis, a development dependency; nothing else here does).

A fourth game passes the suite once it is registered and :mod:`.cards` knows where its
position document keeps its cards.
"""

from kartentisch.testing.conformance import (
    QUICK,
    SOAK,
    Depth,
    Report,
    canon,
    check_game,
    error_problem,
)
from kartentisch.testing.errors import ConformanceError
from kartentisch.testing.variants import Variant, all_variants, variants

__all__ = [
    "QUICK",
    "SOAK",
    "ConformanceError",
    "Depth",
    "Report",
    "Variant",
    "all_variants",
    "canon",
    "check_game",
    "error_problem",
    "variants",
]
