"""Casino in the terminal.

Shows one seat's observation: the players (cards in hand, cards and spades captured,
sweeps, points), the table with a label per item (``a``, ``b``, … in the order the move
notation uses), the pack, and the viewer's own hand. Moves are typed in the notation of
``kartentisch.games.casino.actions``; table items may be named by label (``7h x ab``).
After each pack the points per item and the totals are printed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kartentisch.cli.messages import describe_error
from kartentisch.cli.presenters import Choice, Presenter, seat_name
from kartentisch.core.errors import AmbiguousActionError, JSONValue, KartentischError
from kartentisch.core.protocol import Event, Game, Seat
from kartentisch.games.casino.actions import Build, Capture, Trail
from kartentisch.games.casino.cards import (
    SPADES,
    card_name,
    parse_card,
    suit_of,
)
from kartentisch.games.casino.game import format_with_labels
from kartentisch.games.casino.observation import CasinoObservation
from kartentisch.games.casino.scoring import SCORE_ITEMS
from kartentisch.games.casino.table import BuildUnit
from kartentisch.locale import _, current_language

SUIT_STYLES: Final = ("bold", "bold red", "bold red", "bold")
"""Clubs and spades plain, diamonds and hearts red."""


SUIT_SYMBOLS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
"""The suit letters of the notation and the symbols shown instead with ``--suit-symbols``."""

_DISPLAY: Final = {"symbols": False}
"""Whether cards are shown with suit symbols (set by :meth:`CasinoPresenter.configure`)."""

GERMAN_RANKS: Final = {"J": "B", "Q": "D", "T": "10"}
"""The ranks German names otherwise: Bube, Dame, and the 10 written out (König K, Ass A)."""

RANK_INPUT: Final = {"B": "J", "D": "Q", "10": "T"}
"""Rank letters a German player may type, as the notation writes them."""

SUIT_INPUT: Final = {"♣": "c", "♦": "d", "♥": "h", "♠": "s",
                     "kreuz": "c", "karo": "d", "herz": "h", "pik": "s"}
"""Suits as symbols or German words, as the notation writes them."""

_TYPED_CARD: Final = re.compile(r"(10|[2-9AKQJTBD])((?i:♣|♦|♥|♠|kreuz|karo|herz|pik)|[cdhs])")
"""A card as a player may type it: a rank (English or German letter, or 10) and a suit
(letter, symbol or German word); lower-case letters stay table labels (``ab``)."""

_NOTATION_CARD: Final = re.compile(r"(?<![\w\[])([2-9AKQJT])([cdhs])(?!\w)")


def card_text(name: str) -> str:
    """A card in notation (``"Td"``) as it is shown everywhere (table, events, moves,
    scoring): in German with German rank letters and the suit's symbol (``10♦``, ``B♥``);
    in English the notation itself, or with ``--suit-symbols`` the rank and the symbol."""
    rank, suit = name[:-1], name[-1:]
    if suit not in SUIT_SYMBOLS:
        return name
    if current_language() == "de":
        return GERMAN_RANKS.get(rank, rank) + SUIT_SYMBOLS[suit]
    if _DISPLAY["symbols"]:
        return rank + SUIT_SYMBOLS[suit]
    return name


def shown_move(text: str) -> str:
    """A move in notation (``7h x ab``) with its cards as :func:`card_text` shows them."""
    return _NOTATION_CARD.sub(lambda m: card_text(m.group(0)), text)


def typed_card(token: str) -> str:
    """One typed word as the notation reads it: a card in German letters, with a suit
    symbol or a German suit word becomes its notation (``B♥`` -> ``Jh``, ``10karo`` ->
    ``Td``); anything else stays as it is."""
    m = _TYPED_CARD.fullmatch(token)
    if not m:
        return token
    rank, suit = m.group(1), m.group(2)
    return RANK_INPUT.get(rank, rank) + SUIT_INPUT.get(suit.lower(), suit)


def styled(card: int) -> str:
    """A card as rich markup in its suit's colour."""
    return f"[{SUIT_STYLES[suit_of(card)]}]{card_text(card_name(card))}[/]"


def styled_name(name: str) -> str:
    """A card given by name (from an event) as rich markup."""
    style = "bold red" if name[-1:] in ("d", "h") else "bold"
    return f"[{style}]{card_text(name)}[/]"


def spoken_card(name: str) -> str:
    """A card given in notation (``"Td"``) in messages: the same naming as on the table
    (:func:`card_text`), so that cards read alike in the table, events, errors and scoring."""
    try:
        parse_card(name)
    except ValueError:
        return name
    return card_text(name)


def item_name(key: str) -> str:
    """The name of a scoring item."""
    names = {
        "cards": _("most cards"),
        "spades": _("most spades ({suit})").format(suit=card_text("Xs")[1:]),
        "big_casino": _("big casino ({card})").format(card=card_text("Td")),
        "little_casino": _("little casino ({card})").format(card=card_text("2s")),
        "aces": _("aces"),
        "sweeps": _("sweeps"),
        "total": _("pack total"),
    }
    return names[key]


def side_names(players: int, sides: int, names: Sequence[str]) -> list[str]:
    """Display names of the sides: a seat's name, or "A + B" for a partnership."""
    if sides == players:
        return [seat_name(names, s) for s in range(players)]
    return [f"{seat_name(names, s)} + {seat_name(names, s + 2)}" for s in range(sides)]


class CasinoPresenter(Presenter):
    """Presenter of Casino."""

    game = "casino"

    def configure(self, *, suit_symbols: bool = False) -> None:
        """Show suits as symbols (♣ ♦ ♥ ♠) instead of the notation's letters."""
        _DISPLAY["symbols"] = suit_symbols

    def help_line(self) -> str:
        if _DISPLAY["symbols"]:
            return _("Moves: 7h x ab = the 7h takes table items a and b · 2h + a = 8 = build 8 "
                     "on item a · Ah + c = 9 = raise build c to 9 · 7h - = trail the 7h · "
                     "7h alone = its only move · ? = help and legal moves") + " · " + _(
                "type suits as letters: c = ♣, d = ♦, h = ♥, s = ♠")
        return _("Moves: 7h x ab = the 7h takes table items a and b · 2h + a = 8 = build 8 "
                 "on item a · Ah + c = 9 = raise build c to 9 · 7h - = trail the 7h · "
                 "7h alone = its only move · ? = help and legal moves")

    # ------------------------------------------------------------------ the table
    def render(self, observation: Any, *, viewer: Seat | None, names: Sequence[str]
               ) -> RenderableType:
        obs: CasinoObservation = observation
        parts: list[RenderableType] = []
        title = _("Casino · pack {pack} · dealer: {dealer}").format(
            pack=obs.pack + 1, dealer=names[obs.dealer] if obs.dealer < len(names) else "")
        parts.append(Text(title, style="bold underline"))
        parts.append(self._players_table(obs, names))
        parts.append(Text.from_markup(self._table_line(obs, names)))
        parts.append(Text(_("Cards left in the pack: {count}").format(count=obs.deck_size)))
        if viewer is not None and obs.phase != "over":
            hand = " ".join(styled(c) for c in obs.hand) if obs.hand else _("(no cards)")
            parts.append(Text.from_markup(_("Your hand: {cards}").format(cards=hand)))
        return Group(*parts)

    def _players_table(self, obs: CasinoObservation, names: Sequence[str]) -> Table:
        sides = len(obs.scores)
        table = Table(box=None, pad_edge=False, show_edge=False)
        table.add_column("")
        table.add_column(_("Player"))
        table.add_column(_("Hand"), justify="right")
        table.add_column(_("Captured"), justify="right")
        table.add_column(_("Spades"), justify="right")
        table.add_column(_("Sweeps"), justify="right")
        table.add_column(_("Points"), justify="right")
        for seat in range(obs.players):
            marker = "▶" if seat == obs.current_player else ""
            pile = obs.captured[seat]
            side = seat % 2 if sides != obs.players else seat
            table.add_row(marker, Text.from_markup(seat_name(names, seat)),
                          str(obs.hand_sizes[seat]), str(len(pile)),
                          str(sum(1 for c in pile if suit_of(c) == SPADES)),
                          str(obs.sweeps[seat]), str(obs.scores[side]))
        return table

    def _table_line(self, obs: CasinoObservation, names: Sequence[str]) -> str:
        shown = []
        for i, item in enumerate(obs.table_items()):
            label = chr(ord("a") + i) if i < 26 else "·"
            if isinstance(item, BuildUnit):
                kind = _("call") if item.multiple else _("build")
                cards = " ".join(styled(c) for c in item.cards)
                shown.append(f"[dim]{label}[/] [{kind} {item.value}: {cards} · "
                             f"{seat_name(names, item.owner)}]")
            else:
                shown.append(f"[dim]{label}[/] {styled(item)}")
        text = "   ".join(shown) if shown else _("(empty)")
        return _("Table: {items}").format(items=text)

    # ------------------------------------------------------------------ events
    def describe_event(self, event: Event, *, viewer: Seat | None, names: Sequence[str]
                       ) -> str | None:
        me = viewer is not None and event.seat == viewer
        name = seat_name(names, event.seat)
        data = event.data
        kind = event.kind
        if kind == "pack_start":
            text = (_("── Pack {pack} begins; you deal ──") if me
                    else _("── Pack {pack} begins; {name} deals ──"))
            return "[bold]" + text.format(pack=data["pack"], name=name) + "[/]"
        if kind == "table":
            return _("Four cards go face up on the table: {cards}").format(
                cards=" ".join(styled_name(c) for c in data["cards"]))
        if kind == "deal":
            if "hand" in data:
                return _("You get {cards}.").format(
                    cards=" ".join(styled_name(c) for c in data["hand"]))
            return None
        if kind == "capture":
            taken = " ".join(styled_name(c) for c in data["taken"])
            text = (_("You play {card} and take {cards}.") if me
                    else _("{name} plays {card} and takes {cards}."))
            line = text.format(name=name, card=styled_name(data["card"]), cards=taken)
            if data.get("sweep"):
                line += " " + _("A sweep!")
            return line
        if kind == "build":
            joined = " ".join(styled_name(c) for c in data["joined"])
            if data.get("multiple"):
                text = (_("You play {card} onto {cards}: a call of {value}s.") if me
                        else _("{name} plays {card} onto {cards}: a call of {value}s."))
            else:
                text = (_("You play {card} onto {cards}: a build of {value}.") if me
                        else _("{name} plays {card} onto {cards}: a build of {value}."))
            return text.format(name=name, card=styled_name(data["card"]), cards=joined,
                               value=data["value"])
        if kind == "trail":
            text = _("You trail {card}.") if me else _("{name} trails {card}.")
            return text.format(name=name, card=styled_name(data["card"]))
        if kind == "table_taken":
            text = (_("You take the rest of the table: {cards}.") if me
                    else _("{name} takes the rest of the table: {cards}."))
            return text.format(name=name,
                               cards=" ".join(styled_name(c) for c in data["cards"]))
        if kind == "pack_end":
            return self._pack_end(data, viewer, names)
        if kind == "game_over":
            winners = list(data["winners"])
            scores = list(data["scores"])
            sides = side_names(len(names), len(scores), names)
            who = " ".join(sides[w] for w in winners)
            return "[bold]" + _("Game over. Winner: {names} with {points} points.").format(
                names=who, points=max(scores)) + "[/]"
        return super().describe_event(event, viewer=viewer, names=names)

    def _pack_end(self, data: Mapping[str, Any], viewer: Seat | None,
                  names: Sequence[str]) -> str:
        points: Mapping[str, list[int]] = data["points"]
        scores = list(data["scores"])
        sides = side_names(len(names), len(scores), names)
        lines = ["[bold]" + _("Pack {pack} is over. Points:").format(pack=data["pack"]) + "[/]"]
        for key in (*SCORE_ITEMS, "total"):
            row = points[key]
            if key != "total" and not any(row):
                continue
            shares = ", ".join(f"{sides[s]} {p}" for s, p in enumerate(row) if p or key ==
                               "total")
            lines.append(f"  {item_name(key)}: {shares}")
        lines.append(_("Scores: {scores}").format(
            scores=", ".join(f"{sides[s]} {p}" for s, p in enumerate(scores))))
        return "\n".join(lines)

    # ------------------------------------------------------------------ moves
    def describe_moves(self, observation: Any, legal: Sequence[Any], game: Game[Any, Any, Any]
                       ) -> list[str]:
        obs: CasinoObservation = observation
        items = obs.table_items()
        groups: dict[str, list[str]] = {
            _("capture"): [], _("build"): [], _("raise"): [], _("trail"): []}
        for action in legal:
            if isinstance(action, Capture):
                label = _("capture")
            elif isinstance(action, Build):
                label = _("raise") if action.raised else _("build")
            elif isinstance(action, Trail):
                label = _("trail")
            else:  # pragma: no cover - every Casino action is one of the three
                label = "?"
            groups.setdefault(label, []).append(shown_move(format_with_labels(action, items)))
        return [f"{label}: {' · '.join(moves)}" for label, moves in groups.items() if moves]

    def explain_error(self, error: KartentischError, text: str, observation: Any
                      ) -> str | None:
        """The refusal in the current language, from its reason code and params (cards named
        in words), followed by what the played card may do instead, when the engine says."""
        message = describe_error(error, self.localize_param)
        typed = error.params.get("text")
        if not (isinstance(typed, str) and typed and message.startswith(typed)):
            message = message[:1].upper() + message[1:]  # templates are sentence fragments
        if not message.endswith((".", "!", "?")):
            message += "."
        legal = error.params.get("legal")
        card = error.params.get("card")
        if isinstance(legal, list) and legal and isinstance(card, str):
            message += " " + _("Legal with {card}: {moves}.").format(
                card=spoken_card(card), moves=" · ".join(shown_move(str(m)) for m in legal))
        return message

    def normalize_input(self, text: str, observation: Any) -> str:
        """Cards typed in German letters, with suit symbols or German suit words, read as
        the notation (``B♥ x ab`` -> ``Jh x ab``, ``10karo -`` -> ``Td -``)."""
        return " ".join(typed_card(word) for word in text.split())

    def localize_param(self, name: str, value: JSONValue) -> str | None:
        """Cards (``card``, ``missing``) in words; moves and hands stay in notation."""
        if name in ("card", "missing") and isinstance(value, str):
            return spoken_card(value)
        if name in ("hand", "legal", "choices") and isinstance(value, list):
            return ", ".join(shown_move(str(v)) for v in value)
        return None

    def move_label(self, action: Any, observation: Any, game: Game[Any, Any, Any]) -> str:
        """A move with the table's item labels (``7h x ab``), as the player types it."""
        obs: CasinoObservation = observation
        if isinstance(action, Capture | Build | Trail):
            return shown_move(format_with_labels(action, obs.table_items()))
        return shown_move(str(game.format_action(action)))

    def ask_choice(self, error: AmbiguousActionError, observation: Any
                   ) -> tuple[str, list[Choice]]:
        obs: CasinoObservation = observation
        items = obs.table_items()
        answers: list[Choice] = [
            (shown_move(format_with_labels(action, items)), text, "")
            for text, action in error.choices if isinstance(action, Capture | Build | Trail)]
        return _("Which move do you mean?"), answers

    def final_scores(self, observation: Any) -> tuple[str, list[int]] | None:
        """Points at the end (a partnership's points shown for both partners)."""
        scores = list(observation.scores)
        sides = len(scores)
        return _("Points"), [scores[seat % 2 if sides != observation.players else seat]
                             for seat in range(observation.players)]


PRESENTER: Final = CasinoPresenter()
