"""Error hierarchy shared by all games.

Every error derives from :class:`KartentischError` and :class:`ValueError`, so callers can
catch broadly or precisely. Messages say what was wrong and what is allowed.
"""

from __future__ import annotations


class KartentischError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidActionError(KartentischError):
    """The text of an action could not be parsed at all."""


class IllegalActionError(KartentischError):
    """The action is well formed but not legal in the current state."""


class NotYourTurnError(IllegalActionError):
    """An action was submitted for a seat that is not to move."""


class GameOverError(IllegalActionError):
    """An action was submitted after the game ended."""


class InvalidPositionError(KartentischError):
    """A position document is malformed or describes an impossible state."""


class InvalidOptionsError(KartentischError):
    """A rules option is unknown or has a value that is not allowed."""


class InvalidRecordError(KartentischError):
    """A game record cannot be read or does not replay."""


class AmbiguousActionError(KartentischError):
    """The text names more than one legal action; ``choices`` lists them as (text, action)."""

    def __init__(self, message: str, choices: list[tuple[str, object]]):
        super().__init__(message)
        self.choices = choices
