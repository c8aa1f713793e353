"""The sequential test that decides the strength rows (benchmarks/strength.py)."""

from __future__ import annotations

import math
import random

import pytest

from kartentisch.arena.sprt import Decision, ShareSPRT


def run_until_decided(test: ShareSPRT, share: float, rng: random.Random,
                      cap: int = 100_000) -> Decision:
    while test.decision is Decision.UNDECIDED and test.trials < cap:
        test.add(int(rng.random() < share), 1)
    return test.decision


def test_hypotheses_sit_either_side_of_the_target() -> None:
    losses = ShareSPRT(target=0.10, delta=0.03, upper=True)
    assert (losses.p_met, losses.p_missed) == pytest.approx((0.07, 0.13))
    wins = ShareSPRT(target=0.50, delta=0.05, upper=False)
    assert (wins.p_met, wins.p_missed) == pytest.approx((0.55, 0.45))
    assert losses.upper_bound == pytest.approx(math.log(19))
    assert losses.lower_bound == pytest.approx(-math.log(19))


def test_a_clean_run_is_met_at_the_first_game_past_the_boundary() -> None:
    test = ShareSPRT(target=0.10, delta=0.03, upper=True)
    step = math.log(0.93 / 0.87)
    needed = math.ceil(math.log(19) / step)
    assert test.add(0, needed - 1) is Decision.UNDECIDED
    assert test.add(0, 1) is Decision.MET


def test_a_lost_every_game_run_is_missed() -> None:
    test = ShareSPRT(target=0.50, delta=0.05, upper=False)
    assert test.add(0, 10) is Decision.UNDECIDED
    assert test.add(0, 5) is Decision.MISSED


def test_batches_add_up_like_single_games() -> None:
    one = ShareSPRT(target=0.10, delta=0.03, upper=True)
    many = ShareSPRT(target=0.10, delta=0.03, upper=True)
    outcomes = [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    for hit in outcomes:
        one.add(hit, 1)
    many.add(sum(outcomes), len(outcomes))
    assert many.llr == pytest.approx(one.llr)
    assert (many.hits, many.trials) == (3, 12)


@pytest.mark.parametrize("upper", [True, False])
def test_error_rates_hold_at_the_hypotheses(upper: bool) -> None:
    rng = random.Random(7)
    target, delta = (0.10, 0.03) if upper else (0.50, 0.05)
    runs = 400
    proto = ShareSPRT(target=target, delta=delta, upper=upper)
    wrongly_met = sum(
        run_until_decided(ShareSPRT(target, delta, upper), proto.p_missed, rng) is Decision.MET
        for _ in range(runs))
    wrongly_missed = sum(
        run_until_decided(ShareSPRT(target, delta, upper), proto.p_met, rng) is Decision.MISSED
        for _ in range(runs))
    # alpha = beta = 0.05; Wald's bounds keep both rates at or below them (binomial slack).
    assert wrongly_met / runs < 0.08
    assert wrongly_missed / runs < 0.08


def test_it_ends_even_when_the_share_is_exactly_the_target() -> None:
    rng = random.Random(11)
    lengths = []
    for _ in range(50):
        test = ShareSPRT(target=0.10, delta=0.03, upper=True)
        assert run_until_decided(test, 0.10, rng) is not Decision.UNDECIDED
        lengths.append(test.trials)
    assert max(lengths) < 5000


@pytest.mark.parametrize(("kwargs", "word"), [
    ({"target": 0.1, "delta": 0.0, "upper": True}, "delta"),
    ({"target": 0.02, "delta": 0.03, "upper": True}, "inside"),
    ({"target": 0.5, "delta": 0.05, "upper": True, "alpha": 0.6}, "alpha"),
    ({"target": 0.5, "delta": 0.05, "upper": True, "beta": 0.0}, "beta"),
])
def test_bad_parameters_are_refused(kwargs: dict[str, object], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        ShareSPRT(**kwargs)  # type: ignore[arg-type]


def test_bad_counts_are_refused() -> None:
    test = ShareSPRT(target=0.10, delta=0.03, upper=True)
    with pytest.raises(ValueError, match="hits"):
        test.add(3, 2)
    assert (test.hits, test.trials) == (0, 0)
