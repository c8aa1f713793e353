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

    # the replay of the finished game starts at the beginning, steps back and forth
    page.click("#replay-link")
    page.wait_for_selector("#step-text")
    assert page.locator("#step-text").inner_text().startswith("Position 0 of")
    assert page.locator("#first").is_disabled() and page.locator("#back").is_disabled()
    page.click("#forward")
    page.click("#forward")
    assert page.locator("#step-text").inner_text().startswith("Position 2 of")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#step-text").inner_text().startswith("Position 1 of")
    page.keyboard.press("End")
    last = page.locator("#step-text").inner_text()
    count = last.rsplit(" ", 1)[1]
    assert last == f"Position {count} of {count}"
    assert page.locator("#last").is_disabled()
    page.click("#first")
    page.keyboard.press("End")
    assert page.locator("#step-text").inner_text() == last
    if game == "krass-kariert":  # all hands open: no card back anywhere
        page.select_option("#replay-view", "all")
        page.wait_for_selector("section.replay[data-view='all']")
        page.click("#first")
        assert page.locator(".felt .card.back").count() == 0
        assert page.locator(".felt .seat .card").count() > 20
    page.select_option("#replay-view", "1")
    page.wait_for_selector("section.replay[data-view='1']")
    save_shot(page, shots, f"replay-{game}")

    # play again: a new table with the same seats, this page sits down at it
    page.go_back()  # the view switch replaced the history entry: one step back
    page.wait_for_selector("#play-again", timeout=10_000)
    old = page.url
    page.click("#play-again")
    page.wait_for_function("(old) => location.href !== old", arg=old)
    assert wait_my_turn_or_end(page) in ("turn", "finished")
    assert table_state(page)["status"] == "playing" or game == "krumme20"
    assert not errors, errors
    context.close()


def test_two_people_play_each_other(server: Server, browser: Any, shots: Path) -> None:
    """Two browser contexts, one seat each, take turns until the game is over."""
    answer = server.create("krumme20", [{"kind": "human"}, {"kind": "human"}], players=2,
                           options={"target": 10, "turn_limit": 8})
    pages = []
    for seat in (0, 1):
        context = browser.new_context(viewport={"width": 1100, "height": 900},
                                      locale="de-DE" if seat else "en-GB")
        page = context.new_page()
        page.goto(answer["seats"][seat]["link"])
        page.wait_for_selector("section.table-view")
        pages.append(page)
    moves = play_between(pages, "krumme20")
    assert moves > 4
    for page in pages:
        page.locator("#end").wait_for(timeout=10_000)
    assert "Spielende" in pages[1].locator("#end").inner_text()
    assert "Game over" in pages[0].locator("#end").inner_text()
    save_shot(pages[1], shots, "two-people-end")
    for page in pages:
        page.context.close()
