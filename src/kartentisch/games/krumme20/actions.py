"""Krumme20's actions, their integer ids and their text notation.

Personal cards and score-pile cards are counted from 1 in the notation, seats from 0 (as
everywhere in kartentisch):

=================  ==============================================================
``p2``             play personal card 2 onto the Ablagestapel
``f2``             play personal card 2 as the second card, a 5 on 15
``t2``             throw personal card 2 onto the Abwurfstapel as a further 3
``flip 1:2``       (action of a 0) turn personal card 2 of seat 1 (own or other)
``flip s3``        (action of a 0) turn card 3 of my Punktestapel
``take 1:2``       (action of a 1) take personal card 2 of seat 1
``take s3``        (action of a 1) take card 3 of my Punktestapel
``take draw``      (action of a 1) take the top of the Nachziehstapel
``take discard``   (action of a 1) take the top of the Abwurfstapel
``draw``           draw one card (action of a 2, or a compensation)
``sitout``         (action of a 4) the next player sits out
``low 2``          put personal card 2 (a lowest one) onto my Punktestapel
``33 1,2,4``       show personal cards 1, 2 and 4 as 3/3 cards
``sum up``         show all personal cards as summing to 20 (``sum down``: their down sides)
``pass``           decline the current choice (no action, no compensation, stop)
=================  ==============================================================

German command words are read as well (:data:`GERMAN_WORDS`): ``spielen 2``, ``fünf 2``,
``werfen 2``, ``drehen 1:2``, ``nehmen s3``, ``nehmen nachzieh``, ``nehmen abwurf``,
``ziehen``, ``aussetzen``, ``klein 2``, ``summe oben``, ``summe unten``, ``passen``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Final

from kartentisch.core.errors import InvalidActionError, safe_repr
from kartentisch.games.krumme20.reasons import REASONS

MAX_HAND: Final = 5
"""The limit of personal cards."""
MAX_SEATS: Final = 6
MAX_SCORE: Final = 54
"""A score pile can at most hold every card."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play personal card ``index`` (0-based) onto the Ablagestapel."""

    index: int


@dataclass(frozen=True, slots=True)
class Second:
    """Play personal card ``index`` as a second card, announced as a 5 on 15."""

    index: int


@dataclass(frozen=True, slots=True)
class Throw:
    """Throw personal card ``index`` onto the Abwurfstapel, announced as a further 3."""

    index: int


@dataclass(frozen=True, slots=True)
class Flip:
    """Turn personal card ``index`` of ``seat`` over for good (action of a 0)."""

    seat: int
    index: int


@dataclass(frozen=True, slots=True)
class FlipScore:
    """Turn card ``index`` of my own Punktestapel over (action of a 0)."""

    index: int


@dataclass(frozen=True, slots=True)
class Take:
    """Take personal card ``index`` of another ``seat`` (action of a 1)."""

    seat: int
    index: int


@dataclass(frozen=True, slots=True)
class TakeScore:
    """Take card ``index`` of my own Punktestapel back (action of a 1)."""

    index: int


@dataclass(frozen=True, slots=True)
class TakeDraw:
    """Take the top card of the Nachziehstapel (action of a 1)."""


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the Abwurfstapel (action of a 1)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card from the Nachziehstapel (action of a 2, or a compensation)."""


@dataclass(frozen=True, slots=True)
class SitOut:
    """Make the next player sit out their next turn (action of a 4)."""


@dataclass(frozen=True, slots=True)
class Lowest:
    """Put personal card ``index``, one of my lowest, onto my Punktestapel."""

    index: int


@dataclass(frozen=True, slots=True)
class Claim33:
    """Show three personal cards (sorted 0-based indices) as 3/3 cards."""

    indices: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class ClaimSum:
    """Show all personal cards as summing to exactly 20: up sides, or (``down``) down sides."""

    down: bool


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline the current voluntary choice."""


Action = (Play | Second | Throw | Flip | FlipScore | Take | TakeScore | TakeDraw | TakeDiscard
          | Draw | SitOut | Lowest | Claim33 | ClaimSum | Pass)

TRIPLES: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (a, b, c) for a, b, c in itertools.combinations(range(MAX_HAND), 3))


def _build() -> tuple[Action, ...]:
    out: list[Action] = []
    out += [Play(i) for i in range(MAX_HAND)]
    out += [Second(i) for i in range(MAX_HAND)]
    out += [Throw(i) for i in range(MAX_HAND)]
    out += [Flip(s, i) for s in range(MAX_SEATS) for i in range(MAX_HAND)]
    out += [FlipScore(i) for i in range(MAX_SCORE)]
    out += [Take(s, i) for s in range(MAX_SEATS) for i in range(MAX_HAND)]
    out += [TakeScore(i) for i in range(MAX_SCORE)]
    out += [TakeDraw(), TakeDiscard(), Draw(), SitOut()]
    out += [Lowest(i) for i in range(MAX_HAND)]
    out += [Claim33(t) for t in TRIPLES]
    out += [ClaimSum(False), ClaimSum(True), Pass()]
    return tuple(out)


ACTIONS: Final[tuple[Action, ...]] = _build()
"""Every action by id; the engine hands out these shared objects."""
NUM_ACTIONS: Final = len(ACTIONS)
ACTION_IDS: Final[dict[Action, int]] = {a: i for i, a in enumerate(ACTIONS)}
"""Every action's id (equal actions find the same id; see :func:`checked_action_id`)."""

PASS: Final = Pass()
DRAW: Final = Draw()
SITOUT: Final = SitOut()
TAKE_DRAW: Final = TakeDraw()
TAKE_DISCARD: Final = TakeDiscard()


def action_id(action: Action) -> int:
    """The stable integer id of ``action`` in ``range(NUM_ACTIONS)``.

    >>> action_id(Play(0)), action_id(Pass()) == NUM_ACTIONS - 1
    (0, True)
    """
    try:
        return ACTION_IDS[action]
    except (KeyError, TypeError):  # TypeError: an unhashable field, e.g. a list of indices
        raise InvalidActionError(
            f"{safe_repr(action)} is not a Krumme20 action",
            params={"value": safe_repr(action), "game": "Krumme20"},
        ) from None


def _same_shape(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` (equal values) also have the same types all through: ``Play(True)``
    equals ``Play(1)`` and hashes alike, yet is not an action."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple) and isinstance(b, tuple):
        return all(_same_shape(x, y) for x, y in zip(a, b, strict=True))
    slots: tuple[str, ...] = getattr(type(a), "__slots__", ())
    return all(_same_shape(getattr(a, f), getattr(b, f)) for f in slots)


def checked_action_id(action: object) -> int:
    """The id of ``action``; :class:`InvalidActionError` for anything that is not exactly a
    Krumme20 action (a foreign object, an index out of range, ``Play(True)``, ...).

    The engine's own shared action objects are recognised by identity, so the usual case costs
    one dictionary lookup and one comparison (the speed of :meth:`State.apply`).
    """
    try:
        aid = ACTION_IDS[action]  # type: ignore[index]
    except Exception:  # unhashable or odd objects (a raising __eq__/__hash__): not an action
        aid = -1
    if aid >= 0 and (ACTIONS[aid] is action or _same_shape(action, ACTIONS[aid])):
        return aid
    raise InvalidActionError(
        f"{safe_repr(action)} is not a Krumme20 action",
        params={"value": safe_repr(action), "game": "Krumme20"},
    )


def action_from_id(i: int) -> Action:
    """The action with id ``i``."""
    if type(i) is not int or not 0 <= i < NUM_ACTIONS:
        raise InvalidActionError(
            f"action id {safe_repr(i)} is not a whole number from 0 to {NUM_ACTIONS - 1}",
            code="action.bad_id",
            params={"value": safe_repr(i), "last": NUM_ACTIONS - 1},
        )
    return ACTIONS[i]


def format_action(action: Action) -> str:
    """The canonical notation of ``action`` (cards counted from 1, seats from 0).

    >>> format_action(Play(1)), format_action(Flip(2, 0)), format_action(Claim33((0, 1, 3)))
    ('p2', 'flip 2:1', '33 1,2,4')
    >>> format_action(ClaimSum(True)), format_action(TakeScore(2)), format_action(Pass())
    ('sum down', 'take s3', 'pass')
    """
    match action:
        case Play(i):
            return f"p{i + 1}"
        case Second(i):
            return f"f{i + 1}"
        case Throw(i):
            return f"t{i + 1}"
        case Flip(s, i):
            return f"flip {s}:{i + 1}"
        case FlipScore(i):
            return f"flip s{i + 1}"
        case Take(s, i):
            return f"take {s}:{i + 1}"
        case TakeScore(i):
            return f"take s{i + 1}"
        case TakeDraw():
            return "take draw"
        case TakeDiscard():
            return "take discard"
        case Draw():
            return "draw"
        case SitOut():
            return "sitout"
        case Lowest(i):
            return f"low {i + 1}"
        case Claim33(t):
            return "33 " + ",".join(str(i + 1) for i in t)
        case ClaimSum(down):
            return "sum down" if down else "sum up"
        case Pass():
            return "pass"
    raise InvalidActionError(f"{safe_repr(action)} is not a Krumme20 action",
                             params={"value": safe_repr(action), "game": "Krumme20"})


NOTATION_HELP: Final = ("p2 | f2 | t2 | flip 1:2 | flip s3 | take 1:2 | take s3 | take draw | "
                        "take discard | draw | sitout | low 2 | 33 1,2,4 | sum up | sum down | "
                        "pass")

GERMAN_WORDS: Final[dict[str, str]] = {
    "spielen": "p",
    "fünf": "f",
    "werfen": "t",
    "drehen": "flip",
    "nehmen": "take",
    "nehmen nachzieh": "take draw",
    "nehmen abwurf": "take discard",
    "ziehen": "draw",
    "aussetzen": "sitout",
    "klein": "low",
    "summe oben": "sum up",
    "summe unten": "sum down",
    "passen": "pass",
}
"""German command words and the notation each stands for (``spielen 2`` = ``p2``, ``drehen
1:2`` = ``flip 1:2``, ...). They are read in every language, like the notation itself; the
German help and ``docs/rules/krumme20.md`` list them."""

_WORDS: Final[dict[str, Action]] = {
    "pass": PASS, "skip": PASS, "no": PASS, "end": PASS, "-": PASS, "passen": PASS,
    "draw": DRAW, "d": DRAW, "ziehen": DRAW,
    "sitout": SITOUT, "sit out": SITOUT, "sit": SITOUT, "aussetzen": SITOUT,
    "take draw": TAKE_DRAW, "take d": TAKE_DRAW, "nehmen nachzieh": TAKE_DRAW,
    "take discard": TAKE_DISCARD, "take a": TAKE_DISCARD, "nehmen abwurf": TAKE_DISCARD,
    "sum up": ClaimSum(False), "summe oben": ClaimSum(False),
    "sum down": ClaimSum(True), "summe unten": ClaimSum(True),
}
_INDEX_RE = re.compile(r"^(spielen|fünf|fuenf|werfen|klein|low|p|f|t)\s*(\d+)$")
_INDEX_KIND: Final = {"spielen": "p", "fünf": "f", "fuenf": "f", "werfen": "t", "klein": "low"}
_SEAT_RE = re.compile(r"^(flip|take|drehen|nehmen)\s+(\d+)\s*:\s*(\d+)$")
_SCORE_RE = re.compile(r"^(flip|take|drehen|nehmen)\s+s\s*(\d+)$")
_FLIP_WORDS: Final = frozenset({"flip", "drehen"})
_CLAIM_RE = re.compile(r"^33\s+(\d+)\s*[, ]\s*(\d+)\s*[, ]\s*(\d+)$")
_DIGITS_MAX: Final = 6
"""Longer numbers than this are no card or seat (and are not converted, however long)."""


def _shown(raw: str) -> str:
    """The player's text as an error quotes it: stripped and, when very long, cut."""
    text = raw.strip()
    return text if len(text) <= 40 else text[:37] + "..."


def _number(text: str, raw: str, limit: int) -> int:
    """A card number counted from 1 (``text``, digits) as a 0-based index up to ``limit``."""
    if len(text) > _DIGITS_MAX or not 1 <= int(text) <= limit:
        raise REASONS.error(InvalidActionError, "k20.card_number", text=_shown(raw), limit=limit)
    return int(text) - 1


def parse_notation(text: str) -> Action:
    """Read the notation (or its German words) without looking at a state (syntax only).

    >>> parse_notation("P2"), parse_notation("flip 1:3"), parse_notation("33 4,1,2")
    (Play(index=1), Flip(seat=1, index=2), Claim33(indices=(0, 1, 3)))
    >>> parse_notation("take s2"), parse_notation("nehmen s2"), parse_notation("Passen")
    (TakeScore(index=1), TakeScore(index=1), Pass())
    """
    if not isinstance(text, str):
        raise REASONS.error(InvalidActionError, "k20.unreadable", text=safe_repr(text),
                            examples=NOTATION_HELP)
    raw = text
    text = " ".join(text.strip().lower().split())
    if not text:
        raise REASONS.error(InvalidActionError, "k20.empty", examples=NOTATION_HELP)
    if text in _WORDS:
        return _WORDS[text]
    if m := _INDEX_RE.match(text):
        index = _number(m.group(2), raw, MAX_HAND)
        kind = _INDEX_KIND.get(m.group(1), m.group(1))
        if kind == "p":
            return Play(index)
        if kind == "f":
            return Second(index)
        if kind == "t":
            return Throw(index)
        return Lowest(index)
    if m := _SEAT_RE.match(text):
        if len(m.group(2)) > _DIGITS_MAX or int(m.group(2)) >= MAX_SEATS:
            raise REASONS.error(InvalidActionError, "k20.seat_number", text=_shown(raw),
                                last=MAX_SEATS - 1)
        index = _number(m.group(3), raw, MAX_HAND)
        seat = int(m.group(2))
        return Flip(seat, index) if m.group(1) in _FLIP_WORDS else Take(seat, index)
    if m := _SCORE_RE.match(text):
        index = _number(m.group(2), raw, MAX_SCORE)
        return FlipScore(index) if m.group(1) in _FLIP_WORDS else TakeScore(index)
    if m := _CLAIM_RE.match(text):
        picked = sorted({_number(g, raw, MAX_HAND) for g in m.groups()})
        if len(picked) != 3:
            raise REASONS.error(InvalidActionError, "k20.claim_distinct", text=_shown(raw))
        return Claim33((picked[0], picked[1], picked[2]))
    raise REASONS.error(InvalidActionError, "k20.unreadable", text=_shown(raw),
                        examples=NOTATION_HELP)
