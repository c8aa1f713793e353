"""Actions: ids, notation, parsing with a state, and every error path of apply."""

from __future__ import annotations

from types import ModuleType

import pytest

from kartentisch.core.errors import (
    AmbiguousActionError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from kartentisch.core.records import GameRecord
from kartentisch.games.krass_kariert import (
    Concede,
    InsertDrawn,
    KrassKariert,
    Play,
    TakeReserve,
)
from kartentisch.games.krass_kariert.actions import (
    ACTIONS,
    NUM_ACTIONS,
    PartialReserve,
    action_from_id,
    action_id,
    format_action,
    parse_notation,
)


def test_id_round_trip_over_all_ids() -> None:
    game = KrassKariert(4)
    assert game.num_distinct_actions == NUM_ACTIONS == len(ACTIONS)
    for i in range(NUM_ACTIONS):
        action = game.action_from_id(i)
        assert game.action_to_id(action) == i
        assert action_id(action) == i


def test_notation_round_trip_over_all_ids() -> None:
    seen = set()
    for action in ACTIONS:
        text = format_action(action)
        assert parse_notation(text) == action
        seen.add(text)
    assert len(seen) == NUM_ACTIONS  # distinct actions have distinct notation


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("4", Play(3)),
        (" 4 - 6 ", Play(3, 3)),
        ("4-5x7", Play(3, 2, (7,))),
        ("4-5 X=7", Play(3, 2, (7,))),
        ("1-3x9x2", Play(0, 3, (2, 9))),
        ("r2@3", TakeReserve(1, 2)),
        ("R1 @ 1", TakeReserve(0, 0)),
        ("@3", InsertDrawn(2)),
        ("concede", Concede()),
        ("Aufgeben", Concede()),
        ("r2", PartialReserve(1)),
    ],
)
def test_parse_notation(text: str, action: object) -> None:
    assert parse_notation(text) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("hello", "cannot read"),
        ("0", "1 to 3 neighbouring positions"),
        ("3-7", "1 to 3 neighbouring positions"),
        ("5-4", "1 to 3 neighbouring positions"),
        ("1x13", "from 1 to 12"),
        ("1-3x1x2x3", "only two X cards"),
        ("r3@1", "numbered 1 and 2"),
        ("r1@0", "count from 1"),
        ("@0", "count from 1"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_notation(text)


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 2.0, "3"])
def test_action_from_id_rejects_bad_ids(bad: object) -> None:
    with pytest.raises(InvalidActionError, match="outside"):
        action_from_id(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "action",
    [Play(-1), Play(18), Play(0, 4), Play(0, 0), Play(0, 2, (5, 3)), Play(0, 1, (13,)),
     Play(True), TakeReserve(2, 0), TakeReserve(0, 19), InsertDrawn(-1), InsertDrawn(19)],
)  # fmt: skip
def test_action_id_rejects_malformed_actions(action: object) -> None:
    with pytest.raises(InvalidActionError, match="malformed"):
        action_id(action)


def test_non_actions_are_rejected() -> None:
    s = KrassKariert(4).new_initial_state(1)
    with pytest.raises(InvalidActionError, match="not a Krass Kariert action"):
        s.apply("1")  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match="not a Krass Kariert action"):
        s.apply([1])  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        format_action("1")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Play(12), "your hand has only 4 cards"),
        (Play(0, 4), "1 to 3 neighbouring cards"),
        (Play(0, 2), "is not a combination"),
        (Play(2, 2), "declare exactly that many values, e.g. 3-4x"),
        (Play(2, 2, (3,)), r"with X as \(3,\) is not a combination"),
        (TakeReserve(0, 0), "leads a round must play, not take a reserve"),
        (InsertDrawn(0), "no drawn card to insert"),
        (Concede(), "leader of a round must play a card, not concede"),
    ],
)
def test_illegal_action_messages_for_the_leader(
    kk: ModuleType, action: object, message: str
) -> None:
    s = kk.build(["5 9 X 7", "2 3", "4 4", "6 7"], reserves=["1 2", "", "", ""], leader=0)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match=message):
        s.apply(action)  # type: ignore[arg-type]
    assert s.to_json() == before


def test_illegal_action_messages_for_a_follower(kk: ModuleType) -> None:
    s = kk.build(["12 12 1", "5 9 X 7", "4 4", "6 7"], reserves=["", "1", "", ""], leader=0)
    kk.play(s, "1-2")
    with pytest.raises(IllegalActionError, match="single of 9 does not beat pair of 12"):
        s.apply(Play(1))
    with pytest.raises(IllegalActionError, match="no value of the X card makes X-7 beat"):
        s.apply(Play(2, 2))
    with pytest.raises(IllegalActionError, match="you have 1 reserve card"):
        s.apply(TakeReserve(1, 0))
    with pytest.raises(IllegalActionError, match="positions 1 to 5"):
        s.apply(TakeReserve(0, 5))


def test_illegal_moves_while_drawing(kk: ModuleType) -> None:
    s = kk.build(["5 1", "N 2", "9 3", "3 4"], reserves=["", "", "", "10 11"], leader=0)
    kk.play(s, "1", "1", "1", "r1@1")
    assert s.phase == "draw" and s.current_player == 2
    with pytest.raises(IllegalActionError, match="insert the drawn card first"):
        s.apply(Play(0))
    with pytest.raises(IllegalActionError, match="positions 1 to 2"):
        s.apply(InsertDrawn(5))


def test_not_your_turn_and_game_over(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0, chips=[1, 0, 1, 1])
    with pytest.raises(NotYourTurnError, match="seat 2 cannot act: it is seat 0's turn"):
        s.apply(Play(0), seat=2)
    with pytest.raises(NotYourTurnError):
        s.apply_id(0, seat=1)
    s.apply(Play(0), seat=0)
    s.apply(Concede(), seat=1)
    assert s.is_terminal()
    with pytest.raises(GameOverError, match="the game is over"):
        s.apply(Play(0))
    with pytest.raises(GameOverError):
        s.apply_id(0)
    with pytest.raises(GameOverError):
        s.game.parse_action("1", s)


def test_apply_id(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0)
    ids = s.legal_action_ids()
    assert ids == [action_id(a) for a in s.legal_actions()]
    with pytest.raises(IllegalActionError, match="your hand has only 2 cards"):
        s.apply_id(action_id(Play(5)))
    with pytest.raises(InvalidActionError, match="outside"):
        s.apply_id(NUM_ACTIONS)
    s.apply_id(action_id(Play(1)))
    assert s.hands[0] == [5]


def test_parse_action_completes_or_reports_ambiguity(kk: ModuleType) -> None:
    s = kk.build(["X 5 7 X", "2 3", "4 4", "6 8"], reserves=["", "1 2", "", ""], leader=0)
    game = s.game
    assert game.parse_action("2-4", s) == Play(1, 3, (6,))  # 5 X 7: X can only be 6
    with pytest.raises(AmbiguousActionError, match="declare the X card's value") as info:
        game.parse_action("1", s)
    assert [text for text, _ in info.value.choices] == [f"1x{v}" for v in range(12, 0, -1)]
    assert game.parse_action("1 x 4", s) == Play(0, 1, (4,))
    with pytest.raises(IllegalActionError, match="5-7 is not a combination"):
        game.parse_action("2-3", s)
    kk.play(s, "1x1")
    with pytest.raises(AmbiguousActionError, match="say where the card goes") as info:
        game.parse_action("r2", s)
    assert [text for text, _ in info.value.choices] == ["r2@1", "r2@2", "r2@3"]
    assert game.format_action(Play(1, 3, (6,))) == "2-4x6"


def test_parse_action_partial_reserve_without_reserves(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0)
    kk.play(s, "1")
    with pytest.raises(IllegalActionError, match="you have 0 reserve card"):
        s.game.parse_action("r1", s)


def test_record_replays_to_the_identical_state() -> None:
    import random

    game = KrassKariert(3)
    state = game.new_initial_state(seed=99)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    record = GameRecord.from_state("krass-kariert", state)
    again = GameRecord.from_json(record.to_json()).replay()
    assert again.to_json() == state.to_json()
    assert again.returns() == state.returns()
