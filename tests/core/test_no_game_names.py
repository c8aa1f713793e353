"""The outer layers know no game: no branch on a game's name, no import of a game package.

Server, command line, arena, bots and research code read a game's descriptor
(:mod:`kartentisch.core.descriptor`); only the per-game modules a descriptor names (the
terminal presenters, the reinforcement-learning encodings and byte builders, the page's
game modules) may know their game. This test reads the code (it runs nothing) and fails on
any of these in the other modules:

- an import of ``kartentisch.games`` (a game's package);
- a game's registry name used to decide something: compared with (``==``, ``in``), used as
  a dictionary key or an index, or listed in a set, tuple or list of choices;
- in the page's JavaScript outside ``static/js/games/``: a game's registry name in quotes.

A default argument (``game="krass-kariert"`` as a convenience) and documentation name games
freely: they decide nothing.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from kartentisch.core.registry import descriptors, list_games

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "kartentisch"
OUTER = ("server", "cli", "arena", "bots", "rl")
GAMES = set(list_games())


def _per_game_modules() -> set[Path]:
    """The modules the descriptors name, and the per-game folders beside them."""
    named: set[Path] = set()
    for described in descriptors():
        for target in (described.presenter, described.encoding, *described.bots.values()):
            if target is None:
                continue
            module = target.partition(":")[0]
            path = PACKAGE.parent / Path(*module.split(".")).with_suffix(".py")
            named.add(path)
    return named


PER_GAME_FOLDERS = (PACKAGE / "rl" / "fast",)
"""The research batch stepper's per-game byte builders (``rl/fast``): their rows module
dispatches on a number per game kind, compiled with the core (see its docstring)."""


def _outer_modules() -> list[Path]:
    skip = _per_game_modules()
    found = []
    for part in OUTER:
        for path in sorted((PACKAGE / part).rglob("*.py")):
            if path in skip or any(folder in path.parents for folder in PER_GAME_FOLDERS):
                continue
            found.append(path)
    return found


def _is_game_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and (
        node.value in GAMES or node.value.replace("_", "-") in GAMES)


def game_name_branches(source: str) -> list[str]:
    """Where ``source`` decides something by a game's name or imports a game package."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "kartentisch.games"):
            found.append(f"line {node.lineno}: imports {node.module}")
        elif isinstance(node, ast.Import):
            found.extend(f"line {node.lineno}: imports {alias.name}" for alias in node.names
                         if alias.name.startswith("kartentisch.games"))
        elif isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if _is_game_name(side) or (isinstance(side, (ast.Tuple, ast.List, ast.Set))
                                           and any(map(_is_game_name, side.elts))):
                    found.append(f"line {node.lineno}: compares with a game's name")
        elif isinstance(node, ast.Dict):
            found.extend(f"line {key.lineno}: a game's name as a key" for key in node.keys
                         if key is not None and _is_game_name(key))
        elif isinstance(node, ast.Subscript) and _is_game_name(node.slice):
            found.append(f"line {node.lineno}: a game's name as an index")
        elif isinstance(node, ast.MatchValue) and _is_game_name(node.value):
            found.append(f"line {node.lineno}: a case on a game's name")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(
                r"kartentisch\.games\.", node.value):
            found.append(f"line {node.lineno}: names a game module ({node.value[:60]})")
    return found


@pytest.mark.parametrize("path", _outer_modules(),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_outer_modules_do_not_branch_on_a_game(path: Path) -> None:
    assert game_name_branches(path.read_text(encoding="utf-8")) == []


def test_the_page_outside_its_game_modules_names_no_game() -> None:
    js = PACKAGE / "server" / "static" / "js"
    names = "|".join(map(re.escape, sorted(GAMES)))
    pattern = re.compile("[\"'`](" + names + ")[\"'`]")
    found = [f"{path.relative_to(js)}: {match.group(0)}"
             for path in sorted(js.rglob("*.js")) if js / "games" not in path.parents
             for match in pattern.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


@pytest.mark.parametrize("source", [
    'if game.spec.name == "casino":\n    pass\n',
    'x = name in ("krumme20", "casino")\n',
    'TABLE = {"krass-kariert": 1}\n',
    'y = TABLE["krumme20"]\n',
    'from kartentisch.games.casino.state import CasinoState\n',
    'import kartentisch.games.krumme20\n',
    'match name:\n    case "casino":\n        pass\n',
    'TARGET = "kartentisch.games.casino.heuristic:HeuristicBot"\n',
])
def test_the_check_finds_each_kind_of_branch(source: str) -> None:
    assert game_name_branches(source)


def test_the_check_lets_defaults_and_words_pass() -> None:
    source = ('def env(game: str = "krass-kariert") -> None:\n'
              '    """Play Casino or Krumme20."""\n'
              '    print("casino tables")\n')
    assert game_name_branches(source) == []
