"""Casino's game log: what happened, packed into 64-bit words, and its events.

Speed and size: the rules never build :class:`~kartentisch.core.protocol.Event` objects (a
dict and card names each) while playing. They append a few words to an array of 64-bit
words (:mod:`kartentisch.core.words`), and :func:`decode` turns a record into an event
only when somebody reads ``state.events``. The same log is the game's history (the action
ids it holds), so a state keeps about 8 bytes per play, clones copy one array, and search,
which never reads events, never pays for them.

A record is a header word, ``kind | (seat + 1) << 4 | payload << 7`` (seat 0 for "nobody"),
followed by as many card masks as the kind needs (bit ``c`` for card ``c``; cards in a mask
are listed ascending):

=============  ==========================================  ===========================
kind           payload                                     words after the header
=============  ==========================================  ===========================
``trail``      the action id                               none
``capture``    the action id, sweep bit at 46              the build taken, if any
``build``      the action id, "multiple" bit at 46         the build raised, the build
                                                           joined (each if any)
``deal``       cards left in the pack                      the hand dealt
``pack_start`` the pack's number (from 1)                  none
``table``      nothing                                     the four table cards
``table_taken`` how many builds                            the loose cards, each build
``pack_end``   the pack's number (from 1)                  the scores (16 bits a side)
``game_over``  the winning side                            the scores (16 bits a side)
=============  ==========================================  ===========================

A play's header also holds, at bit :data:`EXTRA_SHIFT`, how many words follow it.

Events and their data (as before the log existed): ``capture`` {card, taken, sweep},
``build`` {card, joined, value, multiple, raised}, ``trail`` {card}, ``deal`` {cards,
pack_left} private {hand}, ``pack_start`` {pack}, ``table`` {cards}, ``table_taken``
{cards}, ``pack_end`` {pack, points, scores}, ``game_over`` {winners, scores}.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

from kartentisch.core.protocol import Event
from kartentisch.core.words import new_words
from kartentisch.games.casino.actions import Build, Capture
from kartentisch.games.casino.cards import CARD_NAMES
from kartentisch.games.casino.movegen import recent_action
from kartentisch.games.casino.table import PlayRecord

TRAIL: Final = 0
CAPTURE: Final = 1
BUILD: Final = 2
DEAL: Final = 3
PACK_START: Final = 4
TABLE: Final = 5
TABLE_TAKEN: Final = 6
PACK_END: Final = 7
GAME_OVER: Final = 8

KINDS: Final = ("trail", "capture", "build", "deal", "pack_start", "table", "table_taken",
                "pack_end", "game_over")
FLAG: Final = 1 << 46
"""The sweep (capture) or multiple (build) bit of an action's payload, above every id."""
ID_MASK: Final = FLAG - 1
EXTRA_SHIFT: Final = 54
"""A play's header holds at bit 54 how many card masks follow it (0-2), so the ids of the
history are read without decoding the actions."""


def new_log() -> array[int]:
    """An empty log (see :mod:`kartentisch.core.words` for its type)."""
    return new_words()


def header(kind: int, seat: int, payload: int) -> int:
    """A record's first word; ``seat`` -1 for nobody."""
    return kind | (seat + 1) << 4 | payload << 7


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def mask_of(cards: tuple[int, ...] | list[int]) -> int:
    """The bitmask of ``cards``."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def names_of(mask: int) -> list[str]:
    """The names of a mask's cards, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARD_NAMES[low.bit_length() - 1])
        mask ^= low
    return out


def pack_scores(scores: list[int]) -> int:
    """Scores (at most 4 sides, each below 2^16) in one word."""
    word = 0
    for i, p in enumerate(scores):
        word |= p << (16 * i)
    return word


def unpack_scores(word: int, sides: int) -> list[int]:
    """The scores :func:`pack_scores` packed."""
    return [(word >> (16 * i)) & 0xFFFF for i in range(sides)]


def decode(log: array[int], at: int, pack_results: list[dict[str, list[int]]],
           sides: int) -> tuple[Event, int]:
    """The event of the record starting at word ``at``, and where the next one starts.

    ``pack_results`` (the state's) supplies a ``pack_end`` event's points. Every call builds
    new dictionaries and lists, so events share nothing mutable with each other or a clone's.
    """
    word = log[at]
    kind = word & 15
    raw_seat = (word >> 4) & 7
    seat = None if raw_seat == 0 else raw_seat - 1
    payload = word >> 7
    at += 1
    data: dict[str, Any]
    private: dict[str, Any] | None = None
    if kind <= BUILD:
        action = recent_action(payload & ID_MASK)
        card = CARD_NAMES[action.card]
        if type(action) is Capture:
            taken = [CARD_NAMES[c] for c in action.loose]
            if action.build:
                taken.extend(names_of(log[at]))
                at += 1
            data = {"card": card, "taken": taken, "sweep": bool(payload & FLAG)}
        elif type(action) is Build:
            joined = [CARD_NAMES[c] for c in action.loose]
            if action.raised:
                joined.extend(names_of(log[at]))
                at += 1
            if action.merged:
                joined.extend(names_of(log[at]))
                at += 1
            data = {"card": card, "joined": joined, "value": action.value,
                    "multiple": bool(payload & FLAG), "raised": action.raised}
        else:
            data = {"card": card}
    elif kind == DEAL:
        data = {"cards": 4, "pack_left": payload}
        private = {"hand": names_of(log[at])}
        at += 1
    elif kind == PACK_START:
        data = {"pack": payload}
    elif kind == TABLE:
        data = {"cards": names_of(log[at])}
        at += 1
    elif kind == TABLE_TAKEN:
        cards: list[str] = []
        for _ in range(payload + 1):
            cards.extend(names_of(log[at]))
            at += 1
        data = {"cards": cards}
    elif kind == PACK_END:
        points = pack_results[payload - 1]
        data = {"pack": payload, "points": {k: list(v) for k, v in points.items()},
                "scores": unpack_scores(log[at], sides)}
        at += 1
    else:  # GAME_OVER
        data = {"winners": [payload], "scores": unpack_scores(log[at], sides)}
        at += 1
    return Event(KINDS[kind], seat, data, private), at


def action_ids(log: array[int], at: int = 0) -> tuple[list[int], int]:
    """The action ids of the plays logged from word ``at`` on, and the log's length."""
    out: list[int] = []
    end = len(log)
    while at < end:
        word = log[at]
        kind = word & 15
        at += 1
        if kind <= BUILD:
            out.append((word >> 7) & ID_MASK)
            at += (word >> EXTRA_SHIFT) & 3
        elif kind == TABLE_TAKEN:
            at += (word >> 7) + 1
        elif kind != PACK_START:
            at += 1
    return out, at


def plays_from(log: array[int], at: int, out: list[PlayRecord]) -> int:
    """Append to ``out`` the pack log's entries (:class:`~.table.PlayRecord`) of the records
    from word ``at`` on; returns the log's length.

    The state keeps no play records while playing: they are read back from its log when
    somebody asks (an observation, a position, counting out), as the events are.
    """
    end = len(log)
    while at < end:
        word = log[at]
        kind = word & 15
        at += 1
        if kind <= BUILD:
            seat = ((word >> 4) & 7) - 1
            payload = word >> 7
            action = recent_action(payload & ID_MASK)
            if type(action) is Capture:
                taken = action.loose
                if action.build:
                    taken = taken + cards_of(log[at])
                    at += 1
                out.append(PlayRecord(seat, "capture", action.card, taken, 0,
                                      bool(payload & FLAG)))
            elif type(action) is Build:
                joined = action.loose
                if action.raised:
                    joined = joined + cards_of(log[at])
                    at += 1
                if action.merged:
                    joined = joined + cards_of(log[at])
                    at += 1
                out.append(PlayRecord(seat, "build", action.card, joined, action.value))
            else:
                out.append(PlayRecord(seat, "trail", action.card))
        elif kind == TABLE_TAKEN:
            rest: tuple[int, ...] = ()
            for _ in range((word >> 7) + 1):
                rest = rest + cards_of(log[at])
                at += 1
            out.append(PlayRecord(((word >> 4) & 7) - 1, "table", -1, rest))
        elif kind != PACK_START:
            at += 1
    return at
