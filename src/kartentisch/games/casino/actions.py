"""Casino's actions, their text notation and their integer ids.

Every turn plays one card from the hand. An action names that card and what it does:

=========================  ==============================================================
``7h x 3c 4d``             capture: the 7 of hearts takes the loose 3c and 4d
``8h x 8c [8]``            capture: take the loose 8c and the build of 8 (``[v]`` = build)
``Kd x Ks``                capture: a king takes a loose king
``2h + 6c = 8``            build: the 2h onto the loose 6c makes a build of 8
``5h + 2c 7d = 7``         call: 5h+2c make 7, joined with the loose 7d ("calls sevens")
``8h + 8c = 8``            call: an 8 onto a loose 8
``8h + [8] = 8``           add an 8 to the build of 8 standing on the table
``Ah + [8] = 9``           raise: the ace onto the single build of 8 makes a build of 9
``7h -``                   trail: lay the 7h face up on the table
=========================  ==============================================================

The canonical text (what :func:`format_action` writes and records store) names table cards
by their names, so it needs no table. When reading a move against a table, items may also
be named by their *labels*: the table lists its items in a fixed order (loose cards by
rank then suit, then builds by value) and labels them ``a``, ``b``, ``c`` … (lower case).
Spaces are optional: ``7hxab``, ``2h+a=8``, ``7h-``. Other spellings: ``trail 7h``, ``t 7h``.
A bare card (``7h``) or a capture without items (``7h x``) means the only legal move with
that card, if there is only one. Because labels are lower-case letters, a card name in an
item list needs an upper-case rank letter (``Ac``, not ``ac``, which reads as labels a, c).

Ids. A flat id space is unwieldy (a capture may take any subset of the loose cards), so an
id is factored: ``((card * NUM_CODES + code) << 52) | loose_mask`` where ``loose_mask`` has
bit ``c`` set for each loose table card ``c`` the action uses, and ``code`` says what the
card does (trail, capture with or without the build of its value, build/call to value v
with or without joining the standing build of v, raise of the single build of value u with
or without joining a standing build of the new value). See ``docs/casino-actions.md``.

Size (over 600 lines, kept whole): the action classes, the id space and the notation are one
vocabulary; the offered objects decode their fields from the id space's private tables, and
the notation's fast reader and the general one must read alike (tests hold both pairs
together).
"""

from __future__ import annotations

import bisect
import collections
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from kartentisch.core.errors import InvalidActionError, safe_repr
from kartentisch.games.casino.cards import CARD_NAMES, CARD_RE, VALUES, card_name, parse_card
from kartentisch.games.casino.reasons import brief, move_error


class _Offered:
    """The base of the three action classes: one slot more, ``_aid``, for the actions that
    :meth:`~kartentisch.games.casino.state.CasinoState.legal_actions` offers.

    Why: a position offers about five actions and the player plays one. Decoding each id
    into its fields (the loose cards' tuple above all) cost more than anything else in
    making the list, and a cache of recent actions missed on most fresh ids while
    growing a table of long-lived objects that the garbage collector walks. So an offered
    action is made with only its id (``_aid``) set; the first time one of its fields is
    read (its slot is still empty, so Python asks :meth:`__getattr__`), all its fields are
    decoded from the id and set for good. To everybody else it is an ordinary immutable
    action: equal by value, hashing alike, printing the same (those read the fields). The
    state plays an offered action by its id, never reading its fields.
    """

    __slots__ = ("_aid",)

    if not TYPE_CHECKING:  # hidden from mypy: it would make every attribute name valid

        def __getattr__(self, name: str) -> Any:
            return _fill(self, name)


@dataclass(frozen=True, slots=True)
class Capture(_Offered):
    """Play ``card`` to take ``loose`` table cards and, if ``build`` is not 0, that build."""

    card: int
    loose: tuple[int, ...] = ()
    """Loose table cards taken, ascending."""
    build: int = 0
    """The value of the build taken (it must equal the card's value), or 0."""


@dataclass(frozen=True, slots=True)
class Build(_Offered):
    """Play ``card`` to make, call, add to or raise a build of ``value``."""

    card: int
    value: int
    """The value the resulting build is taken with."""
    loose: tuple[int, ...] = ()
    """Loose table cards joined into the build, ascending."""
    raised: int = 0
    """The value of the single build this card raises (then ``loose`` is empty), or 0."""
    merged: bool = False
    """Whether the build of ``value`` already on the table joins (it must, if there is one)."""


@dataclass(frozen=True, slots=True)
class Trail(_Offered):
    """Lay ``card`` face up on the table."""

    card: int


Action = Capture | Build | Trail

# ----------------------------------------------------------------------------- ids
CODE_TRAIL: Final = 0
CODE_CAPTURE: Final = 1
CODE_CAPTURE_BUILD: Final = 2
CODE_BUILD: Final = 3
"""3-12: build to value 1-10, no standing build joins."""
CODE_BUILD_MERGE: Final = 13
"""13-22: build to value 1-10, joining the standing build of that value."""
CODE_RAISE: Final = 23
"""23-32: raise the single build of value 1-10."""
CODE_RAISE_MERGE: Final = 33
"""33-42: raise, joining the standing build of the new value."""
NUM_CODES: Final = 43


def loose_mask(cards: tuple[int, ...]) -> int:
    """The bitmask of a set of cards (bit ``c`` for card ``c``)."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def action_code(action: Action) -> int:
    """The ``code`` part of an action's factors (what the card does)."""
    if type(action) is Trail:
        return CODE_TRAIL
    if type(action) is Capture:
        return CODE_CAPTURE_BUILD if action.build else CODE_CAPTURE
    assert type(action) is Build
    if action.raised:
        return (CODE_RAISE_MERGE if action.merged else CODE_RAISE) + action.raised - 1
    return (CODE_BUILD_MERGE if action.merged else CODE_BUILD) + action.value - 1


def action_factors(action: Action) -> tuple[int, int, int]:
    """The factored form ``(card, code, loose_mask)``, for RL heads (52, 43 and 52 bits)."""
    loose = () if isinstance(action, Trail) else action.loose
    return action.card, action_code(action), loose_mask(loose)


# The id space (docs/casino-actions.md). Every (card, code) pair that can name a move owns one
# *segment* of consecutive ids; within it, the id counts the loose cards used, as the bits
# of the cards the segment allows packed together ("compressed"). A numeral card moving
# towards value v can only use loose numerals of value at most v: the cards 0 .. 4v-1, since
# cards are ordered by rank. Its own card is never loose, so its bit is squeezed out. A face
# card can only take the other three cards of its rank. Segments whose move needs at least
# one loose card leave out the empty set, so every id in range names exactly one action.


class _Segment(NamedTuple):
    start: int
    """The first id of the segment."""
    card: int
    code: int
    allowed: int
    """The loose cards the segment's moves may use, as a mask."""
    shift: int
    """Where ``allowed`` starts: 0 for numerals, the rank's first card for face cards."""
    nonempty: bool
    """Whether the move needs at least one loose card (the empty set has no id)."""


def _segments() -> list[_Segment]:
    out: list[_Segment] = []
    start = 0

    def add(card: int, code: int, allowed: int, shift: int, nonempty: bool) -> None:
        nonlocal start
        out.append(_Segment(start, card, code, allowed, shift, nonempty))
        start += (1 << (allowed.bit_count())) - nonempty

    for card in range(52):
        own = 1 << card
        add(card, CODE_TRAIL, 0, 0, False)
        cv = VALUES[card]
        if not cv:  # a face card takes cards of its own rank, nothing else
            base = card - card % 4
            add(card, CODE_CAPTURE, (0b1111 << base) & ~own, base, True)
            continue
        upto = [(1 << 4 * v) - 1 & ~own for v in range(11)]
        """``upto[v]``: the numerals of value at most v, without the card played."""
        add(card, CODE_CAPTURE, upto[cv], 0, True)
        add(card, CODE_CAPTURE_BUILD, upto[cv], 0, False)
        for v in range(cv, 11):
            add(card, CODE_BUILD + v - 1, upto[v], 0, True)
        for v in range(cv, 11):  # only the card itself may join a build of its own value
            add(card, CODE_BUILD_MERGE + v - 1, upto[v], 0, v != cv)
        for u in range(1, 11 - cv):
            add(card, CODE_RAISE + u - 1, 0, 0, False)
        for u in range(1, 11 - cv):
            add(card, CODE_RAISE_MERGE + u - 1, 0, 0, False)
    out.append(_Segment(start, -1, -1, 0, 0, False))  # the end
    return out


_SEGMENTS: Final = _segments()
_STARTS: Final = tuple(s.start for s in _SEGMENTS)
_SEG_CARD: Final = tuple(s.card for s in _SEGMENTS)
_SEG_CODE: Final = tuple(s.code for s in _SEGMENTS)
_SEG_SHIFT: Final = tuple(s.shift for s in _SEGMENTS)
_SEG_NONEMPTY: Final = tuple(int(s.nonempty) for s in _SEGMENTS)
NUM_ACTIONS: Final = _SEGMENTS[-1].start
"""The size of the id space, 51,290,995,756,216 (about 2^45.5, below 2^53)."""

_SEGMENT_OF: Final = {(s.card, s.code): s for s in _SEGMENTS}
_BY_KEY: Final[tuple[_Segment | None, ...]] = tuple(
    _SEGMENT_OF.get((k // NUM_CODES, k % NUM_CODES)) for k in range(52 * NUM_CODES))
"""The segment of ``card * NUM_CODES + code``, or None where that pair names no move."""

ID_BASE: Final[tuple[int, ...]] = tuple(
    -1 if s is None else s.start - s.nonempty for s in _BY_KEY)
"""``ID_BASE[card * NUM_CODES + code] + compressed(mask)`` is an id (see :func:`compress`);
-1 where the pair names no move. The move generator adds the compressed masks itself."""


def compress(mask: int, card: int) -> int:
    """``mask`` (loose cards, never ``card``) with ``card``'s bit squeezed out.

    Only right for masks a segment of ``card`` allows; face cards shift further (see
    :func:`action_id`), but move generation only compresses numeral masks.
    """
    return (mask & ((1 << card) - 1)) | ((mask >> (card + 1)) << card)


def _invalid(action: object) -> InvalidActionError:
    return InvalidActionError(
        f"{safe_repr(action)} is not a Casino action",
        params={"value": safe_repr(action), "game": "Casino"})


def action_id(action: Action) -> int:
    """The stable integer id of ``action`` in ``range(NUM_ACTIONS)``.

    Raises :class:`InvalidActionError` for anything the id space cannot hold: other types,
    cards outside 0-51, loose cards not ascending, a raise with loose cards, a loose card
    whose value exceeds the move's value (no table can make such a move legal).

    >>> action_id(Trail(0))
    0
    >>> action_from_id(action_id(Capture(1, (0,)))) == Capture(1, (0,))
    True
    """
    t = type(action)
    card = getattr(action, "card", None)
    if type(card) is not int or not 0 <= card < 52:
        raise _invalid(action)
    if t is Trail:
        return ID_BASE[card * NUM_CODES]
    loose = getattr(action, "loose", None)
    if type(loose) is not tuple:
        raise _invalid(action)
    mask = 0
    previous = -1
    for c in loose:
        if type(c) is not int or not previous < c < 52:
            raise _invalid(action)
        mask |= 1 << c
        previous = c
    if t is Capture:
        build = action.build  # type: ignore[union-attr]
        if type(build) is not int:
            raise _invalid(action)
        if build == 0:
            code = CODE_CAPTURE
        elif build == VALUES[card] != 0:
            code = CODE_CAPTURE_BUILD
        else:
            raise _invalid(action)
    elif t is Build:
        value, raised, merged = action.value, action.raised, action.merged  # type: ignore[union-attr]
        if type(value) is not int or type(raised) is not int or type(merged) is not bool:
            raise _invalid(action)
        if raised:
            if not 1 <= raised <= 10 or value != VALUES[card] + raised or mask:
                raise _invalid(action)
            code = (CODE_RAISE_MERGE if merged else CODE_RAISE) + raised - 1
        else:
            if not 1 <= value <= 10:
                raise _invalid(action)
            code = (CODE_BUILD_MERGE if merged else CODE_BUILD) + value - 1
    else:
        raise _invalid(action)
    segment = _BY_KEY[card * NUM_CODES + code]
    if segment is None or mask & ~segment.allowed or (segment.nonempty and not mask):
        raise _invalid(action)
    return segment.start - segment.nonempty + (compress(mask, card) >> segment.shift)


def action_from_id(i: int) -> Action:
    """The action with id ``i`` (raises ``InvalidActionError`` outside the id space).

    >>> a = Build(4, 8, (20,))
    >>> action_from_id(action_id(a)) == a
    True
    """
    if type(i) is not int or not 0 <= i < NUM_ACTIONS:
        raise InvalidActionError(
            f"action id {safe_repr(i)} is not a whole number from 0 to {NUM_ACTIONS - 1}",
            code="action.bad_id", params={"value": safe_repr(i), "last": NUM_ACTIONS - 1})
    k = bisect.bisect_right(_STARTS, i) - 1
    card = _SEG_CARD[k]
    code = _SEG_CODE[k]
    if code == CODE_TRAIL:
        return Trail(card)
    packed = (i - _STARTS[k] + _SEG_NONEMPTY[k]) << _SEG_SHIFT[k]
    mask = (packed & ((1 << card) - 1)) | ((packed >> card) << (card + 1))  # card's bit back
    loose = []
    while mask:
        low = mask & -mask
        loose.append(low.bit_length() - 1)
        mask ^= low
    if code <= CODE_CAPTURE_BUILD:
        return _capture(card, tuple(loose), VALUES[card] if code == CODE_CAPTURE_BUILD else 0)
    if code < CODE_RAISE:
        merged = code >= CODE_BUILD_MERGE
        return Build(card, code - (CODE_BUILD_MERGE if merged else CODE_BUILD) + 1,
                     tuple(loose), 0, merged)
    merged = code >= CODE_RAISE_MERGE
    raised = code - (CODE_RAISE_MERGE if merged else CODE_RAISE) + 1
    return Build(card, VALUES[card] + raised, (), raised, merged)


_SLOTS: Final[dict[str, Any]] = dict(vars(Capture))
_SET_CARD: Final = _SLOTS["card"].__set__
"""The slot descriptors' setters (what the frozen ``__init__`` ends up calling)."""
_SET_LOOSE: Final = _SLOTS["loose"].__set__
_SET_BUILD: Final = _SLOTS["build"].__set__


def _capture(card: int, loose: tuple[int, ...], build: int) -> Capture:
    """``Capture(card, loose, build)`` for checked fields, made faster than the frozen
    class's ``__init__`` (which sets each field by name through ``object.__setattr__``)."""
    action = object.__new__(Capture)
    _SET_CARD(action, card)
    _SET_LOOSE(action, loose)
    _SET_BUILD(action, build)
    return action


GET_AID: Final = _Offered.__dict__["_aid"].__get__
"""An offered action's id (raises ``AttributeError`` for an action made otherwise, and
``TypeError`` for anything that is no action): how ``apply`` knows an offered action."""
SET_AID: Final = _Offered.__dict__["_aid"].__set__
"""Sets an offered action's id (the move generator's :func:`~.movegen.make_actions`)."""
_FIELDS: Final[dict[type, tuple[tuple[str, Any], ...]]] = {
    cls: tuple((name, vars(cls)[name].__set__) for name in cls.__dataclass_fields__)
    for cls in (Capture, Build, Trail)}
"""Each class's fields with their slots' setters (what the frozen ``__init__`` calls)."""
_FIELD_NAMES: Final = frozenset({"card", "loose", "build", "value", "raised", "merged"})
_decoder: list[Any] = []
"""The move generator's decoder (:func:`~.movegen.make_action`), imported on first use
(that module imports this one)."""


def _fill(action: _Offered, name: str) -> Any:
    """:meth:`_Offered.__getattr__`: a field of an offered action read for the first time
    (decode every field from the id and set it), or an attribute it does not have."""
    if name in _FIELD_NAMES:
        try:
            aid = GET_AID(action)
        except AttributeError:
            pass
        else:
            if not _decoder:
                from kartentisch.games.casino.movegen import make_action

                _decoder.append(make_action)
            made = _decoder[0](aid)
            for field, setter in _FIELDS[type(action)]:
                setter(action, getattr(made, field))
            return getattr(made, name)
    raise AttributeError(f"{type(action).__name__!r} object has no attribute {name!r}")


class CaptureDraft(_Offered):
    """A mutable twin of :class:`Capture` (the same slots in the same order): the move
    generator fills one by plain attribute stores and then makes it a ``Capture`` by
    assigning ``__class__``, which is several times cheaper than the frozen class's
    ``__init__`` (a call of ``object.__setattr__`` per field). Nothing else uses it."""

    __slots__ = ("build", "card", "loose")


class BuildDraft(_Offered):
    """The mutable twin of :class:`Build` (see :class:`CaptureDraft`)."""

    __slots__ = ("card", "loose", "merged", "raised", "value")


class TrailDraft(_Offered):
    """The mutable twin of :class:`Trail` (see :class:`CaptureDraft`)."""

    __slots__ = ("card",)


SEG_ROWS: Final = tuple((s.start - s.nonempty, s.card, s.code, s.shift) for s in _SEGMENTS)
"""Per segment (of :data:`SEG_STARTS`) what the move generator's decoder reads: the id of
the empty set, the card, the code and the shift (see :func:`action_from_id`)."""
SEG_STARTS: Final = _STARTS
"""The first id of every segment, ascending (the last entry is the end)."""
def class_of_code(code: int) -> type:
    """The action class of the moves of a code (see :data:`CODE_TRAIL` and the others)."""
    return Trail if code == CODE_TRAIL else Capture if code <= CODE_CAPTURE_BUILD else Build


def _class_runs() -> tuple[tuple[int, ...], tuple[type, ...]]:
    starts: list[int] = []
    classes: list[type] = []
    for s in _SEGMENTS[:-1]:
        cls = class_of_code(s.code)
        if not classes or classes[-1] is not cls:
            starts.append(s.start)
            classes.append(cls)
    return tuple(starts), (Trail, *classes)


_RUNS: Final = _class_runs()
_RUN_STARTS: Final[tuple[int, ...]] = _RUNS[0]
"""Where the class of the ids changes (each card's trail, captures, builds: 144 runs
instead of 944 segments), so that ``_RUN_CLASS[bisect_right(_RUN_STARTS, i)]`` is the
class of the move with id ``i`` in fewer steps."""
_RUN_CLASS: Final[tuple[type, ...]] = _RUNS[1]
_NEW: Final = object.__new__
_BISECT_RIGHT: Final = bisect.bisect_right


def shareable_ids() -> list[int]:
    """The ids of the moves that use at most one loose card and whose values can add up
    (a capture's card takes a loose card of its value, or of its rank for a face card; a
    build's card and loose card make its value, or the card calls a loose card of its own
    value; a raise, a capture of a build alone, a card onto the build of its value): 3,368
    moves, most of what positions offer, and the same few again and again."""
    out: list[int] = []
    for k, s in enumerate(_SEGMENTS[:-1]):
        base = s.start - s.nonempty
        if not s.nonempty:
            out.append(base)  # the move without loose cards
        if not s.allowed:
            continue
        cv = VALUES[s.card]
        code = s.code
        if code <= CODE_CAPTURE_BUILD:
            wanted: tuple[int, ...] = (cv,)
        else:
            value = code - (CODE_BUILD_MERGE if code >= CODE_BUILD_MERGE else CODE_BUILD) + 1
            wanted = (cv, value - cv)
        allowed = s.allowed
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            c = bit.bit_length() - 1
            if cv and VALUES[c] not in wanted:
                continue
            out.append(base + (compress(bit, s.card) >> s.shift))
        assert out[-1] < _SEGMENTS[k + 1].start
    return out


def _pair_values(capture: bool, cv: int, v: int) -> list[tuple[int, int]]:
    """The values ``x <= y`` of two loose numerals that can together be the loose cards of
    a capture (``capture``) of value ``v``, or of a build of ``v`` with a card of value
    ``cv``: with the card (in a build) they must make groups that each add up to v."""
    out = []
    for x in range(1, 11):
        for y in range(x, 11):
            groups = x + y == v or x == y == v  # the two alone make groups of v
            if (groups if capture else  # in a build the card is a group of v, or joins one
                    (cv == v and groups) or cv + x + y == v or (cv + x == v and y == v)
                    or (cv + y == v and x == v)):
                out.append((x, y))
    return out


def pair_ids() -> list[int]:
    """The ids, ascending, of the captures and the builds with exactly two loose numerals
    whose values fit (:func:`_pair_values`): 10,732 moves, half of the moves with two or
    more loose cards that random play offers. Builds that join a standing build are left
    out: as many moves again (7,692), offered 30 times less often."""
    out: list[int] = []
    fits: dict[tuple[bool, int, int], list[tuple[int, int]]] = {}
    for s in _SEGMENTS[:-1]:
        cv = VALUES[s.card]
        code = s.code
        if not cv or not s.allowed or code == CODE_TRAIL or code >= CODE_BUILD_MERGE:
            continue
        capture = code <= CODE_CAPTURE_BUILD
        v = cv if capture else code - CODE_BUILD + 1
        key = (capture, cv, v)
        if key not in fits:
            fits[key] = _pair_values(capture, cv, v)
        allowed = s.allowed
        card = s.card
        # The allowed loose cards of each value x (cards 4x-4 .. 4x-1), each as its bit
        # with the card's own bit squeezed out (see compress): a pair's id is base + both.
        held = [[1 << (c - (c > card)) for c in range(4 * x - 4, 4 * x)
                 if allowed >> c & 1] if x else [] for x in range(11)]
        found = [a + b for x, y in fits[key]
                 for i, a in enumerate(held[x]) for b in (held[x][i + 1:] if x == y else held[y])]
        found.sort()
        base = s.start - s.nonempty
        out += [base + f for f in found]
    return out


_RUN_SHIFT: Final = 34
_RUN_LO: Final[tuple[int, ...]] = tuple(
    _BISECT_RIGHT(_RUN_STARTS, b << _RUN_SHIFT)
    for b in range((SEG_STARTS[-1] >> _RUN_SHIFT) + 1))
"""``_RUN_LO[b]`` and ``_RUN_HI[b]``: the class runs (indices of :data:`_RUN_CLASS`) of
the first and the last id of bucket ``b`` (the ids ``i`` with ``i >> _RUN_SHIFT == b``)."""
_RUN_HI: Final[tuple[int, ...]] = tuple(
    _BISECT_RIGHT(_RUN_STARTS, ((b + 1) << _RUN_SHIFT) - 1) for b in range(len(_RUN_LO)))
_BUCKET_CLASS: Final[tuple[type | None, ...]] = tuple(
    _RUN_CLASS[lo] if lo == hi else None for lo, hi in zip(_RUN_LO, _RUN_HI, strict=True))
"""``_BUCKET_CLASS[b]``: the class of every id of bucket ``b``, or None where classes
change inside it (then a bisection over the bucket's few runs decides: 1.2 steps on
average over the moves that positions offer, instead of 7 over all 144 runs)."""


class _Offers(dict[int, Any]):
    """The objects that ``legal_actions()`` offers, by id: ``OFFERS[i]`` is the action of
    the valid id ``i`` (see :func:`~.movegen.make_actions`).

    It holds one object for each move of :func:`shareable_ids` and :func:`pair_ids` (made
    at the first question, ~30 ms), shared by every position that offers it: 14,100 moves,
    86% of the moves that positions offer in random play. A move with more loose cards is
    made by :meth:`__missing__` for the position that offers it and not kept (a table of
    them grows into hundreds of thousands of long-lived objects, and measured slower).
    Either way the object is made with only its id (:class:`_Offered`).
    """

    def __missing__(self, aid: int) -> Any:
        if not self:
            _share()
            if aid in self:
                return self[aid]
        b = aid >> _RUN_SHIFT
        cls = _BUCKET_CLASS[b]
        if cls is None:
            cls = _RUN_CLASS[_BISECT_RIGHT(_RUN_STARTS, aid, _RUN_LO[b], _RUN_HI[b])]
        action: Any = _NEW(cls)
        SET_AID(action, aid)
        return action


OFFERS: Final = _Offers()
"""The offered action objects (see :class:`_Offers`)."""


def _share() -> None:
    """Make the shared objects of :data:`OFFERS` (the objects made and given their ids by
    C loops: ``map`` over the ids, a Python loop took twice as long)."""
    ids = shareable_ids() + pair_ids()
    made: list[Any] = list(map(_NEW, map(_RUN_CLASS.__getitem__,
                              map(functools.partial(_BISECT_RIGHT, _RUN_STARTS), ids))))
    collections.deque(map(SET_AID, made, ids), maxlen=0)
    OFFERS.update(zip(ids, made, strict=True))


# ----------------------------------------------------------------------------- notation
def format_action(action: Action) -> str:
    """The canonical notation of ``action`` (table cards by name, builds as ``[v]``).

    >>> format_action(Capture(parse_card("7h"), (parse_card("3c"), parse_card("4d"))))
    '7h x 3c 4d'
    >>> format_action(Build(parse_card("Ah"), 9, (), 8))
    'Ah + [8] = 9'
    >>> format_action(Build(parse_card("8h"), 8, (parse_card("8c"),), 0, True))
    '8h + 8c [8] = 8'
    >>> format_action(Trail(parse_card("Td")))
    'Td -'
    >>> format_action(None)
    Traceback (most recent call last):
    ...
    kartentisch.core.errors.InvalidActionError: None is not a Casino action
    """
    if not isinstance(action, _Offered):
        raise _invalid(action)  # as the other games do, not an AttributeError
    card = card_name(action.card)
    if type(action) is Trail:
        return f"{card} -"
    if type(action) is Capture:
        items = [card_name(c) for c in action.loose]
        if action.build:
            items.append(f"[{action.build}]")
        return f"{card} x {' '.join(items)}".rstrip()
    assert type(action) is Build
    items = [card_name(c) for c in action.loose]
    if action.raised:
        items.append(f"[{action.raised}]")
    if action.merged:
        items.append(f"[{action.value}]")
    return f"{card} + {' '.join(items)} = {action.value}"


_CARD_OF: Final = {name: card for card, name in enumerate(CARD_NAMES)}
_BUILD_OF: Final = {f"[{v}]": v for v in range(1, 11)}
_VALUE_OF: Final = {str(v): v for v in range(1, 11)}


def parse_canonical(text: str) -> Action | None:
    """The action written ``text`` in the canonical notation (:func:`format_action`), or
    None for any other text (which :func:`parse_notation` then reads). The action may still
    be one no id names (:func:`action_id` refuses it).

    Speed: records store the canonical text, and replaying one reads every action; this
    needs no regular expression and no table.

    >>> parse_canonical("7h x 3c 4d") == Capture(26, (8, 13))
    True
    >>> parse_canonical("8h + 8c [8] = 8"), parse_canonical("7h x ab")
    (Build(card=30, value=8, loose=(28,), raised=0, merged=True), None)
    """
    parts = text.split(" ")
    card = _CARD_OF.get(parts[0])
    if card is None or len(parts) < 2:
        return None
    op = parts[1]
    if op == "-":
        return Trail(card) if len(parts) == 2 else None
    if op == "x":
        items = parts[2:]
        value = 0
        if items and items[-1] in _BUILD_OF:
            value = _BUILD_OF[items.pop()]
        loose = tuple([_CARD_OF.get(c, -1) for c in items])
        action: Action = Capture(card, loose, value)
    elif op == "+" and len(parts) >= 5 and parts[-2] == "=" and parts[-1] in _VALUE_OF:
        value = _VALUE_OF[parts[-1]]
        items = parts[2:-2]
        merged = bool(items) and items[-1] == f"[{value}]"
        if merged:
            items.pop()
        raised = _BUILD_OF[items.pop()] if items and items[-1] in _BUILD_OF else 0
        loose = tuple([_CARD_OF.get(c, -1) for c in items])
        action = Build(card, value, loose, raised, merged)
    else:
        return None
    if -1 in loose or sorted(set(loose)) != list(loose) or (
            op == "x" and not loose and not value):
        return None  # unknown or unordered names; "7h x" asks for the only capture
    return action


NOTATION_HELP: Final = "7h x 3c 4d | 7h x ab | 2h + a = 8 | Ah + [8] = 9 | 7h - | 7h"

ItemRef = tuple[str, int]
"""A table item as written: ``("card", card)``, ``("build", value)`` or ``("label", index)``."""


@dataclass(frozen=True, slots=True)
class ParsedMove:
    """A move as written, before a table resolves labels and completes it.

    ``kind`` is ``"capture"``, ``"build"``, ``"trail"`` or ``"card"`` (a bare card: the
    player's only move with it). ``items is None`` for a capture written without items.
    """

    card: int
    kind: str
    items: tuple[ItemRef, ...] | None = None
    value: int = 0


_TRAIL_RE = re.compile(r"^(?:trail|t)\s+(\S+)$|^(\S+?)\s*(?:-|trail)$", re.IGNORECASE)
_MOVE_RE = re.compile(r"^(\S{2,3}?)\s*([x+])\s*(.*?)\s*(?:=\s*(\d+))?$")
_ITEM_RE = re.compile(r"\s*,?\s*(?:\[(\d+)\]|(10|[2-9TJQKA])([cdhs♣♦♥♠])|([a-z]))")


def _card(text: str, raw: str) -> int:
    try:
        return parse_card(text)
    except ValueError:
        raise move_error(InvalidActionError, "casino.bad_card", raw.strip(),
                         card=text) from None


def parse_items(text: str, raw: str) -> tuple[ItemRef, ...]:
    """Read an item list: card names, labels and ``[v]`` builds.

    >>> parse_items("ab [8] 3c", "")
    (('label', 0), ('label', 1), ('build', 8), ('card', 8))
    """
    items: list[ItemRef] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _ITEM_RE.match(text, pos)
        if not m or m.end() == pos:
            raise move_error(InvalidActionError, "casino.bad_items", raw.strip(),
                             rest=text[pos:].strip())
        if m.group(1):
            items.append(("build", _build_value(m.group(1), raw)))
        elif m.group(2):
            items.append(("card", parse_card(m.group(2) + m.group(3))))
        else:
            items.append(("label", ord(m.group(4)) - ord("a")))
        pos = m.end()
    return tuple(items)


def parse_notation(text: str) -> ParsedMove:
    """Read the notation without looking at a table (syntax only).

    >>> parse_notation("7hxab")
    ParsedMove(card=26, kind='capture', items=(('label', 0), ('label', 1)), value=0)
    >>> parse_notation("trail Td").kind, parse_notation("2h+a=8").value
    ('trail', 8)
    """
    if not isinstance(text, str):
        raise InvalidActionError(
            f"cannot read {safe_repr(text)}; moves look like: {NOTATION_HELP}",
            code="casino.unreadable", params={"text": safe_repr(text), "examples": NOTATION_HELP})
    raw = text
    text = " ".join(text.strip().split())
    if not text:
        raise InvalidActionError(f"empty move; moves look like: {NOTATION_HELP}",
                                 code="casino.empty", params={"text": "",
                                                              "examples": NOTATION_HELP})
    if m := _TRAIL_RE.match(text):
        return ParsedMove(_card(m.group(1) or m.group(2), raw), "trail")
    if CARD_RE.fullmatch(text) or re.fullmatch(r"(10|[2-9tjqka])[cdhs]", text.lower()):
        return ParsedMove(_card(text, raw), "card")
    m = _MOVE_RE.match(text)
    if not m:
        shown = brief(raw.strip())
        raise InvalidActionError(f"cannot read {shown!r}; moves look like: {NOTATION_HELP}",
                                 code="casino.unreadable",
                                 params={"text": shown, "examples": NOTATION_HELP})
    card = _card(m.group(1), raw)
    op, rest, value = m.group(2), m.group(3), m.group(4)
    if op == "x":
        if value is not None:
            raise move_error(InvalidActionError, "casino.capture_value", raw.strip())
        items = parse_items(rest, raw)
        return ParsedMove(card, "capture", items if items else None)
    if value is None:
        raise move_error(InvalidActionError, "casino.needs_value", raw.strip())
    v = _build_value(value, raw)
    items = parse_items(rest, raw)
    return ParsedMove(card, "build", items, v)


def _build_value(digits: str, raw: str) -> int:
    """The value 1-10 that ``digits`` write; else ``casino.bad_build_value``.

    A long run of digits is refused by its length, before ``int()`` would meet Python's limit
    on the digits of a conversion (a ``ValueError``, not a reason the player can read).

    >>> _build_value("9" * 5000, "x")
    Traceback (most recent call last):
    ...
    kartentisch.core.errors.InvalidActionError: 'x': a build's value is 1 to 10, not 99999999…
    """
    value: int | str = int(digits) if len(digits) <= 8 else digits[:8] + "…"
    if type(value) is not int or not 1 <= value <= 10:
        raise move_error(InvalidActionError, "casino.bad_build_value", raw.strip(), value=value)
    return value
