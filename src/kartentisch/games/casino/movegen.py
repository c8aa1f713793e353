"""Casino's legal moves: every distinct move of the player to act, as sorted action ids.

Moves are generated as ids, never as action objects: a search asks for the legal moves of
many positions and plays few of the moves it sees, and an id is one ``int`` addition away
from the bitmask the subset search produces (``ID_BASE[card * NUM_CODES + code] +
compress(mask)``, see :mod:`~kartentisch.games.casino.actions`). Action objects are made
only when somebody asks for them (:func:`action_of`, a shared cache).

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
from kartentisch.games.casino.cards import VALUES, rank_of
from kartentisch.games.casino.combinatorics import disjoint_unions, subsets_by_sum
from kartentisch.games.casino.table import trail_banned

if TYPE_CHECKING:
    from kartentisch.games.casino.state import CasinoState

_INTERNED: dict[int, Action] = {}
"""Action objects by id, shared between states (a pure cache: actions are immutable)."""
_INTERN_LIMIT: Final = 200_000


def action_of(aid: int) -> Action:
    """The shared action object for the (valid) id ``aid``."""
    action = _INTERNED.get(aid)
    if action is None:
        if len(_INTERNED) >= _INTERN_LIMIT:
            _INTERNED.clear()
        action = _INTERNED[aid] = action_from_id(aid)
    return action


def legal_ids(state: CasinoState) -> tuple[int, ...]:
    """The ids of every legal move of the player to act, ascending (empty when over)."""
    if state.is_terminal():
        return ()
    seat = state._current
    hand = state.hands[seat]
    options = state.game.options
    builds = state.builds
    loose = state.loose
    numerals = [c for c in loose if VALUES[c]]
    sums = subsets_by_sum(numerals)
    unions: dict[int, list[int]] = {}

    def unions_of(v: int) -> list[int]:
        # memoised per position: captures and builds of one value ask for the same unions
        if v not in unions:
            unions[v] = disjoint_unions(sums[v])
        return unions[v]

    held = [0] * 11
    for c in hand:
        held[VALUES[c]] += 1
    owned = [v for v, b in builds.items() if b.owner == seat]
    keeps = options.owner_keeps_capture_card and bool(owned)
    ids: list[int] = []
    add = ids.append
    can_capture: set[int] = set()
    hand_sorted = sorted(hand)
    for card in hand_sorted:
        cv = VALUES[card]
        key = card * NUM_CODES
        # The id of a numeral move is ID_BASE[key + code] + the mask with the card's own bit
        # squeezed out. As that bit is never set, (mask + (mask & low)) >> 1 does it: adding
        # the low part to itself shifts it up one, then everything moves down one. Inlined
        # below for speed (three operations per mask).
        low = (1 << card) - 1
        # Owner's duty: every build the player owns after the play needs a card of its
        # value left in the hand. ``short`` lists owned values the play would leave bare.
        short = [v for v in owned if held[v] - (v == cv) <= 0] if keeps else []
        # captures
        if cv == 0:
            rank = rank_of(card)
            faces = [c for c in loose if rank_of(c) == rank]
            if faces:
                can_capture.add(card)
                if not short:
                    # a face card's segment packs the other three cards of its rank: the
                    # card of suit s is bit s, less one above the played card's own suit
                    base = ID_BASE[key + CODE_CAPTURE]
                    own = card % 4
                    bits = [1 << (f % 4 - (f % 4 > own)) for f in faces]
                    if options.face_cards_capture_all:
                        add(base + sum(bits))
                    else:
                        ids.extend(base + bit for bit in bits)
            continue
        has_build = cv in builds
        ok_plain = not short
        ok_taking = not short or short == [cv]
        capture = ID_BASE[key + CODE_CAPTURE]
        capture_build = ID_BASE[key + CODE_CAPTURE_BUILD]
        for mask in unions_of(cv):
            packed = (mask + (mask & low)) >> 1
            if mask:
                can_capture.add(card)
                if ok_plain:
                    add(capture + packed)
            if has_build:
                can_capture.add(card)
                if ok_taking:
                    add(capture_build + packed)
        # builds and calls of value v (the new build needs a v left in the hand too)
        for v in range(cv, 11):
            if held[v] - (v == cv) <= 0 or (short and short != [v]):
                continue
            merged = v in builds
            base = ID_BASE[key + (CODE_BUILD_MERGE if merged else CODE_BUILD) + v - 1]
            masks: set[int] = set()
            own_groups = sums[v - cv] if v > cv else [0]
            for t in own_groups:
                for u in unions_of(v):
                    if not t & u:
                        masks.add(t | u)
            for mask in masks:
                if mask or merged:
                    add(base + ((mask + (mask & low)) >> 1))
        # raises of single builds
        for u, b in builds.items():
            w = u + cv
            if w > 10 or held[w] - (w == cv) <= 0 or b.multiple:
                continue
            if short and [x for x in short if x != u] not in ([], [w]):
                continue
            merged = w in builds
            add(ID_BASE[key + (CODE_RAISE_MERGE if merged else CODE_RAISE) + u - 1])
    # trails
    if not trail_banned(options.trail_ban, builds, seat, state.last_turn[seat]):
        for card in hand_sorted:
            if not options.trail_when_capture_possible and card in can_capture:
                continue
            if keeps and any(held[v] - (v == VALUES[card]) <= 0 for v in owned):
                continue
            add(ID_BASE[card * NUM_CODES + CODE_TRAIL])
    if not ids:
        # Only reachable when the owner's duties are off: a player who may not trail
        # and has nothing else to do may trail after all (documented decision).
        ids = [ID_BASE[c * NUM_CODES + CODE_TRAIL] for c in hand_sorted]
    ids.sort()
    return tuple(ids)
