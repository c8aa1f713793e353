"""Krumme20's observation vector as bytes, joined from precomputed float32 blocks.

The environments' cheapest way to one seat's vector (:mod:`kartentisch.rl.encodings.krumme20`
documents the layout; this module only builds it, as :mod:`.kk_bytes` does for Krass
Kariert): a card's 16 cells
for every pair of sides the seat knows (unknown included), a seat's flags, and every scaled
count the layout holds (k / 10, k / 20, ... capped at 1) are float32 blocks worked out once;
:func:`state_bytes` reads what one seat may know from the state and joins them, converting no
Python number to float32.

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


ZERO: Final = bytes(F4)
BOOL_ONE: Final = floats([1.0])
CARDS: Final[list[list[bytes]]] = [[floats(_card(up, down)) for down in range(7)]
                                   for up in range(7)]
"""[up side][down side]: a lying card (6: the side is unknown to the seat)."""
NO_CARD: Final = bytes(F4 * CARD)
HAND_PAD: Final[list[bytes]] = [bytes(F4 * CARD * (MAX_HAND - k)) for k in range(MAX_HAND + 1)]
BY10: Final = _scaled(10.0, DECK_SIZE)
BY20: Final = _scaled(20.0, DECK_SIZE)
BY30: Final = _scaled(30.0, DECK_SIZE)
BY54: Final = _scaled(54.0, DECK_SIZE)
BY5: Final = _scaled(5.0, 5)
"""[k, at most 5]: k / 5 (fouls, zeros, draws left, queue length)."""
BY6: Final = _scaled(6.0, 6)
BY40: Final = _scaled(40.0, 40)
BY200: Final = _scaled(200.0, 200)
FLAGS: Final[list[bytes]] = [floats([float(bits >> k & 1) for k in range(3)]) for bits in range(8)]
"""[bits]: a seat's cells 4-6: sits out, to move, whose turn."""
SEAT_TAIL: Final = floats([1.0, 0.0, 0.0])
"""A seat's cells 13-15: present, two spare."""
VALUE: Final[list[bytes]] = [floats([float(k == v) for k in range(7)]) for v in range(7)]
"""[this turn's number + 1, -1..5]: the one-hot cells."""
PHASE: Final[list[bytes]] = [floats([float(k == p) for k in range(12)]) for p in range(12)]
PHASE_INDEX: Final[dict[str, int]] = {p: i for i, p in enumerate(PHASES)}
FINAL: Final[list[bytes]] = [floats([min(k / 6.0, 1.0), 1.0]) for k in range(7)]
"""[final turns left, at most 6]: the cells 26-27 (the end is near)."""
NOT_FINAL: Final = bytes(F4 * 2)
SPARE: Final = bytes(F4 * 68)
"""The layout's spare cells at its end."""


def _capped(table: list[bytes], k: int) -> bytes:
    """``table[k]``, the last block for k past it (the value is capped at 1 there).

    Raises:
        ValueError: ``k`` is negative (no count of the layout is).
    """
    if k < 0:
        raise ValueError(f"a count of the Krumme20 layout is negative: {k}")
    return table[k] if k < len(table) else table[-1]


def constants(players: int, target: int) -> list[bytes]:
    """The blocks fixed by the game: the seats past the player count (their card and seat
    blocks), the target / 30 and the player count's one-hot."""
    missing = SEATS - players
    return [bytes(F4 * CARD * MAX_HAND * missing), bytes(F4 * CARD * missing),
            floats([min(target / 30.0, 1.0)]),
            floats([float(k == min(max(players, 2), 6) - 2) for k in range(5)])]


def state_bytes(state: K20State, me: int, rotation: list[int], fixed: list[bytes]) -> bytes:
    """Seat ``me``'s observation vector of ``state`` as float32 bytes. ``rotation`` lists the
    seats from ``me`` on, ``fixed`` is :func:`constants` of the game."""
    bit = 1 << me
    face = state.face
    back = state.back
    kup = state.kup
    kdown = state.kdown
    parts: list[bytes] = []
    table_up: list[int] = [0] * 7  # index 6: unknown, not counted in the layout
    table_down: list[int] = [0] * 7
    hands = state.hands
    for s in rotation:
        hand = hands[s]
        k = 0
        for c in hand:
            if k == MAX_HAND:
                break
            up = face[c] if kup[c] & bit else UNKNOWN
            down = back[c] if kdown[c] & bit else UNKNOWN
            parts.append(CARDS[up][down])
            table_up[up] = table_up[up] + 1
            table_down[down] = table_down[down] + 1
            k += 1
        parts.append(HAND_PAD[k])
    parts.append(fixed[0])
    scores = state.scores
    cross = state.cross
    sitting_out = state.sitting_out
    fouls = state.fouls
    current = state.current_player
    turn_player = state.turn
    for s in rotation:
        pile = scores[s]
        sides: list[int] = [0] * 7
        crosses = 0
        points = 0
        for c in pile:
            f = face[c]
            if cross[c]:
                crosses += 1
                points += 2 * f
            else:
                points += f
            up = f if kup[c] & bit else UNKNOWN
            table_up[up] = table_up[up] + 1
            sides[up] = sides[up] + 1
            if kdown[c] & bit:
                b = back[c]
                table_down[b] = table_down[b] + 1
        parts.append(_capped(BY20, len(pile)))
        parts.append(_capped(BY40, points if points > 0 else 0))
        parts.append(_capped(BY10, crosses))
        parts.append(_capped(BY5, fouls[s]))
        parts.append(FLAGS[(1 if sitting_out[s] else 0) | (2 if current == s else 0)
                           | (4 if turn_player == s else 0)])
        for k in range(6):
            parts.append(_capped(BY10, sides[k]))
        parts.append(SEAT_TAIL)
    parts.append(fixed[1])
    abl_up: list[int] = [0] * 7
    abl_down: list[int] = [0] * 7
    ablage = state.ablage
    abwurf = state.abwurf
    draw = state.draw
    for c in ablage:
        if kup[c] & bit:
            f = face[c]
            abl_up[f] = abl_up[f] + 1
            table_up[f] = table_up[f] + 1
        if kdown[c] & bit:
            b = back[c]
            abl_down[b] = abl_down[b] + 1
            table_down[b] = table_down[b] + 1
    for c in abwurf:
        if kup[c] & bit:
            f = face[c]
            table_up[f] = table_up[f] + 1
        if kdown[c] & bit:
            b = back[c]
            table_down[b] = table_down[b] + 1
    for pile in (ablage, abwurf, draw):
        if pile:
            c = pile[-1]
            parts.append(CARDS[face[c] if kup[c] & bit else UNKNOWN]
                         [back[c] if kdown[c] & bit else UNKNOWN])
        else:
            parts.append(NO_CARD)
    parts.append(_capped(BY54, len(ablage)))
    parts.append(_capped(BY54, len(abwurf)))
    parts.append(_capped(BY54, len(draw)))
    if draw:
        c = draw[-1]
        up = face[c] if kup[c] & bit else UNKNOWN
        down = back[c] if kdown[c] & bit else UNKNOWN
        table_up[up] = table_up[up] + 1
        table_down[down] = table_down[down] + 1
    for k in range(6):
        parts.append(_capped(BY20, abl_up[k]))
    for k in range(6):
        parts.append(_capped(BY20, abl_down[k]))
    for k in range(6):
        parts.append(_capped(BY30, table_up[k]))
    for k in range(6):
        parts.append(_capped(BY30, table_down[k]))
    total = state.total
    value = state.value
    final_turns = state.final_turns
    parts.append(fixed[2])
    parts.append(_capped(BY30, total if total > 0 else 0))
    parts.append(BOOL_ONE if total > 20 else ZERO)
    parts.append(_capped(BY5, state.zeros))
    parts.append(VALUE[min(max(value, -1), 5) + 1])
    parts.append(BOOL_ONE if state.second_done else ZERO)
    parts.append(_capped(BY5, state.draws_left))
    parts.append(PHASE[PHASE_INDEX.get(state.phase, 0)])
    parts.append(_capped(BY5, len(state.queue)))
    parts.append(NOT_FINAL if final_turns is None else _capped(FINAL, final_turns))
    parts.append(_capped(BY200, state.turns))
    parts.append(fixed[3])
    parts.append(SPARE)
    return b"".join(parts)

