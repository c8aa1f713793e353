"""Casino positions as JSON documents (format in ``docs/positions-casino.md``).

Writing is exact. Reading is two steps, as for every game: the document's *shape* is checked
against :class:`CasinoPosition` (a strict ``msgspec`` type: no unknown fields, no ``true``
for a number, no 2.9 for a whole number, no NaN, bounds on every number), then its
*meaning*: cards conserved, builds well formed, scores that the recorded packs add up to, a
player to move who can move. The first problem found is named in the error: code
``document.invalid`` for the shape, ``position.invalid`` for the meaning,
``position.wrong_format`` / ``position.wrong_game`` for a document of another kind.
:class:`CasinoObservationDocument` describes what ``observation(seat).to_json()`` writes.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from itertools import chain
from typing import TYPE_CHECKING, Any, Final

import msgspec

from kartentisch.core.documents import impossible, read_document
from kartentisch.core.errors import InvalidOptionsError, InvalidPositionError, safe_repr
from kartentisch.games.casino.cards import CARD_NAMES, VALUES, card_name, card_names, is_face
from kartentisch.games.casino.combinatorics import can_partition
from kartentisch.games.casino.documents import (
    CARD_PATTERN,
    PLAY_KINDS,
    POSITION_FORMAT,
    CasinoObservationDocument,
    CasinoPosition,
    OptionsDocument,
    PackResultDocument,
)
from kartentisch.games.casino.scoring import SCORE_ITEMS, TARGET
from kartentisch.games.casino.state import OVER, PLAY, CasinoState
from kartentisch.games.casino.table import BuildUnit, PlayRecord

if TYPE_CHECKING:
    from kartentisch.games.casino.game import Casino


# ----------------------------------------------------------------------------- writing
def state_to_json(state: CasinoState) -> dict[str, Any]:
    """The document for ``state``."""
    return {
        "format": POSITION_FORMAT,
        "game": "casino",
        "players": state.game.players,
        "options": state.game.options_json(),
        "seed": state.seed,
        "pack": state.pack,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "to_move": None if state.phase == OVER else state.current_player,
        "hands": [card_names(h) for h in state.hands],
        "pack_cards": card_names(reversed(state.deck)),
        "table": {
            "loose": card_names(state.loose),
            "builds": [{"value": b.value, "cards": card_names(b.cards), "owner": b.owner,
                        "turn": b.turn} for b in (state.builds[v] for v in sorted(state.builds))],
        },
        "captured": [card_names(c) for c in state.captured],
        "sweeps": list(state.sweeps),
        "last_capturer": state.last_capturer,
        "last_turn": list(state.last_turn),
        "plays": [{"seat": p.seat, "kind": p.kind,
                   "card": None if p.card < 0 else card_name(p.card),
                   "cards": card_names(p.cards), "value": p.value, "sweep": p.sweep}
                  for p in state.plays],
        "scores": list(state.scores),
        "pack_results": [{k: list(v) for k, v in r.items()} for r in state.pack_results],
        "winners": list(state.winners),
    }


# ----------------------------------------------------------------------------- reading
_BY_NAME: Final = {name: card for card, name in enumerate(CARD_NAMES)}
"""Card by its canonical name: the pattern above admits only these names, so one lookup
reads a card (``parse_card``, for what people type, costs ten times as much)."""


_BITS: Final = tuple(1 << c for c in range(52))
_new_tuple: Final = tuple.__new__
_RESULT_KEYS: Final = (*SCORE_ITEMS, "total")
"""A pack result's items as the state keeps them: :class:`PackResultDocument`'s fields, in
order."""
assert PackResultDocument.__struct_fields__ == _RESULT_KEYS


_BY_NAME_GET: Final = _BY_NAME.__getitem__


def _cards(names: list[str]) -> list[int]:
    """The cards of canonical names (KeyError for any other name)."""
    return list(map(_BY_NAME_GET, names))


def _bad_card_name(doc: CasinoPosition) -> InvalidPositionError:
    """The shape error (``document.invalid``, worded as msgspec words a pattern mismatch)
    for the first card name in ``doc`` that is not canonical, with its place."""
    places: list[tuple[str, list[str]]] = [
        *((f"$.hands[{s}]", h) for s, h in enumerate(doc.hands)),
        ("$.pack_cards", doc.pack_cards),
        ("$.table.loose", doc.table.loose),
        *((f"$.table.builds[{i}].cards", b.cards) for i, b in enumerate(doc.table.builds)),
        *((f"$.captured[{s}]", c) for s, c in enumerate(doc.captured))]
    for i, p in enumerate(doc.plays):
        if p.card is not None:
            places.append((f"$.plays[{i}].card", [p.card]))
        places.append((f"$.plays[{i}].cards", p.cards))
    for where, names in places:
        for k, name in enumerate(names):
            if name not in _BY_NAME:
                path = where if where.endswith(".card") else f"{where}[{k}]"
                detail = f"Expected text matching regex '{CARD_PATTERN}' - at `{path}`"
                what = "Casino position"
                return InvalidPositionError(f"{what}: {detail}", code="document.invalid",
                                            params={"what": what, "detail": detail})
    raise AssertionError("every card name is canonical")  # pragma: no cover


def state_from_json(game: Casino, document: object) -> CasinoState:
    """Read a position document; raises ``InvalidPositionError`` naming the first problem."""
    if isinstance(document, dict):  # a document of another kind is named as such
        found = document.get("format", POSITION_FORMAT)
        if found != POSITION_FORMAT:
            raise InvalidPositionError(
                f"unknown position format {safe_repr(found)}; expected {POSITION_FORMAT}",
                code="position.wrong_format",
                params={"found": safe_repr(found), "expected": POSITION_FORMAT})
        found = document.get("game", "casino")
        if found != "casino":
            raise InvalidPositionError(
                f"this is a position of {safe_repr(found)}, not of casino",
                code="position.wrong_game", params={"found": safe_repr(found),
                                                    "expected": "casino"})
    doc = read_document(document, CasinoPosition, what="Casino position")
    # Card names, all at once before anything else (a bad name is a shape error, which
    # comes first): one lookup each.
    try:
        hands = [_cards(h) for h in doc.hands]
        deck = _cards(doc.pack_cards)
        deck.reverse()
        loose = _cards(doc.table.loose)
        build_cards = [_cards(b.cards) for b in doc.table.builds]
        captured = [_cards(c) for c in doc.captured]
        plays = [(-1 if p.card is None else _BY_NAME[p.card], _cards(p.cards))
                 for p in doc.plays]
    except KeyError:
        raise _bad_card_name(doc) from None
    n = doc.players
    if n != game.players or msgspec.structs.astuple(doc.options) != _option_values(game):
        from kartentisch.games.casino.game import Casino  # (a cycle at load)

        try:
            game = Casino(n, msgspec.structs.asdict(doc.options))
        except InvalidOptionsError as exc:
            raise impossible(f"options: {exc}") from None
    state = CasinoState(game, doc.seed, deal_now=False)
    state.pack = doc.pack
    state.turn = doc.turn
    state.phase = doc.phase

    def per_seat(name: str, value: list[Any], count: int = n) -> None:
        if len(value) != count:
            raise impossible(f"{name!r} must have one entry per "
                             f"{'player' if count == n else 'side'} ({count})",
                             field=name, count=count)

    if doc.dealer >= n:
        raise impossible(f"'dealer' {doc.dealer} is not a seat of {n} players", field="dealer")
    state.dealer = doc.dealer
    per_seat("hands", doc.hands)
    state.hands = hands
    state.deck = deck
    if len(state.deck) % (4 * n):
        raise impossible(f"'pack_cards' holds {len(state.deck)} cards; deals of 4 to each of "
                         f"{n} players leave a multiple of {4 * n}", field="pack_cards")
    loose.sort()
    state.loose = loose
    for i, b in enumerate(doc.table.builds):
        cards = sorted(build_cards[i])
        if b.owner >= n:
            raise impossible(f"build {i + 1}: owner {b.owner} is not a seat", field="table.builds")
        if b.turn >= max(doc.turn, 1):
            raise impossible(f"build {i + 1}: its turn {b.turn} is not before 'turn'",
                             field="table.builds")
        if b.value in state.builds:
            raise impossible(
                f"build {i + 1}: a second build of {b.value}; builds of one value merge",
                field="table.builds")
        if len(cards) < 2:
            raise impossible(f"build {i + 1}: a build holds at least 2 cards", field="table.builds")
        if any(is_face(c) for c in cards):
            raise impossible(f"build {i + 1}: face cards never enter builds", field="table.builds")
        if not can_partition(cards, b.value):
            raise impossible(f"build {i + 1}: {' '.join(card_names(cards))} do not form groups of "
                             f"{b.value}", field="table.builds")
        state.builds[b.value] = BuildUnit(b.value, tuple(cards), b.owner, b.turn)
    per_seat("captured", doc.captured)
    state.captured = captured
    _check_cards(state)

    per_seat("sweeps", doc.sweeps)
    state.sweeps = list(doc.sweeps)
    if doc.last_capturer >= n:
        raise impossible("'last_capturer' is not a seat", field="last_capturer")
    state.last_capturer = doc.last_capturer
    per_seat("last_turn", doc.last_turn)
    if any(t >= max(doc.turn, 1) for t in doc.last_turn):
        raise impossible("'last_turn' must hold, per player, -1 or a turn before 'turn'",
                         field="last_turn")
    state.last_turn = list(doc.last_turn)
    _read_plays(state, doc, plays)
    _read_scores(state, doc)

    if doc.phase == OVER:
        if not doc.winners:
            raise impossible("a finished game ('over') needs a winner", field="winners")
        if any(state.hands) or state.deck or state.loose or state.builds:
            raise impossible("a finished game has no cards in hands, pack or table",
                             field="phase")
        if doc.to_move is not None:
            raise impossible("a finished game has nobody to move", field="to_move")
        state._current = 0
        state._legal = ()
        return state
    if doc.winners:
        raise impossible("a game still in play has no winner yet", field="winners")
    if doc.to_move is None or doc.to_move >= n:
        raise impossible(f"'to_move' must be a seat from 0 to {n - 1}", field="to_move")
    if not state.hands[doc.to_move]:
        raise impossible(f"seat {doc.to_move} is to move but holds no card", field="to_move")
    sizes = [len(h) for h in state.hands]
    if max(sizes) - min(sizes) > 1:
        raise impossible(f"hand sizes {sizes} differ by more than one card", field="hands")
    if game.options.owner_keeps_capture_card:
        for v in sorted(state.builds):
            owner = state.builds[v].owner
            if not any(VALUES[c] == v for c in state.hands[owner]):
                raise impossible(f"seat {owner} owns the build of {v} but holds no card of "
                                 f"value {v}", field="table.builds")
    state._current = doc.to_move
    state._legal = None
    return state


_OPTIONS_SEEN: list[tuple[object, tuple[object, ...]]] = []
"""The last game's options and their values in the options document's field order."""


def _option_values(game: Casino) -> tuple[object, ...]:
    """``game``'s options in the order of :class:`OptionsDocument`'s fields (remembered for
    the last options object asked about: most reads are for one game), to compare with a
    document's without making a dictionary of either."""
    options = game.options
    if _OPTIONS_SEEN and _OPTIONS_SEEN[0][0] is options:
        return _OPTIONS_SEEN[0][1]
    fields = OptionsDocument.__struct_fields__
    values = tuple(getattr(options, f) for f in fields)
    if tuple(f.name for f in dataclasses.fields(options)) != fields:
        values = ()  # (options the document cannot carry: never equal, a new game decides)
    _OPTIONS_SEEN[:] = [(options, values)]
    return values


def _check_cards(state: CasinoState) -> None:
    """Every one of the 52 cards exactly once across hands, pack, table and piles."""
    groups: list[list[int] | tuple[int, ...]] = [
        state.deck, state.loose, *state.hands, *state.captured,
        *(b.cards for b in state.builds.values())]
    if sum(map(len, groups)) == 52 and len(set(chain.from_iterable(groups))) == 52:
        return  # 52 cards, 52 different ones (every name read is a card)
    total = Counter(state.deck) + Counter(state.loose)
    for h in state.hands:
        total.update(h)
    for b in state.builds.values():
        total.update(b.cards)
    for c in state.captured:
        total.update(c)
    if total.total() != 52 or len(total) != 52:
        twice = sorted(c for c, k in total.items() if k > 1)
        if twice:
            raise impossible(f"card {card_name(twice[0])} appears {total[twice[0]]} times; "
                             "every card appears exactly once", card=card_name(twice[0]))
        missing = sorted(set(range(52)) - set(total))
        raise impossible(f"card {card_name(missing[0])} is missing; every card appears "
                         "exactly once", card=card_name(missing[0]))


def _read_plays(state: CasinoState, doc: CasinoPosition,
                plays: list[tuple[int, list[int]]]) -> None:
    """The pack's log: seats that exist, and piles that match what the plays took
    (``plays``: each entry's card, -1 for none, and cards, read from ``doc.plays``)."""
    n = state.game.players
    taken = [0] * n
    """The cards each seat's plays took, as masks (every card is on the table once, see
    :func:`_check_cards`, so a mask and a count say whether they match its pile)."""
    counts = [0] * n
    records: list[PlayRecord] = []
    bits = _BITS.__getitem__
    for i, p in enumerate(doc.plays):
        seat, kind = p.seat, p.kind
        if seat >= n:
            raise impossible(f"play {i + 1}: seat {seat} is not a seat", field="plays")
        card, cards = plays[i]
        if (card < 0) != (kind == "table"):
            raise impossible(f"play {i + 1}: only a 'table' entry has no card", field="plays")
        if kind == "capture" or kind == "table":
            # (every card is once in the position, see _check_cards: a sum of bits is a mask)
            taken[seat] |= sum(map(bits, cards)) | (bits(card) if card >= 0 else 0)
            counts[seat] += len(cards) + (card >= 0)
        # (tuple.__new__ is what the named tuple's own constructor calls, minus a frame)
        records.append(_new_tuple(PlayRecord, (seat, kind, card, tuple(cards), p.value,
                                               p.sweep)))
    state.plays = records
    for s in range(n):
        pile = state.captured[s]
        if taken[s] != sum(map(bits, pile)) or counts[s] != len(pile):
            raise impossible(f"captured of seat {s} differs from the cards its plays captured",
                             field="captured", seat=s)


def _read_scores(state: CasinoState, doc: CasinoPosition) -> None:
    """Pack results that could have happened, and scores they add up to."""
    game = state.game
    sides = game.sides
    if len(doc.scores) != sides:
        raise impossible(f"'scores' must have one entry per side ({sides})", field="scores")
    finished = doc.pack + (doc.phase == OVER)  # the last pack is scored, not left
    if len(doc.pack_results) != finished:
        raise impossible(f"'pack_results' lists {len(doc.pack_results)} packs; {finished} are "
                         "finished", field="pack_results")
    results: list[dict[str, list[int]]] = []
    for i, r in enumerate(doc.pack_results):
        # The result's lists in the order of _RESULT_KEYS (its fields; fresh lists of this
        # read, so the state keeps them).
        values: tuple[list[int], ...] = msgspec.structs.astuple(r)
        if any(len(v) != sides for v in values):
            raise impossible(f"pack result {i + 1}: each item needs one entry per side ({sides})",
                             field="pack_results")
        cards, spades, big, little, aces, _sweeps, _total = map(sum, values)
        if (big != 2 or little != 1 or aces != 4 or cards not in (0, 3)
                or spades not in (0, 1)):
            raise impossible(f"pack result {i + 1}: the points do not share out one pack",
                             field="pack_results")
        if values[-1] != list(map(sum, zip(*values[:-1], strict=True))):
            raise impossible(f"pack result {i + 1}: 'total' is not the sum of the items",
                             field="pack_results")
        results.append(dict(zip(_RESULT_KEYS, values, strict=True)))
    state.pack_results = results
    scores = list(doc.scores)
    earned = (list(map(sum, zip(*(r["total"] for r in results), strict=True))) if results
              else [0] * sides)
    if doc.winners and doc.winners[0] >= sides:
        raise impossible("'winners' must name a side", field="winners")
    if game.options.count_out:
        # counting out stops at 21: the scores are what was counted, at most what was earned
        if any(p > e for p, e in zip(scores, earned, strict=True)):
            raise impossible("scores exceed the points of the recorded packs", field="scores")
        if doc.phase == PLAY and max(scores, default=0) >= TARGET:
            raise impossible(f"a side has {max(scores)} points and play goes on",
                             field="scores")
    else:
        if scores != earned:
            raise impossible(f"scores {scores} are not the sum of the recorded packs {earned}",
                             field="scores")
        top = max(scores)
        if doc.phase == PLAY and top >= TARGET and scores.count(top) == 1:
            raise impossible(f"a side leads with {top} points and play goes on",
                             field="scores")
    if doc.phase == OVER and doc.winners:
        w = doc.winners[0]
        if scores[w] < TARGET or (not game.options.count_out and scores[w] != max(scores)):
            raise impossible("the winner has not won", field="winners")
    state.scores = scores
    state.winners = list(doc.winners)


def read_observation(document: object) -> CasinoObservationDocument:
    """Check an observation document's shape (for clients and the schema tests)."""
    return read_document(document, CasinoObservationDocument, what="Casino observation")


__all__ = ["PLAY_KINDS", "POSITION_FORMAT", "CasinoObservationDocument", "CasinoPosition",
           "read_observation", "state_from_json", "state_to_json"]
