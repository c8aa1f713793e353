"""Krass Kariert's acts and its game log: what the rules record while playing, and its decoding.

Speed and size: the rules never build :class:`~kartentisch.core.protocol.Event` objects while
playing. Every happening is one 64-bit word appended to an array (the log, see
:mod:`kartentisch.core.words`; 8 bytes, where a tuple per happening cost about 150), and
:func:`make_event` turns a word into an event only when somebody reads ``state.events``.
The same log is the game's history: the words of actions carry the action's id, and
``state.history`` decodes them when read. Search plays millions of moves and never reads
events or the history, so it never pays for them; a clone copies one array.

A word is ``kind | (seat + 1) << 4 | payload << 7`` (seat 0: nobody). The payload:

===================================  ==========================================================
kind                                 payload (bit offsets within the word)
===================================  ==========================================================
acts: ``combination``, ``stopp``,    action id (7), first position played from or the position
``nachzieh``, ``reserve``            the reserve card went to (20), strength + 1 (25), the cards
                                     as 4-bit fields (32), the declared X values (44)
``insert``                           action id (7), the card inserted (20)
``concede``                          action id (7)
``draw``                             cards left to insert (7), the card drawn (10)
``round_won``, ``round_start``,      one number (7): Nachzieh cards in the round, the round's
``deal_start``, ``chip_lost``        number, the deal's number, chips left
``deal_end``, ``game_over``          the seats (7), 3 bits each (seat + 1), in order
``out``, ``no_chip``                 none
===================================  ==========================================================

Cards (1-15) and X values (1-12) are never 0, so a 4-bit field of 0 ends a list.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from kartentisch.core.protocol import Event
from kartentisch.games.krass_kariert.actions import INSERT_BASE
from kartentisch.games.krass_kariert.cards import (
    KIND_KEYS,
    NO_COMBINATION,
    card_name,
    high_of,
    kind_of,
)


class Act(NamedTuple):
    """One act in the current round, public to all."""

    seat: int
    kind: str
    """``combination``, ``stopp``, ``nachzieh`` or ``reserve``."""
    cards: tuple[int, ...] = ()
    x_values: tuple[int, ...] = ()
    strength: int = NO_COMBINATION
    position: int = -1
    """First hand index played from, or the index a reserve card went to."""


# Kinds of log words (the low 4 bits). Actions first: a word of kind <= CONCEDE is a move.
COMBINATION: Final = 0
STOPP_ACT: Final = 1
NACHZIEH_ACT: Final = 2
RESERVE: Final = 3
INSERT: Final = 4
CONCEDE: Final = 5
DRAW_CARD: Final = 6
ROUND_WON: Final = 7
ROUND_START: Final = 8
DEAL_START: Final = 9
OUT: Final = 10
CHIP_LOST: Final = 11
NO_CHIP: Final = 12
DEAL_END: Final = 13
GAME_OVER: Final = 14

KINDS: Final = ("combination", "stopp", "nachzieh", "reserve", "insert", "concede", "draw",
                "round_won", "round_start", "deal_start", "out", "chip_lost", "no_chip",
                "deal_end", "game_over")
"""The event kind of each word kind."""
ACT_KIND_CODES: Final = {"combination": COMBINATION, "stopp": STOPP_ACT,
                         "nachzieh": NACHZIEH_ACT, "reserve": RESERVE}

SEAT_SHIFT: Final = 4
PAYLOAD_SHIFT: Final = 7
ID_MASK: Final = (1 << 13) - 1
"""An action id's bits (ids are below 2^13) at :data:`PAYLOAD_SHIFT`."""
POSITION_SHIFT: Final = 20
STRENGTH_SHIFT: Final = 25
CARDS_SHIFT: Final = 32
XS_SHIFT: Final = 44


def word(kind: int, seat: int | None, payload: int) -> int:
    """A log word (``seat`` None: nobody)."""
    return kind | (0 if seat is None else seat + 1) << SEAT_SHIFT | payload << PAYLOAD_SHIFT


def pack4(values: tuple[int, ...] | list[int]) -> int:
    """Up to three nonzero values below 16 as 4-bit fields, the first lowest."""
    packed = 0
    for i, v in enumerate(values):
        packed |= v << (4 * i)
    return packed


def unpack4(packed: int) -> tuple[int, ...]:
    """The values :func:`pack4` packed."""
    out = []
    while packed:
        out.append(packed & 15)
        packed >>= 4
    return tuple(out)


def pack_seats(seats: tuple[int, ...] | list[int]) -> int:
    """Seats (at most 5) as 3-bit fields of seat + 1, in order."""
    packed = 0
    for i, s in enumerate(seats):
        packed |= (s + 1) << (3 * i)
    return packed


def unpack_seats(packed: int) -> list[int]:
    """The seats :func:`pack_seats` packed, in order."""
    out = []
    while packed:
        out.append((packed & 7) - 1)
        packed >>= 3
    return out


def act_word(act: Act, aid: int) -> int:
    """The log word of ``act``, the move with id ``aid`` (the hot path inlines this)."""
    return (ACT_KIND_CODES[act.kind] | (act.seat + 1) << SEAT_SHIFT | aid << PAYLOAD_SHIFT
            | act.position << POSITION_SHIFT | (act.strength + 1) << STRENGTH_SHIFT
            | pack4(act.cards) << CARDS_SHIFT | pack4(act.x_values) << XS_SHIFT)


def act_of(w: int) -> Act:
    """The :class:`Act` of an act's word."""
    return Act((w >> SEAT_SHIFT & 7) - 1, KINDS[w & 15], unpack4(w >> CARDS_SHIFT & 0xFFF),
               unpack4(w >> XS_SHIFT & 0xFF), (w >> STRENGTH_SHIFT & 0x7F) - 1,
               w >> POSITION_SHIFT & 31)


def action_id_of(w: int) -> int:
    """The action id in the word of a move (kind <= :data:`CONCEDE`)."""
    return w >> PAYLOAD_SHIFT & ID_MASK


def make_event(w: int) -> Event:
    """The :class:`Event` of a log word (card values drawn are ``private``).

    Kinds and their data: ``deal_start`` {deal}, ``round_start`` {round}, ``combination``
    {cards, x_values, kind, high, position}, ``stopp``/``nachzieh`` {position}, ``reserve``
    {card, position}, ``round_won`` {nachzieh}, ``draw`` {left} private {card}, ``insert``
    {position} private {card}, ``out``, ``concede``, ``chip_lost`` {chips}, ``no_chip``,
    ``deal_end`` {losers}, ``game_over`` {losers}. Positions count from 0.

    Every call builds new dictionaries, so events made for one state share nothing
    mutable with those of a clone.
    """
    code = w & 15
    if code <= RESERVE:
        return _act_event(act_of(w))
    kind = KINDS[code]
    raw_seat = w >> SEAT_SHIFT & 7
    seat = None if raw_seat == 0 else raw_seat - 1
    payload = w >> PAYLOAD_SHIFT
    data: dict[str, Any]
    private: dict[str, Any] | None = None
    if code == INSERT:
        data = {"position": (payload & ID_MASK) - INSERT_BASE}
        private = {"card": card_name(w >> POSITION_SHIFT & 15)}
    elif code == DRAW_CARD:
        data, private = {"left": payload & 7}, {"card": card_name(payload >> 3 & 15)}
    elif code in (DEAL_END, GAME_OVER):
        data = {"losers": unpack_seats(payload)}
    elif code in (CONCEDE, OUT, NO_CHIP):
        data = {}
    else:
        data = {_EVENT_FIELD[code]: payload}
    return Event(kind, seat, data, private)


def copy_event(event: Event) -> Event:
    """A copy of an event assigned to ``state.events`` (new dictionaries)."""
    private = None if event.private is None else dict(event.private)
    return Event(event.kind, event.seat, dict(event.data), private)


def _act_event(act: Act) -> Event:
    """The event of a combination, Stopp, Nachzieh or reserve card (an act of the round)."""
    data: dict[str, Any]
    if act.kind == "combination":
        data = {
            "cards": [card_name(c) for c in act.cards],
            "x_values": list(act.x_values),
            "kind": KIND_KEYS[kind_of(act.strength)],
            "high": high_of(act.strength),
            "position": act.position,
        }
    elif act.kind == "reserve":
        data = {"card": card_name(act.cards[0]), "position": act.position}
    else:  # stopp, nachzieh
        data = {"position": act.position}
    return Event(act.kind, act.seat, data)


_EVENT_FIELD: Final = {
    ROUND_WON: "nachzieh",
    ROUND_START: "round",
    DEAL_START: "deal",
    CHIP_LOST: "chips",
}
"""The one data field of the words whose payload is a single number."""
