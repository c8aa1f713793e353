"""Wald's sequential probability ratio test for a share with a target (a win or loss rate).

A strength row asks one question: does a bot's share of wins (or losses) lie on the good side
of a target? Stopping "when the confidence interval clears the target" peeks at the interval
after every batch, which inflates the error rates, and it never stops when the true share sits
at the target. The SPRT fixes both: it compares two simple hypotheses a small step ``delta``
either side of the target, stops as soon as the evidence favours one of them at the chosen
error rates, and its expected length is finite even at the target itself.

For a bound ``share <= target`` (losses) the "met" hypothesis is ``target - delta`` and the
"missed" one ``target + delta``; for ``share >= target`` (wins) the other way round. ``alpha``
is the chance of declaring the target met when the share is at the missed hypothesis (or
worse), ``beta`` the chance of declaring it missed when the share is at the met hypothesis
(or better). Shares between the two hypotheses are the indifference zone: either answer is
acceptable there.

Results may arrive in batches (an arena plays many games at once); the log-likelihood ratio
is a sum over games, so a batch adds its counts at once. Checking only at batch ends can
overshoot a boundary a little, which makes the test slightly more conservative, never less.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum


class Decision(Enum):
    """The outcome of a sequential test so far."""

    MET = "met"
    MISSED = "missed"
    UNDECIDED = "undecided"


@dataclass
class ShareSPRT:
    """A sequential test of ``share <= target`` (``upper=True``) or ``share >= target``."""

    target: float
    delta: float
    upper: bool
    alpha: float = 0.05
    beta: float = 0.05
    hits: int = field(default=0, init=False)
    trials: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        if not self.delta > 0.0:
            raise ValueError(f"delta must be positive, not {self.delta!r}")
        if not (self.target - self.delta > 0.0 and self.target + self.delta < 1.0):
            raise ValueError(f"target +- delta must lie inside (0, 1): target {self.target!r}, "
                             f"delta {self.delta!r}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must lie in (0, 0.5), not {value!r}")

    @property
    def p_met(self) -> float:
        """The share under the hypothesis that the target is met with room ``delta``."""
        return self.target - self.delta if self.upper else self.target + self.delta

    @property
    def p_missed(self) -> float:
        """The share under the hypothesis that the target is missed by ``delta``."""
        return self.target + self.delta if self.upper else self.target - self.delta

    @property
    def upper_bound(self) -> float:
        """Declare the target met once the log-likelihood ratio reaches this."""
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def lower_bound(self) -> float:
        """Declare the target missed once the log-likelihood ratio falls to this."""
        return math.log(self.beta / (1.0 - self.alpha))

    def add(self, hits: int, trials: int) -> Decision:
        """Count ``hits`` out of ``trials`` more games and return the decision so far."""
        if not 0 <= hits <= trials:
            raise ValueError(f"need 0 <= hits <= trials, got {hits} of {trials}")
        self.hits += hits
        self.trials += trials
        return self.decision

    @property
    def llr(self) -> float:
        """log(likelihood under "met" / likelihood under "missed") of the counts so far."""
        misses = self.trials - self.hits
        return (self.hits * math.log(self.p_met / self.p_missed)
                + misses * math.log((1.0 - self.p_met) / (1.0 - self.p_missed)))

    @property
    def decision(self) -> Decision:
        """MET or MISSED once a boundary is crossed, UNDECIDED before."""
        llr = self.llr
        if llr >= self.upper_bound:
            return Decision.MET
        if llr <= self.lower_bound:
            return Decision.MISSED
        return Decision.UNDECIDED
