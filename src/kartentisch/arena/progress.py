"""Progress bar columns for long runs: elapsed time and a steady estimate of the time left.

Rich's own estimate averages the speed over the last 30 seconds of updates; with results
arriving in chunks of varying size it jumps about, and it shows nothing until enough samples
are in. :class:`EtaColumn` uses the run's average instead (games done per second since the
first results, so the workers' start-up does not count), which settles within a few
results, and prints long durations in days.
"""

from __future__ import annotations

from rich.progress import ProgressColumn, Task
from rich.text import Text

from kartentisch.locale import _


def format_duration(seconds: float) -> str:
    """``1:02:03`` for an hour and more, ``2:03`` below; days as ``3d 04:05:06``.

    >>> format_duration(3723), format_duration(59.6), format_duration(3 * 86400 + 14706)
    ('1:02:03', '1:00', '3d 4:05:06')
    """
    total = round(seconds)
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}:{minutes:02d}:{secs:02d}"
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def estimate_left(completed: float, total: float | None, elapsed: float | None) -> float | None:
    """Seconds left at the run's average speed so far; ``None`` before the first result.

    >>> estimate_left(25, 100, 10.0), estimate_left(0, 100, 3.0), estimate_left(5, None, 1.0)
    (30.0, None, None)
    """
    if not completed or total is None or not elapsed:
        return None
    return max(0.0, (total - completed) * elapsed / completed)


class ElapsedColumn(ProgressColumn):
    """Time since the start."""

    def render(self, task: Task) -> Text:
        return Text(format_duration(task.elapsed or 0.0), style="progress.elapsed")


class EtaColumn(ProgressColumn):
    """Time left at the average speed since the first finished games ("left 1:23").

    The clock starts at the first result, so the workers' start-up does not count as
    playing time (it would make the first estimates far too long)."""

    def __init__(self) -> None:
        super().__init__()
        self.first: dict[int, tuple[float, float]] = {}
        """Per task: (elapsed, completed) when the first games were in."""

    def render(self, task: Task) -> Text:
        if task.finished:
            return Text("")
        elapsed = task.elapsed or 0.0
        left = None
        if task.completed:
            start_elapsed, start_done = self.first.setdefault(
                int(task.id), (elapsed, task.completed))
            if task.completed > start_done:
                left = estimate_left(task.completed - start_done,
                                     None if task.total is None else task.total - start_done,
                                     elapsed - start_elapsed)
        if left is None:
            return Text(_("left: estimating"), style="progress.remaining")
        return Text(_("left {time}").format(time=format_duration(left)),
                    style="progress.remaining")
