"""Bot names to factories. Generic bots work for every game; heuristics are per game."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from kartentisch.bots.base import Bot
from kartentisch.core.errors import KartentischError

BotFactory = Callable[..., Bot]
"""``factory(game, seed, **params) -> Bot``."""

_GENERIC: dict[str, str] = {
    "random": "kartentisch.bots.base:RandomBot",
    "pimc": "kartentisch.bots.pimc:make_pimc",
    "ismcts": "kartentisch.bots.ismcts:make_ismcts",
}

_PER_GAME: dict[str, dict[str, str]] = {
    "casino": {"heuristic": "kartentisch.games.casino.heuristic:HeuristicBot",
               "learned": "kartentisch.rl.learned:make_learned"},
    "krass-kariert": {"heuristic": "kartentisch.games.krass_kariert.heuristic:HeuristicBot",
                      # numpy only (kartentisch.rl is loaded when the bot is made)
                      "learned": "kartentisch.rl.learned:make_learned"},
    "krumme20": {"heuristic": "kartentisch.games.krumme20.heuristic:HeuristicBot"},
}


def register_bot(name: str, target: str, game: str | None = None) -> None:
    """Register a bot factory ``"module:attr"`` for all games or for one game."""
    table = _GENERIC if game is None else _PER_GAME.setdefault(game, {})
    if name in table:
        raise KartentischError(f"bot {name!r} is already registered")
    table[name] = target


def list_bots(game: str) -> list[str]:
    """Bot names available for ``game``."""
    return sorted({*_GENERIC, *_PER_GAME.get(game, {})})


def make_bot(name: str, game: Any, seed: int = 0, **params: Any) -> Bot:
    """A bot by name for ``game`` (a Game instance), seeded with ``seed``.

    ``params`` go to the factory as keyword arguments (e.g. ``iterations`` for ``ismcts``).
    """
    game_name = game.spec.name
    key = name.strip().lower()
    target = _PER_GAME.get(game_name, {}).get(key) or _GENERIC.get(key)
    if target is None:
        raise KartentischError(
            f"unknown bot {name!r} for {game_name}; available: {', '.join(list_bots(game_name))}")
    module_name, _, attr = target.partition(":")
    factory: BotFactory = getattr(importlib.import_module(module_name), attr)
    return factory(game, seed, **params) if params else factory(game, seed)
