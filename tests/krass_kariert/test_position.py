"""The JSON position document: exact writing, strict reading, one test per reader error."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from kartentisch.core.errors import InvalidPositionError
from kartentisch.games.krass_kariert import KrassKariert


def _played(players: int, seed: int, steps: int, options: dict[str, Any] | None = None) -> Any:
    game = KrassKariert(players, options)
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_document_is_json_and_reads_back_identically() -> None:
    s = _played(4, 8, 30)
    doc = s.to_json()
    text = json.dumps(doc)
    again = s.game.state_from_json(json.loads(text))
    assert again.to_json() == doc
    assert again.game is s.game  # same players and options: the same game object
    assert again.legal_actions() == s.legal_actions()


def test_document_fields_for_a_fresh_game() -> None:
    doc = KrassKariert(3).new_initial_state(seed=4).to_json()
    assert doc["format"] == "kartentisch-position/1"
    assert doc["players"] == 3 and doc["to_move"] == 1 and doc["phase"] == "play"
    assert doc["options"] == {
        "five_player_chips": 2,
        "x_with_x": False,
        "voluntary_concession": True,
        "next_leader_fallback": "next_highest",
    }
    assert [e["position"] for e in doc["hands"][0]] == list(range(1, 11))
    assert len(doc["draw_pile"]) == 18 and doc["ablagestapel"] == []
    assert doc["round"] == {"leader": 1, "order": [1, 2, 0], "acts_done": 0, "acts": []}
    assert doc["drawing"] is None and doc["losers"] == []


def test_document_options_decide_the_game() -> None:
    doc = _played(5, 2, 5, {"five_player_chips": 3}).to_json()
    state = KrassKariert(4).state_from_json(doc)
    assert state.game.players == 5 and state.game.options.five_player_chips == 3


def test_draw_and_over_phases_round_trip() -> None:
    phases = set()
    for seed in range(40):
        game = KrassKariert(3)
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while True:
            if s.phase not in phases or s.is_terminal():
                phases.add(s.phase)
                doc = s.to_json()
                assert game.state_from_json(doc).to_json() == doc
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        if phases == {"play", "draw", "over"}:
            break
    assert phases == {"play", "draw", "over"}


# A base document (4 players, seat 0 leads) and one mutation per reader error.
Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Mutation:
    def apply(doc: dict[str, Any]) -> None:
        *keys, last = path.split(".")
        target: Any = doc
        for key in keys:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return apply


def _append_card(doc: dict[str, Any]) -> None:
    doc["ablagestapel"].append("7")


def _swap_to_duplicate(doc: dict[str, Any]) -> None:
    doc["ablagestapel"][doc["ablagestapel"].index("8")] = "5"  # 54 cards, but five 5s


def _gap(doc: dict[str, Any]) -> None:
    doc["hands"][1][1]["position"] = 3


def _drop_pile_card(doc: dict[str, Any]) -> None:
    doc["ablagestapel"].append(doc["draw_pile"].pop())


def _out_with_cards(doc: dict[str, Any]) -> None:
    doc["in_deal"][2] = False
    doc["round"]["order"] = [0, 1, 3]


def _act(**fields: Any) -> Mutation:
    def apply(doc: dict[str, Any]) -> None:
        act = {"seat": 0, "kind": "combination", "cards": ["5"], "x_values": [], "position": 1}
        act.update(fields)
        doc["round"]["acts"] = [act]
        doc["round"]["acts_done"] = 1
        doc["to_move"] = 1

    return apply


ERRORS: list[tuple[str, Mutation, str]] = [
    ("55 cards", _append_card, "holds 55 cards; the game has 54"),
    ("a card twice", _swap_to_duplicate, "card 5 appears 5 times; the deck has 4"),
    ("position gap", _gap, "position gap: entry 2 says position 3"),
    ("unknown option", _set("options", {"wild": 1}), "options: unknown option 'wild'"),
    ("bad option value", _set("options", {"x_with_x": 3}), "x_with_x"),
    ("unknown field", _set("comment", "hi"), "unknown field 'comment'"),
    ("format", _set("format", "fen"), "'format' must be"),
    ("game", _set("game", "casino"), "'game' must be 'krass-kariert'"),
    ("players", _set("players", 6), "'players' must be a whole number from 3 to 5"),
    ("seed", _set("seed", "x"), "'seed' must be a whole number"),
    ("phase", _set("phase", "bidding"), "'phase' must be"),
    ("chips", _set("chips", [3, 3, 3]), "one entry per player"),
    ("chips value", _set("chips.1", 4), "chips of seat 1 must be a whole number from 0 to 3"),
    ("card name", _set("hands.0.0.card", "13"), "unknown card '13'"),
    ("public flag", _set("hands.0.0.public", "yes"), "'public' must be true or false"),
    ("hand entry", _set("hands.0.0", "5"), "must be an object"),
    ("reserves", _set("reserves.0", ["1", "2", "3"]), "at most 2 reserve cards"),
    ("draw pile size", _drop_pile_card, "the draw pile must hold 6 cards"),
    ("in_deal", _set("in_deal", [True, True, True, "no"]), "true or false per player"),
    ("out with cards", _out_with_cards, "seat 2 is out of the deal but holds cards"),
    ("order", _set("round.order", [0, 2, 1, 3]), "clockwise from the leader"),
    ("to_move", _set("to_move", 2), "'to_move' must be seat 0"),
    ("losers too early", _set("losers", [1]), "'losers' must be empty"),
    ("drawing outside draw", _set("drawing", {"winner": 0}), "'drawing' must be null"),
    ("draw without drawing", _set("phase", "draw"), "needs a 'drawing' object"),
    ("over without losers", _set("phase", "over"), "needs at least one loser"),
    ("acts count", _set("round.acts_done", 1), "exactly 'acts_done' acts"),
    ("act kind", _act(kind="bid"), "kind combination, stopp, nachzieh, reserve"),
    ("act seat", _act(seat=2), "is by seat 2, but seat 0 acts then"),
    ("act not a combination", _act(cards=["5", "7"]), "5-7 declared [] is not a combination"),
    ("act x values", _act(x_values="7"), "'x_values' must be a list of numbers"),
    ("leader reserve", _act(kind="reserve"), "the leader cannot take a reserve card"),
    ("stopp card", _act(kind="stopp"), "a stopp act plays the card S"),
    ("discard tail", _act(cards=["12"]), "must end with the cards played in the current round"),
]


@pytest.mark.parametrize(("name", "mutate", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_reader_errors(kk: ModuleType, name: str, mutate: Mutation, message: str) -> None:
    base = kk.make_doc(["5 1 9", "9 2", "3 4", "6 7"], leader=0)
    KrassKariert(4).state_from_json(base)  # the base document is valid
    doc = copy.deepcopy(base)
    mutate(doc)
    with pytest.raises(InvalidPositionError) as info:
        KrassKariert(4).state_from_json(doc)
    assert message in str(info.value)


def test_reader_rejects_non_objects() -> None:
    with pytest.raises(InvalidPositionError, match="must be a JSON object"):
        KrassKariert(4).state_from_json([])  # type: ignore[arg-type]


def test_reader_accepts_an_act_in_progress(kk: ModuleType) -> None:
    doc = kk.make_doc(["5 1 9", "9 2", "3 4", "6 7"], leader=0)
    state = KrassKariert(4).state_from_json(doc)
    kk.play(state, "1")
    written = state.to_json()
    assert written["round"]["acts"] == [
        {"seat": 0, "kind": "combination", "cards": ["5"], "x_values": [], "position": 1}
    ]
    assert KrassKariert(4).state_from_json(written).to_json() == written


def test_reader_checks_hand_growth_bound(kk: ModuleType) -> None:
    doc = kk.make_doc(
        ["1 1 1 1 2 2 2 2 3 3 3", "9 5", "3", "6 7"], reserves=["4 4", "", "", ""], leader=0
    )
    with pytest.raises(InvalidPositionError, match="could grow past 18 cards"):
        KrassKariert(4).state_from_json(doc)
