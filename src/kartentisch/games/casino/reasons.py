"""Casino's reason codes: why a move is refused, with English templates.

Params are plain values: cards in notation (``"7h"``), numbers, and lists of moves in
notation (``legal``: what the card may do instead). Presenters render cards in words of the
reader's language; nothing here is parsed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, TypeVar

from kartentisch.core.errors import KartentischError
from kartentisch.core.reasons import N_, Reasons, render

E = TypeVar("E", bound=KartentischError)

REASONS: Final = Reasons(
    {
        # reading a move (InvalidActionError)
        "casino.empty": N_("empty move; moves look like: {examples}"),
        "casino.unreadable": N_("cannot read {text}; moves look like: {examples}"),
        "casino.bad_card": N_(
            "unknown card {card}; cards are a rank A 2-9 T J Q K then a suit c d h s,"
            " e.g. 7h, Td, As"
        ),
        "casino.bad_items": N_(
            "cannot read the table items at {rest}; name them by label (a, b, ...), card (3c)"
            " or build value ([8])"
        ),
        "casino.bad_build_value": N_("a build's value is 1 to 10, not {value}"),
        "casino.capture_value": N_("a capture takes no '= value'"),
        "casino.needs_value": N_("say the build's value, e.g. 2h + a = 8"),
        "casino.no_label": N_("there is no table item {label}; the table has {count} items"),
        "casino.named_twice": N_("a table item is named twice"),
        # a move that breaks a rule (IllegalActionError)
        "casino.not_in_hand": N_("{card} is not in your hand ({hand})"),
        "casino.no_move": N_("{card} has no legal move now"),
        "casino.no_capture": N_("{card} has no legal capture now"),
        "casino.not_loose": N_("{missing} is not a loose card on the table"),
        "casino.no_build": N_("there is no build of {value} on the table"),
        "casino.capture_one_build": N_(
            "a capture takes at most one build, the one of the card's value"
        ),
        "casino.raise_one_build": N_("only one build can be raised at a time"),
        "casino.face_own_rank": N_(
            "a face card takes only loose cards of its own rank, one at a time"
        ),
        "casino.face_own_rank_all": N_(
            "a face card takes only loose cards of its own rank, all of them at once"
        ),
        "casino.build_taken_by_value": N_(
            "a build of {value} is taken only by a card of value {value}"
        ),
        "casino.capture_groups": N_("the cards taken must form groups that each add up to {value}"),
        "casino.build_groups": N_("the cards must form groups that each add up to {value}"),
        "casino.face_no_build": N_("face cards never enter builds"),
        "casino.build_needs_card": N_(
            "to build {value} you must keep another card of value {value} in your hand"
        ),
        "casino.no_build_to_raise": N_("there is no build of {value} to raise"),
        "casino.multiple_not_raised": N_("a multiple build can never be raised"),
        "casino.no_raising": N_("a build keeps its value: no build may be raised"),
        "casino.must_trail": N_("you can capture nothing, so you must trail a card"),
        "casino.must_join": N_(
            "the build of {value} on the table must join a new build of {value}"
        ),
        "casino.no_build_to_join": N_("there is no build of {value} to join"),
        "casino.keep_for_build": N_(
            "you must keep a card of value {value} to take your build of {value}"
        ),
        "casino.trail_ban_next_turn": N_(
            "you may not trail while your build from your last turn stands"
        ),
        "casino.trail_ban_owner": N_("you may not trail while you own a build"),
        "casino.trail_can_capture": N_("a card that can capture may not be trailed"),
        "casino.not_legal": N_("{action} is not legal now"),
    }
)
"""Every ``casino.*`` code and its English template."""


def plain(params: Mapping[str, object]) -> dict[str, object]:
    """Params as the English message shows them: lists of cards or moves joined by commas."""
    return {k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in params.items()}


def move_error(cls: type[E], code: str, text: str, /, **params: object) -> E:
    """An error about the move written ``text``: the code's message prefixed with the move
    (the params get ``text`` too; texts longer than a move are quoted cut, see :func:`brief`)."""
    params = {key: brief(value) for key, value in {"text": text, **params}.items()}
    return cls(f"{params['text']!r}: {render(REASONS[code], plain(params))}", code=code,
               params=params)


BRIEF_CHARS: Final = 60
"""The longest piece of a player's text an error quotes (a move is far shorter)."""


def brief(value: object) -> object:
    """``value``, a text cut to :data:`BRIEF_CHARS` characters (ending in "…")."""
    if isinstance(value, str) and len(value) > BRIEF_CHARS:
        return value[:BRIEF_CHARS - 1] + "…"
    return value
