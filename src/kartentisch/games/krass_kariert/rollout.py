"""Fast heuristic rollouts of a Krass Kariert deal, for the search bots' evaluation.

A search bot scores a position by playing it on to the end of the current deal with every
seat following the game's heuristic (:class:`~.heuristic.HeuristicBot`): the heuristic is
the opponent the search bots meet, and random play is useless here (the heuristic beats
random bots in every game). Going through the public protocol would build a full
observation and a list of action objects for every move; the heuristic only reads a few
fields of the observation, so this module hands it a light view of the state instead and
works with action ids. The moves chosen are exactly the heuristic's moves on the real
observation (ties broken by the seeded generator, so a rollout is deterministic for a
given seed).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from kartentisch.games.krass_kariert.actions import ACTIONS
from kartentisch.games.krass_kariert.heuristic import HeuristicBot
from kartentisch.games.krass_kariert.observation import KKObservation

if TYPE_CHECKING:
    from kartentisch.games.krass_kariert.state import KKState


class HeuristicView:
    """The part of a seat's observation the heuristic reads, taken from a state.

    Only the acting seat's own hand and drawn card are exposed (what the seat may know),
    plus public fields: reserves, the round's progress and the Nachzieh count.
    """

    __slots__ = ("act_index", "hand", "nachzieh_played", "participants", "pending",
                 "reserves", "seat")

    def __init__(self, state: KKState, seat: int):
        self.seat = seat
        self.hand = tuple(state.hands[seat])
        self.pending = state.pending if state.round_winner == seat else None
        self.reserves = state.reserves
        self.act_index = state.act_index
        self.participants = state.participants
        self.nachzieh_played = state.nachzieh_played


_BOTS: dict[bool, HeuristicBot] = {}


def _bot(state: KKState) -> HeuristicBot:
    """A reusable heuristic for the state's game options.

    The bot keeps nothing between moves that changes its choice (only a cache of the last
    hand's costs), so one instance serves every seat and every search.
    """
    x_with_x = bool(state.game.options.x_with_x)
    bot = _BOTS.get(x_with_x)
    if bot is None:
        bot = _BOTS[x_with_x] = HeuristicBot(state.game, 0)
    return bot


_MEMO: dict[tuple[object, ...], tuple[int, ...]] = {}
_MEMO_LIMIT = 1 << 16
"""Decisions remembered (the heuristic's tied-best ids per situation), cleared when full."""


def heuristic_action(state: KKState, ids: Sequence[int], rng: random.Random) -> int:
    """The heuristic's move (an id among the legal ``ids``) for the player to act.

    ``rng`` breaks the heuristic's ties, as the bot's own generator would. The heuristic's
    choice depends only on the game's ``x_with_x`` option, the acting seat's hand, drawn card
    and reserves, the legal moves, whether it leads or acts last, and the Nachzieh count, so
    the tied-best moves of each such situation are remembered: a search meets the same
    situations again and again (the moves stay exactly the heuristic's).
    """
    if len(ids) == 1:
        return ids[0]
    seat = state.current_player
    hand = tuple(state.hands[seat])
    act_index = state.act_index
    pending = state.pending if state.round_winner == seat else None
    key = (state.game.options.x_with_x, hand, pending, tuple(state.reserves[seat]), act_index == 0,
           act_index == len(state.participants) - 1, state.nachzieh_played, tuple(ids))
    best = _MEMO.get(key)
    if best is None:
        bot = _bot(state)
        view = cast(KKObservation, HeuristicView(state, seat))
        scored = [bot.score(view, ACTIONS[i]) for i in ids]
        low = min(scored)
        best = tuple(i for i, s in zip(ids, scored, strict=True) if s <= low + 1e-9)
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = best
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def rollout_deal(state: KKState, rng: random.Random) -> None:
    """Play ``state`` (mutated) with heuristic moves until its deal (or the game) ends."""
    deal = state.deal
    while state.deal == deal and not state.is_terminal():
        state.apply_unchecked(heuristic_action(state, state.legal_action_ids(), rng))
