"""Krass Kariert's observation vector as bytes, joined from precomputed float32 blocks.

The environments' cheapest way to one seat's vector (the layout is documented in
:mod:`kartentisch.rl.encodings.krass_kariert`; this module only builds it). Every part of
the layout is a float32 block worked out once at import: a card's one-hot at a hand
position, a hand whose cards are all hidden, a fraction of a card's copies, a seat's chips,
flags and acts, the round's best combination.
:func:`state_bytes` reads what one seat may know from the state and joins the blocks; it
never turns a Python number into a float32 (that conversion cost more than working out the
entries), so the vector is ``numpy.frombuffer(state_bytes(...), numpy.float32)``.

It reads exactly the fields that ``KrassKariertEncoding.state_entries`` reads: the seat's
own hand, the other hands' sizes and only the positions marked ``known`` (a card that went in
face up), the reserves, the Ablagestapel, the draw pile's size, the card just drawn only when
this seat drew it, and the public round, chip and phase fields. The tests compare the bytes
with the reference encoding of ``state.observation(seat)`` over whole random games and on
worlds re-dealt from the seat's knowledge.

Plain functions over typed lists, written so that mypyc can compile the module (no classes,
no closures); it runs the same as pure Python.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from kartentisch.games.krass_kariert.actions import MAX_HAND
from kartentisch.games.krass_kariert.cards import DECK_COUNTS, NO_COMBINATION
from kartentisch.games.krass_kariert.state import KKState

SEATS: Final = 5
CARDS: Final = 15
OTHER_BLOCK: Final = MAX_HAND * (CARDS + 1)
"""Floats of another seat's hand block."""
SEAT_BLOCK: Final = 10
"""Floats of a seat's information block."""
F4: Final = 4
"""Bytes per float32."""

ACT_KINDS: Final[dict[str, int]] = {"combination": 0, "stopp": 1, "nachzieh": 2, "reserve": 3}
COPIES: Final[list[int]] = [0] + [DECK_COUNTS[c] for c in range(1, CARDS + 1)]
"""[card]: copies of the card in the deck."""


def floats(values: list[float]) -> bytes:
    """``values`` as float32 bytes (numpy's conversion, as writing them into an array)."""
    data: bytes = np.asarray(values, dtype=np.float32).tobytes()
    return data


def one_hot(size: int, index: int) -> list[float]:
    """``size`` floats, 1.0 at ``index`` (none when it is negative)."""
    row = [0.0] * size
    if index >= 0:
        row[index] = 1.0
    return row


def _best(best: int) -> list[float]:
    """The global cells 9-26: no combination, its kind (5), its high number (12)."""
    row = [0.0] * 18
    if best == NO_COMBINATION:
        row[0] = 1.0
    else:
        row[1 + best // 16] = 1.0
        row[6 + best % 16 - 1] = 1.0
    return row


ZERO: Final = bytes(F4)
CARD15: Final[list[bytes]] = [b""] + [floats(one_hot(CARDS, c - 1)) for c in range(1, CARDS + 1)]
"""[card]: a position of the own hand, a reserve slot or the card just drawn, holding it."""
CARD16: Final[list[bytes]] = [b""] + [floats(one_hot(CARDS + 1, c - 1))
                                      for c in range(1, CARDS + 1)]
"""[card]: a position of another hand whose card is known."""
HIDDEN16: Final = floats(one_hot(CARDS + 1, CARDS))
"""A position of another hand whose card is hidden."""
OWN_PAD: Final[list[bytes]] = [bytes(F4 * CARDS * (MAX_HAND - k)) for k in range(MAX_HAND + 1)]
"""[hand size]: the empty positions after the own hand."""
OTHER_PAD: Final[list[bytes]] = [bytes(F4 * (CARDS + 1) * (MAX_HAND - k))
                                 for k in range(MAX_HAND + 1)]
ALL_HIDDEN: Final[list[bytes]] = [HIDDEN16 * k + OTHER_PAD[k] for k in range(MAX_HAND + 1)]
"""[hand size]: another seat's hand block with every card hidden."""
RESERVE_PAD: Final[list[bytes]] = [bytes(F4 * CARDS * (2 - k)) for k in range(3)]
FRACTION: Final[list[list[bytes]]] = [[b""]] + [
    [ZERO] + [floats([k / COPIES[c]]) for k in range(1, COPIES[c] + 1)]
    for c in range(1, CARDS + 1)]
"""[card][k]: k / copies of the card (k = 0: zero)."""
CHIPS: Final[list[bytes]] = [floats([1.0, chips / 3.0]) for chips in range(4)]
"""[chips]: a seat's first two cells, present and chips / 3."""
BOOL: Final[list[bytes]] = [ZERO, floats([1.0])]
SIZE: Final[list[bytes]] = [floats([k / MAX_HAND]) for k in range(MAX_HAND + 1)]
FLAGS: Final[list[bytes]] = [floats([float(flags >> k & 1) for k in range(2, 8)])
                             for flags in range(256)]
"""[flags]: a seat's six round cells: bit 2 in the round, 3 acted, 4 leads, 5 holds the best
combination, 6 to move, 7 lost."""
ACTS: Final[list[bytes]] = [floats([float(acts >> k & 1) for k in range(4)]) for acts in range(16)]
"""[bit set of act kinds]: a seat's four cells of this round's acts."""
DECK: Final = sum(COPIES)
DRAW_SIZE: Final[list[bytes]] = [floats([k / 18.0]) for k in range(DECK + 1)]
DEAL: Final[list[bytes]] = [floats([min(k / 10.0, 1.0)]) for k in range(11)]
"""[deal, at most 10]: deal / 10, capped at 1."""
ROUNDS: Final[list[bytes]] = [floats([min(k / 60.0, 1.0)]) for k in range(61)]
PHASE: Final[list[list[bytes]]] = [[floats([float(play), float(not play), *one_hot(3, nz)])
                                     for nz in range(3)] for play in (False, True)]
"""[phase is play][Nachzieh cards played, at most 2]: the global cells 3-7."""
DRAWS_LEFT: Final[list[bytes]] = [floats([k / 6.0]) for k in range(3 * DECK + 1)]
BEST: Final[dict[int, bytes]] = {}
"""[the round's best combination]: the global cells 9-26 (filled on first use)."""
NO_CARD15: Final = bytes(F4 * CARDS)


def pads(players: int) -> list[bytes]:
    """The blocks of a player count: the zeros of the seats past it (other hands, reserves,
    seat information, round acts) and the player count's one-hot."""
    missing = SEATS - players
    return [bytes(F4 * OTHER_BLOCK * missing), bytes(F4 * 2 * CARDS * missing),
            bytes(F4 * SEAT_BLOCK * missing), bytes(F4 * 4 * missing),
            floats(one_hot(3, players - 3))]


def state_bytes(state: KKState, me: int, rotation: list[int], pad: list[bytes]) -> bytes:
    """Seat ``me``'s observation vector of ``state`` as float32 bytes. ``rotation`` lists
    the seats from ``me`` on (``me``, the next, ...), ``pad`` is :func:`pads` of the player
    count."""
    n = len(rotation)
    hands = state.hands
    known = state.known
    hand = hands[me]
    parts: list[bytes] = [CARD15[c] for c in hand]
    parts.append(OWN_PAD[len(hand)])
    counts: list[int] = [0] * (CARDS + 1)
    for c in hand:
        counts[c] = counts[c] + 1
    sizes: list[int] = [0] * n
    sizes[me] = len(hand)
    for r in range(1, n):
        s = rotation[r]
        kn = known[s]
        size = len(kn)
        sizes[s] = size
        if True not in kn:
            parts.append(ALL_HIDDEN[size])
            continue
        h = hands[s]
        for i in range(size):
            if kn[i]:
                c = h[i]
                parts.append(CARD16[c])
                counts[c] = counts[c] + 1
            else:
                parts.append(HIDDEN16)
        parts.append(OTHER_PAD[size])
    parts.append(pad[0])
    reserves = state.reserves
    for s in rotation:
        res = reserves[s]
        for c in res:
            parts.append(CARD15[c])
            counts[c] = counts[c] + 1
        parts.append(RESERVE_PAD[len(res)])
    parts.append(pad[1])
    pending = -1
    drawn = state.pending
    if drawn is not None and state.round_winner == me:
        pending = drawn
        counts[pending] = counts[pending] + 1
    played: list[int] = [0] * (CARDS + 1)
    for c in state.discard:
        played[c] = played[c] + 1
    for c in range(1, CARDS + 1):
        parts.append(FRACTION[c][played[c]])
    for c in range(1, CARDS + 1):
        unseen = COPIES[c] - played[c] - counts[c]
        parts.append(FRACTION[c][unseen] if unseen > 0 else ZERO)
    flags: list[int] = [0] * n
    for s in state.participants:
        flags[s] = 4
    acts: list[int] = [0] * n
    for act in state.round_acts:
        seat = act.seat
        flags[seat] = flags[seat] | 8
        acts[seat] = acts[seat] | (1 << ACT_KINDS[act.kind])
    flags[state.leader] = flags[state.leader] | 16
    best_seat = state.best_seat
    if best_seat >= 0:
        flags[best_seat] = flags[best_seat] | 32
    current = state.current_player
    if current >= 0:
        flags[current] = flags[current] | 64
    for s in state.losers:
        flags[s] = flags[s] | 128
    chips = state.chips
    in_deal = state.in_deal
    for s in rotation:
        parts.append(CHIPS[chips[s]])
        parts.append(BOOL[1 if in_deal[s] else 0])
        parts.append(SIZE[sizes[s]])
        parts.append(FLAGS[flags[s]])
    parts.append(pad[2])
    for s in rotation:
        parts.append(ACTS[acts[s]])
    parts.append(pad[3])
    deal = state.deal
    rounds = state.rounds
    nachzieh = state.nachzieh_played
    best = state.best
    best_block = BEST.get(best)
    if best_block is None:
        best_block = BEST[best] = floats(_best(best))
    parts.append(DRAW_SIZE[len(state.draw_pile)])
    parts.append(DEAL[deal if deal < 10 else 10])
    parts.append(ROUNDS[rounds if rounds < 60 else 60])
    parts.append(PHASE[1 if state.phase == "play" else 0][nachzieh if nachzieh < 2 else 2])
    parts.append(DRAWS_LEFT[state.draws_left])
    parts.append(best_block)
    parts.append(NO_CARD15 if pending < 0 else CARD15[pending])
    parts.append(pad[4])
    return b"".join(parts)
