"""The search hooks a game may offer the generic search bots, declared as types.

A game's :class:`~kartentisch.core.descriptor.GameDescriptor` hands them out as one
:class:`SearchHooks` (its ``search_hooks(game)``), so the bots in :mod:`kartentisch.bots`
read a declared interface instead of looking for method names; a game without hooks gets
:data:`NO_HOOKS` and still works with every bot (full playouts, no advice). What each hook
promises is explained in :mod:`kartentisch.bots.playout`, which runs them.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol


class Evaluate(Protocol):
    """``evaluate(state)``: estimated final returns, one per seat, of a running state."""

    def __call__(self, state: Any, /) -> list[float]: ...


class HorizonKey(Protocol):
    """``horizon_key(state)``: a playout stops when this value changes."""

    def __call__(self, state: Any, /) -> Hashable: ...


class Candidates(Protocol):
    """``search_candidates(observation, ids)``: the ids worth searching, best first, or
    ``None`` for no advice."""

    def __call__(self, observation: Any, ids: list[int], /) -> list[int] | None: ...


class RolloutAction(Protocol):
    """``rollout_action(state, ids, rng)``: the heuristic's move on a search world."""

    def __call__(self, state: Any, ids: Sequence[int], rng: random.Random, /) -> int: ...


class RunPlayout(Protocol):
    """``run_playout(state, heuristic, rng, cap)``: the playout loop inside the engine;
    returns the actions played."""

    def __call__(self, state: Any, heuristic: bool, rng: random.Random, cap: int, /) -> int:
        ...


class RandomGames(Protocol):
    """``random_games(seeds, rng)``: whole games of random play in one call; returns every
    game's returns and the number of actions played."""

    def __call__(self, seeds: Sequence[int], rng: random.Random, /
                 ) -> tuple[list[list[float]], int]: ...


@dataclass(frozen=True, slots=True)
class SearchHooks:
    """The search hooks of one game (every one optional) and its search bots' defaults.

    ``horizon_key`` counts only together with ``evaluate`` (a playout cut at a horizon needs
    a way to score where it stopped), and ``run_playout`` only together with both (it stops
    at that horizon): :meth:`usable` drops what cannot be used.
    """

    evaluate: Evaluate | None = None
    horizon_key: HorizonKey | None = None
    search_candidates: Candidates | None = None
    rollout_action: RolloutAction | None = None
    run_playout: RunPlayout | None = None
    random_games: RandomGames | None = None
    defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Per search bot (``"ismcts"``, ``"pimc"``) its parameters for this game."""

    def usable(self) -> SearchHooks:
        """These hooks without a ``horizon_key`` that has no ``evaluate`` beside it, and
        without a ``run_playout`` that lacks either."""
        horizon = self.horizon_key if self.evaluate is not None else None
        run = self.run_playout if horizon is not None else None
        return SearchHooks(self.evaluate, horizon, self.search_candidates,
                           self.rollout_action, run, self.random_games, self.defaults)


NO_HOOKS: Final = SearchHooks()
"""The hooks of a game that offers none."""


__all__ = ["NO_HOOKS", "Candidates", "Evaluate", "HorizonKey", "RandomGames", "RolloutAction",
           "RunPlayout", "SearchHooks"]
