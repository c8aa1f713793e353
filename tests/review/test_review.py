"""The review engine: the golden reviews, the leak test, and reproducibility.

Every review here uses the fast budget (40 iterations a decision): what is tested is how a
review is made, not how strong its bot is.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tests.review.games import DATA, GAMES, played, stored

from kartentisch.core.errors import KartentischError
from kartentisch.core.records import GameRecord
from kartentisch.review import (
    FAST_BUDGET,
    INACCURACY,
    MISTAKE,
    REVIEW_FORMAT,
    Position,
    mark_of,
    positions_of,
    review_positions,
    review_record,
)

NAMES = [name for name, _, _ in GAMES]


@pytest.mark.parametrize("name", NAMES)
def test_the_golden_review_is_reproduced(name: str) -> None:
    """A fixed record and seed give exactly the stored review (regenerate deliberately with
    ``python -m tests.review.regenerate``)."""
    review = review_record(stored(name), 0, seed=11, budget=FAST_BUDGET)
    golden = json.loads((DATA / f"{name}.review.json").read_text())
    assert review == golden


@pytest.mark.parametrize("name", NAMES)
def test_hidden_cards_dealt_anew_give_the_same_review(name: str) -> None:
    """The leak test: each decision reviewed again from a world whose hidden cards are
    dealt anew, consistently with what the seat knew, gives the same entry; so the review
    cannot depend on a card the player could not see."""
    record = stored(name)
    game = record.new_game()
    real = positions_of(record, 0)
    rng = random.Random(3)
    redealt = []
    changed = 0
    state = game.new_initial_state(record.seed)
    by_move = {p.move: p for p in real}
    for index, text in enumerate(record.actions):
        position = by_move.get(index + 1)
        if position is not None:
            world = game.sample_world(state.observation(0), rng)
            changed += world.to_json() != state.to_json()
            redealt.append(Position(position.move, world.observation(0),
                                    tuple(world.legal_action_ids()), position.played))
        state.apply(game.parse_action(text, state))
    assert changed > len(real) // 2, "the re-deals should mostly differ from the real deal"
    options = record.options
    first = review_positions(record.game, record.players, options, 0, real, seed=11,
                             budget=FAST_BUDGET)
    second = review_positions(record.game, record.players, options, 0, redealt, seed=11,
                              budget=FAST_BUDGET)
    assert first == second


def test_workers_and_a_second_run_give_the_same_review() -> None:
    record = stored("krumme20")
    once = review_record(record, 0, seed=2, budget=FAST_BUDGET)
    again = review_record(record, 0, seed=2, budget=FAST_BUDGET, workers=2)
    assert once == again
    other = review_record(record, 0, seed=3, budget=FAST_BUDGET)
    assert other["decisions"] != once["decisions"]


@pytest.mark.parametrize("name", NAMES)
def test_the_review_document(name: str) -> None:
    record = stored(name)
    review = json.loads((DATA / f"{name}.review.json").read_text())
    game = record.new_game()
    assert review["format"] == REVIEW_FORMAT
    assert review["seat"] == 0 and review["game"] == name
    state = game.new_initial_state(record.seed)
    mine = []
    for index, text in enumerate(record.actions):
        if state.current_player == 0:
            mine.append((index + 1, len(state.legal_action_ids())))
        state.apply(game.parse_action(text, state))
    entries = review["decisions"]
    assert [e["move"] for e in entries] == [m for m, _ in mine]
    for entry, (_, legal) in zip(entries, mine, strict=True):
        if legal == 1:
            assert entry["skipped"] == "forced"
        if "skipped" in entry:
            continue
        played_, best = entry["played"], entry["best"]
        assert 0 <= played_["chance"] <= 1 and 0 <= best["chance"] <= 1
        if best["id"] == played_["id"]:
            assert entry["loss"] == 0 and entry["mark"] is None
        else:
            assert entry["loss"] == pytest.approx(max(0.0, best["chance"] - played_["chance"]),
                                                  abs=2e-4)
        assert entry["mark"] == mark_of(entry["loss"], entry["loss_se"] or 0.0)
    summary = review["summary"]
    rated = [e for e in entries if "skipped" not in e]
    assert summary["reviewed"] == len(rated) > 0
    assert summary["mistakes"] == sum(e["mark"] == "mistake" for e in rated)


def test_the_marks_need_a_loss_beyond_the_threshold_and_the_noise() -> None:
    assert mark_of(MISTAKE, 0.01) == "mistake"
    assert mark_of(INACCURACY, 0.01) == "inaccuracy"
    assert mark_of(INACCURACY * 0.9, 0.001) is None
    assert mark_of(0.5, 0.3) is None  # large, but within two standard errors
    assert mark_of(0.0, 0.0) is None


def test_a_game_that_is_not_over_is_not_reviewed() -> None:
    record = stored("casino")
    unfinished = GameRecord(record.game, record.players, record.seed, record.options,
                            record.actions[:10], record.seats)
    with pytest.raises(KartentischError) as caught:
        review_record(unfinished, 0, budget=FAST_BUDGET)
    assert caught.value.code == "review.not_finished"


def regenerate() -> dict[str, Any]:
    """Write the golden records and reviews (after a deliberate change of the review)."""
    DATA.mkdir(exist_ok=True)
    out = {}
    for name, players, options in GAMES:
        record = played(name, players, options)
        record.save(DATA / f"{name}.record.json")
        review = review_record(record, 0, seed=11, budget=FAST_BUDGET)
        (DATA / f"{name}.review.json").write_text(json.dumps(review, indent=1) + "\n")
        out[name] = review["summary"]
    return out
