"""Casino positions as JSON documents (format in ``docs/positions-casino.md``).

Writing is exact. Reading is two steps, as for every game: the document's *shape* is checked
against :class:`CasinoPositionDocument` (a strict ``msgspec`` type: no unknown fields, no ``true``
for a number, no 2.9 for a whole number, no NaN, bounds on every number), then its
*meaning*: cards conserved, builds well formed, scores that the recorded packs add up to, a
player to move who can move. The first problem found is named in the error: code
``document.invalid`` for the shape, ``position.invalid`` for the meaning,
``position.wrong_format`` / ``position.wrong_game`` for a document of another kind.
:class:`CasinoObservationDocument` describes what ``observation(seat).to_json()`` writes.

Size (over 600 lines, kept whole): the writer, the checked reader and the fast reader of one
document format, which must agree field by field; the fast reader is held to the checked one
by a mutation test (``tests/casino/test_position.py``), and keeping the three side by side
is what lets a reader see that they do.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import TYPE_CHECKING, Any, Final

import msgspec

from kartentisch import _native
from kartentisch.core.documents import impossible, read_document
from kartentisch.core.errors import InvalidOptionsError, InvalidPositionError, safe_repr
from kartentisch.core.rng import SEED_MAX
from kartentisch.games.casino.cards import CARD_NAMES, VALUES, card_name, card_names, is_face
from kartentisch.games.casino.combinatorics import can_partition
from kartentisch.games.casino.documents import (
    CARD_PATTERN,
    PLAY_KINDS,
    POSITION_FORMAT,
    CasinoObservationDocument,
    CasinoPositionDocument,
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
    names = CARD_NAMES  # (names looked up in place: no call per list of cards)
    builds = state.builds
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
        "hands": [[names[c] for c in h] for h in state.hands],
        "pack_cards": [names[c] for c in reversed(state.deck)],
        "table": {
            "loose": [names[c] for c in state.loose],
            "builds": [{"value": b.value, "cards": [names[c] for c in b.cards],
                        "owner": b.owner, "turn": b.turn}
                       for b in [builds[v] for v in sorted(builds)]],
        },
        "captured": [[names[c] for c in pile] for pile in state.captured],
        "sweeps": list(state.sweeps),
        "last_capturer": state.last_capturer,
        "last_turn": list(state.last_turn),
        "plays": [{"seat": p.seat, "kind": p.kind,
                   "card": None if p.card < 0 else names[p.card],
                   "cards": [names[c] for c in p.cards], "value": p.value, "sweep": p.sweep}
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
_ALL_CARDS: Final = (1 << 52) - 1
_new_tuple: Final = tuple.__new__
_RESULT_KEYS: Final = (*SCORE_ITEMS, "total")
"""A pack result's items as the state keeps them: :class:`PackResultDocument`'s fields, in
order."""
assert PackResultDocument.__struct_fields__ == _RESULT_KEYS


_BY_NAME_GET: Final = _BY_NAME.__getitem__


def _cards(names: list[str]) -> list[int]:
    """The cards of canonical names (KeyError for any other name)."""
    return list(map(_BY_NAME_GET, names))


def _bad_card_name(doc: CasinoPositionDocument) -> InvalidPositionError:
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
    """Read a position document; raises ``InvalidPositionError`` naming the first problem.

    Speed: with the compiled core, a document as ``to_json`` writes it (every field present,
    plain ``dict``, ``list``, ``int``, ``bool``, ``str`` and ``None`` values, ``game``'s
    players and options) is read by :func:`_read_fast` straight from its values, without
    msgspec's structs; anything else, and every document with a problem, takes the checked
    path (:func:`_read_checked`), which names the first problem. Both end in the same
    checks of the meaning (:func:`_read_rest`). (Interpreted, the checked path is the
    faster one: msgspec checks the shape in C.)
    """
    if type(document) is dict and _native.compiled:
        fast = _read_fast(game, document)
        if fast is not None:
            return fast
    return _read_checked(game, document)


def _read_checked(game: Casino, document: object) -> CasinoState:
    """:func:`state_from_json` for any document: its shape checked by msgspec's document
    type, then every check with its error."""
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
    doc = read_document(document, CasinoPositionDocument, what="Casino position")
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
    return _read_rest(
        game, doc.seed, doc.pack, doc.dealer, doc.turn, doc.phase, doc.to_move, hands, deck,
        loose, [(b.value, build_cards[i], b.owner, b.turn)
                for i, b in enumerate(doc.table.builds)],
        captured, list(doc.sweeps), doc.last_capturer, list(doc.last_turn),
        [(p.seat, p.kind, plays[i][0], plays[i][1], p.value, p.sweep)
         for i, p in enumerate(doc.plays)],
        doc.scores, [msgspec.structs.astuple(r) for r in doc.pack_results], doc.winners)


def _read_rest(game: Casino, seed: int, pack: int, dealer: int, turn: int, phase: str,
               to_move: int | None, hands: list[list[int]], deck: list[int],
               loose: list[int], builds: list[tuple[int, list[int], int, int]],
               captured: list[list[int]], sweeps: list[int], last_capturer: int,
               last_turn: list[int], plays: list[tuple[int, str, int, list[int], int, bool]],
               scores: list[int], results: list[tuple[list[int], ...]],
               winners: list[int]) -> CasinoState:
    """The state of a document's values (every list fresh for this state; cards as ints,
    the pack's next card last; builds as (value, cards, owner, turn), log entries as (seat,
    kind, card or -1, cards, value, sweep), pack results as their lists in the order of
    :class:`PackResultDocument`'s fields), checking their meaning."""
    n = game.players
    state = CasinoState(game, seed, deal_now=False)
    state.pack = pack
    state.turn = turn
    state.phase = phase

    def per_seat(name: str, value: list[Any], count: int = n) -> None:
        if len(value) != count:
            raise impossible(f"{name!r} must have one entry per "
                             f"{'player' if count == n else 'side'} ({count})",
                             field=name, count=count)

    if dealer >= n:
        raise impossible(f"'dealer' {dealer} is not a seat of {n} players", field="dealer")
    state.dealer = dealer
    per_seat("hands", hands)
    state.hands = hands
    state.deck = deck
    if len(state.deck) % (4 * n):
        raise impossible(f"'pack_cards' holds {len(state.deck)} cards; deals of 4 to each of "
                         f"{n} players leave a multiple of {4 * n}", field="pack_cards")
    loose.sort()
    state.loose = loose
    for i, (value, unsorted, owner, made) in enumerate(builds):
        cards = sorted(unsorted)
        if owner >= n:
            raise impossible(f"build {i + 1}: owner {owner} is not a seat", field="table.builds")
        if made >= max(turn, 1):
            raise impossible(f"build {i + 1}: its turn {made} is not before 'turn'",
                             field="table.builds")
        if value in state.builds:
            raise impossible(
                f"build {i + 1}: a second build of {value}; builds of one value merge",
                field="table.builds")
        if len(cards) < 2:
            raise impossible(f"build {i + 1}: a build holds at least 2 cards", field="table.builds")
        if any(is_face(c) for c in cards):
            raise impossible(f"build {i + 1}: face cards never enter builds", field="table.builds")
        if not can_partition(cards, value) and not (
                game.options.raising == "any"
                and sum(VALUES[c] for c in cards) > value):
            # With option raising = any a raised call's cards no longer split into groups
            # of its value; they then add up to more than it (the groups, plus the raise).
            raise impossible(f"build {i + 1}: {' '.join(card_names(cards))} do not form groups of "
                             f"{value}", field="table.builds")
        state.builds[value] = BuildUnit(value, tuple(cards), owner, made)
    per_seat("captured", captured)
    state.captured = captured
    _check_cards(state)

    per_seat("sweeps", sweeps)
    state.sweeps = sweeps
    if last_capturer >= n:
        raise impossible("'last_capturer' is not a seat", field="last_capturer")
    state.last_capturer = last_capturer
    per_seat("last_turn", last_turn)
    if any(t >= max(turn, 1) for t in last_turn):
        raise impossible("'last_turn' must hold, per player, -1 or a turn before 'turn'",
                         field="last_turn")
    state.last_turn = last_turn
    _read_plays(state, plays)
    _read_scores(state, pack, phase, scores, results, winners)

    if phase == OVER:
        if not winners:
            raise impossible("a finished game ('over') needs a winner", field="winners")
        if any(state.hands) or state.deck or state.loose or state.builds:
            raise impossible("a finished game has no cards in hands, pack or table",
                             field="phase")
        if to_move is not None:
            raise impossible("a finished game has nobody to move", field="to_move")
        state._current = 0
        state._legal = ()
        return state
    if winners:
        raise impossible("a game still in play has no winner yet", field="winners")
    if to_move is None or to_move >= n:
        raise impossible(f"'to_move' must be a seat from 0 to {n - 1}", field="to_move")
    if not state.hands[to_move]:
        raise impossible(f"seat {to_move} is to move but holds no card", field="to_move")
    sizes = [len(h) for h in state.hands]
    if max(sizes) - min(sizes) > 1:
        raise impossible(f"hand sizes {sizes} differ by more than one card", field="hands")
    if game.options.owner_keeps_capture_card:
        for v in sorted(state.builds):
            owner = state.builds[v].owner
            if not any(VALUES[c] == v for c in state.hands[owner]):
                raise impossible(f"seat {owner} owns the build of {v} but holds no card of "
                                 f"value {v}", field="table.builds")
    state._current = to_move
    state._legal = None
    return state


_KEYS: Final = 21
"""The fields of a position (``to_json`` writes all of them)."""
_PHASES: Final = frozenset(("play", "over"))
_KINDS: Final = frozenset(PLAY_KINDS)
_TURNS: Final = 10**6
"""The bound of packs and turns (``documents.Turn``)."""
_RESULT_BOUNDS: Final = (3, 1, 2, 1, 4, 52, 10**4)
"""The largest value of each pack result item (:class:`PackResultDocument`)."""
_MISSING: Final = object()


def _names_of(value: object, limit: int) -> list[int] | None:
    """The cards of a list of at most ``limit`` canonical names, or None."""
    if type(value) is not list or len(value) > limit:
        return None
    get = _BY_NAME.get
    out: list[int] = []
    for name in value:
        c = get(name, -1) if type(name) is str else -1
        if c < 0:
            return None
        out.append(c)
    return out


def _ints(value: object, low: int, high: int, shortest: int, longest: int) -> list[int] | None:
    """A fresh copy of a list of ``shortest`` to ``longest`` ints from ``low`` to ``high``,
    or None."""
    if type(value) is not list or not shortest <= len(value) <= longest:
        return None
    out: list[int] = []
    for v in value:
        if type(v) is not int or not low <= v <= high:
            return None
        out.append(v)
    return out


def _read_fast(game: Casino, data: dict[str, Any]) -> CasinoState | None:
    """The state of a document in exactly the shape ``to_json`` writes, for ``game``'s
    players and options, read straight from its values; None for anything else (then
    :func:`state_from_json`'s checked path reads it and names any problem).

    It accepts only what :class:`CasinoPositionDocument` accepts (each value of its exact type and
    bounds, every field present, no other field) and copies every list (the caller keeps
    the document); the meaning is checked by :func:`_read_rest`, as on the checked path.
    """
    n = game.players
    if len(data) != _KEYS:
        return None
    try:
        form = data["format"]
        name = data["game"]
        players = data["players"]
        options = data["options"]
        seed = data["seed"]
        pack = data["pack"]
        dealer = data["dealer"]
        turn = data["turn"]
        phase = data["phase"]
        to_move = data["to_move"]
        hands_doc = data["hands"]
        table = data["table"]
        captured_doc = data["captured"]
        last_capturer = data["last_capturer"]
        plays_doc = data["plays"]
        results_doc = data["pack_results"]
        deck = _names_of(data["pack_cards"], 52)
        sweeps = _ints(data["sweeps"], 0, 52, 2, 4)
        last_turn = _ints(data["last_turn"], -1, _TURNS, 2, 4)
        scores = _ints(data["scores"], 0, 10**4, 2, 4)
        winners = _ints(data["winners"], 0, 3, 0, 1)
    except KeyError:
        return None
    if (type(form) is not str or form != POSITION_FORMAT or type(name) is not str
            or name != "casino" or type(players) is not int or players != n
            or type(options) is not dict or not _same_options(game, options)
            or type(seed) is not int or not 0 <= seed <= SEED_MAX
            or type(pack) is not int or not 0 <= pack <= _TURNS
            or type(dealer) is not int or not 0 <= dealer <= 3
            or type(turn) is not int or not 0 <= turn <= _TURNS
            or type(phase) is not str or phase not in _PHASES
            or (to_move is not None and (type(to_move) is not int or not 0 <= to_move <= 3))
            or type(last_capturer) is not int or not -1 <= last_capturer <= 3
            or deck is None or sweeps is None or last_turn is None or scores is None
            or winners is None):
        return None
    deck.reverse()
    if type(hands_doc) is not list or not 2 <= len(hands_doc) <= 4:
        return None
    hands: list[list[int]] = []
    for h in hands_doc:
        cards = _names_of(h, 4)
        if cards is None:
            return None
        hands.append(cards)
    if type(captured_doc) is not list or not 2 <= len(captured_doc) <= 4:
        return None
    captured: list[list[int]] = []
    for c in captured_doc:
        cards = _names_of(c, 52)
        if cards is None:
            return None
        captured.append(cards)
    if type(table) is not dict or len(table) != 2:
        return None
    loose = _names_of(table.get("loose"), 52)
    builds_doc = table.get("builds")
    if loose is None or type(builds_doc) is not list or len(builds_doc) > 10:
        return None
    builds: list[tuple[int, list[int], int, int]] = []
    for b in builds_doc:
        if type(b) is not dict or len(b) != 4:
            return None
        value = b.get("value")
        cards = _names_of(b.get("cards"), 52)
        owner = b.get("owner")
        made = b.get("turn")
        if (cards is None or type(value) is not int or not 1 <= value <= 10
                or type(owner) is not int or not 0 <= owner <= 3
                or type(made) is not int or not 0 <= made <= _TURNS):
            return None
        builds.append((value, cards, owner, made))
    if type(plays_doc) is not list or len(plays_doc) > 60:
        return None
    get = _BY_NAME.get
    plays: list[tuple[int, str, int, list[int], int, bool]] = []
    for p in plays_doc:
        if type(p) is not dict or len(p) != 6:
            return None
        seat = p.get("seat")
        kind = p.get("kind")
        card_name_ = p.get("card", _MISSING)
        cards = _names_of(p.get("cards"), 52)
        value = p.get("value")
        sweep = p.get("sweep")
        card = -1
        if card_name_ is not None:
            card = get(card_name_, -1) if type(card_name_) is str else -1
            if card < 0:
                return None
        if (cards is None or type(seat) is not int or not 0 <= seat <= 3
                or type(kind) is not str or kind not in _KINDS
                or type(value) is not int or not 0 <= value <= 10
                or (sweep is not True and sweep is not False)):
            return None
        plays.append((seat, kind, card, cards, value, sweep))
    if type(results_doc) is not list or len(results_doc) > 10**4:
        return None
    results: list[tuple[list[int], ...]] = []
    for r in results_doc:
        if type(r) is not dict or len(r) != 7:
            return None
        items: list[list[int]] = []
        for key, high in zip(_RESULT_KEYS, _RESULT_BOUNDS):  # noqa: B905
            item = _ints(r.get(key), 0, high, 0, 4)
            if item is None:
                return None
            items.append(item)
        results.append(tuple(items))
    return _read_rest(game, seed, pack, dealer, turn, phase, to_move, hands, deck, loose,
                      builds, captured, sweeps, last_capturer, last_turn, plays, scores,
                      results, winners)



def _same_options(game: Casino, options: dict[str, Any]) -> bool:
    """Whether a document's options are exactly ``game``'s, every one written and of its
    own type (``0`` is not ``false`` here, as for the document type), and ones the options
    document can carry."""
    mine = game.shared_options_json()
    if len(options) != len(mine) or not _option_values(game):
        return False
    for key, value in mine.items():
        other = options.get(key, _MISSING)
        if type(other) is not type(value) or other != value:
            return False
    return True


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
        *[b.cards for b in state.builds.values()]]
    mask = 0
    count = 0
    for group in groups:
        count += len(group)
        for c in group:
            mask |= 1 << c
    if count == 52 and mask == _ALL_CARDS:
        return  # 52 cards, 52 different ones (every name read is a card)
    total = Counter(state.deck) + Counter(state.loose)
    for h in state.hands:
        total.update(h)
    for b in state.builds.values():
        total.update(b.cards)
    for pile in state.captured:
        total.update(pile)
    if total.total() != 52 or len(total) != 52:
        twice = sorted(c for c, k in total.items() if k > 1)
        if twice:
            raise impossible(f"card {card_name(twice[0])} appears {total[twice[0]]} times; "
                             "every card appears exactly once", card=card_name(twice[0]))
        missing = sorted(set(range(52)) - set(total))
        raise impossible(f"card {card_name(missing[0])} is missing; every card appears "
                         "exactly once", card=card_name(missing[0]))


def _read_plays(state: CasinoState,
                plays: list[tuple[int, str, int, list[int], int, bool]]) -> None:
    """The pack's log: seats that exist, and piles that match what the plays took
    (``plays``: each entry's seat, kind, card (-1 for none), cards, value and sweep)."""
    n = state.game.players
    taken = [0] * n
    """The cards each seat's plays took, as masks (every card is on the table once, see
    :func:`_check_cards`, so a mask and a count say whether they match its pile)."""
    counts = [0] * n
    records: list[PlayRecord] = []
    for i, (seat, kind, card, cards, value, sweep) in enumerate(plays):
        if seat >= n:
            raise impossible(f"play {i + 1}: seat {seat} is not a seat", field="plays")
        if (card < 0) != (kind == "table"):
            raise impossible(f"play {i + 1}: only a 'table' entry has no card", field="plays")
        if kind == "capture" or kind == "table":
            # (every card is once in the position, see _check_cards: bits or'ed are a mask)
            mask = 1 << card if card >= 0 else 0
            for c in cards:
                mask |= 1 << c
            taken[seat] |= mask
            counts[seat] += len(cards) + (card >= 0)
        # (tuple.__new__ is what the named tuple's own constructor calls, minus a frame)
        records.append(_new_tuple(PlayRecord, (seat, kind, card, tuple(cards), value, sweep)))
    state.plays = records
    for s in range(n):
        pile = state.captured[s]
        mask = 0
        for c in pile:
            mask |= 1 << c
        if taken[s] != mask or counts[s] != len(pile):
            raise impossible(f"captured of seat {s} differs from the cards its plays captured",
                             field="captured", seat=s)


def _read_scores(state: CasinoState, pack: int, phase: str, scores: list[int],
                 pack_results: list[tuple[list[int], ...]], winners: list[int]) -> None:
    """Pack results that could have happened, and scores they add up to (each result's
    lists in the order of :data:`_RESULT_KEYS`)."""
    game = state.game
    sides = game.sides
    if len(scores) != sides:
        raise impossible(f"'scores' must have one entry per side ({sides})", field="scores")
    finished = pack + (phase == OVER)  # the last pack is scored, not left
    if len(pack_results) != finished:
        raise impossible(f"'pack_results' lists {len(pack_results)} packs; {finished} are "
                         "finished", field="pack_results")
    results: list[dict[str, list[int]]] = []
    earned = [0] * sides
    for i, values in enumerate(pack_results):
        # (fresh lists of this read, so the state keeps them)
        for v in values:
            if len(v) != sides:
                raise impossible(f"pack result {i + 1}: each item needs one entry per side"
                                 f" ({sides})", field="pack_results")
        cards, spades, big, little, aces = (sum(values[0]), sum(values[1]), sum(values[2]),
                                            sum(values[3]), sum(values[4]))
        if (big != 2 or little != 1 or aces != 4 or cards not in (0, 3)
                or spades not in (0, 1)):
            raise impossible(f"pack result {i + 1}: the points do not share out one pack",
                             field="pack_results")
        total = values[-1]
        for side in range(sides):
            points = 0
            for item in values[:-1]:
                points += item[side]
            if total[side] != points:
                raise impossible(f"pack result {i + 1}: 'total' is not the sum of the items",
                                 field="pack_results")
            earned[side] += points
        results.append(dict(zip(_RESULT_KEYS, values, strict=True)))
    state.pack_results = results
    scores = list(scores)
    if winners and winners[0] >= sides:
        raise impossible("'winners' must name a side", field="winners")
    if game.options.count_out:
        # counting out stops at 21: the scores are what was counted, at most what was earned
        if any(p > e for p, e in zip(scores, earned, strict=True)):
            raise impossible("scores exceed the points of the recorded packs", field="scores")
        if phase == PLAY and max(scores, default=0) >= TARGET:
            raise impossible(f"a side has {max(scores)} points and play goes on",
                             field="scores")
    else:
        if scores != earned:
            raise impossible(f"scores {scores} are not the sum of the recorded packs {earned}",
                             field="scores")
        top = max(scores)
        if phase == PLAY and top >= TARGET and scores.count(top) == 1:
            raise impossible(f"a side leads with {top} points and play goes on",
                             field="scores")
    if phase == OVER and winners:
        w = winners[0]
        if scores[w] < TARGET or (not game.options.count_out and scores[w] != max(scores)):
            raise impossible("the winner has not won", field="winners")
    state.scores = scores
    state.winners = list(winners)


def read_observation(document: object) -> CasinoObservationDocument:
    """Check an observation document's shape (for clients and the schema tests)."""
    return read_document(document, CasinoObservationDocument, what="Casino observation")


__all__ = ["PLAY_KINDS", "POSITION_FORMAT", "CasinoObservationDocument", "CasinoPositionDocument",
           "read_observation", "state_from_json", "state_to_json"]
