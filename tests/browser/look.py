"""What a player sees, checked in the page: the first screen (hand, what must be beaten and
the allowed moves without scrolling), every message shown (collected over whole games and
checked for the engine's notation), and axe-core's accessibility check."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".axe" / "node_modules" / "axe-core" / "axe.min.js"

SHOWN_SELECTORS = (".message, #log li, .turn strong, .hint-result, .moves button, .move-line,"
                   " .to-beat, .phase, .last-round h3, .last-capture h3, .verdict, #end p,"
                   " .controls button, .k20-actions button, .seat-info")

COLLECT_MESSAGES = """
window.__shown = new Set();
new MutationObserver(() => {
  for (const el of document.querySelectorAll(SELECTORS)) {
    const text = (el.textContent || '').replace(/\\s+/g, ' ').trim();
    if (text) window.__shown.add(text);
  }
}).observe(document, {childList: true, subtree: true, characterData: true});
""".replace("SELECTORS", repr(SHOWN_SELECTORS))
"""An init script: every text shown in a message, log line, turn line, hint, move button or
summary is kept in ``window.__shown`` (read with :func:`shown_messages`)."""

NOTATION = [
    (r"\br\d@\d+|(?<![\w])@\d+\b", "Krass Kariert's reserve/insert notation"),
    (r"\b\d+-\d+x\d+|\b\d+x\d+\b", "Krass Kariert's X notation"),
    (r"\bconcede\b", "the word concede"),
    (r"\[\d+\]", "Casino's build notation"),
    (r"\b[pft]\d\b|\blow \d|\b(?:flip|take) (?:\d+:\d+|s\d+)", "Krumme20's move notation"),
    (r"\b\d+:\d+\b", "a seat:card pair"),
    (r"\b(?!3/3)\d/\d\b|\d/\?", "Krumme20's card notation"),
    (r"\b(?:sum up|sum down|claim33|take draw|take discard)\b", "Krumme20's notation words"),
    (r"\bseat \d", "a lower-case seat number"),
    (r"\b[a-z0-9]+\.[a-z_]+\b", "a reason code"),
]
"""Patterns of the engine's notation that no message for people may contain."""

CASINO_NOTATION = [(r"(?<!of )\b(?:[2-9TJQK][cdhs]|A[cdh])\b", "a Casino card code"),
                   (r"\S [x+] \S", "Casino's move notation")]
"""Casino's card codes and moves (elsewhere "5s" is English for fives, "2 + 3" a sum)."""


def collect_messages(context: Any) -> None:
    """Collect every message the context's pages show (see :data:`COLLECT_MESSAGES`)."""
    context.add_init_script(COLLECT_MESSAGES)


def shown_messages(page: Any) -> set[str]:
    shown: list[str] = page.evaluate("() => [...(window.__shown || [])]")
    return set(shown)


def notation_in(messages: set[str], game: str) -> list[str]:
    """The messages that contain engine notation or start in lower case, with the reason."""
    found = []
    patterns = [*NOTATION, *CASINO_NOTATION] if game == "casino" else NOTATION
    for text in sorted(messages):
        for pattern, what in patterns:
            if re.search(pattern, text):
                found.append(f"{what}: {text!r}")
        if text[0].islower():
            found.append(f"starts in lower case: {text!r}")
    return found


FIRST_SCREEN = """() => {
  const bottom = (el) => el.getBoundingClientRect().bottom + window.scrollY;
  const first = (sel) => document.querySelector(sel);
  const hand = first('.felt .bottom .mine .hand');
  const centre = first('.felt .centre');
  const legal = [...document.querySelectorAll('.felt .legal')];
  return {height: window.innerHeight, scrolled: window.scrollY,
          hand: hand ? bottom(hand) : null, centre: centre ? bottom(centre) : null,
          legal: legal.map(bottom), width: document.documentElement.scrollWidth};
}"""


def assert_first_screen(page: Any, what: str) -> None:
    """The hand, the centre (what must be beaten, the table, the piles) and every allowed
    move lie within the first screen, with no scrolling sideways."""
    seen = page.evaluate(FIRST_SCREEN)
    height = seen["height"]
    assert seen["hand"] is not None and seen["hand"] <= height, (what, seen)
    assert seen["centre"] is not None and seen["centre"] <= height, (what, seen)
    assert seen["legal"], (what, "no allowed move is lit")
    assert max(seen["legal"]) <= height, (what, seen)
    assert seen["width"] <= page.viewport_size["width"], (what, seen)


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed at {AXE}: run `make axe` (npm install)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result: list[str] = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ` +
          v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '));
    }""")
    return result
