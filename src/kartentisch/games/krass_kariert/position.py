"""Krass Kariert positions as JSON documents (the format is described in ``docs/positions.md``).

Writing is exact: reading back what was written gives a state with the same document and
the same future. Reading is two steps, as for every game: the document's *shape* is checked
against :class:`KKPositionDocument` (a strict ``msgspec`` type: no unknown fields, no ``true``
for a number, no 2.9 for a whole number, canonical card names, bounds on every number),
then its *meaning*: the 54 cards conserved, a round that could have been played, a player
to move who can move. The first problem found is named in an
:class:`~kartentisch.core.errors.InvalidPositionError` (code ``document.invalid`` for the
shape, ``position.invalid`` for the meaning, ``position.wrong_format`` /
``position.wrong_game`` for a document of another kind).

:class:`KKObservationDocument` describes what ``observation(seat).to_json()`` writes; both
types generate the JSON Schemas in ``docs/schemas``.

Size (over 600 lines, kept whole): the writer, the checked reader and the fast reader of one
document format, which must agree field by field; the fast reader is held to the checked one
by a mutation test (``tests/krass_kariert/test_position.py``), and keeping the three side by
side is what lets a reader see that they do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

import msgspec

from kartentisch.core.documents import impossible, read_document
from kartentisch.core.errors import InvalidOptionsError, InvalidPositionError, safe_repr
from kartentisch.core.protocol import TERMINAL
from kartentisch.core.rng import SEED_MAX
from kartentisch.games.krass_kariert.actions import MAX_HAND
from kartentisch.games.krass_kariert.cards import (
    CARD_BY_NAME,
    DECK,
    DECK_COUNTS,
    NACHZIEH,
    NO_COMBINATION,
    STOPP,
    WINDOW_TABLES,
    card_name,
)
from kartentisch.games.krass_kariert.documents import (
    ACT_KINDS,
    CARD_PATTERN,
    GAME_NAME,
    OPTION_FIELDS,
    POSITION_FORMAT,
    KKObservationDocument,
    KKPositionDocument,
    OptionsDocument,
)
from kartentisch.games.krass_kariert.log import Act
from kartentisch.games.krass_kariert.state import DRAW, OVER, KKState

if TYPE_CHECKING:
    from kartentisch.games.krass_kariert.game import KrassKariert


# ----------------------------------------------------------------------------- writing
def state_to_json(state: KKState) -> dict[str, Any]:
    """The position document of ``state`` (card names, positions counted from 1)."""
    names = _NAMES
    entries = _HAND_ENTRIES
    return {
        "format": POSITION_FORMAT,
        "game": GAME_NAME,
        "players": state.game.players,
        "options": state.game.options_json(),
        "seed": state.seed,
        "deal": state.deal,
        "rounds": state.rounds,
        "phase": state.phase,
        "to_move": state.current_player,
        "chips": list(state.chips),
        "hands": [
            [entries[i][c][k].copy() for i, c, k in zip(_POSITIONS, h, kn)]  # noqa: B905
            for h, kn in zip(state.hands, state.known, strict=True)
        ],
        "reserves": [[names[c] for c in r] for r in state.reserves],
        "draw_pile": [names[c] for c in reversed(state.draw_pile)],
        "ablagestapel": [names[c] for c in state.discard],
        "in_deal": list(state.in_deal),
        "round": {
            "leader": state.leader,
            "order": list(state.participants),
            "acts_done": state.act_index,
            "acts": [
                {
                    "seat": a.seat,
                    "kind": a.kind,
                    "cards": [names[c] for c in a.cards],
                    "x_values": list(a.x_values),
                    "position": a.position + 1,
                }
                for a in state.round_acts
            ],
        },
        "drawing": None
        if state.phase != DRAW
        else {
            "winner": state.round_winner,
            "card": None if state.pending is None else names[state.pending],
            "left": state.draws_left,
        },
        "losers": list(state.losers),
    }


_NAMES: Final = tuple(card_name(c) if c else "" for c in range(16))
"""Card -> its name, by index (cheaper than a call per card)."""
_POSITIONS: Final = range(1, MAX_HAND + 1)
_HAND_ENTRIES: Final = tuple(
    tuple(({"position": i, "card": _NAMES[c], "public": False},
           {"position": i, "card": _NAMES[c], "public": True})
          for c in range(16))
    for i in range(MAX_HAND + 1))
"""Hand entries by position, card and publicity: ``to_json`` hands out copies (a dict copy
costs less than building it)."""


def _names(cards: Iterable[int]) -> list[str]:
    return [card_name(c) for c in cards]


# ----------------------------------------------------------------------------- reading
def _check_card_names(doc: KKPositionDocument) -> None:
    """Raise the shape error (``document.invalid``, as msgspec words it) for the first card
    name that is not canonical, with its place in the document."""
    names = [e.card for h in doc.hands for e in h]
    for r in doc.reserves:
        names += r
    names += doc.draw_pile
    names += doc.ablagestapel
    for a in doc.round.acts:
        names += a.cards
    if doc.drawing is not None:
        names.append(doc.drawing.card)
    if _CARD_NAME_SET.issuperset(names):
        return
    places: list[tuple[str, list[str]]] = [
        *((f"$.hands[{s}]", [e.card for e in h]) for s, h in enumerate(doc.hands)),
        *((f"$.reserves[{s}]", r) for s, r in enumerate(doc.reserves)),
        ("$.draw_pile", doc.draw_pile),
        ("$.ablagestapel", doc.ablagestapel),
        *((f"$.round.acts[{i}].cards", a.cards) for i, a in enumerate(doc.round.acts)),
        ("$.drawing", [] if doc.drawing is None else [doc.drawing.card]),
    ]
    for where, found in places:
        for i, name in enumerate(found):
            if name in _CARD_NAME_SET:
                continue
            path = (f"{where}[{i}].card" if where.startswith("$.hands") else
                    "$.drawing.card" if where == "$.drawing" else f"{where}[{i}]")
            detail = f"Expected text matching regex '{CARD_PATTERN}' - at `{path}`"
            what = "Krass Kariert position"
            raise InvalidPositionError(f"{what}: {detail}", code="document.invalid",
                                       params={"what": what, "detail": detail})


_CARD_NAME_SET: Final = frozenset(CARD_BY_NAME)
_DECK_COUNT_LIST: Final = [DECK_COUNTS[c] for c in range(16)]
_SORTED_DECK: Final = sorted(DECK)
_POSITION_LISTS: Final = [list(range(1, k + 1)) for k in range(MAX_HAND + 1)]
_CLOCKWISE: Final = [[[(leader + i) % n for i in range(n)] for leader in range(n)]
                     for n in range(6)]
"""Every seat clockwise from a leader, by players and leader (a fresh list is made only when
somebody is out of the deal)."""


def _initial_draw_pile(players: int, hand_size: int) -> int:
    return len(DECK) - players * (hand_size + 2)


def _check_kind(data: object) -> None:
    """A document of another format or game gets the error that says so."""
    if not isinstance(data, Mapping):
        return  # the shape check says what is wrong
    found = data.get("format", POSITION_FORMAT)
    if found != POSITION_FORMAT:
        raise InvalidPositionError(
            f"unknown position format {safe_repr(found)}; expected {POSITION_FORMAT}",
            code="position.wrong_format",
            params={"found": safe_repr(found), "expected": POSITION_FORMAT},
        )
    found = data.get("game", GAME_NAME)
    if found != GAME_NAME:
        raise InvalidPositionError(
            f"this is a position of {safe_repr(found)}, not of {GAME_NAME}",
            code="position.wrong_game",
            params={"found": safe_repr(found), "expected": GAME_NAME},
        )


def state_from_json(game: KrassKariert, document: object) -> KKState:
    """Read a position document; raises ``InvalidPositionError`` naming the first problem.

    The document's ``players`` and ``options`` decide the game: when they equal ``game``'s,
    the state belongs to ``game``, otherwise to a new game with the document's settings.

    Speed: a document as ``to_json`` writes it (every field present, plain ``dict``, ``list``,
    ``int``, ``bool`` and ``str`` values, ``game``'s players and options) is read by
    :func:`_read_fast` straight into the state's fields, without msgspec's structs; anything
    else, and every document that has a problem, takes the checked path
    (:func:`_read_checked`), which names the first problem. Both end in the same checks of
    the meaning (:func:`_read_body`).
    """
    if type(document) is dict:
        state = _read_fast(game, document)
        if state is not None:
            return state
    return _read_checked(game, document)


def _read_checked(game: KrassKariert, data: object) -> KKState:
    """:func:`state_from_json` for any document: its shape checked by msgspec's document
    type, then every check with its error."""
    _check_kind(data)
    doc = read_document(data, KKPositionDocument, what="Krass Kariert position")
    # Every card name read at once, before anything else (a name that is not canonical is
    # a shape error, which comes first): one lookup each, a KeyError for any other name.
    get = _CARD_OF
    try:
        hands = [list(map(get, map(_CARD_FIELD, h))) for h in doc.hands]
        reserves = [list(map(get, r)) for r in doc.reserves]
        draw_pile = list(map(get, reversed(doc.draw_pile)))
        discard = list(map(get, doc.ablagestapel))
        acts = [tuple(map(get, a.cards)) for a in doc.round.acts]
        pending = None if doc.drawing is None else get(doc.drawing.card)
    except KeyError:
        _check_card_names(doc)
        raise AssertionError("a card name was not canonical") from None  # pragma: no cover
    n = doc.players
    if n == game.players and msgspec.structs.astuple(doc.options) == _option_values(game):
        own = game  # speed: no new game (and options check) when the document's are game's
    else:
        from kartentisch.games.krass_kariert.game import KrassKariert  # (a cycle at load)

        try:
            own = KrassKariert(n, msgspec.structs.asdict(doc.options))
        except InvalidOptionsError as exc:
            raise impossible(f"options: {exc}", cause=exc.code) from None
        if own.players == game.players and own.options == game.options:
            own = game
    state = KKState(own, doc.seed, deal_now=False)
    state.hands = hands
    state.reserves = reserves
    state.draw_pile = draw_pile
    state.discard = discard
    # The checks the fast path makes while it reads (one entry per player, chips, hand
    # positions), here with their errors, in this order.
    n = own.players
    hand_docs = doc.hands
    if len(doc.chips) != n or len(hand_docs) != n or len(doc.reserves) != n or len(
            doc.in_deal) != n:
        for name in ("chips", "hands", "reserves", "in_deal"):
            if len(getattr(doc, name)) != n:
                raise impossible(f"{name!r} must be a list with one entry per player ({n})",
                                 field=name, count=n)
    starting = _game_constants(own)[1]
    if max(doc.chips) > starting:
        for s, c in enumerate(doc.chips):
            if c > starting:
                raise impossible(
                    f"chips of seat {s} must be a whole number from 0 to {starting},"
                    f" not {c}", seat=s, chips=c)
    positions = _POSITION_LISTS
    for s, hand in enumerate(hand_docs):
        if list(map(_POSITION_FIELD, hand)) != positions[len(hand)]:
            for i, entry in enumerate(hand):
                if entry.position != i + 1:
                    raise impossible(
                        f"hand of seat {s} has a position gap: entry {i + 1} says position"
                        f" {entry.position}", seat=s, entry=i + 1, position=entry.position)
    drawing = doc.drawing
    rnd = doc.round
    # The document's lists were made for this read and nothing else holds them, so the
    # state takes them as they are (no copies).
    _read_body(state, doc.deal, doc.rounds, doc.phase, doc.to_move, doc.chips,
               [list(map(_PUBLIC_FIELD, hand)) for hand in hand_docs], doc.in_deal,
               doc.losers, None if drawing is None else (drawing.winner, drawing.left),
               rnd.leader, rnd.order, rnd.acts_done,
               [(a.seat, a.kind, a.cards, a.x_values, a.position) for a in rnd.acts],
               acts, pending)
    return state


MAX_COUNT: Final = 10**9
"""The bound of ``deal`` and ``rounds`` (``documents.Count``)."""
_KEYS: Final = 18
"""The fields of a position as ``to_json`` writes them (all of them)."""
_ROUND_KEYS: Final = 4
_ACT_KEYS: Final = 5
_ENTRY_KEYS: Final = 3
_DRAWING_KEYS: Final = 3
_PHASES: Final = frozenset(("play", "draw", "over"))
_KINDS: Final = frozenset(ACT_KINDS)


def _seat_list(value: object, limit: int) -> list[int] | None:
    """A fresh copy of a list of at most ``limit`` seats (ints 0 to 4), or None."""
    if type(value) is not list or len(value) > limit:
        return None
    out: list[int] = []
    for v in value:
        if type(v) is not int or not 0 <= v <= 4:
            return None
        out.append(v)
    return out


def _card_list(value: object, limit: int) -> list[int] | None:
    """The cards of a list of at most ``limit`` canonical names, or None."""
    if type(value) is not list or len(value) > limit:
        return None
    get = CARD_BY_NAME.get
    out: list[int] = []
    for name in value:
        c = get(name, -1) if type(name) is str else -1
        if c < 0:
            return None
        out.append(c)
    return out


def _read_fast(game: KrassKariert, data: dict[str, Any]) -> KKState | None:
    """The state of a document in exactly the shape ``to_json`` writes, for ``game``'s
    players and options, read straight from the document's values; None for anything
    else (then :func:`state_from_json`'s checked path reads it and names any problem).

    It accepts only what the document types accept (each value of its exact type and
    bounds, every field present, no other field) and takes fresh copies of every list
    (the caller keeps the document). Problems of meaning are left to the same checks as
    on the checked path (:func:`_read_body`), which raise the same errors.
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
        deal = data["deal"]
        rounds = data["rounds"]
        phase = data["phase"]
        to_move = data["to_move"]
        chips_doc = data["chips"]
        hands_doc = data["hands"]
        reserves_doc = data["reserves"]
        in_deal_doc = data["in_deal"]
        rnd = data["round"]
        drawing = data["drawing"]
        draw_doc = data["draw_pile"]
        discard_doc = data["ablagestapel"]
        losers_doc = data["losers"]
    except KeyError:
        return None
    if (type(form) is not str or form != POSITION_FORMAT or type(name) is not str
            or name != GAME_NAME or type(players) is not int or players != n):
        return None
    if type(options) is not dict or not _same_options(game, options):
        return None
    if (type(seed) is not int or not 0 <= seed <= SEED_MAX
            or type(deal) is not int or not 0 <= deal <= MAX_COUNT
            or type(rounds) is not int or not 0 <= rounds <= MAX_COUNT
            or type(phase) is not str or phase not in _PHASES
            or type(to_move) is not int or not TERMINAL <= to_move <= 4):
        return None
    # One entry per player, chips, hand positions: what the checked path refuses first.
    if (type(chips_doc) is not list or len(chips_doc) != n or type(hands_doc) is not list
            or len(hands_doc) != n or type(reserves_doc) is not list
            or len(reserves_doc) != n or type(in_deal_doc) is not list
            or len(in_deal_doc) != n):
        return None
    starting = _game_constants(game)[1]
    chips: list[int] = []
    for c in chips_doc:
        if type(c) is not int or not 0 <= c <= starting:
            return None
        chips.append(c)
    get = CARD_BY_NAME.get
    hands: list[list[int]] = []
    known: list[list[bool]] = []
    for hand_doc in hands_doc:
        if type(hand_doc) is not list or len(hand_doc) > MAX_HAND:
            return None
        hand: list[int] = []
        publics: list[bool] = []
        i = 1
        for entry in hand_doc:
            if type(entry) is not dict or len(entry) != _ENTRY_KEYS:
                return None
            try:
                position = entry["position"]
                name = entry["card"]
                public = entry["public"]
            except KeyError:
                return None
            c = get(name, -1) if type(name) is str else -1
            if type(position) is not int or position != i or c < 0 or (
                    public is not True and public is not False):
                return None
            hand.append(c)
            publics.append(public)
            i += 1
        hands.append(hand)
        known.append(publics)
    reserves: list[list[int]] = []
    for r in reserves_doc:
        cards = _card_list(r, 2)
        if cards is None:
            return None
        reserves.append(cards)
    draw_pile = _card_list(draw_doc, len(DECK))
    discard = _card_list(discard_doc, len(DECK))
    if draw_pile is None or discard is None:
        return None
    draw_pile.reverse()
    in_deal: list[bool] = []
    for flag in in_deal_doc:
        if flag is not True and flag is not False:
            return None
        in_deal.append(flag)
    losers = _seat_list(losers_doc, 5)
    if losers is None:
        return None
    pending: int | None = None
    drawn: tuple[int, int] | None = None
    if drawing is not None:
        if type(drawing) is not dict or len(drawing) != _DRAWING_KEYS:
            return None
        try:
            winner = drawing["winner"]
            name = drawing["card"]
            left = drawing["left"]
        except KeyError:
            return None
        pending = get(name, -1) if type(name) is str else -1
        if (pending < 0 or type(winner) is not int or not 0 <= winner <= 4
                or type(left) is not int or not 1 <= left <= 6):
            return None
        drawn = (winner, left)
    if type(rnd) is not dict or len(rnd) != _ROUND_KEYS:
        return None
    try:
        leader = rnd["leader"]
        order = _seat_list(rnd["order"], 5)
        acts_done = rnd["acts_done"]
        acts_doc = rnd["acts"]
    except KeyError:
        return None
    if (order is None or type(leader) is not int or not 0 <= leader <= 4
            or type(acts_done) is not int or not 0 <= acts_done <= 5
            or type(acts_doc) is not list or len(acts_doc) > 5):
        return None
    acts: list[tuple[int, str, list[str], list[int], int]] = []
    act_cards: list[tuple[int, ...]] = []
    for act in acts_doc:
        if type(act) is not dict or len(act) != _ACT_KEYS:
            return None
        try:
            seat = act["seat"]
            kind = act["kind"]
            names = act["cards"]
            x_doc = act["x_values"]
            position = act["position"]
        except KeyError:
            return None
        cards = _card_list(names, 3)
        if (cards is None or not cards or type(seat) is not int or not 0 <= seat <= 4
                or type(kind) is not str or kind not in _KINDS
                or type(position) is not int or not 1 <= position <= MAX_HAND + 1
                or type(x_doc) is not list or len(x_doc) > 2):
            return None
        x_values: list[int] = []
        for x in x_doc:
            if type(x) is not int or not 1 <= x <= 12:
                return None
            x_values.append(x)
        acts.append((seat, kind, list(names), x_values, position))
        act_cards.append(tuple(cards))
    state = KKState(game, seed, deal_now=False)
    state.hands = hands
    state.reserves = reserves
    state.draw_pile = draw_pile
    state.discard = discard
    _read_body(state, deal, rounds, phase, to_move, chips, known, in_deal, losers, drawn,
               leader, order, acts_done, acts, act_cards, pending)
    return state



def _same_options(game: KrassKariert, options: dict[str, Any]) -> bool:
    """Whether a document's options are exactly ``game``'s, every one written and of its
    own type (``0`` is not ``false`` here, as for the document type)."""
    mine = game.shared_options_json()
    if len(options) != len(mine):
        return False
    for key, value in mine.items():
        other = options.get(key, _MISSING)
        if type(other) is not type(value) or other != value:
            return False
    return True


_MISSING: Final = object()
_CONSTANTS: list[tuple[object, tuple[int, int]]] = []


def _game_constants(game: KrassKariert) -> tuple[int, int]:
    """(hand size, starting chips) of ``game`` (properties of the game class, remembered for
    the last game asked about)."""
    if _CONSTANTS and _CONSTANTS[0][0] is game:
        return _CONSTANTS[0][1]
    made = (game.hand_size, game.starting_chips)
    _CONSTANTS[:] = [(game, made)]
    return made


_OPTIONS_SEEN: list[tuple[object, tuple[object, ...]]] = []
"""The last game's options and their values in the document's field order."""


def _option_values(game: KrassKariert) -> tuple[object, ...]:
    """``game``'s options in the order of :class:`OptionsDocument`'s fields (remembered for
    the last options object asked about: most reads are for one game)."""
    options = game.options
    if _OPTIONS_SEEN and _OPTIONS_SEEN[0][0] is options:
        return _OPTIONS_SEEN[0][1]
    values = tuple(getattr(options, f) for f in OPTION_FIELDS)
    _OPTIONS_SEEN[:] = [(options, values)]
    return values


_ACT_NAMES: Final = tuple(f"round act {i + 1}" for i in range(5))
_ACT_CARDS: Final = {"nachzieh": (NACHZIEH,), "stopp": (STOPP,)}
"""The card an act of each kind (but combinations and reserves) plays."""
_CARD_OF: Final = CARD_BY_NAME.__getitem__
_CARD_FIELD: Final = attrgetter("card")
_POSITION_FIELD: Final = attrgetter("position")
_PUBLIC_FIELD: Final = attrgetter("public")


def _read_body(state: KKState, deal: int, rounds: int, phase: str, to_move: int,
               chips: list[int], known: list[list[bool]], in_deal: list[bool],
               losers: list[int], drawing: tuple[int, int] | None, leader: int,
               order: list[int], acts_done: int,
               acts: list[tuple[int, str, list[str], list[int], int]],
               act_cards: list[tuple[int, ...]], pending: int | None) -> None:
    """The rest of a read, on plain values (lists fresh for this state): ``drawing`` is
    (winner, left), each act (seat, kind, card names, X values, 1-based position) with its
    cards in ``act_cards``. The caller has checked the counts per player, the chips and
    the hand positions."""
    n = state.game.players
    state.deal = deal
    state.rounds = rounds
    state.phase = phase
    state.chips = chips
    state.known = known
    state.in_deal = in_deal
    if losers:
        for s in losers:
            if s >= n:
                raise impossible(f"'losers' names seat {s}, but seats are 0 to {n - 1}",
                                 seat=s)
        if len(set(losers)) != len(losers):
            raise impossible("'losers' names a seat twice")
        state.losers = losers

    if phase == DRAW:
        if drawing is None:
            raise impossible("phase 'draw' needs a 'drawing' object (winner, card, left)")
        winner, left = drawing
        if winner >= n:
            raise impossible(f"drawing 'winner' {winner} is not a seat", seat=winner)
        state.round_winner = winner
        state.pending = pending
        state.draws_left = left
    elif drawing is not None:
        raise impossible("'drawing' must be null unless the phase is 'draw'")

    _read_round(state, leader, order, acts_done, acts, act_cards)
    _check_cards(state)
    _check_turn(state, to_move)


def _read_round(state: KKState, leader: int, order: list[int], acts_done: int,
                acts: list[tuple[int, str, list[str], list[int], int]],
                act_cards: list[tuple[int, ...]]) -> None:
    n = state.game.players
    if leader >= n:
        raise impossible(f"round 'leader' {leader} is not a seat", seat=leader)
    state.leader = leader
    if (order and max(order) >= n) or len(set(order)) != len(order):
        raise impossible(f"round 'order' must name seats 0 to {n - 1}, each once")
    state.participants = order
    if acts_done > len(order):
        raise impossible(f"round 'acts_done' {acts_done} exceeds the {len(order)} players"
                         " of the round", acts_done=acts_done)
    state.act_index = acts_done
    if state.phase != OVER:
        expected = _CLOCKWISE[n][leader]
        in_deal = state.in_deal
        if False in in_deal:
            expected = [s for s in expected if in_deal[s]]
        if order != expected:
            raise impossible(
                f"round 'order' must be the players in the deal clockwise from the leader"
                f" {state.leader}: {expected}, not {order}", expected=expected, found=order)
    if len(acts) != acts_done:
        raise impossible("round 'acts' must list exactly 'acts_done' acts")
    windows = WINDOW_TABLES[state.game.options.x_with_x]
    round_acts: list[Act] = []
    for i, (seat, kind, names, x_values, position) in enumerate(acts):
        where = _ACT_NAMES[i]
        if i and round_acts[-1].kind == "stopp":
            raise impossible(f"{where} comes after a Stopp, which ends the round", act=i + 1)
        if seat != order[i]:
            raise impossible(f"{where} is by seat {seat}, but seat {order[i]} acts then",
                             act=i + 1, seat=seat, expected=order[i])
        cards = act_cards[i]
        declared = tuple(x_values)
        value = NO_COMBINATION
        if kind == "combination":
            options = windows.get(cards, {})
            if declared not in options:
                raise impossible(
                    f"{where}: {'-'.join(names)} declared {list(declared)} is not a"
                    " combination", act=i + 1, cards="-".join(names), x_values=list(declared))
            value = options[declared]
            if value <= state.best:
                raise impossible(f"{where} does not beat the combination before it", act=i + 1)
            state.best, state.best_seat = value, seat
        else:
            expected_card = _ACT_CARDS.get(kind)
            if expected_card is not None and cards != expected_card:
                raise impossible(
                    f"{where}: a {kind} act plays the card {_names(expected_card)[0]}",
                    act=i + 1)
            if kind == "reserve" and len(cards) != 1:
                raise impossible(f"{where}: a reserve act takes exactly one card", act=i + 1)
            if kind == "reserve" and i == 0:
                raise impossible(f"{where}: the leader cannot take a reserve card", act=i + 1)
            if declared:
                raise impossible(f"{where}: only a combination declares X values", act=i + 1)
            if kind == "nachzieh":
                state.nachzieh_played += 1
        round_acts.append(Act(seat, kind, cards, declared, value, position - 1))
    if round_acts:
        state.round_acts = round_acts
    if order and round_acts and round_acts[0].seat != state.leader:
        raise impossible("the round's first act must be the leader's")


def _check_cards(state: KKState) -> None:
    hands, reserves = state.hands, state.reserves
    draw_pile, discard = state.draw_pile, state.discard
    cards = list(chain(draw_pile, discard, *hands, *reserves))
    if state.pending is not None:
        cards.append(state.pending)
    count = len(cards)
    if count != len(DECK):
        raise impossible(f"the position holds {count} cards; the game has {len(DECK)}",
                         count=count)
    if sorted(cards) == _SORTED_DECK:  # speed: one sort in C, counted only when it fails
        counts = _DECK_COUNT_LIST
    else:
        counts = [0] * 16
        for c in cards:
            counts[c] += 1
    if counts != _DECK_COUNT_LIST:
        card = next(c for c in range(16) if counts[c] > _DECK_COUNT_LIST[c])
        raise impossible(
            f"card {card_name(card)} appears {counts[card]} times; the deck has"
            f" {DECK_COUNTS[card]}", card=card_name(card), count=counts[card])
    acts = state.round_acts
    if acts:
        played = [c for a in acts if a.kind != "reserve" for c in a.cards]
        if played and discard[len(discard) - len(played) :] != played:
            raise impossible(
                "the 'ablagestapel' must end with the cards played in the current round")
    # Every Nachzieh resolved earlier in the deal drew 3 cards; the current round's are
    # drawn after it, so the draw pile's size is fixed by the cards played.
    game = state.game
    phase = state.phase
    nachzieh = state.nachzieh_played
    drawn = 3 * (discard.count(NACHZIEH) - nachzieh)
    if phase == DRAW:
        drawn += 3 * nachzieh - state.draws_left + 1
        if not 1 <= state.draws_left <= 3 * nachzieh:
            raise impossible(
                f"drawing 'left' must be 1 to {3 * nachzieh} after "
                f"{nachzieh} Nachzieh card(s) in the round",
                left=state.draws_left, nachzieh=nachzieh)
    initial = _initial_draw_pile(game.players, game.hand_size)
    expected = initial - drawn
    size = len(draw_pile)
    if phase != OVER and size != expected:
        raise impossible(
            f"the draw pile must hold {expected} cards after {drawn} were drawn this deal,"
            f" not {size}", expected=expected, count=size)
    in_deal = state.in_deal
    over = phase == OVER
    further = max(size - (initial - 6), 0)
    winner = state.round_winner if phase == DRAW else -1
    for s, hand in enumerate(hands):
        if not in_deal[s] and hand:
            raise impossible(f"seat {s} is out of the deal but holds cards", seat=s)
        if not over and len(hand) + len(reserves[s]) + further + (s == winner) > MAX_HAND:
            raise impossible(f"the hand of seat {s} could grow past {MAX_HAND} cards", seat=s)


def _check_turn(state: KKState, to_move: int) -> None:
    order = state.participants
    if state.phase == OVER:
        if not state.losers:
            raise impossible("a finished game ('over') needs at least one loser")
        if any(state.chips[s] for s in state.losers):
            raise impossible("a player who lost the game has no chips left")
        if to_move != TERMINAL:
            raise impossible(f"'to_move' of a finished game is {TERMINAL}, not {to_move}")
        state.to_act = 0
        return
    if state.losers:
        raise impossible("'losers' must be empty until the game is over")
    if not 0 <= to_move < state.game.players:
        raise impossible(f"'to_move' must be a seat, not {to_move}", to_move=to_move)
    if len(order) < 2:
        raise impossible("a round needs at least two players in the deal")
    if state.phase == DRAW:
        winner = state.round_winner
        if to_move != winner:
            raise impossible("while drawing, 'to_move' must be the round's winner")
        if not state.nachzieh_played:
            raise impossible("phase 'draw' needs a Nachzieh card played in the round")
        acts = state.round_acts
        stopped = bool(acts) and acts[-1].kind == "stopp"
        if not stopped and state.act_index != len(order):
            raise impossible("phase 'draw' comes after every player of the round has acted")
        expected = (
            acts[-1].seat if stopped else state.best_seat if state.best_seat >= 0 else state.leader
        )
        if winner != expected:
            raise impossible(f"the round's winner is seat {expected}, not {winner}",
                             expected=expected, found=winner)
    else:
        if state.act_index >= len(order):
            raise impossible("every player of the round has acted; the round should be over")
        if to_move != order[state.act_index]:
            raise impossible(
                f"'to_move' must be seat {order[state.act_index]}, the next in the round's"
                " order", expected=order[state.act_index], found=to_move)
        for s in order[state.act_index :]:
            if not state.hands[s]:
                raise impossible(f"seat {s} has yet to act in the round but holds no card",
                                 seat=s)
    state.to_act = to_move


__all__ = [
    "ACT_KINDS",
    "POSITION_FORMAT",
    "KKObservationDocument",
    "KKPositionDocument",
    "OptionsDocument",
    "state_from_json",
    "state_to_json",
]
