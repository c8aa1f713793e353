"""The words of the replay's review panel (``static/js/review.js``).

Listed for the extractor only (see the package's docstring).
"""

from __future__ import annotations

from typing import Final

from kartentisch.core.reasons import N_
from kartentisch.locale import ngettext

REVIEW_MESSAGES: Final = (
    N_("Mistake"),
    N_("Inaccuracy"),
    N_("Move {n}: {chance}"),
    N_("Chance to win after each of your moves"),
    N_("move"),
    N_("Your only allowed move here."),
    N_("An obvious move here: not reviewed."),
    N_("You played {move}: chance to win {chance}."),
    N_("The bot agrees with your move."),
    N_("The bot suggests {move}: chance to win {chance}."),
    N_("Review"),
    N_("The search bot rates each of your decisions from what you knew at the time."),
    N_("Review my game"),
    N_("Try again"),
    N_("Reviewing your game: {done} of {total} decisions…"),
    N_("Your review is waiting for the bots of live games…"),
    N_("the bot's move {n} times"),
    N_("your move"),
    N_("the bot's move"),
    N_("Move {n}: {mark}"),
    N_("No move is marked: well played."),
    N_("Everyone at the table may see my review"),
    N_("Something went wrong ({code})."),
    N_("Each of your moves was forced or obvious: nothing to review."),
)


def _plurals() -> None:
    """The review panel's plural messages (never called)."""
    ngettext("{n} decision reviewed", "{n} decisions reviewed", 1)
    ngettext("{n} inaccuracy", "{n} inaccuracies", 1)
    ngettext("{n} mistake", "{n} mistakes", 1)
