"""Krumme20's reason codes: why a move cannot be read or is not legal, as English templates.

Params are plain values: moves in the game's notation (``move``, ``text``; ``legal`` is the
list of the legal moves in notation), card and seat numbers as the notation counts
them (personal and score-pile cards from 1, seats from 0), side numbers 0-5, totals. A step
of the turn is passed as its phase name (``step``: ``"turn"``, ``"flip"``, ...), a sub-code
that presenters put in words (:data:`PHASE_HELP`). Nothing here is ever parsed.
"""

from __future__ import annotations

from typing import Final

from kartentisch.core.reasons import N_, Reasons

REASONS: Final = Reasons(
    {
        # reading a move (InvalidActionError)
        "k20.empty": N_("empty move; moves look like: {examples}"),
        "k20.unreadable": N_("cannot read {text}; moves look like: {examples}"),
        "k20.card_number": N_("{text}: cards are counted from 1 to {limit}"),
        "k20.seat_number": N_("{text}: seats are 0 to {last}"),
        "k20.claim_distinct": N_("{text}: name three different personal cards"),
        # a move that breaks a rule (IllegalActionError); every one names the legal moves
        "k20.wrong_step": N_("{move} does not fit this step: {step}. Legal now: {legal}"),
        "k20.must_play": N_(
            "{move}: playing a personal card is obligatory on your turn. Legal now: {legal}"
        ),
        "k20.no_such_card": N_(
            "{move}: there is no personal card {card}; you hold {count}. Legal now: {legal}"
        ),
        "k20.no_such_seat": N_("{move}: seats are 0 to {last}. Legal now: {legal}"),
        "k20.no_such_card_of_seat": N_(
            "{move}: seat {seat} has no personal card {card}; it holds {count}."
            " Legal now: {legal}"
        ),
        "k20.no_such_score_card": N_(
            "{move}: your score pile has no card {card}; it holds {count}. Legal now: {legal}"
        ),
        "k20.visible_foul": N_(
            "{move}: you know the card counts {number}, which takes the total from {total} over"
            " {target}, a foul you can see. Legal now: {legal}"
        ),
        "k20.visible_foul_zeros": N_(
            "{move}: as the third 0 in a row it turns the 0s over and, as you can see, takes the"
            " total over {target}. Legal now: {legal}"
        ),
        "k20.known_not_five": N_(
            "{move}: you know personal card {card} does not count 5. Legal now: {legal}"
        ),
        "k20.known_not_three": N_(
            "{move}: you know personal card {card} does not count 3. Legal now: {legal}"
        ),
        "k20.claim33_wrong": N_(
            "{move}: you can see that these are not three 3/3 cards. Legal now: {legal}"
        ),
        "k20.claim_sum_wrong": N_(
            "{move}: you can see that those sides do not add up to exactly {target}."
            " Legal now: {legal}"
        ),
        "k20.hand_full": N_(
            "{move}: you already hold {limit} personal cards, the most allowed. Legal now: {legal}"
        ),
        "k20.take_own": N_(
            "{move}: take a personal card of another player (from your score pile: take s1)."
            " Legal now: {legal}"
        ),
        "k20.draw_empty": N_("{move}: the draw pile is empty. Legal now: {legal}"),
        "k20.discard_empty": N_("{move}: the discard pile is empty. Legal now: {legal}"),
        "k20.not_lowest": N_(
            "{move}: personal card {card} is not one of your lowest (they show {lowest})."
            " Legal now: {legal}"
        ),
        "k20.compensation_takes": N_(
            "{move}: with these rules the compensation is taken like the 1's action (take"
            " draw, take discard, take s1 or another player's card). Legal now: {legal}"
        ),
        "k20.teammate_target": N_(
            "{move}: seat {seat} plays in your team, and with these rules a teammate's personal"
            " cards are no target. Legal now: {legal}"
        ),
        # rules options of the team variant (InvalidOptionsError)
        "k20.team_players": N_(
            "team play ({value}) is for these player counts only: {allowed}; not {players}"
        ),
        "k20.team_option_alone": N_(
            "option {name} applies only to team play: choose teams as well"
        ),
        "k20.lowest_needs_full_hand": N_(
            "{move}: a lowest card instead of drawing is allowed only with {limit} personal"
            " cards. Legal now: {legal}"
        ),
    }
)
"""Every Krumme20 reason code and its English template."""

PHASE_HELP: Final[dict[str, str]] = {
    "turn": N_("play a personal card (or show 3/3 or Σ20 first)"),
    "flip": N_("action of the 0: turn a card over, or pass"),
    "take": N_("action of the 1: take a card, or pass"),
    "draw": N_("action of the 2: draw a card, or pass to stop"),
    "throw": N_("action of the 3: throw a further 3, or pass to stop"),
    "four": N_("action of the 4: make the next player sit out, or pass"),
    "five": N_("the total is 15: play a second card as a 5, or pass"),
    "after": N_("after the play: show 3/3 or Σ20, or pass to end the turn"),
    "foul": N_("after a foul: put a lowest personal card on your score pile, or pass"),
    "loss": N_("compensation for a taken card: draw one, or pass"),
    "sitout": N_(
        "compensation for sitting out: draw one (or with 5 cards put a lowest on your"
        " score pile), or pass"
    ),
    "over": N_("the game is over"),
}
"""What each step (phase) of a turn asks for, in English; the ``step`` param's words."""
