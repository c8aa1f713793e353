"""Why a Krumme20 move is not legal now: a reason code, its params, and what is allowed.

:func:`why_illegal` looks at the step the game is in and at what the move asks for, and
returns the first rule it breaks as an :class:`IllegalActionError` with a ``k20.*`` code
(see :mod:`~kartentisch.games.krumme20.reasons`). Every error carries ``move`` (the action
in notation) and ``legal`` (the legal moves in notation); the rest of its params name cards
and seats as the notation counts them. The legal moves themselves come from the state's
generator: this module only says in words why a move is not among them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kartentisch.core.errors import IllegalActionError
from kartentisch.games.krumme20 import actions as acts
from kartentisch.games.krumme20 import state as st
from kartentisch.games.krumme20.actions import Action, format_action
from kartentisch.games.krumme20.reasons import REASONS

if TYPE_CHECKING:
    from kartentisch.games.krumme20.state import K20State


def why_illegal(state: K20State, action: Action) -> IllegalActionError:
    """The coded error saying why ``action`` is not legal now (see the module docstring)."""
    seat = state._current
    hand = state.hands[seat]
    phase = state.phase
    opts = state.game.options
    # The steps that offer the 1's targets: its action, and with ``compensation=take`` the
    # compensations (the state's generator reads the option the same way).
    take_steps = (st.TAKE, st.LOSS, st.SITOUT) if opts.compensation == "take" else (st.TAKE,)
    base: dict[str, object] = {
        "move": format_action(action),
        "legal": [format_action(acts.ACTIONS[i]) for i in state.legal_action_ids()],
    }

    def error(code: str, **params: object) -> IllegalActionError:
        return REASONS.error(IllegalActionError, code, **base, **params)

    index = getattr(action, "index", None)
    if isinstance(action, acts.Play | acts.Second | acts.Throw | acts.Lowest) and (
            index is not None) and (
            (type(action) is acts.Play and phase == st.TURN)
            or (type(action) is acts.Second and phase == st.FIVE)
            or (type(action) is acts.Throw and phase == st.THROW)
            or (type(action) is acts.Lowest and phase in (st.FOUL, st.SITOUT))):
        if index >= len(hand):
            return error("k20.no_such_card", card=index + 1, count=len(hand))
        card = hand[index]
        number, _known = state.counting_side(card)
        if type(action) is acts.Play:
            if number:
                return error("k20.visible_foul", card=index + 1, number=number,
                             total=state.total, target=opts.target)
            return error("k20.visible_foul_zeros", card=index + 1, target=opts.target)
        if type(action) is acts.Second:
            return error("k20.known_not_five", card=index + 1)
        if type(action) is acts.Throw:
            return error("k20.known_not_three", card=index + 1)
        if phase == st.SITOUT and len(hand) < acts.MAX_HAND:
            return error("k20.lowest_needs_full_hand", limit=acts.MAX_HAND)
        return error("k20.not_lowest", card=index + 1,
                     lowest=min(state.face[c] for c in hand))
    if isinstance(action, acts.Pass) and phase == st.TURN:
        return error("k20.must_play")
    if isinstance(action, acts.Claim33 | acts.ClaimSum) and phase in (st.TURN, st.AFTER):
        if isinstance(action, acts.Claim33):
            if action.indices[2] >= len(hand):
                return error("k20.no_such_card", card=action.indices[2] + 1,
                             count=len(hand))
            return error("k20.claim33_wrong")
        return error("k20.claim_sum_wrong", target=opts.target)
    if (type(action) is acts.Flip and phase == st.FLIP) or (
            type(action) is acts.Take and phase in take_steps):
        if type(action) is acts.Take and len(hand) >= acts.MAX_HAND:
            return error("k20.hand_full", limit=acts.MAX_HAND)
        if action.seat >= state.game.players:
            return error("k20.no_such_seat", last=state.game.players - 1)
        if type(action) is acts.Take and action.seat == seat:
            return error("k20.take_own")
        spared = state._spared_team(seat)
        if action.seat != seat and spared >= 0 and state.team[action.seat] == spared:
            return error("k20.teammate_target", seat=action.seat)
        return error("k20.no_such_card_of_seat", seat=action.seat, card=action.index + 1,
                     count=len(state.hands[action.seat]))
    if (type(action) is acts.FlipScore and phase == st.FLIP) or (
            type(action) is acts.TakeScore and phase in take_steps):
        if type(action) is acts.TakeScore and len(hand) >= acts.MAX_HAND:
            return error("k20.hand_full", limit=acts.MAX_HAND)
        return error("k20.no_such_score_card", card=action.index + 1,
                     count=len(state.scores[seat]))
    if isinstance(action, acts.Draw) and phase in (st.LOSS, st.SITOUT) and (
            opts.compensation == "take"):
        return error("k20.compensation_takes")
    if (isinstance(action, acts.TakeDraw | acts.TakeDiscard) and phase in take_steps) or (
            isinstance(action, acts.Draw) and phase in (st.DRAW2, st.LOSS, st.SITOUT)):
        if len(hand) >= acts.MAX_HAND:
            return error("k20.hand_full", limit=acts.MAX_HAND)
        if isinstance(action, acts.TakeDiscard):
            return error("k20.discard_empty")
        if not state.draw:
            return error("k20.draw_empty")
    return error("k20.wrong_step", step=phase)

