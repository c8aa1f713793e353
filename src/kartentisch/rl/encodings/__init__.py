"""Per-game encodings (see :mod:`.base`): observation vectors, action masks, action features.

``encoding_for(game)`` picks the encoding that the game's descriptor names
(``GameDescriptor.encoding``); each lives in its own module here.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from kartentisch.core.errors import UnknownGameError
from kartentisch.core.registry import descriptors
from kartentisch.rl.encodings.base import Decision, Encoding

ENCODINGS: Final[dict[str, str]] = {
    d.name: d.encoding for d in descriptors() if d.encoding is not None}
"""Game name to ``"module:Class"`` of its encoding, from the games' descriptors."""


def encoding_for(game: Any) -> Encoding:
    """The encoding of ``game`` (a Game instance).

    Raises:
        UnknownGameError: the game has no encoding yet.
    """
    name = game.spec.name
    target = ENCODINGS.get(name)
    if target is None:
        raise UnknownGameError(
            f"no reinforcement-learning encoding for {name}; encoded games:"
            f" {', '.join(sorted(ENCODINGS))}",
            params={"value": name, "known": ", ".join(sorted(ENCODINGS))})
    module, _, cls = target.partition(":")
    encoding: Encoding = getattr(importlib.import_module(module), cls)(game)
    return encoding


__all__ = ["ENCODINGS", "Decision", "Encoding", "encoding_for"]
