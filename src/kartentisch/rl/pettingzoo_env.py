"""PettingZoo AEC environments for every encoded game.

``env("krass-kariert", players=4)`` gives an :class:`pettingzoo.AECEnv` whose agents
``player_0`` .. ``player_{n-1}`` are the seats. Each observation is a dict with
``"observation"`` (the game's encoding, ``float32``, values in [0, 1]) and
``"action_mask"`` (``int8``, 1 for the tokens allowed now; all zero for an agent not to
act), the layout of PettingZoo's classic environments; :meth:`KartentischAEC.action_mask`
hands out the selected agent's mask as booleans (what masking wrappers read).
``render_mode="ansi"`` returns the table as text, ``"human"`` prints it.

``reward`` chooses the rewards (:mod:`kartentisch.rl.rewards`): ``"game"`` (the default) is
zero until the game ends, then the game's returns; ``"deal"`` (Krass Kariert) and ``"pack"``
(Casino) give every agent the result of each deal or pack when it ends, and the returns at
the end on top; ``"shaped"`` gives every agent, after each game action, the change of the
game's estimate of its return (potential-based shaping), which adds up to the game's return
exactly.

``infos[agent]`` holds ``seat``, ``legal_tokens`` (the agent's mask's ones: 0 for an agent
not to act), ``legal_actions`` (the game actions the tokens chosen so far still lead to, 0
for an agent not to act) and the game's progress, the descriptor's ``statistics`` of the
game so far (Krass Kariert: ``deals`` and ``rounds``; Casino: ``packs`` and ``points``;
Krumme20: ``turns`` and ``fouls``), updated after each game action.

A game whose actions are factored into several tokens (see :mod:`.encodings.base`) keeps
the same agent selected until its action is complete; the observation then shows the tokens
chosen so far. An action outside the mask raises :class:`IllegalActionError` and changes
nothing (wrap the environment in PettingZoo's ``TerminateIllegalWrapper`` for the other
convention).

``max_cycles`` (optional) truncates a game after that many tokens per agent on average
(``max_cycles * players`` steps), with zero rewards. PettingZoo's ``max_cycles_test`` does not
apply: it needs a parallel environment stepped with unmasked random actions, which a
turn-based card game refuses (like PettingZoo's own classic environments).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from kartentisch.core.registry import descriptor
from kartentisch.rl.rewards import Rewarder
from kartentisch.rl.table import SEED_LIMIT, Table

ObsDict = dict[str, np.ndarray[Any, Any]]


class KartentischAEC(AECEnv):  # type: ignore[misc]
    """The AEC environment of one game (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's class attribute)
        "render_modes": ["human", "ansi"],
        "name": "kartentisch_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game: str = "krass-kariert", players: int | None = None,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 max_cycles: int | None = None, reward: str = "game") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.table = Table(game, players, options)
        self.rewarder = Rewarder(self.table.game, reward)
        self._statistics = descriptor(self.table.game.spec.name).statistics
        self._rewarded = False
        """Whether :attr:`rewards` holds non-zero rewards of the last step."""
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        encoding = self.table.encoding
        n = self.table.players
        self.metadata = {**self.metadata,
                         "name": f"kartentisch_{self.table.game.spec.name.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (encoding.obs_size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (encoding.num_tokens,), np.int8),
        })
        act_space = gymnasium.spaces.Discrete(encoding.num_tokens)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._rng = np.random.default_rng()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` seeds the generator that draws the games' seeds."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.table.new_game(int(self._rng.integers(SEED_LIMIT)))
        self.rewarder.start(self.table.state)
        self._rewarded = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {
            agent: {"seat": seat} for seat, agent in enumerate(self.agents)}
        self.agent_selection = self.possible_agents[self.table.current_player]
        self._update_infos(None)

    def _update_infos(self, acted: str | None, completed: bool = True) -> None:
        """The infos after a reset (``acted`` None) or a step of ``acted``: the legal counts
        of the agent selected now, 0 for the others (only ``acted``'s may have changed),
        and every agent's progress after a game action."""
        table = self.table
        infos = self.infos
        for agent in self.agents if acted is None else (acted,):
            info = infos[agent]
            info["legal_tokens"] = info["legal_actions"] = 0
        selected = self.agent_selection
        if (not table._over and not self.truncations[selected]
                and self._seat[selected] == table.current_player):
            info = infos[selected]
            info["legal_tokens"], info["legal_actions"] = table.legal_count()
        if completed:
            progress = self._statistics(table.state)
            for agent in self.agents:
                infos[agent].update(progress)

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}

    def action_mask(self, agent: str | None = None) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The action mask of ``agent`` (the selected agent by default) as booleans: the
        tokens it may take now, none for an agent not to act."""
        seat = self._seat[self.agent_selection if agent is None else agent]
        return self.table.mask(seat).astype(bool)

    def legal_moves(self, agent: str | None = None) -> list[tuple[int, ...]]:
        """The tokens of each legal game move still open to ``agent`` (the selected agent by
        default; none for an agent not to act): a uniform choice among them is the arena's
        ``random`` bot, while a uniform choice over the mask draws among tokens."""
        table = self.table
        name = self.agent_selection if agent is None else agent
        if table._over or table.current_player != self._seat[name] or self.truncations[name]:
            return []
        return table.move_sequences()

    def step(self, action: int | None) -> None:
        """Take ``action`` (a token in the mask) for the selected agent; ``None`` for an
        agent whose game has ended."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        completed = table.step(action)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # the last step's rewards are accumulated already
            self._clear_rewards()
            self._rewarded = False
        if completed:
            rewards = self.rewarder.after_action(table.state)
            if rewards is not None:
                seat = self._seat
                for a in self.agents:
                    self.rewards[a] = rewards[seat[a]]
                self._rewarded = True
                self._accumulate_rewards()
        if completed and table.state.is_terminal():
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = agent
            self._deads_step_first()
        elif self.max_cycles is not None and table.steps >= self.max_cycles * table.players:
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = agent
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[table.state.current_player]
        self._update_infos(agent, completed)
        if self.render_mode == "human":
            self.render()

    def _deads_step_first(self) -> str:
        # The next agent to step (with None) is the one after the last to act, in seat order.
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            self.agent_selection = dead[0]
        return self.agent_selection

    def render(self) -> str | None:
        """The table in text: returned for ``"ansi"``, printed for ``"human"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = self.table.render_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release (no window, no files)."""


def raw_env(game: str = "krass-kariert", **kwargs: Any) -> KartentischAEC:
    """The environment without PettingZoo's wrappers (fastest)."""
    return KartentischAEC(game, **kwargs)


class _OrderEnforcingIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's iterator over the agents to act, the same checks (a step between two
    agents), reading the environment's fields directly instead of through the wrapper's
    properties."""

    def __next__(self) -> str:
        wrapper = self.env
        raw = wrapper.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        selected: str = raw.agent_selection
        return selected


class _OrderEnforcingIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _OrderEnforcingIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, the same checks, with the attributes read on
    every step (``agent_selection``, ``agents``), ``last``, ``step`` and the agent iterator
    going straight to the environment once it has been reset, instead of through
    ``__getattr__`` and the wrapper chain each time."""

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # PettingZoo's error
        return _OrderEnforcingIterable(self, max_iter)

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        selected: str = self.env.agent_selection
        return selected

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        agents: list[str] = self.env.agents
        return agents

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]  # PettingZoo's error
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:  # PettingZoo's checks, then straight on
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def __str__(self) -> str:
        return str(self.env)


def env(game: str = "krass-kariert", **kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic environments are (order enforcing)."""
    return OrderEnforcing(raw_env(game, **kwargs))
