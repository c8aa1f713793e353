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
        if state.is_terminal():
            break
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


def long_form(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with every plain-string card written as the object it stands for (the
    knowledge docs/positions-krumme20.md gives a plain string): the document as the
    object form alone says it, which every reader of the format reads."""
    out = copy.deepcopy(doc)
    n, options = out["players"], out["options"]
    everyone = list(range(n))

    def expand(entry: Any, up: list[int], down: list[int]) -> Any:
        if not isinstance(entry, str):
            return entry
        shown = entry.endswith("+")  # both sides known to everybody
        text = entry.removesuffix("+")
        return {"card": text.removesuffix("x"), "up_known": everyone if shown else up,
                "down_known": everyone if shown else down, "cross": text.endswith("x")}

    out["hands"] = [[expand(e, everyone, [s] if options["peek_own"] else []) for e in h]
                    for s, h in enumerate(out["hands"])]
    out["scores"] = [[expand(e, everyone, []) for e in p] for p in out["scores"]]
    out["ablage"] = [expand(e, everyone, []) for e in out["ablage"]]
    out["abwurf"] = [expand(e, everyone, []) for e in out["abwurf"]]
    pile = out["draw_pile"]
    out["draw_pile"] = [expand(e, everyone if i == len(pile) - 1 and options["draw_top_visible"]
                               else [], []) for i, e in enumerate(pile)]
    return out


def _cards(doc: dict[str, Any]) -> list[Any]:
    return [c for key in ("hands", "scores") for pile in doc[key] for c in pile] + [
        c for key in ("ablage", "abwurf", "draw_pile") for c in doc[key]]


def test_plain_string_cards_mean_what_the_documentation_says() -> None:
    shown = 0
    for options in ({}, {"peek_own": True}, {"draw_top_visible": False, "play_flips": False}):
        for moves in (0, 25, 60):
            doc = written(moves=moves, **options)
            assert any(isinstance(c, str) for c in doc["draw_pile"])  # the short form is used
            shown += sum(isinstance(c, str) and c.endswith("+") for c in _cards(doc))
            full = long_form(doc)
            assert full != doc
            assert all(isinstance(c, dict) for c in _cards(full))
            assert Krumme20(3, options).state_from_json(full).to_json() == doc
    assert shown  # and so is "+" (played and turned cards)


def test_a_card_known_to_all_is_written_short() -> None:
    """Nearly every card of a mid-game position is a plain string; the objects left are
    cards whose knowledge neither string form says (a side known to some seats only)."""
    for seed in range(5):
        doc = written(seed=seed, moves=60)
        cards = _cards(doc)
        assert len(cards) == 54
        for c in cards:
            if isinstance(c, dict):
                assert sorted(c["down_known"]) != [0, 1, 2] or sorted(c["up_known"]) != [0, 1, 2]


def test_plus_means_both_sides_known_to_everybody_anywhere() -> None:
    doc = written(moves=0)
    doc["draw_pile"][0] = doc["draw_pile"][0] + "+"  # the bottom card: down and up shown
    doc["hands"][0][0] = doc["hands"][0][0] + "+"
    state = read(doc)
    every = 0b111
    assert state.kup[state.draw[0]] == every and state.kdown[state.draw[0]] == every
    card = state.hands[0][0]
    assert state.kup[card] == every and state.kdown[card] == every
    assert state.to_json() == doc
    assert read(long_form(doc)).to_json() == doc
    doc["hands"][0][0] = doc["hands"][0][0].removesuffix("+") + "x+"
    assert "only a card on a score pile can lie crosswise" in str(refused(doc))


def changed(path: list[Any], value: Any, doc: dict[str, Any] | None = None) -> dict[str, Any]:
    out = long_form(doc if doc is not None else written())
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def test_written_documents_read_back_exactly() -> None:
    for options in ({}, {"peek_own": True}, {"target": 10, "sitout_foul_reward": True},
                    {"draw_top_visible": False, "play_flips": False}):
        for moves in (0, 25, 80):
            doc = written(moves=moves, **options)
            assert Krumme20(3, options).state_from_json(doc).to_json() == doc


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


@pytest.mark.parametrize("text", ["6/1", " 3/1", "3/1y", "3-1", "", "3/1xx", "x", "3/1+x",
                                  "3/1++", "+", "3/1 +"])
def test_plain_string_cards_are_checked_like_the_type(text: str) -> None:
    doc = written()
    for path in (["hands", 0, 0], ["draw_pile", 0], ["scores", 0], ["ablage"]):
        bad = copy.deepcopy(doc)
        target = bad
        for key in path[:-1]:
            target = target[key]
        if isinstance(target[path[-1]], list):
            target[path[-1]].append(text)  # (one card too many as well: the text is first)
        else:
            target[path[-1]] = text
        error = refused(bad)
        assert error.code == "document.invalid", (path, error)
        assert "0-5" in error.params["detail"] and error.params["what"] == "position"


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
