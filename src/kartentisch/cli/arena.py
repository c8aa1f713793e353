"""The ``kartentisch arena`` command as a function the CLI mounts.

Mount it with ``app.command("arena")(make_arena_command())``: the command is built when
called, so its help texts are in the language in use then (the ``kartentisch`` app builds it
in the locale environment's language). :data:`arena_command` is one built at import.
Counts and seeds are read by :mod:`kartentisch.cli.arguments`, and every refusal (bad game,
option, bot spec, count or backend) is printed in the reader's language with exit status 2.
"""

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Annotated, Any, NoReturn

import typer
from rich.console import Console

from kartentisch.core.errors import KartentischError
from kartentisch.locale import _, ngettext


def _check_backend(backend: str) -> None:
    """Fail unless ``backend`` is one the arena has (and, for Ray, is installed)."""
    from kartentisch.cli.arguments import fail

    if backend not in ("local", "ray"):
        fail(_("Unknown backend {backend!r}; use local or ray.").format(backend=backend))
    if backend == "ray":
        try:
            import ray  # noqa: F401  (only whether it is installed matters here)
        except ImportError:
            fail(_("The ray backend needs Ray: pip install 'kartentisch[ray]'"))


def _check_lineup(game_name: str, lineup: list[str], players: int | None,
                  options: dict[str, str]) -> list[str]:
    """Fail unless the game, player count, options and every bot spec go together; the
    lineup with one bot per seat (a single bot sits in every seat, and in a team game one
    bot per team plays all of its seats; without ``--players`` the game's default player
    count is used then: see :func:`kartentisch.arena.runner.make_game`)."""
    from kartentisch.arena.runner import game_teams, make_game
    from kartentisch.arena.teams import team_lineup
    from kartentisch.cli.arguments import bot_problem, fail, fail_with
    from kartentisch.cli.presenters import load_presenter
    from kartentisch.core.registry import load_game

    count = players if players is not None else len(lineup) if len(lineup) > 1 else None
    try:
        game = load_game(game_name, count, options)
    except KartentischError as error:
        try:  # one bot per team, at the game's usual count for these options
            game, _lineup = make_game(game_name, lineup, players, options)
        except KartentischError:
            fail_with(error, load_presenter(game_name).localize_param)
    if len(lineup) == 1:
        lineup = lineup * game.players
    teams = game_teams(game)
    lineup = team_lineup(lineup, teams, game.players)
    if len(lineup) != game.players and teams:
        fail(_("{game} with {players} players in {teams} teams needs one bot per team "
               "({teams}) or one per seat ({players}), not {count}.").format(
                   game=game.spec.title, players=game.players, teams=len(teams),
                   count=len(lineup)))
    if len(lineup) != game.players:
        fail(_("{game} with {players} players needs {players} bots, not {count}; repeat "
               "one with name*count.").format(game=game.spec.title, players=game.players,
                                               count=len(lineup)))
    for spec in dict.fromkeys(lineup):
        try:
            problem = bot_problem(spec, game)
        except ImportError:
            problem = _("A bot could not be loaded; try --bots random.")
        if problem is not None:
            fail(problem)
    return lineup


def _check_output(path: Path | None) -> None:
    """Fail at once unless ``path`` can be written later: not a directory, in a folder that
    exists and is writable, and writable itself when it exists."""
    from kartentisch.cli.arguments import fail

    if path is None:
        return
    if path.is_dir():
        fail(_("Cannot write {path}: it is a directory.").format(path=path))
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        fail(_("Cannot write {path}: the folder {folder} does not exist.").format(
            path=path, folder=folder))
    if path.exists():
        if not os.access(path, os.W_OK):
            fail(_("Cannot write {path}: permission denied.").format(path=path))
    elif not os.access(folder, os.W_OK | os.X_OK):
        fail(_("Cannot write {path}: permission denied.").format(path=path))


def _fail_write(path: Path | None, error: OSError) -> NoReturn:
    """Say that ``path`` could not be written, and exit with status 1."""
    from rich.markup import escape

    message = _("Cannot write {path}: {error}").format(path=path or error.filename,
                                                       error=error.strerror or error)
    Console(stderr=True, highlight=False).print("[red]" + escape(message) + "[/]")
    raise typer.Exit(1)


def _write(path: Path, write: Callable[[Path], None]) -> None:
    try:
        write(path)
    except OSError as error:
        _fail_write(path, error)


def _stopped(console: Console, out: Path | None, games: int, records: IO[str] | None) -> None:
    """Close the records file and say how many finished games it keeps."""
    if records is not None:
        with contextlib.suppress(OSError):
            records.close()
    message = ngettext("Stopped after {games} finished game.",
                       "Stopped after {games} finished games.", games).format(games=games)
    if out is not None:
        message += " " + _("Their records are in {path}.").format(path=out)
    Console(stderr=True, highlight=False).print(message)


def _team_table(result: Any) -> Any:
    """The teams' results: which bots formed each team, its wins and losses (95% Wilson
    intervals) and mean return, best first."""
    from rich.table import Table

    table = Table(title=_("Teams"))
    columns = (_("team"), _("bots"), _("won (95%)"), _("lost (95%)"), _("mean return"))
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index < 2 else "right")
    for team in sorted(result.team_stats, key=lambda team: -team.win_share):
        wl, wh = team.win_interval
        ll, lh = team.loss_interval
        table.add_row(_("Team {letter}").format(letter=team.name), ", ".join(team.bots),
                      f"{team.win_share:.1%} [{wl:.1%}, {wh:.1%}]",
                      f"{team.loss_share:.1%} [{ll:.1%}, {lh:.1%}]",
                      f"{team.mean_return:+.3f}")
    return table


def make_arena_command() -> Callable[..., None]:
    """The ``arena`` command, with its help texts in the current language."""

    def arena_command(
        game: Annotated[str, typer.Argument(help=_("Game name, e.g. krass-kariert."))],
        bots: Annotated[str, typer.Option(
            "--bots", "-b", metavar="SPECS",
            help=_("One bot per seat, comma-separated; name*count repeats; "
                   "name:key=value sets parameters (ismcts:iterations=200). In a team game "
                   "one bot per team plays all of the team's seats."))],
        games: Annotated[str, typer.Option(
            "--games", "-n", metavar="N",
            help=_("Games (rounded up to whole seat rotations)."))] = "100",
        workers: Annotated[str, typer.Option(
            "--workers", "-w", metavar="N", help=_("Parallel workers."))] = "1",
        seed: Annotated[str, typer.Option(
            "--seed", "-s", metavar="SEED", help=_("Master seed."))] = "0",
        players: Annotated[str | None, typer.Option(
            "--players", "-p", metavar="N",
            help=_("Player count (default: the number of bots; for a single bot the game's "
                   "usual count)."))] = None,
        option: Annotated[list[str] | None, typer.Option(
            "--option", "-o", metavar="KEY=VALUE",
            help=_("A rules option, repeatable; see 'kartentisch rules-options GAME'."))]
        = None,
        out: Annotated[Path | None, typer.Option(
            "--out", metavar="FILE",
            help=_("Write every game as a JSON Lines record to this file, each as it "
                   "finishes."))] = None,
        plot: Annotated[Path | None, typer.Option(
            "--plot", metavar="FILE",
            help=_("Write a PNG of ratings and win/loss shares."))] = None,
        summary: Annotated[Path | None, typer.Option(
            "--summary", metavar="FILE",
            help=_("Write the summary as JSON to this file."))] = None,
        backend: Annotated[str, typer.Option(
            "--backend", metavar="NAME", help=_("local (multiprocessing) or ray."))] = "local",
        address: Annotated[str | None, typer.Option(
            "--address", metavar="ADDRESS",
            help=_("Ray cluster address to join (default: a local Ray)."))]
        = None,
        duplicate: Annotated[bool, typer.Option(
            "--duplicate/--no-duplicate", help=_("Replay each deal with the seats rotated."))]
        = True,
        progress: Annotated[bool, typer.Option(
            "--progress/--no-progress",
            help=_("Show a progress bar with games done, time used and time left."))] = True,
        lang: Annotated[str | None, typer.Option(
            "--lang", metavar="LANG",
            help=_("Language of the output: de or en (default: from LANG/LC_ALL)."))]
        = None,
    ) -> None:
        """Play many games between bots, with seat rotation and duplicate deals, and rate
        them."""
        from rich.table import Table

        from kartentisch.arena.plot import write_file
        from kartentisch.arena.pool import SIGINT_EXIT
        from kartentisch.arena.runner import run_arena
        from kartentisch.arena.schedule import parse_lineup
        from kartentisch.bots.match import BotError
        from kartentisch.cli import arguments
        from kartentisch.cli.arguments import fail, fail_with, rules_options, whole_number

        arguments.use_language(lang)
        name = arguments.game_name(game)
        game_count = whole_number(games, "--games", low=1)
        worker_count = whole_number(workers, "--workers", low=1)
        master_seed = arguments.seed(seed)
        player_count = None if players is None else whole_number(players, "--players")
        options = rules_options(option)
        try:
            lineup = parse_lineup(bots)
        except ValueError:
            fail(_("No bots given; e.g. --bots ismcts,heuristic*3."))
        lineup = _check_lineup(name, lineup, player_count, options)
        _check_backend(backend)
        for path in (out, plot, summary):
            _check_output(path)
        console = Console(highlight=False)
        finished = [0]

        def count(outcome: Any) -> None:
            finished[0] += 1

        records = None
        try:
            if out is not None:
                records = open(out, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
            result = run_arena(name, lineup, game_count, players=player_count,
                               options=options, seed=master_seed, workers=worker_count,
                               backend=backend, address=address, duplicate=duplicate,
                               progress=progress, on_outcome=count, out=records, keep=False)
            if records is not None:
                records.close()
        except BotError as error:  # a bot's bug: which bot failed where, no traceback
            from rich.markup import escape

            from kartentisch.cli.messages import bot_failure_text

            Console(stderr=True, highlight=False).print(
                "[red]" + escape(bot_failure_text(error)) + "[/]")
            _stopped(console, out, finished[0], records)
            raise typer.Exit(1) from None
        except KartentischError as error:
            fail_with(error)
        except OSError as error:
            _stopped(console, out, finished[0], None)
            _fail_write(out, error)
        except (KeyboardInterrupt, SystemExit) as stop:
            code = SIGINT_EXIT if isinstance(stop, KeyboardInterrupt) else stop.code
            _stopped(console, out, finished[0], records)
            raise SystemExit(code) from None
        title = ngettext("{game}, {players} players, {games} game, seed {seed}",
                         "{game}, {players} players, {games} games, seed {seed}",
                         result.games)
        table = Table(title=title.format(game=result.game, players=result.players,
                                         games=result.games, seed=master_seed))
        columns = (_("bot"), _("rating mu ± sigma"), _("ordinal"), _("won (95%)"),
                   _("lost (95%)"), _("mean return"), _("s/move median"), _("max"))
        for index, column in enumerate(columns):
            table.add_column(column, justify="left" if index == 0 else "right")
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
        if not console.is_terminal:  # a log file or a pipe: as wide as the table, no name cut
            from rich.measure import Measurement

            wide = Measurement.get(console, console.options.update_width(100_000), table)
            console.width = max(console.width, wide.maximum)
        console.print(table)
        if result.team_stats:
            console.print(_team_table(result))
        console.print(_("{seconds:.1f} s wall time").format(seconds=result.seconds))
        if out is not None:
            console.print(_("Records: {path}").format(path=out))
        if summary is not None:
            text = json.dumps(result.summary(), indent=1) + "\n"
            _write(summary, lambda path: write_file(path, text.encode()))
            console.print(_("Summary: {path}").format(path=summary))
        if plot is not None:
            from kartentisch.arena.plot import plot_result

            _write(plot, lambda path: plot_result(result, path))
            console.print(_("Plot: {path}").format(path=plot))

    return arena_command


arena_command: Callable[..., Any] = make_arena_command()
"""The command, with help texts in the language in use when this module was imported."""


def main() -> None:  # pragma: no cover - convenience entry point
    """Run the arena command on its own (``python -m kartentisch.cli.arena``)."""
    typer.run(make_arena_command())


if __name__ == "__main__":  # pragma: no cover
    main()
