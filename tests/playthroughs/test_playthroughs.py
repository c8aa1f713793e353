"""Golden playthroughs: every stored game regenerates byte for byte.

A difference means the rules, an observation, the notation or the action ids changed. If
the change is deliberate, regenerate the files and commit them with it::

    python -m kartentisch.testing.playthrough --write
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kartentisch.core.registry import list_games
from kartentisch.testing.playthrough import PLAYTHROUGHS, Playthrough, differences

HERE = Path(__file__).parent
MAX_BYTES = 300 * 1024


@pytest.mark.parametrize("spec", PLAYTHROUGHS, ids=lambda s: s.filename)
def test_the_playthrough_regenerates_identically(spec: Playthrough) -> None:
    assert (HERE / spec.filename).exists(), (
        f"{spec.filename} is missing: python -m kartentisch.testing.playthrough --write")
    diffs = differences(HERE, [spec])
    assert not diffs, "\n".join(diffs)


def test_every_game_has_playthroughs_of_modest_size() -> None:
    assert {s.game for s in PLAYTHROUGHS} == set(list_games())
    for spec in PLAYTHROUGHS:
        path = HERE / spec.filename
        assert path.stat().st_size < MAX_BYTES, f"{spec.filename} is too large"
