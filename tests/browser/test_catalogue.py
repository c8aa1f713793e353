"""The page speaks from the terminal's catalogue: every message id in its JavaScript is
listed in ``kartentisch.server.page_words`` or web.py (so the extractor puts it in the
catalogue) and translated into German."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import httpx  # noqa: F401  (the browser tests' dependency set)
from babel.messages.pofile import read_po

from kartentisch.locale import catalogue_path
from kartentisch.server import page_words, web

STATIC = Path(web.__file__).resolve().parent / "static"
_STRING = r'"((?:[^"\\]|\\.)*)"'


def page_messages() -> tuple[set[str], set[tuple[str, str]]]:
    """The message ids the page's scripts use: t("..."), N("..."), tn("...", "...")."""
    singles: set[str] = set()
    plurals: set[tuple[str, str]] = set()
    for path in STATIC.rglob("*.js"):
        text = path.read_text("utf-8")
        for m in re.finditer(r"\btn\(\s*" + _STRING + r",\s*" + _STRING, text):
            plurals.add((json.loads(f'"{m.group(1)}"'), json.loads(f'"{m.group(2)}"')))
        for m in re.finditer(r"(?<![\w.])(?:ui\.)?(?:t|N)\(\s*" + _STRING, text):
            singles.add(json.loads(f'"{m.group(1)}"'))
    return singles, plurals


def web_messages() -> tuple[set[str], set[tuple[str, str]]]:
    """The ids that web.py and the modules of page_words mark with N_() and ngettext()."""
    sources = [Path(web.__file__), *Path(page_words.__file__).parent.glob("*.py")]
    singles: set[str] = set()
    plurals: set[tuple[str, str]] = set()
    nodes = [node for path in sources for node in ast.walk(ast.parse(path.read_text("utf-8")))]
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if node.func.id == "N_" and args:
                singles.add(str(args[0]))
            elif node.func.id == "ngettext" and len(args) >= 2:
                plurals.add((str(args[0]), str(args[1])))
    return singles, plurals


def test_every_page_message_is_listed_for_the_extractor() -> None:
    used_singles, used_plurals = page_messages()
    listed_singles, listed_plurals = web_messages()
    assert len(used_singles) > 150 and len(used_plurals) > 5
    assert used_singles <= listed_singles, sorted(used_singles - listed_singles)
    assert used_plurals <= listed_plurals, sorted(used_plurals - listed_plurals)


def test_every_page_message_has_a_german_translation() -> None:
    with catalogue_path("de").open("rb") as handle:
        catalog = read_po(handle, locale="de")
    german = {(m.id if isinstance(m.id, str) else tuple(m.id)): m.string for m in catalog if m.id}
    singles, plurals = page_messages()
    for message in (*singles, *web.WEB_REASONS.values()):
        assert german.get(message), f"no German for {message!r}"
    for pair in plurals:
        forms = german.get(pair)
        assert forms and all(forms), f"no German for {pair!r}"


def test_the_served_catalogue_has_reasons_and_plurals() -> None:
    data = web.catalogue("de")
    assert data["messages"]["Your turn."] == "Du bist am Zug."
    assert data["plurals"]["{n} card"] == ["{n} Karte", "{n} Karten"]
    assert "kk.does_not_beat" in data["reasons"] and "web.hints_off" in data["reasons"]
    assert "move.watcher" in data["reasons"]
    english = web.catalogue("en")
    assert english["messages"]["Your turn."] == "Your turn."
