"""The Deep Monte-Carlo action-value network in plain numpy: inference and the weights file.

The network scores one (observation, action) pair, as in DouZero (Zha et al., "DouZero:
Mastering DouDizhu with Self-Play Deep Reinforcement Learning", ICML 2021)::

    h1 = relu(obs @ W_obs + feat @ W_act + b1)
    h2 = relu(h1 @ W2 + b2)
    q  = h2 @ W3 + b3

``obs`` is the encoding of what the seat knows, ``feat`` the action's features (see
:mod:`kartentisch.rl.encodings`). The observation's share of the first layer is computed once
per decision and added to every legal action's share, so scoring 30 actions costs little
more than scoring one. Training (:mod:`kartentisch.rl.train`, PyTorch) exports the weights
to an ``.npz`` file that this module reads with numpy alone, so playing needs no PyTorch.

Weights file (``numpy.savez_compressed``, no pickled objects): ``format`` =
:data:`WEIGHTS_FORMAT`, ``game`` (registry name), ``obs_size``, ``feature_size``, and the
arrays ``w_obs``, ``w_act``, ``b1``, ``w2``, ``b2``, ``w3``, ``b3`` (stored as float16 to keep
the package small; computed in float32), plus ``info`` (a JSON text about the training run).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from kartentisch.core.errors import KartentischError
from kartentisch.core.records import write_atomically

WEIGHTS_FORMAT: Final = "kartentisch-dmc/1"
"""The ``format`` of a weights file; raised when the layout changes."""
ARRAYS: Final = ("w_obs", "w_act", "b1", "w2", "b2", "w3", "b3")

F32 = npt.NDArray[np.float32]


def save_npz(path: str | Path, **arrays: Any) -> None:
    """``numpy.savez_compressed`` written atomically (temporary file, fsync, rename): a
    trainer killed while saving leaves the previous file whole."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    name = str(path)
    write_atomically(name if name.endswith(".npz") else name + ".npz", buffer.getvalue())


@dataclass(frozen=True)
class QNetwork:
    """The action-value network's weights (float32) and what they were trained for."""

    game: str
    w_obs: F32
    w_act: F32
    b1: F32
    w2: F32
    b2: F32
    w3: F32
    b3: F32
    info: Mapping[str, Any]

    @property
    def obs_size(self) -> int:
        return int(self.w_obs.shape[0])

    @property
    def feature_size(self) -> int:
        return int(self.w_act.shape[0])

    def q_values(self, obs: F32, features: F32) -> F32:
        """The value of each action (one row of ``features`` each) in the observation
        ``obs`` (one vector)."""
        h = features @ self.w_act
        h += obs @ self.w_obs + self.b1
        np.maximum(h, 0.0, out=h)
        h2 = h @ self.w2 + self.b2
        np.maximum(h2, 0.0, out=h2)
        q: F32 = (h2 @ self.w3)[:, 0] + self.b3[0]
        return q

    def q_rows(self, obs: F32, features: F32, rows: npt.NDArray[np.intp]) -> F32:
        """The values of many decisions' actions in one call: ``obs`` holds one observation
        vector per decision, ``features`` one row per action and ``rows[k]`` the decision of
        action ``k`` (the trainer's actors score all their games' legal actions at once)."""
        h = features @ self.w_act
        h += (obs @ self.w_obs + self.b1)[rows]
        np.maximum(h, 0.0, out=h)
        h2 = h @ self.w2 + self.b2
        np.maximum(h2, 0.0, out=h2)
        q: F32 = (h2 @ self.w3)[:, 0] + self.b3[0]
        return q

    def arrays(self) -> dict[str, F32]:
        """The weight arrays by name (:data:`ARRAYS`)."""
        return {name: getattr(self, name) for name in ARRAYS}

    def save(self, path: str | Path) -> None:
        """Write the weights file (float16 arrays; see the module docstring) so that a crash
        leaves the old file or the new one, never half of it (``.npz`` is added to a name
        without it, as numpy does)."""
        arrays = {name: getattr(self, name).astype(np.float16) for name in ARRAYS}
        save_npz(path, format=np.array(WEIGHTS_FORMAT), game=np.array(self.game),
                 obs_size=np.array(self.obs_size), feature_size=np.array(self.feature_size),
                 info=np.array(json.dumps(dict(self.info), sort_keys=True)), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> QNetwork:
        """Read a weights file written by :meth:`save`.

        Raises:
            KartentischError: not such a file, or its shapes do not fit together.
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                fmt = str(data["format"])
                if fmt != WEIGHTS_FORMAT:
                    raise KartentischError(
                        f"{path}: weights format {fmt!r}, expected {WEIGHTS_FORMAT!r}")
                arrays = {name: np.asarray(data[name], dtype=np.float32) for name in ARRAYS}
                game = str(data["game"])
                info = json.loads(str(data["info"]))
        except (OSError, KeyError, ValueError) as exc:
            raise KartentischError(f"cannot read the weights file {path}: {exc}") from exc
        net = cls(game=game, info=info, **arrays)
        h1 = net.w_obs.shape[1]
        if (net.w_act.shape[1] != h1 or net.b1.shape != (h1,) or net.w2.shape[0] != h1
                or net.b2.shape != (net.w2.shape[1],) or net.w3.shape != (net.w2.shape[1], 1)
                or net.b3.shape != (1,)):
            raise KartentischError(f"{path}: the layers' shapes do not fit together")
        return net
