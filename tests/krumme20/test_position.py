"""Krumme20 position documents: strict types, semantic checks, exact round trips."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from kartentisch.core.errors import InvalidPositionError
from kartentisch.core.rng import SEED_MAX
from kartentisch.games.krumme20 import Krumme20
from kartentisch.games.krumme20.documents import K20OptionsDocument
from kartentisch.games.krumme20.options import K20Options


def written(seed: int = 2, moves: int = 25, **options: Any) -> dict[str, Any]:
    """A position document written by the engine after some random moves."""
    state = Krumme20(3, options).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
    doc: dict[str, Any] = json.loads(json.dumps(state.to_json()))
    return doc


def read(doc: Any) -> Any:
    return Krumme20(3).state_from_json(doc)


def refused(doc: Any) -> InvalidPositionError:
    with pytest.raises(InvalidPositionError) as caught:
        read(doc)
    return caught.value


def changed(path: list[Any], value: Any, doc: dict[str, Any] | None = None) -> dict[str, Any]:
    out = copy.deepcopy(doc if doc is not None else written())
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def test_written_documents_read_back_exactly() -> None:
    for options in ({}, {"peek_own": True}, {"target": 10, "sitout_foul_reward": True}):
        doc = written(**options)
        assert read(doc).to_json() == doc


@pytest.mark.parametrize("seed", [0, 1, SEED_MAX])
def test_every_valid_seed_round_trips(seed: int) -> None:
    doc = changed(["seed"], seed)
    assert read(doc).to_json()["seed"] == seed


@pytest.mark.parametrize(("path", "value"), [
    (["seed"], SEED_MAX + 1), (["seed"], -1), (["seed"], True), (["seed"], 2.0),
    (["seed"], "1"), (["players"], 7), (["players"], 3.0), (["total"], False),
    (["turns"], 1.5), (["phase"], "lunch"), (["queue"], [["over", 0]]),
    (["queue"], [["foul", 1, 2]]), (["hands", 0, 0, "card"], "6/1"),
    (["hands", 0, 0, "card"], " 3/1"), (["hands", 0, 0, "up_known"], [0, 9]),
    (["hands", 0, 0, "cross"], 0), (["options", "target"], 21),
    (["options", "play_flips"], "true"), (["options", "colour"], "red"), (["extra"], 1),
    (["hands", 0, 0, "extra"], 1), (["sitting_out"], [0, 0, 0]),
])
def test_the_type_refuses_bad_fields(path: list[Any], value: Any) -> None:
    error = refused(changed(path, value))
    assert error.code == "document.invalid", error


def test_the_whole_document_must_be_an_object_of_the_right_game() -> None:
    for doc in ([], "position", None, 7):
        assert refused(doc).code == "document.invalid"
    assert refused(changed(["format"], "kartentisch-position/2")).code == "position.wrong_format"
    assert refused(changed(["game"], "casino")).code == "position.wrong_game"
    deep: Any = []
    for _ in range(10_000):
        deep = [deep]
    assert refused(changed(["hands"], deep)).code == "document.too_deep"


@pytest.mark.parametrize(("path", "value", "words"), [
    (["total"], 7, "add up to"),
    (["zeros"], 2, "not 0s"),
    (["turn_player"], 4, "does not play"),
    (["to_move"], 5, "not a seat"),
    (["hands", 0, 0, "up_known"], [0, 1], "up side to all"),
    (["hands", 0, 0, "down_known"], [3], "does not play"),
    (["hands", 0, 0, "cross"], True, "crosswise"),
    (["hands", 0, 0, "card"], "5/5", "appears"),
    (["fouls"], [0, 0], "one entry per player"),
    (["final_turns"], 5, "at most 3"),
    (["queue"], [["flip", 2]], "belongs to the turn player"),
])
def test_impossible_positions_are_refused_with_a_reason(path: list[Any], value: Any,
                                                        words: str) -> None:
    doc = written(seed=6, moves=0)
    doc = changed(["zeros"], 0, doc)
    error = refused(changed(path, value, doc))
    assert error.code == "position.invalid"
    assert words in str(error)


def test_options_type_follows_the_options() -> None:
    names = [f for f in K20Options.__dataclass_fields__]
    assert list(K20OptionsDocument.__struct_fields__) == names
    assert written()["options"] == {name: getattr(K20Options(), name) for name in names}
