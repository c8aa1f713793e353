"""``kartentisch play krumme20`` end to end: scripted input through the command and a session."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kartentisch.cli.main import app
from kartentisch.cli.presenters import load_presenter
from kartentisch.cli.session import HUMAN, play_session
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game
from kartentisch.games.krumme20 import Play
from kartentisch.locale import set_language

runner = CliRunner()
ENGLISH = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}


@pytest.fixture(autouse=True)
def data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games played without --save are kept in a test folder, never the user's."""
    monkeypatch.setenv("KARTENTISCH_DATA_DIR", str(tmp_path / "data"))


def seed_where_seat0_starts() -> int:
    game = load_game("krumme20", 3)
    return next(s for s in range(100) if game.new_initial_state(s).turn == 0)


def test_play_command_scripted_input(tmp_path: Path) -> None:
    seed = seed_where_seat0_starts()
    path = tmp_path / "partial.json"
    result = runner.invoke(app, ["play", "krumme20", "--seed", str(seed), "--bots", "random",
                                 "--delay", "0", "--save", str(path)],
                           input="?\nxyz\np5\n1\n", env=ENGLISH)
    out = result.output
    assert result.exit_code == 1, out  # the input ran out before the end
    assert "Traceback" not in out
    assert "Play pile (Ablagestapel)" in out and "→ total 0" in out
    assert "Your personal cards (up/down, ? = side you do not know)" in out
    assert "/?" in out  # unknown down sides are marked
    assert "Your turn: play a personal card" in out
    assert "Legal moves now:" in out and "play: p1  p2  p3" in out
    assert "cannot read xyz; moves look like: p2 | f2" in out
    assert "p5: there is no personal card 5; you hold 3. Legal now: p1, p2, p3" in out
    assert "played a card counting" in out  # the bare "1" played card 1
    record = GameRecord.load(path)
    assert record.game == "krumme20" and record.actions[0] == "p1"


def test_play_command_in_german() -> None:
    seed = seed_where_seat0_starts()
    result = runner.invoke(app, ["play", "krumme20", "--seed", str(seed), "--bots", "random",
                                 "--delay", "0", "--lang", "de"],
                           input="passen\nspielen 9\nspielen 1\n", env=ENGLISH)
    out = result.output
    for term in ("Ablagestapel", "Abwurfstapel", "Nachziehstapel", "Persönliche Karten",
                 "Punktestapel", "Du bist am Zug", "passen (pass)"):
        assert term in out
    assert "Traceback" not in out
    assert "pass: Wenn du am Zug bist, musst du eine persönliche Karte spielen." in out
    assert "spielen 9: Karten werden von 1 bis 5 gezählt" in out
    assert "obligatory" not in out and "cannot read" not in out


def test_every_refusal_reads_in_german(build) -> None:
    from kartentisch.cli.messages import describe_error
    from kartentisch.core.errors import KartentischError
    from kartentisch.games.krumme20.reasons import PHASE_HELP, REASONS

    presenter = load_presenter("krumme20")
    state = build(hands=[["1/0", "2/3"], ["4/1"], ["5/5"]])
    state.apply(state.game.parse_action("p1", state))  # the 0's step
    set_language("de")
    try:
        for text in ("draw", "flip 4:1", "flip 1:2", "flip s1", "hallo", "33 1,1,2"):
            try:
                state.game.parse_action(text, state)
            except KartentischError as error:
                assert error.code in REASONS
                german = presenter.explain_error(error, text, state.observation(0))
                assert german is not None and german != str(error)
                assert "Legal now" not in german and "cannot read" not in german
            else:
                raise AssertionError(text)
        step = describe_error(REASONS.error(KartentischError, "k20.wrong_step", move="draw",
                                            step="flip", legal=["pass"]),
                              presenter.localize_param)
        assert "Sonderaktion der 0: eine Karte umdrehen oder passen" in step
        assert all(presenter.localize_param("step", phase) for phase in PHASE_HELP)
    finally:
        set_language("en")


def test_whole_game_in_a_session_with_special_action_prompts(tmp_path: Path) -> None:
    set_language("en")
    game = load_game("krumme20", 3)
    state = game.new_initial_state(8)
    path = tmp_path / "game.json"
    buffer = StringIO()
    console = Console(file=buffer, width=120)
    steps: list[str] = []

    def read_line(prompt: str) -> str:
        steps.append(state.phase)
        legal = state.legal_actions()
        if state.phase == "turn":
            play = next(a for a in legal if isinstance(a, Play))
            return str(play.index + 1)  # the bare-number shortcut
        return game.format_action(legal[0])  # take the action / compensation offered first

    play_session(game_name="krumme20", game=game, seed=8, seats=[HUMAN, "heuristic", "random"],
                 presenter=load_presenter("krumme20"), console=console, read_line=read_line,
                 save=path, state=state)
    out = buffer.getvalue()
    assert state.is_terminal()
    assert "Game over. Points:" in out
    assert "Special action of the" in out  # the step prompts were shown
    assert {"turn"} < set(steps)  # the human also answered special actions or compensations
    replayed = GameRecord.load(path).replay()
    assert replayed.to_json() == state.to_json()


def test_events_speak_to_the_viewer_in_german_and_group_by_turn() -> None:
    from kartentisch.core.protocol import Event

    presenter = load_presenter("krumme20")
    names = ["Du", "Bot 1", "Bot 2"]
    set_language("de")
    try:
        def line(kind: str, seat: int, **data: object) -> str:
            text = presenter.describe_event(Event(kind, seat, data), viewer=0, names=names)
            assert text is not None
            return text

        assert "Du musst aussetzen" in line("sitout", 2, victim=0)
        assert "Zug von dir entfällt" in line("sat_out", 0)
        assert "Dein Punktestapel: + 3/4." in line("score", 0, card="3/4", crosswise=False)
        assert "Du verzichtest auf die Sonderaktion der 2" in line("pass", 0, step="draw")
        assert "Bot 1[/] verzichtet auf eine zweite Karte als 5" in line("pass", 1,
                                                                          step="five")
        heading = line("turn", 1, turn=7, total=12)
        assert "Zug 7" in heading and not heading.startswith("  ")
        assert line("play", 1, number=3, total=15).startswith("  ")
    finally:
        set_language("en")


def test_turn_and_move_counters_differ_in_german(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    runner.invoke(app, ["play", "krumme20", "--watch", "--bots", "random", "--seed", "3",
                        "--delay", "0", "--save", str(path)], env=ENGLISH)
    replayed = runner.invoke(app, ["replay", str(path), "--lang", "de"], env=ENGLISH)
    assert replayed.exit_code == 0
    assert "Aktion 1:" in replayed.output and "── Zug 1:" in replayed.output
    assert "Zug 1: " not in replayed.output.replace("── Zug 1: ", "")


@pytest.mark.parametrize(("lang", "skipped"), [("en", "skipped (sitting out)"),
                                               ("de", "entfällt (setzt aus)")])
def test_a_skipped_turn_is_a_heading_of_its_own(lang: str, skipped: str) -> None:
    """A turn that is skipped has no turn heading of its own: its line must not sit indented
    under the turn before (where it read as part of that player's turn)."""
    game = load_game("krumme20", 3)
    seats = ["random"] * 3
    for seed in range(200):  # the first seed whose game has a player sitting out
        buffer = StringIO()
        set_language(lang)
        try:
            play_session(game_name="krumme20", game=game, seed=seed, seats=seats,
                         presenter=load_presenter("krumme20"),
                         console=Console(file=buffer, width=200, color_system=None),
                         read_line=input)
        finally:
            set_language("en")
        lines = buffer.getvalue().splitlines()
        found = [i for i, line in enumerate(lines) if skipped in line]
        if found:
            break
    else:
        pytest.fail("no game with a skipped turn")
    end = "Game over" if lang == "en" else "Spielende"
    for i in found:
        assert lines[i].startswith("── ") and lines[i].endswith(" ──"), lines[i]
        assert lines[i - 1] == ""  # set apart like a turn's heading
        # what follows is the next turn's heading (or another skipped turn, or the end),
        # never an event that would read as part of the skipped turn
        after = next(line for line in lines[i + 1:] if line)
        assert after.startswith("── ") or after.startswith(end), after


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("Team 1 (Bot 0 + Bot 2)", "Team points:", "Winning team", "Points of each player",
            "Team points")),
    ("de", ("Team 1 (Bot 0 + Bot 2)", "Teampunkte:", "Siegerteam", "Punkte der einzelnen Spieler",
            "Teampunkte")),
])
def test_a_team_game_shows_the_teams_and_their_result(lang: str, words: tuple[str, ...]) -> None:
    # the team variant (a reconstruction): who plays with whom, team points, the team result
    result = runner.invoke(app, ["play", "krumme20", "--players", "4", "-o", "teams=pairs",
                                 "--watch", "--bots", "heuristic", "--seed", "3", "--delay",
                                 "0", "--lang", lang], env=ENGLISH)
    out = result.output
    assert result.exit_code == 0, out
    for word in words:
        assert word in out, word
    assert "Team 2 (Bot 1 + Bot 3)" in out


def test_a_human_is_told_whom_they_play_with() -> None:
    set_language("en")
    presenter = load_presenter("krumme20")
    game = load_game("krumme20", 6, {"teams": "pairs"})
    names = ["Ana", "Bo", "Cleo", "Dan", "Eva", "Finn"]
    buffer = StringIO()
    Console(file=buffer, width=200).print(presenter.render(
        game.new_initial_state(2).observation(1), viewer=1, names=names))
    out = buffer.getvalue()
    assert "You play in Team 2 with Eva." in out
    assert "Team 1 (Ana + Dan): 0 points" in out and "Team 3 (Cleo + Finn): 0 points" in out


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "team play (pairs) is for these player counts only: 4, 6; not 5"),
    ("de", "Das Teamspiel (pairs) gibt es nur für diese Spielerzahlen: 4, 6; nicht 5"),
])
def test_team_play_with_five_players_is_refused_in_words(lang: str, text: str) -> None:
    result = runner.invoke(app, ["play", "krumme20", "--players", "5", "-o", "teams=pairs",
                                 "--watch", "--bots", "random", "--delay", "0", "--lang", lang],
                           env=ENGLISH)
    assert result.exit_code != 0
    assert text in " ".join(result.output.split())
    assert "Traceback" not in result.output
