"""The table's pace and the lobby's accessibility: other players' moves come one after
another at the chosen pace with the card travelling from its seat, the turn chimes when the
sound is on, and axe-core finds nothing serious in the lobby on a desktop and a phone."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from tests.browser.conftest import Server
from tests.browser.look import axe_violations
from tests.browser.play import play_one, wait_my_turn_or_end

WATCH_MOVES = """
window.__shownMoves = [];
window.__animations = 0;
window.__chimes = 0;
const Context = window.AudioContext || window.webkitAudioContext;
if (Context) {
  const make = Context.prototype.createOscillator;
  Context.prototype.createOscillator = function () {
    window.__chimes += 1;
    return make.call(this);
  };
}
new MutationObserver(() => {
  const s = document.querySelector('section.table-view');
  const moves = window.__shownMoves;
  if (s && (!moves.length || moves[moves.length - 1][0] !== s.dataset.move)) {
    moves.push([s.dataset.move, performance.now()]);
  }
  window.__animations = Math.max(window.__animations, document.getAnimations().length);
}).observe(document, {childList: true, subtree: true, attributes: true});
"""
"""An init script: when each move number was shown, how many animations ran at once, and
how many chime notes were made."""


def test_others_moves_come_one_after_another(server: Server, browser: Any) -> None:
    """At the "quick" pace (0.5 s) the three bots' moves after the player's are shown one by
    one, at least the pace apart; a card travels from its seat; the turn chimes."""
    answer = server.create("krass-kariert", [{"kind": "human"}] +
                           [{"kind": "bot", "bot": "random"}] * 3, players=4)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    context.add_init_script(WATCH_MOVES)
    page = context.new_page()
    page.goto(answer["seats"][0]["link"])
    assert wait_my_turn_or_end(page) == "turn"
    page.click(".settings summary")
    page.select_option("#pace", "500")
    page.check("#sound")
    assert page.evaluate("localStorage.getItem('kartentisch.pace')") == "500"
    gaps: list[float] = []
    for _ in range(8):  # until the bots made two moves or more in a row after the player's
        start = int(page.get_attribute("section.table-view", "data-move") or "0")
        page.evaluate("window.__shownMoves = []")
        play_one(page, "krass-kariert", 0)
        if wait_my_turn_or_end(page) != "turn":
            break
        shown = [m for m in page.evaluate("window.__shownMoves") if int(m[0]) != start]
        after = int(page.get_attribute("section.table-view", "data-move") or "0")
        # every move number in between was on the screen, in order
        assert [int(move) for move, _ in shown] == list(range(start + 1, after + 1)), shown
        times = [at for _, at in shown]
        gaps += [later - earlier for earlier, later in pairwise(times[1:])]
        if len(gaps) >= 2:
            break
    assert gaps, "the bots never moved twice in a row"
    # each of the bots' moves waited for the pace (0.5 s, less what drawing the one before took)
    assert min(gaps) >= 300, gaps
    assert page.evaluate("window.__animations") >= 1
    assert page.evaluate("window.__chimes") >= 2  # the chime's two notes at the turn
    context.close()


def test_the_lobby_passes_axe_on_a_desktop_and_a_phone(server: Server, browser: Any) -> None:
    for viewport, locale in (({"width": 1280, "height": 900}, "en-GB"),
                             ({"width": 390, "height": 844}, "de-DE")):
        context = browser.new_context(viewport=viewport, locale=locale)
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector(".lobby form")
        assert not axe_violations(page), (locale, axe_violations(page))
        context.close()
