"""Krass Kariert's hot loops kept inside the engine: many random games, and search playouts.

Speed: a loop written in Python around the public protocol pays for a method call, a tuple
of ids and a bound-method lookup at every action. These loops call the state's own
generator and transition directly; with the compiled core (mypyc, see ``setup.py``) they run
as C, the way OpenSpiel's ``evaluate_bots`` stays in C++. In pure Python they are the same
code and give the same results.

Both loops draw from the caller's :class:`random.Random` exactly as the generic loops do
(:func:`kartentisch.bots.playout.random_games` and :func:`~kartentisch.bots.playout.playout`),
so a bot's results for a fixed seed do not depend on which loop ran. (For a plain
``Random``, ``randrange(n)`` is replaced by a copy of the standard library's algorithm
without its two Python-level frames: written twice on purpose, checked against ``randrange``
at import, where any difference makes the loops call ``randrange`` itself, and by
``tests/krass_kariert/test_fast_paths.py``.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from kartentisch.games.krass_kariert.rollout import heuristic_action
from kartentisch.games.krass_kariert.state import PHASE_OVER, PHASE_PLAY, KKState
from kartentisch.games.krass_kariert.tables import ALL_IDS

if TYPE_CHECKING:
    from kartentisch.games.krass_kariert.game import KrassKariert


def _probe_randbelow() -> bool:
    """Whether :func:`_randbelow` draws exactly what ``random.Random.randrange(n)`` draws in
    this Python (it copies the standard library's algorithm, which could change)."""
    if random.Random._randbelow is not random.Random._randbelow_with_getrandbits:  # type: ignore[attr-defined]
        return False
    mine, theirs = random.Random(14), random.Random(14)
    ok = all(_randbelow(mine.getrandbits, n) == theirs.randrange(n)
             for n in (*range(1, 70), 1000, 4972) for _ in range(3))
    return ok and mine.random() == theirs.random()


def _randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """``rng.randrange(n)`` for ``n`` > 0 (``getrandbits`` is ``rng.getrandbits``): the
    standard library's ``_randbelow_with_getrandbits``, without the Python-level frames of
    ``randrange`` around it."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


_FAST_RANDBELOW: Final = _probe_randbelow()
"""Whether :func:`_randbelow` may stand in for ``randrange`` (checked once at import)."""


def _legal_ids(state: KKState) -> list[int]:
    """The legal ids as a list (:meth:`KKState.legal_action_ids` without the tuple)."""
    if state.phase_code == PHASE_PLAY:
        ids: list[int] = state._generate_play(state.to_act, 1, ALL_IDS)
        return ids
    return state._generate_outside_play(ALL_IDS)


def random_games(game: KrassKariert, seeds: Sequence[int],
                 rng: random.Random) -> tuple[list[list[float]], int]:
    """Play one game per seed with uniformly random legal actions (``rng`` chooses).

    Returns every game's returns and the number of actions played in all. The choices are
    those of the loop ``ids = state.legal_action_ids();
    state.apply_unchecked(ids[rng.randrange(len(ids))])`` from ``game.new_initial_state``.
    """
    results: list[list[float]] = []
    actions = 0
    randrange = rng.randrange
    getrandbits = rng.getrandbits
    fast = _FAST_RANDBELOW and type(rng) is random.Random
    for seed in seeds:
        state = game.new_initial_state(seed)
        while state.phase_code != PHASE_OVER:  # the phase's code (no name compared)
            # Speed: the index first, then the action at it; the ids are never listed.
            n = state._legal_count()
            state._apply_nth(_randbelow(getrandbits, n) if fast else randrange(n))
            actions += 1
        results.append(state.returns())
    return results, actions


def run_playout(state: KKState, heuristic: bool, rng: random.Random, cap: int) -> int:
    """Play ``state`` (mutated) on until its deal or the game ends, or ``cap`` actions
    (``cap`` < 0: no cap); return the number of actions played.

    With ``heuristic`` every seat follows the heuristic (:func:`.rollout.heuristic_action`,
    a single legal move still draws from ``rng`` as the generic policy does), otherwise
    moves are uniformly random. This is the search bots' playout
    (:func:`kartentisch.bots.playout.playout`) for Krass Kariert's horizon, the deal.
    """
    deal = state.deal
    steps = 0
    randrange = rng.randrange
    getrandbits = rng.getrandbits
    fast = _FAST_RANDBELOW and type(rng) is random.Random
    while state.phase_code != PHASE_OVER and state.deal == deal and steps != cap:
        if heuristic:
            ids = _legal_ids(state)
            n = len(ids)
            if n > 1:
                aid = heuristic_action(state, ids, rng)
            else:
                aid = ids[_randbelow(getrandbits, n) if fast else randrange(n)]
            state.apply_unchecked(aid)
        else:  # as in random_games: no list of ids
            n = state._legal_count()
            state._apply_nth(_randbelow(getrandbits, n) if fast else randrange(n))
        steps += 1
    return steps
