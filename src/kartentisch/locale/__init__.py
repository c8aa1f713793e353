"""Translations of every user-facing message: one gettext catalogue, ``kartentisch``.

The catalogues are the ``.po`` files beside this module (``de`` and ``en``; the source
strings are English). ``.mo`` files are never stored: a catalogue is compiled in memory with
babel the first time a language is used, then cached.

Use it like this::

    from kartentisch.locale import _, ngettext, set_language

    set_language("de")
    print(_("Round {round}: you lead.").format(round=2))

``_`` and ``ngettext`` translate with the language last chosen by :func:`set_language`
(English until then). Pass only literal strings to them, so that the catalogue test can
find every message; fill in values afterwards with ``str.format``.
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Mapping
from io import BytesIO
from pathlib import Path
from typing import Final

DOMAIN: Final = "kartentisch"
LANGUAGES: Final = ("de", "en")
"""The languages with a catalogue."""

_HERE: Final = Path(__file__).resolve().parent


def catalogue_path(language: str) -> Path:
    """The ``.po`` file of ``language``."""
    return _HERE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translation(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (cached); unknown languages raise ValueError."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; available: {', '.join(LANGUAGES)}")
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalogue_path(language).open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale environment asks for: ``de`` when it starts with "de", else ``en``.

    The variables are read as gettext does: ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``;
    the first one that is set and not empty decides.

    >>> detect_language({"LANG": "de_DE.UTF-8"}), detect_language({"LANG": "fr_FR"})
    ('de', 'en')
    >>> detect_language({"LC_ALL": "en_US", "LANG": "de_AT"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


class _Current:
    """The translation in use; a tiny holder so the functions below stay module-level."""

    language: str = "en"
    translations: gettext.NullTranslations | None = None


def set_language(language: str | None) -> str:
    """Use ``language`` from now on (``None``: detect it from the environment); returns it."""
    chosen = detect_language() if language is None else language.strip().lower()[:2]
    _Current.translations = translation(chosen)
    _Current.language = chosen
    return chosen


def current_language() -> str:
    """The language in use."""
    return _Current.language


def _(message: str) -> str:
    """``message`` in the current language."""
    if _Current.translations is None:
        return message
    return _Current.translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the current language."""
    if _Current.translations is None:
        return singular if n == 1 else plural
    return _Current.translations.ngettext(singular, plural, n)


__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "_",
    "catalogue_path",
    "current_language",
    "detect_language",
    "ngettext",
    "set_language",
    "translation",
]
