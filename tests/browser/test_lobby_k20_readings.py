"""Krumme20's readings of the rule sheet in the lobby: the options ``three_zeros_action``,
``last_card_crosswise`` and ``compensation`` appear with German label, help and value words
from the game's descriptor, and a table made with one of them keeps the chosen value."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from tests.browser.conftest import Server, save_shot


def krumme20_tables(server: Server) -> dict[str, dict[str, Any]]:
    """Every stored Krumme20 table's options by table id."""
    with sqlite3.connect(server.db) as conn:
        return {row[0]: json.loads(row[1]) for row in conn.execute(
            "SELECT id, options FROM kt_tables WHERE game = 'krumme20'")}


def test_krumme20_reading_options_in_german_and_kept_by_the_table(server: Server, browser: Any,
                                                                  shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 1400}, locale="de-DE")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.fill("#my-name", "Rita")
    page.check("input[name=game][value=krumme20]")
    assert "Aktion nach drei 0en" in page.inner_text("label[for=opt-three_zeros_action]")
    assert page.locator("#opt-three_zeros_action option").all_inner_texts() == [
        "die Aktion der dritten 0 selbst",
        "stattdessen die Aktion der neuen Seite der dritten Karte"]
    assert "Letzte Karte auf 20 liegt quer" in page.inner_text(
        "label[for=opt-last_card_crosswise]")
    assert page.locator("#opt-last_card_crosswise option").all_inner_texts() == [
        "jede Karte", "nur eine Karte, die 5 zählt"]
    assert page.inner_text("label[for=opt-compensation]") == "Entschädigung"
    assert "durch eine 4 aussetzen muss" in page.inner_text("#opt-compensation-help")
    assert page.locator("#opt-compensation option").all_inner_texts() == [
        "eine Karte vom Nachziehstapel ziehen", "eine Karte nehmen wie mit der Aktion der 1"]
    assert page.locator("#opt-compensation option").first.get_attribute("value") == "draw"
    page.select_option("#opt-compensation", "take")
    page.locator("#opt-compensation").scroll_into_view_if_needed()
    save_shot(page, shots, "lobby-k20-readings-de")
    before = krumme20_tables(server)
    page.click("#create")
    page.locator(".created").wait_for()
    made = [o for t, o in krumme20_tables(server).items() if t not in before]
    assert len(made) == 1 and made[0]["compensation"] == "take"
    assert made[0]["three_zeros_action"] == "zero"  # the others keep their defaults
    assert made[0]["last_card_crosswise"] == "any_card"
    assert errors == []
    context.close()
