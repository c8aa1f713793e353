"""Casino position documents: exact round trips and validation naming the first problem."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from kartentisch import GameRecord, InvalidPositionError, load_game
from kartentisch.core.errors import InvalidSeedError
from kartentisch.core.rng import check_seed
from kartentisch.games.casino import Casino, CasinoState
from kartentisch.games.casino.cards import parse_card
from kartentisch.games.casino.combinatorics import can_partition
from kartentisch.testing.mutations import mutations, outcome


def played(seed: int, steps: int, players: int = 2, **options: Any) -> CasinoState:
    game = Casino(players, options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def with_build(seed: int = 0) -> CasinoState:
    """A position of a random game in which a build stands."""
    for s in range(seed, seed + 500):
        state = played(s, 0)
        rng = random.Random(s)
        for _ in range(60):
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            if state.builds:
                return state
    raise AssertionError("no build in 500 games")


@pytest.mark.parametrize(("players", "options", "steps"), [
    (2, {}, 0), (2, {}, 37), (3, {"sweeps": True}, 70), (4, {"partnerships": True}, 50),
    (2, {"count_out": True}, 400), (2, {}, 10_000),
])
def test_round_trip_and_same_future(players: int, options: dict[str, Any], steps: int) -> None:
    state = played(3, steps, players, **options)
    doc = json.loads(json.dumps(state.to_json()))
    again = state.game.state_from_json(doc)
    assert again.to_json() == state.to_json()
    assert again.legal_actions() == state.legal_actions()
    rng = random.Random(1)
    for _ in range(200):  # the same moves lead to the same states, through new deals
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        again.apply(action)
    assert again.to_json() == state.to_json()


def test_record_replays() -> None:
    state = played(8, 10_000, 3)
    record = GameRecord.from_state("casino", state, ["random"] * 3)
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json()))).replay()
    assert again.to_json() == state.to_json()
    middle = GameRecord.from_state("casino", state).replay(upto=50)
    assert middle.turn == 50


def test_load_game_from_document() -> None:
    state = played(1, 20)
    assert load_game("casino").state_from_json(state.to_json()).turn == 20


def edit(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    *keys, last = path.split(".")
    node: Any = out
    for k in keys:
        node = node[int(k)] if isinstance(node, list) else node[k]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


def test_validation_names_the_first_problem() -> None:
    state = played(2, 5)
    doc = state.to_json()
    hand0 = doc["hands"][0]
    game = state.game
    shape = "document.invalid"
    meaning = "position.invalid"
    cases: list[tuple[dict[str, Any], str, str]] = [
        (edit(doc, "format", "x"), "position.wrong_format", "unknown position format 'x'"),
        (edit(doc, "game", "krass-kariert"), "position.wrong_game", "'krass-kariert', not"),
        (edit(doc, "game", 7), "position.wrong_game", "position of 7"),
        (edit(doc, "players", 5), shape, r"\$\.players"),
        (edit(doc, "options", {"partnerships": True}), meaning, "options: .*partnerships"),
        (edit(doc, "phase", "draw"), shape, r"\$\.phase"),
        (edit(doc, "hands", [hand0]), shape, r"\$\.hands"),
        (edit(doc, "hands", [hand0, doc["hands"][1], []]), meaning, "one entry per player"),
        (edit(doc, "hands.0", [*hand0, "Zz"]), shape, r"\$\.hands\[0\]"),
        (edit(doc, "hands.0", [*hand0, *doc["pack_cards"][:4]]), shape, r"\$\.hands\[0\]"),
        (edit(doc, "pack_cards", doc["pack_cards"][:-1]), meaning, "multiple of 8"),
        (edit(doc, "table", []), shape, r"\$\.table"),
        (edit(doc, "captured.0", [*doc["captured"][0], hand0[0]]), meaning, "appears 2 times"),
        (edit(doc, "to_move", 7), shape, r"\$\.to_move"),
        (edit(doc, "to_move", 2), meaning, "'to_move' must be a seat"),
        (edit(doc, "scores", [0]), shape, r"\$\.scores"),
        (edit(doc, "plays", "none"), shape, r"\$\.plays"),
        (edit(doc, "winners", [5]), shape, r"\$\.winners\[0\]"),
        (edit(doc, "last_turn", [99, 99]), meaning, "'last_turn' must hold"),
        (edit(doc, "seed", 2.0), shape, r"\$\.seed"),
        (edit(doc, "turn", True), shape, r"\$\.turn"),
    ]
    for bad, code, message in cases:
        with pytest.raises(InvalidPositionError, match=message) as info:
            game.state_from_json(bad)
        assert info.value.code == code, message
    for bad, _code, _message in cases:
        with pytest.raises(InvalidPositionError):
            game.state_from_json(json.loads(json.dumps(bad)))


def refused(doc: object) -> InvalidPositionError:
    with pytest.raises(InvalidPositionError) as info:
        Casino(2).state_from_json(doc)  # type: ignore[arg-type]
    json.dumps(info.value.to_json())
    return info.value


def test_found_bugs_are_refused() -> None:
    """Documents the old reader accepted."""
    doc = played(2, 5).to_json()
    assert refused(edit(doc, "options", True)).code == "document.invalid"
    assert refused(edit(doc, "scores", [10**6, 0])).code == "document.invalid"
    assert "not the sum of the recorded packs" in str(refused(edit(doc, "scores", [30, 0])))
    assert refused(edit(doc, "winners", [True])).code == "document.invalid"
    assert "no winner yet" in str(refused(edit(doc, "winners", [0])))
    result = {"cards": [float("nan"), 0], "spades": [1, 0], "big_casino": [2, 0],
              "little_casino": [1, 0], "aces": [4, 0], "sweeps": [0, 0], "total": [8, 0]}
    nan = edit(edit(doc, "pack_results", [result]), "pack", 1)
    assert "$.pack_results[0].cards[0]" in str(refused(nan))
    assert "unknown field" in str(refused({**doc, "extra": 1})).lower()
    assert refused([doc]).code == "document.invalid"
    assert refused("position").code == "document.invalid"
    deep: Any = []
    for _ in range(10_000):
        deep = [deep]
    assert refused({**doc, "plays": deep}).code == "document.too_deep"


def test_pack_results_must_add_up() -> None:
    state = played(3, 60)  # in the second pack
    assert state.pack_results and not state.is_terminal()
    doc = state.to_json()
    assert Casino(2).state_from_json(doc).to_json() == doc
    first = doc["pack_results"][0]
    wrong_total = dict(first, total=[t + 1 for t in first["total"]])
    assert "'total' is not the sum" in str(refused(edit(doc, "pack_results.0", wrong_total)))
    two_casinos = dict(first, big_casino=[2, 2])
    assert "do not share out one pack" in str(refused(edit(doc, "pack_results.0", two_casinos)))
    assert "packs; " in str(refused(edit(doc, "pack", doc["pack"] + 1)))


@pytest.mark.parametrize("seed", [0, 1, 2**31, 2**53 - 1, 2**53, 2**63, -1, True, 1.0, "1"])
def test_seeds_are_exactly_the_valid_seeds(seed: object) -> None:
    doc = edit(played(2, 3).to_json(), "seed", seed)
    try:
        check_seed(seed)
    except InvalidSeedError:
        with pytest.raises(InvalidPositionError):
            Casino(2).state_from_json(doc)
        return
    state = Casino(2).state_from_json(doc)
    assert state.seed == seed and state.to_json() == doc
    again = Casino(2).state_from_json(json.loads(json.dumps(doc)))
    assert again.to_json() == doc


def test_missing_card_is_named() -> None:
    doc = played(2, 5).to_json()
    first = min(doc["pack_cards"][:8], key=parse_card)
    bad = edit(doc, "pack_cards", doc["pack_cards"][8:])  # still a whole number of deals
    with pytest.raises(InvalidPositionError, match=f"card {first} is missing"):
        Casino(2).state_from_json(bad)


def test_build_validation() -> None:
    state = with_build()
    doc = state.to_json()
    build = doc["table"]["builds"][0]
    game = state.game
    face = dict(build, cards=[*build["cards"][:-1], "Kc"])
    with pytest.raises(InvalidPositionError, match="face cards never enter builds"):
        game.state_from_json(edit(doc, "table.builds", [face]))
    with pytest.raises(InvalidPositionError, match=r"\$\.table\.builds\[0\]\.value"):
        game.state_from_json(edit(doc, "table.builds", [dict(build, value=11)]))
    wrong = dict(build, value=(build["value"] % 10) + 1)
    with pytest.raises(InvalidPositionError, match="do not form groups"):
        game.state_from_json(edit(doc, "table.builds", [wrong]))
    twice = edit(doc, "table.builds", [build, build])
    with pytest.raises(InvalidPositionError, match="second build"):
        game.state_from_json(twice)
    owner = build["owner"]
    holder = edit(doc, "table.builds.0.owner", owner)
    value = build["value"]
    bare = [c for c in doc["hands"][owner] if parse_card(c) // 4 + 1 != value]
    assert len(bare) < len(doc["hands"][owner])  # the owner keeps a card of the value
    # swap the owner's cards of the build's value with pack cards of another value
    swap = [c for c in doc["pack_cards"] if parse_card(c) // 4 + 1 != value]
    n = len(doc["hands"][owner]) - len(bare)
    removed = [c for c in doc["hands"][owner] if c not in bare]
    holder["hands"][owner] = bare + swap[:n]
    holder["pack_cards"] = [c for c in doc["pack_cards"] if c not in swap[:n]] + removed
    with pytest.raises(InvalidPositionError, match="holds no card of value"):
        game.state_from_json(holder)


def test_captured_must_match_the_plays() -> None:
    state = played(4, 30)
    doc = state.to_json()
    seat = next(s for s, c in enumerate(doc["captured"]) if c)
    bad = copy.deepcopy(doc)
    bad["captured"][seat], bad["captured"][1 - seat] = [], bad["captured"][1 - seat] + bad[
        "captured"][seat]
    with pytest.raises(InvalidPositionError, match="differs from the cards its plays captured"):
        state.game.state_from_json(bad)


def test_can_partition() -> None:
    c = parse_card
    assert can_partition([c("2h"), c("6c"), c("8d")], 8)
    assert can_partition([c("2h"), c("5c"), c("7d")], 7)
    assert can_partition([c("2h"), c("5c"), c("7d")], 14)
    assert can_partition([c("3h"), c("5c"), c("4d"), c("4c")], 8)
    assert not can_partition([c("6h"), c("6c"), c("4d")], 8)
    assert not can_partition([c("6h"), c("3c")], 8)
    assert not can_partition([c("Kh"), c("2c")], 2)


def test_document_types_give_schemas_and_hold_real_documents() -> None:
    from kartentisch.core.documents import json_schema, read_document

    state = played(5, 70, 3, sweeps=True)
    for kind, doc in ((Casino.position_document, state.to_json()),
                      (Casino.observation_document, state.observation(1).to_json()),
                      (Casino.observation_document, state.observation(None).to_json())):
        schema = json_schema(kind, title="t", description="d")
        json.dumps(schema)
        read_document(json.loads(json.dumps(doc)), kind, what="document")
        assert set(doc) == set(kind.__struct_fields__)  # every field written is described
    from kartentisch.core.protocol import OBSERVATION_FORMAT

    assert state.observation(0).to_json()["format"] == OBSERVATION_FORMAT


# The fast reader (documents exactly as to_json writes them, taken with the compiled core)
# against the checked one.
_ODD: list[Any] = [True, False, 0, -1, 1, 3, 11, 2**53, 2**64, None, "x", "Ah", "Ks", 1.0,
                   [], {}, ()]


def _written() -> list[CasinoState]:
    return [played(3, 37), played(5, 70, 3, sweeps=True), with_build(2),
            played(2, 400, 2, count_out=True)]


def test_fast_reader_takes_written_documents_and_copies_them() -> None:
    from kartentisch.games.casino import position

    for state in _written():
        doc = state.to_json()
        again = position._read_fast(state.game, doc)
        assert again is not None  # the fast path is the one taken for what to_json writes
        assert again.to_json() == doc
        for pile in (*doc["hands"], *doc["captured"], doc["pack_cards"], doc["table"]["loose"]):
            pile.clear()  # the document stays the caller's
        assert again.to_json() == state.to_json()


def test_fast_reader_agrees_with_the_checked_reader() -> None:
    """Whatever the fast path reads, the checked path reads the same way (the same state,
    or the same error); it leaves everything else to the checked path (None)."""
    from kartentisch.games.casino import position

    taken = 0
    for state in _written()[1:3]:
        for variant in mutations(state.to_json(), _ODD):
            fast = outcome(position._read_fast, state.game, variant)
            if fast is None:
                continue
            taken += 1
            assert fast == outcome(position._read_checked, state.game, variant), variant
            assert fast == outcome(Casino.state_from_json, state.game, variant)
    assert taken > 50  # odd values the types admit (other seats, cards, counts) included
