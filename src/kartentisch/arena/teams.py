"""Teams in the arena: which bots form a team, rotations that keep them together, team results.

A game's teams come from its descriptor (:attr:`GameDescriptor.teams
<kartentisch.core.descriptor.GameDescriptor.teams>`): the seats of each team, team 0 first,
``()`` when every seat plays alone. The arena maps bots to teams like this:

- ``--bots a,b`` with as many bots as teams (and fewer than seats): bot ``a`` plays every
  seat of team 0, ``b`` every seat of team 1, and so on (the members are told apart as
  ``a``, ``a#2`` ...);
- one bot per seat: the bots are seated in order, so the bots in team 0's seats form the
  first team (with teams sitting alternately, ``--bots a,b,c,d`` makes ``a`` and ``c``
  partners);
- a single bot sits in every seat, as in any game.

A *team* of the report is such a set of bots, which stays together all run: the schedule
plays only the seat rotations that move every team onto a team's seats
(:func:`team_rotations`), so a rotation moves whole teams and never splits partners. With
teams sitting alternately (4 players: seats 0 and 2 against 1 and 3) that is every rotation,
so every bot still plays every deal from every seat.

A team's return in a game is the mean of its seats' returns; a team *wins* when that is the
highest and not every team's is equal, and *loses* when it is the lowest under the same
condition (:func:`kartentisch.arena.stats.outcome_flags` on the teams' returns). The bots'
own rows (and their openskill ratings) stay as in any game: each seat's return for its bot,
so partners that share a team's return rank equal in a game.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kartentisch.arena.stats import Shares, outcome_flags

Teams = tuple[tuple[int, ...], ...]


def team_letter(index: int) -> str:
    """The letter naming team ``index`` (``0`` is ``A``), as the table's page names it.

    >>> team_letter(0), team_letter(2)
    ('A', 'C')
    """
    return string.ascii_uppercase[index % 26]


def team_of_seats(teams: Teams, players: int) -> list[int]:
    """The team of every seat (``teams`` must hold every seat exactly once)."""
    owner = [-1] * players
    for index, seats in enumerate(teams):
        for seat in seats:
            if not 0 <= seat < players or owner[seat] != -1:
                raise ValueError(f"teams {teams} do not split seats 0..{players - 1}")
            owner[seat] = index
    if -1 in owner:
        raise ValueError(f"teams {teams} leave a seat of 0..{players - 1} out")
    return owner


def team_rotations(teams: Teams, players: int) -> list[int]:
    """The seat shifts that move every team onto a team's seats (0 always; every shift
    when nobody plays in a team).

    >>> team_rotations(((0, 2), (1, 3)), 4)
    [0, 1, 2, 3]
    >>> team_rotations(((0, 1), (2, 3)), 4)
    [0, 2]
    """
    if not teams:
        return list(range(players))
    team_of_seats(teams, players)  # checks the partition
    shapes = {frozenset(seats) for seats in teams}
    return [shift for shift in range(players)
            if all(frozenset((s + shift) % players for s in seats) in shapes
                   for seats in teams)]


def team_lineup(lineup: Sequence[str], teams: Teams, players: int) -> list[str]:
    """One bot per seat: a lineup of one bot per team is spread over each team's seats;
    any other lineup comes back as it is (the caller checks its length)."""
    if teams and len(lineup) == len(teams) and len(lineup) not in (1, players):
        owner = team_of_seats(teams, players)
        return [lineup[owner[seat]] for seat in range(players)]
    return list(lineup)


def team_returns(returns: Sequence[float], teams: Teams) -> list[float]:
    """Each team's return in one game: the mean of its seats' returns."""
    return [sum(returns[s] for s in seats) / len(seats) for seats in teams]


@dataclass(slots=True)
class TeamStats(Shares):
    """One team's results over a run: the bots (entrant labels) that form it."""

    index: int
    bots: tuple[str, ...]
    seats: tuple[int, ...]
    """The team's seats in the first game of every group (the lineup as given)."""
    games: int = 0
    wins: int = 0
    losses: int = 0
    total_return: float = 0.0

    @property
    def name(self) -> str:
        """``Team A`` ... as the report prints it (the letter is what the page shows)."""
        return team_letter(self.index)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (no timings: a team's moves are its bots')."""
        return {"team": self.name, "index": self.index, "bots": list(self.bots),
                "seats": list(self.seats), "games": self.games, "wins": self.wins,
                "losses": self.losses, "win_share": self.win_share,
                "win_interval": list(self.win_interval), "loss_share": self.loss_share,
                "loss_interval": list(self.loss_interval), "mean_return": self.mean_return}


class TeamTally:
    """Counts every game's team results by the teams of bots formed in the lineup."""

    def __init__(self, teams: Teams, labels: Sequence[str]):
        self.teams = teams
        self.stats = [TeamStats(index, tuple(labels[s] for s in seats), tuple(seats))
                      for index, seats in enumerate(teams)]
        self._team_of_label = {labels[s]: index for index, seats in enumerate(teams)
                               for s in seats}

    def add(self, labels_by_seat: Sequence[str], returns: Sequence[float]) -> None:
        """Count one game: ``labels_by_seat`` says which entrant sat where."""
        values = team_returns(returns, self.teams)
        won, lost = outcome_flags(values)
        for slot, seats in enumerate(self.teams):
            formed = {self._team_of_label[labels_by_seat[s]] for s in seats}
            if len(formed) != 1:  # the schedule keeps teams together: a bug if not
                raise AssertionError(f"seats {seats} hold bots of teams {sorted(formed)}")
            st = self.stats[formed.pop()]
            st.games += 1
            st.wins += won[slot]
            st.losses += lost[slot]
            st.total_return += values[slot]


__all__ = ["TeamStats", "TeamTally", "Teams", "team_letter", "team_lineup", "team_of_seats",
           "team_returns", "team_rotations"]
