"""Krumme20's rules options: every point the advanced rules sheet leaves open, or where the
project had to choose between two readings (``docs/rules/krumme20.md`` lists them)."""

from __future__ import annotations

from dataclasses import dataclass

from kartentisch.core.options import option
from kartentisch.core.reasons import N_
from kartentisch.games.krumme20.cards import DECKS


@dataclass(frozen=True, slots=True)
class K20Options:
    """Rules options. Every field is a point the advanced rules sheet leaves open (ASSUMED).

    The defaults are the reconstruction documented in ``docs/rules/krumme20.md``.
    """

    deck: str = option(
        "pairs", N_("Deck"), N_("Which cards are in the deck."), choices=DECKS,
        words={"pairs": N_("every pair of 0 to 5, doubles four times"),
               "doubles": N_("the same number on both sides")})
    """``pairs``: every pair of 0-5, doubles 4x, mixed 2x; ``doubles``: both sides equal."""
    target: int = option(
        20, N_("Target total"), N_("The total that scores (the base game used 10)."),
        choices=(10, 15, 20, 25, 30))
    """The total that scores (the base game used 10). The second card is played on
    ``target - 5`` and Σ claims must sum to ``target``."""
    play_flips: bool = option(
        True, N_("Played cards turn over"),
        N_("A played or thrown card is turned over and counts by its former down side."))
    """A played (or thrown) card is turned over and counts by its former down side."""
    second_five: str = option(
        "any", N_("Second card on 15"), N_("When the second card may be played on a total of 15."),
        words={"any": N_("after any play"), "after_five": N_("only after a 5")})
    """``any``: after any play that leaves the total at 15 (the sheet's example);
    ``after_five``: only when the card just played was a 5."""
    foul_keeps_action: bool = option(
        False, N_("A foul keeps its action"),
        N_("Whether a play that is a foul still grants its special action."))
    """Whether a play that is a foul still grants its special action."""
    peek_own: bool = option(
        False, N_("Know your own down sides"),
        N_("Whether players know the down sides of their own personal cards."))
    """Whether a player knows the down sides of cards that came into their personal cards."""
    draw_top_visible: bool = option(
        True, N_("Draw pile's top shown"),
        N_("Whether the up side of the draw pile's top card is visible."))
    """Whether the up side of the draw pile's top card is seen by everybody."""
    end: str = option(
        "final_lap", N_("End of the draw pile"), N_("What happens when the draw pile runs out."),
        words={"final_lap": N_("one more turn each"),
               "immediate": N_("the game ends with that turn")})
    """When the draw pile runs out: one more turn each (``final_lap``), or the game ends
    with the current turn (``immediate``)."""
    turn_limit: int = option(
        200, N_("Turn limit"), N_("After this many turns the final lap begins (0: no limit)."))
    """After this many turns the final lap begins even if cards remain (0: no limit).
    A safeguard: actions can bring cards back, so play is not bounded otherwise."""
    sitout_foul_reward: bool = option(
        False, N_("Foul reward while sitting out"),
        N_("Whether a player who sits out still gets the reward of another player's foul (the "
           "rule sheet: no)."))
    """Whether a player who sits out (made to by a 4, until their turn is skipped) still
    gets the reward of another player's foul. The rule sheet lets them do nothing but take
    their compensation, hence the default ``False``."""
    three_zeros_action: str = option(
        "zero", N_("Action after three 0s"),
        N_("Which special action the player of the third 0 in a row may take once the three "
           "cards have turned over."),
        words={"zero": N_("the third 0's own action"),
               "revealed": N_("the action of the third card's new side instead")})
    """The sheet's "!": the revealed sides' actions cannot be taken *in addition to* the
    third 0's ("nicht zusätzlich zu jener der zuletzt gespielten 0"). ``zero``: only the
    0's own action; ``revealed``: the number the third card shows after turning names the
    action instead of its 0."""
    last_card_crosswise: str = option(
        "any_card", N_("Last card at 20 lies crosswise"),
        N_("Which card lies crosswise (counts double) when it makes exactly 20 as its "
           "player's last personal card."),
        words={"any_card": N_("any card"), "five_only": N_("only a card that counts 5")})
    """The sheet doubles the 5 that makes 20 ("ggf. quer = verdoppelt") and one of a 3/3
    set that empties the hand. ``any_card``: every card that makes the target as its
    player's last personal card lies crosswise; ``five_only``: only one counting 5 does."""
    compensation: str = option(
        "draw", N_("Compensation"),
        N_("What a player who lost a card to a 1 or sits out by a 4 may do at once."),
        words={"draw": N_("draw one card from the draw pile"),
               "take": N_("take one card like the 1's action")})
    """The sheet's "darf sofort eine Karte ziehen". ``draw``: from the Nachziehstapel (its
    example says "nachziehen"); ``take``: as the 1's "eine Karte ziehen", from any of the 1's
    targets (another player's personal card, the own score pile, the top of the draw or the
    discard pile); a card taken so brings its owner no compensation of their own."""
    # -- the team variant (a reconstruction: "Spielt bei 4 bis 6 Spielern in der
    #    Team-Variante", the sheet 3/3 that explains it is not among our texts) --
    teams: str = option(
        "none", N_("Team play"),
        N_("Team play, reconstructed (the rule sheet that explains it is missing): teammates "
           "sit alternately and a team scores the sum of its members' score piles."),
        words={"none": N_("everybody plays alone"),
               "pairs": N_("teams of two (4 or 6 players)"),
               "trios": N_("two teams of three (6 players)")})
    """``none``: every seat plays alone; ``pairs``: teams of two, with 4 players seats 0+2
    and 1+3, with 6 players 0+3, 1+4 and 2+5; ``trios``: with 6 players 0+2+4 and 1+3+5
    (see :func:`~.teams.team_seats`)."""
    team_targets: bool = option(
        True, N_("Teammates as targets"),
        N_("Whether a 0 may turn and a 1 may take a teammate's personal card (team play)."))
    """Team play: whether a teammate's personal cards are targets of a 0 (turn over) and a
    1 (take). The 4 always hits the next player, who in every seating is an opponent."""
    team_foul_reward: bool = option(
        False, N_("Fouls reward teammates"),
        N_("Whether a foul also lets the fouler's teammates put their lowest card on their "
           "score pile (team play; the rule sheet says 'all other players')."))
    """Team play: whether the fouler's teammates get the foul's reward step too (the
    sheet's literal "alle anderen Spieler"); by default only the opponents get it, so that a
    team never profits from its own member's foul."""
