"""Results in the players' terms: chips or points and winners and losers in words, a summary
between deals, round numbers per deal, options as typed values."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kartentisch.cli.main import app
from kartentisch.cli.messages import format_options
from kartentisch.cli.presenters import load_presenter
from kartentisch.cli.session import play_session, result_sentence
from kartentisch.core.records import GameRecord
from kartentisch.locale import set_language

runner = CliRunner()
ENGLISH = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}


def flat(text: str) -> str:
    return " ".join(text.split())


def watch(name: str, seed: int, lang: str = "en", players: int | None = None) -> str:
    args = ["play", name, "--watch", "--bots", "random", "--seed", str(seed), "--delay", "0",
            "--lang", lang]
    if players is not None:
        args += ["--players", str(players)]
    result = runner.invoke(app, args, env=ENGLISH)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("name", "column"), [("krass-kariert", "Chips"), ("casino", "Points"),
                                              ("krumme20", "Points")])
def test_the_end_shows_chips_or_points_and_names_winners_in_words(name: str, column: str
                                                                  ) -> None:
    out = watch(name, 3)
    result = out[out.rindex("Result"):]
    assert column in result and "Return" not in result and "+1.00" not in result
    assert re.search(r"Winners?: Bot \d", flat(result))
    assert "wins" in result


def test_german_result_words() -> None:
    out = watch("krass-kariert", 3, "de")
    result = flat(out[out.rindex("Ergebnis"):])
    assert "Chips" in result and "verliert" in result and "Verlierer: Bot" in result


def test_the_sentence_speaks_to_the_human() -> None:
    names = ["You", "Bot 1", "Bot 2"]
    assert "You lose." in result_sentence([-1.0, 0.5, 0.5], names, 0)
    assert "You win!" in result_sentence([1.0, 0.0, 0.0], names, 0)
    assert "among the winners" in result_sentence([0.5, 0.5, -1.0], names, 0)
    assert "draw" in result_sentence([0.0, 0.0, 0.0], names, 0)
    both = flat(result_sentence([0.5, 0.5, -1.0], names, None))
    assert "Winners: [bold green]You[/] and [bold cyan]Bot 1[/]." in both
    assert "Loser: [bold magenta]Bot 2[/]." in both


def test_krass_kariert_rounds_restart_with_each_deal_and_never_repeat() -> None:
    out = watch("krass-kariert", 3)
    deals = re.split(r"── Deal \d+ begins ──", out)[1:]
    assert len(deals) > 2
    for deal in deals:
        numbers = [int(n) for n in re.findall(r"Round (\d+): ", deal)]
        assert numbers == list(range(1, len(numbers) + 1))
    for title_round in re.findall(r"Krass Kariert · deal \d+ · round (\d+)", out):
        assert int(title_round) <= 40


def test_a_summary_of_the_chips_between_deals() -> None:
    out = watch("krass-kariert", 3)
    summary = re.findall(r"After deal (\d+) the chips stand: (.*)", out)
    assert [int(deal) for deal, _chips in summary[:3]] == [1, 2, 3]
    assert all(line.count("Bot") == 4 for _deal, line in summary)
    assert out.index("After deal 1") < out.index("── Deal 2 begins ──")


def test_a_resumed_game_counts_rounds_from_the_deal_start(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    runner.invoke(app, ["play", "krass-kariert", "--watch", "--bots", "random", "--seed", "3",
                        "--delay", "0", "--save", str(path)], env=ENGLISH)
    record = GameRecord.load(path)
    state = GameRecord(record.game, record.players, record.seed, record.options,
                       record.actions[:150], ["human", "random", "random", "random"]).replay()
    out = StringIO()
    console = Console(file=out, width=100, color_system=None)
    set_language("en")

    def read_line(_prompt: str) -> str:
        raise EOFError

    play_session(game_name="krass-kariert", game=state.game, seed=record.seed,
                 seats=["human", "random", "random", "random"],
                 presenter=load_presenter("krass-kariert"), console=console,
                 read_line=read_line, state=state, events_from=len(state.events) - 3)
    shown = re.search(r"Krass Kariert · deal (\d+) · round (\d+)", out.getvalue())
    assert shown is not None and 1 <= int(shown.group(2)) <= 40


def test_options_print_as_typed_values(tmp_path: Path) -> None:
    assert format_options({"x_with_x": True, "chips": 3}) == "chips=3, x_with_x=true"
    result = runner.invoke(app, ["play", "krass-kariert", "--seed", "1", "-o", "x_with_x=yes",
                                 "--save", str(tmp_path / "g.json")], input="", env=ENGLISH)
    assert "Rules options: x_with_x=true" in result.output
    replayed = runner.invoke(app, ["replay", str(tmp_path / "g.json")], env=ENGLISH)
    assert "x_with_x=true" in replayed.output and "True" not in replayed.output


def test_german_numbers_and_whole_headers_at_80_columns() -> None:
    result = runner.invoke(app, ["simulate", "krass-kariert", "--bots", "random,random,random",
                                 "--games", "8", "--lang", "de"],
                           env={**ENGLISH, "COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "…" not in result.output
    assert re.search(r"\d+,\d\u202f%", result.output) and "Aktionen pro Partie: " in result.output
    assert re.search(r"Aktionen pro Partie: \d+,\d\n", result.output)
    assert all(len(line) <= 80 for line in result.output.splitlines())


def test_the_first_prompt_gives_examples_from_the_real_table_and_replay_sums_up_deals(
        tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    played = runner.invoke(app, ["play", "krass-kariert", "--seed", "3", "--bots", "random",
                                 "--save", str(path)], input="", env=ENGLISH)
    state = GameRecord.load(path).replay()
    first = state.game.format_action(state.legal_actions()[0])
    assert f"For example now: {first}" in played.output
    watched = tmp_path / "watched.json"
    runner.invoke(app, ["play", "krass-kariert", "--watch", "--bots", "random", "--seed", "3",
                        "--delay", "0", "--save", str(watched)], env=ENGLISH)
    replayed = runner.invoke(app, ["replay", str(watched)], env=ENGLISH)
    assert "After deal 1 the chips stand:" in replayed.output
