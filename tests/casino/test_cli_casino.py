"""Casino in the terminal: ``kartentisch play casino`` with scripted input, and the presenter."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kartentisch import KartentischError
from kartentisch.bots import make_bot
from kartentisch.cli.main import app
from kartentisch.cli.presenters import load_presenter
from kartentisch.cli.session import HUMAN, derive_seed, play_session
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game
from kartentisch.games.casino import CasinoState
from kartentisch.games.casino.game import format_with_labels
from kartentisch.locale import set_language

runner = CliRunner()
ENGLISH = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


@pytest.fixture(autouse=True)
def data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games played without --save are kept in a test folder, never the user's."""
    monkeypatch.setenv("KARTENTISCH_DATA_DIR", str(tmp_path / "data"))


def first_human_state(seed: int) -> object:
    """The position when the human in seat 0 first moves (seat 1 leads; heuristic bot)."""
    game = load_game("casino", 2)
    state = game.new_initial_state(seed)
    bot = make_bot("heuristic", game, derive_seed(seed, "bot", 1))
    state.apply(bot.act(state.observation(1), state.legal_actions()))
    assert state.current_player == 0
    return state


def test_play_casino_with_labels_help_and_errors(tmp_path: Path) -> None:
    state = first_human_state(5)
    legal = state.legal_actions()  # type: ignore[attr-defined]
    move = format_with_labels(legal[-1], state.table_items())  # type: ignore[attr-defined]
    path = tmp_path / "casino.json"
    script = f"?\nzz\nQs x q\n{move}\n"
    result = runner.invoke(app, ["play", "casino", "--seed", "5", "--save", str(path)],
                           input=script, env=ENGLISH)
    assert result.exit_code == 1, result.output
    out = result.output
    assert "Casino · pack 1 · dealer: You" in out
    assert "Table: a " in out and "Your hand:" in out and "Cards left in the pack: 40" in out
    assert "Legal moves now:" in out and "trail:" in out
    assert "Cannot read zz" in out
    assert "Traceback" not in out
    assert "stopped before its end" in out
    record = GameRecord.load(path)
    assert record.seats == [HUMAN, "heuristic"]
    assert len(record.actions) >= 2  # the bot's lead and the typed move (and maybe more)
    replayed = record.replay(upto=2)
    assert replayed.history[1] == legal[-1]  # type: ignore[attr-defined]


def test_whole_game_shows_points_after_each_pack() -> None:
    game = load_game("casino", 2, {"sweeps": True})
    seed = 11
    state = game.new_initial_state(seed)
    presenter = load_presenter("casino")
    out = StringIO()
    console = Console(file=out, width=140)

    def read_line(prompt: str) -> str:
        action = state.legal_actions()[0]
        return format_with_labels(action, state.table_items())

    result = play_session(game_name="casino", game=game, seed=seed, seats=[HUMAN, "random"],
                          presenter=presenter, console=console, read_line=read_line,
                          state=state)
    assert result.finished
    text = out.getvalue()
    packs = len(state.pack_results)
    assert text.count("is over. Points:") == packs >= 1
    assert "most cards" in text or "pack total" in text
    assert "Scores: You" in text and "Game over. Winner:" in text
    assert "Result" in text


def test_watch_and_german() -> None:
    watched = runner.invoke(app, ["play", "casino", "--watch", "--seed", "4", "--bots",
                                  "random,heuristic"], env=ENGLISH)
    assert watched.exit_code == 0, watched.output
    assert "Game over. Winner:" in watched.output and "Your hand" not in watched.output
    assert "You get" not in watched.output  # a spectator sees no hand
    german = runner.invoke(app, ["play", "casino", "--seed", "3", "--lang", "de"], input="",
                           env=ENGLISH)
    assert german.exit_code == 1
    for term in ("Runde 1", "Geber", "Tisch", "Deine Hand", "Karten im Stapel"):
        assert term in german.output


def test_four_players_in_partnerships() -> None:
    result = runner.invoke(app, ["play", "casino", "--players", "4", "--watch", "--bots",
                                 "random,random,random,random", "-o", "partnerships=true",
                                 "--seed", "2"], env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert "Bot 0 + Bot 2" in result.output


def test_rules_options_are_explained() -> None:
    result = runner.invoke(app, ["rules-options", "casino"], env=ENGLISH)
    assert result.exit_code == 0, result.output
    for name in ("partnerships", "trail_ban", "while_build_stands", "owner_keeps_capture_card",
                 "count_out"):
        assert name in result.output


def test_simulate_casino() -> None:
    result = runner.invoke(app, ["simulate", "casino", "--games", "6", "--bots",
                                 "heuristic,random", "--workers", "1"], env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert "packs per game" in result.output


@pytest.mark.parametrize(("text", "in_english", "in_german"), [
    ("zz", "Cannot read zz; moves look like: 7h x 3c 4d",
     "zz ist kein Zug; Züge sehen so aus: 7h x 3c 4d"),
    ("7h x q", "There is no table item q; the table has 5 items.",
     "Es gibt kein Tischteil q; auf dem Tisch liegen 5 Teile."),
    ("9c -", "9c is not in your hand (2h, 7h, 8s, Qh).",
     "9♣ ist nicht auf deiner Hand (2♥, 7♥, 8♠, D♥)."),
    ("Ks -", "Ks is not in your hand", "K♠ ist nicht auf deiner Hand"),
    ("Td -", "Td is not in your hand", "10♦ ist nicht auf deiner Hand"),
    ("As -", "As is not in your hand", "A♠ ist nicht auf deiner Hand"),
    ("7h x 5c", "5c is not a loose card on the table",
     "5♣ liegt nicht lose auf dem Tisch"),
    ("Qh + a = 5", "Face cards never enter builds. Legal with Qh: Qh -.",
     "Bildkarten kommen nie in einen Bau. Erlaubt mit D♥: D♥ -."),
    ("2h + c = 5", "To build 5 you must keep another card of value 5 in your hand",
     "eine weitere Karte mit dem Wert 5 auf der Hand behalten"),
    ("7h x a", "The cards taken must form groups that each add up to 7. Legal with "
     "7h: 7h - · 7h x 3c 4d.", "jeweils 7 ergeben. Erlaubt mit 7♥: 7♥ - · 7♥ x 3♣ 4♦."),
    ("8s x d", "You must keep a card of value 8 to take your build of 8",
     "um deinen Bau auf 8 zu nehmen"),
    ("8s -", "You must keep a card of value 8 to take your build of 8",
     "um deinen Bau auf 8 zu nehmen"),
])
def test_refused_moves_are_explained(setup: Callable[..., CasinoState], text: str,
                                     in_english: str, in_german: str) -> None:
    # seat 0 owns the build of 8 and holds one 8; table: a 3c, b 4d, c 6c, d 8c, e [8]
    state = setup(hands=["7h 2h 8s Qh", "8d Kd Kc 9c"], loose="3c 4d 6c 8c",
                  builds=[(8, "2d 6d", 0, 3)], last_turn=[8, 9])
    presenter = load_presenter("casino")
    with pytest.raises(KartentischError) as info:
        state.game.parse_action(text, state)
    observation = state.observation(0)
    assert info.value.code.startswith("casino.")
    assert in_english in (presenter.explain_error(info.value, text, observation) or "")
    set_language("de")
    assert in_german in (presenter.explain_error(info.value, text, observation) or "")


def test_the_presenter_names_cards_one_way() -> None:
    """Cards read alike on the table, in events, errors and scoring: in English the notation,
    or with --suit-symbols the rank and the suit's symbol; in German always the German rank
    letter and the suit's symbol (Dame: D, Zehn: 10)."""
    from kartentisch.cli.presenters.casino import item_name

    presenter = load_presenter("casino")
    assert presenter.localize_param("card", "Qh") == "Qh"
    assert presenter.localize_param("missing", "Td") == "Td"
    assert presenter.localize_param("legal", ["7h -", "7h x 3c"]) == "7h -, 7h x 3c"
    assert presenter.localize_param("value", 7) is None
    assert "(Td)" in item_name("big_casino") and "(2s)" in item_name("little_casino")
    assert item_name("spades") == "most spades (s)"
    presenter.configure(suit_symbols=True)
    try:
        assert presenter.localize_param("card", "Qh") == "Q♥"
        assert "(T♦)" in item_name("big_casino") and item_name("spades") == "most spades (♠)"
    finally:
        presenter.configure(suit_symbols=False)
    set_language("de")
    assert presenter.localize_param("card", "Qh") == "D♥"
    assert presenter.localize_param("legal", ["7h -", "7h x 3c"]) == "7♥ -, 7♥ x 3♣"
    assert "(10♦)" in item_name("big_casino") and "(2♠)" in item_name("little_casino")
    assert item_name("spades") == "meiste Pik (♠)"


def test_suit_symbols_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "casino", "--watch", "--bots", "random", "--seed", "3",
                                 "--delay", "0", "--suit-symbols", "--lang", "en",
                                 "--save", str(path)], env=ENGLISH)
    assert result.exit_code == 0, result.output
    assert "♣" in result.output and "(T♦)" in result.output
    plain = runner.invoke(app, ["replay", str(path), "--lang", "en"], env=ENGLISH)
    assert "♣" not in plain.output and "(Td)" in plain.output
    german = runner.invoke(app, ["replay", str(path), "--lang", "de"], env=ENGLISH)
    assert "Großes Casino (10♦)" in german.output and "Td" not in german.output
    assert "Build" not in german.output
