"""Playing the page by clicks, as a person would: one helper per game turns a legal move
(read from the page's list of allowed moves) into clicks on cards, gaps, piles and buttons."""

from __future__ import annotations

import re
from typing import Any

TIMEOUT = 15_000


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


FAST = {"on": False}
"""When on, clicks are dispatched straight to the element (the same click event and
handler, without Playwright's pointer simulation and its waiting for the element to be
still): the whole-game loops use it to stay quick; every other test clicks for real."""


def click(page: Any, selector: str) -> None:
    target = page.locator(selector).first
    if FAST["on"]:
        target.dispatch_event("click", timeout=TIMEOUT)
    else:
        target.click(timeout=TIMEOUT)


def play_kk(page: Any, text: str) -> None:
    """A Krass Kariert move by clicks: cards of a window (then the X value or Play), a
    reserve card then a gap, a gap for a drawn card, or the concession button."""
    if m := re.fullmatch(r"(\d+)(?:-(\d+))?((?:x\d+)*)", text):
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        for index in range(first, last + 1):
            click(page, f".kk-hand button.card[data-index='{index}']")
        if page.locator(".x-choice").count():
            click(page, f".x-choice button[data-move='{text}']")
        else:
            click(page, "#play")
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
    if page.locator(f".choice button[data-move='{text}']").count():
        click(page, f".choice button[data-move='{text}']")


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


def play_one(page: Any, game: str, seat: int) -> str:
    """Make one move by clicks (the page must be at this seat's turn); returns its text."""
    before = table_state(page)["move"]
    moves = legal_moves(page)
    assert moves, "the page shows no allowed move on its turn"
    text = choose(game, moves)
    if game == "krass-kariert":
        play_kk(page, text)
    elif game == "casino":
        play_casino(page, text)
    else:
        play_k20(page, text, seat)
    page.wait_for_function(
        "(b) => document.querySelector('section.table-view').dataset.move !== b",
        arg=before, timeout=TIMEOUT)
    return text


def play_to_end(page: Any, game: str, seat: int, limit: int = 400) -> int:
    """Play this seat by (dispatched) clicks until the game is over; returns the moves."""
    made = 0
    FAST["on"] = True
    try:
        while wait_my_turn_or_end(page) == "turn":
            play_one(page, game, seat)
            made += 1
            assert made < limit, "the game did not end"
    finally:
        FAST["on"] = False
    return made
