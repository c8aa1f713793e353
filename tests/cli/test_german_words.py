"""German words in the terminal: "ende" and "aufhören" stop a game, Casino's cards are shown
with German rank letters and suit symbols (in events, moves and errors) and are typed in
German letters, with suit symbols or German suit words; no English card code is left in a
German game's output."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from rich.console import Console

from kartentisch.cli.presenters import load_presenter
from kartentisch.cli.presenters.casino import card_text, shown_move, typed_card
from kartentisch.cli.session import HUMAN, play_session
from kartentisch.core.registry import load_game
from kartentisch.locale import _, set_language

CASINO_CODE = re.compile(r"(?<![\w\[])(?:[2-9TJQK][cdhs]|A[cdh])(?!\w)")
"""Casino's English card codes (``Td``, ``Jh``); "As" is left out (an English word)."""


def console() -> tuple[Console, StringIO]:
    out = StringIO()
    return Console(file=out, width=160, highlight=False, color_system=None), out


@pytest.mark.parametrize("word", ["ende", "aufhören", "Ende", "quit"])
def test_german_words_stop_the_game(word: str) -> None:
    set_language("de")
    game = load_game("krass-kariert", 3)
    term, _out = console()
    result = play_session(game_name="krass-kariert", game=game, seed=3,
                          seats=[HUMAN, "random", "random"],
                          presenter=load_presenter("krass-kariert"), console=term,
                          read_line=lambda prompt: word)
    assert not result.finished
    assert "ende" in _("Enter alone shows the table again; quit ends the game.")


@pytest.mark.parametrize(("typed", "notation"), [
    ("B♥", "Jh"), ("D♠", "Qs"), ("K♦", "Kd"), ("A♣", "Ac"), ("10♦", "Td"), ("7♥", "7h"),
    ("10karo", "Td"), ("Dpik", "Qs"), ("BHerz", "Jh"), ("2kreuz", "2c"), ("Bh", "Jh"),
    ("Dd", "Qd"), ("Td", "Td"), ("7h", "7h"), ("ab", "ab"), ("ad", "ad"), ("x", "x"),
    ("8", "8"), ("[8]", "[8]"),
])
def test_cards_typed_in_german_read_as_the_notation(typed: str, notation: str) -> None:
    assert typed_card(typed) == notation


def test_german_shows_cards_with_german_letters_and_suit_symbols() -> None:
    set_language("de")
    assert [card_text(c) for c in ("Td", "Jh", "Qs", "Kc", "Ad", "7h")] == [
        "10♦", "B♥", "D♠", "K♣", "A♦", "7♥"]
    assert shown_move("Jh x ab") == "B♥ x ab"
    assert shown_move("2h + a = 8") == "2♥ + a = 8"
    set_language("en")
    assert card_text("Td") == "Td" and shown_move("Jh x ab") == "Jh x ab"


def test_a_german_casino_game_typed_in_german_shows_no_english_card_code() -> None:
    set_language("de")
    game = load_game("casino", 2)
    state = game.new_initial_state(7)
    typed: list[str] = []
    presenter = load_presenter("casino")
    hand = {str(c) for c in state.to_json()["hands"][0]}
    missing = next(c for c in ("Jh", "Qs", "Td", "Kc", "Ad", "7h", "2s") if c not in hand)
    mistakes = [f"{card_text(missing)} -"]  # a card the player does not hold, typed in German

    def read_line(prompt: str) -> str:
        if mistakes:
            return mistakes.pop()
        observation = state.observation(state.current_player)
        move = presenter.move_label(state.legal_actions()[0], observation, game)
        typed.append(move)
        return move

    term, out = console()
    result = play_session(game_name="casino", game=game, seed=7, seats=[HUMAN, "random"],
                          presenter=presenter, console=term, read_line=read_line, state=state)
    assert result.finished and state.is_terminal()
    assert typed and all(not CASINO_CODE.search(move) for move in typed)
    assert any("♥" in move or "♦" in move or "♣" in move or "♠" in move for move in typed)
    text = out.getvalue()
    assert not CASINO_CODE.search(text), CASINO_CODE.findall(text)[:10]
    # the refusal names the card the German way, as a sentence
    refusal = next(line for line in text.splitlines() if card_text(missing) in line
                   and "Hand" in line)
    assert refusal[0].isupper(), refusal
