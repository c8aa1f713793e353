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

from kartentisch.core.errors import InvalidActionError

MAX_HAND: Final = 18
"""10 dealt + 2 reserves + 6 drawn (both Nachzieh cards): the largest hand a deal allows."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play the window ``start .. start+length-1`` (0-based); ``x_values`` declare X cards."""

    start: int
    length: int = 1
    x_values: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TakeReserve:
    """Take reserve card ``reserve`` (0-based) into the hand at index ``position``."""

    reserve: int
    position: int


@dataclass(frozen=True, slots=True)
class InsertDrawn:
    """Insert the card just drawn after a Nachzieh round at index ``position``."""

    position: int


@dataclass(frozen=True, slots=True)
class Concede:
    """A follower without reserve cards gives up the deal (and a chip)."""


Action = Play | TakeReserve | InsertDrawn | Concede

# Integer ids: plays first (start, length, two declared X values 0=none), then reserves,
# insertions and the concession.
_X_SLOTS: Final = 13
PLAY_IDS: Final = MAX_HAND * 3 * _X_SLOTS * _X_SLOTS
RESERVE_BASE: Final = PLAY_IDS
INSERT_BASE: Final = RESERVE_BASE + 2 * (MAX_HAND + 1)
CONCEDE_ID: Final = INSERT_BASE + MAX_HAND + 1
NUM_ACTIONS: Final = CONCEDE_ID + 1


def play_id(start: int, length: int, x_values: tuple[int, ...] = ()) -> int:
    """The id of a play."""
    x1 = x_values[0] if x_values else 0
    x2 = x_values[1] if len(x_values) > 1 else 0
    return ((start * 3 + length - 1) * _X_SLOTS + x1) * _X_SLOTS + x2


def action_id(action: Action) -> int:
    """The stable integer id of ``action`` in ``range(NUM_ACTIONS)``."""
    if type(action) is Play:
        return play_id(action.start, action.length, action.x_values)
    if type(action) is TakeReserve:
        return RESERVE_BASE + action.reserve * (MAX_HAND + 1) + action.position
    if type(action) is InsertDrawn:
        return INSERT_BASE + action.position
    return CONCEDE_ID


def _decode(i: int) -> Action:
    if i < PLAY_IDS:
        i, x2 = divmod(i, _X_SLOTS)
        i, x1 = divmod(i, _X_SLOTS)
        start, length = divmod(i, 3)
        xs = tuple(x for x in (x1, x2) if x)
        return Play(start, length + 1, xs)
    if i < INSERT_BASE:
        reserve, position = divmod(i - RESERVE_BASE, MAX_HAND + 1)
        return TakeReserve(reserve, position)
    if i < CONCEDE_ID:
        return InsertDrawn(i - INSERT_BASE)
    return Concede()


ACTIONS: Final[tuple[Action, ...]] = tuple(_decode(i) for i in range(NUM_ACTIONS))
"""Every action by id; the engine hands out these shared objects."""


def action_from_id(i: int) -> Action:
    """The action with id ``i``."""
    if not 0 <= i < NUM_ACTIONS:
        raise InvalidActionError(f"action id {i} is outside 0..{NUM_ACTIONS - 1}")
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
    return "concede"


_PLAY_RE = re.compile(r"^(\d+)(?:\s*-\s*(\d+))?((?:\s*x\s*=?\s*\d+)*)$")
_RESERVE_RE = re.compile(r"^r\s*(\d+)(?:\s*@\s*(\d+))?$")
_INSERT_RE = re.compile(r"^@\s*(\d+)$")
CONCEDE_WORDS: Final = frozenset({"concede", "aufgeben", "give up", "c"})

NOTATION_HELP: Final = "4 | 4-6 | 4-5x7 | r1@3 | @3 | concede"


@dataclass(frozen=True, slots=True)
class PartialReserve:
    """``r2`` without a position: the caller must still choose where it goes."""

    reserve: int


def parse_notation(text: str) -> Action | PartialReserve:
    """Read the notation without looking at a state (syntax only).

    A play whose X value is not given parses with ``x_values=()``; the state decides
    whether that is ambiguous.

    >>> parse_notation("4-5 X=7")
    Play(start=3, length=2, x_values=(7,))
    >>> parse_notation("r1@3")
    TakeReserve(reserve=0, position=2)
    """
    raw = text
    text = " ".join(text.strip().lower().split())
    if not text:
        raise InvalidActionError(f"empty move; moves look like: {NOTATION_HELP}")
    if text in CONCEDE_WORDS:
        return Concede()
    if m := _PLAY_RE.match(text):
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) else first
        xs = tuple(int(v) for v in re.findall(r"\d+", m.group(3) or ""))
        if first < 1 or last < first or last - first > 2:
            raise InvalidActionError(
                f"{raw!r}: a combination is 1 to 3 neighbouring positions, e.g. 4 or 4-6"
            )
        if any(not 1 <= v <= 12 for v in xs):
            raise InvalidActionError(f"{raw!r}: an X card is declared as a number from 1 to 12")
        if len(xs) > 2:
            raise InvalidActionError(f"{raw!r}: there are only two X cards")
        return Play(first - 1, last - first + 1, tuple(sorted(xs)))
    if m := _RESERVE_RE.match(text):
        reserve = int(m.group(1))
        if reserve not in (1, 2):
            raise InvalidActionError(f"{raw!r}: reserve cards are numbered 1 and 2")
        if m.group(2) is None:
            return PartialReserve(reserve - 1)
        position = int(m.group(2))
        if position < 1:
            raise InvalidActionError(f"{raw!r}: positions count from 1")
        return TakeReserve(reserve - 1, position - 1)
    if m := _INSERT_RE.match(text):
        position = int(m.group(1))
        if position < 1:
            raise InvalidActionError(f"{raw!r}: positions count from 1")
        return InsertDrawn(position - 1)
    raise InvalidActionError(f"cannot read {raw!r}; moves look like: {NOTATION_HELP}")
