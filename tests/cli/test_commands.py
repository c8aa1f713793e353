"""The ``kartentisch`` commands end to end, through typer's test runner."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kartentisch.cli.main import app
from kartentisch.cli.presenters import load_presenter
from kartentisch.cli.session import HUMAN, play_session
from kartentisch.cli.simulate import SimulationConfig, play_game, run_simulation
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game

runner = CliRunner()
ENGLISH = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}


def finished_record(tmp_path: Path) -> Path:
    """Play a whole game with a first-legal-move human and save it."""
    game = load_game("krass-kariert", 4)
    state = game.new_initial_state(21)
    path = tmp_path / "full.json"
    console = Console(file=StringIO(), width=120)
    play_session(game_name="krass-kariert", game=game, seed=21,
                 seats=["random", HUMAN, "random", "random"],
                 presenter=load_presenter("krass-kariert"), console=console,
                 read_line=lambda prompt: game.format_action(state.legal_actions()[0]),
                 save=path, state=state)
    return path


def test_play_answers_a_bad_entry_and_ends_on_eof(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    result = runner.invoke(app, ["play", "krass-kariert", "--seed", "3", "--bots", "random",
                                 "--save", str(path)], input="foo\n?\n", env=ENGLISH)
    assert result.exit_code == 1, result.output
    out = result.output
    assert "seed 3" in out
    assert "Your hand" in out and "Reserve 1" in out and "Draw pile" in out
    assert "Cannot read 'foo'" in out
    assert "Legal moves now:" in out
    assert "stopped before its end" in out
    assert "Traceback" not in out
    record = GameRecord.load(path)
    assert record.seed == 3 and record.seats == [HUMAN, "random", "random", "random"]


def test_play_in_german() -> None:
    result = runner.invoke(app, ["play", "krass-kariert", "--seed", "3", "--lang", "de",
                                 "--players", "3", "--seat", "2"], input="", env=ENGLISH)
    assert result.exit_code == 1, result.output
    for term in ("Durchgang", "Runde", "Nachziehstapel", "Ablagestapel", "Reserve 1", "Chips",
                 "Deine Hand", "abgebrochen"):
        assert term in result.output


def test_language_follows_the_environment() -> None:
    env = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "de_DE.UTF-8"}
    result = runner.invoke(app, ["play", "krass-kariert", "--seed", "1", "--bots", "random"],
                           input="", env=env)
    assert "Durchgang" in result.output


def test_play_rejects_bad_settings() -> None:
    cases = [
        (["play", "schach"], "unknown game"),
        (["play", "krass-kariert", "-o", "nope=1"], "unknown option 'nope'"),
        (["play", "krass-kariert", "-o", "x_with_x"], "key=value"),
        (["play", "krass-kariert", "--players", "7"], "3 to 5 players"),
        (["play", "krass-kariert", "--seat", "4"], "Seat 4 does not exist"),
        (["play", "krass-kariert", "--players", "4", "--bots", "random,random"],
         "2 bots given for 3"),
        (["play", "krass-kariert", "--bots", "genius"], "Unknown bot 'genius'"),
        (["play", "krass-kariert", "--lang", "fr"], "Unknown language 'fr'"),
    ]
    for args, message in cases:
        result = runner.invoke(app, args, input="", env=ENGLISH)
        assert result.exit_code == 2, (args, result.output)
        assert message in " ".join(result.output.split()), (args, result.output)


def test_play_with_five_players_and_rules_options() -> None:
    result = runner.invoke(app, ["play", "krass-kariert", "--seed", "9", "--bots",
                                 "random,heuristic,random,random", "-o", "five_player_chips=3",
                                 "-o", "x_with_x=true"], input="", env=ENGLISH)
    assert result.exit_code == 1, result.output
    assert "Bots: 1: random, 2: heuristic, 3: random, 4: random" in result.output
    assert "Rules options: five_player_chips=3, x_with_x=true" in result.output


def test_watch_a_game_of_bots(tmp_path: Path) -> None:
    path = tmp_path / "watched.json"
    result = runner.invoke(app, ["play", "krass-kariert", "--watch", "--seed", "2", "--bots",
                                 "random,random,random", "--save", str(path)], env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert "watching" in result.output and "Game over" in result.output
    assert "Your hand" not in result.output and "You draw" not in result.output
    assert GameRecord.load(path).seats == ["random"] * 3


def test_resume_a_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    runner.invoke(app, ["play", "krass-kariert", "--seed", "6", "--bots", "random",
                        "--save", str(path)], input="?\n", env=ENGLISH)
    before = GameRecord.load(path)
    game = before.new_game()
    typed = [game.format_action(before.replay().legal_actions()[0])]
    result = runner.invoke(app, ["resume", str(path)], input="\n".join(typed) + "\n",
                           env=ENGLISH)
    assert result.exit_code == 1, result.output
    assert f"Continuing after move {len(before.actions)}." in result.output
    after = GameRecord.load(path)
    assert after.actions[:len(before.actions)] == before.actions
    assert len(after.actions) > len(before.actions)
    finished = finished_record(tmp_path)
    over = runner.invoke(app, ["resume", str(finished)], env=ENGLISH)
    assert over.exit_code == 2 and "already over" in over.output
    data = json.loads(path.read_text())
    data["seats"] = ["human", "human", "random", "random"]
    path.write_text(json.dumps(data))
    two_humans = runner.invoke(app, ["resume", str(path)], env=ENGLISH)
    assert two_humans.exit_code == 2 and "one human seat" in two_humans.output
    # A watched game (bots only), stopped early, is watched on to its end.
    data["seats"] = ["random"] * 4
    path.write_text(json.dumps(data))
    watched = runner.invoke(app, ["resume", str(path), "--delay", "0"], env=ENGLISH)
    assert watched.exit_code == 0, watched.output
    assert "watching" in watched.output and "Game over" in watched.output
    assert GameRecord.load(path).returns is not None


def test_replay_spectator_and_seat_views(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    record = GameRecord.load(path)
    spectator = runner.invoke(app, ["replay", str(path)], env=ENGLISH)
    assert spectator.exit_code == 0, spectator.output
    assert f"Move {len(record.actions)}:" in spectator.output
    assert "Game over" in spectator.output and "Result" in spectator.output
    assert "You draw" not in spectator.output and "Your hand" not in spectator.output
    seat = runner.invoke(app, ["replay", str(path), "--seat", "1", "--lang", "de"], env=ENGLISH)
    assert seat.exit_code == 0, seat.output
    assert "Aktion 1:" in seat.output and "Spielende" in seat.output


def test_replay_step_stops_on_request(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    result = runner.invoke(app, ["replay", str(path), "--step"], input="\n\nq\n", env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert "Move 2:" in result.output and "Move 3:" not in result.output


def test_replay_of_an_unfinished_or_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    runner.invoke(app, ["play", "krass-kariert", "--seed", "4", "--bots", "random",
                        "--save", str(path)], input="", env=ENGLISH)
    result = runner.invoke(app, ["replay", str(path)], env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert "ends before the game is over" in result.output
    data = json.loads(path.read_text())
    data["actions"].append("concede")
    data["actions"].append("17-19")
    path.write_text(json.dumps(data))
    broken = runner.invoke(app, ["replay", str(path)], env=ENGLISH)
    assert broken.exit_code == 2
    assert "does not replay" in broken.output
    no_seat = runner.invoke(app, ["replay", str(path), "--seat", "9"], env=ENGLISH)
    assert no_seat.exit_code == 2 and "seat 9 is not a seat of this game" in no_seat.output
    missing = runner.invoke(app, ["replay", str(tmp_path / "none.json")], env=ENGLISH)
    assert missing.exit_code == 2 and "Cannot read" in missing.output


def test_simulate_prints_the_table_with_two_workers() -> None:
    result = runner.invoke(app, ["simulate", "krass-kariert", "--games", "8", "--bots",
                                 "random,random,random", "--seed", "4", "--workers", "2"],
                           env=ENGLISH)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "8 games, seed 4" in out
    assert "Share lost" in out and "95%" in out and "interval" in out
    assert "Actions per game" in out and "rounds per game" in out
    assert "games per second" in out


def test_simulate_in_german() -> None:
    result = runner.invoke(app, ["simulate", "krass-kariert", "--games", "3", "--bots",
                                 "random,random,random", "--lang", "de"], env=ENGLISH)
    assert result.exit_code == 0, result.output
    for text in ("3 Partien, Seed 0", "Verloren", "Anteil", "Durchgänge pro Partie",
                 "Runden pro Partie", "Partien pro Sekunde", "1 Prozess)"):
        assert text in result.output


def test_simulate_json_and_independence_of_workers() -> None:
    result = runner.invoke(app, ["simulate", "krass-kariert", "--games", "6", "--bots",
                                 "random,random,random,random", "--seed", "7", "--json"],
                           env=ENGLISH)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 6 and len(data["seats"]) == 4
    assert sum(s["losses"] for s in data["seats"]) >= 6
    config = SimulationConfig("krass-kariert", ("random",) * 4, 7)
    parallel = run_simulation(config, 6, workers=2).to_json()
    for key in ("seconds", "games_per_second", "workers"):
        data.pop(key)
        parallel.pop(key)
    assert parallel == data


def test_simulate_rejects_bad_input() -> None:
    result = runner.invoke(app, ["simulate", "krass-kariert", "--games", "2", "--bots",
                                 "random,random"], env=ENGLISH)
    assert result.exit_code == 2 and "3 to 5 players" in result.output
    result = runner.invoke(app, ["simulate", "krass-kariert", "--games", "0", "--bots",
                                 "random,random,random"], env=ENGLISH)
    assert result.exit_code == 2 and "at least 1" in result.output
    result = runner.invoke(app, ["simulate", "krass-kariert", "--games", "1", "--bots",
                                 "random,random,random", "--players", "4"], env=ENGLISH)
    assert result.exit_code == 2 and "3 bots given for 4 players" in result.output


def test_simulate_one_bot_name_for_every_seat() -> None:
    result = runner.invoke(app, ["simulate", "krass-kariert", "--games", "2", "--bots",
                                 "random", "--players", "5", "--json"], env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert [s["bot"] for s in json.loads(result.stdout)["seats"]] == ["random"] * 5


def test_rules_options_and_games() -> None:
    result = runner.invoke(app, ["rules-options", "krass-kariert"], env=ENGLISH)
    assert result.exit_code == 0, result.output
    for name in ("five_player_chips", "x_with_x", "voluntary_concession",
                 "next_leader_fallback", "next_highest|right_neighbour"):
        assert name in result.output
    listing = runner.invoke(app, ["games"], env=ENGLISH)
    assert listing.exit_code == 0
    assert "krass-kariert" in listing.output and "heuristic" in listing.output
    assert runner.invoke(app, ["play", "--help"], env=ENGLISH).exit_code == 0


def test_rotation_moves_every_bot_through_every_seat() -> None:
    bots = ("heuristic", "random", "random")
    rotated = SimulationConfig("krass-kariert", bots, 3, rotate=True)
    for index in range(3):
        shift = index % 3
        seated = tuple(bots[(s + shift) % 3] for s in range(3))
        plain = play_game(SimulationConfig("krass-kariert", seated, 3), index)
        turned = play_game(rotated, index)
        assert turned.returns == tuple(plain.returns[(e - shift) % 3] for e in range(3))
    result = runner.invoke(app, ["simulate", "krass-kariert", "--games", "3", "--bots",
                                 ",".join(bots), "--rotate"], env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert "Bot no." in result.output and "changed seats" in result.output


def test_play_and_simulate_repeat_a_bot_with_name_times_count(tmp_path: Path) -> None:
    """``name*count`` in --bots works as in ``arena``; a count that is no number is refused as
    a bot name, a huge one never builds a huge list."""
    simulated = runner.invoke(app, ["simulate", "casino", "--bots", "random*3", "--games", "2",
                                    "--json"], env=ENGLISH)
    assert simulated.exit_code == 0, simulated.output
    assert [seat["bot"] for seat in json.loads(simulated.output)["seats"]] == ["random"] * 3
    path = tmp_path / "watched.json"
    watched = runner.invoke(app, ["play", "krumme20", "--watch", "--bots", "heuristic*2,random",
                                  "--seed", "1", "--delay", "0", "--save", str(path)],
                            env=ENGLISH)
    assert watched.exit_code == 0, watched.output
    assert GameRecord.load(path).seats == ["heuristic", "heuristic", "random"]
    for spec, message in [("random*x", "Unknown bot 'random*x'"),
                          ("random*" + "9" * 5000, "Unknown bot")]:
        refused = runner.invoke(app, ["simulate", "casino", "--bots", spec], env=ENGLISH)
        assert refused.exit_code == 2 and message in refused.output, refused.output


@pytest.mark.parametrize(("spec", "message"), [
    ("random*10000000000", "Unknown bot 'random*10000000000'"),
    ("random*" + "9" * 5000, "Unknown bot 'random*999"),
    ("ismcts:iterations=" + "9" * 5000, "cannot take iterations=999"),
    ("ismcts:iterations=inf", "cannot take iterations=inf"),
    ("ismcts:exploration=nan", "cannot take exploration=nan"),
    ("ismcts:widening=-1", "cannot take widening=-1"),
    ("pimc:anchor=nan", "cannot take anchor=nan"),
])
def test_arena_refuses_huge_counts_and_non_finite_bot_numbers_at_once(spec: str,
                                                                       message: str) -> None:
    """Before: a count of 10^10 built a list of 10^10 specs, 5000 digits gave "No bots
    given", ``iterations=<5000 digits>`` or ``inf`` an OverflowError traceback, and ``nan``
    was taken (an assertion failure in ismcts' first move, a game that never ended in pimc).
    A typed spec is quoted shortened."""
    refused = runner.invoke(app, ["arena", "krass-kariert", "--bots", spec, "--games", "2",
                                  "--no-progress"], env=ENGLISH)
    assert refused.exit_code == 2, refused.output
    assert message in refused.output
    assert "Traceback" not in refused.output and len(refused.output) < 400


def test_a_delay_that_is_no_number_of_seconds_is_refused_at_once(tmp_path: Path) -> None:
    """``--delay inf`` (or nan) would pause for ever after the first bot move; ``abc`` was
    refused by typer in English only."""
    for value, lang, message in [("inf", "en", "--delay takes a number of seconds from 0 to 60"),
                                 ("nan", "de", "--delay erwartet eine Zahl von Sekunden"),
                                 ("abc", "de", "nicht 'abc'"), ("-1", "en", "not '-1'")]:
        for command in (["play", "krumme20", "--watch"], ["resume", str(tmp_path / "no")]):
            refused = runner.invoke(app, [*command, "--delay", value, "--lang", lang],
                                    env=ENGLISH)
            assert refused.exit_code == 2 and message in refused.output, refused.output
            assert not (tmp_path / "no").exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_to_a_full_disk_is_reported_without_a_traceback() -> None:
    """Any command's output, not only simulate --json: a table printed to a full disk."""
    env = {**os.environ, "LANG": "de_DE.UTF-8", "PYTHONWARNINGS": "ignore"}
    env.pop("LC_ALL", None)
    for command in (["games"], ["arena", "casino", "--bots", "random", "--games", "2",
                                "--no-progress"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "kartentisch.cli", *command],
                                  stdout=full, stderr=subprocess.PIPE, text=True, env=env,
                                  timeout=120)
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert "Die Ausgabe kann nicht geschrieben werden" in done.stderr
