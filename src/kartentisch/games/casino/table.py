"""The table's builds, the pack's public log, and the trail ban that reads them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from kartentisch.games.casino.cards import VALUES, card_names


@dataclass(frozen=True, slots=True)
class BuildUnit:
    """A build on the table (immutable, so states and observations may share it)."""

    value: int
    cards: tuple[int, ...]
    """Its cards, ascending."""
    owner: int
    """The seat that last made or changed it."""
    turn: int
    """The game turn (0-based, counting every play) on which it was last made or changed."""

    @property
    def multiple(self) -> bool:
        """Whether it is a multiple build (a call), which can never be raised."""
        return sum(VALUES[c] for c in self.cards) != self.value


class BuildUnitDraft:
    """A mutable twin of :class:`BuildUnit` (the same slots): the rules fill one by plain
    attribute stores and then make it a ``BuildUnit`` by assigning ``__class__``, cheaper
    than the frozen class's ``__init__``. Nothing else uses it."""

    __slots__ = ("cards", "owner", "turn", "value")


class PlayRecord(NamedTuple):
    """One public entry of the pack's log."""

    seat: int
    kind: str
    """``capture``, ``build``, ``trail`` or ``table`` (the rest of the table at pack end)."""
    card: int
    """The card played (-1 for ``table``)."""
    cards: tuple[int, ...] = ()
    """Table cards taken (capture, table) or joined into the build (build)."""
    value: int = 0
    """The build's value (build)."""
    sweep: bool = False
    """Whether a capture cleared the table and scored a sweep."""


def trail_banned(rule: str, builds: Mapping[int, BuildUnit], seat: int, last_turn: int) -> bool:
    """Whether option ``trail_ban`` = ``rule`` forbids ``seat`` to trail."""
    if rule == "while_build_stands":
        return any(b.owner == seat for b in builds.values())
    return any(b.owner == seat and b.turn == last_turn for b in builds.values())


def describe_table(loose: list[int], builds: Mapping[int, BuildUnit]) -> str:
    """A compact table text: ``3c 4d [8: 2h 6c by 0]``."""
    parts = card_names(loose)
    for v in sorted(builds):
        b = builds[v]
        parts.append(f"[{v}{'*' if b.multiple else ''}: {' '.join(card_names(b.cards))} "
                     f"by {b.owner}]")
    return " ".join(parts) if parts else "(empty)"
