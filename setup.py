"""Build script: pure Python by default; the compiled core with ``KARTENTISCH_COMPILE=1``.

The project's metadata lives in ``pyproject.toml``. This file only adds the optional
compiled core, the way black ships itself: with ``KARTENTISCH_COMPILE=1`` (and a C
compiler) the rules modules listed in ``kartentisch._native.COMPILED_MODULES`` are compiled
with mypyc into C extensions, and a manifest of their sources' hashes is written next to
them so that an edited source is never shadowed by an old extension (see
``src/kartentisch/_native.py``). Without the variable nothing is compiled and the package
is pure Python with identical behaviour.

    make compiled                                   # in place, for the editable install
    KARTENTISCH_COMPILE=1 pip install .             # a wheel with the compiled core
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SOURCE_PACKAGE = ROOT / "src" / "kartentisch"


def _native() -> Any:
    """``kartentisch._native`` loaded by path (standard library only; nothing installed)."""
    spec = importlib.util.spec_from_file_location("_kartentisch_native",
                                                  SOURCE_PACKAGE / "_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithManifest(build_ext):
    """``build_ext`` that also writes the compiled core's manifest beside the extensions."""

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        target = SOURCE_PACKAGE if self.inplace else Path(self.build_lib) / "kartentisch"
        target.mkdir(parents=True, exist_ok=True)
        path = _native().write_manifest(target, SOURCE_PACKAGE, sources=_BUILT_FROM or None)
        print(f"wrote {path}")


_BUILT_FROM: dict[str, str] = {}
"""The sources' hashes as mypyc read them (taken before it runs; see write_manifest)."""


def compiled_extensions() -> list[Any]:
    """The mypyc extensions, or none unless ``KARTENTISCH_COMPILE=1``."""
    if os.environ.get("KARTENTISCH_COMPILE", "") in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # pip asking for the build requirements, before it installs mypy
        print("mypyc is not installed: building pure Python", file=sys.stderr)
        return []

    native = _native()
    _BUILT_FROM.update(native.source_hashes(native.COMPILED_MODULES, SOURCE_PACKAGE))
    paths = [str(Path("src", *m.split(".")).with_suffix(".py")) for m in native.COMPILED_MODULES]
    # mypy reads its settings from pyproject.toml; the sources are found under src/.
    os.environ.setdefault("MYPYPATH", str(ROOT / "src"))
    return list(mypycify(paths, opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
                         group_name=native.GROUP))


wants_compile = os.environ.get("KARTENTISCH_COMPILE", "") not in ("", "0")
setup(
    ext_modules=compiled_extensions(),
    cmdclass={"build_ext": BuildWithManifest},
    # Fetched into pip's build environment only for a compiled build.
    setup_requires=["mypy>=1.10"] if wants_compile and "egg_info" not in sys.argv else [],
)
