"""One validation for every document: positions, records, observations and options.

Each document type is a ``msgspec.Struct`` (``forbid_unknown_fields=True``) whose fields
carry their types and bounds; :func:`read_document` checks a decoded JSON value against it
strictly: no booleans for numbers, no 2.9 read as 2, no unknown or missing fields, no NaN
where a number is due. What the types cannot say (cards conserved, a turn that exists) each
game checks afterwards and reports with :func:`impossible`. The same types give the JSON
Schema documents in ``docs/schemas`` (:func:`json_schema`), so the documentation and the
validator cannot drift apart.

A document nested too deeply, or of any odd Python value, gives a clean error, never a
``RecursionError`` or ``TypeError``.
"""

from __future__ import annotations

import json
from typing import Any, Final, TypeVar

import msgspec
import msgspec.inspect

from kartentisch.core.errors import InvalidPositionError, KartentischError, safe_repr

T = TypeVar("T")
E = TypeVar("E", bound=KartentischError)

MAX_DEPTH: Final = 64
"""Deepest nesting any document of ours needs, with room to spare."""


class Document(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """Base of every document type: unknown fields are refused.

    ``gc=False``: a document is read from JSON (a tree) and frozen, so it takes part in no
    reference cycle, and the garbage collector need not track it; reading a position makes
    dozens of them, and fewer tracked objects mean fewer and shorter collections."""


def _depth_ok(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests no deeper than ``limit`` (iteratively, so it cannot overflow)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth >= limit:
                return False
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list | tuple):
            if depth >= limit:
                return False
            stack.extend((v, depth + 1) for v in item)
    return True


_UNBOUNDED: Final = 1 << 30
"""The depth of a type that admits values of any depth (``Any``, recursive types)."""

_TYPE_DEPTHS: dict[type[Any], int] = {}
"""Cache of :func:`_type_depth` per document type."""


def _type_depth(info: msgspec.inspect.Type, active: frozenset[int] = frozenset()) -> int:
    """How deeply a value of the type ``info`` can nest lists and objects (a struct is an
    object); :data:`_UNBOUNDED` when it can nest without limit."""
    inspect = msgspec.inspect
    if isinstance(info, inspect.Metadata):
        return _type_depth(info.type, active)
    if isinstance(info, inspect.UnionType):
        return max((_type_depth(t, active) for t in info.types), default=0)
    if isinstance(info, inspect.StructType):
        if id(info) in active:  # a recursive type
            return _UNBOUNDED
        inner = active | {id(info)}
        return 1 + max((_type_depth(f.type, inner) for f in info.fields), default=0)
    if isinstance(info, inspect.ListType | inspect.SetType | inspect.FrozenSetType
                  | inspect.VarTupleType):
        return 1 + _type_depth(info.item_type, active)
    if isinstance(info, inspect.TupleType):
        return 1 + max((_type_depth(t, active) for t in info.item_types), default=0)
    if isinstance(info, inspect.DictType):
        return 1 + max(_type_depth(info.key_type, active), _type_depth(info.value_type, active))
    if isinstance(info, inspect.AnyType | inspect.CustomType | inspect.TypedDictType
                  | inspect.DataclassType | inspect.NamedTupleType):
        return _UNBOUNDED  # not used by our documents: checked the slow way
    return 0  # numbers, text, literals, enums, null


def _depth_bounded(kind: type[Any]) -> bool:
    """Whether every value of ``kind`` nests less deeply than :data:`MAX_DEPTH`, so that a
    value that converts to it cannot be too deep (and the walk over the data is not needed)."""
    depth = _TYPE_DEPTHS.get(kind)
    if depth is None:
        try:
            depth = _type_depth(msgspec.inspect.type_info(kind))
        except (TypeError, ValueError):  # not a type msgspec can describe
            depth = _UNBOUNDED
        _TYPE_DEPTHS[kind] = depth
    return depth < MAX_DEPTH


def read_document(
    data: object, kind: type[T], *, what: str, error: type[E] = InvalidPositionError  # type: ignore[assignment]
) -> T:
    """``data`` (a decoded JSON value) as a ``kind``; raises ``error`` saying what is wrong.

    ``what`` names the document in the message ("position", "record", ...). A document
    nested more deeply than :data:`MAX_DEPTH` is refused as ``document.too_deep``. The walk
    over the data that finds out costs more than the conversion itself, so for the usual
    document types (whose own depth is bounded) it is made only when the conversion fails:
    a value that converted is no deeper than its type.
    """
    bounded = _depth_bounded(kind)
    if not bounded and not _depth_ok(data):
        raise _too_deep(what, error)
    try:
        return msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as exc:
        if bounded and not _depth_ok(data):
            raise _too_deep(what, error) from None
        detail = _plain(str(exc))
        raise error(
            f"{what}: {detail}", code="document.invalid", params={"what": what, "detail": detail}
        ) from None
    except (TypeError, ValueError, RecursionError) as exc:  # odd Python values, not JSON
        if bounded and not _depth_ok(data):
            raise _too_deep(what, error) from None
        detail = f"{type(exc).__name__}: {safe_repr(str(exc))}"
        raise error(
            f"{what}: {detail}", code="document.invalid", params={"what": what, "detail": detail}
        ) from None


def _too_deep(what: str, error: type[E]) -> E:
    return error(
        f"{what} is nested too deeply to be a valid document",
        code="document.too_deep",
        params={"what": what},
    )


def decode_json(
    text: str | bytes, *, what: str, error: type[E] = InvalidPositionError  # type: ignore[assignment]
) -> Any:
    """Parse JSON text, with a clean error for bad syntax, bad UTF-8 or absurd nesting."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text)
    except UnicodeDecodeError as exc:
        detail = f"not UTF-8 text (byte {exc.start})"
    except json.JSONDecodeError as exc:
        detail = f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
    except RecursionError:
        detail = "nested too deeply"
    raise error(
        f"{what}: {detail}", code="document.invalid", params={"what": what, "detail": detail}
    )


def _plain(message: str) -> str:
    """msgspec's message in plainer words ("Expected `int`, got `bool` - at `$.seed`")."""
    return (
        message.replace("`int`", "an integer")
        .replace("`str`", "text")
        .replace("`float`", "a number")
        .replace("`bool`", "true or false")
        .replace("`array`", "a list")
        .replace("`object`", "an object")
        .replace("`null`", "null")
    )


def impossible(detail: str, **params: object) -> InvalidPositionError:
    """The error for a position that is well formed but cannot arise in play."""
    return InvalidPositionError(
        f"impossible position: {detail}",
        code="position.invalid",
        params={"detail": detail, **params},
    )


def json_schema(kind: type[Any], *, title: str, description: str) -> dict[str, Any]:
    """The JSON Schema (2020-12) of a document type, as written to ``docs/schemas``."""
    schema = msgspec.json.schema(kind)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        "description": description,
        **schema,
    }
