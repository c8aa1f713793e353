"""Krass Kariert positions as JSON documents (the format is described in ``docs/positions.md``).

Writing is exact: reading back what was written gives a state with the same document and
the same future. Reading validates everything a document can get wrong and names the first
problem found, so a hand-written position either loads as a reachable-looking state or fails
with :class:`~kartentisch.core.errors.InvalidPositionError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeGuard

from kartentisch.core.errors import InvalidOptionsError, InvalidPositionError
from kartentisch.core.protocol import TERMINAL
from kartentisch.games.krass_kariert.actions import MAX_HAND
from kartentisch.games.krass_kariert.cards import (
    DECK,
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

POSITION_FORMAT: Final = "kartentisch-position/1"
"""The value of the document's ``format`` field."""

TOP_LEVEL_KEYS: Final = frozenset(
    {
        "format",
        "game",
        "players",
        "options",
        "seed",
        "deal",
        "rounds",
        "phase",
        "to_move",
        "chips",
        "hands",
        "reserves",
        "draw_pile",
        "ablagestapel",
        "in_deal",
        "round",
        "drawing",
        "losers",
    }
)
"""Every field a position document may have (all are written; ``options``, ``drawing`` and
``losers`` may be left out when reading)."""

ACT_KINDS: Final = ("combination", "stopp", "nachzieh", "reserve")


def state_to_json(state: KKState) -> dict[str, Any]:
    """The position document of ``state`` (card names, positions counted from 1)."""
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
            [
                {"position": i + 1, "card": card_name(c), "public": k}
                for i, (c, k) in enumerate(zip(h, kn, strict=True))
            ]
            for h, kn in zip(state.hands, state.known, strict=True)
        ],
        "reserves": [_names(r) for r in state.reserves],
        "draw_pile": _names(reversed(state.draw_pile)),
        "ablagestapel": _names(state.discard),
        "in_deal": list(state.in_deal),
        "round": {
            "leader": state.leader,
            "order": list(state.participants),
            "acts_done": state.act_index,
            "acts": [
                {
                    "seat": a.seat,
                    "kind": a.kind,
                    "cards": _names(a.cards),
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
            "card": None if state.pending is None else card_name(state.pending),
            "left": state.draws_left,
        },
        "losers": list(state.losers),
    }


def _names(cards: Iterable[int]) -> list[str]:
    return [card_name(c) for c in cards]


def _fail(message: str) -> InvalidPositionError:
    return InvalidPositionError(message)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(doc: Mapping[str, Any], key: str, lo: int, hi: int, where: str = "") -> int:
    value = doc.get(key)
    if not _is_int(value) or not lo <= value <= hi:
        raise _fail(f"{where}{key!r} must be a whole number from {lo} to {hi}, not {value!r}")
    return int(value)


def _card(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise _fail(f"{where} must be a card name, not {value!r}")
    try:
        return parse_card(value)
    except ValueError as exc:
        raise _fail(f"{where}: {exc}") from None


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise _fail(f"{where} must be a list of card names")
    return [_card(name, f"{where}[{i}]") for i, name in enumerate(value)]


def _seats(value: Any, n: int, where: str) -> list[int]:
    if not isinstance(value, list) or not all(_is_int(s) and 0 <= s < n for s in value):
        raise _fail(f"{where} must be a list of seats 0..{n - 1}")
    if len(set(value)) != len(value):
        raise _fail(f"{where} names a seat twice")
    return list(value)


def _initial_draw_pile(players: int, hand_size: int) -> int:
    return len(DECK) - players * (hand_size + 2)


def state_from_json(game: KrassKariert, doc: Mapping[str, Any]) -> KKState:
    """Read a position document; raises ``InvalidPositionError`` naming the first problem.

    The document's ``players`` and ``options`` decide the game: when they equal ``game``'s,
    the state belongs to ``game``, otherwise to a new game with the document's settings.
    """
    if not isinstance(doc, Mapping):
        raise _fail("a position must be a JSON object")
    unknown = sorted(set(doc) - TOP_LEVEL_KEYS)
    if unknown:
        raise _fail(f"unknown field {unknown[0]!r}; fields are {', '.join(sorted(TOP_LEVEL_KEYS))}")
    if doc.get("format") != POSITION_FORMAT:
        raise _fail(f"'format' must be {POSITION_FORMAT!r}, not {doc.get('format')!r}")
    if doc.get("game") != "krass-kariert":
        raise _fail(f"'game' must be 'krass-kariert', not {doc.get('game')!r}")
    n = _int(doc, "players", 3, 5)
    options = doc.get("options") or {}
    if not isinstance(options, Mapping):
        raise _fail("'options' must be an object")
    from kartentisch.games.krass_kariert.game import KrassKariert

    try:
        own = KrassKariert(n, options)
    except InvalidOptionsError as exc:
        raise _fail(f"options: {exc}") from None
    if own.players == game.players and own.options == game.options:
        own = game
    seed = doc.get("seed")
    if not _is_int(seed):
        raise _fail(f"'seed' must be a whole number, not {seed!r}")
    state = KKState(own, int(seed), deal_now=False)
    _read_body(state, doc, n)
    return state


def _read_body(state: KKState, doc: Mapping[str, Any], n: int) -> None:
    game = state.game
    state.deal = _int(doc, "deal", 0, 10**9)
    state.rounds = _int(doc, "rounds", 0, 10**9)
    phase = doc.get("phase")
    if phase not in (PLAY, DRAW, OVER):
        raise _fail(f"'phase' must be 'play', 'draw' or 'over', not {phase!r}")
    state.phase = phase

    def per_seat(key: str) -> list[Any]:
        value = doc.get(key)
        if not isinstance(value, list) or len(value) != n:
            raise _fail(f"{key!r} must be a list with one entry per player ({n})")
        return value

    for s, c in enumerate(per_seat("chips")):
        if not _is_int(c) or not 0 <= c <= game.starting_chips:
            raise _fail(
                f"chips of seat {s} must be a whole number from 0 to {game.starting_chips},"
                f" not {c!r}"
            )
        state.chips[s] = int(c)
    state.hands, state.known = [], []
    for s, hand in enumerate(per_seat("hands")):
        if not isinstance(hand, list):
            raise _fail(f"hand of seat {s} must be a list")
        cards: list[int] = []
        known: list[bool] = []
        for i, entry in enumerate(hand):
            where = f"hand of seat {s}, position {i + 1}"
            if not isinstance(entry, Mapping) or set(entry) - {"position", "card", "public"}:
                raise _fail(f"{where} must be an object with position, card and public")
            if entry.get("position") != i + 1:
                raise _fail(
                    f"hand of seat {s} has a position gap: entry {i + 1} says position "
                    f"{entry.get('position')!r}"
                )
            cards.append(_card(entry.get("card"), where))
            public = entry.get("public", False)
            if not isinstance(public, bool):
                raise _fail(f"{where}: 'public' must be true or false")
            known.append(public)
        state.hands.append(cards)
        state.known.append(known)
    state.reserves = []
    for s, r in enumerate(per_seat("reserves")):
        reserve = _cards(r, f"reserves of seat {s}")
        if len(reserve) > 2:
            raise _fail(f"reserves of seat {s}: at most 2 reserve cards")
        state.reserves.append(reserve)
    state.draw_pile = list(reversed(_cards(doc.get("draw_pile"), "'draw_pile'")))
    state.discard = _cards(doc.get("ablagestapel"), "'ablagestapel'")
    in_deal = per_seat("in_deal")
    if not all(isinstance(v, bool) for v in in_deal):
        raise _fail("'in_deal' must hold true or false per player")
    state.in_deal = list(in_deal)
    state.losers = _seats(doc.get("losers", []), n, "'losers'")

    drawing = doc.get("drawing")
    if phase == DRAW:
        if not isinstance(drawing, Mapping):
            raise _fail("phase 'draw' needs a 'drawing' object (winner, card, left)")
        state.round_winner = _int(drawing, "winner", 0, n - 1, "drawing ")
        state.pending = _card(drawing.get("card"), "drawing 'card'")
        state.draws_left = _int(drawing, "left", 1, 6, "drawing ")
    elif drawing is not None:
        raise _fail("'drawing' must be null unless the phase is 'draw'")

    _read_round(state, doc.get("round"), n)
    _check_cards(state)
    _check_turn(state, doc.get("to_move"))


def _read_round(state: KKState, rnd: Any, n: int) -> None:
    if not isinstance(rnd, Mapping):
        raise _fail("'round' must be an object (leader, order, acts_done, acts)")
    state.leader = _int(rnd, "leader", 0, n - 1, "round ")
    order = _seats(rnd.get("order"), n, "round 'order'")
    state.participants = order
    state.act_index = _int(rnd, "acts_done", 0, len(order), "round ")
    if state.phase != OVER:
        expected = [s for s in ((state.leader + i) % n for i in range(n)) if state.in_deal[s]]
        if order != expected:
            raise _fail(
                f"round 'order' must be the players in the deal clockwise from the leader"
                f" {state.leader}: {expected}, not {order}"
            )
    acts = rnd.get("acts")
    if not isinstance(acts, list) or len(acts) != state.act_index:
        raise _fail("round 'acts' must list exactly 'acts_done' acts")
    windows = WINDOW_TABLES[state.game.options.x_with_x]
    for i, a in enumerate(acts):
        where = f"round act {i + 1}"
        if not isinstance(a, Mapping) or a.get("kind") not in ACT_KINDS:
            raise _fail(f"{where} must be an object with kind {', '.join(ACT_KINDS)}")
        if i and state.round_acts[-1].kind == "stopp":
            raise _fail(f"{where} comes after a Stopp, which ends the round")
        seat = _int(a, "seat", 0, n - 1, f"{where} ")
        if seat != order[i]:
            raise _fail(f"{where} is by seat {seat}, but seat {order[i]} acts then")
        cards = tuple(_cards(a.get("cards"), f"{where} cards"))
        xs = a.get("x_values", [])
        if not isinstance(xs, list) or not all(_is_int(v) for v in xs):
            raise _fail(f"{where}: 'x_values' must be a list of numbers")
        declared = tuple(xs)
        value = NO_COMBINATION
        kind = a["kind"]
        if kind == "combination":
            options = windows.get(cards, {})
            if declared not in options:
                raise _fail(
                    f"{where}: {'-'.join(_names(cards))} declared {list(declared)} "
                    "is not a combination"
                )
            value = options[declared]
            if value <= state.best:
                raise _fail(f"{where} does not beat the combination before it")
            state.best, state.best_seat = value, seat
        else:
            expected_card = {"nachzieh": (NACHZIEH,), "stopp": (STOPP,)}.get(kind)
            if expected_card is not None and cards != expected_card:
                raise _fail(f"{where}: a {kind} act plays the card {_names(expected_card)[0]}")
            if kind == "reserve" and len(cards) != 1:
                raise _fail(f"{where}: a reserve act takes exactly one card")
            if kind == "reserve" and i == 0:
                raise _fail(f"{where}: the leader cannot take a reserve card")
            if declared:
                raise _fail(f"{where}: only a combination declares X values")
            if kind == "nachzieh":
                state.nachzieh_played += 1
        position = _int(a, "position", 1, MAX_HAND + 1, f"{where} ") - 1
        state.round_acts.append(Act(seat, kind, cards, declared, value, position))
    if order and acts and state.round_acts[0].seat != state.leader:
        raise _fail("the round's first act must be the leader's")


def _check_cards(state: KKState) -> None:
    total: Counter[int] = Counter(state.draw_pile) + Counter(state.discard)
    for h in state.hands:
        total.update(h)
    for r in state.reserves:
        total.update(r)
    if state.pending is not None:
        total[state.pending] += 1
    count = total.total()
    if count != len(DECK):
        raise _fail(f"the position holds {count} cards; the game has {len(DECK)}")
    if total != DECK_COUNTS:
        card = min((total - DECK_COUNTS).keys())
        raise _fail(
            f"card {card_name(card)} appears {total[card]} times; the deck has {DECK_COUNTS[card]}"
        )
    played = [c for a in state.round_acts if a.kind != "reserve" for c in a.cards]
    if played and state.discard[len(state.discard) - len(played) :] != played:
        raise _fail("the 'ablagestapel' must end with the cards played in the current round")
    # Every Nachzieh resolved earlier in the deal drew 3 cards; the current round's are
    # drawn after it, so the draw pile's size is fixed by the cards played.
    game = state.game
    resolved = state.discard.count(NACHZIEH) - state.nachzieh_played
    drawn = 3 * resolved
    if state.phase == DRAW:
        drawn += 3 * state.nachzieh_played - state.draws_left + 1
        if not 1 <= state.draws_left <= 3 * state.nachzieh_played:
            raise _fail(
                f"drawing 'left' must be 1 to {3 * state.nachzieh_played} after "
                f"{state.nachzieh_played} Nachzieh card(s) in the round"
            )
    expected = _initial_draw_pile(game.players, game.hand_size) - drawn
    if state.phase != OVER and len(state.draw_pile) != expected:
        raise _fail(
            f"the draw pile must hold {expected} cards after {drawn} were drawn this deal,"
            f" not {len(state.draw_pile)}"
        )
    for s, hand in enumerate(state.hands):
        if not state.in_deal[s] and hand:
            raise _fail(f"seat {s} is out of the deal but holds cards")
        if state.phase == OVER:
            continue
        further = len(state.draw_pile) - (len(DECK) - game.players * (game.hand_size + 2) - 6)
        most = len(hand) + len(state.reserves[s]) + max(further, 0)
        if most + (1 if state.phase == DRAW and s == state.round_winner else 0) > MAX_HAND:
            raise _fail(f"the hand of seat {s} could grow past {MAX_HAND} cards")


def _check_turn(state: KKState, to_move: Any) -> None:
    order = state.participants
    if state.phase == OVER:
        if not state.losers:
            raise _fail("a finished game ('over') needs at least one loser")
        if any(state.chips[s] for s in state.losers):
            raise _fail("a player who lost the game has no chips left")
        if to_move != TERMINAL:
            raise _fail(f"'to_move' of a finished game is {TERMINAL}, not {to_move!r}")
        state._current = 0
        return
    if state.losers:
        raise _fail("'losers' must be empty until the game is over")
    if not _is_int(to_move):
        raise _fail(f"'to_move' must be a seat, not {to_move!r}")
    if len(order) < 2:
        raise _fail("a round needs at least two players in the deal")
    if state.phase == DRAW:
        winner = state.round_winner
        if to_move != winner:
            raise _fail("while drawing, 'to_move' must be the round's winner")
        if not state.nachzieh_played:
            raise _fail("phase 'draw' needs a Nachzieh card played in the round")
        acts = state.round_acts
        stopped = bool(acts) and acts[-1].kind == "stopp"
        if not stopped and state.act_index != len(order):
            raise _fail("phase 'draw' comes after every player of the round has acted")
        expected = (
            acts[-1].seat if stopped else state.best_seat if state.best_seat >= 0 else state.leader
        )
        if winner != expected:
            raise _fail(f"the round's winner is seat {expected}, not {winner}")
    else:
        if state.act_index >= len(order):
            raise _fail("every player of the round has acted; the round should be over")
        if to_move != order[state.act_index]:
            raise _fail(
                f"'to_move' must be seat {order[state.act_index]}, the next in the round's order"
            )
        for s in order[state.act_index :]:
            if not state.hands[s]:
                raise _fail(f"seat {s} has yet to act in the round but holds no card")
    state._current = int(to_move)
