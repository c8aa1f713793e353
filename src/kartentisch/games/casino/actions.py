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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from kartentisch.core.errors import InvalidActionError
from kartentisch.games.casino.cards import CARD_RE, VALUES, card_name, parse_card


@dataclass(frozen=True, slots=True)
class Capture:
    """Play ``card`` to take ``loose`` table cards and, if ``build`` is not 0, that build."""

    card: int
    loose: tuple[int, ...] = ()
    """Loose table cards taken, ascending."""
    build: int = 0
    """The value of the build taken (it must equal the card's value), or 0."""


@dataclass(frozen=True, slots=True)
class Build:
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
class Trail:
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
MASK_BITS: Final = 52
NUM_ACTIONS: Final = 52 * NUM_CODES << MASK_BITS
"""The size of the id space (about 1e19): use the factored form for masks."""


def loose_mask(cards: tuple[int, ...]) -> int:
    """The bitmask of a set of cards (bit ``c`` for card ``c``)."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def mask_cards(mask: int) -> tuple[int, ...]:
    """The cards of a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def action_code(action: Action) -> int:
    """The ``code`` part of an action's id (what the card does)."""
    if type(action) is Trail:
        return CODE_TRAIL
    if type(action) is Capture:
        return CODE_CAPTURE_BUILD if action.build else CODE_CAPTURE
    assert type(action) is Build
    if action.raised:
        return (CODE_RAISE_MERGE if action.merged else CODE_RAISE) + action.raised - 1
    return (CODE_BUILD_MERGE if action.merged else CODE_BUILD) + action.value - 1


def action_factors(action: Action) -> tuple[int, int, int]:
    """The factored id ``(card, code, loose_mask)``, for RL heads (52, 43 and 52 bits)."""
    loose = () if isinstance(action, Trail) else action.loose
    return action.card, action_code(action), loose_mask(loose)


def action_id(action: Action) -> int:
    """The stable integer id of ``action`` in ``range(NUM_ACTIONS)``.

    >>> action_id(Trail(0)), action_id(Capture(1, (0,))) == (1 * NUM_CODES + 1 << 52) | 1
    (0, True)
    """
    card, code, mask = action_factors(action)
    return ((card * NUM_CODES + code) << MASK_BITS) | mask


def action_from_id(i: int) -> Action:
    """The action with id ``i`` (raises ``InvalidActionError`` outside the id space).

    >>> a = Build(4, 8, (20,))
    >>> action_from_id(action_id(a)) == a
    True
    """
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < NUM_ACTIONS:
        raise InvalidActionError(f"action id {i!r} is outside 0..{NUM_ACTIONS - 1}")
    head, mask = divmod(i, 1 << MASK_BITS)
    card, code = divmod(head, NUM_CODES)
    loose = mask_cards(mask)
    if code == CODE_TRAIL:
        if mask:
            raise InvalidActionError(f"action id {i}: a trail uses no table cards")
        return Trail(card)
    if code in (CODE_CAPTURE, CODE_CAPTURE_BUILD):
        return Capture(card, loose, VALUES[card] if code == CODE_CAPTURE_BUILD else 0)
    if code < CODE_RAISE:
        merged = code >= CODE_BUILD_MERGE
        value = code - (CODE_BUILD_MERGE if merged else CODE_BUILD) + 1
        return Build(card, value, loose, 0, merged)
    merged = code >= CODE_RAISE_MERGE
    raised = code - (CODE_RAISE_MERGE if merged else CODE_RAISE) + 1
    if mask:
        raise InvalidActionError(f"action id {i}: a raise uses no loose cards")
    return Build(card, VALUES[card] + raised, (), raised, merged)


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
    """
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
    except ValueError as exc:
        raise InvalidActionError(f"{raw!r}: {exc}") from None


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
            raise InvalidActionError(
                f"{raw!r}: cannot read the table items at {text[pos:]!r}; name them by label "
                "(a, b, ...), card (3c) or build value ([8])")
        if m.group(1):
            value = int(m.group(1))
            if not 1 <= value <= 10:
                raise InvalidActionError(f"{raw!r}: a build's value is 1 to 10, not {value}")
            items.append(("build", value))
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
    raw = text
    text = " ".join(text.strip().split())
    if not text:
        raise InvalidActionError(f"empty move; moves look like: {NOTATION_HELP}")
    if m := _TRAIL_RE.match(text):
        return ParsedMove(_card(m.group(1) or m.group(2), raw), "trail")
    if CARD_RE.fullmatch(text) or re.fullmatch(r"(10|[2-9tjqka])[cdhs]", text.lower()):
        return ParsedMove(_card(text, raw), "card")
    m = _MOVE_RE.match(text)
    if not m:
        raise InvalidActionError(f"cannot read {raw!r}; moves look like: {NOTATION_HELP}")
    card = _card(m.group(1), raw)
    op, rest, value = m.group(2), m.group(3), m.group(4)
    if op == "x":
        if value is not None:
            raise InvalidActionError(f"{raw!r}: a capture takes no '= value'")
        items = parse_items(rest, raw)
        return ParsedMove(card, "capture", items if items else None)
    if value is None:
        raise InvalidActionError(f"{raw!r}: say the build's value, e.g. 2h + a = 8")
    v = int(value)
    if not 1 <= v <= 10:
        raise InvalidActionError(f"{raw!r}: a build's value is 1 to 10, not {v}")
    items = parse_items(rest, raw)
    return ParsedMove(card, "build", items, v)
