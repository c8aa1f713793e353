"""Many games stepped together in one process, with stacked numpy arrays (for training).

:class:`BatchStepper` keeps ``num_envs`` games of one game (all seats played by the caller,
self-play style). Each row is one game; its *current* seat is the one that acts. ``step``
takes one token per row and returns the stacked observation vectors of the seats to act
next, their masks, the rewards of every seat (the returns of a game that ended on this step,
zeros otherwise), which rows ended, and who acts next. A finished game is replaced at once
by a new one whose seed comes from the stepper's generator, so every row always has a seat
to act.

Speed: the token interface runs in the rows' core, :class:`kartentisch.rl.fast.rows.Rows`,
one call per step for all rows: it keeps each row's state and legal ids (and a multi-token
decision's open sequences), steps the rules, replaces finished games, and writes every row's
vector, mask and seat straight into the stacked arrays' bytes. The compiled core (mypyc)
compiles it with the rules and the byte builders, so no Python object is made per row and
step; pure Python runs the same code with the same results (Krass Kariert's vectors are then
written for all rows at once with numpy, ``write_rows``, which is cheaper there).

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
from kartentisch.rl.encodings.base import _bad_token
from kartentisch.rl.fast.rows import Rows
from kartentisch.rl.table import SEED_LIMIT, Table, make_rows, token_of


class BatchStepper:
    """``num_envs`` games stepped together (see the module docstring)."""

    def __init__(self, game: str | Any, num_envs: int, *, seed: int | None = None,
                 players: int | None = None, options: Mapping[str, Any] | None = None,
                 copy: bool = True) -> None:
        """``copy=False`` returns read-only views of the stepper's own arrays, which the next
        call overwrites (no copy per step; a caller that wants to keep or change one copies
        it). Read-only, because the rows' core does not rewrite every cell at every step: a
        write into a returned array would otherwise corrupt the next steps' observations."""
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        game_obj = load_game(game, players, options) if isinstance(game, str) else game
        self._tables = [Table(game_obj) for _ in range(num_envs)]
        self.game = game_obj
        self.encoding = self._tables[0].encoding
        self.num_envs = num_envs
        self.players: int = game_obj.players
        self.copy = copy
        self._rng = np.random.default_rng(seed)
        # The arrays the rows' core writes are views of bytearrays, which it writes by
        # slice: the masks and seats (bytearray blocks) into the bytearrays themselves,
        # the vectors (bytes) through a memoryview, where no conversion of the source to
        # a bytearray comes first (see Rows.write).
        self._obs_view = bytearray(4 * num_envs * self.encoding.obs_size)
        self._obs_write = memoryview(self._obs_view)
        self._mask_view = bytearray(num_envs * self.encoding.num_tokens)
        self._current_view = bytearray(8 * num_envs)
        self._obs = np.frombuffer(self._obs_view, dtype=np.float32).reshape(
            num_envs, self.encoding.obs_size)
        self._masks = np.frombuffer(self._mask_view, dtype=np.int8).reshape(
            num_envs, self.encoding.num_tokens)
        self._current = np.frombuffer(self._current_view, dtype=np.int64)
        self._rewards = np.zeros((num_envs, self.players), dtype=np.float32)
        self._dones = np.zeros(num_envs, dtype=bool)
        self._reward_view: memoryview[float] = self._rewards.reshape(-1).data.cast("B").cast("f")
        self._done_view = self._dones.data.cast("B")
        self._readonly = {id(a): _readonly(a) for a in (
            self._obs, self._masks, self._current, self._rewards, self._dones)}
        """Read-only views of the arrays above, by the array's identity (for ``copy=False``)."""
        self._rows = make_rows(game_obj, self.encoding, num_envs, self._new_seed)
        # an encoding that writes many rows at once more cheaply (Krass Kariert in pure
        # Python) does so after the core has stepped the rows and set the masks
        self._rows.vectors = not self.encoding.writes_rows
        self._finished_in_tables = 0
        """Games that ended in :meth:`step_actions` (the core counts the others)."""
        self._in_tables = False
        """Whether the tables hold the games now (after the whole-action interface) rather
        than the rows' core (after the token interface); each side is brought up to date
        from the other when it is next used."""
        for row in range(num_envs):
            self._rows.new_game(row)
        self._rows.write_all(self._obs_write, self._mask_view, self._current_view)
        self._write_rows()

    def _write_rows(self) -> None:
        """The vectors, when the encoding writes them for all rows at once."""
        if not self._rows.vectors:
            self._obs.fill(0.0)
            self.encoding.write_rows(self._rows.states, self._current.tolist(), self._obs)

    @property
    def games_finished(self) -> int:
        """Games that ended so far (either interface)."""
        return self._rows.finished + self._finished_in_tables

    @property
    def tables(self) -> list[Table]:
        """One :class:`~kartentisch.rl.table.Table` per row, holding the row's game and
        decision (the same list and objects on every access; the whole-action interface
        steps them)."""
        if not self._in_tables:
            rows = self._rows
            for row, table in enumerate(self._tables):
                state = rows.states[row]
                if table.state is not state:
                    table.steps = 0
                table.load(state, () if rows.single_token else rows.prefix[row])
            self._in_tables = True
        return self._tables

    def _core(self) -> Rows:
        """The rows' core, up to date with the tables when they were used last."""
        rows = self._rows
        if self._in_tables:
            for row, table in enumerate(self._tables):
                rows.load(row, table.state)
                for token in table.prefix:
                    rows.choose(row, token)
            self._in_tables = False
        return rows

    # ------------------------------------------------------------------ token interface
    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32],
                                                      npt.NDArray[np.int8],
                                                      npt.NDArray[np.int64]]:
        """Start every row afresh; returns (observations, masks, current seats)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._in_tables = False
        self._rows.reset(self._obs_write, self._mask_view, self._current_view)
        self._write_rows()
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
        rows = self._core()
        rewards = self._rewards
        rewards.fill(0.0)
        dones = self._dones
        dones.fill(False)
        bad = rows.step(tokens, self._obs_write, self._mask_view, self._current_view,
                        self._reward_view, self._done_view)
        if bad >= 0:
            rows.write_all(self._obs_write, self._mask_view, self._current_view)
            self._write_rows()
            raise _bad_token(tokens[bad])
        self._write_rows()
        return (self._out(self._obs), self._out(self._masks), self._out(rewards),
                self._out(dones), self._out(self._current))

    def _tokens(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> list[int]:
        """The actions as checked tokens (a whole integer array is checked at once)."""
        if (isinstance(actions, np.ndarray) and actions.ndim == 1
                and actions.dtype.kind in "iu"):
            tokens: list[int] = actions.tolist()
            bad = self._rows.out_of_range(tokens)
            if bad >= 0:
                token_of(tokens[bad], self.encoding.num_tokens)  # raises InvalidActionError
            return tokens
        return [token_of(a, self.encoding.num_tokens) for a in actions]

    # ------------------------------------------------------------------ whole actions
    def observations(self) -> list[Any]:
        """The game observation of each row's seat to act (``state.observation(seat)``)."""
        if not self._in_tables:
            rows = self._rows
            states: list[Any] = rows.states
            return [states[row].observation(rows.seat(row)) for row in range(self.num_envs)]
        return [table.observation_to_act() for table in self._tables]

    def legal_ids(self, row: int) -> tuple[int, ...]:
        """The legal game action ids of row ``row``'s seat to act."""
        if not self._in_tables:
            return self._rows.legal_ids(row)
        decision = self._tables[row].decision
        assert decision is not None
        return decision.legal_ids

    def current_players(self) -> npt.NDArray[np.int64]:
        """Each row's seat to act."""
        if not self._in_tables:
            return self._current.copy()  # written with every step of the token interface
        return np.array([t.current_player for t in self._tables], dtype=np.int64)

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
                self._finished_in_tables += 1
                table.new_game(self._new_seed())
        return self._out(rewards), self._out(dones)

    def _new_seed(self) -> int:
        return int(self._rng.integers(SEED_LIMIT))

    def _out(self, array: Any) -> Any:
        return array.copy() if self.copy else self._readonly[id(array)]


def _readonly(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A view of ``array`` that refuses writes (it still shows the array's new values)."""
    view = array.view()
    view.flags.writeable = False
    return view
