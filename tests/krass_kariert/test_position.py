"""The JSON position document: exact writing, strict reading (shape, then meaning), one test
per reader error with its reason code."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from kartentisch.core.errors import InvalidPositionError
from kartentisch.games.krass_kariert import KKOptions, KrassKariert
from kartentisch.games.krass_kariert.position import (
    KKObservationDocument,
    KKPositionDocument,
    OptionsDocument,
)
from kartentisch.testing.mutations import mutations, outcome


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


def _deep(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def _act(**fields: Any) -> Mutation:
    def apply(doc: dict[str, Any]) -> None:
        act = {"seat": 0, "kind": "combination", "cards": ["5"], "x_values": [], "position": 1}
        act.update(fields)
        doc["round"]["acts"] = [act]
        doc["round"]["acts_done"] = 1
        doc["to_move"] = 1

    return apply


ERRORS: list[tuple[str, Mutation, str, str]] = [
    # the meaning: well-formed documents that cannot arise in play
    ("55 cards", _append_card, "position.invalid", "holds 55 cards; the game has 54"),
    ("a card twice", _swap_to_duplicate, "position.invalid",
     "card 5 appears 5 times; the deck has 4"),
    ("position gap", _gap, "position.invalid", "position gap: entry 2 says position 3"),
    ("chips", _set("chips", [3, 3, 3]), "position.invalid", "one entry per player"),
    ("draw pile size", _drop_pile_card, "position.invalid", "the draw pile must hold 6 cards"),
    ("out with cards", _out_with_cards, "position.invalid",
     "seat 2 is out of the deal but holds cards"),
    ("order", _set("round.order", [0, 2, 1, 3]), "position.invalid",
     "clockwise from the leader"),
    ("order seat", _set("round.order", [0, 1, 2, 4]), "position.invalid",
     "must name seats 0 to 3"),
    ("to_move", _set("to_move", 2), "position.invalid", "'to_move' must be seat 0"),
    ("to_move -1", _set("to_move", -1), "position.invalid", "'to_move' must be a seat"),
    ("to_move 4", _set("to_move", 4), "position.invalid", "'to_move' must be a seat"),
    ("losers too early", _set("losers", [1]), "position.invalid", "'losers' must be empty"),
    ("loser seat", _set("losers", [4]), "position.invalid", "'losers' names seat 4"),
    ("drawing outside draw", _set("drawing", {"winner": 0, "card": "5", "left": 1}),
     "position.invalid", "'drawing' must be null"),
    ("draw without drawing", _set("phase", "draw"), "position.invalid",
     "needs a 'drawing' object"),
    ("over without losers", _set("phase", "over"), "position.invalid",
     "needs at least one loser"),
    ("acts count", _set("round.acts_done", 1), "position.invalid",
     "exactly 'acts_done' acts"),
    ("act seat", _act(seat=2), "position.invalid", "is by seat 2, but seat 0 acts then"),
    ("act not a combination", _act(cards=["5", "7"]), "position.invalid",
     "5-7 declared [] is not a combination"),
    ("leader reserve", _act(kind="reserve"), "position.invalid",
     "the leader cannot take a reserve card"),
    ("stopp card", _act(kind="stopp"), "position.invalid", "a stopp act plays the card S"),
    ("discard tail", _act(cards=["12"]), "position.invalid",
     "must end with the cards played in the current round"),
    ("five-player option", _set("options", {"five_player_chips": 3}), "position.invalid",
     "five_player_chips only applies to 5 players"),
    # the shape: what the document types refuse
    ("unknown option", _set("options", {"wild": 1}), "document.invalid",
     "unknown field `wild` - at `$.options`"),
    ("bad option value", _set("options", {"x_with_x": 3}), "document.invalid",
     "`$.options.x_with_x`"),
    ("unknown field", _set("comment", "hi"), "document.invalid", "unknown field `comment`"),
    ("format", _set("format", "fen"), "position.wrong_format", "unknown position format 'fen'"),
    ("game", _set("game", "casino"), "position.wrong_game", "a position of 'casino'"),
    ("players", _set("players", 6), "document.invalid", "`$.players`"),
    ("players bool", _set("players", True), "document.invalid", "got true or false"),
    ("seed", _set("seed", "x"), "document.invalid", "`$.seed`"),
    ("seed negative", _set("seed", -1), "document.invalid", "`$.seed`"),
    ("seed too big", _set("seed", 2**53), "document.invalid", "`$.seed`"),
    ("seed huge", _set("seed", 10**400), "document.invalid", "`$.seed`"),
    ("seed float", _set("seed", 2.9), "document.invalid", "`$.seed`"),
    ("deal bool", _set("deal", False), "document.invalid", "`$.deal`"),
    ("phase", _set("phase", "bidding"), "document.invalid", "`$.phase`"),
    ("chips value", _set("chips.1", 4), "document.invalid", "`$.chips[1]`"),
    ("card name", _set("hands.0.0.card", "13"), "document.invalid", "`$.hands[0][0].card`"),
    ("card lower case", _set("hands.0.0.card", "x"), "document.invalid",
     "`$.hands[0][0].card`"),
    ("public flag", _set("hands.0.0.public", "yes"), "document.invalid",
     "`$.hands[0][0].public`"),
    ("hand entry", _set("hands.0.0", "5"), "document.invalid", "`$.hands[0][0]`"),
    ("reserves", _set("reserves.0", ["1", "2", "3"]), "document.invalid", "`$.reserves[0]`"),
    ("in_deal", _set("in_deal", [True, True, True, "no"]), "document.invalid",
     "`$.in_deal[3]`"),
    ("act kind", _act(kind="bid"), "document.invalid", "`$.round.acts[0].kind`"),
    ("act x values", _act(x_values="7"), "document.invalid", "`$.round.acts[0].x_values`"),
    ("drawing fields", _set("drawing", {"winner": 0}), "document.invalid", "`$.drawing`"),
    ("missing field", lambda doc: doc.pop("hands"), "document.invalid", "`hands`"),
    ("deep nesting", _set("comment", _deep(5000)), "document.too_deep", "nested too deeply"),
]


@pytest.mark.parametrize(("name", "mutate", "code", "message"), ERRORS,
                         ids=[e[0] for e in ERRORS])
def test_reader_errors(kk: ModuleType, name: str, mutate: Mutation, code: str,
                       message: str) -> None:
    base = kk.make_doc(["5 1 9", "9 2", "3 4", "6 7"], leader=0)
    KrassKariert(4).state_from_json(base)  # the base document is valid
    doc = copy.deepcopy(base)
    mutate(doc)
    with pytest.raises(InvalidPositionError) as info:
        KrassKariert(4).state_from_json(doc)
    assert info.value.code == code
    assert message in str(info.value)
    assert json.dumps(info.value.params)  # plain JSON


@pytest.mark.parametrize("bad", [[], "position", None, 7, b"{}", object()],
                         ids=lambda v: type(v).__name__)
def test_reader_rejects_non_objects(bad: object) -> None:
    with pytest.raises(InvalidPositionError) as info:
        KrassKariert(4).state_from_json(bad)  # type: ignore[arg-type]
    assert info.value.code == "document.invalid"


@pytest.mark.parametrize("seed", [0, 1, 2**31, 2**53 - 1])
def test_every_seed_round_trips(seed: int) -> None:
    game = KrassKariert(4)
    s = game.new_initial_state(seed)
    doc = json.loads(json.dumps(s.to_json()))
    again = game.state_from_json(doc)
    assert again.seed == seed and again.to_json() == s.to_json()
    # The seed decides later deals: both give the next deal the same cards.
    for state in (s, again):
        while state.deal == 0:
            state.apply(state.legal_actions()[-1])
    assert again.hands == s.hands


def test_position_documents_have_the_documented_shape() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from kartentisch.core.documents import json_schema

    validator = jsonschema.Draft202012Validator(
        json_schema(KKPositionDocument, title="t", description="d"))
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        s = _played(players, seed, 0)
        rng = random.Random(seed)
        while not s.is_terminal():
            if rng.random() < 0.02 or (s.phase == "draw" and rng.random() < 0.3):
                validator.validate(s.to_json())
            s.apply(rng.choice(s.legal_actions()))
        validator.validate(s.to_json())
    assert KrassKariert.position_document is KKPositionDocument
    assert KrassKariert.observation_document is KKObservationDocument


def test_options_document_matches_the_options() -> None:
    """The document's options type lists exactly the game's options, with their defaults."""
    fields = {f.name: f.default for f in dataclasses.fields(KKOptions)}
    document = OptionsDocument()
    assert {name: getattr(document, name) for name in OptionsDocument.__struct_fields__} == fields


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
    with pytest.raises(InvalidPositionError, match="could grow past 18 cards") as info:
        KrassKariert(4).state_from_json(doc)
    assert info.value.code == "position.invalid" and info.value.params["seat"] == 0


# The fast reader (documents exactly as to_json writes them) against the checked one.
_ODD: list[Any] = [True, False, 0, -1, 1, 3, 19, 2**53, 2**64, None, "x", "5", "N", 1.0,
                   [], {}, ()]


def _mid_game_docs() -> list[tuple[KrassKariert, dict[str, Any]]]:
    out = []
    for players, seed, steps in ((4, 2, 25), (5, 3, 60)):
        s = _played(players, seed, steps)
        out.append((s.game, s.to_json()))
    draw = next(s for s in (_played(3, seed, k) for seed in range(30) for k in (20, 40, 60))
                if s.phase == "draw")
    out.append((draw.game, draw.to_json()))
    return out


def test_fast_reader_takes_written_documents_and_copies_them() -> None:
    from kartentisch.games.krass_kariert import position

    for game, doc in _mid_game_docs():
        state = position._read_fast(game, doc)
        assert state is not None  # the fast path is the one taken for what to_json writes
        assert state.to_json() == doc
        for hand in doc["hands"]:  # the document stays the caller's
            hand.clear()
        doc["draw_pile"].clear()
        assert state.to_json() != doc and all(state.hands)


def test_fast_reader_agrees_with_the_checked_reader() -> None:
    """Whatever the fast path reads, the checked path reads the same way (the same state,
    or the same error); it leaves everything else to the checked path (None)."""
    from kartentisch.games.krass_kariert import position

    taken = 0
    for game, doc in _mid_game_docs():
        for variant in mutations(doc, _ODD):
            fast = outcome(position._read_fast, game, variant)
            if fast is None:
                continue
            taken += 1
            assert fast == outcome(position._read_checked, game, variant), variant
            assert fast == outcome(KrassKariert.state_from_json, game, variant)
    assert taken > 50  # odd values the types admit (other seats, cards, counts) included
