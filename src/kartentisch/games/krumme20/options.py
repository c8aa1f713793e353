"""Krumme20's rules options: every point the advanced rules sheet leaves open, or where the
project had to choose between two readings (``docs/rules/krumme20.md`` lists them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kartentisch.core.reasons import N_
from kartentisch.games.krumme20.cards import DECKS


@dataclass(frozen=True, slots=True)
class K20Options:
    """Rules options. Every field is a point the advanced rules sheet leaves open (ASSUMED).

    The defaults are the reconstruction documented in ``docs/rules/krumme20.md``.
    """

    deck: str = field(default="pairs", metadata={
        "choices": DECKS, "label": N_("Deck"),
        "help": N_("Which cards are in the deck."),
        "words": {"pairs": N_("every pair of 0 to 5, doubles four times"),
                  "doubles": N_("the same number on both sides")}})
    """``pairs``: every pair of 0-5, doubles 4x, mixed 2x; ``doubles``: both sides equal."""
    target: int = field(default=20, metadata={
        "choices": (10, 15, 20, 25, 30), "label": N_("Target total"),
        "help": N_("The total that scores (the base game used 10).")})
    """The total that scores (the base game used 10). The second card is played on
    ``target - 5`` and Σ claims must sum to ``target``."""
    play_flips: bool = field(default=True, metadata={
        "label": N_("Played cards turn over"),
        "help": N_("A played or thrown card is turned over and counts by its former down "
                   "side.")})
    """A played (or thrown) card is turned over and counts by its former down side."""
    second_five: str = field(default="any", metadata={
        "choices": ("any", "after_five"), "label": N_("Second card on 15"),
        "help": N_("When the second card may be played on a total of 15."),
        "words": {"any": N_("after any play"), "after_five": N_("only after a 5")}})
    """``any``: after any play that leaves the total at 15 (the sheet's example);
    ``after_five``: only when the card just played was a 5."""
    foul_keeps_action: bool = field(default=False, metadata={
        "label": N_("A foul keeps its action"),
        "help": N_("Whether a play that is a foul still grants its special action.")})
    """Whether a play that is a foul still grants its special action."""
    peek_own: bool = field(default=False, metadata={
        "label": N_("Know your own down sides"),
        "help": N_("Whether players know the down sides of their own personal cards.")})
    """Whether a player knows the down sides of cards that came into their personal cards."""
    draw_top_visible: bool = field(default=True, metadata={
        "label": N_("Draw pile's top shown"),
        "help": N_("Whether the up side of the draw pile's top card is visible.")})
    """Whether the up side of the draw pile's top card is seen by everybody."""
    end: str = field(default="final_lap", metadata={
        "choices": ("final_lap", "immediate"), "label": N_("End of the draw pile"),
        "help": N_("What happens when the draw pile runs out."),
        "words": {"final_lap": N_("one more turn each"),
                  "immediate": N_("the game ends with that turn")}})
    """When the draw pile runs out: one more turn each (``final_lap``), or the game ends
    with the current turn (``immediate``)."""
    turn_limit: int = field(default=200, metadata={
        "label": N_("Turn limit"),
        "help": N_("After this many turns the final lap begins (0: no limit).")})
    """After this many turns the final lap begins even if cards remain (0: no limit).
    A safeguard: actions can bring cards back, so play is not bounded otherwise."""
    sitout_foul_reward: bool = field(default=False, metadata={
        "label": N_("Foul reward while sitting out"),
        "help": N_("Whether a player who sits out still gets the reward of another player's "
                   "foul (the rule sheet: no).")})
    """Whether a player who sits out (made to by a 4, until their turn is skipped) still
    gets the reward of another player's foul. The rule sheet lets them do nothing but take
    their compensation, hence the default ``False``."""
