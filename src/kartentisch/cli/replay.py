"""Show a recorded game move by move, as a spectator or as one seat saw it."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from kartentisch.cli.messages import format_options
from kartentisch.cli.presenters import Presenter, seat_name
from kartentisch.cli.session import HUMAN, QUIT_WORDS, ReadLine, show_result
from kartentisch.core.protocol import Seat
from kartentisch.core.records import GameRecord
from kartentisch.locale import _


def replay_names(record: GameRecord, viewer: Seat | None) -> list[str]:
    """Display names for a record's seats: "You" for the viewer, else seat and player kind."""
    names = []
    for seat in range(record.players):
        kind = record.seats[seat] if seat < len(record.seats) else "?"
        if seat == viewer:
            names.append(_("You"))
        elif kind == HUMAN:
            names.append(_("Player {seat}").format(seat=seat))
        else:
            names.append(_("Bot {seat}").format(seat=seat) + f" ({kind})")
    return names


def replay_record(record: GameRecord, *, presenter: Presenter, console: Console,
                  viewer: Seat | None = None, step: bool = False,
                  read_line: ReadLine | None = None) -> bool:
    """Show ``record`` move by move; returns False when the viewer stopped it early.

    ``viewer`` ``None`` shows what a spectator sees; a seat shows that seat's view. With
    ``step`` the table is shown before every move and Enter is awaited (via ``read_line``).

    Raises:
        InvalidSeatError: ``viewer`` is not a seat of the record's game.
        InvalidRecordError: the record does not replay (checked before anything is shown).
    """
    game = record.new_game()
    presenter.use_game(game)
    if viewer is not None:
        game.check_seat(viewer)
    record.replay()  # validate the whole record before showing anything
    state = game.new_initial_state(record.seed)
    names = replay_names(record, viewer)
    console.print("[bold]" + escape(_("{game} · {players} players · seed {seed}").format(
        game=game.spec.title, players=record.players, seed=record.seed)) + "[/]")
    if record.options:
        console.print(escape(_("Rules options: {options}").format(
            options=format_options(record.options))))
    seen = 0

    def show_events() -> None:
        nonlocal seen
        for event in state.events_for(viewer, seen):
            summary = presenter.between_deals(event, state.observation(viewer), names)
            if summary is not None:
                console.print(summary)
            line = presenter.describe_event(event, viewer=viewer, names=names)
            if line is not None:
                console.print(line)
        seen = len(state.events)

    show_events()
    for number, text in enumerate(record.actions, start=1):
        seat = state.current_player
        if step:
            console.print(presenter.render(state.observation(seat if viewer is None else viewer),
                                           viewer=viewer, names=names))
            if read_line is None:
                raise ValueError("step mode needs read_line")
            try:
                answer = read_line(_("Enter: next move · q: stop "))
            except (EOFError, KeyboardInterrupt):
                return False
            if answer.strip().lower() in QUIT_WORDS | {"q"}:
                return False
        # The header names the move's number and player only: the events printed after it
        # say what was played in the players' words (the record's notation is no reading).
        console.print("[dim]" + escape(_("Move {number}: {name}").format(
            number=number, name=_strip_markup(seat_name(names, seat)))) + "[/]")
        state.apply(game.parse_action(text, state))  # record.replay() checked it already
        show_events()
    if state.is_terminal():
        show_result(state, names, presenter, console, viewer)
    else:
        console.print(_("The record ends before the game is over."))
    return True


def _strip_markup(text: str) -> str:
    from rich.text import Text

    return Text.from_markup(text).plain


__all__ = ["replay_names", "replay_record"]
