"""The JSON Schemas of every document, from the document types themselves.

The schemas come from each game's ``position_document`` and ``observation_document`` and
the record's ``RECORD_DOCUMENT`` through :func:`kartentisch.core.documents.json_schema`, so
the documentation cannot drift from the validator. :mod:`kartentisch.reference` writes them
into ``docs/schemas`` beside the reason-code table (which needs the catalogues, so it is
made outside the core)::

    python -m kartentisch.reference --write
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from kartentisch.core.documents import json_schema
from kartentisch.core.registry import game_class, list_games

SCHEMA_DIR: Final = "schemas"
"""The schemas' directory inside ``docs``."""


def _record_type() -> type[Any]:
    from kartentisch.core import records

    kind: type[Any] = records.RECORD_DOCUMENT
    return kind


def document_type(name: str, attribute: str) -> type[Any]:
    """Game ``name``'s document type ``attribute`` (``position_document`` or
    ``observation_document``); ``TypeError`` when the game does not declare it."""
    kind: type[Any] | None = getattr(game_class(name), attribute, None)
    if kind is None:
        raise TypeError(f"game {name!r} declares no {attribute} (a msgspec Struct type)")
    return kind


def schemas() -> dict[str, dict[str, Any]]:
    """Every schema by its file name inside ``docs/schemas``."""
    out: dict[str, dict[str, Any]] = {}
    for name in list_games():
        cls = game_class(name)
        title = cls.spec.title
        out[f"{name}-position.json"] = json_schema(
            document_type(name, "position_document"), title=f"{title} position",
            description=f"A whole {title} position, hidden cards included, as"
                        f" state.to_json() writes it and game.state_from_json() reads it.")
        out[f"{name}-observation.json"] = json_schema(
            document_type(name, "observation_document"), title=f"{title} observation",
            description=f"What one seat (or, with seat null, a spectator) may know of a"
                        f" {title} position: state.observation(seat).to_json().")
    out["record.json"] = json_schema(
        _record_type(), title="Game record",
        description="A whole game as data: game, players, options, seed and actions in the"
                    " game's notation; replays to the identical position.")
    return out


def schema_text(schema: Mapping[str, Any]) -> str:
    """A schema as the file's text (indented, sorted keys, newline at the end)."""
    return json.dumps(schema, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
