"""The ``kartentisch`` command (typer): play, replay, simulate, rules-options, games.

Help texts follow the locale environment (German when ``LANG`` and friends start with
``de``); every command's output follows ``--lang`` or, without it, the same environment.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
import time
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kartentisch.arena.cli import arena_command
from kartentisch.bots import list_bots
from kartentisch.cli.presenters import load_presenter
from kartentisch.cli.session import HUMAN, check_seats, play_session
from kartentisch.core.errors import KartentischError
from kartentisch.core.options import describe_options
from kartentisch.core.registry import game_class, list_games, load_game
from kartentisch.locale import LANGUAGES, _, current_language, ngettext, set_language

_LANGUAGE_BEFORE = current_language()
set_language(None)  # help texts in the environment's language; restored at the end

app = typer.Typer(
    name="kartentisch",
    help=_("Krass Kariert, Casino and Krumme20 in the terminal: play against bots, replay "
           "records, simulate bot matches."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

LangOption = Annotated[str | None, typer.Option(
    "--lang", help=_("Language of the output: de or en (default: from LANG/LC_ALL)."))]
RulesOption = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="KEY=VALUE",
    help=_("A rules option, repeatable; see 'kartentisch rules-options GAME'."))]


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False)


def _enable_line_editing() -> None:
    """Arrow keys and history at the prompt, where the platform has readline."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # e.g. Windows without pyreadline
            import readline  # noqa: F401  (importing it is what enables line editing)


def _fail(message: str, console: Console | None = None) -> NoReturn:
    (console or _console(stderr=True)).print("[red]" + escape(message) + "[/]")
    raise typer.Exit(2)


def _use_language(lang: str | None) -> None:
    if lang is not None and lang.strip().lower()[:2] not in LANGUAGES:
        _fail(_("Unknown language {lang!r}; choose one of: {choices}").format(
            lang=lang, choices=", ".join(LANGUAGES)))
    set_language(lang)


def _parse_rules_options(values: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            _fail(_("A rules option is written key=value, not {item!r}").format(item=item))
        options[key.strip()] = value.strip()
    return options


def _game_name(name: str) -> str:
    try:
        return game_class(name).spec.name
    except KartentischError as error:
        _fail(str(error))


@app.command("play", help=_("Play a game against bots in the terminal."))
def play(
    game: Annotated[str, typer.Argument(help=_("The game, e.g. krass-kariert."))],
    seed: Annotated[int | None, typer.Option(help=_("Seed of the deal (default: random)."))]
    = None,
    players: Annotated[int | None, typer.Option(help=_("Number of players."))] = None,
    seat: Annotated[int, typer.Option(help=_("Your seat, counted from 0 (seat 0 deals)."))] = 0,
    bots: Annotated[str | None, typer.Option(
        help=_("Bots for the other seats, comma-separated (one name: all of them)."))] = None,
    option: RulesOption = None,
    save: Annotated[Path | None, typer.Option(help=_("Save the game record (JSON) here."))]
    = None,
    delay: Annotated[float | None, typer.Option(
        help=_("Seconds to pause after each bot move (default: 0.4 in a terminal, else 0)."))]
    = None,
    watch: Annotated[bool, typer.Option(
        help=_("Only watch: bots take every seat, shown as a spectator sees them."))] = False,
    lang: LangOption = None,
) -> None:
    """Play a game against bots in the terminal."""
    _use_language(lang)
    console = _console()
    name = _game_name(game)
    presenter = load_presenter(name)
    default_bot = "heuristic" if "heuristic" in list_bots(name) else "random"
    bot_names = [n.strip() for n in (bots or "").split(",") if n.strip()]
    try:
        if players is not None:
            count = players
        elif len(bot_names) > 1:  # the player count follows from the list of bots
            count = len(bot_names) + (0 if watch else 1)
        else:
            count = game_class(name).spec.default_players
        rules = _parse_rules_options(option)
        the_game = load_game(name, count, rules)
    except KartentischError as error:
        _fail(str(error))
    if not watch and not 0 <= seat < the_game.players:
        _fail(_("Seat {seat} does not exist; seats are 0 to {last}.").format(
            seat=seat, last=the_game.players - 1))
    others = the_game.players - (0 if watch else 1)
    if len(bot_names) == 1:
        bot_names = bot_names * others
    elif not bot_names:
        bot_names = [default_bot] * others
    if len(bot_names) != others:
        _fail(_("{count} bots given for {others} other seats.").format(
            count=len(bot_names), others=others))
    seats: list[str] = list(bot_names)
    if not watch:
        seats.insert(seat, HUMAN)
    try:
        check_seats(seats, the_game)
    except ImportError:
        if bots is not None:
            _fail(_("A bot could not be loaded; try --bots random."))
        console.print(_("The heuristic bot is not available; playing against random bots."))
        seats = ["random" if kind != HUMAN else kind for kind in seats]
    except KartentischError as error:
        _fail(str(error))
    if seed is None:
        seed = secrets.randbelow(2**31)
    if watch:
        heading = _("{game} · seed {seed} · watching").format(game=the_game.spec.title,
                                                               seed=seed)
    else:
        heading = _("{game} · seed {seed} · you sit in seat {seat}").format(
            game=the_game.spec.title, seed=seed, seat=seat)
    console.print("[bold]" + escape(heading) + "[/]")
    console.print(escape(_("Bots: {bots}").format(bots=", ".join(
        f"{s}: {kind}" for s, kind in enumerate(seats) if kind != HUMAN))))
    if rules:
        console.print(escape(_("Rules options: {options}").format(options=", ".join(
            f"{key}={value}" for key, value in sorted(rules.items())))))
    _enable_line_editing()
    read_line = console.input
    result = play_session(game_name=name, game=the_game, seed=seed, seats=seats,
                          presenter=presenter, console=console, read_line=read_line,
                          save=save,
                          delay=delay if delay is not None else 0.4 * console.is_terminal)
    if not result.finished:
        raise typer.Exit(1)


@app.command("resume", help=_("Continue a saved, unfinished game."))
def resume(
    file: Annotated[Path, typer.Argument(help=_("A game record (JSON) saved by play."))],
    save: Annotated[Path | None, typer.Option(
        help=_("Save the record here (default: back into FILE)."))] = None,
    delay: Annotated[float | None, typer.Option(
        help=_("Seconds to pause after each bot move (default: 0.4 in a terminal, else 0)."))]
    = None,
    lang: LangOption = None,
) -> None:
    """Continue a saved, unfinished game with the same seats."""
    from kartentisch.core.records import GameRecord

    _use_language(lang)
    console = _console()
    try:
        record = GameRecord.load(file)
        state = record.replay()
        the_game = state.game
    except OSError as error:
        _fail(_("Cannot read {file}: {error}").format(file=file, error=error.strerror))
    except KartentischError as error:
        _fail(str(error))
    if state.is_terminal():
        _fail(_("This game is already over; use replay to see it."))
    seats = list(record.seats)
    if len(seats) != record.players or seats.count(HUMAN) != 1:
        _fail(_("The record must name one human seat and a bot for every other seat."))
    try:
        check_seats(seats, the_game)
    except (KartentischError, ImportError) as error:
        _fail(str(error))
    console.print("[bold]" + escape(_("{game} · seed {seed} · you sit in seat {seat}").format(
        game=the_game.spec.title, seed=record.seed, seat=seats.index(HUMAN))) + "[/]")
    console.print(escape(_("Continuing after move {count}.").format(count=len(record.actions))))
    _enable_line_editing()
    result = play_session(game_name=record.game, game=the_game, seed=record.seed, seats=seats,
                          presenter=load_presenter(record.game), console=console,
                          read_line=console.input, save=save or file, state=state,
                          events_from=max(0, len(state.events) - 8),
                          delay=delay if delay is not None else 0.4 * console.is_terminal)
    if not result.finished:
        raise typer.Exit(1)


@app.command("replay", help=_("Show a recorded game move by move."))
def replay(
    file: Annotated[Path, typer.Argument(help=_("A game record (JSON)."))],
    seat: Annotated[int | None, typer.Option(
        help=_("Show the game as this seat saw it (default: as a spectator)."))] = None,
    step: Annotated[bool, typer.Option(help=_("Wait for Enter before every move."))] = False,
    lang: LangOption = None,
) -> None:
    """Show a recorded game move by move."""
    from kartentisch.cli.replay import replay_record
    from kartentisch.core.records import GameRecord

    _use_language(lang)
    console = _console()
    try:
        record = GameRecord.load(file)
        replay_record(record, presenter=load_presenter(record.game), console=console,
                      viewer=seat, step=step, read_line=console.input)
    except OSError as error:
        _fail(_("Cannot read {file}: {error}").format(file=file, error=error.strerror))
    except KartentischError as error:
        _fail(str(error))


@app.command("simulate", help=_("Let bots play many games and report how often each seat lost."))
def simulate(
    game: Annotated[str, typer.Argument(help=_("The game, e.g. krass-kariert."))],
    bots: Annotated[str, typer.Option(
        help=_("One bot per seat, comma-separated; their number is the player count."))],
    games: Annotated[int, typer.Option(help=_("Number of games."))] = 100,
    seed: Annotated[int, typer.Option(help=_("Base seed; every game's seed derives from it."))]
    = 0,
    workers: Annotated[int, typer.Option(help=_("Worker processes."))] = 1,
    players: Annotated[int | None, typer.Option(
        help=_("Number of players, when --bots names a single bot for every seat."))] = None,
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

    _use_language(lang)
    console = _console()
    name = _game_name(game)
    bot_names = tuple(n.strip() for n in bots.split(",") if n.strip())
    if players is not None and len(bot_names) == 1:
        bot_names = bot_names * players
    elif players is not None and players != len(bot_names):
        _fail(_("{count} bots given for {players} players.").format(
            count=len(bot_names), players=players))
    config = SimulationConfig(name, bot_names, seed, _parse_rules_options(option), rotate)
    progress = Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=_console(stderr=True), auto_refresh=False,
                        transient=True)
    try:
        with progress:
            task = progress.add_task(_("Simulating"), total=games)

            last_refresh = [0.0]

            def advance(count: int) -> None:
                progress.advance(task, count)
                now = time.monotonic()
                if now - last_refresh[0] > 0.1:  # no refresh thread: throttle by hand
                    progress.refresh()
                    last_refresh[0] = now

            summary = run_simulation(config, games, workers=workers, on_progress=advance)
    except KartentischError as error:
        _fail(str(error))
    if as_json:
        sys.stdout.write(json.dumps(summary.to_json(), indent=1) + "\n")
        return
    presenter = load_presenter(name)
    table = Table(title=_("{game}: {games} games, seed {seed}").format(
        game=game_class(name).spec.title, games=summary.games, seed=seed), title_justify="left")
    table.add_column(_("Bot no.") if rotate else _("Seat"), justify="right")
    table.add_column(_("Bot"))
    table.add_column(_("Lost"), justify="right")
    table.add_column(_("Share lost"), justify="right")
    table.add_column(_("95% interval"), justify="right")
    table.add_column(_("Mean return"), justify="right")
    for s in summary.seats:
        table.add_row(str(s.seat), s.bot, str(s.losses), f"{s.lost_share:.1%}",
                      f"{s.lost_low:.1%} – {s.lost_high:.1%}", f"{s.mean_return:+.3f}")
    console.print(table)
    if rotate:
        console.print(_("The bots changed seats from game to game."))
    console.print(_("Actions per game: {mean:.1f}").format(mean=summary.mean_actions))
    labels = presenter.stat_labels()
    for key, value in summary.stats.items():
        console.print(f"{escape(labels.get(key, key))}: {value:.2f}")
    console.print(ngettext("{rate:.1f} games per second ({seconds:.1f} s, {workers} worker)",
                           "{rate:.1f} games per second ({seconds:.1f} s, {workers} workers)",
                           workers).format(rate=summary.games_per_second,
                                           seconds=summary.seconds, workers=workers))


@app.command("rules-options",
             help=_("List a game's rules options with their defaults and allowed values."))
def rules_options(
    game: Annotated[str, typer.Argument(help=_("The game, e.g. krass-kariert."))],
    lang: LangOption = None,
) -> None:
    """List a game's rules options with their defaults and allowed values."""
    _use_language(lang)
    console = _console()
    name = _game_name(game)
    cls = game_class(name)
    helps = load_presenter(name).option_help()
    console.print("[bold]" + escape(_("Rules options of {game} (set with -o key=value)").format(
        game=cls.spec.title)) + "[/]")
    for option_name, default, allowed in describe_options(cls.options_type):
        console.print(escape(_("{name} = {default}   (allowed: {allowed})").format(
            name=option_name, default=default, allowed=allowed)))
        if option_name in helps:
            console.print("    " + escape(helps[option_name]))


@app.command("games", help=_("List the games and the bots available for each."))
def games(lang: LangOption = None) -> None:
    """List the games and the bots available for each."""
    _use_language(lang)
    console = _console()
    table = Table(title=_("Games"), title_justify="left")
    table.add_column(_("Game"))
    table.add_column(_("Players"))
    table.add_column(_("Bots"))
    for game_name in list_games():
        spec = game_class(game_name).spec
        table.add_row(game_name, f"{spec.min_players}–{spec.max_players}",
                      ", ".join(list_bots(game_name)))
    console.print(table)


app.command(
    "arena",
    help=_("Bot matches with rotated seats and duplicate deals; ratings, shares, records, plot."),
)(arena_command)


def main(argv: list[str] | None = None) -> Any:
    """Run the command line (for ``python -m kartentisch.cli``)."""
    return app(argv)


set_language(_LANGUAGE_BEFORE)  # importing this module leaves the language as it was
