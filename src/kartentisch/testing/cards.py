"""Where each game's position document keeps its cards, for the conservation invariant.

The conformance checks count every card of a position document (``state.to_json()``) and
require the count to stay the same through a whole game: no card may appear, vanish or be
duplicated. A document also repeats cards in logs (the round's acts, the pack's plays), so
a game names the *places* that hold the cards, as paths into its document: ``"hands.*.*"``
is every entry of every hand; ``*`` runs over a list's entries (or an object's values). A
path that leads to ``null`` or a missing key counts nothing.

A fourth game adds one line to :data:`CARD_PLACES` and, if its card names need it, a
normaliser to :data:`CARD_NAMES`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

CARD_PLACES: Final[Mapping[str, tuple[str, ...]]] = {
    "krass-kariert": (
        "hands.*.*", "reserves.*.*", "draw_pile.*", "ablagestapel.*", "drawing.card",
    ),
    "casino": (
        "hands.*.*", "pack_cards.*", "table.loose.*", "table.builds.*.cards.*", "captured.*.*",
    ),
    "krumme20": (
        "hands.*.*", "scores.*.*", "ablage.*", "abwurf.*", "draw_pile.*",
    ),
}
"""Per game, the paths of its position document that hold every card exactly once."""


def _kk_card(value: object) -> str:
    # A hand entry is {"position", "card", "public"}; reserves and piles hold plain names.
    if isinstance(value, Mapping):
        return str(value.get("card"))
    return str(value)


def _k20_card(value: object) -> str:
    # A card is {"card": "up/down", ...} or "up/down" ("x" marks a crosswise card, "+" one
    # whose sides everybody knows); the physical card is the unordered pair of its sides,
    # whichever side is up.
    text = str(value.get("card")) if isinstance(value, Mapping) else str(value)
    sides = text.rstrip("x+").split("/")
    return "/".join(sorted(sides))


CARD_NAMES: Final[Mapping[str, Callable[[object], str]]] = {
    "krass-kariert": _kk_card,
    "krumme20": _k20_card,
}
"""Per game, how an entry found at a card place is turned into the card's identity."""


def _walk(node: object, parts: list[str]) -> Iterator[object]:
    if node is None:
        return
    if not parts:
        yield node
        return
    head, rest = parts[0], parts[1:]
    if head == "*":
        if isinstance(node, Mapping):
            for value in node.values():
                yield from _walk(value, rest)
        elif isinstance(node, list | tuple):
            for value in node:
                yield from _walk(value, rest)
        return
    if isinstance(node, Mapping) and head in node:
        yield from _walk(node[head], rest)


def has_card_places(game: str) -> bool:
    """Whether :func:`count_cards` knows where ``game`` keeps its cards."""
    return game in CARD_PLACES


def count_cards(game: str, document: Mapping[str, Any]) -> Counter[str]:
    """Every card of a position document of ``game``, with how often it occurs.

    >>> doc = {"hands": [["3", "X"], []], "reserves": [[], ["3"]], "draw_pile": ["S"],
    ...        "ablagestapel": [], "drawing": None}
    >>> sorted(count_cards("krass-kariert", doc).items())
    [('3', 2), ('S', 1), ('X', 1)]
    """
    name = CARD_NAMES.get(game, str)
    counts: Counter[str] = Counter()
    for place in CARD_PLACES[game]:
        for entry in _walk(document, place.split(".")):
            counts[name(entry)] += 1
    return counts
