"""Game records: format 3, strict field checks with reason codes, replay checks, safe file
reading and atomic writes."""

from __future__ import annotations

import json
import math
import os
import random
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.cli.messages import describe_error
from kartentisch.core.errors import InvalidRecordError, KartentischError
from kartentisch.core.records import (
    MAX_RECORD_BYTES,
    RECORD_DOCUMENT,
    RECORD_FORMAT,
    GameRecord,
    read_records,
    write_atomically,
)
from kartentisch.core.registry import all_reasons, list_games, load_game
from kartentisch.locale import set_language

GAME = "casino"
"""The game these tests record (any registered game would do)."""
REASONS = all_reasons()


def played(name: str = GAME, seed: int = 4, *, upto: int | None = None) -> GameRecord:
    """The record of a game of random moves (stopped after ``upto`` moves, if given)."""
    game = load_game(name)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (upto is None or len(state.history) < upto):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return GameRecord.from_state(name, state, ["random"] * game.players)


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    return played().to_json()


def refused(data: object) -> InvalidRecordError:
    with pytest.raises(InvalidRecordError) as info:
        GameRecord.from_json(data)
    return info.value


@pytest.mark.parametrize("name", list_games())
def test_records_round_trip_and_replay(name: str) -> None:
    record = played(name, seed=11)
    data = json.loads(json.dumps(record.to_json()))
    assert data["format"] == RECORD_FORMAT == "kartentisch-record/3"
    again = GameRecord.from_json(data)
    assert again == record
    state = again.replay()
    assert state.is_terminal() and state.returns() == pytest.approx(record.returns)
    assert again.replay(upto=3).history == state.history[:3]


def test_the_document_type_refuses_unknown_fields_and_is_exported() -> None:
    assert RECORD_DOCUMENT.__struct_config__.forbid_unknown_fields
    assert set(RECORD_DOCUMENT.__struct_fields__) == {
        "format", "game", "players", "seed", "actions", "options", "seats", "names", "returns",
        "index"}


@pytest.mark.parametrize("old", ["kartentisch-record/1", "kartentisch-record/2"])
def test_earlier_formats_are_refused_not_misread(finished: dict[str, Any], old: str) -> None:
    """The games now deal through core.rng: an old record's seed would deal other cards."""
    error = refused({**finished, "format": old})
    assert error.code == "record.wrong_format"
    assert error.params == {"found": repr(old), "expected": RECORD_FORMAT}
    assert old in str(error)


def test_an_arena_index_round_trips(finished: dict[str, Any]) -> None:
    record = GameRecord.from_json({**finished, "index": 7})
    assert record.index == 7 and record.to_json()["index"] == 7
    assert "index" not in GameRecord.from_json(finished).to_json()


BAD_FIELDS: list[tuple[dict[str, Any], str]] = [
    ({"format": None}, "record.wrong_format"),
    ({"surprise": 1}, "record.unknown_field"),
    ({"game": 5}, "record.not_text"),
    ({"game": "schach"}, "game.unknown"),
    ({"players": "2"}, "record.not_whole_number"),
    ({"players": True}, "record.not_whole_number"),
    ({"players": 2.0}, "record.not_whole_number"),
    ({"players": 99}, "players.invalid"),
    ({"seed": True}, "seed.invalid"),
    ({"seed": 2.5}, "seed.invalid"),
    ({"seed": -1}, "seed.invalid"),
    ({"seed": 2**53}, "seed.invalid"),
    ({"seed": "7"}, "seed.invalid"),
    ({"actions": "7h"}, "record.not_text_list"),
    ({"actions": [1]}, "record.not_text_list"),
    ({"seats": [None, "random"]}, "record.not_text_list"),
    ({"seats": ["random"]}, "record.seats_mismatch"),
    ({"options": []}, "options.not_object"),
    ({"options": {"nope": 1}}, "options.unknown"),
    ({"options": {"sweeps": [[[[1]]]]}}, "options.bad_bool"),
    ({"returns": [1.0]}, "record.bad_returns"),
    ({"returns": [math.nan, 0.0]}, "record.bad_returns"),
    ({"returns": [math.inf, 0.0]}, "record.bad_returns"),
    ({"returns": [True, False]}, "record.bad_returns"),
    ({"returns": "1,0"}, "record.bad_returns"),
    ({"index": -1}, "record.not_whole_number"),
    ({"index": "1"}, "record.not_whole_number"),
]


@pytest.mark.parametrize(("change", "code"), BAD_FIELDS)
def test_every_bad_field_has_its_reason_code(finished: dict[str, Any], change: dict[str, Any],
                                             code: str) -> None:
    error = refused({**finished, **change})
    assert error.code == code, error
    assert code in all_reasons()
    set_language("de")
    german = describe_error(error)
    assert german != str(error) and "?" not in german.replace("'?'", ""), german


@pytest.mark.parametrize("field", ["format", "game", "players", "seed", "actions"])
def test_a_missing_field_is_named(finished: dict[str, Any], field: str) -> None:
    data = dict(finished)
    del data[field]
    error = refused(data)
    assert (error.code, error.params["field"]) == ("record.missing_field", field)


@pytest.mark.parametrize("value", [None, [], "record", 7, [[[[[[[[1]]]]]]]]])
def test_a_record_is_an_object(value: object) -> None:
    assert refused(value).code == "record.not_object"


def test_optional_fields_may_be_left_out(finished: dict[str, Any]) -> None:
    minimal = {k: finished[k] for k in ("format", "game", "players", "seed", "actions")}
    record = GameRecord.from_json(minimal)
    assert record.options == {} and record.seats == [] and record.returns is None
    assert record.replay().is_terminal()


def test_every_action_must_replay(finished: dict[str, Any]) -> None:
    actions = list(finished["actions"])
    actions[2] = "no such move"
    record = GameRecord.from_json({**finished, "actions": actions, "returns": None})
    with pytest.raises(InvalidRecordError) as info:
        record.replay()
    error = info.value
    assert error.code == "record.bad_action"
    assert error.params["index"] == 3 and error.params["text"] == "no such move"
    cause = error.__cause__
    assert isinstance(cause, KartentischError)
    assert error.params["cause"] == {"code": cause.code, "params": cause.params}


def test_returns_only_for_a_finished_game_and_equal_to_the_replayed_ones(
        finished: dict[str, Any]) -> None:
    partial = played(upto=5).to_json()
    assert partial["returns"] is None
    unfinished = GameRecord.from_json({**partial, "returns": finished["returns"]})
    with pytest.raises(InvalidRecordError) as info:
        unfinished.replay()
    assert info.value.code == "record.returns_unfinished"
    assert unfinished.replay(upto=3).history  # a partial replay does not judge the returns
    wrong = [r + 1.0 for r in finished["returns"]]
    with pytest.raises(InvalidRecordError) as info:
        GameRecord.from_json({**finished, "returns": wrong}).replay()
    assert info.value.code == "record.returns_differ"
    close = [r + 1e-12 for r in finished["returns"]]
    assert GameRecord.from_json({**finished, "returns": close}).replay().is_terminal()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)


@settings(max_examples=1000 if os.environ.get("KARTENTISCH_SOAK") == "1" else 40,
          deadline=None)
@given(changes=st.dictionaries(
    st.sampled_from(["format", "game", "players", "seed", "actions", "options", "seats",
                     "returns", "index", "extra"]), JSON_VALUES, max_size=3))
def test_any_damaged_record_gives_a_record_error(changes: dict[str, Any]) -> None:
    """Whatever the fields hold, reading gives a record or an InvalidRecordError, nothing else."""
    base = {"format": RECORD_FORMAT, "game": GAME, "players": 2, "seed": 1, "actions": []}
    try:
        record = GameRecord.from_json({**base, **changes})
    except InvalidRecordError as error:
        assert error.code in REASONS
        return
    record.replay(upto=0)


# ----------------------------------------------------------------------------- files


def load_error(path: Path) -> InvalidRecordError:
    with pytest.raises(InvalidRecordError) as info:
        GameRecord.load(path)
    return info.value


def test_save_and_load(tmp_path: Path) -> None:
    record = played()
    path = tmp_path / "game.json"
    record.save(path)
    assert GameRecord.load(path) == record
    assert json.loads(path.read_text(encoding="utf-8")) == record.to_json()


@pytest.mark.parametrize(("content", "code"), [
    (b"", "record.empty"),
    (b"  \n\t\n", "record.empty"),
    (b'{"format": "kartentisch-record/3", "game": "casino\xff\xfe"}', "record.not_utf8"),
    (b"\x00" * 100, "record.not_json"),
    (b'{"format": ', "record.not_json"),
    (b"[" * 1000 + b"]" * 1000, "record.too_deep"),
    (b'{"a":' * 1000 + b"1" + b"}" * 1000, "record.too_deep"),
    (b'{"seed": ' + b"7" * 5000 + b"}", "record.huge_number"),
])
def test_bad_files_give_clean_errors(tmp_path: Path, content: bytes, code: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    error = load_error(path)
    assert error.code == code, error
    assert code in all_reasons()


def test_not_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "game": casino\n}\n', encoding="utf-8")
    error = load_error(path)
    assert (error.code, error.params["line"], error.params["column"]) == ("record.not_json", 2, 11)


def test_nan_returns_in_a_file_are_refused(tmp_path: Path, finished: dict[str, Any]) -> None:
    path = tmp_path / "nan.json"
    path.write_text(json.dumps({**finished, "returns": [math.nan, 0.0]}), encoding="utf-8")
    assert load_error(path).code == "record.bad_returns"


def test_a_huge_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:  # sparse: takes no disk space
        handle.truncate(MAX_RECORD_BYTES + 1)
    error = load_error(path)
    assert error.code == "record.too_large"
    assert error.params["limit"] == MAX_RECORD_BYTES


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_refused_after_the_limit() -> None:
    assert load_error(Path("/dev/zero")).code == "record.too_large"


def test_a_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        GameRecord.load(tmp_path / "none.json")
    with pytest.raises(IsADirectoryError):
        GameRecord.load(tmp_path)


def test_a_json_lines_file_loads_its_first_record(tmp_path: Path) -> None:
    first, second = played(seed=1), played(seed=2)
    path = tmp_path / "games.jsonl"
    path.write_text("\ufeff" + "\n".join(json.dumps(r.to_json()) for r in (first, second))
                    + "\n", encoding="utf-8")
    assert GameRecord.load(path) == first
    assert list(read_records(path)) == [first, second]


def test_a_bad_line_of_a_json_lines_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(played().to_json()) + "\n\n{}\n", encoding="utf-8")
    with pytest.raises(InvalidRecordError) as info:
        list(read_records(path))
    assert info.value.code == "record.missing_field" and info.value.params["line"] == 3


def test_writes_are_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    played(seed=1).save(path)
    before = path.read_bytes()

    def crash(source: str, target: str) -> None:
        raise OSError("the machine went down here")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="went down"):
        played(seed=2).save(path)
    assert path.read_bytes() == before  # the old record, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary left


def test_atomic_writes_keep_the_usual_permissions(tmp_path: Path) -> None:
    mask = os.umask(0o022)
    os.umask(mask)
    new = tmp_path / "new.txt"
    write_atomically(new, "one\n")
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~mask
    new.chmod(0o600)
    write_atomically(new, "two\n")
    assert new.read_text(encoding="utf-8") == "two\n"
    assert stat.S_IMODE(new.stat().st_mode) == 0o600


def test_a_cut_line_is_named_by_its_file_line_and_the_good_games_are_kept(tmp_path: Path
                                                                          ) -> None:
    from kartentisch.core.records import load_records

    games = [GameRecord("krass-kariert", 3, seed, actions=[]) for seed in (1, 2, 3)]
    lines = [json.dumps(g.to_json()) for g in games]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join([lines[0], "", lines[1], lines[2][:40]]) + "\n")
    with pytest.raises(InvalidRecordError) as info:
        list(read_records(path))
    assert info.value.code == "record.not_json" and info.value.params["line"] == 4
    assert "line 4" in str(info.value)
    found = load_records(path)
    assert [line for line, _record in found.games] == [1, 3]
    assert [r.seed for _line, r in found.games] == [1, 2]
    assert [p.params["line"] for p in found.problems] == [4]
