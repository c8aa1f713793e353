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
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from kartentisch.core.errors import IllegalActionError, safe_repr

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


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

    def __init__(self, game: Any) -> None:
        self.game = game

    @abstractmethod
    def encode(self, observation: Any, prefix: Sequence[int] = (), out: Vector | None = None
               ) -> Vector:
        """The observation vector of ``observation`` with the tokens ``prefix`` already
        chosen for the current decision; written into ``out`` when given (it is zeroed
        first) and returned."""

    def entries(self, observation: Any, prefix: Sequence[int] = (), offset: int = 0
                ) -> tuple[list[int], list[int], list[float]]:
        """The non-zero entries of :meth:`encode`'s vector, shifted by ``offset``: indices
        holding 1.0, then the indices and values of the others (for writing many rows of a
        batch at once). Encodings override this with a direct construction."""
        vector = self.encode(observation, prefix)
        where = np.flatnonzero(vector)
        values = vector[where]
        one = values == 1.0
        return ((where[one] + offset).tolist(), (where[~one] + offset).tolist(),
                values[~one].tolist())

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


class Decision:
    """One seat's choice of a game action, token by token.

    For single-token encodings the mask is simply the legal ids; otherwise the legal token
    sequences form a trie walked by :meth:`choose`.
    """

    __slots__ = ("_by_sequence", "_sequences", "encoding", "legal_ids", "observation", "prefix")

    def __init__(self, encoding: Encoding, observation: Any, legal_ids: Sequence[int]):
        self.encoding = encoding
        self.observation = observation
        self.legal_ids = tuple(legal_ids)
        self.prefix: list[int] = []
        if encoding.single_token:
            self._sequences: list[tuple[int, ...]] = []
            self._by_sequence: dict[tuple[int, ...], int] = {}
        else:
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
        other.prefix = self.prefix.copy()
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Decision:
        return self.copy()

    def next_tokens(self) -> list[int]:
        """The tokens that may come next, sorted."""
        if self.encoding.single_token:
            return sorted(self.legal_ids)
        k = len(self.prefix)
        prefix = tuple(self.prefix)
        return sorted({s[k] for s in self._sequences if s[:k] == prefix})

    def mask(self, out: Mask | None = None) -> Mask:
        """The ``num_tokens`` mask of the next token (1: allowed)."""
        if out is None:
            out = np.zeros(self.encoding.num_tokens, dtype=np.int8)
        else:
            out[:] = 0
        if self.encoding.single_token:
            out[list(self.legal_ids)] = 1
        else:
            out[self.next_tokens()] = 1
        return out

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
        if token not in self.next_tokens():
            raise _bad_token(token)
        self.prefix.append(token)
        return self._by_sequence.get(tuple(self.prefix))


def _bad_token(token: object) -> IllegalActionError:
    text = safe_repr(token)
    return IllegalActionError(f"{text} is not legal now", code="action.illegal",
                              params={"action": text})
