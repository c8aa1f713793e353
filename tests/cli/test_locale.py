"""The gettext catalogues: complete, consistent, compiled in memory."""

from __future__ import annotations

import functools
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import kartentisch
from kartentisch.locale import (
    LANGUAGES,
    _,
    catalogue_path,
    detect_language,
    ngettext,
    set_language,
    translation,
)
from kartentisch.locale.update import extract_messages

SOURCE = Path(kartentisch.__file__).resolve().parent


def load(language: str) -> dict[object, object]:
    with catalogue_path(language).open("rb") as handle:
        catalog = read_po(handle, locale=language)
    return {(m.id if isinstance(m.id, str) else tuple(m.id)): m.string
            for m in catalog if m.id}


@functools.cache
def code_messages() -> tuple[str | tuple[str, str], ...]:
    """Every message id in the code (extracted once: babel's extraction takes a second)."""
    return tuple(extract_messages(SOURCE))


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text)
            if name is not None}


def test_every_message_in_the_code_has_a_german_translation() -> None:
    german = load("de")
    english = load("en")
    messages = code_messages()
    assert len(messages) > 100
    for message in messages:
        assert message in english, f"not in the English catalogue: {message!r}"
        assert message in german, f"not in the German catalogue: {message!r}"
        translated = german[message]
        forms = [translated] if isinstance(translated, str) else list(translated)  # type: ignore[call-overload]
        sources = [message] if isinstance(message, str) else list(message)
        assert forms and all(forms), f"no German translation of {message!r}"
        for form in forms:
            assert fields(form) == fields(sources[-1]), f"placeholders differ: {message!r}"


def test_the_extractor_sees_simple_calls() -> None:
    """A plain scan for _("...") finds nothing the babel extractor misses."""
    found = set()
    for path in SOURCE.rglob("*.py"):
        found.update(re.findall(r'\b_\("((?:[^"\\]|\\.)*)"\)', path.read_text("utf-8")))
    extracted = {m for m in code_messages() if isinstance(m, str)}
    assert found and found <= extracted


def test_translations_switch_and_use_the_rulebook_terms() -> None:
    set_language("de")
    assert _("pair") == "Paar"
    assert _("2-run") == "2er-Straße"
    assert _("3-run") == "3er-Straße"
    assert _("triple") == "Drilling"
    assert _("single") == "Solo"
    assert ngettext("Game over: {names} loses.", "Game over: {names} lose.", 2) == (
        "Spielende: {names} verlieren.")
    set_language("en")
    assert _("pair") == "pair"


def test_catalogues_are_compiled_once_and_unknown_languages_fail() -> None:
    for language in LANGUAGES:
        assert translation(language) is translation(language)
    with pytest.raises(ValueError, match="unknown language"):
        translation("fr")


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"),
    ({"LANG": "de_CH.UTF-8"}, "de"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_MESSAGES": "de_DE", "LANG": "en_US"}, "de"),
    ({"LC_ALL": "", "LANG": "de"}, "de"),
    ({"LC_ALL": "en_US", "LC_MESSAGES": "de_DE"}, "en"),
])
def test_language_detection(environ: dict[str, str], expected: str) -> None:
    assert detect_language(environ) == expected
