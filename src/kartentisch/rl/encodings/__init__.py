"""Per-game encodings (see :mod:`.base`): observation vectors, action masks, action features.

``encoding_for(game)`` picks a game's encoding by its registry name; each lives in its own
module here, so the game packages stay untouched.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from kartentisch.core.errors import UnknownGameError
from kartentisch.rl.encodings.base import Decision, Encoding

ENCODINGS: Final[dict[str, str]] = {
    "krass-kariert": "kartentisch.rl.encodings.krass_kariert:KrassKariertEncoding",
    "casino": "kartentisch.rl.encodings.casino:CasinoEncoding",
    "krumme20": "kartentisch.rl.encodings.krumme20:Krumme20Encoding",
}
"""Game name to ``"module:Class"`` of its encoding."""


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
