"""Krass Kariert's actions, their integer ids and their text notation.

Positions in the notation count from 1, as a player counts the cards in the hand:

==============  ==========================================================
``4``           play the card at position 4 alone
``4-6``         play positions 4 to 6 together (a window of 2 or 3 cards)
``4-5x7``       the same, declaring the X card in the window as 7
``r2@3``        take reserve card 2 into the hand so that it stands at position 3
``@3``          insert the card just drawn (Nachzieh) at position 3
``concede``     give up the deal (a follower without reserve cards)
==============  ==========================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from kartentisch.core.errors import InvalidActionError, safe_repr
from kartentisch.games.krass_kariert.reasons import error

MAX_HAND: Final = 18
"""10 dealt + 2 reserves + 6 drawn (both Nachzieh cards): the largest hand a deal allows."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play the window ``start .. start+length-1`` (0-based); ``x_values`` declare X cards."""

    start: int
    """Hand index of the window's first card (0-based; the notation counts from 1)."""
    length: int = 1
    """Cards in the window: 1, 2 or 3."""
    x_values: tuple[int, ...] = ()
    """The values declared for the window's X cards, in increasing order (empty: no X)."""


@dataclass(frozen=True, slots=True)
class TakeReserve:
    """Take reserve card ``reserve`` (0-based) into the hand at index ``position``."""

    reserve: int
    """Which reserve card: 0 or 1 (the notation says r1 and r2)."""
    position: int
    """The hand index the card will stand at after the insertion (0: in front)."""


@dataclass(frozen=True, slots=True)
class InsertDrawn:
    """Insert the card just drawn after a Nachzieh round at index ``position``."""

    position: int
    """The hand index the card will stand at after the insertion (0: in front)."""


@dataclass(frozen=True, slots=True)
class Concede:
    """A follower without reserve cards gives up the deal (and a chip)."""


Action = Play | TakeReserve | InsertDrawn | Concede

# Integer ids. A play is (start, length, declaration); the declaration of the X values is
# one of 91: none, one value 1-12, or two values a <= b. Then reserves (2 x 19 target
# positions), insertions of a drawn card (19 positions) and the concession. Every id decodes to
# an action whose id is that id again; ids of windows that can never be legal still exist so the
# layout stays a plain grid.
DECLARATIONS: Final[tuple[tuple[int, ...], ...]] = (
    (),
    *((v,) for v in range(1, 13)),
    *((a, b) for a in range(1, 13) for b in range(a, 13)),
)
"""Every possible declaration of X values, by its index in the id layout."""
DECLARATION_INDEX: Final[dict[tuple[int, ...], int]] = {d: i for i, d in enumerate(DECLARATIONS)}
PLAYS_PER_START: Final = 3 * len(DECLARATIONS)
PLAY_IDS: Final = MAX_HAND * PLAYS_PER_START
RESERVE_BASE: Final = PLAY_IDS
RESERVE_STRIDE: Final = MAX_HAND + 1
INSERT_BASE: Final = RESERVE_BASE + 2 * RESERVE_STRIDE
CONCEDE_ID: Final = INSERT_BASE + MAX_HAND + 1
NUM_ACTIONS: Final = CONCEDE_ID + 1


def play_id(start: int, length: int, x_values: tuple[int, ...] = ()) -> int:
    """The id of a well-formed play (no checks; see :func:`action_id`)."""
    return (start * 3 + length - 1) * len(DECLARATIONS) + DECLARATION_INDEX[x_values]


def _is_index(value: object, stop: int) -> bool:
    return type(value) is int and 0 <= value < stop


def _is_declaration(value: object) -> bool:
    """Whether ``value`` could be a declaration: a tuple of whole numbers (not 7.0, not True)."""
    return type(value) is tuple and all(type(v) is int for v in value)


def not_an_action(value: object) -> InvalidActionError:
    """The error for a value that is not a Krass Kariert action at all."""
    return error(InvalidActionError, "action.invalid", value=safe_repr(value),
                 game="Krass Kariert")


def action_id(action: object) -> int:
    """The stable integer id of ``action`` in ``range(NUM_ACTIONS)``.

    Raises:
        InvalidActionError: ``action`` is not a Krass Kariert action (code
            ``action.invalid``), or a field lies outside what any hand allows or has the
            wrong type (``kk.bad_play``, ``kk.bad_reserve``, ``kk.bad_insert``; X values
            must be 1-12, given in increasing order).

    >>> action_id(Play(0)), action_id(Concede()) == NUM_ACTIONS - 1
    (0, True)
    """
    if isinstance(action, Play):
        xs = action.x_values
        declaration = DECLARATION_INDEX.get(xs) if _is_declaration(xs) else None
        if (
            declaration is None
            or not _is_index(action.start, MAX_HAND)
            or type(action.length) is not int
            or not 1 <= action.length <= 3
        ):
            raise error(InvalidActionError, "kk.bad_play", value=safe_repr(action),
                        last=MAX_HAND - 1)
        return (action.start * 3 + action.length - 1) * len(DECLARATIONS) + declaration
    if isinstance(action, TakeReserve):
        if not (_is_index(action.reserve, 2) and _is_index(action.position, RESERVE_STRIDE)):
            raise error(InvalidActionError, "kk.bad_reserve", value=safe_repr(action),
                        last=MAX_HAND)
        return RESERVE_BASE + action.reserve * RESERVE_STRIDE + action.position
    if isinstance(action, InsertDrawn):
        if not _is_index(action.position, MAX_HAND + 1):
            raise error(InvalidActionError, "kk.bad_insert", value=safe_repr(action),
                        last=MAX_HAND)
        return INSERT_BASE + action.position
    if isinstance(action, Concede):
        return CONCEDE_ID
    raise not_an_action(action)


def _decode(i: int) -> Action:
    if i < PLAY_IDS:
        window, declaration = divmod(i, len(DECLARATIONS))
        start, length = divmod(window, 3)
        return Play(start, length + 1, DECLARATIONS[declaration])
    if i < INSERT_BASE:
        reserve, position = divmod(i - RESERVE_BASE, RESERVE_STRIDE)
        return TakeReserve(reserve, position)
    if i < CONCEDE_ID:
        return InsertDrawn(i - INSERT_BASE)
    return Concede()


ACTIONS: Final[tuple[Action, ...]] = tuple(_decode(i) for i in range(NUM_ACTIONS))
"""Every action by id; the engine hands out these shared objects."""

SHARED_IDS: Final[dict[int, int]] = {id(action): i for i, action in enumerate(ACTIONS)}
"""Ids of the shared action objects by object identity (``ACTIONS`` keeps them alive, so no
other object can have such an identity). Speed: applying an action taken from
``legal_actions()`` costs one dict lookup on an int, with no dataclass hashing or checks."""


def action_from_id(i: int) -> Action:
    """The action with id ``i``.

    Raises:
        InvalidActionError: ``i`` is not an int in ``range(NUM_ACTIONS)`` (code
            ``action.bad_id``).

    >>> action_from_id(CONCEDE_ID)
    Concede()
    """
    if not _is_index(i, NUM_ACTIONS):
        raise error(InvalidActionError, "action.bad_id", value=safe_repr(i),
                    last=NUM_ACTIONS - 1)
    return ACTIONS[i]


def format_action(action: Action) -> str:
    """The canonical notation of ``action`` (positions counted from 1).

    >>> format_action(Play(3, 2, (7,)))
    '4-5x7'
    >>> format_action(TakeReserve(1, 2)), format_action(InsertDrawn(0)), format_action(Concede())
    ('r2@3', '@1', 'concede')
    """
    if isinstance(action, Play):
        text = str(action.start + 1)
        if action.length > 1:
            text += f"-{action.start + action.length}"
        return text + "".join(f"x{v}" for v in action.x_values)
    if isinstance(action, TakeReserve):
        return f"r{action.reserve + 1}@{action.position + 1}"
    if isinstance(action, InsertDrawn):
        return f"@{action.position + 1}"
    if isinstance(action, Concede):
        return "concede"
    raise not_an_action(action)


_PLAY_RE = re.compile(r"^(\d+)(?:\s*-\s*(\d+))?((?:\s*x\s*=?\s*\d+)*)$")
_RESERVE_RE = re.compile(r"^r\s*(\d+)(?:\s*@\s*(\d+))?$")
_INSERT_RE = re.compile(r"^@\s*(\d+)$")
CONCEDE_WORDS: Final = frozenset({"concede", "aufgeben", "give up", "c"})

MAX_NOTATION: Final = 40
"""The longest text read as a move (the longest real one, ``18-18 x 12 x 12``, is shorter)."""

NOTATION_HELP: Final = "4 | 4-6 | 4-5x7 | r1@3 | @3 | concede"


@dataclass(frozen=True, slots=True)
class PartialReserve:
    """``r2`` without a position: the caller must still choose where it goes."""

    reserve: int
    """Which reserve card: 0 or 1."""


def parse_notation(text: str) -> Action | PartialReserve:
    """Read the notation without looking at a state (syntax only).

    A play whose X value is not given parses with ``x_values=()``; the state decides
    whether that is ambiguous.

    Raises:
        InvalidActionError: the text is not a move (codes ``kk.notation_*``). Positions
            past the end of a hand parse; the state refuses them with a reason.

    >>> parse_notation("4-5 X=7")
    Play(start=3, length=2, x_values=(7,))
    >>> parse_notation("r1@3")
    TakeReserve(reserve=0, position=2)
    """
    if not isinstance(text, str):
        raise error(InvalidActionError, "kk.notation_unreadable", text=safe_repr(text))
    raw = text.strip()
    text = " ".join(raw.lower().split())
    if not text:
        raise error(InvalidActionError, "kk.notation_empty")
    if len(text) > MAX_NOTATION:  # no move is this long (and int() of 5000 digits raises)
        raise error(InvalidActionError, "kk.notation_unreadable", text=raw)
    if text in CONCEDE_WORDS:
        return Concede()
    if m := _PLAY_RE.match(text):
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) else first
        xs = tuple(int(v) for v in re.findall(r"\d+", m.group(3) or ""))
        if first < 1 or last < first or last - first > 2:
            raise error(InvalidActionError, "kk.notation_window", text=raw)
        if any(not 1 <= v <= 12 for v in xs):
            raise error(InvalidActionError, "kk.notation_x_value", text=raw)
        if len(xs) > 2:
            raise error(InvalidActionError, "kk.notation_too_many_x", text=raw)
        return Play(first - 1, last - first + 1, tuple(sorted(xs)))
    if m := _RESERVE_RE.match(text):
        reserve = int(m.group(1))
        if reserve not in (1, 2):
            raise error(InvalidActionError, "kk.notation_reserve", text=raw)
        if m.group(2) is None:
            return PartialReserve(reserve - 1)
        position = int(m.group(2))
        if position < 1:
            raise error(InvalidActionError, "kk.notation_position", text=raw)
        return TakeReserve(reserve - 1, position - 1)
    if m := _INSERT_RE.match(text):
        position = int(m.group(1))
        if position < 1:
            raise error(InvalidActionError, "kk.notation_position", text=raw)
        return InsertDrawn(position - 1)
    raise error(InvalidActionError, "kk.notation_unreadable", text=raw)
