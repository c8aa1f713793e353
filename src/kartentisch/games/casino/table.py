"""The table's builds, the pack's public log, and the rules of a trail and of raising that
read them.

The rules of when a player may trail stand here once, as predicates on the table:
:func:`trail_banned` (option ``trail_ban``), :func:`bare_build` (the owner's duty, option
``owner_keeps_capture_card``, which binds every kind of move), :func:`can_capture` and,
putting them together in the order a player would ask, :func:`trail_refusal`.
:mod:`~kartentisch.games.casino.explain` words a refused trail through
:func:`trail_refusal`; the move generator (:mod:`~kartentisch.games.casino.movegen`) calls
:func:`trail_banned` and keeps the other two tests inline in its per-card loop (a call
there per card costs several percent of a move), and a test
(``tests/casino/test_fast_paths.py``, ``test_trail_rule_is_one_predicate``) holds every
card's trail of every position it offers or refuses to :func:`trail_refusal`.

The rule of raising (option ``raising``) stands here once too, :func:`raise_refusal`, which
the explanation words; the move generator tests it inline on :data:`RAISE_LEVELS` (a call
per position with builds cost several percent of a move, more when compiled), and
``test_raise_rule_is_one_predicate`` holds every raise it offers or refuses in random
positions under each value to :func:`raise_refusal`. So is the rule of a player who can
capture nothing (option ``build_without_capture``), :func:`no_capture_refusal`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from kartentisch.games.casino.actions import Action, Build, Capture, Trail
from kartentisch.games.casino.cards import VALUES, card_names, is_face

if TYPE_CHECKING:
    from kartentisch.games.casino.state import CasinoState


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
        """Whether it is a multiple build (a call): its cards add up to more than its value
        (several groups of it, or, with option ``raising`` = ``any``, a raised call)."""
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


def trail_banned(every_turn: bool, builds: Mapping[int, BuildUnit], seat: int,
                 last_turn: int) -> bool:
    """The trail ban: whether ``seat``, whose latest play was turn ``last_turn``, may not
    trail because of a build it owns: with option ``trail_ban`` = ``while_build_stands``
    (``every_turn``) any build it owns, with ``next_turn`` one it made or changed on its
    latest play. No build, no ban.

    A plain loop, not ``any()`` over a generator: the move generator asks this at every
    position where the player owns a build, and a generator is a frame more per call."""
    for b in builds.values():  # noqa: SIM110 (see the docstring)
        if b.owner == seat and (every_turn or b.turn == last_turn):
            return True
    return False


def bare_build(state: CasinoState, action: Action) -> int:
    """The owner's duty (option ``owner_keeps_capture_card``): a value of a build the player
    to act would own after ``action`` without a card of that value left in the hand to take
    it with, or 0 (also when the option is off)."""
    if not state.game.options.owner_keeps_capture_card:
        return 0
    seat = state.current_player
    owned = {v for v, b in state.builds.items() if b.owner == seat}
    if type(action) is Capture and action.build:
        owned.discard(action.build)
    elif type(action) is Build:
        owned.discard(action.raised)
        owned.add(action.value)
    left = Counter(VALUES[c] for c in state.hands[seat])
    left[VALUES[action.card]] -= 1
    return next((v for v in sorted(owned) if left[v] <= 0), 0)


def can_capture(state: CasinoState, card: int) -> bool:
    """Whether ``card`` could capture something now: a face card a loose card of its rank,
    a numeral some loose numerals adding up to its value, or the build of its value."""
    loose = state.loose
    if is_face(card):
        return any(c >> 2 == card >> 2 for c in loose)
    value = VALUES[card]
    return value in state.builds or bool(state.subset_sums()[value])


def trail_refusal(state: CasinoState, card: int) -> tuple[str, dict[str, object]] | None:
    """Why the player to act may not trail ``card`` (held) now, as a reason code and its
    params, or None when they may: the trail ban, then the owner's duty, then option
    ``trail_when_capture_possible`` (a card that could capture is not trailed).

    One exception stands in the move generator alone: a player whom these rules leave no
    move at all (possible only with the owner's duty off) may trail any card.
    """
    options = state.game.options
    if trail_banned(options.trail_ban == "while_build_stands", state.builds,
                    state.current_player, state.last_turn[state.current_player]):
        return ("casino.trail_ban_next_turn" if options.trail_ban == "next_turn"
                else "casino.trail_ban_owner"), {}
    bare = bare_build(state, Trail(card))
    if bare:
        return "casino.keep_for_build", {"value": bare}
    if not options.trail_when_capture_possible and can_capture(state, card):
        return "casino.trail_can_capture", {}
    return None


RAISE_LEVELS: Final[Mapping[str, int]] = {"none": 0, "single": 1, "any": 2}
"""Option ``raising`` as the move generator reads it: 0 raises nothing, 1 single builds
only, 2 every build."""


def raise_refusal(raising: str, build: BuildUnit) -> str | None:
    """The rule of raising (option ``raising``): why ``build`` may not be raised now, as a
    reason code, or None when a card from the hand may raise it (the card's value and the
    card kept for the new value are checked elsewhere, as for every build).

    The rulebook reads both ways: "kann von keinem Spieler erhöht werden" forbids raising,
    yet its own example turns "eine gebildete 8" into a 9 with an ace. ``none`` follows the
    ban, ``single`` (the default) the standard game (a single build may be raised, a
    multiple build never), ``any`` the example for every build."""
    if raising == "none":
        return "casino.no_raising"
    if raising == "single" and build.multiple:
        return "casino.multiple_not_raised"
    return None


def no_capture_refusal(build_without_capture: bool, captures: bool) -> str | None:
    """The rule of a player who can capture nothing (option ``build_without_capture``): why
    they may not build, raise or join a build now, as a reason code, or None when they may.
    ``captures``: whether any capture is legal for them now.

    "Kann ein Spieler keine Karte nehmen", he must trail ("muss ... nachziehen"): read
    literally, such a player has no other move (option off); the usual reading (the
    default) lets them build too, as the rulebook's build example does, which captures
    nothing. The move generator keeps only the trails of such a player
    (``movegen._trails_without_capture``), explain words the refusal of a build."""
    if build_without_capture or captures:
        return None
    return "casino.must_trail"


def describe_table(loose: list[int], builds: Mapping[int, BuildUnit]) -> str:
    """A compact table text: ``3c 4d [8: 2h 6c by 0]``."""
    parts = card_names(loose)
    for v in sorted(builds):
        b = builds[v]
        parts.append(f"[{v}{'*' if b.multiple else ''}: {' '.join(card_names(b.cards))} "
                     f"by {b.owner}]")
    return " ".join(parts) if parts else "(empty)"
