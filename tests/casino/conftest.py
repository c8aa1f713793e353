"""Shared helpers of the Casino tests: set up positions by hand."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from kartentisch.core.errors import KartentischError
from kartentisch.games.casino import Casino, CasinoState
from kartentisch.games.casino.cards import parse_card
from kartentisch.games.casino.table import BuildUnit, PlayRecord

Setup = Callable[..., CasinoState]


def cards(text: str) -> list[int]:
    """``"7h 3c"`` -> card ints."""
    return [parse_card(t) for t in text.split()]


def make_position(
    *,
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    hands: Sequence[str] = ("7h", "Kc"),
    loose: str = "",
    builds: Sequence[tuple[int, str, int, int]] = (),
    to_move: int = 0,
    turn: int = 10,
    last_turn: Sequence[int] | None = None,
    deck: str | None = None,
    dealer: int | None = None,
) -> CasinoState:
    """A position: hands and table as card names, builds as (value, cards, owner, turn).

    Unless ``deck`` is given, the remaining cards go to the pack (not necessarily a whole
    number of deals); with ``deck``, the rest go to a captured pile of the last seat,
    logged as one capture.
    """
    game = Casino(players, options)
    state = CasinoState(game, 0, deal_now=False)
    state.hands = [cards(h) for h in hands]
    state.loose = sorted(cards(loose))
    state.builds = {v: BuildUnit(v, tuple(sorted(cards(c))), owner, t)
                    for v, c, owner, t in builds}
    used = set(state.loose)
    for h in state.hands:
        used.update(h)
    for b in state.builds.values():
        used.update(b.cards)
    rest = [c for c in range(52) if c not in used]
    if deck is None:
        state.deck, excess = rest, []
    else:
        state.deck = list(reversed(cards(deck)))
        excess = [c for c in rest if c not in state.deck]
    state.captured = [[] for _ in range(players)]
    if excess:
        state.captured[players - 1] = list(excess)
        state.plays = [PlayRecord(players - 1, "capture", excess[0], tuple(excess[1:]))]
        state.last_capturer = players - 1
    state.turn = turn
    state.last_turn = list(last_turn) if last_turn is not None else [-1] * players
    state.dealer = players - 1 if dealer is None else dealer
    state._current = to_move
    state._legal = None
    return state


@pytest.fixture
def setup() -> Setup:
    """``setup(hands=..., loose=..., builds=...)`` -> a position (see ``make_position``)."""
    return make_position


def refusal(state: CasinoState, action: object) -> KartentischError:
    """The error ``state.apply(action)`` raises; the state must be left exactly as it was."""
    before = state.to_json()
    legal = state.legal_action_ids()
    with pytest.raises(KartentischError) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert state.to_json() == before
    assert state.legal_action_ids() == legal
    return info.value
