"""Krumme20 as the outer layers see it (see :mod:`kartentisch.core.descriptor`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from kartentisch.core.descriptor import JSON, GameDescriptor
from kartentisch.core.reasons import N_
from kartentisch.core.search import SearchHooks

if TYPE_CHECKING:
    from kartentisch.core.protocol import Game, State
    from kartentisch.games.krumme20.game import Krumme20

_OPEN_PILES: Final = (("hands", True), ("scores", True), ("ablage", False),
                      ("abwurf", False), ("draw_pile", False))
"""The card places of a position and whether each is one pile per seat."""


def win_range(game: Game[Any, Any, Any]) -> tuple[float, float]:
    """Nothing for a loser, 1 for a lone winner."""
    return 0.0, 1.0


def open_view(state: State[Any, Any]) -> JSON:
    """The spectator's view with both sides of every card shown (a position writes a card
    as ``"up/down"`` with marks after it, or as an object with that ``card``; see
    :mod:`.documents`)."""
    view: JSON = state.observation(None).to_json()
    full = state.to_json()
    for key, per_seat in _OPEN_PILES:
        mine = view[key] if per_seat else [view[key]]
        theirs = full[key] if per_seat else [full[key]]
        for pile, full_pile in zip(mine, theirs, strict=True):
            for card, full_card in zip(pile, full_pile, strict=True):
                # a plain card is written short ("4/2", "4/2x+"), another as an object
                text = full_card["card"] if isinstance(full_card, dict) else full_card
                up, down = str(text)[:3].split("/")
                card["up"], card["down"] = int(up), int(down)
    return view


def search_hooks(game: Krumme20) -> SearchHooks:
    """Evaluation by the points, the fast rollout policy and the search's candidates."""
    return SearchHooks(evaluate=game.evaluate, search_candidates=game.search_candidates,
                       rollout_action=game.rollout_action, defaults=game.search_defaults)


def teams(game: Game[Any, Any, Any]) -> tuple[tuple[int, ...], ...]:
    """The seats of each team of the team variant (option ``teams``); ``()`` without it."""
    from kartentisch.games.krumme20.teams import team_seats

    return team_seats(str(getattr(game.options, "teams", "none")), game.players)


def statistics(state: State[Any, Any]) -> dict[str, float]:
    """Turns and fouls of a finished game."""
    return {"turns": float(getattr(state, "turns", 0)),
            "fouls": float(sum(getattr(state, "fouls", []) or [0]))}


DESCRIPTOR: Final = GameDescriptor(
    name="krumme20",
    game="kartentisch.games.krumme20.game:Krumme20",
    returns_help=N_("The winners share 1; everybody else gets 0. In team play every member "
                    "of a winning team gets its team's share."),
    win_range=win_range,
    open_view=open_view,
    search_hooks=search_hooks,
    statistics=statistics,
    stat_labels={"turns": N_("turns per game"), "fouls": N_("fouls per game")},
    presenter="kartentisch.cli.presenters.krumme20",
    page_module="krumme20.js",
    bots={"heuristic": "kartentisch.games.krumme20.heuristic:HeuristicBot"},
    encoding="kartentisch.rl.encodings.krumme20:Krumme20Encoding",
    teams=teams,
)
"""Krumme20's descriptor (the registry hands it out)."""
