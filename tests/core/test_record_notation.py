"""Record notation through the per-game memo: always what ``format_action`` says."""

from __future__ import annotations

import copy
import random

import pytest

from kartentisch import load_game
from kartentisch.core import records
from kartentisch.core.protocol import State
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
        memo, keep = records._NOTATIONS[game]
        assert len(memo) == len(keep) <= 5 + len(history)


class _ById:
    """A state that tells its history by ids only (``history_ids``)."""

    def __init__(self, state) -> None:  # type: ignore[no-untyped-def]
        self.game = state.game
        self._ids = [state.game.action_to_id(a) for a in state.history]

    @property
    def history(self) -> list[object]:
        raise AssertionError("the ids suffice")

    def history_ids(self) -> list[int]:
        return self._ids


@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
def test_texts_from_history_ids(name: str) -> None:
    game, state = _finished(name, 11)
    expected = [game.format_action(a) for a in state.history]
    assert records.history_texts(_ById(state)) == expected
    assert records.history_texts(_ById(state)) == expected  # from the memo
    assert records.history_texts(state) == expected


@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
def test_history_ids_match_the_history(name: str) -> None:
    game, state = _finished(name, 5)
    assert list(state.history_ids()) == [game.action_to_id(a) for a in state.history]
    # the protocol's own answer (for a game that keeps no compact history) agrees
    assert list(State.history_ids(state)) == list(state.history_ids())
    half = game.new_initial_state(5)
    for action in state.history[: len(state.history) // 2]:
        half.apply(action)
    clone = half.clone()
    assert list(clone.history_ids()) == [game.action_to_id(a) for a in half.history]


@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
def test_replay_by_known_texts_gives_the_same_states_and_errors(name: str) -> None:
    from kartentisch.core.errors import InvalidRecordError

    game, state = _finished(name, 13)
    record = GameRecord.from_state(name, state)
    records._KNOWN_TEXTS.clear()
    assert record.replay().to_json() == state.to_json()  # reads every text
    assert records._known_texts(game)  # canonical texts remembered
    assert record.replay().to_json() == state.to_json()  # by ids now
    # a known text that is not legal where it stands: the same error as reading it afresh
    for k in range(1, len(record.actions)):
        bad = GameRecord(name, game.players, record.seed, actions=[
            *record.actions[:k], record.actions[k - 1]])
        records._KNOWN_TEXTS.clear()
        try:
            bad.replay()
        except InvalidRecordError as error:
            fresh = error
        else:
            continue  # the repeated move happens to be legal there
        record.replay()  # remember the texts again
        assert record.actions[k - 1] in records._known_texts(game)
        with pytest.raises(InvalidRecordError) as caught:
            bad.replay()
        assert str(caught.value) == str(fresh)
        assert caught.value.code == fresh.code and caught.value.params == fresh.params
        break
    else:
        pytest.fail("no repeated move was illegal")
