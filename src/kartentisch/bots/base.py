"""The bot protocol, the uniformly random bot and the first-legal baseline."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

A = TypeVar("A")


class Bot(Protocol):
    """A player. It is given one seat's observation and the legal actions, never the state.

    A bot owns a seeded generator, so a game with the same seeds replays identically.
    """

    name: str

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Choose one of ``legal_actions``."""
        ...


class RandomBot:
    """Plays a uniformly random legal action.

    It never looks at the observation, so it declares ``needs_observation = False``: the
    match driver (:mod:`kartentisch.bots.match`) then passes ``None`` and the legal action *ids*,
    and the bot returns an id. Given the actions instead it returns an action; both pick
    the same position in the list, so a seed plays the same game either way.
    """

    name = "random"
    needs_observation = False

    def __init__(self, game: Any = None, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, observation: Any, legal_actions: Sequence[A]) -> A:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self.rng.randrange(len(legal_actions))]


class FirstLegalBot:
    """Always plays the first legal action in the game's order: the trivial baseline that
    strength rows are measured beside (a bot that learned anything beats it).

    Like :class:`RandomBot` it never looks at the observation (``needs_observation =
    False``) and picks the same position in a list of actions or of action ids.
    """

    name = "first-legal"
    needs_observation = False

    def __init__(self, game: Any = None, seed: int = 0):
        del game, seed

    def act(self, observation: Any, legal_actions: Sequence[A]) -> A:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[0]
