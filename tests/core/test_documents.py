"""Document reading: the depth check is skipped only where the type bounds the depth."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest

from kartentisch import load_game
from kartentisch.core.documents import MAX_DEPTH, Document, _depth_bounded, read_document
from kartentisch.core.errors import InvalidPositionError
from kartentisch.core.options import options_from_dict, options_to_dict
from kartentisch.core.records import RecordDocument


class Flat(Document, frozen=True):
    name: str
    values: list[int]


class Loose(Document, frozen=True):
    data: Any


class Tree(Document, frozen=True):
    children: list[Tree]


def _deep(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


def test_type_depths() -> None:
    assert _depth_bounded(Flat)
    assert _depth_bounded(RecordDocument)
    assert not _depth_bounded(Loose)  # Any passes any depth through
    assert not _depth_bounded(Tree)  # recursive


@pytest.mark.parametrize("kind", [Flat, Loose, Tree])
def test_too_deep_is_named_for_every_kind_of_type(kind: type[Any]) -> None:
    field = {Flat: "values", Loose: "data", Tree: "children"}[kind]
    with pytest.raises(InvalidPositionError) as caught:
        read_document({field: _deep(MAX_DEPTH + 10)}, kind, what="thing")
    assert caught.value.code == "document.too_deep"
    with pytest.raises(InvalidPositionError) as caught:  # deep in an unknown field as well
        read_document({field: [], "extra": _deep(5000)}, kind, what="thing")
    assert caught.value.code == "document.too_deep"


def test_shallow_documents_still_convert_and_fail_cleanly() -> None:
    assert read_document({"name": "a", "values": [1, 2]}, Flat, what="thing") == Flat("a", [1, 2])
    assert read_document({"data": _deep(10)}, Loose, what="thing").data == _deep(10)
    nested: dict[str, Any] = {"children": []}
    for _ in range(MAX_DEPTH // 2 - 1):
        nested = {"children": [nested]}
    read_document(nested, Tree, what="thing")  # within the limit
    with pytest.raises(InvalidPositionError) as caught:
        read_document({"name": "a", "values": [True]}, Flat, what="thing")
    assert caught.value.code == "document.invalid"
    assert "true or false" in str(caught.value)


@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
def test_options_round_trip_like_asdict(name: str) -> None:
    game = load_game(name)
    options = game.options
    assert options_to_dict(options) == dataclasses.asdict(options)
    assert options_from_dict(type(options), options_to_dict(options)) == options
    assert msgspec.json.encode(game.options_json())  # JSON-ready


@pytest.mark.parametrize("name", ["krass-kariert", "casino", "krumme20"])
def test_options_json_is_the_callers_own_and_positions_write_their_own(name: str) -> None:
    """``options_json`` hands out a new dictionary each time, built from one shared
    document (``shared_options_json``, which positions read at every write and read): a
    caller that changes what it got changes neither the shared one nor a position's."""
    game = load_game(name)
    first = game.options_json()
    assert first == dataclasses.asdict(game.options)
    assert first is not game.options_json()
    first.clear()
    assert game.shared_options_json() == dataclasses.asdict(game.options)
    state = game.new_initial_state(3)
    written = state.to_json()
    written["options"]["changed"] = True
    assert "changed" not in state.to_json()["options"]
    assert "changed" not in game.shared_options_json()
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()
