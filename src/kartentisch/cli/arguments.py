"""The command line's arguments, read with error messages in the reader's language.

Typer (click) would refuse ``--seed abc`` itself, in English and before ``--lang`` is even
read; so seeds and counts arrive as text and are read here. Every error the commands print
goes through :func:`explain` (an engine error: its reason code translated, see
:func:`kartentisch.cli.messages.describe_error`) or a ``_()`` message of the command line's
own, and ends the command with exit status 2 (:func:`fail`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any, Final, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from kartentisch.cli.messages import Localize, describe_error, format_number
from kartentisch.core.errors import JSONValue, KartentischError
from kartentisch.core.registry import game_class
from kartentisch.core.rng import check_seed
from kartentisch.locale import LANGUAGES, _, set_language

USAGE_ERROR: Final = 2
"""The exit status of a command refused for bad input (as click uses for usage errors)."""

_INTEGER: Final = re.compile(r"[+-]?[0-9]{1,30}")


def fail(message: str) -> NoReturn:
    """Print ``message`` (already in the reader's language) to stderr and exit with status 2."""
    Console(stderr=True, highlight=False).print("[red]" + escape(message) + "[/]")
    raise typer.Exit(USAGE_ERROR)


def explain(error: KartentischError, localize: Localize | None = None) -> str:
    """``error`` in the current language, from its reason code and params.

    ``localize`` renders game params (cards, combinations) in words, as a presenter's
    ``localize_param`` does. A record action that does not replay is explained by the
    engine error behind it, also translated.
    """
    if error.code == "error":  # an error without a reason code: its words are all there is
        return str(error)
    cause = error.__cause__

    def words(name: str, value: JSONValue) -> str | None:
        if name == "detail" and error.code == "record.bad_action" and isinstance(
                cause, KartentischError):
            return explain(cause, localize)
        if name == "what" and value == "record":
            return _("record")
        return localize(name, value) if localize is not None else None

    return describe_error(error, words)


def fail_with(error: KartentischError, localize: Localize | None = None) -> NoReturn:
    """:func:`fail` with ``error`` explained in the current language."""
    fail(explain(error, localize))


def use_language(lang: str | None) -> None:
    """Switch the output to ``lang`` (``None``: the locale environment's language)."""
    if lang is not None and lang.strip().lower()[:2] not in LANGUAGES:
        set_language(None)
        fail(_("Unknown language {lang!r}; choose one of: {choices}").format(
            lang=lang, choices=", ".join(LANGUAGES)))
    set_language(lang)


def _integer(text: str) -> int | None:
    """``text`` as a whole number, or ``None`` when it is not one.

    >>> _integer(" 12"), _integer("+3"), _integer("2.5"), _integer("abc")
    (12, 3, None, None)
    """
    stripped = text.strip()
    return int(stripped) if _INTEGER.fullmatch(stripped) else None


def whole_number(text: str, option: str, *, low: int | None = None) -> int:
    """The whole number ``text`` given for ``option``; fails unless it is one (of at least
    ``low``)."""
    value = _integer(text)
    if value is None:
        fail(_("{option} takes a whole number, not {value!r}.").format(option=option,
                                                                        value=text))
    if low is not None and value < low:
        fail(_("{option} takes a whole number of at least {low}, not {value}.").format(
            option=option, low=low, value=value))
    return value


MAX_DELAY: Final = 60.0
"""The longest pause after a bot's move that ``--delay`` takes, in seconds."""


def delay(text: str | None, *, default: float) -> float:
    """The seconds of ``--delay`` (``default`` without it): a number from 0 to
    :data:`MAX_DELAY`, never ``inf`` or ``nan`` (a pause that never ends); fails otherwise.

    >>> delay("0.5", default=0.0), delay(None, default=0.4), delay(" 2 ", default=0.0)
    (0.5, 0.4, 2.0)
    """
    if text is None:
        return default
    try:
        value = float(text.strip()) if len(text) < 40 else math.nan
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= MAX_DELAY:  # also false for nan
        fail(_("--delay takes a number of seconds from 0 to {high}, not {value!r}.").format(
            high=format_number(int(MAX_DELAY)), value=text))
    return value


def seed(text: str) -> int:
    """The seed ``text`` (a whole number from 0 to 2^53 - 1); fails with the reason."""
    value = _integer(text)
    try:
        return check_seed(text if value is None else value)
    except KartentischError as error:
        fail_with(error)


def rules_options(values: Sequence[str] | None) -> dict[str, str]:
    """``-o key=value`` options as a dictionary (the game checks names and values)."""
    options: dict[str, str] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(_("A rules option is written key=value, not {item!r}").format(item=item))
        options[key.strip()] = value.strip()
    return options


def game_name(name: str) -> str:
    """The registry name of the game ``name``; fails for a game that does not exist."""
    try:
        return game_class(name).spec.name
    except KartentischError as error:
        fail_with(error)


def _short(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for a message (a typed spec may be megabytes).

    >>> _short("random*" + "9" * 5000)
    'random*99999999999999999999999999999...'
    """
    return text if len(text) <= limit else text[:limit - 3] + "..."


def bot_problem(spec: str, game: Any) -> str | None:
    """Why the bot ``spec`` (``name`` or ``name:key=value:...``) cannot play ``game``, in the
    current language; ``None`` when it can. An ``ImportError`` (a bot whose module cannot be
    loaded) is passed on."""
    from kartentisch.bots.registry import build_bot, list_bots, parse_params

    try:
        name, params = parse_params(spec)
    except ValueError:
        return _("A bot is written name or name:key=value, not {spec!r}.").format(
            spec=_short(spec))
    available = list_bots(game.spec.name, research=True)
    if name.lower() not in available:
        return _("Unknown bot {name!r} for {game}; available: {bots}").format(
            name=_short(name), game=game.spec.title, bots=", ".join(available))
    try:
        build_bot(spec, game, 0)
    except (TypeError, ValueError):
        for key, value in params.items():  # name the first parameter it refuses on its own
            try:
                build_bot(f"{name}:{key}={value}", game, 0)
            except (TypeError, ValueError):
                return _("The bot {name} cannot take {key}={value}: no such parameter, or "
                         "a value it does not allow.").format(
                             name=name, key=_short(key), value=_short(value))
        return _("The bot {spec!r} cannot take these parameters together.").format(
            spec=_short(spec))
    return None


__all__ = [
    "USAGE_ERROR",
    "bot_problem",
    "explain",
    "fail",
    "fail_with",
    "game_name",
    "rules_options",
    "seed",
    "use_language",
    "whole_number",
]
