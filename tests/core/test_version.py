"""``kartentisch --version``: the version and the core that runs (compiled or pure, and why)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from kartentisch import _native
from kartentisch.cli import version
from kartentisch.cli.main import app
from kartentisch.locale import set_language


def _version(monkeypatch: pytest.MonkeyPatch, compiled: bool, reason: str,
             extensions: bool = True, lang: str = "en") -> str:
    monkeypatch.setattr(_native, "compiled", compiled)
    monkeypatch.setattr(_native, "reason", reason)
    monkeypatch.setattr(_native, "_extension", lambda name: "x.so" if extensions else None)
    monkeypatch.setenv("LANG", "de_DE.UTF-8" if lang == "de" else "C.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    try:
        result = CliRunner().invoke(app, ["--version"])
    finally:
        set_language(None)
    assert result.exit_code == 0, result.output
    line: str = result.output.strip()
    assert line.startswith(f"kartentisch {version.version()}, ")
    return line


def test_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _version(monkeypatch, True, "").endswith(", compiled core (mypyc)")
    assert _version(monkeypatch, True, "", lang="de").endswith(", kompilierter Kern (mypyc)")


def test_pure_by_request(monkeypatch: pytest.MonkeyPatch) -> None:
    line = _version(monkeypatch, False, "KARTENTISCH_PURE is set")
    assert line.endswith("pure Python (KARTENTISCH_PURE=1 is set)")


def test_pure_without_a_build(monkeypatch: pytest.MonkeyPatch) -> None:
    line = _version(monkeypatch, False, "no compiled build (pure Python)", extensions=False)
    assert line.endswith("pure Python (no compiled build is installed)")
    line = _version(monkeypatch, False, "no compiled build (pure Python)", extensions=False,
                    lang="de")
    assert line.endswith("reines Python (kein kompilierter Build installiert)")


def test_pure_because_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    line = _version(monkeypatch, False,
                    "sources changed since the build: kartentisch.games.krumme20.state")
    assert "stale" in line and "kartentisch.games.krumme20.state" in line
    assert "make compiled" in line
    line = _version(monkeypatch, False, "the compiled build is for another Python")
    assert "another Python version" in line
    line = _version(monkeypatch, False, "_compiled.json is missing or unreadable")
    assert "incomplete or stale (_compiled.json is missing or unreadable)" in line


def test_the_real_mode_in_a_fresh_process() -> None:
    env = {**os.environ, "KARTENTISCH_PURE": "1", "LANG": "C.UTF-8"}
    env.pop("LC_ALL", None)
    done = subprocess.run([sys.executable, "-m", "kartentisch.cli", "--version"],
                          capture_output=True, text=True, env=env, timeout=120, check=True)
    assert done.stdout.strip() == (f"kartentisch {version.version()}, "
                                   "pure Python (KARTENTISCH_PURE=1 is set)")
