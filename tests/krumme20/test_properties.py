"""Property tests over many random Krumme20 games: conservation, consistency, no leaks."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.core.records import GameRecord
from kartentisch.games.krumme20 import K20State, Krumme20
from kartentisch.games.krumme20.cards import deck_pairs, pair_key
from kartentisch.games.krumme20.position import state_from_json
from kartentisch.games.krumme20.state import PASS_ID, PRIVATE_PHASES

SOAK = bool(os.environ.get("KARTENTISCH_SOAK"))
"""``make soak`` runs the long counts; the default counts keep the suite quick."""


def examples(quick: int, soak: int) -> int:
    """Hypothesis examples: ``soak`` under KARTENTISCH_SOAK, else ``quick``."""
    return soak if SOAK else quick


OPTIONS = st.fixed_dictionaries({}, optional={
    "deck": st.sampled_from(["pairs", "doubles"]),
    "target": st.sampled_from([10, 15, 20, 25, 30]),
    "play_flips": st.booleans(),
    "second_five": st.sampled_from(["any", "after_five"]),
    "foul_keeps_action": st.booleans(),
    "peek_own": st.booleans(),
    "draw_top_visible": st.booleans(),
    "end": st.sampled_from(["final_lap", "immediate"]),
    "turn_limit": st.sampled_from([0, 25, 200]),
})
MAX_ACTIONS = 20_000


def check_invariants(state: K20State) -> None:
    """Everything that must hold in every reachable state."""
    every = state.all_mask
    places = [*state.hands, *state.scores, state.ablage, state.abwurf, state.draw]
    cards = [c for pile in places for c in pile]
    assert sorted(cards) == list(range(54)), "every card exactly once"
    assert Counter(pair_key(state.face[c], state.back[c]) for c in cards) == Counter(
        deck_pairs(state.game.options.deck))
    assert state.total == sum(state.face[c] for c in state.ablage)
    assert 0 <= state.total < state.game.options.target
    assert all(len(h) <= 5 for h in state.hands)
    on_scores = {c for s in state.scores for c in s}
    assert all(not state.cross[c] for c in range(54) if c not in on_scores)
    for s, pile in enumerate(state.scores):
        assert state.score_of(s) == sum(state.face[c] * (1 + state.cross[c]) for c in pile)
    visible = [c for pile in places[:-1] for c in pile]
    assert all(state.kup[c] == every for c in visible), "a visible up side is known to all"
    if state.is_terminal():
        assert state.legal_action_ids() == ()
    else:
        ids = state.legal_action_ids()
        assert isinstance(ids, tuple) and ids, "a step to decide"
        if ids == (PASS_ID,):  # only by what the seat alone knows: publicly a real step
            assert state.secrets and state.phase in PRIVATE_PHASES
            assert state._generate(state.all_mask), "skipping depends on public knowledge"
        assert state.current_player >= 0


def play_random(state: K20State, rng: random.Random, check: bool = True) -> int:
    steps = 0
    while not state.is_terminal():
        if check:
            check_invariants(state)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < MAX_ACTIONS, "the game must end"
    check_invariants(state)
    return steps


@settings(max_examples=examples(60, 2000), deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), options=OPTIONS)
def test_random_games_conserve_cards_and_end(seed: int, players: int,
                                             options: dict[str, Any]) -> None:
    state = Krumme20(players, options).new_initial_state(seed)
    play_random(state, random.Random(seed))
    assert state.final_scores() == [
        sum(state.face[c] * (2 if state.cross[c] else 1) for c in pile) for pile in state.scores]
    returns = state.returns()
    assert abs(sum(returns) - 1.0) < 1e-9
    best = max(state.final_scores())
    assert [r > 0 for r in returns] == [v == best for v in state.final_scores()]


@settings(max_examples=examples(20, 400), deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), options=OPTIONS)
def test_replay_and_position_round_trips(seed: int, players: int,
                                         options: dict[str, Any]) -> None:
    game = Krumme20(players, options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    stop = rng.randrange(1, 120)
    while not state.is_terminal() and len(state.history) < stop:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    doc = json.loads(json.dumps(state.to_json()))
    loaded = state_from_json(None, doc)
    assert loaded.to_json() == doc
    assert loaded.legal_actions() == state.legal_actions()
    # both continue identically
    a, b = random.Random(seed + 1), random.Random(seed + 1)
    play_random(state, a, check=False)
    play_random(loaded, b, check=False)
    assert loaded.final_scores() == state.final_scores()
    record = GameRecord.from_state("krumme20", state)
    replayed = GameRecord.from_json(json.loads(json.dumps(record.to_json()))).replay()
    assert replayed.to_json() == state.to_json()


def swap_hidden(state: K20State, viewer: int) -> K20State:
    """A copy differing only in sides ``viewer`` does not know (down sides swapped)."""
    other = state.clone()
    bit = 1 << viewer
    hidden = [c for c in range(54)
              if not other.kdown[c] & bit and other.kup[c] & bit]
    for a, b in zip(hidden[::2], hidden[1::2], strict=False):
        if other.kdown[a] == other.kdown[b]:
            other.back[a], other.back[b] = other.back[b], other.back[a]
    draw_hidden = [c for c in other.draw if not (other.kup[c] | other.kdown[c]) & bit]
    for a, b in zip(draw_hidden[::2], draw_hidden[1::2], strict=False):
        if (other.kup[a], other.kdown[a]) == (other.kup[b], other.kdown[b]):
            other.face[a], other.face[b] = other.face[b], other.face[a]
    other._legal = None
    return other


@settings(max_examples=examples(20, 400), deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), options=OPTIONS)
def test_no_leaks_and_sampled_worlds_agree(seed: int, players: int,
                                          options: dict[str, Any]) -> None:
    game = Krumme20(players, options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    checks = 0
    while not state.is_terminal():
        if rng.random() < 0.08:
            viewer = rng.randrange(players)
            obs = state.observation(viewer)
            json.dumps(obs.to_json())
            twin = swap_hidden(state, viewer)
            assert twin.observation(viewer) == obs
            if state.current_player == viewer:
                assert twin.legal_actions() == state.legal_actions()
            world = game.sample_world(obs, rng)
            assert world.observation(viewer) == obs
            check_invariants(world)
            if state.current_player == viewer:
                assert world.legal_actions() == state.legal_actions()
            assert state_from_json(None, world.to_json()).to_json() == world.to_json()
            play_random(world.clone(), random.Random(seed), check=False)
            checks += 1
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
