"""Krumme20 with the rules option ``compensation=take`` at the table: two people play until
one of them loses a personal card to the other's 1; that player's page then asks them to
take a card like the 1's action (not to draw one), offers the 1's places to take from, and
the other player's page words the step the same way."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.conftest import Server, save_shot
from tests.browser.play import TIMEOUT

from kartentisch.core.registry import load_game
from kartentisch.games.krumme20 import K20State

MAX_MOVES = 80


def moves_to_a_loss(state: K20State) -> list[tuple[int, str]]:
    """The moves from ``state`` until a seat must be compensated for a card taken by a 1:
    on a turn, a card that will count 1 when it is known there is one, else the first
    card; on the 1's step the first card of another player; every other step passes."""
    game = state.game
    moves: list[tuple[int, str]] = []
    while state.phase != "loss":
        assert len(moves) < MAX_MOVES and not state.is_terminal(), "no 1 came up"
        seat = state.current_player
        legal = [game.format_action(a) for a in state.legal_actions()]
        plays = [t for t in legal if re.fullmatch(r"p\d", t)]
        if state.phase == "turn":
            ones = [t for t in plays if state.back[state.hands[seat][int(t[1:]) - 1]] == 1]
            text = (ones or plays)[0]
        elif state.phase == "take":
            text = next(t for t in legal if re.fullmatch(r"take \d:\d", t))
        else:
            text = "pass" if "pass" in legal else legal[0]
        moves.append((seat, text))
        state.apply(game.parse_action(text, state))
    return moves


def test_the_compensation_step_asks_to_take_like_the_one(server: Server, browser: Any,
                                                         shots: Path) -> None:
    answer = server.create("krumme20", [{"kind": "human"}, {"kind": "human"}], players=2,
                           options={"compensation": "take"})
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-GB")
    pages = [context.new_page() for _ in answer["seats"]]
    errors: list[str] = []
    for page, seat in zip(pages, answer["seats"], strict=True):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/" + seat["link"][seat["link"].index("#"):])
        page.wait_for_selector("section.table-view")
    name, players, options, seed, _moves = server.stored(answer["table"])
    state = load_game(name, players, options).new_initial_state(seed)
    assert isinstance(state, K20State)
    for seat, text in moves_to_a_loss(state):
        button = pages[seat].locator(f".moves button.move[data-move='{text}']")
        button.wait_for(state="attached", timeout=TIMEOUT)
        button.dispatch_event("click")
    victim = state.current_player
    page = pages[victim]
    page.locator(".moves button.move[data-move='take discard'], "
                 ".moves button.move[data-move='take draw']").first.wait_for(
        state="attached", timeout=TIMEOUT)
    offered = page.eval_on_selector_all(".moves button.move", "els => els.map(e => e.dataset.move)")
    assert "draw" not in offered and "take draw" in offered and "pass" in offered
    assert any(re.fullmatch(r"take \d:\d", m) for m in offered)  # the other player's cards
    wanted = "compensation for a taken card: take one like the 1's action, or pass"
    assert wanted in page.inner_text(".k20-center .phase")
    other = pages[1 - victim]
    other.wait_for_function("(text) => document.querySelector('.k20-center .phase')"
                            "?.textContent.includes(text)", arg=wanted, timeout=TIMEOUT)
    save_shot(page, shots, "k20-compensation-take")
    assert errors == []
    context.close()
