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
OWN2: Final[list[bytes]] = [CARD15[a] + CARD15[b] if a and b else b""
                            for a in range(16) for b in range(16)]
"""[16 * card + next card]: two neighbouring positions of the own hand (speed: half the
blocks to join)."""
OTHER2: Final[list[bytes]] = [(CARD16[a] if a else HIDDEN16) + (CARD16[b] if b else HIDDEN16)
                              for a in range(16) for b in range(16)]
"""[16 * card + next card] (0: hidden): two neighbouring positions of another hand."""
OTHER_PAD: Final[list[bytes]] = [bytes(F4 * (CARDS + 1) * (MAX_HAND - k))
                                 for k in range(MAX_HAND + 1)]
ALL_HIDDEN: Final[list[bytes]] = [HIDDEN16 * k + OTHER_PAD[k] for k in range(MAX_HAND + 1)]
"""[hand size]: another seat's hand block with every card hidden."""
RESERVE_PAD: Final[list[bytes]] = [bytes(F4 * CARDS * (2 - k)) for k in range(3)]
RESERVES2: Final[list[bytes]] = [CARD15[a] + CARD15[b] + RESERVE_PAD[(a > 0) + (b > 0)]
                                 if a or not b else b"" for a in range(16) for b in range(16)]
"""[16 * first reserve card + second] (0: no card): a seat's two reserve slots."""
FRACTION: Final[list[list[bytes]]] = [[b""]] + [
    [ZERO] + [floats([k / COPIES[c]]) for k in range(1, COPIES[c] + 1)]
    for c in range(1, CARDS + 1)]
"""[card][k]: k / copies of the card (k = 0: zero)."""
MOST: Final = max(COPIES)
"""The most copies of a card (the base of :data:`FRACTIONS5`' index)."""
GROUP: Final = 5
"""Cards per block of :data:`FRACTIONS5`."""
GROUP_SIZE: Final = (MOST + 1) ** GROUP


def _fraction_group(first: int, index: int) -> bytes:
    """The fractions of the cards ``first`` .. ``first + 4`` whose counts are the base
    ``MOST + 1`` digits of ``index`` (the first card's is the highest digit); empty when a
    count is more than the card's copies (never looked up)."""
    parts: list[bytes] = []
    for c in range(first + GROUP - 1, first - 1, -1):
        k = index % (MOST + 1)
        index //= MOST + 1
        if k > COPIES[c]:
            return b""
        parts.append(FRACTION[c][k])
    return b"".join(reversed(parts))


FRACTIONS5: Final[list[bytes]] = [_fraction_group(1 + g * GROUP, index)
                                  for g in range(CARDS // GROUP) for index in range(GROUP_SIZE)]
"""[group * GROUP_SIZE + the counts of its five cards as base ``MOST + 1`` digits]: five
cards' fractions of their copies (the Ablagestapel's and the unseen cards' cells, three
blocks each instead of fifteen)."""
CHIPS: Final[list[bytes]] = [floats([1.0, chips / 3.0]) for chips in range(4)]
"""[chips]: a seat's first two cells, present and chips / 3."""
BOOL: Final[list[bytes]] = [ZERO, floats([1.0])]
SIZE: Final[list[bytes]] = [floats([k / MAX_HAND]) for k in range(MAX_HAND + 1)]
FLAGS: Final[list[bytes]] = [floats([float(flags >> k & 1) for k in range(2, 8)])
                             for flags in range(256)]
"""[flags]: a seat's six round cells: bit 2 in the round, 3 acted, 4 leads, 5 holds the best
combination, 6 to move, 7 lost."""
SEAT_INFO: Final[list[bytes]] = [CHIPS[chips] + BOOL[in_deal] + SIZE[size] + FLAGS[flags << 2]
                                 for chips in range(4) for in_deal in range(2)
                                 for size in range(MAX_HAND + 1) for flags in range(64)]
"""[((chips * 2 + in the deal) * 19 + hand size) * 64 + flags >> 2]: a seat's information
block in one piece (its ten cells)."""
ACTS: Final[list[bytes]] = [floats([float(acts >> k & 1) for k in range(4)]) for acts in range(16)]
"""[bit set of act kinds]: a seat's four cells of this round's acts."""
ACTS2: Final[list[bytes]] = [ACTS[a] + ACTS[b] for a in range(16) for b in range(16)]
"""[16 * acts + next seat's acts]: two seats' act cells."""
DECK: Final = sum(COPIES)
DRAW_SIZE: Final[list[bytes]] = [floats([k / 18.0]) for k in range(DECK + 1)]
DEAL: Final[list[bytes]] = [floats([min(k / 10.0, 1.0)]) for k in range(11)]
"""[deal, at most 10]: deal / 10, capped at 1."""
ROUNDS: Final[list[bytes]] = [floats([min(k / 60.0, 1.0)]) for k in range(61)]
DEAL_ROUNDS: Final[list[bytes]] = [DEAL[d] + ROUNDS[r] for d in range(11) for r in range(61)]
"""[61 * deal + rounds, each capped]: the global cells 1-2."""
PHASE: Final[list[list[bytes]]] = [[floats([float(play), float(not play), *one_hot(3, nz)])
                                     for nz in range(3)] for play in (False, True)]
"""[phase is play][Nachzieh cards played, at most 2]: the global cells 3-7."""
DRAWS_LEFT: Final[list[bytes]] = [floats([k / 6.0]) for k in range(3 * DECK + 1)]
PHASE_DRAWS: Final[list[bytes]] = [PHASE[play][nz] + DRAWS_LEFT[left] for play in range(2)
                                   for nz in range(3) for left in range(7)]
"""[(phase is play * 3 + Nachzieh cards, at most 2) * 7 + draws left]: the global cells
3-8 (draws left is at most 6: three per Nachzieh card, two in the deck)."""
BEST: Final[dict[int, bytes]] = {}
"""[the round's best combination]: the global cells 9-26 (filled on first use)."""
NO_CARD15: Final = bytes(F4 * CARDS)


def pads(players: int) -> list[bytes]:
    """The blocks of a player count: the zeros of the seats past it (other hands, reserves,
    seat information, round acts), the player count's one-hot, and at ``5 + card`` the
    card just drawn (0: none) followed by that one-hot (the vector's last 18 cells)."""
    missing = SEATS - players
    count = floats(one_hot(3, players - 3))
    return [bytes(F4 * OTHER_BLOCK * missing), bytes(F4 * 2 * CARDS * missing),
            bytes(F4 * SEAT_BLOCK * missing), bytes(F4 * 4 * missing), count,
            NO_CARD15 + count] + [CARD15[c] + count for c in range(1, CARDS + 1)]


def state_bytes(state: KKState, me: int, rotation: list[int], pad: list[bytes]) -> bytes:
    """Seat ``me``'s observation vector of ``state`` as float32 bytes. ``rotation`` lists
    the seats from ``me`` on (``me``, the next, ...), ``pad`` is :func:`pads` of the player
    count.

    Speed: about 40 blocks joined (two own cards, a seat's two reserve slots, five cards'
    fractions, a seat's whole information block and two seats' acts are one block each);
    the lists are literals (no list repetition) and the round's acts are read by index."""
    n = len(rotation)
    hands = state.hands
    known = state.known
    hand = hands[me]
    size = len(hand)
    parts: list[bytes] = []
    counts: list[int] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    i = 0
    while i + 1 < size:
        a = hand[i]
        b = hand[i + 1]
        parts.append(OWN2[16 * a + b])
        counts[a] = counts[a] + 1
        counts[b] = counts[b] + 1
        i += 2
    if i < size:
        a = hand[i]
        parts.append(CARD15[a])
        counts[a] = counts[a] + 1
    parts.append(OWN_PAD[size])
    sizes: list[int] = [0, 0, 0, 0, 0]
    sizes[me] = size
    for r in range(1, n):
        s = rotation[r]
        kn = known[s]
        other = len(kn)
        sizes[s] = other
        seen = False
        for k in kn:
            if k:
                seen = True
                break
        if not seen:
            parts.append(ALL_HIDDEN[other])
            continue
        h = hands[s]
        a = 0
        for j in range(other):
            b = 0
            if kn[j]:
                b = h[j]
                counts[b] = counts[b] + 1
            if j & 1:
                parts.append(OTHER2[16 * a + b])
            else:
                a = b
        if other & 1:
            parts.append(CARD16[a] if a else HIDDEN16)
        parts.append(OTHER_PAD[other])
    parts.append(pad[0])
    reserves = state.reserves
    for s in rotation:
        res = reserves[s]
        if not res:
            parts.append(RESERVES2[0])
            continue
        a = res[0]
        counts[a] = counts[a] + 1
        if len(res) > 1:
            b = res[1]
            counts[b] = counts[b] + 1
            parts.append(RESERVES2[16 * a + b])
        else:
            parts.append(RESERVES2[16 * a])
    parts.append(pad[1])
    pending = 0
    drawn = state.pending
    if drawn is not None and state.round_winner == me:
        pending = drawn
        counts[pending] = counts[pending] + 1
    played: list[int] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    for c in state.discard:
        played[c] = played[c] + 1
    base = MOST + 1
    for g in range(CARDS // GROUP):
        first = 1 + g * GROUP
        index = 0
        for c in range(first, first + GROUP):
            index = index * base + played[c]
        parts.append(FRACTIONS5[g * GROUP_SIZE + index])
    for g in range(CARDS // GROUP):
        first = 1 + g * GROUP
        index = 0
        for c in range(first, first + GROUP):
            unseen = COPIES[c] - played[c] - counts[c]
            index = index * base + (unseen if unseen > 0 else 0)
        parts.append(FRACTIONS5[g * GROUP_SIZE + index])
    flags: list[int] = [0, 0, 0, 0, 0]
    for s in state.participants:
        flags[s] = 1
    acts: list[int] = [0, 0, 0, 0, 0]
    for act in state.round_acts:
        seat: int = act[0]
        flags[seat] = flags[seat] | 2
        acts[seat] = acts[seat] | (1 << ACT_KINDS[act[1]])
    flags[state.leader] = flags[state.leader] | 4
    best_seat = state.best_seat
    if best_seat >= 0:
        flags[best_seat] = flags[best_seat] | 8
    current = state.current_player
    if current >= 0:
        flags[current] = flags[current] | 16
    for s in state.losers:
        flags[s] = flags[s] | 32
    chips = state.chips
    in_deal = state.in_deal
    for s in rotation:
        parts.append(SEAT_INFO[((chips[s] * 2 + (1 if in_deal[s] else 0)) * (MAX_HAND + 1)
                                + sizes[s]) * 64 + flags[s]])
    parts.append(pad[2])
    r = 0
    while r + 1 < n:
        parts.append(ACTS2[16 * acts[rotation[r]] + acts[rotation[r + 1]]])
        r += 2
    if r < n:
        parts.append(ACTS[acts[rotation[r]]])
    parts.append(pad[3])
    deal = state.deal
    rounds = state.rounds
    nachzieh = state.nachzieh_played
    left = state.draws_left
    best = state.best
    best_block = BEST.get(best)
    if best_block is None:
        best_block = BEST[best] = floats(_best(best))
    parts.append(DRAW_SIZE[len(state.draw_pile)])
    parts.append(DEAL_ROUNDS[61 * (deal if deal < 10 else 10) + (rounds if rounds < 60 else 60)])
    play = 1 if state.phase == "play" else 0
    nz = nachzieh if nachzieh < 2 else 2
    if left < 7:
        parts.append(PHASE_DRAWS[(play * 3 + nz) * 7 + left])
    else:
        parts.append(PHASE[play][nz])
        parts.append(DRAWS_LEFT[left])
    parts.append(best_block)
    parts.append(pad[5 + pending])
    return b"".join(parts)
