"""Krass Kariert as the outer layers see it (see :mod:`kartentisch.core.descriptor`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from kartentisch.core.descriptor import JSON, GameDescriptor
from kartentisch.core.reasons import N_
from kartentisch.core.search import SearchHooks

if TYPE_CHECKING:
    from kartentisch.core.protocol import Game, State
    from kartentisch.games.krass_kariert.game import KrassKariert


def win_range(game: Game[Any, Any, Any]) -> tuple[float, float]:
    """A loser gets −1; a lone loser's loss is shared by everybody else."""
    return -1.0, 1.0 / (game.players - 1)


def open_view(state: State[Any, Any]) -> JSON:
    """The spectator's view with every hand shown (``public_hands``)."""
    view: JSON = state.observation(None).to_json()
    view["public_hands"] = [[c["card"] for c in hand] for hand in state.to_json()["hands"]]
    return view


def search_hooks(game: KrassKariert) -> SearchHooks:
    """Every hook: evaluation by chips, the deal as horizon, the engine's playout loop."""
    return SearchHooks(evaluate=game.evaluate, horizon_key=game.horizon_key,
                       search_candidates=game.search_candidates,
                       rollout_action=game.rollout_action, run_playout=game.run_playout,
                       random_games=game.random_games, defaults=game.search_defaults)


def statistics(state: State[Any, Any]) -> dict[str, float]:
    """Deals (Durchgänge) and rounds of a finished game."""
    from kartentisch.games.krass_kariert.state import KKState

    assert isinstance(state, KKState)
    return {"deals": float(state.deal + 1), "rounds": float(state.rounds)}


DESCRIPTOR: Final = GameDescriptor(
    name="krass-kariert",
    game="kartentisch.games.krass_kariert.game:KrassKariert",
    returns_help=N_("Each player who loses gets −1; the others share what the losers lose."),
    win_range=win_range,
    open_view=open_view,
    search_hooks=search_hooks,
    statistics=statistics,
    stat_labels={"deals": N_("deals (Durchgänge) per game"), "rounds": N_("rounds per game")},
    presenter="kartentisch.cli.presenters.krass_kariert",
    page_module="krass_kariert.js",
    bots={"heuristic": "kartentisch.games.krass_kariert.heuristic:HeuristicBot"},
    encoding="kartentisch.rl.encodings.krass_kariert:KrassKariertEncoding",
    train_target="deal",
    train_targets=("game", "deal"),
    max_game_length=20_000,
)
"""Krass Kariert's descriptor (the registry hands it out)."""
