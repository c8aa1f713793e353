"""The words of the game night's flow (issue 25): connection, second tab, stand-in,
the fair clock, waiting for the start, rematch and series.

Listed for the extractor only (see the package's docstring).
"""

from __future__ import annotations

from typing import Final

from kartentisch.core.reasons import N_
from kartentisch.locale import ngettext

FLOW_MESSAGES: Final = (
    N_("Your move is kept and will be sent when the connection is back."),
    N_("This link is unknown or no longer valid"),
    N_(
        "The table may have been closed, or the link was changed by its host. Ask the "
        "person who invited you for a new link, or find a table in the lobby."
    ),
    N_("Go to the lobby"),
    N_("Take over here"),
    N_("You are watching your seat here; it is played in another tab."),
    N_("This seat is open in another tab or window."),
    N_("Keep watching here"),
    N_("The clock starts when the game starts."),
    N_("Only {seconds} seconds left for your move!"),
    N_("Your time ran out: {move} was played for you."),
    N_("{name}'s time ran out: the clock played for them."),
    N_("OK"),
    N_("Let a bot play for you?"),
    N_(
        "A bot makes your moves at a calm pace until you take your seat back. You can "
        "take it back at any time."
    ),
    N_("Yes, let a bot play"),
    N_("No, I keep playing"),
    N_("A stand-in bot is playing your seat."),
    N_("The players are offered a rematch."),
    N_("Rematch accepted by: {names}"),
    N_("Moving to the new table…"),
    N_("Accept the rematch"),
    N_("Games won"),
    N_("The game starts when everyone has joined."),
    N_("Still awaited:"),
    N_("Start now"),
    N_(
        "Seats nobody has joined yet wait without a clock until their person comes or you"
        " let a bot play there."
    ),
    N_("The host can also start the game now."),
    N_(
        "Your move was not sent: the game went on while the connection was lost. Look at "
        "the table and choose again."
    ),
    N_("Waiting for the other players."),
    ngettext("The series so far: {n} game", "The series so far: {n} games", 1),
)
