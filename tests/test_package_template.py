"""Every game package has the shape that docs/state-core.md ("The package template") gives a
fourth game: the same module names, the same class names built from the game's prefix, the
same signatures of the entry points; modules beyond the template are listed here per game,
so that a new one is added on purpose. Signatures are read from the sources (``ast``), so
the check is the same in pure Python and with the compiled core.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kartentisch.core.registry import game_class, list_games

DOCS = Path(__file__).resolve().parents[1] / "docs" / "state-core.md"

TEMPLATE: dict[str, str] = {
    "__init__": "re-exports the game, options, state, observation and action classes",
    "game": "the Game subclass",
    "options": "<P>Options, the frozen options dataclass",
    "state": "<P>State, the transitions",
    "actions": "the action classes, Action, ids and notation",
    "cards": "the cards and their notation",
    "observation": "<P>Observation and sample_world",
    "documents": "<P>PositionDocument and <P>ObservationDocument (msgspec)",
    "position": "state_to_json(state) and state_from_json(game, document)",
    "reasons": "REASONS, the reason table",
    "explain": "why_illegal(state, action)",
    "log": "the compact log of what happened, decoded into events when read",
    "heuristic": "the heuristic bot",
    "rollout": "the fast rollout policy",
    "search": "the search hooks' advice",
    "descriptor": "DESCRIPTOR, the game as the outer layers see it",
}
"""The modules every game package has (docs/state-core.md lists the same)."""

EXTRAS: dict[str, set[str]] = {
    "krass-kariert": {"tables", "batch"},
    "casino": {"table", "movegen", "combinatorics", "scoring", "evaluation"},
    "krumme20": {"teams"},
}
"""Each game's modules beyond the template (docs/state-core.md names them too)."""


def _package(name: str) -> tuple[ModuleType, Path]:
    package = importlib.import_module(game_class(name).__module__.rpartition(".")[0])
    assert package.__file__ is not None
    return package, Path(package.__file__).parent


def _prefix(name: str) -> str:
    state = game_class(name)(game_class(name).spec.min_players).new_initial_state(0)
    cls = type(state).__name__
    assert cls.endswith("State"), cls
    return cls.removesuffix("State")


def _function_args(path: Path, function: str) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return [a.arg for a in node.args.args]
    raise AssertionError(f"{path.name} defines no {function}()")


def test_the_template_is_the_documented_one() -> None:
    """The docs' template table names exactly these modules, and every game's extras."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## The package template", 1)[1].split("\n## ", 1)[0]
    rows = {module for cell in re.findall(r"^\| (`\w+\.py`[^|]*)\|", section, re.MULTILINE)
            for module in re.findall(r"`(\w+)\.py`", cell)}
    assert rows == set(TEMPLATE)
    for extras in EXTRAS.values():
        for module in extras:
            assert f"`{module}.py`" in section, module


@pytest.mark.parametrize("name", list_games())
def test_each_game_has_the_template_modules(name: str) -> None:
    assert name in EXTRAS, f"add the new game {name!r} to EXTRAS (its modules beyond the template)"
    _, folder = _package(name)
    modules = {p.stem for p in folder.glob("*.py")}
    assert set(TEMPLATE) <= modules, set(TEMPLATE) - modules
    assert modules - set(TEMPLATE) == EXTRAS[name]


@pytest.mark.parametrize("name", list_games())
def test_each_game_names_its_classes_by_its_prefix(name: str) -> None:
    package, _ = _package(name)
    prefix = _prefix(name)
    cls: Any = game_class(name)
    base = package.__name__
    expected = {
        "options": (cls.options_type, f"{prefix}Options"),
        "documents": (cls.position_document, f"{prefix}PositionDocument"),
        "observation": (type(cls(cls.spec.min_players).new_initial_state(0).observation(0)),
                        f"{prefix}Observation"),
    }
    for module, (found, wanted) in expected.items():
        assert found.__name__ == wanted and found.__module__ == f"{base}.{module}", (
            found, wanted)
    assert cls.observation_document.__name__ == f"{prefix}ObservationDocument"
    assert cls.observation_document.__module__ == f"{base}.documents"
    for exported in (cls.__name__, f"{prefix}Options", f"{prefix}State", f"{prefix}Observation",
                     "Action"):
        assert hasattr(package, exported), (name, exported)


@pytest.mark.parametrize("name", list_games())
def test_each_game_has_the_template_entry_points(name: str) -> None:
    package, folder = _package(name)
    assert _function_args(folder / "position.py", "state_from_json") == ["game", "document"]
    assert _function_args(folder / "position.py", "state_to_json") == ["state"]
    assert _function_args(folder / "explain.py", "why_illegal") == ["state", "action"]
    reasons = importlib.import_module(f"{package.__name__}.reasons")
    assert reasons.REASONS is game_class(name).reasons


@pytest.mark.parametrize("name", list_games())
def test_long_modules_say_why_at_their_top(name: str) -> None:
    """A module of the rules over 600 lines says at the top why it stays whole."""
    _, folder = _package(name)
    for path in sorted(folder.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > 600:
            docstring = ast.get_docstring(ast.parse(text)) or ""
            assert "Size (over 600 lines, kept whole)" in docstring, path.name
