"""Krass Kariert as numbers: one seat's observation, its actions, and action features.

Everything is read from :class:`~kartentisch.games.krass_kariert.KKObservation` alone. Seats
are *relative*: block ``r`` describes the seat ``r`` places after the viewer (0 is the viewer),
and seats past the player count are padded with zeros, so every player count (3-5) has the
same shape. Cards are indexed 0-14: the numbers 1-12, then X, Nachzieh, Stopp.

Observation vector (``float32``, :data:`OBS_SIZE` = 1717):

=========  =====  ==================================================================
offset     size   content
=========  =====  ==================================================================
0          270    own hand: 18 positions x 15 cards, one-hot, in the hand's order
270        1152   the other four seats' hands: 18 positions x 16 (15 cards where the
                  card went in face up and is known, 16th: a hidden card)
1422       150    reserve cards: 5 seats x 2 slots x 15 cards
1572       15     the Ablagestapel (all cards played this deal): count / copies in deck
1587       15     cards the viewer cannot locate (hidden hands, draw pile): count / copies
1602       50     per seat (10 each): present, chips / 3, in the deal, hand size / 18,
                  in this round, has acted this round, leads the round, holds the
                  round's best combination, to move, lost the game
1652       20     per seat, its act in this round: combination, Stopp, Nachzieh, reserve
1672       45     draw pile size / 18, deal / 10 and rounds / 60 (capped at 1), phase
                  play / draw, Nachzieh cards played this round (0, 1, 2 one-hot),
                  draws left / 6, best combination's kind (none + 5 kinds) and its
                  high number (12), the card just drawn (15), players 3/4/5 (3)
=========  =====  ==================================================================

Actions: one token per action, the game's own id (``num_tokens`` = 4972); the mask marks
the legal ids. History that matters is summarised by the Ablagestapel, the round's acts and
the face-up positions in other hands (a reserve card stays tracked where it went in).

Action features (:data:`FEATURE_SIZE` = 371), for learners that score actions: the kind of
move (4), a play's start (18) and length (3), its combination kind or special card (7) and
high number (12), the cards it plays (15), the card a reserve or drawn-card move inserts
(15), where (19) and which reserve (2), and the hand the move leaves: 18 x 15 one-hot, its
size, and how many pairs, 2-runs, 3-runs and triples stand in it (windows of neighbours).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from kartentisch.games.krass_kariert.actions import (
    ACTIONS,
    MAX_HAND,
    NUM_ACTIONS,
    InsertDrawn,
    Play,
    TakeReserve,
    format_action,
)
from kartentisch.games.krass_kariert.cards import (
    DECK_COUNTS,
    NACHZIEH,
    NO_COMBINATION,
    PAIR,
    RUN2,
    RUN3,
    STOPP,
    TRIPLE,
    WINDOW_TABLES,
    X,
)
from kartentisch.games.krass_kariert.observation import KKObservation
from kartentisch.rl.encodings.base import Encoding, Field, Vector, layout
from kartentisch.rl.fast import kk_bytes

SEATS: Final = 5
CARDS: Final = 15
OWN: Final = 0
OTHERS: Final = OWN + MAX_HAND * CARDS
OTHER_STRIDE: Final = MAX_HAND * (CARDS + 1)
RESERVES: Final = OTHERS + (SEATS - 1) * OTHER_STRIDE
DISCARD: Final = RESERVES + SEATS * 2 * CARDS
UNSEEN: Final = DISCARD + CARDS
SEAT_INFO: Final = UNSEEN + CARDS
SEAT_STRIDE: Final = 10
ROUND: Final = SEAT_INFO + SEATS * SEAT_STRIDE
GLOBAL: Final = ROUND + SEATS * 4
OBS_SIZE: Final = GLOBAL + 45

_ACT_KINDS: Final = {"combination": 0, "stopp": 1, "nachzieh": 2, "reserve": 3}
_COPY_LIST: Final = [0] + [DECK_COUNTS[c] for c in range(1, CARDS + 1)]
_FRACTIONS: Final[list[list[float]]] = [[]] + [[k / _COPY_LIST[c] for k in range(_COPY_LIST[c] + 1)]
                            for c in range(1, CARDS + 1)]
"""[card][k]: k / copies of the card in the deck (the fast path looks the fractions up)."""

FIELDS: Final = layout(
    ("own_hand", (MAX_HAND, CARDS), "own hand in its order: position x card, one-hot"),
    ("other_hands", (SEATS - 1, MAX_HAND, CARDS + 1),
     "the other seats' hands (relative seats 1-4) by position: the card where it is known,"
     " else the last column (a hidden card)"),
    ("reserves", (SEATS, 2, CARDS), "reserve cards: seat x slot x card"),
    ("ablage", (CARDS,), "the Ablagestapel (played this deal): count / copies in the deck"),
    ("unseen", (CARDS,), "cards the viewer cannot locate: count / copies in the deck"),
    ("seats", (SEATS, SEAT_STRIDE),
     "per seat: present, chips / 3, in the deal, hand size / 18, in this round, acted this"
     " round, leads the round, holds the round's best combination, to move, lost the game"),
    ("round_acts", (SEATS, 4), "per seat, its act this round: combination, Stopp, Nachzieh,"
     " reserve"),
    ("draw_pile", (1,), "draw pile size / 18"),
    ("deal", (1,), "deal (Durchgang) / 10, capped at 1"),
    ("rounds", (1,), "rounds / 60, capped at 1"),
    ("phase", (2,), "phase: play, draw"),
    ("nachzieh_played", (3,), "Nachzieh cards played this round: 0, 1, 2 or more, one-hot"),
    ("draws_left", (1,), "draws left / 6"),
    ("best_kind", (6,), "the round's best combination: none, then its kind (5), one-hot"),
    ("best_high", (12,), "the best combination's high number 1-12, one-hot"),
    ("drawn_card", (CARDS,), "the card just drawn, one-hot"),
    ("players", (3,), "player count 3, 4, 5, one-hot"),
)
"""The observation vector's fields (:meth:`KrassKariertEncoding.fields`)."""
assert FIELDS["other_hands"].start == OTHERS and FIELDS["ablage"].start == DISCARD
assert FIELDS["seats"].start == SEAT_INFO and FIELDS["draw_pile"].start == GLOBAL
assert FIELDS["players"].stop == OBS_SIZE

# Action features.
F_KIND: Final = 0
F_START: Final = 4
F_LENGTH: Final = F_START + MAX_HAND
F_COMBO: Final = F_LENGTH + 3
F_HIGH: Final = F_COMBO + 7
F_PLAYED: Final = F_HIGH + 12
F_CARD: Final = F_PLAYED + CARDS
F_POSITION: Final = F_CARD + CARDS
F_RESERVE: Final = F_POSITION + MAX_HAND + 1
F_AFTER: Final = F_RESERVE + 2
F_SIZE: Final = F_AFTER + MAX_HAND * CARDS
F_GROUPS: Final = F_SIZE + 1
FEATURE_SIZE: Final = F_GROUPS + 5

_GROUP_INDEX: Final = {RUN2: 0, PAIR: 1, RUN3: 2, TRIPLE: 3}


def _best_kinds(x_with_x: bool) -> dict[tuple[int, ...], int]:
    """For every window of 2-3 number or X cards that makes a combination: its best kind."""
    return {w: max(opts.values()) // 16 for w, opts in WINDOW_TABLES[x_with_x].items()
            if len(w) > 1 and opts}


_BEST_KIND: Final = {flag: _best_kinds(flag) for flag in (False, True)}


_OTHER_CACHE: dict[tuple[int, tuple[int | None, ...]], tuple[list[int], list[int]]] = {}
"""(relative seat, public hand) to (its cells in the vector, its known cards). Public hands
are mostly all hidden and repeat all the time, so this saves most of the encoding's work."""


_HIDDEN_CELLS: Final = [[[OTHERS + (r - 1) * OTHER_STRIDE + i * (CARDS + 1) + CARDS
                          for i in range(size)] for size in range(MAX_HAND + 1)]
                        for r in range(SEATS)]
"""[relative seat][hand size]: the cells of a hand whose cards are all hidden (fast path)."""
_FLAG_CELLS: Final = [[[SEAT_INFO + r * SEAT_STRIDE + k for k in range(4, 10)
                        if flags >> (k - 2) & 1] for r in range(SEATS)]
                      for flags in range(256)]
"""[flags][relative seat]: the cells of a seat's round flags (fast path): bit 2 in the
round, 3 acted, 4 leads, 5 holds the best combination, 6 to move, 7 lost."""
_FLAG_BITS: Final = np.arange(2, 8)
"""The round flags' bits, in the order of their cells (the batch fast path)."""
_COPIES: Final = np.array(_COPY_LIST[1:], dtype=np.int64)
"""Copies of each card in the deck, as an array (the batch fast path)."""


def _hidden_grid(n: int) -> npt.NDArray[np.int64]:
    """[relative seat - 1, position]: the hidden cell of each position of the other hands
    (the batch fast path)."""
    return np.array([[OTHERS + (r - 1) * OTHER_STRIDE + i * (CARDS + 1) + CARDS
                      for i in range(MAX_HAND)] for r in range(1, n)], dtype=np.int64
                    ).reshape(n - 1, MAX_HAND)


_OWN_CELLS: Final = [[OWN + i * CARDS + c - 1 for c in range(CARDS + 1)]
                     for i in range(MAX_HAND)]
"""[position][card]: the own-hand cell (fast path)."""


def _other_hand(r: int, hand: tuple[int | None, ...]) -> tuple[list[int], list[int]]:
    base = OTHERS + (r - 1) * OTHER_STRIDE
    cells = [base + i * (CARDS + 1) + (CARDS if c is None else c - 1)
             for i, c in enumerate(hand)]
    return cells, [c for c in hand if c is not None]


class KrassKariertEncoding(Encoding):
    """The Krass Kariert encoding described in the module docstring."""

    single_token = True
    writes_rows = kk_bytes.__file__ is None or kk_bytes.__file__.endswith(".py")
    """In pure Python the batch's rows are cheaper built with numpy all at once
    (:meth:`write_rows`); with :mod:`kartentisch.rl.fast.kk_bytes` compiled, joining each
    row's bytes is."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.obs_size = OBS_SIZE
        self.num_tokens = NUM_ACTIONS
        self.feature_size = FEATURE_SIZE
        self._x_with_x: bool = game.options.x_with_x
        self._windows = WINDOW_TABLES[self._x_with_x]
        self._kinds = _BEST_KIND[self._x_with_x]
        self._players: int = game.players
        n = game.players
        self._rotations = [[(r, (me + r) % n) for r in range(n)] for me in range(n)]
        self._seat_order = [[(me + r) % n for r in range(n)] for me in range(n)]
        self._pads = kk_bytes.pads(n)
        self._memo = kk_bytes.Memo(False)  # any state may be passed: hand blocks only

    def fields(self) -> dict[str, Field]:
        return FIELDS

    def token_name(self, token: int) -> str:
        return format_action(ACTIONS[token])

    def tokens(self, observation: Any, action_id: int) -> tuple[int, ...]:
        return (action_id,)

    def entries(self, observation: Any, prefix: Sequence[int] = (), offset: int = 0
                ) -> tuple[list[int], list[int], list[float]]:
        """The non-zero entries of the observation vector, shifted by ``offset``: the
        indices holding 1 and the (index, value) pairs of the rest. The batch stepper writes
        many rows with one call (see :class:`kartentisch.rl.batch.BatchStepper`)."""
        obs: KKObservation = observation
        n = obs.players
        me = 0 if obs.seat is None else obs.seat
        o = offset
        ones: list[int] = [o + OWN + i * CARDS + c - 1 for i, c in enumerate(obs.hand)]
        append = ones.append
        counts = [0] * (CARDS + 1)
        for c in obs.hand:
            counts[c] += 1
        public = obs.public_hands
        cache = _OTHER_CACHE
        for r in range(1, n):
            hand = public[(me + r) % n]
            key = (r, hand)
            hit = cache.get(key)
            if hit is None:
                hit = _other_hand(r, hand)
                if len(cache) < 50_000:
                    cache[key] = hit
            cells, known = hit
            ones += [o + c for c in cells] if o else cells
            for card in known:
                counts[card] += 1
        for r in range(n):
            for slot, c in enumerate(obs.reserves[(me + r) % n]):
                append(o + RESERVES + (r * 2 + slot) * CARDS + c - 1)
                counts[c] += 1
        if obs.pending is not None:
            counts[obs.pending] += 1
        played = [0] * (CARDS + 1)
        for c in obs.discard:
            played[c] += 1
        where: list[int] = []
        values: list[float] = []
        for c in range(1, CARDS + 1):
            copies = _COPY_LIST[c]
            if played[c]:
                where.append(o + DISCARD + c - 1)
                values.append(played[c] / copies)
            unseen = copies - played[c] - counts[c]
            if unseen > 0:
                where.append(o + UNSEEN + c - 1)
                values.append(unseen / copies)
        participants = obs.participants
        acted = {a.seat for a in obs.round_acts}
        for r in range(n):
            s = (me + r) % n
            base = o + SEAT_INFO + r * SEAT_STRIDE
            append(base)
            where.append(base + 1)
            values.append(obs.chips[s] / 3.0)
            if obs.in_deal[s]:
                append(base + 2)
            where.append(base + 3)
            values.append(len(public[s]) / MAX_HAND)
            if s in participants:
                append(base + 4)
            if s in acted:
                append(base + 5)
            if s == obs.leader:
                append(base + 6)
            if s == obs.best_seat:
                append(base + 7)
            if s == obs.current_player:
                append(base + 8)
            if s in obs.losers:
                append(base + 9)
        for act in obs.round_acts:
            append(o + ROUND + ((act.seat - me) % n) * 4 + _ACT_KINDS[act.kind])
        g = o + GLOBAL
        where += [g, g + 1, g + 2, g + 8]
        values += [obs.draw_size / 18.0, min(obs.deal / 10.0, 1.0), min(obs.rounds / 60.0, 1.0),
                   obs.draws_left / 6.0]
        append(g + 3 if obs.phase == "play" else g + 4)
        append(g + 5 + min(obs.nachzieh_played, 2))
        if obs.best == NO_COMBINATION:
            append(g + 9)
        else:
            append(g + 10 + obs.best // 16)
            append(g + 15 + obs.best % 16 - 1)
        if obs.pending is not None:
            append(g + 27 + obs.pending - 1)
        append(g + 42 + n - 3)
        return ones, where, values

    def state_entries(self, state: Any, seat: int, prefix: Sequence[int] = (), offset: int = 0
                      ) -> tuple[list[int], list[int], list[float]]:
        """The fast path: :meth:`entries` of ``state.observation(seat)``, read from the
        state. What ``seat`` may know, and all this reads: its own hand, the other hands'
        sizes and only their positions marked ``known`` (a card that went in face up),
        reserves, the Ablagestapel, the draw pile's size, the card just drawn only when
        ``seat`` drew it, and the public round, chip and phase fields."""
        n = self._players
        me = seat
        hands = state.hands
        known = state.known
        hand = hands[me]
        own = _OWN_CELLS
        ones: list[int] = [own[i][c] for i, c in enumerate(hand)]
        append = ones.append
        counts = [0] * (CARDS + 1)
        for c in hand:
            counts[c] += 1
        hidden = _HIDDEN_CELLS
        sizes = [0] * n
        sizes[me] = len(hand)
        rotation = self._rotations[me]
        for r, s in rotation[1:]:
            kn = known[s]
            sizes[s] = size = len(kn)
            if True not in kn:
                ones += hidden[r][size]
                continue
            # positions whose card went in face up: a hidden cell moved to the card's own
            cells = hidden[r][size].copy()
            h = hands[s]
            i = kn.index(True)
            while True:
                c = h[i]
                cells[i] += c - 1 - CARDS
                counts[c] += 1
                try:
                    i = kn.index(True, i + 1)
                except ValueError:
                    break
            ones += cells
        reserves = state.reserves
        for r, s in rotation:
            base = RESERVES + r * 2 * CARDS - 1
            for c in reserves[s]:
                append(base + c)
                counts[c] += 1
                base += CARDS
        pending = state.pending if state.round_winner == me else None
        if pending is not None:
            counts[pending] += 1
        played = [0] * (CARDS + 1)
        for c in state.discard:
            played[c] += 1
        where: list[int] = []
        values: list[float] = []
        wappend = where.append
        vappend = values.append
        copy_list = _COPY_LIST
        fractions = _FRACTIONS
        for c in range(1, CARDS + 1):
            p = played[c]
            if p:
                wappend(DISCARD - 1 + c)
                vappend(fractions[c][p])
            unseen = copy_list[c] - p - counts[c]
            if unseen > 0:
                wappend(UNSEEN - 1 + c)
                vappend(fractions[c][unseen])
        round_acts = state.round_acts
        chips = state.chips
        in_deal = state.in_deal
        flags = [0] * n
        for s in state.participants:
            flags[s] = 4
        for act in round_acts:
            flags[act.seat] |= 8
            append(ROUND + ((act.seat - me) % n) * 4 + _ACT_KINDS[act.kind])
        flags[state.leader] |= 16
        best_seat = state.best_seat
        if best_seat >= 0:
            flags[best_seat] |= 32
        current = state.current_player
        if current >= 0:
            flags[current] |= 64
        for s in state.losers:
            flags[s] |= 128
        for r, s in rotation:
            base = SEAT_INFO + r * SEAT_STRIDE
            append(base)
            where += (base + 1, base + 3)
            values += (chips[s] / 3.0, sizes[s] / MAX_HAND)
            if in_deal[s]:
                append(base + 2)
            f = flags[s]
            if f:
                ones += _FLAG_CELLS[f][r]
        g = GLOBAL
        where += (g, g + 1, g + 2, g + 8)
        deal = state.deal / 10.0
        rounds = state.rounds / 60.0
        values += (len(state.draw_pile) / 18.0, deal if deal <= 1.0 else 1.0,
                   rounds if rounds <= 1.0 else 1.0, state.draws_left / 6.0)
        append(g + 3 if state.phase == "play" else g + 4)
        append(g + 5 + min(state.nachzieh_played, 2))
        best = state.best
        if best == NO_COMBINATION:
            append(g + 9)
        else:
            append(g + 10 + best // 16)
            append(g + 15 + best % 16 - 1)
        if pending is not None:
            append(g + 27 + pending - 1)
        append(g + 42 + n - 3)
        if offset:
            ones = [offset + i for i in ones]
            where = [offset + i for i in where]
        return ones, where, values

    def state_bytes(self, state: Any, seat: int) -> bytes:
        """The cheapest path to one vector: ``encode_state(state, seat).tobytes()``, the
        same bytes, joined from precomputed float32 blocks
        (:mod:`kartentisch.rl.fast.kk_bytes`; it reads what :meth:`state_entries` reads)."""
        return kk_bytes.state_bytes(state, seat, self._seat_order[seat], self._pads,
                                    self._memo)

    def byte_builder_args(self) -> tuple[list[list[int]], list[bytes]]:
        return self._seat_order, self._pads

    def write_rows(self, states: Sequence[Any], seats: Sequence[int],
                   out: npt.NDArray[np.float32]) -> None:
        """The fast path for many rows at once: row ``i`` of ``out`` (zero on entry) becomes
        ``encode_state(states[i], seats[i])``, bit for bit. Each row's fields are gathered
        in Python (about 60 ints, what the seat may know, as :meth:`state_entries` reads)
        and the vectors are built with numpy for all rows together: the batch stepper's
        rows cost a third of encoding them one by one."""
        rows = len(states)
        n = self._players
        width = OBS_SIZE
        flat = out.reshape(-1)
        own_cards: list[int] = []
        own_len: list[int] = []
        sizes_all: list[int] = []
        extra_rows: list[int] = []  # (row, card) pairs of other cards the seat locates
        extra_cards: list[int] = []
        disc_cards: list[int] = []
        disc_len: list[int] = []
        chips_all: list[int] = []
        in_deal_all: list[bool] = []
        flags_all: list[int] = []
        scalars: list[int] = []  # seven per row
        sparse: list[int] = []  # flat indices holding 1: reserves, round acts, drawn card
        hidden_fix: list[int] = []  # hidden cells of positions known after all
        rotations = self._rotations
        for i, (state, me) in enumerate(zip(states, seats, strict=True)):
            base = i * width
            hands = state.hands
            known = state.known
            hand = hands[me]
            own_cards += hand
            own_len.append(len(hand))
            sizes_all += [len(k) for k in known]
            rotation = rotations[me]
            for r, s in rotation[1:]:
                kn = known[s]
                if True not in kn:
                    continue
                h = hands[s]
                cell = base + OTHERS + (r - 1) * OTHER_STRIDE
                for pos, k in enumerate(kn):
                    if k:
                        c = h[pos]
                        hidden_fix.append(cell + pos * (CARDS + 1) + CARDS)
                        sparse.append(cell + pos * (CARDS + 1) + c - 1)
                        extra_rows.append(i)
                        extra_cards.append(c)
            reserves = state.reserves
            for r, s in rotation:
                cell = base + RESERVES + r * 2 * CARDS - 1
                for c in reserves[s]:
                    sparse.append(cell + c)
                    extra_rows.append(i)
                    extra_cards.append(c)
                    cell += CARDS
            if state.round_winner == me and state.pending is not None:
                pending = state.pending
                extra_rows.append(i)
                extra_cards.append(pending)
                sparse.append(base + GLOBAL + 27 + pending - 1)
            discard = state.discard
            disc_cards += discard
            disc_len.append(len(discard))
            chips_all += state.chips
            in_deal_all += state.in_deal
            flags = [0] * n
            for s in state.participants:
                flags[s] = 4
            for act in state.round_acts:
                flags[act.seat] |= 8
                sparse.append(base + ROUND + ((act.seat - me) % n) * 4 + _ACT_KINDS[act.kind])
            flags[state.leader] |= 16
            if state.best_seat >= 0:
                flags[state.best_seat] |= 32
            current = state.current_player
            if current >= 0:
                flags[current] |= 64
            for s in state.losers:
                flags[s] |= 128
            flags_all += flags
            scalars += (len(state.draw_pile), state.deal, state.rounds, state.draws_left,
                        state.phase == "play", state.nachzieh_played, state.best)
        index = np.arange(rows)
        starts = index * width
        # own hand: position-by-card one-hot in the hand's order
        lengths = np.array(own_len)
        cards = np.array(own_cards, dtype=np.int64)
        owner = np.repeat(index, lengths)
        position = np.arange(len(cards)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        flat[owner * width + OWN + position * CARDS + cards - 1] = 1.0
        # other hands: every position hidden, then the known ones moved to their card
        seat_of = (np.asarray(seats)[:, None] + np.arange(n)) % n  # [row, relative seat]
        sizes = np.array(sizes_all).reshape(rows, n)[index[:, None], seat_of]
        slots = _hidden_grid(n)  # [relative seat - 1, position]
        filled = np.arange(MAX_HAND) < sizes[:, 1:, None]
        flat[(starts[:, None, None] + slots[None])[filled]] = 1.0
        if hidden_fix:
            flat[hidden_fix] = 0.0
        if sparse:
            flat[sparse] = 1.0
        # the Ablagestapel and the cards nobody located, as fractions of the copies
        counts = np.bincount(owner * (CARDS + 1) + cards, minlength=rows * (CARDS + 1))
        if extra_cards:
            counts += np.bincount(np.array(extra_rows) * (CARDS + 1) + np.array(extra_cards),
                                  minlength=rows * (CARDS + 1))
        disc_lengths = np.array(disc_len)
        played = np.bincount(np.repeat(index, disc_lengths) * (CARDS + 1)
                             + np.array(disc_cards, dtype=np.int64),
                             minlength=rows * (CARDS + 1)).reshape(rows, CARDS + 1)[:, 1:]
        counts = counts.reshape(rows, CARDS + 1)[:, 1:]
        copies = _COPIES
        out[:, DISCARD:DISCARD + CARDS] = played / copies
        unseen = copies - played - counts
        out[:, UNSEEN:UNSEEN + CARDS] = np.where(unseen > 0, unseen, 0) / copies
        # per seat, relative to the viewer
        block = np.empty((rows, n, SEAT_STRIDE))
        block[:, :, 0] = 1.0
        block[:, :, 1] = np.array(chips_all).reshape(rows, n)[index[:, None], seat_of] / 3.0
        block[:, :, 2] = np.array(in_deal_all).reshape(rows, n)[index[:, None], seat_of]
        block[:, :, 3] = sizes / MAX_HAND
        flags_rel = np.array(flags_all).reshape(rows, n)[index[:, None], seat_of]
        block[:, :, 4:] = (flags_rel[:, :, None] >> _FLAG_BITS) & 1
        out[:, SEAT_INFO:SEAT_INFO + n * SEAT_STRIDE] = block.reshape(rows, n * SEAT_STRIDE)
        # the deal, the round and the phase
        table = np.array(scalars, dtype=np.int64).reshape(rows, 7)
        g = GLOBAL
        out[:, g] = table[:, 0] / 18.0
        out[:, g + 1] = np.minimum(table[:, 1] / 10.0, 1.0)
        out[:, g + 2] = np.minimum(table[:, 2] / 60.0, 1.0)
        out[:, g + 8] = table[:, 3] / 6.0
        out[index, g + 4 - table[:, 4]] = 1.0
        out[index, g + 5 + np.minimum(table[:, 5], 2)] = 1.0
        best = table[:, 6]
        none = best == NO_COMBINATION
        out[index[none], g + 9] = 1.0
        some = index[~none]
        out[some, g + 10 + best[~none] // 16] = 1.0
        out[some, g + 15 + best[~none] % 16 - 1] = 1.0
        out[:, g + 42 + n - 3] = 1.0

    def action_features(self, observation: Any, action_id: int) -> Vector:
        row: Vector = self.features(observation, (action_id,))[0]
        return row

    def features(self, observation: Any, action_ids: Sequence[int]) -> npt.NDArray[np.float32]:
        """The features of several legal actions (one row each), written with one call."""
        obs: KKObservation = observation
        rows = len(action_ids)
        out = np.zeros((rows, FEATURE_SIZE), dtype=np.float32)
        ones: list[int] = []
        append = ones.append
        where: list[int] = []
        values: list[float] = []
        kinds = self._kinds
        windows = self._windows
        me = 0 if obs.seat is None else obs.seat
        own = obs.hand
        for row, aid in enumerate(action_ids):
            o = row * FEATURE_SIZE
            action = ACTIONS[aid]
            hand = list(own)
            if isinstance(action, Play):
                start, length = action.start, action.length
                append(o + F_KIND)
                append(o + F_START + start)
                append(o + F_LENGTH + length - 1)
                window = own[start:start + length]
                for c in window:
                    append(o + F_PLAYED + c - 1)
                if window == (STOPP,):
                    append(o + F_COMBO + 5)
                elif window == (NACHZIEH,):
                    append(o + F_COMBO + 6)
                else:
                    value = windows.get(window, {}).get(action.x_values)
                    if value is not None:
                        append(o + F_COMBO + value // 16)
                        append(o + F_HIGH + value % 16 - 1)
                del hand[start:start + length]
            elif isinstance(action, TakeReserve):
                card = obs.reserves[me][action.reserve]
                append(o + F_KIND + 1)
                append(o + F_CARD + card - 1)
                append(o + F_POSITION + action.position)
                append(o + F_RESERVE + action.reserve)
                hand.insert(action.position, card)
            elif isinstance(action, InsertDrawn):
                append(o + F_KIND + 2)
                append(o + F_POSITION + action.position)
                if obs.pending is not None:
                    append(o + F_CARD + obs.pending - 1)
                    hand.insert(action.position, obs.pending)
            else:
                append(o + F_KIND + 3)
            base = o + F_AFTER - 1
            for i, c in enumerate(hand):
                append(base + i * CARDS + c)
            size = len(hand)
            where.append(o + F_SIZE)
            values.append(size / MAX_HAND)
            groups = [0, 0, 0, 0, 0]
            for i in range(size - 1):
                kind = kinds.get((hand[i], hand[i + 1]))
                if kind is not None:
                    groups[_GROUP_INDEX.get(kind, 4)] += 1
                if i + 2 < size:
                    kind = kinds.get((hand[i], hand[i + 1], hand[i + 2]))
                    if kind is not None:
                        groups[_GROUP_INDEX.get(kind, 4)] += 1
            for k in range(4):
                if groups[k]:
                    where.append(o + F_GROUPS + k)
                    values.append(groups[k] / 5.0)
            if X in hand:
                append(o + F_GROUPS + 4)
        out.put(ones, 1.0)
        out.put(where, values)
        return out
