"""The progress bar's time left: the run's average speed, readable at any length."""

from __future__ import annotations

from rich.progress import Progress

from kartentisch.arena.progress import EtaColumn, estimate_left, format_duration


def test_time_left_from_the_average_speed() -> None:
    assert estimate_left(0, 100, 5.0) is None  # nothing finished yet: no guess
    assert estimate_left(10, 100, 5.0) == 45.0
    assert estimate_left(100, 100, 5.0) == 0.0
    assert estimate_left(1, None, 1.0) is None


def test_durations_stay_readable_from_seconds_to_years() -> None:
    assert format_duration(0) == "0:00"
    assert format_duration(61) == "1:01"
    assert format_duration(3600) == "1:00:00"
    assert format_duration(10**9 / 150) == "77d 3:51:07"  # 10^9 games at 150 per second


def test_the_column_says_estimating_until_a_game_is_done() -> None:
    with Progress(EtaColumn(), auto_refresh=False, disable=True) as bar:
        job = bar.add_task("games", total=1000)
        task = bar.tasks[0]
        assert "estimating" in str(EtaColumn().render(task))
        column = EtaColumn()
        bar.advance(job, 10)
        assert "estimating" in str(column.render(bar.tasks[0]))  # the clock starts now
        bar.advance(job, 10)
        assert "left " in str(column.render(bar.tasks[0]))
