"""Krass Kariert's observation vector as bytes, built from precomputed float32 blocks.

The environments' cheapest way to one seat's vector (the layout is documented in
:mod:`kartentisch.rl.encodings.krass_kariert`; this module only builds it). Every part of
the layout is a float32 block worked out once at import: two positions of a hand, a hand
whose cards are all hidden, five cards' fractions of their copies, a seat's information
block, two seats' acts, the round's best combination.
:func:`state_bytes` reads what one seat may know from the state and puts the blocks
together in one fixed-size build; it never turns a Python number into a float32 (that
conversion cost more than working out the entries), so the vector is
``numpy.frombuffer(state_bytes(...), numpy.float32)``.

It reads exactly the fields that ``KrassKariertEncoding.state_entries`` reads: the seat's
own hand, the other hands' sizes and only the positions marked ``known`` (a card that went in
face up), the reserves, the Ablagestapel, the draw pile's size, the card just drawn only when
this seat drew it, and the public round, chip and phase fields (the round's acts from the
state's log words, as ``KKState.round_acts`` decodes them). The tests compare the bytes
with the reference encoding of ``state.observation(seat)`` over whole random games and on
worlds re-dealt from the seat's knowledge.

Plain functions over typed lists and two small memo classes, written so that mypyc can
compile the module (no closures); it runs the same as pure Python. A :class:`Memo` carries
what one vector worked out to the next (the other hands' blocks, and in the batch's rows the
round's acts and the Ablagestapel's count), so each vector does only what changed since.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from kartentisch.games.krass_kariert.actions import MAX_HAND
from kartentisch.games.krass_kariert.cards import DECK_COUNTS, NO_COMBINATION
from kartentisch.games.krass_kariert.log import RESERVE
from kartentisch.games.krass_kariert.state import PHASE_PLAY, KKState

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
BEST: Final[list[bytes]] = [b""] * (5 * 16 + 1)
"""[the round's best combination + 1] (``NO_COMBINATION`` is -1): the global cells 9-26
(filled on first use; empty until then)."""
NO_CARD15: Final = bytes(F4 * CARDS)


def pads(players: int) -> list[bytes]:
    """The blocks of a player count: [0-3] (kept for callers, unused by :func:`state_bytes`,
    which writes a missing seat's zeros with the seat blocks), [4] the player count's
    one-hot, and at ``5 + card`` the card just drawn (0: none) followed by that one-hot
    (the vector's last 18 cells)."""
    missing = SEATS - players
    count = floats(one_hot(3, players - 3))
    return [bytes(F4 * OTHER_BLOCK * missing), bytes(F4 * 2 * CARDS * missing),
            bytes(F4 * SEAT_BLOCK * missing), bytes(F4 * 4 * missing), count,
            NO_CARD15 + count] + [CARD15[c] + count for c in range(1, CARDS + 1)]


# ---------------------------------------------------------------- the fast builder
# Speed: the vector is one ``b"%b%b..." % (...)`` of a fixed number of blocks, which mypyc
# compiles into a single C call that sizes the result once and copies the blocks in (no
# list of parts, no appends, no join; pure Python gives the same bytes). Sections whose
# number of blocks varies (a hand, the seats past the player count) are written as a fixed
# number of slots whose unused ones hold empty or zero blocks. The cards a seat can locate
# are counted in one packed integer (a base-5 digit per card, card 1 the highest), so the
# fractions' indexes into FRACTIONS5 are its three 5-digit groups (no count lists).

HAND: Final = 18
"""MAX_HAND as a literal (compiled: a C constant, no lookup in the actions module)."""
SLOTS: Final = 19
"""Hand sizes 0..18 (SEAT_INFO's base)."""
BASE: Final = 5
"""MOST + 1 as a literal."""
GROUP5: Final = 3125
"""BASE ** 5: the indexes of one group of FRACTIONS5."""
HIGH: Final = 9765625
"""BASE ** 10: the first group's place in a packed count."""
RESERVE_CODE: Final = 3
"""The log word kind of the last act kind (events.RESERVE; acts are the kinds 0-3, in the
order of ACT_KINDS)."""
assert RESERVE_CODE == RESERVE and list(ACT_KINDS.values()) == [0, 1, 2, 3]
assert HAND == MAX_HAND and BASE == MOST + 1 and GROUP5 == GROUP_SIZE and HIGH == BASE ** 10
WEIGHT: Final[list[int]] = [0] + [BASE ** (CARDS - c) for c in range(1, CARDS + 1)] + [0]
"""[card] (0 and 16: none): one copy of the card in a packed count."""
PAIR_WEIGHT: Final[list[int]] = [WEIGHT[a] + WEIGHT[b] for a in range(16) for b in range(16)]
"""[16 * card + next card]: the two cards in a packed count."""
TOTAL: Final = sum(COPIES[c] * WEIGHT[c] for c in range(1, CARDS + 1))
"""Every card of the deck, packed."""
PAIR15: Final[list[bytes]] = [CARD15[a] + CARD15[b] for a in range(16) for b in range(16)]
"""[16 * card + next card] (0: no card): two positions of the own hand."""
CODE16: Final[list[bytes]] = [HIDDEN16, *CARD16[1:], b""]
"""[code]: a position of another hand (0 hidden, 1-15 the known card, 16 past the end)."""
PAIR16: Final[list[bytes]] = [CODE16[a] + CODE16[b] for a in range(17) for b in range(17)]
"""[17 * code + next code]: two positions of another hand."""
NO_SEAT_INFO: Final = bytes(F4 * SEAT_BLOCK)
"""A seat past the player count: its information block."""
ACT_BIT: Final[dict[str, int]] = {kind: 1 << code for kind, code in ACT_KINDS.items()}
"""[act kind]: its bit in a seat's act cells (an act given as an ``Act``)."""


PAIR16_WEIGHT: Final[list[int]] = [WEIGHT[a] + WEIGHT[b] for a in range(17) for b in range(17)]
"""[17 * code + next code] (codes as in :data:`CODE16`): the known cards of two positions
of another hand, packed (WEIGHT of code 0, hidden, and 16, past the end, is zero)."""


class HandMemo:
    """One seat's hand block as :func:`state_bytes` made it last (see :func:`_other`): the
    hand and its ``known`` flags it was made from (copies), the block and its known cards
    packed. A block depends on the seat's hand alone, not on who looks at it, and between
    two vectors of a game only the seat that acted changed its hand."""

    def __init__(self) -> None:
        self.hand: list[int] = []
        self.known: list[bool] = []
        self.block: bytes = ALL_HIDDEN[0]
        self.weight = 0


class Memo:
    """What :func:`state_bytes` keeps between calls: each seat's :class:`HandMemo` (used
    only where the hand is equal to the one it was made from, so any state may be passed),
    and, when ``stepped`` (one game that only ``apply`` changes, as in the batch's rows:
    its log and Ablagestapel only grow), the round's acts decoded from the log so far and
    the Ablagestapel's cards packed so far, so that a vector decodes and counts only what
    was added since the last one of the same game (the log and the pile are recognised
    by identity, the round by where its acts begin)."""

    def __init__(self, stepped: bool = False) -> None:
        # a default for every argument: ``copy.deepcopy`` (OpenSpiel clones its states,
        # and the encoding with them) makes a compiled instance by calling the class with
        # none; a memo made afresh is always right
        self.hands = [HandMemo() for _ in range(SEATS)]
        self.stepped = stepped
        self.log: object = None
        """The log whose words :attr:`acted` and :attr:`acts` cover (stepped only)."""
        self.acts_at = -1
        """The state's ``acts_at`` then (a new round moves it)."""
        self.acts_known = -1
        """How many acts the state had decoded itself then (``decoded_acts``)."""
        self.end = 0
        """Log words covered."""
        self.acted = 0
        """The seats that acted in the round, as their flag bit 2 (``2 << 8 * seat``)."""
        self.acts = 0
        """The round's act kinds by seat (4 bits a seat)."""
        self.pile: object = None
        """The Ablagestapel (a list) whose first :attr:`piled` cards :attr:`played` packs."""
        self.piled = 0
        self.played = 0


PAST: Final = 16 * 17 + 16
"""Two positions past a hand's end, as an index of :data:`PAIR16` (an empty block)."""


def _code(hand: list[int], known: list[bool], j: int, size: int) -> int:
    """Position ``j`` of another hand as a code of :data:`CODE16` (16: past the end)."""
    if j >= size:
        return 16
    if known[j]:
        return hand[j]
    return 0


def _other(hand: list[int], known: list[bool], memo: HandMemo | None) -> tuple[bytes, int]:
    """Another seat's hand block (what the viewer knows of it) and its known cards, packed.

    Speed: a hand with no known card is one block. Otherwise the block is taken from
    ``memo`` when the hand and its flags are the ones it was made from (two list
    comparisons in C; about 70% of such hands in random 4-player games), else made as one
    fixed-size build of nine position pairs and the padding (a join of a parts list, its
    appends and the join's buffer requests cost about twice as much) and kept there."""
    size = len(known)
    seen = False
    for k in known:
        if k:
            seen = True
            break
    if not seen:
        return ALL_HIDDEN[size], 0
    if memo is not None and hand == memo.hand and known == memo.known:
        return memo.block, memo.weight
    q0 = _code(hand, known, 0, size) * 17 + _code(hand, known, 1, size)
    q1 = _code(hand, known, 2, size) * 17 + _code(hand, known, 3, size) if size > 2 else PAST
    q2 = _code(hand, known, 4, size) * 17 + _code(hand, known, 5, size) if size > 4 else PAST
    q3 = _code(hand, known, 6, size) * 17 + _code(hand, known, 7, size) if size > 6 else PAST
    q4 = _code(hand, known, 8, size) * 17 + _code(hand, known, 9, size) if size > 8 else PAST
    q5 = (_code(hand, known, 10, size) * 17 + _code(hand, known, 11, size) if size > 10
          else PAST)
    q6 = (_code(hand, known, 12, size) * 17 + _code(hand, known, 13, size) if size > 12
          else PAST)
    q7 = (_code(hand, known, 14, size) * 17 + _code(hand, known, 15, size) if size > 14
          else PAST)
    q8 = (_code(hand, known, 16, size) * 17 + _code(hand, known, 17, size) if size > 16
          else PAST)
    weight = (PAIR16_WEIGHT[q0] + PAIR16_WEIGHT[q1] + PAIR16_WEIGHT[q2] + PAIR16_WEIGHT[q3]
              + PAIR16_WEIGHT[q4] + PAIR16_WEIGHT[q5] + PAIR16_WEIGHT[q6] + PAIR16_WEIGHT[q7]
              + PAIR16_WEIGHT[q8])
    block = b"%b%b%b%b%b%b%b%b%b%b" % (
        PAIR16[q0], PAIR16[q1], PAIR16[q2], PAIR16[q3], PAIR16[q4], PAIR16[q5], PAIR16[q6],
        PAIR16[q7], PAIR16[q8], OTHER_PAD[size])
    if memo is not None:
        memo.hand = hand.copy()
        memo.known = known.copy()
        memo.block = block
        memo.weight = weight
    return block, weight


def _pair(hand: list[int], i: int, size: int) -> int:
    """Positions ``i`` and ``i + 1`` of the own hand as the index of PAIR15 and PAIR_WEIGHT
    (0: past the hand's end). Speed: cheaper than padding a copy of the hand."""
    if i + 1 < size:
        return hand[i] << 4 | hand[i + 1]
    if i < size:
        return hand[i] << 4
    return 0


def _reserve(reserve: list[int]) -> int:
    """A seat's reserve cards as the index of RESERVES2 (and PAIR_WEIGHT)."""
    k = len(reserve)
    if not k:
        return 0
    if k == 1:
        return reserve[0] << 4
    return reserve[0] << 4 | reserve[1]


def state_bytes(state: KKState, me: int, rotation: list[int], pad: list[bytes],
                memo: Memo) -> bytes:
    """Seat ``me``'s observation vector of ``state`` as float32 bytes. ``rotation`` lists
    the seats from ``me`` on (``me``, the next, ...), ``pad`` is :func:`pads` of the player
    count, ``memo`` a :class:`Memo` (what the last calls made; the same bytes
    with any memo that is not ``stepped``, or ``stepped`` and used for one game only).

    Speed: one fixed-size build of about 40 blocks (see the comment above
    :data:`HAND`); the round's acts are read from the state's log words (as
    ``round_acts`` decodes them, without making its ``Act`` tuples)."""
    n = len(rotation)
    hands = state.hands
    known = state.known
    hand = hands[me]
    size = len(hand)
    k0 = _pair(hand, 0, size)
    k1 = _pair(hand, 2, size) if size > 2 else 0  # past the hand's end: no call
    k2 = _pair(hand, 4, size) if size > 4 else 0
    k3 = _pair(hand, 6, size) if size > 6 else 0
    k4 = _pair(hand, 8, size) if size > 8 else 0
    k5 = _pair(hand, 10, size) if size > 10 else 0
    k6 = _pair(hand, 12, size) if size > 12 else 0
    k7 = _pair(hand, 14, size) if size > 14 else 0
    k8 = _pair(hand, 16, size) if size > 16 else 0
    located = (PAIR_WEIGHT[k0] + PAIR_WEIGHT[k1] + PAIR_WEIGHT[k2] + PAIR_WEIGHT[k3]
               + PAIR_WEIGHT[k4] + PAIR_WEIGHT[k5] + PAIR_WEIGHT[k6] + PAIR_WEIGHT[k7]
               + PAIR_WEIGHT[k8])
    s1 = rotation[1]
    s2 = rotation[2]
    hand_memo = memo.hands
    o1, w1 = _other(hands[s1], known[s1], hand_memo[s1])
    o2, w2 = _other(hands[s2], known[s2], hand_memo[s2])
    o3 = o4 = ALL_HIDDEN[0]  # a seat past the player count: zeros
    w3 = w4 = 0
    s3 = s4 = -1
    if n > 3:
        s3 = rotation[3]
        o3, w3 = _other(hands[s3], known[s3], hand_memo[s3])
        if n > 4:
            s4 = rotation[4]
            o4, w4 = _other(hands[s4], known[s4], hand_memo[s4])
    reserves = state.reserves
    r0 = _reserve(reserves[me])
    r1 = _reserve(reserves[s1])
    r2 = _reserve(reserves[s2])
    r3 = _reserve(reserves[s3]) if s3 >= 0 else 0
    r4 = _reserve(reserves[s4]) if s4 >= 0 else 0
    located += (w1 + w2 + w3 + w4 + PAIR_WEIGHT[r0] + PAIR_WEIGHT[r1] + PAIR_WEIGHT[r2]
                + PAIR_WEIGHT[r3] + PAIR_WEIGHT[r4])
    pending = 0
    drawn = state.pending
    if drawn is not None and state.round_winner == me:
        pending = drawn
        located += WEIGHT[pending]
    stepped = memo.stepped
    pile = state.discard
    played = 0
    i = 0
    if stepped and pile is memo.pile:  # the same deal's pile: only its new cards
        played = memo.played
        i = memo.piled
    piled = len(pile)
    while i < piled:
        played += WEIGHT[pile[i]]
        i += 1
    if stepped:
        memo.pile = pile
        memo.piled = piled
        memo.played = played
    unseen = TOTAL - played - located  # every digit >= 0: each card lies in one place
    # a seat's flags (SEAT_INFO's six bits) in 8 bits and its act kinds in 4 bits of two
    # packed ints (no lists made per vector)
    log = state.log_words
    decoded = state.decoded_acts
    acts_at = state.acts_at
    if (stepped and log is memo.log and acts_at == memo.acts_at
            and len(decoded) == memo.acts_known):  # the same round: only its new words
        acted = memo.acted
        acts = memo.acts
        i = memo.end
    else:
        acted = 0
        acts = 0
        for act in decoded:  # acts decoded before (or given to round_acts)
            seat: int = act[0]
            acted |= 2 << 8 * seat
            acts |= ACT_BIT[act[1]] << 4 * seat
        i = acts_at
    end = len(log)
    while i < end:  # the rest, from their log words
        w: int = log[i]
        code = w & 15
        if code <= RESERVE_CODE:
            seat = (w >> 4 & 7) - 1
            acted |= 2 << 8 * seat
            acts |= 1 << code + 4 * seat
        i += 1
    if stepped:
        memo.log = log
        memo.acts_at = acts_at
        memo.acts_known = len(decoded)
        memo.end = end
        memo.acted = acted
        memo.acts = acts
    flags = acted
    for s in state.participants:
        flags |= 1 << 8 * s
    flags |= 4 << 8 * state.leader
    best_seat = state.best_seat
    if best_seat >= 0:
        flags |= 8 << 8 * best_seat
    current = state.current_player
    if current >= 0:
        flags |= 16 << 8 * current
    for s in state.losers:
        flags |= 32 << 8 * s
    chips = state.chips
    in_deal = state.in_deal
    i0 = SEAT_INFO[((chips[me] * 2 + (1 if in_deal[me] else 0)) * SLOTS + size) * 64
                   + (flags >> 8 * me & 63)]
    i1 = SEAT_INFO[((chips[s1] * 2 + (1 if in_deal[s1] else 0)) * SLOTS + len(known[s1])) * 64
                   + (flags >> 8 * s1 & 63)]
    i2 = SEAT_INFO[((chips[s2] * 2 + (1 if in_deal[s2] else 0)) * SLOTS + len(known[s2])) * 64
                   + (flags >> 8 * s2 & 63)]
    i3 = i4 = NO_SEAT_INFO
    a3 = a4 = 0
    if s3 >= 0:
        i3 = SEAT_INFO[((chips[s3] * 2 + (1 if in_deal[s3] else 0)) * SLOTS + len(known[s3]))
                       * 64 + (flags >> 8 * s3 & 63)]
        a3 = acts >> 4 * s3 & 15
        if s4 >= 0:
            i4 = SEAT_INFO[((chips[s4] * 2 + (1 if in_deal[s4] else 0)) * SLOTS
                            + len(known[s4])) * 64 + (flags >> 8 * s4 & 63)]
            a4 = acts >> 4 * s4 & 15
    deal = state.deal
    rounds = state.rounds
    nachzieh = state.nachzieh_played
    left = state.draws_left
    best = state.best
    best_block = BEST[best + 1]
    if not best_block:
        best_block = BEST[best + 1] = floats(_best(best))
    play = 1 if state.phase_code == PHASE_PLAY else 0
    nz = nachzieh if nachzieh < 2 else 2
    phase_block = (PHASE_DRAWS[(play * 3 + nz) * 7 + left] if left < 7
                   else PHASE[play][nz] + DRAWS_LEFT[left])
    return b"%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b" % (
        PAIR15[k0], PAIR15[k1], PAIR15[k2], PAIR15[k3], PAIR15[k4], PAIR15[k5], PAIR15[k6],
        PAIR15[k7], PAIR15[k8], OWN_PAD[size],
        o1, o2, o3, o4,
        RESERVES2[r0], RESERVES2[r1], RESERVES2[r2], RESERVES2[r3], RESERVES2[r4],
        FRACTIONS5[played // HIGH], FRACTIONS5[GROUP5 + played // GROUP5 % GROUP5],
        FRACTIONS5[2 * GROUP5 + played % GROUP5],
        FRACTIONS5[unseen // HIGH], FRACTIONS5[GROUP5 + unseen // GROUP5 % GROUP5],
        FRACTIONS5[2 * GROUP5 + unseen % GROUP5],
        i0, i1, i2, i3, i4,
        ACTS2[16 * (acts >> 4 * me & 15) + (acts >> 4 * s1 & 15)],
        ACTS2[16 * (acts >> 4 * s2 & 15) + a3], ACTS[a4],
        DRAW_SIZE[len(state.draw_pile)],
        DEAL_ROUNDS[61 * (deal if deal < 10 else 10) + (rounds if rounds < 60 else 60)],
        phase_block, best_block, pad[5 + pending])
