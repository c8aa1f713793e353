"""The game night's flow in the browser (issue 25): connection state that tells the truth,
two tabs on one seat, a link that is not valid, the stand-in's confirmation, the start of a
table, the fair clock, and a rematch accepted by every person from their own page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import Server, ServerProcess, save_shot
from tests.browser.play import TIMEOUT, table_state, wait_my_turn_or_end

CASINO_VS_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


def moved_past(page: Any, move: str) -> None:
    """Wait until the page shows a move number other than ``move``."""
    page.wait_for_function(
        "(b) => document.querySelector('section.table-view')?.dataset.move !== b",
        arg=move, timeout=TIMEOUT)


def test_reconnect_after_a_restart_sends_the_kept_click_and_the_warning_goes(
        server: Server, server_process: ServerProcess, browser: Any, shots: Path) -> None:
    answer = server.create("casino", CASINO_VS_BOT, players=2)
    page = browser.new_context().new_page()
    page.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(page) == "turn"
    before = table_state(page)["move"]
    port = int(server.url.rsplit(":", 1)[1])
    server_process.kill()
    warning = page.locator("#connection")
    warning.wait_for(timeout=TIMEOUT)
    assert "The connection was lost" in warning.inner_text()
    # a click while the server is down: kept, and the page says so
    page.locator(".moves button.move").first.dispatch_event("click")
    assert "will be sent when the connection is back" in warning.inner_text()
    save_shot(page, shots, "flow-connection-lost")
    server.url = server_process.start(port).url
    # the page reconnects by itself, gets the whole view, and sends the kept move
    moved_past(page, before)
    warning.wait_for(state="detached", timeout=TIMEOUT)
    stored = server.stored(answer["table"])[4]
    assert len(stored) > int(before), "the kept move was not played"
    assert page.locator("#connection").count() == 0
    page.context.close()


def test_a_second_tab_on_one_seat_chooses_to_take_over_or_keep_watching(
        server: Server, browser: Any, shots: Path) -> None:
    answer = server.create("casino", CASINO_VS_BOT, players=2)
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    first.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(first) == "turn"
    second.goto(answer["seats"][0]["link"])
    choice = second.locator("#other-tab")
    choice.wait_for(timeout=TIMEOUT)
    assert "This seat is open in another tab" in choice.inner_text()
    assert second.locator(".moves button.move").count() == 0  # it only watches
    assert first.locator("#other-tab").count() == 0
    save_shot(second, shots, "flow-second-tab")
    second.click("#keep-watching")
    assert "played in another tab" in second.locator("#other-tab.kept").inner_text()
    second.click("#take-over")
    second.locator("#other-tab").wait_for(state="detached", timeout=TIMEOUT)
    assert wait_my_turn_or_end(second) == "turn"
    # the first tab is told, in words, and now only watches
    first.locator("#other-tab").wait_for(timeout=TIMEOUT)
    assert "now played in another tab" in first.inner_text("#status")
    assert first.locator(".moves button.move").count() == 0
    # closing the playing tab hands the seat back to the one left open
    second.close()
    first.locator("#other-tab").wait_for(state="detached", timeout=TIMEOUT)
    assert wait_my_turn_or_end(first) == "turn"
    context.close()


def test_a_bad_link_says_so_and_offers_the_lobby(server: Server, browser: Any,
                                                  shots: Path) -> None:
    page = browser.new_context().new_page()
    page.goto(server.url + "/#seat=notatoken")
    box = page.locator("#unknown-link")
    box.wait_for(timeout=TIMEOUT)
    assert "This link is unknown or no longer valid" in box.inner_text()
    assert "session." not in page.inner_text("body")
    save_shot(page, shots, "flow-unknown-link")
    page.click("#to-lobby")
    page.locator("#unknown-link").wait_for(state="detached", timeout=TIMEOUT)
    assert "#seat" not in page.url
    page.context.close()


def test_the_stand_in_asks_first_plays_calmly_and_the_seat_comes_back(
        server: Server, browser: Any, shots: Path) -> None:
    answer = server.create("casino", CASINO_VS_BOT, players=2)
    page = browser.new_context().new_page()
    page.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(page) == "turn"
    before = table_state(page)["move"]
    page.click("#leave")
    dialog = page.locator("#stand-in-dialog")
    dialog.wait_for(timeout=TIMEOUT)
    assert "Let a bot play for you?" in dialog.inner_text()
    page.click("#stand-in-no")  # changed one's mind: nothing happens
    dialog.wait_for(state="detached", timeout=TIMEOUT)
    assert page.locator("#stand-in").count() == 0
    assert table_state(page)["move"] == before
    page.click("#leave")
    page.click("#stand-in-yes")
    banner = page.locator("#stand-in")
    banner.wait_for(timeout=TIMEOUT)
    assert "A stand-in bot is playing your seat." in banner.inner_text()
    save_shot(page, shots, "flow-stand-in")
    moved_past(page, before)  # the stand-in made this seat's move, after its pause
    banner.locator("#take-seat").click()
    banner.wait_for(state="detached", timeout=TIMEOUT)
    assert wait_my_turn_or_end(page) == "turn"
    assert page.locator("#leave").count() == 1
    page.context.close()
