"""Shared machinery for the search bots: fast action access, rollouts and playout horizons.

Search works on *sampled worlds*: full states that ``game.sample_world(observation, rng)``
builds from one seat's observation. A world is the searching bot's own fiction, so a search
may look at it freely (including the other seats' observations of it, which rollout bots
need); the real state is never touched.

Games may help the search with four optional hooks, which the game's descriptor hands out
as one :class:`~kartentisch.core.search.SearchHooks` of declared types (read once per bot):

``evaluate(state) -> list[float]``
    An estimate of the final returns (one per seat) of a non-terminal state.
``horizon_key(state) -> Hashable``
    A playout stops as soon as this key differs from its value where the playout started
    (for example the deal number: "play until the current deal ends") and the state is then
    scored with ``evaluate``.
``search_candidates(observation, ids) -> list[int] | None``
    The legal action ids worth searching, best first (``None``: no advice). A single
    candidate is played without any search: the game trusts its heuristic there.
``rollout_action(state, ids, rng) -> int``
    The heuristic's move on a world, chosen straight from the state (the world is the
    searcher's own fiction), for ``"heuristic"`` rollouts that would otherwise build an
    observation and action objects for every move.

Without ``evaluate`` a playout runs to the end of the game.

Two more optional hooks keep hot loops inside the engine (compiled with the compiled core):

``run_playout(state, heuristic, rng, cap) -> int``
    The loop of :func:`playout` for the game's own ``horizon_key``: play on (random moves,
    or ``rollout_action``'s with ``heuristic``) until the horizon, the end or ``cap``
    actions (``cap < 0``: none); returns the actions played. It must draw from ``rng``
    exactly as the loop here does, so a bot's moves do not depend on which loop ran.
``random_games(seeds, rng) -> (returns, actions)``
    Many whole games of random play in one call (:func:`random_games`).

Per-game defaults for the search bots come from the hooks' ``defaults`` (the game's
``search_defaults``, a mapping from bot name to parameters), so each game keeps its tuning
next to its rules and heuristics;
:func:`search_config` reads them into each bot's typed configuration (``ISMCTSConfig``,
``PIMCConfig``), refusing unknown names.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from kartentisch.bots.base import Bot
from kartentisch.core.registry import descriptor_of
from kartentisch.core.search import (
    RolloutAction,
    RunPlayout,
    SearchHooks,
)


# --------------------------------------------------------------------------- fast access
def legal_ids(game: Any, state: Any) -> Sequence[int]:
    """The legal action ids of ``state`` (the state's fast path when it has one)."""
    fast = getattr(state, "legal_action_ids", None)
    if fast is not None:
        ids: Sequence[int] = fast()
        return ids
    return [game.action_to_id(a) for a in state.legal_actions()]


def apply_id(game: Any, state: Any, aid: int) -> None:
    """Apply the legal action ``aid`` (unchecked when the state offers that)."""
    fast = getattr(state, "apply_unchecked", None)
    if fast is not None:
        fast(aid)
    else:
        state.apply(game.action_from_id(aid))


# --------------------------------------------------------------------------- hooks
def search_hooks(game: Any) -> SearchHooks:
    """The hooks ``game`` offers, as its descriptor declares them (a missing hook is
    ``None``: full playouts, no advice)."""
    return descriptor_of(game).hooks(game)


# --------------------------------------------------------------------------- configuration
class Rollout(enum.StrEnum):
    """How playouts choose their actions."""

    RANDOM = "random"
    """Uniformly at random among the legal actions."""
    HEURISTIC = "heuristic"
    """The game's heuristic bot (or its ``rollout_action`` hook) on the world."""


def rollout_kind(value: object) -> Rollout:
    """``value`` (a :class:`Rollout` or its name) as a :class:`Rollout`; ``ValueError`` else."""
    if isinstance(value, Rollout):
        return value
    if isinstance(value, str):
        for kind in Rollout:
            if kind.value == value:
                return kind
    raise ValueError(f"rollout policy must be 'random' or 'heuristic', not {value!r}")


class Default(enum.Enum):
    """Marks a bot parameter that was not given: the game's default applies.

    ``None`` cannot mark that, since for several parameters (``max_steps``, ``anchor``,
    ``depth`` ...) ``None`` is a value of its own ("no limit", "no anchor").
    """

    GAME = "the game's default"


GAME_DEFAULT = Default.GAME
"""The default of every optional bot parameter (see :class:`Default`)."""

C = TypeVar("C")


def search_config(kind: type[C], game: Any, bot: str, overrides: Mapping[str, object]) -> C:
    """The configuration ``kind`` (a frozen dataclass) of search bot ``bot`` for ``game``.

    The dataclass's own defaults come first, then the game's ``search_defaults[bot]``, then
    ``overrides`` (parameters given as :data:`GAME_DEFAULT` are left out). A key that is no
    field of ``kind`` is a mistake in the game's table or the call and raises ``TypeError``.
    """
    fields = {f.name for f in dataclasses.fields(kind)}  # type: ignore[arg-type]
    table: Mapping[str, Mapping[str, Any]] = search_hooks(game).defaults
    values: dict[str, object] = dict(table.get(bot, {}))
    values.update((k, v) for k, v in overrides.items() if v is not GAME_DEFAULT)
    unknown = sorted(set(values) - fields)
    if unknown:
        raise TypeError(f"{bot} has no parameter {unknown[0]!r}; known: {sorted(fields)}")
    if "rollout" in values:
        values["rollout"] = rollout_kind(values["rollout"])
    return kind(**values)


# --------------------------------------------------------------------------- rollouts
class RolloutPolicy:
    """Chooses actions during playouts: uniformly random, or a bot's choice on the world."""

    __slots__ = ("_bots", "_factory", "_fast", "_hooks", "game", "kind", "rng", "steps")

    def __init__(self, game: Any, kind: Rollout | str, rng: random.Random,
                 factory: Callable[[Any, int], Bot] | None = None,
                 hooks: SearchHooks | None = None):
        self.game = game
        self.kind = rollout_kind(kind)
        self.rng = rng
        self._factory = factory
        self._bots: dict[int, Bot] = {}
        if hooks is None:
            hooks = search_hooks(game)
        self._fast: RolloutAction | None = hooks.rollout_action if factory is None else None
        self._hooks = hooks
        self.steps = 0
        """Actions chosen so far (search bots budget their work with it)."""

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            if self._factory is not None:
                bot = self._factory(self.game, self.rng.getrandbits(31))
            else:
                from kartentisch.bots.registry import make_bot

                bot = make_bot("heuristic", self.game, self.rng.getrandbits(31))
            self._bots[seat] = bot
        return bot

    def choose(self, state: Any, ids: Sequence[int]) -> int:
        """One legal id for the player to move in ``state``."""
        self.steps += 1
        if self.kind is Rollout.RANDOM or len(ids) == 1:
            return ids[self.rng.randrange(len(ids))]
        if self._fast is not None:
            return self._fast(state, ids, self.rng)
        seat = state.current_player
        game = self.game
        actions = [game.action_from_id(i) for i in ids]
        chosen = self._bot(seat).act(state.observation(seat), actions)
        aid: int = game.action_to_id(chosen)
        return aid

    def engine_loop(self, hooks: SearchHooks) -> RunPlayout | None:
        """The game's ``run_playout`` when it makes exactly this policy's moves: random
        play, or the game's own ``rollout_action`` (not a bot from a factory), for the
        hooks this policy was made with."""
        run = hooks.run_playout
        if run is None or hooks is not self._hooks:
            return None
        if self.kind is Rollout.RANDOM or self._fast is not None:
            return run
        return None


def has_heuristic(game: Any) -> bool:
    """Whether a heuristic bot is registered for ``game``."""
    from kartentisch.bots.registry import list_bots

    return "heuristic" in list_bots(game.spec.name)


class Prior:
    """The game's heuristic bot as advice for the search.

    A heuristic offering ``score(observation, action) -> float`` (lower is better, as the
    Krass Kariert heuristic does) *orders* actions, so the search tries promising ones
    first (``can_order``). Any heuristic bot names a *favourite* (its own move), which the
    search bots can keep unless their search shows a clear gain (their ``anchor``).
    Games without a heuristic bot give no advice (``available`` is false).
    """

    __slots__ = ("_bot", "_score", "game")

    def __init__(self, game: Any, seed: int):
        self.game = game
        self._bot: Bot | None = None
        self._score: Callable[[Any, Any], float] | None = None
        if not has_heuristic(game):
            return
        from kartentisch.bots.registry import make_bot

        self._bot = make_bot("heuristic", game, seed)
        self._score = getattr(self._bot, "score", None)

    @property
    def available(self) -> bool:
        """Whether the game has a heuristic bot at all."""
        return self._bot is not None

    @property
    def can_order(self) -> bool:
        """Whether the heuristic scores single actions."""
        return self._score is not None

    def order(self, observation: Any, ids: Sequence[int]) -> list[int]:
        """``ids`` best first (stable for ties); unchanged without a scoring heuristic."""
        score = self._score
        if score is None:
            return list(ids)
        game = self.game
        scored = sorted((score(observation, game.action_from_id(a)), k, a)
                        for k, a in enumerate(ids))
        return [a for _, _, a in scored]

    def favourite(self, observation: Any, ids: Sequence[int]) -> int | None:
        """The heuristic's choice among ``ids`` (``None`` without a heuristic)."""
        if self._score is not None:
            return self.order(observation, ids)[0]
        if self._bot is None:
            return None
        game = self.game
        aid: int = game.action_to_id(
            self._bot.act(observation, [game.action_from_id(a) for a in ids]))
        return aid


def playout(game: Any, state: Any, policy: RolloutPolicy, hooks: SearchHooks,
            max_actions: int | None = None) -> list[float]:
    """Play ``state`` (mutated) on to the end, or to the horizon, and return the returns.

    The playout stops at the end of the game, when the game's horizon key changes, or
    after ``max_actions`` actions; the last two are scored with the game's ``evaluate``
    (they only apply when the game has one).
    """
    evaluate = hooks.evaluate
    key_of = hooks.horizon_key if evaluate is not None else None
    start_key = key_of(state) if key_of is not None else None
    cap = max_actions if evaluate is not None else None
    run = policy.engine_loop(hooks)
    if run is not None:  # the same loop inside the engine (see ``run_playout``)
        policy.steps += run(state, policy.kind is Rollout.HEURISTIC, policy.rng,
                            -1 if cap is None else cap)
        if state.is_terminal():
            return list(state.returns())
        assert evaluate is not None
        return evaluate(state)
    steps = 0
    while not state.is_terminal():
        if key_of is not None and key_of(state) != start_key:
            break
        if cap is not None and steps >= cap:
            break
        ids = legal_ids(game, state)
        apply_id(game, state, policy.choose(state, ids))
        steps += 1
    if state.is_terminal():
        return list(state.returns())
    assert evaluate is not None
    return evaluate(state)


def random_games(game: Any, seeds: Sequence[int],
                 rng: random.Random) -> tuple[list[list[float]], int]:
    """Play one whole game per seed with uniformly random legal actions, ``rng`` choosing.

    Returns every game's returns and the actions played in all. A game's ``random_games``
    hook runs the loop inside the engine (compiled with the compiled core, like OpenSpiel's
    ``evaluate_bots``); the loop here is the reference it must match move for move.
    """
    fast = search_hooks(game).random_games
    if fast is not None:
        done: tuple[list[list[float]], int] = fast(seeds, rng)
        return done
    results: list[list[float]] = []
    actions = 0
    for seed in seeds:
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            ids = legal_ids(game, state)
            apply_id(game, state, ids[rng.randrange(len(ids))])
            actions += 1
        results.append(list(state.returns()))
    return results, actions


def search_candidates(hooks: SearchHooks, observation: Any,
                      ids: Sequence[int]) -> list[int] | None:
    """The game's advice on which of ``ids`` to search (see ``search_candidates`` above)."""
    hook = hooks.search_candidates
    if hook is None:
        return None
    advised = hook(observation, list(ids))
    return advised or None


def utility_scale(game: Any) -> tuple[float, float]:
    """``(low, span)`` to map the game's returns to [0, 1] (from its spec)."""
    low = float(game.spec.min_utility)
    span = float(game.spec.max_utility) - low
    return low, (span if span > 0 else 1.0)
