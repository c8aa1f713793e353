"""The batch stepper's rows stepped in one call: the rules and the row loop compiled together.

:class:`Rows` keeps one game per row (its state, the legal ids of the seat to act and, for a
game whose actions take several tokens, the token sequences still open and the tokens chosen
so far) and :meth:`Rows.step` takes one token per row, applies the game actions that
complete, replaces finished games, and writes every row's observation vector, action mask
and seat to act straight into the stepper's numpy arrays (through memoryviews of their
bytes), so no Python object is made per row and step apart from what the rules make.

Why: the batch stepper's step used to go through a ``Table`` and a ``Decision`` per row,
then join the rows' bytes and set the masks with numpy; in Python that bookkeeping cost as
much as the rules themselves. With the compiled core (mypyc, one group with the rules and
the byte builders, see ``kartentisch._native.COMPILED_MODULES``) this loop calls the states'
methods and the byte builders of the three games natively; another game's vector comes from
its encoding's ``state_bytes``. In pure Python it is the same code with the same
results (tests compare it with the ``Table`` path move for move).

Plain code over typed lists, no closures, so that mypyc can compile it; the ``rl.fast``
package imports nothing, so the build depends only on these modules and the games' rules.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Final

from kartentisch.games.casino.state import CasinoState
from kartentisch.games.krass_kariert.state import PHASE_DRAW, PHASE_PLAY, KKState
from kartentisch.games.krass_kariert.tables import UNKNOWN
from kartentisch.games.krumme20.state import K20State
from kartentisch.rl.fast import casino_bytes, k20_bytes, kk_bytes

KRASS_KARIERT: Final = 0
"""Row kind: Krass Kariert (rules and byte builder called natively)."""
KRUMME20: Final = 1
"""Row kind: Krumme20 (rules and byte builder called natively)."""
CASINO: Final = 2
"""Row kind: Casino (rules and byte builder called natively, several tokens per action)."""
OTHER: Final = 3
"""Row kind: any other game (everything through the protocol)."""
KINDS: Final[dict[str, int]] = {"krass-kariert": KRASS_KARIERT, "krumme20": KRUMME20,
                                "casino": CASINO}
"""Row kind by game name: the games whose rules and byte builders this module calls natively
(the one place outside the games that knows them by name; see :func:`kind_of`)."""


def kind_of(game_name: str) -> int:
    """The row kind of the game named ``game_name`` (:data:`OTHER` for a game not built in)."""
    return KINDS.get(game_name, OTHER)

ONE: Final = struct.pack("=f", 1.0)
"""1.0 as float32 bytes (native order), a prefix cell of a multi-token decision."""
ONE_BYTES: Final[list[int]] = [b for b in range(4) if ONE[b]]
"""The positions of the nonzero bytes of :data:`ONE` (a zero cell becomes 1.0 by these)."""
SEATS: Final[list[bytearray]] = [bytearray(struct.pack("=q", seat)) for seat in range(-2, 16)]
"""[seat + 2]: the seat as int64 bytes (native order), from -2 (the game's ``TERMINAL``);
``bytearray`` because a ``bytearray`` slice assignment converts any other source first."""

Buffer = bytearray | memoryview
"""What :meth:`Rows.write` writes into: an array's bytes, as unsigned bytes."""

# Krass Kariert's action ids (kartentisch.games.krass_kariert.actions) as literals, so that
# the compiled mask writer uses C constants; checked against the actions module at import.
KK_RESERVE_BASE: Final = 4914
KK_RESERVE_STRIDE: Final = 19
KK_INSERT_BASE: Final = 4952
KK_CONCEDE_ID: Final = 4971
KK_ONES: Final[list[bytearray]] = [bytearray(b"\x01" * k) for k in range(20)]
"""[k]: k allowed tokens in a row (a reserve card's or the drawn card's positions; a
``bytearray``, which a ``bytearray`` slice takes without converting it first)."""
KK_RUNS: Final[list[list[slice]]] = [[slice(base, base + k) for k in range(20)]
                                     for base in (KK_RESERVE_BASE,
                                                  KK_RESERVE_BASE + KK_RESERVE_STRIDE,
                                                  KK_INSERT_BASE)]
"""[first reserve card, second, the drawn card][n + 1]: the ids of its n + 1 positions
(slice objects made once: no ints boxed per assignment)."""


def _check_kk_ids() -> None:
    from kartentisch.games.krass_kariert import actions

    assert (KK_RESERVE_BASE, KK_RESERVE_STRIDE, KK_INSERT_BASE, KK_CONCEDE_ID) == (
        actions.RESERVE_BASE, actions.RESERVE_STRIDE, actions.INSERT_BASE,
        actions.CONCEDE_ID), "Krass Kariert's action ids changed: update rows.py"
    assert len(KK_ONES) == actions.MAX_HAND + 2


_check_kk_ids()


def kk_mask(state: KKState, mask: bytearray) -> None:
    """Set the legal action ids of ``state``'s seat to act in ``mask`` (all zero on entry):
    the same ids as ``state.legal_action_ids()``, without making that tuple.

    Speed: walks the move table as ``KKState._legal_count`` does (a start's number of legal
    plays is one byte of the table's counts; only starts with plays read their ids), sets
    the plays' ids as the table's int objects (no int made per id), and a reserve card's
    (or the drawn card's) positions, a run of ids, by one slice. ``tests/rl/test_batch.py``
    holds it to ``legal_action_ids()`` at every position of random games for every option
    that changes what is legal.
    """
    phase = state.phase_code
    seat = state.to_act
    hand = state.hands[seat]
    n = len(hand)
    if phase != PHASE_PLAY:  # the drawn card may go anywhere, front (0) to back (n)
        if phase == PHASE_DRAW:
            mask[KK_RUNS[2][n + 1]] = KK_ONES[n + 1]
        return
    table = state.start_table
    counts = table.counts
    entries = table.entries
    follower = state.act_index != 0
    rank = state.best + 1 if follower else 0
    key = 0
    if n > 1:
        key = hand[0] << 4 | hand[1]
    elif n:
        key = hand[0] << 4
    total = 0
    for start in range(n):  # the generator's rolling key (see KKState._generate_play)
        key = key << 4 & 0xFFF
        if start + 2 < n:
            key |= hand[start + 2]
        c = counts[key][rank]
        if c == UNKNOWN:
            table.at(key)
            c = counts[key][rank]
        if c:
            at_key = entries[key]
            assert at_key is not None
            ids: tuple[object, ...] = at_key[start][1]
            for j in range(c):  # the strongest c plays here are the legal ones
                mask[ids[j]] = 1  # type: ignore[call-overload]
            total += c
    if follower:
        reserves = state.reserves[seat]
        if reserves:
            first = reserves[0]
            for r, card in enumerate(reserves):
                if not r or card != first:  # the same card twice: one distinct move
                    mask[KK_RUNS[r][n + 1]] = KK_ONES[n + 1]
        elif state.voluntary or not total:
            mask[KK_CONCEDE_ID] = 1


class Rows:
    """``num_rows`` games of one game, stepped token by token (see the module docstring).

    ``state_bytes(state, seat)`` is the encoding's vector of ``seat`` as float32 bytes
    (used for the kinds without a native builder); ``tokens_of(action_id)`` the token
    sequence of an action (multi-token games only); ``new_seed()`` draws the seed of the
    next game; ``seat_order`` and ``blocks`` are the native byte builders' arguments (the
    seats from each seat on, and the builder's fixed blocks for the game).
    """

    def __init__(self, game: object, kind: int, num_rows: int, obs_size: int,
                 num_tokens: int, players: int, single_token: bool, prefix_base: int,
                 state_bytes: Callable[[object, int], bytes],
                 tokens_of: Callable[[int], tuple[int, ...]], new_seed: Callable[[], int],
                 seat_order: list[list[int]], blocks: list[bytes]) -> None:
        self.game = game
        self.kind = kind
        self.num_rows = num_rows
        self.obs_bytes = 4 * obs_size
        self.num_tokens = num_tokens
        self.players = players
        self.single_token = single_token
        self.prefix_base = prefix_base
        self.state_bytes = state_bytes
        self.tokens_of = tokens_of
        self.new_seed = new_seed
        self.seat_order = seat_order
        self.blocks = blocks
        self.zero_mask = bytes(num_tokens)
        self.vectors = True
        """Whether :meth:`write` writes the vectors (the caller may write them all at once
        instead, single-token games only: Krass Kariert's numpy ``write_rows`` in pure
        Python)."""
        self.finished = 0
        """Games that ended in :meth:`step` (counted over the rows' lifetime)."""
        self.states: list[object] = [None] * num_rows
        self.legal: list[tuple[int, ...]] = [()] * num_rows
        """The legal ids of each row's seat to act, where :attr:`listed` (read them with
        :meth:`legal_ids`)."""
        self.listed: list[bool] = [False] * num_rows
        """Whether :attr:`legal` holds the row's legal ids (Krass Kariert lists them only
        when asked: its masks are written from the move table, see :func:`kk_mask`)."""
        self.sequences: list[list[tuple[int, ...]]] = [[] for _ in range(num_rows)]
        """Multi-token games: each row's legal ids' token sequences (aligned with ``legal``)."""
        self.live: list[list[int]] = [[] for _ in range(num_rows)]
        """Multi-token games: the sequences (by index) that continue the prefix."""
        self.cells: list[int] = [-1] * num_rows
        """Multi-token games: how many of the row's prefix cells :attr:`shown_obs` holds
        with the row's vector (-1: the vector is not written there for this decision)."""
        self.shown_obs: Buffer = bytearray()
        """The observations' bytes :meth:`write` wrote last."""
        self.prefix: list[list[int]] = [[] for _ in range(num_rows)]
        """Multi-token games: the tokens chosen so far in each row's decision."""
        self.base: list[bytes] = [b""] * num_rows
        """Multi-token games: each row's vector without its prefix (made once per decision)."""
        self.cache: dict[int, tuple[int, ...]] = {}
        """Multi-token games: action id to its tokens (ids mean the same in every game)."""
        self.scratch = bytearray(num_tokens)
        """Where :meth:`write` makes a row's mask (cleared, its allowed tokens set) before
        copying it into the masks whole: one buffer for every row, so it stays in the
        cache."""
        self.zero_row = bytearray(num_tokens)
        """A mask with nothing allowed (a ``bytearray``: copied without a conversion)."""
        self.shown: Buffer = bytearray()
        """The masks :meth:`write` wrote last (the rows' masks, ``num_tokens`` each)."""
        self.memos = [kk_bytes.Memo(True) for _ in range(num_rows)]
        """Krass Kariert: what each row's vectors made last (``kk_bytes.Memo``: a row's
        game only changes by ``apply``; a new game is another state)."""
        self.fresh: list[bool] = [False] * num_rows
        """Whether :attr:`shown` holds each row's current decision (written since the
        row's last new decision)."""
        self.obs_slices = [slice(row * self.obs_bytes, (row + 1) * self.obs_bytes)
                           for row in range(num_rows)]
        """[row]: the row's vector in the observations' bytes (slice objects made once: a
        slice made per assignment boxes both ends)."""
        self.mask_slices = [slice(row * num_tokens, (row + 1) * num_tokens)
                            for row in range(num_rows)]
        self.seat_slices = [slice(8 * row, 8 * row + 8) for row in range(num_rows)]
        self.whole_mask = slice(0, num_tokens)

    # ----------------------------------------------------------------- rows
    def new_game(self, row: int) -> None:
        """Start a new game in ``row`` with the next seed."""
        seed = self.new_seed()
        self.load(row, self.game.new_initial_state(seed))  # type: ignore[attr-defined]

    def load(self, row: int, state: object) -> None:
        """Put ``state`` (a game in progress, not over) into ``row``, with an empty prefix."""
        self.states[row] = state
        self._decide(row)

    def _decide(self, row: int) -> None:
        """The row's legal ids (and token sequences) for its seat to act (Krass Kariert:
        listed when asked, see :meth:`legal_ids`)."""
        state = self.states[row]
        kind = self.kind
        self.fresh[row] = False
        if kind == KRASS_KARIERT:
            self.listed[row] = False
            return
        legal: tuple[int, ...]
        if kind == KRUMME20:
            assert isinstance(state, K20State)
            legal = state.legal_action_ids()
        elif kind == CASINO:
            assert isinstance(state, CasinoState)
            legal = state.legal_action_ids()
        else:
            legal = state.legal_action_ids()  # type: ignore[attr-defined]
        self.legal[row] = legal
        self.listed[row] = True
        if not self.single_token:
            sequences: list[tuple[int, ...]]
            if kind == CASINO:  # decoded off the ids (cheaper than a cache, see there)
                sequences = casino_bytes.sequences(legal)
            else:
                cache = self.cache
                sequences = []
                for aid in legal:
                    tokens = cache.get(aid)
                    if tokens is None:
                        tokens = self.tokens_of(aid)
                        if len(cache) < 200_000:
                            cache[aid] = tokens
                    sequences.append(tokens)
            self.sequences[row] = sequences
            self.live[row] = list(range(len(sequences)))
            self.prefix[row] = []
            self.base[row] = b""
            self.cells[row] = -1

    def legal_ids(self, row: int) -> tuple[int, ...]:
        """The legal ids of the row's seat to act (listed on first use)."""
        if not self.listed[row]:
            state = self.states[row]
            assert isinstance(state, KKState)  # the only kind listed lazily
            self.legal[row] = state.legal_action_ids()
            self.listed[row] = True
        return self.legal[row]

    def seat(self, row: int) -> int:
        """The row's seat to act."""
        state = self.states[row]
        kind = self.kind
        if kind == KRASS_KARIERT:
            assert isinstance(state, KKState)
            return state.current_player
        if kind == KRUMME20:
            assert isinstance(state, K20State)
            return state.current_player
        if kind == CASINO:
            assert isinstance(state, CasinoState)
            return state.current_player
        seat: int = state.current_player  # type: ignore[attr-defined]
        return seat

    def allowed(self, row: int) -> list[int]:
        """The tokens that may come next in ``row`` (unordered)."""
        if self.single_token:
            return list(self.legal_ids(row))
        k = len(self.prefix[row])
        sequences = self.sequences[row]
        seen: set[int] = set()
        out: list[int] = []
        for j in self.live[row]:
            t = sequences[j][k]
            if t not in seen:
                seen.add(t)
                out.append(t)
        return out

    def choose(self, row: int, token: int) -> int:
        """Take ``token`` in ``row``: the game action id it completes, -1 when the decision
        goes on, -2 when the token may not come next (nothing changes then)."""
        if self.single_token:
            if self.fresh[row]:  # the masks written last hold its legal ids: one byte read
                n = self.num_tokens
                if token < 0 or token >= n:  # never another row's byte
                    return -2
                return token if self.shown[row * n + token] else -2
            return token if token in self.legal_ids(row) else -2
        prefix = self.prefix[row]
        k = len(prefix)
        sequences = self.sequences[row]
        following: list[int] = [j for j in self.live[row] if sequences[j][k] == token]
        if not following:
            return -2
        prefix.append(token)
        for j in following:
            if len(sequences[j]) == k + 1:  # a complete sequence is no other's prefix
                return self.legal[row][j]
        self.live[row] = following
        return -1

    def apply(self, row: int, aid: int) -> bool:
        """Apply the legal action ``aid`` in ``row``; True when the game ended (the caller
        reads the returns, then starts a new game)."""
        state = self.states[row]
        kind = self.kind
        if kind == KRASS_KARIERT:
            assert isinstance(state, KKState)
            state.apply_unchecked(aid)
            over = state.is_terminal()
        elif kind == KRUMME20:
            assert isinstance(state, K20State)
            state.apply_unchecked(aid)
            over = state.is_terminal()
        elif kind == CASINO:
            assert isinstance(state, CasinoState)
            state.apply_unchecked(aid)
            over = state.is_terminal()
        else:
            state.apply_unchecked(aid)  # type: ignore[attr-defined]
            over = bool(state.is_terminal())  # type: ignore[attr-defined]
        if not over:
            self._decide(row)
        return over

    def returns(self, row: int) -> list[float]:
        """The returns of the game in ``row`` (zeros until it ends)."""
        values: list[float] = self.states[row].returns()  # type: ignore[attr-defined]
        return [float(v) for v in values]

    def vector(self, row: int) -> bytes:
        """The row's seat to act: its vector as float32 bytes, without the prefix."""
        state = self.states[row]
        kind = self.kind
        if kind == KRASS_KARIERT:
            assert isinstance(state, KKState)
            seat = state.current_player
            return kk_bytes.state_bytes(state, seat, self.seat_order[seat], self.blocks,
                                        self.memos[row])
        if kind == KRUMME20:
            assert isinstance(state, K20State)
            seat = state.current_player
            return k20_bytes.state_bytes(state, seat, self.seat_order[seat], self.blocks)
        data = self.base[row]
        if not data:
            if kind == CASINO:
                assert isinstance(state, CasinoState)
                data = casino_bytes.state_bytes(state, state.current_player, self.players)
            else:
                data = self.state_bytes(state, self.seat(row))
            if not self.single_token:
                self.base[row] = data
        return data

    # ----------------------------------------------------------------- arrays
    def write(self, row: int, obs: Buffer, masks: Buffer, current: Buffer) -> None:
        """Row ``row``'s vector (with its prefix cells), mask and seat to act into the
        arrays' bytes (``obs``, ``masks``, ``current``: the arrays' bytes, unsigned).

        Speed (callgrind, compiled, 6 868 bytes): the vector (``bytes``) goes into a
        ``memoryview`` of the observations (1.4k instructions with a slice object made
        once; a ``bytearray`` target first copies a source that is not a ``bytearray``
        into a new one, 3.3k); the masks and seats come from ``bytearray`` blocks and go
        into ``bytearray`` targets (1.1k, no conversion). Every row's mask is made in one
        scratch ``bytearray`` (cleared by one copy, its allowed tokens set as objects: an
        item costs 174 instructions there against 262 in a ``memoryview``), then copied
        into the masks whole.
        """
        if self.single_token:
            if self.vectors:
                obs[self.obs_slices[row]] = self.vector(row)
        else:
            # A decision that goes on adds one token to a vector already written: only the
            # new prefix cells are written then (the vector is ~3.5k bytes, copied twice).
            if obs is not self.shown_obs:  # other arrays: no row's vector is in them yet
                self.shown_obs = obs
                self.cells = [-1] * self.num_rows
            prefix = self.prefix[row]
            done = self.cells[row]
            if done < 0:
                obs[self.obs_slices[row]] = self.vector(row)
                done = 0
            cells = row * self.obs_bytes + 4 * self.prefix_base
            for i in range(done, len(prefix)):  # a cell is zero until its token is chosen
                at = cells + 4 * prefix[i]
                for b in ONE_BYTES:  # by item: a slice into a memoryview costs ~1.4k
                    obs[at + b] = ONE[b]
            self.cells[row] = len(prefix)
        mask = self.scratch
        mask[self.whole_mask] = self.zero_row
        if self.kind == KRASS_KARIERT:
            state = self.states[row]
            assert isinstance(state, KKState)
            kk_mask(state, mask)
        elif self.single_token:
            items: Sequence[object] = self.legal[row]
            for item in items:  # as objects: set without unboxing and boxing each id again
                mask[item] = 1  # type: ignore[call-overload]
        else:
            casino_bytes.next_tokens(mask, self.sequences[row], self.live[row],
                                     len(self.prefix[row]))
        masks[self.mask_slices[row]] = mask
        if masks is not self.shown:  # other arrays: the rows' masks are in them only now
            self.shown = masks
            self.fresh = [False] * self.num_rows
        self.fresh[row] = True
        current[self.seat_slices[row]] = SEATS[self.seat(row) + 2]

    def out_of_range(self, tokens: list[int]) -> int:
        """The first index of ``tokens`` (ints) that is not a token, or -1 (the batch's
        check before stepping: cheaper here than numpy's min and max of a small array)."""
        n = self.num_tokens
        for i, t in enumerate(tokens):
            if t < 0 or t >= n:
                return i
        return -1

    def write_all(self, obs: Buffer, masks: Buffer, current: Buffer) -> None:
        """:meth:`write` for every row."""
        for row in range(self.num_rows):
            self.write(row, obs, masks, current)

    def reset(self, obs: Buffer, masks: Buffer, current: Buffer) -> None:
        """A new game in every row (seeds drawn in row order), written into the arrays."""
        for row in range(self.num_rows):
            self.new_game(row)
        self.write_all(obs, masks, current)

    def step(self, tokens: list[int], obs: Buffer, masks: Buffer, current: Buffer,
             rewards: memoryview[float], dones: memoryview) -> int:
        """One token per row (each already an int in range), in row order; a row whose game
        ends gets its returns in ``rewards`` (float32 items, ``players`` per row) and 1 in
        ``dones`` (bytes), and a new game. ``rewards`` and ``dones`` are zero on entry.

        Returns -1, or the first row whose token may not come next: that row and the rows
        after it are unchanged (the rows before it have stepped and are written).
        """
        players = self.players
        for row in range(self.num_rows):
            aid = self.choose(row, tokens[row])
            if aid == -2:
                return row
            if aid >= 0 and self.apply(row, aid):
                values = self.returns(row)
                for s in range(players):
                    rewards[row * players + s] = values[s]
                dones[row] = 1
                self.finished += 1
                self.new_game(row)
            self.write(row, obs, masks, current)
        return -1
