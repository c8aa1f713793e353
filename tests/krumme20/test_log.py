"""Krumme20's compact history: the log decodes into the same events however it is read."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from kartentisch.games.krumme20 import K20State, Krumme20
from kartentisch.games.krumme20.actions import action_id
from kartentisch.games.krumme20.log import CARD_TEXTS, KINDS, public_code

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"peek_own": True, "foul_keeps_action": True},
    {"play_flips": False, "draw_top_visible": False, "sitout_foul_reward": True},
    {"target": 10, "end": "immediate", "turn_limit": 12},
    {"deck": "doubles", "second_five": "after_five", "target": 30},
]


def play(game: Krumme20, seed: int, moves: int | None = None) -> K20State:
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (moves is None or len(state.history) < moves):
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
    return state


def as_json(state: K20State) -> list[dict[str, Any]]:
    return [e.to_json() for e in state.events]


@pytest.mark.parametrize("options", OPTION_SETS, ids=range(len(OPTION_SETS)))
def test_events_read_during_play_equal_events_read_at_the_end(options: dict[str, Any]) -> None:
    game = Krumme20(4, options)
    for seed in range(4):
        watched = game.new_initial_state(seed)
        rng = random.Random(seed)
        seen: list[dict[str, Any]] = as_json(watched)
        while not watched.is_terminal():
            ids = watched.legal_action_ids()
            watched.apply_id(ids[rng.randrange(len(ids))])
            seen.extend(e.to_json() for e in watched.events[len(seen):])
        unwatched = play(game, seed)
        assert as_json(unwatched) == seen == as_json(watched)
        assert json.loads(json.dumps(seen)) == seen  # plain JSON data
        assert seen[0]["kind"] == "deal" and seen[-1]["kind"] == "game_over"
        scores = seen[-1]["data"]["scores"]
        assert scores == watched.final_scores()
        assert seen[-1]["data"]["winners"] == watched.winners()


def test_every_kind_of_event_is_decoded() -> None:
    kinds: set[str] = set()
    for options in OPTION_SETS:
        game = Krumme20(3, options)
        for seed in range(25):
            kinds.update(e.kind for e in play(game, seed).events)
    # A few kinds are rare in random play; the rest must all have been seen.
    rare = {"claim33", "claim_sum", "three_zeros", "sat_out", "no_card"}
    assert set(KINDS) - rare <= kinds, set(KINDS) - rare - kinds


def test_history_and_its_ids_follow_the_actions() -> None:
    state = Krumme20(3).new_initial_state(11)
    rng = random.Random(11)
    played: list[int] = []
    while not state.is_terminal():
        ids = state.legal_action_ids()
        aid = ids[rng.randrange(len(ids))]
        state.apply_id(aid)
        played.append(aid)
        if len(played) % 9 == 0:  # read now and then: later reads extend the list
            assert [action_id(a) for a in state.history] == played
    assert [action_id(a) for a in state.history] == played == state.history_ids()


def test_a_clone_decodes_its_own_events_and_history() -> None:
    state = play(Krumme20(3), 5, moves=40)
    events, history = as_json(state), list(state.history)
    twin = state.clone()
    assert twin.events is not state.events and as_json(twin) == events
    assert twin.history is not state.history and twin.history == history
    twin.events[0].data["sums"].append(99)
    assert as_json(state) == events  # no dictionary is shared
    ids = twin.legal_action_ids()
    twin.apply_id(ids[0])
    assert len(twin.history) == len(history) + 1 and state.history == history
    assert as_json(state) == events


def test_setting_events_keeps_later_happenings() -> None:
    state = play(Krumme20(3), 2, moves=10)
    state.events = []
    ids = state.legal_action_ids()
    state.apply_id(ids[0])
    later = state.events
    assert later and later[0].kind != "deal"


def test_the_log_is_a_few_words_per_action() -> None:
    for seed in range(5):
        state = play(Krumme20(3), seed)
        actions = len(state.history)
        assert len(state.log_words) <= 4 * actions + 20  # 8 bytes a word
        assert len(state._ids) == actions  # one byte an action


def test_public_codes_name_what_everybody_knows() -> None:
    every = 0b111
    assert CARD_TEXTS[public_code(3, 1, every, every, every)] == "3/1"
    assert CARD_TEXTS[public_code(3, 1, every, 0b011, every)] == "3/?"
    assert CARD_TEXTS[public_code(0, 5, 0, 0, every)] == "?/?"
    assert CARD_TEXTS[public_code(0, 5, 0b001, every, every)] == "?/5"
