"""The rules pages' closing tables of readings (docs/rules/<game>.md, issue 30): each page
ends with a table "Reading of the rulebook | What the engine does | Option", and every
option it names is a real option of that game, with a value the game allows; every option
of the game has its row, and its default is the value marked "(default)".

The table is found by its header row, so a page keeps its own heading and introduction.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from kartentisch.core.options import describe_options
from kartentisch.core.registry import game_class, list_games

PAGES = Path(__file__).resolve().parents[2] / "docs" / "rules"
HEADER = "| Reading of the rulebook | What the engine does | Option |"
REQUIRED = ("casino", "krass-kariert", "krumme20")
"""The pages that must carry the table: every game's."""
NAMED = re.compile(r"`([a-z][a-z0-9_]*)(?:=([^`\s]+))?`( \(default\))?")
"""An option named in the Option column: `name` or `name=value`, maybe marked default."""


def readings(game: str) -> list[list[str]] | None:
    """The rows of ``game``'s table of readings (cells stripped), or None without one. The
    table must end the page: nothing but its rows after its header."""
    lines = (PAGES / f"{game}.md").read_text(encoding="utf-8").rstrip("\n").split("\n")
    if HEADER not in lines:
        return None
    at = lines.index(HEADER)
    assert re.fullmatch(r"\|(---\|){3}", lines[at + 1]), f"{game}: no separator row"
    rows = lines[at + 2:]
    assert rows and all(r.startswith("| ") and r.endswith(" |") for r in rows), (
        f"{game}: the table of readings must end the page, one row per line")
    return [[cell.strip() for cell in r[2:-2].split(" | ")] for r in rows]


def pages_with_readings() -> list[str]:
    return [g for g in list_games() if (PAGES / f"{g}.md").exists() and readings(g)]


@pytest.mark.parametrize("game", REQUIRED)
def test_the_page_ends_with_its_readings(game: str) -> None:
    rows = readings(game)
    assert rows is not None, f"docs/rules/{game}.md has no table of readings"
    assert len(rows) >= 10
    for row in rows:
        assert len(row) == 3 and all(row), f"{game}: a row needs all three cells: {row}"
        assert NAMED.search(row[2]) or row[2].startswith("—"), (
            f"{game}: the option column names options or is a dash: {row}")


@pytest.mark.parametrize("game", pages_with_readings())
def test_every_named_option_exists_with_an_allowed_value(game: str) -> None:
    options = {name: (default, allowed)
               for name, default, allowed in describe_options(game_class(game).options_type)}
    defaults: dict[str, str] = {}
    for row in readings(game) or []:
        for name, value, marked in NAMED.findall(row[2]):
            assert name in options, f"{game}: `{name}` is no option of the game: {row}"
            default, allowed = options[name]
            if value:
                assert (value in allowed.split("|") if "|" in allowed
                        else allowed == "int" and re.fullmatch(r"-?\d+", value)), (
                    f"{game}: {name}={value} is not allowed ({allowed})")
            if marked:
                assert value == default, f"{game}: {name}'s default is {default}, not {value}"
                defaults[name] = value
    assert set(defaults) == set(options), (
        f"{game}: options without a row naming their default: "
        f"{sorted(set(options) - set(defaults))}")


def test_the_tables_test_fails_on_a_wrong_option(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above is not vacuous: a row naming an option the game lacks fails it."""
    page = (PAGES / "casino.md").read_text(encoding="utf-8")
    (tmp_path / "casino.md").write_text(
        page.rstrip("\n") + "\n| A reading | A rule | `raising=sometimes` |\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PAGES", tmp_path)
    with pytest.raises(AssertionError, match="raising=sometimes is not allowed"):
        test_every_named_option_exists_with_an_allowed_value("casino")
