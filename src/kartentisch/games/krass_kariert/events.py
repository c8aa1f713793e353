"""Krass Kariert's acts and events: what the rules record while playing, and its decoding.

Speed: the rules never build :class:`~kartentisch.core.protocol.Event` objects while
playing. They append compact *log entries* (a tuple per happening, or the round's
:class:`Act` itself, which the round needs anyway), and :func:`make_event` turns an entry
into an event only when somebody reads ``state.events``. Search plays millions of moves
and never reads events, so it never pays for them.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from kartentisch.core.protocol import Event
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


LogEntry = tuple[str, int | None, Any]
"""An event as recorded on the hot path: (kind, seat, raw payload) or, for the acts of a
round, the :class:`Act` itself; see :func:`make_event`. (A ready :class:`Event` may stand in
the log too, when somebody assigned ``state.events``.)"""


def make_event(entry: LogEntry | Act | Event) -> Event:
    """The :class:`Event` of a log entry (card values drawn are ``private``).

    Kinds and their data: ``deal_start`` {deal}, ``round_start`` {round}, ``combination``
    {cards, x_values, kind, high, position}, ``stopp``/``nachzieh`` {position}, ``reserve``
    {card, position}, ``round_won`` {nachzieh}, ``draw`` {left} private {card}, ``insert``
    {position} private {card}, ``out``, ``concede``, ``chip_lost`` {chips}, ``no_chip``,
    ``deal_end`` {losers}, ``game_over`` {losers}. Positions count from 0.

    Every call builds new dictionaries, so events made for one state share nothing
    mutable with those of a clone.
    """
    if isinstance(entry, Act):
        return _act_event(entry)
    private: dict[str, Any] | None = None
    if isinstance(entry, Event):
        if entry.private is not None:
            private = dict(entry.private)
        return Event(entry.kind, entry.seat, dict(entry.data), private)
    kind, seat, raw = entry
    data: dict[str, Any]
    if kind == "insert":
        data, private = {"position": raw[0]}, {"card": card_name(raw[1])}
    elif kind == "draw":
        data, private = {"left": raw[0]}, {"card": card_name(raw[1])}
    elif kind in ("deal_end", "game_over"):
        data = {"losers": list(raw)}
    elif raw is None:
        data = {}
    else:
        data = {_EVENT_FIELD[kind]: raw}
    return Event(kind, seat, data, private)


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
    "round_won": "nachzieh",
    "round_start": "round",
    "deal_start": "deal",
    "chip_lost": "chips",
}
"""The one data field of the entries whose payload is a single value."""
