"""Typed rules options: frozen dataclasses read from plain dictionaries with clear errors."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from kartentisch.core.errors import InvalidOptionsError, safe_repr

Opts = TypeVar("Opts")

_SHAPES: dict[type[Any], tuple[dict[str, dataclasses.Field[Any]], dict[str, Any]]] = {}
"""Per options class: its fields by name and their resolved type hints. Resolving the hints
(``typing.get_type_hints`` compiles each annotation) cost more than the rest of reading the
options, which every game construction and position load does."""


def _shape(cls: type[Any]) -> tuple[dict[str, dataclasses.Field[Any]], dict[str, Any]]:
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = ({f.name: f for f in dataclasses.fields(cls)},
                                typing.get_type_hints(cls))
    return shape


def options_from_dict(cls: type[Opts], data: Mapping[str, Any] | None) -> Opts:
    """Build an options dataclass ``cls`` from ``data``, rejecting unknown keys and bad values.

    Values given as strings (from a command line) are converted to the field's type; other
    values must have the field's type exactly (no ``True`` for 1, no 2.9 for 2).
    Fields may declare allowed values with ``metadata={"choices": (...)}``.
    """
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls!r} is not an options dataclass")
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise InvalidOptionsError(
            f"rules options must be an object of names and values, not {safe_repr(data)}",
            code="options.not_object", params={"value": safe_repr(data)})
    fields, hints = _shape(cls)
    unknown = sorted((k for k in data if k not in fields), key=safe_repr)
    if unknown:
        known = ", ".join(sorted(fields))
        raise InvalidOptionsError(
            f"unknown option {safe_repr(unknown[0])}; known options: {known}",
            code="options.unknown", params={"name": safe_repr(unknown[0]), "known": known})
    values: dict[str, Any] = {}
    for name, raw in data.items():
        values[name] = _convert(name, raw, hints[name], fields[name])
    return cls(**values)


def options_to_dict(options: object) -> dict[str, Any]:
    """Return the options as a JSON-ready dictionary."""
    if not dataclasses.is_dataclass(options) or isinstance(options, type):
        raise TypeError(f"{options!r} is not an options instance")
    # Options hold only bools, ints and texts, so a flat copy is what ``asdict`` would give.
    return {name: getattr(options, name) for name in _shape(type(options))[0]}


@dataclasses.dataclass(frozen=True, slots=True)
class OptionInfo:
    """One rules option as people read it: its name, default and allowed values, and in
    words (English message ids, marked with ``N_`` where the options class declares them,
    so every reader translates them): a short ``label``, a one-line ``help``, and a word
    for each allowed value of a choice (``words``, by the value as text).

    An options class declares the words in each field's metadata (:func:`option` writes
    it): ``{"label": N_(...), "help": N_(...)}``, plus ``"words": {value: N_(...)}`` beside
    ``"choices"`` of text.
    """

    name: str
    default: str
    """The default as text (``true``/``false`` for a switch)."""
    allowed: str
    """``true|false``, ``int``, or the choices joined by ``|``."""
    label: str
    help: str
    words: Mapping[str, str]
    """A word for each choice, by the choice as text (empty for switches and numbers)."""

    def to_json(self) -> dict[str, Any]:
        """The option as a plain object (the page's lobby reads it)."""
        return {"name": self.name, "default": self.default, "allowed": self.allowed,
                "label": self.label, "help": self.help, "words": dict(self.words)}


def option(default: Any, label: str, help: str, *, choices: tuple[Any, ...] | None = None,
           words: Mapping[str, str] | None = None) -> Any:
    """A rules option's dataclass field: its ``default``, ``label`` and one-line ``help``
    (English message ids marked ``N_``), and for a choice of text a word per value
    (``words``, whose keys are then the choices, in their order); ``choices`` for a choice
    of numbers. See :class:`OptionInfo`."""
    metadata: dict[str, Any] = {"label": label, "help": help}
    if words is not None:
        metadata["words"] = dict(words)
        choices = tuple(words) if choices is None else choices
    if choices is not None:
        metadata["choices"] = choices
    return dataclasses.field(default=default, metadata=metadata)


def option_infos(cls: type[Any]) -> tuple[OptionInfo, ...]:
    """Every option of the options dataclass ``cls`` with its words (see
    :class:`OptionInfo`); a field without a label or help gets its name and ``""``."""
    infos = []
    for name, default, allowed in describe_options(cls):
        metadata = _shape(cls)[0][name].metadata
        words = metadata.get("words", {})
        infos.append(OptionInfo(name=name, default=default, allowed=allowed,
                                label=str(metadata.get("label", name)),
                                help=str(metadata.get("help", "")),
                                words={_show(value): str(word) for value, word in words.items()}))
    return tuple(infos)


def describe_options(cls: type[Any]) -> list[tuple[str, str, str]]:
    """List ``(name, default, allowed values)`` for help texts."""
    rows = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        kind = hints[f.name]
        choices = f.metadata.get("choices")
        if choices is not None:
            allowed = "|".join(str(c) for c in choices)
        elif kind is bool:
            allowed = "true|false"
        else:
            allowed = getattr(kind, "__name__", str(kind))
        rows.append((f.name, _show(f.default), allowed))
    return rows


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _convert(name: str, raw: Any, kind: Any, field: dataclasses.Field[Any]) -> Any:
    choices = field.metadata.get("choices")
    value: Any
    if type(raw) is kind and (kind is not int or -(2**53) < raw < 2**53) and (
        choices is None or raw in choices
    ):
        return raw  # the usual case, a value of the field's own type: nothing to convert
    params = {"name": name, "value": safe_repr(raw)}
    if kind is bool:
        if isinstance(raw, bool):
            value = raw
        elif isinstance(raw, str) and raw.lower() in {"true", "1", "yes", "ja", "on"}:
            value = True
        elif isinstance(raw, str) and raw.lower() in {"false", "0", "no", "nein", "off"}:
            value = False
        else:
            raise InvalidOptionsError(
                f"option {name!r} takes true or false, not {safe_repr(raw)}",
                code="options.bad_bool", params=params)
    elif kind is int:
        if type(raw) is int and -(2**53) < raw < 2**53:  # JSON-safe, like every number of ours
            value = raw
        elif isinstance(raw, str) and raw.strip().lstrip("+-").isdigit() and len(raw) < 20:
            value = int(raw)
        else:
            raise InvalidOptionsError(
                f"option {name!r} takes a whole number, not {safe_repr(raw)}",
                code="options.bad_int", params=params)
    elif kind is str:
        if not isinstance(raw, str):
            raise InvalidOptionsError(
                f"option {name!r} takes text, not {safe_repr(raw)}",
                code="options.bad_text", params=params)
        value = raw
    else:  # pragma: no cover - every options field is bool, int or str
        raise TypeError(f"option {name!r} has an unsupported type {kind!r}")
    if choices is not None and value not in choices:
        allowed = ", ".join(_show(c) for c in choices)
        raise InvalidOptionsError(
            f"option {name!r} cannot be {safe_repr(raw)}; allowed: {allowed}",
            code="options.bad_choice", params={**params, "allowed": allowed})
    return value
