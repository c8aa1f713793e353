"""Record notation through the per-game memo: always what ``format_action`` says."""

from __future__ import annotations

import copy
import random

import pytest

from kartentisch import load_game
from kartentisch.core import records
from kartentisch.core.records import GameRecord, action_texts


def _finished(name: str, seed: int):  # type: ignore[no-untyped-def]
    game = load_game(name)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
    return game, state


@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
def test_texts_are_the_games_notation(name: str) -> None:
    game, state = _finished(name, 7)
    history = list(state.history)
    expected = [game.format_action(a) for a in history]
    assert action_texts(game, history) == expected
    assert action_texts(game, history) == expected  # from the memo
    # equal actions that are other objects (not interned) get the same texts
    assert action_texts(game, [copy.copy(a) for a in history]) == expected
    record = GameRecord.from_state(name, state)
    assert record.actions == expected
    assert record.replay().to_json() == state.to_json()


def test_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = _finished("krumme20", 3)
    monkeypatch.setattr(records, "NOTATION_CACHE_SIZE", 5)
    history = list(state.history)
    for _ in range(3):
        assert action_texts(game, [copy.copy(a) for a in history]) == [
            game.format_action(a) for a in history]
        assert len(records._NOTATIONS[game]) <= 5 + len(history)
