"""Errors in the reader's language: a reason code and its params, never the English text.

:func:`describe_error` looks the error's code up in every reason table
(:func:`kartentisch.core.registry.all_reasons`), translates the English template through the
catalogue (the template is the message id) and fills in the params. A presenter may render
some params in words of its own (a card's German name, a combination's description) by
passing ``localize``; every other param is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from kartentisch.core.errors import JSONValue, KartentischError, safe_repr
from kartentisch.core.registry import all_reasons
from kartentisch.locale import _, current_language

Localize = Callable[[str, JSONValue], str | None]
"""``localize(name, value)``: the param in words of the current language, or ``None``."""


def _plain(value: JSONValue) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and not isinstance(value, bool):
        return format_number(value)
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value)
    return safe_repr(value)


_SEPARATORS: Final = {"de": "."}
"""Thousands separators by language (English: ``,``)."""


def format_number(value: int) -> str:
    """``value`` with the current language's thousands separator.

    >>> from kartentisch.locale import set_language
    >>> _ = set_language("en"); format_number(12345)
    '12,345'
    """
    text = f"{value:,}"
    separator = _SEPARATORS.get(current_language())
    return text.replace(",", separator) if separator else text


def format_decimal(value: float, digits: int, *, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals in the current language's style (German: decimal
    comma, thousands dot).

    >>> from kartentisch.locale import set_language
    >>> _ = set_language("en"); format_decimal(1234.5, 1), format_decimal(0.125, 3, sign=True)
    ('1,234.5', '+0.125')
    >>> _ = set_language("de"); format_decimal(1234.5, 1)
    '1.234,5'
    >>> _ = set_language("en")
    """
    text = f"{value:{'+' if sign else ''},.{digits}f}"
    if current_language() == "de":
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return text


def format_percent(share: float, digits: int = 1) -> str:
    """A share (0.35) as a percentage in the current language's style ("35.0%", German
    "35,0 %" with a narrow no-break space).

    >>> from kartentisch.locale import set_language
    >>> _ = set_language("en"); format_percent(0.35)
    '35.0%'
    """
    number = format_decimal(share * 100, digits)
    return number + ("\u202f%" if current_language() == "de" else "%")


def format_value(value: object) -> str:
    """A rules option's value as typed on the command line: ``true``/``false``, never
    Python's ``True``/``False``.

    >>> format_value(True), format_value(3), format_value("any")
    ('true', '3', 'any')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def format_options(options: Mapping[str, object]) -> str:
    """Rules options as ``key=value, ...`` (sorted), values as :func:`format_value` shows
    them."""
    return ", ".join(f"{key}={format_value(value)}" for key, value in sorted(options.items()))


def describe_error(error: KartentischError, localize: Localize | None = None) -> str:
    """``error`` in the current language, built from its code and params."""
    template = all_reasons().get(error.code)
    if template is None or error.code == "error":  # no code of ours: its own words are all
        return str(error)
    values: dict[str, str] = {}
    for name, value in error.params.items():
        shown = localize(name, value) if localize is not None else None
        values[name] = shown if shown is not None else _plain(value)
    try:
        return _(template).format_map(_Missing(values))
    except (ValueError, IndexError, KeyError):  # a broken translation must not hide the error
        return str(error)


def bot_failure_text(error: KartentischError, localize: Localize | None = None) -> str:
    """A bot's failure (:class:`kartentisch.bots.match.BotError`) in one sentence: which bot in
    which seat (and which game of a run) failed, and how: its exception in one line, or why
    its move is not legal (in the reader's language when the engine's reason is at hand)."""
    params = error.params
    bot, seat = _plain(params.get("bot", "?")), _plain(params.get("seat", "?"))
    if error.code == "bot.illegal_action":
        cause = error.__cause__
        detail = (describe_error(cause, localize) if isinstance(cause, KartentischError)
                  else _plain(params.get("detail", "?")))
        text = _("The bot {bot} in seat {seat} chose a move that is not allowed: {detail}"
                 ).format(bot=bot, seat=seat, detail=detail)
    else:
        text = _("The bot {bot} in seat {seat} failed with an error: {error}").format(
            bot=bot, seat=seat, error=_plain(params.get("error", "?")))
    game = params.get("game")
    if isinstance(game, int) and not isinstance(game, bool):  # numbered from 1 for people
        text = _("Game {number}: {problem}").format(number=format_number(game + 1),
                                                    problem=text)
    return text


class _Missing(dict[str, str]):
    """Params a template names but the error lacks show as ``?``."""

    def __missing__(self, key: str) -> str:
        return "?"
