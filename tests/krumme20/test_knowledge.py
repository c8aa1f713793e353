"""What each seat and a spectator may know: observations, sampled worlds, public skipping."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kartentisch.core.documents import json_schema, read_document
from kartentisch.core.errors import IllegalActionError, InvalidSeatError
from kartentisch.core.protocol import OBSERVATION_FORMAT
from kartentisch.games.krumme20 import K20State, Krumme20
from kartentisch.games.krumme20.documents import K20ObservationDocument, K20PositionDocument
from kartentisch.games.krumme20.state import PASS_ID

Build = Callable[..., K20State]
OPTION_SETS: list[dict[str, Any]] = [
    {}, {"peek_own": True}, {"peek_own": True, "play_flips": False},
    {"draw_top_visible": False, "target": 10}, {"deck": "doubles", "peek_own": True},
]


def positions(games: int = 3, every: int = 7) -> Iterator[K20State]:
    """States along random games under several option sets (every ``every``-th action)."""
    for k, options in enumerate(OPTION_SETS):
        game = Krumme20(2 + k % 4, options)
        for seed in range(games):
            state = game.new_initial_state(100 * k + seed)
            rng = random.Random(seed)
            step = 0
            while True:
                if step % every == 0 or state.is_terminal():
                    yield state
                if state.is_terminal():
                    break
                ids = state.legal_action_ids()
                state.apply_id(ids[rng.randrange(len(ids))])
                step += 1


def test_spectator_view_holds_no_hidden_side() -> None:
    seen = 0
    for state in positions():
        every = state.all_mask
        obs = state.observation(None)
        assert obs.seat is None and obs.hand == ()
        piles = [*obs.hands, *obs.scores, obs.ablage, obs.abwurf, obs.draw_pile]
        for pile in piles:
            for card in pile:
                assert (card.up is not None) == (card.up_known == every)
                assert (card.down is not None) == (card.down_known == every)
                seen += card.down is not None
        data = obs.to_json()
        assert data["format"] == OBSERVATION_FORMAT and data["game"] == "krumme20"
        assert data["seat"] is None
    assert seen > 0  # some down sides do become public


def test_a_seat_sees_what_it_knows_and_no_more() -> None:
    for state in positions(games=2, every=11):
        for seat in range(state.game.players):
            obs = state.observation(seat)
            bit = 1 << seat
            for pile, cards in zip(obs.hands, state.hands, strict=True):
                for view, c in zip(pile, cards, strict=True):
                    assert view.up == (state.face[c] if state.kup[c] & bit else None)
                    assert view.down == (state.back[c] if state.kdown[c] & bit else None)


def test_observation_of_a_seat_that_does_not_play() -> None:
    state = Krumme20(3).new_initial_state(1)
    for seat in (3, -1, True, 1.0, "0"):
        with pytest.raises(InvalidSeatError):
            state.observation(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_sampled_worlds_look_the_same_to_the_viewer(viewer: int | None) -> None:
    rng = random.Random(3)
    checked = 0
    for state in positions(games=2, every=9):
        if viewer is not None and viewer >= state.game.players:
            continue
        obs = state.observation(viewer)
        world = state.game.sample_world(obs, rng)
        assert world.observation(viewer) == obs
        assert world.phase == state.phase and world.current_player == state.current_player
        assert bool(world.legal_action_ids()) == bool(state.legal_action_ids())
        if viewer is not None and state.current_player == viewer:
            assert world.legal_action_ids() == state.legal_action_ids()
        checked += 1
    assert checked > 50


def test_reveal_only_when_over() -> None:
    game = Krumme20(3)
    state = game.new_initial_state(4)
    with pytest.raises(IllegalActionError) as caught:
        state.reveal()
    assert caught.value.code == "observation.not_over"
    rng = random.Random(4)
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
    assert state.reveal() == state.to_json()


def test_documents_match_their_types_and_schemas() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    positions_ok = jsonschema.Draft202012Validator(
        json_schema(K20PositionDocument, title="p", description="p"))
    observations_ok = jsonschema.Draft202012Validator(
        json_schema(K20ObservationDocument, title="o", description="o"))
    assert Krumme20.position_document is K20PositionDocument
    assert Krumme20.observation_document is K20ObservationDocument
    for state in positions(games=1, every=40):  # jsonschema takes ~40 ms per document
        doc = json.loads(json.dumps(state.to_json()))
        read_document(doc, K20PositionDocument, what="position")
        positions_ok.validate(doc)
        for viewer in (None, max(state.current_player, 0)):
            view = json.loads(json.dumps(state.observation(viewer).to_json()))
            read_document(view, K20ObservationDocument, what="observation")
            observations_ok.validate(view)


# ------------------------------------------------------------------ public skipping (ruling b)
def throw_position(build: Build, downs: tuple[int, int]) -> K20State:
    """Seat 0 (``peek_own``: knows its down sides) plays a card counting 3; its other two
    cards show 0 and 2 up, with ``downs`` underneath."""
    return build(hands=[["1/3", f"0/{downs[0]}", f"2/{downs[1]}"], ["4/1"], ["5/5"]],
                 options={"peek_own": True})


def test_a_step_is_not_skipped_for_what_only_the_mover_knows(build: Build) -> None:
    threes = throw_position(build, (3, 3))
    none = throw_position(build, (4, 1))
    for state in (threes, none):
        state.apply(state.game.parse_action("p1", state))
        assert (state.phase, state.current_player) == ("throw", 0)
    assert threes.game.format_action(threes.legal_actions()[0]) == "t1"
    assert none.legal_action_ids() == (PASS_ID,)  # it knows it has no 3, yet must say so
    assert threes.observation(1) == none.observation(1)  # the others cannot tell them apart
    for state in (threes, none):
        state.apply(state.game.parse_action("pass", state))
    assert (threes.phase, threes.current_player, threes.queue) == (
        none.phase, none.current_player, none.queue)


def flow(state: K20State) -> tuple[object, ...]:
    return (state.phase, state.current_player, state.turn, tuple(state.queue),
            bool(state.legal_action_ids()))


def test_states_differing_in_hidden_sides_skip_identically() -> None:
    """Re-deal every side not everybody knows (a world of the spectator's view): each step
    that follows from passing is the same step in both states."""
    rng = random.Random(11)
    compared = 0
    for options in ({"peek_own": True}, {"peek_own": True, "play_flips": False}):
        game = Krumme20(3, options)
        for seed in range(4):
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                if state.phase == "turn" or rng.random() < 0.5:
                    state.apply_id(rng.choice(state.legal_action_ids()))
                    continue
                twin = game.sample_world(state.observation(None), rng)
                a, b = state.clone(), twin
                assert flow(a) == flow(b)
                while not a.is_terminal() and a.phase != "turn":
                    a.apply_id(PASS_ID)
                    b.apply_id(PASS_ID)
                    assert flow(a) == flow(b)
                    compared += 1
                ids = state.legal_action_ids()
                state.apply_id(ids[rng.randrange(len(ids))])
    assert compared > 200
