"""Krass Kariert's cards and combinations.

Cards are small ints: 1-12 are number cards, then the X card (a joker whose value is
declared when played), Nachzieh (the draw card) and Stopp. A combination ("Kombination") is
1-3 cards standing side by side in the hand; its strength is one int so that "beats" is ``>``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Final

X: Final = 13
NACHZIEH: Final = 14
STOPP: Final = 15
SPECIALS: Final = frozenset({NACHZIEH, STOPP})
"""The cards that are always played alone: Nachzieh and Stopp (the X card is a joker)."""

CARD_NAMES: Final[dict[int, str]] = {
    **{v: str(v) for v in range(1, 13)},
    X: "X",
    NACHZIEH: "N",
    STOPP: "S",
}
CARD_BY_NAME: Final[dict[str, int]] = {name: card for card, name in CARD_NAMES.items()}

DECK: Final[tuple[int, ...]] = tuple(
    sorted([v for v in range(1, 13) for _ in range(4)] + [X, X, NACHZIEH, NACHZIEH, STOPP, STOPP])
)
"""All 54 cards, sorted; every deal shuffles a copy."""
DECK_COUNTS: Final[Counter[int]] = Counter(DECK)

# Kinds of combination, low to high ("Solo" < "2er-Straße" < "Paar" < "3er-Straße" < "Drilling").
SINGLE: Final = 0
RUN2: Final = 1
PAIR: Final = 2
RUN3: Final = 3
TRIPLE: Final = 4
KIND_KEYS: Final = ("single", "run2", "pair", "run3", "triple")

NO_COMBINATION: Final = -1
"""Strength standing when nothing has to be beaten."""

Declared = tuple[int, ...]
"""The values declared for the X cards of a window, in increasing order (empty: no X)."""
WindowOptions = dict[Declared, int]
"""For one window of cards: every declaration that makes a combination, and its strength."""


def card_name(card: int) -> str:
    """The notation of a card: ``"7"``, ``"X"``, ``"N"`` (Nachzieh) or ``"S"`` (Stopp).

    >>> card_name(7), card_name(X), card_name(STOPP)
    ('7', 'X', 'S')
    """
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """Read a card name (case-insensitive; ``Nachzieh`` and ``Stopp`` spelled out work too).

    Raises:
        ValueError: the text names no card.

    >>> parse_card("12"), parse_card("x"), parse_card("Stopp")
    (12, 13, 15)
    """
    key = text.strip().upper()
    key = {"NACHZIEH": "N", "STOPP": "S", "STOP": "S"}.get(key, key)
    if key not in CARD_BY_NAME:
        raise ValueError(f"unknown card {text!r}; cards are 1-12, X, N (Nachzieh), S (Stopp)")
    return CARD_BY_NAME[key]


def strength(kind: int, high: int) -> int:
    """One int per combination: a higher kind beats any lower one, then the higher number.

    >>> strength(PAIR, 3) > strength(RUN2, 12) > strength(RUN2, 11)
    True
    """
    return kind * 16 + high


def kind_of(value: int) -> int:
    """The kind of a combination strength."""
    return value // 16


def high_of(value: int) -> int:
    """The deciding number of a combination strength (the highest card for runs)."""
    return value % 16


def describe_strength(value: int) -> str:
    """Plain English for a strength, used in messages.

    >>> describe_strength(strength(RUN3, 9)), describe_strength(NO_COMBINATION)
    ('run3 up to 9', 'nothing')
    """
    if value == NO_COMBINATION:
        return "nothing"
    kind = kind_of(value)
    word = "up to" if kind in (RUN2, RUN3) else "of"
    return f"{KIND_KEYS[kind]} {word} {high_of(value)}"


def evaluate(values: tuple[int, ...]) -> int:
    """Strength of number values played together, or ``NO_COMBINATION``.

    The order inside the window does not matter; runs do not wrap from 12 to 1.

    >>> evaluate((8, 10, 9)) == strength(RUN3, 10)
    True
    >>> evaluate((12, 1))
    -1
    """
    n = len(values)
    if n == 1:
        return strength(SINGLE, values[0])
    lo, hi = min(values), max(values)
    if n == 2:
        if lo == hi:
            return strength(PAIR, hi)
        return strength(RUN2, hi) if hi - lo == 1 else NO_COMBINATION
    if n == 3:
        if lo == hi:
            return strength(TRIPLE, hi)
        if hi - lo == 2 and len(set(values)) == 3:
            return strength(RUN3, hi)
    return NO_COMBINATION


def window_options(window: tuple[int, ...], *, x_with_x: bool) -> WindowOptions:
    """Every declaration of X values that makes ``window`` a combination, with its strength.

    A window holding Stopp or Nachzieh, or (unless ``x_with_x``) two X cards, has none.

    >>> window_options((X, 5), x_with_x=False)
    {(4,): 21, (5,): 37, (6,): 22}
    >>> window_options((X, X), x_with_x=False)
    {}
    """
    if not 1 <= len(window) <= 3 or any(c in SPECIALS for c in window):
        return {}
    n_x = window.count(X)
    if n_x > 1 and not x_with_x:
        return {}
    numbers = tuple(c for c in window if c != X)
    options: WindowOptions = {}
    for declared in itertools.combinations_with_replacement(range(1, 13), n_x):
        value = evaluate(numbers + declared)
        if value != NO_COMBINATION:
            options[declared] = value
    return options


def build_window_table(*, x_with_x: bool) -> dict[tuple[int, ...], WindowOptions]:
    """Map every ordered window of 1-3 cards without Stopp/Nachzieh to its options."""
    table: dict[tuple[int, ...], WindowOptions] = {}
    for size in (1, 2, 3):
        for window in itertools.product(range(1, X + 1), repeat=size):
            table[window] = window_options(window, x_with_x=x_with_x)
    return table


WINDOW_TABLES: Final[dict[bool, dict[tuple[int, ...], WindowOptions]]] = {
    False: build_window_table(x_with_x=False),
    True: build_window_table(x_with_x=True),
}
"""``WINDOW_TABLES[x_with_x][window]``: the options of every window (see ``window_options``)."""
