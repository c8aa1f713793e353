"""Krass Kariert positions as JSON documents (format in ``docs/positions.md``).

Writing is exact; reading validates the document and names the first problem found.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kartentisch.core.errors import InvalidOptionsError, InvalidPositionError
from kartentisch.games.krass_kariert.actions import MAX_HAND
from kartentisch.games.krass_kariert.cards import (
    DECK_COUNTS,
    NACHZIEH,
    NO_COMBINATION,
    STOPP,
    WINDOW_TABLES,
    card_name,
    parse_card,
)
from kartentisch.games.krass_kariert.state import DRAW, OVER, PLAY, Act, KKState

if TYPE_CHECKING:
    from kartentisch.games.krass_kariert.game import KrassKariert

POSITION_FORMAT = "kartentisch-position/1"


def state_to_json(state: KKState) -> dict[str, Any]:
    """The document for ``state``."""
    names = _names
    return {
        "format": POSITION_FORMAT,
        "game": "krass-kariert",
        "players": state.game.players,
        "options": state.game.options_json(),
        "seed": state.seed,
        "deal": state.deal,
        "rounds": state.rounds,
        "phase": state.phase,
        "to_move": state.current_player,
        "chips": list(state.chips),
        "hands": [
            [{"position": i + 1, "card": card_name(c), "public": k}
             for i, (c, k) in enumerate(zip(h, kn, strict=True))]
            for h, kn in zip(state.hands, state.known, strict=True)
        ],
        "reserves": [names(r) for r in state.reserves],
        "draw_pile": names(reversed(state.draw_pile)),
        "ablagestapel": names(state.discard),
        "in_deal": list(state.in_deal),
        "round": {
            "leader": state.leader,
            "order": list(state.participants),
            "acts_done": state.act_index,
            "acts": [{"seat": a.seat, "kind": a.kind, "cards": names(a.cards),
                      "x_values": list(a.x_values), "position": a.position + 1}
                     for a in state.round_acts],
        },
        "drawing": None if state.phase != DRAW else {
            "winner": state.round_winner,
            "card": card_name(state.pending) if state.pending is not None else None,
            "left": state.draws_left,
        },
        "losers": list(state.losers),
    }


def _names(cards: Any) -> list[str]:
    return [card_name(c) for c in cards]


def _fail(message: str) -> InvalidPositionError:
    return InvalidPositionError(message)


def _int(doc: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = doc.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(f"{key!r} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise _fail(f"{where} must be a list of card names")
    out = []
    for i, name in enumerate(value):
        if not isinstance(name, str):
            raise _fail(f"{where}[{i}] must be a card name, not {name!r}")
        try:
            out.append(parse_card(name))
        except ValueError as exc:
            raise _fail(f"{where}[{i}]: {exc}") from None
    return out


def state_from_json(game: KrassKariert, doc: Mapping[str, Any]) -> KKState:
    """Read a position document for ``game``; raises ``InvalidPositionError``."""
    if not isinstance(doc, Mapping):
        raise _fail("a position must be a JSON object")
    if doc.get("format") != POSITION_FORMAT:
        raise _fail(f"'format' must be {POSITION_FORMAT!r}, not {doc.get('format')!r}")
    if doc.get("game") != "krass-kariert":
        raise _fail(f"'game' must be 'krass-kariert', not {doc.get('game')!r}")
    n = _int(doc, "players", 3, 5)
    from kartentisch.games.krass_kariert.game import KrassKariert

    try:
        game = KrassKariert(n, doc.get("options") or {})
    except InvalidOptionsError as exc:
        raise _fail(f"options: {exc}") from None
    state = KKState(game, _int(doc, "seed", 0, 2**63), deal_now=False)
    state.deal = _int(doc, "deal", 0, 10**6)
    state.rounds = _int(doc, "rounds", 0, 10**6)
    phase = doc.get("phase")
    if phase not in (PLAY, DRAW, OVER):
        raise _fail(f"'phase' must be 'play', 'draw' or 'over', not {phase!r}")
    state.phase = phase

    def per_seat(key: str) -> list[Any]:
        value = doc.get(key)
        if not isinstance(value, list) or len(value) != n:
            raise _fail(f"{key!r} must be a list with one entry per player ({n})")
        return value

    chips = per_seat("chips")
    for s, c in enumerate(chips):
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise _fail(f"chips of seat {s} must be a whole number of at least 0, not {c!r}")
    state.chips = list(chips)
    state.hands, state.known = [], []
    for s, hand in enumerate(per_seat("hands")):
        if not isinstance(hand, list):
            raise _fail(f"hand of seat {s} must be a list")
        if len(hand) > MAX_HAND:
            raise _fail(f"hand of seat {s} has {len(hand)} cards; at most {MAX_HAND} are possible")
        cards, known = [], []
        for i, entry in enumerate(hand):
            if not isinstance(entry, Mapping):
                raise _fail(f"hand of seat {s}, entry {i + 1} must be an object")
            if entry.get("position") != i + 1:
                raise _fail(f"hand of seat {s} has a position gap: entry {i + 1} says position "
                            f"{entry.get('position')!r}")
            cards.extend(_cards([entry.get("card")], f"hand of seat {s}, position {i + 1}"))
            public = entry.get("public", False)
            if not isinstance(public, bool):
                raise _fail(f"hand of seat {s}, position {i + 1}: 'public' must be true or false")
            known.append(public)
        state.hands.append(cards)
        state.known.append(known)
    state.reserves = []
    for s, r in enumerate(per_seat("reserves")):
        cards = _cards(r, f"reserves of seat {s}")
        if len(cards) > 2:
            raise _fail(f"reserves of seat {s}: at most 2 reserve cards")
        state.reserves.append(cards)
    state.draw_pile = list(reversed(_cards(doc.get("draw_pile"), "'draw_pile'")))
    state.discard = _cards(doc.get("ablagestapel"), "'ablagestapel'")
    in_deal = per_seat("in_deal")
    if not all(isinstance(v, bool) for v in in_deal):
        raise _fail("'in_deal' must hold true or false per player")
    state.in_deal = list(in_deal)
    losers = doc.get("losers", [])
    if not isinstance(losers, list) or not all(isinstance(s, int) and 0 <= s < n for s in losers):
        raise _fail("'losers' must be a list of seats")
    state.losers = list(losers)

    drawing = doc.get("drawing")
    pending_count = 0
    if phase == DRAW:
        if not isinstance(drawing, Mapping):
            raise _fail("phase 'draw' needs a 'drawing' object (winner, card, left)")
        state.round_winner = _int(drawing, "winner", 0, n - 1)
        state.pending = _cards([drawing.get("card")], "drawing card")[0]
        state.draws_left = _int(drawing, "left", 1, 6)
        pending_count = 1
    elif drawing is not None:
        raise _fail("'drawing' must be null unless the phase is 'draw'")

    rnd = doc.get("round")
    if not isinstance(rnd, Mapping):
        raise _fail("'round' must be an object (leader, order, acts_done, acts)")
    state.leader = _int(rnd, "leader", 0, n - 1)
    order = rnd.get("order")
    if not isinstance(order, list) or not all(isinstance(s, int) and 0 <= s < n for s in order) \
            or len(set(order)) != len(order):
        raise _fail("round 'order' must list distinct seats")
    state.participants = list(order)
    state.act_index = _int(rnd, "acts_done", 0, len(order))
    acts = rnd.get("acts")
    if not isinstance(acts, list) or len(acts) != state.act_index:
        raise _fail("round 'acts' must list exactly 'acts_done' acts")
    windows = WINDOW_TABLES[game.options.x_with_x]
    for i, a in enumerate(acts):
        if not isinstance(a, Mapping) or a.get("kind") not in (
                "combination", "stopp", "nachzieh", "reserve"):
            raise _fail(f"round act {i + 1} must be an object with kind combination, stopp, "
                        "nachzieh or reserve")
        seat = _int(a, "seat", 0, n - 1)
        if order and seat != order[i]:
            raise _fail(f"round act {i + 1} is by seat {seat}, but seat {order[i]} acts then")
        cards = tuple(_cards(a.get("cards"), f"round act {i + 1} cards"))
        xs = tuple(a.get("x_values") or ())
        value = NO_COMBINATION
        if a["kind"] == "combination":
            options = dict(windows.get(cards, ()))
            if xs not in options:
                raise _fail(f"round act {i + 1}: {'-'.join(_names(cards))} declared {list(xs)} "
                            "is not a combination")
            value = options[xs]
            if value <= state.best:
                raise _fail(f"round act {i + 1} does not beat the combination before it")
            state.best, state.best_seat = value, seat
        elif a["kind"] == "nachzieh":
            if cards != (NACHZIEH,):
                raise _fail(f"round act {i + 1}: a nachzieh act plays the card N")
            state.nachzieh_played += 1
        elif a["kind"] == "stopp" and cards != (STOPP,):
            raise _fail(f"round act {i + 1}: a stopp act plays the card S")
        state.round_acts.append(Act(seat, a["kind"], cards, xs, value,
                                    _int(a, "position", 1, MAX_HAND + 1) - 1))

    total = Counter(state.draw_pile) + Counter(state.discard)
    for h in state.hands:
        total.update(h)
    for r in state.reserves:
        total.update(r)
    if state.pending is not None:
        total[state.pending] += 1
    count = total.total()
    if count != 54:
        raise _fail(f"the position holds {count} cards; the game has 54")
    if total != DECK_COUNTS:
        extra = total - DECK_COUNTS
        card = min(extra)
        raise _fail(f"card {card_name(card)} appears {total[card]} times; the deck has "
                    f"{DECK_COUNTS[card]}")

    to_move = doc.get("to_move")
    if phase == OVER:
        if not state.losers:
            raise _fail("a finished game ('over') needs at least one loser")
        state._current = 0
        state._legal = []
        return state
    if phase == DRAW:
        if to_move != state.round_winner:
            raise _fail("while drawing, 'to_move' must be the round's winner")
    else:
        if state.act_index >= len(order) or to_move != order[state.act_index]:
            raise _fail(f"'to_move' must be seat {order[state.act_index] if state.act_index < len(order) else '?'}, "
                        "the next in the round's order")
        if not state.hands[to_move]:
            raise _fail(f"seat {to_move} is to move but holds no card")
    if len(order) < 2 and phase == PLAY:
        raise _fail("a round needs at least two players in the deal")
    state._current = int(to_move)
    state._legal = None
    return state
