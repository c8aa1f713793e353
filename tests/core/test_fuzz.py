"""Fuzzing the public API: any value in, only KartentischError out, and a refused call
leaves the state exactly as it was.

Hypothesis throws arbitrary values, ids, texts and documents (random JSON, odd Python
values, and mutations of real positions and records) at ``load_game``, the options,
``new_initial_state``, ``apply``, ``apply_id``, ``observation``, ``parse_action``,
``state_from_json`` and ``GameRecord.from_json``. Whatever escapes that is not a
:class:`KartentischError` fails the test, as does an error without a known reason code or
with params that are not plain JSON. The cases found by hand are kept as plain tests at the
end. ``KARTENTISCH_SOAK=1`` runs many more examples.
"""

from __future__ import annotations

import json
import os
import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kartentisch.core.errors import (
    InvalidActionError,
    InvalidOptionsError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidSeatError,
    InvalidSeedError,
    KartentischError,
    UnknownGameError,
)
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import game_class, list_games, load_game
from kartentisch.testing import canon, error_problem
from kartentisch.testing.strategies import (
    HUGE,
    action_ids,
    deep,
    json_values,
    mutated,
    odd_values,
    seats,
)

SOAKING = os.environ.get("KARTENTISCH_SOAK") == "1"
FUZZ = settings(
    max_examples=2_000 if SOAKING else 30,
    deadline=None,
    derandomize=not SOAKING,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)
GAMES = list_games()


def _clean(exc: KartentischError) -> None:
    problem = error_problem(exc)
    assert problem is None, problem
    assert len(str(exc)) < 2_000, "an error message should quote its input briefly"


@cache
def _positions(name: str) -> tuple[Any, ...]:
    """A few positions of a seeded random game: the start, the middle and the end."""
    game = load_game(name)
    state = game.new_initial_state(77)
    rng = random.Random(77)
    out = [state.clone()]
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
        if len(state.history) in (15, 60):
            out.append(state.clone())
    out.append(state.clone())
    return tuple(out)


def _position(name: str, data: st.DataObject) -> Any:
    return data.draw(st.sampled_from(_positions(name))).clone()


def _refused_or_fine(state: Any, call: Any) -> bool:
    """Run ``call``; on a KartentischError check it and that ``state`` did not change.
    Returns whether the call was accepted."""
    before = canon(state.to_json())
    history = list(state.history)
    try:
        call()
    except KartentischError as exc:
        _clean(exc)
        assert canon(state.to_json()) == before, "a refused call changed the state"
        assert list(state.history) == history
        return False
    return True


# ---------------------------------------------------------------------------- games, options
@cache
def _option_maps(name: str) -> st.SearchStrategy[Any]:
    fields = [f for f in game_class(name).options_type.__dataclass_fields__]
    return st.one_of(
        st.dictionaries(st.sampled_from(fields), odd_values(), max_size=3),
        st.dictionaries(st.text(max_size=8), odd_values(), max_size=2),
        odd_values(),
    )


@FUZZ
@given(data=st.data())
def test_load_game_takes_any_name_players_and_options(data: st.DataObject) -> None:
    name = data.draw(st.one_of(st.sampled_from(GAMES), st.sampled_from(
        ["Krass_Kariert", " CASINO ", "krumme-20", ""]), odd_values()))
    known = isinstance(name, str) and name in GAMES  # odd values may not even compare
    real = name if known else data.draw(st.sampled_from(GAMES))
    players = data.draw(st.one_of(st.none(), st.integers(-1, 8), odd_values()))
    options = data.draw(st.one_of(st.none(), _option_maps(real)))
    try:
        game = load_game(name, players, options)
    except KartentischError as exc:
        _clean(exc)
        return
    assert game.spec.min_players <= game.players <= game.spec.max_players


@FUZZ
@given(data=st.data())
def test_new_initial_state_takes_any_seed(data: st.DataObject) -> None:
    game = load_game(data.draw(st.sampled_from(GAMES)))
    seed = data.draw(st.one_of(st.integers(min_value=-(2**60), max_value=2**60), odd_values()))
    try:
        state = game.new_initial_state(seed)
    except InvalidSeedError as exc:
        _clean(exc)
        return
    assert state.seed == seed and type(seed) is int


# ---------------------------------------------------------------------------- moves, views
@FUZZ
@given(data=st.data())
def test_apply_id_takes_any_value_and_seat(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(GAMES))
    state = _position(name, data)
    game = state.game
    aid = data.draw(action_ids(game.num_distinct_actions))
    seat = data.draw(st.one_of(st.none(), seats(game.players)))
    legal = state.legal_action_ids()
    current = state.current_player
    if _refused_or_fine(state, lambda: state.apply_id(aid, seat=seat)):
        assert type(aid) is int and aid in legal
        assert seat is None or (type(seat) is int and seat == current)


@FUZZ
@given(data=st.data())
def test_apply_takes_any_value_and_seat(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(GAMES))
    state = _position(name, data)
    game = state.game
    others = [load_game(n).action_from_id(0) for n in GAMES if n != name]
    action = data.draw(st.one_of(
        st.sampled_from([game.action_from_id(0), *others]),
        st.builds(game.action_from_id, st.integers(0, game.num_distinct_actions - 1)),
        odd_values()))
    seat = data.draw(st.one_of(st.none(), seats(game.players)))
    legal = list(state.legal_actions())
    current = state.current_player
    if _refused_or_fine(state, lambda: state.apply(action, seat=seat)):
        assert action in legal
        assert seat is None or (type(seat) is int and seat == current)


@FUZZ
@given(data=st.data())
def test_observation_takes_any_seat(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(GAMES))
    state = _position(name, data)
    seat = data.draw(st.one_of(st.none(), seats(state.game.players)))
    try:
        view = state.observation(seat)
    except InvalidSeatError as exc:
        _clean(exc)
        return
    assert seat is None or (type(seat) is int and 0 <= seat < state.game.players)
    canon(view.to_json())


def _near_notation(name: str, state: Any) -> st.SearchStrategy[str]:
    """Real notation of legal moves, cut, doubled or with a character changed."""
    game = state.game
    texts = [game.format_action(a, state) for a in state.legal_actions()] or ["x"]
    base = st.sampled_from(texts)
    return st.one_of(
        base,
        st.builds(lambda t, k: t[:k], base, st.integers(0, 8)),
        st.builds(lambda t, c, k: t[:k] + c + t[k + 1:], base, st.characters(), st.integers(0, 8)),
        st.builds(lambda a, b: f"{a} {b}", base, base),
        st.text(max_size=20),
        st.text(alphabet="0123456789xXNSs+-=/:[]abc ", max_size=12),
    )


@FUZZ
@given(data=st.data())
def test_parse_action_takes_any_text(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(GAMES))
    state = _position(name, data)
    game = state.game
    text = data.draw(st.one_of(_near_notation(name, state), odd_values()))
    before = canon(state.to_json())
    try:
        action = game.parse_action(text, state)
    except KartentischError as exc:
        _clean(exc)
    else:
        assert action in state.legal_actions(), f"{text!r} parsed to an illegal {action!r}"
    assert canon(state.to_json()) == before


@pytest.mark.parametrize("name", GAMES)
def test_numbers_longer_than_ints_convert_are_refused_with_a_reason(name: str) -> None:
    """Every number in every legal move of a few positions, and the build value written
    after ``=``, replaced by 5,000 digits (past Python's 4,300-digit limit of ``int()``):
    a coded refusal, never a ValueError (the server's explain route met one in Casino)."""
    for state in _positions(name):
        if state.is_terminal():
            continue
        game = state.game
        texts = {game.format_action(a, state) for a in state.legal_actions()[:40]}
        for text in sorted(texts):
            for match in re.finditer(r"\d+", text):
                long = text[:match.start()] + "9" * 5000 + text[match.end():]
                with pytest.raises(KartentischError) as caught:
                    game.parse_action(long, state)
                _clean(caught.value)


# ---------------------------------------------------------------------------- documents
@FUZZ
@given(data=st.data())
def test_state_from_json_takes_any_document(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(GAMES))
    game = load_game(name)
    real = json.loads(canon(_position(name, data).to_json()))
    document = data.draw(st.one_of(mutated(real), mutated(real), json_values(), odd_values()))
    try:
        state = game.state_from_json(document)
    except KartentischError as exc:
        _clean(exc)
        return
    # An accepted position is a real one: it writes itself back and can be played on.
    again = game.state_from_json(json.loads(canon(state.to_json())))
    assert canon(again.to_json()) == canon(state.to_json())
    assert state.is_terminal() or len(state.legal_action_ids()) > 0


@cache
def _record(name: str) -> dict[str, Any]:
    state = _positions(name)[1]
    data: dict[str, Any] = GameRecord.from_state(name, state, ["random"] * state.game.players
                                                 ).to_json()
    return data


@FUZZ
@given(data=st.data())
def test_record_from_json_takes_any_document(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(GAMES))
    real = json.loads(canon(_record(name)))
    document = data.draw(st.one_of(mutated(real), mutated(real), json_values(), odd_values()))
    try:
        record = GameRecord.from_json(document)
        record.replay()
    except KartentischError as exc:
        _clean(exc)


# ---------------------------------------------------------------------------- found by hand
def test_load_game_none_is_an_unknown_game() -> None:
    with pytest.raises(UnknownGameError):
        load_game(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_options_that_are_not_a_mapping_or_not_of_the_type_are_refused(name: str) -> None:
    for options in ("abc", 2.9, [("a", 1)], 7, True):
        with pytest.raises(InvalidOptionsError) as caught:
            load_game(name, None, options)  # type: ignore[arg-type]
        _clean(caught.value)
    cls = game_class(name).options_type
    for field_name, spec in cls.__dataclass_fields__.items():
        for bad in (2.9, HUGE, None, [1], deep(1000)):
            if bad is None and spec.default is None:
                continue
            with pytest.raises(InvalidOptionsError) as caught:
                load_game(name, None, {field_name: bad})
            _clean(caught.value)
    for players in (2.9, True, HUGE, "3", -1):
        with pytest.raises(InvalidOptionsError) as caught:
            load_game(name, players)  # type: ignore[arg-type]
        _clean(caught.value)


@pytest.mark.parametrize("name", GAMES)
def test_odd_seats_ids_and_seeds_are_refused_cleanly(name: str) -> None:
    game = load_game(name)
    state = game.new_initial_state(1)
    before = canon(state.to_json())
    for seat in (True, 99, HUGE, -1, 1.0):
        with pytest.raises(InvalidSeatError) as seat_error:
            state.observation(seat)  # type: ignore[arg-type]
        _clean(seat_error.value)
    for aid in (True, HUGE, -HUGE, 2.0, "1"):
        with pytest.raises(InvalidActionError) as id_error:
            state.apply_id(aid)  # type: ignore[arg-type]
        _clean(id_error.value)
    for seed in (HUGE, True, 2.9, -1, 2**53):
        with pytest.raises(InvalidSeedError) as seed_error:
            game.new_initial_state(seed)  # type: ignore[arg-type]
        _clean(seed_error.value)
    assert canon(state.to_json()) == before


@pytest.mark.parametrize("name", GAMES)
def test_documents_nested_1000_deep_are_refused_cleanly(name: str) -> None:
    game = load_game(name)
    position = game.new_initial_state(1).to_json()
    for document in (deep(1000), deep(1000, kind="dict"), {**position, "hands": deep(1000)},
                     {**position, "options": deep(1000, kind="dict")}):
        with pytest.raises(InvalidPositionError) as caught:
            game.state_from_json(document)  # type: ignore[arg-type]
        _clean(caught.value)
    record = _record(name)
    for document in (deep(1000, kind="dict"), {**record, "actions": deep(1000)},
                     {**record, "options": deep(1000, kind="dict")}):
        with pytest.raises(KartentischError) as record_error:
            GameRecord.from_json(document)
        assert isinstance(record_error.value, InvalidRecordError | InvalidOptionsError)
        _clean(record_error.value)
    with pytest.raises(InvalidOptionsError):
        load_game(name, None, {"x": deep(1000)})
