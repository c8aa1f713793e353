"""The ``learned`` bot: a Deep Monte-Carlo network trained by self-play, run with numpy.

The bot encodes its observation, describes every legal action (see
:mod:`kartentisch.rl.encodings`) and plays the action the network values most; ties go to
the first in the game's order, so the bot is deterministic. The weights ship in
``kartentisch/rl/weights/<game>.npz`` (see :mod:`kartentisch.rl.dmc`); PyTorch is needed only
to train new ones (``kartentisch-train``, the ``train`` extra).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from kartentisch.core.errors import KartentischError
from kartentisch.rl.dmc import QNetwork
from kartentisch.rl.encodings import encoding_for


def weights_path(game_name: str) -> Path:
    """Where the shipped weights of ``game_name`` lie (the file may be missing)."""
    return Path(str(resources.files("kartentisch.rl") / "weights" / f"{game_name}.npz"))


@functools.cache
def _shipped(game_name: str) -> QNetwork:
    path = weights_path(game_name)
    if not path.is_file():
        raise KartentischError(f"no trained weights for {game_name} ({path} is missing)")
    return QNetwork.load(path)


@functools.lru_cache(maxsize=8)
def _loaded(path: str, mtime_ns: int, size: int) -> QNetwork:
    """A weights file read once per version (the arena makes a bot per game)."""
    del mtime_ns, size  # part of the key only: a rewritten file is read again
    return QNetwork.load(path)


def _load(weights: str | Path) -> QNetwork:
    try:
        stat = Path(weights).stat()
    except OSError:
        return QNetwork.load(weights)  # raises the weights file's own error
    return _loaded(str(Path(weights).resolve()), stat.st_mtime_ns, stat.st_size)


class LearnedBot:
    """Plays the legal action with the highest learned value (see the module docstring)."""

    name = "learned"

    def __init__(self, game: Any, seed: int = 0, *, weights: str | Path | None = None) -> None:
        """``weights``: a weights file to use instead of the shipped one."""
        self.game = game
        self.encoding = encoding_for(game)
        self.network = (_load(weights) if weights is not None
                        else _shipped(game.spec.name))
        if self.network.game != game.spec.name:
            raise KartentischError(
                f"the weights were trained for {self.network.game}, not {game.spec.name}")
        if (self.network.obs_size != self.encoding.obs_size
                or self.network.feature_size != self.encoding.feature_size):
            raise KartentischError(
                "the weights do not fit this version's encoding (observation"
                f" {self.network.obs_size} vs {self.encoding.obs_size}, features"
                f" {self.network.feature_size} vs {self.encoding.feature_size})")

    def values(self, observation: Any, action_ids: Sequence[int]) -> np.ndarray[Any, Any]:
        """The network's value of each legal action id in ``observation``."""
        obs = self.encoding.encode(observation)
        return self.network.q_values(obs, self.encoding.features(observation, action_ids))

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        to_id = self.game.checked_action_id
        ids = [to_id(a) for a in legal_actions]
        return legal_actions[int(np.argmax(self.values(observation, ids)))]


def make_learned(game: Any, seed: int = 0, **params: Any) -> LearnedBot:
    """The registry's factory: ``learned`` or ``learned:weights=path.npz``."""
    return LearnedBot(game, seed, **params)
