"""simulate on real processes: a failed write of --json is reported, one bot fills the seats."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _simulate(*args: str, stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kartentisch.cli", "simulate", *args], stdout=stdout,
        stderr=subprocess.PIPE, text=True, timeout=300, check=False,
        env={**os.environ, "LANG": "C", "COLUMNS": "100"})


def test_json_to_a_full_disk_fails_without_a_traceback() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    with open("/dev/full", "w") as full:
        result = _simulate("krass-kariert", "--bots", "random", "--games", "2", "--json",
                           stdout=full)
    assert result.returncode == 2
    assert "Cannot write the results: No space left on device" in result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr


def test_one_bot_without_players_uses_the_game_s_usual_count() -> None:
    result = _simulate("casino", "--bots", "random", "--games", "2", "--json")
    assert result.returncode == 0, result.stderr
    assert [s["bot"] for s in json.loads(result.stdout)["seats"]] == ["random", "random"]
