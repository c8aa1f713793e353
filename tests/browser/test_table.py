"""The table page's promises: reloading mid-game, watchers see no hidden card, illegal
clicks explained in German and English, hints, the lobby and a phone-sized screen."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
from tests.browser.conftest import Server, ServerProcess, restart, save_shot
from tests.browser.play import play_one, table_state, wait_my_turn_or_end

from kartentisch.core.registry import load_game


def hidden_casino_cards(server: Server, table_id: str, seat: int) -> set[str]:
    """The cards nobody but their holder may know: every hand but ``seat``'s, and the pack."""
    name, players, options, seed, moves = server.stored(table_id)
    game = load_game(name, players, options)
    state = game.new_initial_state(seed)
    for aid in moves:
        state.apply_id(aid)
    full = state.to_json()
    hidden = set(full["pack_cards"])
    for other, hand in enumerate(full["hands"]):
        if other != seat:
            hidden.update(hand)
    return hidden


def test_reload_mid_game_and_a_watcher_sees_no_hidden_card(server: Server, browser: Any,
                                                           shots: Path) -> None:
    answer = server.create("casino", [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                           players=2)
    player = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watcher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    frames: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(
        f if isinstance(f, str) else f.decode())))
    watcher.goto(answer["watch"]["link"])
    player.goto(answer["seats"][0]["link"])
    for _ in range(4):
        assert wait_my_turn_or_end(player) == "turn"
        play_one(player, "casino", 0)
    player.reload()
    assert wait_my_turn_or_end(player) == "turn"
    before = table_state(player)["move"]
    play_one(player, "casino", 0)
    assert int(table_state(player)["move"]) > int(before)
    assert wait_my_turn_or_end(player) == "turn"
    move = table_state(player)["move"]
    watcher.wait_for_function(
        "(m) => document.querySelector('section.table-view')?.dataset.move === m", arg=move)
    assert "You are watching." in watcher.inner_text("body")
    hidden = hidden_casino_cards(server, answer["table"], 0)
    assert len(hidden) > 10
    # every card the page shows carries its name in data-card / data-item and a label
    shown = set(watcher.eval_on_selector_all(
        "[data-card], [data-item]", "els => els.map(e => e.dataset.card || e.dataset.item)"))
    labels = " ".join(watcher.eval_on_selector_all(
        ".card .sr-only", "els => els.map(e => e.textContent)"))
    received = "\n".join(frames)
    assert frames and '"type":"update"' in received.replace(" ", "")
    assert shown, "the watcher's page shows no card at all"
    for card in hidden:
        assert card not in shown, f"hidden card {card} in the watcher's page"
        words = card.replace("T", "10", 1) if card.startswith("T") else card
        assert not re.search(rf"(?<![\w]){re.escape(words)}(?![\w])", labels), card
        assert f'"{card}"' not in received, f"hidden card {card} sent to the watcher"
    assert watcher.locator(".opponent .card.back").count() >= 2
    save_shot(watcher, shots, "watcher-casino")
    player.context.close()
    watcher.context.close()


MOVE_WORDS = {"concede": "give up the deal"}
"""Krass Kariert's moves that the test clicks, as the page writes them in a message."""


def expected_text(server: Server, language: str, error: dict[str, Any]) -> str:
    """An error in ``language`` from the served catalogue, as the page must show it: the
    move in words, never in notation, and the message as a sentence."""
    catalogue = httpx.get(f"{server.url}/api/web/catalogue", params={"lang": language}).json()
    template = catalogue["reasons"][error["code"]]
    text: str = catalogue["messages"].get(template, template)
    for name, value in error["params"].items():
        if name == "action":
            value = catalogue["messages"].get(MOVE_WORDS[value], MOVE_WORDS[value])
        text = text.replace("{" + name + "}", str(value))
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def test_an_illegal_click_is_explained_in_german_and_english(server: Server,
                                                             browser: Any) -> None:
    answer = server.create("krass-kariert", [{"kind": "human"},
                                             {"kind": "bot", "bot": "random"},
                                             {"kind": "bot", "bot": "random"}], players=3)
    shown = {}
    for language, locale in (("de", "de-DE"), ("en", "en-US")):
        page = browser.new_context(locale=locale).new_page()
        page.goto(answer["seats"][0]["link"])
        assert wait_my_turn_or_end(page) == "turn"
        move = table_state(page)["move"]
        with page.expect_response("**/api/web/explain") as reply:
            page.click("#concede")  # the leader, or a follower with reserves, may not
        error = reply.value.json()
        assert error["type"] == "error" and error["code"].startswith("kk.")
        text = page.locator("#status .message.error").inner_text()
        assert text == expected_text(server, language, error)
        assert table_state(page)["move"] == move  # nothing was played
        shown[language] = text
        page.context.close()
    assert shown["de"] != shown["en"]
    assert shown["de"].startswith("Nicht erlaubt") or "Ausspiel" in shown["de"] or shown["de"]
    assert shown["en"].startswith("Not allowed now")
    assert all("concede" not in text for text in shown.values())


def test_hints_and_hints_switched_off(server: Server, browser: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    answer = server.create("casino", seats, players=2)
    page = browser.new_context().new_page()
    page.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(page) == "turn"
    page.click("#hint")
    result = page.locator(".hint-result")
    result.wait_for(timeout=15_000)
    assert re.search(r"\d+ %", result.inner_text())
    # the suggested card is outlined in the hand; the estimate sits right below the hand
    hinted = page.locator(".mine .hand button.card.hinted")
    assert hinted.count() == 1
    card_words = hinted.locator(".sr-only").inner_text().removeprefix("your card ")
    assert card_words in result.inner_text()  # the hint names that card in words
    assert page.locator(".felt .bottom .hint-result").count() == 1
    before = table_state(page)["move"]
    result.locator("button").click()
    page.wait_for_function(
        "(b) => document.querySelector('section.table-view').dataset.move !== b", arg=before)
    off = server.create("casino", seats, players=2, hints=False)
    page.goto(off["seats"][0]["link"])
    page.wait_for_selector(f"section.table-view[data-table='{off['table']}']")  # the new one
    assert wait_my_turn_or_end(page) == "turn"
    assert page.locator("#hint").count() == 0
    refused = httpx.post(f"{server.url}/api/web/hint", json={"token": off["seats"][0]["token"]})
    assert refused.json()["code"] == "web.hints_off"
    page.context.close()


def test_hints_stay_off_after_a_restart(server: Server, server_process: ServerProcess,
                                        browser: Any) -> None:
    """The switch is stored with the table: after a SIGKILL and a new server process on the
    same database the page still offers no hint button, and the server refuses hints."""
    off = server.create("casino", [{"kind": "human"}, {"kind": "human"}], players=2,
                        hints=False)
    restart(server_process, server)
    context = browser.new_context()
    pages = [context.new_page() for _ in off["seats"]]
    for page, seat in zip(pages, off["seats"], strict=True):
        page.goto(server.url + "/" + seat["link"][seat["link"].index("#"):])
        page.wait_for_selector("section.table-view")
    seat = int(pages[0].get_attribute(".players li.to-move", "data-seat") or "")
    turn = pages[seat]
    assert wait_my_turn_or_end(turn) == "turn"
    assert turn.locator(".moves button.move").count() > 0
    assert turn.locator("#hint").count() == 0
    for each in off["seats"]:
        refused = httpx.post(f"{server.url}/api/web/hint", json={"token": each["token"]})
        assert refused.status_code == 403 and refused.json()["code"] == "web.hints_off"
    context.close()


def test_lobby_creates_a_table_with_links_on_a_phone(server: Server, browser: Any,
                                                     shots: Path) -> None:
    """The lobby on a 390 px portrait screen: options explained, seats chosen, links shown,
    then the table fits the width and is played by taps."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.fill("#my-name", "Jana")
    page.check("input[name=game][value=krumme20]")
    assert page.locator(".option .help").count() >= 8  # one line for every rules option
    assert "Der Punktestand" in page.inner_text("body") or page.locator(".option").count() >= 8
    page.select_option("#players", "2")
    page.select_option("#seat-1", "human")
    page.click("#create")
    links = page.locator(".created input.link")
    links.first.wait_for()
    assert links.count() == 2
    first = links.nth(0).input_value()
    assert "#seat=" in first
    save_shot(page, shots, "lobby-phone")
    page.locator(".created a.button").first.click()
    page.wait_for_selector("section.table-view")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    save_shot(page, shots, "table-phone-krumme20")
    context.close()


def test_phone_casino_by_taps(server: Server, browser: Any, shots: Path) -> None:
    answer = server.create("casino", [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                           players=2)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(answer["seats"][0]["link"])
    for _ in range(3):
        assert wait_my_turn_or_end(page) == "turn"
        play_one(page, "casino", 0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    save_shot(page, shots, "table-phone-casino")
    context.close()


def test_keyboard_play(server: Server, browser: Any) -> None:
    """Cards are buttons: Tab reaches them, Enter selects and plays."""
    answer = server.create("krass-kariert", [{"kind": "human"},
                                             {"kind": "bot", "bot": "random"},
                                             {"kind": "bot", "bot": "random"}], players=3)
    page = browser.new_context().new_page()
    page.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(page) == "turn"
    before = table_state(page)["move"]
    moves = json.loads(page.evaluate(
        "JSON.stringify([...document.querySelectorAll('.moves button.move')]"
        ".map(b => b.dataset.move))"))
    if "concede" in moves or not any(re.fullmatch(r"\d+", m) for m in moves):
        if "concede" in moves:
            page.focus("#concede")
        else:  # open "All allowed moves" with the keyboard, then take the first
            page.focus(".moves summary")
            page.keyboard.press("Enter")
            page.focus(".moves button.move")
        page.keyboard.press("Enter")
    else:
        single = next(m for m in moves if re.fullmatch(r"\d+", m))
        page.focus(f".kk-hand button.card[data-index='{single}']")
        page.keyboard.press("Enter")
        page.focus("#play")
        page.keyboard.press("Enter")
    page.wait_for_function(
        "(b) => document.querySelector('section.table-view').dataset.move !== b", arg=before)
    # each card's button is named by its words (a screen reader's name, from its content)
    cards = page.locator(".kk-hand button.card").count()
    assert cards > 0
    assert page.get_by_role("button", name=re.compile(r"^position \d+: ")).count() == cards
    page.context.close()


def test_phone_krass_kariert_hand_wraps_readably(server: Server, browser: Any,
                                                 shots: Path) -> None:
    """On a 390 px screen a Krass Kariert hand wraps into rows; every card's position
    number stays readable (no card of the next row covers it) and nothing is wider than
    the screen."""
    answer = server.create("krass-kariert", [{"kind": "human"},
                                             {"kind": "bot", "bot": "random"},
                                             {"kind": "bot", "bot": "random"}], players=3)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, locale="de-DE")
    page = context.new_page()
    page.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(page) == "turn"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    covered = page.evaluate("""() => {
      const cards = [...document.querySelectorAll('.kk-hand button.card')];
      const boxes = cards.map((c) => c.getBoundingClientRect());
      const rows = new Set(boxes.map((b) => Math.round(b.top)));
      const hits = [];
      cards.forEach((card, i) => {
        const label = card.querySelector('.pos').getBoundingClientRect();
        boxes.forEach((b, j) => {
          if (j !== i && label.left < b.right && label.right > b.left &&
              label.top < b.bottom && label.bottom > b.top) hits.push([i, j]);
        });
      });
      return {rows: rows.size, hits};
    }""")
    assert covered["rows"] >= 2, "the hand did not wrap on a phone"
    assert covered["hits"] == [], covered
    assert page.locator("#turn").is_visible() and page.locator("#clock").is_visible()
    save_shot(page, shots, "table-phone-krass-kariert")
    context.close()
