"""The conformance checker itself: it must catch broken games, not only pass good ones.

Each test breaks one rule of the protocol in a real game (by patching its state class for
the duration of the test) and expects :func:`check_game` to name the broken invariant.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kartentisch.core.errors import IllegalActionError
from kartentisch.core.registry import load_game
from kartentisch.testing import ConformanceError, Depth, check_game
from kartentisch.testing.cards import count_cards
from kartentisch.testing.determinism import Case, play_digest

GAME = "krass-kariert"
FAST = Depth(every=3, illegal=4, sweeps=1, sample=200, seat_checks=1, worlds=1)


def _state_class() -> type[Any]:
    return type(load_game(GAME, 3).new_initial_state(1))


def _broken(*invariants: str) -> None:
    """The run fails on one of ``invariants`` (several checks may see the same fault)."""
    with pytest.raises(ConformanceError) as caught:
        check_game(GAME, 3, games=1, seed=5, depth=FAST)
    assert caught.value.invariant in invariants, str(caught.value)
    assert caught.value.where["game"] == GAME
    assert "seed" in caught.value.where and "ply" in caught.value.where


def test_a_clone_sharing_lists_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_state_class(), "clone", lambda self: copy.copy(self))
    # Moving a clone (to try a legal move) moves the original too.
    _broken("clone", "apply-legal")


def test_a_card_vanishing_from_the_document_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    cls = _state_class()
    original = cls.to_json

    def leaky(self: Any) -> dict[str, Any]:
        doc: dict[str, Any] = original(self)
        if self.history and doc["draw_pile"]:  # from the second position on
            doc["draw_pile"] = doc["draw_pile"][1:]
        return doc

    monkeypatch.setattr(cls, "to_json", leaky)
    _broken("cards-conserved")


def test_an_illegal_id_in_the_legal_list_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    cls = _state_class()
    original = cls.legal_action_ids

    def padded(self: Any) -> tuple[int, ...]:
        ids: tuple[int, ...] = original(self)
        extra = next(a for a in range(self.game.num_distinct_actions)
                     if a not in ids and not self.is_legal_id(a))
        return (*ids, extra) if ids else ids

    monkeypatch.setattr(cls, "legal_action_ids", padded)
    _broken("is-legal-id", "legal-actions")


def test_an_error_without_a_known_reason_code_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def vague(self: Any, action: Any) -> IllegalActionError:
        return IllegalActionError("no", code="made.up")

    monkeypatch.setattr(_state_class(), "why_illegal", vague)
    _broken("apply-illegal")


def test_an_observation_showing_hidden_cards_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    cls = _state_class()
    original = cls.observation

    class Leaky:
        def __init__(self, inner: Any, secret: Any) -> None:
            self.inner = inner
            self.secret = secret
            self.seat = inner.seat
            self.current_player = inner.current_player

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        def to_json(self) -> dict[str, Any]:
            return {**self.inner.to_json(), "secret": self.secret}

    def observation(self: Any, seat: Any) -> Any:
        obs = original(self, seat)
        return Leaky(obs, self.to_json()["draw_pile"]) if seat is not None else obs

    monkeypatch.setattr(cls, "observation", observation)
    with pytest.raises(ConformanceError) as caught:
        check_game(GAME, 3, games=1, seed=5, depth=FAST)
    # The first leak that shows: a world dealt again from the observation looks different.
    assert caught.value.invariant == "sample-world", str(caught.value)


def test_counting_cards_finds_every_card_of_a_deal() -> None:
    for name, players, deck in (("krass-kariert", 4, 54), ("casino", 2, 52),
                                ("krumme20", 3, 54)):
        state = load_game(name, players).new_initial_state(3)
        assert sum(count_cards(name, state.to_json()).values()) == deck


def test_the_determinism_digest_depends_on_the_seed_only() -> None:
    one = play_digest(Case(GAME, 3, {}, 7))
    assert play_digest(Case(GAME, 3, {}, 7)) == one
    assert play_digest(Case(GAME, 3, {}, 8)) != one
