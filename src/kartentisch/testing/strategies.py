"""Hypothesis strategies for fuzzing the public API with arbitrary values.

The public API must answer any input with a :class:`~kartentisch.core.errors.KartentischError`
subclass (or success), never with a ``TypeError``, ``RecursionError`` or a crash, and a
rejected call must leave a state exactly as it was. These strategies (built once and
cached) produce the inputs: plain JSON of any shape, odd Python values (huge integers,
booleans where numbers are due, NaN, bytes, objects), values nested far too deep, and
*mutations* of real documents, which reach much further into a reader than random JSON
does.

This module imports hypothesis (a development dependency); nothing else in
:mod:`kartentisch.testing` does.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

HUGE: Any = 10**5000
"""An integer of 5001 digits (``int(str(HUGE))`` is refused by Python's digit limit)."""


def deep(depth: int, leaf: object = 0, kind: str = "list") -> object:
    """``leaf`` nested ``depth`` times in lists (or objects with the key ``"a"``)."""
    value = leaf
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


@functools.cache
def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any JSON value (objects with text keys, lists, numbers, text, true/false, null)."""
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
    return st.recursive(
        scalars,
        lambda children: st.one_of(st.lists(children, max_size=4),
                                   st.dictionaries(st.text(max_size=8), children, max_size=4)),
        max_leaves=max_leaves)


class _Weird:
    """An object whose ``repr`` and comparisons fail: error messages must survive it."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparison")

    __hash__ = object.__hash__


@functools.cache
def odd_values() -> st.SearchStrategy[Any]:
    """Values a careless or hostile caller might pass where a number, text or mapping is due."""
    return st.one_of(
        st.sampled_from([
            None, True, False, 0, -1, 1, 2, 99, 2**53, 2**64, -(2**63), HUGE, -HUGE,
            0.0, 2.9, -0.5, float("nan"), float("inf"), float("-inf"), "", "0", "2", "abc",
            "\x00", "\ud800", "é" * 300, b"bytes", (), [], {}, set(), frozenset({1}),
            object(), _Weird(), deep(1000), deep(1000, kind="dict"), [[]] * 3, {1: 2},
            {None: 1}, {"": ""}, range(3), type, Ellipsis, NotImplemented, 1j,
        ]),
        st.integers(),
        st.floats(),
        st.text(max_size=30),
        st.binary(max_size=8),
        json_values(),
    )


@functools.cache
def action_ids(space: int) -> st.SearchStrategy[Any]:
    """Things passed as an action id: ids in and near the range, and anything odd."""
    return st.one_of(
        st.integers(min_value=0, max_value=max(0, space - 1)),
        st.integers(min_value=-3, max_value=space + 3),
        st.sampled_from([True, False, float(0), 0.5, space, -1, HUGE, "0", None, [0]]),
        odd_values(),
    )


@functools.cache
def seats(players: int) -> st.SearchStrategy[Any]:
    """Things passed as a seat: real seats, near misses and anything odd."""
    return st.one_of(
        st.integers(min_value=-2, max_value=players + 2),
        st.sampled_from([True, False, 99, HUGE, 1.0, "0", None]),
        odd_values(),
    )


def _paths(value: object, prefix: tuple[object, ...] = (),
           limit: int = 8) -> list[tuple[object, ...]]:
    """Every path into a JSON value (keys and list indices), the root included, down to
    ``limit`` levels."""
    out: list[tuple[object, ...]] = [prefix]
    if len(prefix) >= limit:
        return out
    if isinstance(value, Mapping):
        for key, item in value.items():
            out.extend(_paths(item, (*prefix, key), limit))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out.extend(_paths(item, (*prefix, index), limit))
    return out


def _holds(node: object, key: object) -> bool:
    """Whether ``node[key]`` exists (a dict's key or a list's index)."""
    if isinstance(node, dict):
        return key in node
    return isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node)


def _parent(document: Any, path: tuple[object, ...]) -> Any:
    """The container holding ``path``'s last step, or ``None`` when the path is gone."""
    node = document
    for key in path[:-1]:
        if not _holds(node, key):
            return None
        node = node[key]
    return node if _holds(node, path[-1]) else None


@st.composite
def mutated(draw: st.DrawFn, document: Mapping[str, Any]) -> Any:
    """``document`` with one to three random changes: a value replaced by an odd one, a key
    deleted or added, a list entry dropped or doubled.

    The places are paths of the original document (so what is drawn does not depend on
    earlier changes); a place an earlier change removed is left alone.
    """
    result: Any = copy.deepcopy(dict(document))
    paths = _paths(result)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        path = draw(st.sampled_from(paths))
        replacement = draw(st.one_of(odd_values(), json_values(6)))
        how = draw(st.sampled_from(["replace", "delete", "duplicate", "add"]))
        name = draw(st.text(max_size=6))
        if not path:
            result[name] = replacement
            continue
        parent = _parent(result, path)
        if parent is None:
            continue
        key = path[-1]
        if how == "replace":
            parent[key] = replacement
        elif how == "delete":
            del parent[key]
        elif how == "duplicate" and isinstance(parent, list) and isinstance(key, int):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif how == "add" and isinstance(parent, dict):
            parent[name] = replacement
        else:
            parent[key] = replacement
    return result
