"""The game night's flow in the browser (issue 25): connection state that tells the truth,
two tabs on one seat, a link that is not valid, the stand-in's confirmation, the start of a
table, the fair clock, and a rematch accepted by every person from their own page."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.browser.conftest import Server, ServerProcess, save_shot
from tests.browser.play import (
    TIMEOUT,
    play_between,
    table_state,
    two_people,
    wait_my_turn_or_end,
)

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


def test_the_clock_waits_for_the_players_and_its_expiry_is_shown_to_both(
        server: Server, browser: Any, shots: Path) -> None:
    # Casino: seat 1 (left of the dealer) plays first
    answer = server.create("casino", [{"kind": "human"}, {"kind": "human"}], players=2,
                           clock=3)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    first = context.new_page()
    first.goto(answer["seats"][0]["link"])
    waiting = first.locator("#waiting")
    waiting.wait_for(timeout=TIMEOUT)
    assert "Seat 1" in waiting.locator(".awaited").inner_text()
    assert "The clock starts when the game starts." in first.inner_text("#clock")
    first.wait_for_timeout(4000)  # longer than the clock: nothing may have happened
    assert table_state(first)["move"] == "0"
    assert first.locator("#clock.urgent").count() == 0
    save_shot(first, shots, "flow-waiting", readme=True)
    second_context = browser.new_context(viewport={"width": 1100, "height": 900},
                                         locale="de-DE")
    second = second_context.new_page()
    second.goto(answer["seats"][1]["link"])
    waiting.wait_for(state="detached", timeout=TIMEOUT)
    # the last seconds are urgent: red, and said to the player to move
    second.locator("#clock.urgent").wait_for(timeout=TIMEOUT)
    second.wait_for_function(
        "() => document.querySelector('#clock-alert')?.textContent.includes('Sekunden')",
        timeout=TIMEOUT)
    moved_past(second, "0")
    notice = second.locator("#clock-expired")
    notice.wait_for(timeout=TIMEOUT)
    assert "Deine Zeit ist abgelaufen" in notice.inner_text()
    first.wait_for_function(
        "() => [...document.querySelectorAll('#log li.ev-clock')]"
        ".some((li) => li.textContent.includes('time ran out'))", timeout=TIMEOUT)
    # the table talk counts the move as players do (the protocol's move 0 is the first)
    first.locator("#chat-lines li.kind-notice", has_text="played move 1 for them").wait_for(
        timeout=TIMEOUT)
    assert "Zug 0" not in second.inner_text("#chat-lines")
    save_shot(second, shots, "flow-clock-expired", readme=True)
    # the notice stays until its player acts: it is still there after the next move
    moved_past(second, "1")
    assert second.locator("#clock-expired").count() == 1
    context.close()
    second_context.close()


def test_a_rematch_accepted_by_both_players_starts_and_the_series_is_tallied(
        server: Server, browser: Any, shots: Path) -> None:
    answer = server.create("krumme20", [{"kind": "human"}, {"kind": "human"}], players=2,
                           options={"target": 10, "turn_limit": 8})
    pages = two_people(browser, answer)
    assert play_between(pages, "krumme20") > 2
    old = pages[0].url
    pages[0].click("#play-again")
    pages[0].wait_for_function("(old) => location.href !== old", arg=old)
    pages[0].locator("#waiting").wait_for(timeout=TIMEOUT)
    # the other player is offered the rematch on their own page
    offer = pages[1].locator("#rematch-offer")
    offer.wait_for(timeout=TIMEOUT)
    assert pages[1].locator("#accept-rematch").count() == 1
    offer.scroll_into_view_if_needed()
    save_shot(pages[1], shots, "flow-rematch-offer", readme=True)
    pages[1].click("#accept-rematch")
    for page in pages:  # both are at the new table, and it has started
        page.wait_for_function(
            "(old) => { const s = document.querySelector('section.table-view');"
            " return s && s.dataset.table !== old && s.dataset.status === 'playing'"
            " && !document.querySelector('#waiting'); }",
            arg=answer["table"], timeout=TIMEOUT)
    assert play_between(pages, "krumme20") > 2
    tally = pages[0].locator("#series table")
    tally.wait_for(timeout=TIMEOUT)
    assert "2" in pages[0].locator("#series h3").inner_text()
    assert pages[0].locator("#series td.wins").count() == 2
    save_shot(pages[0], shots, "flow-series")
    for page in pages:
        page.context.close()


def test_the_host_starts_the_table_before_everyone_has_come(server: Server, browser: Any,
                                                           shots: Path) -> None:
    # Casino: seat 1 plays first; seat 0's person does not come
    answer = server.create("casino", [{"kind": "human"}, {"kind": "human"}], players=2)
    player = browser.new_context().new_page()
    player.goto(answer["seats"][1]["link"])
    waiting = player.locator("#waiting")
    waiting.wait_for(timeout=TIMEOUT)
    assert "Seat 0" in waiting.locator(".awaited").inner_text()
    assert "The host can also start the game now." in waiting.inner_text()
    assert player.locator("#start-now").count() == 0
    assert player.locator(".moves button.move").count() == 0  # nobody moves yet
    host = browser.new_context().new_page()
    host.goto(answer["host"]["link"])
    host.locator("#start-now").wait_for(timeout=TIMEOUT)
    save_shot(host, shots, "flow-host-start")
    host.click("#start-now")
    waiting.wait_for(state="detached", timeout=TIMEOUT)
    assert wait_my_turn_or_end(player) == "turn"
    host.locator("#waiting").wait_for(state="detached", timeout=TIMEOUT)
    player.context.close()
    host.context.close()


def test_a_click_kept_while_the_table_went_on_is_refused_in_words(server: Server,
                                                                  browser: Any) -> None:
    """The page loses its connection (the test cuts it and holds new ones back), the player
    clicks a move, the clock plays that turn meanwhile; after the reconnect the kept click
    is not sent but refused in words, and the warning is gone."""
    answer = server.create("casino", CASINO_VS_BOT, players=2, clock=4)
    page = browser.new_context().new_page()
    cut: dict[str, Any] = {"hold": False, "open": []}

    def route(socket: Any) -> None:
        if cut["hold"]:
            socket.close()  # no server for now: the page sees the connection end
            return
        socket.connect_to_server()
        cut["open"].append(socket)

    page.route_web_socket("**/ws", route)
    page.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(page) == "turn"
    before = table_state(page)["move"]
    cut["hold"] = True
    for socket in cut["open"]:
        socket.close()
    page.locator("#connection").wait_for(timeout=TIMEOUT)
    page.locator(".moves button.move").first.dispatch_event("click")
    assert "will be sent when the connection is back" in page.inner_text("#connection")
    deadline = time.monotonic() + 30  # the clock plays this turn while the page is away
    while len(server.stored(answer["table"])[4]) <= int(before):
        assert time.monotonic() < deadline, "the clock did not play"
        time.sleep(0.1)
    cut["hold"] = False
    page.locator("#connection").wait_for(state="detached", timeout=TIMEOUT)
    page.wait_for_function(
        "() => document.querySelector('#status')?.textContent.includes('was not sent')",
        timeout=TIMEOUT)
    assert "the game went on while the connection was lost" in page.inner_text("#status")
    page.context.close()
