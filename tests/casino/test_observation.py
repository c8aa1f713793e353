"""Casino observations: what is public, and sampled worlds that keep what plays revealed."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from kartentisch import IllegalActionError, InvalidPositionError
from kartentisch.core.errors import InvalidSeatError
from kartentisch.core.protocol import OBSERVATION_FORMAT, TERMINAL
from kartentisch.games.casino import Build, Casino, CasinoState, Trail
from kartentisch.games.casino.cards import VALUES, card_name, parse_card
from kartentisch.games.casino.observation import holding_constraints, sample_world, unseen_cards
from kartentisch.games.casino.position import read_observation

C = parse_card
Setup = Callable[..., CasinoState]


def test_observation_shows_public_facts_only(setup: Setup) -> None:
    state = setup(hands=["2h 8s Kh 3c", "Kc Kd Qc Qd"], loose="6c 4d")
    state.apply(Build(C("2h"), 8, (C("6c"),)))
    obs = state.observation(1)
    doc = obs.to_json()
    assert doc["hand"] == ["Qc", "Qd", "Kc", "Kd"]
    assert doc["hand_sizes"] == [3, 4]
    assert doc["table"]["builds"] == [{"value": 8, "cards": ["2h", "6c"], "owner": 0,
                                       "multiple": False, "turn": 10}]
    assert doc["plays"][-1] == {"seat": 0, "kind": "build", "card": "2h", "cards": ["6c"],
                                "value": 8, "sweep": False}
    assert "8s" not in json.dumps(doc)  # seat 0's hidden card
    assert json.loads(json.dumps(doc)) == doc
    assert doc["format"] == OBSERVATION_FORMAT and doc["game"] == "casino"
    for bad in (5, -1, True, "0", 1.0):
        with pytest.raises(InvalidSeatError):
            state.observation(bad)  # type: ignore[arg-type]


def test_spectator_sees_no_hidden_card(setup: Setup) -> None:
    state = setup(hands=["2h 8s Kh 3c", "Kc Kd Qc Qd"], loose="6c 4d")
    state.apply(Build(C("2h"), 8, (C("6c"),)))
    doc = state.observation(None).to_json()
    assert doc["seat"] is None and doc["hand"] is None
    text = json.dumps(doc)
    hidden = [*state.hands[0], *state.hands[1], *state.deck]
    assert hidden and not any(f'"{card_name(c)}"' in text for c in hidden)
    assert doc["hand_sizes"] == [3, 4] and doc["deck_size"] == len(state.deck)
    read_observation(doc)  # the documented shape


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_views_survive_a_consistent_redeal(viewer: int | None) -> None:
    """A viewer's observation is the same in every world sampled from it."""
    game = Casino(2)
    state = game.new_initial_state(4)
    rng = random.Random(4)
    for _ in range(30):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    obs = state.observation(viewer)
    seen = json.dumps(obs.to_json())
    for seed in range(10):
        world = game.sample_world(obs, random.Random(seed))
        assert json.dumps(world.observation(viewer).to_json()) == seen
        if viewer is None:  # a spectator's worlds differ in the hidden cards
            continue
        assert world.hands[viewer] == state.hands[viewer]


def test_reveal_only_after_the_end() -> None:
    game = Casino(2)
    state = game.new_initial_state(6)
    with pytest.raises(IllegalActionError) as info:
        state.reveal()
    assert info.value.code == "observation.not_over"
    rng = random.Random(6)
    while not state.is_terminal():
        legal = state.legal_action_ids()
        state.apply_id(legal[rng.randrange(len(legal))])
    assert state.reveal() == state.to_json()
    final = state.observation(None).to_json()
    assert final["current_player"] == TERMINAL and final["winners"] == state.winners
    read_observation(final)


def test_a_builder_is_known_to_hold_the_value(setup: Setup) -> None:
    # seat 0 builds 8 holding 8s, the only 8 seat 1 cannot see; it sits among 40 unseen cards
    state = setup(hands=["2h 8s Kh 3c", "Kc Kd Qc Qd"], loose="6c 8c 8d 8h")
    state.apply(Build(C("2h"), 8, (C("6c"),), 0, False))
    obs = state.observation(1)
    assert holding_constraints(obs) == {0: {8}}
    assert C("8s") in unseen_cards(obs)
    for seed in range(40):
        world = state.game.sample_world(obs, random.Random(seed))
        assert C("8s") in world.hands[0]
        assert json.dumps(world.observation(1).to_json()) == json.dumps(obs.to_json())
        # without rejection sampling: the constrained card is placed first
        placed = sample_world(state.game, obs, random.Random(seed), tries=0)
        assert C("8s") in placed.hands[0] and len(placed.hands[0]) == 3
        assert json.dumps(placed.observation(1).to_json()) == json.dumps(obs.to_json())


def test_the_constraint_ends_when_the_value_is_played(setup: Setup) -> None:
    state = setup(hands=["2h 8s Kh 3c", "Kc Kd Qc 8h"], loose="6c")
    state.apply(Build(C("2h"), 8, (C("6c"),)))
    state.apply(Trail(C("Kc")))
    assert holding_constraints(state.observation(1)) == {0: {8}}
    state.apply(state.game.parse_action("8s x [8]", state))
    assert holding_constraints(state.observation(1)) == {}


def test_inconsistent_observation_is_refused(setup: Setup) -> None:
    state = setup(hands=["2h 8s", "Kc Kd"], loose="6c")
    obs = state.observation(1)
    broken = type(obs)(**{**{f: getattr(obs, f) for f in obs.__dataclass_fields__},
                          "deck_size": obs.deck_size + 1})
    with pytest.raises(InvalidPositionError, match="unseen cards for"):
        state.game.sample_world(broken, random.Random(0))


def test_values_table() -> None:
    assert [VALUES[C(n)] for n in ("Ac", "7d", "Th", "Js", "Qc", "Kd")] == [1, 7, 10, 0, 0, 0]
