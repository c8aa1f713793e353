"""The review in the real Chromium: two people finish a game, each opens the replay and asks
for "Review my game"; the graph, the marked moves and the position with the bot's suggestion
appear in the reader's language, and a watcher's replay offers no review.

The server is this module's own process with the fast review budget
(``KARTENTISCH_REVIEW_BUDGET=fast``), so a review takes seconds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import Server, ServerProcess, save_shot
from tests.browser.play import play_between


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    process = ServerProcess(tmp_path_factory.mktemp("review-server"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KARTENTISCH_REVIEW_BUDGET", "fast")
        server = process.start()
    try:
        yield server
    finally:
        process.stop()


def test_review_my_game_in_the_replay(review_server: Server, browser: Any, shots: Path) -> None:
    answer = review_server.create("krumme20", [{"kind": "human"}, {"kind": "human"}],
                                  players=2, options={"target": 10, "turn_limit": 20})
    pages = []
    errors: list[str] = []
    for seat, locale in ((0, "en-GB"), (1, "de-DE")):
        context = browser.new_context(viewport={"width": 1100, "height": 1000}, locale=locale)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(answer["seats"][seat]["link"])
        page.wait_for_selector("section.table-view")
        pages.append(page)
    assert play_between(pages, "krumme20") > 4
    for seat, page in enumerate(pages):
        page.locator("#end").wait_for(timeout=10_000)
        assert page.locator("#replay-link").get_attribute("href") == (
            f"#replay={answer['table']}&view={seat}")
        # (the same place the link leads to, reached without a race with the table's
        # last messages)
        page.goto(f"{review_server.url}/#replay={answer['table']}&view={seat}")
        page.wait_for_selector("#step-text")

    # Each person asks for the review of their own seat, in their own language.
    reviews = []
    for page, word in zip(pages, ("reviewed", "bewertet"), strict=True):
        page.click("#review-button")
        page.wait_for_selector("#review-summary", timeout=120_000)
        summary = page.locator("#review-summary").inner_text()
        assert word in summary, summary
        reviews.append(page.locator("#review-graph circle.dot").count())
    english, german = pages
    assert german.locator("#review h2").inner_text() == "Analyse"
    assert english.locator("#review h2").inner_text() == "Review"
    save_shot(english, shots, "review-krumme20")
    save_shot(german, shots, "review-krumme20-de")
    # A seat whose moves were all forced or obvious has nothing to plot; the game's other
    # seat, which showed sets, has (the helper plays the sets at random).
    assert max(reviews) >= 1, reviews
    for page, dots in zip(pages, reviews, strict=True):
        if not dots:
            assert page.locator("#review-empty").count() == 1
            continue
        # Stepping to a reviewed position shows the move played and the bot's view of it.
        dot = page.locator("#review-graph circle.dot").first
        move = int(dot.get_attribute("data-move") or "0")
        dot.dispatch_event("click")
        step = page.locator("#step-text").inner_text()
        assert re.match(rf"(Position|Stellung) {move - 1} ", step), (move, step)
        here = page.locator("#review-here").inner_text()
        assert re.search(r"You played|Du hast", here), here
        marks = page.locator("#review-marks button")
        if marks.count():
            marked = int(marks.first.get_attribute("data-move") or "0")
            marks.first.click()
            step = page.locator("#step-text").inner_text()
            assert re.match(rf"(Position|Stellung) {marked - 1} ", step), (marked, step)
            assert re.search(r"The bot suggests|Der Bot schlägt",
                             page.locator("#review-here").inner_text())
    save_shot(english, shots, "review-krumme20-stepped")

    # Someone without a seat at the table (opening its replay) has no review to offer.
    watcher = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    watcher.goto(f"{review_server.url}/#replay={answer['table']}&view=all")
    watcher.wait_for_selector("#step-text")
    assert watcher.locator("#review-button").count() == 0
    assert not errors, errors
    for page in (*pages, watcher):
        page.context.close()
