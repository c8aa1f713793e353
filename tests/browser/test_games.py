"""Whole games in a real browser: one person and bots, by clicks, for every game; two
people at one table; the end of a game, play again and the replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import Server, save_shot
from tests.browser.play import (
    play_between,
    play_one,
    play_to_end,
    table_state,
    two_people,
    wait_my_turn_or_end,
)

GAMES = {
    # game: (players, options) small enough for a quick whole game
    "krass-kariert": (3, {}),
    "casino": (2, {}),
    "krumme20": (2, {"target": 10, "turn_limit": 12}),
}


def bots(n: int) -> list[dict[str, Any]]:
    return [{"kind": "bot", "bot": "random"} for _ in range(n)]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_by_clicks_with_bots(game: str, server: Server, browser: Any,
                                          shots: Path) -> None:
    players, options = GAMES[game]
    answer = server.create(game, [{"kind": "human"}, *bots(players - 1)], players=players,
                           options=options)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(page) == "turn"
    assert page.locator(".turn.mine").inner_text().startswith("Your turn.")
    for _ in range(3):  # a few moves, then the picture for the README
        if wait_my_turn_or_end(page) != "turn":
            break
        play_one(page, game, 0)
    if table_state(page)["status"] != "finished":
        wait_my_turn_or_end(page)
        save_shot(page, shots, f"table-{game}", readme=True)
    made = play_to_end(page, game, 0)
    assert made >= 0
    end = page.locator("#end")
    end.wait_for(timeout=10_000)
    assert "Game over" in end.inner_text()
    assert page.locator("#end table, #end .summary").count() >= 1
    assert page.locator("#log li").count() > 5
    save_shot(page, shots, f"end-{game}")
    assert not errors, errors

    # the replay of the finished game, all hands open, steps back and forth
    page.click("#replay-link")
    page.wait_for_selector("#step-text")
    last = page.locator("#step-text").inner_text()
    page.click("#first")
    assert page.locator("#step-text").inner_text().startswith("Position 0 of")
    page.click("#forward")
    page.click("#forward")
    assert page.locator("#step-text").inner_text().startswith("Position 2 of")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#step-text").inner_text().startswith("Position 1 of")
    page.click("#last")
    assert page.locator("#step-text").inner_text() == last
    if game == "krass-kariert":  # all hands open: no card back anywhere
        page.select_option("#replay-view", "all")
        page.wait_for_selector("section.replay[data-view='all']")
        page.click("#first")
        assert page.locator(".opponent .card.back").count() == 0
        assert page.locator(".opponent .card").count() > 20
    page.select_option("#replay-view", "1")
    page.wait_for_selector("section.replay[data-view='1']")
    save_shot(page, shots, f"replay-{game}")

    # play again: a new table with the same seats, this page sits down at it
    page.go_back()  # the view switch replaced the history entry: one step back
    page.wait_for_selector("#play-again", timeout=10_000)
    old = page.url
    finished = page.get_attribute("section.table-view", "data-table")
    page.click("#play-again")  # the rematch: this page goes to its seat at the new table
    page.wait_for_function("(old) => location.href !== old", arg=old)
    page.wait_for_function(
        "(old) => { const s = document.querySelector('section.table-view');"
        " return s && s.dataset.table !== old; }", arg=finished)
    assert wait_my_turn_or_end(page) in ("turn", "finished")
    assert table_state(page)["status"] == "playing" or game == "krumme20"
    assert not errors, errors
    context.close()


def test_two_people_play_each_other(server: Server, browser: Any, shots: Path) -> None:
    """Two browser contexts, one seat each, take turns until the game is over."""
    answer = server.create("krumme20", [{"kind": "human"}, {"kind": "human"}], players=2,
                           options={"target": 10, "turn_limit": 8})
    pages = two_people(browser, answer)
    moves = play_between(pages, "krumme20")
    assert moves > 4
    for page in pages:
        page.locator("#end").wait_for(timeout=10_000)
    assert "Spielende" in pages[1].locator("#end").inner_text()
    assert "Game over" in pages[0].locator("#end").inner_text()
    save_shot(pages[1], shots, "two-people-end")
    for page in pages:
        page.context.close()
