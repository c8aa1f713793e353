"""Krass Kariert's rules options: the points where the rulebook is silent or the sources
disagree, each with the rulebook's reading as its default."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class KKOptions:
    """Rules options where the rulebook is silent or the sources disagree."""

    five_player_chips: int = field(default=2, metadata={"choices": (2, 3)})
    """Chips each with five players (the rulebook: 2, or 3 for a longer game)."""
    x_with_x: bool = False
    """May two X cards stand together in one combination?"""
    voluntary_concession: bool = True
    """Offer the concession to a follower without reserves even when they could play."""
    next_leader_fallback: str = field(
        default="next_highest", metadata={"choices": ("next_highest", "right_neighbour")}
    )
    """Who leads when the winner and the second-highest player hold no card."""
