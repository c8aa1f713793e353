"""Whole games in a real browser: one person and bots, by clicks, for every game; two
people at one table; the end of a game, play again and the replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import Server, save_shot
from tests.browser.look import (
    assert_first_screen,
    axe_violations,
    collect_messages,
    notation_in,
    shown_messages,
)
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


SCREENS = {
    # screen: (viewport, locale)
    "desktop": ({"width": 1280, "height": 900}, "en-GB"),
    "phone": ({"width": 390, "height": 844}, "de-DE"),
}


def try_an_illegal_move(page: Any, game: str) -> None:
    """A click on something not allowed now, when the position has one, so that the game's
    explanation is among the messages shown (checked for notation with the rest)."""
    target = None
    if game == "krass-kariert" and page.locator("#concede.unavailable").count():
        target = "#concede"
    elif game == "krumme20" and not page.locator("button[data-pile='discard'].legal").count():
        target = "button[data-pile='discard']"
    elif game == "casino":
        page.click(".mine button.card >> nth=0")
        loose = page.locator(".casino-table button.card:not(.legal)")
        if page.locator("#try-trail").count():
            target = "#try-trail"
        elif loose.count():
            loose.first.click()
            target = "#try-capture" if page.locator("#try-capture").count() else None
    if target is not None:
        with page.expect_response("**/api/web/explain"):
            page.click(target)
        page.locator("#status .message.error").wait_for(timeout=5_000)
    if page.locator(".controls [data-key='clear']").count():
        page.click(".controls [data-key='clear']")


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_by_clicks_with_bots(game: str, screen: str, server: Server, browser: Any,
                                          shots: Path) -> None:
    """A whole game by clicks, at a desktop's and a phone's size (English and German): the
    hand, what must be beaten and the allowed moves on the first screen, the title on the
    player's turn, no notation in any message, the reveal at the end, axe-core's check of
    the table and the end; at the desktop also the replay and "play again"."""
    players, options = GAMES[game]
    viewport, locale = SCREENS[screen]
    answer = server.create(game, [{"kind": "human"}, *bots(players - 1)], players=players,
                           options=options)
    context = browser.new_context(viewport=viewport, locale=locale)
    context.add_init_script(
        "try { localStorage.setItem('kartentisch.name', 'Ada'); } catch (e) {}")
    collect_messages(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(page) == "turn"
    # the player's name (sent in hello) at the player's seat, at the bottom of the felt
    page.wait_for_function(
        "() => document.querySelector('.seats-me .seat-name')?.textContent.startsWith('Ada')")
    words = "Your turn" if screen == "desktop" else "Du bist dran"
    assert page.title().startswith(f"● {words}"), page.title()
    assert page.locator(".turn.mine").inner_text().startswith(
        "Your turn." if screen == "desktop" else "Du bist am Zug.")
    assert_first_screen(page, f"{game} {screen}, first turn")
    assert not axe_violations(page), axe_violations(page)
    try_an_illegal_move(page, game)
    for _ in range(3):  # a few moves, then the picture for the README
        if wait_my_turn_or_end(page) != "turn":
            break
        play_one(page, game, 0)
    if table_state(page)["status"] != "finished":
        wait_my_turn_or_end(page)
        assert_first_screen(page, f"{game} {screen}, after three moves")
        save_shot(page, shots, f"table-{game}-{screen}", readme=True)
    made = play_to_end(page, game, 0)
    assert made >= 0
    end = page.locator("#end")
    end.wait_for(timeout=10_000)
    assert ("Game over" if screen == "desktop" else "Spielende") in end.inner_text()
    assert page.locator("#end table, #end .summary").count() >= 1
    assert page.locator("#log li").count() > 5
    # the end reveals every card: no card back left on the felt, no stale marker
    assert page.locator(".felt .card.back").count() == 0
    assert page.locator(".felt .seat.out").count() == 0
    assert not page.title().startswith("●")
    assert "sits out" not in page.inner_text(".felt")
    assert not page.locator(".message.foul").count()
    if screen == "desktop":  # the end's markup is the phone's too
        assert not axe_violations(page), axe_violations(page)
    save_shot(page, shots, f"end-{game}-{screen}")
    problems = notation_in(shown_messages(page), game)
    assert not problems, problems
    assert not errors, errors
    if screen == "phone":
        context.close()
        return

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
    assert not axe_violations(page), axe_violations(page)
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
    problems = notation_in(shown_messages(page), game)
    assert not problems, problems

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
