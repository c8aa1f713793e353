"""Krumme20's rules options: every point the advanced rules sheet leaves open, or where the
project had to choose between two readings (``docs/rules/krumme20.md`` lists them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kartentisch.games.krumme20.cards import DECKS


@dataclass(frozen=True, slots=True)
class K20Options:
    """Rules options. Every field is a point the advanced rules sheet leaves open (ASSUMED).

    The defaults are the reconstruction documented in ``docs/rules/krumme20.md``.
    """

    deck: str = field(default="pairs", metadata={"choices": DECKS})
    """``pairs``: every pair of 0-5, doubles 4x, mixed 2x; ``doubles``: both sides equal."""
    target: int = field(default=20, metadata={"choices": (10, 15, 20, 25, 30)})
    """The total that scores (the base game used 10). The second card is played on
    ``target - 5`` and Σ claims must sum to ``target``."""
    play_flips: bool = True
    """A played (or thrown) card is turned over and counts by its former down side."""
    second_five: str = field(default="any", metadata={"choices": ("any", "after_five")})
    """``any``: after any play that leaves the total at 15 (the sheet's example);
    ``after_five``: only when the card just played was a 5."""
    foul_keeps_action: bool = False
    """Whether a play that is a foul still grants its special action."""
    peek_own: bool = False
    """Whether a player knows the down sides of cards that came into their personal cards."""
    draw_top_visible: bool = True
    """Whether the up side of the draw pile's top card is seen by everybody."""
    end: str = field(default="final_lap", metadata={"choices": ("final_lap", "immediate")})
    """When the draw pile runs out: one more turn each (``final_lap``), or the game ends
    with the current turn (``immediate``)."""
    turn_limit: int = 200
    """After this many turns the final lap begins even if cards remain (0: no limit).
    A safeguard: actions can bring cards back, so play is not bounded otherwise."""
    sitout_foul_reward: bool = False
    """Whether a player who sits out (made to by a 4, until their turn is skipped) still
    gets the reward of another player's foul. The rule sheet lets them do nothing but take
    their compensation, hence the default ``False``."""
