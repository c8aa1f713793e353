"""The fast paths give exactly what the plain ones give: the shuffle, the batch loops' draws,
the parsing of canonical notation, the compact log's history and events."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kartentisch.core.errors import KartentischError
from kartentisch.core.rng import random_words, shuffled
from kartentisch.games.krass_kariert import KrassKariert
from kartentisch.games.krass_kariert import batch as batch_module
from kartentisch.games.krass_kariert import game as game_module
from kartentisch.games.krass_kariert.actions import ACTIONS, NUM_ACTIONS, format_action
from kartentisch.games.krass_kariert.cards import DECK
from kartentisch.games.krass_kariert.state import shuffled_deck


def test_shuffle_is_core_rngs_shuffle() -> None:
    for seed in [*range(150), 2**53 - 1, 123_456_789_012]:
        for deal in range(3):
            assert shuffled_deck(seed, deal) == shuffled(DECK, seed, "krass-kariert", deal)


@pytest.mark.parametrize("seed", [1305, 17019, 28752])
def test_shuffle_when_two_words_share_their_top_bits(seed: int) -> None:
    # These deals have two cards whose words agree in the 24 bits the fast sort reads: the
    # order must still be the one of the whole words.
    highs = [w >> 40 for w in random_words(seed, ("krass-kariert", 0), len(DECK))]
    assert len(set(highs)) < len(DECK)
    assert shuffled_deck(seed, 0) == shuffled(DECK, seed, "krass-kariert", 0)


def test_batch_draws_are_randranges() -> None:
    assert batch_module._FAST_RANDBELOW  # CPython's algorithm is the one copied
    mine, theirs = random.Random(3), random.Random(3)
    for n in [1, 2, 3, 7, 64, 65, 1000, 4972] * 20:
        assert batch_module._randbelow(mine.getrandbits, n) == theirs.randrange(n)


class _OwnRandom(random.Random):
    """A generator with its own randrange: the batch loops must call it, not their copy."""

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        self.calls = getattr(self, "calls", 0) + 1
        return super().randrange(*args, **kwargs)


def test_batch_loop_calls_a_subclass_randrange() -> None:
    game = KrassKariert(3)
    rng = _OwnRandom(5)
    _, actions = game.random_games(range(2), rng)
    assert rng.calls == actions


def _parse(game: KrassKariert, text: str, state: Any) -> object:
    try:
        return game.parse_action(text, state)
    except KartentischError as error:
        return (type(error), error.code, error.params, str(error))


def test_canonical_notation_parses_as_the_full_parser_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(8)
    for players, options in ((4, {}), (3, {"x_with_x": True, "voluntary_concession": False})):
        game = KrassKariert(players, options)
        state = game.new_initial_state(11)
        for step in range(140):
            if state.is_terminal():
                break
            if step % 9 == 0:
                ids = set(state.legal_action_ids()) | {rng.randrange(NUM_ACTIONS)
                                                       for _ in range(40)}
                texts = [format_action(ACTIONS[i]) for i in sorted(ids)]
                fast = [_parse(game, t, state) for t in texts]
                with monkeypatch.context() as patch:
                    patch.setattr(game_module, "_NOTATION_IDS", {})
                    full = [_parse(game, t, state) for t in texts]
                assert fast == full
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])


def test_history_and_events_grow_as_read() -> None:
    game = KrassKariert(4)
    state = game.new_initial_state(2)
    rng = random.Random(2)
    applied = []
    seen_events = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        applied.append(action)
        if len(applied) % 17 == 0:  # read now and then: the lists extend, never restart
            assert state.history == applied
            assert len(state.events) > seen_events
            seen_events = len(state.events)
    assert state.history == applied
    whole = game.new_initial_state(2)
    for action in applied:
        whole.apply(action)
    assert [e.to_json() for e in whole.events] == [e.to_json() for e in state.events]
    assert [e.private for e in whole.events] == [e.private for e in state.events]
