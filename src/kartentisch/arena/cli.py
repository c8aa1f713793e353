"""The ``kartentisch arena`` command as a function the CLI mounts.

Mount it with ``app.command("arena")(arena_command)``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from kartentisch.core.errors import KartentischError


def _options(pairs: list[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise typer.BadParameter(f"{pair!r}: options look like name=value")
        options[key.strip()] = value.strip()
    return options


def arena_command(
    game: Annotated[str, typer.Argument(help="Game name, e.g. krass-kariert.")],
    bots: Annotated[str, typer.Option(
        "--bots", "-b",
        help="One bot per seat, comma-separated; name*count repeats; "
             "name:key=value sets parameters (ismcts:iterations=200).")],
    games: Annotated[int, typer.Option("--games", "-n", min=1,
                                       help="Games (rounded up to whole seat rotations).")] = 100,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Parallel workers.")] = 1,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Master seed.")] = 0,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Player count (default: number of bots).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Rules option name=value (repeatable).")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Write every game as a JSON Lines record to this file.")] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Write a PNG of ratings and win/loss shares.")] = None,
    summary: Annotated[Path | None, typer.Option(
        "--summary", help="Write the summary as JSON to this file.")] = None,
    backend: Annotated[str, typer.Option(
        "--backend", help="local (multiprocessing) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(
        "--address", help="Ray cluster address to join (default: a local Ray).")] = None,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate/--no-duplicate", help="Replay each deal with the seats rotated.")] = True,
    progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
) -> None:
    """Play many games between bots, with seat rotation and duplicate deals, and rate them."""
    from rich.console import Console
    from rich.table import Table

    from kartentisch.arena.runner import run_arena

    console = Console()
    try:
        result = run_arena(game, bots, games, players=players, options=_options(option),
                           seed=seed, workers=workers, backend=backend, address=address,
                           duplicate=duplicate, progress=progress)
    except (KartentischError, ValueError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    table = Table(title=f"{result.game}, {result.players} players, "
                        f"{len(result.outcomes)} games, seed {seed}")
    for column in ("bot", "rating mu ± sigma", "ordinal", "won (95%)", "lost (95%)",
                   "mean return", "s/move median", "max"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    ranked = sorted(result.labels, key=lambda label: -result.stats[label].ordinal)
    for label in ranked:
        st = result.stats[label]
        wl, wh = st.win_interval
        ll, lh = st.loss_interval
        table.add_row(
            label, f"{st.mu:.2f} ± {st.sigma:.2f}", f"{st.ordinal:.2f}",
            f"{st.win_share:.1%} [{wl:.1%}, {wh:.1%}]",
            f"{st.loss_share:.1%} [{ll:.1%}, {lh:.1%}]",
            f"{st.mean_return:+.3f}", f"{st.median_move_seconds:.3f}",
            f"{st.max_move_seconds:.3f}")
    console.print(table)
    console.print(f"{result.seconds:.1f} s wall time")
    if out is not None:
        result.write_jsonl(out)
        console.print(f"records: {out}")
    if summary is not None:
        summary.write_text(json.dumps(result.summary(), indent=1) + "\n", encoding="utf-8")
        console.print(f"summary: {summary}")
    if plot is not None:
        from kartentisch.arena.plot import plot_result

        plot_result(result, plot)
        console.print(f"plot: {plot}")


def main() -> None:  # pragma: no cover - convenience entry point
    """Run the arena command on its own (``python -m kartentisch.arena.cli``)."""
    typer.run(arena_command)


if __name__ == "__main__":  # pragma: no cover
    main()
