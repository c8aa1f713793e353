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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from kartentisch.core.errors import InvalidOptionsError
from kartentisch.core.options import options_from_dict, options_to_dict

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


class Observation(Protocol):
    """What one seat may know. Every game's observation offers at least this."""

    @property
    def seat(self) -> Seat: ...

    @property
    def current_player(self) -> Seat: ...

    def to_json(self) -> JSON: ...


A = TypeVar("A")
Obs = TypeVar("Obs", bound=Observation)
Opt = TypeVar("Opt")


class State(ABC, Generic[A, Obs]):
    """A position of a game in progress. Mutable; ``clone`` copies it."""

    game: Game[Any, A, Obs]
    seed: int
    history: list[A]
    events: list[Event]

    @property
    @abstractmethod
    def current_player(self) -> Seat:
        """The seat to act, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Every distinct legal action, in a deterministic order."""

    @abstractmethod
    def apply(self, action: A) -> None:
        """Play ``action`` for the current player; an illegal action raises and changes nothing."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One utility per seat; all zero until the game is over."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def observation(self, seat: Seat) -> Obs:
        """Exactly what ``seat`` may know now."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The position as a documented JSON document (see ``docs/positions.md``)."""

    def events_for(self, viewer: Seat | None, start: int = 0) -> list[Event]:
        """Events from index ``start`` on, as ``viewer`` may see them."""
        return [e.for_seat(viewer) for e in self.events[start:]]


S = TypeVar("S", bound=State[Any, Any])


class Game(ABC, Generic[S, A, Obs]):
    """A game with a fixed player count and rules options; a factory for states."""

    spec: ClassVar[GameSpec]
    options_type: ClassVar[type[Any]]

    def __init__(self, players: int | None = None, options: Mapping[str, Any] | None = None):
        spec = self.spec
        n = spec.default_players if players is None else players
        if isinstance(n, bool) or not isinstance(n, int) or not (
            spec.min_players <= n <= spec.max_players
        ):
            raise InvalidOptionsError(
                f"{spec.title} is played by {spec.min_players} to {spec.max_players} players,"
                f" not {players!r}"
            )
        self.players: int = n
        self.options: Any = options_from_dict(self.options_type, options)
        self.validate_options()

    def validate_options(self) -> None:
        """Check option combinations that depend on the player count. Override as needed."""

    def options_json(self) -> JSON:
        """The options as a JSON-ready dictionary."""
        return options_to_dict(self.options)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.players}, options={self.options_json()})"

    @abstractmethod
    def new_initial_state(self, seed: int) -> S:
        """A new game whose every random choice derives from ``seed``."""

    @abstractmethod
    def sample_world(self, observation: Obs, rng: random.Random) -> S:
        """A full state consistent with ``observation``, hidden cards dealt at random."""

    @abstractmethod
    def parse_action(self, text: str, state: S) -> A:
        """Read the text notation of an action legal in ``state``."""

    @abstractmethod
    def format_action(self, action: A, state: S | None = None) -> str:
        """The canonical text notation of ``action``."""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """The fixed size of the integer action space for this player count."""

    @abstractmethod
    def action_to_id(self, action: A) -> int:
        """A stable integer in ``range(num_distinct_actions)``."""

    @abstractmethod
    def action_from_id(self, action_id: int) -> A:
        """The action with this integer id."""

    @abstractmethod
    def state_from_json(self, document: Mapping[str, Any]) -> S:
        """Read and validate a position document; raises ``InvalidPositionError``."""
