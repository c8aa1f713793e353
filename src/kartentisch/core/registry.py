"""Game registry: names map lazily to game classes, so importing one game loads no other."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from typing import Any

from kartentisch.core.errors import KartentischError, UnknownGameError, safe_repr
from kartentisch.core.protocol import Game
from kartentisch.core.reasons import all_reasons

_GAMES: dict[str, str] = {
    "casino": "kartentisch.games.casino.game:Casino",
    "krass-kariert": "kartentisch.games.krass_kariert.game:KrassKariert",
    "krumme20": "kartentisch.games.krumme20.game:Krumme20",
}


def register_game(name: str, target: str) -> None:
    """Register ``name`` for ``"module:Class"``; registering a name twice raises."""
    if name in _GAMES:
        raise KartentischError(f"game {name!r} is already registered")
    _GAMES[name] = target
    all_reasons.cache_clear()


def list_games() -> list[str]:
    """The registered game names, sorted."""
    return sorted(_GAMES)


@functools.cache
def _load(target: str) -> type[Game[Any, Any, Any]]:
    module_name, _, class_name = target.partition(":")
    cls: type[Game[Any, Any, Any]] = getattr(importlib.import_module(module_name), class_name)
    return cls


def game_class(name: str) -> type[Game[Any, Any, Any]]:
    """The class registered for ``name``."""
    key = name.strip().lower().replace("_", "-") if isinstance(name, str) else None
    if key not in _GAMES:
        known = ", ".join(list_games())
        raise UnknownGameError(
            f"unknown game {safe_repr(name)}; known games: {known}",
            params={"value": safe_repr(name), "known": known})
    return _load(_GAMES[key])


def load_game(
    name: str, players: int | None = None, options: Mapping[str, Any] | None = None
) -> Game[Any, Any, Any]:
    """A game instance by registry name, player count and options."""
    return game_class(name)(players, options)
