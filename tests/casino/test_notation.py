"""Casino notation (canonical and with table labels), ids, and the errors of reading moves."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable

import pytest

from kartentisch import AmbiguousActionError, IllegalActionError, InvalidActionError
from kartentisch.core.errors import KartentischError
from kartentisch.games.casino import Build, Capture, CasinoState, Trail
from kartentisch.games.casino import actions as acts
from kartentisch.games.casino.cards import card_name, parse_card
from kartentisch.games.casino.reasons import REASONS

C = parse_card
Setup = Callable[..., CasinoState]


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(C(t) for t in text.split()))


@pytest.fixture
def state(setup: Setup) -> CasinoState:
    """Seat 0 holds 7h 2h 8s Qh; the table: 3c 4d 6c Qd and a build of 8 (a-e)."""
    return setup(hands=["7h 2h 8s Qh", "8d Kd Kc 9c"], loose="3c 4d 6c Qd",
                 builds=[(8, "2d 6d", 1, 9)], turn=10, last_turn=[8, 9])


@pytest.mark.parametrize(("text", "expected"), [
    ("7h x ab", Capture(C("7h"), cards("3c 4d"))),
    ("7hxab", Capture(C("7h"), cards("3c 4d"))),
    ("7h x 3c 4d", Capture(C("7h"), cards("3c 4d"))),
    ("7h x 3c, 4d", Capture(C("7h"), cards("3c 4d"))),
    ("7h x a 4d", Capture(C("7h"), cards("3c 4d"))),
    ("8s x e", Capture(C("8s"), (), 8)),
    ("8s x [8]", Capture(C("8s"), (), 8)),
    ("Qh x d", Capture(C("Qh"), (C("Qd"),))),
    ("Q♥ x Q♦", Capture(C("Qh"), (C("Qd"),))),
    ("2h + c = 8", Build(C("2h"), 8, (C("6c"),), 0, True)),
    ("2h+c=8", Build(C("2h"), 8, (C("6c"),), 0, True)),
    ("2h + 6c [8] = 8", Build(C("2h"), 8, (C("6c"),), 0, True)),
    ("7h -", Trail(C("7h"))),
    ("7h-", Trail(C("7h"))),
    ("trail 7h", Trail(C("7h"))),
    ("t 7h", Trail(C("7h"))),
    ("  7H  TRAIL ", Trail(C("7h"))),
])
def test_parse(state: CasinoState, text: str, expected: object) -> None:
    assert state.game.parse_action(text, state) == expected


def test_canonical_round_trip_and_labels(state: CasinoState) -> None:
    game = state.game
    for action in state.legal_actions():
        text = game.format_action(action)
        assert game.parse_action(text, state) == action
        labelled = game.format_action_labels(action, state)
        assert game.parse_action(labelled, state) == action
    capture = Capture(C("7h"), cards("3c 4d"))
    assert game.format_action(capture) == "7h x 3c 4d"
    assert game.format_action_labels(capture, state) == "7h x ab"
    build = Build(C("2h"), 8, (C("6c"),), 0, True)
    assert game.format_action_labels(build, state) == "2h + ce = 8"


def test_standing_build_joins_even_when_not_named(setup: Setup) -> None:
    state = setup(hands=["3h 7s", "Kc Kd"], loose="4c", builds=[(7, "2d 5d", 1, 8)])
    assert state.game.parse_action("3h + a = 7", state) == Build(C("3h"), 7, (C("4c"),), 0, True)


def test_raise_notation(setup: Setup) -> None:
    state = setup(hands=["Ac 9d", "8d Kd"], builds=[(8, "2h 6c", 1, 9)])
    raise_ = Build(C("Ac"), 9, (), 8)
    assert state.game.format_action(raise_) == "Ac + [8] = 9"
    assert state.game.parse_action("Ac + a = 9", state) == raise_


def test_bare_card_is_completed_when_unique(setup: Setup) -> None:
    state = setup(hands=["Kh 9s", "Kc Kd"], loose="3c")
    assert state.game.parse_action("Kh", state) == Trail(C("Kh"))
    assert state.game.parse_action("kh", state) == Trail(C("Kh"))


def test_bare_card_and_capture_without_items_may_be_ambiguous(state: CasinoState) -> None:
    with pytest.raises(AmbiguousActionError, match="7h can do") as info:
        state.game.parse_action("7h", state)
    choices = [a for _, a in info.value.choices]
    assert Trail(C("7h")) in choices and Capture(C("7h"), cards("3c 4d")) in choices
    assert state.game.parse_action("7h x", state) == Capture(C("7h"), cards("3c 4d"))


@pytest.mark.parametrize(("text", "error", "code", "params"), [
    ("", InvalidActionError, "casino.empty", {}),
    ("hello", InvalidActionError, "casino.unreadable", {"text": "hello"}),
    ("7h x z", InvalidActionError, "casino.no_label", {"label": "z", "count": 5}),
    ("7h x a a", InvalidActionError, "casino.named_twice", {}),
    ("2h + c", InvalidActionError, "casino.needs_value", {}),
    ("2h + c = 11", InvalidActionError, "casino.bad_build_value", {"value": 11}),
    ("7h x ab = 7", InvalidActionError, "casino.capture_value", {}),
    ("7h x a!", InvalidActionError, "casino.bad_items", {"rest": "!"}),
    ("Zq -", InvalidActionError, "casino.bad_card", {"card": "Zq"}),
    ("5c x a", IllegalActionError, "casino.not_in_hand",
     {"card": "5c", "hand": ["2h", "7h", "8s", "Qh"]}),
    ("7h x a", IllegalActionError, "casino.capture_groups", {"value": 7}),
    ("7h x 9c", IllegalActionError, "casino.not_loose", {"missing": "9c"}),
    ("2h + a = 5", IllegalActionError, "casino.build_needs_card", {"value": 5}),
    ("Qh + a = 5", IllegalActionError, "casino.face_no_build", {}),
    ("Qh x a", IllegalActionError, "casino.face_own_rank", {"card": "Qh"}),
    ("8s x e [8]", InvalidActionError, "casino.named_twice", {}),
    ("Qh x [8] [9]", IllegalActionError, "casino.capture_one_build", {}),
])
def test_errors(state: CasinoState, text: str, error: type[Exception], code: str,
                params: dict[str, object]) -> None:
    with pytest.raises(error) as info:
        state.game.parse_action(text, state)
    assert isinstance(info.value, KartentischError)
    assert info.value.code == code
    assert info.value.code in REASONS
    for name, value in params.items():
        assert info.value.params[name] == value
    json.dumps(info.value.to_json())  # plain JSON values


def test_errors_say_what_is_allowed(state: CasinoState) -> None:
    with pytest.raises(IllegalActionError) as info:
        state.game.parse_action("7h x a", state)
    assert info.value.params["legal"] == ["7h -", "7h x 3c 4d"]
    assert "legal with 7h: 7h -, 7h x 3c 4d" in str(info.value)  # the English log text


def test_ids_round_trip(state: CasinoState) -> None:
    game = state.game
    ids = [game.action_to_id(a) for a in state.legal_actions()]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert tuple(ids) == state.legal_action_ids()
    for i, action in zip(ids, state.legal_actions(), strict=True):
        assert 0 <= i < game.num_distinct_actions
        assert game.action_from_id(i) == action
    assert game.num_distinct_actions == acts.NUM_ACTIONS == 51_290_995_756_216 < 2**53


def test_id_space_is_exact() -> None:
    """Every id in range names one action, and that action's id is the id again."""
    rng = random.Random(5)
    n = acts.NUM_ACTIONS
    probes = [0, 1, n - 1, *range(0, 4000), *(rng.randrange(n) for _ in range(4000))]
    for i in probes:
        assert acts.action_id(acts.action_from_id(i)) == i
    # segment by segment: the first and last id of each, and the count of the face segments
    for segment, after in itertools.pairwise(acts._SEGMENTS):
        for i in (segment.start, after.start - 1):
            action = acts.action_from_id(i)
            assert action.card == segment.card and acts.action_code(action) == segment.code
    assert sum(1 for i in range(n - 8, n) if isinstance(acts.action_from_id(i), Capture)) == 7


def test_id_factors() -> None:
    action = Build(C("5h"), 7, cards("2c 7d"))
    card, code, mask = acts.action_factors(action)
    assert card == C("5h") and code == acts.CODE_BUILD + 6
    assert mask == (1 << C("2c")) | (1 << C("7d"))
    merged_raise = Build(C("Ah"), 9, (), 8, True)
    assert acts.action_from_id(acts.action_id(merged_raise)) == merged_raise


@pytest.mark.parametrize("bad", [-1, acts.NUM_ACTIONS, True, "3", 2.0, 10**40])
def test_bad_ids(bad: object) -> None:
    with pytest.raises(InvalidActionError) as info:
        acts.action_from_id(bad)  # type: ignore[arg-type]
    assert info.value.code == "action.bad_id"


@pytest.mark.parametrize("bad", [
    object(), None, "7h x 3c", 7, Trail(52), Trail(-1), Trail(True),  # type: ignore[arg-type]
    Capture(C("7h"), [C("3c")]),  # type: ignore[arg-type]  # a list, not a tuple
    Capture(C("7h"), (C("4d"), C("3c"))),  # not ascending
    Capture(C("7h"), (C("3c"), C("3c"))),  # twice
    Capture(C("7h"), (C("7h"),)),  # its own card
    Capture(C("7h"), (C("8c"),)),  # a card above the capturing value
    Capture(C("7h"), (C("Kc"),)),
    Capture(C("7h")),  # takes nothing
    Capture(C("7h"), (), 8),  # a build of another value
    Capture(C("Kh"), (C("Qc"),)),  # a face card takes only its rank
    Capture(C("Kh"), (), 13),
    Build(C("Kh"), 2, (C("2c"),)),  # faces never build
    Build(C("5h"), 11, (C("6c"),)),
    Build(C("5h"), 4, (C("6c"),)),  # below the card's value
    Build(C("5h"), 7),  # nothing joined
    Build(C("Ah"), 9, (C("2c"),), 8),  # a raise with loose cards
    Build(C("Ah"), 8, (), 8),  # a raise to the wrong value
    Build(C("Ah"), 9, (), 8, 1),  # type: ignore[arg-type]  # merged must be a bool
    Capture(C("7h"), (C("3c"), 2.0)),  # type: ignore[arg-type]
])
def test_objects_that_are_no_action(bad: object) -> None:
    with pytest.raises(InvalidActionError) as info:
        acts.action_id(bad)  # type: ignore[arg-type]
    assert info.value.code == "action.invalid"


def test_card_names() -> None:
    assert [card_name(c) for c in (0, 37, 7, 51)] == ["Ac", "Td", "2s", "Ks"]
    assert C("10d") == C("Td") == C("t♦")
    with pytest.raises(ValueError, match="unknown card"):
        C("1x")


def test_apply_by_id(state: CasinoState) -> None:
    from kartentisch import IllegalActionError as Illegal

    ids = state.legal_action_ids()
    other = state.clone()
    state.apply_id(ids[0])
    other.apply_unchecked(ids[0])
    assert state.to_json() == other.to_json()
    assert state.history[-1] == state.game.action_from_id(ids[0])
    with pytest.raises(Illegal) as info:
        state.apply_id(acts.action_id(Trail(C("Ks"))))
    assert info.value.code == "casino.not_in_hand" and info.value.params["card"] == "Ks"
