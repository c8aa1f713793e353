"""A game night in the real Chromium, two or three people in their own browser contexts:
names on every page, the table talk (never rendered as HTML), a private table the lobby
does not list, the host's links again in a new tab, a bot in an absent person's seat, and
the host closing the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from tests.browser.conftest import Server, save_shot
from tests.browser.play import play_between, play_to_end

VIEW = {"width": 1280, "height": 900}


def create_in_lobby(page: Any, server: Server, name: str, *, seats: list[str],
                    game: str = "krumme20") -> dict[str, Any]:
    """Make a table in the lobby's form as ``name`` (private: the form's default) and
    return what the page shows of it: the table id and the links by seat."""
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.fill("#my-name", name)
    page.check(f"input[name=game][value={game}]")
    page.select_option("#players", str(len(seats)))
    if game == "krumme20":
        page.select_option("#opt-target", "10")
        page.fill("#opt-turn_limit", "8")
        page.dispatch_event("#opt-turn_limit", "change")
    for index, kind in enumerate(seats):
        if index:
            page.select_option(f"#seat-{index}", kind)
    assert page.is_checked("#listed-private")  # a game night's table is private by default
    page.click("#create")
    page.locator(".created input.link").first.wait_for()
    table = page.eval_on_selector(".created", "e => e.dataset.table")
    links = page.eval_on_selector_all(
        ".created li.link-row", "rows => rows.map(r => [r.querySelector('span').textContent,"
        " r.querySelector('input').value])")
    return {"table": table, "links": links}


def people(browser: Any, count: int) -> list[tuple[Any, Any]]:
    contexts = [browser.new_context(viewport=VIEW, locale="en-GB") for _ in range(count)]
    return [(context, context.new_page()) for context in contexts]


def names_by_seat(page: Any) -> list[str]:
    """The names at the seats around the felt, in the order of the seats."""
    names: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('.players li[data-seat]')]"
        ".sort((a, b) => a.dataset.seat - b.dataset.seat)"
        ".map((li) => li.querySelector('.player-name').textContent)")
    return names


def test_names_and_table_talk_at_a_private_table(server: Server, browser: Any,
                                                 shots: Path) -> None:
    (anna_context, anna), (bo_context, bo) = people(browser, 2)
    errors: list[str] = []
    for page in (anna, bo):
        page.on("pageerror", lambda e: errors.append(str(e)))
    made = create_in_lobby(anna, server, "Anna", seats=["human", "human"])
    assert [label for label, _link in made["links"]] == ["Anna", "Seat 1"]
    # a private table is not in the lobby, neither in the list nor for another person
    for route in ("/api/web/lobby", "/api/tables"):
        listed = httpx.get(f"{server.url}{route}").json()["tables"]
        assert made["table"] not in {t["id"] for t in listed}
    with bo.expect_response(lambda r: r.url.endswith("/api/web/lobby")):
        bo.goto(server.url + "/")
    bo.wait_for_selector("#open-tables")
    assert bo.locator(f"#open-tables li[data-table='{made['table']}']").count() == 0
    save_shot(anna, shots, "night-lobby-created")

    anna.locator(".created a.button[data-seat='0']").click()
    anna.wait_for_selector("section.table-view[data-seat='0']")
    assert anna.locator("#seat-name").count() == 0  # her name is known: not asked again
    # Bo opens his link: his first table asks his name, the game does not wait for it
    bo.goto(made["links"][1][1])
    bo.wait_for_selector("section.table-view[data-seat='1']")
    bo.fill("#seat-name-input", "<b>Bo</b>")
    bo.click("#seat-name-ok")
    assert "letters, digits" in bo.inner_text("#seat-name-error")
    bo.fill("#seat-name-input", "  Bo  ")
    bo.click("#seat-name-ok")
    bo.wait_for_selector("#seat-name", state="detached")
    for page in (anna, bo):
        page.wait_for_function(
            "() => [...document.querySelectorAll('.players .player-name')].map(e => e.textContent)"
            ".join('|').includes('Bo')")
    assert names_by_seat(anna) == ["Anna (you)", "Bo"]
    assert names_by_seat(bo) == ["Anna", "Bo (you)"]

    # the table talk: seen by the other, never as HTML
    bo.fill("#chat-input", "<b>x</b> & <i>y</i>")
    bo.click("#chat-send")
    line = anna.locator("#chat-lines li.kind-chat").last
    line.wait_for()
    assert line.inner_text() == "Bo: <b>x</b> & <i>y</i>"
    assert anna.locator("#chat-lines b, #chat-lines i").count() == 0
    anna.click("[data-reaction='wave']")
    bo.locator("#chat-lines li.kind-react").last.wait_for()
    assert bo.locator("#chat-lines li.kind-react").last.inner_text().startswith("Anna: ")
    # muting Bo hides his lines on Anna's page only
    anna.click(".chat .mute summary")
    anna.check("[data-mute='seat:1']")
    assert anna.locator("#chat-lines li.kind-chat").count() == 0
    anna.uncheck("[data-mute='seat:1']")
    assert anna.locator("#chat-lines li.kind-chat").count() == 1
    bo.locator("#chat").scroll_into_view_if_needed()
    save_shot(bo, shots, "night-table-talk", readme=True)
    # Bo changes his name (the form is prefilled); everyone sees the new one
    assert bo.inner_text(".chat-me").startswith("You write as Bo.")
    bo.click("#rename-open")
    assert bo.input_value("#rename-input") == "Bo"
    bo.fill("#rename-input", "Bo B.")
    bo.click("#rename-ok")
    anna.wait_for_function(
        "() => document.querySelector('.players li[data-seat=\"1\"] .player-name')"
        "?.textContent === 'Bo B.'")

    # play to the end: the end screen and the replay name the people
    play_between([anna, bo], "krumme20")
    for page in (anna, bo):
        page.locator("#end").wait_for()
        assert "Anna" in page.inner_text("#end") and "Bo" in page.inner_text("#end")
    table_id = anna.eval_on_selector("#replay-link", "a => a.getAttribute('href')")
    record = httpx.get(f"{server.url}/api/tables/"
                       f"{table_id.split('=')[1].split('&')[0]}/record").json()
    assert record["names"] == ["Anna", "Bo B."] and record["seats"] == ["human", "human"]
    anna.click("#replay-link")
    anna.wait_for_selector(".replay")
    anna.wait_for_function("() => document.querySelector('.replay').textContent.includes('Bo')")
    save_shot(anna, shots, "night-replay-names")
    assert not errors, errors
    anna_context.close()
    bo_context.close()


def test_the_host_shows_links_again_seats_a_bot_and_closes_the_table(
        server: Server, browser: Any, shots: Path) -> None:
    (anna_context, anna), (bo_context, bo) = people(browser, 2)
    errors: list[str] = []
    for page in (anna, bo):
        page.on("pageerror", lambda e: errors.append(str(e)))
    made = create_in_lobby(anna, server, "Anna", seats=["human", "human"])
    bo_link = made["links"][1][1]

    # a new tab of Anna's browser: the lobby knows her table, its host page shows every link
    second = anna_context.new_page()
    second.on("pageerror", lambda e: errors.append(str(e)))
    second.goto(server.url + "/")
    second.locator("#hosted a.button").first.click()
    second.wait_for_selector("#host-panel .host-seat")
    second.wait_for_selector("section.table-view[data-seat='0']")  # her own seat, too
    shown = second.eval_on_selector_all("#host-panel .host-seat input.link",
                                        "els => els.map(e => e.value)")
    assert shown == [link for _label, link in made["links"]]
    second.locator("#host-panel").scroll_into_view_if_needed()
    save_shot(second, shots, "night-host-panel", readme=True)
    anna.close()

    # Bo joins, then goes away; the host lets a bot play for him and the game goes on
    bo.goto(bo_link)
    bo.wait_for_selector("section.table-view[data-seat='1']")
    bo.fill("#seat-name-input", "Bo")
    bo.click("#seat-name-ok")
    second.wait_for_function(
        "() => document.querySelector('#host-panel [data-seat=\"1\"] strong')"
        "?.textContent === 'Bo'")
    bo.goto("about:blank")
    second.wait_for_function(
        "() => document.querySelector('#host-panel [data-seat=\"1\"] .host-seat-status')"
        "?.textContent === 'away'")
    assert second.eval_on_selector("#host-panel [data-seat='1'] select.host-bot",
                                   "e => e.value") == "heuristic"  # the quick bot by default
    second.click("#host-panel [data-seat='1'] button.seat-bot")
    second.wait_for_function(  # the latest notice (the start's came before it)
        "() => [...document.querySelectorAll('#chat-lines li.kind-notice')].at(-1)"
        "?.textContent.startsWith('The host let a bot play for Bo')")
    second.wait_for_function(
        "() => document.querySelector('.players li[data-seat=\"1\"] .player-kind')"
        "?.textContent.includes('bot')")
    moves = play_to_end(second, "krumme20", 0)
    assert moves > 1  # the bot played Bo's turns in between
    second.locator("#end").wait_for()
    assert "Bo" in second.inner_text("#end")
    anna_context.close()
    bo_context.close()
    assert not errors, errors


def test_the_host_closes_the_table_for_everyone(server: Server, browser: Any,
                                                shots: Path) -> None:
    (anna_context, anna), (bo_context, bo), (cy_context, cy) = people(browser, 3)
    made = create_in_lobby(anna, server, "Anna", seats=["human", "human"])
    anna.click("#host-link")
    anna.wait_for_selector("#host-panel .host-seat")
    watch = anna.eval_on_selector("#host-panel .host-watch input.link", "e => e.value")
    bo.goto(made["links"][1][1])
    bo.wait_for_selector("section.table-view[data-seat='1']")
    cy.goto(watch)
    cy.wait_for_selector("section.table-view[data-seat='watch']")
    assert cy.locator("#chat-input").is_disabled()  # watchers do not chat at this table
    # the host removes Bo: his page watches from now on, the host's panel has a new link
    old_link = made["links"][1][1]
    anna.wait_for_selector("#host-panel [data-seat='1'] button.remove")
    anna.click("#host-panel [data-seat='1'] button.remove")
    anna.click("[data-key='remove-1-yes']")
    bo.wait_for_selector("section.table-view[data-seat='watch']")
    bo.locator("#chat-lines li.kind-notice", has_text="removed").wait_for()
    anna.wait_for_function(
        "(old) => { const e = document.querySelector('#host-panel [data-seat=\"1\"] input.link');"
        " return e && e.value !== old; }", arg=old_link)
    anna.click("#close-table")
    anna.click("[data-key='close-yes']")
    for page in (anna, bo, cy):
        page.wait_for_selector("section.table-view[data-status='closed']")
        assert page.inner_text("#end h2") == "The table is closed"
        page.locator("#chat-lines li.kind-notice", has_text="The host closed the table.").wait_for()
        assert page.locator(".moves button.move").count() == 0
    save_shot(bo, shots, "night-table-closed")
    for context in (anna_context, bo_context, cy_context):
        context.close()
