"""The compiled core and the batch loops: same results as the reference loops, never stale.

Runs in both modes of ``make test`` (pure Python, and with the compiled core built by
``make compiled``); the staleness test needs a compiled build and says so when skipped.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kartentisch
from kartentisch import _native, load_game
from kartentisch.bots.playout import Rollout, RolloutPolicy, playout, random_games, search_hooks


def reference_games(game: object, seeds: range, rng: random.Random) -> tuple[list[list[float]],
                                                                           int]:
    """The plain protocol loop the batch path must match move for move."""
    results, actions = [], 0
    for seed in seeds:
        state = game.new_initial_state(seed)  # type: ignore[attr-defined]
        while not state.is_terminal():
            ids = state.legal_action_ids()
            state.apply_unchecked(ids[rng.randrange(len(ids))])
            actions += 1
        results.append(list(state.returns()))
    return results, actions


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_match_the_reference_loop(players: int) -> None:
    game = load_game("krass-kariert", players)
    fast_rng, ref_rng = random.Random(7), random.Random(7)
    assert random_games(game, range(12), fast_rng) == reference_games(game, range(12), ref_rng)
    assert fast_rng.random() == ref_rng.random()  # the same draws, no more, no fewer


@pytest.mark.parametrize("kind", [Rollout.RANDOM, Rollout.HEURISTIC])
def test_engine_playouts_match_the_generic_loop(kind: Rollout) -> None:
    game = load_game("krass-kariert", 4)
    hooks = search_hooks(game)
    assert hooks.run_playout is not None
    slow_hooks = hooks.__class__(hooks.evaluate, hooks.horizon_key, hooks.search_candidates,
                                 hooks.rollout_action, None)
    for seed in range(6):
        start = game.new_initial_state(seed)
        for _ in range(seed * 7):  # some positions inside a deal
            start.apply_unchecked(start.legal_action_ids()[0])
        for cap in (None, 5):
            fast = RolloutPolicy(game, kind, random.Random(seed), hooks=hooks)
            slow = RolloutPolicy(game, kind, random.Random(seed), hooks=slow_hooks)
            a, b = start.clone(), start.clone()
            assert playout(game, a, fast, hooks, cap) == playout(game, b, slow, slow_hooks, cap)
            assert a.to_json() == b.to_json()
            assert fast.steps == slow.steps
            assert fast.rng.random() == slow.rng.random()


def _run(code: str, pythonpath: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != _native.PURE_ENV}
    environment.update(PYTHONPATH=str(pythonpath), **env)
    return subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True,
                          text=True, env=environment, timeout=120, check=True)


PROBE = ("import kartentisch, kartentisch.games.krass_kariert.state as s;"
         "print(kartentisch.compiled, s.__file__.endswith('.py'),"
         " getattr(s, 'EDITED', False))")


def test_pure_mode_can_be_forced() -> None:
    src = Path(kartentisch.__file__).parent.parent
    done = _run(PROBE, src, KARTENTISCH_PURE="1")
    assert done.stdout.split() == ["False", "True", "False"]
    assert "not using the compiled core" not in done.stderr


@pytest.mark.skipif(not _native.compiled, reason="needs the compiled core (make compiled)")
def test_an_edited_source_is_never_shadowed_by_its_old_extension(tmp_path: Path) -> None:
    package = Path(kartentisch.__file__).parent
    copy = tmp_path / "kartentisch"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__", "weights",
                                                                 "static"))
    assert _run(PROBE, tmp_path).stdout.split() == ["True", "False", "False"]
    state = copy / "games" / "krass_kariert" / "state.py"
    state.write_text(state.read_text() + "\nEDITED = True\n")
    done = _run(PROBE, tmp_path)
    assert done.stdout.split() == ["False", "True", "True"]  # the edit runs, pure Python
    assert "not using the compiled core" in done.stderr
    assert "kartentisch.games.krass_kariert.state" in done.stderr
    # A dependency's edit counts too (mypyc inlines constants from imported modules).
    state.write_text(state.read_text().replace("\nEDITED = True\n", ""))
    cards = copy / "games" / "krass_kariert" / "cards.py"
    cards.write_text(cards.read_text() + "\n# edited\n")
    done = _run(PROBE, tmp_path)
    assert done.stdout.split() == ["False", "True", "False"]
    assert "kartentisch.games.krass_kariert.cards" in done.stderr
