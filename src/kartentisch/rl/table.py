"""One game in progress as the environments see it: state, encoding, the pending decision.

The environments (:mod:`.pettingzoo_env`, :mod:`.gymnasium_env`, :mod:`.batch`) share this
class. It reads every seat's knowledge through the encoding's fast path
(:meth:`~kartentisch.rl.encodings.base.Encoding.state_bytes`: the state's fields that the
seat may know, the same vector as encoding ``state.observation(seat)``, as float32 bytes
that numpy reads without converting a number); the state itself is
used to step, to list the legal ids of the seat to act and to read the returns. The game's
observation object is built only when asked for (:meth:`Table.observation_to_act`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from kartentisch.core.errors import InvalidActionError, safe_repr
from kartentisch.core.registry import load_game
from kartentisch.core.rng import SEED_MAX
from kartentisch.rl.encodings import Decision, Encoding, encoding_for
from kartentisch.rl.encodings.base import Mask, Vector

SEED_LIMIT: Final = SEED_MAX + 1
"""Game seeds are drawn from ``range(SEED_LIMIT)`` (see :mod:`kartentisch.core.rng`)."""


def token_of(action: object, num_tokens: int) -> int:
    """``action`` as a token: an int or numpy integer in ``range(num_tokens)``.

    Raises:
        InvalidActionError: anything else (bools, floats, out of range), code
            ``action.bad_id``.
    """
    if type(action) is int and 0 <= action < num_tokens:  # the common case, checked first
        return action
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, np.integer):
        action = int(action)
    if type(action) is not int or not 0 <= action < num_tokens:
        raise InvalidActionError(
            f"action {safe_repr(action)} is not a whole number from 0 to {num_tokens - 1}",
            code="action.bad_id", params={"value": safe_repr(action), "last": num_tokens - 1})
    return action


class Table:
    """A game, its encoding, the current state and the decision of the seat to act."""

    def __init__(self, game: str | Any, players: int | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        self.game = load_game(game, players, options) if isinstance(game, str) else game
        self.encoding: Encoding = encoding_for(self.game)
        self.players: int = self.game.players
        self.state: Any = None
        self.decision: Decision | None = None
        self.steps = 0
        """Tokens taken in this game."""
        self._bytes: bytes | None = None
        """The deciding seat's vector (float32 bytes) without the decision's prefix, cached
        per decision: a multi-token decision adds only its prefix cells at each token."""
        self._lazy_observation = (self.encoding.single_token
                                  or not self.encoding.tokens_need_observation)

    def new_game(self, seed: int) -> None:
        """Start a game with ``seed``."""
        self.state = self.game.new_initial_state(seed)
        self.steps = 0
        self._decide()

    def _decide(self) -> None:
        state = self.state
        self._bytes = None
        if state.is_terminal():
            self.decision = None
        elif self._lazy_observation:
            self.decision = Decision(self.encoding, None, state.legal_action_ids())
        else:
            seat = state.current_player
            self.decision = self.encoding.decision(state.observation(seat),
                                                   state.legal_action_ids())

    def observation_to_act(self) -> Any:
        """The game observation of the seat to act (built on first use per decision)."""
        decision = self.decision
        assert decision is not None, "the game is over"
        if decision.observation is None:
            decision.observation = self.state.observation(self.state.current_player)
        return decision.observation

    def acting_bytes(self) -> bytes:
        """The deciding seat's vector as float32 bytes, without the decision's prefix
        (:meth:`Encoding.state_bytes`, cached per decision; see :meth:`prefix_cells`)."""
        data = self._bytes
        if data is None:
            data = self._bytes = self.encoding.state_bytes(self.state,
                                                           self.state.current_player)
        return data

    def prefix_cells(self) -> list[int]:
        """The cells (holding 1) that the decision's tokens so far add to the deciding
        seat's vector."""
        decision = self.decision
        assert decision is not None, "the game is over"
        return self.encoding.prefix_cells(decision.prefix) if decision.prefix else []

    @property
    def current_player(self) -> int:
        """The seat to act (the game's ``TERMINAL`` once it is over)."""
        return int(self.state.current_player)

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.state.is_terminal())

    def returns(self) -> list[float]:
        """The game's returns, one per seat (zeros until it ends)."""
        return [float(r) for r in self.state.returns()]

    def observe(self, seat: int, out: Vector | None = None) -> Vector:
        """The observation vector of ``seat`` (with the current decision's prefix when
        ``seat`` is deciding); written into ``out`` when given."""
        deciding = self.decision is not None and self.state.current_player == seat
        data = self.acting_bytes() if deciding else self.encoding.state_bytes(self.state, seat)
        if out is None:  # one copy, writable, the caller's own
            out = np.frombuffer(bytearray(data), dtype=np.float32)
        else:
            out[:] = np.frombuffer(data, dtype=np.float32)
        if deciding:
            for cell in self.prefix_cells():
                out[cell] = 1.0
        return out

    def mask(self, seat: int) -> Mask:
        """The action mask of ``seat``: the next tokens when it is to act, else all zero."""
        decision = self.decision
        if decision is not None and self.state.current_player == seat:
            return decision.mask()
        return np.zeros(self.encoding.num_tokens, dtype=np.int8)

    def step(self, action: object) -> bool:
        """Take one token for the seat to act; True when it completed a game action.

        Raises:
            InvalidActionError: ``action`` is not a token.
            IllegalActionError: the token is not allowed now (nothing changes).
            GameOverError: the game is over.
        """
        return self.step_token(token_of(action, self.encoding.num_tokens))

    def step_token(self, token: int) -> bool:
        """:meth:`step` for a token already checked to be an int in range."""
        decision = self.decision
        if decision is None:
            self.state.check_actor(None)  # raises GameOverError
            raise AssertionError("a game in progress always has a decision")
        aid = decision.choose(token)
        self.steps += 1
        if aid is None:
            return False
        self.state.apply_unchecked(aid)
        self._decide()
        return True

    def render_text(self) -> str:
        """The table as a spectator sees it, in text (hands hidden), with the last move."""
        state = self.state
        game = self.game
        lines = [f"{game.spec.title}, {self.players} players"]
        if state.history:
            last = game.format_action(state.history[-1])
            lines.append(f"last move: {last}")
        if state.is_terminal():
            lines.append("game over; returns: " + ", ".join(f"{r:+.3g}" for r in self.returns()))
        else:
            lines.append(f"seat {state.current_player} to act")
            if self.decision is not None and self.decision.prefix:
                names = [self.encoding.token_name(t) for t in self.decision.prefix]
                lines.append("chosen so far: " + " ".join(names))
        view = state.observation(None).to_json()
        for key, value in view.items():
            if key in ("format", "game"):
                continue
            lines.append(f"  {key}: {json.dumps(value, separators=(',', ':'))}")
        return "\n".join(lines)
