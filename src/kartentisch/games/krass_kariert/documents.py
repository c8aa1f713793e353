"""The types of Krass Kariert's JSON documents: positions and observations.

Each document is a strict :class:`~kartentisch.core.documents.Document` (``msgspec``: no
unknown fields, no ``true`` for a number, no 2.9 for a whole number, bounds on every number);
what the types cannot say (the 54 cards conserved, a round that could have been played, ...)
the position reader checks afterwards (:mod:`.position`). ``docs/schemas`` is generated from
these types and ``docs/positions.md`` explains the fields.

They live apart from the reader because the compiled core (mypyc) cannot compile a module
that defines ``msgspec`` structs, and the reader is compiled (``kartentisch._native``).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec

from kartentisch.core.documents import Document
from kartentisch.core.protocol import TERMINAL
from kartentisch.core.rng import SEED_MAX
from kartentisch.games.krass_kariert.actions import MAX_HAND
from kartentisch.games.krass_kariert.cards import DECK, NO_COMBINATION

POSITION_FORMAT: Final = "kartentisch-position/1"
"""The value of the document's ``format`` field."""

GAME_NAME: Final = "krass-kariert"

ACT_KINDS: Final = ("combination", "stopp", "nachzieh", "reserve")

# ----------------------------------------------------------------------------- the shapes
CARD_PATTERN: Final = "^([1-9]|1[0-2]|X|N|S)$"
CARD_DESCRIPTION: Final = "a card: 1 to 12, X (joker), N (Nachzieh) or S (Stopp)"
Card = Annotated[str, msgspec.Meta(pattern=CARD_PATTERN, description=CARD_DESCRIPTION)]
Cards = Annotated[list[Card], msgspec.Meta(max_length=len(DECK))]
PositionCard = Annotated[str, msgspec.Meta(extra_json_schema={"pattern": CARD_PATTERN,
                                                              "description": CARD_DESCRIPTION})]
"""A card in a position document: the same schema as :data:`Card`, but the reader checks
the name itself (``position._check_card_names``, one dict lookup) instead of msgspec running the
pattern's regular expression for every card (most of the conversion's time)."""
PositionCards = Annotated[list[PositionCard], msgspec.Meta(max_length=len(DECK))]
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=4)]
Seats = Annotated[list[SeatNumber], msgspec.Meta(max_length=5)]
PerSeat = msgspec.Meta(min_length=3, max_length=5)
"""One entry per player (3 to 5); the exact count is checked against ``players``."""
Count = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
"""Deals and rounds: bounded far above any real game, so absurd numbers are refused."""
Chips = Annotated[int, msgspec.Meta(ge=0, le=3)]
XValue = Annotated[int, msgspec.Meta(ge=1, le=12)]
XValues = Annotated[list[XValue], msgspec.Meta(max_length=2)]
Phase = Literal["play", "draw", "over"]
ActKind = Literal["combination", "stopp", "nachzieh", "reserve"]


class OptionsDocument(Document, frozen=True):
    """The rules options (``KrassKariert.options``); missing ones take their defaults."""

    five_player_chips: Literal[2, 3] = 2
    x_with_x: bool = False
    voluntary_concession: bool = True
    next_leader_fallback: Literal["next_highest", "right_neighbour"] = "next_highest"


class HandCardDocument(Document, frozen=True):
    """One card of a hand: its 1-based position, the card, and whether it went in face up."""

    position: Annotated[int, msgspec.Meta(ge=1, le=MAX_HAND)]
    card: PositionCard
    public: bool = False


class ActDocument(Document, frozen=True):
    """One act of the current round."""

    seat: SeatNumber
    kind: ActKind
    cards: Annotated[list[PositionCard], msgspec.Meta(min_length=1, max_length=3)]
    position: Annotated[int, msgspec.Meta(ge=1, le=MAX_HAND + 1)]
    """1-based: the first position played from, or where the reserve card went."""
    x_values: XValues = msgspec.field(default_factory=list)


class RoundDocument(Document, frozen=True):
    """The current round: who leads, who acts in which order, and the acts so far."""

    leader: SeatNumber
    order: Seats
    acts_done: Annotated[int, msgspec.Meta(ge=0, le=5)]
    acts: Annotated[list[ActDocument], msgspec.Meta(max_length=5)]


class DrawingDocument(Document, frozen=True):
    """Phase ``draw``: the round's winner, the card drawn and the cards left to insert."""

    winner: SeatNumber
    card: PositionCard
    left: Annotated[int, msgspec.Meta(ge=1, le=6)]


class KKPositionDocument(Document, frozen=True):
    """A whole Krass Kariert position (``state.to_json()``)."""

    format: Literal["kartentisch-position/1"]
    game: Literal["krass-kariert"]
    players: Annotated[int, msgspec.Meta(ge=3, le=5)]
    seed: Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)]
    deal: Count
    rounds: Count
    phase: Phase
    to_move: Annotated[int, msgspec.Meta(ge=TERMINAL, le=4,
                                         description="the seat to act; -2 when over")]
    chips: Annotated[list[Chips], PerSeat]
    hands: Annotated[list[Annotated[list[HandCardDocument], msgspec.Meta(max_length=MAX_HAND)]],
                     PerSeat]
    reserves: Annotated[list[Annotated[list[PositionCard], msgspec.Meta(max_length=2)]],
                        PerSeat]
    draw_pile: PositionCards
    """Top card first."""
    ablagestapel: PositionCards
    in_deal: Annotated[list[bool], PerSeat]
    round: RoundDocument
    options: OptionsDocument = msgspec.field(default_factory=OptionsDocument)
    drawing: DrawingDocument | None = None
    losers: Seats = msgspec.field(default_factory=list)


class ObservedActDocument(Document, frozen=True):
    """One act of the current round as an observation shows it (positions from 0)."""

    seat: SeatNumber
    kind: ActKind
    cards: Annotated[list[Card], msgspec.Meta(min_length=1, max_length=3)]
    x_values: XValues
    strength: Annotated[int, msgspec.Meta(ge=NO_COMBINATION, le=5 * 16 - 1)]
    position: Annotated[int, msgspec.Meta(ge=0, le=MAX_HAND)]


class KKObservationDocument(Document, frozen=True):
    """What one seat (or a spectator: ``seat`` null, ``hand`` empty, ``pending`` null) may
    know: ``state.observation(seat).to_json()``."""

    format: Literal["kartentisch-observation/1"]
    game: Literal["krass-kariert"]
    seat: SeatNumber | None
    players: Annotated[int, msgspec.Meta(ge=3, le=5)]
    current_player: Annotated[int, msgspec.Meta(ge=TERMINAL, le=4,
                                                description="the seat to act; -2 when over")]
    phase: Phase
    deal: Count
    rounds: Count
    chips: Annotated[list[Chips], PerSeat]
    hand: Annotated[list[Card], msgspec.Meta(max_length=MAX_HAND)]
    public_hands: Annotated[
        list[Annotated[list[Card | None], msgspec.Meta(max_length=MAX_HAND)]], PerSeat]
    reserves: Annotated[list[Annotated[list[Card], msgspec.Meta(max_length=2)]], PerSeat]
    draw_size: Annotated[int, msgspec.Meta(ge=0, le=len(DECK))]
    discard: Cards
    in_deal: Annotated[list[bool], PerSeat]
    participants: Seats
    act_index: Annotated[int, msgspec.Meta(ge=0, le=5)]
    leader: SeatNumber
    round: Annotated[list[ObservedActDocument], msgspec.Meta(max_length=5)]
    best: Annotated[int, msgspec.Meta(ge=NO_COMBINATION, le=5 * 16 - 1)]
    best_seat: Annotated[int, msgspec.Meta(ge=-1, le=4)]
    nachzieh_played: Annotated[int, msgspec.Meta(ge=0, le=2)]
    round_winner: Annotated[int, msgspec.Meta(ge=-1, le=4)]
    draws_left: Annotated[int, msgspec.Meta(ge=0, le=6)]
    pending: Card | None
    losers: Seats


OPTION_FIELDS: Final = OptionsDocument.__struct_fields__
"""The options a document carries (``KKOptions``' fields; a test holds them equal)."""
