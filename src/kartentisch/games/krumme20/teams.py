"""Krumme20's team variant: who plays with whom, and what a team has scored.

The rule sheet 2/3 recommends teams for four to six players ("Spielt bei 4 bis 6 Spielern
in der Team-Variante") and leaves the explanation to sheet 3/3, which is not among our
texts; everything here is the project's reconstruction (``docs/rules/krumme20.md``).
Teammates sit alternately, so turns alternate between teams:

* ``pairs``: teams of two; 4 players: seats 0+2 and 1+3; 6 players: 0+3, 1+4 and 2+5;
* ``trios``: 6 players in two teams of three, 0+2+4 and 1+3+5.

Five players cannot be split into equal teams that sit alternately, so no mode allows them.
Plain functions over the option's value and the player count: the state, the observation,
the search, the encodings and the descriptor all read the same answer.
"""

from __future__ import annotations

from typing import Final

TEAM_MODES: Final = ("none", "pairs", "trios")
"""The option ``teams``'s values."""

ALLOWED_PLAYERS: Final[dict[str, tuple[int, ...]]] = {"pairs": (4, 6), "trios": (6,)}
"""The player counts each team mode allows."""

NO_TEAMS: Final[tuple[tuple[int, ...], ...]] = ()
"""Every seat plays alone."""


def team_seats(mode: str, players: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each team, team 0 first (``()`` when everybody plays alone).

    Raises:
        ValueError: ``mode`` does not allow ``players`` (the game's option check refuses
            such a game first, with a reason in words).

    >>> team_seats("pairs", 4)
    ((0, 2), (1, 3))
    >>> team_seats("pairs", 6)
    ((0, 3), (1, 4), (2, 5))
    >>> team_seats("trios", 6)
    ((0, 2, 4), (1, 3, 5))
    """
    if mode == "none":
        return NO_TEAMS
    if players not in ALLOWED_PLAYERS.get(mode, ()):
        raise ValueError(f"team mode {mode!r} does not allow {players} players")
    count = 3 if mode == "pairs" and players == 6 else 2
    return tuple(tuple(range(t, players, count)) for t in range(count))


def team_of(mode: str, players: int) -> list[int]:
    """Each seat's team index; with no teams, each seat is its own team (``[0, 1, ...]``)."""
    teams = team_seats(mode, players)
    if not teams:
        return list(range(players))
    out = [0] * players
    for t, seats in enumerate(teams):
        for s in seats:
            out[s] = t
    return out


def team_points(points: list[int], team: list[int]) -> list[int]:
    """Each team's points: the sum of its members' (``team`` from :func:`team_of`)."""
    out = [0] * (max(team) + 1 if team else 0)
    for s, p in enumerate(points):
        out[team[s]] += p
    return out
