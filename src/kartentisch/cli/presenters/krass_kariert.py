"""Krass Kariert in the terminal: the reference presenter.

Shows one seat's observation (own hand with 1-based positions, every reserve, chips, hand
sizes with the positions the table knows, the round so far, the piles) and turns events into
one line each. Hand cards print as their notation: 1-12, ``X``, ``N`` (Nachzieh), ``S`` (Stopp).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kartentisch.cli.presenters import Choice, Presenter, seat_name
from kartentisch.core.errors import AmbiguousActionError, JSONValue
from kartentisch.core.protocol import Event, Game, Seat
from kartentisch.games.krass_kariert.actions import (
    Concede,
    InsertDrawn,
    Play,
    TakeReserve,
    format_action,
)
from kartentisch.games.krass_kariert.cards import (
    KIND_KEYS,
    NACHZIEH,
    NO_COMBINATION,
    STOPP,
    X,
    card_name,
    evaluate,
    high_of,
    kind_of,
)
from kartentisch.games.krass_kariert.observation import KKObservation
from kartentisch.games.krass_kariert.reasons import COMBINATION_PARAMS, combination_words
from kartentisch.locale import _, ngettext

CARD_STYLES: Final = {X: "bold magenta", NACHZIEH: "bold cyan", STOPP: "bold red"}


def kind_name(key: str) -> str:
    """The rulebook's name of a kind of combination (``pair`` -> "Paar" in German)."""
    names = {
        "single": _("single"),
        "run2": _("2-run"),
        "pair": _("pair"),
        "run3": _("3-run"),
        "triple": _("triple"),
    }
    return names[key]


def describe_strength(value: int) -> str:
    """A combination's strength in words in the current language, e.g. "pair of 5s"."""
    if value == NO_COMBINATION:
        return _("nothing")
    high = high_of(value)
    templates = {
        "single": _("single {high}"),
        "run2": _("2-run up to {high}"),
        "pair": _("pair of {high}s"),
        "run3": _("3-run up to {high}"),
        "triple": _("triple of {high}s"),
    }
    return templates[KIND_KEYS[kind_of(value)]].format(high=high)


def show_cards(cards: Sequence[str], x_values: Sequence[int]) -> str:
    """Cards as played, with each X's declared value: ``7 X=8``.

    >>> show_cards(["7", "X"], [8])
    '7 X=8'
    """
    values = list(x_values)
    shown = []
    for name in cards:
        if name == "X" and values:
            shown.append(f"X={values.pop(0)}")
        else:
            shown.append(name)
    return " ".join(shown)


def describe_combination(value: int, cards: Sequence[str], x_values: Sequence[int]) -> str:
    """A played combination: its strength, and its cards when they add anything."""
    if len(cards) == 1 and not x_values:
        return describe_strength(value)
    return f"{describe_strength(value)} ({show_cards(cards, x_values)})"


def styled_card(card: int) -> Text:
    """One card as coloured text."""
    return Text(card_name(card), style=CARD_STYLES.get(card, "bold"))


def play_strength(hand: Sequence[int], action: Play) -> int:
    """The strength of ``action`` played from ``hand`` (``NO_COMBINATION`` for specials)."""
    window = hand[action.start:action.start + action.length]
    if any(c in (NACHZIEH, STOPP) for c in window):
        return NO_COMBINATION
    numbers = tuple(c for c in window if c != X) + tuple(action.x_values)
    return evaluate(numbers)


class KrassKariertPresenter(Presenter):
    """Presenter of Krass Kariert."""

    game = "krass-kariert"

    def __init__(self) -> None:
        self._deal = 0
        self._first_round: dict[int, int] = {}
        """Per deal (1-based), the engine's running round number of its first round: the
        engine counts rounds over the whole game, the players count them per deal."""

    def _round_in_deal(self, deal: int, running: int) -> int | None:
        """The running round number ``running`` counted within deal ``deal`` (from 1)."""
        first = self._first_round.get(deal)
        return None if first is None else running - first + 1

    def help_line(self) -> str:
        return _("Moves: 4 = play position 4 · 4-6 = positions 4 to 6 · 4-5x7 = with X as 7 · "
                 "r1@3 = reserve card 1 to position 3 · @3 = drawn card to position 3 · "
                 "concede · ? = help and legal moves")

    # ------------------------------------------------------------------ the table
    def render(self, observation: Any, *, viewer: Seat | None, names: Sequence[str]
               ) -> RenderableType:
        obs: KKObservation = observation
        parts: list[RenderableType] = []
        in_deal = self._round_in_deal(obs.deal + 1, obs.rounds + 1)
        title = (_("Krass Kariert · deal {deal}").format(deal=obs.deal + 1) if in_deal is None
                 else _("Krass Kariert · deal {deal} · round {round}").format(
                     deal=obs.deal + 1, round=in_deal))
        parts.append(Text(title, style="bold underline"))
        parts.append(self._players_table(obs, viewer, names))
        parts.append(Text.from_markup(self._round_line(obs, names)))
        parts.append(Text(_("Draw pile (Nachziehstapel): {draw} cards · discard pile "
                            "(Ablagestapel): {discard} cards").format(
            draw=obs.draw_size, discard=len(obs.discard))))
        if viewer is not None and obs.phase != "over":
            legend = _("Your hand (• = seen by the others; N = Nachzieh, S = Stopp)")
            parts.append(Text(legend, style="bold"))
            parts.append(self._hand_table(obs))
            if obs.pending is not None:
                parts.append(Text.from_markup(
                    _("You drew [bold]{card}[/]: insert it with @1 … @{last} "
                      "({left} left to draw after this)").format(
                        card=card_name(obs.pending), last=len(obs.hand) + 1,
                        left=obs.draws_left - 1)))
        return Group(*parts)

    def _players_table(self, obs: KKObservation, viewer: Seat | None,
                       names: Sequence[str]) -> Table:
        table = Table(box=None, pad_edge=False, show_edge=False)
        table.add_column("")
        table.add_column(_("Player"))
        table.add_column(_("Chips"), justify="right")
        table.add_column(_("Cards"), justify="right")
        table.add_column(_("Known (pos:card)"))
        table.add_column(_("Reserve 1"), justify="center")
        table.add_column(_("Reserve 2"), justify="center")
        for seat in range(obs.players):
            marker = "▶" if seat == obs.current_player else ""
            known = " ".join(f"{i + 1}:{card_name(c)}"
                             for i, c in enumerate(obs.public_hands[seat]) if c is not None)
            reserves = [styled_card(c) for c in obs.reserves[seat]]
            while len(reserves) < 2:
                reserves.append(Text("–", style="dim"))
            count: Text | str = str(len(obs.public_hands[seat]))
            if not obs.in_deal[seat]:
                count = Text(_("out"), style="dim")
            table.add_row(marker, Text.from_markup(seat_name(names, seat)),
                          str(obs.chips[seat]), count, known, reserves[0], reserves[1])
        return table

    def _round_line(self, obs: KKObservation, names: Sequence[str]) -> str:
        acts = []
        for act in obs.round_acts:
            who = seat_name(names, act.seat)
            if act.kind == "combination":
                what = describe_combination(act.strength, [card_name(c) for c in act.cards],
                                            act.x_values)
            elif act.kind == "stopp":
                what = _("Stopp")
            elif act.kind == "nachzieh":
                what = _("Nachzieh")
            else:
                what = _("reserve card {card} → position {position}").format(
                    card=card_name(act.cards[0]), position=act.position + 1)
            acts.append(f"{who}: {what}")
        so_far = " · ".join(acts) if acts else _("nothing played yet")
        line = _("This round: {acts}").format(acts=so_far)
        if obs.phase == "play":
            line += " — " + _("to beat: {best}").format(best=describe_strength(obs.best))
        return line

    def _hand_table(self, obs: KKObservation) -> Table:
        table = Table(box=None, pad_edge=False, show_header=True)
        assert obs.seat is not None  # only a seat's own view shows a hand
        public = obs.public_hands[obs.seat]
        for index in range(len(obs.hand)):
            mark = "•" if index < len(public) and public[index] is not None else ""
            table.add_column(f"{index + 1}{mark}", justify="center")
        if obs.hand:
            table.add_row(*(styled_card(c) for c in obs.hand))
        else:
            table.add_column(_("(no cards)"))
        return table

    def final_scores(self, observation: Any) -> tuple[str, list[int]] | None:
        """Chips left at the end."""
        return _("Chips"), list(observation.chips)

    def between_deals(self, event: Event, observation: Any, names: Sequence[str]
                      ) -> str | None:
        """Everybody's chips before a new deal (from the second deal on)."""
        if event.kind != "deal_start" or int(event.data["deal"]) <= 1:
            return None
        chips = " · ".join(f"{seat_name(names, seat)} {count}"
                           for seat, count in enumerate(observation.chips))
        return "[bold]" + _("After deal {deal} the chips stand: {chips}").format(
            deal=int(event.data["deal"]) - 1, chips=chips) + "[/]"

    # ------------------------------------------------------------------ events
    def describe_event(self, event: Event, *, viewer: Seat | None, names: Sequence[str]
                       ) -> str | None:
        me = viewer is not None and event.seat == viewer
        name = seat_name(names, event.seat)
        data = event.data
        kind = event.kind
        if kind == "deal_start":
            self._deal = int(data["deal"])
            if self._deal == 1:
                self._first_round.clear()
            self._first_round.pop(self._deal, None)
            return "[bold]" + _("── Deal {deal} begins ──").format(deal=data["deal"]) + "[/]"
        if kind == "round_start":
            running = int(data["round"])
            self._first_round.setdefault(self._deal, running)
            number = self._round_in_deal(self._deal, running)
            text = (_("Round {round}: you lead.") if me else _("Round {round}: {name} leads."))
            return "[dim]" + text.format(round=number, name=name) + "[/]"
        if kind == "combination":
            combo = describe_combination(
                16 * KIND_KEYS.index(data["kind"]) + data["high"], data["cards"],
                data["x_values"])
            text = _("You play {combination}.") if me else _("{name} plays {combination}.")
            return text.format(name=name, combination=f"[bold]{combo}[/]")
        if kind == "stopp":
            text = (_("You play Stopp: the round ends at once.") if me
                    else _("{name} plays Stopp: the round ends at once."))
            return text.format(name=name)
        if kind == "nachzieh":
            text = _("You play Nachzieh.") if me else _("{name} plays Nachzieh.")
            return text.format(name=name)
        if kind == "reserve":
            text = (_("You take reserve card {card} into your hand at position {position}.")
                    if me else
                    _("{name} takes reserve card {card} into the hand at position {position}."))
            return text.format(name=name, card=data["card"], position=data["position"] + 1)
        if kind == "draw":
            if "card" in data:
                card = f"[bold]{data['card']}[/]"
                return _("You draw {card} from the draw pile.").format(card=card)
            return _("{name} draws a card from the draw pile.").format(name=name)
        if kind == "insert":
            if "card" in data:
                return _("You insert {card} at position {position}.").format(
                    card=data["card"], position=data["position"] + 1)
            return _("{name} inserts the drawn card at position {position}.").format(
                name=name, position=data["position"] + 1)
        if kind == "round_won":
            count = 3 * int(data.get("nachzieh", 0))
            if count:
                text = (_("You win the round and draw {count} cards.") if me
                        else _("{name} wins the round and draws {count} cards."))
            else:
                text = _("You win the round.") if me else _("{name} wins the round.")
            return text.format(name=name, count=count)
        if kind == "out":
            text = (_("You have no cards left and are out of this deal.") if me
                    else _("{name} has no cards left and is out of this deal."))
            return text.format(name=name)
        if kind == "concede":
            text = (_("You concede: the deal ends.") if me
                    else _("{name} concedes: the deal ends."))
            return text.format(name=name)
        if kind == "chip_lost":
            chips = int(data["chips"])
            if me:
                text = ngettext("You give up a chip ({chips} chip left).",
                                "You give up a chip ({chips} chips left).", chips)
            else:
                text = ngettext("{name} gives up a chip ({chips} chip left).",
                                "{name} gives up a chip ({chips} chips left).", chips)
            return "[yellow]" + text.format(name=name, chips=chips) + "[/]"
        if kind == "no_chip":
            text = (_("You have no chip left to give.") if me
                    else _("{name} has no chip left to give."))
            return "[red]" + text.format(name=name) + "[/]"
        if kind == "game_over":
            losers = list(data["losers"])
            if viewer is not None and losers == [viewer]:
                return "[bold red]" + _("Game over: you lose.") + "[/]"
            who = ", ".join(seat_name(names, s) for s in losers)
            text = ngettext("Game over: {names} loses.", "Game over: {names} lose.", len(losers))
            return "[bold]" + text.format(names=who) + "[/]"
        if kind == "deal_end":
            return None
        return super().describe_event(event, viewer=viewer, names=names)

    # ------------------------------------------------------------------ moves
    def describe_moves(self, observation: Any, legal: Sequence[Any], game: Game[Any, Any, Any]
                       ) -> list[str]:
        obs: KKObservation = observation
        lines: list[str] = []
        groups: dict[str, list[str]] = {}
        reserves: dict[int, list[int]] = {}
        inserts: list[int] = []
        concede = False
        for action in legal:
            if isinstance(action, Play):
                first = obs.hand[action.start]
                if first == STOPP:
                    label = _("Stopp")
                elif first == NACHZIEH:
                    label = _("Nachzieh")
                else:
                    label = kind_name(KIND_KEYS[kind_of(play_strength(obs.hand, action))])
                groups.setdefault(label, []).append(format_action(action))
            elif isinstance(action, TakeReserve):
                reserves.setdefault(action.reserve, []).append(action.position)
            elif isinstance(action, InsertDrawn):
                inserts.append(action.position)
            elif isinstance(action, Concede):
                concede = True
        for label, moves in groups.items():
            lines.append(f"{label}: {' '.join(moves)}")
        for reserve, positions in sorted(reserves.items()):
            assert obs.seat is not None  # reserve moves are offered to a seat only
            card = card_name(obs.reserves[obs.seat][reserve])
            lines.append(_("reserve card {n} ({card}): r{n}@{first} … r{n}@{last}").format(
                n=reserve + 1, card=card, first=min(positions) + 1, last=max(positions) + 1))
        if inserts:
            lines.append(_("insert the drawn card: @{first} … @{last}").format(
                first=min(inserts) + 1, last=max(inserts) + 1))
        if concede:
            lines.append(_("give up the deal: concede"))
        return lines

    def normalize_input(self, text: str, observation: Any) -> str:
        """While drawing, a bare position number means "insert here" (``3`` -> ``@3``)."""
        obs: KKObservation = observation
        stripped = text.strip()
        if obs.phase == "draw" and obs.pending is not None and stripped.isdigit():
            return "@" + stripped
        return text

    def localize_param(self, name: str, value: JSONValue) -> str | None:
        """Combinations in reason params (``{"kind": "pair", "high": 7}``) in words of the
        current language ("ein Paar 7er"); every other param is shown as it is."""
        if name in COMBINATION_PARAMS:
            return combination_words(value, _)
        return None

    def ask_choice(self, error: AmbiguousActionError, observation: Any
                   ) -> tuple[str, list[Choice]]:
        obs: KKObservation = observation
        actions = [a for _text, a in error.choices]
        if actions and all(isinstance(a, Play) for a in actions):
            answers: list[Choice] = []
            for text, action in error.choices:
                assert isinstance(action, Play)
                label = ",".join(str(v) for v in action.x_values)
                answers.append((label, text, describe_strength(play_strength(obs.hand, action))))
            return _("Which value should the X card stand for?"), answers
        if actions and all(isinstance(a, TakeReserve) for a in actions):
            first = actions[0]
            assert isinstance(first, TakeReserve)
            assert obs.seat is not None  # a question goes to a seat, not a spectator
            card = card_name(obs.reserves[obs.seat][first.reserve])
            question = _("At which position should reserve card {n} ({card}) go?").format(
                n=first.reserve + 1, card=card)
            return question, [(str(a.position + 1), text, "")
                              for text, a in error.choices if isinstance(a, TakeReserve)]
        return super().ask_choice(error, observation)



PRESENTER: Final = KrassKariertPresenter()
