"""The finished games the review tests look at: heuristic bots, fixed seeds, small games."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from kartentisch.bots import make_bot
from kartentisch.bots.match import play_match
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game

DATA: Final = Path(__file__).parent / "data"

GAMES: Final = (("krass-kariert", 3, {}), ("casino", 2, {}), ("krumme20", 2, {"turn_limit": 16}))
"""Each game with a player count and options that make a short game."""


def played(name: str, players: int, options: dict[str, object], seed: int = 5) -> GameRecord:
    """The record of a game of heuristic bots (seat 0 named a human: the reviewed seat)."""
    game = load_game(name, players, options)
    state = game.new_initial_state(seed)
    play_match(game, seed, [make_bot("heuristic", game, s) for s in range(players)],
               state=state)
    return GameRecord.from_state(name, state, ["human"] + ["heuristic"] * (players - 1))


def stored(name: str) -> GameRecord:
    """The golden record of ``name`` in ``tests/review/data``."""
    return GameRecord.load(DATA / f"{name}.record.json")
