"""Observations: exactly one seat's information; events redacted; sampled worlds."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from types import ModuleType

import pytest

from kartentisch.core.documents import read_document
from kartentisch.core.errors import InvalidPositionError, InvalidSeatError
from kartentisch.core.protocol import OBSERVATION_FORMAT, Event
from kartentisch.games.krass_kariert import KKState, KrassKariert
from kartentisch.games.krass_kariert.cards import DECK_COUNTS, card_name
from kartentisch.games.krass_kariert.observation import KKObservation, unseen_cards
from kartentisch.games.krass_kariert.position import KKObservationDocument


def test_observation_shows_own_hand_and_public_cards_only(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], reserves=["", "11 12", "10 10", ""], leader=0)
    kk.play(s, "1", "r2@2")
    obs = s.observation(2)
    assert obs.hand == (3, 4)
    assert obs.public_hands == ((None,), (None, 12, None), (None, None), (None, None))
    assert obs.hand_sizes == (1, 3, 2, 2)
    assert obs.reserves == ((), (11,), (10, 10), ())
    assert obs.discard[-1] == 5 and obs.draw_size == 6
    assert obs.current_player == 2 and obs.best_seat == 0
    assert [a.kind for a in obs.round_acts] == ["combination", "reserve"]
    data = obs.to_json()
    json.dumps(data)
    assert data["hand"] == ["3", "4"] and data["public_hands"][1] == [None, "12", None]
    assert data["round"][1] == {
        "seat": 1,
        "kind": "reserve",
        "cards": ["12"],
        "x_values": [],
        "strength": -1,
        "position": 1,
    }
    assert data["format"] == OBSERVATION_FORMAT and data["game"] == "krass-kariert"
    with pytest.raises(InvalidSeatError, match="seat 4 is not a seat of this game") as info:
        s.observation(4)
    assert info.value.code == "seat.invalid"


def test_drawn_card_is_private_to_the_drawer(kk: ModuleType) -> None:
    s = kk.build(["5 1", "N 2", "9 3", "3 4"], reserves=["", "", "", "10 11"], leader=0)
    kk.play(s, "1", "1", "1", "r1@1")
    assert s.observation(2).pending is not None
    assert all(s.observation(p).pending is None for p in (0, 1, 3))
    draw = [e for e in s.events if e.kind == "draw"][-1]
    assert "card" in draw.for_seat(2).data and "card" not in draw.for_seat(0).data
    assert "card" not in draw.for_seat(None).data
    kk.play(s, "@1")
    insert = [e for e in s.events if e.kind == "insert"][-1]
    assert insert.for_seat(1).data == {"position": 0}
    assert s.observation(0).public_hands[2] == (None, None)


def test_events_describe_the_game(kk: ModuleType) -> None:
    s = kk.build(["X 5 1", "6 6", "3 4", "7 8"], leader=0)
    kk.play(s, "1-2x5")
    kinds = [e.kind for e in s.events]
    assert kinds == ["combination"]
    assert s.events[0].seat == 0
    assert s.events[0].data == {
        "cards": ["X", "5"],
        "x_values": [5],
        "kind": "pair",
        "high": 5,
        "position": 0,
    }
    fresh = KrassKariert(3).new_initial_state(1)
    assert [e.kind for e in fresh.events] == ["deal_start", "round_start"]


def test_sample_world_agrees_with_the_observation() -> None:
    game = KrassKariert(4)
    s = game.new_initial_state(21)
    rng = random.Random(0)
    for _ in range(25):
        s.apply(rng.choice(s.legal_actions()))
    for seat in range(4):
        obs = s.observation(seat)
        worlds = [game.sample_world(obs, random.Random(k)) for k in range(3)]
        for w in worlds:
            assert w.observation(seat) == obs
            assert w.hands[seat] == s.hands[seat]
            total = Counter(w.draw_pile) + Counter(w.discard)
            for h, r in zip(w.hands, w.reserves, strict=True):
                total.update(h + r)
            if w.pending is not None:
                total[w.pending] += 1
            assert total == DECK_COUNTS
        assert len({tuple(map(tuple, w.hands)) for w in worlds}) > 1
        hidden = [
            c
            for p in range(4)
            if p != seat
            for c, k in zip(s.hands[p], s.known[p], strict=True)
            if not k
        ]
        assert sorted(unseen_cards(obs)) == sorted(
            hidden
            + s.draw_pile
            + ([s.pending] if s.pending is not None and s.round_winner != seat else [])
        )


def test_sample_world_rejects_an_impossible_observation() -> None:
    game = KrassKariert(4)
    obs = game.new_initial_state(2).observation(0)
    bad = dataclasses.replace(obs, hand=(*obs.hand, 1, 1, 1, 1, 1))
    with pytest.raises(InvalidPositionError) as info:
        game.sample_world(bad, random.Random(0))
    assert info.value.code == "position.invalid"
    short = dataclasses.replace(obs, draw_size=obs.draw_size + 1)
    with pytest.raises(InvalidPositionError, match="unseen cards for"):
        game.sample_world(short, random.Random(0))


def _random_states(players: int, seed: int, every: int = 7) -> list[KKState]:
    """Snapshots of one random game, every ``every`` moves and at the end."""
    game = KrassKariert(players)
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    out = []
    steps = 0
    while not s.is_terminal():
        if steps % every == 0:
            out.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
        steps += 1
    out.append(s)
    return out


def _public_cards(s: KKState) -> Counter[str]:
    """The cards everybody may see: reserves, the Ablagestapel, hand cards that went in face
    up (the cards of this round's plays are on the Ablagestapel already)."""
    seen: Counter[str] = Counter(card_name(c) for c in s.discard)
    for hand, known, reserve in zip(s.hands, s.known, s.reserves, strict=True):
        seen.update(card_name(c) for c, k in zip(hand, known, strict=True) if k)
        seen.update(card_name(c) for c in reserve)
    return seen


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_spectator_sees_no_hidden_card(players: int) -> None:
    for s in _random_states(players, 40 + players):
        obs = s.observation(None)
        assert obs.seat is None and obs.hand == () and obs.pending is None
        data = obs.to_json()
        assert data["seat"] is None and data["hand"] == [] and data["pending"] is None
        shown: Counter[str] = Counter(data["discard"])
        for hand, reserve in zip(data["public_hands"], data["reserves"], strict=True):
            shown.update(c for c in hand if c is not None)
            shown.update(reserve)
        assert shown == _public_cards(s)
        assert obs.hand_sizes == tuple(len(h) for h in s.hands)
        for event in s.events_for(None):
            assert "card" not in event.data or event.kind == "reserve"
        # The spectator's view is each seat's view without the seat's own secrets.
        for seat in range(players):
            mine = s.observation(seat)
            assert dataclasses.replace(mine, seat=None, hand=(), pending=None) == obs


def test_views_survive_hidden_cards_dealt_again() -> None:
    """Whoever looks (a seat or a spectator), a world dealt from their view at random looks
    exactly the same to them, and deals the hidden cards differently now and then."""
    for players in (3, 5):
        game = KrassKariert(players)
        for s in _random_states(players, 7 * players, every=11):
            for viewer in [None, *range(players)]:
                obs = s.observation(viewer)
                for k in range(2):
                    world = game.sample_world(obs, random.Random(k))
                    assert world.observation(viewer) == obs
                    if viewer is not None:
                        assert world.observation(None) == s.observation(None)


def test_observation_documents_have_the_documented_shape() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from kartentisch.core.documents import json_schema

    schema = json_schema(KKObservationDocument, title="t", description="d")
    validator = jsonschema.Draft202012Validator(schema)
    for players in (3, 4, 5):
        for s in _random_states(players, players, every=31):
            for viewer in [None, *range(players)]:
                data = s.observation(viewer).to_json()
                read_document(json.loads(json.dumps(data)), KKObservationDocument,
                              what="observation")
                validator.validate(data)
    assert KKObservationDocument.__struct_fields__[0] == "format"
    obs: KKObservation = KrassKariert(4).new_initial_state(0).observation(None)
    assert obs.to_json()["format"] == OBSERVATION_FORMAT


def test_assigned_events_are_kept_and_extended() -> None:
    s = KrassKariert(3).new_initial_state(4)
    s.events = [Event("note", None, {"text": "from a record"})]
    s.apply(s.legal_actions()[0])
    kinds = [e.kind for e in s.events]
    assert kinds[0] == "note" and len(kinds) > 1
    copy = s.clone()
    assert [e.kind for e in copy.events] == kinds
    assert copy.events[0].data == s.events[0].data and copy.events[0].data is not s.events[0].data
