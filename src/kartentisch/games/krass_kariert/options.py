"""Krass Kariert's rules options: the points where the rulebook is silent or the sources
disagree, each with the rulebook's reading as its default."""

from __future__ import annotations

from dataclasses import dataclass

from kartentisch.core.options import option
from kartentisch.core.reasons import N_


@dataclass(frozen=True, slots=True)
class KKOptions:
    """Rules options where the rulebook is silent or the sources disagree."""

    five_player_chips: int = option(
        2, N_("Chips with five players"),
        N_("Chips each player starts with in a five-player game."), choices=(2, 3))
    """Chips each with five players (the rulebook: 2, or 3 for a longer game)."""
    x_with_x: bool = option(
        False, N_("X with X"), N_("Whether two X cards may stand together in one combination."))
    """May two X cards stand together in one combination?"""
    voluntary_concession: bool = option(
        True, N_("Concession without reserve"),
        N_("Offer the concession to a follower without reserve cards even when they could "
           "still play."))
    """Offer the concession to a follower without reserves even when they could play."""
    next_leader_fallback: str = option(
        "next_highest", N_("Next leader"),
        N_("Who leads when the round's winner and the next highest player have no cards: the "
           "next highest player, or the winner's right neighbour."),
        words={"next_highest": N_("the next highest player"),
               "right_neighbour": N_("the winner's right neighbour")})
    """Who leads when the winner and the second-highest player hold no card."""
