"""The research bots from the command line, for every game: ``openspiel-ismcts`` and
``learned:weights=PATH`` (bot parameters written ``name:key=value``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kartentisch.cli.main import app
from kartentisch.core.registry import load_game
from kartentisch.rl.encodings import ENCODINGS
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


WITH_WEIGHTS = [game for game in ENCODINGS if weights_path(game).is_file()]
"""The games with shipped weights (a copy of them stands in for a trained file)."""


@pytest.mark.parametrize("game", WITH_WEIGHTS)
def test_learned_takes_a_weights_file_from_the_command_line(tmp_path: Path, game: str) -> None:
    weights = tmp_path / "trained.npz"
    weights.write_bytes(weights_path(game).read_bytes())
    players = load_game(game).spec.min_players
    others = ",".join(["random"] * (players - 1))
    summary = _arena(tmp_path, game, f"learned:weights={weights},{others}")
    assert "learned" in json.dumps(summary)
    missing = runner.invoke(app, ["arena", game, "--bots",
                                  f"learned:weights={tmp_path / 'none.npz'},{others}",
                                  "--games", "1", "--no-progress"], env=ENGLISH)
    assert missing.exit_code == 2 and "learned cannot take weights=" in missing.output
    other = next(g for g in ENCODINGS if g != game)
    players = load_game(other).spec.min_players
    wrong = runner.invoke(app, ["arena", other, "--bots", f"learned:weights={weights}",
                                "--players", str(players), "--games", "1", "--no-progress"],
                          env=ENGLISH)
    assert wrong.exit_code == 2 and "Traceback" not in wrong.output, wrong.output


def test_weights_of_at_least_two_games_are_tried() -> None:
    assert len(WITH_WEIGHTS) >= 2


def test_openspiel_ismcts_parameters_are_checked_before_playing() -> None:
    refused = runner.invoke(app, ["arena", "krumme20", "--bots",
                                  "openspiel-ismcts:iterations=1,random", "--games", "1",
                                  "--no-progress"], env=ENGLISH)
    assert refused.exit_code == 2
    assert "openspiel-ismcts cannot take iterations=1" in refused.output
