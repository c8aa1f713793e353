"""Krass Kariert's reason codes (``kk.*``) and their English templates.

Every error the game raises carries one of these codes (or a core one) and params that are
plain JSON values without English words: moves and cards in the game's notation
(``"4-5x7"``, ``"X-7"``), numbers, and *combinations* as structured data,
``{"kind": "pair", "high": 7}`` (kinds as in :data:`cards.KIND_KEYS`), or ``None`` for
"nothing". The engine's own English message renders combinations with
:data:`COMBINATION_TEMPLATES`; a presenter translates the same templates (see
``cli/presenters/krass_kariert.py``), so German reads "ein Paar 7er".

Templates have no plural forms, so a code whose number decides the grammar comes in two
codes (``kk.beyond_hand`` / ``kk.beyond_hand_one``); every template is a whole sentence a
player can read as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, TypeVar

from kartentisch.core.errors import JSONValue, KartentischError
from kartentisch.core.reasons import CORE_REASONS, N_, Reasons, render
from kartentisch.games.krass_kariert.cards import KIND_KEYS, NO_COMBINATION, high_of, kind_of

E = TypeVar("E", bound=KartentischError)

REASONS: Final = Reasons(
    {
        # ---------------------------------------------------------------- move notation
        "kk.notation_empty": N_(
            "Cannot read an empty move. Moves look like: 4 | 4-6 | 4-5x7 | r1@3 | @3 | concede"
        ),
        "kk.notation_unreadable": N_(
            "Cannot read '{text}'. Moves look like: 4 | 4-6 | 4-5x7 | r1@3 | @3 | concede"
        ),
        "kk.notation_window": N_(
            "Cannot read '{text}'. A combination is 1 to 3 neighbouring positions, e.g. 4 or 4-6."
        ),
        "kk.notation_x_value": N_(
            "Cannot read '{text}'. An X card stands for a number from 1 to 12, e.g. 4-5x7."
        ),
        "kk.notation_too_many_x": N_("Cannot read '{text}'. There are only two X cards."),
        "kk.notation_reserve": N_(
            "Cannot read '{text}'. Reserve cards are numbered 1 and 2, e.g. r1@3."
        ),
        "kk.notation_position": N_("Cannot read '{text}'. Positions count from 1."),
        # ---------------------------------------------------------------- malformed actions
        "kk.bad_play": N_(
            "{value} is not a Krass Kariert play: it needs a start from 0 to {last}, a length"
            " from 1 to 3 and at most two X values from 1 to 12 in increasing order."
        ),
        "kk.bad_reserve": N_(
            "{value} is not a Krass Kariert reserve move: the reserve card is 0 or 1 and the"
            " position from 0 to {last}."
        ),
        "kk.bad_insert": N_(
            "{value} is not a Krass Kariert insertion: the position is from 0 to {last}."
        ),
        # ---------------------------------------------------------------- ambiguous moves
        "kk.which_x": N_("{text}: which value does the X card stand for ({cards})? E.g. {example}"),
        "kk.which_position": N_(
            "{text}: where does the card go (positions 1 to {last})? E.g. {example}"
        ),
        # ---------------------------------------------------------------- drawing
        "kk.position_range": N_(
            "Not allowed now: {action}. A card can go to positions 1 to {last}."
        ),
        "kk.insert_first": N_(
            "Not allowed now: {action}. Insert the drawn card first, at a position from 1 to"
            " {last} (e.g. @1)."
        ),
        "kk.nothing_drawn": N_("Not allowed now: {action}. There is no drawn card to insert."),
        # ---------------------------------------------------------------- plays
        "kk.play_length": N_(
            "Not allowed now: {action}. A combination is 1 to 3 neighbouring cards."
        ),
        "kk.beyond_hand": N_("Not allowed now: {action}. Your hand has only {count} cards."),
        "kk.beyond_hand_one": N_("Not allowed now: {action}. Your hand has only one card."),
        "kk.specials_alone": N_(
            "Not allowed now: {action}. Stopp and Nachzieh are played alone, not in {cards}."
        ),
        "kk.special_no_x": N_(
            "Not allowed now: {action}. Stopp and Nachzieh are played without an X value."
        ),
        "kk.two_x": N_(
            "Not allowed now: {action}. Two X cards cannot form one combination (rules option"
            " x_with_x is off)."
        ),
        "kk.not_a_combination": N_("Not allowed now: {action}. {cards} is not a combination."),
        "kk.declare_x": N_(
            "Not allowed now: {action}. Declare a value for each X card in {cards}, e.g."
            " {example}."
        ),
        "kk.x_values_no_combination": N_(
            "Not allowed now: {action}. {cards} with X as {values} is not a combination."
        ),
        "kk.x_cannot_beat": N_(
            "Not allowed now: {action}. Whatever the X card stands for, {cards} does not beat"
            " {best}."
        ),
        "kk.does_not_beat": N_(
            "Not allowed now: {action}. That is {combination}, which does not beat {best}."
        ),
        # ---------------------------------------------------------------- reserve cards
        "kk.leader_no_reserve": N_(
            "Not allowed now: {action}. Whoever leads a round must play cards, not take a"
            " reserve card."
        ),
        "kk.no_reserve": N_("Not allowed now: {action}. You have no reserve card."),
        "kk.one_reserve": N_("Not allowed now: {action}. You have only one reserve card."),
        "kk.two_reserves": N_(
            "Not allowed now: {action}. Your reserve cards are numbered 1 and 2."
        ),
        "kk.same_reserves": N_(
            "Not allowed now: {action}. Both reserve cards are {card}; take reserve card 1:"
            " {same}."
        ),
        # ---------------------------------------------------------------- concession
        "kk.leader_no_concede": N_(
            "Not allowed now: {action}. Whoever leads a round cannot concede."
        ),
        "kk.concede_reserve": N_(
            "Not allowed now: {action}. You still have a reserve card to take."
        ),
        "kk.concede_can_play": N_(
            "Not allowed now: {action}. You can still beat or play a special card (rules"
            " option voluntary_concession is off)."
        ),
        # ---------------------------------------------------------------- options
        "kk.five_player_chips": N_("The option five_player_chips only applies to 5 players."),
    }
)
"""Krass Kariert's reason codes (``KrassKariert.reasons``)."""

COMBINATION_TEMPLATES: Final[Mapping[str, str]] = {
    "single": N_("a single {high}"),
    "run2": N_("a 2-run up to {high}"),
    "pair": N_("a pair of {high}s"),
    "run3": N_("a 3-run up to {high}"),
    "triple": N_("a triple of {high}s"),
}
"""A combination param in words, by its ``kind``; ``high`` is its deciding number."""

NOTHING: Final = N_("nothing")
"""The words for the combination param ``None`` (nothing to beat)."""

Translate = Callable[[str], str]
"""A function translating a message id (``gettext``)."""

COMBINATION_PARAMS: Final = frozenset({"combination", "best"})
"""The param names that hold a combination (see :func:`combination_param`)."""


def combination_param(value: int) -> dict[str, JSONValue] | None:
    """A combination strength as a param: ``{"kind": "pair", "high": 7}``, or ``None``.

    >>> combination_param(2 * 16 + 7)
    {'kind': 'pair', 'high': 7}
    """
    if value == NO_COMBINATION:
        return None
    return {"kind": KIND_KEYS[kind_of(value)], "high": high_of(value)}


def combination_words(value: JSONValue, translate: Translate | None = None) -> str | None:
    """A combination param in words (English, or through ``translate``); ``None`` if
    ``value`` is not a combination param.

    >>> combination_words({"kind": "run3", "high": 9})
    'a 3-run up to 9'
    """
    if value is None:
        return translate(NOTHING) if translate else NOTHING
    if not isinstance(value, dict):
        return None
    kind, high = value.get("kind"), value.get("high")
    if not isinstance(kind, str) or kind not in COMBINATION_TEMPLATES or type(high) is not int:
        return None
    template = COMBINATION_TEMPLATES[kind]
    return (translate(template) if translate else template).format(high=high)


def _english(name: str, value: JSONValue) -> JSONValue:
    """A param as the engine's English message shows it."""
    if name in COMBINATION_PARAMS:
        words = combination_words(value)
        if words is not None:
            return words
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


def message(code: str, params: Mapping[str, JSONValue]) -> str:
    """The English message of ``code`` (a ``kk.*`` or core code) with ``params``."""
    template = REASONS[code] if code in REASONS else CORE_REASONS[code]
    return render(template, {name: _english(name, v) for name, v in params.items()})


def error(cls: type[E], code: str, /, **params: JSONValue) -> E:
    """An error of class ``cls`` with ``code``, ``params`` and its English message."""
    return cls(message(code, params), code=code, params=params)
