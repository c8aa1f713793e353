"""The protocol shared by every game: a game description, states, observations and events.

A :class:`Game` is an immutable description (player count and typed options) and a factory
for :class:`State` objects. A state is mutable: ``apply`` advances it. Everything random
comes from the state's own seed, so a record of (game, players, options, seed, actions)
replays to the identical state. Bots and clients only ever see an observation: the part of
the state one seat may know, which is JSON-serialisable.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeVar

from kartentisch.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionsError,
    InvalidSeatError,
    NotYourTurnError,
    safe_repr,
)
from kartentisch.core.options import options_from_dict, options_to_dict
from kartentisch.core.reasons import Reasons
from kartentisch.core.rng import check_seed

Seat = int
"""A seat index, 0 .. players-1, clockwise."""

TERMINAL: Seat = -2
"""``current_player`` of a finished game."""

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Static facts about a game that generic code (bots, RL, arena) reads."""

    name: str
    """Registry name, e.g. ``"krass-kariert"``."""
    title: str
    min_players: int
    max_players: int
    default_players: int
    zero_sum: bool
    min_utility: float
    max_utility: float


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for display and logs.

    ``data`` is public. ``private`` holds details only ``seat`` may see (a drawn card's
    value, say); :meth:`for_seat` strips it for everybody else.
    """

    kind: str
    seat: Seat | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[str, Any] | None = None

    def for_seat(self, viewer: Seat | None) -> Event:
        """The event as ``viewer`` may see it (``None``: a spectator)."""
        if self.private is None:
            return self
        if viewer is not None and viewer == self.seat:
            return Event(self.kind, self.seat, {**self.data, **self.private}, None)
        return Event(self.kind, self.seat, self.data, None)

    def to_json(self) -> JSON:
        """A JSON-ready dictionary; ``private`` is left out (use :meth:`for_seat` first)."""
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data)}


OBSERVATION_FORMAT: Final = "kartentisch-observation/1"
"""The ``format`` of every observation document; raised when its layout changes."""


class Observation(Protocol):
    """What one seat (or, with ``seat`` None, a spectator) may know.

    Every game's observation offers at least this; its ``to_json`` carries
    ``"format": OBSERVATION_FORMAT`` and the game's name.
    """

    @property
    def seat(self) -> Seat | None: ...

    @property
    def current_player(self) -> Seat: ...

    def to_json(self) -> JSON: ...


A = TypeVar("A")
Obs = TypeVar("Obs", bound=Observation)
Opt = TypeVar("Opt")


class State(ABC, Generic[A, Obs]):
    """A position of a game in progress. Mutable; ``clone`` copies it.

    The checked entry points, :meth:`apply` and :meth:`apply_id`, live here once for every
    game, with one error policy: a rejected call raises a :class:`KartentischError` subclass
    and leaves the state exactly as it was. A game supplies move generation
    (:meth:`legal_action_ids`, optionally a faster :meth:`is_legal_id`), the transition
    (:meth:`apply_unchecked`) and the explanation (:meth:`why_illegal`).
    """

    game: Game[Any, A, Obs]
    seed: int
    history: list[A]
    events: list[Event]

    # ------------------------------------------------------------------ what a game supplies
    @property
    @abstractmethod
    def current_player(self) -> Seat:
        """The seat to act, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_action_ids(self) -> tuple[int, ...]:
        """The legal actions' integer ids, in the order of :meth:`legal_actions` (immutable)."""

    def legal_actions(self) -> list[A]:
        """Every distinct legal action, in a deterministic order."""
        decode = self.game.action_from_id
        return [decode(i) for i in self.legal_action_ids()]

    def history_ids(self) -> Sequence[int]:
        """The ids of :attr:`history`, oldest first (``game.action_to_id(history[k])``).

        Records are written from these. A game that keeps its history compactly answers
        without making the action objects (all three games do)."""
        to_id = self.game.action_to_id
        return [to_id(action) for action in self.history]

    def is_legal_id(self, aid: int) -> bool:
        """Whether the action with id ``aid`` (known to be in range) is legal now."""
        return aid in self.legal_action_ids()

    @abstractmethod
    def apply_unchecked(self, aid: int) -> None:
        """Apply a legal action id without any check: the fast path for search code that
        only plays ids it took from :meth:`legal_action_ids`. Anything else corrupts the state."""

    @abstractmethod
    def why_illegal(self, action: A) -> IllegalActionError:
        """The error saying why ``action`` (a well-formed action) is not legal now, with the
        game's reason code and params, and what is allowed instead."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One utility per seat; all zero until the game is over."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy: it shares nothing mutable with this state."""

    @abstractmethod
    def observation(self, seat: Seat | None) -> Obs:
        """Exactly what ``seat`` may know now; ``None``: what a spectator may know."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The position as a documented JSON document (see ``docs/positions*.md``)."""

    def reveal(self) -> JSON:
        """Everything, once the game is over (the full position); raises before."""
        if not self.is_terminal():
            raise IllegalActionError(
                "the full deal is revealed only when the game is over", code="observation.not_over"
            )
        return self.to_json()

    # ------------------------------------------------------------------ the checked entry points
    def apply(self, action: A, *, seat: Seat | None = None) -> None:
        """Play ``action`` for the current player.

        Args:
            action: a legal action (see :meth:`legal_actions`).
            seat: if given, the seat submitting the action; it must be the one to move.

        Raises:
            GameOverError: the game has ended.
            InvalidSeatError: ``seat`` is not a seat of this game.
            NotYourTurnError: ``seat`` is given and is not to move.
            InvalidActionError: ``action`` is not an action of this game at all.
            IllegalActionError: the action is not legal now (the error says why).
        """
        self.check_actor(seat)
        aid = self.game.checked_action_id(action)
        if not self.is_legal_id(aid):
            raise self.why_illegal(action)
        self.apply_unchecked(aid)

    def apply_id(self, aid: int, *, seat: Seat | None = None) -> None:
        """Apply the action with id ``aid``; raises like :meth:`apply` (and for an id that is not
        a whole number in ``range(game.num_distinct_actions)``)."""
        self.check_actor(seat)
        self.game.check_action_id(aid)
        if not self.is_legal_id(aid):
            raise self.why_illegal(self.game.action_from_id(aid))
        self.apply_unchecked(aid)

    def check_actor(self, seat: Seat | None) -> None:
        """Raise unless the game goes on and ``seat`` (when given) is the one to move."""
        if self.is_terminal():
            raise GameOverError("the game is over; no more moves", code="action.game_over")
        if seat is not None:
            self.game.check_seat(seat)
            current = self.current_player
            if seat != current:
                raise NotYourTurnError(
                    f"seat {seat} cannot act: it is seat {current}'s turn",
                    params={"seat": seat, "current": current},
                )

    def events_for(self, viewer: Seat | None, start: int = 0) -> list[Event]:
        """Events from index ``start`` on, as ``viewer`` may see them."""
        return [e.for_seat(viewer) for e in self.events[start:]]


S = TypeVar("S", bound=State[Any, Any])


class Game(ABC, Generic[S, A, Obs]):
    """A game with a fixed player count and rules options; a factory for states."""

    spec: ClassVar[GameSpec]
    options_type: ClassVar[type[Any]]
    reasons: ClassVar[Reasons]
    """The game's own reason codes (prefixed with its short name, e.g. ``kk.``)."""

    def __init__(self, players: int | None = None, options: Mapping[str, Any] | None = None):
        spec = self.spec
        n = spec.default_players if players is None else players
        if isinstance(n, bool) or not isinstance(n, int) or not (
            spec.min_players <= n <= spec.max_players
        ):
            raise InvalidOptionsError(
                f"{spec.title} is played by {spec.min_players} to {spec.max_players} players,"
                f" not {safe_repr(players)}",
                code="players.invalid",
                params={"game": spec.title, "low": spec.min_players, "high": spec.max_players,
                        "value": safe_repr(players)},
            )
        self.players: int = n
        self.options: Any = options_from_dict(self.options_type, options)
        self.validate_options()

    def validate_options(self) -> None:
        """Check option combinations that depend on the player count. Override as needed."""

    def options_json(self) -> JSON:
        """The options as a JSON-ready dictionary (a new one: the caller may change it)."""
        return dict(self.shared_options_json())

    def shared_options_json(self) -> JSON:
        """:meth:`options_json`, made once per (frozen) options object and shared: for
        readers that only look at it, such as a position's writer, which copies it at every
        ``to_json``, and its reader, which compares a document's options with it. Never
        change it. (Options hold only bools, ints and texts, so a flat copy is a copy.)"""
        cached: tuple[Any, JSON] | None = getattr(self, "_options_json_cache", None)
        options = self.options
        if cached is None or cached[0] is not options:
            cached = self._options_json_cache = (options, options_to_dict(options))
        return cached[1]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.players}, options={self.options_json()})"

    def new_initial_state(self, seed: int) -> S:
        """A new game whose every random choice derives from ``seed`` (see :mod:`core.rng`)."""
        return self.create_state(check_seed(seed))

    @abstractmethod
    def create_state(self, seed: int) -> S:
        """A new game for a seed already checked by :meth:`new_initial_state`."""

    def check_seat(self, seat: object) -> int:
        """``seat`` if it is a seat of this game; raises :class:`InvalidSeatError` otherwise."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise InvalidSeatError(
                f"seat {safe_repr(seat)} is not a seat of this game: seats are 0 to"
                f" {self.players - 1}",
                params={"value": safe_repr(seat), "last": self.players - 1},
            )
        return seat

    def check_action_id(self, aid: object) -> int:
        """``aid`` if it is a whole number in ``range(num_distinct_actions)``; raises
        :class:`InvalidActionError` otherwise (``True`` is not an id)."""
        if type(aid) is not int or not 0 <= aid < self.num_distinct_actions:
            raise InvalidActionError(
                f"action id {safe_repr(aid)} is not a whole number from 0 to"
                f" {self.num_distinct_actions - 1}",
                code="action.bad_id",
                params={"value": safe_repr(aid), "last": self.num_distinct_actions - 1},
            )
        return aid

    def checked_action_id(self, action: object) -> int:
        """The id of ``action``; raises :class:`InvalidActionError` for anything that is not an
        action of this game. Games with a faster lookup override this."""
        try:
            return self.action_to_id(action)  # type: ignore[arg-type]
        except InvalidActionError:
            raise
        except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError):
            raise InvalidActionError(
                f"{safe_repr(action)} is not a {self.spec.title} action",
                params={"value": safe_repr(action), "game": self.spec.title},
            ) from None

    @abstractmethod
    def sample_world(self, observation: Obs, rng: random.Random) -> S:
        """A full state consistent with ``observation``, hidden cards dealt at random."""

    @abstractmethod
    def parse_action(self, text: str, state: S) -> A:
        """Read the text notation of an action legal in ``state``.

        Records and replays rely on the round trip ``parse_action(format_action(a, state),
        state) == a`` for every legal ``a`` (the conformance suite checks it); other texts
        (the players' shorter or localized forms) may be accepted too."""

    @abstractmethod
    def format_action(self, action: A, state: S | None = None) -> str:
        """The canonical text notation of ``action``."""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """The fixed size of the integer action space for this player count (below 2^53)."""

    @abstractmethod
    def action_to_id(self, action: A) -> int:
        """A stable integer in ``range(num_distinct_actions)``."""

    @abstractmethod
    def action_from_id(self, action_id: int) -> A:
        """The action with this integer id."""

    @abstractmethod
    def state_from_json(self, document: Mapping[str, Any]) -> S:
        """Read and validate a position document; raises ``InvalidPositionError``."""
