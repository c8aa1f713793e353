"""The lobby's rules options as a person reads them: each with a label, a one-line
explanation and its values as words, in the page's language (from the game's descriptor);
the value sent is still the option's own value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import Server, save_shot


def test_options_show_labels_help_and_value_words_in_german(server: Server, browser: Any,
                                                            shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="de-DE")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.check("input[name=game][value=casino]")
    option = page.locator("#opt-trail_ban").locator("xpath=..")
    assert "Ablegeverbot für den Besitzer eines Baus" in option.locator("label").inner_text()
    words = page.locator("#opt-trail_ban option").all_inner_texts()
    assert words == ["im nächsten Zug, solange der Bau unverändert ist",
                     "solange ihm ein Bau gehört"]
    assert page.locator("#opt-trail_ban option").first.get_attribute("value") == "next_turn"
    assert "Wann der Besitzer eines Baus nicht ablegen darf" in page.inner_text(
        "#opt-trail_ban-help")
    assert "Partnerschaften" in page.inner_text("label[for=opt-partnerships]")
    # option raising (issue 30): three readings of the rulebook, the default selected
    assert "Bau erhöhen" in page.inner_text("label[for=opt-raising]")
    assert page.locator("#opt-raising option").all_inner_texts() == [
        "keinen: ein Bau behält den Wert, mit dem er gebaut wurde",
        "nur einfache Bauten, nie einen Mehrfach-Bau", "jeden Bau, auch Mehrfach-Bauten"]
    assert page.input_value("#opt-raising") == "single"
    page.select_option("#opt-raising", "any")
    assert page.input_value("#opt-raising") == "any"
    assert "Bauen ohne Nehmen" in page.inner_text("label[for=opt-build_without_capture]")
    save_shot(page, shots, "lobby-options-casino-de")
    page.check("input[name=game][value=krumme20]")
    assert page.locator("#opt-end option").all_inner_texts() == [
        "jeder noch einen Zug", "das Spiel endet mit diesem Zug"]
    page.select_option("#opt-end", "immediate")
    save_shot(page, shots, "lobby-options-de")
    page.check("input[name=game][value=krass-kariert]")
    assert "Nächster Ausspieler" in page.inner_text("label[for=opt-next_leader_fallback]")
    assert errors == []
    context.close()
