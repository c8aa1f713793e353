"""Krumme20's double-sided cards.

Every card shows a number 0-5 on each of its two sides. A card on the table has an *up*
side (facing up) and a *down* side. Cards are identified inside a state by an int 0..53;
the identity never leaves the engine (observations show sides only), so it cannot leak
which pair a card is.

Notation: a card is written ``up/down``, e.g. ``3/1``; an unknown side is ``?``.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

SIDES: Final = range(6)
"""The numbers a side can show."""

DECK_SIZE: Final = 54

DECKS: Final = ("pairs", "doubles")
"""Known deck compositions (option ``deck``)."""


_DECK_PAIRS: Final[dict[str, tuple[tuple[int, int], ...]]] = {}
""":func:`deck_pairs` per deck, built once: every deal reads it, and it is immutable."""


def deck_pairs(deck: str) -> tuple[tuple[int, int], ...]:
    """The 54 cards of a deck composition as (side a, side b) pairs, sorted.

    The tuple is built once per deck and then handed out as it is (it is immutable).

    ``pairs`` (ASSUMED default): every unordered pair of 0-5; doubles four times, mixed
    pairs twice. ``doubles``: both sides equal, each number nine times (a variant without
    hidden sides).

    >>> deck = deck_pairs("pairs")
    >>> len(deck), deck.count((3, 3)), deck.count((0, 5))
    (54, 4, 2)
    >>> sorted(set(deck_pairs("doubles")))[:2]
    [(0, 0), (1, 1)]
    """
    cached = _DECK_PAIRS.get(deck)
    if cached is not None:
        return cached
    if deck == "pairs":
        cards = [(a, b) for a in SIDES for b in SIDES if a <= b for _ in range(4 if a == b else 2)]
    elif deck == "doubles":
        cards = [(a, a) for a in SIDES for _ in range(9)]
    else:
        raise ValueError(f"unknown deck {deck!r}; known decks: {', '.join(DECKS)}")
    if len(cards) != DECK_SIZE:
        raise AssertionError("a deck has 54 cards")
    pairs = _DECK_PAIRS[deck] = tuple(sorted(cards))
    return pairs


def pair_counts(deck: str) -> Counter[tuple[int, int]]:
    """How often each unordered pair (low, high) occurs in ``deck``."""
    return Counter(deck_pairs(deck))


def pair_key(a: int, b: int) -> tuple[int, int]:
    """The unordered pair of two sides, low first.

    >>> pair_key(4, 1)
    (1, 4)
    """
    return (a, b) if a <= b else (b, a)


def side_name(value: int | None) -> str:
    """A side as text: its number, or ``?`` when unknown.

    >>> side_name(3), side_name(None)
    ('3', '?')
    """
    return "?" if value is None else str(value)


def card_text(up: int | None, down: int | None) -> str:
    """A card as ``up/down`` with ``?`` for unknown sides.

    >>> card_text(3, None)
    '3/?'
    """
    return f"{side_name(up)}/{side_name(down)}"


def parse_card_text(text: str) -> tuple[int, int]:
    """Read a fully known card ``up/down``.

    >>> parse_card_text("3/1")
    (3, 1)
    """
    parts = text.strip().split("/")
    if len(parts) != 2 or not all(p.strip().isdigit() and int(p) in SIDES for p in parts):
        raise ValueError(f"{text!r} is not a card; write up/down with numbers 0-5, e.g. 3/1")
    return int(parts[0]), int(parts[1])
