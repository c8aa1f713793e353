"""The reason codes of the game review (the engine's and the server's review routes).

Importable without the server: :func:`kartentisch.core.reasons.all_reasons` takes this table
in, so ``docs/reason-codes.md`` lists the codes and the translation tests cover them.
"""

from __future__ import annotations

from typing import Final

from kartentisch.core.reasons import N_, Reasons

REVIEW_REASONS: Final = Reasons(
    {
        "review.not_finished": N_("a game is reviewed once it is over, not while it runs"),
        "review.not_your_seat": N_(
            "the review of seat {seat} is offered to its player only, unless they share it"),
        "review.bad_seat": N_("a review is of a seat from 0 to {last}, not {value}"),
        "review.watcher": N_("a watcher has no review of their own; name a seat that shared "
                             "its review"),
    }
)
"""Every review code with its English template (German in the catalogue)."""

__all__ = ["REVIEW_REASONS"]
