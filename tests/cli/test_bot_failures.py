"""A bot that fails (raises, or chooses an illegal move) ends ``play``, ``resume``,
``simulate`` and ``arena`` with a clear message and exit status 1, never a traceback, and
keeps every move (``play``) or every finished game (``arena``); and a game stopped before
its first move is not kept in the data directory (nothing to resume there).

The failing bots are registered by a ``sitecustomize`` module on ``PYTHONPATH``, so that
every process of a run knows them, the arena's and simulation's worker processes too.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kartentisch.bots.match import BotError, play_match
from kartentisch.cli.main import app
from kartentisch.cli.saves import unfinished_games
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game

BOTS = '''
from kartentisch.bots.base import RandomBot


class Failing(RandomBot):
    """Plays at random, then fails after ``after`` moves: it raises, or (``illegal=1``)
    returns an id that is not legal. Only in games whose bot seed is a multiple of
    ``every``, so that a run can finish some games first."""

    def __init__(self, game, seed, after=3, every=1, illegal=0):
        super().__init__(game, seed)
        self.left = int(after) if seed % int(every) == 0 else 10**9
        self.illegal = bool(illegal)

    def act(self, observation, legal):
        self.left -= 1
        if self.left < 0:
            if self.illegal:
                return -1
            raise ZeroDivisionError("division by zero in the test bot")
        return super().act(observation, legal)


def make(game, seed, **params):
    return Failing(game, seed, **params)
'''

SITE = '''
from kartentisch.bots.registry import register_bot

register_bot("failing", "failing_bot:make")
'''


@pytest.fixture(scope="module")
def bot_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bots")
    (folder / "failing_bot.py").write_text(BOTS)
    (folder / "sitecustomize.py").write_text(SITE)
    return folder


def run(args: list[str], bot_path: Path, data: Path, lang: str = "en",
        stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``kartentisch ARGS`` in a real process, 200 columns wide (no wrapped messages)."""
    env = {**os.environ, "LANG": "de_DE.UTF-8" if lang == "de" else "en_GB.UTF-8",
           "COLUMNS": "200", "KARTENTISCH_DATA_DIR": str(data), "PYTHONWARNINGS": "ignore",
           "PYTHONPATH": os.pathsep.join([str(bot_path), os.environ.get("PYTHONPATH", "")])}
    env.pop("LC_ALL", None)
    return subprocess.run([sys.executable, "-m", "kartentisch.cli", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=300)


def clean(result: subprocess.CompletedProcess[str]) -> str:
    text = result.stdout + result.stderr
    assert "Traceback" not in text, text
    return text


def test_a_failing_bot_stops_play_and_resume_with_the_moves_saved(
        bot_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = run(["play", "krass-kariert", "--watch", "--bots", "random,failing:after=5,random",
                 "--seed", "3", "--delay", "0", "--save", str(path)], bot_path, tmp_path)
    out = clean(first)
    assert first.returncode == 1, out
    assert ("The bot failing:after=5 in seat 1 failed with an error: ZeroDivisionError: "
            "division by zero in the test bot") in out
    saved = GameRecord.load(path)
    assert len(saved.actions) >= 5 and saved.returns is None
    assert f"{path} keeps the game up to move {len(saved.actions)}." in out
    assert f"To continue this game later: kartentisch resume {path}" in out
    # Resuming goes on from there (the bot is made anew and fails again five moves later),
    # in German too; every move before stays in the file.
    again = run(["resume", str(path), "--delay", "0"], bot_path, tmp_path, lang="de")
    out = clean(again)
    assert again.returncode == 1, out
    assert "Der Bot failing:after=5 auf Platz 1 ist mit einem Fehler abgebrochen" in out
    resumed = GameRecord.load(path)
    assert resumed.actions[:len(saved.actions)] == saved.actions
    assert len(resumed.actions) > len(saved.actions)
    resumed.replay()


def test_a_bot_choosing_an_illegal_move_stops_play_cleanly(bot_path: Path,
                                                          tmp_path: Path) -> None:
    result = run(["play", "casino", "--watch", "--bots", "failing:after=2:illegal=1",
                  "--seed", "1", "--delay", "0"], bot_path, tmp_path)
    out = clean(result)
    assert result.returncode == 1, out
    assert "The bot failing:after=2:illegal=1 in seat " in out
    assert "chose a move that is not allowed: -1 is not one of the legal ids" in out
    [saved] = list((tmp_path / "games").iterdir())  # in the data directory, resumable
    assert len(GameRecord.load(saved).actions) >= 2
    assert "To continue this game later: kartentisch resume" in out


def test_a_failing_bot_stops_simulate_and_arena_with_the_finished_games_kept(
        bot_path: Path, tmp_path: Path) -> None:
    lineup = "random,random,failing:after=3:every=5"
    simulated = run(["simulate", "krass-kariert", "--bots", lineup, "--games", "200",
                     "--workers", "2"], bot_path, tmp_path)
    out = clean(simulated)
    assert simulated.returncode == 1, out
    assert "The bot failing:after=3:every=5 in seat 2 failed with an error: " in out
    assert "ZeroDivisionError" in out
    records = tmp_path / "games.jsonl"
    arena = run(["arena", "krass-kariert", "--bots", lineup, "--games", "200", "--workers",
                 "2", "--no-progress", "--out", str(records), "--lang", "de"],
                bot_path, tmp_path)
    out = clean(arena)
    assert arena.returncode == 1, out
    assert "Der Bot failing:after=3:every=5 auf Platz" in out and "Partie " in out
    kept = [json.loads(line) for line in records.read_text().splitlines()]
    assert f"Angehalten nach {len(kept)} fertigen Partie" in out
    # every game finished before the failure is kept, in game order; the failed one is not
    indices = [record["index"] for record in kept]
    assert indices == sorted(set(indices))
    failed = re.search(r"Partie (\d+): Der Bot", out)
    assert failed is not None and int(failed.group(1)) - 1 not in indices


def test_the_driver_names_the_failing_bot_and_keeps_the_state() -> None:
    game = load_game("krass-kariert", 3)

    class Broken:
        name = "broken"

        def act(self, observation: object, legal: object) -> object:
            raise RuntimeError("out of ideas\non two lines")

    from kartentisch.bots.base import RandomBot

    state = game.new_initial_state(4)
    with pytest.raises(BotError) as caught:
        play_match(game, 4, [RandomBot(), Broken(), RandomBot()], state=state)
    error = caught.value
    assert error.code == "bot.crashed"
    assert error.params == {"bot": "broken", "seat": 1, "seed": 4,
                            "error": "RuntimeError: out of ideas on two lines"}
    assert state.current_player == 1 and not state.is_terminal()


# --- games stopped before their first move ---------------------------------------------------

runner = CliRunner()
ENGLISH = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}


def first_seat(name: str, players: int, seed: int) -> int:
    return load_game(name, players).new_initial_state(seed).current_player


@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
def test_a_game_quit_before_its_first_move_is_not_kept(name: str,
                                                        data_directory: Path) -> None:
    seat = first_seat(name, 3, 11)
    result = runner.invoke(app, ["play", name, "--players", "3", "--seat", str(seat),
                                 "--seed", "11", "--bots", "random", "--delay", "0"],
                           input="quit\n", env=ENGLISH)
    assert result.exit_code == 1, result.output
    assert "Nothing was played yet, so the game was not kept; --seed 11 deals" in " ".join(
        result.output.split())
    assert "kartentisch resume" not in result.output
    assert not list((data_directory / "games").iterdir())
    listed = runner.invoke(app, ["resume"], env=ENGLISH)
    assert listed.exit_code == 0 and "No unfinished games" in listed.output


def test_a_game_saved_where_the_player_asked_is_kept_even_without_moves(
        tmp_path: Path) -> None:
    seat = first_seat("casino", 2, 5)
    path = tmp_path / "mine.json"
    result = runner.invoke(app, ["play", "casino", "--seat", str(seat), "--seed", "5",
                                 "--bots", "random", "--save", str(path)],
                           input="quit\n", env=ENGLISH)
    assert result.exit_code == 1, result.output
    assert GameRecord.load(path).actions == [] and "Record saved to" in result.output


def test_the_resume_list_leaves_out_games_without_moves(data_directory: Path) -> None:
    """A killed ``play`` can leave a game without moves behind: not worth listing."""
    games = data_directory / "games"
    games.mkdir(exist_ok=True)
    game = load_game("krass-kariert", 3)
    state = game.new_initial_state(9)
    empty = GameRecord.from_state("krass-kariert", state, ["human", "random", "random"])
    empty.save(games / "empty.json")
    state.apply(state.legal_actions()[0])
    begun = GameRecord.from_state("krass-kariert", state, ["human", "random", "random"])
    begun.save(games / "begun.json")
    assert [saved.path.name for saved in unfinished_games()] == ["begun.json"]
