"""The game descriptor: everything the outer layers need to know about one game, in one place.

The registry hands out one :class:`GameDescriptor` per game
(:func:`kartentisch.core.registry.descriptor`). The table server, the command line, the
page, the arena, the bots and the research code read it instead of branching on a game's
name, so a fourth game is one more descriptor, not a dozen ``if name == ...``:

- the rules options with a label, a one-line help and words for their values
  (:meth:`GameDescriptor.options`, written once in the options class's field metadata);
- what the returns mean (:attr:`returns_help`) and how a mean return maps to a chance of
  winning (:attr:`win_range`);
- the all-hands-open view of a finished game (:attr:`open_view`);
- the search hooks as the declared types of :mod:`kartentisch.core.search`
  (:attr:`search_hooks`);
- the per-game statistics a simulation reports (:attr:`statistics`, :attr:`stat_labels`);
- the modules it pairs with, named as text so that loading a descriptor imports none of
  them: the terminal presenter, the page's game module, the bots of its own, the
  reinforcement-learning encoding and the research settings.

A descriptor module (``games/<package>/descriptor.py``) imports nothing of its game at
module level; the functions it names import what they need when called.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kartentisch.core.options import OptionInfo, option_infos
from kartentisch.core.search import NO_HOOKS, SearchHooks

if TYPE_CHECKING:
    from kartentisch.core.protocol import Game, State

JSON = dict[str, Any]


def load_target(target: str) -> Any:
    """The attribute named by ``"package.module:attribute"``."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def _spectator_view(state: State[Any, Any]) -> JSON:
    view: JSON = state.observation(None).to_json()
    return view


def _no_hooks(_game: Any) -> SearchHooks:
    return NO_HOOKS


def _no_statistics(_state: State[Any, Any]) -> dict[str, float]:
    return {}


def _utility_range(game: Game[Any, Any, Any]) -> tuple[float, float]:
    return float(game.spec.min_utility), float(game.spec.max_utility)


def _no_teams(_game: Game[Any, Any, Any]) -> tuple[tuple[int, ...], ...]:
    return ()


@dataclass(frozen=True)
class GameDescriptor:
    """One game as the outer layers see it (see the module docstring)."""

    name: str
    """The registry name (``"krass-kariert"``)."""
    game: str
    """``"module:Class"`` of the game class."""
    returns_help: str = ""
    """One sentence (an English message id) saying what a seat's return means."""
    win_range: Callable[[Game[Any, Any, Any]], tuple[float, float]] = _utility_range
    """``(loser's return, a lone winner's return)`` of a game with these players and
    options: a hint's mean return maps linearly from it to a chance of winning."""
    open_view: Callable[[State[Any, Any]], JSON] = _spectator_view
    """The spectator's observation document with every hidden card shown (a finished
    game's replay with all hands open); the default shows only what is public."""
    search_hooks: Callable[[Any], SearchHooks] = _no_hooks
    """The game's search hooks for the generic search bots (see :mod:`.search`), read from
    a game instance (or anything that stands in for one, such as a test's wrapper)."""
    statistics: Callable[[State[Any, Any]], dict[str, float]] = _no_statistics
    """Extra numbers of a finished game for ``kartentisch simulate`` (plain floats)."""
    stat_labels: Mapping[str, str] = field(default_factory=dict)
    """A label (English message id) for each key :attr:`statistics` returns."""
    presenter: str | None = None
    """The module holding the terminal presenter (``PRESENTER``), or ``None``."""
    page_module: str | None = None
    """The page's module for this game under ``server/static/js/games/`` (a file name)."""
    bots: Mapping[str, str] = field(default_factory=dict)
    """Bots of this game's own, by name: ``"module:Class"`` (its heuristic, say)."""
    encoding: str | None = None
    """``"module:Class"`` of the reinforcement-learning encoding, or ``None``."""
    train_target: str = "game"
    """The return a learner's decisions learn by default (``game``, ``deal``, ``pack``)."""
    train_targets: tuple[str, ...] = ("game",)
    """Every target this game offers (``pack`` needs packs, ``deal`` deals)."""
    max_game_length: int | None = None
    """An upper bound of a game's actions for OpenSpiel (``None``: OpenSpiel's default)."""
    teams: Callable[[Game[Any, Any, Any]], tuple[tuple[int, ...], ...]] = _no_teams
    """The seats of each team of a game with these players and options, every seat in
    exactly one team, teams in a fixed order (team 0 first); ``()`` when every seat plays
    for itself. Public knowledge: the arena reports teams, the table colours them."""

    @functools.cached_property
    def game_class(self) -> type[Game[Any, Any, Any]]:
        """The game class (imported on first use)."""
        cls: type[Game[Any, Any, Any]] = load_target(self.game)
        return cls

    def options(self) -> tuple[OptionInfo, ...]:
        """The rules options with their label, help and value words."""
        return option_infos(self.game_class.options_type)

    def win_chance(self, game: Game[Any, Any, Any], mean: float) -> float:
        """A mean return turned into a chance of winning, between a loser's return and a
        lone winner's (:attr:`win_range`); shared wins count in between (an estimate)."""
        low, high = self.win_range(game)
        if high <= low:
            return 0.5
        return min(1.0, max(0.0, (mean - low) / (high - low)))

    def hooks(self, game: Any) -> SearchHooks:
        """:attr:`search_hooks` for ``game``, without hooks that cannot be used alone."""
        return self.search_hooks(game).usable()


__all__ = ["GameDescriptor", "load_target"]
