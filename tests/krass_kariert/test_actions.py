"""Actions: ids, notation, parsing with a state, and every error path of apply (each with
its reason code and params, and the state left as it was)."""

from __future__ import annotations

from types import ModuleType

import pytest

from kartentisch.core.errors import (
    AmbiguousActionError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidSeatError,
    NotYourTurnError,
)
from kartentisch.core.records import GameRecord
from kartentisch.games.krass_kariert import (
    Concede,
    InsertDrawn,
    KKState,
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
    ("text", "code", "message"),
    [
        ("", "kk.notation_empty", "Cannot read an empty move"),
        ("hello", "kk.notation_unreadable", "Cannot read 'hello'. Moves look like"),
        ("0", "kk.notation_window", "1 to 3 neighbouring positions"),
        ("3-7", "kk.notation_window", "1 to 3 neighbouring positions"),
        ("5-4", "kk.notation_window", "1 to 3 neighbouring positions"),
        ("1x13", "kk.notation_x_value", "from 1 to 12"),
        ("1-3x1x2x3", "kk.notation_too_many_x", "only two X cards"),
        ("r3@1", "kk.notation_reserve", "numbered 1 and 2"),
        ("r1@0", "kk.notation_position", "count from 1"),
        ("@0", "kk.notation_position", "count from 1"),
        ("1" * 5000, "kk.notation_unreadable", "Cannot read"),
    ],
)
def test_parse_errors(text: str, code: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message) as info:
        parse_notation(text)
    assert info.value.code == code
    if code != "kk.notation_empty":
        assert info.value.params["text"] == text.strip()[:117] + ("..." if len(text) > 120
                                                                   else "")


@pytest.mark.parametrize("bad", [None, 4, b"4", ["4"], object()])
def test_parse_notation_refuses_what_is_not_text(bad: object) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_notation(bad)  # type: ignore[arg-type]
    assert info.value.code == "kk.notation_unreadable"


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 2.0, "3", True, 10**100])
def test_action_from_id_rejects_bad_ids(bad: object) -> None:
    with pytest.raises(InvalidActionError, match="is not a whole number from 0") as info:
        action_from_id(bad)  # type: ignore[arg-type]
    assert info.value.code == "action.bad_id"


@pytest.mark.parametrize(
    ("action", "code"),
    [(Play(-1), "kk.bad_play"), (Play(18), "kk.bad_play"), (Play(0, 4), "kk.bad_play"),
     (Play(0, 0), "kk.bad_play"), (Play(0, 2, (5, 3)), "kk.bad_play"),
     (Play(0, 1, (13,)), "kk.bad_play"), (Play(True), "kk.bad_play"),
     (Play(0, True), "kk.bad_play"), (Play(0, 1, (5.0,)), "kk.bad_play"),  # type: ignore[arg-type]
     (Play(0, 1, [5]), "kk.bad_play"), (Play(0, 1, (True,)), "kk.bad_play"),  # type: ignore[arg-type]
     (Play(2.0), "kk.bad_play"), (Play(10**100), "kk.bad_play"),  # type: ignore[arg-type]
     (TakeReserve(2, 0), "kk.bad_reserve"), (TakeReserve(0, 19), "kk.bad_reserve"),
     (TakeReserve(False, 0), "kk.bad_reserve"), (InsertDrawn(-1), "kk.bad_insert"),
     (InsertDrawn(19), "kk.bad_insert"), (InsertDrawn(None), "kk.bad_insert")],  # type: ignore[arg-type]
)  # fmt: skip
def test_action_id_rejects_malformed_actions(action: object, code: str) -> None:
    with pytest.raises(InvalidActionError, match="is not a Krass Kariert") as info:
        action_id(action)
    assert info.value.code == code
    state = KrassKariert(4).new_initial_state(1)
    before = state.to_json()
    with pytest.raises(InvalidActionError) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert info.value.code == code
    assert state.to_json() == before


class _Pretender:
    """An object claiming to equal every action, with a hash of a real one."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(Play(0))


NOT_ACTIONS: list[object] = [
    "1", [1], (0, 1), {"start": 0}, None, 0, True, 10**100, 2.5, float("nan"), object(),
    _Pretender(), Play, KrassKariert(4),
]


@pytest.mark.parametrize("bad", NOT_ACTIONS, ids=lambda v: type(v).__name__)
def test_non_actions_are_rejected_with_a_clean_error(bad: object) -> None:
    s = KrassKariert(4).new_initial_state(1)
    before = s.to_json()
    with pytest.raises(InvalidActionError, match="is not a Krass Kariert action") as info:
        s.apply(bad)  # type: ignore[arg-type]
    assert info.value.code == "action.invalid"
    assert info.value.params["game"] == "Krass Kariert"
    with pytest.raises(InvalidActionError) as info:
        s.game.checked_action_id(bad)
    assert info.value.code == "action.invalid"
    with pytest.raises(InvalidActionError):
        format_action(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        s.why_illegal(bad)  # type: ignore[arg-type]
    assert s.to_json() == before and s.history == []


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 10**100, -(10**100), True, False, 2.0, "3",
                                 None, [0]])
def test_apply_id_rejects_what_is_no_id(bad: object) -> None:
    s = KrassKariert(4).new_initial_state(1)
    before = s.to_json()
    with pytest.raises(InvalidActionError) as info:
        s.apply_id(bad)  # type: ignore[arg-type]
    assert info.value.code == "action.bad_id"
    assert s.to_json() == before


@pytest.mark.parametrize("seat", [4, -1, 10**100, True, 1.0, "1", None])
def test_bad_seats_raise_and_change_nothing(seat: object) -> None:
    s = KrassKariert(4).new_initial_state(1)
    before = s.to_json()
    legal = s.legal_actions()[0]
    if seat is None:  # no seat given: the action is simply played for whoever is to move
        s.clone().apply(legal, seat=seat)  # type: ignore[arg-type]
        return
    with pytest.raises(InvalidSeatError) as info:
        s.apply(legal, seat=seat)  # type: ignore[arg-type]
    assert info.value.code == "seat.invalid"
    with pytest.raises(InvalidSeatError):
        s.apply_id(s.legal_action_ids()[0], seat=seat)  # type: ignore[arg-type]
    with pytest.raises(InvalidSeatError):
        s.observation(seat)  # type: ignore[arg-type]
    assert s.to_json() == before


def refused(state: KKState, action: object, code: str, /, **params: object
            ) -> IllegalActionError:
    """``apply(action)`` raises ``code`` with ``params`` (among others), changing nothing; so
    does ``apply_id`` of the same action when it has an id."""
    before, history = state.to_json(), list(state.history)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)  # type: ignore[arg-type]
    error = info.value
    assert error.code == code, str(error)
    assert {k: error.params.get(k) for k in params} == params
    assert error.to_json()["message"] == str(error)
    assert state.to_json() == before and state.history == history
    with pytest.raises(IllegalActionError) as info:
        state.apply_id(action_id(action))
    assert info.value.code == code
    assert state.to_json() == before
    return error


PAIR_12 = {"kind": "pair", "high": 12}


@pytest.mark.parametrize(
    ("action", "code", "params", "message"),
    [
        (Play(12), "kk.beyond_hand", {"action": "13", "count": 4}, "hand has only 4 cards"),
        (Play(0, 2), "kk.not_a_combination", {"action": "1-2", "cards": "5-9"},
         "5-9 is not a combination"),
        (Play(2, 2), "kk.declare_x", {"action": "3-4", "cards": "X-7", "example": "3-4x6"},
         "Declare a value for each X card in X-7, e.g. 3-4x6"),
        (Play(2, 2, (3,)), "kk.x_values_no_combination",
         {"action": "3-4x3", "cards": "X-7", "values": [3]}, "X-7 with X as 3 is not"),
        (TakeReserve(0, 0), "kk.leader_no_reserve", {"action": "r1@1"},
         "Whoever leads a round must play cards, not take a reserve card"),
        (InsertDrawn(0), "kk.nothing_drawn", {"action": "@1"}, "no drawn card to insert"),
        (Concede(), "kk.leader_no_concede", {"action": "concede"},
         "Whoever leads a round cannot concede"),
    ],
)
def test_illegal_action_reasons_for_the_leader(
    kk: ModuleType, action: object, code: str, params: dict[str, object], message: str
) -> None:
    s = kk.build(["5 9 X 7", "2 3", "4 4", "6 7"], reserves=["1 2", "", "", ""], leader=0)
    error = refused(s, action, code, **params)
    assert message in str(error)


def test_malformed_moves_are_explained_when_asked(kk: ModuleType) -> None:
    """A move of the game's types with fields no hand allows has no id, so ``apply`` calls it
    invalid; asked directly, the state still says what is wrong with it."""
    s = kk.build(["5 9 X 7", "2 3", "4 4", "6 7"], reserves=["1 2", "", "", ""], leader=0)
    assert s.why_illegal(Play(0, 4)).code == "kk.play_length"
    assert s.why_illegal(Play(-1)).code == "kk.beyond_hand"
    assert s.why_illegal(Play("a")).code == "kk.beyond_hand"  # type: ignore[arg-type]
    assert s.why_illegal(Play(2, 2, [6])).code == "kk.declare_x"  # type: ignore[arg-type]
    assert s.why_illegal(Play(2, 2, (6.5,))).code == "kk.x_values_no_combination"  # type: ignore[arg-type]
    one = kk.build(["5", "2 3", "4 4", "6 7"], leader=0)
    error = one.why_illegal(Play(3))
    assert error.code == "kk.beyond_hand_one" and "only one card" in str(error)


def test_illegal_action_reasons_for_a_follower(kk: ModuleType) -> None:
    s = kk.build(["12 12 1", "5 9 X 7", "4 4", "6 7"], reserves=["", "1", "", ""], leader=0)
    kk.play(s, "1-2")
    error = refused(s, Play(1), "kk.does_not_beat", action="2",
                    combination={"kind": "single", "high": 9}, best=PAIR_12)
    assert "That is a single 9, which does not beat a pair of 12s." in str(error)
    error = refused(s, Play(2, 2), "kk.x_cannot_beat", action="3-4", cards="X-7", best=PAIR_12)
    assert "Whatever the X card stands for, X-7 does not beat a pair of 12s" in str(error)
    refused(s, TakeReserve(1, 0), "kk.one_reserve", action="r2@1")
    refused(s, TakeReserve(0, 5), "kk.position_range", action="r1@6", last=5)
    error = refused(s, Concede(), "kk.concede_reserve", action="concede")
    assert "You still have a reserve card to take" in str(error)


def test_reserve_reasons_without_and_with_two_reserves(kk: ModuleType) -> None:
    s = kk.build(["8 1", "5 9", "4 4", "6 7"], reserves=["", "", "3 3", "8 9"], leader=0)
    kk.play(s, "1")
    refused(s, TakeReserve(0, 0), "kk.no_reserve", action="r1@1")
    kk.play(s, "2")
    refused(s, TakeReserve(1, 0), "kk.same_reserves", action="r2@1", card="3", same="r1@1")
    assert s.why_illegal(TakeReserve(2, 0)).code == "kk.two_reserves"


def test_special_card_reasons(kk: ModuleType) -> None:
    s = kk.build(["S 5 N 6", "2 3", "4 4", "6 7"], leader=0)
    refused(s, Play(0, 2), "kk.specials_alone", action="1-2", cards="S-5")
    refused(s, Play(2, 1, (4,)), "kk.special_no_x", action="3x4")


def test_two_x_reason(kk: ModuleType) -> None:
    s = kk.build(["X X 5", "2 3", "4 4", "6 7"], leader=0)
    refused(s, Play(0, 2, (7, 7)), "kk.two_x", action="1-2x7x7")


def test_concession_refused_while_a_move_exists(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0, options={"voluntary_concession": False})
    kk.play(s, "1")
    error = refused(s, Concede(), "kk.concede_can_play", action="concede")
    assert "voluntary_concession is off" in str(error)


def test_illegal_moves_while_drawing(kk: ModuleType) -> None:
    s = kk.build(["5 1", "N 2", "9 3", "3 4"], reserves=["", "", "", "10 11"], leader=0)
    kk.play(s, "1", "1", "1", "r1@1")
    assert s.phase == "draw" and s.current_player == 2
    error = refused(s, Play(0), "kk.insert_first", action="1", last=2)
    assert "Insert the drawn card first" in str(error)
    refused(s, InsertDrawn(5), "kk.position_range", action="@6", last=2)


def test_apply_unchecked_refuses_an_insertion_without_a_drawn_card(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0)
    before = s.to_json()
    with pytest.raises(IllegalActionError) as info:
        s.apply_unchecked(action_id(InsertDrawn(0)))
    assert info.value.code == "kk.nothing_drawn"
    assert s.to_json() == before and s.history == []


def test_not_your_turn_and_game_over(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0, chips=[1, 0, 1, 1])
    with pytest.raises(NotYourTurnError, match="seat 2 cannot act: it is seat 0's turn") as info:
        s.apply(Play(0), seat=2)
    assert info.value.code == "action.not_your_turn"
    assert info.value.params == {"seat": 2, "current": 0}
    with pytest.raises(NotYourTurnError):
        s.apply_id(0, seat=1)
    s.apply(Play(0), seat=0)
    s.apply(Concede(), seat=1)
    assert s.is_terminal()
    for attempt in (lambda: s.apply(Play(0)), lambda: s.apply_id(0),
                    lambda: s.game.parse_action("1", s), lambda: s.apply("junk")):
        with pytest.raises(GameOverError, match="the game is over") as info:
            attempt()
        assert info.value.code == "action.game_over"
    assert s.why_illegal(Play(0)).code == "action.game_over"
    assert s.reveal() == s.to_json()


def test_reveal_waits_for_the_end() -> None:
    s = KrassKariert(4).new_initial_state(1)
    with pytest.raises(IllegalActionError) as info:
        s.reveal()
    assert info.value.code == "observation.not_over"


def test_apply_id(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0)
    ids = s.legal_action_ids()
    assert isinstance(ids, tuple)
    assert ids == tuple(action_id(a) for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="hand has only 2 cards") as info:
        s.apply_id(action_id(Play(5)))
    assert info.value.code == "kk.beyond_hand"
    with pytest.raises(InvalidActionError, match="not a whole number") as info:
        s.apply_id(NUM_ACTIONS)
    assert info.value.code == "action.bad_id"
    s.apply_id(action_id(Play(1)))
    assert s.hands[0] == [5]


def test_equal_actions_apply_like_the_shared_ones(kk: ModuleType) -> None:
    """An action built anew (not one of ``legal_actions``'s objects) works the same."""
    s = kk.build(["X 5 1", "6 6", "3 4", "7 8"], leader=0)
    s.apply(Play(0, 2, (5,)))
    assert s.history == [Play(0, 2, (5,))] and s.best_seat == 0


def test_parse_action_completes_or_reports_ambiguity(kk: ModuleType) -> None:
    s = kk.build(["X 5 7 X", "2 3", "4 4", "6 8"], reserves=["", "1 2", "", ""], leader=0)
    game = s.game
    assert game.parse_action("2-4", s) == Play(1, 3, (6,))  # 5 X 7: X can only be 6
    with pytest.raises(AmbiguousActionError, match="which value does the X card") as info:
        game.parse_action("1", s)
    assert info.value.code == "kk.which_x"
    assert info.value.params["cards"] == "X" and info.value.params["example"] == "1x12"
    assert [text for text, _ in info.value.choices] == [f"1x{v}" for v in range(12, 0, -1)]
    assert info.value.params["choices"] == [f"1x{v}" for v in range(12, 0, -1)]
    assert game.parse_action("1 x 4", s) == Play(0, 1, (4,))
    with pytest.raises(IllegalActionError, match="5-7 is not a combination") as illegal:
        game.parse_action("2-3", s)
    assert illegal.value.code == "kk.not_a_combination"
    kk.play(s, "1x1")
    with pytest.raises(AmbiguousActionError, match="where does the card go") as info:
        game.parse_action("r2", s)
    assert info.value.code == "kk.which_position"
    assert info.value.params["last"] == 3 and info.value.params["example"] == "r2@1"
    assert [text for text, _ in info.value.choices] == ["r2@1", "r2@2", "r2@3"]
    assert game.format_action(Play(1, 3, (6,))) == "2-4x6"
    with pytest.raises(IllegalActionError) as illegal:
        game.parse_action("25", s)  # past the largest hand: no id, but a reason
    assert illegal.value.code == "kk.beyond_hand"


def test_parse_action_partial_reserve_without_reserves(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0)
    kk.play(s, "1")
    with pytest.raises(IllegalActionError, match="You have no reserve card") as info:
        s.game.parse_action("r1", s)
    assert info.value.code == "kk.no_reserve"


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
