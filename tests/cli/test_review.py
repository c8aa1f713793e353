"""``kartentisch review``: the summary and marked moves in English and German, players'
words for the moves, the JSON document, and refusals in the reader's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.review.games import DATA
from typer.testing import CliRunner

from kartentisch.cli.main import app
from kartentisch.core.records import GameRecord

runner = CliRunner()


def review(name: str, *args: str) -> str:
    result = runner.invoke(app, ["review", str(DATA / f"{name}.record.json"), "--seat", "0",
                                 "--budget", "fast", "--seed", "11", "--workers", "1", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_english_summary_and_marked_moves_in_players_words() -> None:
    out = review("casino", "--lang", "en")
    golden = json.loads((DATA / "casino.review.json").read_text())
    s = golden["summary"]
    assert "Review of seat 0: Casino" in out
    assert re.search(rf"Reviewed\s*│\s*{s['reviewed']}\s*│", out)
    assert re.search(rf"Inaccuracies\s*│\s*{s['inaccuracies']}\s*│", out)
    assert "Marked moves" in out and "Inaccuracy" in out
    # Moves read as the game tells them ("You trail 5d."), not as notation ("5d -").
    assert "You trail" in out or "You play" in out
    assert " - │" not in out


def test_german_output() -> None:
    out = review("krass-kariert", "--lang", "de", "--all")
    assert "Analyse von Platz 0: Krass Kariert" in out
    assert "Bewertet" in out and "Alle bewerteten Züge" in out
    assert "Du spielst" in out
    assert "Reviewed" not in out and "Mistake" not in out


def test_json_is_the_review_document() -> None:
    out = review("krumme20", "--json")
    assert json.loads(out) == json.loads((DATA / "krumme20.review.json").read_text())


def test_every_reviewed_move_is_listed_with_all(tmp_path: Path) -> None:
    out = review("krumme20", "--lang", "en", "--all")
    golden = json.loads((DATA / "krumme20.review.json").read_text())
    assert "Every reviewed move" in out
    for entry in golden["decisions"]:
        if "skipped" not in entry:
            assert re.search(rf"│\s+{entry['move']} │", out), entry["move"]


def test_refusals_in_the_readers_language(tmp_path: Path) -> None:
    record = GameRecord.load(DATA / "casino.record.json")
    unfinished = GameRecord(record.game, record.players, record.seed, record.options,
                            record.actions[:6], record.seats)
    path = tmp_path / "unfinished.json"
    unfinished.save(path)
    result = runner.invoke(app, ["review", str(path), "--seat", "0", "--lang", "de"])
    assert result.exit_code == 2
    assert "wenn sie vorbei ist" in result.output
    result = runner.invoke(app, ["review", str(DATA / "casino.record.json"), "--seat", "5",
                                 "--lang", "en"])
    assert result.exit_code == 2 and "seat" in result.output.lower()
    result = runner.invoke(app, ["review", str(DATA / "casino.record.json"), "--seat", "0",
                                 "--budget", "huge", "--lang", "en"])
    assert result.exit_code == 2 and "--budget is one of: full, fast" in result.output


def test_the_bots_moves_are_words_where_worlds_disagree() -> None:
    """Krumme20's played card shows a side the seat did not know, so the bot's move is not
    told by its events: it is named by position in words, never in notation ("play: p4")."""
    for language, words in (("en", "personal"), ("de", "persönliche")):  # table cells wrap
        out = review("krumme20", "--lang", language, "--all")
        assert words in out
        assert not re.search(r"\b[pft]\d+\b|play: |spielen: ", out), out
