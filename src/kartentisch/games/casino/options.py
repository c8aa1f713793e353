"""Casino's rules options: the points where the source is silent or the standard game
differs, each with the source's reading as its default."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class CasinoOptions:
    """Rules options where the source is silent or the standard game differs."""

    partnerships: bool = False
    """With four players: seats 0+2 play against 1+3, pooling captures and points."""
    face_cards_capture_all: bool = False
    """A jack, queen or king takes every loose card of its rank at once (else one)."""
    trail_ban: str = field(default="next_turn",
                           metadata={"choices": ("next_turn", "while_build_stands")})
    """When a build's owner may not trail: on their next turn while the build is
    unchanged (the source), or as long as they own a build (the standard game)."""
    trail_when_capture_possible: bool = True
    """May a card that could capture be trailed?"""
    owner_keeps_capture_card: bool = True
    """A build's owner must keep a card of its value until the build is taken."""
    sweeps: bool = False
    """Clearing the table by a capture scores 1 (not on the pack's last play)."""
    count_out: bool = False
    """Count points item by item at the end of a pack; the first side to reach 21 wins."""
