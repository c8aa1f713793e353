"""One game in the terminal: a human in one seat, bots in the others.

The human sees only their own observation and the events redacted for their seat. Input
comes from an injectable ``read_line(prompt) -> str`` function (``EOFError`` ends the
game), so tests can play whole games by answering prompts.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kartentisch.bots.base import Bot
from kartentisch.bots.match import BotError
from kartentisch.bots.registry import build_bot
from kartentisch.cli.messages import bot_failure_text, describe_error, format_number
from kartentisch.cli.presenters import Presenter, seat_name
from kartentisch.core.errors import (
    AmbiguousActionError,
    InvalidActionError,
    KartentischError,
)
from kartentisch.core.protocol import Game, Seat, State
from kartentisch.core.records import GameRecord
from kartentisch.core.rng import derive_seed
from kartentisch.locale import _, ngettext

HUMAN: Final = "human"
"""The seat kind of the person at the keyboard."""

HELP_WORDS: Final = frozenset({"?", "help", "hilfe"})
QUIT_WORDS: Final = frozenset({"quit", "exit", "beenden", "ende", "aufhören", "aufhoeren",
                               "schluss"})
"""The words that stop the game, in English and German."""

ReadLine = Callable[[str], str]
"""``read_line(prompt)``: the next line typed by the human; raises ``EOFError`` at the end."""


class QuitGame(Exception):
    """The human asked to stop (``quit``) or the input ended."""


def seat_names(seats: Sequence[str], human_seat: Seat | None) -> list[str]:
    """Display names: "You" for the human, "Bot 2" for a bot in seat 2, and so on."""
    return [_("You") if s == human_seat else _("Bot {seat}").format(seat=s)
            for s in range(len(seats))]


class HumanPlayer:
    """Chooses moves for one seat by asking the person at the keyboard."""

    def __init__(self, seat: Seat, game: Game[Any, Any, Any], presenter: Presenter,
                 console: Console, read_line: ReadLine, names: Sequence[str]):
        self.seat = seat
        self.game = game
        self.presenter = presenter
        self.console = console
        self.read_line = read_line
        self.names = names
        self.helped = False
        """Whether the notation help was shown already (it is shown before the first move)."""

    def show_table(self, state: State[Any, Any]) -> None:
        """Print the table as this seat sees it."""
        observation = state.observation(self.seat)
        self.console.print(self.presenter.render(observation, viewer=self.seat, names=self.names))

    def show_help(self, state: State[Any, Any]) -> list[Any]:
        """Print the notation help with examples from the real table, the legal moves grouped,
        and every legal move numbered; returns the moves in their numbered order."""
        observation = state.observation(self.seat)
        legal = list(state.legal_actions())
        labels = [self.presenter.move_label(action, observation, self.game) for action in legal]
        self.console.print(escape(self.presenter.help_line()))
        self.console.print(escape(_("For example now: {moves}").format(
            moves=" · ".join(labels[:3]))))
        self.console.print(_("Legal moves now:"))
        for line in self.presenter.describe_moves(observation, legal, self.game):
            self.console.print("  " + escape(line))
        self.console.print(_("Or pick one by its number:"))
        self.console.print(Columns([escape(f"{n:>2}) {label}") for n, label in
                                    enumerate(labels, start=1)], padding=(0, 3)))
        self.console.print(escape(_("Enter alone shows the table again; quit ends the game.")))
        return legal

    def ask(self, prompt: str) -> str:
        """One line of input; ``EOFError`` and ``quit`` raise :class:`QuitGame`."""
        try:
            text = self.read_line(prompt)
        except EOFError:
            raise QuitGame from None
        if text.strip().lower() in QUIT_WORDS:
            raise QuitGame
        return text

    def choose(self, state: State[Any, Any]) -> Any:
        """Ask until the human enters a legal move, and return it."""
        self.show_table(state)
        observation = state.observation(self.seat)
        legal = state.legal_actions()
        if not self.helped:
            self.console.print("[dim]" + escape(self.presenter.help_line()) + "[/]")
            examples = [self.presenter.move_label(action, observation, self.game)
                        for action in legal[:3]]
            self.console.print("[dim]" + escape(_("For example now: {moves}").format(
                moves=" · ".join(examples))) + "[/]")
            self.helped = True
        while True:
            text = self.ask(_("Your move (? = help): "))
            if not text.strip():
                self.show_table(state)
                continue
            if text.strip().lower() in HELP_WORDS:
                numbered = self.show_help(state)
                text = self.ask(_("Number of a move, or a move (Enter: back): "))
                picked = _numbered_choice(text, len(numbered))
                if picked is not None:
                    return numbered[picked]
                if not text.strip():
                    continue
            text = self.presenter.normalize_input(text, observation)
            try:
                action = self.game.parse_action(text, state)
            except AmbiguousActionError as error:
                action = self.resolve(error, observation)
                if action is None:
                    continue
            except KartentischError as error:
                message = self.presenter.explain_error(error, text, observation)
                if message is None:
                    reason = describe_error(error, self.presenter.localize_param)
                    message = (_("Cannot read {text!r}: {error}") if isinstance(
                        error, InvalidActionError) else _("Not allowed now: {error}")).format(
                        text=text.strip(), error=reason)
                self.console.print("[red]" + escape(message) + "[/]")
                self.console.print(escape(_("Type ? for help and the legal moves.")))
                continue
            if action not in legal:
                self.console.print("[red]" + escape(
                    _("Not allowed now: {move}").format(move=text.strip())) + "[/]")
                continue
            return action

    def resolve(self, error: AmbiguousActionError, observation: Any) -> Any | None:
        """Ask which of the ambiguous move's completions is meant (empty input: none)."""
        question, answers = self.presenter.ask_choice(error, observation)
        while True:
            self.console.print("[bold]" + escape(question) + "[/]")
            for number, (short, full, explanation) in enumerate(answers, start=1):
                extra = f" — {explanation}" if explanation else ""
                shown = short if short == full else f"{short}  ({full})"
                self.console.print(escape(f"  {number}) {shown}{extra}"))
            text = self.ask(_("Your choice, by number or as written (Enter to go back): ")
                            ).strip().lower()
            if not text:
                return None
            written = [full for short, full, _explanation in answers
                       if _same_answer(text, short) or _same_answer(text, full)]
            picked = _numbered_choice(text, len(answers))
            if not written and picked is not None:  # as written first: "5" may be a value
                written = [answers[picked][1]]
            for choice_text, action in error.choices:
                if written and choice_text == written[0]:
                    return action
            self.console.print("[red]" + escape(
                _("{answer!r} is not one of the choices.").format(answer=text)) + "[/]")


def _numbered_choice(text: str, count: int) -> int | None:
    """The 0-based index of a choice typed as its number (1 to ``count``), else ``None``.

    >>> _numbered_choice(" 2", 3), _numbered_choice("4", 3), _numbered_choice("4-6", 9)
    (1, None, None)
    """
    stripped = text.strip()
    if not stripped.isdigit() or len(stripped) > 6:
        return None
    number = int(stripped)
    return number - 1 if 1 <= number <= count else None


def _same_answer(typed: str, expected: str) -> bool:
    """Whether ``typed`` means ``expected``, ignoring case and how lists are separated.

    >>> _same_answer("5 6", "5,6"), _same_answer("R1@3", "r1@3"), _same_answer("5", "6")
    (True, True, False)
    """

    def norm(text: str) -> str:
        return re.sub(r"[\s,;]+", ",", text.strip().lower())

    return norm(typed) == norm(expected)


@dataclass
class SessionResult:
    """How a terminal game ended."""

    state: State[Any, Any]
    finished: bool
    """False when the human quit or the input ended before the game was over."""
    record_path: Path | None = None
    save_failed: bool = False
    """True when a save failed (the game stopped there; the file holds the last good save)."""
    signal: int | None = None
    """The signal (SIGTERM, SIGHUP) that stopped the game, if one did."""
    bot_failed: bool = False
    """True when a bot failed (raised an error or chose an illegal move): the game stopped
    there, the file keeping every move before."""


class SaveError(KartentischError):
    """The record cannot be written where the player asked; the message is translated."""


def check_save_path(path: Path) -> None:
    """Refuse a record path that cannot work, before the first move (a translated
    :class:`SaveError`): a missing folder, a directory, something that is not a regular
    file (``/dev/full``, a pipe), or a place where a file cannot be written."""
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise SaveError(_("Cannot save the record to {path}: it is a folder.").format(
            path=path))
    if path.exists() and not path.is_file():
        raise SaveError(_("Cannot save the record to {path}: it is not a regular file.")
                        .format(path=path))
    if not parent.is_dir():
        raise SaveError(_("Cannot save the record to {path}: the folder {folder} does not "
                          "exist.").format(path=path, folder=parent))
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists()
                                                    and not os.access(path, os.W_OK)):
        raise SaveError(_("Cannot save the record to {path}: no permission to write "
                          "there.").format(path=path))


class RecordWriter:
    """Writes the game's record after every move, atomically (temporary file, ``fsync``,
    rename: :func:`kartentisch.core.records.write_atomically`), so that a closed terminal,
    a signal or a crash loses no move saved before; a failed write leaves the last good
    file as it was."""

    def __init__(self, path: Path, game_name: str, seats: Sequence[str]):
        self.path = path
        self.game_name = game_name
        self.seats = list(seats)
        self._actions: list[str] = []
        self.saved_moves = -1
        """How many moves the file on disk holds (-1: nothing written yet)."""

    def write(self, state: State[Any, Any]) -> None:
        """Save ``state``'s record; raises ``OSError`` when the write fails."""
        game = state.game
        history = state.history
        del self._actions[len(history):]
        self._actions.extend(game.format_action(a) for a in history[len(self._actions):])
        record = GameRecord(game=self.game_name, players=game.players, seed=state.seed,
                            options=game.options_json(), actions=list(self._actions),
                            seats=list(self.seats),
                            returns=list(state.returns()) if state.is_terminal() else None)
        record.save(self.path)
        self.saved_moves = len(history)


class SaveFailed(Exception):
    """A save after a move failed; the game stops so that no unsaved move is played."""

    def __init__(self, error: OSError):
        super().__init__(error)
        self.error = error


class Stopped(BaseException):
    """A signal (SIGTERM, SIGHUP) asked the program to end.

    A ``BaseException`` like ``KeyboardInterrupt``: raised wherever the program is when the
    signal comes, even inside a bot's move, it must not be taken for the bot's failure."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise :class:`Stopped` (in the main thread only),
    so the game ends through the same path as ``quit``; the handlers are restored after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, _frame: object) -> None:
        raise Stopped(signum)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


def _print_safely(console: Console, *objects: Any) -> None:
    """Print, ignoring a terminal that is gone (after SIGHUP writes fail with EIO)."""
    with contextlib.suppress(OSError, ValueError):
        console.print(*objects)


def make_bots(game: Game[Any, Any, Any], seats: Sequence[str], seed: int) -> dict[Seat, Bot]:
    """The bots of every non-human seat, each seeded with ``derive_seed(seed, "bot", seat)``.

    A seat's bot is a name or a spec with parameters (``ismcts:iterations=200``)."""
    return {seat: build_bot(kind, game, derive_seed(seed, "bot", seat))
            for seat, kind in enumerate(seats) if kind != HUMAN}


def play_session(*, game_name: str, game: Game[Any, Any, Any], seed: int, seats: Sequence[str],
                 presenter: Presenter, console: Console, read_line: ReadLine,
                 save: Path | None = None, delay: float = 0.0,
                 state: State[Any, Any] | None = None, events_from: int = 0,
                 resume_hint: str | None = None, keep_unplayed: bool = True) -> SessionResult:
    """Play one game in the terminal; ``seats`` holds ``"human"`` once and bot names elsewhere.

    The table and events are shown as the human's seat sees them. With ``save`` the record
    is written before the first move and after every move (see :class:`RecordWriter`); a
    failed save stops the game (``save_failed``), the file keeping the last good record.
    ``state`` continues a game already begun with ``seed`` (by default a new one starts);
    then only its events from index ``events_from`` on are shown. ``resume_hint`` is the
    command that continues the game, shown when it stops early. Without ``keep_unplayed``
    a game stopped before its first move is not kept (its file is removed: it holds nothing
    that ``play --seed`` would not deal again), as ``play`` does with the games it saves in
    the data directory on its own.

    The moves are played by :func:`kartentisch.bots.match.play_match` (the one match driver).
    """
    from kartentisch.bots.match import play_match

    presenter.use_game(game)
    human_seat = list(seats).index(HUMAN) if HUMAN in seats else None
    names = seat_names(seats, human_seat)
    bots = make_bots(game, seats, seed)
    if state is None:
        state = game.new_initial_state(seed)
    human = (HumanPlayer(human_seat, game, presenter, console, read_line, names)
             if human_seat is not None else None)
    writer = RecordWriter(save, game_name, seats) if save is not None else None
    seen = events_from
    result = SessionResult(state, False)
    current = state

    for event in current.events_for(human_seat, 0)[:seen]:  # earlier events: counted only
        presenter.describe_event(event, viewer=human_seat, names=names)

    def show_events() -> None:
        nonlocal seen
        for event in current.events_for(human_seat, seen):
            summary = presenter.between_deals(event, current.observation(human_seat), names)
            if summary is not None:
                console.print(summary)
                if delay > 0:
                    time.sleep(max(1.5, 4 * delay))  # a moment to take in the standings
            line = presenter.describe_event(event, viewer=human_seat, names=names)
            if line is not None:
                console.print(line)
        seen = len(current.events)

    def after_move(moved: State[Any, Any], seat: Seat, _action: Any) -> None:
        if writer is not None:
            try:
                writer.write(moved)
            except OSError as error:
                raise SaveFailed(error) from error
        show_events()
        if delay > 0 and seat != human_seat and not moved.is_terminal():
            time.sleep(delay)

    choosers = [human if seat == human_seat else bots[seat] for seat in range(game.players)]
    try:
        with stop_on_signals():
            if writer is not None:
                try:
                    writer.write(state)
                except OSError as error:
                    raise SaveFailed(error) from error
            show_events()
            play_match(game, seed, choosers, state=state, on_move=after_move,
                       labels=list(seats))
            result.finished = True
    except SaveFailed as failure:
        result.save_failed = True
        assert save is not None and writer is not None
        _print_safely(console, "[red]" + escape(
            _("Cannot save the record to {path}: {error}").format(
                path=save, error=failure.error.strerror or failure.error)) + "[/]")
        if writer.saved_moves >= 0:
            _print_safely(console, escape(_(
                "The game stops here. {path} keeps the game up to move {count}.").format(
                path=save, count=writer.saved_moves)))
        else:
            _print_safely(console, escape(_("The game stops here; nothing was saved.")))
    except BotError as failure:
        result.bot_failed = True
        _print_safely(console)
        text = bot_failure_text(failure, presenter.localize_param)
        _print_safely(console, "[red]" + escape(text) + "[/]")
    except (QuitGame, KeyboardInterrupt, Stopped) as stop:
        if isinstance(stop, Stopped):
            result.signal = stop.signum
        elif isinstance(stop, KeyboardInterrupt):  # Ctrl-C: reported as a shell does (130)
            result.signal = signal.SIGINT
        _print_safely(console)
        _print_safely(console, _("The game was stopped before its end."))
    if result.finished:
        show_result(state, names, presenter, console, human_seat)
    if (writer is not None and writer.saved_moves == 0 and not keep_unplayed
            and not result.finished and not result.save_failed):
        with contextlib.suppress(OSError):  # nothing to lose: its deal is its seed
            writer.path.unlink()
            writer.saved_moves = -1
            _print_safely(console, escape(_(
                "Nothing was played yet, so the game was not kept; --seed {seed} deals the "
                "same cards again.").format(seed=state.seed)))
    if result.bot_failed and writer is not None and writer.saved_moves >= 0:
        _print_safely(console, escape(_(
            "The game stops here. {path} keeps the game up to move {count}.").format(
            path=save, count=writer.saved_moves)))
    if writer is not None and writer.saved_moves >= 0:
        result.record_path = save
        if not result.save_failed and not result.bot_failed:
            _print_safely(console, _("Record saved to {path}").format(path=escape(str(save))))
        if not result.finished and resume_hint and writer.saved_moves > 0:
            _print_safely(console, escape(_("To continue this game later: {command}").format(
                command=resume_hint)))
    return result


def losers(returns: Sequence[float]) -> list[Seat]:
    """Seats whose return is the lowest, when not everybody's return is equal."""
    if not returns or min(returns) == max(returns):
        return []
    low = min(returns)
    return [s for s, r in enumerate(returns) if r == low]


def join_names(names: Sequence[str]) -> str:
    """``names`` as a list in words: "A", "A and B", "A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def result_sentence(returns: Sequence[float], names: Sequence[str], viewer: Seat | None
                    ) -> str:
    """Who won and who lost, in words (rich markup), from the final returns."""
    if not returns or min(returns) == max(returns):
        return _("A draw: nobody wins, nobody loses.")
    best = max(returns)
    winners = [s for s, r in enumerate(returns) if r == best]
    lost = losers(returns)
    parts = []
    if viewer is not None and viewer in winners:
        parts.append(_("You win!") if len(winners) == 1 else _("You are among the winners."))
    elif viewer is not None and viewer in lost:
        parts.append(_("You lose.") if len(lost) == 1 else _("You are among the losers."))
    parts.append(ngettext("Winner: {names}.", "Winners: {names}.", len(winners)).format(
        names=join_names([seat_name(names, s) for s in winners])))
    if lost:
        parts.append(ngettext("Loser: {names}.", "Losers: {names}.", len(lost)).format(
            names=join_names([seat_name(names, s) for s in lost])))
    return " ".join(parts)


def show_result(state: State[Any, Any], names: Sequence[str], presenter: Presenter,
                console: Console, viewer: Seat | None) -> None:
    """The final table and the result in the players' terms: each seat's chips or points
    and who won and lost, in words (the returns belong to --json and research output)."""
    observation = state.observation(0 if viewer is None else viewer)
    console.print(presenter.render(observation, viewer=viewer, names=names))
    returns = state.returns()
    best = max(returns) if returns else 0.0
    lost = losers(returns)
    scores = presenter.final_scores(observation)
    table = Table(title=_("Result"), title_justify="left")
    table.add_column(_("Player"))
    if scores is not None:
        table.add_column(scores[0], justify="right")
    table.add_column("")
    for seat, value in enumerate(returns):
        status = (_("loses") if seat in lost else _("wins") if value == best and lost
                  else "")
        row = [seat_name(names, seat)]
        if scores is not None:
            row.append(format_number(scores[1][seat]))
        table.add_row(*row, status)
    console.print(table)
    console.print("[bold]" + result_sentence(returns, names, viewer) + "[/]")


def check_seats(seats: Sequence[str], game: Game[Any, Any, Any]) -> None:
    """Make every bot once (seed 0) so that unknown names and bad parameters fail before the
    game starts: a :class:`KartentischError` whose message says why in the current language
    (see :func:`kartentisch.cli.arguments.bot_problem`)."""
    from kartentisch.cli.arguments import bot_problem

    for kind in seats:
        if kind != HUMAN:
            problem = bot_problem(kind, game)
            if problem is not None:
                raise KartentischError(problem)


__all__ = [
    "HUMAN",
    "HumanPlayer",
    "QuitGame",
    "RecordWriter",
    "SaveError",
    "SessionResult",
    "check_save_path",
    "check_seats",
    "derive_seed",
    "losers",
    "make_bots",
    "play_session",
    "seat_names",
]
