"""Krumme20: double-sided cards played towards exactly 20, with the advanced rules."""

from kartentisch.games.krumme20.actions import (
    Action,
    Claim33,
    ClaimSum,
    Draw,
    Flip,
    FlipScore,
    Lowest,
    Pass,
    Play,
    Second,
    SitOut,
    Take,
    TakeDiscard,
    TakeDraw,
    TakeScore,
    Throw,
)
from kartentisch.games.krumme20.game import Krumme20
from kartentisch.games.krumme20.observation import CardView, K20Observation
from kartentisch.games.krumme20.options import K20Options
from kartentisch.games.krumme20.state import K20State

__all__ = [
    "Action",
    "CardView",
    "Claim33",
    "ClaimSum",
    "Draw",
    "Flip",
    "FlipScore",
    "K20Observation",
    "K20Options",
    "K20State",
    "Krumme20",
    "Lowest",
    "Pass",
    "Play",
    "Second",
    "SitOut",
    "Take",
    "TakeDiscard",
    "TakeDraw",
    "TakeScore",
    "Throw",
]
