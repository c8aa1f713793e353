"""Who sits where in which game, and every seed: all derived from the master seed alone.

Games come in *groups* of one game per seat rotation. With duplicate deals (the default)
all games of a group share one deal seed, and rotation ``r`` seats entrant
``(seat - r) mod n`` in ``seat``: every entrant plays every deal from every seat, so the
luck of the cards cancels out between bots. A team game uses only the rotations that move
whole teams onto teams (:func:`kartentisch.arena.teams.team_rotations`; for teams sitting
alternately that is every rotation), so teammates stay teammates in every game of a run.
Seeds depend only on the master seed and the game index, never on scheduling, so any
backend and worker count give identical games. Every seed comes from
:func:`kartentisch.core.rng.derive_seed`, the one derivation of the package: deal
``derive_seed(master, "deal", group)`` (``index`` without duplicate deals), the bot in
``seat`` of game ``index`` ``derive_seed(master, "bot", index, seat)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from kartentisch.core.rng import derive_seed


def parse_lineup(text: str) -> list[str]:
    """Split ``"ismcts,heuristic*3"`` into one bot spec per entrant. A count of more than
    three digits is no count (no game seats a thousand players): the part is then kept whole
    and refused as a bot spec, instead of a list of 10^10 entries being built.

    >>> parse_lineup("ismcts, heuristic*3")
    ['ismcts', 'heuristic', 'heuristic', 'heuristic']
    >>> parse_lineup("random*10000000000")
    ['random*10000000000']
    """
    lineup: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, star, count = part.rpartition("*")
        if star and count.strip().isdigit() and len(count.strip()) <= 3:
            lineup.extend([name.strip()] * int(count))
        else:
            lineup.append(part)
    if not lineup:
        raise ValueError("no bots given; e.g. --bots ismcts,heuristic*3")
    return lineup


def entrant_labels(lineup: list[str]) -> list[str]:
    """Unique labels: repeated specs get ``#2``, ``#3`` ...

    >>> entrant_labels(["ismcts", "heuristic", "heuristic"])
    ['ismcts', 'heuristic', 'heuristic#2']
    """
    seen: dict[str, int] = {}
    labels = []
    for spec in lineup:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


@dataclass(frozen=True, slots=True)
class Seating:
    """One game's schedule entry."""

    index: int
    group: int
    rotation: int
    """The seat shift: entrant ``e`` sits in seat ``(e + rotation) mod n``."""
    deal_seed: int
    entrants: tuple[int, ...]
    """Entrant index (into the lineup) by seat."""
    bot_seeds: tuple[int, ...]
    """Each seat's bot seed."""


def rounded_games(group: int, games: int) -> int:
    """``games`` rounded up to whole groups of seat rotations (``group`` games each: the
    player count, or a team game's rotations that keep its teams)."""
    return -(-games // group) * group


def iter_schedule(master: int, players: int, games: int, *, duplicate: bool = True,
                  rotations: Sequence[int] | None = None) -> Iterator[Seating]:
    """The seating of games ``0 .. games-1`` one at a time (``games`` is rounded up to whole
    groups): a run of any length starts at once and holds one entry at a time.

    ``rotations``: the seat shifts a group plays, in order (default every one, ``0 .. n-1``;
    a team game passes those that keep its teams together). A group has one game each."""
    shifts = list(range(players)) if rotations is None else list(rotations)
    if not shifts or shifts[0] != 0:
        raise ValueError("a group's rotations start with 0 (the lineup as given)")
    seatings = [tuple((seat - shift) % players for seat in range(players)) for shift in shifts]
    deal_seed = 0
    for index in range(rounded_games(len(shifts), games)):
        group, position = divmod(index, len(shifts))
        if position == 0 or not duplicate:
            deal_seed = derive_seed(master, "deal", group if duplicate else index)
        bot_seeds = tuple(derive_seed(master, "bot", index, seat) for seat in range(players))
        yield Seating(index, group, shifts[position], deal_seed, seatings[position], bot_seeds)


def schedule(master: int, players: int, games: int, *, duplicate: bool = True,
             rotations: Sequence[int] | None = None) -> list[Seating]:
    """The seating of games ``0 .. games-1`` as a list (see :func:`iter_schedule`)."""
    return list(iter_schedule(master, players, games, duplicate=duplicate,
                              rotations=rotations))
