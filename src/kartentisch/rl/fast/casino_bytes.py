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
NO_BUILDS: Final = bytes(4 * 7 * 14)
"""The cells of the 14 build values when no build stands."""
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


LAST_SEGMENT: Final = len(STARTS) - 2
"""The index of the last segment (``STARTS`` ends with the end of the id space)."""
LOOSE_BYTE: Final[list[list[list[int]]]] = [
    [[LOOSE_BASE + 8 * i + b for b in range(8) if value >> b & 1] for value in range(256)]
    for i in range(7)]
"""[i][byte]: the loose-card tokens of the cards 8i .. 8i+7 set in ``byte`` (ascending)."""


def tokens(aid: int) -> tuple[int, ...]:
    """The tokens of the action with id ``aid`` (a valid id): its card, ``CODE_BASE`` plus
    its code, ``LOOSE_BASE`` plus each loose card it uses (ascending), then ``CONFIRM``;
    decoded as ``actions.action_from_id`` decodes the id.

    Speed (compiled): the segment is found by a bisection written out over ``STARTS`` (the
    ``bisect`` module would box the id and compare Python ints), and the loose cards are
    read a byte of the mask at a time from :data:`LOOSE_BYTE` (no loop over every bit).
    """
    lo = 0
    hi = LAST_SEGMENT + 1
    while lo < hi:  # the last segment whose start is at most aid
        mid = (lo + hi) >> 1
        if aid < STARTS[mid]:
            hi = mid
        else:
            lo = mid + 1
    k = lo - 1
    card = SEG_CARD[k]
    code = SEG_CODE[k]
    out = [card, CODE_BASE + code]
    if code != CODE_TRAIL:
        packed = (aid - STARTS[k] + SEG_NONEMPTY[k]) << SEG_SHIFT[k]
        mask = (packed & ((1 << card) - 1)) | ((packed >> card) << (card + 1))
        i = 0
        while mask:
            byte = mask & 255
            if byte:
                out.extend(LOOSE_BYTE[i][byte])
            mask >>= 8
            i += 1
    out.append(CONFIRM)
    return tuple(out)


CACHE_LIMIT: Final = 200_000
"""Entries of :data:`CACHE` before it is emptied (about 20 MB of tuples)."""
_PINNED: Final[object] = ([],)
"""A value the garbage collector always tracks, kept in :data:`CACHE` under key -1 (no id)."""
CACHE: Final[dict[object, tuple[int, ...]]] = {-1: ()}
"""Action id to its tokens (ids mean the same in every game); see :func:`sequences`."""


def _keep_tracked() -> None:
    """Empty :data:`CACHE` and pin :data:`_PINNED` in it, so the collector tracks the dict
    always and it ages into the oldest generation. Otherwise, holding only tuples of small
    ints (which the collector stops tracking), a full collection untracks the dict, the next
    new entry tracks it again as a young object, and the next young collection walks all of
    its entries (as found for the move caches, 0b68d67)."""
    CACHE.clear()
    CACHE[-1] = _PINNED  # type: ignore[assignment]


_keep_tracked()


def sequences(legal: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The token sequences of the legal ids ``legal``, in their order (:func:`tokens` of
    each), from :data:`CACHE` where known.

    Speed (compiled, callgrind): about two thirds of the ids of random play were decided
    before (3 in 10 are new), and a hit costs a dict lookup against ~3k instructions to
    decode; the ids are looked up as the tuple's own int objects (an id above 2^30 unboxed
    and boxed again is a new object each time).
    """
    out: list[tuple[int, ...]] = []
    ids: tuple[object, ...] = legal
    cache = CACHE
    for aid in ids:
        found = cache.get(aid)
        if found is None:
            found = tokens(aid)  # type: ignore[arg-type]
            if len(cache) >= CACHE_LIMIT:
                _keep_tracked()
            cache[aid] = found
        out.append(found)
    return out


def next_tokens(mask: bytearray, sequences: list[tuple[int, ...]], live: list[int],
                k: int) -> None:
    """Set in ``mask`` (all zero on entry) the tokens that may come next in a decision: the
    ``k``-th token of every live sequence (a token set twice stays 1; no set is made)."""
    for j in live:
        token: object = sequences[j][k]
        mask[token] = 1  # type: ignore[call-overload]


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
    the current decision chosen (a game of ``players`` seats).

    Speed: one ``b"%b%b..." % (...)`` of 70 blocks, which mypyc compiles into a single C
    call that sizes the result once and copies the blocks in (no list of parts, appends or
    join: ~5k instructions of ~15k per vector); the seats past the player count are zero
    blocks in fixed slots (an empty card set is four zero blocks, a missing seat's five
    cells five zero cells)."""
    n = players
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
    piles: list[int] = [0, 0, 0, 0]
    hands = state.hands
    sweeps = state.sweeps
    scores = state.scores
    last = state.last_capturer
    present: list[bytes] = [ZERO, ZERO, ZERO, ZERO]
    size: list[bytes] = [ZERO, ZERO, ZERO, ZERO]
    swept: list[bytes] = [ZERO, ZERO, ZERO, ZERO]
    score: list[bytes] = [ZERO, ZERO, ZERO, ZERO]
    took: list[bytes] = [ZERO, ZERO, ZERO, ZERO]
    for r in range(n):
        s = (me + r) % n
        pile = _mask(captured[s])
        piles[r] = pile
        located |= pile
        present[r] = ONE
        size[r] = _capped(SIZE, len(hands[s]))
        swept[r] = _capped(SWEEPS, sweeps[s] if s < len(sweeps) else 0)
        score[r] = _capped(SCORE, scores[s] if s < len(scores) else 0)
        if last == s:
            took[r] = ONE
    unseen = ALL_CARDS & ~located
    p0 = piles[0]
    p1 = piles[1]
    p2 = piles[2]
    p3 = piles[3]
    flags = 1 << 4 + n - 2
    dealer = state.dealer
    if 0 <= dealer < n:
        flags |= 1 << (dealer - me) % n
    if state.current_player == me:
        flags |= 1 << 7
    if state.phase == "over":
        flags |= 1 << 8
    return (b"%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b"
            b"%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b") % (
        BLOCKS[hand & CHUNK_MASK], BLOCKS[hand >> CHUNK & CHUNK_MASK],
        BLOCKS[hand >> 2 * CHUNK & CHUNK_MASK], BLOCKS[hand >> 3 * CHUNK & CHUNK_MASK],
        BLOCKS[loose & CHUNK_MASK], BLOCKS[loose >> CHUNK & CHUNK_MASK],
        BLOCKS[loose >> 2 * CHUNK & CHUNK_MASK], BLOCKS[loose >> 3 * CHUNK & CHUNK_MASK],
        BLOCKS[in_builds & CHUNK_MASK], BLOCKS[in_builds >> CHUNK & CHUNK_MASK],
        BLOCKS[in_builds >> 2 * CHUNK & CHUNK_MASK], BLOCKS[in_builds >> 3 * CHUNK & CHUNK_MASK],
        BUILD[slots[0]], BUILD[slots[1]], BUILD[slots[2]], BUILD[slots[3]], BUILD[slots[4]],
        BUILD[slots[5]], BUILD[slots[6]], BUILD[slots[7]], BUILD[slots[8]], BUILD[slots[9]],
        BUILD[slots[10]], BUILD[slots[11]], BUILD[slots[12]], BUILD[slots[13]],
        BLOCKS[p0 & CHUNK_MASK], BLOCKS[p0 >> CHUNK & CHUNK_MASK],
        BLOCKS[p0 >> 2 * CHUNK & CHUNK_MASK], BLOCKS[p0 >> 3 * CHUNK & CHUNK_MASK],
        BLOCKS[p1 & CHUNK_MASK], BLOCKS[p1 >> CHUNK & CHUNK_MASK],
        BLOCKS[p1 >> 2 * CHUNK & CHUNK_MASK], BLOCKS[p1 >> 3 * CHUNK & CHUNK_MASK],
        BLOCKS[p2 & CHUNK_MASK], BLOCKS[p2 >> CHUNK & CHUNK_MASK],
        BLOCKS[p2 >> 2 * CHUNK & CHUNK_MASK], BLOCKS[p2 >> 3 * CHUNK & CHUNK_MASK],
        BLOCKS[p3 & CHUNK_MASK], BLOCKS[p3 >> CHUNK & CHUNK_MASK],
        BLOCKS[p3 >> 2 * CHUNK & CHUNK_MASK], BLOCKS[p3 >> 3 * CHUNK & CHUNK_MASK],
        BLOCKS[unseen & CHUNK_MASK], BLOCKS[unseen >> CHUNK & CHUNK_MASK],
        BLOCKS[unseen >> 2 * CHUNK & CHUNK_MASK], BLOCKS[unseen >> 3 * CHUNK & CHUNK_MASK],
        present[0], size[0], swept[0], score[0], took[0],
        present[1], size[1], swept[1], score[1], took[1],
        present[2], size[2], swept[2], score[2], took[2],
        present[3], size[3], swept[3], score[3], took[3],
        DECK[len(state.deck)], _capped(PACK, state.pack), FLAGS[flags], PREFIX)
