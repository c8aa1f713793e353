"""Error hierarchy shared by all games, with stable reason codes.

Every error derives from :class:`KartentischError` and :class:`ValueError`, so callers can
catch broadly or precisely. Besides its English message (for logs and tracebacks) every
error carries a stable dotted ``code`` (``"kk.does_not_beat"``, ``"record.bad_field"``) and
``params``, a mapping of plain JSON values. Presenters, the server and any client translate
the code and fill in the params; nothing ever parses the English text. The codes and their
English templates are listed in :mod:`kartentisch.core.reasons` and each game's ``reasons``.

Building an error must never fail itself, whatever the bad input was: :func:`safe_repr`
shows any value briefly (integers of thousands of digits, deeply nested containers, objects
whose ``repr`` raises), and :func:`json_safe` turns params into small JSON values.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Mapping
from typing import Any, ClassVar, Final

JSONValue = None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]
"""A plain JSON value, as params carry them."""

_MAX_DIGITS: Final = 40
"""Integers with more digits than this are shown by their size, not their digits."""
_MAX_TEXT: Final = 120
"""Longest text an error quotes from its input."""
_MAX_DEPTH: Final = 4
"""Deepest nesting of containers an error quotes."""


class _SafeRepr(reprlib.Repr):
    """A ``reprlib.Repr`` that shortens huge integers instead of failing on them."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = _MAX_DEPTH
        self.maxstring = _MAX_TEXT
        self.maxother = _MAX_TEXT
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 8

    def repr_int(self, x: int, level: int) -> str:
        return _int_text(x)

    def repr_instance(self, x: object, level: int) -> str:
        try:
            text = repr(x)
        except Exception:  # a broken __repr__ must not hide the error being reported
            return f"<{type(x).__name__} object>"
        if len(text) > self.maxother:
            return text[: self.maxother - 3] + "..."
        return text


_REPR: Final = _SafeRepr()


def _int_text(value: int) -> str:
    """``value`` in digits, or its approximate size when it has very many digits."""
    digits = int(abs(value).bit_length() * math.log10(2)) + 1
    if digits > _MAX_DIGITS:
        sign = "-" if value < 0 else ""
        return f"<{sign}integer of about {digits} digits>"
    return str(value)


def safe_repr(value: object) -> str:
    """A short ``repr`` of any value that never raises.

    >>> safe_repr(10**5000)
    '<integer of about 5001 digits>'
    >>> safe_repr([[[[[[1]]]]]])
    '[[[[[...]]]]]'
    >>> safe_repr("x" * 200)[-4:]
    "...'"
    """
    if type(value) is int:
        return _int_text(value)
    try:
        return _REPR.repr(value)
    except Exception:  # pragma: no cover - reprlib guards its own recursion
        return f"<{type(value).__name__} object>"


def json_safe(value: object, depth: int = 0) -> JSONValue:
    """``value`` as a small JSON value: long texts cut, huge integers and anything that is not
    plain JSON (or nested too deep) replaced by a short text.

    >>> json_safe({"seat": 7, "ids": (1, 2), "x": float("nan"), "big": 10**100})
    {'seat': 7, 'ids': [1, 2], 'x': 'nan', 'big': '<integer of about 101 digits>'}
    """
    if value is None or isinstance(value, bool):
        return value
    if type(value) is int:
        return value if -(2**53) < value < 2**53 else _int_text(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return value if len(value) <= _MAX_TEXT else value[: _MAX_TEXT - 3] + "..."
    if depth < _MAX_DEPTH and isinstance(value, list | tuple) and len(value) <= 64:
        return [json_safe(v, depth + 1) for v in value]
    if depth < _MAX_DEPTH and isinstance(value, Mapping) and len(value) <= 64:
        return {str(k)[:_MAX_TEXT]: json_safe(v, depth + 1) for k, v in value.items()}
    return safe_repr(value)


class KartentischError(ValueError):
    """Base of every error the engine raises on bad input.

    Args:
        message: the English explanation, for logs; say what was wrong and what is allowed.
        code: the stable reason code; the class's :attr:`default_code` when omitted.
        params: the values the code's template refers to (made JSON-safe on the way in).
    """

    default_code: ClassVar[str] = "error"
    """The code of an error raised without one."""

    code: str
    params: dict[str, JSONValue]

    def __init__(
        self,
        message: str = "",
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.params = {str(k): json_safe(v) for k, v in (params or {}).items()}

    def to_json(self) -> dict[str, JSONValue]:
        """``{"code", "params", "message"}``: what a server sends a client."""
        return {"code": self.code, "params": dict(self.params), "message": str(self)}


class InvalidActionError(KartentischError):
    """The action (its text, object or id) is not an action of this game at all."""

    default_code = "action.invalid"


class IllegalActionError(KartentischError):
    """The action is well formed but not legal in the current state."""

    default_code = "action.illegal"


class NotYourTurnError(IllegalActionError):
    """An action was submitted for a seat that is not to move."""

    default_code = "action.not_your_turn"


class GameOverError(IllegalActionError):
    """An action was submitted after the game ended."""

    default_code = "action.game_over"


class InvalidSeatError(KartentischError):
    """A seat number that is not a seat of this game (or not a number)."""

    default_code = "seat.invalid"


class InvalidSeedError(KartentischError):
    """A seed that is not a whole number in the allowed range."""

    default_code = "seed.invalid"


class InvalidPositionError(KartentischError):
    """A position document is malformed or describes an impossible state."""

    default_code = "position.invalid"


class InvalidOptionsError(KartentischError):
    """A rules option is unknown or has a value that is not allowed."""

    default_code = "options.invalid"


class InvalidRecordError(KartentischError):
    """A game record cannot be read or does not replay."""

    default_code = "record.invalid"


class UnknownGameError(KartentischError):
    """A game name that is not registered."""

    default_code = "game.unknown"


class AmbiguousActionError(KartentischError):
    """The text names more than one legal action; ``choices`` lists them as (text, action)."""

    default_code = "action.ambiguous"

    def __init__(
        self,
        message: str,
        choices: list[tuple[str, Any]],
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(
            message,
            code=code,
            params={"choices": [text for text, _ in choices], **(params or {})},
        )
        self.choices = choices
