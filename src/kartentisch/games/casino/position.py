"""Casino positions as JSON documents (format in ``docs/positions-casino.md``).

Writing is exact; reading validates the document and names the first problem found.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kartentisch.core.errors import InvalidOptionsError, InvalidPositionError
from kartentisch.games.casino.cards import VALUES, card_name, card_names, is_face, parse_card
from kartentisch.games.casino.state import (
    OVER,
    PLAY,
    SCORE_ITEMS,
    BuildUnit,
    CasinoState,
    PlayRecord,
    can_partition,
)

if TYPE_CHECKING:
    from kartentisch.games.casino.game import Casino

POSITION_FORMAT = "kartentisch-position/1"
PLAY_KINDS = ("capture", "build", "trail", "table")


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


def _fail(message: str) -> InvalidPositionError:
    return InvalidPositionError(message)


def _int(doc: Mapping[str, Any], key: str, lo: int, hi: int, where: str = "") -> int:
    value = doc.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(f"{where}{key!r} must be a whole number from {lo} to {hi}, not {value!r}")
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


def state_from_json(game: Casino, doc: Mapping[str, Any]) -> CasinoState:
    """Read a position document; raises ``InvalidPositionError`` naming the first problem."""
    if not isinstance(doc, Mapping):
        raise _fail("a position must be a JSON object")
    if doc.get("format") != POSITION_FORMAT:
        raise _fail(f"'format' must be {POSITION_FORMAT!r}, not {doc.get('format')!r}")
    if doc.get("game") != "casino":
        raise _fail(f"'game' must be 'casino', not {doc.get('game')!r}")
    n = _int(doc, "players", 2, 4)
    from kartentisch.games.casino.game import Casino

    try:
        game = Casino(n, doc.get("options") or {})
    except InvalidOptionsError as exc:
        raise _fail(f"options: {exc}") from None
    state = CasinoState(game, _int(doc, "seed", 0, 2**63), deal_now=False)
    state.pack = _int(doc, "pack", 0, 10**6)
    state.dealer = _int(doc, "dealer", 0, n - 1)
    state.turn = _int(doc, "turn", 0, 10**8)
    phase = doc.get("phase")
    if phase not in (PLAY, OVER):
        raise _fail(f"'phase' must be 'play' or 'over', not {phase!r}")
    state.phase = phase

    def per_seat(key: str, count: int = n, what: str = "player") -> list[Any]:
        value = doc.get(key)
        if not isinstance(value, list) or len(value) != count:
            raise _fail(f"{key!r} must be a list with one entry per {what} ({count})")
        return value

    state.hands = [_cards(h, f"hand of seat {s}") for s, h in enumerate(per_seat("hands"))]
    for s, h in enumerate(state.hands):
        if len(h) > 4:
            raise _fail(f"hand of seat {s} has {len(h)} cards; a hand holds at most 4")
    state.deck = list(reversed(_cards(doc.get("pack_cards"), "'pack_cards'")))
    if len(state.deck) % (4 * n):
        raise _fail(f"'pack_cards' holds {len(state.deck)} cards; deals of 4 to each of {n} "
                    f"players leave a multiple of {4 * n}")
    table = doc.get("table")
    if not isinstance(table, Mapping):
        raise _fail("'table' must be an object with 'loose' and 'builds'")
    state.loose = sorted(_cards(table.get("loose"), "table 'loose'"))
    raw_builds = table.get("builds")
    if not isinstance(raw_builds, list):
        raise _fail("table 'builds' must be a list")
    for i, b in enumerate(raw_builds):
        where = f"build {i + 1}: "
        if not isinstance(b, Mapping):
            raise _fail(f"{where}must be an object (value, cards, owner, turn)")
        value = _int(b, "value", 1, 10, where)
        cards = sorted(_cards(b.get("cards"), f"{where}'cards'"))
        owner = _int(b, "owner", 0, n - 1, where)
        turn = _int(b, "turn", 0, max(state.turn - 1, 0), where)
        if value in state.builds:
            raise _fail(f"{where}a second build of {value}; builds of one value merge")
        if len(cards) < 2:
            raise _fail(f"{where}a build holds at least 2 cards")
        if any(is_face(c) for c in cards):
            raise _fail(f"{where}face cards never enter builds")
        if not can_partition(cards, value):
            raise _fail(f"{where}{' '.join(card_names(cards))} do not form groups of {value}")
        state.builds[value] = BuildUnit(value, tuple(cards), owner, turn)
    state.captured = [_cards(c, f"captured of seat {s}")
                      for s, c in enumerate(per_seat("captured"))]

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
            raise _fail(f"card {card_name(twice[0])} appears {total[twice[0]]} times; "
                        "every card appears exactly once")
        missing = sorted(set(range(52)) - set(total))
        raise _fail(f"card {card_name(missing[0])} is missing; every card appears exactly once")

    sweeps = per_seat("sweeps")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in sweeps):
        raise _fail("'sweeps' must hold a whole number of at least 0 per player")
    state.sweeps = list(sweeps)
    state.last_capturer = _int(doc, "last_capturer", -1, n - 1)
    last_turn = per_seat("last_turn")
    if not all(isinstance(v, int) and not isinstance(v, bool) and -1 <= v < max(state.turn, 1)
               for v in last_turn):
        raise _fail("'last_turn' must hold, per player, -1 or a turn before 'turn'")
    state.last_turn = list(last_turn)
    raw_plays = doc.get("plays")
    if not isinstance(raw_plays, list):
        raise _fail("'plays' must be a list")
    taken: list[Counter[int]] = [Counter() for _ in range(n)]
    for i, p in enumerate(raw_plays):
        where = f"play {i + 1}: "
        if not isinstance(p, Mapping) or p.get("kind") not in PLAY_KINDS:
            raise _fail(f"{where}must be an object with kind capture, build, trail or table")
        seat = _int(p, "seat", 0, n - 1, where)
        kind = p["kind"]
        card = -1 if kind == "table" else _cards([p.get("card")], f"{where}'card'")[0]
        cards = _cards(p.get("cards", []), f"{where}'cards'")
        value = _int(p, "value", 0, 10, where)
        sweep = p.get("sweep", False)
        if not isinstance(sweep, bool):
            raise _fail(f"{where}'sweep' must be true or false")
        if kind == "capture":
            taken[seat].update((card, *cards))
        elif kind == "table":
            taken[seat].update(cards)
        state.plays.append(PlayRecord(seat, kind, card, tuple(cards), value, sweep))
    for s in range(n):
        if taken[s] != Counter(state.captured[s]):
            raise _fail(f"captured of seat {s} differs from the cards its plays captured")
    scores = per_seat("scores", game.sides, "side")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in scores):
        raise _fail("'scores' must hold a whole number of at least 0 per side")
    state.scores = list(scores)
    results = doc.get("pack_results", [])
    if not isinstance(results, list) or not all(
            isinstance(r, Mapping) and all(isinstance(r.get(k), list) and len(r[k]) == game.sides
                                           for k in (*SCORE_ITEMS, "total")) for r in results):
        raise _fail("'pack_results' must list, per pack, each scoring item's points per side")
    state.pack_results = [{k: list(r[k]) for k in (*SCORE_ITEMS, "total")} for r in results]
    winners = doc.get("winners", [])
    if not isinstance(winners, list) or not all(
            isinstance(w, int) and 0 <= w < game.sides for w in winners):
        raise _fail("'winners' must be a list of sides")
    state.winners = list(winners)

    if phase == OVER:
        if not winners:
            raise _fail("a finished game ('over') needs a winner")
        if any(state.hands) or state.deck or state.loose or state.builds:
            raise _fail("a finished game has no cards in hands, pack or table")
        state._current = 0
        state._legal = {}
        return state
    to_move = doc.get("to_move")
    if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < n:
        raise _fail(f"'to_move' must be a seat from 0 to {n - 1}, not {to_move!r}")
    if not state.hands[to_move]:
        raise _fail(f"seat {to_move} is to move but holds no card")
    sizes = [len(h) for h in state.hands]
    if max(sizes) - min(sizes) > 1:
        raise _fail(f"hand sizes {sizes} differ by more than one card")
    if game.options.owner_keeps_capture_card:
        for v in sorted(state.builds):
            b = state.builds[v]
            if not any(VALUES[c] == v for c in state.hands[b.owner]):
                raise _fail(f"seat {b.owner} owns the build of {v} but holds no card of value {v}")
    state._current = to_move
    state._legal = None
    return state
