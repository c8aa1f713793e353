"""Shared helpers of the Krumme20 tests: set up positions by hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from kartentisch.games.krumme20 import K20State, Krumme20
from kartentisch.games.krumme20.cards import pair_counts, pair_key, parse_card_text
from kartentisch.games.krumme20.position import POSITION_FORMAT, state_from_json

Build = Callable[..., K20State]


def build_position(
    *,
    players: int = 3,
    hands: Sequence[Sequence[Any]],
    scores: Sequence[Sequence[Any]] | None = None,
    ablage: Sequence[Any] = (),
    abwurf: Sequence[Any] = (),
    draw_top: Sequence[Any] = (),
    rest: str = "draw",
    options: Mapping[str, Any] | None = None,
    **extra: Any,
) -> K20State:
    """A position from card texts (``"up/down"``); the rest of the deck fills the draw pile.

    ``draw_top`` lists the draw pile's top cards, the very top last. With ``rest="abwurf"``
    the unused cards go under the Abwurfstapel instead and the draw pile is only
    ``draw_top``. ``extra`` keys go into the document as they are.
    """
    opts = dict(options or {})
    deck = pair_counts(opts.get("deck", "pairs"))
    used: Counter[tuple[int, int]] = Counter()
    piles = [*hands, *(scores or []), ablage, abwurf, draw_top]
    for pile in piles:
        for card in pile:
            text = card if isinstance(card, str) else card["card"]
            used[pair_key(*parse_card_text(text.rstrip("x")))] += 1
    left = sorted((deck - used).elements())
    if (used - deck):
        raise ValueError(f"more cards than the deck has: {used - deck}")
    rest_cards = [f"{a}/{b}" for a, b in left]
    doc: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "game": "krumme20",
        "players": players,
        "options": opts,
        "hands": [list(h) for h in hands],
        "scores": [list(s) for s in (scores or [[] for _ in range(players)])],
        "ablage": list(ablage),
        "abwurf": (rest_cards if rest == "abwurf" else []) + list(abwurf),
        "draw_pile": (rest_cards if rest == "draw" else []) + list(draw_top),
    }
    doc.update(extra)
    return state_from_json(None, doc)


@pytest.fixture
def build() -> Build:
    """The position builder (see :func:`build_position`)."""
    return build_position


@pytest.fixture
def game3() -> Krumme20:
    """A three-player game with default options."""
    return Krumme20(3)
