"""Casino's legal moves: every distinct move of the player to act, as sorted action ids.

Moves are generated as ids, never as action objects: a search asks for the legal moves of
many positions and plays few of the moves it sees, and an id is one ``int`` addition away
from the bitmask of the loose cards a move uses (``ID_BASE[card * NUM_CODES + code] +
compress(mask)``, see :mod:`~kartentisch.games.casino.actions`). Action objects are made
only when somebody asks for them (:func:`action_of`, a shared cache).

Speed: no subset search per move. The state keeps, as its table changes, the *subset sums*
of its loose numerals (:class:`~kartentisch.games.casino.combinatorics.SubsetSums`:
``sums[k]`` holds the bitmask of every set of loose cards adding up to k <= 10; a trail adds
the subsets with the new card, a capture or build filters out the subsets that lost a card).
A move then needs only unions of disjoint groups from one of those lists:

* a capture with a card of value v takes the cards of groups of v: the unions of disjoint
  masks from ``sums[v]`` (:func:`closure` from the empty set);
* a build of v with a card of value w < v joins one group of v - w (the card completes it)
  and any number of groups of v: :func:`closure` of ``sums[v - w]`` under ``sums[v]``;
  with w = v the card is a group of its own, and the loose cards are the capture's.

The owner's duty (option ``owner_keeps_capture_card``) and the trail ban are checked here,
per candidate move; :mod:`~kartentisch.games.casino.explain` says in words which rule a
refused move breaks, and the two must agree (tests check both against each other).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kartentisch.games.casino.actions import (
    CODE_BUILD,
    CODE_BUILD_MERGE,
    CODE_CAPTURE,
    CODE_CAPTURE_BUILD,
    CODE_RAISE,
    CODE_RAISE_MERGE,
    CODE_TRAIL,
    ID_BASE,
    NUM_CODES,
    Action,
    action_from_id,
)
from kartentisch.games.casino.cards import VALUES
from kartentisch.games.casino.table import trail_banned

if TYPE_CHECKING:
    from kartentisch.games.casino.state import CasinoState

_INTERNED: dict[int, Action] = {}
"""Action objects by id, shared between states (a pure cache: actions are immutable)."""
_INTERN_LIMIT: Final = 200_000

_EMPTY: Final[tuple[int, ...]] = (0,)
"""The closure's start for captures: no card taken yet."""


def action_of(aid: int) -> Action:
    """The shared action object for the (valid) id ``aid``."""
    action = _INTERNED.get(aid)
    if action is None:
        if len(_INTERNED) >= _INTERN_LIMIT:
            _INTERNED.clear()
        action = _INTERNED[aid] = action_from_id(aid)
    return action


def closure(start: tuple[int, ...], groups: tuple[int, ...]) -> set[int] | tuple[int, ...]:
    """Every ``s | g1 | g2 ...`` with ``s`` from ``start`` and pairwise disjoint ``groups``
    disjoint from ``s`` (none at all included), each set once.

    Each group in turn is added to every set found so far that it does not meet, so every
    combination of disjoint groups is reached; the set drops unions reached twice (the same
    cards grouped differently).

    >>> sorted(closure((0,), (0b011, 0b100, 0b110)))
    [0, 3, 4, 6, 7]
    """
    if not groups:
        return start
    found = set(start)
    for g in groups:
        found.update([m | g for m in found if not m & g])
    return found


def legal_ids(state: CasinoState) -> tuple[int, ...]:
    """The ids of every legal move of the player to act, ascending (empty when over)."""
    if state.phase == "over":
        return ()
    seat = state._current
    hand = state.hands[seat]
    options = state.game.options
    builds = state.builds
    sums = state._sums
    if sums is None:
        sums = state.subset_sums()
    held = [0] * 11
    for c in hand:
        held[VALUES[c]] += 1
    targets = [v for v in range(1, 11) if held[v]]
    """Values a build may take: the player must keep a card of the build's value."""
    owned: list[int] = []
    keeps = False
    if builds:
        owned = [v for v, b in builds.items() if b.owner == seat]
        keeps = options.owner_keeps_capture_card and bool(owned)
    ids: list[int] = []
    can_capture: list[int] = []
    found: dict[int, set[int] | tuple[int, ...]] = {}
    """Closures already computed, by ``value * 16 + value of the card's own group``."""
    short: list[int] = []
    for card in hand:
        cv = VALUES[card]
        key = card * NUM_CODES
        if keeps:
            # Owner's duty: every build the player owns after the play needs a card of its
            # value left in the hand. ``short`` lists owned values the play would leave bare.
            short = [v for v in owned if held[v] - (v == cv) <= 0]
        if cv == 0:
            # a face card's segment packs the other three cards of its rank: the card of
            # suit s is bit s, less one above the played card's own suit
            rank = card >> 2
            faces = [c for c in state._loose if c >> 2 == rank]
            if faces:
                can_capture.append(card)
                if not short:
                    base = ID_BASE[key + CODE_CAPTURE]
                    own = card & 3
                    bits = [1 << ((f & 3) - ((f & 3) > own)) for f in faces]
                    if options.face_cards_capture_all:
                        ids.append(base + sum(bits))
                    else:
                        ids.extend([base + bit for bit in bits])
            continue
        # The id of a numeral move is ID_BASE[key + code] + the mask with the card's own bit
        # squeezed out. As that bit is never set, (mask + (mask & low)) >> 1 does it: adding
        # the low part to itself shifts it up one, then everything moves down one.
        low = (1 << card) - 1
        groups = sums[cv]
        if groups:
            masks = found.get(cv)
            if masks is None:
                masks = found[cv] = closure(_EMPTY, groups)
            can_capture.append(card)
            if not short:
                base = ID_BASE[key + CODE_CAPTURE]
                ids.extend([base + ((m + (m & low)) >> 1) for m in masks if m])
        else:
            masks = _EMPTY
        if cv in builds:
            can_capture.append(card)
            if not short or short == [cv]:
                base = ID_BASE[key + CODE_CAPTURE_BUILD]
                ids.extend([base + ((m + (m & low)) >> 1) for m in masks])
        # builds and calls of value v (the new build needs a v left in the hand too)
        for v in targets:
            if v < cv or (v == cv and held[v] < 2) or (short and short != [v]):
                continue
            if v == cv:
                group = masks
            else:
                start = sums[v - cv]
                if not start:
                    continue
                cached = found.get(v * 16 + v - cv)
                if cached is None:
                    cached = found[v * 16 + v - cv] = closure(start, sums[v])
                group = cached
            if v in builds:
                base = ID_BASE[key + CODE_BUILD_MERGE + v - 1]
                ids.extend([base + ((m + (m & low)) >> 1) for m in group])
            else:
                base = ID_BASE[key + CODE_BUILD + v - 1]
                ids.extend([base + ((m + (m & low)) >> 1) for m in group if m])
        # raises of single builds
        if builds:
            for u, b in builds.items():
                w = u + cv
                if w > 10 or held[w] - (w == cv) <= 0 or b.multiple:
                    continue
                if short and [x for x in short if x != u] not in ([], [w]):
                    continue
                ids.append(ID_BASE[key + (CODE_RAISE_MERGE if w in builds else CODE_RAISE)
                                   + u - 1])
    # trails
    if not builds or not trail_banned(options.trail_ban, builds, seat, state.last_turn[seat]):
        check = not options.trail_when_capture_possible
        for card in hand:
            if check and card in can_capture:
                continue
            if keeps and any(held[v] - (v == VALUES[card]) <= 0 for v in owned):
                continue
            ids.append(ID_BASE[card * NUM_CODES + CODE_TRAIL])
    if not ids:
        # Only reachable when the owner's duties are off: a player who may not trail
        # and has nothing else to do may trail after all (documented decision).
        ids = [ID_BASE[c * NUM_CODES + CODE_TRAIL] for c in hand]
    ids.sort()
    return tuple(ids)
