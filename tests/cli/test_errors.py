"""Every refusal of the command line, in German and in English: exit status 2, no traceback,
and in the German interface none of the engine's English words."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kartentisch.cli.main import app
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game

runner = CliRunner()
ENGLISH_ENV = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}
GAME = "casino"
"""A two-player game whose refusals these tests provoke (any game would do)."""

# (arguments, a German fragment, an English fragment)
BAD_ARGUMENTS: list[tuple[list[str], str, str]] = [
    (["play", "schach"], "Unbekanntes Spiel 'schach'", "unknown game 'schach'"),
    (["play", GAME, "--seed", "abc"], "Der Startwert 'abc' ist keine ganze Zahl",
     "the seed 'abc' is not a whole number"),
    (["play", GAME, "--seed", "-1"], "Der Startwert -1 ist keine ganze Zahl",
     "the seed -1 is not a whole number"),
    (["play", GAME, "--seed", "9007199254740992"], "von 0 bis 9.007.199.254.740.991",
     "from 0 to 9,007,199,254,740,991"),
    (["play", GAME, "--seed", "1.5"], "Der Startwert '1.5'", "the seed '1.5'"),
    (["play", GAME, "--players", "9"], "spielen 2 bis 4 Personen, nicht 9",
     "is played by 2 to 4 players, not 9"),
    (["play", GAME, "--players", "zwei"], "--players erwartet eine ganze Zahl, nicht 'zwei'",
     "--players takes a whole number, not 'zwei'"),
    (["play", GAME, "--seat", "5"], "Platz 5 gibt es nicht", "Seat 5 does not exist"),
    (["play", GAME, "--seat", "x"], "--seat erwartet eine ganze Zahl", "--seat takes a whole"),
    (["play", GAME, "-o", "nope=1"], "Unbekannte Option 'nope'", "unknown option 'nope'"),
    (["play", GAME, "-o", "sweeps=vielleicht"], "sweeps", "option sweeps takes true or false"),
    (["play", GAME, "-o", "sweeps"], "schlüssel=wert", "key=value"),
    (["play", GAME, "--bots", "genius"], "Unbekannter Bot 'genius'", "Unknown bot 'genius'"),
    (["play", GAME, "--bots", "ismcts:iterations=viele"], "nimmt iterations=viele nicht an",
     "cannot take iterations=viele"),
    (["play", GAME, "--bots", "ismcts:nonsense=1"], "nimmt nonsense=1 nicht an",
     "cannot take nonsense=1"),
    (["play", GAME, "--bots", "ismcts:iterations"], "name:schlüssel=wert", "name:key=value"),
    (["play", GAME, "--players", "3", "--bots", "random,random,random"],
     "3 Bots angegeben für 2 andere Plätze", "3 bots given for 2 other seats"),
    (["simulate", GAME, "--bots", "random,random", "--games", "0"],
     "--games erwartet eine ganze Zahl ab 1, nicht 0", "--games takes a whole number of at"),
    (["simulate", GAME, "--bots", "random,random", "--games", "viele"],
     "--games erwartet eine ganze Zahl", "--games takes a whole number"),
    (["simulate", GAME, "--bots", "random,random", "--workers", "0"],
     "--workers erwartet eine ganze Zahl ab 1", "--workers takes a whole number of at least"),
    (["simulate", GAME, "--bots", "random,random", "--seed", "-5"], "Der Startwert -5",
     "the seed -5"),
    (["simulate", GAME, "--bots", ",", "--games", "1"], "Keine Bots angegeben",
     "No bots given"),
    (["simulate", GAME, "--bots", "random,random,random,random,random"],
     "spielen 2 bis 4 Personen, nicht 5", "is played by 2 to 4 players, not 5"),
    (["simulate", GAME, "--bots", "random,nobody"], "Unbekannter Bot 'nobody'",
     "Unknown bot 'nobody'"),
    (["simulate", GAME, "--bots", "random", "--players", "3,5"],
     "--players erwartet eine ganze Zahl", "--players takes a whole number"),
    (["arena", GAME, "--bots", "random*2", "--games", "0", "--no-progress"],
     "--games erwartet eine ganze Zahl ab 1", "--games takes a whole number of at least 1"),
    (["arena", GAME, "--bots", "random*2", "--seed", "x", "--no-progress"],
     "Der Startwert 'x'", "the seed 'x'"),
    (["arena", GAME, "--bots", "nobody*2", "--no-progress"], "Unbekannter Bot 'nobody'",
     "Unknown bot 'nobody'"),
    (["arena", GAME, "--bots", "random*2", "--players", "4", "--no-progress"],
     "braucht 4 Bots, nicht 2", "needs 4 bots, not 2"),
    (["arena", GAME, "--bots", "random*2", "--backend", "cloud", "--no-progress"],
     "Unbekanntes Backend 'cloud'", "Unknown backend 'cloud'"),
    (["arena", GAME, "--bots", "random*2", "-o", "nope=1", "--no-progress"],
     "Unbekannte Option 'nope'", "unknown option 'nope'"),
    (["arena", "schach", "--bots", "random*2", "--no-progress"], "Unbekanntes Spiel",
     "unknown game"),
    (["rules-options", "schach"], "Unbekanntes Spiel", "unknown game"),
]


def run(args: list[str], language: str) -> str:
    """The output of a refused command; it must end with status 2 and no traceback."""
    result = runner.invoke(app, [*args, "--lang", language], input="", env=ENGLISH_ENV)
    assert result.exit_code == 2, (args, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize(("args", "german", "english"), BAD_ARGUMENTS,
                         ids=[" ".join(case[0]) for case in BAD_ARGUMENTS])
def test_bad_arguments_are_refused_in_both_languages(args: list[str], german: str,
                                                     english: str) -> None:
    in_german, in_english = run(args, "de"), run(args, "en")
    assert german in in_german
    assert english in in_english
    assert in_german != in_english
    assert english not in in_german


def test_an_unknown_language_is_refused() -> None:
    result = runner.invoke(app, ["games", "--lang", "fr"], env=ENGLISH_ENV)
    assert result.exit_code == 2 and "Unknown language 'fr'" in result.output


# ----------------------------------------------------------------------------- records


def saved_record(tmp_path: Path, *, finished: bool = False) -> Path:
    """A record of a game of GAME, whole or after four moves."""
    game = load_game(GAME)
    state = game.new_initial_state(8)
    rng = random.Random(8)
    while not state.is_terminal() and (finished or len(state.history) < 4):
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    GameRecord.from_state(GAME, state, ["human", "random"]).save(path)
    return path


def edited(tmp_path: Path, change: Callable[[dict[str, object]], None]) -> Path:
    path = saved_record(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def write(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    return path


RECORD_CASES: list[tuple[str, Callable[[Path], Path], str, str]] = [
    ("empty", lambda tmp: write(tmp, b""), "ist leer", "is empty"),
    ("not utf-8", lambda tmp: write(tmp, b'{"game": "\xff"}'), "ist kein UTF-8-Text (Byte 10)",
     "is not UTF-8 text (byte 10)"),
    ("not json", lambda tmp: write(tmp, b"{\n  oops\n}"),
     "ist kein JSON: Fehler in Zeile 2, Spalte 3", "is not JSON: error at line 2, column 3"),
    ("too deep", lambda tmp: write(tmp, b"[" * 1000 + b"]" * 1000), "zu tief verschachtelt",
     "nested too deeply"),
    ("huge number", lambda tmp: write(tmp, b"1" * 5000), "enthält eine Zahl mit 5.000 Ziffern",
     "holds a number of 5,000 digits"),
    ("not an object", lambda tmp: write(tmp, b"[1, 2]"), "muss ein JSON-Objekt sein",
     "must be a JSON object"),
    ("old format", lambda tmp: edited(tmp, lambda d: d.update(format="kartentisch-record/2")),
     "Unbekanntes Partieformat 'kartentisch-record/2'",
     "unknown record format 'kartentisch-record/2'"),
    ("missing field", lambda tmp: edited(tmp, lambda d: d.pop("seed")),
     "Der Partie fehlt das Feld seed", "the record has no field seed"),
    ("unknown field", lambda tmp: edited(tmp, lambda d: d.update(comment="nice")),
     "hat ein Feld comment", "has a field comment"),
    ("bad seed", lambda tmp: edited(tmp, lambda d: d.update(seed=-3)), "Der Startwert -3",
     "the seed -3"),
    ("bad players", lambda tmp: edited(tmp, lambda d: d.update(players="zwei")),
     "Das Feld players der Partie muss eine ganze Zahl sein", "players must be a whole number"),
    ("seats", lambda tmp: edited(tmp, lambda d: d.update(seats=["human"])),
     "Plätze der Partie (1) passen nicht zur Zahl der Personen (2)",
     "seats (1) do not match its number of players (2)"),
    ("bad option", lambda tmp: edited(tmp, lambda d: d.update(options={"nope": True})),
     "Unbekannte Option 'nope'", "unknown option 'nope'"),
    ("bad returns", lambda tmp: edited(tmp, lambda d: d.update(returns=[1.0])),
     "eine Liste von 2 endlichen Zahlen", "a list of 2 finite numbers"),
    ("unfinished returns", lambda tmp: edited(tmp, lambda d: d.update(returns=[1.0, -1.0])),
     "hat ein Ergebnis, aber ihr Spiel ist nicht zu Ende", "has returns but its game is not"),
    ("bad action", lambda tmp: edited(tmp, lambda d: d.update(actions=["zz"])),
     "Zug 1 (zz) lässt sich nicht nachspielen", "action 1 (zz) does not replay"),
]


@pytest.mark.parametrize("command", ["replay", "resume"])
@pytest.mark.parametrize(("make", "german", "english"), [case[1:] for case in RECORD_CASES],
                         ids=[case[0] for case in RECORD_CASES])
def test_bad_records_are_refused_in_both_languages(
        tmp_path: Path, command: str, make: Callable[[Path], Path], german: str,
        english: str) -> None:
    path = make(tmp_path)
    in_german, in_english = run([command, str(path)], "de"), run([command, str(path)], "en")
    assert german in in_german
    assert english in in_english
    assert english not in in_german


def test_a_bad_action_is_explained_by_its_cause_in_german(tmp_path: Path) -> None:
    path = edited(tmp_path, lambda d: d.update(actions=["zz"]))
    in_german, in_english = run(["replay", str(path)], "de"), run(["replay", str(path)], "en")
    cause_en = in_english.split("does not replay: ", 1)[1]
    cause_de = in_german.split("lässt sich nicht nachspielen: ", 1)[1]
    assert cause_en and cause_de and cause_en != cause_de


def test_a_missing_record_file_and_a_bad_seat(tmp_path: Path) -> None:
    missing = run(["replay", str(tmp_path / "none.json")], "de")
    assert "kann nicht gelesen werden" in missing
    path = saved_record(tmp_path, finished=True)
    assert "9 ist kein Platz in diesem Spiel" in run(["replay", str(path), "--seat", "9"], "de")
    assert "--seat erwartet eine ganze Zahl" in run(["replay", str(path), "--seat", "a"], "de")
    assert "schon vorbei" in run(["resume", str(path)], "de")
