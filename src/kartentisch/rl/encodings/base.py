"""What every game's encoding offers, and the step-by-step choice of one game action.

An :class:`Encoding` turns what one seat knows (``state.observation(seat)``, never the state)
into fixed-shape numpy arrays:

* ``encode(observation, prefix)``: the observation vector (``float32``, ``obs_size`` long);
* ``tokens(observation, action_id)``: the action as a sequence of *tokens* from a bounded
  vocabulary of ``num_tokens``. A game whose action ids are few (Krass Kariert) uses the id
  itself, one token per action. A game whose ids are astronomically many (Casino's captures
  and builds) factors an action into several small choices; the last token of every
  multi-token sequence is a *confirm* token, so no sequence is a proper prefix of another.
  The game's own actions stay as they are: the environments apply the game action once its
  last token is chosen;
* ``action_features(observation, action_id)``: a fixed-length description of one whole game
  action, for value-of-action learners (Deep Monte-Carlo) that score each legal action.

:class:`Decision` holds the legal token sequences of one decision and the prefix chosen so
far, and answers the mask of the next token.

**The fast path.** Building the game's observation object costs more than a move, so the
environments call :meth:`Encoding.state_entries` instead: each game's encoding reads the
fields of the state that the seat may know (its *knowledge accessor*: the own hand, the
public parts, and per card only the sides or positions the seat has seen) and writes the
same vector, bit for bit, as :meth:`Encoding.entries` of ``state.observation(seat)`` (the
reference, which stays the definition of every layout). ``tests/rl/test_encodings.py``
compares the two over many random positions of every game and player count, and re-deals
hidden cards (``game.sample_world``) to check that the fast path leaks nothing either.

The environments take each vector as float32 bytes, :meth:`Encoding.state_bytes` (numpy
reads them with one copy). All three games join those bytes from blocks worked
out once (:mod:`kartentisch.rl.fast`, which the compiled core compiles); the same tests hold
them to the reference.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kartentisch.core.errors import IllegalActionError, safe_repr

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Field:
    """One named part of an observation vector: where it lies and how it is shaped.

    ``vector[field.slice].reshape(field.shape)`` (or :meth:`of`, which also takes a batch of
    vectors) is the part as an array; relative seats come first where a field is per seat.
    """

    name: str
    start: int
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        """How many values the field holds."""
        return math.prod(self.shape)

    @property
    def stop(self) -> int:
        """The index after the field's last value."""
        return self.start + self.size

    @property
    def slice(self) -> slice:
        """The field's values in the vector."""
        return slice(self.start, self.stop)

    def of(self, vectors: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """The field of one vector (shape :attr:`shape`) or of a batch (leading axes kept)."""
        part = vectors[..., self.start:self.stop]
        return part.reshape(*vectors.shape[:-1], *self.shape)


def layout(*parts: tuple[str, tuple[int, ...], str]) -> dict[str, Field]:
    """Fields laid end to end from index 0, in order: ``(name, shape, doc)`` each."""
    fields: dict[str, Field] = {}
    start = 0
    for name, shape, doc in parts:
        if name in fields:
            raise ValueError(f"field {name!r} twice")
        fields[name] = field = Field(name, start, shape, doc)
        start = field.stop
    return fields


class Encoding(ABC):
    """A game's fixed-shape numeric view of one seat's knowledge (see the module docstring).

    One instance serves one :class:`~kartentisch.core.protocol.Game` (player count and
    options fixed); shapes are the same for every player count of the game, so one network
    can serve them all.
    """

    game: Any
    obs_size: int
    """Length of :meth:`encode`'s vector."""
    num_tokens: int
    """Size of the bounded action (token) space: the length of every mask."""
    feature_size: int
    """Length of :meth:`action_features`' vector."""
    single_token: bool = False
    """Whether every action is exactly one token, the token being the game's action id."""
    writes_rows: bool = False
    """Whether :meth:`write_rows` is a vectorized fast path (the batch stepper uses it
    instead of joining the rows' :meth:`state_bytes`; single-token encodings only)."""
    tokens_need_observation: bool = True
    """Whether :meth:`tokens` reads its observation (if not, a :class:`Decision` may be
    built without one, which the environments' fast path does)."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def encode(self, observation: Any, prefix: Sequence[int] = (), out: Vector | None = None
               ) -> Vector:
        """The observation vector of ``observation`` with the tokens ``prefix`` already
        chosen for the current decision; written into ``out`` when given (it is zeroed
        first) and returned. Built from :meth:`entries`, the one construction per game."""
        if out is None:
            out = np.zeros(self.obs_size, dtype=np.float32)
        else:
            out[:] = 0.0
        ones, where, values = self.entries(observation, prefix)
        out.put(ones, 1.0)
        out.put(where, values)
        return out

    @abstractmethod
    def entries(self, observation: Any, prefix: Sequence[int] = (), offset: int = 0
                ) -> tuple[list[int], list[int], list[float]]:
        """The non-zero entries of :meth:`encode`'s vector, shifted by ``offset``: indices
        holding 1.0, then the indices and values of the others (for writing many rows of a
        batch at once)."""

    def state_entries(self, state: Any, seat: int, prefix: Sequence[int] = (), offset: int = 0
                      ) -> tuple[list[int], list[int], list[float]]:
        """The fast path: exactly ``entries(state.observation(seat), prefix, offset)``, read
        from the state's fields that ``seat`` may know without building the observation.
        This default builds the observation; the games' encodings override it."""
        return self.entries(state.observation(seat), prefix, offset)

    def state_bytes(self, state: Any, seat: int) -> bytes:
        """``encode_state(state, seat).tobytes()``: the vector's float32 bytes (native byte
        order), how the environments read every vector. The three games' encodings join
        them from precomputed blocks without converting a single Python number, the
        cheapest way to one vector."""
        return self.encode_state(state, seat).tobytes()

    def byte_builder_args(self) -> tuple[list[list[int]], list[bytes]]:
        """The arguments of the game's byte builder in :mod:`kartentisch.rl.fast` after
        the state and seat (the seats from each seat on, the game's fixed blocks), for the
        batch stepper's rows' core; only the games with such a builder have them."""
        raise NotImplementedError(f"{type(self).__name__} has no byte builder")

    def write_rows(self, states: Sequence[Any], seats: Sequence[int],
                   out: npt.NDArray[np.float32]) -> None:
        """Row ``i`` of ``out`` (zero on entry) becomes ``encode_state(states[i],
        seats[i])``. This default encodes row by row; an encoding with ``writes_rows``
        builds all rows with numpy at once."""
        flat = out.reshape(-1)
        width = self.obs_size
        for i, (state, seat) in enumerate(zip(states, seats, strict=True)):
            ones, where, values = self.state_entries(state, seat, (), i * width)
            flat.put(ones, 1.0)
            if where:
                flat.put(where, values)

    def prefix_cells(self, prefix: Sequence[int]) -> list[int]:
        """The cells (holding 1) that the tokens ``prefix`` add to the deciding seat's
        vector: :meth:`state_entries` with a prefix is the one without it plus these."""
        if prefix:
            raise NotImplementedError(f"{type(self).__name__} has no multi-token decisions")
        return []

    def encode_state(self, state: Any, seat: int, prefix: Sequence[int] = (),
                     out: Vector | None = None) -> Vector:
        """:meth:`encode` of ``state.observation(seat)`` through :meth:`state_entries`
        (the same vector, faster); written into ``out`` when given (zeroed first)."""
        if out is None:
            out = np.zeros(self.obs_size, dtype=np.float32)
        else:
            out.fill(0.0)
        ones, where, values = self.state_entries(state, seat, prefix)
        out.put(ones, 1.0)
        if where:
            out.put(where, values)
        return out

    @abstractmethod
    def tokens(self, observation: Any, action_id: int) -> tuple[int, ...]:
        """The token sequence of the legal action ``action_id`` for the seat observing."""

    @abstractmethod
    def action_features(self, observation: Any, action_id: int) -> Vector:
        """A ``feature_size`` vector describing the legal action ``action_id``."""

    def features(self, observation: Any, action_ids: Sequence[int]) -> npt.NDArray[np.float32]:
        """The features of several legal actions, one row each."""
        out = np.empty((len(action_ids), self.feature_size), dtype=np.float32)
        for row, aid in enumerate(action_ids):
            out[row] = self.action_features(observation, aid)
        return out

    def decision(self, observation: Any, legal_ids: Sequence[int]) -> Decision:
        """The decision of the seat to act among ``legal_ids`` (ids legal now)."""
        return Decision(self, observation, legal_ids)

    def token_name(self, token: int) -> str:
        """A short text for a token, for rendering (the id by default)."""
        return str(token)

    def fields(self) -> Mapping[str, Field]:
        """The observation vector's fields by name, in order, covering it end to end
        (each game's layout table in code: ``obs[enc.fields()["own_hand"].slice]``)."""
        raise NotImplementedError(f"{type(self).__name__} names no fields")


_NO_NEXT: dict[tuple[int, ...], list[int]] = {}
_NO_SEQUENCES: list[tuple[int, ...]] = []
_NO_BY_SEQUENCE: dict[tuple[int, ...], int] = {}


class Decision:
    """One seat's choice of a game action, token by token.

    For single-token encodings the mask is simply the legal ids; otherwise the legal token
    sequences form a trie walked by :meth:`choose` (the tokens that may follow a prefix are
    worked out once per prefix and shared by copies). ``observation`` may be None when the
    encoding's tokens do not read it (``tokens_need_observation`` false): the environments'
    fast path never builds the observation object.
    """

    __slots__ = ("_by_sequence", "_next", "_sequences", "encoding", "legal_ids", "observation",
                 "prefix")

    def __init__(self, encoding: Encoding, observation: Any, legal_ids: Sequence[int]):
        self.encoding = encoding
        self.observation = observation
        self.legal_ids = tuple(legal_ids)
        self.prefix: list[int] = []
        if encoding.single_token:
            # never read for single tokens: shared empty stand-ins, nothing to allocate
            self._next: dict[tuple[int, ...], list[int]] = _NO_NEXT
            self._sequences: list[tuple[int, ...]] = _NO_SEQUENCES
            self._by_sequence: dict[tuple[int, ...], int] = _NO_BY_SEQUENCE
        else:
            self._next = {}
            self._by_sequence = {encoding.tokens(observation, a): a for a in self.legal_ids}
            self._sequences = list(self._by_sequence)

    def copy(self) -> Decision:
        """The same decision with its own prefix (everything else is never changed)."""
        other = Decision.__new__(Decision)
        other.encoding = self.encoding
        other.observation = self.observation
        other.legal_ids = self.legal_ids
        other._sequences = self._sequences
        other._by_sequence = self._by_sequence
        other._next = self._next
        other.prefix = self.prefix.copy()
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Decision:
        return self.copy()

    def next_tokens(self) -> list[int]:
        """The tokens that may come next, sorted."""
        if self.encoding.single_token:
            return sorted(self.legal_ids)
        prefix = tuple(self.prefix)
        found = self._next.get(prefix)
        if found is None:
            k = len(prefix)
            found = self._next[prefix] = sorted(
                {s[k] for s in self._sequences if s[:k] == prefix})
        return found.copy()

    def mask(self, out: Mask | None = None) -> Mask:
        """The ``num_tokens`` mask of the next token (1: allowed)."""
        if out is None:
            out = np.zeros(self.encoding.num_tokens, dtype=np.int8)
        else:
            out.fill(0)
        out.put(self.legal_ids if self.encoding.single_token else self.allowed_tokens(), 1)
        return out

    def allowed_tokens(self) -> list[int]:
        """The tokens that may come next (unsorted for single-token encodings; the list
        must not be changed)."""
        if self.encoding.single_token:
            return list(self.legal_ids)
        prefix = tuple(self.prefix)
        found = self._next.get(prefix)
        if found is None:
            found = self.next_tokens()
        return found

    def choose(self, token: int) -> int | None:
        """Take ``token``; the game action id once the sequence is complete, else None.

        Raises:
            IllegalActionError: ``token`` may not come next (code ``action.illegal``); the
                decision is unchanged.
        """
        if self.encoding.single_token:
            if token in self.legal_ids:
                return token
            raise _bad_token(token)
        if token not in self.allowed_tokens():
            raise _bad_token(token)
        self.prefix.append(token)
        return self._by_sequence.get(tuple(self.prefix))


def _bad_token(token: object) -> IllegalActionError:
    text = safe_repr(token)
    return IllegalActionError(f"{text} is not legal now", code="action.illegal",
                              params={"action": text})
