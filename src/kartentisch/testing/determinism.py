"""Determinism across processes: the same seed and moves give the same game everywhere.

A game must not depend on anything but its seed and its moves: not on the order of a
``set`` (which changes with ``PYTHONHASHSEED``), object ids, the clock or a global random
generator. :func:`check_across_processes` plays games in this interpreter and in fresh
ones with other hash seeds and compares a digest of every legal list on the way and of
the final position.

Run as a module it reads a JSON list of cases on standard input and prints their digests::

    echo '[{"game": "casino", "players": 2, "options": {}, "seed": 1}]' | \\
        PYTHONHASHSEED=7 python -m kartentisch.testing.determinism
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kartentisch.core.registry import load_game
from kartentisch.core.rng import random_words

HASH_SEEDS: Final = ("0", "4242")
"""The ``PYTHONHASHSEED`` values of the other interpreters."""


@dataclass(frozen=True, slots=True)
class Case:
    """One game: variant and seed. Moves are chosen from the seed by :func:`play_digest`."""

    game: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        """The case as JSON (for the other interpreter)."""
        return {"game": self.game, "players": self.players, "options": dict(self.options),
                "seed": self.seed}


def play_digest(case: Case, max_plies: int = 100_000) -> str:
    """Play ``case`` with moves picked by words derived from its seed; a digest of the game.

    The digest covers every legal id list (order included), every chosen id and the final
    position document with its returns.
    """
    game = load_game(case.game, case.players, case.options)
    state = game.new_initial_state(case.seed)
    digest = hashlib.sha256()
    ply = 0
    words = random_words(case.seed, ("determinism",), 256)
    while not state.is_terminal() and ply < max_plies:
        ids = state.legal_action_ids()
        if ply and ply % len(words) == 0:
            words = random_words(case.seed, ("determinism", ply), 256)
        aid = ids[words[ply % len(words)] % len(ids)]
        digest.update(repr(ids).encode())
        digest.update(b"/%d;" % aid)
        state.apply_id(aid)
        ply += 1
    final = {"position": state.to_json(), "returns": list(state.returns()), "plies": ply}
    digest.update(json.dumps(final, sort_keys=True).encode())
    return digest.hexdigest()


def digests(cases: Sequence[Case]) -> list[str]:
    """:func:`play_digest` of each case, in this interpreter."""
    return [play_digest(c) for c in cases]


def digests_in_process(cases: Sequence[Case], hash_seed: str, timeout: float = 600) -> list[str]:
    """:func:`play_digest` of each case in a fresh interpreter with ``PYTHONHASHSEED``."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    result = subprocess.run(
        [sys.executable, "-m", "kartentisch.testing.determinism"],
        input=json.dumps([c.to_json() for c in cases]), capture_output=True, text=True,
        env=env, timeout=timeout, check=False)
    if result.returncode != 0:
        raise AssertionError(f"the determinism subprocess failed:\n{result.stderr[-2000:]}")
    out: list[str] = json.loads(result.stdout)
    return out


def check_across_processes(cases: Sequence[Case],
                           hash_seeds: Sequence[str] = HASH_SEEDS) -> None:
    """Raise ``ConformanceError`` unless every interpreter plays every case identically."""
    from kartentisch.testing.errors import ConformanceError

    here = digests(cases)
    for hash_seed in hash_seeds:
        there = digests_in_process(cases, hash_seed)
        for case, mine, theirs in zip(cases, here, there, strict=True):
            if mine != theirs:
                raise ConformanceError(
                    "determinism",
                    f"the game differs in an interpreter with PYTHONHASHSEED={hash_seed}",
                    case.to_json())


def main() -> int:
    """Read cases (JSON) from standard input, print their digests (JSON)."""
    raw = json.load(sys.stdin)
    cases = [Case(c["game"], c["players"], c.get("options", {}), c["seed"]) for c in raw]
    json.dump(digests(cases), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
