"""Krumme20's refusals: one reason code per case, with params and no English in them."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from kartentisch.core.errors import IllegalActionError, InvalidActionError, KartentischError
from kartentisch.core.reasons import render
from kartentisch.games.krumme20 import K20State, Krumme20
from kartentisch.games.krumme20.actions import ACTIONS, format_action, parse_notation
from kartentisch.games.krumme20.reasons import PHASE_HELP, REASONS

KNOWN_ALL = {"up_known": [0, 1, 2], "down_known": [0, 1, 2]}


def after(state: K20State, *moves: str) -> K20State:
    for move in moves:
        state.apply(state.game.parse_action(move, state))
    return state


Build = Callable[..., K20State]


def take_step(build: Build, **extra: Any) -> K20State:
    """Seat 0 has played a 1 and may take a card."""
    return after(build(hands=[["2/1", "2/3"], ["4/1", "3/0"], ["5/5"]], **extra), "p1")


def foul_step(build: Build) -> K20State:
    """Seat 0 went over 20; seat 1 (3/3, 1/2, 1/3) may bank a lowest card."""
    return after(build(hands=[["0/5", "1/1", "2/2"], ["3/3", "1/2", "1/3"], ["2/2", "1/0"]],
                       ablage=["5/4", "5/1", "4/3", "2/3"]), "p1")


def five_step(build: Build, second: Any = "1/5") -> K20State:
    """Seat 0 has brought the total to 15 and may play a second card as a 5."""
    return after(build(hands=[["1/2", second, "0/0"], ["4/1"], ["5/5"]],
                       ablage=["5/5", "4/4", "4/0"]), "p1", "pass")


def sitout_step(build: Build, hand: list[str]) -> K20State:
    """Seat 1 (holding ``hand``) was made to sit out and may take a compensation."""
    return after(build(hands=[["1/4", "0/0"], hand, ["5/5"]]), "p1", "sitout")


CASES: list[tuple[str, Callable[[Build], K20State], str, dict[str, Any]]] = [
    ("play beyond the hand", lambda b: b(hands=[["2/4", "1/1"], ["0/0"], ["0/0"]]), "p3",
     {"code": "k20.no_such_card", "card": 3, "count": 2}),
    ("second card beyond the hand", five_step, "f3",
     {"code": "k20.no_such_card", "card": 3, "count": 2}),
    ("throw beyond the hand",
     lambda b: after(b(hands=[["1/3", "0/3", "4/3", "2/1"], ["4/1", "1/0"], ["5/5"]]), "p1"),
     "t4", {"code": "k20.no_such_card", "card": 4, "count": 3}),
    ("lowest beyond the hand", foul_step, "low 4",
     {"code": "k20.no_such_card", "card": 4, "count": 3}),
    ("33 beyond the hand", lambda b: b(hands=[["3/3", "3/3", "3/3"], ["0/0"], ["0/0"]]),
     "33 1,2,4", {"code": "k20.no_such_card", "card": 4, "count": 3}),
    ("a known card over 20",
     lambda b: b(hands=[["5/1", "1/5", "2/2"], ["0/0"], ["0/0"]],
                   ablage=["5/4", "5/0", "5/3", "2/3"], options={"play_flips": False}),
     "p1", {"code": "k20.visible_foul", "card": 1, "number": 5, "total": 17, "target": 20}),
    ("a third 0 visibly over 20",
     lambda b: b(hands=[[{"card": "5/0", **KNOWN_ALL}, "1/1"], ["4/1"], ["5/5"]],
                   ablage=["5/5", "4/4", {"card": "0/5", **KNOWN_ALL},
                           {"card": "0/4", **KNOWN_ALL}], zeros=2),
     "p1", {"code": "k20.visible_foul_zeros", "card": 1, "target": 20}),
    ("turn over a card of a seat that does not play",
     lambda b: after(b(hands=[["1/0", "2/3"], ["4/1"], ["5/5"]]), "p1"), "flip 5:1",
     {"code": "k20.no_such_seat", "last": 2}),
    ("take from a seat that does not play", take_step, "take 4:1",
     {"code": "k20.no_such_seat", "last": 2}),
    ("take a card a seat does not have", take_step, "take 2:3",
     {"code": "k20.no_such_card_of_seat", "seat": 2, "card": 3, "count": 1}),
    ("take from one's own personal cards", take_step, "take 0:1", {"code": "k20.take_own"}),
    ("take from an empty score pile", take_step, "take s1",
     {"code": "k20.no_such_score_card", "card": 1, "count": 0}),
    ("turn over a score card that is not there",
     lambda b: after(b(hands=[["1/0", "2/3"], ["4/1"], ["5/5"]]), "p1"), "flip s2",
     {"code": "k20.no_such_score_card", "card": 2, "count": 0}),
    ("take the top of an empty discard pile", take_step, "take discard",
     {"code": "k20.discard_empty"}),
    ("take the top of an empty draw pile",
     lambda b: take_step(b, rest="abwurf", final_turns=3), "take draw", {"code": "k20.draw_empty"}),
    ("a second card known not to be a 5",
     lambda b: five_step(b, {"card": "1/4", "up_known": [0, 1, 2], "down_known": [0]}), "f1",
     {"code": "k20.known_not_five", "card": 1}),
    ("a throw known not to be a 3",
     lambda b: after(b(hands=[["1/3", {"card": "3/2", "up_known": [0, 1, 2],
                                         "down_known": [0]}, "0/0"], ["4/1"], ["5/5"]]), "p1"),
     "t1", {"code": "k20.known_not_three", "card": 1}),
    ("a visibly wrong 3/3 set",
     lambda b: b(hands=[["3/3", "3/3", "1/1", "3/3"], ["4/1"], ["5/5"]]), "33 1,2,3",
     {"code": "k20.claim33_wrong"}),
    ("a visibly wrong Σ set", lambda b: b(hands=[["2/4", "1/1"], ["0/0"], ["0/0"]]), "sum up",
     {"code": "k20.claim_sum_wrong", "target": 20}),
    ("draw with five personal cards",
     lambda b: sitout_step(b, ["4/1", "2/2", "1/2", "0/1", "0/2"]), "draw",
     {"code": "k20.hand_full", "limit": 5}),
    ("a card that is not one of the lowest", foul_step, "low 1",
     {"code": "k20.not_lowest", "card": 1, "lowest": 1}),
    ("a lowest card instead of drawing with fewer than five",
     lambda b: sitout_step(b, ["4/1", "2/2"]), "low 1",
     {"code": "k20.lowest_needs_full_hand", "limit": 5}),
    ("a draw where the compensation is taken like a 1 (compensation=take)",
     lambda b: after(b(hands=[["1/4", "0/0"], ["4/1", "2/2"], ["5/5"]],
                       options={"compensation": "take"}), "p1", "sitout"), "draw",
     {"code": "k20.compensation_takes"}),
    ("pass instead of the obligatory play",
     lambda b: b(hands=[["2/4", "1/1"], ["0/0"], ["0/0"]]), "pass", {"code": "k20.must_play"}),
    ("a move of another step", lambda b: b(hands=[["2/4", "1/1"], ["0/0"], ["0/0"]]),
     "sitout", {"code": "k20.wrong_step", "step": "turn"}),
    # reconstruction (the team sheet 3/3 is missing): the option team_targets=false spares a
    # teammate's personal cards from the 0 and the 1
    ("take a teammate's card when teammates are no target",
     lambda b: after(b(players=4, hands=[["2/1", "2/3"], ["4/1"], ["3/0", "1/1"], ["5/5"]],
                       options={"teams": "pairs", "team_targets": False}), "p1"),
     "take 2:1", {"code": "k20.teammate_target", "seat": 2}),
    ("turn over a teammate's card when teammates are no target",
     lambda b: after(b(players=4, hands=[["1/0", "2/3"], ["4/1"], ["3/0", "1/1"], ["5/5"]],
                       options={"teams": "pairs", "team_targets": False}), "p1"),
     "flip 2:1", {"code": "k20.teammate_target", "seat": 2}),
    ("a draw in the 0's step",
     lambda b: after(b(hands=[["1/0", "2/3"], ["4/1"], ["5/5"]]), "p1"), "draw",
     {"code": "k20.wrong_step", "step": "flip"}),
]


@pytest.mark.parametrize(("setup", "move", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_each_refusal_has_its_code_and_params(setup: Callable[[Build], K20State], move: str,
                                              expected: dict[str, Any], build: Build) -> None:
    state = setup(build)
    before = state.to_json()
    action = parse_notation(move)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    error = caught.value
    wanted = dict(expected)
    assert error.code == wanted.pop("code")
    for name, value in wanted.items():
        assert error.params[name] == value, name
    assert error.params["move"] == format_action(action)
    assert error.params["legal"] == [format_action(a) for a in state.legal_actions()]
    assert str(error) == render(REASONS[error.code], error.params)
    assert state.to_json() == before  # refused: nothing changed
    with pytest.raises(IllegalActionError) as again:  # the id and text entry points agree
        state.apply_id(state.game.action_to_id(action))
    assert (again.value.code, again.value.params) == (error.code, error.params)
    with pytest.raises(IllegalActionError) as parsed:
        state.game.parse_action(move, state)
    assert parsed.value.code == error.code


OPTION_CODES = {"k20.team_players", "k20.team_option_alone"}
"""Codes that refuse rules options, not moves (tests/krumme20/test_teams.py has them)."""


def test_every_rule_code_has_a_case() -> None:
    rule_codes = {c for c in REASONS if c not in PARSE_CASES.values()} - OPTION_CODES
    assert rule_codes == {c[3]["code"] for c in CASES}


PARSE_CASES = {"": "k20.empty", "hello": "k20.unreadable", "p9": "k20.card_number",
               "flip 7:1": "k20.seat_number", "33 1,1,2": "k20.claim_distinct",
               "take s99": "k20.card_number", "p" + "9" * 4000: "k20.card_number"}


@pytest.mark.parametrize(("text", "code"), PARSE_CASES.items())
def test_unreadable_moves_have_codes(text: str, code: str) -> None:
    state = Krumme20(3).new_initial_state(1)
    with pytest.raises(InvalidActionError) as caught:
        state.game.parse_action(text, state)
    assert caught.value.code == code
    assert len(str(caught.value)) < 300  # a huge input is quoted briefly


def plain_param(name: str, value: object) -> bool:
    """Whether a param is what the reasons promise: numbers, moves in notation, a phase."""
    if isinstance(value, int) and not isinstance(value, bool):
        return True
    if name == "legal" and isinstance(value, list):
        return all(isinstance(m, str) and parse_notation(m) is not None for m in value)
    if not isinstance(value, str):
        return False
    if name == "step":
        return value in PHASE_HELP
    if name == "move":
        return parse_notation(value) is not None
    return False


def test_random_refusals_are_coded_plain_and_leave_the_state_alone() -> None:
    game = Krumme20(4, {"peek_own": True})
    rng = random.Random(5)
    refused = 0
    codes: set[str] = set()
    for seed in range(2):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = set(state.legal_action_ids())
            for aid in rng.sample(range(len(ACTIONS)), 8):
                if aid in legal:
                    continue
                before = state.to_json()
                with pytest.raises(IllegalActionError) as caught:
                    state.apply(ACTIONS[aid])
                error = caught.value
                assert error.code in REASONS, error.code
                assert all(plain_param(k, v) for k, v in error.params.items()), error.params
                assert not re.search(r"\{\w+\}", str(error))  # every field filled
                json.dumps(error.to_json())
                assert state.to_json() == before
                refused += 1
                codes.add(error.code)
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.randrange(len(ids))])
    assert refused > 300 and len(codes) >= 8


def test_german_words_read_as_the_notation() -> None:
    pairs = {"spielen 2": "p2", "fünf 2": "f2", "fuenf 2": "f2", "werfen 3": "t3",
             "drehen 1:2": "flip 1:2", "drehen s3": "flip s3", "nehmen 2:1": "take 2:1",
             "nehmen s1": "take s1", "nehmen nachzieh": "take draw",
             "nehmen abwurf": "take discard", "ziehen": "draw", "aussetzen": "sitout",
             "klein 2": "low 2", "summe oben": "sum up", "summe unten": "sum down",
             "Passen": "pass"}
    for german, notation in pairs.items():
        assert parse_notation(german) == parse_notation(notation), german


def test_own_card_shortcut_in_both_languages(build: Build) -> None:
    state = after(build(hands=[["1/0", "2/3"], ["4/1"], ["5/5"]]), "p1")
    game = state.game
    assert game.format_action(game.parse_action("flip h1", state)) == "flip 0:1"
    assert game.format_action(game.parse_action("drehen h1", state)) == "flip 0:1"


def test_errors_are_kartentisch_errors_for_odd_input() -> None:
    state = Krumme20(3).new_initial_state(2)
    for text in (None, 7, b"p1", ["p1"]):
        with pytest.raises(KartentischError):
            state.game.parse_action(text, state)  # type: ignore[arg-type]
