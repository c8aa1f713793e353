"""What ``kartentisch --version`` says: the version and which core runs, and why.

The mode is decided once, when ``kartentisch`` is imported (:mod:`kartentisch._native`):
the compiled core (mypyc) when a current build lies beside the sources, pure Python
otherwise. For pure Python the line says why: no compiled build, a stale one (the sources
changed since the build, or it is incomplete, or for another Python), or
``KARTENTISCH_PURE=1``.
"""

from __future__ import annotations

import importlib.metadata
from typing import Final

from kartentisch import _native
from kartentisch.locale import _

DISTRIBUTION: Final = "kartentisch"


def version() -> str:
    """The installed version of the package ("unknown" when it is run from a bare source
    tree without metadata)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def why_pure() -> str:
    """Why pure Python runs, in the current language ("" when the compiled core runs)."""
    if _native.compiled:
        return ""
    reason = _native.reason
    changed = "sources changed since the build: "
    if reason.startswith(_native.PURE_ENV):
        return _("{variable}=1 is set").format(variable=_native.PURE_ENV)
    if not any(_native._extension(m) for m in _native.COMPILED_MODULES):
        return _("no compiled build is installed")
    if reason.startswith(changed):
        return _("the compiled build is stale: changed since the build: {modules}; "
                 "rebuild with `make compiled`").format(modules=reason[len(changed):])
    if "another Python" in reason:
        return _("the compiled build is for another Python version; rebuild with "
                 "`make compiled`")
    return _("the compiled build is incomplete or stale ({detail}); rebuild with "
             "`make compiled`").format(detail=reason)


def mode() -> str:
    """The core that runs, in the current language: compiled, or pure Python and why."""
    if _native.compiled:
        return _("compiled core (mypyc)")
    return _("pure Python ({reason})").format(reason=why_pure())


def version_line() -> str:
    """The whole ``--version`` line, e.g. ``kartentisch 0.1.0, pure Python (...)``."""
    return f"kartentisch {version()}, {mode()}"


__all__ = ["mode", "version", "version_line", "why_pure"]
