"""One-change mutations of a JSON document, for holding two readers of it to each other.

A game may read its position documents two ways: a fast path for documents exactly as its
``to_json`` writes them, and the checked path (msgspec types, then the meaning) for
everything else. The fast path must never accept what the checked one refuses, nor read
anything differently. :func:`mutations` makes the documents that test this: at every place
of a written document, one value replaced by an odd one (wrong types, out-of-range numbers,
unknown card names, empty containers), one key dropped, one key added. :func:`outcome` is what
a reader makes of one of them, in a form two readers' results can be compared in.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

from kartentisch.core.errors import InvalidPositionError

ODD_VALUES: tuple[Any, ...] = (True, False, 0, -1, 1, 3, 2**53, 2**64, None, "x", 1.0,
                               [], {}, ())
"""Values no document should hold where they end up (JSON's types, edge numbers); a game
adds its own near misses (a card name in the wrong place, a count just out of range)."""

Path = tuple[Any, ...]


def _places(doc: Any) -> list[Path]:
    """The path of every value in ``doc`` (the root's, ``()``, first)."""
    places: list[Path] = []

    def walk(value: Any, path: Path) -> None:
        places.append(path)
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))

    walk(doc, ())
    return places


def _parent(doc: Any, path: Path) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def mutations(doc: dict[str, Any], odd: Sequence[Any] = ODD_VALUES,
              per_place: int = 2) -> list[dict[str, Any]]:
    """Copies of ``doc``, each with one change: at every place but the root, the value
    replaced by ``per_place`` of the ``odd`` values (taken in turn, so that every odd value
    lands somewhere); every key of every object dropped, one at a time; and a key
    ``"extra"`` added to every object."""
    text = json.dumps(doc)  # copies by JSON: faster than deepcopy, and only JSON survives
    out: list[dict[str, Any]] = []
    for n, path in enumerate(_places(doc)):
        value = _parent(doc, path)[path[-1]] if path else doc
        if isinstance(value, dict):
            variant = json.loads(text)
            (_parent(variant, path)[path[-1]] if path else variant)["extra"] = 1
            out.append(variant)
        if not path:
            continue
        for j in range(per_place):
            variant = json.loads(text)
            _parent(variant, path)[path[-1]] = copy.deepcopy(odd[(n * per_place + j) % len(odd)])
            out.append(variant)
        if isinstance(_parent(doc, path), dict):
            variant = json.loads(text)
            del _parent(variant, path)[path[-1]]
            out.append(variant)
    return out


def outcome(read: Callable[[Any, object], Any], game: Any, doc: object) -> Any:
    """What ``read(game, doc)`` makes of ``doc``: ``("state", its document, its legal ids,
    its game)``, ``("error", code, message)`` for a refused document, or None when the
    reader declines (a fast path leaving the document to the checked one)."""
    try:
        state = read(game, doc)
    except InvalidPositionError as exc:
        return ("error", exc.code, str(exc))
    if state is None:
        return None
    return ("state", state.to_json(), state.legal_action_ids(), state.game)
