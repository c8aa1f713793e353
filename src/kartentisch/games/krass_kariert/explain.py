"""Why a Krass Kariert move is not legal: the coded error for every case.

:func:`why_illegal` is only asked after the fast legality test said no, so it may take its
time: it walks through the rules in the order a player would check them and returns the
first reason that applies, as an :class:`~kartentisch.core.errors.IllegalActionError` with a
``kk.*`` code (see :mod:`.reasons`) and params in notation or structured data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kartentisch.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    JSONValue,
    safe_repr,
)
from kartentisch.games.krass_kariert.actions import (
    Concede,
    InsertDrawn,
    Play,
    TakeReserve,
    format_action,
)
from kartentisch.games.krass_kariert.cards import NACHZIEH, WINDOW_TABLES, X, card_name
from kartentisch.games.krass_kariert.reasons import combination_param, error

if TYPE_CHECKING:
    from kartentisch.games.krass_kariert.state import KKState


def why_illegal(state: KKState, action: object) -> IllegalActionError:
    """The error saying why ``action`` is not legal in ``state`` now.

    Raises:
        InvalidActionError: ``action`` is not a Krass Kariert action at all (no move type
            of this game); a malformed move of the game's types (``Play(0, 4)``) is
            explained instead.
    """
    if not isinstance(action, Play | TakeReserve | InsertDrawn | Concede):
        raise error(InvalidActionError, "action.invalid", value=safe_repr(action),
                    game="Krass Kariert")
    if state.phase == "over":
        return error(GameOverError, "action.game_over")
    text = _notation(action)
    hand = state.hands[state.current_player]
    last = len(hand) + 1  # the last position a card can be inserted at (1-based)
    if state.phase == "draw":
        if isinstance(action, InsertDrawn):
            return error(IllegalActionError, "kk.position_range", action=text, last=last)
        return error(IllegalActionError, "kk.insert_first", action=text, last=last)
    if isinstance(action, InsertDrawn):
        return error(IllegalActionError, "kk.nothing_drawn", action=text)
    if isinstance(action, Play):
        return _why_play(state, action, text, hand)
    if isinstance(action, TakeReserve):
        return _why_reserve(state, action, text, last)
    if state.act_index == 0:
        return error(IllegalActionError, "kk.leader_no_concede", action=text)
    if state.reserves[state.current_player]:
        return error(IllegalActionError, "kk.concede_reserve", action=text)
    return error(IllegalActionError, "kk.concede_can_play", action=text)


def _notation(action: Play | TakeReserve | InsertDrawn | Concede) -> str:
    """The action's notation, or a safe repr when its fields are not even numbers."""
    try:
        return format_action(action)
    except (TypeError, ValueError, InvalidActionError):
        return safe_repr(action)


def _why_play(state: KKState, action: Play, text: str, hand: list[int]) -> IllegalActionError:
    start, length = action.start, action.length
    if type(length) is not int or not 1 <= length <= 3:
        return error(IllegalActionError, "kk.play_length", action=text)
    if type(start) is not int or start < 0 or start + length > len(hand):
        if len(hand) == 1:
            return error(IllegalActionError, "kk.beyond_hand_one", action=text)
        return error(IllegalActionError, "kk.beyond_hand", action=text, count=len(hand))
    window = tuple(hand[start : start + length])
    cards = "-".join(card_name(c) for c in window)
    if length > 1 and any(c >= NACHZIEH for c in window):
        return error(IllegalActionError, "kk.specials_alone", action=text, cards=cards)
    if window[0] >= NACHZIEH:  # a single Stopp or Nachzieh, but with X values declared
        return error(IllegalActionError, "kk.special_no_x", action=text)
    options = WINDOW_TABLES[state.game.options.x_with_x][window]
    n_x = window.count(X)
    if n_x > 1 and not options:
        return error(IllegalActionError, "kk.two_x", action=text)
    if not options:
        return error(IllegalActionError, "kk.not_a_combination", action=text, cards=cards)
    best = combination_param(state.best)
    xs = action.x_values
    if not isinstance(xs, tuple) or len(xs) != n_x:
        if not any(value > state.best for value in options.values()):
            return error(IllegalActionError, "kk.x_cannot_beat", action=text, cards=cards,
                         best=best)
        example = format_action(Play(start, length, next(iter(options))))
        return error(IllegalActionError, "kk.declare_x", action=text, cards=cards,
                     example=example)
    if any(type(v) is not int for v in xs) or xs not in options:
        values: list[JSONValue] = [safe_repr(v) if type(v) is not int else v for v in xs]
        return error(IllegalActionError, "kk.x_values_no_combination", action=text,
                     cards=cards, values=values)
    return error(IllegalActionError, "kk.does_not_beat", action=text,
                 combination=combination_param(options[xs]), best=best)


def _why_reserve(state: KKState, action: TakeReserve, text: str, last: int
                 ) -> IllegalActionError:
    reserves = state.reserves[state.current_player]
    if state.act_index == 0:
        return error(IllegalActionError, "kk.leader_no_reserve", action=text)
    if type(action.reserve) is not int or not 0 <= action.reserve < len(reserves):
        code = ("kk.no_reserve", "kk.one_reserve", "kk.two_reserves")[len(reserves)]
        return error(IllegalActionError, code, action=text)
    if type(action.position) is not int or not 0 <= action.position < last:
        return error(IllegalActionError, "kk.position_range", action=text, last=last)
    if action.reserve == 1 and reserves[0] == reserves[1]:
        same = format_action(TakeReserve(0, action.position))
        return error(IllegalActionError, "kk.same_reserves", action=text,
                     card=card_name(reserves[0]), same=same)
    return error(IllegalActionError, "action.illegal", action=text)
