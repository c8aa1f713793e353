"""One game in progress as the environments see it: state, encoding, the pending decision.

The environments (:mod:`.pettingzoo_env`, :mod:`.gymnasium_env`, :mod:`.batch`) share this
class. The seat to act is served by a one-row core of :mod:`kartentisch.rl.fast.rows` (the
legal ids, a multi-token decision's tokens so far, stepping the rules, and the seat's vector
and mask written into arrays kept here); any other seat's vector comes from the encoding's
fast path (:meth:`~kartentisch.rl.encodings.base.Encoding.state_bytes`: the state's fields
that the seat may know, the same vector as encoding ``state.observation(seat)``, as float32
bytes). The game's observation object is built only when asked for
(:meth:`Table.observation_to_act`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import numpy as np

from kartentisch.core.errors import InvalidActionError, safe_repr
from kartentisch.core.registry import load_game
from kartentisch.core.rng import SEED_MAX
from kartentisch.rl.encodings import Decision, Encoding, encoding_for
from kartentisch.rl.encodings.base import Mask, Vector, _bad_token
from kartentisch.rl.fast import rows as rows_core

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
    """A game, its encoding, the current state and the decision of the seat to act.

    The seat to act's steps and arrays go through a one-row
    :class:`~kartentisch.rl.fast.rows.Rows` core (compiled with the rules when the compiled
    core is built): it keeps the legal ids (and a multi-token decision's open sequences and
    prefix), applies a completed action, and writes the seat's vector and mask into arrays
    kept here, which :meth:`observe` and :meth:`mask` hand out as copies. The
    :class:`Decision` object is built only when asked for (:attr:`decision`).
    """

    def __init__(self, game: str | Any, players: int | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        self.game = load_game(game, players, options) if isinstance(game, str) else game
        self.encoding: Encoding = encoding_for(self.game)
        self.players: int = self.game.players
        self.state: Any = None
        """The game; after changing it from outside, call :meth:`_decide`."""
        self.steps = 0
        """Tokens taken in this game."""
        self._over = True
        self._decision: Decision | None = None
        self._rows = make_rows(self.game, self.encoding, 1, _no_seed)
        self._obs = np.zeros(self.encoding.obs_size, dtype=np.float32)
        self._mask = np.zeros(self.encoding.num_tokens, dtype=np.int8)
        self._seat = np.zeros(1, dtype=np.int64)
        self._obs_view = self._obs.data.cast("B")
        self._mask_view = self._mask.data.cast("B")
        self._seat_view = self._seat.data.cast("B")
        self._written = False
        """Whether the arrays hold the current decision (with its prefix)."""
        self._lazy_observation = (self.encoding.single_token
                                  or not self.encoding.tokens_need_observation)

    def new_game(self, seed: int) -> None:
        """Start a game with ``seed``."""
        self.state = self.game.new_initial_state(seed)
        self.steps = 0
        self._decide()

    def load(self, state: Any, prefix: Sequence[int] = ()) -> None:
        """Take over ``state`` (a game in progress) with the tokens ``prefix`` of its
        current decision already chosen (they must be allowed)."""
        self.state = state
        self._decide()
        for token in prefix:
            if self._rows.choose(0, token) < -1:
                raise _bad_token(token)

    def _decide(self) -> None:
        """Read the decision of the seat to act from :attr:`state` afresh."""
        state = self.state
        self._decision = None
        self._written = False
        self._over = bool(state.is_terminal())
        if not self._over:
            self._rows.load(0, state)

    @property
    def decision(self) -> Decision | None:
        """The seat to act's :class:`Decision` with the tokens chosen so far (None once
        the game is over); built on first use after each token. Read it; step the table
        with :meth:`step`."""
        if self._over:
            return None
        decision = self._decision
        if decision is None:
            state = self.state
            observation = (None if self._lazy_observation
                           else state.observation(state.current_player))
            decision = Decision(self.encoding, observation, self._rows.legal_ids(0))
            for token in self._rows.prefix[0] if not self.encoding.single_token else ():
                decision.choose(token)
            self._decision = decision
        return decision

    @property
    def prefix(self) -> list[int]:
        """The tokens chosen so far in the current decision (a copy)."""
        return [] if self.encoding.single_token else list(self._rows.prefix[0])

    def legal_count(self) -> tuple[int, int]:
        """(tokens allowed next, legal game actions still open) of the seat to act: the
        mask's ones, and the game actions whose tokens continue the choice so far; (0, 0)
        once the game is over."""
        if self._over:
            return 0, 0
        self._write()  # the mask, which the seat's observation needs anyway
        tokens = int(np.count_nonzero(self._mask))
        return tokens, tokens if self.encoding.single_token else len(self._rows.live[0])

    def move_sequences(self) -> list[tuple[int, ...]]:
        """The tokens still to choose for each legal game action that the tokens chosen so
        far lead to (one tuple per action; one token each for a single-token encoding):
        stepping one tuple's tokens plays that action. A random choice among these tuples is
        a random choice among whole moves, as the arena's ``random`` bot makes."""
        if self._over:
            return []
        rows = self._rows
        if self.encoding.single_token:
            return [(aid,) for aid in rows.legal_ids(0)]
        k = len(rows.prefix[0])
        sequences = rows.sequences[0]
        return [tuple(sequences[j][k:]) for j in rows.live[0]]

    def observation_to_act(self) -> Any:
        """The game observation of the seat to act (built on first use per decision)."""
        decision = self.decision
        assert decision is not None, "the game is over"
        if decision.observation is None:
            decision.observation = self.state.observation(self.state.current_player)
        return decision.observation

    def acting_bytes(self) -> bytes:
        """The deciding seat's vector as float32 bytes, without the decision's prefix
        (:meth:`Encoding.state_bytes`; see :meth:`prefix_cells`)."""
        assert not self._over, "the game is over"
        data: bytes = self._rows.vector(0)
        return data

    def prefix_cells(self) -> list[int]:
        """The cells (holding 1) that the decision's tokens so far add to the deciding
        seat's vector."""
        assert not self._over, "the game is over"
        prefix = self.prefix
        return self.encoding.prefix_cells(prefix) if prefix else []

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

    def _write(self) -> None:
        """The seat to act's vector and mask into the table's arrays (once per token)."""
        if not self._written:
            self._rows.write(0, self._obs_view, self._mask_view, self._seat_view)
            self._written = True

    def observe(self, seat: int, out: Vector | None = None) -> Vector:
        """The observation vector of ``seat`` (with the current decision's prefix when
        ``seat`` is deciding); written into ``out`` when given."""
        if not self._over and self.state.current_player == seat:
            self._write()
            if out is None:  # a copy, writable, the caller's own
                return self._obs.copy()
            out[:] = self._obs
            return out
        data = self.encoding.state_bytes(self.state, seat)
        if out is None:
            out = np.frombuffer(bytearray(data), dtype=np.float32)
        else:
            out[:] = np.frombuffer(data, dtype=np.float32)
        return out

    def mask(self, seat: int) -> Mask:
        """The action mask of ``seat``: the next tokens when it is to act, else all zero."""
        if not self._over and self.state.current_player == seat:
            self._write()
            return self._mask.copy()
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
        if self._over:
            self.state.check_actor(None)  # raises GameOverError
            raise AssertionError("a game in progress always has a decision")
        aid = self._rows.choose(0, token)
        if aid == -2:
            raise _bad_token(token)
        self.steps += 1
        self._decision = None
        self._written = False
        if aid == -1:
            return False
        self._over = self._rows.apply(0, aid)
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


def _no_seed() -> int:
    raise AssertionError("a table starts its games itself")


def make_rows(game: Any, encoding: Encoding, num_rows: int,
              new_seed: Callable[[], int]) -> rows_core.Rows:
    """A rows' core (:class:`kartentisch.rl.fast.rows.Rows`) of ``num_rows`` games of
    ``game``: the three games' rules and byte builders called natively, any other game's
    through the protocol and its encoding's ``state_bytes``."""
    kind = rows_core.kind_of(game.spec.name)
    seat_order: list[list[int]] = []
    blocks: list[bytes] = []
    if kind in (rows_core.KRASS_KARIERT, rows_core.KRUMME20):
        seat_order, blocks = encoding.byte_builder_args()
    prefix_base = encoding.prefix_cells([0])[0] if not encoding.single_token else 0

    def tokens_of(aid: int) -> tuple[int, ...]:
        return encoding.tokens(None, aid)

    return rows_core.Rows(game, kind, num_rows, encoding.obs_size, encoding.num_tokens,
                          game.players, encoding.single_token, prefix_base,
                          encoding.state_bytes, tokens_of, new_seed, seat_order, blocks)
