"""Presenters: how one game looks in the terminal.

The command line is generic over games. Everything game-specific about the screen lives in
a *presenter*: an object that turns an observation and events into text for one viewer, and
explains the game's move notation. A game without a presenter still works (the base class
below shows the observation's JSON and event kinds), but looks bare.

Adding a presenter for a new game
---------------------------------
1. Write ``kartentisch/cli/presenters/<module>.py`` with a subclass of :class:`Presenter`
   and a module attribute ``PRESENTER = YourPresenter()``. Override what you need:

   ``help_line()``
       One line with the move notation, shown under the prompt (``4 | 4-6 | ...``).
   ``render(observation, viewer=..., names=...)``
       A rich renderable of the table as ``viewer`` sees it. ``viewer`` is the seat whose
       observation this is, or ``None`` for a spectator: then show only public facts
       (never ``observation``'s own hand).
   ``describe_event(event, viewer=..., names=...)``
       One line (rich markup) for an event, or ``None`` to skip it. The event is already
       redacted for ``viewer`` (``state.events_for(viewer)``); never look elsewhere.
   ``describe_moves(observation, legal, game)``
       Lines listing the legal moves in notation, grouped readably (shown on ``?``).
   ``normalize_input(text, observation)``
       Optional shortcuts, e.g. a bare number meaning "insert here" while drawing.
   ``localize_param(name, value)``
       A reason code's param in the reader's words (a card's name, a combination), or
       ``None``; the base ``explain_error`` translates the error's code with it. Never
       match the engine's English text.
   ``ask_choice(error, observation)``
       For an :class:`~kartentisch.core.errors.AmbiguousActionError`: a question and the
       answers as ``(short answer, full notation, explanation)``, e.g. the X card's value.

   Every user-facing string goes through ``kartentisch.locale._`` (or ``ngettext``) with
   a literal argument. ``python -m kartentisch.locale.update`` adds new messages to both
   catalogues; then translate them in ``locale/de/LC_MESSAGES/kartentisch.po``
   (``tests/cli/test_locale.py`` fails on a missing translation).
2. Name the module in the game's descriptor (``presenter=...`` in
   ``games/<package>/descriptor.py``); :func:`load_presenter` finds it there. A game's
   rules options (label, help, value words) and its per-game statistics are in the
   descriptor too, not in the presenter.

``names`` is a list of display names by seat (``"You"``, ``"Bot 2"``, ...); use
:func:`seat_name` for colour-coded names.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from typing import Any, Final

from rich.console import RenderableType
from rich.markup import escape
from rich.text import Text

from kartentisch.cli.messages import describe_error
from kartentisch.core.errors import AmbiguousActionError, JSONValue, KartentischError
from kartentisch.core.protocol import Event, Game, Seat
from kartentisch.core.registry import descriptors
from kartentisch.locale import _

SEAT_STYLES: Final = ("bold green", "bold cyan", "bold magenta", "bold yellow", "bold blue",
                      "bold red")

Choice = tuple[str, str, str]
"""``(short answer, full notation, explanation)`` of one answer to a question."""


def seat_name(names: Sequence[str], seat: Seat | None) -> str:
    """The seat's display name as rich markup, coloured per seat."""
    if seat is None or not 0 <= seat < len(names):
        return _("nobody")
    return f"[{SEAT_STYLES[seat % len(SEAT_STYLES)]}]{names[seat]}[/]"


class Presenter:
    """The generic presenter, and the base class of every game's presenter."""

    game: str = ""
    """Registry name of the game this presenter is for ("" for the generic one)."""

    def configure(self, *, suit_symbols: bool = False) -> None:
        """Display settings from the command line (``--suit-symbols``); games without suits
        ignore them."""

    def use_game(self, game: Game[Any, Any, Any]) -> None:
        """The game about to be shown; a presenter whose words depend on its rules options
        reads them here (the generic one needs nothing)."""

    def help_line(self) -> str:
        """One line explaining the move notation."""
        return _("Type a move in the game's notation; ? lists the legal moves.")

    def render(self, observation: Any, *, viewer: Seat | None, names: Sequence[str]
               ) -> RenderableType:
        """The table as ``viewer`` sees it (``None``: a spectator)."""
        data = observation.to_json()
        if viewer is None:
            data = {k: v for k, v in data.items() if k not in {"hand", "pending"}}
        return Text("\n".join(f"{key}: {json.dumps(value, ensure_ascii=False)}"
                               for key, value in data.items()))

    def describe_event(self, event: Event, *, viewer: Seat | None, names: Sequence[str]
                       ) -> str | None:
        """One line for ``event`` (already redacted for ``viewer``), or ``None`` to skip it."""
        who = seat_name(names, event.seat) if event.seat is not None else ""
        details = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{who} {escape(event.kind)} {escape(details)}".strip()

    def describe_moves(self, observation: Any, legal: Sequence[Any], game: Game[Any, Any, Any]
                       ) -> list[str]:
        """The legal moves in notation, for the ``?`` help."""
        return [", ".join(game.format_action(a) for a in legal)]

    def move_words(self, action: Any, names: Sequence[str]) -> str | None:
        """``action`` in the players' words from what the mover knows alone (no hidden side
        of a card), or ``None`` where the game's moves need no such sentence."""
        return None

    def move_label(self, action: Any, observation: Any, game: Game[Any, Any, Any]) -> str:
        """One legal move as the player would type it (the numbered ``?`` list)."""
        return str(game.format_action(action))

    def normalize_input(self, text: str, observation: Any) -> str:
        """Rewrite shortcuts in the player's input into notation (default: unchanged)."""
        return text

    def explain_error(self, error: KartentischError, text: str, observation: Any
                      ) -> str | None:
        """A message in the current language for a move that was refused: the error's reason
        code translated, with params in words from :meth:`localize_param`."""
        return describe_error(error, self.localize_param)

    def localize_param(self, name: str, value: JSONValue) -> str | None:
        """A reason param in the current language's words (``None``: show it as it is)."""
        return None

    def ask_choice(self, error: AmbiguousActionError, observation: Any
                   ) -> tuple[str, list[Choice]]:
        """A question resolving an ambiguous move, and its answers."""
        return (_("Which move do you mean?"),
                [(text, text, "") for text, _action in error.choices])

    def final_scores(self, observation: Any) -> tuple[str, list[int]] | None:
        """The result screen's score column: its title ("Chips", "Points") and every seat's
        value at the end, in the game's own terms (``None``: no such column)."""
        return None

    def between_deals(self, event: Event, observation: Any, names: Sequence[str]
                      ) -> str | None:
        """A short summary (rich markup) shown before ``event`` when it starts a new deal
        (the standings so far), or ``None``."""
        return None


GENERIC: Final = Presenter()


def presenter_modules() -> dict[str, str]:
    """Game name -> the module holding its ``PRESENTER``, from the games' descriptors."""
    return {d.name: d.presenter for d in descriptors() if d.presenter is not None}


def load_presenter(game: str) -> Presenter:
    """The presenter the descriptor of ``game`` names, or the generic one."""
    module = presenter_modules().get(game)
    if module is None:
        return GENERIC
    presenter: Presenter = importlib.import_module(module).PRESENTER
    return presenter


__all__ = ["GENERIC", "Choice", "Presenter", "load_presenter", "presenter_modules", "seat_name"]
