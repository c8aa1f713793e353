"""Many games stepped together in one process, with stacked numpy arrays (for training).

:class:`BatchStepper` keeps ``num_envs`` games of one game (all seats played by the caller,
self-play style). Each row is one game; its *current* seat is the one that acts. ``step``
takes one token per row and returns the stacked observation vectors of the seats to act
next, their masks, the rewards of every seat (the returns of a game that ended on this step,
zeros otherwise), which rows ended, and who acts next. A finished game is replaced at once
by a new one whose seed comes from the stepper's generator, so every row always has a seat
to act.

Speed: rows are encoded through the encodings' fast path (the state's fields that the seat
to act may know, as float32 bytes, see
:meth:`~kartentisch.rl.encodings.base.Encoding.state_bytes`), joined and copied into the
stacked array at once; masks and a multi-token decision's prefix cells take one numpy call
each per step.

Learners that choose whole game actions (Deep Monte-Carlo scoring each legal action) use
:meth:`BatchStepper.observations`, :meth:`BatchStepper.legal_ids` and
:meth:`BatchStepper.step_actions` instead, which skip the encoding entirely.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from kartentisch.core.errors import IllegalActionError, InvalidActionError
from kartentisch.core.registry import load_game
from kartentisch.rl.table import SEED_LIMIT, Table, token_of


class BatchStepper:
    """``num_envs`` games stepped together (see the module docstring)."""

    def __init__(self, game: str | Any, num_envs: int, *, seed: int | None = None,
                 players: int | None = None, options: Mapping[str, Any] | None = None,
                 copy: bool = True) -> None:
        """``copy=False`` returns the stepper's own arrays, overwritten by the next call."""
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        game_obj = load_game(game, players, options) if isinstance(game, str) else game
        self.tables = [Table(game_obj) for _ in range(num_envs)]
        self.game = game_obj
        self.encoding = self.tables[0].encoding
        self.num_envs = num_envs
        self.players: int = game_obj.players
        self.copy = copy
        self._rng = np.random.default_rng(seed)
        self._obs = np.zeros((num_envs, self.encoding.obs_size), dtype=np.float32)
        self._masks = np.zeros((num_envs, self.encoding.num_tokens), dtype=np.int8)
        self._rewards = np.zeros((num_envs, self.players), dtype=np.float32)
        self._dones = np.zeros(num_envs, dtype=bool)
        self._current = np.zeros(num_envs, dtype=np.int64)
        self._row_starts = np.arange(num_envs, dtype=np.int64) * self.encoding.obs_size
        self._mask_starts = np.arange(num_envs, dtype=np.int64) * self.encoding.num_tokens
        self.games_finished = 0
        for table in self.tables:
            table.new_game(self._new_seed())

    # ------------------------------------------------------------------ token interface
    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32],
                                                      npt.NDArray[np.int8],
                                                      npt.NDArray[np.int64]]:
        """Start every row afresh; returns (observations, masks, current seats)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for table in self.tables:
            table.new_game(self._new_seed())
        self._write()
        return self._out(self._obs), self._out(self._masks), self._out(self._current)

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.float32],
            npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """One token per row; returns (observations, masks, rewards, dones, current seats).

        Raises:
            InvalidActionError: ``actions`` has the wrong length or holds a non-token.
            IllegalActionError: a token outside its row's mask (rows before it have stepped;
                the offending row is unchanged).
        """
        if len(actions) != self.num_envs:
            raise InvalidActionError(
                f"expected {self.num_envs} actions, got {len(actions)}", code="action.bad_id",
                params={"value": len(actions), "last": self.num_envs - 1})
        tokens = self._tokens(actions)
        rewards = self._rewards
        rewards.fill(0.0)
        dones = self._dones
        dones.fill(False)
        for i, (table, token) in enumerate(zip(self.tables, tokens, strict=True)):
            if table.step_token(token) and table.state.is_terminal():
                rewards[i] = table.returns()
                dones[i] = True
                self.games_finished += 1
                table.new_game(self._new_seed())
        self._write()
        return (self._out(self._obs), self._out(self._masks), self._out(rewards),
                self._out(dones), self._out(self._current))

    def _tokens(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> list[int]:
        """The actions as checked tokens (a whole integer array is checked at once)."""
        if (isinstance(actions, np.ndarray) and actions.ndim == 1
                and actions.dtype.kind in "iu"):
            if actions.size and (int(actions.min()) < 0
                                 or int(actions.max()) >= self.encoding.num_tokens):
                bad = next(a for a in actions.tolist()
                           if not 0 <= a < self.encoding.num_tokens)
                token_of(bad, self.encoding.num_tokens)  # raises InvalidActionError
            tokens: list[int] = actions.tolist()
            return tokens
        return [token_of(a, self.encoding.num_tokens) for a in actions]

    def _write(self) -> None:
        """Every row's vector and mask, written with a few numpy calls: the rows' vectors
        are float32 bytes (cached per decision) joined and copied in at once, a
        multi-token decision's prefix cells and the masks' allowed tokens shifted by their
        rows' offsets and set at once (or an encoding's own ``write_rows``)."""
        obs = self._obs
        masks = self._masks
        masks.fill(0)
        allowed: list[int] = []
        n_allowed: list[int] = []
        current: list[int] = []
        rows: list[bytes] = []
        cells: list[int] = []
        n_cells: list[int] = []
        vectorized = self.encoding.writes_rows
        single = self.encoding.single_token  # the mask is the legal ids themselves
        for table in self.tables:
            decision = table.decision
            assert decision is not None  # finished games were replaced
            if not vectorized:
                rows.append(table.acting_bytes())
                if decision.prefix:
                    prefix = table.prefix_cells()
                    cells += prefix
                    n_cells.append(len(prefix))
                else:
                    n_cells.append(0)
            tokens = decision.legal_ids if single else decision.allowed_tokens()
            allowed += tokens
            n_allowed.append(len(tokens))
            current.append(table.state.current_player)
        if vectorized:  # single-token encodings only: no prefix to add
            obs.fill(0.0)
            self.encoding.write_rows([t.state for t in self.tables], current, obs)
        else:
            flat = obs.reshape(-1)
            flat[:] = np.frombuffer(b"".join(rows), dtype=np.float32)
            if cells:
                flat.put(np.add(cells, np.repeat(self._row_starts, n_cells)), 1.0)
        masks.put(np.add(allowed, np.repeat(self._mask_starts, n_allowed)), 1)
        self._current[:] = current

    # ------------------------------------------------------------------ whole actions
    def observations(self) -> list[Any]:
        """The game observation of each row's seat to act (``state.observation(seat)``)."""
        return [table.observation_to_act() for table in self.tables]

    def legal_ids(self, row: int) -> tuple[int, ...]:
        """The legal game action ids of row ``row``'s seat to act."""
        decision = self.tables[row].decision
        assert decision is not None
        return decision.legal_ids

    def current_players(self) -> npt.NDArray[np.int64]:
        """Each row's seat to act."""
        return np.array([t.current_player for t in self.tables], dtype=np.int64)

    def step_actions(self, action_ids: Sequence[int]) -> tuple[npt.NDArray[np.float32],
                                                               npt.NDArray[np.bool_]]:
        """Apply one whole legal game action per row (no encoding); returns (rewards, dones)
        as :meth:`step` does. A row whose decision has begun token by token is refused.

        Raises:
            IllegalActionError: an id that is not legal in its row (earlier rows have
                stepped).
        """
        rewards = self._rewards
        rewards.fill(0.0)
        dones = self._dones
        dones.fill(False)
        for i, (table, aid) in enumerate(zip(self.tables, action_ids, strict=True)):
            decision = table.decision
            assert decision is not None
            aid = table.game.check_action_id(token_of(aid, table.game.num_distinct_actions))
            if decision.prefix:
                raise IllegalActionError(
                    f"row {i} is in the middle of a token-by-token decision",
                    code="action.illegal", params={"action": str(aid)})
            if aid not in decision.legal_ids:
                raise table.state.why_illegal(table.game.action_from_id(aid))
            table.state.apply_unchecked(aid)
            table.steps += 1
            table._decide()
            if table.is_over():
                rewards[i] = table.returns()
                dones[i] = True
                self.games_finished += 1
                table.new_game(self._new_seed())
        return self._out(rewards), self._out(dones)

    def _new_seed(self) -> int:
        return int(self._rng.integers(SEED_LIMIT))

    def _out(self, array: Any) -> Any:
        return array.copy() if self.copy else array
