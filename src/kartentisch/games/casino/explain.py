"""Why a Casino move is not legal now: a reason code, its params, and what is allowed.

:func:`why_illegal` checks the rules in the order a player would ask about them (is the card
mine, are the table cards there, which rule of captures, builds or trails is broken) and
returns the first broken rule as an :class:`IllegalActionError` with a ``casino.*`` code
(see :mod:`~kartentisch.games.casino.reasons`). Params name cards in notation; ``legal``
lists, in notation, the moves the played card has instead.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Final

from kartentisch.core.errors import IllegalActionError
from kartentisch.core.reasons import render
from kartentisch.games.casino.actions import Action, Build, Capture, format_action
from kartentisch.games.casino.cards import VALUES, card_name, card_names, is_face
from kartentisch.games.casino.combinatorics import can_partition
from kartentisch.games.casino.reasons import REASONS, plain
from kartentisch.games.casino.table import (
    bare_build,
    no_capture_refusal,
    raise_refusal,
    trail_refusal,
)

if TYPE_CHECKING:
    from kartentisch.games.casino.state import CasinoState

HINT_MOVES: Final = 8
"""How many of the card's legal moves the English message lists."""


def _illegal(code: str, action: str, legal: list[str], card: str,
             **params: object) -> IllegalActionError:
    """The error for ``action`` (notation) breaking the rule ``code``."""
    if legal:
        hint = f"; legal with {card}: {', '.join(legal[:HINT_MOVES])}" + (
            " ..." if len(legal) > HINT_MOVES else "")
    else:
        hint = f"; {card} has no legal move now"
    params = {"action": action, "card": card, **params}
    message = f"{action!r}: {render(REASONS[code], plain(params))}{hint}"
    return IllegalActionError(message, code=code, params={**params, "legal": legal})


def why_illegal(state: CasinoState, action: Action) -> IllegalActionError:
    """Why ``action`` is not legal for the player to act (see the module docstring)."""
    seat = state.current_player
    hand = state.hands[seat] if seat >= 0 else []
    text = format_action(action)
    card = card_name(action.card)
    if action.card not in hand:
        return _illegal("casino.not_in_hand", text, [], card, hand=card_names(sorted(hand)))
    legal = [format_action(a) for a in state.legal_actions() if a.card == action.card]

    def fail(code: str, **params: object) -> IllegalActionError:
        return _illegal(code, text, legal, card, **params)

    missing = [c for c in getattr(action, "loose", ()) if c not in state.loose]
    if missing:
        return fail("casino.not_loose", missing=card_name(missing[0]))
    options = state.game.options
    held = Counter(VALUES[c] for c in hand)
    held[VALUES[action.card]] -= 1
    if type(action) is Capture:
        if action.build and action.build not in state.builds:
            return fail("casino.no_build", value=action.build)
        if is_face(action.card):
            return fail("casino.face_own_rank_all" if options.face_cards_capture_all
                        else "casino.face_own_rank")
        if action.build and action.build != VALUES[action.card]:
            return fail("casino.build_taken_by_value", value=action.build)
        if not action.loose or can_partition(list(action.loose), VALUES[action.card]):
            bare = bare_build(state, action)
            if bare:
                return fail("casino.keep_for_build", value=bare)
        return fail("casino.capture_groups", value=VALUES[action.card])
    if type(action) is Build:
        if is_face(action.card):
            return fail("casino.face_no_build")
        refused = no_capture_refusal(options.build_without_capture,
                                     any(type(a) is Capture for a in state.legal_actions()))
        if refused is not None:
            return fail(refused)
        if not 1 <= action.value <= 10:
            return fail("casino.build_groups", value=action.value)
        if held[action.value] <= 0:
            return fail("casino.build_needs_card", value=action.value)
        if action.raised:
            b = state.builds.get(action.raised)
            if b is None:
                return fail("casino.no_build_to_raise", value=action.raised)
            refused = raise_refusal(options.raising, b)
            if refused is not None:
                return fail(refused)
        if (action.value in state.builds) != action.merged:
            if action.value in state.builds:
                return fail("casino.must_join", value=action.value)
            return fail("casino.no_build_to_join", value=action.value)
        bare = bare_build(state, action)
        if bare:
            return fail("casino.keep_for_build", value=bare)
        return fail("casino.build_groups", value=action.value)
    refusal = trail_refusal(state, action.card)
    if refusal is not None:
        code, params = refusal
        return fail(code, **params)
    return fail("casino.not_legal")
