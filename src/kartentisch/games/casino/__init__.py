"""Casino: the classic fishing game for 2-4 players (captures, builds, calls)."""

from kartentisch.games.casino.actions import Action, Build, Capture, Trail
from kartentisch.games.casino.game import Casino
from kartentisch.games.casino.observation import CasinoObservation
from kartentisch.games.casino.options import CasinoOptions
from kartentisch.games.casino.state import CasinoState
from kartentisch.games.casino.table import BuildUnit

__all__ = [
    "Action",
    "Build",
    "BuildUnit",
    "Capture",
    "Casino",
    "CasinoObservation",
    "CasinoOptions",
    "CasinoState",
    "Trail",
]
