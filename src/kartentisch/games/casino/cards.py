"""Casino's cards: one 52-card pack, cards as small ints ordered by rank, then suit.

A card is ``(rank - 1) * 4 + suit`` with ranks 1 (ace) to 13 (king) and suits clubs,
diamonds, hearts, spades (0-3), so sorting ints sorts by rank first. Numeral cards (ace to
ten) have a value equal to their rank; jack, queen and king have no value (``0``): they
never enter builds and capture only a loose card of their own rank.

Names are rank then suit: ``A 2-9 T J Q K`` and ``c d h s`` (``10d`` and the suit symbols
``♣ ♦ ♥ ♠`` are read too).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

SUITS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANKS: Final = "A23456789TJQK"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

DECK: Final[tuple[int, ...]] = tuple(range(52))


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (1-13) and ``suit`` (0-3).

    >>> card_name(make_card(10, DIAMONDS))
    'Td'
    """
    return (rank - 1) * 4 + suit


def rank_of(card: int) -> int:
    """The rank, 1 (ace) to 13 (king)."""
    return card // 4 + 1


def suit_of(card: int) -> int:
    """The suit, 0-3 (clubs, diamonds, hearts, spades)."""
    return card % 4


BIG_CASINO: Final = make_card(10, DIAMONDS)
"""The ten of diamonds (2 points)."""
LITTLE_CASINO: Final = make_card(2, SPADES)
"""The two of spades (1 point)."""

VALUES: Final[tuple[int, ...]] = tuple(rank_of(c) if rank_of(c) <= 10 else 0 for c in DECK)
"""``VALUES[card]``: the number value (1-10), or 0 for a face card."""

CARD_NAMES: Final[tuple[str, ...]] = tuple(RANKS[rank_of(c) - 1] + SUITS[suit_of(c)] for c in DECK)

CARD_RE: Final = re.compile(r"(10|[2-9TJQKA])([cdhs♣♦♥♠])")
"""A card name inside longer text (ranks upper case, suits lower case or symbols)."""


def card_name(card: int) -> str:
    """The name of a card.

    >>> card_name(0), card_name(BIG_CASINO), card_name(LITTLE_CASINO), card_name(51)
    ('Ac', 'Td', '2s', 'Ks')
    """
    return CARD_NAMES[card]


def card_value(card: int) -> int:
    """The number value, or 0 for jack, queen and king."""
    return VALUES[card]


def is_face(card: int) -> bool:
    """Whether the card is a jack, queen or king."""
    return card >= 40


def parse_card(text: str) -> int:
    """Read a card name; the rank letter may be lower case when the name stands alone.

    >>> parse_card("Td"), parse_card("10d"), parse_card("as"), parse_card("Q♥")
    (37, 37, 3, 46)
    """
    raw = text
    text = text.strip()
    if len(text) >= 2:
        text = text[:-1].upper() + text[-1].lower()
    m = CARD_RE.fullmatch(text)
    if not m:
        raise ValueError(f"unknown card {raw!r}; cards are rank A 2-9 T J Q K then suit c d h s,"
                         " e.g. 7h, Td, As")
    rank_text, suit_text = m.groups()
    rank = 10 if rank_text == "10" else RANKS.index(rank_text) + 1
    suit = SUITS.index(suit_text) if suit_text in SUITS else SUIT_SYMBOLS.index(suit_text)
    return make_card(rank, suit)


def card_names(cards: Iterable[int]) -> list[str]:
    """Names of cards, in the given order."""
    return [CARD_NAMES[c] for c in cards]
