"""Perfect-information Monte Carlo (PIMC): determinise, then score each action by playouts.

For every sampled world (``game.sample_world(observation, rng)``), every legal action is
applied to a copy of the world and played out once (see :mod:`kartentisch.bots.playout`:
random or heuristic rollouts, stopped at the game's horizon and scored with its evaluation
where the game provides them). The action with the best mean return for the acting seat
wins. Each world is used for all actions, so the comparison between actions is paired.

PIMC is known to be over-optimistic about information (it "sees" the sampled cards in each
world, strategy fusion), but it is a strong, simple baseline for card games.

With an iteration budget (playouts per move) and a fixed seed the bot is deterministic; a
time budget (``seconds``) stops earlier and is not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kartentisch.bots.playout import (
    GAME_DEFAULT,
    Default,
    Prior,
    Rollout,
    RolloutPolicy,
    apply_id,
    playout,
    search_candidates,
    search_config,
    search_hooks,
)


@dataclass(frozen=True, slots=True)
class PIMCConfig:
    """The PIMC parameters (see :class:`PIMCBot`); games override them in
    ``search_defaults["pimc"]``."""

    iterations: int = 300
    rollout: Rollout = Rollout.RANDOM
    max_playout: int | None = None
    max_steps: int | None = None
    candidates: int | None = None
    anchor: float | None = None

    def __post_init__(self) -> None:
        # Numbers may arrive as text-converted ints ("anchor=1"); keep the declared kinds.
        object.__setattr__(self, "iterations", int(self.iterations))
        if self.anchor is not None:
            object.__setattr__(self, "anchor", float(self.anchor))
            if not math.isfinite(self.anchor):
                raise ValueError("anchor must be a finite number")


class PIMCBot:
    """Determinised Monte Carlo; sees only its observation and the legal actions.

    Every parameter left out takes the game's default (``game.search_defaults["pimc"]``,
    else :class:`PIMCConfig`'s): parameters where ``None`` means "no limit" or "none"
    (``max_steps``, ``max_playout``, ``candidates``, ``anchor``) default to
    :data:`~kartentisch.bots.playout.GAME_DEFAULT`, the others to ``None``. A whole
    ``config`` replaces the game's defaults and the keyword parameters.

    Args:
        game: the Game instance (for ``sample_world`` and action ids).
        seed: seeds the bot's own generator.
        iterations: playouts per move, spread evenly over the legal actions (at least one
            world is always sampled).
        max_steps: optional cap on the rollout actions per move, a deterministic stand-in for
            a time limit (the search stops after the iteration that reaches it).
        seconds: optional time budget per move; whole worlds are added until it is spent.
        rollout: ``"random"`` or ``"heuristic"``.
        max_playout: cap on playout length when the game has an evaluation.
        candidates: when the game has a scoring heuristic (a prior, see
            :class:`~kartentisch.bots.playout.Prior`), only its best ``candidates`` actions
            are played out; the others score minus infinity. ``None`` plays out all.
        anchor: with a prior, keep the prior's favourite action unless another action's
            mean return beats it, world by world (a paired comparison), by more than
            ``anchor`` standard errors. ``None`` always takes the best mean.
        config: every parameter at once (``seconds`` aside).
    """

    name = "pimc"

    def __init__(self, game: Any, seed: int = 0, *, iterations: int | None = None,
                 seconds: float | None = None,
                 max_steps: int | Default | None = GAME_DEFAULT,
                 rollout: Rollout | str | None = None,
                 max_playout: int | Default | None = GAME_DEFAULT,
                 candidates: int | Default | None = GAME_DEFAULT,
                 anchor: float | Default | None = GAME_DEFAULT,
                 config: PIMCConfig | None = None):
        given: dict[str, object] = {"iterations": iterations, "rollout": rollout}
        overrides = {k: v for k, v in given.items() if v is not None}
        overrides.update(max_steps=max_steps, max_playout=max_playout, candidates=candidates,
                         anchor=anchor)
        if config is None:
            config = search_config(PIMCConfig, game, "pimc", overrides)
        self.config = config
        """The parameters in force (the game's defaults with the arguments applied)."""
        self.game = game
        self.rng = random.Random(seed)
        self.iterations = config.iterations
        self.seconds = None if seconds is None else float(seconds)
        self.max_steps = config.max_steps
        if self.iterations < 1 and self.seconds is None:
            raise ValueError("pimc needs a positive iteration count or a time budget")
        self.max_playout = config.max_playout
        self.hooks = search_hooks(game)
        self.policy = RolloutPolicy(game, config.rollout, self.rng, hooks=self.hooks)
        self.candidates = config.candidates
        self.anchor = config.anchor
        prior = Prior(game, seed) if self.candidates or self.anchor is not None else None
        self.prior = prior if prior is not None and prior.available else None
        self.last_iterations = 0
        """How many playouts the last move ran."""
        self._favourite: int | None = None
        self._per_world: list[list[float]] = []

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Return the legal action with the best mean playout return for this seat."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            self.last_iterations = 0
            return legal_actions[0]
        game = self.game
        advised = search_candidates(self.hooks, observation,
                                    [game.action_to_id(a) for a in legal_actions])
        if advised is not None and len(advised) == 1:
            self.last_iterations = 0
            return game.action_from_id(advised[0])
        means = self.evaluate(observation, legal_actions)
        best = max(range(len(legal_actions)), key=lambda i: means[i])
        if self.anchor is not None and self._favourite is not None:
            favourite = self._favourite
            diffs = [a - b for a, b in zip(self._per_world[best], self._per_world[favourite],
                                           strict=True)]
            n = len(diffs)
            mean = sum(diffs) / n
            # Two worlds say nothing about the spread: keep the favourite below three.
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 2 else math.inf
            if mean <= self.anchor * math.sqrt(var / n):
                best = favourite
        return legal_actions[best]

    def evaluate(self, observation: Any, legal_actions: Sequence[Any]) -> list[float]:
        """The mean return for the observing seat of each legal action (same order)."""
        game = self.game
        seat = observation.seat
        all_ids = [game.action_to_id(a) for a in legal_actions]
        ids = search_candidates(self.hooks, observation, all_ids) or all_ids
        self._favourite = None
        if self.prior is not None:
            if self.prior.can_order and self.candidates and len(ids) > self.candidates:
                ids = self.prior.order(observation, ids)[:self.candidates]
            if self.anchor is not None:
                favourite = self.prior.favourite(observation, ids)
                self._favourite = None if favourite is None else all_ids.index(favourite)
        worlds = max(1, self.iterations // len(ids)) if self.iterations > 0 else math.inf
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        totals = [0.0] * len(ids)
        values: list[list[float]] = [[] for _ in ids]
        done = 0
        policy = self.policy
        step_limit = math.inf if self.max_steps is None else policy.steps + self.max_steps
        while done < worlds:
            if done and (policy.steps >= step_limit
                         or (deadline is not None and time.perf_counter() >= deadline)):
                break
            world = game.sample_world(observation, self.rng)
            for k, aid in enumerate(ids):
                copy = world.clone()
                apply_id(game, copy, aid)
                value = playout(game, copy, self.policy, self.hooks, self.max_playout)[seat]
                totals[k] += value
                values[k].append(value)
            done += 1
        self.last_iterations = done * len(ids)
        mean = {aid: t / done for aid, t in zip(ids, totals, strict=True)}
        per_world = dict(zip(ids, values, strict=True))
        self._per_world = [per_world.get(aid, []) for aid in all_ids]
        return [mean.get(aid, -math.inf) for aid in all_ids]


def make_pimc(game: Any, seed: int = 0, **params: Any) -> PIMCBot:
    """Registry factory: ``make_bot("pimc", game, seed)``; ``params`` override defaults."""
    return PIMCBot(game, seed, **params)
