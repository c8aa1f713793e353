"""The words of the table's look (issue 26): the felt and its seats, pacing and the turn
signal, the last round or capture, card and suit names, the replay's controls, and the
page's own wording of reasons whose engine template shows notation.

Listed for the extractor only (see the package's docstring).
"""

from __future__ import annotations

from typing import Final

from kartentisch.core.reasons import N_

SEATS: Final = (N_("Bot"), N_("to move"))
"""The seats around the felt."""

PAGE_MESSAGES: Final = (
    # the turn
    N_("not allowed now"),
    N_("Your turn"),
    N_("Move {move}"),
    N_("out of this deal"),
    # settings: pace and sound
    N_("Settings"),
    N_("Pace of the other players' moves"),
    N_("instant"),
    N_("quick"),
    N_("normal"),
    N_("slow"),
    N_("A sound when it is your turn"),
    # Krass Kariert's centre
    N_("Nothing played yet."),
    N_("To beat: {best}"),
    N_("{name} leads: any combination."),
    N_("Last round"),
    N_("Last round, won by {name}"),
    N_("takes reserve card {card} into the hand at position {position}"),
    N_("Put the card at position {position}"),
    # Casino: the table, the last capture, cards in words
    N_("The table is empty."),
    N_("Last capture"),
    N_("{name} took with {card}:"),
    N_("{name} took the rest of the table:"),
    N_("the build of {value}"),
    N_("Points per scoring item"),
    N_("Item"),
    N_("Pack {pack} is over."),
    N_("{rank} of {suit}"),
    N_("ace"),
    N_("jack"),
    N_("queen"),
    N_("king"),
    N_("clubs"),
    N_("diamonds"),
    N_("hearts"),
    N_("spades"),
    # Krumme20's log in words
    N_("{up} up, other side unknown"),
    N_("{name} puts a card on the score pile ({card})."),
    N_("{name} puts a card on the score pile ({card}), crosswise: it counts double."),
    N_("{name} puts a lowest personal card on the score pile ({card})."),
    # reasons in the page's words
    N_("It is not your turn: {current} is to move."),
    N_("{move}: take a personal card of another player or a card of your own score pile."),
    # the replay
    N_("Step through this game"),
    N_("Move {n} by {name}: {move}."),
    N_("To the start"),
    N_("Previous move"),
    N_("Next move"),
    N_("To the end"),
    N_("Position in the game"),
    N_("The deal, before the first move."),
    N_("Arrow keys: one move back or forward; Home and End: start and end."),
)
