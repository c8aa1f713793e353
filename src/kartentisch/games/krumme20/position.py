"""Krumme20 positions as JSON documents.

Writing is exact; reading validates the document and names the first problem found.

A card is an object ``{"card": "3/1", "up_known": [0, 1, 2], "down_known": [],
"cross": false}`` (up side first) or a plain string with the usual knowledge: ``"3/1"``
(``"3/1x"``: crosswise, on a score pile only) has its up side known to everybody (in the
draw pile only the top card's, when ``draw_top_visible``) and its down side to nobody (with
``peek_own``: a personal card's owner); ``"3/1+"`` (``"3/1x+"``) has both sides known to
everybody.

Top-level keys: ``format``, ``game``, ``players``, ``options``, ``seed``, ``phase``,
``to_move``, ``turn_player``, ``total``, ``zeros``, ``value``, ``second_done``,
``draws_left``, ``queue`` (the steps still to come, ``[[phase, seat], ...]``), ``hands``,
``scores`` (per seat, bottom first), ``ablage``, ``abwurf`` (bottom first), ``draw_pile``
(bottom first: its top is the last card), ``sitting_out``, ``final_turns``, ``turns`` and
``fouls``. Only ``format``, ``game``, ``players``, ``hands`` and ``draw_pile`` are required;
the rest defaults to the start of a turn of ``turn_player`` (default 0).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from kartentisch.core.documents import impossible, read_document
from kartentisch.core.errors import InvalidOptionsError, InvalidPositionError, safe_repr
from kartentisch.core.protocol import TERMINAL
from kartentisch.games.krumme20.cards import (
    DECK_SIZE,
    card_text,
    deck_pairs,
    pair_counts,
    pair_key,
)
from kartentisch.games.krumme20.documents import (
    CARD_PATTERN,
    POSITION_FORMAT,
    SHORT_CARD_PATTERN,
    K20CardDocument,
    K20OptionsDocument,
    K20PositionDocument,
)
from kartentisch.games.krumme20.state import FOUL, LOSS, OVER, SITOUT, K20State

if TYPE_CHECKING:
    from kartentisch.games.krumme20.game import Krumme20

_OTHER_SEAT_PHASES = (FOUL, LOSS, SITOUT)


_SEATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(6) if mask >> s & 1) for mask in range(1 << 6))
"""The seats of a knowledge bit mask (at most six players), by mask."""

_TEXT: dict[tuple[int, int], str] = {(a, b): f"{a}/{b}" for a in range(6) for b in range(6)}
"""A fully known card's notation by (up, down)."""

_MASKS: dict[tuple[int, ...], int] = {seats: mask for mask, seats in enumerate(_SEATS)}
"""Knowledge bit mask by its seats in ascending order (how ``to_json`` writes them)."""

_PAIR: dict[str, tuple[int, int]] = {text: pair for pair, text in _TEXT.items()}
"""(up, down) by notation: the document type admits only these texts."""


def _seats(mask: int, n: int) -> list[int]:
    return list(_SEATS[mask & ((1 << n) - 1)])


_TEXTS: tuple[str, ...] = tuple(f"{a}/{b}" for a in range(6) for b in range(6))
"""A card's notation by ``6 * up + down``."""
_OPEN_TEXTS: tuple[str, ...] = tuple(t + "+" for t in _TEXTS)
"""The same, both sides known to everybody."""
_CROSS_TEXTS: tuple[str, ...] = tuple(t + "x" for t in _TEXTS)
"""The same, crosswise (on a score pile)."""
_CROSS_OPEN_TEXTS: tuple[str, ...] = tuple(t + "x+" for t in _TEXTS)
"""The same, crosswise and both sides known to everybody."""


def state_to_json(state: K20State) -> dict[str, Any]:
    """The document for ``state``.

    A card whose knowledge is what the reader assumes for a plain string (see the module's
    docstring) is written as that string, ``"3/1"`` (``"3/1x"`` crosswise on a score pile),
    a card whose sides everybody knows as ``"3/1+"`` (``"3/1x+"``), every other card as an
    object with its knowledge; all read back to the same state. Nearly every card takes a
    short form (the draw pile, personal cards, played and shown cards), which makes the
    document smaller and both directions faster.
    """
    n = state.game.players
    face, back, kup, kdown, cross = state.face, state.back, state.kup, state.kdown, state.cross
    seats = _SEATS
    texts, opens = _TEXTS, _OPEN_TEXTS
    every = (1 << n) - 1

    def card(c: int, crosswise: bool = False) -> dict[str, Any]:
        return {"card": texts[6 * face[c] + back[c]],
                "up_known": list(seats[kup[c] & every]),
                "down_known": list(seats[kdown[c] & every]),
                "cross": cross[c] if crosswise else False}

    def pile(cards: list[int], down: int) -> list[Any]:
        """Cards outside the draw pile whose down side, by default, ``down`` knows."""
        return [texts[6 * face[c] + back[c]] if kup[c] == every and kdown[c] == down
                else opens[6 * face[c] + back[c]] if kup[c] == every and kdown[c] == every
                else card(c) for c in cards]

    def score_pile(cards: list[int]) -> list[Any]:
        return [(_CROSS_TEXTS if cross[c] else texts)[6 * face[c] + back[c]]
                if kup[c] == every and kdown[c] == 0
                else (_CROSS_OPEN_TEXTS if cross[c] else opens)[6 * face[c] + back[c]]
                if kup[c] == every and kdown[c] == every
                else card(c, True) for c in cards]

    draw = state.draw
    top = len(draw) - 1
    top_up = every if state.draw_top_visible else 0
    draw_pile = [texts[6 * face[c] + back[c]]
                 if kup[c] == (top_up if i == top else 0) and kdown[c] == 0
                 else opens[6 * face[c] + back[c]] if kup[c] == every and kdown[c] == every
                 else card(c) for i, c in enumerate(draw)]
    peek = state.peek_own
    return {
        "format": POSITION_FORMAT,
        "game": "krumme20",
        "players": n,
        "options": state.game.options_json(),
        "seed": state.seed,
        "phase": state.phase,
        "to_move": state.current_player,
        "turn_player": state.turn,
        "total": state.total,
        "zeros": state.zeros,
        "value": state.value,
        "second_done": state.second_done,
        "draws_left": state.draws_left,
        "queue": [[k, s] for k, s in state.queue],
        "hands": [pile(h, 1 << s if peek else 0) for s, h in enumerate(state.hands)],
        "scores": [score_pile(p) for p in state.scores],
        "ablage": pile(state.ablage, 0),
        "abwurf": pile(state.abwurf, 0),
        "draw_pile": draw_pile,
        "sitting_out": list(state.sitting_out),
        "final_turns": state.final_turns,
        "turns": state.turns,
        "fouls": list(state.fouls),
    }


def _check_header(doc: object) -> None:
    """The core's codes for a document of another format or game (before the full check)."""
    if not isinstance(doc, Mapping):
        return
    found = doc.get("format", POSITION_FORMAT)
    if found != POSITION_FORMAT:
        raise InvalidPositionError(
            f"unknown position format {safe_repr(found)}; expected {POSITION_FORMAT}",
            code="position.wrong_format",
            params={"found": safe_repr(found), "expected": POSITION_FORMAT})
    found = doc.get("game", "krumme20")
    if found != "krumme20":
        raise InvalidPositionError(
            f"this is a position of {safe_repr(found)}, not of krumme20",
            code="position.wrong_game", params={"found": safe_repr(found), "expected": "krumme20"})


_PAIR_CODE: tuple[int, ...] = tuple(6 * min(a, b) + max(a, b) for a in range(6) for b in range(6))
"""The unordered pair of a card by ``6 * up + down``: ``6 * low + high``."""

_SHORT: dict[object, tuple[int, int, bool, bool, int]] = {
    text + cross + shown: (up, down, cross == "x", shown == "+", _PAIR_CODE[6 * up + down])
    for (up, down), text in _TEXT.items() for cross in ("", "x") for shown in ("", "+")}
"""(up, down, crosswise, both sides known to all, pair code) by a plain-string card (the
document type admits only these). Keyed by ``object`` so that a whole pile, objects
included, can be looked up at once (an object is not a key)."""

_DECK_CODES: dict[str, list[int]] = {}
"""Per deck composition: its cards' pair codes, sorted (made on first use)."""


def _bad_text(pattern: str, where: str) -> InvalidPositionError:
    """A card text that does not match its pattern, reported as the document type reports
    its own checks (the types leave this one to the reader, see ``documents.ShortCard``)."""
    detail = f"Expected text matching regex '{pattern}' - at `$.{where}`"
    return InvalidPositionError(f"position: {detail}", code="document.invalid",
                                params={"what": "position", "detail": detail})


_NO_SCORES: tuple[list[list[str | K20CardDocument]], ...] = tuple(
    [[] for _ in range(n)] for n in range(7))
"""Empty score piles by players (for a document without ``scores``; never changed)."""

_SHORT_MASKS: tuple[dict[object, tuple[int, int, bool, int, int]], ...] = tuple(
    {text: (up, down, cross, (1 << n) - 1 if shown else 0, code)
     for text, (up, down, cross, shown, code) in _SHORT.items()} for n in range(7))
"""Per players: (up, down, crosswise, the mask of everybody for ``+`` else 0, pair code)
by a plain-string card."""

_OPTIONS_SEEN: list[tuple[object, tuple[object, ...]]] = []
"""The last game's options and their values in field order (see :func:`_option_values`)."""


def _option_values(game: Krumme20) -> tuple[object, ...]:
    """``game``'s options in the order of the options document's fields (which follow
    ``K20Options``' fields); remembered for the last options object asked about."""
    options = game.options
    if _OPTIONS_SEEN and _OPTIONS_SEEN[0][0] is options:
        return _OPTIONS_SEEN[0][1]
    values = tuple(getattr(options, f) for f in K20OptionsDocument.__struct_fields__)
    _OPTIONS_SEEN[:] = [(options, values)]
    return values



def _read_strings(state: K20State, codes: list[int], hands: list[list[str | K20CardDocument]],
                  scores: list[list[str | K20CardDocument]], ablage: list[str | K20CardDocument],
                  abwurf: list[str | K20CardDocument],
                  draw: list[str | K20CardDocument]) -> bool:
    """Read the cards of a document whose 54 cards are all plain strings, with no crosswise
    card off the score piles (what ``to_json`` writes unless a side is known to some seats
    only): one table lookup per card; ``codes`` gets the cards' pair codes. False, with
    ``codes`` left empty, for anything else (then the card-by-card reader names what is
    wrong and sets every card it reads).

    Speed: one plain loop, which the compiled core runs as machine code (whole-list
    operations over tuples of all cards cost it more than they save)."""
    n = state.game.players
    table = _SHORT_MASKS[n]
    piles = [*hands, *scores, ablage, abwurf, draw]
    total = 0
    for pile in piles:
        total += len(pile)
    if total != DECK_SIZE:
        return False
    every = (1 << n) - 1
    peek = state.peek_own
    face, back, kup, kdown, cross_of = state.face, state.back, state.kup, state.kdown, state.cross
    draw_pile = 2 * n + 2
    ids: list[list[int]] = []
    c = 0
    for k, pile in enumerate(piles):
        start = c
        score = n <= k < 2 * n
        in_draw = k == draw_pile
        own = 1 << k if peek and k < n else 0  # a personal card's owner knows its down side
        for entry in pile:
            short = table.get(entry)
            if short is None:
                del codes[:]
                return False
            up, down, cross, shown, code = short
            if cross and not score:
                del codes[:]
                return False
            face[c] = up
            back[c] = down
            cross_of[c] = cross
            kup[c] = shown if in_draw else every  # in the draw pile: nobody, but for "+"
            kdown[c] = shown | own  # everybody for "+", else nobody (or the owner)
            codes.append(code)
            c += 1
        ids.append(list(range(start, c)))
    if draw and state.draw_top_visible:  # the visible top of the draw pile
        kup[DECK_SIZE - 1] = every
    state.hands = ids[:n]
    state.scores = ids[n:2 * n]
    state.ablage, state.abwurf, state.draw = ids[2 * n:]
    return True


def _deck_codes(deck: str) -> list[int]:
    codes = _DECK_CODES.get(deck)
    if codes is None:
        codes = _DECK_CODES[deck] = sorted(6 * a + b for a, b in deck_pairs(deck))
    return codes


def state_from_json(game: Krumme20 | None, document: object) -> K20State:
    """Read a position document; raises ``InvalidPositionError`` naming the first problem.

    The document's shape and value ranges are checked by its type
    (:class:`~.documents.K20PositionDocument`); this function then checks what a type
    cannot say, each problem reported with :func:`~kartentisch.core.documents.impossible`.
    ``game``: a game the state may belong to when the document's players and options are
    its own (saves building an equal one); None, or another game, builds the document's.
    """
    _check_header(document)
    d = read_document(document, K20PositionDocument, what="position")
    n = d.players
    if game is None or game.players != n or msgspec.structs.astuple(
            d.options) != _option_values(game):
        from kartentisch.games.krumme20.game import Krumme20  # (a cycle at load)

        try:
            game = Krumme20(n, msgspec.structs.asdict(d.options))
        except InvalidOptionsError as exc:  # a combination the types cannot refuse
            raise InvalidPositionError(f"options: {exc}", code=exc.code,
                                       params=exc.params) from None
    opts = game.options
    every = (1 << n) - 1
    state = K20State(game, d.seed, deal_now=False)
    face, back, kup, kdown, cross_of = state.face, state.back, state.kup, state.kdown, state.cross
    top_visible = opts.draw_top_visible
    next_id = 0

    def mask(seats: tuple[int, ...], where: str) -> int:
        m = _MASKS.get(seats, -1)  # the usual case: ascending seats, each once
        if 0 <= m <= every:
            return m
        m = 0
        for s in seats:
            if s >= n:
                raise impossible(f"{where}: seat {s} does not play (seats are 0 to {n - 1})",
                                 seat=s, last=n - 1)
            m |= 1 << s
        return m

    codes: list[int] = []
    """The pair codes of the cards read so far (for the deck's composition)."""

    def read_pile(pile: list[str | K20CardDocument], where: str, *, owner: int | None = None,
                  score: bool = False, draw: bool = False) -> list[int]:
        nonlocal next_id
        start = next_id
        end = start + len(pile)
        # A plain string's knowledge (see the module's docstring).
        short_down = (1 << owner) if owner is not None and opts.peek_own else 0
        last = len(pile) - 1
        for i, entry in enumerate(pile):
            c = start + i
            if c >= DECK_SIZE:
                raise impossible(f"{where}[{i}]: more than {DECK_SIZE} cards in the position",
                                 cards=DECK_SIZE)
            if type(entry) is str:
                short = _SHORT.get(entry)
                if short is None:
                    raise _bad_text(SHORT_CARD_PATTERN, f"{where}[{i}]")
                up, down, cross, known, _code = short
                up_k = every if known or not draw or (i == last and top_visible) else 0
                down_k = every if known else short_down
            else:
                assert isinstance(entry, K20CardDocument)
                pair = _PAIR.get(entry.card)
                if pair is None:
                    raise _bad_text(CARD_PATTERN, f"{where}[{i}].card")
                up, down = pair
                cross = entry.cross
                up_k = mask(entry.up_known, f"{where}[{i}] up_known")
                down_k = mask(entry.down_known, f"{where}[{i}] down_known")
            if cross and not score:
                raise impossible(f"{where}[{i}]: only a card on a score pile can lie crosswise")
            if not draw and up_k != every:
                raise impossible(
                    f"{where}[{i}]: a card outside the draw pile shows its up side to all")
            face[c] = up
            back[c] = down
            kup[c] = up_k
            kdown[c] = down_k
            cross_of[c] = cross
            codes.append(_PAIR_CODE[6 * up + down])
        next_id = end
        return list(range(start, end))

    def per_seat(key: str, value: list[Any] | None, default: list[Any]) -> list[Any]:
        if value is None:
            return default
        if len(value) != n:
            raise impossible(f"{key!r} must have one entry per player ({n}), not {len(value)}",
                             players=n, count=len(value))
        return value

    hands = per_seat("hands", d.hands, [])
    scores = per_seat("scores", d.scores, _NO_SCORES[n])
    strings = _read_strings(state, codes, hands, scores, d.ablage, d.abwurf, d.draw_pile)
    if not strings:
        # Something else than the usual plain strings: card by card, naming the first
        # problem.
        state.hands = [read_pile(h, f"hands[{s}]", owner=s) for s, h in enumerate(hands)]
        state.scores = [read_pile(p, f"scores[{s}]", score=True) for s, p in enumerate(scores)]
        state.ablage = read_pile(d.ablage, "ablage")
        state.abwurf = read_pile(d.abwurf, "abwurf")
        state.draw = read_pile(d.draw_pile, "draw_pile", draw=True)
    else:
        next_id = DECK_SIZE
    if next_id != DECK_SIZE:
        raise impossible(f"the position holds {next_id} cards; the game has {DECK_SIZE}",
                         count=next_id, cards=DECK_SIZE)
    # The deck's composition: sorted pair codes compared at once; on a difference, the
    # counts name the first card that is off.
    codes.sort()
    if codes != _deck_codes(opts.deck):
        have = Counter(pair_key(a, b) for a, b in zip(face, back, strict=True))
        deck = pair_counts(opts.deck)
        key = min((have - deck) or (deck - have))
        raise impossible(f"card {card_text(*key)} appears {have[key]} times; the {opts.deck!r}"
                         f" deck has {deck[key]}", card=card_text(*key), count=have[key],
                         deck=deck[key])
    # (plain strings give every side to everybody or nobody, but a personal card's down
    # side to its owner with peek_own)
    state.secrets = opts.peek_own or (not strings and not {*kup, *kdown} <= {0, every})

    target = opts.target
    pile_sum = sum(state.face[c] for c in state.ablage)
    state.total = pile_sum if d.total is None else d.total
    if state.total != pile_sum:
        raise impossible(f"'total' is {state.total}, but the Ablagestapel's up sides add up to"
                         f" {pile_sum}", total=state.total, sum=pile_sum)
    if state.total >= target:
        raise impossible(f"the total {state.total} must stay below the target {target}",
                         total=state.total, target=target)
    state.zeros = d.zeros
    if state.zeros and (len(state.ablage) < state.zeros
                        or any(state.face[c] for c in state.ablage[-state.zeros:])):
        raise impossible(f"'zeros' is {state.zeros}, but the Ablagestapel's top cards are not"
                         " 0s", zeros=state.zeros)
    phase = d.phase
    state.phase = phase
    if d.turn_player >= n:
        raise impossible(f"'turn_player' {d.turn_player} does not play (seats are 0 to"
                         f" {n - 1})", seat=d.turn_player, last=n - 1)
    state.turn = d.turn_player
    state.value = d.value
    state.second_done = d.second_done
    state.draws_left = d.draws_left
    for i, (kind, seat) in enumerate(d.queue):
        if seat >= n:
            raise impossible(f"queue step {i + 1}: seat {seat} does not play", seat=seat)
        if kind not in _OTHER_SEAT_PHASES and seat != state.turn:
            raise impossible(f"queue step {i + 1}: {kind!r} belongs to the turn player"
                             f" {state.turn}", step=i + 1, seat=state.turn)
        state.queue.append((kind, seat))
    state.sitting_out = list(per_seat("sitting_out", d.sitting_out, [False] * n))
    state.final_turns = d.final_turns
    if state.final_turns is not None and state.final_turns > n:
        raise impossible(f"'final_turns' is {state.final_turns}; a final lap has at most {n}",
                         value=state.final_turns, players=n)
    if state.final_turns is None and not state.draw and phase != OVER:
        raise impossible("the draw pile is empty, so 'final_turns' must say how many turns"
                         " are left")
    state.turns = d.turns
    state.fouls = list(per_seat("fouls", d.fouls, [0] * n))

    if phase == OVER:
        if d.to_move not in (None, TERMINAL):
            raise impossible(f"the game is over, so nobody is to move ('to_move' is"
                             f" {TERMINAL} or left out), not {d.to_move}", seat=d.to_move)
        state._current = TERMINAL
        state._legal = ()
        return state
    to_move = state.turn if d.to_move is None else d.to_move
    if not 0 <= to_move < n:
        raise impossible(f"'to_move' {to_move} is not a seat of this game (0 to {n - 1})",
                         seat=to_move, last=n - 1)
    if phase in _OTHER_SEAT_PHASES:
        if phase == FOUL and to_move == state.turn:
            raise impossible("in a 'foul' step the player to move is one of the others")
    elif to_move != state.turn:
        raise impossible(f"in a {phase!r} step the player to move is the turn player"
                         f" {state.turn}", seat=state.turn)
    state._current = to_move
    state._legal = None
    if not state.legal_action_ids():
        raise impossible(f"seat {to_move} has nothing to decide in a {phase!r} step",
                         seat=to_move)
    return state
