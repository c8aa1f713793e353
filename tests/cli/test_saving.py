"""Never lose a game: the record is checked before the first move, written after every move
(atomically), survives signals and crashes, and a failed save keeps the last good file."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kartentisch.cli.main import app
from kartentisch.cli.presenters import load_presenter
from kartentisch.cli.session import HUMAN, play_session
from kartentisch.core import records
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game

runner = CliRunner()
ENGLISH = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}



def _interruptible() -> None:
    """In the child: take SIGINT's default back (a shell's background job inherits it ignored,
    and Python then installs no KeyboardInterrupt handler), so the test's Ctrl-C reaches it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

def flat(text: str) -> str:
    """``text`` with line breaks (rich wraps at 80 columns) as single spaces."""
    return " ".join(text.split())


def console() -> tuple[Console, StringIO]:
    out = StringIO()
    return Console(file=out, width=100, highlight=False, color_system=None), out


def first_legal_reader(path: Path | None = None, seen: list[int] | None = None) -> Any:
    """A read_line that plays the first legal move; with ``path`` it first notes how many
    moves the record on disk holds at every prompt."""
    holder: dict[str, Any] = {}

    def read_line(_prompt: str) -> str:
        state = holder["state"]
        if path is not None and seen is not None:
            on_disk = GameRecord.load(path)
            seen.append(len(on_disk.actions) - len(state.history))
        return str(state.game.format_action(state.legal_actions()[0]))

    return holder, read_line


# --- the path is checked before the first move -------------------------------------------

@pytest.mark.parametrize("where", ["missing folder", "a directory", "not a file"])
def test_a_bad_save_path_is_refused_before_the_first_move(tmp_path: Path, where: str) -> None:
    target = {"missing folder": tmp_path / "nope" / "game.json",
              "a directory": tmp_path,
              "not a file": Path("/dev/null")}[where]
    result = runner.invoke(app, ["play", "krass-kariert", "--seed", "1", "--save", str(target)],
                           input="", env=ENGLISH)
    assert result.exit_code == 2, result.output
    assert "Cannot save the record to" in result.output
    assert "Your move" not in result.output and "Traceback" not in result.output
    assert not (tmp_path / "nope").exists()


def test_a_bad_save_path_is_refused_in_german(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "casino", "--save", str(tmp_path / "x" / "y.json"),
                                 "--lang", "de"], input="", env=ENGLISH)
    assert result.exit_code == 2
    assert "existiert nicht" in flat(result.output)


def test_resume_checks_its_save_path_too(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    runner.invoke(app, ["play", "krass-kariert", "--seed", "3", "--bots", "random", "--save",
                        str(path)], input="", env=ENGLISH)
    result = runner.invoke(app, ["resume", str(path), "--save", str(tmp_path / "a" / "b.json")],
                           input="", env=ENGLISH)
    assert result.exit_code == 2 and "does not exist" in flat(result.output), result.output


# --- written after every move ------------------------------------------------------------

@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
def test_the_record_on_disk_is_current_at_every_prompt(tmp_path: Path, name: str) -> None:
    path = tmp_path / "game.json"
    game = load_game(name, 3)
    state = game.new_initial_state(7)
    lags: list[int] = []
    holder, read_line = first_legal_reader(path, lags)
    holder["state"] = state
    out, _text = console()
    seats = [HUMAN] + ["random"] * (game.players - 1)
    result = play_session(game_name=name, game=game, seed=7, seats=seats,
                          presenter=load_presenter(name), console=out, read_line=read_line,
                          save=path, state=state)
    assert result.finished and lags and set(lags) == {0}
    saved = GameRecord.load(path)
    assert saved.returns is not None and saved.replay().is_terminal()
    assert not [p for p in tmp_path.iterdir() if p.name != "game.json"]  # no temp files left


def test_a_failed_save_keeps_the_last_good_record_and_stops(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    path = tmp_path / "game.json"
    game = load_game("krass-kariert", 3)
    state = game.new_initial_state(11)
    holder, read_line = first_legal_reader()
    holder["state"] = state
    real_fsync = os.fsync
    calls = [0]

    def full_disk(fd: int) -> None:
        calls[0] += 1
        if calls[0] > 8 and os.path.isfile(f"/proc/self/fd/{fd}") and ".tmp" in os.readlink(
                f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(records.os, "fsync", full_disk)
    out, text = console()
    result = play_session(game_name="krass-kariert", game=game, seed=11,
                          seats=[HUMAN, "random", "random"],
                          presenter=load_presenter("krass-kariert"),
                          console=out, read_line=read_line, save=path, state=state)
    assert result.save_failed and not result.finished
    shown = flat(text.getvalue())
    assert "No space left on device" in shown and "keeps the game up to move" in shown
    saved = GameRecord.load(path)  # the last good record is whole and replays
    assert 0 < len(saved.actions) < len(state.history) + 1
    assert saved.replay().history == state.history[:len(saved.actions)]
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_failed_save_ends_play_with_a_nonzero_status(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    path.write_text("old content that must survive\n")
    original = records.write_atomically

    def full_disk(target: Any, text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(records, "write_atomically", full_disk)
    result = runner.invoke(app, ["play", "krass-kariert", "--seed", "2", "--save", str(path)],
                           input="", env=ENGLISH)
    monkeypatch.setattr(records, "write_atomically", original)
    assert result.exit_code == 1
    assert "No space left on device" in flat(result.output)
    assert "nothing was saved" in result.output
    assert path.read_text() == "old content that must survive\n"
    assert "Traceback" not in result.output


# --- a number of thousands of digits as a move -------------------------------------------

@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
def test_a_huge_number_as_a_move_is_refused_cleanly(tmp_path: Path, name: str) -> None:
    path = tmp_path / "game.json"
    huge = "9" * 5000
    typed = "\n".join([huge, f"{huge} {huge}", f"c{huge}", f"{huge}@{huge}", ""])
    result = runner.invoke(app, ["play", name, "--seed", "1", "--bots", "random", "--save",
                                 str(path)], input=typed, env=ENGLISH)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert GameRecord.load(path).replay() is not None


# --- signals and crashes on a real process ------------------------------------------------

def spawn(args: list[str], tmp_path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "LANG": "en_GB.UTF-8", "KARTENTISCH_DATA_DIR": str(tmp_path / "data")}
    env.pop("LC_ALL", None)
    return subprocess.Popen(
        preexec_fn=_interruptible, args=[sys.executable, "-m", "kartentisch.cli", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)


def wait_for(predicate: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def saved_moves(path: Path) -> int:
    try:
        return len(GameRecord.load(path).actions)
    except Exception:  # not there yet
        return -1


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT,
                                    signal.SIGKILL],
                         ids=["SIGHUP", "SIGTERM", "SIGINT", "SIGKILL"])
def test_a_watched_game_killed_by_a_signal_keeps_its_moves(tmp_path: Path,
                                                           signum: signal.Signals) -> None:
    path = tmp_path / "game.json"
    process = spawn(["play", "krass-kariert", "--watch", "--bots", "random", "--seed", "5",
                     "--delay", "0.2", "--save", str(path)], tmp_path)
    try:
        wait_for(lambda: saved_moves(path) >= 4)
        process.send_signal(signum)
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    expected = -signal.SIGKILL if signum == signal.SIGKILL else 128 + signum
    assert process.returncode == expected, err
    assert "Traceback" not in err
    record = GameRecord.load(path)
    assert len(record.actions) >= 4
    record.replay()
    assert [p.name for p in tmp_path.iterdir() if p.name != "data"] == ["game.json"]


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT],
                         ids=["SIGHUP", "SIGTERM", "SIGINT"])
def test_a_player_at_the_prompt_loses_no_move_to_a_signal(tmp_path: Path,
                                                          signum: signal.Signals) -> None:
    path = tmp_path / "game.json"
    process = spawn(["play", "krass-kariert", "--bots", "random", "--seed", "8", "--delay", "0",
                     "--save", str(path)], tmp_path)
    assert process.stdin is not None

    def humans_turn() -> bool:
        try:
            state = GameRecord.load(path).replay()
        except Exception:
            return False
        return state.current_player == 0 and not state.is_terminal()

    try:
        wait_for(humans_turn)
        state = GameRecord.load(path).replay()
        before = len(state.history)
        move = state.game.format_action(state.legal_actions()[0])
        process.stdin.write(move + "\n")
        process.stdin.flush()
        wait_for(lambda: saved_moves(path) > before and humans_turn())
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in err + out
    record = GameRecord.load(path)
    assert record.actions[before] == move
    assert "kartentisch resume" in out


# --- games without --save go to the data directory; resume lists them ----------------------

def test_a_game_without_save_is_kept_and_resume_lists_it(data_directory: Path) -> None:
    played = runner.invoke(app, ["play", "krass-kariert", "--seed", "4", "--bots", "random"],
                           input="", env=ENGLISH)
    assert played.exit_code == 1
    saved = list((data_directory / "games").iterdir())
    assert len(saved) == 1 and GameRecord.load(saved[0]).seed == 4
    assert "To continue this game later: kartentisch resume" in flat(played.output)
    runner.invoke(app, ["play", "casino", "--seed", "9", "--bots", "random"], input="",
                  env=ENGLISH)
    listed = runner.invoke(app, ["resume"], input="2\n", env=ENGLISH)
    assert listed.exit_code == 1  # continued, then the input ended
    table = listed.output
    assert "Unfinished games" in table and "Krass Kariert" in table and "Casino" in table
    assert "you, random, random" in table
    assert "Continuing after move" in table and "seed 4" in table  # the older game, no. 2


def test_resume_picks_by_number_and_refuses_a_missing_one(data_directory: Path) -> None:
    empty = runner.invoke(app, ["resume"], input="", env=ENGLISH)
    assert empty.exit_code == 0 and "No unfinished games" in flat(empty.output)
    # (in Krass Kariert the bots move first: the game is kept with their moves; a game
    # stopped before any move is not kept, see test_bot_failures.py)
    runner.invoke(app, ["play", "krass-kariert", "--seed", "6", "--bots", "random"], input="",
                  env=ENGLISH)
    picked = runner.invoke(app, ["resume", "--game", "1"], input="", env=ENGLISH)
    assert "Continuing after move" in picked.output and "seed 6" in picked.output
    missing = runner.invoke(app, ["resume", "--game", "3"], input="", env=ENGLISH)
    assert missing.exit_code == 2 and "no unfinished game 3" in flat(missing.output)


def test_resume_can_take_another_seat(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    runner.invoke(app, ["play", "krass-kariert", "--seed", "3", "--bots", "random,heuristic",
                        "--save", str(path)], input="", env=ENGLISH)
    assert GameRecord.load(path).seats == [HUMAN, "random", "heuristic"]
    result = runner.invoke(app, ["resume", str(path), "--seat", "2"], input="", env=ENGLISH)
    assert "you sit in seat 2" in result.output
    assert GameRecord.load(path).seats == ["heuristic", "random", HUMAN]
    bad = runner.invoke(app, ["resume", str(path), "--seat", "7"], input="", env=ENGLISH)
    assert bad.exit_code == 2 and "Seat 7 does not exist" in flat(bad.output)


# --- replay of a file of many games -------------------------------------------------------

def many_games(tmp_path: Path) -> Path:
    from kartentisch.bots import make_bot
    from kartentisch.bots.match import play_match

    lines = []
    for seed in (21, 22, 23):
        game = load_game("krass-kariert", 3)
        bots = [make_bot("random", game, seed=s) for s in range(3)]
        outcome = play_match(game, seed, bots)
        assert outcome.state is not None
        lines.append(json.dumps(GameRecord.from_state("krass-kariert", outcome.state,
                                                      ["random"] * 3).to_json()))
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join([lines[0], lines[1], lines[2][: len(lines[2]) // 2]]) + "\n")
    return path


def test_replay_of_many_games_lets_the_user_pick_one(tmp_path: Path) -> None:
    path = many_games(tmp_path)
    listed = runner.invoke(app, ["replay", str(path)], input="2\n", env=ENGLISH)
    assert listed.exit_code == 0, listed.output
    out = flat(listed.output)
    assert "2 games in" in out and "Line 3 skipped" in out and "seed 22" in out
    assert "seed 21" not in out
    chosen = runner.invoke(app, ["replay", str(path), "--game", "1"], env=ENGLISH)
    assert chosen.exit_code == 0 and "seed 21" in chosen.output
    no_input = runner.invoke(app, ["replay", str(path)], input="", env=ENGLISH)
    assert no_input.exit_code == 2 and "--game N" in flat(no_input.output)
    too_far = runner.invoke(app, ["replay", str(path), "--game", "5"], env=ENGLISH)
    assert too_far.exit_code == 2 and "holds 2 games" in flat(too_far.output)
    assert "Traceback" not in listed.output + no_input.output + too_far.output
