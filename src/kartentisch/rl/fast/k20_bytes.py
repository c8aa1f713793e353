"""Krumme20's observation vector as bytes, joined from precomputed float32 blocks.

The environments' cheapest way to one seat's vector (:mod:`kartentisch.rl.encodings.krumme20`
documents the layout; this module only builds it, as :mod:`.kk_bytes` does for Krass
Kariert). Every block is worked out once at import, and most of them cover several
neighbouring cells at once, so a vector is about 40 joined blocks rather than 90:

* a personal card's 16 cells for every pair of sides the seat knows (unknown included), and
  two neighbouring cards at once (2 401 pairs); a hand's last odd card with the hand's
  padding;
* a seat's 16 cells as four blocks: pile size and points, crosswise cards with fouls and the
  three flags, the known up sides 0-2, and 3-5 with the seat's tail;
* the side counts three at a time (the Ablagestapel's by 20, everything visible by 30);
* the turn fields in four blocks (total with "above 20"; zeros, this turn's number, second
  card and draws left; phase and queue length; final turns and turns).

:func:`state_bytes` reads what one seat may know from the state, counts the known sides in
one packed integer per count group (a digit in base 19 per number; no list per count), whose
quotient and remainder by 19**3 index the blocks of three counts, and joins the
blocks, converting no Python number to float32.

It reads exactly the fields that ``Krumme20Encoding.state_entries`` reads: where every card
lies (public), of each card's sides only those whose knowledge mask (``kup``, ``kdown``)
holds the seat's bit, the score piles' crosswise marks and points, and the public turn
fields. The tests compare the bytes with the reference encoding of ``state.observation(seat)``
over whole random games and on worlds re-dealt from the seat's knowledge.

Plain functions over typed lists (mypyc can compile the module; it runs the same as pure
Python).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from kartentisch.games.krumme20.actions import MAX_HAND
from kartentisch.games.krumme20.cards import DECK_SIZE
from kartentisch.games.krumme20.state import PHASES, K20State

SEATS: Final = 6
CARD: Final = 16
F4: Final = 4
"""Bytes per float32."""
UNKNOWN: Final = 6
"""The side index of a side the seat does not know."""
SIDE_KINDS: Final = 7
"""Side indices of a card's block: the numbers 0-5 and unknown."""


def floats(values: list[float]) -> bytes:
    """``values`` as float32 bytes (numpy's conversion, as writing them into an array)."""
    data: bytes = np.asarray(values, dtype=np.float32).tobytes()
    return data


def _card(up: int, down: int) -> list[float]:
    row = [0.0] * CARD
    row[0] = 1.0
    row[1 + up] = 1.0
    row[8 + down] = 1.0
    return row


def _scaled(divisor: float, top: int) -> list[bytes]:
    """[k]: min(k / divisor, 1) for k up to ``top`` (k = 0: zero)."""
    return [floats([min(k / divisor, 1.0)]) for k in range(top + 1)]


RADIX: Final = 19
"""The base of the packed side counts: a number is on at most 14 cards of either deck (and
on at most 9 of one in ``doubles``), so no count of known sides by number reaches it."""
LOW: Final = RADIX ** 3
"""The packed value of the numbers 3-5 (the low three digits)."""
DIGIT: Final[list[int]] = [RADIX ** (5 - k) for k in range(6)]
"""[number]: its digit's value in a packed count (number 0 is the highest digit, so that
``packed // LOW`` and ``packed % LOW`` are the indices of the numbers 0-2 and 3-5)."""


def _triples(table: list[bytes], tail: bytes = b"") -> list[bytes]:
    """[(a * RADIX + b) * RADIX + c]: the blocks of the counts a, b, c (each capped at the
    table's last entry) joined, and ``tail``; equal blocks are one object."""
    top = len(table) - 1
    made: dict[tuple[int, int, int], bytes] = {}
    out: list[bytes] = []
    for a in range(RADIX):
        for b in range(RADIX):
            for c in range(RADIX):
                key = (min(a, top), min(b, top), min(c, top))
                block = made.get(key)
                if block is None:
                    block = made[key] = table[key[0]] + table[key[1]] + table[key[2]] + tail
                out.append(block)
    return out


ZERO: Final = bytes(F4)
BOOL_ONE: Final = floats([1.0])
BOOL: Final[list[bytes]] = [ZERO, BOOL_ONE]
CARDS: Final[list[bytes]] = [floats(_card(up, down)) for up in range(SIDE_KINDS)
                             for down in range(SIDE_KINDS)]
"""[up side * 7 + down side]: a lying card (6: the side is unknown to the seat)."""
PAIRS: Final[list[bytes]] = [a + b for a in CARDS for b in CARDS]
"""[first card's index in CARDS * 49 + second's]: two neighbouring personal cards."""
NO_CARD: Final = bytes(F4 * CARD)
HAND_PAD: Final[list[bytes]] = [bytes(F4 * CARD * (MAX_HAND - k)) for k in range(MAX_HAND + 1)]
"""[hand size]: the empty positions after a hand."""
LAST_CARD: Final[list[list[bytes]]] = [[card + HAND_PAD[k] for card in CARDS]
                                       for k in range(MAX_HAND + 1)]
"""[hand size][card]: a hand's last card when the size is odd, with the padding after it."""
BY5: Final = _scaled(5.0, 5)
"""[k, at most 5]: k / 5 (fouls, zeros, draws left, queue length)."""
BY10: Final = _scaled(10.0, 10)
BY20: Final = _scaled(20.0, 20)
BY30: Final = _scaled(30.0, 30)
BY40: Final = _scaled(40.0, 40)
BY54: Final = _scaled(54.0, DECK_SIZE)
BY200: Final = _scaled(200.0, 200)
SIZE_POINTS: Final[list[bytes]] = [a + b for a in BY20 for b in BY40]
"""[min(pile size, 20) * 41 + min(points, 40)]: a seat's cells 0-1."""
FLAGS: Final[list[bytes]] = [floats([float(bits >> k & 1) for k in range(3)]) for bits in range(8)]
"""[bits]: a seat's cells 4-6: sits out, to move, whose turn."""
CROSS_FOULS: Final[list[bytes]] = [a + b + c for a in BY10 for b in BY5 for c in FLAGS]
"""[(min(crosswise, 10) * 6 + min(fouls, 5)) * 8 + flags]: a seat's cells 2-6."""
SEAT_TAIL: Final = floats([1.0, 0.0, 0.0])
"""A seat's cells 13-15: present, two spare."""
SIDES_LOW: Final = _triples(BY10)
"""[packed // LOW]: a seat's known up sides 0, 1, 2 on its score pile / 10 (cells 7-9)."""
SIDES_HIGH: Final = _triples(BY10, SEAT_TAIL)
"""[packed % LOW]: the same for the sides 3, 4, 5 (cells 10-12), with the seat's cells
13-15."""
ABL3: Final = _triples(BY20)
"""[packed // LOW or % LOW]: three of the Ablagestapel's side counts / 20."""
ALL3: Final = _triples(BY30)
"""[packed // LOW or % LOW]: three of the visible side counts / 30."""
PILE_SIZES: Final[list[bytes]] = [a + b for a in BY54 for b in BY54]
"""[Ablagestapel's size * 55 + Abwurfstapel's]: their sizes / 54."""
TOTAL: Final[list[bytes]] = [BY30[min(t, 30)] + BOOL[t > 20] for t in range(32)]
"""[min(total, 31)]: total / 30 and "above 20" (the scalars' cells 1-2)."""
VALUE: Final[list[bytes]] = [floats([float(k == v) for k in range(7)]) for v in range(7)]
"""[this turn's number + 1, -1..5]: the one-hot cells."""
TURN_STATE: Final[list[bytes]] = [z + v + s + d for z in BY5 for v in VALUE for s in BOOL
                                  for d in BY5]
"""[((zeros * 7 + number + 1) * 2 + second done) * 6 + draws left]: the scalars' cells 3-12
(zeros and draws left at most 5)."""
PHASE: Final[list[bytes]] = [floats([float(k == p) for k in range(12)]) for p in range(12)]
PHASE_QUEUE: Final[list[bytes]] = [p + q for p in PHASE for q in BY5]
"""[phase * 6 + min(queue length, 5)]: the scalars' cells 13-25."""
PHASE_INDEX: Final[dict[str, int]] = {p: i for i, p in enumerate(PHASES)}
FINAL: Final[list[bytes]] = [bytes(F4 * 2)] + [floats([min(k / 6.0, 1.0), 1.0])
                                                for k in range(7)]
"""[0: not in the final lap; 1 + min(final turns left, 6)]: the cells 26-27."""
FINAL_TURNS: Final[list[bytes]] = [f + t for f in FINAL for t in BY200]
"""[final index * 201 + min(turns, 200)]: the scalars' cells 26-28."""
SPARE: Final = bytes(F4 * 68)
"""The layout's spare cells at its end (the team fields, zero without teams, and the rest)."""
TEAM_CELLS: Final = 8
"""The team fields: 6 "same team as me" cells by relative seat, my team's points and the
best other team's points (each / 80, capped)."""
TEAM_SPARE: Final = bytes(F4 * (68 - TEAM_CELLS))
"""The spare cells after the team fields."""


def _cap(k: int, top: int) -> int:
    """``min(k, top)``.

    Raises:
        ValueError: ``k`` is negative (no count of the layout is).
    """
    if k < 0:
        raise ValueError(f"a count of the Krumme20 layout is negative: {k}")
    return k if k < top else top


def constants(players: int, target: int, team: list[int] | None = None) -> list[bytes]:
    """The blocks fixed by the game: the seats past the player count (their card and seat
    blocks), the target / 30, and the player count's one-hot with the spare cells.

    The team variant (``team``: each seat's team): the one-hot without the spare cells, and
    a fifth entry, the seats' teams as bytes, from which :func:`team_bytes` makes the team
    fields of each vector."""
    missing = SEATS - players
    one_hot = floats([float(k == min(max(players, 2), 6) - 2) for k in range(5)])
    fixed = [bytes(F4 * CARD * MAX_HAND * missing), bytes(F4 * CARD * missing),
             floats([min(target / 30.0, 1.0)])]
    if team is None:
        return [*fixed, one_hot + SPARE]
    return [*fixed, one_hot, bytes(team)]


def team_bytes(state: K20State, me: int, rotation: list[int], team: bytes) -> bytes:
    """The team fields and the spare cells after them (see :data:`TEAM_CELLS`)."""
    mine = team[me]
    cells = [1.0 if team[s] == mine else 0.0 for s in rotation]
    cells += [0.0] * (SEATS - len(rotation))
    totals = state.team_scores()
    others = [v for t, v in enumerate(totals) if t != mine]
    best = max(others) if others else 0
    cells.append(min(max(totals[mine], 0) / 80.0, 1.0))
    cells.append(min(max(best, 0) / 80.0, 1.0))
    return floats(cells) + TEAM_SPARE


def _top(pile: list[int], face: list[int], back: list[int], kup: list[int], kdown: list[int],
         bit: int) -> bytes:
    """The block of ``pile``'s top card as the seat (``bit``) knows it (none: zeros)."""
    if not pile:
        return NO_CARD
    c = pile[-1]
    return CARDS[(face[c] if kup[c] & bit else UNKNOWN) * SIDE_KINDS
                 + (back[c] if kdown[c] & bit else UNKNOWN)]


def state_bytes(state: K20State, me: int, rotation: list[int], fixed: list[bytes]) -> bytes:
    """Seat ``me``'s observation vector of ``state`` as float32 bytes. ``rotation`` lists the
    seats from ``me`` on, ``fixed`` is :func:`constants` of the game."""
    bit = 1 << me
    face = state.face
    back = state.back
    kup = state.kup
    kdown = state.kdown
    parts: list[bytes] = []
    # the visible sides by number, packed in base RADIX (unknown sides are not counted)
    seen_up = 0
    seen_down = 0
    hands = state.hands
    for s in rotation:
        hand = hands[s]
        size = len(hand)
        if size > MAX_HAND:
            size = MAX_HAND
        first = 0
        for i in range(size):
            c = hand[i]
            if kup[c] & bit:
                up = face[c]
                seen_up += DIGIT[up]
            else:
                up = UNKNOWN
            if kdown[c] & bit:
                down = back[c]
                seen_down += DIGIT[down]
            else:
                down = UNKNOWN
            code = up * SIDE_KINDS + down
            if i & 1:
                parts.append(PAIRS[first * 49 + code])
            else:
                first = code
        if size & 1:
            parts.append(LAST_CARD[size][first])
        else:
            parts.append(HAND_PAD[size])
    parts.append(fixed[0])
    scores = state.scores
    cross = state.cross
    sitting_out = state.sitting_out
    fouls = state.fouls
    current = state.current_player
    turn_player = state.turn
    for s in rotation:
        pile = scores[s]
        sides = 0
        crosses = 0
        points = 0
        for c in pile:
            f = face[c]
            if cross[c]:
                crosses += 1
                points += 2 * f
            else:
                points += f
            if kup[c] & bit:
                sides += DIGIT[f]
            if kdown[c] & bit:
                seen_down += DIGIT[back[c]]
        seen_up += sides
        parts.append(SIZE_POINTS[_cap(len(pile), 20) * 41 + (points if points < 40 else 40)])
        flags = ((1 if sitting_out[s] else 0) | (2 if current == s else 0)
                 | (4 if turn_player == s else 0))
        parts.append(CROSS_FOULS[((crosses if crosses < 10 else 10) * 6 + _cap(fouls[s], 5)) * 8
                                 + flags])
        parts.append(SIDES_LOW[sides // LOW])
        parts.append(SIDES_HIGH[sides % LOW])
    parts.append(fixed[1])
    abl_up = 0
    abl_down = 0
    ablage = state.ablage
    abwurf = state.abwurf
    draw = state.draw
    for c in ablage:
        if kup[c] & bit:
            abl_up += DIGIT[face[c]]
        if kdown[c] & bit:
            abl_down += DIGIT[back[c]]
    seen_up += abl_up
    seen_down += abl_down
    for c in abwurf:
        if kup[c] & bit:
            seen_up += DIGIT[face[c]]
        if kdown[c] & bit:
            seen_down += DIGIT[back[c]]
    parts.append(_top(ablage, face, back, kup, kdown, bit))
    parts.append(_top(abwurf, face, back, kup, kdown, bit))
    parts.append(_top(draw, face, back, kup, kdown, bit))
    parts.append(PILE_SIZES[_cap(len(ablage), DECK_SIZE) * 55 + _cap(len(abwurf), DECK_SIZE)])
    parts.append(BY54[_cap(len(draw), DECK_SIZE)])
    if draw:
        c = draw[-1]
        if kup[c] & bit:
            seen_up += DIGIT[face[c]]
        if kdown[c] & bit:
            seen_down += DIGIT[back[c]]
    parts.append(ABL3[abl_up // LOW])
    parts.append(ABL3[abl_up % LOW])
    parts.append(ABL3[abl_down // LOW])
    parts.append(ABL3[abl_down % LOW])
    parts.append(ALL3[seen_up // LOW])
    parts.append(ALL3[seen_up % LOW])
    parts.append(ALL3[seen_down // LOW])
    parts.append(ALL3[seen_down % LOW])
    total = state.total
    value = state.value
    final_turns = state.final_turns
    parts.append(fixed[2])
    parts.append(TOTAL[(total if total < 31 else 31) if total > 0 else 0])
    number = value if value < 5 else 5
    if number < -1:
        number = -1
    parts.append(TURN_STATE[((_cap(state.zeros, 5) * 7 + number + 1) * 2
                             + (1 if state.second_done else 0)) * 6
                            + _cap(state.draws_left, 5)])
    parts.append(PHASE_QUEUE[PHASE_INDEX.get(state.phase, 0) * 6 + _cap(len(state.queue), 5)])
    parts.append(FINAL_TURNS[(0 if final_turns is None else 1 + _cap(final_turns, 6)) * 201
                             + _cap(state.turns, 200)])
    parts.append(fixed[3])
    if len(fixed) > 4:  # the team variant (see constants)
        parts.append(team_bytes(state, me, rotation, fixed[4]))
    return b"".join(parts)

