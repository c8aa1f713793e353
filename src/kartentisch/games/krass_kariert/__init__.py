"""Krass Kariert: a climbing game where the hand may never be sorted."""

from kartentisch.games.krass_kariert.actions import (
    Action,
    Concede,
    InsertDrawn,
    Play,
    TakeReserve,
)
from kartentisch.games.krass_kariert.game import KrassKariert
from kartentisch.games.krass_kariert.observation import KKObservation
from kartentisch.games.krass_kariert.options import KKOptions
from kartentisch.games.krass_kariert.state import KKState

__all__ = [
    "Action",
    "Concede",
    "InsertDrawn",
    "KKObservation",
    "KKOptions",
    "KKState",
    "KrassKariert",
    "Play",
    "TakeReserve",
]
