"""The research bots from the command line, for every game: ``openspiel-ismcts`` and
``learned:weights=PATH`` (bot parameters written ``name:key=value``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kartentisch.cli.main import app
from kartentisch.rl.learned import weights_path

runner = CliRunner()
ENGLISH = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}


def _arena(tmp_path: Path, game: str, bots: str, *extra: str) -> dict[str, object]:
    summary = tmp_path / "summary.json"
    done = runner.invoke(app, ["arena", game, "--bots", bots, "--games", "1",
                               "--no-duplicate", "--no-progress", "--summary", str(summary),
                               *extra], env=ENGLISH)
    assert done.exit_code == 0, done.output
    loaded: dict[str, object] = json.loads(summary.read_text())
    return loaded


@pytest.mark.parametrize(("game", "bots"), [
    ("krass-kariert", "openspiel-ismcts:iterations=2,random*2"),
    ("casino", "openspiel-ismcts:iterations=2:uct_c=1.5,random"),
    ("krumme20", "openspiel-ismcts:iterations=2,random"),
])
def test_openspiel_ismcts_plays_every_game_from_the_command_line(tmp_path: Path, game: str,
                                                                 bots: str) -> None:
    summary = _arena(tmp_path, game, bots)
    assert "openspiel-ismcts" in json.dumps(summary)


def test_learned_takes_a_weights_file_from_the_command_line(tmp_path: Path) -> None:
    weights = tmp_path / "kk.npz"
    weights.write_bytes(weights_path("krass-kariert").read_bytes())
    summary = _arena(tmp_path, "krass-kariert", f"learned:weights={weights},random*2")
    assert "learned" in json.dumps(summary)
    missing = runner.invoke(app, ["arena", "krass-kariert", "--bots",
                                  f"learned:weights={tmp_path / 'none.npz'},random*2",
                                  "--games", "1", "--no-progress"], env=ENGLISH)
    assert missing.exit_code == 2 and "learned cannot take weights=" in missing.output
    other = runner.invoke(app, ["arena", "casino", "--bots", f"learned:weights={weights},random",
                                "--games", "1", "--no-progress"], env=ENGLISH)
    assert other.exit_code == 2 and "Traceback" not in other.output, other.output


def test_openspiel_ismcts_parameters_are_checked_before_playing() -> None:
    refused = runner.invoke(app, ["arena", "krumme20", "--bots",
                                  "openspiel-ismcts:iterations=1,random", "--games", "1",
                                  "--no-progress"], env=ENGLISH)
    assert refused.exit_code == 2
    assert "openspiel-ismcts cannot take iterations=1" in refused.output
