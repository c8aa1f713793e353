"""The types of Krumme20's JSON documents: positions and observations.

Each document is a strict :class:`~kartentisch.core.documents.Document` (unknown fields are
refused, no ``true`` for a number, no ``2.0`` for a whole number); what the types cannot say
(54 cards of the deck's composition, a total that is the play pile's sum, ...) the position
reader checks afterwards (:mod:`.position`). ``docs/schemas`` is generated from these types
(``Krumme20.position_document``, ``Krumme20.observation_document``), and documents written by
the engine are validated against that schema, so each type describes exactly what
``to_json()`` writes. ``docs/positions-krumme20.md`` explains the fields.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Annotated, Any, Final, Literal

import msgspec
from msgspec import Meta

from kartentisch.core.documents import Document
from kartentisch.core.protocol import OBSERVATION_FORMAT
from kartentisch.core.rng import SEED_MAX
from kartentisch.games.krumme20.options import K20Options

POSITION_FORMAT: Final = "kartentisch-position/1"
"""The ``format`` of every position document."""

Seat = Annotated[int, Meta(ge=0, le=5)]
"""A seat (at most six players)."""
Side = Annotated[int, Meta(ge=0, le=5)]
"""A side's number."""
Phase = Literal["turn", "flip", "take", "draw", "throw", "four", "five", "after", "foul",
                "loss", "sitout", "over"]
"""A step of a turn (``over``: the game has ended)."""
StepPhase = Literal["turn", "flip", "take", "draw", "throw", "four", "five", "after", "foul",
                    "loss", "sitout"]
"""A step that can be queued."""
Count = Annotated[int, Meta(ge=0)]
CARD_PATTERN: Final = r"^[0-5]/[0-5]$"
"""A card's sides in the object form: ``up/down``."""
SHORT_CARD_PATTERN: Final = r"^[0-5]/[0-5]x?\+?$"
"""A plain-string card: ``up/down``, ``x`` for crosswise, ``+`` for both sides known to
everybody."""


class K20CardDocument(Document, frozen=True):
    """A card in a position: both sides (up first) and who knows each side."""

    card: Annotated[str, Meta(extra_json_schema={"pattern": CARD_PATTERN})]
    """``"up/down"``, e.g. ``"3/1"`` (checked by the position reader, see below)."""
    up_known: tuple[Seat, ...] = ()
    """The seats that know the up side."""
    down_known: tuple[Seat, ...] = ()
    """The seats that know the down side."""
    cross: bool = False
    """Lies crosswise on a score pile (counts double)."""


ShortCard = Annotated[str, Meta(extra_json_schema={"pattern": SHORT_CARD_PATTERN})]
"""A card with the usual knowledge: ``"3/1"`` (``"3/1x"``: crosswise, on a score pile only);
``"3/1+"`` (``"3/1x+"``): both sides known to everybody (a card that was played, turned
over or shown).

Speed: card texts are typed as plain text and their pattern (which the JSON Schema keeps)
is checked by the position reader with one dictionary lookup, which reports a text that
does not match as ``document.invalid`` like the type would: msgspec would run a regular
expression for every card, most of a conversion's time."""
CardEntry = ShortCard | K20CardDocument
Pile = list[CardEntry]


def _options_document() -> type[Document]:
    """The ``options`` object's type, derived from :class:`~.options.K20Options` field by
    field (choices become literals), so the two cannot drift apart."""
    hints = typing.get_type_hints(K20Options)
    fields: list[tuple[str, Any, Any]] = []
    for f in dataclasses.fields(K20Options):
        kind: Any = hints[f.name]
        choices = f.metadata.get("choices")
        if choices is not None:
            kind = Literal[tuple(choices)]
        elif kind is int:
            kind = Annotated[int, Meta(ge=0)]
        fields.append((f.name, kind, f.default))
    made = msgspec.defstruct("K20OptionsDocument", fields, bases=(Document,), module=__name__,
                             frozen=True, forbid_unknown_fields=True)
    return made  # type: ignore[return-value]  # defstruct is typed as making a plain Struct


K20OptionsDocument: Final = _options_document()
"""The rules options (every field optional, defaults as :class:`~.options.K20Options`)."""


class K20PositionDocument(Document, frozen=True):
    """A Krumme20 position: the whole state, hidden sides included."""

    format: Literal["kartentisch-position/1"]
    game: Literal["krumme20"]
    players: Annotated[int, Meta(ge=2, le=6)]
    hands: list[Annotated[Pile, Meta(max_length=5)]]
    """Every player's personal cards, in order."""
    draw_pile: Pile
    """The draw pile, bottom first (the last card is the top)."""
    options: K20OptionsDocument = msgspec.field(  # type: ignore[valid-type]
        default_factory=K20OptionsDocument)
    seed: Annotated[int, Meta(ge=0, le=SEED_MAX)] = 0
    phase: Phase = "turn"
    to_move: Annotated[int, Meta(ge=-2, le=5)] | None = None
    """Who decides now (``-2`` once the game is over; omitted: the turn player)."""
    turn_player: Seat = 0
    total: Count | None = None
    """The play pile's total (omitted: the sum of its up sides)."""
    zeros: Annotated[int, Meta(ge=0, le=2)] = 0
    value: Annotated[int, Meta(ge=-1, le=5)] = -1
    second_done: bool = False
    draws_left: Annotated[int, Meta(ge=0, le=2)] = 0
    queue: list[tuple[StepPhase, Seat]] = msgspec.field(default_factory=list)
    scores: list[Pile] | None = None
    ablage: Pile = msgspec.field(default_factory=list)
    abwurf: Pile = msgspec.field(default_factory=list)
    sitting_out: list[bool] | None = None
    final_turns: Annotated[int, Meta(ge=0, le=6)] | None = None
    turns: Annotated[int, Meta(ge=0, le=10**6)] = 1
    fouls: list[Count] | None = None


class K20CardViewDocument(Document, frozen=True):
    """A card as the viewer sees it: a side's number, or ``null`` when not known to them."""

    up: Side | None
    down: Side | None
    up_known: list[Seat]
    """The seats that know the up side (public: everybody saw who looked)."""
    down_known: list[Seat]
    cross: bool


ViewPile = list[K20CardViewDocument]


class K20ObservationDocument(Document, frozen=True):
    """What one seat (or, with ``seat`` null, a spectator) knows of a Krumme20 game."""

    format: Literal["kartentisch-observation/1"]
    game: Literal["krumme20"]
    seat: Seat | None
    players: Annotated[int, Meta(ge=2, le=6)]
    current_player: Annotated[int, Meta(ge=-2, le=5)]
    turn_player: Seat
    phase: Phase
    target: int
    total: Count
    zeros: Annotated[int, Meta(ge=0, le=2)]
    value: Annotated[int, Meta(ge=-1, le=5)]
    second_done: bool
    draws_left: Annotated[int, Meta(ge=0, le=2)]
    queue: list[tuple[StepPhase, Seat]]
    hands: list[ViewPile]
    scores: list[ViewPile]
    ablage: ViewPile
    abwurf: ViewPile
    draw_pile: ViewPile
    sitting_out: list[bool]
    final_turns: Annotated[int, Meta(ge=0, le=6)] | None
    turns: Count
    fouls: list[Count]
    points: list[Count]
    teams: Annotated[list[Annotated[list[Seat], Meta(min_length=2, max_length=3)]],
                     Meta(max_length=3)] = msgspec.field(default_factory=list)
    """The team variant only: the seats of each team, team 0 first (public)."""
    team_points: Annotated[list[Count], Meta(max_length=3)] = msgspec.field(
        default_factory=list)
    """The team variant only: each team's points, the sum of its members'."""


if OBSERVATION_FORMAT != "kartentisch-observation/1":  # pragma: no cover - a reminder
    raise AssertionError("update K20ObservationDocument.format with OBSERVATION_FORMAT")
