"""The conformance suite: every registered game, at every player count and option value.

Each variant plays seeded random games under every invariant of the game protocol (see
:mod:`kartentisch.testing.conformance`). Quick counts by default; ``KARTENTISCH_SOAK=1``
plays many more games, checks more plies and compares more interpreters.
"""

from __future__ import annotations

import os

import pytest

from kartentisch.core.registry import list_games
from kartentisch.core.rng import derive_seed
from kartentisch.testing import QUICK, SOAK, Variant, check_game, variants
from kartentisch.testing.determinism import HASH_SEEDS, Case, check_across_processes

SOAKING = os.environ.get("KARTENTISCH_SOAK") == "1"
GAMES = 25 if SOAKING else 1
DEPTH = SOAK if SOAKING else QUICK
SEED = 20_26

VARIANTS = [v for name in list_games() for v in variants(name)]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.label)
def test_variant_keeps_every_invariant(variant: Variant) -> None:
    report = check_game(variant.game, variant.players, variant.options_dict, games=GAMES,
                        seed=derive_seed(SEED, variant.label), depth=DEPTH)
    assert report.games == GAMES
    assert report.actions > 0
    assert report.thorough_plies >= GAMES


def test_games_replay_identically_in_interpreters_with_other_hash_seeds() -> None:
    """Legal lists, moves and final positions may depend on nothing but seed and moves
    (not on set order, which ``PYTHONHASHSEED`` changes)."""
    per_variant = 4 if SOAKING else 1
    cases = [Case(v.game, v.players, v.options_dict, derive_seed(SEED, "det", v.label, k))
             for v in VARIANTS for k in range(per_variant)]
    check_across_processes(cases, HASH_SEEDS if SOAKING else HASH_SEEDS[:1])


def test_every_option_value_and_player_count_is_covered() -> None:
    from kartentisch.core.registry import game_class
    from kartentisch.testing.variants import option_values

    for name in list_games():
        spec = game_class(name).spec
        covered = variants(name)
        assert {v.players for v in covered if not v.options} == set(
            range(spec.min_players, spec.max_players + 1))
        flipped = {pair for v in covered for pair in v.options}
        assert flipped == set(option_values(name))
        # one option at a time, or two where one applies only beside the other
        for v in covered:
            assert len(v.options) <= 1 or (
                len(v.options) == 2 and not _allowed(name, v.options_dict)), v.label


def _allowed(game: str, options: dict[str, object]) -> bool:
    """Whether each of ``options`` alone is allowed at some player count."""
    from kartentisch.core.errors import InvalidOptionsError
    from kartentisch.core.registry import game_class

    cls = game_class(game)
    spec = cls.spec
    for name, value in options.items():
        for n in range(spec.min_players, spec.max_players + 1):
            try:
                cls(n, {name: value})
            except InvalidOptionsError:
                continue
            break
        else:
            return False
    return True
