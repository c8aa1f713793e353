"""Subset arithmetic behind Casino's captures and builds, on card bitmasks.

A capture or build uses loose numeral cards in *groups* that each add up to one value. The
move generator works with bitmasks (bit ``c`` set for card ``c``) because sets of cards are
unioned and tested for overlap many times per position: an ``int`` does both in one
operation, where a tuple or frozenset would allocate.
"""

from __future__ import annotations

from typing import Final

from kartentisch.games.casino.cards import VALUES

Sums = tuple[tuple[int, ...], ...]
"""``sums[k]`` (k = 0..10): the bitmasks of every set of loose numerals adding up to k
(``sums[0]`` is empty). Immutable, so states and their clones share it."""

NO_SUMS: Final[Sums] = ((),) * 11
"""The subset sums of an empty table."""


def add_card(sums: Sums, card: int) -> Sums:
    """The subset sums after ``card`` joins the loose cards (a trail, a deal).

    A new subset is an old one (or none) plus the card.

    >>> add_card(add_card(NO_SUMS, 0), 4)[1:4]  # Ac, 2c: sums 1, 2, 3
    ((1,), (16,), (17,))
    """
    w = VALUES[card]
    if not w:
        return sums
    bit = 1 << card
    new = list(sums)
    for k in range(w + 1, 11):
        old = sums[k - w]
        if old:
            new[k] = sums[k] + tuple([m | bit for m in old])
    new[w] = sums[w] + (bit,)
    return tuple(new)


def remove_cards(sums: Sums, cards: tuple[int, ...] | list[int]) -> Sums:
    """The subset sums after ``cards`` (loose numerals or faces) leave the table.

    >>> remove_cards(add_card(add_card(NO_SUMS, 0), 4), [0])[1:4]
    ((), (16,), ())
    """
    gone = 0
    least = 11
    for c in cards:
        w = VALUES[c]
        if w:
            gone |= 1 << c
            if w < least:
                least = w
    if not gone:
        return sums
    new = list(sums)
    for k in range(least, 11):
        old = sums[k]
        if old:
            new[k] = tuple([m for m in old if not m & gone])
    return tuple(new)


def sums_of(loose: list[int]) -> Sums:
    """The subset sums of the loose cards ``loose`` (faces are ignored)."""
    sums = NO_SUMS
    for c in loose:
        sums = add_card(sums, c)
    return sums


def subsets_by_sum(numerals: list[int]) -> list[list[int]]:
    """``out[k]``: bitmasks of every subset of ``numerals`` (cards) whose values sum to k <= 10.

    ``numerals`` must be ascending (the table's loose cards are kept so): cards are ordered by
    rank, so they are then ordered by value too, which lets the search stop early.

    >>> [len(s) for s in subsets_by_sum([0, 4, 8])]  # Ac 2c 3c: sums 1, 2, 3, 3, 4, 5, 6
    [0, 1, 1, 2, 1, 1, 1, 0, 0, 0, 0]
    """
    out: list[list[int]] = [[] for _ in range(11)]
    cards = numerals

    def dfs(start: int, total: int, mask: int) -> None:
        for i in range(start, len(cards)):
            c = cards[i]
            t = total + VALUES[c]
            if t > 10:
                return  # sorted by value: every later card is at least as large
            m = mask | (1 << c)
            out[t].append(m)
            dfs(i + 1, t, m)

    dfs(0, 0, 0)
    return out


def disjoint_unions(groups: list[int]) -> list[int]:
    """Every union of pairwise disjoint groups (bitmasks), the empty union included, sorted.

    Groups are bucketed by their lowest card: a union either skips that card or takes exactly
    one group containing it as its lowest, so each union is built once per way of reaching it
    and duplicates collapse in a set.

    >>> disjoint_unions([0b011, 0b100, 0b110])
    [0, 3, 4, 6, 7]
    """
    by_low: dict[int, list[int]] = {}
    for g in groups:
        by_low.setdefault(g & -g, []).append(g)
    lows = sorted(by_low)
    seen: set[int] = set()

    def dfs(i: int, used: int) -> None:
        if i == len(lows):
            seen.add(used)
            return
        dfs(i + 1, used)
        if used & lows[i]:
            return
        for g in by_low[lows[i]]:
            if not g & used:
                dfs(i + 1, used | g)

    dfs(0, 0)
    return sorted(seen)


def can_partition(cards: list[int], value: int) -> bool:
    """Whether ``cards`` split into groups that each add up to ``value``.

    >>> can_partition([4, 20, 28], 8), can_partition([20, 8], 8)  # 2h 6c 8c; 6c 3c
    (True, False)
    """
    values = sorted((VALUES[c] for c in cards), reverse=True)
    total = sum(values)
    if not values or 0 in values or value <= 0 or total % value:
        return False
    bins = [0] * (total // value)

    def place(i: int) -> bool:
        if i == len(values):
            return True
        tried = set()  # bins of equal fill are interchangeable: try one of them
        for b in range(len(bins)):
            if bins[b] in tried or bins[b] + values[i] > value:
                continue
            tried.add(bins[b])
            bins[b] += values[i]
            if place(i + 1):
                return True
            bins[b] -= values[i]
        return False

    return place(0)
