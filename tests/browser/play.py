"""Playing the page by clicks, as a person would: one helper per game turns a legal move
(read from the page's list of allowed moves) into clicks on cards, gaps, piles and buttons."""

from __future__ import annotations

import re
from typing import Any

TIMEOUT = 15_000
POLL = 25
"""Milliseconds between checks of a waited-for condition (polling on every animation frame
keeps the renderer busy painting frames)."""


def table_state(page: Any) -> dict[str, str]:
    """The table view's move number, status and seat (data attributes the page sets)."""
    data: dict[str, str] = page.eval_on_selector(
        "section.table-view", "el => ({move: el.dataset.move, status: el.dataset.status})")
    return data


def wait_my_turn_or_end(page: Any, after: str | None = None) -> str:
    """Wait until this page may move or the game is over (and the move number is not
    ``after``); returns ``"turn"`` or ``"finished"``."""
    page.wait_for_function(
        """(after) => {
          const s = document.querySelector('section.table-view');
          if (!s || s.dataset.move === after) return false;
          return s.dataset.status === 'finished' || !!document.querySelector('.turn.mine');
        }""", arg=after, timeout=TIMEOUT)
    return "finished" if table_state(page)["status"] == "finished" else "turn"


def legal_moves(page: Any) -> list[str]:
    """The notation of every allowed move, as the page lists them."""
    moves: list[str] = page.eval_on_selector_all(
        ".moves button.move", "els => els.map(e => e.dataset.move)")
    return moves


FAST: dict[str, Any] = {"on": False, "steps": None}
"""When on, a move's clicks are collected (``steps``) and then dispatched to their elements
in one call to the page (the same click events and handlers, without Playwright's pointer
simulation, its waiting for the element to be still, and a round trip per click): the
whole-game loops use it to stay quick; every other test clicks for real."""

_CLICK_STEPS = """(steps) => {
  // steps: [[selector, ...alternatives], optional]; click the first present alternative
  for (let i = 0; i < steps.length; i++) {
    const [choices, optional] = steps[i];
    const el = choices.map((s) => document.querySelector(s)).find((e) => e);
    if (!el) { if (optional) continue; return i; }
    el.click();
  }
  return steps.length;
}"""


def click(page: Any, selector: str, *, otherwise: str | None = None,
          optional: bool = False) -> None:
    """Click ``selector`` (if absent: ``otherwise``, or nothing when ``optional``)."""
    steps = FAST["steps"]
    if steps is not None:
        steps.append(([selector] if otherwise is None else [selector, otherwise], optional))
        return
    choices = [selector] if otherwise is None else [selector, otherwise]
    for choice in choices:
        target = page.locator(choice).first
        last = choice is choices[-1]
        if not last and not target.count():
            continue
        if optional and not target.count():
            return
        target.click(timeout=TIMEOUT)
        return


def run_clicks(page: Any, steps: list[tuple[list[str], bool]]) -> None:
    """Dispatch the collected clicks in one call; if an element is not there yet (the page
    still renders), the rest are clicked one by one, each waiting for its element."""
    done = page.evaluate(_CLICK_STEPS, steps)
    for choices, optional in steps[done:]:
        if optional and not any(page.locator(c).count() for c in choices):
            continue
        selector = next((c for c in choices if page.locator(c).count()), choices[0])
        page.locator(selector).first.dispatch_event("click", timeout=TIMEOUT)


def play_kk(page: Any, text: str) -> None:
    """A Krass Kariert move by clicks: cards of a window (then the X value or Play), a
    reserve card then a gap, a gap for a drawn card, or the concession button."""
    if m := re.fullmatch(r"(\d+)(?:-(\d+))?((?:x\d+)*)", text):
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        for index in range(first, last + 1):
            click(page, f".kk-hand button.card[data-index='{index}']")
        # the X value when the page asks for it, else the play button
        click(page, f".x-choice button[data-move='{text}']", otherwise="#play")
    elif m := re.fullmatch(r"r(\d)@(\d+)", text):
        click(page, f"button[data-reserve='{m.group(1)}']")
        click(page, f".slot[data-slot='{m.group(2)}']")
    elif m := re.fullmatch(r"@(\d+)", text):
        click(page, f".slot[data-slot='{m.group(1)}']")
    else:
        assert text == "concede", text
        click(page, "#concede")


def play_casino(page: Any, text: str) -> None:
    """A Casino move by clicks: the hand card, the table items, then the move's button."""
    card = text.split()[0]
    click(page, f".mine button.card[data-card='{card}']")
    m = re.fullmatch(r"\S+ [x+] ?(.*?)(?: = \d+)?", text)
    if m and m.group(1).strip():
        for item in m.group(1).split():
            click(page, f".casino-table button[data-item='{item}']")
    click(page, f".controls button[data-move='{text}']")


def play_k20(page: Any, text: str, seat: int) -> None:
    """A Krumme20 move by clicks: a personal card, a score card, a pile, or a button."""
    target = None
    if m := re.fullmatch(r"(?:[pft]|low )(\d+)", text):
        target = f".k20-seat[data-seat='{seat}'] button[data-index='{m.group(1)}']"
    elif m := re.fullmatch(r"(?:flip|take) (\d+):(\d+)", text):
        target = f".k20-seat[data-seat='{m.group(1)}'] button[data-index='{m.group(2)}']"
    elif m := re.fullmatch(r"(?:flip|take) s(\d+)", text):
        target = f".k20-seat[data-seat='{seat}'] button[data-score='{m.group(1)}']"
    elif text in ("take draw", "draw"):
        target = "button[data-pile='draw']"
    elif text == "take discard":
        target = "button[data-pile='discard']"
    if target is None:
        click(page, f".k20-actions button[data-move='{text}']")
        return
    click(page, target)
    click(page, f".choice button[data-move='{text}']", optional=True)


def choose(game: str, moves: list[str]) -> str:
    """The move the tests play: short games first (Krass Kariert concedes when it may),
    otherwise the first one listed."""
    if game == "krass-kariert" and "concede" in moves:
        return "concede"
    if game == "krumme20":
        for text in moves:
            if text != "pass":
                return text
    return moves[0]


def clicks_for(page: Any, game: str, text: str, seat: int) -> None:
    """The clicks of move ``text`` (made, or collected when FAST is on)."""
    if game == "krass-kariert":
        play_kk(page, text)
    elif game == "casino":
        play_casino(page, text)
    else:
        play_k20(page, text, seat)


def play_one(page: Any, game: str, seat: int, *, before: str | None = None,
             moves: list[str] | None = None) -> str:
    """Make one move by clicks (the page must be at this seat's turn); returns its text.
    ``before`` and ``moves``: the move number and allowed moves, when already read."""
    if before is None:
        before = table_state(page)["move"]
    if moves is None:
        moves = legal_moves(page)
    assert moves, "the page shows no allowed move on its turn"
    text = choose(game, moves)
    if FAST["on"]:
        FAST["steps"] = []
        try:
            clicks_for(page, game, text, seat)
            steps = FAST["steps"]
        finally:
            FAST["steps"] = None
        run_clicks(page, steps)
    else:
        clicks_for(page, game, text, seat)
    page.wait_for_function(
        "(b) => document.querySelector('section.table-view').dataset.move !== b",
        arg=before, timeout=TIMEOUT)
    return text


_TURN_OR_END = """(after) => {
  const s = document.querySelector('section.table-view');
  if (!s || s.dataset.move === after) return false;
  if (s.dataset.status === 'finished') return {status: 'finished', move: s.dataset.move};
  if (!document.querySelector('.turn.mine')) return false;
  const moves = [...document.querySelectorAll('.moves button.move')].map((e) => e.dataset.move);
  return moves.length ? {status: 'turn', move: s.dataset.move, moves} : false;
}"""


def play_to_end(page: Any, game: str, seat: int, limit: int = 400) -> int:
    """Play this seat by (dispatched) clicks until the game is over; returns the moves.
    Each turn costs two calls to the page: wait for the turn (which also reads the move
    number and the allowed moves), then the move's clicks."""
    made = 0
    after: str | None = None
    FAST["on"] = True
    try:
        while True:
            found = page.wait_for_function(_TURN_OR_END, arg=after, timeout=TIMEOUT,
                                         polling=POLL).json_value()
            if found["status"] == "finished":
                return made
            text = choose(game, found["moves"])
            FAST["steps"] = []
            try:
                clicks_for(page, game, text, seat)
                steps = FAST["steps"]
            finally:
                FAST["steps"] = None
            run_clicks(page, steps)
            after = found["move"]
            made += 1
            assert made < limit, "the game did not end"
    finally:
        FAST["on"] = False


def play_between(pages: list[Any], game: str, limit: int = 400) -> int:
    """Two or more pages, one seat each (page i plays seat i), take turns by (dispatched)
    clicks until the game is over; after every move the other pages see it arrive.
    Returns the moves."""
    FAST["on"] = True
    try:
        return _take_turns(pages, game, limit)
    finally:
        FAST["on"] = False


def _take_turns(pages: list[Any], game: str, limit: int) -> int:
    moves = 0
    while table_state(pages[0])["status"] != "finished":
        # the seat to move, as the players bar shows it, plays
        seat = int(pages[0].get_attribute(".players li.to-move", "data-seat",
                                          timeout=TIMEOUT) or "")
        page = pages[seat]
        if wait_my_turn_or_end(page) == "finished":
            break
        before = table_state(page)["move"]
        play_one(page, game, seat)
        moves += 1
        for other in pages:
            if other is not page:
                other.wait_for_function(
                    "(b) => document.querySelector('section.table-view').dataset.move !== b",
                    arg=before, timeout=TIMEOUT)
        assert moves < limit, "the game did not end"
    return moves


def two_people(browser: Any, answer: dict[str, Any]) -> list[Any]:
    """Two browser contexts as two people (English, German), page i at seat i's link."""
    pages = []
    for seat in (0, 1):
        context = browser.new_context(viewport={"width": 1100, "height": 900},
                                      locale="de-DE" if seat else "en-GB")
        page = context.new_page()
        page.goto(answer["seats"][seat]["link"])
        page.wait_for_selector("section.table-view")
        pages.append(page)
    return pages
