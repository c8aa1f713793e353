"""The optional compiled core: which modules mypyc compiles, and never a stale one.

``setup.py`` compiles the rules modules in :data:`COMPILED_MODULES` with mypyc when asked
(``KARTENTISCH_COMPILE=1``, see the README): the same source, as C extensions that Python
imports in place of the ``.py`` files beside them. Everything works without them (pure
Python, identical results).

An editable install keeps the extensions next to the sources, so an edit would otherwise
leave Python running the old compiled code. The build therefore writes a manifest
(:data:`MANIFEST_NAME`) with the SHA-256 of every source the compiled modules were built
from (the modules and everything of ``kartentisch`` they import, since mypyc inlines
constants across modules). At import of ``kartentisch`` this module compares them with the
files on disk; on any difference, a missing extension or a missing manifest, *all* of the
compiled modules are imported from their ``.py`` sources instead (they call each other
directly inside the extension, so it is all or nothing) and a :class:`RuntimeWarning` says
to rebuild. ``KARTENTISCH_PURE=1`` asks for the pure Python modules without a warning (the
test suite's pure pass).

:data:`compiled` tells which mode runs (also ``kartentisch.compiled`` and
``kartentisch --version``); :data:`reason` says why when it is not the compiled one.

This module uses the standard library only: ``setup.py`` loads it by path to read the
module list before anything is installed.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

COMPILED_MODULES: Final[tuple[str, ...]] = (
    # Krass Kariert's rules
    "kartentisch.games.krass_kariert.tables",
    "kartentisch.games.krass_kariert.state",
    "kartentisch.games.krass_kariert.rollout",
    "kartentisch.games.krass_kariert.batch",
    # the research encoders' byte builders and the batch stepper's rows
    "kartentisch.rl.fast.kk_bytes",
    "kartentisch.rl.fast.k20_bytes",
    "kartentisch.rl.fast.casino_bytes",
    "kartentisch.rl.fast.rows",
    # Krumme20's rules
    "kartentisch.games.krumme20.log",
    "kartentisch.games.krumme20.state",
    "kartentisch.games.krumme20.position",
    # Casino's rules
    "kartentisch.games.casino.movegen",
    "kartentisch.games.casino.log",
    "kartentisch.games.casino.state",
    # positions to JSON and back
    "kartentisch.games.krass_kariert.position",
    "kartentisch.games.casino.position",
)
"""The modules the compiled core compiles, in one mypyc group (one shared library)."""

GROUP: Final = "kartentisch._core"
"""The mypyc group name: its shared library is ``kartentisch/_core__mypyc.*.so``."""

MANIFEST_NAME: Final = "_compiled.json"
"""The build's manifest, next to this file: module list and source hashes."""

PURE_ENV: Final = "KARTENTISCH_PURE"
"""Set to ``1`` to run the pure Python modules even when a current build is there."""

PACKAGE_DIR: Final = Path(__file__).resolve().parent
"""The ``kartentisch`` package directory this module was imported from."""

compiled = False
"""Whether the compiled modules are the ones in use (set by :func:`install`)."""
reason = "not checked yet"
"""Why :data:`compiled` is false ("" when it is true)."""


def module_path(name: str, root: Path = PACKAGE_DIR) -> Path:
    """The ``.py`` file of ``kartentisch`` module ``name`` under the package dir ``root``."""
    parts = name.split(".")[1:]
    path = root.joinpath(*parts)
    if path.is_dir():
        return path / "__init__.py"
    return path.with_suffix(".py")


def _imports(path: Path, name: str) -> set[str]:
    """The ``kartentisch`` modules ``path`` (module ``name``) imports, also under
    ``TYPE_CHECKING`` (over-counting only makes the check stricter)."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return {m for m in found if m == "kartentisch" or m.startswith("kartentisch.")}


def dependencies(modules: Iterable[str], root: Path = PACKAGE_DIR) -> list[str]:
    """``modules`` and every ``kartentisch`` module they import, transitively, sorted
    (packages on the way included: importing ``a.b.c`` runs ``a/__init__`` and ``a/b``'s)."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = module_path(name, root)
        if not path.is_file():
            continue  # an imported name that is not a module (a function, a class)
        seen.add(name)
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        todo.extend(_imports(path, name))
    return sorted(seen)


def source_hashes(modules: Iterable[str], root: Path = PACKAGE_DIR) -> dict[str, str]:
    """Module name -> SHA-256 of its source, for ``modules`` and their dependencies."""
    return {name: hashlib.sha256(module_path(name, root).read_bytes()).hexdigest()
            for name in dependencies(modules, root)}


def write_manifest(directory: Path, root: Path = PACKAGE_DIR,
                   sources: dict[str, str] | None = None) -> Path:
    """Write the manifest of a build into the package directory ``directory`` (for an
    in-place build the source package ``root`` itself); ``setup.py`` calls this.

    ``sources``: the hashes taken when the compiler read the sources (``setup.py`` takes
    them before mypyc runs), so a file edited during the build makes the manifest disagree
    with the disk and the stale build is refused, instead of being vouched for by hashes
    taken after the build."""
    path = directory / MANIFEST_NAME
    hashes = sources if sources is not None else source_hashes(COMPILED_MODULES, root)
    path.write_text(json.dumps({"group": GROUP, "modules": list(COMPILED_MODULES),
                                "python": sys.implementation.cache_tag,
                                "sources": hashes},
                               indent=1, sort_keys=True) + "\n")
    return path


def _extension(name: str) -> Path | None:
    """The compiled extension of module ``name`` in the package, if there is one."""
    stem = module_path(name).with_suffix("")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.is_file():
            return candidate
    return None


def check() -> tuple[bool, str]:
    """Whether a current compiled build is here, and why not (``""`` when it is)."""
    extensions = [_extension(m) for m in COMPILED_MODULES]
    if not any(extensions):
        return False, "no compiled build (pure Python)"
    manifest = PACKAGE_DIR / MANIFEST_NAME
    try:
        recorded = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return False, f"{MANIFEST_NAME} is missing or unreadable"
    if (recorded.get("modules") != list(COMPILED_MODULES) or not all(extensions)
            or _extension(GROUP + "__mypyc") is None):
        return False, "the compiled build does not cover the current module list"
    if recorded.get("python") != sys.implementation.cache_tag:
        return False, "the compiled build is for another Python"
    try:
        now = source_hashes(COMPILED_MODULES)
    except (OSError, SyntaxError) as exc:
        return False, f"cannot read the sources ({exc})"
    changed = sorted(m for m in set(now) | set(recorded.get("sources", {}))
                     if now.get(m) != recorded["sources"].get(m))
    if changed:
        return False, "sources changed since the build: " + ", ".join(changed)
    return True, ""


class SourceOnly(importlib.abc.MetaPathFinder):
    """Imports the named modules from their ``.py`` files even where an extension of the
    same name lies beside them (which Python's own finder would prefer)."""

    def __init__(self, names: Sequence[str]):
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for entry in path or ():
            candidate = os.path.join(entry, leaf)
            if os.path.isfile(candidate):
                return importlib.util.spec_from_file_location(fullname, candidate)
        return None


def install() -> bool:
    """Decide the mode once (at import of ``kartentisch``): keep a current compiled build,
    otherwise make sure every compiled module comes from its source. Returns
    :data:`compiled`."""
    global compiled, reason
    if any(isinstance(f, SourceOnly) for f in sys.meta_path):
        return compiled
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        compiled, reason = False, f"{PURE_ENV} is set"
    else:
        compiled, reason = check()
        if not compiled and any(_extension(m) for m in COMPILED_MODULES):
            warnings.warn(f"kartentisch: not using the compiled core: {reason}; running pure "
                          "Python (rebuild with `make compiled`)", RuntimeWarning, stacklevel=3)
    if not compiled:
        sys.meta_path.insert(0, SourceOnly(COMPILED_MODULES))
    return compiled


def describe() -> str:
    """One line for ``--version``: the mode and, for pure Python, why."""
    if compiled:
        return "compiled core (mypyc)"
    return f"pure Python ({reason})"
