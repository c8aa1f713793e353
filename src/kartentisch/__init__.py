"""kartentisch: Krass Kariert, Casino and Krumme20 — exact rules, bots and research APIs."""

from kartentisch.core.errors import (
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionsError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidSeatError,
    InvalidSeedError,
    KartentischError,
    NotYourTurnError,
    UnknownGameError,
)
from kartentisch.core.protocol import TERMINAL, Event, Game, GameSpec, State
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import list_games, load_game

__all__ = [
    "TERMINAL",
    "AmbiguousActionError",
    "Event",
    "Game",
    "GameRecord",
    "GameSpec",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionsError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidSeatError",
    "InvalidSeedError",
    "KartentischError",
    "NotYourTurnError",
    "State",
    "UnknownGameError",
    "list_games",
    "load_game",
]
