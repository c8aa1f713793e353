"""Casino's rules options: the points where the source is silent or the standard game
differs, each with the source's reading as its default."""

from __future__ import annotations

from dataclasses import dataclass

from kartentisch.core.options import option
from kartentisch.core.reasons import N_


@dataclass(frozen=True, slots=True)
class CasinoOptions:
    """Rules options where the source is silent or the standard game differs."""

    partnerships: bool = option(
        False, N_("Partnerships"),
        N_("With four players: seats 0 and 2 play against 1 and 3, pooling captures and "
           "points."))
    """With four players: seats 0+2 play against 1+3, pooling captures and points."""
    face_cards_capture_all: bool = option(
        False, N_("Face cards take all"),
        N_("A jack, queen or king takes every loose card of its rank at once instead of one."))
    """A jack, queen or king takes every loose card of its rank at once (else one)."""
    raising: str = option(
        "single", N_("Raising a build"),
        N_("Which builds a card from the hand may raise to a higher value: none, single "
           "builds only, or every build including multiple builds (calls)."),
        words={"none": N_("no build: a build keeps the value it was made with"),
               "single": N_("single builds only, never a multiple build"),
               "any": N_("every build, multiple builds too")})
    """Which builds may be raised (the rulebook reads both ways, see docs/rules/casino.md):
    ``none`` (a build keeps its first value), ``single`` (a single build may be raised, a
    multiple build never: the standard game and the default) or ``any``."""
    build_without_capture: bool = option(
        True, N_("Build without a capture"),
        N_("Whether a player who can capture nothing may build, raise or join a build "
           "instead of trailing."))
    """May a player who can capture nothing build (the usual reading, default), or must
    they trail (the rulebook's sentence on trailing read literally)?"""
    trail_ban: str = option(
        "next_turn", N_("No trailing by a build's owner"),
        N_("When a build's owner may not trail: on their next turn while the build is "
           "unchanged, or as long as they own a build."),
        words={"next_turn": N_("on the next turn while the build is unchanged"),
               "while_build_stands": N_("as long as they own a build")})
    """When a build's owner may not trail: on their next turn while the build is
    unchanged (the source), or as long as they own a build (the standard game)."""
    trail_when_capture_possible: bool = option(
        True, N_("Trail a card that could capture"),
        N_("Whether a card that could capture may be trailed."))
    """May a card that could capture be trailed?"""
    owner_keeps_capture_card: bool = option(
        True, N_("Owner keeps a card for the build"),
        N_("Whether a build's owner must keep a card of its value until the build is taken."))
    """A build's owner must keep a card of its value until the build is taken."""
    sweeps: bool = option(
        False, N_("Sweeps"), N_("Whether clearing the table with a capture scores a point."))
    """Clearing the table by a capture scores 1 (not on the pack's last play)."""
    count_out: bool = option(
        False, N_("Count out"),
        N_("Count points item by item after a pack; the first side to reach 21 wins."))
    """Count points item by item at the end of a pack; the first side to reach 21 wins."""
