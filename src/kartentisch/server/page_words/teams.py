"""The words of teams at the table (js/teams.js, the seats' team markers, the end screen's
team result and the series by team).

Listed for the extractor only (see the package's docstring).
"""

from __future__ import annotations

from typing import Final

from kartentisch.core.reasons import N_

TEAM_MESSAGES: Final = (
    N_("Team {letter}"),
    N_("Teams"),
    N_("Team"),
    N_("your team"),
    N_("Team result"),
    N_("The teams draw."),
    N_("Shared win: {teams}."),
    N_("{team} wins: {names}."),
    N_("Your team wins!"),
    N_("Your team shares the win!"),
    N_("Your team loses."),
    N_("{names} and {last}"),
    N_("draw"),
)
