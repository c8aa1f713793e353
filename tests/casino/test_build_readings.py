"""Casino's readings of the rulebook about builds: option ``raising`` (each value), option
``build_without_capture`` (both values) and the decision where the text names one case (a
build on several loose cards). Each test names the rulebook's words it reads."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kartentisch.core.errors import InvalidPositionError
from kartentisch.games.casino import Build, Capture, Casino, CasinoState, Trail
from kartentisch.games.casino.cards import parse_card

from .conftest import cards, refusal

C = parse_card
Setup = Callable[..., CasinoState]

EIGHT_OF_TWO_AND_SIX = (8, "2h 6c", 1, 9)
"""A single build of 8 (2 and 6), owned by the opponent."""
CALL_OF_EIGHTS = (8, "2d 6d 8c", 1, 8)
"""A multiple build (a call) of 8: 2 and 6, and a loose 8."""


def raises(state: CasinoState) -> list[Build]:
    return [a for a in state.legal_actions() if isinstance(a, Build) and a.raised]


def test_single_is_the_default() -> None:
    assert Casino(2).options.raising == "single"


# "bleibt auf dem Ausgangswert", "kann von keinem Spieler erhöht werden": with
# raising=none no build is ever raised.
@pytest.mark.parametrize("build", [EIGHT_OF_TWO_AND_SIX, CALL_OF_EIGHTS])
def test_none_raises_no_build(setup: Setup, build: tuple[int, str, int, int]) -> None:
    state = setup(options={"raising": "none"}, hands=["Ac 9d 8h 8s", "8d Kd"],
                  builds=[build])
    assert raises(state) == []
    error = refusal(state, Build(C("Ac"), 9, (), 8))
    assert error.code == "casino.no_raising"
    # "bleibt auf dem Ausgangswert": joining keeps the value, so it is still allowed
    join = Build(C("8h"), 8, (), 0, True)
    assert join in state.legal_actions()
    state.apply(join)
    assert list(state.builds) == [8] and state.builds[8].owner == 0


# An ace added "zu einer gebildeten 8" makes "eine gebildete 9": with raising=single (the
# default) a single build is raised ...
@pytest.mark.parametrize("options", [{}, {"raising": "single"}])
def test_single_raises_a_single_build(setup: Setup, options: dict[str, str]) -> None:
    state = setup(options=options, hands=["Ac 9d", "8d Kd"], builds=[EIGHT_OF_TWO_AND_SIX])
    assert raises(state) == [Build(C("Ac"), 9, (), 8)]
    state.apply(Build(C("Ac"), 9, (), 8))
    assert list(state.builds) == [9] and not state.builds[9].multiple


# ... and a multiple build never ("kann von keinem Spieler erhöht werden" read for calls).
def test_single_never_raises_a_multiple_build(setup: Setup) -> None:
    state = setup(options={"raising": "single"}, hands=["Ac 9d", "8d Kd"],
                  builds=[CALL_OF_EIGHTS])
    assert raises(state) == []
    assert refusal(state, Build(C("Ac"), 9, (), 8)).code == "casino.multiple_not_raised"


# "eine gebildete 9" out of "einer gebildeten 8", read for every combination: with
# raising=any a call is raised too. It becomes a build of the new value, taken whole by that value.
def test_any_raises_a_call(setup: Setup) -> None:
    state = setup(options={"raising": "any"}, hands=["Ac 9d 3s", "8d Kd Qd"],
                  builds=[CALL_OF_EIGHTS])
    assert raises(state) == [Build(C("Ac"), 9, (), 8)]
    state.apply(Build(C("Ac"), 9, (), 8))
    unit = state.builds[9]
    assert list(state.builds) == [9] and unit.owner == 0 and unit.multiple
    assert unit.cards == tuple(sorted(cards("2d 6d 8c Ac")))
    # an 8 takes it no more: the build's value is 9
    assert Capture(C("8d"), (), 8) not in state.legal_actions()
    state.apply(Trail(C("Kd")))
    state.apply(Capture(C("9d"), (), 9))
    assert sorted(state.captured[0]) == sorted(cards("2d 6d 8c Ac 9d"))


def test_any_raises_a_single_build_and_a_raised_call_joins_a_standing_build(
        setup: Setup) -> None:
    state = setup(options={"raising": "any"}, hands=["Ac 9d", "8d Kd"],
                  builds=[CALL_OF_EIGHTS, (9, "4c 5c", 1, 8)])
    merge = Build(C("Ac"), 9, (), 8, True)
    assert raises(state) == [merge]
    state.apply(merge)
    assert list(state.builds) == [9]
    assert state.builds[9].cards == tuple(sorted(cards("2d 6d 8c Ac 4c 5c")))
    single = setup(options={"raising": "any"}, hands=["Ac 9d", "8d Kd"],
                   builds=[EIGHT_OF_TWO_AND_SIX])
    assert raises(single) == [Build(C("Ac"), 9, (), 8)]


def test_a_raised_call_is_a_position_only_with_any(setup: Setup) -> None:
    """A position document keeps a raised call (its cards no longer form groups of its
    value); under the other readings such a build cannot arise and is refused."""
    state = setup(options={"raising": "any"}, hands=["Ac 9d 3s", "8d Kd Qd"],
                  builds=[CALL_OF_EIGHTS], deck="")
    state.apply(Build(C("Ac"), 9, (), 8))
    doc = state.to_json()
    again = state.game.state_from_json(doc)
    assert again.to_json() == doc
    for reading in ("single", "none"):
        other = dict(doc, options={**doc["options"], "raising": reading})
        with pytest.raises(InvalidPositionError, match="do not form groups of 9"):
            Casino(2, {"raising": reading}).state_from_json(other)


# Decision: a build combines the card "mit einer Karte in der Mitte", one loose card; the
# text also lets "Mehrere Karten aus der Mitte" be added for a capture and gathered into a
# call, so a build may take several loose cards.
def test_a_build_may_take_several_loose_cards(setup: Setup) -> None:
    state = setup(hands=["2h 8s", "Kc Kd"], loose="3c 3d")
    build = Build(C("2h"), 8, (C("3c"), C("3d")))
    assert build in state.legal_actions()
    state.apply(build)
    assert state.builds[8].cards == tuple(sorted(cards("2h 3c 3d")))
    assert not state.builds[8].multiple


# Decision: "Kann ein Spieler keine Karte nehmen", he must trail ("nachziehen"), read as
# "trails when nothing else is possible": the text's own build example (a 2 onto a 6,
# holding an 8) takes nothing, so a player who cannot capture may build instead.
@pytest.mark.parametrize("options", [{}, {"build_without_capture": True}])
def test_a_player_who_cannot_capture_may_build(setup: Setup, options: dict[str, bool]) -> None:
    state = setup(options=options, hands=["2h 8s", "Kc Kd"], loose="6c")
    legal = state.legal_actions()
    assert not any(isinstance(a, Capture) for a in legal)
    assert Build(C("2h"), 8, (C("6c"),)) in legal
    assert {Trail(C("2h")), Trail(C("8s"))} <= set(legal)


# The same sentence read literally (build_without_capture=false): "Kann ein Spieler keine
# Karte nehmen", he "muss" trail, and has no other move ...
def test_literally_a_player_who_cannot_capture_must_trail(setup: Setup) -> None:
    state = setup(options={"build_without_capture": False}, hands=["Ah 2h 8s", "Kc Kd"],
                  loose="6c", builds=[(7, "3d 4d", 1, 9)])
    assert state.legal_actions() == [Trail(C("Ah")), Trail(C("2h")), Trail(C("8s"))]
    for build in (Build(C("2h"), 8, (C("6c"),)), Build(C("Ah"), 8, (), 7)):  # build, raise
        assert build in setup(hands=["Ah 2h 8s", "Kc Kd"], loose="6c",
                              builds=[(7, "3d 4d", 1, 9)]).legal_actions()
        error = refusal(state, build)
        assert error.code == "casino.must_trail" and error.params["legal"] == [
            state.game.format_action(Trail(build.card))]


# ... while a player who can capture may still build instead.
def test_literally_a_player_who_can_capture_may_still_build(setup: Setup) -> None:
    state = setup(options={"build_without_capture": False}, hands=["2h 8s", "Kc Kd"],
                  loose="6c 2d")
    legal = state.legal_actions()
    assert Capture(C("2h"), (C("2d"),)) in legal
    assert Build(C("2h"), 8, (C("6c"),)) in legal
