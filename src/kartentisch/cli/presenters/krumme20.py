"""Krumme20 in the terminal.

Shows one seat's observation: every player's personal cards and score pile as ``up/down``
(a side the viewer does not know is ``?``; crosswise score cards are marked ``×2``), the
play pile with its total, the discard and draw piles, and a line saying what the current
step asks for (the special action after a play, the second card on 15, a compensation).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kartentisch.cli.presenters import Presenter, seat_name
from kartentisch.core.errors import JSONValue
from kartentisch.core.protocol import Event, Game, Seat
from kartentisch.games.krumme20.actions import (
    Claim33,
    ClaimSum,
    Draw,
    Flip,
    FlipScore,
    Lowest,
    Pass,
    Play,
    Second,
    SitOut,
    Take,
    TakeDiscard,
    TakeDraw,
    TakeScore,
    Throw,
)
from kartentisch.games.krumme20.observation import CardView, K20Observation
from kartentisch.games.krumme20.reasons import PHASE_HELP
from kartentisch.locale import _, ngettext

_INDEXED_STEPS: Final = {"turn": "p", "five": "f", "throw": "t", "foul": "low ", "sitout": "low "}
"""A bare number typed in these steps means this move (``2`` -> ``p2`` on one's turn)."""
_OWN_CARD: Final = re.compile(r"^(flip|drehen)\s+h\s*(\d+)$")
"""``flip h2`` / ``drehen h2``: the viewer's own personal card 2."""


def side_text(value: int | None, mask: int, everyone: int, public_only: bool) -> str:
    """A side's number, or ``?`` when the viewer does not know it.

    >>> side_text(3, 7, 7, False), side_text(None, 0, 7, False), side_text(4, 1, 7, True)
    ('3', '?', '?')
    """
    if value is None or (public_only and mask != everyone):
        return "?"
    return str(value)


def card_label(card: CardView, everyone: int, public_only: bool = False) -> str:
    """``up/down`` for a card as the viewer knows it (``×2`` for a crosswise score card).

    >>> card_label(CardView(3, None, 7, 0, True), 7)
    '3/?×2'
    """
    text = (side_text(card.up, card.up_known, everyone, public_only) + "/"
            + side_text(card.down, card.down_known, everyone, public_only))
    return text + ("×2" if card.cross else "")


def team_name(team: int) -> str:
    """A team's name: "Team 1", "Team 2", ... (the page's colours say the same)."""
    return _("Team {n}").format(n=team + 1)


def team_members(seats: Sequence[int], names: Sequence[str]) -> str:
    """A team's members by name: "Ana + Cleo"."""
    return " + ".join(seat_name(names, s) for s in seats)


def team_lines(obs: K20Observation, viewer: Seat | None, names: Sequence[str]) -> list[str]:
    """The team variant: every team with its members and points (the sum of theirs), and
    whom the viewer plays with (rich markup)."""
    lines = [_("{team} ({members}): {points} points").format(
        team=team_name(t), members=team_members(seats, names), points=obs.team_points[t])
        for t, seats in enumerate(obs.teams)]
    out = ["[bold]" + _("Team points: {teams}").format(teams=" · ".join(lines)) + "[/]"]
    if viewer is not None:
        mine = obs.team_of(viewer)
        mates = [s for s in obs.teams[mine] if s != viewer]
        out.append(_("You play in {team} with {names}.").format(
            team=team_name(mine), names=" + ".join(seat_name(names, s) for s in mates)))
    return out


class Krumme20Presenter(Presenter):
    """Presenter of Krumme20."""

    game = "krumme20"

    def __init__(self) -> None:
        self.compensation_takes = False
        """Whether the compensation is taken like the 1's action (``compensation=take``):
        the compensation steps then ask for that, not for a draw."""

    def use_game(self, game: Game[Any, Any, Any]) -> None:
        options = getattr(game, "options", None)
        self.compensation_takes = getattr(options, "compensation", "draw") == "take"

    def help_line(self) -> str:
        return _("Moves: p2 = play card 2 · f2 = card 2 as the 5 on 15 · t2 = throw card 2 as "
                 "a 3 · flip 1:2 / flip s1 · take 1:2 / take s1 / take draw / take discard · "
                 "draw · sitout · low 2 · 33 1,2,3 · sum up / sum down · pass · ? = help · "
                 "German words work too: spielen 2, fünf 2, werfen 2, drehen 1:2, nehmen s1, "
                 "nehmen nachzieh, nehmen abwurf, ziehen, aussetzen, klein 2, summe oben, "
                 "summe unten, passen")

    # ------------------------------------------------------------------ the table
    def render(self, observation: Any, *, viewer: Seat | None, names: Sequence[str]
               ) -> RenderableType:
        obs: K20Observation = observation
        everyone = (1 << obs.players) - 1
        public_only = viewer is None
        parts: list[RenderableType] = []
        parts.append(Text(_("Krumme20 · turn {turn} · play pile total {total} of {target}")
                          .format(turn=obs.turns, total=obs.total, target=obs.target),
                          style="bold underline"))
        table = Table(box=None, pad_edge=False, show_edge=False)
        table.add_column("")
        table.add_column(_("Player"))
        if obs.teams:
            table.add_column(_("Team"))
        table.add_column(_("Points"), justify="right")
        table.add_column(_("Personal cards"))
        table.add_column(_("Score pile"))
        table.add_column("")
        for seat in range(obs.players):
            marker = "▶" if seat == obs.current_player else ""
            hand = " ".join(f"{i + 1}:{card_label(c, everyone, public_only)}"
                            for i, c in enumerate(obs.hands[seat])) or "–"
            score = " ".join(card_label(c, everyone, public_only)
                             for c in obs.scores[seat]) or "–"
            notes = []
            if obs.sitting_out[seat]:
                notes.append(_("sits out"))
            if obs.fouls[seat]:
                notes.append(ngettext("{n} foul", "{n} fouls", obs.fouls[seat]).format(
                    n=obs.fouls[seat]))
            team = [team_name(obs.team_of(seat))] if obs.teams else []
            table.add_row(marker, Text.from_markup(seat_name(names, seat)), *team,
                          str(obs.points[seat]), hand, score, ", ".join(notes))
        parts.append(table)
        if obs.teams:
            parts.extend(Text.from_markup(line) for line in team_lines(obs, viewer, names))
        pile = " ".join(card_label(c, everyone, public_only) for c in obs.ablage) or "–"
        parts.append(Text(_("Play pile (Ablagestapel): {cards} → total {total}").format(
            cards=pile, total=obs.total), style="bold"))
        if obs.zeros:
            parts.append(Text(ngettext("{n} zero in a row on the play pile.",
                                       "{n} zeros in a row on the play pile.", obs.zeros)
                              .format(n=obs.zeros)))
        top = card_label(obs.abwurf[-1], everyone, public_only) if obs.abwurf else "–"
        parts.append(Text(_("Discard pile (Abwurfstapel): {count} cards, top {card}").format(
            count=len(obs.abwurf), card=top)))
        draw_top = (side_text(obs.draw_pile[-1].up, obs.draw_pile[-1].up_known, everyone,
                              public_only) if obs.draw_pile else "–")
        parts.append(Text(_("Draw pile (Nachziehstapel): {count} cards, top shows {up}")
                          .format(count=obs.draw_size, up=draw_top)))
        if obs.final_turns is not None and obs.phase != "over":
            parts.append(Text(ngettext("Final lap: {n} more turn after this one.",
                                       "Final lap: {n} more turns after this one.",
                                       obs.final_turns).format(n=obs.final_turns),
                              style="yellow"))
        if viewer is not None and obs.phase != "over":
            parts.append(Text(_("Your personal cards (up/down, ? = side you do not know):"),
                              style="bold"))
            mine = "   ".join(f"{i + 1}: {card_label(c, everyone)}"
                              for i, c in enumerate(obs.hand))
            parts.append(Text(mine or _("(no cards)")))
            if obs.current_player == viewer:
                parts.append(Text.from_markup(self.step_line(obs, names)))
        return Group(*parts)

    def step_line(self, obs: K20Observation, names: Sequence[str]) -> str:
        """What the current step asks of the player to move, in words."""
        phase = obs.phase
        n = len(obs.hand)
        if phase == "turn":
            text = _("Your turn: play a personal card (p1 … p{n}); a 3/3 or Σ set may be "
                     "shown first.").format(n=n)
        elif phase == "flip":
            text = _("Special action of the 0: turn a card over for good (flip seat:card, "
                     "flip s1 …), or pass.")
        elif phase == "take":
            text = _("Special action of the 1: take a card (take seat:card, take s1, take "
                     "draw, take discard), or pass.")
        elif phase == "draw":
            text = _("Special action of the 2: draw a card (draw), or pass to stop.")
        elif phase == "throw":
            text = _("Special action of the 3: throw a further card as a 3 (t1 …), or pass "
                     "to stop.")
        elif phase == "four":
            victim = seat_name(names, (obs.turn_player + 1) % obs.players)
            text = _("Special action of the 4: make {name} sit out (sitout), or pass.").format(
                name=victim)
        elif phase == "five":
            text = _("The total is {total}: play a second card as a 5 (f1 …), or pass.").format(
                total=obs.total)
        elif phase == "after":
            text = _("After your play: show a 3/3 set or a Σ set, or pass to end your turn.")
        elif phase == "foul":
            text = _("{name} committed a foul: put one of your lowest personal cards onto "
                     "your score pile (low …), or pass.").format(
                name=seat_name(names, obs.turn_player))
        elif phase == "loss" and self.compensation_takes:
            text = _("A card was taken from you: as compensation take a card like the 1's "
                     "action (take seat:card, take s1, take draw, take discard), or pass.")
        elif phase == "sitout" and self.compensation_takes:
            text = _("You must sit out: as compensation take a card like the 1's action, or "
                     "with five cards put a lowest one onto your score pile; or pass.")
        elif phase == "loss":
            text = _("A card was taken from you: draw one as compensation (draw), or pass.")
        elif phase == "sitout":
            text = _("You must sit out: as compensation draw a card, or with five cards put "
                     "a lowest one onto your score pile; or pass.")
        else:
            return ""
        return "[bold yellow]" + text + "[/]"

    # ------------------------------------------------------------------ events
    def describe_event(self, event: Event, *, viewer: Seat | None, names: Sequence[str]
                       ) -> str | None:
        """One line per event; a turn's events are grouped under its heading (indented). A
        skipped turn (sitting out, no personal card) has no turn of its own to sit under: it
        is a heading itself, so it is not read as part of the turn before."""
        line = self._event_line(event, viewer=viewer, names=names)
        if line is None or event.kind in ("deal", "turn", "game_over"):
            return line
        if event.kind in ("sat_out", "no_card"):
            return "\n[bold]── " + line.rstrip(".") + " ──[/]"
        return "  " + line

    def passed_up(self, step: str) -> str | None:
        """What a pass in ``step`` passed up, in words (``None``: a step without a name)."""
        return {
            "flip": _("the 0's special action (turning a card over)"),
            "take": _("the 1's special action (taking a card)"),
            "draw": _("the 2's special action (drawing a card)"),
            "throw": _("the 3's special action (throwing a further card)"),
            "four": _("the 4's special action (making the next player sit out)"),
            "five": _("a second card as a 5"),
            "after": _("showing a set"),
            "foul": _("the reward for the foul"),
            "loss": _("the compensation for the card taken"),
            "sitout": _("the compensation for sitting out"),
        }.get(step)

    def _event_line(self, event: Event, *, viewer: Seat | None, names: Sequence[str]
                    ) -> str | None:
        name = seat_name(names, event.seat)
        me = viewer is not None and event.seat == viewer
        data = event.data
        kind = event.kind
        if kind == "deal":
            text = _("── New game: first turn to {name} (highest personal cards) ──")
            return "[bold]" + text.format(name=seat_name(names, data["start"])) + "[/]"
        if kind == "turn":
            return "\n[bold]" + _("── Turn {turn}: {name}, total {total} ──").format(
                turn=data["turn"], name=name, total=data["total"]) + "[/]"
        if kind == "play":
            return _("{name} played a card counting {number}: total {total}.").format(
                name=name, number=f"[bold]{data['number']}[/]", total=data["total"])
        if kind == "second":
            return _("{name} played a second card as a 5, counting {number}: total "
                     "{total}.").format(name=name, number=f"[bold]{data['number']}[/]",
                                        total=data["total"])
        if kind == "throw":
            return _("{name} threw a card as a 3; it shows {number}.").format(
                name=name, number=data["number"])
        if kind == "flip":
            return _("{name} turned personal card {index} of {owner} over: now {card}.").format(
                name=name, index=data["index"] + 1, owner=seat_name(names, data["owner"]),
                card=data["card"])
        if kind == "flip_score":
            return _("{name} turned score card {index} over: now {card}.").format(
                name=name, index=data["index"] + 1, card=data["card"])
        if kind == "take":
            return _("{name} took personal card {index} of {victim} ({up} up).").format(
                name=name, index=data["index"] + 1, victim=seat_name(names, data["from"]),
                up=data["up"])
        if kind == "take_score":
            return _("{name} took a card back from the score pile ({up} up).").format(
                name=name, up=data["up"])
        if kind in ("take_draw", "draw"):
            return _("{name} drew a card ({up} up).").format(name=name, up=data["up"])
        if kind == "take_discard":
            return _("{name} took the top of the discard pile ({up} up).").format(
                name=name, up=data["up"])
        if kind == "sitout":
            victim = data["victim"]
            if viewer is not None and victim == viewer:
                return _("{name} makes you sit out: you must sit out.").format(name=name)
            text = _("You make {victim} sit out.") if me else _("{name} made {victim} sit out.")
            return text.format(name=name, victim=seat_name(names, victim))
        if kind == "sat_out":
            if me:
                return _("Your turn is skipped (you sit out).")
            return _("Turn of {name} skipped (sitting out).").format(name=name)
        if kind == "no_card":
            if me:
                return _("Your turn is skipped (you have no personal card).")
            return _("Turn of {name} skipped (no personal card).").format(name=name)
        if kind == "score":
            if me:
                text = (_("Your score pile: + {card}, crosswise (counts double).")
                        if data["crosswise"] else _("Your score pile: + {card}."))
            else:
                text = (_("Score pile of {name}: + {card}, crosswise (counts double).")
                        if data["crosswise"] else _("Score pile of {name}: + {card}."))
            return "[green]" + text.format(card=data["card"], name=name) + "[/]"
        if kind == "twenty":
            return "[bold green]" + _("{name} hit the target exactly!").format(name=name) + "[/]"
        if kind == "over":
            return "[red]" + _("Over the target ({total}): the play pile is discarded.").format(
                total=data["total"]) + "[/]"
        if kind == "three_zeros":
            return "[bold]" + _("Three 0s in a row turn over ({cards}): total {total}.").format(
                cards=" ".join(data["cards"]), total=data["total"]) + "[/]"
        if kind == "foul":
            return "[bold red]" + _("Foul by {name}: {what}.").format(
                name=name, what=self.foul_name(str(data["kind"]))) + "[/]"
        if kind == "claim33":
            text = (_("{name} showed a 3/3 set ({cards}): right.") if data["true"]
                    else _("{name} showed a 3/3 set ({cards}): wrong."))
            return text.format(name=name, cards=" ".join(data["cards"]))
        if kind == "claim_sum":
            numbers = " + ".join(str(v) for v in data["numbers"])
            text = (_("{name} showed a Σ set ({numbers}): right.") if data["true"]
                    else _("{name} showed a Σ set ({numbers}): wrong."))
            return text.format(name=name, numbers=numbers)
        if kind == "lowest":
            return None  # the "score" event that follows says it
        if kind == "refill":
            count = int(data["count"])
            return ngettext("{name} had no personal card left and drew {count} card.",
                            "{name} had no personal card left and drew {count} cards.",
                            count).format(name=name, count=count)
        if kind == "draw_pile_empty":
            text = (_("The draw pile is empty: final lap, one more turn each.")
                    if data["final_lap"] else
                    _("The draw pile is empty: the game ends with this turn."))
            return "[yellow]" + text + "[/]"
        if kind == "turn_limit":
            return "[yellow]" + _("Turn limit reached: final lap, one more turn each.") + "[/]"
        if kind == "pass":
            what = self.passed_up(str(data.get("step", "")))
            if what is None:
                text = _("You pass.") if me else _("{name} passes.")
            else:
                text = (_("You pass up {what}.") if me else _("{name} passes up {what}."))
            return "[dim]" + text.format(name=name, what=what) + "[/]"
        if kind == "game_over":
            scores = ", ".join(f"{seat_name(names, s)} {v}" for s, v in enumerate(data["scores"]))
            if "team_scores" in data:
                return "[bold]" + self._team_result(data, names, scores) + "[/]"
            winners = ", ".join(seat_name(names, s) for s in data["winners"])
            return "[bold]" + _("Game over. Points: {scores}. Winner: {winners}.").format(
                scores=scores, winners=winners) + "[/]"
        return super().describe_event(event, viewer=viewer, names=names)

    def _team_result(self, data: Mapping[str, Any], names: Sequence[str], scores: str) -> str:
        """The end of a team game: every team's points and the winning team(s)."""
        team_scores: list[int] = data["team_scores"]
        teams: list[list[int]] = data["teams"]
        count = len(team_scores)
        totals = ", ".join(f"{team_name(t)} ({team_members(seats, names)}) {team_scores[t]}"
                           for t, seats in enumerate(teams))
        won = [t for t in range(count) if teams[t][0] in data["winners"]]
        winners = ", ".join(f"{team_name(t)} ({team_members(teams[t], names)})" for t in won)
        text = ngettext("Game over. Team points: {totals}. Winning team: {winners}.",
                        "Game over. Team points: {totals}. Winning teams (a tie): {winners}.",
                        len(won))
        return text.format(totals=totals, winners=winners) + " " + _(
            "Points of each player: {scores}.").format(scores=scores)

    def foul_name(self, kind: str) -> str:
        """A foul's kind in words."""
        names = {
            "over": _("the total went over the target"),
            "three_zeros_over": _("three 0s turned the total over the target"),
            "second_not_five": _("the second card on 15 was not a 5"),
            "throw_not_three": _("the thrown card was not a 3"),
            "claim33": _("the 3/3 set was wrong"),
            "claim_sum": _("the Σ set was wrong"),
        }
        return names.get(kind, kind)

    # ------------------------------------------------------------------ moves
    def move_words(self, action: Any, names: Sequence[str]) -> str | None:
        """The move as the page says it ("play personal card 2", "take card 1 of Bo"):
        positions and seats only, never a card's hidden side."""
        match action:
            case Play(i):
                return _("play personal card {n}").format(n=i + 1)
            case Second(i):
                return _("play personal card {n} as a second card (a 5)").format(n=i + 1)
            case Throw(i):
                return _("throw personal card {n} as a 3").format(n=i + 1)
            case Lowest(i):
                return _("put personal card {n} on your score pile").format(n=i + 1)
            case Flip(s, i):
                return _("turn over card {n} of {name}").format(n=i + 1,
                                                                name=seat_name(names, s))
            case Take(s, i):
                return _("take card {n} of {name}").format(n=i + 1, name=seat_name(names, s))
            case FlipScore(i):
                return _("turn over card {n} of your score pile").format(n=i + 1)
            case TakeScore(i):
                return _("take card {n} back from your score pile").format(n=i + 1)
            case TakeDraw():
                return _("take the top of the draw pile")
            case TakeDiscard():
                return _("take the top of the discard pile")
            case Draw():
                return _("draw a card")
            case SitOut():
                return _("make the next player sit out")
            case ClaimSum(down):
                return (_("show your cards: down sides sum to the target") if down
                        else _("show your cards: up sides sum to the target"))
            case Claim33(cards):
                return _("show cards {cards} as 3/3").format(
                    cards=", ".join(str(i + 1) for i in cards))
            case Pass():
                return _("pass")
        return None

    def describe_moves(self, observation: Any, legal: Sequence[Any], game: Game[Any, Any, Any]
                       ) -> list[str]:
        groups: dict[str, list[str]] = {}
        labels = [
            ((Play,), _("play")),
            ((Second,), _("second card as a 5")),
            ((Throw,), _("throw as a 3")),
            ((Flip, FlipScore), _("turn over")),
            ((Take, TakeScore, TakeDraw, TakeDiscard), _("take")),
            ((Draw,), _("draw")),
            ((SitOut,), _("sit out")),
            ((Lowest,), _("onto your score pile")),
            ((Claim33, ClaimSum), _("show a set")),
            ((Pass,), _("decline")),
        ]
        for action in legal:
            for kinds, label in labels:
                if isinstance(action, kinds):
                    groups.setdefault(label, []).append(game.format_action(action))
                    break
        return [f"{label}: {'  '.join(moves)}" for label, moves in groups.items()]

    def normalize_input(self, text: str, observation: Any) -> str:
        """A bare number means the step's card move (``2`` -> ``p2``, ``f2``, ``t2``,
        ``low 2``); ``flip h2`` (``drehen h2``) means one's own personal card 2. The German
        command words need no rewriting: the game reads them itself."""
        obs: K20Observation = observation
        stripped = " ".join(text.strip().lower().split())
        prefix = _INDEXED_STEPS.get(obs.phase)
        if stripped.isdigit() and prefix is not None:
            return prefix + stripped
        if (m := _OWN_CARD.match(stripped)) and obs.seat is not None:
            return f"{m.group(1)} {obs.seat}:{m.group(2)}"
        return text

    def localize_param(self, name: str, value: JSONValue) -> str | None:
        """A step of the turn (``step``, a phase name) in words; moves and numbers as they
        are (the notation is the same in every language)."""
        if name == "step" and isinstance(value, str) and value in PHASE_HELP:
            return _(PHASE_HELP[value])
        return None

    def final_scores(self, observation: Any) -> tuple[str, list[int]] | None:
        """Points at the end; in the team game each seat's team points (the team's sum, which
        decides), as the table above shows each player's own."""
        obs: K20Observation = observation
        if obs.teams:
            return _("Team points"), [obs.team_points[obs.team_of(s)]
                                      for s in range(obs.players)]
        return _("Points"), list(obs.points)


PRESENTER: Final = Krumme20Presenter()
