"""The match driver: one game from a seed (or a state), one chooser per seat, to its end.

``play``, ``simulate`` and ``arena`` all play their games through :func:`play_match`, so
there is one loop that asks a seat for its move, checks it and applies it.

A *chooser* is what sits in a seat. There are three kinds, told apart once per game:

- a bot (:class:`kartentisch.bots.base.Bot`): ``act(observation, legal_actions)`` returns
  one of the legal actions; it is given only its own seat's observation.
- a bot that declares ``needs_observation = False`` (the random bot): it is given
  ``act(None, legal_action_ids)`` and returns one of those ids. No observation is built
  and no action object decoded, which is most of the cost of a random game otherwise.
  Because :meth:`~kartentisch.core.protocol.State.legal_action_ids` lists the ids in the
  order of ``legal_actions()``, a bot that picks by position plays the same game either way.
- a :class:`StateChooser` (``choose(state)``): the person at the keyboard, whose presenter
  needs the state to read typed moves (``Game.parse_action(text, state)``) and shows them
  only their own seat's observation.

Every move is checked before it is applied: an action or id that is not legal raises a
:class:`BotError` (``bot.illegal_action``) naming the seat and its bot, and the state is left
as it was. A bot that raises instead of choosing (a bug in the bot) raises a :class:`BotError`
too (``bot.crashed``), with the exception in one line, so that ``play``, ``simulate`` and
``arena`` can say which bot failed where without a traceback (the state is kept as after the
last move).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, runtime_checkable

from kartentisch.core.errors import IllegalActionError, KartentischError, safe_repr
from kartentisch.core.protocol import Game, Seat, State
from kartentisch.core.reasons import N_, Reasons

MAX_ACTIONS: Final = 1_000_000
"""A game longer than this is taken to be stuck in a loop (a bug): :func:`play_match` stops."""


@runtime_checkable
class StateChooser(Protocol):
    """A seat that is given the state itself (the human at the keyboard).

    It must show its person no more than the seat's own observation; the state is handed
    over because reading a typed move needs it (``Game.parse_action(text, state)``).
    """

    def choose(self, state: State[Any, Any]) -> Any:
        """The action this seat plays now."""
        ...


def needs_observation(chooser: object) -> bool:
    """Whether ``chooser`` wants an observation (``False`` only when it says so)."""
    return bool(getattr(chooser, "needs_observation", True))


OnMove = Callable[[State[Any, Any], Seat, Any], None]
"""``on_move(state, seat, action)``: called after each applied move (``action`` is an id
for a seat that plays ids). An exception raised here ends the game early and propagates."""


@dataclass(slots=True)
class GameOutcome:
    """One played game: what ``play``, ``simulate`` and ``arena`` read from the driver.

    :func:`play_match` fills ``seed``, ``returns``, ``actions``, ``move_seconds`` and
    ``state``; a runner that plays scheduled games (:func:`kartentisch.arena.runner.play_task`)
    also sets ``index`` and ``labels``, and ``record`` or ``stats`` when asked for, and drops
    ``state`` before the outcome travels to another process.
    """

    seed: int
    returns: tuple[float, ...]
    """One return per seat (all zero when the game was stopped before its end)."""
    actions: int
    """Moves played by this call."""
    move_seconds: tuple[list[float], ...] | None = None
    """Per seat, the seconds each of its choices took (only with ``timed=True``; empty for
    seats that need no observation)."""
    state: State[Any, Any] | None = None
    """The final state (``None`` once the outcome has left the process that played it)."""
    index: int = 0
    """The game's number in a run."""
    labels: tuple[str, ...] = ()
    """Who sat in each seat (entrant labels in an arena, bot specs in a simulation)."""
    record: dict[str, Any] | None = None
    """The game record as JSON (``GameRecord.to_json()``), when the run keeps records."""
    stats: dict[str, float] | None = None
    """Game-specific numbers (the game descriptor's ``statistics``), when the run wants them."""

    @property
    def finished(self) -> bool:
        """Whether the game reached its end (judged by the returns' source, the state)."""
        return self.state is None or self.state.is_terminal()


MATCH_REASONS: Final = Reasons(
    {
        "bot.crashed": N_("the bot {bot} in seat {seat} failed with an error: {error}"),
        "bot.illegal_action": N_(
            "the bot {bot} in seat {seat} played an illegal action: {detail}"),
    }
)
"""The match driver's reason codes (registered in :func:`kartentisch.core.registry.all_reasons`)."""

MAX_ERROR_TEXT: Final = 200
"""A bot's exception is quoted in one line of at most this many characters."""


class BotError(KartentischError):
    """A bot failed during a game: it raised an exception (``bot.crashed``) or chose an action
    that is not legal (``bot.illegal_action``).

    Params: ``bot`` (the seat's label, or the bot's name), ``seat``, ``seed`` (the game's),
    and ``error`` (the exception in one line: its type and message) or ``detail`` (why the
    action is not legal). A runner that plays numbered games adds ``game``. It pickles with
    its code and params, so it crosses process boundaries whole.
    """

    default_code = "bot.crashed"


def error_line(error: BaseException) -> str:
    """``error`` as one short line: ``"ZeroDivisionError: division by zero"``.

    >>> error_line(ValueError("bad\\nvalue"))
    'ValueError: bad value'
    """
    try:
        text = " ".join(str(error).split())
    except Exception:  # a broken __str__ must not hide the failure being reported
        text = ""
    line = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return line if len(line) <= MAX_ERROR_TEXT else line[: MAX_ERROR_TEXT - 3] + "..."


def _bot_name(seat: Seat, labels: Sequence[str], chooser: object) -> str:
    if seat < len(labels):
        return str(labels[seat])
    name = getattr(chooser, "name", None)
    return name if isinstance(name, str) and name else type(chooser).__name__


def _illegal(seat: Seat, labels: Sequence[str], chooser: object, seed: int,
             detail: str) -> BotError:
    return MATCH_REASONS.error(BotError, "bot.illegal_action", bot=_bot_name(seat, labels, chooser),
                               seat=seat, seed=seed, detail=detail)


def _crashed(seat: Seat, labels: Sequence[str], chooser: object, seed: int,
             error: Exception) -> BotError:
    return MATCH_REASONS.error(BotError, "bot.crashed", bot=_bot_name(seat, labels, chooser),
                               seat=seat, seed=seed, error=error_line(error))


def play_match(game: Game[Any, Any, Any], seed: int, choosers: Sequence[object], *,
               state: State[Any, Any] | None = None, timed: bool = False,
               on_move: OnMove | None = None, labels: Sequence[str] = (),
               max_actions: int = MAX_ACTIONS) -> GameOutcome:
    """Play a game to its end and return its outcome.

    Args:
        game: the game (player count and rules options fixed).
        seed: the deal's seed; a new game starts from ``game.new_initial_state(seed)``
            unless ``state`` is given.
        choosers: one per seat (see the module docstring for the three kinds).
        state: continue this game instead (it is played on in place).
        timed: measure each choice's seconds, per seat (not for seats that play ids
            without an observation: their choice costs next to nothing, and the clock
            would cost more than the choice).
        on_move: called after every applied move (to show events, save, pause).
        labels: names of the seats' choosers, for error messages.
        max_actions: stop with an error after this many moves (a game stuck in a loop).

    Raises:
        BotError: a bot raised an exception or chose an illegal action (the state stays as
            after the last move; a :class:`StateChooser`'s exceptions pass unchanged).
        KartentischError: the game did not end.
    """
    if len(choosers) != game.players:
        raise KartentischError(
            f"{game.players} seats need {game.players} choosers, not {len(choosers)}")
    if state is None:
        state = game.new_initial_state(seed)
    # How each seat is asked: 0 ids only, 1 observation and actions, 2 the state.
    # (hasattr first: a runtime Protocol's isinstance costs tens of microseconds)
    kinds = [2 if not hasattr(c, "act") and isinstance(c, StateChooser)
             else 1 if needs_observation(c) else 0 for c in choosers]
    times: tuple[list[float], ...] | None = (
        tuple([] for _ in choosers) if timed else None)
    clock = time.perf_counter
    actions = 0
    while not state.is_terminal():
        if actions >= max_actions:
            raise KartentischError(
                f"the game with seed {seed} did not end after {max_actions} actions")
        seat = state.current_player
        chooser: Any = choosers[seat]
        kind = kinds[seat]
        if kind == 0:  # not timed: a choice among ids costs next to nothing
            ids = state.legal_action_ids()
            try:
                choice = chooser.act(None, ids)
            except Exception as error:
                raise _crashed(seat, labels, chooser, state.seed, error) from error
            if type(choice) is not int or choice not in ids:
                raise _illegal(seat, labels, chooser, state.seed,
                               f"{safe_repr(choice)} is not one of the legal ids {ids}")
            # Checked just above: the id is one of the legal ids of the seat to move.
            state.apply_unchecked(choice)
        else:
            start = clock() if times is not None else 0.0
            if kind == 1:
                observation, legal = state.observation(seat), state.legal_actions()
                try:
                    choice = chooser.act(observation, legal)
                except Exception as error:
                    raise _crashed(seat, labels, chooser, state.seed, error) from error
            else:
                choice = chooser.choose(state)
            if times is not None:
                times[seat].append(clock() - start)
            try:
                state.apply(choice, seat=seat)
            except IllegalActionError as error:
                if kind == 2:
                    raise
                raise _illegal(seat, labels, chooser, state.seed, str(error)) from error
        actions += 1
        if on_move is not None:
            on_move(state, seat, choice)
    return GameOutcome(seed=state.seed, returns=tuple(state.returns()), actions=actions,
                       move_seconds=times, state=state)


__all__ = ["MATCH_REASONS", "MAX_ACTIONS", "BotError", "GameOutcome", "OnMove", "StateChooser",
           "error_line", "needs_observation", "play_match"]
