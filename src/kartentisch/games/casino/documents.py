"""The types of Casino's JSON documents: positions and observations.

Each document is a strict :class:`~kartentisch.core.documents.Document` (``msgspec``: no
unknown fields, no ``true`` for a number, no 2.9 for a whole number, no NaN, bounds on every
number); what the types cannot say (cards conserved, builds well formed, scores that the
recorded packs add up to, ...) the position reader checks afterwards (:mod:`.position`).
``docs/schemas`` is generated from these types and ``docs/positions-casino.md`` explains the
fields.

They live apart from the reader because the compiled core (mypyc) cannot compile a module
that defines ``msgspec`` structs, and the reader is compiled (``kartentisch._native``).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec

from kartentisch.core.documents import Document
from kartentisch.core.rng import SEED_MAX

POSITION_FORMAT: Final = "kartentisch-position/1"
PLAY_KINDS: Final = ("capture", "build", "trail", "table")

# ----------------------------------------------------------------------------- the shapes
CARD_PATTERN: Final = "^[A2-9TJQK][cdhs]$"
CARD_DESCRIPTION: Final = "a card: 7h, Td"
Card = Annotated[str, msgspec.Meta(pattern=CARD_PATTERN, description=CARD_DESCRIPTION)]
Cards = Annotated[list[Card], msgspec.Meta(max_length=52)]
PositionCard = Annotated[str, msgspec.Meta(extra_json_schema={"pattern": CARD_PATTERN,
                                                              "description": CARD_DESCRIPTION})]
"""A card in a position document: the same schema as :data:`Card`, but the reader checks
the name itself (one dictionary lookup, see ``position._bad_card_name``) instead of msgspec
running the pattern's regular expression for every card (most of the conversion's time)."""
PositionCards = Annotated[list[PositionCard], msgspec.Meta(max_length=52)]
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=3)]
Turn = Annotated[int, msgspec.Meta(ge=0, le=10**6)]
"""Turns and packs: bounded far above any real game, so absurd numbers are refused."""
Points = Annotated[int, msgspec.Meta(ge=0, le=10**4)]
PerSeat = Annotated[list[Any], msgspec.Meta(min_length=1, max_length=4)]


class OptionsDocument(Document, frozen=True):
    """The rules options (``Casino.options``); missing ones take their defaults."""

    partnerships: bool = False
    face_cards_capture_all: bool = False
    raising: Literal["none", "single", "any"] = "single"
    build_without_capture: bool = True
    trail_ban: Literal["next_turn", "while_build_stands"] = "next_turn"
    trail_when_capture_possible: bool = True
    owner_keeps_capture_card: bool = True
    sweeps: bool = False
    count_out: bool = False


class BuildDocument(Document, frozen=True):
    """A build in a position."""

    value: Annotated[int, msgspec.Meta(ge=1, le=10)]
    cards: PositionCards
    owner: SeatNumber
    turn: Turn


class ObservedBuildDocument(Document, frozen=True):
    """A build as an observation shows it: with whether it is a multiple build."""

    value: Annotated[int, msgspec.Meta(ge=1, le=10)]
    cards: Cards
    owner: SeatNumber
    multiple: bool
    turn: Turn


class TableDocument(Document, frozen=True):
    """The table: loose cards, ascending, and builds by value."""

    loose: PositionCards
    builds: Annotated[list[BuildDocument], msgspec.Meta(max_length=10)]


class ObservedTableDocument(Document, frozen=True):
    """The table as an observation shows it."""

    loose: Cards
    builds: Annotated[list[ObservedBuildDocument], msgspec.Meta(max_length=10)]


class PlayDocument(Document, frozen=True):
    """One entry of the pack's public log."""

    seat: SeatNumber
    kind: Literal["capture", "build", "trail", "table"]
    card: Card | None
    cards: Cards
    value: Annotated[int, msgspec.Meta(ge=0, le=10)]
    sweep: bool


# A position's log entries: as PlayDocument, with card names checked by the reader (see
# PositionCard), not by msgspec's regular expression.
class PositionPlayDocument(Document, frozen=True):
    """One entry of the pack's public log."""

    seat: SeatNumber
    kind: Literal["capture", "build", "trail", "table"]
    card: PositionCard | None
    cards: PositionCards
    value: Annotated[int, msgspec.Meta(ge=0, le=10)]
    sweep: bool


class PackResultDocument(Document, frozen=True):
    """Points per side of one finished pack, item by item."""

    cards: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=3)]], msgspec.Meta(max_length=4)]
    spades: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=1)]], msgspec.Meta(max_length=4)]
    big_casino: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=2)]],
                          msgspec.Meta(max_length=4)]
    little_casino: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=1)]],
                             msgspec.Meta(max_length=4)]
    aces: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=4)]], msgspec.Meta(max_length=4)]
    sweeps: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=52)]], msgspec.Meta(max_length=4)]
    total: Annotated[list[Points], msgspec.Meta(max_length=4)]


class CasinoPositionDocument(Document, frozen=True):
    """A whole Casino position (``state.to_json()``)."""

    format: Literal["kartentisch-position/1"]
    game: Literal["casino"]
    players: Annotated[int, msgspec.Meta(ge=2, le=4)]
    options: OptionsDocument
    seed: Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)]
    pack: Turn
    dealer: SeatNumber
    turn: Turn
    phase: Literal["play", "over"]
    to_move: SeatNumber | None
    hands: Annotated[list[Annotated[list[PositionCard], msgspec.Meta(max_length=4)]],
                     msgspec.Meta(min_length=2, max_length=4)]
    pack_cards: PositionCards
    table: TableDocument
    captured: Annotated[list[PositionCards], msgspec.Meta(min_length=2, max_length=4)]
    sweeps: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=52)]],
                      msgspec.Meta(min_length=2, max_length=4)]
    last_capturer: Annotated[int, msgspec.Meta(ge=-1, le=3)]
    last_turn: Annotated[list[Annotated[int, msgspec.Meta(ge=-1, le=10**6)]],
                         msgspec.Meta(min_length=2, max_length=4)]
    plays: Annotated[list[PositionPlayDocument], msgspec.Meta(max_length=60)]
    scores: Annotated[list[Points], msgspec.Meta(min_length=2, max_length=4)]
    pack_results: Annotated[list[PackResultDocument], msgspec.Meta(max_length=10**4)]
    winners: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=3)]], msgspec.Meta(max_length=1)]


class CasinoObservationDocument(Document, frozen=True):
    """What one seat (or a spectator, ``seat`` null, ``hand`` null) may know."""

    format: Literal["kartentisch-observation/1"]
    game: Literal["casino"]
    seat: SeatNumber | None
    players: Annotated[int, msgspec.Meta(ge=2, le=4)]
    current_player: Annotated[int, msgspec.Meta(ge=-2, le=3,
                                                 description="the seat to act; -2 when over")]
    phase: Literal["play", "over"]
    pack: Turn
    dealer: SeatNumber
    turn: Turn
    hand: Annotated[list[Card], msgspec.Meta(max_length=4)] | None
    hand_sizes: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=4)]],
                          msgspec.Meta(min_length=2, max_length=4)]
    deck_size: Annotated[int, msgspec.Meta(ge=0, le=52)]
    table: ObservedTableDocument
    captured: Annotated[list[Cards], msgspec.Meta(min_length=2, max_length=4)]
    sweeps: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=52)]],
                      msgspec.Meta(min_length=2, max_length=4)]
    last_capturer: Annotated[int, msgspec.Meta(ge=-1, le=3)]
    last_turn: Annotated[list[Annotated[int, msgspec.Meta(ge=-1, le=10**6)]],
                         msgspec.Meta(min_length=2, max_length=4)]
    plays: Annotated[list[PlayDocument], msgspec.Meta(max_length=60)]
    scores: Annotated[list[Points], msgspec.Meta(min_length=2, max_length=4)]
    pack_results: Annotated[list[PackResultDocument], msgspec.Meta(max_length=10**4)]
    winners: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=3)]], msgspec.Meta(max_length=1)]
