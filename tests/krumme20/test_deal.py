"""The deal is a function of the seed alone, exactly as core.rng's shuffle defines it.

K20State._deal sorts card indices and looks the sides up in per-deck tables instead of
calling :func:`kartentisch.core.rng.shuffled` on the list of pairs; these tests hold it to
that reference: the deck put in order by ``shuffled``, each card's up side from bit 0 of its
``random_words`` word.
"""

from __future__ import annotations

import pytest

from kartentisch.core.rng import random_words, shuffled
from kartentisch.games.krumme20 import Krumme20
from kartentisch.games.krumme20.cards import DECK_SIZE, DECKS, deck_pairs


def reference_deal(deck: str, seed: int) -> tuple[list[int], list[int]]:
    """Up and down sides by card position, computed the way the rules define the deal."""
    pairs = shuffled(deck_pairs(deck), seed, "krumme20", "deck")
    sides = random_words(seed, ("krumme20", "sides"), DECK_SIZE)
    face, back = [], []
    for c, (a, b) in enumerate(pairs):
        if sides[c] & 1:
            a, b = b, a
        face.append(a)
        back.append(b)
    return face, back


@pytest.mark.parametrize("deck", DECKS)
def test_deal_matches_the_reference_shuffle(deck: str) -> None:
    game = Krumme20(4, {"deck": deck})
    for seed in (*range(300), 2**53 - 1):
        state = game.new_initial_state(seed)
        face, back = reference_deal(deck, seed)
        # The dealt cards left the draw pile from its top; every card keeps its sides.
        assert (state.face, state.back) == (face, back), seed


def test_deck_pairs_is_built_once() -> None:
    for deck in DECKS:
        assert deck_pairs(deck) is deck_pairs(deck)
    with pytest.raises(ValueError):
        deck_pairs("nope")
