"""Casino as numbers: one seat's observation, captures and builds as token sequences.

Everything is read from :class:`~kartentisch.games.casino.observation.CasinoObservation`
alone. Seats are relative (block ``r`` is the seat ``r`` places after the viewer) and padded
to four, so every player count (2-4) has the same shape. Cards are 0-51 as in
:mod:`kartentisch.games.casino.cards`.

**Actions as tokens.** A capture may take any subset of the loose cards, so Casino's ids are
far too many for a mask. An action is chosen in steps instead, from the factors of
:func:`~kartentisch.games.casino.actions.action_factors` (card, code, loose cards):

1. the hand card (tokens 0-51);
2. what it does (tokens 52-94: ``52 + code``: trail, capture with or without the build of
   its value, build or call to a value with or without joining a standing build, raise);
3. the loose table cards it uses, one at a time in ascending order (tokens 95-146:
   ``95 + card``);
4. confirm (token 147), which ends every action.

The mask at each step allows exactly the tokens that continue some legal action; the
environment applies the game's own action once it is confirmed. Most actions take 3-5
tokens.

Observation vector (``float32``, :data:`OBS_SIZE` = 882):

=========  =====  ==================================================================
offset     size   content
=========  =====  ==================================================================
0          52     own hand
52         52     loose cards on the table
104        52     cards standing in builds
156        98     builds by value 1-14: present, multiple (a call), owner (4 seats)
                  as 7 values each
254        208    cards each seat captured this pack (4 seats x 52)
462        52     cards the viewer cannot locate (other hands and the pack)
514        20     per seat: present, hand size / 4, sweeps / 10, score / 21,
                  took the last capture
534        12     deck size / 52, pack / 10 (capped), dealer (4), players 2/3/4 (3),
                  to move is the viewer, the game is over, 1 spare
546        336    the tokens chosen so far in this decision: card (52), code (43),
                  loose cards (52), then 189 zero (room kept for later fields)
=========  =====  ==================================================================

Action features (:data:`FEATURE_SIZE` = 147): the card, the code and the loose cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from kartentisch.games.casino import actions as acts
from kartentisch.games.casino.cards import card_name
from kartentisch.rl.encodings.base import Encoding, Field, Vector, layout
from kartentisch.rl.fast import casino_bytes

SEATS: Final = 4
CODE_BASE: Final = 52
LOOSE_BASE: Final = CODE_BASE + acts.NUM_CODES
CONFIRM: Final = LOOSE_BASE + 52
assert (CODE_BASE, LOOSE_BASE, CONFIRM) == (casino_bytes.CODE_BASE, casino_bytes.LOOSE_BASE,
                                            casino_bytes.CONFIRM)
NUM_TOKENS: Final = CONFIRM + 1

HAND: Final = 0
LOOSE: Final = 52
IN_BUILDS: Final = 104
BUILDS: Final = 156
BUILD_STRIDE: Final = 7
CAPTURED: Final = BUILDS + 14 * BUILD_STRIDE
UNSEEN: Final = CAPTURED + SEATS * 52
SEAT_INFO: Final = UNSEEN + 52
SEAT_STRIDE: Final = 5
GLOBAL: Final = SEAT_INFO + SEATS * SEAT_STRIDE
PREFIX: Final = GLOBAL + 12
OBS_SIZE: Final = PREFIX + 336

FEATURE_SIZE: Final = NUM_TOKENS - 1

FIELDS: Final = layout(
    ("own_hand", (52,), "own hand, by card 0-51"),
    ("loose", (52,), "loose cards on the table"),
    ("in_builds", (52,), "cards standing in builds"),
    ("builds", (14, BUILD_STRIDE),
     "builds by value 1-14: present, multiple (a call), owner by relative seat (4), 1 spare"),
    ("captured", (SEATS, 52), "cards each relative seat captured this pack"),
    ("unseen", (52,), "cards the viewer cannot locate (other hands and the pack)"),
    ("seats", (SEATS, SEAT_STRIDE),
     "per relative seat: present, hand size / 4, sweeps / 10, score / 21, took the last"
     " capture"),
    ("deck", (1,), "cards left in the pack to deal / 52"),
    ("pack", (1,), "pack number / 10, capped at 1"),
    ("dealer", (SEATS,), "the dealer by relative seat, one-hot"),
    ("players", (3,), "player count 2, 3, 4, one-hot"),
    ("to_move", (1,), "the viewer is to move"),
    ("over", (1,), "the game is over"),
    ("spare", (1,), "zero"),
    ("chosen_card", (52,), "the tokens chosen so far in this decision: the hand card"),
    ("chosen_code", (acts.NUM_CODES,), "... what it does (the code)"),
    ("chosen_loose", (52,), "... the loose cards it uses"),
    ("chosen_spare", (OBS_SIZE - PREFIX - 52 - acts.NUM_CODES - 52,),
     "zero (room kept for later fields)"),
)
"""The observation vector's fields (:meth:`CasinoEncoding.fields`)."""
assert FIELDS["seats"].start == SEAT_INFO and FIELDS["deck"].start == GLOBAL
assert FIELDS["chosen_card"].start == PREFIX and FIELDS["chosen_spare"].stop == OBS_SIZE


_TOKENS: dict[int, tuple[int, ...]] = {}
"""Action id to its tokens (an id names the same action in every Casino game, so the
sequences are worked out once; the same few thousand ids come up all the time)."""
_TOKENS_CAP: Final = 200_000


class CasinoEncoding(Encoding):
    """The Casino encoding described in the module docstring."""

    tokens_need_observation = False

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.obs_size = OBS_SIZE
        self.num_tokens = NUM_TOKENS
        self.feature_size = FEATURE_SIZE
        self._players: int = game.players

    def fields(self) -> dict[str, Field]:
        return FIELDS

    def token_name(self, token: int) -> str:
        if token < CODE_BASE:
            return card_name(token)
        if token < LOOSE_BASE:
            return f"code{token - CODE_BASE}"
        if token < CONFIRM:
            return "+" + card_name(token - LOOSE_BASE)
        return "confirm"

    def tokens(self, observation: Any, action_id: int) -> tuple[int, ...]:
        found = _TOKENS.get(action_id)
        if found is None:
            # the factors (card, code, loose cards ascending) of acts.action_factors, read
            # off the id (kartentisch.rl.fast.casino_bytes.tokens) without making the action
            found = casino_bytes.tokens(self.game.check_action_id(action_id))
            if len(_TOKENS) < _TOKENS_CAP:
                _TOKENS[action_id] = found
        return found

    def entries(self, observation: Any, prefix: Sequence[int] = (), offset: int = 0
                ) -> tuple[list[int], list[int], list[float]]:
        obs = observation
        n = obs.players
        me = 0 if obs.seat is None else obs.seat
        o = offset
        located = [False] * 52
        ones: list[int] = []
        for c in obs.hand:
            ones.append(o + HAND + c)
            located[c] = True
        for c in obs.loose:
            ones.append(o + LOOSE + c)
            located[c] = True
        for b in obs.builds:
            for c in b.cards:
                ones.append(o + IN_BUILDS + c)
                located[c] = True
            base = o + BUILDS + (min(b.value, 14) - 1) * BUILD_STRIDE
            ones.append(base)
            if b.multiple:
                ones.append(base + 1)
            ones.append(base + 2 + (b.owner - me) % n)
        for s in range(n):
            base = o + CAPTURED + ((s - me) % n) * 52
            for c in obs.captured[s]:
                ones.append(base + c)
                located[c] = True
        ones += [o + UNSEEN + c for c in range(52) if not located[c]]
        where: list[int] = []
        values: list[float] = []
        for r in range(n):
            s = (me + r) % n
            base = o + SEAT_INFO + r * SEAT_STRIDE
            ones.append(base)
            where += [base + 1, base + 2, base + 3]
            # sweeps and scores may be kept per side (partnerships): seats past them read 0
            sweeps = obs.sweeps[s] if s < len(obs.sweeps) else 0
            score = obs.scores[s] if s < len(obs.scores) else 0
            values += [min(obs.hand_sizes[s] / 4.0, 1.0), min(sweeps / 10.0, 1.0),
                       min(max(score, 0) / 21.0, 1.0)]
            if obs.last_capturer == s:
                ones.append(base + 4)
        g = o + GLOBAL
        where += [g, g + 1]
        values += [obs.deck_size / 52.0, min(obs.pack / 10.0, 1.0)]
        if 0 <= obs.dealer < n:
            ones.append(g + 2 + (obs.dealer - me) % n)
        ones.append(g + 6 + n - 2)
        if obs.current_player == me and obs.seat is not None:
            ones.append(g + 9)
        if obs.phase == "over":
            ones.append(g + 10)
        for t in prefix:
            ones.append(o + PREFIX + t)  # card, code and loose tokens share one layout
        return ones, where, values

    def state_entries(self, state: Any, seat: int, prefix: Sequence[int] = (), offset: int = 0
                      ) -> tuple[list[int], list[int], list[float]]:
        """The fast path: :meth:`entries` of ``state.observation(seat)``, read from the
        state. What ``seat`` may know, and all this reads: its own hand, the other hands'
        sizes only, the table (loose cards, builds), the captured piles, the pack's size, and
        the public sweeps, scores, dealer and phase."""
        ones, where, values = self._base_entries(state, seat)
        if prefix:
            ones += self.prefix_cells(prefix)
        if offset:
            ones = [offset + i for i in ones]
            where = [offset + i for i in where]
        return ones, where, values

    def state_bytes(self, state: Any, seat: int) -> bytes:
        """The cheapest path to one vector without a prefix: ``encode_state(state,
        seat).tobytes()``, the same bytes, joined from precomputed float32 blocks
        (:mod:`kartentisch.rl.fast.casino_bytes`; it reads what :meth:`state_entries`
        reads)."""
        return casino_bytes.state_bytes(state, seat, self._players)

    def prefix_cells(self, prefix: Sequence[int]) -> list[int]:
        return [PREFIX + t for t in prefix]  # card, code and loose tokens share one layout

    def _base_entries(self, state: Any, seat: int) -> tuple[list[int], list[int], list[float]]:
        """:meth:`state_entries` without a prefix (the part a decision's tokens share)."""
        n = self._players
        me = seat
        located = [False] * 52
        ones: list[int] = []
        append = ones.append
        for c in state.hands[me]:
            append(HAND + c)
            located[c] = True
        for c in state.loose:
            append(LOOSE + c)
            located[c] = True
        for b in state.builds.values():
            for c in b.cards:
                append(IN_BUILDS + c)
                located[c] = True
            base = BUILDS + (min(b.value, 14) - 1) * BUILD_STRIDE
            append(base)
            if b.multiple:
                append(base + 1)
            append(base + 2 + (b.owner - me) % n)
        captured = state.captured
        for s in range(n):
            base = CAPTURED + ((s - me) % n) * 52
            for c in captured[s]:
                append(base + c)
                located[c] = True
        ones += [UNSEEN + c for c in range(52) if not located[c]]
        where: list[int] = []
        values: list[float] = []
        hands = state.hands
        sweeps_of = state.sweeps
        scores = state.scores
        last = state.last_capturer
        for r in range(n):
            s = (me + r) % n
            base = SEAT_INFO + r * SEAT_STRIDE
            append(base)
            where += [base + 1, base + 2, base + 3]
            sweeps = sweeps_of[s] if s < len(sweeps_of) else 0
            score = scores[s] if s < len(scores) else 0
            size = len(hands[s]) / 4.0
            swept = sweeps / 10.0
            points = max(score, 0) / 21.0
            values += [size if size <= 1.0 else 1.0, swept if swept <= 1.0 else 1.0,
                       points if points <= 1.0 else 1.0]
            if last == s:
                append(base + 4)
        g = GLOBAL
        where += [g, g + 1]
        pack = state.pack / 10.0
        values += [len(state.deck) / 52.0, pack if pack <= 1.0 else 1.0]
        dealer = state.dealer
        if 0 <= dealer < n:
            append(g + 2 + (dealer - me) % n)
        append(g + 6 + n - 2)
        if state.current_player == me:
            append(g + 9)
        if state.phase == "over":
            append(g + 10)
        return ones, where, values

    def action_features(self, observation: Any, action_id: int) -> Vector:
        out = np.zeros(FEATURE_SIZE, dtype=np.float32)
        out[list(self.tokens(observation, action_id)[:-1])] = 1.0
        return out

    def features(self, observation: Any, action_ids: Sequence[int]) -> npt.NDArray[np.float32]:
        out = np.zeros((len(action_ids), FEATURE_SIZE), dtype=np.float32)
        for row, aid in enumerate(action_ids):
            out[row, list(self.tokens(observation, aid)[:-1])] = 1.0
        return out
