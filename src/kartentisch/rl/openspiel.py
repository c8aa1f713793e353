"""The games as OpenSpiel Python games, and OpenSpiel's IS-MCTS as a bot of our arena.

:func:`register_games` registers every encoded game with ``pyspiel.register_game`` under
``python_kartentisch_<game>`` (``python_kartentisch_krass_kariert``), with the parameter
``players``, ``seeds`` (below) and each of the game's rules options as a parameter of its
own, typed and defaulted as the game's (``kartentisch rules-options GAME`` lists them); it
runs when this module is imported. Then ``pyspiel.load_game(name, {"players": 4, "teams":
"pairs"})`` works with OpenSpiel's own tools (random simulation checks, bots, algorithms).

Modelling choices:

* **Chance.** All of a game's randomness follows from its seed (every later deal is derived
  from it), so a game starts with one chance node that chooses the seed uniformly among
  ``seeds`` values (a game parameter, default 2^16); after it the game is exactly ours.
* **Actions** are the encoding's tokens (:mod:`.encodings.base`): the game's action ids for
  Krass Kariert; a game whose ids are too many for a policy vector would be played token by
  token, the same player acting until the game action is complete.
* **Observations.** The observer's tensor is the encoding of ``state.observation(player)``
  (with the tokens chosen so far when that player is deciding); the observation string is
  the same observation as JSON. A public observer (no private information) sees the
  spectator view ``state.observation(None)``.
* **No information state.** Our observations are not perfect-recall histories (a seat's
  earlier views are summarised, not kept), and a full action-observation history has no
  fixed-size tensor in games of thousands of moves. The game type therefore declares
  ``provides_information_state_string`` and ``_tensor`` False, and asking for either (or for
  any observer with ``perfect_recall=True``) raises ``pyspiel.SpielError`` saying so:
  algorithms that need perfect-recall keys (CFR, MCCFR, NFSP's default input) refuse
  instead of running on observation keys. ``rl_environment.Environment`` reads the
  declaration and uses the observation tensor (its ``info_state`` entries are then
  observations, as it does for every game without an information state).
* **IS-MCTS.** ``state.resample_from_infostate(player, sampler)`` deals the hidden cards
  anew (``game.sample_world``, consistent with what ``player`` knows), so OpenSpiel's
  ``ISMCTSBot`` works with ``use_observation_string=True`` (its default key is the
  information state, which it refuses). OpenSpiel's ``ISMCTSBot`` has no ``restart_at``, so
  ``evaluate_bots`` refuses it (``RestartAt(state) not implemented``); :class:`ISMCTSBot`
  here is the same search with the two no-op methods that ``evaluate_bots`` calls (the
  search starts afresh at every move anyway).
* **Returns** are the game's returns (terminal rewards only).

:class:`OpenSpielISMCTSBot` (the arena's bot ``openspiel-ismcts`` for every game, see
:mod:`kartentisch.bots.registry`) plays with OpenSpiel's Python
``ISMCTSBot``: given our observation it builds a world with ``game.sample_world``, and
OpenSpiel resamples worlds through the same function, so both searches see the same
information.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from kartentisch.core.errors import KartentischError
from kartentisch.core.registry import descriptor, load_game
from kartentisch.rl.encodings import ENCODINGS, Decision, Encoding, encoding_for

DEFAULT_SEEDS: Final = 1 << 16
"""Chance outcomes of the opening chance node (deal seeds) unless ``seeds`` is given."""
DEFAULT_GAME_LENGTH: Final = 100_000
"""A generous bound on tokens per game (OpenSpiel wants one), unless the game's descriptor
gives its own (``max_game_length``)."""


def short_name(game: str) -> str:
    """OpenSpiel's name of one of our games: ``python_kartentisch_krass_kariert``."""
    return "python_kartentisch_" + game.replace("-", "_")


@dataclass(frozen=True)
class Context:
    """What states of one OpenSpiel game share: our game, its encoding, the seed count.

    Kept here, not on the ``pyspiel.Game`` object: OpenSpiel may hand states a new Python
    wrapper of a game created in C++, without the attributes the constructor set."""

    ours: Any
    encoding: Encoding
    seeds: int


def option_defaults(name: str) -> dict[str, Any]:
    """The rules options of game ``name`` with their defaults, typed as the options are
    (``bool``, ``int``, ``str``): OpenSpiel checks a parameter's type against its default's,
    and a serialized game's ``true`` must load again as a bool."""
    defaults = descriptor(name).game_class.options_type()
    return {info.name: getattr(defaults, info.name) for info in descriptor(name).options()}


def rules_options(name: str, params: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The rules options among an OpenSpiel game's ``params``: each of the game's options is
    a parameter of its own (``{"teams": "pairs"}``); the game checks the values."""
    return tuple((key, params[key]) for key in option_defaults(name) if key in params)


@functools.cache
def _context(name: str, players: int | None, seeds: int,
             options: tuple[tuple[str, Any], ...] = ()) -> Context:
    try:
        ours = load_game(name, players, dict(options))
    except KartentischError as error:
        raise pyspiel.SpielError(str(error)) from error
    return Context(ours, encoding_for(ours), seeds)


def context_of(game: Any) -> Context:
    """The :class:`Context` of an OpenSpiel game of ours."""
    params = game.get_parameters()
    name = game.get_type().short_name
    ours = _BY_SHORT_NAME[name]
    return _context(ours, int(params["players"]), int(params.get("seeds", DEFAULT_SEEDS)),
                    rules_options(ours, params))


_BY_SHORT_NAME: Final = {short_name(g): g for g in ENCODINGS}


class KartentischSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games as an OpenSpiel game (see the module docstring)."""

    game_name: str = ""
    """Our registry name of the game (set on the per-game subclass)."""
    spiel_type: Any = None
    """The ``pyspiel.GameType`` (set on the per-game subclass)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = params.get("players")
        seeds = int(params.get("seeds", DEFAULT_SEEDS))
        ctx = _context(self.game_name, players, seeds, rules_options(self.game_name, params))
        spec = ctx.ours.spec
        info = pyspiel.GameInfo(
            num_distinct_actions=ctx.encoding.num_tokens,
            max_chance_outcomes=seeds,
            num_players=ctx.ours.players,
            min_utility=float(spec.min_utility),
            max_utility=float(spec.max_utility),
            utility_sum=0.0 if spec.zero_sum else None,
            max_game_length=descriptor(self.game_name).max_game_length or DEFAULT_GAME_LENGTH,
        )
        super().__init__(self.spiel_type, info, params)

    def new_initial_state(self) -> KartentischSpielState:
        return KartentischSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise pyspiel.SpielError(
                f"{self.get_type().short_name} provides no information state (no perfect"
                " recall; its game type says provides_information_state_string and _tensor"
                " False): use observation_string / observation_tensor, e.g."
                " ISMCTSBot(..., use_observation_string=True)")
        public_only = (iig_obs_type is not None
                       and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE)
        return Observer(self, public_only)


class _Box:
    """A state's Python side. OpenSpiel clones a Python state with ``copy.deepcopy`` of its
    attributes; this box copies itself the fast way (our ``clone``) and shares the game."""

    __slots__ = ("ctx", "decision", "inner")

    def __init__(self, ctx: Context, inner: Any, decision: Decision | None) -> None:
        self.ctx = ctx
        self.inner = inner
        self.decision = decision

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.ctx, None if self.inner is None else self.inner.clone(),
                    None if self.decision is None else self.decision.copy())


class KartentischSpielState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; before its opening chance node, ``inner`` is None."""

    def __init__(self, game: Any, inner: Any = None) -> None:
        super().__init__(game)
        self.box = _Box(context_of(game), inner, None)
        if inner is not None:
            self._decide()

    @property
    def ctx(self) -> Context:
        return self.box.ctx

    @property
    def inner(self) -> Any:
        """Our state (None before the opening chance node)."""
        return self.box.inner

    @property
    def decision(self) -> Decision | None:
        """The current decision (None before the deal and at the end)."""
        return self.box.decision

    def _decide(self) -> None:
        inner = self.inner
        if inner.is_terminal():
            self.box.decision = None
        else:
            self.box.decision = self.ctx.encoding.decision(
                inner.observation(inner.current_player), inner.legal_action_ids())

    def current_player(self) -> int:
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.inner.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.inner.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.decision is not None
        return self.decision.next_tokens()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.ctx.seeds
        p = 1.0 / n
        return [(i, p) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            self.box.inner = self.ctx.ours.new_initial_state(int(action))
            self._decide()
            return
        assert self.decision is not None
        aid = self.decision.choose(int(action))
        if aid is not None:
            self.inner.apply_unchecked(aid)
            self._decide()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self.ctx.encoding.token_name(int(action))

    def is_terminal(self) -> bool:
        return self.inner is not None and bool(self.inner.is_terminal())

    def returns(self) -> list[float]:
        if self.inner is None:
            return [0.0] * self.ctx.ours.players
        return [float(r) for r in self.inner.returns()]

    def __str__(self) -> str:
        if self.inner is None:
            return "before the deal"
        return json.dumps(self.inner.observation(None).to_json(), separators=(",", ":"))


    def resample_from_infostate(self, player: int, sampler: Any) -> KartentischSpielState:
        """OpenSpiel's resampling: :meth:`world_for` with a generator seeded by one draw of
        ``sampler`` (OpenSpiel's uniform sampler, called with no arguments)."""
        return self.world_for(int(player), random.Random(int(sampler() * 2**53)))

    def world_for(self, player: int, rng: random.Random) -> KartentischSpielState:
        """A state that ``player`` cannot tell from this one, hidden cards dealt at random
        (``game.sample_world``), with the same tokens chosen in the current decision."""
        inner = self.inner
        world = self.ctx.ours.sample_world(inner.observation(player), rng)
        return _with_prefix(self.get_game(), world, self.decision)


def _with_prefix(game: Any, world: Any,
                 decision: Decision | None) -> KartentischSpielState:
    """A state around ``world`` whose current decision has ``decision``'s prefix."""
    state = KartentischSpielState(game, world)
    if decision is not None and state.decision is not None:
        for token in decision.prefix:
            state.decision.choose(token)
    return state


class Observer:
    """OpenSpiel's observer protocol over our encoding (see the module docstring)."""

    def __init__(self, game: Any, public_only: bool) -> None:
        self.ctx = context_of(game)
        self.public_only = public_only
        self.tensor = np.zeros(self.ctx.encoding.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def _view(self, state: KartentischSpielState, player: int) -> tuple[Any, list[int]]:
        inner = state.inner
        seat = None if self.public_only else player
        decision = state.decision
        prefix = (list(decision.prefix) if decision is not None and seat is not None
                  and inner.current_player == seat else [])
        return inner.observation(seat), prefix

    def set_from(self, state: KartentischSpielState, player: int) -> None:
        if state.inner is None:
            self.tensor.fill(0.0)
            return
        obs, prefix = self._view(state, player)
        self.ctx.encoding.encode(obs, prefix, out=self.tensor)

    def string_from(self, state: KartentischSpielState, player: int) -> str:
        if state.inner is None:
            return "before the deal"
        obs, prefix = self._view(state, player)
        text = json.dumps(obs.to_json(), separators=(",", ":"), sort_keys=True)
        return text + (f" chosen:{prefix}" if prefix else "")


def game_type(name: str) -> Any:
    """The ``pyspiel.GameType`` of one of our games."""
    cls = type(load_game(name))
    spec = cls.spec
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"kartentisch {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if spec.zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.default_players, "seeds": DEFAULT_SEEDS,
                                 **option_defaults(name)},
    )


def register_games() -> list[str]:
    """Register every encoded game with OpenSpiel (once); returns their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for name in ENCODINGS:
        gtype = game_type(name)
        if gtype.short_name not in registered:
            # OpenSpiel keeps the Python side of a game alive only for a registered class.
            cls = type(f"SpielGame_{name.replace('-', '_')}", (KartentischSpielGame,),
                       {"game_name": name, "spiel_type": gtype, "__module__": __name__})
            pyspiel.register_game(gtype, cls)
        names.append(gtype.short_name)
    return names


register_games()


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ``ISMCTSBot`` keyed by observation strings (our games have no
    information state), with the ``restart_at`` and ``inform_action`` that ``evaluate_bots``
    calls: nothing to do, the search starts afresh at every move."""

    def __init__(self, game: Any, evaluator: Any, uct_c: float, max_simulations: int,
                 **kwargs: Any) -> None:
        kwargs.setdefault("use_observation_string", True)
        super().__init__(game, evaluator, uct_c, max_simulations, **kwargs)

    def restart_at(self, state: Any) -> None:
        """Nothing kept between moves."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing kept between moves."""


class OpenSpielISMCTSBot:
    """OpenSpiel's Python IS-MCTS playing in our arena (see the module docstring).

    ``iterations`` simulations per move (at least 2: OpenSpiel's search spends the first on
    the root), UCT constant ``uct_c``, random rollouts to the end of the game (``rollouts``
    per leaf), the final move by visit count.
    """

    name = "openspiel-ismcts"

    def __init__(self, game: Any, seed: int = 0, *, iterations: int = 100, uct_c: float = 2.0,
                 rollouts: int = 1) -> None:
        # OpenSpiel's search spends its first simulation on expanding the root
        for key, value, low in (("iterations", iterations, 2), ("rollouts", rollouts, 1)):
            if type(value) is not int or value < low:
                raise ValueError(f"{key} must be a whole number from {low} on, not {value!r}")
        if not isinstance(uct_c, (int, float)) or not 0 <= uct_c < float("inf"):
            raise ValueError(f"uct_c must be a finite number from 0 on, not {uct_c!r}")
        self.game = game
        self.rng = random.Random(seed)
        name = game.spec.name
        self.spiel_game = pyspiel.load_game(short_name(name), {"players": game.players})
        random_state = np.random.RandomState(seed % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=random_state)
        self.bot = ismcts.ISMCTSBot(
            game=self.spiel_game, evaluator=evaluator, uct_c=uct_c,
            max_simulations=int(iterations), random_state=random_state,
            use_observation_string=True,
            allow_inconsistent_action_sets=False)
        self.bot.set_resampler(self._resample)

    def _resample(self, state: KartentischSpielState, player: int) -> KartentischSpielState:
        return state.world_for(player, self.rng)

    def act(self, observation: Any, legal_actions: Any) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        world = self.game.sample_world(observation, self.rng)
        state = KartentischSpielState(self.spiel_game, world)
        assert state.decision is not None
        while True:
            token = int(self.bot.step(state))
            aid = state.decision.choose(token)
            if aid is not None:
                action = self.game.action_from_id(aid)
                to_id = self.game.checked_action_id
                for legal in legal_actions:
                    if to_id(legal) == aid:
                        return legal
                return action


def make_openspiel_ismcts(game: Any, seed: int = 0, **params: Any) -> OpenSpielISMCTSBot:
    """Factory for the bot registry (``openspiel-ismcts:iterations=100``)."""
    return OpenSpielISMCTSBot(game, seed, **params)
