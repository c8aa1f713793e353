"""Win and loss shares with Wilson intervals, seconds per move, and openskill ratings.

A seat *wins* a game when its return is the highest and not everybody's return is equal;
it *loses* when its return is the lowest under the same condition (a draw is neither).
Several seats can share a win or a loss (Krass Kariert can have several losers).
Intervals treat games as independent, which duplicate deals make slightly conservative.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MOVE_SAMPLE = 100_000
"""At most this many move timings are kept per bot (a uniform sample beyond it)."""


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a share.

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def outcome_flags(returns: Sequence[float]) -> tuple[list[bool], list[bool]]:
    """Per seat: (won, lost) as defined in the module docstring."""
    high, low = max(returns), min(returns)
    if math.isclose(high, low):
        return [False] * len(returns), [False] * len(returns)
    return ([math.isclose(r, high) for r in returns], [math.isclose(r, low) for r in returns])


class Shares:
    """Win and loss shares with their Wilson intervals, and the mean return, of anything
    that counts ``games``, ``wins``, ``losses`` and ``total_return`` (a bot, a team)."""

    __slots__ = ()
    games: int
    wins: int
    losses: int
    total_return: float

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def loss_share(self) -> float:
        return self.losses / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def loss_interval(self) -> tuple[float, float]:
        return wilson_interval(self.losses, self.games)

    @property
    def mean_return(self) -> float:
        return self.total_return / self.games if self.games else 0.0


@dataclass(slots=True)
class BotStats(Shares):
    """One entrant's results."""

    label: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    total_return: float = 0.0
    move_seconds: list[float] = field(default_factory=list)
    """Seconds per move: every move's, or a uniform sample of :data:`MOVE_SAMPLE` of them
    in a long run (so that memory does not grow with the number of games)."""
    mu: float = 0.0
    sigma: float = 0.0
    moves: int = 0
    """Moves timed (all of them, also those left out of the sample)."""
    slowest: float = 0.0
    """The longest move's seconds (exact, also in a long run)."""
    _sampler: random.Random = field(default_factory=lambda: random.Random(0), repr=False)

    def add_moves(self, seconds: Sequence[float]) -> None:
        """Count these moves' timings (reservoir sampling beyond :data:`MOVE_SAMPLE`)."""
        sample = self.move_seconds
        for value in seconds:
            self.moves += 1
            if value > self.slowest:
                self.slowest = value
            if len(sample) < MOVE_SAMPLE:
                sample.append(value)
            else:
                slot = self._sampler.randrange(self.moves)
                if slot < MOVE_SAMPLE:
                    sample[slot] = value

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    @property
    def median_move_seconds(self) -> float:
        return statistics.median(self.move_seconds) if self.move_seconds else 0.0

    @property
    def max_move_seconds(self) -> float:
        return max(self.slowest, max(self.move_seconds, default=0.0))

    def to_json(self, *, timings: bool = True) -> dict[str, Any]:
        """A JSON-ready summary (timings can be left out to compare runs exactly)."""
        data: dict[str, Any] = {
            "label": self.label, "games": self.games, "wins": self.wins, "losses": self.losses,
            "win_share": self.win_share, "win_interval": list(self.win_interval),
            "loss_share": self.loss_share, "loss_interval": list(self.loss_interval),
            "mean_return": self.mean_return, "mu": self.mu, "sigma": self.sigma,
            "ordinal": self.ordinal,
        }
        if timings:
            data["median_move_seconds"] = self.median_move_seconds
            data["max_move_seconds"] = self.max_move_seconds
            data["moves"] = max(self.moves, len(self.move_seconds))
        return data


class Ratings:
    """Plackett–Luce ratings (openskill), updated one game at a time in game-index order.

    ``model.rate`` copies every rating it is given (a new object with a fresh ``uuid4``
    each) and checks its arguments at every call; for an arena of short games that cost as
    much as a tenth of playing them. :meth:`update` therefore does what ``rate`` does for
    one player per team and scores (sigma widened by tau, ranks from the scores, teams in
    rank order, openskill's own ``_compute``, the original order back) on this object's own
    rating objects, updated in place. The results are the same numbers: checked against
    ``rate`` when the object is made (and by the tests); should the private parts of
    openskill differ in another version, ``rate`` is used as before.
    """

    def __init__(self, labels: Sequence[str]):
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings = {label: self.model.rating(name=label) for label in labels}
        self._fast = _fast_rating_matches(self.model)

    def update(self, labels_by_seat: Sequence[str], returns: Sequence[float]) -> None:
        """Rate one game: a higher return ranks higher; equal returns tie."""
        if self._fast and len(set(labels_by_seat)) == len(labels_by_seat):
            _rate_in_place(self.model, [[self.ratings[label]] for label in labels_by_seat],
                           list(returns))
            return
        teams = [[self.ratings[label]] for label in labels_by_seat]
        rated = self.model.rate(teams, scores=list(returns))
        for label, team in zip(labels_by_seat, rated, strict=True):
            self.ratings[label] = team[0]

    def mu_sigma(self, label: str) -> tuple[float, float]:
        r = self.ratings[label]
        return float(r.mu), float(r.sigma)


def _rate_in_place(model: Any, teams: list[list[Any]], scores: list[float]) -> None:
    """``model.rate(teams, scores=scores)`` for teams of one player each, without copying:
    the players' ratings are updated in place (see :class:`Ratings`)."""
    from openskill.models.weng_lin.common import _unwind

    tau_squared = model.tau * model.tau
    for team in teams:
        player = team[0]
        player.sigma = math.sqrt(player.sigma * player.sigma + tau_squared)
    ranks = model._calculate_rankings(teams, [-s for s in scores])
    ordered, _order = _unwind(ranks, teams)
    ordered_scores, _ = _unwind(ranks, scores)
    model._compute(teams=ordered, ranks=sorted(ranks), scores=ordered_scores)
    if model.limit_sigma:  # pragma: no cover - Ratings makes its model without it
        raise AssertionError("limit_sigma needs the old ratings: use model.rate")


def _fast_rating_matches(model: Any) -> bool:
    """Whether :func:`_rate_in_place` gives exactly ``model.rate``'s numbers (a few games
    with wins, losses and ties, three and two players); ``False`` also when openskill's
    private parts are not what it expects."""
    if model.limit_sigma or model.tau <= 0:
        return False
    games = [[3.0, -1.0, -2.0], [0.5, 0.5, -1.0], [-1.0, 2.0, -1.0], [0.0, 0.0, 0.0],
             [1.0, -1.0], [-2.0, 2.0]]
    try:
        ours = [model.rating(name=str(i)) for i in range(3)]
        theirs = [model.rating(name=str(i)) for i in range(3)]
        for scores in games:
            seats = range(len(scores))
            _rate_in_place(model, [[ours[i]] for i in seats], list(scores))
            rated = model.rate([[theirs[i]] for i in seats], scores=list(scores))
            for i in seats:
                theirs[i] = rated[i][0]
            if any(ours[i].mu != theirs[i].mu or ours[i].sigma != theirs[i].sigma
                   for i in range(3)):
                return False
    except Exception:  # another openskill: fall back to its public rate()
        return False
    return True
