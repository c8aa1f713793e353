"""The lobby as players use it: a table made in the form with a time per move and a seat
open to anyone; somebody else sees it in the list of open tables, takes the seat (the
seat's link comes to their page alone) and both play the game to its end; the language
switch relabels lobby and table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from tests.browser.conftest import Server, save_shot
from tests.browser.play import play_between


def catalogue(server: Server, language: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/web/catalogue",
                                     params={"lang": language}).json()
    return data


def test_take_a_free_seat_from_the_lobby_and_play(server: Server, browser: Any,
                                                  shots: Path) -> None:
    german = catalogue(server, "de")["messages"]
    host_context = browser.new_context(viewport={"width": 1280, "height": 900},
                                       locale="en-GB")
    host = host_context.new_page()
    errors: list[str] = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(server.url + "/")
    host.wait_for_selector("#create")
    host.fill("#my-name", "Hanna")
    host.check("input[name=game][value=krumme20]")
    host.select_option("#players", "2")
    host.select_option("#opt-target", "10")
    host.fill("#opt-turn_limit", "8")
    host.dispatch_event("#opt-turn_limit", "change")
    host.select_option("#clock-limit", "300")
    host.select_option("#seat-1", "human")
    host.check("#listed-open")  # a seat open to anyone needs a table listed in the lobby
    host.check("#open-1")
    host.click("#create")
    host.locator(".created").wait_for()
    assert host.locator(".created input.link").count() == 1  # seat 0 only: seat 1 is open
    assert host.locator(".created .open-seat[data-seat='1']").count() == 1
    assert "#seat=" not in host.inner_text(".created .open-seat")
    host.locator(".created a.button[data-seat='0']").click()
    host.wait_for_selector("section.table-view")
    listed = httpx.get(f"{server.url}/api/web/lobby").json()["tables"]
    mine = [t for t in listed if t["open_seats"] == [1] and t["game"] == "krumme20"]
    assert mine, "the new table is not listed with its open seat"
    table = mine[0]["id"]

    guest_context = browser.new_context(viewport={"width": 1280, "height": 900},
                                        locale="en-GB")
    guest = guest_context.new_page()
    guest.on("pageerror", lambda e: errors.append(str(e)))
    guest.goto(server.url + "/")
    row = guest.locator(f"#open-tables li[data-table='{table}']")
    row.wait_for()
    assert "free seat" in row.inner_text()
    assert "Hanna" in row.inner_text()  # the open table names its host
    # the language switch relabels the lobby at once
    guest.select_option("#language", "de")
    guest.wait_for_function(  # the German catalogue arrives, then the lobby is relabelled
        "(text) => document.querySelector('button.take-seat')?.textContent === text",
        arg=german["Take a seat"])
    save_shot(guest, shots, "lobby-open-tables")
    row.locator("button.take-seat").click()
    guest.wait_for_selector("section.table-view[data-seat='1']")
    assert "#seat=" in guest.url
    # the seat is taken: no longer open in the list, and a second claim is refused
    listed = httpx.get(f"{server.url}/api/web/lobby").json()["tables"]
    assert [t["open_seats"] for t in listed if t["id"] == table] == [[]]
    refused = httpx.post(f"{server.url}/api/web/tables/{table}/claim", json={})
    assert refused.status_code == 409 and refused.json()["code"] == "web.no_open_seat"
    host.wait_for_function(
        "() => [...document.querySelectorAll('.players li .player-kind')]"
        ".every(e => e.textContent === 'person (here)')")

    # the turn clock is visible to both; the switch also relabels the table
    for page in (host, guest):
        assert re.search(r"\d+", page.inner_text("#clock")), page.inner_text("#clock")
    assert guest.locator(".log h2").inner_text() == german["Log"]
    guest.select_option("#language", "en")
    guest.wait_for_function("() => document.querySelector('.log h2').textContent === 'Log'")
    guest.select_option("#language", "de")
    moves = play_between([host, guest], "krumme20")
    assert moves > 2
    for page in (host, guest):
        page.locator("#end").wait_for(timeout=10_000)
    assert german["Game over"] in guest.inner_text("#end")
    assert "Game over" in host.inner_text("#end")
    assert not errors, errors
    host_context.close()
    guest_context.close()
