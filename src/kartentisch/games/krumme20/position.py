"""Krumme20 positions as JSON documents.

Writing is exact; reading validates the document and names the first problem found.

A card is written as an object ``{"card": "3/1", "up_known": [0, 1, 2], "down_known": [],
"cross": false}`` (up side first). Hand-written positions may use the short form ``"3/1"``
(``"3/1x"``: crosswise, on a score pile only); then the up side is known to everybody (in the
draw pile only the top card's, when ``draw_top_visible``), the down side to nobody (with
``peek_own``: a personal card's owner).

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
from typing import Any

from kartentisch.core.errors import InvalidOptionsError, InvalidPositionError
from kartentisch.games.krumme20.actions import MAX_HAND
from kartentisch.games.krumme20.cards import (
    DECK_SIZE,
    card_text,
    pair_counts,
    pair_key,
    parse_card_text,
)
from kartentisch.games.krumme20.state import (
    FOUL,
    LOSS,
    OVER,
    PASS_ID,
    PHASES,
    SITOUT,
    TURN,
    K20State,
)

POSITION_FORMAT = "kartentisch-position/1"
_OTHER_SEAT_PHASES = (FOUL, LOSS, SITOUT)


def _seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


def state_to_json(state: K20State) -> dict[str, Any]:
    """The document for ``state``."""
    n = state.game.players

    def card(c: int, crosswise: bool = False) -> dict[str, Any]:
        return {"card": card_text(state.face[c], state.back[c]),
                "up_known": _seats(state.kup[c], n), "down_known": _seats(state.kdown[c], n),
                "cross": state.cross[c] if crosswise else False}

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
        "hands": [[card(c) for c in h] for h in state.hands],
        "scores": [[card(c, True) for c in s] for s in state.scores],
        "ablage": [card(c) for c in state.ablage],
        "abwurf": [card(c) for c in state.abwurf],
        "draw_pile": [card(c) for c in state.draw],
        "sitting_out": list(state.sitting_out),
        "final_turns": state.final_turns,
        "turns": state.turns,
        "fouls": list(state.fouls),
    }


def _fail(message: str) -> InvalidPositionError:
    return InvalidPositionError(message)


def _int(doc: Mapping[str, Any], key: str, lo: int, hi: int, default: int | None = None) -> int:
    value = doc.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(f"{key!r} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _bool(doc: Mapping[str, Any], key: str, default: bool) -> bool:
    value = doc.get(key, default)
    if not isinstance(value, bool):
        raise _fail(f"{key!r} must be true or false, not {value!r}")
    return value


def state_from_json(doc: Mapping[str, Any]) -> K20State:
    """Read a position document; raises ``InvalidPositionError`` naming the problem."""
    if not isinstance(doc, Mapping):
        raise _fail("a position must be a JSON object")
    if doc.get("format") != POSITION_FORMAT:
        raise _fail(f"'format' must be {POSITION_FORMAT!r}, not {doc.get('format')!r}")
    if doc.get("game") != "krumme20":
        raise _fail(f"'game' must be 'krumme20', not {doc.get('game')!r}")
    n = _int(doc, "players", 2, 6)
    from kartentisch.games.krumme20.game import Krumme20

    options = doc.get("options") or {}
    if not isinstance(options, Mapping):
        raise _fail("'options' must be an object")
    try:
        game = Krumme20(n, options)
    except InvalidOptionsError as exc:
        raise _fail(f"options: {exc}") from None
    opts = game.options
    every = (1 << n) - 1
    state = K20State(game, _int(doc, "seed", 0, 2**63, 0), deal_now=False)
    next_id = 0

    def mask(value: Any, where: str) -> int:
        if not isinstance(value, list) or not all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in value):
            raise _fail(f"{where}: must list seats 0..{n - 1}")
        m = 0
        for s in value:
            m |= 1 << s
        return m

    def read_pile(value: Any, where: str, *, owner: int | None = None, score: bool = False,
                  draw: bool = False) -> list[int]:
        nonlocal next_id
        if not isinstance(value, list):
            raise _fail(f"{where} must be a list of cards")
        ids = []
        for i, entry in enumerate(value):
            at = f"{where}[{i}]"
            if next_id >= DECK_SIZE:
                raise _fail(f"{at}: more than {DECK_SIZE} cards in the position")
            cross = False
            if isinstance(entry, str):
                text = entry.strip()
                if text.endswith("x"):
                    cross, text = True, text[:-1]
                up_k = every
                if draw and not (i == len(value) - 1 and opts.draw_top_visible):
                    up_k = 0
                down_k = (1 << owner) if owner is not None and opts.peek_own else 0
            elif isinstance(entry, Mapping):
                raw = entry.get("card")
                if not isinstance(raw, str):
                    raise _fail(f"{at}: 'card' must be text like '3/1'")
                text = raw
                up_k = mask(entry.get("up_known", []), f"{at} up_known")
                down_k = mask(entry.get("down_known", []), f"{at} down_known")
                cross = entry.get("cross", False)
                if not isinstance(cross, bool):
                    raise _fail(f"{at}: 'cross' must be true or false")
            else:
                raise _fail(f"{at} must be a card like '3/1' or an object")
            try:
                up, down = parse_card_text(text)
            except ValueError as exc:
                raise _fail(f"{at}: {exc}") from None
            if cross and not score:
                raise _fail(f"{at}: only a card on a score pile can lie crosswise")
            if not draw and up_k != every:
                raise _fail(f"{at}: a card outside the draw pile shows its up side to all")
            c = next_id
            next_id += 1
            state.face[c], state.back[c] = up, down
            state.kup[c], state.kdown[c], state.cross[c] = up_k, down_k, cross
            ids.append(c)
        return ids

    def per_seat(key: str, default: Any = None) -> list[Any]:
        value = doc.get(key, default)
        if not isinstance(value, list) or len(value) != n:
            raise _fail(f"{key!r} must be a list with one entry per player ({n})")
        return value

    state.hands = [read_pile(h, f"hands[{s}]", owner=s) for s, h in enumerate(per_seat("hands"))]
    for s, h in enumerate(state.hands):
        if len(h) > MAX_HAND:
            raise _fail(f"seat {s} holds {len(h)} personal cards; at most {MAX_HAND}")
    state.scores = [read_pile(p, f"scores[{s}]", score=True)
                    for s, p in enumerate(per_seat("scores", [[] for _ in range(n)]))]
    state.ablage = read_pile(doc.get("ablage", []), "'ablage'")
    state.abwurf = read_pile(doc.get("abwurf", []), "'abwurf'")
    state.draw = read_pile(doc.get("draw_pile"), "'draw_pile'", draw=True)
    if next_id != DECK_SIZE:
        raise _fail(f"the position holds {next_id} cards; the game has {DECK_SIZE}")
    have = Counter(pair_key(state.face[c], state.back[c]) for c in range(DECK_SIZE))
    deck = pair_counts(opts.deck)
    if have != deck:
        key = min((have - deck) or (deck - have))
        raise _fail(f"card {card_text(*key)} appears {have[key]} times; the {opts.deck!r} deck "
                    f"has {deck[key]}")

    target = opts.target
    state.total = _int(doc, "total", 0, target - 1, sum(state.face[c] for c in state.ablage))
    if state.total != sum(state.face[c] for c in state.ablage):
        raise _fail(f"'total' is {state.total}, but the Ablagestapel's up sides add up to "
                    f"{sum(state.face[c] for c in state.ablage)}")
    state.zeros = _int(doc, "zeros", 0, 2, 0)
    if state.zeros and (len(state.ablage) < state.zeros
                        or any(state.face[c] for c in state.ablage[-state.zeros:])):
        raise _fail(f"'zeros' is {state.zeros}, but the Ablagestapel's top cards are not 0s")
    phase = doc.get("phase", TURN)
    if phase not in PHASES:
        raise _fail(f"'phase' must be one of {', '.join(PHASES)}, not {phase!r}")
    state.phase = phase
    state.turn = _int(doc, "turn_player", 0, n - 1, 0)
    state.value = _int(doc, "value", -1, 5, -1)
    state.second_done = _bool(doc, "second_done", False)
    state.draws_left = _int(doc, "draws_left", 0, 2, 0)
    queue = doc.get("queue", [])
    if not isinstance(queue, list):
        raise _fail("'queue' must be a list of [phase, seat] steps")
    for i, step in enumerate(queue):
        if (not isinstance(step, list) or len(step) != 2 or step[0] not in PHASES
                or step[0] == OVER or isinstance(step[1], bool)
                or not isinstance(step[1], int) or not 0 <= step[1] < n):
            raise _fail(f"queue step {i + 1} must be [phase, seat] with a step phase")
        if step[0] not in _OTHER_SEAT_PHASES and step[1] != state.turn:
            raise _fail(f"queue step {i + 1}: {step[0]!r} belongs to the turn player "
                        f"{state.turn}")
        state.queue.append((step[0], step[1]))
    sitting = per_seat("sitting_out", [False] * n)
    if not all(isinstance(v, bool) for v in sitting):
        raise _fail("'sitting_out' must hold true or false per player")
    state.sitting_out = list(sitting)
    final = doc.get("final_turns")
    if final is not None:
        final = _int(doc, "final_turns", 0, n)
    elif not state.draw and phase != OVER:
        raise _fail("the draw pile is empty, so 'final_turns' must say how many turns are left")
    state.final_turns = final
    state.turns = _int(doc, "turns", 0, 10**6, 1)
    fouls = per_seat("fouls", [0] * n)
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in fouls):
        raise _fail("'fouls' must hold a count per player")
    state.fouls = list(fouls)

    if phase == OVER:
        state._current = 0
        state._legal = []
        return state
    to_move = _int(doc, "to_move", 0, n - 1, state.turn)
    if phase in _OTHER_SEAT_PHASES:
        if phase == FOUL and to_move == state.turn:
            raise _fail("in a 'foul' step the player to move is one of the others")
    elif to_move != state.turn:
        raise _fail(f"in a {phase!r} step the player to move is the turn player {state.turn}")
    state._current = to_move
    state._legal = None
    ids = state.legal_action_ids()
    if not ids or ids == [PASS_ID]:
        raise _fail(f"seat {to_move} has nothing to decide in a {phase!r} step")
    return state
