"""Casino as the outer layers see it (see :mod:`kartentisch.core.descriptor`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from kartentisch.core.descriptor import JSON, GameDescriptor
from kartentisch.core.reasons import N_
from kartentisch.core.search import SearchHooks

if TYPE_CHECKING:
    from kartentisch.core.protocol import Game, State
    from kartentisch.games.casino.game import Casino


def win_range(game: Game[Any, Any, Any]) -> tuple[float, float]:
    """A loser gets −1; a lone winner (or a partnership) gets what the others lose."""
    sides = 2 if getattr(game.options, "partnerships", False) else game.players
    return -1.0, float(sides - 1) if sides > 2 else 1.0


def open_view(state: State[Any, Any]) -> JSON:
    """The spectator's view with every hand shown."""
    view: JSON = state.observation(None).to_json()
    view["hands"] = [list(hand) for hand in state.to_json()["hands"]]
    return view


def search_hooks(game: Casino) -> SearchHooks:
    """Evaluation by the scores, the hand as horizon, the heuristic's fast rollouts."""
    return SearchHooks(evaluate=game.evaluate, horizon_key=game.horizon_key,
                       rollout_action=game.rollout_action, defaults=game.search_defaults)


def teams(game: Game[Any, Any, Any]) -> tuple[tuple[int, ...], ...]:
    """The partnerships (seats 0+2 and 1+3 of four), ``()`` when every seat scores alone."""
    if not getattr(game.options, "partnerships", False):
        return ()
    casino = cast("Casino", game)
    return tuple(tuple(seat for seat in range(casino.players) if casino.side_of(seat) == side)
                 for side in range(casino.sides))


def statistics(state: State[Any, Any]) -> dict[str, float]:
    """Packs of a finished game and the points scored per pack."""
    results = getattr(state, "pack_results", [])
    return {"packs": float(len(results)),
            "points": float(sum(sum(r["total"]) for r in results) / max(len(results), 1))}


DESCRIPTOR: Final = GameDescriptor(
    name="casino",
    game="kartentisch.games.casino.game:Casino",
    returns_help=N_("Each losing player gets −1; the winners share what the losers lose."),
    win_range=win_range,
    open_view=open_view,
    search_hooks=search_hooks,
    statistics=statistics,
    stat_labels={"packs": N_("packs per game"), "points": N_("points scored per pack")},
    presenter="kartentisch.cli.presenters.casino",
    page_module="casino.js",
    bots={"heuristic": "kartentisch.games.casino.heuristic:HeuristicBot"},
    encoding="kartentisch.rl.encodings.casino:CasinoEncoding",
    train_target="pack",
    train_targets=("game", "pack"),
    teams=teams,
)
"""Casino's descriptor (the registry hands it out)."""
