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


def _most(counts: list[int]) -> int:
    """The side with strictly the most, or -1 on a tie."""
    top = max(counts)
    leaders = [s for s, c in enumerate(counts) if c == top]
    return leaders[0] if len(leaders) == 1 else -1


def score_pack(captured: Sequence[Sequence[int]], sweeps: Sequence[int], sides: int,
               side_of: SideOf) -> dict[str, list[int]]:
    """Points per side for each scoring item of a finished pack, and their ``total``."""
    cards = [0] * sides
    spades = [0] * sides
    items = {k: [0] * sides for k in (*SCORE_ITEMS, "total")}
    for seat, pile in enumerate(captured):
        side = side_of(seat)
        cards[side] += len(pile)
        mask = 0  # the pile as a mask: the items are bit counts (a pack is scored every
        for c in pile:  # 24 plays of two players; a call or two per card cost ~2% of them)
            mask |= 1 << c
        spades[side] += (mask & _SPADES).bit_count()
        items["big_casino"][side] += 2 * (mask >> BIG_CASINO & 1)
        items["little_casino"][side] += mask >> LITTLE_CASINO & 1
        items["aces"][side] += (mask & _ACES).bit_count()
        items["sweeps"][side] += sweeps[seat]
    if (s := _most(cards)) >= 0:
        items["cards"][s] = 3
    if (s := _most(spades)) >= 0:
        items["spades"][s] = 1
    for s in range(sides):
        items["total"][s] = sum(items[k][s] for k in SCORE_ITEMS)
    return items


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
