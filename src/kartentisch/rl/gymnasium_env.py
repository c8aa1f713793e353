"""A Gymnasium environment: one seat of a game, the other seats played by registered bots.

``KartentischEnv("krass-kariert", opponents="heuristic")`` gives a :class:`gymnasium.Env`
whose observation is a dict of ``"observation"`` (the game's encoding, ``float32`` in
[0, 1]) and ``"action_mask"`` (``int8``); ``info["action_mask"]`` holds the mask too, and
:meth:`KartentischEnv.action_masks` hands it out as booleans (sb3-contrib's
``MaskablePPO`` calls it). The action is a token (``Discrete(num_tokens)``; for Krass Kariert
the game's action id). The opponents act between the agent's turns.

``reward`` chooses the rewards (:mod:`kartentisch.rl.rewards`): ``"game"`` (the default) is
zero until the game ends, then the agent's return; ``"deal"`` (Krass Kariert) and ``"pack"``
(Casino) add the result of each deal or pack when it ends; ``"shaped"`` is potential-based
shaping whose rewards add up to the game's return exactly.

``info`` holds, besides the mask: ``seat``; ``legal_tokens`` (the mask's ones) and
``legal_actions`` (the game actions the tokens chosen so far still lead to), both 0 once the
episode is over; and the game's progress, the descriptor's ``statistics`` of the game so far
(Krass Kariert: ``deals`` and ``rounds``; Casino: ``packs`` and ``points``; Krumme20:
``turns`` and ``fouls``).

**The last observation's mask** allows token 0 alone (never all zeros): under Gymnasium's
next-step autoreset a vector environment hands the final observation to the policy, which
samples an action that the reset then ignores; a sampler needs at least one allowed token.

**Tokens, not moves.** A game whose actions take several tokens (Casino) is played token by
token, so a policy that samples the mask uniformly is a random player over *tokens*: it
favours moves whose first tokens have few continuations, and is much weaker than the arena's
``random`` bot, which draws among whole moves. :meth:`KartentischEnv.legal_moves` lists the
tokens of each whole legal move; drawing among them is the arena's random.

``opponents`` is one bot spec for every other seat or one per other seat, in seat order
(``"random"``, ``"heuristic"``, ``"ismcts:iterations=100"``, ``"learned"``...). ``seat`` is
the agent's seat, or ``None`` for a seat drawn at every reset.

An action outside the mask: with ``illegal="lose"`` (the default, as PettingZoo's
``TerminateIllegalWrapper`` does) the episode ends at once with the game's lowest return as
the reward and ``info["illegal_action"]`` True; with ``illegal="raise"`` it raises
:class:`IllegalActionError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from kartentisch.bots.registry import build_bot
from kartentisch.core.errors import KartentischError
from kartentisch.core.registry import descriptor
from kartentisch.core.rng import derive_seed
from kartentisch.rl.rewards import Rewarder
from kartentisch.rl.table import SEED_LIMIT, Table, token_of

ObsDict = dict[str, np.ndarray[Any, Any]]


class KartentischEnv(gymnasium.Env[ObsDict, int]):
    """One seat against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, game: str = "krass-kariert", *, players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 opponents: str | Sequence[str] = "random", seat: int | None = 0,
                 illegal: str = "lose", reward: str = "game",
                 render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        self.table = Table(game, players, options)
        self.rewarder = Rewarder(self.table.game, reward)
        self._statistics = descriptor(self.table.game.spec.name).statistics
        n = self.table.players
        if seat is not None:
            self.table.game.check_seat(seat)
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise KartentischError(f"{n - 1} opponent specs needed, got {len(specs)}")
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.illegal = illegal
        self.render_mode = render_mode
        enc = self.table.encoding
        self.observation_space: gymnasium.spaces.Space[Any] = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (enc.obs_size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (enc.num_tokens,), np.int8),
        })
        self.action_space: gymnasium.spaces.Space[Any] = gymnasium.spaces.Discrete(
            enc.num_tokens)
        self._bots: dict[int, Any] = {}
        self._done = True
        self._reward = 0.0
        """The agent's reward gathered since its last step (opponents' moves included)."""
        self._mask = np.zeros(enc.num_tokens, dtype=np.int8)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.table.players
        self.seat = int(rng.integers(n)) if self.fixed_seat is None else self.fixed_seat
        game_seed = int(rng.integers(SEED_LIMIT))
        others = [s for s in range(n) if s != self.seat]
        self._bots = {s: build_bot(spec, self.table.game, derive_seed(game_seed, "bot", s))
                      for s, spec in zip(others, self.opponent_specs, strict=True)}
        self.table.new_game(game_seed)
        self.rewarder.start(self.table.state)
        self._reward = 0.0
        self._done = False
        self._play_opponents()
        return self._observe()

    def _gather(self) -> None:
        """The agent's part of the rewards since the last call (see :class:`Rewarder`)."""
        rewards = self.rewarder.after_action(self.table.state)
        if rewards is not None:
            self._reward += rewards[self.seat]

    def _play_opponents(self) -> None:
        table = self.table
        state = table.state
        every = self.rewarder.every_action
        while not state.is_terminal() and state.current_player != self.seat:
            seat = state.current_player
            action = self._bots[seat].act(state.observation(seat), state.legal_actions())
            state.apply(action)
            if every:
                self._gather()
        table._decide()

    def _observe(self) -> tuple[ObsDict, dict[str, Any]]:
        table = self.table
        if self._done:
            mask = np.zeros(table.encoding.num_tokens, dtype=np.int8)
            mask[0] = 1  # a placeholder the autoreset ignores (see the module docstring)
        else:
            mask = table.mask(self.seat)
        self._mask = mask
        tokens, actions = (0, 0) if self._done else table.legal_count()
        obs: ObsDict = {"observation": table.observe(self.seat), "action_mask": mask}
        info: dict[str, Any] = {"action_mask": mask.copy(), "seat": self.seat,
                                "legal_tokens": tokens, "legal_actions": actions}
        info.update(self._statistics(table.state))
        return obs, info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The current observation's mask as booleans (sb3-contrib's ``MaskablePPO`` reads
        it through this method); token 0 alone once the episode is over."""
        return self._mask.astype(bool)

    def legal_moves(self) -> list[tuple[int, ...]]:
        """The tokens of each legal game move still open to the agent (see
        :meth:`Table.move_sequences`): a uniform choice among them is the arena's ``random``
        bot, a uniform choice over the mask is not (for games of several tokens per move)."""
        return [] if self._done else self.table.move_sequences()

    def step(self, action: Any) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done:
            raise KartentischError("the episode is over: call reset()")
        table = self.table
        token = token_of(action, table.encoding.num_tokens)
        assert table.decision is not None
        if self.illegal == "lose" and token not in table.decision.next_tokens():
            self._done = True
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, float(table.game.spec.min_utility), True, False, info
        if table.step(token):
            every = self.rewarder.every_action
            if every:
                self._gather()
            self._play_opponents()
            if not every:
                self._gather()
        terminated = table.is_over()
        reward, self._reward = self._reward, 0.0
        self._done = terminated
        obs, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, False, info

    def render(self) -> str | None:
        """The table in text: returned for ``"ansi"``, printed for ``"human"``."""
        if self.render_mode is None:
            return None
        text = self.table.render_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def env_id(game: str) -> str:
    """The Gymnasium id of a game's environment, e.g. ``kartentisch/krass-kariert-v0``."""
    return f"kartentisch/{game}-v0"


def register_envs() -> list[str]:
    """Register every encoded game with Gymnasium (``gymnasium.make(env_id(game))``); done on
    import of this module. Returns the ids."""
    from kartentisch.rl.encodings import ENCODINGS

    ids = []
    for game in ENCODINGS:
        name = env_id(game)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=f"{__name__}:KartentischEnv",
                               kwargs={"game": game})
        ids.append(name)
    return ids


register_envs()
