"""The rule variants a conformance run covers: every player count and every option value.

From a game's options dataclass: the defaults at every player count, then every boolean
option flipped and every other allowed value of a choice option, each alone, at the
default player count (or the first count that allows it, e.g. partnerships need four); an
option that applies only beside another (Krumme20's team options need teams) goes with the
first other option value that lets it be played.
Whole-number options without a list of allowed values keep their default.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kartentisch.core.errors import InvalidOptionsError
from kartentisch.core.registry import game_class, list_games


@dataclass(frozen=True, slots=True)
class Variant:
    """One game, player count and set of options (the others at their defaults)."""

    game: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()
    """The options that differ from the defaults, as sorted (name, value) pairs."""

    @property
    def options_dict(self) -> dict[str, Any]:
        """The options as the mapping ``load_game`` takes."""
        return dict(self.options)

    @property
    def label(self) -> str:
        """A short name for test ids: ``casino-4p-partnerships=true``."""
        parts = [f"{self.game}-{self.players}p"]
        for name, value in self.options:
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            parts.append(f"{name}={shown}")
        return "-".join(parts)

    def to_json(self) -> dict[str, Any]:
        """``{"game", "players", "options"}``."""
        return {"game": self.game, "players": self.players, "options": self.options_dict}


def _allowed(game: str, players: int, options: Mapping[str, Any]) -> bool:
    try:
        game_class(game)(players, options)
    except InvalidOptionsError:
        return False
    return True


def option_values(game: str) -> list[tuple[str, Any]]:
    """Every (option, value) that differs from the default: booleans flipped, other choices."""
    cls = game_class(game).options_type
    hints = typing.get_type_hints(cls)
    out: list[tuple[str, Any]] = []
    for field in dataclasses.fields(cls):
        default = field.default
        choices = field.metadata.get("choices")
        if hints[field.name] is bool:
            out.append((field.name, not default))
        elif choices is not None:
            out.extend((field.name, value) for value in choices if value != default)
    return out


def variants(game: str) -> list[Variant]:
    """The variants of ``game`` a conformance run covers (see the module docstring)."""
    spec = game_class(game).spec
    counts = range(spec.min_players, spec.max_players + 1)
    out = [Variant(game, n) for n in counts if _allowed(game, n, {})]
    preferred = [spec.default_players, *(n for n in counts if n != spec.default_players)]
    values = option_values(game)
    for name, value in values:
        made = _first_allowed(game, preferred, {name: value})
        # an option that applies only beside another (Krumme20's team options need teams):
        # with the first other value that lets it be played
        for other in values:
            if made is not None:
                break
            if other[0] != name:
                made = _first_allowed(game, preferred, {name: value, other[0]: other[1]})
        if made is None:
            raise AssertionError(f"{game}: option {name}={value!r} is allowed at no player count")
        out.append(made)
    return out


def _first_allowed(game: str, counts: list[int], options: dict[str, Any]) -> Variant | None:
    """The variant of ``options`` at the first of ``counts`` that allows them, or None."""
    for n in counts:
        if _allowed(game, n, options):
            return Variant(game, n, tuple(sorted(options.items())))
    return None


def all_variants() -> list[Variant]:
    """The variants of every registered game."""
    return [v for name in list_games() for v in variants(name)]
