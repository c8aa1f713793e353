"""The arena's table in a log file: piped output is not cut at 80 columns."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from kartentisch.cli.main import app
from kartentisch.rl.learned import weights_path


def test_piped_arena_table_keeps_long_bot_names_whole(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder-name-long-enough-to-pass-eighty-columns-in-any-table"
    folder.mkdir()
    weights = folder / "casino.npz"
    shutil.copy(weights_path("casino"), weights)
    label = f"learned:weights={weights}"
    result = CliRunner().invoke(
        app, ["arena", "casino", "--bots", f"{label},random", "--games", "2", "--no-progress"],
        env={"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8", "COLUMNS": None})
    assert result.exit_code == 0, result.output
    assert label in result.output
    assert "…" not in result.output
    assert "\x1b" not in result.output
