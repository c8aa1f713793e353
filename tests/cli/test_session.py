"""The terminal game loop, driven by scripted input."""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable, Iterator, Sequence
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console, RenderableType
from rich.text import Text

from kartentisch.cli.presenters import GENERIC, load_presenter, presenter_modules
from kartentisch.cli.presenters.krass_kariert import KrassKariertPresenter
from kartentisch.cli.session import HUMAN, HumanPlayer, QuitGame, play_session, seat_names
from kartentisch.core.errors import AmbiguousActionError, KartentischError
from kartentisch.core.protocol import Event
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import list_games, load_game
from kartentisch.games.krass_kariert import InsertDrawn, KKState, Play, TakeReserve
from kartentisch.games.krass_kariert.cards import X
from kartentisch.locale import set_language

KK = "krass-kariert"
SEATS = [HUMAN, "random", "random", "random"]


def make_console() -> tuple[Console, StringIO]:
    out = StringIO()
    return Console(file=out, width=120, highlight=False, color_system=None), out


def first_legal(game: Any, state: Any) -> Callable[[str], str]:
    """A player who always types the first legal move's notation."""

    def read_line(prompt: str) -> str:
        return str(game.format_action(state.legal_actions()[0]))

    return read_line


def test_whole_game_against_bots_finishes_and_saves(tmp_path: Path) -> None:
    game = load_game(KK, 4)
    state = game.new_initial_state(11)
    prompts: list[str] = []
    answer = first_legal(game, state)

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return answer(prompt)

    console, out = make_console()
    path = tmp_path / "game.json"
    result = play_session(game_name=KK, game=game, seed=11, seats=SEATS,
                          presenter=load_presenter(KK), console=console, read_line=read_line,
                          save=path, state=state)
    assert result.finished and state.is_terminal()
    assert prompts and all(p == "Your move (? = help): " for p in prompts)
    text = out.getvalue()
    assert "Game over" in text and "Result" in text
    assert "Record saved to" in text
    record = GameRecord.load(path)
    assert record.seats == SEATS
    assert record.returns == state.returns()
    assert record.replay().returns() == state.returns()


def test_bad_entries_get_a_message_and_play_goes_on() -> None:
    game = load_game(KK, 4)
    state = game.new_initial_state(5)
    typed = iter(["hello", "99", "?", ""])
    answer = first_legal(game, state)

    def read_line(prompt: str) -> str:
        return next(typed, None) or answer(prompt)

    console, out = make_console()
    result = play_session(game_name=KK, game=game, seed=5, seats=SEATS,
                          presenter=load_presenter(KK), console=console, read_line=read_line,
                          state=state)
    assert result.finished
    text = out.getvalue()
    assert "Cannot read 'hello'" in text
    assert "Not allowed now: 99. Your hand has only 10 cards." in text
    assert "Legal moves now:" in text
    assert text.count("Type ? for help") >= 2


def test_end_of_input_stops_the_game_cleanly(tmp_path: Path) -> None:
    game = load_game(KK, 3)

    def read_line(prompt: str) -> str:
        raise EOFError

    console, out = make_console()
    path = tmp_path / "partial.json"
    result = play_session(game_name=KK, game=game, seed=2, seats=[HUMAN, "random", "random"],
                          presenter=load_presenter(KK), console=console, read_line=read_line,
                          save=path)
    assert not result.finished
    assert "stopped before its end" in out.getvalue()
    record = GameRecord.load(path)
    assert record.returns is None
    assert len(record.actions) == len(result.state.history)


def test_an_unwritable_record_path_is_reported(tmp_path: Path) -> None:
    game = load_game(KK, 3)
    console, out = make_console()
    result = play_session(game_name=KK, game=game, seed=2, seats=[HUMAN, "random", "random"],
                          presenter=load_presenter(KK), console=console,
                          read_line=lambda prompt: "quit", save=tmp_path / "no" / "dir.json")
    assert result.record_path is None
    assert "Cannot save the record to" in out.getvalue()


def test_quit_word_stops_the_game() -> None:
    game = load_game(KK, 3)
    console, out = make_console()
    result = play_session(game_name=KK, game=game, seed=2, seats=["random", HUMAN, "random"],
                          presenter=load_presenter(KK), console=console,
                          read_line=lambda prompt: "quit")
    assert not result.finished
    assert "stopped before its end" in out.getvalue()


def states_of_seat0(seeds: range) -> Iterator[KKState]:
    """Every state where seat 0 is to act, in random games from ``seeds``."""
    game = load_game(KK, 4)
    for seed in seeds:
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player == 0:
                yield state
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def find_state(predicate: Callable[[KKState], bool]) -> KKState:
    for state in states_of_seat0(range(50)):
        if predicate(state):
            return state.clone()
    raise AssertionError("no such state in 50 games")


def human_for(state: KKState, typed: list[str], presenter: KrassKariertPresenter | None = None
              ) -> tuple[HumanPlayer, StringIO]:
    console, out = make_console()
    answers = iter(typed)

    def read_line(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    names = seat_names(SEATS, 0)
    chosen = presenter if presenter is not None else load_presenter(KK)
    return HumanPlayer(0, state.game, chosen, console, read_line, names), out


def x_play_is_ambiguous(state: KKState) -> bool:
    hand = state.hands[0]
    if state.phase != "play" or X not in hand:
        return False
    i = hand.index(X)
    return sum(1 for a in state.legal_actions()
               if isinstance(a, Play) and a.start == i and a.length == 1) > 1


def test_an_undeclared_x_card_asks_for_its_value() -> None:
    state = find_state(x_play_is_ambiguous)
    position = str(state.hands[0].index(X) + 1)
    with pytest.raises(AmbiguousActionError) as info:
        state.game.parse_action(position, state)
    text, wanted = info.value.choices[-1]
    value = text.split("x")[-1]
    human, out = human_for(state, [position, "99", value])
    assert human.choose(state) == wanted
    shown = out.getvalue()
    assert "Which value should the X card stand for?" in shown
    assert "'99' is not one of the choices" in shown


def test_a_reserve_without_position_asks_where_it_goes() -> None:
    state = find_state(lambda s: any(isinstance(a, TakeReserve) for a in s.legal_actions()))
    human, out = human_for(state, ["r1", "", "r1", "2"])
    assert human.choose(state) == TakeReserve(0, 1)
    assert out.getvalue().count("At which position should reserve card 1") == 2


def test_a_bare_number_inserts_the_drawn_card() -> None:
    state = find_state(lambda s: s.phase == "draw")
    human, out = human_for(state, ["1"])
    assert human.choose(state) == InsertDrawn(0)
    assert "You drew" in out.getvalue()


def test_eof_while_choosing_raises_quit() -> None:
    state = find_state(lambda s: True)
    human, _out = human_for(state, [])
    with pytest.raises(QuitGame):
        human.choose(state)


@pytest.mark.parametrize("name", list_games())
def test_every_registered_game_plays_in_the_terminal(name: str) -> None:
    """The loop is generic: a game with or without its own presenter can be played."""
    game = load_game(name)
    state = game.new_initial_state(3)
    seats = [HUMAN] + ["random"] * (game.players - 1)
    console, out = make_console()
    result = play_session(game_name=name, game=game, seed=3, seats=seats,
                          presenter=load_presenter(name), console=console,
                          read_line=first_legal(game, state), state=state)
    assert result.finished
    assert "Result" in out.getvalue()


def test_presenters_are_registered_for_known_games_only() -> None:
    for name, module in presenter_modules().items():
        assert name in list_games()
        presenter = load_presenter(name)
        assert presenter.game == name and module.startswith("kartentisch.cli.presenters.")
    assert load_presenter("no-such-game") is GENERIC


class TablelessPresenter(KrassKariertPresenter):
    """The Krass Kariert presenter without the table drawing (most of a session's time), for
    tests about events and input rather than the table's looks."""

    def render(self, observation: Any, *, viewer: int | None, names: Sequence[str]
               ) -> RenderableType:
        return Text("")


class SpyPresenter(TablelessPresenter):
    """Records every event the session hands to the presenter."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Event] = []

    def describe_event(self, event: Event, *, viewer: int | None, names: Sequence[str]
                       ) -> str | None:
        self.seen.append(event)
        return super().describe_event(event, viewer=viewer, names=names)


def test_the_human_sees_only_events_redacted_for_their_seat() -> None:
    game = load_game(KK, 4)
    spy = SpyPresenter()
    for seed in range(3):
        state = game.new_initial_state(seed)
        console, _out = make_console()
        play_session(game_name=KK, game=game, seed=seed,
                     seats=["random", HUMAN, "random", "random"], presenter=spy,
                     console=console, read_line=first_legal(game, state), state=state)
    hidden = [e for e in spy.seen if e.kind in ("draw", "insert")]
    assert any(e.seat == 1 for e in hidden) and any(e.seat != 1 for e in hidden)
    for event in spy.seen:
        assert event.private is None
        if event.kind in ("draw", "insert"):
            assert ("card" in event.data) == (event.seat == 1)


def explain(state: KKState, text: str) -> str:
    """The KK presenter's message for ``text`` typed by seat 0 in ``state``."""
    presenter = load_presenter(KK)
    try:
        state.game.parse_action(text, state)
    except KartentischError as error:
        message = presenter.explain_error(error, text, state.observation(0))
        assert message is not None
        return message
    raise AssertionError(f"{text!r} was accepted")


def test_refused_moves_are_explained_from_the_observation() -> None:
    leading = find_state(lambda s: s.phase == "play" and s.act_index == 0)
    n = len(leading.hands[0])
    assert explain(leading, "xyz") == (
        "Cannot read 'xyz'. Moves look like: 4 | 4-6 | 4-5x7 | r1@3 | @3 | concede")
    assert explain(leading, "1-5").endswith("1 to 3 neighbouring positions, e.g. 4 or 4-6.")
    assert explain(leading, "r3@1").endswith("Reserve cards are numbered 1 and 2, e.g. r1@3.")
    assert explain(leading, f"{n + 1}") == (
        f"Not allowed now: {n + 1}. Your hand has only {n} cards.")
    assert explain(leading, "r1@1").endswith("must play cards, not take a reserve card.")
    assert explain(leading, "concede").endswith("Whoever leads a round cannot concede.")
    assert explain(leading, "@1").endswith("There is no drawn card to insert.")
    drawing = find_state(lambda s: s.phase == "draw")
    assert "Insert the drawn card first" in explain(drawing, "1-2")

    def weak_single(s: KKState) -> int | None:
        """A number card in seat 0's hand whose single does not beat the round's best."""
        return next((i for i, c in enumerate(s.hands[0]) if c <= 12 and c <= s.best), None)

    following = find_state(lambda s: s.phase == "play" and s.act_index > 0
                           and len(s.reserves[0]) == 2 and weak_single(s) is not None)
    assert explain(following, "concede").endswith("You still have a reserve card to take.")
    weak = weak_single(following)
    assert weak is not None
    assert " does not beat " in explain(following, str(weak + 1))
    set_language("de")
    assert explain(following, "concede").endswith("Du hast noch eine Reservekarte, die du "
                                                  "nehmen kannst.")
    assert explain(leading, "r1@1").startswith("Jetzt nicht erlaubt: r1@1. Wer eine Runde")


@functools.cache
def ambiguous_state() -> KKState:
    """A state where seat 0 holds an X card whose value must be declared (found once)."""
    return find_state(x_play_is_ambiguous)


@settings(max_examples=400 if os.environ.get("KARTENTISCH_SOAK") == "1" else 20,
          deadline=None)
@given(lines=st.lists(st.one_of(
    st.text(max_size=12),
    st.from_regex(r"(r?[0-9]{1,2}(-[0-9]{1,2})?(x[0-9]{1,2}){0,3}(@[0-9]{1,2})?|@[0-9]{1,2}"
                  r"|concede|\?)", fullmatch=True),
), max_size=8))
def test_no_typed_text_crashes_the_prompt(lines: list[str]) -> None:
    """Whatever is typed, the human either makes a legal move or is asked again."""
    state = ambiguous_state().clone()
    human, _out = human_for(state, lines, TablelessPresenter())
    try:
        action = human.choose(state)
    except QuitGame:
        return
    assert action in state.legal_actions()


def test_the_help_numbers_the_legal_moves_and_takes_a_number() -> None:
    state = find_state(lambda s: s.phase == "play" and len(s.legal_actions()) > 3)
    legal = state.legal_actions()
    human, out = human_for(state, ["?", "3"])
    assert human.choose(state) == legal[2]
    shown = out.getvalue()
    first = state.game.format_action(legal[0])
    assert f"For example now: {first}" in shown
    assert " 1) " + first in shown and " 3) " in shown


def test_the_help_prompt_takes_a_move_or_goes_back() -> None:
    state = find_state(lambda s: s.phase == "play" and len(s.legal_actions()) > 3)
    legal = state.legal_actions()
    typed = state.game.format_action(legal[-1])
    human, _out = human_for(state, ["?", "", "?", "999999", typed])
    assert human.choose(state) == legal[-1]


def test_an_ambiguous_move_offers_numbered_choices() -> None:
    state = find_state(lambda s: True)
    error = AmbiguousActionError("which?", [("1-2", "first"), ("1-3", "second")])
    console, out = make_console()
    typed = iter(["2"])
    human = HumanPlayer(0, state.game, GENERIC, console, lambda _p: next(typed),
                        seat_names(SEATS, 0))
    assert human.resolve(error, state.observation(0)) == "second"
    assert "1) 1-2" in out.getvalue() and "2) 1-3" in out.getvalue()
