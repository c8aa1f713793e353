"""Property tests over random Casino games (hypothesis picks seeds and options).

Every pack of every game checks that the 52 cards are each somewhere exactly once, that
builds are well formed, that the points of a pack add up, and that moves, ids and positions
round-trip. The default counts keep ``tests/casino`` quick; with ``KARTENTISCH_SOAK`` set
(``make soak``) they play thousands of games.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kartentisch import GameRecord
from kartentisch.core.documents import read_document
from kartentisch.games.casino import Casino, CasinoState
from kartentisch.games.casino.cards import VALUES
from kartentisch.games.casino.combinatorics import can_partition
from kartentisch.games.casino.observation import holding_constraints
from kartentisch.games.casino.table import BuildUnit

SOAK = bool(os.environ.get("KARTENTISCH_SOAK"))


def count(quick: int, soak: int) -> int:
    """How many examples: ``soak`` under ``KARTENTISCH_SOAK``, else ``quick``."""
    return soak if SOAK else quick

OPTION_VALUES: dict[str, list[Any]] = {
    "face_cards_capture_all": [False, True],
    "trail_ban": ["next_turn", "while_build_stands"],
    "trail_when_capture_possible": [True, False],
    "owner_keeps_capture_card": [True, False],
    "sweeps": [False, True],
    "count_out": [False, True],
}


@st.composite
def games(draw: st.DrawFn) -> tuple[Casino, int]:
    players = draw(st.sampled_from([2, 2, 3, 4]))
    options = {k: draw(st.sampled_from(v)) for k, v in OPTION_VALUES.items()}
    if players == 4:
        options["partnerships"] = draw(st.booleans())
    return Casino(players, options), draw(st.integers(0, 2**53 - 1))


def check_cards(state: CasinoState) -> None:
    where: Counter[int] = Counter(state.deck)
    where.update(state.loose)
    for h in state.hands:
        where.update(h)
    for b in state.builds.values():
        where.update(b.cards)
    for c in state.captured:
        where.update(c)
    assert where == Counter(range(52)), "each of the 52 cards exactly once"


def check_builds(state: CasinoState) -> None:
    keeps = state.game.options.owner_keeps_capture_card
    for v, b in state.builds.items():
        assert b.value == v and 1 <= v <= 10
        assert can_partition(list(b.cards), v)
        assert b.multiple or sum(VALUES[c] for c in b.cards) == v
        if keeps:
            assert any(VALUES[c] == v for c in state.hands[b.owner]), "owner holds the value"


def check_pack_points(state: CasinoState) -> None:
    items = state.pack_results[-1]
    expected = 11 + sum(items["sweeps"])
    if not any(items["cards"]):
        expected -= 3  # a tie for most cards
    if not any(items["spades"]):
        expected -= 1  # a tie for most spades
    assert sum(items["total"]) == expected
    assert sum(items["big_casino"]) == 2 and sum(items["little_casino"]) == 1
    assert sum(items["aces"]) == 4


def play(game: Casino, seed: int, *, packs: int | None, deep: bool) -> CasinoState:
    """Play randomly, checking invariants; stop after ``packs`` packs (None: to the end)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    results = 0
    while not state.is_terminal() and (packs is None or state.pack < packs):
        legal = state.legal_actions()
        ids = state.legal_action_ids()
        assert legal and len(set(legal)) == len(legal)
        assert type(ids) is tuple and list(ids) == sorted(set(ids))
        assert ids == tuple(game.action_to_id(a) for a in legal)
        for aid, a in zip(ids, legal, strict=True):  # every legal move round-trips its id
            assert 0 <= aid < game.num_distinct_actions and game.action_from_id(aid) == a
            assert state.is_legal_id(aid)
        action = legal[rng.randrange(len(legal))]
        text = game.format_action(action)
        assert game.parse_action(text, state) == action
        if deep and rng.random() < 0.1:
            check_views(state, rng)
        state.apply(action)
        check_cards(state)
        check_builds(state)
        if len(state.pack_results) != results:
            results = len(state.pack_results)
            check_pack_points(state)
    return state


def check_views(state: CasinoState, rng: random.Random) -> None:
    """No leaks, consistent sampled worlds, exact position round trips."""
    game = state.game
    doc = state.to_json()
    assert game.state_from_json(json.loads(json.dumps(doc))).to_json() == doc
    read_document(doc, game.position_document, what="position")
    spectator = state.observation(None).to_json()
    read_document(spectator, game.observation_document, what="observation")
    for seat in range(game.players):
        obs = state.observation(seat)
        seen = json.dumps(obs.to_json())
        read_document(obs.to_json(), game.observation_document, what="observation")
        # two states that differ only in cards hidden from ``seat`` look the same to it
        other = state.clone()
        hidden = [(s, i) for s in range(game.players) if s != seat
                  for i in range(len(other.hands[s]))] + [(-1, i) for i in range(len(other.deck))]
        if len(hidden) >= 2:
            (s1, i1), (s2, i2) = rng.sample(hidden, 2)
            box1 = other.deck if s1 < 0 else other.hands[s1]
            box2 = other.deck if s2 < 0 else other.hands[s2]
            box1[i1], box2[i2] = box2[i2], box1[i1]
            assert json.dumps(other.observation(seat).to_json()) == seen
        # a sampled world agrees with the observation and keeps what plays revealed
        world = game.sample_world(obs, rng)
        assert json.dumps(world.observation(seat).to_json()) == seen
        check_cards(world)
        for s, values in holding_constraints(obs).items():
            assert values <= {VALUES[c] for c in world.hands[s]}
        if state.current_player == seat:
            assert world.legal_actions() == state.legal_actions()


@settings(max_examples=count(50, 2000), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_first_packs(case: tuple[Casino, int]) -> None:
    """Games played for one pack each, with every invariant after every play."""
    game, seed = case
    state = play(game, seed, packs=1, deep=False)
    assert state.pack_results or state.is_terminal()


@settings(max_examples=count(10, 400), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_whole_games(case: tuple[Casino, int]) -> None:
    """Whole games: the end, the returns, and the record's replay."""
    game, seed = case
    state = play(game, seed, packs=None, deep=False)
    assert state.is_terminal()
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    assert all(game.spec.min_utility <= r <= game.spec.max_utility for r in returns)
    scores = state.scores
    (winner,) = state.winners
    if game.options.count_out:
        assert scores[winner] >= 21
    else:
        assert scores[winner] == max(scores) >= 21 and scores.count(max(scores)) == 1
    record = GameRecord.from_state("casino", state)
    assert record.replay().to_json() == state.to_json()


@settings(max_examples=count(10, 60), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_views_and_positions(case: tuple[Casino, int]) -> None:
    """Packs with observations, sampled worlds and positions checked along the way."""
    game, seed = case
    play(game, seed, packs=1, deep=True)


def fields(value: object) -> list[str]:
    """The names of an object's fields: its slots, or, compiled with mypyc (which keeps the
    fields in descriptors of its own kind and leaves ``__slots__`` empty), those."""
    kinds = ("member_descriptor", "getset_descriptor")
    names = {n for klass in type(value).__mro__ for n, d in vars(klass).items()
             if type(d).__name__ in kinds and not n.startswith("__")}
    return sorted(names | set(getattr(value, "__dict__", {})))


def test_clones_share_nothing_mutable() -> None:
    """Every list, dict and set reachable from a clone is its own, not the original's."""
    game = Casino(3, {"sweeps": True})
    state = game.new_initial_state(9)
    rng = random.Random(9)
    for _ in range(70):
        legal = state.legal_action_ids()
        state.apply_id(legal[rng.randrange(len(legal))])
    assert state.plays
    other = state.clone()

    def containers(value: object, seen: dict[int, object], depth: int = 0) -> None:
        if depth > 6:
            return
        if isinstance(value, list | dict | set):
            seen[id(value)] = value
        items: list[object] = []
        if isinstance(value, dict):
            items = [*value.keys(), *value.values()]
        elif isinstance(value, list | tuple | set | frozenset):
            items = list(value)
        elif isinstance(value, CasinoState | BuildUnit):
            items = [getattr(value, n) for n in fields(value) if n != "game"]
        for item in items:
            containers(item, seen, depth + 1)

    mine: dict[int, object] = {}
    theirs: dict[int, object] = {}
    containers(state, mine)
    containers(other, theirs)
    assert len(mine) > 20
    assert not set(mine) & set(theirs)
    before = state.to_json()
    while not other.is_terminal():  # playing the clone on leaves the original alone
        legal = other.legal_action_ids()
        other.apply_id(legal[rng.randrange(len(legal))])
    assert state.to_json() == before
