"""Casino's legal moves: every distinct move of the player to act, as ascending action ids.

Moves are generated as ids, never as action objects: a search asks for the legal moves of
many positions and plays few of the moves it sees, and an id is one ``int`` addition away
from the bitmask of the loose cards a move uses (``ID_BASE[card * NUM_CODES + code] +
compress(mask)``, see :mod:`~kartentisch.games.casino.actions`). Action objects are made
only when somebody asks for them (:func:`make_actions`: with only their id, their fields
decoded when first read).

Speed: no search per move, and no bookkeeping per play. Which sets of loose numerals a
card may take or join depends only on the loose numerals' *mask* (bit ``c`` for card
``c``), and whether a set is allowed only on how many cards of each value it holds: a
capture with a card of value v takes sets that split into groups adding up to v; a build
of v with a card of value w < v joins sets that, with the card, split so. So the
answers (:func:`sets_for`) are found in two ways:

* for tables with at most one card of each value (85% of the questions in random play),
  in ``_SPREAD``, by (which values <= v lie loose, v, w): the allowed *count vectors*
  (how many cards of each value a set holds) with each value's nibble filled, so that a
  set is ``loose & filled``, and squeezed for the playing card, so that its id is
  ``base + (squeezed loose & x)``: no masks made. A pair (v, w)'s answers for all 2^v
  such tables are made at once (:func:`_spread_table`), from the integer partitions of v.
* for the others, on the cards themselves (:func:`_masks`): the unions of disjoint
  single groups, each group's cards chosen by its count vector.

Both ask :func:`_on_table` for the groups of v that use only values on the table. First
:func:`reachable`, the sums some loose numerals make, says whether a question has any
answer at all. The ids are made in ascending order (answers kept ascending, the hand
walked in card order), so they are never sorted.

Memory: every cache here is bounded (emptied when full) and small enough to stay in the
processor's caches; unbounded tables of every action and answer seen grew to hundreds of
thousands of objects, and their memory misses cost more time than they saved.

Count vectors are packed four bits per value (value k in bits ``4(k-1)`` on), like the
cards in a mask, so a set's counts are a nibble-wise popcount of its mask.

The rules of a trail are stated once, in :mod:`~kartentisch.games.casino.table`: the trail
ban is asked there (:func:`~.table.trail_banned`, once per position with a build the player
owns); the owner's duty and option ``trail_when_capture_possible`` are tested inline per
card (a call per card would cost several percent of a move), and a test holds every card's
trail of random positions to :func:`~.table.trail_refusal`, the predicate
:mod:`~kartentisch.games.casino.explain` words a refusal with.
The rule of raising (option ``raising``, :func:`~.table.raise_refusal`) is tested inline
the same way, on the state's ``_raise_level``, and held to the predicate by
``test_raise_rule_is_one_predicate``; a player who can capture nothing (option
``build_without_capture`` off) keeps only trails, :func:`~.table.no_capture_refusal`.

Size (over 600 lines, kept whole): the generator and the tables it reads per move are one
compiled module, so that every table is a C static (a name read from another module is a
dictionary probe per use when compiled, see the note on the bound names below).
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any, Final

from kartentisch.games.casino import actions, cards, table
from kartentisch.games.casino.actions import (
    CODE_BUILD,
    CODE_BUILD_MERGE,
    CODE_CAPTURE,
    CODE_CAPTURE_BUILD,
    CODE_RAISE,
    CODE_RAISE_MERGE,
    CODE_TRAIL,
    NUM_CODES,
    Action,
)

if TYPE_CHECKING:
    from kartentisch.games.casino.state import CasinoState

# Compiled with mypyc, a name imported from a module outside the compiled group (a table, a
# class, a function) and a module variable that is not Final are looked up in this module's
# globals dict at every use (a string-keyed probe, ~100 instructions); a module-level Final
# is a C static. So what the move generator reads per move is bound here once, as Finals
# (benchmarks/RESULTS.md, "Compiled Casino: where the time goes"; `benchmarks/gc_costs.py
# --scan-build` lists the lookups left in a build).
VALUES: Final[tuple[int, ...]] = cards.VALUES
ID_BASE: Final[tuple[int, ...]] = actions.ID_BASE
SEG_ROWS: Final[tuple[tuple[int, int, int, int], ...]] = actions.SEG_ROWS
SEG_STARTS: Final[tuple[int, ...]] = actions.SEG_STARTS
SET_AID: Final = actions.SET_AID
OFFERS_GET: Final = actions.OFFERS.__getitem__
Build: Final = actions.Build
BuildDraft: Final = actions.BuildDraft
Capture: Final = actions.Capture
CaptureDraft: Final = actions.CaptureDraft
Trail: Final = actions.Trail
TrailDraft: Final = actions.TrailDraft
trail_banned: Final = table.trail_banned
bisect_right: Final = bisect.bisect_right


_INTERNED: Final[dict[int, Action]] = {}
"""Action objects by id, shared between states (a pure cache: actions are immutable), for
:func:`action_of`: the actions that a parser hands out, which ``apply`` then knows."""
_INTERN_LIMIT: Final = 1 << 14

_KEEP_TRACKED: Final[Any] = ([],)
"""A value that the garbage collector always tracks (a tuple holding a list), stored under
key -1 (never asked for) in every cache of tuples below: see :func:`_keep_tracked`."""


def _keep_tracked(cache: dict[int, Any]) -> None:
    """Empty ``cache`` and put :data:`_KEEP_TRACKED` in it, so that the collector always
    tracks the dict and it ages into the oldest generation.

    Why: the caches hold tuples of ints, which the collector stops tracking after their
    first collection, and then the dict too. Every new entry then tracks the dict again as
    a *young* object, and the next young collection walks (and tries to untrack) all of
    its up to 100,000 entries: in random play that was ~5% of the time, mostly memory
    misses. A dict that stays tracked is walked only by the rare full collections.
    """
    cache.clear()
    cache[-1] = _KEEP_TRACKED




_BYTE_CARDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(8 * k + b for b in range(8) if byte >> b & 1) for k in range(7) for byte in range(256))
"""``_BYTE_CARDS[256 * k + byte]``: the cards of the bits of ``byte`` at bits ``8k`` on (so
the cards of a mask are a few concatenations of small shared tuples, no cache)."""


_BUCKET_SHIFT: Final = 34
_BUCKET_LO: Final[tuple[int, ...]] = tuple(
    bisect_right(SEG_STARTS, b << _BUCKET_SHIFT) - 1
    for b in range((SEG_STARTS[-1] >> _BUCKET_SHIFT) + 2))
"""``_BUCKET_LO[b]``: the segment holding id ``b << _BUCKET_SHIFT``, so the segment of id
``i`` lies between ``_BUCKET_LO[i >> _BUCKET_SHIFT]`` and the next bucket's (a bisection
over a few segments instead of all 944: the id space's segments are mostly huge)."""


def segment_of(i: int) -> int:
    """The row of :data:`~.actions.SEG_ROWS` of the valid id ``i``: the bucket's one
    segment (most ids), else a bisection over the bucket's segments."""
    lo = _BUCKET_LO[i >> _BUCKET_SHIFT]
    hi = _BUCKET_LO[(i >> _BUCKET_SHIFT) + 1] + 1
    if hi - lo == 1:
        return lo
    return bisect_right(SEG_STARTS, i, lo, hi) - 1


def make_action(i: int) -> Action:
    """:func:`~.actions.action_from_id` for an id known to be valid (the move generator's):
    no checks, the cards of a mask from a table of bytes, the object filled as its mutable
    twin (:class:`~.actions.CaptureDraft`) and then given its class. Equal to
    ``action_from_id(i)`` (tests compare them on every segment)."""
    base, card, code, shift = SEG_ROWS[segment_of(i)]
    if code == CODE_TRAIL:
        trail: Any = TrailDraft()
        trail.card = card
        trail.__class__ = Trail
        return trail  # type: ignore[no-any-return]
    packed = (i - base) << shift
    mask = (packed & ((1 << card) - 1)) | ((packed >> card) << (card + 1))
    loose: tuple[int, ...] = ()
    at = 0
    while mask:  # the cards of the mask, a byte at a time from a small table
        byte = mask & 255
        if byte:
            loose += _BYTE_CARDS[at + byte]
        mask >>= 8
        at += 256
    if code <= CODE_CAPTURE_BUILD:
        capture: Any = CaptureDraft()
        capture.card = card
        capture.loose = loose
        capture.build = VALUES[card] if code == CODE_CAPTURE_BUILD else 0
        capture.__class__ = Capture
        return capture  # type: ignore[no-any-return]
    build: Any = BuildDraft()
    build.card = card
    if code < CODE_RAISE:
        merged = code >= CODE_BUILD_MERGE
        build.value = code - (CODE_BUILD_MERGE if merged else CODE_BUILD) + 1
        build.loose = loose
        build.raised = 0
    else:
        merged = code >= CODE_RAISE_MERGE
        raised = code - (CODE_RAISE_MERGE if merged else CODE_RAISE) + 1
        build.value = VALUES[card] + raised
        build.loose = ()
        build.raised = raised
    build.merged = merged
    build.__class__ = Build
    return build  # type: ignore[no-any-return]


def make_actions(ids: tuple[int, ...]) -> tuple[Action, ...]:
    """The action objects that ``legal_actions()`` offers for the valid ``ids``, each with
    its id set (``apply`` reads it), from :data:`~.actions.OFFERS`: shared objects for the
    moves with at most one loose card and those of two loose numerals that fit (made once),
    every other move as an object made for this position with only its id set (its fields
    are decoded when first read, see :class:`~.actions._Offered`: the state plays an offered
    action by its id, so the one played is never decoded).

    Why: decoding every offered id (a loose-card tuple per capture or build) cost more
    than the rest of the list, and a cache of every action seen grew a table of
    long-lived objects that the garbage collector walks. One C-level ``map`` over the dict
    serves pure Python and the compiled build alike (compiled code had a table of its own
    by segment; see benchmarks/RESULTS.md, "One source for both modes").
    """
    return tuple(map(OFFERS_GET, ids))


_RECENT: Final[dict[int, Action]] = {}
"""Recently made actions by id, emptied when it holds :data:`_RECENT_LIMIT` (a pure cache:
actions are immutable, and equal by value to any other object of the same action)."""
_RECENT_LIMIT: Final = 1 << 14


def recent_action(i: int) -> Action:
    """The action of the valid id ``i``, from :data:`_RECENT` or made and kept there."""
    action = _RECENT.get(i)
    if action is None:
        if len(_RECENT) >= _RECENT_LIMIT:
            _RECENT.clear()
        action = _RECENT[i] = make_action(i)
    return action


def action_of(aid: int) -> Action:
    """The shared action object for the (valid) id ``aid``, decoded, with its id set (so
    that ``apply`` knows it without computing the id)."""
    action = _INTERNED.get(aid)
    if action is None:
        if len(_INTERNED) >= _INTERN_LIMIT:
            _INTERNED.clear()
        action = _INTERNED[aid] = make_action(aid)
        SET_AID(action, aid)
    return action


# ----------------------------------------------------------------------------- tables
_GUARD: Final = 0x8888888888
"""Bit 3 of each value's nibble: ``((n | _GUARD) - x) & _GUARD == _GUARD`` says that count
vector ``x`` is at most ``n`` in every value (all counts at most 8, so nothing borrows)."""
_LOW: Final[tuple[int, ...]] = tuple((1 << 4 * v) - 1 for v in range(11))
"""``_LOW[v]``: the mask of every numeral of value at most v (cards ``0 .. 4v - 1``)."""
_NUMERALS: Final = _LOW[10]
_ONES: Final = 0x1111111111
_FIVES: Final = 0x5555555555
_THREES: Final = 0x3333333333


def counts_of(mask: int) -> int:
    """The count vector of the numerals in ``mask``: a popcount of each value's nibble.

    >>> hex(counts_of(0b0111_0000_0001))  # three 3s and an ace
    '0x301'
    """
    mask &= _NUMERALS
    mask -= (mask >> 1) & _FIVES
    return (mask & _THREES) + ((mask >> 2) & _THREES)


def _partitions(v: int, largest: int) -> list[list[int]]:
    """The integer partitions of ``v`` into parts of at most ``largest``."""
    if v == 0:
        return [[]]
    return [[p, *rest] for p in range(min(v, largest), 0, -1)
            for rest in _partitions(v - p, p)]


def _vector(parts: list[int]) -> int:
    return sum(1 << 4 * (p - 1) for p in parts)


def _fits(parts: list[int]) -> bool:
    """Whether no value occurs more than four times (a pack has four of each)."""
    return all(parts.count(p) <= 4 for p in set(parts))


_GROUPS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_vector(p) for p in _partitions(v, v) if _fits(p)) for v in range(11))
"""``_GROUPS[v]``: count vectors of the groups adding up to v (the partitions of v)."""
_JOINS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted({_vector(p) - (1 << 4 * (w - 1)) for p in _partitions(v, v)
                  if w in p and _fits(p[:p.index(w)] + p[p.index(w) + 1:])}))
    if 1 <= w < v else () for v in range(11) for w in range(11))
"""``_JOINS[v * 11 + w]``: count vectors of the loose cards that a card of value w joins
into one group of v (w < v). As sets these are the groups of v - w (:data:`_GROUPS`; a test
checks it), so the move generator asks :func:`_on_table` for those, which keeps only the
groups of the values on the table."""


def _choices() -> tuple[tuple[int, ...], ...]:
    out = []
    for shift in range(10):
        for nibble in range(16):
            subs = [s for s in range(16) if s & nibble == s]
            for j in range(5):
                out.append(tuple(s << 4 * shift for s in subs if s.bit_count() == j))
    return tuple(out)


_CHOOSE: Final = _choices()
"""``_CHOOSE[(k * 16 + nibble) * 5 + j]``: the masks of every ``j`` of the cards of value
``k + 1`` whose suits are the bits of ``nibble``."""

Plan = tuple[tuple[int, int], ...]
"""A count vector as :func:`_group_masks` reads it: for each value held, ``(k * 80 + j, 4 * k)``
(``j`` cards of value ``k + 1``: the part of a :data:`_CHOOSE` index that does not depend
on the table, and where that value's nibble sits in a mask)."""


_SETS_LIMIT: Final = 1 << 14
_CACHE_LIMIT: Final = 100_000
_MULTI: Final = 0xEEEEEEEEEE
"""The bits of a count vector above each value's lowest: none set when the cards hold at
most one of each value."""
_SPREAD: Final[dict[int, tuple[int, ...]]] = {}
"""For loose cards with at most one card of each value: the allowed count vectors by
``counts << 8 | v << 4 | w`` (the counts of the values <= v), each times 15 (every nibble
of a value held all ones) and then squeezed for the playing card, ascending (see
:func:`_spread_table`): the squeezed loose cards ``& x`` is the part of a set's id above
its segment's base."""


def _count_vectors(n: int, v: int, w: int) -> tuple[int, ...]:
    """Every count vector ``x <= n`` (not 0) that splits into groups of v, with one of the
    groups completed by a card of value ``w`` when ``w`` is not 0 (in no particular order:
    the answers made from them are sorted when made)."""
    limit = n | _GUARD
    support = (n | n >> 1 | n >> 2) & _ONES
    candidates = _ON_TABLE.get(support << 4 | v)  # (the cache asked here: no call on a hit)
    if candidates is None:
        candidates = _on_table(support, v)
    groups = [g for g in candidates if (limit - g) & _GUARD == _GUARD]
    if w:  # the loose part of the card's group: a group of v - w (see _JOINS)
        support &= _LOW[v - w]
        candidates = _ON_TABLE.get(support << 4 | (v - w))
        if candidates is None:
            candidates = _on_table(support, v - w)
        found = {x for x in candidates if (limit - x) & _GUARD == _GUARD}
    elif groups:
        found = {0}
    else:
        return ()
    for g in groups:
        for x in list(found):  # g as often as it fits, onto everything found so far
            y = x + g
            while (limit - y) & _GUARD == _GUARD:
                found.add(y)
                y += g
    found.discard(0)
    return tuple(found)


_ON_TABLE: Final[dict[int, tuple[int, ...]]] = {}
"""The groups of v (:data:`_GROUPS`) that use only values on the table, by the table's
values (bit ``4(k - 1)`` for value k) ``<< 4 | v``: at most 2^v keys for each v."""
_TOPPED: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(g for g in _GROUPS[v] if g.bit_length() - 1 >> 2 == t - 1)
    for v in range(11) for t in range(11))
"""``_TOPPED[v * 11 + t]``: the groups of v whose largest value is t."""


def _on_table(support: int, v: int) -> tuple[int, ...]:
    """:data:`_ON_TABLE` for the values ``support``: those of the values below the largest
    (most often known already), and the groups that the largest value tops."""
    key = support << 4 | v
    found = _ON_TABLE.get(key)
    if found is None:
        if support:
            top = support.bit_length() - 1
            found = _on_table(support ^ (1 << top), v) + tuple(
                [g for g in _TOPPED[v * 11 + (top >> 2) + 1]
                 if not (g | g >> 1 | g >> 2) & _ONES & ~support])
        else:
            found = ()
        if len(_ON_TABLE) >= _CACHE_LIMIT:
            _keep_tracked(_ON_TABLE)
        _ON_TABLE[key] = found
    return found
_PLAN_OF: Final[dict[int, Plan]] = {}
"""The plan of each group's count vector seen (a pure cache: few small vectors recur)."""
for _cache in (_ON_TABLE, _PLAN_OF, _SPREAD):
    _keep_tracked(_cache)


def _plan_of(x: int) -> Plan:
    """:data:`_PLAN_OF`'s entry for the count vector ``x``, made and kept."""
    if len(_PLAN_OF) >= _CACHE_LIMIT:
        _keep_tracked(_PLAN_OF)
    plan = _PLAN_OF[x] = tuple([(k * 80 + (x >> 4 * k & 15), 4 * k)
                                for k in range(10) if x >> 4 * k & 15])
    return plan


_GROUPS_OF: Final[dict[int, tuple[int, ...]]] = {}
""":func:`_group_masks` by ``loose << 4 | v`` (the loose cards of values <= v), emptied at
:data:`_SETS_LIMIT` entries: two in five of these questions repeat (a third within one
position, asked for a capture and for builds of the same value)."""
_keep_tracked(_GROUPS_OF)


def _group_masks(loose: int, limit: int, support: int, v: int) -> tuple[int, ...]:
    """The masks of the single groups of v among the loose cards ``loose`` (of values <= v;
    ``limit``: their count vector ``| _GUARD``; ``support``: their values): each group of v
    that the counts allow (:func:`_on_table`), with every choice of its cards
    (:data:`_CHOOSE`); made and kept in :data:`_GROUPS_OF`."""
    candidates = _ON_TABLE.get(support << 4 | v)
    if candidates is None:
        candidates = _on_table(support, v)
    out: list[int] = []
    for g in candidates:
        if (limit - g) & _GUARD != _GUARD:
            continue
        plan = _PLAN_OF.get(g)
        if plan is None:
            plan = _plan_of(g)
        kj, shift = plan[0]
        subs = _CHOOSE[kj + (loose >> shift & 15) * 5]
        if len(plan) == 1:
            out += subs
            continue
        sets = list(subs)
        for kj, shift in plan[1:]:
            subs = _CHOOSE[kj + (loose >> shift & 15) * 5]
            sets = [m | s for m in sets for s in subs]
        out += sets
    if len(_GROUPS_OF) >= _SETS_LIMIT:
        _keep_tracked(_GROUPS_OF)
    found = _GROUPS_OF[loose << 4 | v] = tuple(out)
    return found


def _masks(loose: int, n: int, v: int, w: int) -> list[int]:
    """:func:`sets_for`'s answer, ascending, for ``loose`` already restricted to the values
    at most ``v`` and ``n`` its count vector: found on the cards themselves, as the unions
    of disjoint groups of v (:func:`_group_masks`), starting from nothing (a capture) or
    from each group of v - w (a build of v with a card of w: the rest of the card's group).

    For tables holding two or more cards of some value (15% of the questions): a cache of
    the answers by the count vector (as for the other tables) missed on three of four of
    these questions in random play, by the table's mask on seven of eight; the single
    groups, which a capture and the builds of one value share, repeat more (kept in
    :data:`_GROUPS_OF`), and the unions are few."""
    limit = n | _GUARD
    support = (n | n >> 1 | n >> 2) & _ONES
    groups = _GROUPS_OF.get(loose << 4 | v)
    if groups is None:
        groups = _group_masks(loose, limit, support, v)
    if w:
        rest = loose & _LOW[v - w]
        joins = _GROUPS_OF.get(rest << 4 | (v - w))
        if joins is None:
            joins = _group_masks(rest, limit, support & _LOW[v - w], v - w)
        if not groups:
            return sorted(joins)
        found = set(joins)
    elif len(groups) < 2:  # no group or one: nothing to unite
        return list(groups)
    else:
        found = {0}
    for g in groups:
        for m in list(found):  # g onto every set found so far that it does not meet
            if not m & g:
                found.add(m | g)
    found.discard(0)
    return sorted(found)


def sets_for(loose: int, v: int, w: int = 0) -> tuple[int, ...]:
    """The sets of loose numerals (masks, none empty, ascending) that a card of value ``v``
    captures (``w`` = 0), or that a card of value ``w`` < ``v`` joins into a build of ``v``.

    ``loose`` is the mask of the loose cards (faces are ignored).

    >>> [bin(m) for m in sets_for(0b0001_0000_0001, 4)]  # Ac 3c: the 4 takes both
    ['0b100000001']
    >>> [bin(m) for m in sets_for(0b0001_0000_0001, 5, 1)]  # an ace joins both into 5
    ['0b100000001']
    >>> sets_for(0b0001_0000_0001, 6, 1)  # but into no build of 6
    ()
    """
    loose &= _LOW[v]
    n = loose - ((loose >> 1) & _FIVES)  # counts_of(loose), inlined
    n = (n & _THREES) + ((n >> 2) & _THREES)
    return tuple(_masks(loose, n, v, w))


def _spread(key: int) -> tuple[int, ...]:
    """:data:`_SPREAD`'s entry for ``key`` (``n << 8 | v << 4 | w``, ``n`` a count vector
    with at most one card of each value), after making the entries of every such ``n`` of
    this ``(v, w)`` at once (:func:`_spread_table`)."""
    _spread_table(key >> 4 & 15, key & 15)
    return _SPREAD[key]


def _spread_table(v: int, w: int) -> None:
    """Put in :data:`_SPREAD` the answers of ``(v, w)`` for every table with at most one
    card of each value (the 2^v sets of values up to v): the allowed count vectors with
    every nibble they hold filled (all four cards of the value), each then *compressed* as
    a card of the playing value squeezes its own bit out of an id's mask, ascending.

    Why compressed: with the filled nibbles the squeeze does not depend on the playing
    card's suit (a full nibble less any one bit squeezes to the same three bits), so the
    id of a set is ``base + (lc & x)``, ``lc`` the loose cards squeezed once per card: one
    ``&`` per id, no set masks made. Ascending ``x`` give ascending ids, as each value held
    has a loose card (so no two vectors meet the same bits of ``lc``).

    Why all at once: an allowed vector does not depend on the table, only on being on it,
    so the answers of one ``(v, w)`` are the allowed vectors of distinct values (at most
    78) sorted into the tables that hold them, by the largest value; asked one table at a
    time, a third of the questions of a fresh process missed, each costing more than
    making a whole ``(v, w)``'s 2^v answers does per answer (at most 55 pairs, 18,400
    answers, each pair made once in a process)."""
    card = 4 * ((w or v) - 1)  # a card of the playing value: its suit does not matter
    low = (1 << card) - 1
    tops: list[list[tuple[int, int]]] = [[] for _ in range(v + 1)]
    for x in sorted(_count_vectors(_ONES & _LOW[v], v, w)):
        full = x * 15 & ~(1 << card)
        tops[(x.bit_length() + 3) >> 2].append((x, (full + (full & low)) >> 1))
    tag = v << 4 | w
    answers: dict[int, tuple[int, ...]] = {0: ()}
    for t in range(1, v + 1):  # the tables holding t: those without, plus t
        bit = 1 << 4 * (t - 1)
        top = tops[t]
        for n, found in list(answers.items()):
            table = n | bit
            answers[table] = found + tuple([sq for x, sq in top if not x & ~table])
    if len(_SPREAD) + len(answers) >= _CACHE_LIMIT:
        _keep_tracked(_SPREAD)
    for n, found in answers.items():
        _SPREAD[n << 8 | tag] = found


# ----------------------------------------------------------------------------- moves
def reachable(loose: int) -> int:
    """Bit k (k <= 10) set when some loose numerals add up to k: a capture with a card of
    value v exists exactly when bit v is set, a build of v with a card of value w < v
    exactly when bit v - w is (one group suffices). Most of :func:`sets_for`'s questions
    have no answer, so this cheap test spares them (and its caches) the asking.

    >>> bin(reachable(0b0001_0000_0001))  # Ac 3c: sums 0, 1, 3, 4
    '0b11011'
    """
    mask = loose & _NUMERALS
    n = mask - ((mask >> 1) & _FIVES)  # counts_of(mask), inlined: the sums depend on the
    n = (n & _THREES) + ((n >> 2) & _THREES)  # values only, and value counts recur more
    found = _REACH.get(n)
    return found if found is not None else _reach_of(mask, n)


def _reach_of(mask: int, n: int) -> int:
    """:func:`reachable` of the loose numerals ``mask`` (count vector ``n``), made and kept
    in :data:`_REACH`."""
    reach = 1
    while mask:
        low = mask & -mask
        reach |= (reach << VALUES[low.bit_length() - 1]) & 0x7FF
        mask ^= low
    if len(_REACH) >= _SETS_LIMIT:
        _keep_tracked(_REACH)
        _spread_sums()
    _REACH[n] = reach
    return reach


def _spread_sums() -> None:
    """Put in :data:`_REACH` the sums of every table with at most one card of each value
    (1,024 count vectors, made value by value: the sums without the value, and those plus
    it), so that only tables holding two cards of a value are ever computed card by card
    (most tables hold at most one of each value; a fresh process missed on a third)."""
    sums = {0: 1}
    for t in range(1, 11):
        bit = 1 << 4 * (t - 1)
        for n, reach in list(sums.items()):
            sums[n | bit] = reach | (reach << t) & 0x7FF
    _REACH.update(sums)


_REACH: Final[dict[int, int]] = {}
""":func:`reachable` by the count vector of the loose numerals (a pure cache, emptied at
:data:`_SETS_LIMIT` entries, then given the tables of :func:`_spread_sums` again)."""
_keep_tracked(_REACH)
_spread_sums()

_TRAIL_ID: Final[tuple[int, ...]] = tuple(ID_BASE[c * NUM_CODES + CODE_TRAIL] for c in range(52))
_CAPTURE_ID: Final[tuple[int, ...]] = tuple(
    ID_BASE[c * NUM_CODES + CODE_CAPTURE] for c in range(52))
_VBIT: Final[tuple[int, ...]] = tuple(1 << VALUES[c] for c in range(52))
"""``_VBIT[c]``: bit ``v`` for the value v of card c (the hand's values as a mask)."""
_BELOW: Final[tuple[int, ...]] = tuple((1 << c) - 1 for c in range(52))
_FACES: Final[tuple[int, ...]] = tuple(
    (faces & ((1 << own) - 1)) | (faces >> (own + 1) << own)
    for own in range(4) for faces in range(16))
"""``_FACES[suit << 4 | faces]``: the loose cards of a face card's rank (``faces``, bit s
for suit s) with the played card's own bit (``suit``, never loose) squeezed out: the part
of a face capture's id above its segment's base."""


def _face_captures(capture_all: bool) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for card in range(52):
        base = _CAPTURE_ID[card]
        for faces in range(16):
            if VALUES[card] or faces >> (card & 3) & 1:  # a numeral; its own card loose
                out.append(())
                continue
            squeezed = _FACES[(card & 3) << 4 | faces]
            out.append((base + squeezed,) if capture_all and squeezed else
                        tuple(base + (1 << b) for b in range(3) if squeezed >> b & 1))
    return tuple(out)


_FACE_CAPTURES: Final[tuple[tuple[tuple[int, ...], ...], ...]] = (
    _face_captures(False), _face_captures(True))
"""``_FACE_CAPTURES[capture_all][card << 4 | faces]``: the ids, ascending, of the captures
of the face card ``card`` when the other cards of its rank that lie loose are ``faces``
(bit s for suit s): one for each loose card, or one of them all with option
``face_cards_capture_all``."""
_ABOVE: Final[tuple[int, ...]] = tuple(0x7FF & ~((2 << v) - 1) for v in range(11))
"""``_ABOVE[v]``: the bits of the values above v (the builds a card of value v may make
with loose cards, not counting calls)."""


def _squeezed(loose: int, n: int, v: int, w: int, card: int) -> list[int]:
    """The sets of :func:`sets_for` ``(loose, v, w)`` with the bit of ``card`` (of value
    ``w or v``) squeezed out (the part of an id above its segment's base), ascending."""
    nv = n & _LOW[v]
    low = _BELOW[card]
    if nv & _MULTI:
        return [(m + (m & low)) >> 1 for m in _masks(loose & _LOW[v], nv, v, w)]
    key = nv << 8 | v << 4 | w
    xs = _SPREAD.get(key)
    if xs is None:
        xs = _spread(key)
    lc = (loose + (loose & low)) >> 1
    return [lc & x for x in xs]


def legal_ids(state: CasinoState) -> tuple[int, ...]:
    """The ids of every legal move of the player to act, ascending (empty when over).

    Here the positions without a build on the table (three in four: no owner's duty, no
    trail ban, nothing to join, raise or take but loose cards); :func:`_built_table` the
    others. The ids come out ascending without a sort: the hand is walked in card order,
    and a card's ids ascend by code (trail, captures, builds by value) and, within a code,
    by the set's mask (the answers are kept ascending). The ids are appended in loops, not
    made by comprehensions: most answers hold one or two sets, and a comprehension is a
    call."""
    if state.phase == "over":
        return ()
    seat = state._current
    hand = state.hands[seat]
    loose = state._lmask
    reach = state._reach
    n = -1  # the count vector of the loose numerals, or -1 while no question needed it
    if reach < 0:
        numerals = loose & _NUMERALS
        n = numerals - ((numerals >> 1) & _FIVES)  # counts_of(loose), inlined
        n = (n & _THREES) + ((n >> 2) & _THREES)
        found = _REACH.get(n)
        reach = state._reach = found if found is not None else _reach_of(numerals, n)
    if state.builds:
        return _built_table(state, seat, hand, loose, reach, n)
    held = 0  # bit v: a card of value v is in the hand; twice: at least two
    twice = 0
    for c in hand:
        bit = _VBIT[c]
        twice |= held & bit
        held |= bit
    ids: list[int] = []
    may_trail_capturer = state._trail_capturer
    for card in sorted(hand):
        cv = VALUES[card]
        if cv == 0:
            faces = loose >> (card & ~3) & 15
            if not faces:
                ids.append(_TRAIL_ID[card])
                continue
            if may_trail_capturer:
                ids.append(_TRAIL_ID[card])
            ids += _FACE_CAPTURES[state._capture_all][card << 4 | faces]
            continue
        # The id of a numeral move is ID_BASE[card * NUM_CODES + code] + the mask with the
        # card's own bit squeezed out. As that bit is never set, (mask + (mask & low)) >> 1
        # does it: adding the low part to itself shifts it up one, then all moves down one.
        # ``lc``: the loose cards squeezed so; a spread answer's id is base + (lc & x).
        # Builds towards every larger value v held for which some loose numerals add up
        # to v - cv: bit j stands for value cv + 1 + j.
        towards = (held >> cv & reach) >> 1
        if reach >> cv & 1:  # a capture exists (some loose numerals add up to cv)
            if may_trail_capturer:
                ids.append(_TRAIL_ID[card])
            if n < 0:
                n = loose & _NUMERALS
                n -= (n >> 1) & _FIVES  # counts_of(loose), inlined
                n = (n & _THREES) + ((n >> 2) & _THREES)
            low = _BELOW[card]
            base = _CAPTURE_ID[card]
            nv = n & _LOW[cv]
            if nv & _MULTI:
                masks = _masks(loose & _LOW[cv], nv, cv, 0)
                for m in masks:
                    ids.append(base + ((m + (m & low)) >> 1))
                if twice >> cv & 1:  # a call of the card's own value: onto any capture set
                    base = ID_BASE[card * NUM_CODES + CODE_BUILD - 1 + cv]
                    for m in masks:
                        ids.append(base + ((m + (m & low)) >> 1))
            else:
                lc = (loose + (loose & low)) >> 1
                key = nv << 8 | cv << 4
                xs = _SPREAD.get(key)
                if xs is None:
                    xs = _spread(key)
                for x in xs:
                    ids.append(base + (lc & x))
                if twice >> cv & 1:
                    base = ID_BASE[card * NUM_CODES + CODE_BUILD - 1 + cv]
                    for x in xs:
                        ids.append(base + (lc & x))
            if not towards:
                continue
        else:
            ids.append(_TRAIL_ID[card])
            if not towards:
                continue
            if n < 0:
                n = loose & _NUMERALS
                n -= (n >> 1) & _FIVES
                n = (n & _THREES) + ((n >> 2) & _THREES)
            low = _BELOW[card]
        # The builds, visited by their bits, ascending.
        lc = (loose + (loose & low)) >> 1
        while towards:
            bit = towards & -towards
            towards ^= bit
            v = cv + bit.bit_length()
            base = ID_BASE[card * NUM_CODES + CODE_BUILD - 1 + v]
            nv = n & _LOW[v]
            if nv & _MULTI:
                for m in _masks(loose & _LOW[v], nv, v, cv):
                    ids.append(base + ((m + (m & low)) >> 1))
            else:
                key = nv << 8 | v << 4 | cv
                xs = _SPREAD.get(key)
                if xs is None:
                    xs = _spread(key)
                for x in xs:
                    ids.append(base + (lc & x))
    if not state._build_free:  # option build_without_capture off: only trails, or a capture
        return tuple(_trails_without_capture(ids))
    return tuple(ids)


def _trails_without_capture(ids: list[int]) -> list[int]:
    """``ids`` when one of them is a capture, else only their trails: with option
    ``build_without_capture`` off, a player who can capture nothing must trail (the rule
    is :func:`~.table.no_capture_refusal`; a test holds the two together)."""
    for i in ids:
        if CODE_CAPTURE <= SEG_ROWS[segment_of(i)][2] <= CODE_CAPTURE_BUILD:
            return ids
    return [i for i in ids if SEG_ROWS[segment_of(i)][2] == CODE_TRAIL]


def _built_table(state: CasinoState, seat: int, hand: list[int], loose: int, reach: int,
                 n: int) -> tuple[int, ...]:
    """:func:`legal_ids` when builds stand on the table (``n`` as there)."""
    builds = state.builds
    if n < 0:
        n = loose & _NUMERALS
        n -= (n >> 1) & _FIVES
        n = (n & _THREES) + ((n >> 2) & _THREES)
    held = 0  # bit v: a card of value v is in the hand; twice: at least two
    twice = 0
    for c in hand:
        bit = _VBIT[c]
        twice |= held & bit
        held |= bit
    owned = 0  # bit v: the player owns the build of value v; built: a build of v stands
    built = 0
    raisable: list[int] = []  # the values of the builds that may be raised (option raising)
    level = state._raise_level  # table.raise_refusal inline: 0 none, 1 single only, 2 any
    for u, b in builds.items():
        built |= 1 << u
        if b.owner == seat:
            owned |= 1 << u
        if level == 1:
            total = 0
            for c in b.cards:
                total += VALUES[c]
            if total == u:  # a single build (BuildUnit.multiple, without its generator)
                raisable.append(u)
        elif level:
            raisable.append(u)
    if len(raisable) > 1:
        raisable.sort()
    # The trail ban (table.trail_banned: none without a build the player owns).
    banned = owned != 0 and trail_banned(state._every_turn, builds, seat, state.last_turn[seat])
    keeps = state._keeps and owned != 0
    may_trail_capturer = state._trail_capturer
    ids: list[int] = []
    # The owner's duty: every build the player owns after the play needs a card of its
    # value left in the hand. ``short``: the owned values the play would leave bare.
    short = 0
    # Each card's ids in ascending order: trail, captures, the capture of the build of its
    # value, builds by value, builds joining a standing one, raises, raises that join.
    for card in sorted(hand):
        cv = VALUES[card]
        cbit = 1 << cv
        if keeps:
            short = owned & ~((held & ~cbit) | (twice & cbit))
        if cv == 0:
            faces = loose >> (card & ~3) & 15
            if not banned and not short and (may_trail_capturer or not faces):
                ids.append(_TRAIL_ID[card])
            if faces and not short:
                ids += _FACE_CAPTURES[state._capture_all][card << 4 | faces]
            continue
        key = card * NUM_CODES
        caps: list[int] = (_squeezed(loose, n, cv, 0, card) if reach >> cv & 1 else [])
        if not banned and not short and (may_trail_capturer or not (caps or built & cbit)):
            ids.append(_TRAIL_ID[card])
        if caps and not short:
            base = _CAPTURE_ID[card]
            for m in caps:
                ids.append(base + m)
        if built & cbit and (not short or short == cbit):
            base = ID_BASE[key + CODE_CAPTURE_BUILD]
            ids.append(base)  # the build alone
            for m in caps:
                ids.append(base + m)
        # Builds and calls of value v (the new build needs a v left in the hand too): a
        # call of the card's own value when two are held, and every larger value held that
        # some loose numerals complete (bit v of reach << cv); with an owner's duty only
        # the one value it leaves bare. Those joining a standing build come after the
        # others (their codes are larger).
        towards = (held & (reach << cv) & _ABOVE[cv]) | (twice & cbit)
        if short:
            towards &= short if short & (short - 1) == 0 else 0
        merged: list[int] = []
        while towards:
            bit = towards & -towards
            towards ^= bit
            v = bit.bit_length() - 1
            group = caps if v == cv else _squeezed(loose, n, v, cv, card)
            if built & bit:
                base = ID_BASE[key + CODE_BUILD_MERGE - 1 + v]
                if v == cv:
                    merged.append(base)  # the card alone onto the build of its value
                for m in group:
                    merged.append(base + m)
            else:
                base = ID_BASE[key + CODE_BUILD - 1 + v]
                for m in group:
                    ids.append(base + m)
        if merged:
            ids += merged
            merged = []
        # raises of the builds that may be raised
        for u in raisable:
            w = u + cv
            if w > 10 or not held >> w & 1:
                continue
            if short and short & ~(1 << u) not in (0, 1 << w):
                continue
            if built >> w & 1:
                merged.append(ID_BASE[key + CODE_RAISE_MERGE - 1 + u])
            else:
                ids.append(ID_BASE[key + CODE_RAISE - 1 + u])
        if merged:
            ids += merged
    if not state._build_free:  # option build_without_capture off: only trails, or a capture
        ids = _trails_without_capture(ids)
    if not ids:
        # Only reachable when the owner's duties are off: a player who may not trail
        # and has nothing else to do may trail after all (documented decision).
        ids = [_TRAIL_ID[c] for c in sorted(hand)]
    return tuple(ids)
