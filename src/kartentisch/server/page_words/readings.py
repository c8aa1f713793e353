"""The words of the rules' readings on the page (issue 30): the steps that a rules option
words differently (Krumme20's ``compensation=take``).

Listed for the extractor only (see the package's docstring).
"""

from __future__ import annotations

from typing import Final

from kartentisch.core.reasons import N_

READINGS_MESSAGES: Final = (
    N_("compensation for a taken card: take one like the 1's action, or pass"),
    N_("compensation for sitting out: take one like the 1's action (or with 5 cards put a "
       "lowest on your score pile), or pass"),
)
