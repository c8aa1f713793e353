"""Golden playthroughs: whole seeded games written out move by move, kept in the repository.

A playthrough (as OpenSpiel keeps them) shows, for every move of a game, each seat's
observation, the spectator's, the legal actions (ids and notation) and the action taken;
at the end the returns and the revealed position. A test regenerates every file and
compares: any change in the rules, the observations, the notation or the action ids shows
up as a readable difference, which is either a bug or a deliberate change to be committed
with the regenerated files.

To keep the files small, an observation after the first move lists only what changed
since that seat's previous observation, by dotted path (``"table.loose"``, ``"hands.2.0"``;
``"plays.+"`` holds entries appended to a list, ``"-field"`` marks a field that vanished);
the first one is complete. Moves are chosen from the game's seed by
:func:`kartentisch.core.rng.random_words`, the same on every platform.

Regenerate (from the repository root) after a deliberate change::

    python -m kartentisch.testing.playthrough --write

and check without writing (exit status 1 when a file differs)::

    python -m kartentisch.testing.playthrough --check
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from kartentisch.core.registry import load_game
from kartentisch.core.rng import random_words


@dataclass(frozen=True, slots=True)
class Playthrough:
    """One golden game: the variant, the seed and the file's number."""

    game: str
    number: int
    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def filename(self) -> str:
        """``<game>-<number>.txt``."""
        return f"{self.game}-{self.number}.txt"


PLAYTHROUGHS: Final[tuple[Playthrough, ...]] = (
    Playthrough("casino", 1, 2, 11),
    Playthrough("casino", 2, 4, 12, {"partnerships": True, "sweeps": True}),
    Playthrough("casino", 3, 3, 13, {"count_out": True, "trail_ban": "while_build_stands"}),
    Playthrough("krass-kariert", 1, 3, 21),
    Playthrough("krass-kariert", 2, 3, 22, {"x_with_x": True,
                                            "next_leader_fallback": "right_neighbour"}),
    Playthrough("krumme20", 1, 3, 31),
    Playthrough("krumme20", 2, 2, 32, {"peek_own": True, "end": "immediate"}),
    Playthrough("krumme20", 3, 4, 33, {"deck": "doubles", "target": 10}),
    # the team variant: six players in three teams of two (seats 0+3, 1+4, 2+5)
    Playthrough("krumme20", 4, 6, 35, {"teams": "pairs", "target": 10}),
)
"""Every golden game, a few per game; a new one gets the next number of its game."""


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _diff(old: object, new: object, path: str, out: dict[str, Any]) -> None:
    """Record in ``out`` how ``new`` differs from ``old``, by dotted path."""
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, f"{path}{key}.", out)
            else:
                out[f"{path}{key}"] = value
        for key in old:
            if key not in new:
                out[f"-{path}{key}"] = None
        return
    if isinstance(old, list) and isinstance(new, list):
        if len(new) > len(old) and new[: len(old)] == old:
            out[f"{path}+"] = new[len(old):]  # entries appended
            return
        if len(new) == len(old):
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                _diff(a, b, f"{path}{index}.", out)
            return
    out[path.rstrip(".") or "."] = new


def _changes(previous: dict[str, Any] | None, current: dict[str, Any]) -> dict[str, Any]:
    """``current`` whole (the first time), else only what changed since ``previous``.

    >>> _changes({"a": [1], "b": {"c": 2, "d": 3}}, {"a": [1, 5], "b": {"c": 2, "d": 4}})
    {'a.+': [5], 'b.d': 4}
    """
    if previous is None:
        return current
    out: dict[str, Any] = {}
    _diff(previous, current, "", out)
    return out


def render(spec: Playthrough) -> str:
    """The playthrough of ``spec`` as text."""
    game = load_game(spec.game, spec.players, spec.options)
    state = game.new_initial_state(spec.seed)
    seats: list[int | None] = [*range(game.players), None]
    lines = [
        f"# kartentisch golden playthrough {spec.filename}",
        "# regenerate: python -m kartentisch.testing.playthrough --write",
        f"game: {spec.game}",
        f"players: {game.players}",
        f"options: {_json(game.options_json())}",
        f"seed: {spec.seed}",
        f"num_distinct_actions: {game.num_distinct_actions}",
    ]
    previous: dict[int | None, dict[str, Any] | None] = dict.fromkeys(seats)
    words = random_words(spec.seed, ("playthrough",), 4096)
    ply = 0

    def observe() -> None:
        for seat in seats:
            document = state.observation(seat).to_json()
            label = "spectator" if seat is None else str(seat)
            lines.append(f"observation[{label}]: {_json(_changes(previous[seat], document))}")
            previous[seat] = document

    while not state.is_terminal():
        lines.append("")
        lines.append(f"ply {ply}: seat {state.current_player} to move")
        observe()
        ids = state.legal_action_ids()
        lines.append(f"legal: {_json(list(ids))}")
        lines.append("legal_notation: " + _json(
            [game.format_action(game.action_from_id(a), state) for a in ids]))
        aid = ids[words[ply % len(words)] % len(ids)]
        lines.append(f"action: {aid} {game.format_action(game.action_from_id(aid), state)}")
        state.apply_id(aid, seat=state.current_player)
        ply += 1
    lines.append("")
    lines.append(f"end after {ply} moves")
    observe()
    lines.append(f"returns: {_json(list(state.returns()))}")
    lines.append(f"reveal: {_json(state.reveal())}")
    return "\n".join(lines) + "\n"


def default_directory() -> Path:
    """``tests/playthroughs`` of the source checkout (or of the current directory)."""
    here = Path(__file__).resolve().parents[3] / "tests" / "playthroughs"
    return here if here.is_dir() else Path.cwd() / "tests" / "playthroughs"


def differences(directory: Path, specs: Sequence[Playthrough] = PLAYTHROUGHS) -> list[str]:
    """A unified diff per playthrough file that differs from a regeneration (empty: none)."""
    out = []
    for spec in specs:
        path = directory / spec.filename
        fresh = render(spec)
        stored = path.read_text(encoding="utf-8") if path.exists() else ""
        if fresh != stored:
            diff = difflib.unified_diff(stored.splitlines(), fresh.splitlines(),
                                        f"{spec.filename} (stored)",
                                        f"{spec.filename} (regenerated)", lineterm="", n=1)
            out.append("\n".join(list(diff)[:60]))
    return out


def write(directory: Path, specs: Sequence[Playthrough] = PLAYTHROUGHS) -> list[Path]:
    """Regenerate every playthrough file; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for spec in specs:
        path = directory / spec.filename
        path.write_text(render(spec), encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    """``--write`` regenerates the files, ``--check`` (the default) compares them."""
    parser = argparse.ArgumentParser(prog="python -m kartentisch.testing.playthrough")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="regenerate the files")
    mode.add_argument("--check", action="store_true", help="compare only (the default)")
    parser.add_argument("--dir", type=Path, default=None, help="the playthrough directory")
    args = parser.parse_args(argv)
    directory = args.dir or default_directory()
    if args.write:
        for path in write(directory):
            print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
        return 0
    diffs = differences(directory)
    for diff in diffs:
        print(diff)
    print(f"{len(diffs)} of {len(PLAYTHROUGHS)} playthroughs differ" if diffs
          else f"all {len(PLAYTHROUGHS)} playthroughs match")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
