"""A PNG of the ratings (mu with ±2 sigma) and the win/loss shares with 95% intervals."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from kartentisch.core.records import write_atomically

if TYPE_CHECKING:
    from kartentisch.arena.runner import ArenaResult


def plot_result(result: ArenaResult, path: str | Path) -> None:
    """Draw ``result`` into ``path`` (PNG; see :func:`write_file`: a failed write raises
    ``OSError``). Imports matplotlib only when called."""
    write_file(path, plot_png(result))


def write_file(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path``: a regular file atomically (temporary file, fsync, rename),
    anything else (a device, a pipe) directly, never replacing it. Every failure, a full disk
    included, raises ``OSError``."""
    target = Path(path)
    if target.exists() and not target.is_file():
        with open(target, "wb") as file:
            file.write(data)
            file.flush()
        return
    write_atomically(target, data)


def plot_png(result: ArenaResult) -> bytes:
    """The PNG of ``result``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = result.labels
    stats = [result.stats[label] for label in labels]
    ys = list(range(len(labels)))
    fig, (ax_r, ax_s) = plt.subplots(1, 2, figsize=(11, 1.2 + 0.6 * len(labels)))
    ax_r.errorbar([s.mu for s in stats], ys, xerr=[2 * s.sigma for s in stats], fmt="o",
                  capsize=4, label="mu ± 2σ")
    ax_r.scatter([s.ordinal for s in stats], ys, marker="|", s=200, color="black",
                 label="ordinal (mu − 3σ)")
    ax_r.set_yticks(ys, labels)
    ax_r.set_xlabel("openskill rating (Plackett–Luce)")
    ax_r.legend(loc="best", fontsize="small")
    ax_r.grid(axis="x", alpha=0.3)

    height = 0.38
    for offset, name, share, interval, colour in (
        (-height / 2, "won", "win_share", "win_interval", "tab:green"),
        (height / 2, "lost", "loss_share", "loss_interval", "tab:red"),
    ):
        values = [getattr(s, share) for s in stats]
        lows = [v - getattr(s, interval)[0] for v, s in zip(values, stats, strict=True)]
        highs = [getattr(s, interval)[1] - v for v, s in zip(values, stats, strict=True)]
        ax_s.barh([y + offset for y in ys], values, height=height, color=colour, alpha=0.7,
                  xerr=[lows, highs], capsize=3, label=name)
    ax_s.set_yticks(ys, labels)
    ax_s.set_xlim(0, 1)
    ax_s.set_xlabel("share of games (95% Wilson interval)")
    ax_s.legend(loc="best", fontsize="small")
    ax_s.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{result.game}, {result.players} players, {result.games} games, "
                 f"seed {result.seed}")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    return buffer.getvalue()
