"""Property tests over random games (hypothesis picks seeds and options).

``test_invariants_in_random_games`` plays whole games with cheap checks on every step;
``test_expensive_properties`` plays fewer games with replay, position, observation and
legality checks at checkpoints. The counts are quick by default (a few hundred games); with
``KARTENTISCH_SOAK=1`` (``make soak``) they are the long ones (thousands of games).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kartentisch.core.errors import IllegalActionError
from kartentisch.core.rng import SEED_MAX
from kartentisch.games.krass_kariert import (
    InsertDrawn,
    KKState,
    KrassKariert,
    Play,
    TakeReserve,
)
from kartentisch.games.krass_kariert.actions import ACTIONS, NUM_ACTIONS
from kartentisch.games.krass_kariert.cards import DECK_COUNTS

MAX_ACTIONS = 10_000
"""A bound on a game's length: a deal has at most 54 rounds (every round removes a card
for good) of at most 5 + 6 actions, and a game at most 16 deals."""

SOAK = bool(os.environ.get("KARTENTISCH_SOAK"))
"""Long counts for ``make soak``; the quick ones keep ``make test`` short."""

SEEDS = st.integers(min_value=0, max_value=SEED_MAX)
OPTIONS = st.fixed_dictionaries(
    {
        "x_with_x": st.booleans(),
        "voluntary_concession": st.booleans(),
        "next_leader_fallback": st.sampled_from(["next_highest", "right_neighbour"]),
    }
)


def _settings(examples: int) -> Any:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def _all_cards(s: KKState) -> Counter[int]:
    total = Counter(s.draw_pile) + Counter(s.discard)
    for h, r in zip(s.hands, s.reserves, strict=True):
        total.update(h)
        total.update(r)
    if s.pending is not None:
        total[s.pending] += 1
    return total


def _card_count(s: KKState) -> int:
    return (
        sum(map(len, s.hands))
        + sum(map(len, s.reserves))
        + len(s.draw_pile)
        + len(s.discard)
        + (s.pending is not None)
    )


def _expected_hand(s: KKState, action: Any) -> list[int]:
    """The mover's hand after ``action``: only the rules' removal or insertion."""
    hand = list(s.hands[s.current_player])
    if isinstance(action, Play):
        del hand[action.start : action.start + action.length]
    elif isinstance(action, TakeReserve):
        hand.insert(action.position, s.reserves[s.current_player][action.reserve])
    elif isinstance(action, InsertDrawn):
        assert s.pending is not None
        hand.insert(action.position, s.pending)
    return hand


def play_checked(players: int, seed: int, options: dict[str, Any]) -> KKState:
    """One random game with the cheap invariants checked on every step."""
    game = KrassKariert(players, options)
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    chips = list(s.chips)
    steps = 0
    while not s.is_terminal():
        assert steps < MAX_ACTIONS, "the game does not end"
        legal = s.legal_actions()
        assert legal, "a live game always has a legal action"
        action = legal[rng.randrange(len(legal))]
        mover, deal = s.current_player, s.deal
        before = [list(h) for h in s.hands]
        expected = _expected_hand(s, action)
        s.apply(action)
        steps += 1
        assert _card_count(s) == 54
        if steps % 16 == 0:
            assert _all_cards(s) == DECK_COUNTS
        if s.deal == deal and not s.is_terminal():
            assert s.hands[mover] == expected
            assert all(s.hands[p] == before[p] for p in range(players) if p != mover)
        assert all(c >= 0 for c in s.chips)
        assert all(a <= b for a, b in zip(s.chips, chips, strict=True))
        chips = list(s.chips)
        if s.phase == "draw":
            # Everything still to draw is there (the pending card is already off the pile).
            assert len(s.draw_pile) >= s.draws_left - 1
    assert _all_cards(s) == DECK_COUNTS
    returns = s.returns()
    assert abs(sum(returns)) < 1e-9 and min(returns) == -1.0
    assert sorted(p for p in range(players) if returns[p] == -1.0) == sorted(s.losers)
    assert all(s.chips[p] == 0 for p in s.losers)
    return s


@pytest.mark.parametrize(("players", "games"),
                         [(3, 700), (4, 700), (5, 600)] if SOAK else [(3, 60), (4, 60), (5, 60)])
def test_invariants_in_random_games(players: int, games: int) -> None:
    lengths: list[int] = []

    @_settings(games)
    @given(seed=SEEDS, options=OPTIONS)
    def run(seed: int, options: dict[str, Any]) -> None:
        lengths.append(len(play_checked(players, seed, options).history))

    run()
    assert len(lengths) == games  # the games this test promises, all played to the end


def _check_checkpoint(kk: ModuleType, s: KKState, rng: random.Random) -> None:
    game = s.game
    doc = s.to_json()
    # The position document reads back to the identical document.
    assert game.state_from_json(doc).to_json() == doc
    # The legal actions are the rules' (independent reference) and each really applies.
    legal = s.legal_actions()
    assert kk.engine_legal(s) == kk.reference_legal(s)
    assert len(set(legal)) == len(legal)
    for action in legal:
        s.clone().apply(action)
    # A random action that is not legal raises and changes nothing.
    legal_ids = set(s.legal_action_ids())
    for aid in rng.sample(range(NUM_ACTIONS), 3):
        if aid not in legal_ids:
            with pytest.raises(IllegalActionError):
                s.apply(ACTIONS[aid])
            with pytest.raises(IllegalActionError):
                s.apply_id(aid)
    assert s.to_json() == doc
    # A world sampled from a seat's observation differs only in what that seat cannot
    # see: the seat's observation and legal actions are the same in both.
    seats = {rng.randrange(game.players)}
    if not s.is_terminal():
        seats.add(s.current_player)
    for seat in seats:
        obs = s.observation(seat)
        world = game.sample_world(obs, rng)
        assert world.observation(seat) == obs
        assert _all_cards(world) == DECK_COUNTS
        if seat == s.current_player:
            assert world.legal_actions() == legal


@pytest.mark.parametrize(("players", "games"),
                         [(3, 120), (4, 120), (5, 120)] if SOAK else [(3, 12), (4, 12), (5, 12)])
def test_expensive_properties(kk: ModuleType, players: int, games: int) -> None:
    @_settings(games)
    @given(seed=SEEDS, options=OPTIONS, every=st.integers(12, 30))
    def run(seed: int, options: dict[str, Any], every: int) -> None:
        game = KrassKariert(players, options)
        s = game.new_initial_state(seed)
        rng = random.Random(seed ^ 0x5EED)
        copy: KKState | None = None
        steps = 0
        while not s.is_terminal():
            if steps % every == 0:
                _check_checkpoint(kk, s, rng)
            if steps == every:
                copy = game.state_from_json(s.to_json())  # continues in lockstep below
            action = rng.choice(s.legal_actions())
            s.apply(action)
            if copy is not None:
                copy.apply(action)
            steps += 1
        _check_checkpoint(kk, s, rng)
        # Replaying the history from the seed gives the identical final state.
        again = game.new_initial_state(seed)
        for action in s.history:
            again.apply(action)
        assert again.to_json() == s.to_json()
        assert again.returns() == s.returns()
        # A position read back in mid-game plays on exactly like the original.
        if copy is not None:
            assert copy.to_json() == s.to_json()

    run()


def test_clone_is_independent() -> None:
    s = KrassKariert(4).new_initial_state(3)
    c = s.clone()
    c.apply(c.legal_actions()[0])
    assert s.to_json() != c.to_json()
    assert s.to_json() == KrassKariert(4).new_initial_state(3).to_json()
    assert len(c.events) > len(s.events) and len(c.history) == 1 and s.history == []


def _mutable_parts(value: object, path: str) -> list[tuple[str, object]]:
    """Every list, dict and set inside ``value`` (through lists, tuples and dicts)."""
    out: list[tuple[str, object]] = []
    if isinstance(value, list | dict | set):
        out.append((path, value))
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return out
    for key, item in items:
        out += _mutable_parts(item, f"{path}[{key!r}]")
    return out


def test_clone_shares_nothing_mutable() -> None:
    s = KrassKariert(4).new_initial_state(5)
    rng = random.Random(5)
    for _ in range(60):
        s.apply(rng.choice(s.legal_actions()))
    assert s.events  # made before cloning, so the clone could share them
    c = s.clone()
    for name in KKState.__slots__:
        if name in ("game", "_windows", "start_table"):
            continue  # the game and the shared move tables are never changed
        mine = {id(v) for _p, v in _mutable_parts(getattr(s, name), name)}
        for path, value in _mutable_parts(getattr(c, name), name):
            assert id(value) not in mine, path
    for mine, theirs in zip(s.events, c.events, strict=True):
        assert mine == theirs and mine.data is not theirs.data


@pytest.mark.parametrize("players", [3, 4, 5])
def test_single_action_legality_agrees_with_the_generated_list(players: int) -> None:
    """``apply`` decides one action with ``is_legal_id``; it must agree with the list of
    legal ids for every one of the 4972 ids, in every phase and under every option."""

    @_settings(15 if SOAK else 4)
    @given(seed=SEEDS, options=OPTIONS, every=st.integers(8, 20))
    def run(seed: int, options: dict[str, Any], every: int) -> None:
        game = KrassKariert(players, options)
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        steps = 0
        while True:
            if steps % every == 0 or s.is_terminal():
                legal = set(s.legal_action_ids())
                decided = {aid for aid in range(NUM_ACTIONS) if s.is_legal_id(aid)}
                assert decided == legal, (s.phase, s.act_index, sorted(decided ^ legal)[:5])
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
            steps += 1

    run()
