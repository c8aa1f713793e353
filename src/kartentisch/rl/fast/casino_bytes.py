"""Casino's observation vector (without a decision's prefix) as bytes, from float32 blocks.

The layout is documented in :mod:`kartentisch.rl.encodings.casino`; this module only builds
it, as :mod:`.kk_bytes` does for Krass Kariert. Most of the vector is sets of cards (the own
hand, the loose cards, the cards in builds, each seat's captured pile, the cards the seat
cannot locate): each set is turned into a 52-bit mask and written as four blocks of 13
cells, each looked up among the 8192 blocks worked out once at import. A build's seven
cells, a seat's five and the global twelve are looked up the same way, so no Python number
is turned into a float32 per call.

It reads exactly the fields that ``CasinoEncoding.state_entries`` reads: the seat's own
hand, the other hands' sizes only, the table (loose cards, builds), the captured piles, the
pack's size, and the public sweeps, scores, last capturer, dealer and phase. The tests hold
the bytes to the reference encoding of ``state.observation(seat)`` over whole random games
and on worlds re-dealt from the seat's knowledge.

:func:`tokens` turns an action id into the encoding's token sequence straight from the id's
parts (the move generator's segments of ``kartentisch.games.casino.actions``), without making
the action object: ids hardly repeat (a capture may take any set of loose cards), so a cache
of sequences misses most of the time.

Plain functions over typed lists (mypyc can compile the module; it runs the same as pure
Python).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Final

import numpy as np

from kartentisch.games.casino.actions import (
    _SEG_CARD,
    _SEG_CODE,
    _SEG_NONEMPTY,
    _SEG_SHIFT,
    _STARTS,
    CODE_TRAIL,
    NUM_CODES,
)
from kartentisch.games.casino.cards import VALUES
from kartentisch.games.casino.state import CasinoState

SEATS: Final = 4
CHUNK: Final = 13
"""Cells per block of a card set (four blocks make the 52 cards)."""
CHUNK_MASK: Final = (1 << CHUNK) - 1
ALL_CARDS: Final = (1 << 52) - 1


def floats(values: list[float]) -> bytes:
    """``values`` as float32 bytes (numpy's conversion, as writing them into an array)."""
    data: bytes = np.asarray(values, dtype=np.float32).tobytes()
    return data


def _bits(width: int, bits: int) -> list[float]:
    return [float(bits >> k & 1) for k in range(width)]


ONE: Final = floats([1.0])
ZERO: Final = floats([0.0])
BLOCKS: Final[list[bytes]] = [b"".join([ONE if bits >> k & 1 else ZERO for k in range(CHUNK)])
                              for bits in range(1 << CHUNK)]
"""[13-bit mask]: the 13 cells of a block of a card set."""
NO_CARDS: Final = bytes(4 * 52)
BUILD: Final[list[bytes]] = [floats(_bits(7, bits)) for bits in range(1 << 7)]
"""[bit set of the 7 cells]: a build value's cells (present, multiple, owner 4, spare)."""
SIZE: Final[list[bytes]] = [floats([min(k / 4.0, 1.0)]) for k in range(5)]
SWEEPS: Final[list[bytes]] = [floats([min(k / 10.0, 1.0)]) for k in range(11)]
SCORE: Final[list[bytes]] = [floats([min(k / 21.0, 1.0)]) for k in range(22)]
DECK: Final[list[bytes]] = [floats([k / 52.0]) for k in range(53)]
PACK: Final[list[bytes]] = [floats([min(k / 10.0, 1.0)]) for k in range(11)]
NO_SEAT: Final = bytes(4 * 5)
FLAGS: Final[list[bytes]] = [floats(_bits(10, bits)) for bits in range(1 << 10)]
"""[bit set]: the global cells 2-11 (dealer 4, players 3, to move, over, spare)."""
PREFIX: Final = bytes(4 * 336)
"""The cells of a decision's tokens (zero here; the environments add them)."""


CODE_BASE: Final = 52
"""The first code token (the encoding's layout of tokens, see its module docstring)."""
LOOSE_BASE: Final = CODE_BASE + NUM_CODES
CONFIRM: Final = LOOSE_BASE + 52
STARTS: Final[list[int]] = list(_STARTS)
SEG_CARD: Final[list[int]] = list(_SEG_CARD)
SEG_CODE: Final[list[int]] = list(_SEG_CODE)
SEG_SHIFT: Final[list[int]] = list(_SEG_SHIFT)
SEG_NONEMPTY: Final[list[int]] = list(_SEG_NONEMPTY)


def tokens(aid: int) -> tuple[int, ...]:
    """The tokens of the action with id ``aid`` (a valid id): its card, ``CODE_BASE`` plus
    its code, ``LOOSE_BASE`` plus each loose card it uses (ascending), then ``CONFIRM``;
    decoded as ``actions.action_from_id`` decodes the id."""
    k = bisect_right(STARTS, aid) - 1
    card = SEG_CARD[k]
    code = SEG_CODE[k]
    out = [card, CODE_BASE + code]
    if code != CODE_TRAIL:
        packed = (aid - STARTS[k] + SEG_NONEMPTY[k]) << SEG_SHIFT[k]
        mask = (packed & ((1 << card) - 1)) | ((packed >> card) << (card + 1))
        c = 0
        while mask:
            if mask & 1:
                out.append(LOOSE_BASE + c)
            mask >>= 1
            c += 1
    out.append(CONFIRM)
    return tuple(out)


def _capped(table: list[bytes], k: int) -> bytes:
    """``table[k]``, the last block past its end, the first below zero (values are capped
    at 1 and read as at least 0)."""
    if k < 0:
        return table[0]
    return table[k] if k < len(table) else table[-1]


def _card_set(parts: list[bytes], mask: int) -> None:
    """The 52 cells of a card set given as a mask (bit c: card c)."""
    parts.append(BLOCKS[mask & CHUNK_MASK])
    parts.append(BLOCKS[mask >> CHUNK & CHUNK_MASK])
    parts.append(BLOCKS[mask >> 2 * CHUNK & CHUNK_MASK])
    parts.append(BLOCKS[mask >> 3 * CHUNK & CHUNK_MASK])


def _mask(cards: list[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def state_bytes(state: CasinoState, me: int, players: int) -> bytes:
    """Seat ``me``'s observation vector of ``state`` as float32 bytes, with no token of
    the current decision chosen (a game of ``players`` seats)."""
    n = players
    parts: list[bytes] = []
    hand = _mask(state.hands[me])
    loose = _mask(state.loose)
    in_builds = 0
    slots: list[int] = [0] * 14
    for build in state.builds.values():
        cards: tuple[int, ...] = build.cards
        for c in cards:
            in_builds |= 1 << c
        value: int = build.value
        slot = (value if value < 14 else 14) - 1
        total = 0
        for c in cards:
            total += VALUES[c]
        owner: int = build.owner
        slots[slot] = slots[slot] | (1 | (2 if total != value else 0) | 4 << (owner - me) % n)
    captured = state.captured
    located = hand | loose | in_builds
    piles: list[int] = []
    for r in range(n):
        pile = _mask(captured[(me + r) % n])
        piles.append(pile)
        located |= pile
    _card_set(parts, hand)
    _card_set(parts, loose)
    _card_set(parts, in_builds)
    for bits in slots:
        parts.append(BUILD[bits])
    for pile in piles:
        _card_set(parts, pile)
    for _ in range(n, SEATS):
        parts.append(NO_CARDS)
    _card_set(parts, ALL_CARDS & ~located)
    hands = state.hands
    sweeps = state.sweeps
    scores = state.scores
    last = state.last_capturer
    for r in range(n):
        s = (me + r) % n
        parts.append(ONE)
        parts.append(_capped(SIZE, len(hands[s])))
        parts.append(_capped(SWEEPS, sweeps[s] if s < len(sweeps) else 0))
        parts.append(_capped(SCORE, scores[s] if s < len(scores) else 0))
        parts.append(ONE if last == s else ZERO)
    for _ in range(n, SEATS):
        parts.append(NO_SEAT)
    parts.append(DECK[len(state.deck)])
    parts.append(_capped(PACK, state.pack))
    flags = 1 << 4 + n - 2
    dealer = state.dealer
    if 0 <= dealer < n:
        flags |= 1 << (dealer - me) % n
    if state.current_player == me:
        flags |= 1 << 7
    if state.phase == "over":
        flags |= 1 << 8
    parts.append(FLAGS[flags])
    parts.append(PREFIX)
    return b"".join(parts)
