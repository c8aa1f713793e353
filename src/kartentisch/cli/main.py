"""The ``kartentisch`` command (typer): play, replay, simulate, rules-options, games.

Help texts follow the locale environment (German when ``LANG`` and friends start with
``de``); every command's output, error messages included, follows ``--lang`` or, without it,
the same environment. Seeds and counts are read by :mod:`kartentisch.cli.arguments` (not by
typer), so that a bad one is refused in the reader's language too; every refusal ends the
command with exit status 2.

The annotations are evaluated when this module is imported (no ``from __future__ import
annotations``), while the environment's language is set, so the options' help is translated.
"""

import contextlib
import errno
import json
import secrets
import sys
import time
from pathlib import Path
from typing import Annotated, Any, Final

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kartentisch.bots import list_bots
from kartentisch.bots.match import BotError
from kartentisch.cli import arguments
from kartentisch.cli.arena import make_arena_command
from kartentisch.cli.arguments import (
    bot_problem,
    explain,
    fail,
    fail_with,
    use_language,
    whole_number,
)
from kartentisch.cli.messages import (
    bot_failure_text,
    format_decimal,
    format_number,
    format_options,
    format_percent,
)
from kartentisch.cli.presenters import load_presenter
from kartentisch.cli.review import make_review_command
from kartentisch.cli.session import (
    HUMAN,
    QUIT_WORDS,
    SaveError,
    SessionResult,
    check_save_path,
    play_session,
)
from kartentisch.core.errors import KartentischError
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import descriptor, game_class, list_games, load_game
from kartentisch.core.rng import SEED_MAX
from kartentisch.locale import _, current_language, ngettext, set_language

_LANGUAGE_BEFORE = current_language()
set_language(None)  # help texts in the environment's language; restored at the end

_OUTPUT_ERRORS: Final = frozenset({errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EDQUOT})
"""Errors of a write to the terminal or a redirected output (a full disk, a closed pipe)."""


class _App(typer.Typer):
    """The command line; a failed write of the output (``kartentisch games > /dev/full``,
    a closed pipe) ends it with one line on stderr and exit status 1, not a traceback.
    Files the commands write themselves report their own errors."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except OSError as error:
            if error.errno not in _OUTPUT_ERRORS:
                raise
            _drop_stdout()
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.write(_("Cannot write the output: {error}").format(
                    error=error.strerror or error) + "\n")
                sys.stderr.flush()
            raise SystemExit(1) from None


app = _App(
    name="kartentisch",
    help=_("Krass Kariert, Casino and Krumme20 in the terminal: play against bots, replay "
           "records, simulate bot matches."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def _show_version(value: bool) -> None:
    if value:  # the version and the core that runs (compiled or pure Python, and why)
        from kartentisch.cli.version import version_line

        use_language(None)
        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_show_version,
        help=_("Show the version and whether the compiled core runs, then exit."))] = False,
) -> None:
    pass


LangOption = Annotated[str | None, typer.Option(
    "--lang", metavar="LANG",
    help=_("Language of the output: de or en (default: from LANG/LC_ALL)."))]
SuitOption = Annotated[bool, typer.Option(
    "--suit-symbols", help=_("Show card suits as symbols (♣ ♦ ♥ ♠) instead of letters."))]
RulesOption = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="KEY=VALUE",
    help=_("A rules option, repeatable; see 'kartentisch rules-options GAME'."))]


def _lineup(bots: str) -> tuple[str, ...]:
    """The bot specs of ``--bots``, comma-separated, ``name*count`` repeated as in ``arena``
    (a count of more than three digits is no count: the spec is then refused as a bot name).

    >>> _lineup("heuristic*2, random"), _lineup("random*x"), _lineup(" ,")
    (('heuristic', 'heuristic', 'random'), ('random*x',), ())
    """
    lineup: list[str] = []
    for part in bots.split(","):
        name, star, count = part.strip().rpartition("*")
        if star and count.strip().isdigit() and len(count.strip()) <= 3:
            lineup.extend([name.strip()] * int(count))
        elif part.strip():
            lineup.append(part.strip())
    return tuple(lineup)


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False)


def _drop_stdout() -> None:
    """After a failed write to stdout: discard what is still buffered, so that Python's
    flush at exit does not print a second error."""
    import os

    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _enable_line_editing() -> None:
    """Arrow keys and history at the prompt, where the platform has readline."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # e.g. Windows without pyreadline
            import readline  # noqa: F401  (importing it is what enables line editing)


def _load_record(file: Path) -> GameRecord:
    """The record in ``file``, checked (not yet replayed); fails with the reason."""
    try:
        return GameRecord.load(file)
    except OSError as error:
        fail(_("Cannot read {file}: {error}").format(file=file, error=error.strerror))
    except KartentischError as error:
        fail_with(error)


@app.command("play", help=_("Play a game against bots in the terminal."))
def play(
    game: Annotated[str, typer.Argument(help=_("The game, e.g. krass-kariert."))],
    seed: Annotated[str | None, typer.Option(
        metavar="SEED", help=_("Seed of the deal (default: random)."))] = None,
    players: Annotated[str | None, typer.Option(metavar="N", help=_("Number of players."))]
    = None,
    seat: Annotated[str, typer.Option(
        metavar="SEAT", help=_("Your seat, counted from 0 (seat 0 deals)."))] = "0",
    bots: Annotated[str | None, typer.Option(
        metavar="SPECS",
        help=_("Bots for the other seats, comma-separated (one name: all of them).")
    )] = None,
    option: RulesOption = None,
    save: Annotated[Path | None, typer.Option(
        metavar="FILE", help=_("Save the game record (JSON) here."))]
    = None,
    delay: Annotated[str | None, typer.Option(
        metavar="SECONDS",
        help=_("Seconds to pause after each bot move (default: 0.4 in a terminal, else 0)."))]
    = None,
    watch: Annotated[bool, typer.Option(
        help=_("Only watch: bots take every seat, shown as a spectator sees them."))] = False,
    suit_symbols: SuitOption = False,
    lang: LangOption = None,
) -> None:
    """Play a game against bots in the terminal."""
    use_language(lang)
    console = _console()
    name = arguments.game_name(game)
    presenter = load_presenter(name)
    presenter.configure(suit_symbols=suit_symbols)
    chosen_seed = None if seed is None else arguments.seed(seed)
    player_count = None if players is None else whole_number(players, "--players")
    seat_number = whole_number(seat, "--seat")
    pause = arguments.delay(delay, default=0.4 * console.is_terminal)
    rules = arguments.rules_options(option)
    default_bot = "heuristic" if "heuristic" in list_bots(name) else "random"
    bot_names = list(_lineup(bots or ""))
    if player_count is not None:
        count = player_count
    elif len(bot_names) > 1:  # the player count follows from the list of bots
        count = len(bot_names) + (0 if watch else 1)
    else:
        count = game_class(name).spec.default_players
    try:
        the_game = load_game(name, count, rules)
    except KartentischError as error:
        fail_with(error, presenter.localize_param)
    if not watch and not 0 <= seat_number < the_game.players:
        fail(_("Seat {seat} does not exist; seats are 0 to {last}.").format(
            seat=seat_number, last=the_game.players - 1))
    others = the_game.players - (0 if watch else 1)
    if len(bot_names) == 1:
        bot_names = bot_names * others
    elif not bot_names:
        bot_names = [default_bot] * others
    if len(bot_names) != others:
        fail(_("{count} bots given for {others} other seats.").format(
            count=len(bot_names), others=others))
    seats: list[str] = list(bot_names)
    if not watch:
        seats.insert(seat_number, HUMAN)
    try:
        for spec in dict.fromkeys(bot_names):
            problem = bot_problem(spec, the_game)
            if problem is not None:
                fail(problem)
    except ImportError:
        if bots is not None:
            fail(_("A bot could not be loaded; try --bots random."))
        console.print(_("The heuristic bot is not available; playing against random bots."))
        seats = ["random" if kind != HUMAN else kind for kind in seats]
    if chosen_seed is None:
        chosen_seed = secrets.randbelow(SEED_MAX + 1)
    seed_value = chosen_seed
    record_path = _prepare_save(save, name, seed_value)
    if watch:
        heading = _("{game} · seed {seed} · watching").format(game=the_game.spec.title,
                                                               seed=seed_value)
    else:
        heading = _("{game} · seed {seed} · you sit in seat {seat}").format(
            game=the_game.spec.title, seed=seed_value, seat=seat_number)
    console.print("[bold]" + escape(heading) + "[/]")
    console.print(escape(_("Bots: {bots}").format(bots=", ".join(
        f"{s}: {kind}" for s, kind in enumerate(seats) if kind != HUMAN))))
    if rules:
        chosen = the_game.options_json()
        console.print(escape(_("Rules options: {options}").format(options=format_options(
            {key: chosen.get(key, value) for key, value in rules.items()}))))
    _enable_line_editing()
    read_line = console.input
    result = play_session(game_name=name, game=the_game, seed=seed_value, seats=seats,
                          presenter=presenter, console=console, read_line=read_line,
                          save=record_path, resume_hint=_resume_command(record_path),
                          keep_unplayed=save is not None,
                          delay=pause)
    _finish(result)


def _prepare_save(save: Path | None, game: str, seed: int) -> Path:
    """The record's path, checked before the first move: ``save`` or a new file in the
    data directory (see :mod:`kartentisch.cli.saves`); fails with exit status 2."""
    from kartentisch.cli import saves

    if save is not None:
        try:
            check_save_path(save)
        except SaveError as error:
            fail(str(error))
        return save
    try:
        path = saves.new_game_path(game, seed)
        check_save_path(path)
    except OSError as error:
        fail(_("Cannot save the record to {path}: {error}").format(
            path=saves.games_directory(), error=error.strerror or error))
    except SaveError as error:
        fail(str(error))
    return path


def _resume_command(path: Path) -> str:
    """The command that continues the game saved in ``path``."""
    import shlex

    from kartentisch.cli.saves import is_in_games_directory

    if is_in_games_directory(path):
        return "kartentisch resume"
    return f"kartentisch resume {shlex.quote(str(path))}"


def _finish(result: SessionResult) -> None:
    """End the command by how the game ended: 0 finished, 1 stopped or a failed save,
    128 + the signal's number when a signal stopped it (as a shell reports it)."""
    if result.signal is not None:
        raise typer.Exit(128 + result.signal)
    if result.save_failed or not result.finished:
        raise typer.Exit(1)


def _choose_saved_game(console: Console, number: int | None) -> Path:
    """An unfinished game from the data directory: listed and asked for (or ``number``)."""
    from kartentisch.cli.saves import games_directory, unfinished_games

    found = unfinished_games()
    if not found:
        console.print(escape(_("No unfinished games in {folder}.").format(
            folder=games_directory())))
        raise typer.Exit(0)
    if number is not None:
        if not 1 <= number <= len(found):
            fail(_("There is no unfinished game {number}; there are {count}.").format(
                number=number, count=len(found)))
        return found[number - 1].path
    table = Table(title=_("Unfinished games"), title_justify="left")
    table.add_column(_("No."), justify="right")
    table.add_column(_("Game"))
    table.add_column(_("Saved"))
    table.add_column(_("Seats"))
    table.add_column(_("Moves"), justify="right")
    for position, saved in enumerate(found, start=1):
        record = saved.record
        table.add_row(str(position), game_class(record.game).spec.title,
                      saved.modified.strftime("%Y-%m-%d %H:%M"),
                      ", ".join(_("you") if kind == HUMAN else kind for kind in record.seats),
                      format_number(len(record.actions)))
    console.print(table)
    while True:
        try:
            answer = console.input(_("Which game? Number (Enter: 1, q: none): ")).strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            raise typer.Exit(1) from None
        if answer.lower() in QUIT_WORDS | {"q"}:
            raise typer.Exit(1)
        chosen = 1 if not answer else (int(answer) if answer.isdigit() and len(answer) < 6
                                       else 0)
        if 1 <= chosen <= len(found):
            return found[chosen - 1].path
        console.print("[red]" + escape(_("Type a number from 1 to {count}.").format(
            count=len(found))) + "[/]")


@app.command("resume", help=_("Continue a saved, unfinished game (without FILE: choose one "
                              "of the games saved in your data directory)."))
def resume(
    file: Annotated[Path | None, typer.Argument(
        help=_("A game record (JSON) saved by play (default: choose from a list)."))] = None,
    save: Annotated[Path | None, typer.Option(
        metavar="FILE", help=_("Save the record here (default: back into FILE)."))] = None,
    seat: Annotated[str | None, typer.Option(
        metavar="SEAT", help=_("Take this seat instead (its bot takes your old one)."))]
    = None,
    game_number: Annotated[str | None, typer.Option(
        "--game", metavar="N", help=_("Without FILE: continue the N-th unfinished game of "
                                      "the list."))] = None,
    delay: Annotated[str | None, typer.Option(
        metavar="SECONDS",
        help=_("Seconds to pause after each bot move (default: 0.4 in a terminal, else 0)."))]
    = None,
    suit_symbols: SuitOption = False,
    lang: LangOption = None,
) -> None:
    """Continue a saved, unfinished game."""
    use_language(lang)
    console = _console()
    seat_number = None if seat is None else whole_number(seat, "--seat")
    number = None if game_number is None else whole_number(game_number, "--game", low=1)
    pause = arguments.delay(delay, default=0.4 * console.is_terminal)
    if file is None:
        file = _choose_saved_game(console, number)
    record = _load_record(file)
    presenter = load_presenter(record.game)
    presenter.configure(suit_symbols=suit_symbols)
    try:
        state = record.replay()
    except KartentischError as error:
        fail_with(error, presenter.localize_param)
    the_game = state.game
    if state.is_terminal():
        fail(_("This game is already over; use replay to see it."))
    seats = list(record.seats)
    if seat_number is not None:
        if not 0 <= seat_number < the_game.players:
            fail(_("Seat {seat} does not exist; seats are 0 to {last}.").format(
                seat=seat_number, last=the_game.players - 1))
        if len(seats) == the_game.players and seats[seat_number] != HUMAN:
            if HUMAN in seats:
                seats[seats.index(HUMAN)] = seats[seat_number]
            seats[seat_number] = HUMAN
    if len(seats) != record.players or seats.count(HUMAN) > 1:
        fail(_("The record must name one human seat and a bot for every other seat."))
    for spec in dict.fromkeys(seats):
        try:
            problem = None if spec == HUMAN else bot_problem(spec, the_game)
        except ImportError:
            problem = _("A bot could not be loaded; try --bots random.")
        if problem is not None:
            fail(problem)
    target = save or file
    try:
        check_save_path(target)
    except SaveError as error:
        fail(str(error))
    if HUMAN in seats:
        heading = _("{game} · seed {seed} · you sit in seat {seat}").format(
            game=the_game.spec.title, seed=record.seed, seat=seats.index(HUMAN))
    else:  # a watched game goes on being watched (--seat N takes a seat in it)
        heading = _("{game} · seed {seed} · watching").format(game=the_game.spec.title,
                                                               seed=record.seed)
    console.print("[bold]" + escape(heading) + "[/]")
    console.print(escape(_("Continuing after move {count}.").format(count=len(record.actions))))
    _enable_line_editing()
    result = play_session(game_name=record.game, game=the_game, seed=record.seed, seats=seats,
                          presenter=presenter, console=console,
                          read_line=console.input, save=target, state=state,
                          events_from=max(0, len(state.events) - 8),
                          resume_hint=_resume_command(target),
                          delay=pause)
    _finish(result)


@app.command("replay", help=_("Show a recorded game move by move."))
def replay(
    file: Annotated[Path, typer.Argument(help=_("A game record (JSON), or JSON Lines of many "
                                                "games."))],
    seat: Annotated[str | None, typer.Option(
        metavar="SEAT", help=_("Show the game as this seat saw it (default: as a spectator).")
    )] = None,
    game_number: Annotated[str | None, typer.Option(
        "--game", metavar="N", help=_("In a file of many games: show the N-th (default: "
                                      "choose from a list)."))] = None,
    step: Annotated[bool, typer.Option(help=_("Wait for Enter before every move."))] = False,
    suit_symbols: SuitOption = False,
    lang: LangOption = None,
) -> None:
    """Show a recorded game move by move."""
    from kartentisch.cli.replay import replay_record

    use_language(lang)
    console = _console()
    viewer = None if seat is None else whole_number(seat, "--seat")
    number = None if game_number is None else whole_number(game_number, "--game", low=1)
    record = _pick_record(file, number, console)
    presenter = load_presenter(record.game)
    presenter.configure(suit_symbols=suit_symbols)
    try:
        replay_record(record, presenter=presenter, console=console, viewer=viewer, step=step,
                      read_line=console.input)
    except KartentischError as error:
        fail_with(error, presenter.localize_param)


def _pick_record(file: Path, number: int | None, console: Console) -> GameRecord:
    """One game of ``file``: its only one, the ``number``-th, or one the user picks from a
    numbered list. Lines that cannot be read are reported (with their file line numbers) and
    skipped; the good games are still offered."""
    from kartentisch.core.records import load_records

    try:
        found = load_records(file)
    except OSError as error:
        fail(_("Cannot read {file}: {error}").format(file=file, error=error.strerror))
    except KartentischError as error:
        fail_with(error)
    warn = _console(stderr=True)
    for problem in found.problems:
        warn.print("[yellow]" + escape(_("Line {line} skipped: {reason}").format(
            line=problem.params.get("line"), reason=explain(problem))) + "[/]")
    games = found.games
    if not games:
        fail(_("{file} holds no readable game.").format(file=file))
    if number is not None:
        if number > len(games):
            fail(ngettext("There is no game {number}; {file} holds {count} game.",
                          "There is no game {number}; {file} holds {count} games.",
                          len(games)).format(number=number, file=file, count=len(games)))
        return games[number - 1][1]
    if len(games) == 1:
        return games[0][1]
    table = Table(title=ngettext("{count} game in {file}", "{count} games in {file}",
                                 len(games)).format(count=len(games), file=file),
                  title_justify="left")
    table.add_column(_("No."), justify="right")
    table.add_column(_("Line"), justify="right")
    table.add_column(_("Game"))
    table.add_column(_("Seed"), justify="right")
    table.add_column(_("Seats"))
    table.add_column(_("Moves"), justify="right")
    for position, (line, record) in enumerate(games, start=1):
        table.add_row(str(position), str(line), game_class(record.game).spec.title,
                      str(record.seed), ", ".join(record.seats),
                      format_number(len(record.actions)))
    console.print(table)
    while True:
        try:
            answer = console.input(_("Which game? Number (q: none): ")).strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            fail(_("Choose a game with --game N (1 to {count}).").format(count=len(games)))
        if answer.lower() in QUIT_WORDS | {"q"}:
            raise typer.Exit(1)
        chosen = int(answer) if answer.isdigit() and len(answer) < 9 else 0
        if 1 <= chosen <= len(games):
            return games[chosen - 1][1]
        console.print("[red]" + escape(_("Type a number from 1 to {count}.").format(
            count=len(games))) + "[/]")


@app.command("simulate", help=_("Let bots play many games and report how often each seat lost."))
def simulate(
    game: Annotated[str, typer.Argument(help=_("The game, e.g. krass-kariert."))],
    bots: Annotated[str, typer.Option(
        metavar="SPECS",
        help=_("One bot per seat, comma-separated; their number is the player count."))],
    games: Annotated[str, typer.Option(metavar="N", help=_("Number of games."))] = "100",
    seed: Annotated[str, typer.Option(
        metavar="SEED", help=_("Base seed; every game's seed derives from it."))] = "0",
    workers: Annotated[str, typer.Option(metavar="N", help=_("Worker processes."))] = "1",
    players: Annotated[str | None, typer.Option(
        metavar="N", help=_("Number of players, when --bots names a single bot for every seat.")
    )] = None,
    option: RulesOption = None,
    rotate: Annotated[bool, typer.Option(
        help=_("Rotate the bots through the seats from game to game; report per bot."))]
    = False,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print the results as JSON."))]
    = False,
    lang: LangOption = None,
) -> None:
    """Let bots play many games and report how often each seat lost."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from kartentisch.cli.simulate import SimulationConfig, run_simulation

    use_language(lang)
    console = _console()
    name = arguments.game_name(game)
    presenter = load_presenter(name)
    game_count = whole_number(games, "--games", low=1)
    base_seed = arguments.seed(seed)
    worker_count = whole_number(workers, "--workers", low=1)
    player_count = None if players is None else whole_number(players, "--players")
    rules = arguments.rules_options(option)
    bot_names = _lineup(bots)
    if not bot_names:
        fail(_("No bots given; e.g. --bots heuristic,random,random."))
    if player_count is not None and len(bot_names) == 1:
        bot_names = bot_names * player_count
    elif player_count is None and len(bot_names) == 1:  # the game's usual player count
        try:
            bot_names = bot_names * load_game(name, None, rules).players
        except KartentischError as error:
            fail_with(error, presenter.localize_param)
    elif player_count is not None and player_count != len(bot_names):
        fail(_("{count} bots given for {players} players.").format(
            count=len(bot_names), players=player_count))
    try:
        the_game = load_game(name, len(bot_names), rules)
    except KartentischError as error:
        fail_with(error, presenter.localize_param)
    for spec in dict.fromkeys(bot_names):
        problem = bot_problem(spec, the_game)
        if problem is not None:
            fail(problem)
    config = SimulationConfig(name, bot_names, base_seed, rules, rotate)
    progress = Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=_console(stderr=True), auto_refresh=False,
                        transient=True)
    try:
        with progress:
            task = progress.add_task(_("Simulating"), total=game_count)

            last_refresh = [0.0]

            def advance(count: int) -> None:
                progress.advance(task, count)
                now = time.monotonic()
                if now - last_refresh[0] > 0.1:  # no refresh thread: throttle by hand
                    progress.refresh()
                    last_refresh[0] = now

            summary = run_simulation(config, game_count, workers=worker_count,
                                     on_progress=advance)
    except BotError as error:  # a bot's bug: which bot failed where, no traceback
        _console(stderr=True).print("[red]" + escape(bot_failure_text(
            error, presenter.localize_param)) + "[/]")
        raise typer.Exit(1) from None
    except KartentischError as error:
        fail_with(error, presenter.localize_param)
    if as_json:
        try:
            sys.stdout.write(json.dumps(summary.to_json(), indent=1) + "\n")
            sys.stdout.flush()
        except OSError as error:  # e.g. > /dev/full: say so, never a false success
            _drop_stdout()
            fail(_("Cannot write the results: {error}").format(error=error.strerror or error))
        return
    table = Table(title=_("{game}: {games} games, seed {seed}").format(
        game=game_class(name).spec.title, games=format_number(summary.games), seed=base_seed),
        title_justify="left")
    headers = [(_("Bot no.") if rotate else _("Seat"), "right"), (_("Bot"), "left"),
               (_("Lost"), "right"), (_("Share lost"), "right"), (_("95% interval"), "right"),
               (_("Mean return"), "right")]
    rows = [[format_number(s.seat), s.bot, format_number(s.losses),
             format_percent(s.lost_share),
             f"{format_percent(s.lost_low)} – {format_percent(s.lost_high)}",
             format_decimal(s.mean_return, 3, sign=True)] for s in summary.seats]
    for column, (header, justify) in enumerate(headers):
        # numbers are never broken; a long header goes onto two lines rather than being cut
        shown = _two_lines(header)
        widest = max([len(line) for line in shown.splitlines()]
                     + [len(row[column]) for row in rows])
        table.add_column(shown, justify=justify,  # type: ignore[arg-type]
                         no_wrap=True, min_width=widest)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    if rotate:
        console.print(_("The bots changed seats from game to game."))
    console.print(_("Actions per game: {mean}").format(
        mean=format_decimal(summary.mean_actions, 1)))
    labels = descriptor(summary.game).stat_labels
    for key, value in summary.stats.items():
        label = _(labels[key]) if key in labels else key
        console.print(f"{escape(label)}: {format_decimal(value, 2)}")
    console.print(ngettext("{rate} games per second ({seconds} s, {workers} worker)",
                           "{rate} games per second ({seconds} s, {workers} workers)",
                           worker_count).format(
        rate=format_decimal(summary.games_per_second, 1),
        seconds=format_decimal(summary.seconds, 1), workers=worker_count))


def _two_lines(header: str, longest: int = 10) -> str:
    r"""A table header longer than ``longest`` broken at its middle space onto two lines, so
    a table fits 80 columns without cutting its headers.

    >>> _two_lines("Share lost"), _two_lines("Mittleres Ergebnis")
    ('Share lost', 'Mittleres\nErgebnis')
    """
    spaces = [i for i, char in enumerate(header) if char == " "]
    if len(header) <= longest or not spaces:
        return header
    middle = min(spaces, key=lambda i: abs(i - len(header) / 2))
    return header[:middle] + "\n" + header[middle + 1:]


@app.command("rules-options",
             help=_("List a game's rules options with their defaults and allowed values."))
def rules_options(
    game: Annotated[str, typer.Argument(help=_("The game, e.g. krass-kariert."))],
    lang: LangOption = None,
) -> None:
    """List a game's rules options with their defaults and allowed values."""
    use_language(lang)
    console = _console()
    name = arguments.game_name(game)
    described = descriptor(name)
    console.print("[bold]" + escape(_("Rules options of {game} (set with -o key=value)").format(
        game=described.game_class.spec.title)) + "[/]")
    for option in described.options():
        console.print(escape(_("{name} = {default}   (allowed: {allowed})").format(
            name=option.name, default=option.default, allowed=option.allowed)))
        console.print("    " + escape(_(option.label)) + (
            ": " + escape(_(option.help)) if option.help else ""))
        for value, word in option.words.items():
            console.print("      " + escape(f"{value}: {_(word)}"))


@app.command("games", help=_("List the games and the bots available for each."))
def games(lang: LangOption = None) -> None:
    """List the games and the bots available for each."""
    use_language(lang)
    console = _console()
    table = Table(title=_("Games"), title_justify="left")
    table.add_column(_("Game"))
    table.add_column(_("Players"))
    table.add_column(_("Bots"))
    for game_name in list_games():
        spec = game_class(game_name).spec
        table.add_row(game_name, f"{spec.min_players}–{spec.max_players}",
                      ", ".join(list_bots(game_name, research=True)))
    console.print(table)


@app.command("serve", help=_("Run the table server: play together in the browser or over "
                             "the websocket protocol."))
def serve(
    host: Annotated[str, typer.Option(help=_("Address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=_("Port to listen on (0: any free port)."))]
    = 8000,
    db: Annotated[str | None, typer.Option(help=_(
        "Database: a file path or sqlite:///PATH, or postgresql://USER@HOST/NAME (default: "
        "an SQLite file in your data directory)."))] = None,
    bot_workers: Annotated[int | None, typer.Option(help=_(
        "Processes in which bots think (default: one per core but one)."))] = None,
    stand_in_pace: Annotated[float | None, typer.Option(min=0, max=60, help=_(
        "Seconds a stand-in takes at least per move of a player who left (default 1.5)."))]
    = None,
    public_url: Annotated[str | None, typer.Option(help=_(
        "The address people use to reach the server (e.g. https://cards.example.org/): "
        "the base of every link it hands out."))] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(help=_(
        "Another site whose pages may use this server (repeatable)."))] = None,
    limit: Annotated[list[str] | None, typer.Option(help=_(
        "Change a limit: NAME=VALUE (repeatable; see docs/security.md)."))] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(help=_(
        "Proxies trusted to name the client's address (default 127.0.0.1)."))] = None,
    secret_file: Annotated[str | None, typer.Option(help=_(
        "The server secret's file, made on first start (default: beside the SQLite file, "
        "or in your data directory)."))] = None,
    lobby_expiry: Annotated[float | None, typer.Option(help=_(
        "Minutes after which an idle table nobody is at leaves the lobby (default: 30)."))]
    = None,
) -> None:
    """Run the table server (see docs/server.md)."""
    from kartentisch.server.run import serve as run_server

    run_server(host=host, port=port, db=db, bot_workers=bot_workers, secret_file=secret_file,
               lobby_expiry=lobby_expiry, stand_in_pace=stand_in_pace, public_url=public_url,
               allow_origins=allow_origin or [], limits=",".join(limit or []),
               forwarded_allow_ips=forwarded_allow_ips)


app.command(
    "arena",
    help=_("Bot matches with rotated seats and duplicate deals; ratings, shares, records, plot."),
)(make_arena_command())


app.command("review", help=_("Review one seat's moves of a finished game with the search "
                              "bot: chance to win, marked moves, the better move."))(
    make_review_command())


def main(argv: list[str] | None = None) -> Any:
    """Run the command line (for ``python -m kartentisch.cli``)."""
    return app(argv)


set_language(_LANGUAGE_BEFORE)  # importing this module leaves the language as it was
