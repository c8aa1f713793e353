"""``kartentisch review RECORD --seat N``: one seat's decisions rated by the search bot.

The review itself is :mod:`kartentisch.review`; this module reads the arguments, shows the
progress, and prints the summary table and the marked moves in the reader's language, each
move in the words the game's presenter uses for it in a game (``--json`` prints the review
document instead).

A move is described by the first line its presenter writes for the move's events, as seen by
the reviewed seat: for the move played, on the real game (what the player saw); for the
bot's move, on worlds dealt anew from the seat's observation, and only when every such world
gives the same line (so the words tell nothing the seat could not know, not even a card a
draw would have brought); otherwise by the presenter's words for the move itself (positions
and seats, e.g. "play personal card 2"), and only for a game without such words as the player
would type it.
"""

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, Final

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from kartentisch.cli.arguments import fail, fail_with, use_language, whole_number
from kartentisch.cli.arguments import seed as read_seed
from kartentisch.cli.messages import format_decimal, format_percent
from kartentisch.cli.presenters import Presenter, load_presenter
from kartentisch.core.errors import KartentischError
from kartentisch.core.protocol import Game, Seat, State
from kartentisch.core.records import GameRecord
from kartentisch.locale import _
from kartentisch.review.budget import BUDGETS, review_budget

WORDS_WORLDS: Final = 3
"""Worlds dealt anew to check that a bot's move reads the same whatever the hidden cards."""

JSON = dict[str, Any]


def _first_line(presenter: Presenter, state: State[Any, Any], start: int, seat: Seat,
                names: Sequence[str]) -> str | None:
    for event in state.events_for(seat, start):
        line = presenter.describe_event(event, viewer=seat, names=names)
        if line:
            return line.strip()
    return None


def move_words(presenter: Presenter, game: Game[Any, Any, Any], state: State[Any, Any],
               seat: Seat, aid: int, names: Sequence[str], *, played: bool) -> str:
    """The move ``aid`` of ``seat`` in ``state`` in the presenter's words (rich markup)."""
    action = game.action_from_id(aid)
    observation = state.observation(seat)
    if played:
        after = state.clone()
        start = len(after.events)
        after.apply_id(aid)
        line = _first_line(presenter, after, start, seat, names)
    else:
        lines = set()
        rng = random.Random(aid)
        for _world in range(WORDS_WORLDS):
            world = game.sample_world(observation, rng)
            start = len(world.events)
            world.apply_id(aid)
            lines.add(_first_line(presenter, world, start, seat, names))
        line = lines.pop() if len(lines) == 1 else None
    if line:
        return line
    words = presenter.move_words(action, names)
    if words:
        return escape(words)
    listed = presenter.describe_moves(observation, [action], game)
    return escape(listed[0] if listed else presenter.move_label(action, observation, game))


def words_of(review: JSON, record: GameRecord, presenter: Presenter) -> dict[int, tuple[str, str]]:
    """For each reviewed decision (by move number): the played and the best move in words."""
    game = record.new_game()
    seat = int(review["seat"])
    names = [_("You") if s == seat else _("Player {seat}").format(seat=s)
             for s in range(record.players)]
    wanted = {e["move"]: e for e in review["decisions"] if "skipped" not in e}
    out: dict[int, tuple[str, str]] = {}
    state = game.new_initial_state(record.seed)
    for index, text in enumerate(record.actions):
        entry = wanted.get(index + 1)
        if entry is not None:
            out[index + 1] = (
                move_words(presenter, game, state, seat, entry["played"]["id"], names,
                           played=True),
                move_words(presenter, game, state, seat, entry["best"]["id"], names,
                           played=False))
        state.apply(game.parse_action(text, state))
    return out


def mark_words(mark: str | None) -> str:
    """A mark in the reader's language."""
    if mark == "mistake":
        return "[bold red]" + escape(_("Mistake")) + "[/]"
    if mark == "inaccuracy":
        return "[yellow]" + escape(_("Inaccuracy")) + "[/]"
    return ""


def summary_table(review: JSON) -> Table:
    """The review's counts as a two-column table."""
    s = review["summary"]
    table = Table(title=_("Summary"), title_justify="left", show_header=False)
    table.add_column()
    table.add_column(justify="right")
    won = s["won"]
    rows = [
        (_("Your decisions"), str(s["decisions"])),
        (_("Reviewed"), str(s["reviewed"])),
        (_("Forced or obvious (not reviewed)"), str(s["forced"] + s["obvious"])),
        (_("Same move as the bot"), str(s["agreed"])),
        (_("Inaccuracies"), str(s["inaccuracies"])),
        (_("Mistakes"), str(s["mistakes"])),
        (_("Average loss of chance to win"), format_percent(s["average_loss"])),
        (_("Result"), _("won") if won else _("not won")),
    ]
    for label, value in rows:
        table.add_row(escape(label), escape(value))
    return table


def moves_table(review: JSON, words: dict[int, tuple[str, str]], *, every: bool) -> Table:
    """The marked moves (``every``: every reviewed move) with the bot's move beside them."""
    title = _("Every reviewed move") if every else _("Marked moves")
    table = Table(title=title, title_justify="left")
    table.add_column(_("Move"), justify="right")
    table.add_column(_("You played"))
    table.add_column(_("Chance"), justify="right")
    table.add_column(_("The bot's move"))
    table.add_column(_("Chance"), justify="right")
    table.add_column(_("Mark"))
    for entry in review["decisions"]:
        if "skipped" in entry or not (every or entry["mark"]):
            continue
        played, best = words[entry["move"]]
        same = entry["best"]["id"] == entry["played"]["id"]
        table.add_row(str(entry["move"]), played, format_percent(entry["played"]["chance"]),
                      escape(_("the same")) if same else best,
                      format_percent(entry["best"]["chance"]), mark_words(entry["mark"]))
    return table


def print_review(console: Console, review: JSON, record: GameRecord, presenter: Presenter,
                 *, every: bool) -> None:
    """The review in the reader's language: a header, the summary and the moves."""
    game = record.new_game()
    console.print("[bold]" + escape(_("Review of seat {seat}: {game} · {players} players · "
                                      "seed {seed}").format(
        seat=review["seat"], game=game.spec.title, players=record.players,
        seed=record.seed)) + "[/]")
    console.print(escape(_("Chance to win estimated by the ismcts bot from what you knew at "
                           "each move (review seed {seed}).").format(
        seed=review["review_seed"])))
    console.print(summary_table(review))
    marked = any(e.get("mark") for e in review["decisions"])
    if not marked and not every:
        console.print(escape(_("No move is marked: well played.")))
        return
    console.print(moves_table(review, words_of(review, record, presenter), every=every))
    console.print("[dim]" + escape(_(
        "Inaccuracy: {inaccuracy} or more chance to win lost; mistake: {mistake} or more; "
        "only where the loss is at least {z} times its statistical error.").format(
        inaccuracy=format_percent(review["thresholds"]["inaccuracy"], 0),
        mistake=format_percent(review["thresholds"]["mistake"], 0),
        z=format_decimal(review["thresholds"]["z"], 0))) + "[/]")


def make_review_command() -> Callable[..., None]:
    """The ``review`` command, with its help texts in the current language."""
    from kartentisch.cli.main import LangOption, _console, _load_record

    def review_command(
        file: Annotated[Path, typer.Argument(help=_("A finished game's record (JSON)."))],
        seat: Annotated[str, typer.Option(
            "--seat", metavar="SEAT", help=_("The seat whose moves are reviewed."))],
        as_json: Annotated[bool, typer.Option(
            "--json", help=_("Print the review as JSON (see docs/review.md)."))] = False,
        every: Annotated[bool, typer.Option(
            "--all", help=_("List every reviewed move, not only the marked ones."))] = False,
        seed: Annotated[str, typer.Option(
            "--seed", metavar="SEED", help=_("The review's seed (the same seed gives the "
                                             "same review)."))] = "0",
        budget: Annotated[str, typer.Option(
            "--budget", metavar="NAME", help=_("How hard the bot searches: full, or fast "
                                               "for a quick, rough look."))] = "full",
        workers: Annotated[str, typer.Option(
            "--workers", "-w", metavar="N", help=_("Parallel worker processes."))] = "2",
        lang: LangOption = None,
    ) -> None:
        """Review one seat's moves of a finished game with the search bot."""
        from kartentisch.review import review_record

        use_language(lang)
        console = _console()
        reviewed = whole_number(seat, "--seat", low=0)
        count = whole_number(workers, "--workers", low=1)
        review_seed = read_seed(seed)
        if budget not in BUDGETS:
            fail(_("--budget is one of: {choices}; not {value!r}.").format(
                choices=", ".join(BUDGETS), value=budget))
        record = _load_record(file)
        presenter = load_presenter(record.game)
        err = _console(stderr=True)
        try:
            with Progress(TextColumn("{task.description}"), BarColumn(),
                          MofNCompleteColumn(), console=err, transient=True,
                          disable=as_json or not err.is_terminal) as bar:
                task = bar.add_task(escape(_("Reviewing")), total=None)
                review = review_record(
                    record, reviewed, seed=review_seed, budget=review_budget(budget),
                    workers=count,
                    progress=lambda done, total: bar.update(task, completed=done, total=total))
        except KartentischError as error:
            fail_with(error, presenter.localize_param)
        if as_json:
            typer.echo(json.dumps(review, indent=1, ensure_ascii=False))
            return
        print_review(console, review, record, presenter, every=every)

    return review_command
