"""Scoring a finished Casino pack: points per side for each item, and counting out.

Pure functions of the captured piles, so the state, the evaluation and the tests share them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from kartentisch.games.casino.cards import BIG_CASINO, LITTLE_CASINO, SPADES, rank_of, suit_of
from kartentisch.games.casino.table import PlayRecord

TARGET: Final = 21
"""Points that end the game."""

SCORE_ITEMS: Final = ("cards", "spades", "big_casino", "little_casino", "aces", "sweeps")
"""Scoring items, in the order option ``count_out`` counts them."""

_SPADES: Final = sum(1 << c for c in range(52) if suit_of(c) == SPADES)
_ACES: Final = sum(1 << c for c in range(52) if rank_of(c) == 1)

SideOf = Callable[[int], int]
"""Seat -> the side it scores for."""


_BIT_OF: Final = tuple(1 << c for c in range(52)).__getitem__
"""Card -> its bit (a bound method, so ``map`` turns a pile into bits in C)."""


def _most(counts: list[int]) -> int:
    """The side with strictly the most, or -1 on a tie."""
    top = max(counts)
    return counts.index(top) if counts.count(top) == 1 else -1


def score_pack(captured: Sequence[Sequence[int]], sweeps: Sequence[int], sides: int,
               side_of: SideOf) -> dict[str, list[int]]:
    """Points per side for each scoring item of a finished pack, and their ``total``.

    Speed (a pack is scored every 24 plays of two players): each pile becomes one mask by
    ``sum(map(...))`` in C (the cards of the piles are distinct, so the sum of their bits
    is their union) and every item is a bit count of it; no per-card Python loop, no
    dictionary or generator per item.
    """
    cards = [0] * sides
    spades = [0] * sides
    big = [0] * sides
    little = [0] * sides
    aces = [0] * sides
    swept = [0] * sides
    for seat, pile in enumerate(captured):
        side = side_of(seat)
        mask = sum(map(_BIT_OF, pile))
        cards[side] += len(pile)
        spades[side] += (mask & _SPADES).bit_count()
        big[side] += 2 * (mask >> BIG_CASINO & 1)
        little[side] += mask >> LITTLE_CASINO & 1
        aces[side] += (mask & _ACES).bit_count()
        swept[side] += sweeps[seat]
    most = _most(cards)
    cards = [0] * sides
    if most >= 0:
        cards[most] = 3
    most = _most(spades)
    spades = [0] * sides
    if most >= 0:
        spades[most] = 1
    return {"cards": cards, "spades": spades, "big_casino": big, "little_casino": little,
            "aces": aces, "sweeps": swept,
            "total": list(map(sum, zip(cards, spades, big, little, aces, swept, strict=True)))}


def score_two(captured: Sequence[Sequence[int]], sweeps: Sequence[int]) -> dict[str, list[int]]:
    """:func:`score_pack` for two seats that are the two sides, written out (the two-player
    game scores every 48 plays; no loop over seats, no side lookups)."""
    first, second = captured
    a = sum(map(_BIT_OF, first))
    b = sum(map(_BIT_OF, second))
    more = len(first) - len(second)
    cards = [3, 0] if more > 0 else [0, 3] if more < 0 else [0, 0]
    more = (a & _SPADES).bit_count() - (b & _SPADES).bit_count()
    spades = [1, 0] if more > 0 else [0, 1] if more < 0 else [0, 0]
    big_a = 2 * (a >> BIG_CASINO & 1)
    big_b = 2 * (b >> BIG_CASINO & 1)
    little_a = a >> LITTLE_CASINO & 1
    little_b = b >> LITTLE_CASINO & 1
    aces_a = (a & _ACES).bit_count()
    aces_b = (b & _ACES).bit_count()
    swept_a, swept_b = sweeps
    return {"cards": cards, "spades": spades, "big_casino": [big_a, big_b],
            "little_casino": [little_a, little_b], "aces": [aces_a, aces_b],
            "sweeps": [swept_a, swept_b],
            "total": [cards[0] + spades[0] + big_a + little_a + aces_a + swept_a,
                      cards[1] + spades[1] + big_b + little_b + aces_b + swept_b]}


def count_out_order(captured: Sequence[Sequence[int]], sweeps: Sequence[int],
                    plays: Sequence[PlayRecord], sides: int,
                    side_of: SideOf) -> list[tuple[int, int]]:
    """``(side, points)`` in counting-out order: cards, spades, casinos, aces, sweeps."""
    items = score_pack(captured, sweeps, sides, side_of)
    out: list[tuple[int, int]] = []
    for kind in ("cards", "spades", "big_casino", "little_casino"):
        out.extend((s, p) for s, p in enumerate(items[kind]) if p)
    holder = {c: side_of(seat) for seat, pile in enumerate(captured) for c in pile}
    for ace in range(4):  # aces in suit order: clubs, diamonds, hearts, spades
        if ace in holder:
            out.append((holder[ace], 1))
    out.extend((side_of(p.seat), 1) for p in plays if p.sweep)
    return out
