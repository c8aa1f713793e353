"""Krumme20's game log: what happened, packed into 64-bit words, decoded into events on demand.

Speed and size: the rules never build :class:`~kartentisch.core.protocol.Event` objects (a
dictionary and card texts each) while playing. They append one word per happening to an
``array("Q")`` log, and :func:`decode` turns a word into its event only when somebody reads
``state.events``. A state therefore keeps 8 bytes per event, clones copy one array, and
search, which never reads events, never pays for them.

A record is a header word ``kind | (seat + 1) << 5 | payload << 8`` (seat 0 for "nobody");
only ``game_over`` adds a second word (the scores, 10 bits a seat). A card in an event is
written as everybody knew it at that moment, so the log keeps its *public code*: the up
side's number, or 7 when not everybody knows it, plus the down side's the same way, times 8
(:func:`public_code`). The payload's fields, lowest bits first:

==================  ===============================================================
kind                payload fields (bits)
==================  ===============================================================
``pass``            step (4)
``draw``            up (3), step (4)
``flip``            owner (3), index (3), card (6)
``flip_score``      index (6), card (6)
``take``            from (3), index (3), up (3)
``take_score``      index (6), up (3)
``take_draw``       up (3)
``take_discard``    up (3)
``sitout``          victim (3)
``lowest``          card (6), step (4)
``score``           card (6), crosswise (1)
``draw_pile_empty`` final lap (1)
``refill``          count (3)
``foul``            kind (3, :data:`FOUL_KINDS`)
``play``/``second`` index (3), number (3), card (6), total (the rest)
``three_zeros``     card, card, card (6 each), total (the rest)
``twenty``          card (6)
``over``            total
``throw``           index (3), number (3)
``claim33``         triple (4, :data:`~.actions.TRIPLES`), true (1), 3 cards (6 each, both
                    sides known to all, so a public code)
``claim_sum``       down (1), true (1), count (3), numbers (3 each)
``turn_limit``      turns
``sat_out``         nothing
``no_card``         nothing
``turn``            total (8), turn number (the rest)
``game_over``       nothing; next word: the scores (winners: the seats with the most; in
                    the team game the members of the best teams, ``team_scores``
                    and ``teams``, the seats of each)
``deal``            start seat (3), sums (4 each)
==================  ===============================================================

Steps are numbered as :data:`~.state.PHASES` lists them. The events and their data are
exactly those the rules built before the log existed.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

from kartentisch.core.protocol import Event
from kartentisch.games.krumme20.actions import TRIPLES
from kartentisch.games.krumme20.cards import card_text

PASS: Final = 0
DRAW: Final = 1
FLIP: Final = 2
FLIP_SCORE: Final = 3
TAKE: Final = 4
TAKE_SCORE: Final = 5
TAKE_DRAW: Final = 6
TAKE_DISCARD: Final = 7
SITOUT: Final = 8
LOWEST: Final = 9
SCORE: Final = 10
DRAW_PILE_EMPTY: Final = 11
REFILL: Final = 12
FOUL: Final = 13
PLAY: Final = 14
SECOND: Final = 15
THREE_ZEROS: Final = 16
TWENTY: Final = 17
OVER: Final = 18
THROW: Final = 19
CLAIM33: Final = 20
CLAIM_SUM: Final = 21
TURN_LIMIT: Final = 22
SAT_OUT: Final = 23
NO_CARD: Final = 24
TURN: Final = 25
GAME_OVER: Final = 26
DEAL: Final = 27

KINDS: Final = ("pass", "draw", "flip", "flip_score", "take", "take_score", "take_draw",
                "take_discard", "sitout", "lowest", "score", "draw_pile_empty", "refill",
                "foul", "play", "second", "three_zeros", "twenty", "over", "throw", "claim33",
                "claim_sum", "turn_limit", "sat_out", "no_card", "turn", "game_over", "deal")
"""Each kind's event name, by its number."""

STEPS: Final = ("turn", "flip", "take", "draw", "throw", "four", "five", "after", "foul",
                "loss", "sitout", "over")
"""The steps by number (the same order as ``state.PHASES``)."""
STEP_CODE: Final[dict[str, int]] = {s: i for i, s in enumerate(STEPS)}

FOUL_KINDS: Final = ("over", "three_zeros_over", "second_not_five", "throw_not_three",
                     "claim33", "claim_sum")
"""The kinds of foul by number."""
NO_FOUL: Final = -1
"""No foul (the rules' value where a foul kind could be)."""
F_OVER: Final = 0
F_THREE_ZEROS_OVER: Final = 1
F_SECOND_NOT_FIVE: Final = 2
F_THROW_NOT_THREE: Final = 3
F_CLAIM33: Final = 4
F_CLAIM_SUM: Final = 5

UNKNOWN: Final = 7
"""A side's code when not everybody knows it."""

CARD_TEXTS: Final[tuple[str, ...]] = tuple(
    card_text(None if code & 7 == UNKNOWN else code & 7,
              None if code >> 3 == UNKNOWN else code >> 3) for code in range(64))
"""A card's public text by its public code (``up | down << 3``, 7 for an unknown side)."""


def public_code(up: int, down: int, up_known: int, down_known: int, every: int) -> int:
    """The code of a card as everybody knows it: a side counts when its knowledge mask is
    ``every`` (all seats).

    >>> CARD_TEXTS[public_code(3, 1, 0b111, 0b001, 0b111)]
    '3/?'
    """
    return ((up if up_known == every else UNKNOWN)
            | (down if down_known == every else UNKNOWN) << 3)


def new_log() -> array[int]:
    """An empty log."""
    return array("Q")


def header(kind: int, seat: int | None, payload: int = 0) -> int:
    """A record's word; ``seat`` None for nobody."""
    return kind | (0 if seat is None else seat + 1) << 5 | payload << 8


def pack_scores(scores: list[int]) -> int:
    """Scores (at most 6 seats, each below 1024) in one word."""
    word = 0
    for i, p in enumerate(scores):
        word |= p << (10 * i)
    return word


def decode(log: array[int], at: int, players: int,
           team: list[int] | None = None) -> tuple[Event, int]:
    """The event of the record starting at word ``at``, and where the next one starts.

    ``team``: each seat's team in the team variant (``None`` without teams); the end's
    winners are then the members of the teams with the highest total, given as
    ``team_scores`` too.

    Every call builds new dictionaries and lists, so events share nothing mutable with each
    other or with a clone's.
    """
    word = log[at]
    kind = word & 31
    raw_seat = (word >> 5) & 7
    seat = None if raw_seat == 0 else raw_seat - 1
    p = word >> 8
    at += 1
    data: dict[str, Any]
    if kind == PASS:
        data = {"step": STEPS[p]}
    elif kind == DRAW:
        data = {"up": p & 7, "step": STEPS[p >> 3]}
    elif kind == FLIP:
        data = {"owner": p & 7, "index": (p >> 3) & 7, "card": CARD_TEXTS[p >> 6 & 63]}
    elif kind == FLIP_SCORE:
        data = {"index": p & 63, "card": CARD_TEXTS[p >> 6 & 63]}
    elif kind == TAKE:
        data = {"from": p & 7, "index": (p >> 3) & 7, "up": (p >> 6) & 7}
    elif kind == TAKE_SCORE:
        data = {"index": p & 63, "up": (p >> 6) & 7}
    elif kind in (TAKE_DRAW, TAKE_DISCARD):
        data = {"up": p & 7}
    elif kind == SITOUT:
        data = {"victim": p & 7}
    elif kind == LOWEST:
        data = {"card": CARD_TEXTS[p & 63], "step": STEPS[p >> 6]}
    elif kind == SCORE:
        data = {"card": CARD_TEXTS[p & 63], "crosswise": bool(p >> 6 & 1)}
    elif kind == DRAW_PILE_EMPTY:
        data = {"final_lap": bool(p & 1)}
    elif kind == REFILL:
        data = {"count": p & 7}
    elif kind == FOUL:
        data = {"kind": FOUL_KINDS[p]}
    elif kind in (PLAY, SECOND):
        data = {"index": p & 7, "number": (p >> 3) & 7, "card": CARD_TEXTS[p >> 6 & 63],
                "total": p >> 12}
    elif kind == THREE_ZEROS:
        data = {"cards": [CARD_TEXTS[p & 63], CARD_TEXTS[p >> 6 & 63],
                          CARD_TEXTS[p >> 12 & 63]], "total": p >> 18}
    elif kind == TWENTY:
        data = {"card": CARD_TEXTS[p & 63]}
    elif kind == OVER:
        data = {"total": p}
    elif kind == THROW:
        data = {"index": p & 7, "number": (p >> 3) & 7}
    elif kind == CLAIM33:
        data = {"indices": list(TRIPLES[p & 15]), "true": bool(p >> 4 & 1),
                "cards": [CARD_TEXTS[p >> 5 & 63], CARD_TEXTS[p >> 11 & 63],
                          CARD_TEXTS[p >> 17 & 63]]}
    elif kind == CLAIM_SUM:
        count = (p >> 2) & 7
        data = {"down": bool(p & 1), "true": bool(p >> 1 & 1),
                "numbers": [(p >> (5 + 3 * k)) & 7 for k in range(count)]}
    elif kind == TURN_LIMIT:
        data = {"turns": p}
    elif kind in (SAT_OUT, NO_CARD):
        data = {}
    elif kind == TURN:
        data = {"turn": p >> 8, "total": p & 255}
    elif kind == GAME_OVER:
        packed = log[at]
        at += 1
        scores = [(packed >> (10 * s)) & 1023 for s in range(players)]
        if team is None:
            best = max(scores)
            data = {"scores": scores, "winners": [s for s, v in enumerate(scores) if v == best]}
        else:
            totals = [0] * (max(team) + 1)
            for s, v in enumerate(scores):
                totals[team[s]] += v
            best = max(totals)
            data = {"scores": scores, "team_scores": totals,
                    "teams": [[s for s in range(players) if team[s] == t]
                              for t in range(len(totals))],
                    "winners": [s for s in range(players) if totals[team[s]] == best]}
    elif kind == DEAL:
        data = {"sums": [(p >> (3 + 4 * s)) & 15 for s in range(players)], "start": p & 7}
    else:
        raise ValueError(f"not a Krumme20 log record: {word:#x} at {at - 1}")
    return Event(KINDS[kind], seat, data), at
