"""Bot names to factories. Generic bots work for every game; a game's own bots (its
heuristic, say) are named in its descriptor (``GameDescriptor.bots``); the ``learned`` bot
serves every game whose descriptor names a reinforcement-learning encoding
(``GameDescriptor.encoding``) when numpy, which it plays with, is installed."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import math
from collections.abc import Callable
from typing import Any

from kartentisch.bots.base import Bot
from kartentisch.core.errors import KartentischError, UnknownGameError
from kartentisch.core.registry import descriptor

BotFactory = Callable[..., Bot]
"""``factory(game, seed, **params) -> Bot``."""

_GENERIC: dict[str, str] = {
    "random": "kartentisch.bots.base:RandomBot",
    "first-legal": "kartentisch.bots.base:FirstLegalBot",
    "pimc": "kartentisch.bots.pimc:make_pimc",
    "ismcts": "kartentisch.bots.ismcts:make_ismcts",
}

LEARNED: dict[str, str] = {"learned": "kartentisch.rl.learned:make_learned"}
"""The bot of every game with an encoding: a network's values of the legal actions."""

_RESEARCH: dict[str, str] = {
    # OpenSpiel's IS-MCTS through the research adapter (needs the ``rl`` extra: OpenSpiel)
    "openspiel-ismcts": "kartentisch.rl.openspiel:make_openspiel_ismcts",
}
"""Bots of every game for the command line and the arena only (``list_bots(game,
research=True)``): research tools, not opponents the table server offers to people."""

_PER_GAME: dict[str, dict[str, str]] = {}
"""Bots registered for one game at run time, beside those its descriptor names."""


@functools.cache
def _numpy_installed() -> bool:
    return importlib.util.find_spec("numpy") is not None


def _own_bots(game: str) -> dict[str, str]:
    """The bots of ``game``'s own: the learned bot where the game has an encoding, its
    descriptor's, then those registered at run time."""
    try:
        described = descriptor(game)
    except UnknownGameError:
        return dict(_PER_GAME.get(game, {}))
    learned = LEARNED if described.encoding is not None and _numpy_installed() else {}
    return {**learned, **described.bots, **_PER_GAME.get(game, {})}


def register_bot(name: str, target: str, game: str | None = None) -> None:
    """Register a bot factory ``"module:attr"`` for all games or for one game."""
    table = _GENERIC if game is None else _PER_GAME.setdefault(game, {})
    if name in table or (game is not None and name in _own_bots(game)):
        raise KartentischError(f"bot {name!r} is already registered")
    table[name] = target


def list_bots(game: str, *, research: bool = False) -> list[str]:
    """Bot names available for ``game``; with ``research``, the research bots too (the
    command line and the arena take them, the table server does not offer them)."""
    return sorted({*_GENERIC, *_own_bots(game), *(_RESEARCH if research else ())})


def make_bot(name: str, game: Any, seed: int = 0, **params: Any) -> Bot:
    """A bot by name for ``game`` (a Game instance), seeded with ``seed``.

    ``params`` go to the factory as keyword arguments (e.g. ``iterations`` for ``ismcts``).
    """
    game_name = game.spec.name
    key = name.strip().lower()
    target = _own_bots(game_name).get(key) or _GENERIC.get(key) or _RESEARCH.get(key)
    if target is None:
        raise KartentischError(
            f"unknown bot {name!r} for {game_name}; available:"
            f" {', '.join(list_bots(game_name, research=True))}")
    module_name, _, attr = target.partition(":")
    factory: BotFactory = getattr(importlib.import_module(module_name), attr)
    return factory(game, seed, **params) if params else factory(game, seed)


def parse_params(text: str) -> tuple[str, dict[str, str]]:
    """Split ``"ismcts:iterations=200:rollout=heuristic"`` into a name and parameters.

    >>> parse_params("ismcts:iterations=200")
    ('ismcts', {'iterations': '200'})
    """
    name, *parts = text.split(":")
    params: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bot parameter {part!r} in {text!r} must look like key=value")
        params[key.strip()] = value.strip()
    return name.strip(), params


def bot_param_value(value: str) -> Any:
    """A bot parameter's text as None, an int, a finite float or the text itself (``inf``,
    ``nan`` and numbers too long for an int stay text, which the bot then refuses cleanly:
    ``int(float("inf"))`` raised OverflowError, a traceback).

    >>> [bot_param_value(v) for v in ("none", "12", "0.5", "inf", "nan", "9" * 5000)][:5]
    [None, 12, 0.5, 'inf', 'nan']
    """
    low = value.lower()
    if low in ("none", "null"):
        return None
    try:
        return int(value)
    except ValueError:
        pass
    try:
        number = float(value)
    except ValueError:
        return value
    return number if math.isfinite(number) else value


def build_bot(spec: str, game: Any, seed: int) -> Any:
    """A bot from a spec like ``ismcts`` or ``ismcts:iterations=200:rollout=heuristic``."""
    name, params = parse_params(spec)
    return make_bot(name, game, seed, **{k: bot_param_value(v) for k, v in params.items()})
