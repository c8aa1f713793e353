"""Game registry: names map lazily to game descriptors, so importing one game loads no other.

Each registered name leads to the game's :class:`~kartentisch.core.descriptor.GameDescriptor`
(``games/<package>/descriptor.py``), which names the game class and everything the outer
layers need to know about the game. :func:`all_reasons` gathers every reason table: the
core's, each registered game's and each registered outer table (the server's).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from kartentisch.core.descriptor import GameDescriptor, load_target
from kartentisch.core.errors import KartentischError, UnknownGameError, safe_repr
from kartentisch.core.protocol import Game
from kartentisch.core.reasons import CORE_REASONS, Reasons

_GAMES: dict[str, str] = {
    "casino": "kartentisch.games.casino.descriptor:DESCRIPTOR",
    "krass-kariert": "kartentisch.games.krass_kariert.descriptor:DESCRIPTOR",
    "krumme20": "kartentisch.games.krumme20.descriptor:DESCRIPTOR",
}
"""Game name -> ``"module:ATTRIBUTE"`` of its descriptor."""

_TABLES: dict[str, str] = {
    "match": "kartentisch.bots.match:MATCH_REASONS",
    "server": "kartentisch.server.reasons:SERVER_REASONS",
    "web": "kartentisch.server.reasons:WEB_REASONS",
    "night": "kartentisch.server.reasons:NIGHT_REASONS",
    "review": "kartentisch.review.reasons:REVIEW_REASONS",
}
"""Reason tables beyond the core's and the games': name -> ``"module:ATTRIBUTE"``, imported
only when :func:`all_reasons` runs (such a module must import no more than this one does)."""


def register_game(name: str, target: str) -> None:
    """Register ``name`` for the descriptor at ``"module:ATTRIBUTE"``; registering a name
    twice raises."""
    if name in _GAMES:
        raise KartentischError(f"game {name!r} is already registered")
    _GAMES[name] = target
    all_reasons.cache_clear()


def register_reasons(name: str, target: str) -> None:
    """Register the reason table at ``"module:ATTRIBUTE"`` under ``name`` (once), so that
    :func:`all_reasons`, the generated docs and the translation tests cover it."""
    if name in _TABLES:
        raise KartentischError(f"reason table {name!r} is already registered")
    _TABLES[name] = target
    all_reasons.cache_clear()


def list_games() -> list[str]:
    """The registered game names, sorted."""
    return sorted(_GAMES)


@functools.cache
def _load(target: str) -> GameDescriptor:
    found = load_target(target)
    if not isinstance(found, GameDescriptor):
        raise KartentischError(f"{target} is not a game descriptor")
    return found


def descriptor(name: str) -> GameDescriptor:
    """The descriptor registered for ``name`` (``krass_kariert`` and ``Krass-Kariert`` find
    ``krass-kariert``)."""
    key = name.strip().lower().replace("_", "-") if isinstance(name, str) else None
    if key not in _GAMES:
        known = ", ".join(list_games())
        raise UnknownGameError(
            f"unknown game {safe_repr(name)}; known games: {known}",
            params={"value": safe_repr(name), "known": known})
    return _load(_GAMES[key])


def descriptors() -> list[GameDescriptor]:
    """Every registered game's descriptor, by name."""
    return [descriptor(name) for name in list_games()]


def descriptor_of(game: Game[Any, Any, Any]) -> GameDescriptor:
    """The descriptor of ``game`` (an instance); a game that is not registered gets a plain
    one (no hooks, no presenter, its spectator view as the open view)."""
    name = game.spec.name
    if name in _GAMES:
        return descriptor(name)
    cls = type(game)
    return GameDescriptor(name=name, game=f"{cls.__module__}:{cls.__qualname__}")


def game_class(name: str) -> type[Game[Any, Any, Any]]:
    """The class registered for ``name``."""
    return descriptor(name).game_class


def load_game(
    name: str, players: int | None = None, options: Mapping[str, Any] | None = None
) -> Game[Any, Any, Any]:
    """A game instance by registry name, player count and options."""
    return game_class(name)(players, options)


@functools.cache
def all_reasons() -> Reasons:
    """Every reason code: the core's, every registered game's and every registered table's,
    such as the table server's (cached; registering a game or table clears the cache)."""
    table = CORE_REASONS
    for name in list_games():
        table = table | game_class(name).reasons
    for target in _TABLES.values():
        table = table | load_target(target)
    return table
