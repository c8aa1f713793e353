"""kartentisch: Krass Kariert, Casino and Krumme20 — exact rules, bots and research APIs."""

# First: decide between the compiled core and pure Python before any rules module loads.
from kartentisch import _native

compiled: bool = _native.install()
"""Whether the compiled core (mypyc) runs; see :mod:`kartentisch._native`."""

# ruff: noqa: E402
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
    "compiled",
    "list_games",
    "load_game",
]
