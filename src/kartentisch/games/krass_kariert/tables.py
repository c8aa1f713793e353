"""Precomputed move tables for Krass Kariert's legal-move generator.

Why tables: which plays start at a hand index depends only on that index and on the (up
to) three cards from there on. :func:`start_plays` works the plays of such three cards out
once, strongest first, so that the plays beating the round's best combination are a
*prefix* whose length is looked up, not computed. The tables fill lazily and are shared by
every state of every game (they depend only on the ``x_with_x`` option).

A three-card key is ``c0 << 8 | c1 << 4 | c2`` (cards are 1..15, 0 is "no card", so four bits
each): the generator shifts one new card in per hand index instead of slicing the hand.
"""

from __future__ import annotations

from typing import Final

from kartentisch.games.krass_kariert.actions import (
    ACTIONS,
    DECLARATION_INDEX,
    DECLARATIONS,
    MAX_HAND,
    PLAYS_PER_START,
    Action,
    Play,
    TakeReserve,
    play_id,
)
from kartentisch.games.krass_kariert.cards import NACHZIEH, NO_COMBINATION, WINDOW_TABLES
from kartentisch.games.krass_kariert.log import (
    PAYLOAD_SHIFT,
    POSITION_SHIFT,
    XS_SHIFT,
    pack4,
)

ALWAYS: Final = 1 << 10
"""Strength given to Stopp and Nachzieh in the tables: above every combination, so they are
playable whatever lies in the round."""

StartPlays = tuple[tuple[int, ...], tuple[int, ...], tuple[Action, ...], bytes,
                   tuple[int, ...]]
"""(beating counts, the play ids strongest first, the shared action objects of those ids,
ranks, strengths).
``beating[best + 1]`` is how many of the plays beat a combination of strength ``best``
(``NO_COMBINATION`` included), so the legal ones are a prefix of length beating[best + 1].
Index 1 and 2 hold the same plays as ids and as actions, so one generator makes either
(see ``KKState._generate_play``). ``ranks[aid - start * PLAYS_PER_START]`` is 1 + the
place of play ``aid`` in that order, 0 for a play that does not start here (one lookup
decides a single id, see ``KKState.is_legal_id``); ``strengths`` are the plays' strengths
in the same order (Stopp and Nachzieh: :data:`ALWAYS`)."""

STRENGTHS: Final = range(NO_COMBINATION, 5 * 16)
"""Every strength a round's best combination can have (see :func:`cards.strength`)."""

ALL_IDS: Final = tuple(range(len(ACTIONS)))
"""Every action id, sliced like ``ACTIONS`` so one generator makes ids or actions."""

def _act_word(aid: int) -> int:
    action = ACTIONS[aid]
    word = aid << PAYLOAD_SHIFT
    if isinstance(action, Play):
        word |= action.start << POSITION_SHIFT | pack4(action.x_values) << XS_SHIFT
    elif isinstance(action, TakeReserve):
        word |= action.position << POSITION_SHIFT
    return word


ACT_WORDS: Final = tuple(_act_word(i) for i in range(len(ACTIONS)))
"""Per action id, the bits of its log word that the id fixes (see :mod:`.events`): the id,
a play's first position and declared X values, a reserve card's target position."""

ROUND_ORDER: Final = {
    n: tuple(tuple((leader + i) % n for i in range(n)) for leader in range(n)) for n in (3, 4, 5)
}
"""Per player count and leader, the seats in playing order from the leader."""

PAD: Final = [0, 0]
"""Appended to a hand so that the last starts see "no card" (0) after them."""


_N_DECLARATIONS: Final = len(DECLARATIONS)
_DECLARATION_INDEX: Final = DECLARATION_INDEX
_SINGLE_ID: Final = play_id(0, 1)
"""The id of a single card played at start 0 (Stopp and Nachzieh are played alone)."""


def start_plays(key: int, x_with_x: bool) -> tuple[StartPlays, ...]:
    """The plays of the cards ``key = c0 << 8 | c1 << 4 | c2`` at each start index.

    ``c0..c2`` are the card at the start index and the two after it (0 past the hand's end).
    :class:`StartTable` stores the result (at most 16**3 keys per option value).

    Speed: a process fills about 3,600 keys in its first hundred games, so this is written
    to be cheap too (ids by arithmetic instead of ``play_id``, the beating counts in one
    pass instead of a binary search per strength, lists instead of generators).
    """
    cards = [c for c in (key >> 8, (key >> 4) & 15, key & 15) if c]
    entries: list[tuple[int, int]] = []
    if cards[0] >= NACHZIEH:  # Stopp and Nachzieh: always alone, always playable
        entries.append((-ALWAYS, _SINGLE_ID))
    windows = WINDOW_TABLES[x_with_x]
    for length in (1, 2, 3):
        window = tuple(cards[:length])
        if len(window) < length or window[-1] >= NACHZIEH:
            break  # a special card separates the cards beside it
        base = (length - 1) * _N_DECLARATIONS  # play_id(0, length, declared) by arithmetic
        for declared, value in windows[window].items():
            entries.append((-value, base + _DECLARATION_INDEX[declared]))
    entries.sort()  # strongest first; ties by id
    values = [-e[0] for e in entries]  # decreasing
    first_ids = [e[1] for e in entries]
    # beating[best + 1]: how many plays are stronger than ``best``, a prefix of ``values``
    # (the same numbers as bisecting the negated values for each strength).
    counts: list[int] = []
    stronger = len(values)
    for best in STRENGTHS:  # increasing: the count only shrinks
        while stronger and values[stronger - 1] <= best:
            stronger -= 1
        counts.append(stronger)
    beating = tuple(counts)
    ranks = bytearray(PLAYS_PER_START)
    for rank, aid in enumerate(first_ids):
        ranks[aid] = rank + 1
    frozen = bytes(ranks)
    strengths = tuple(values)
    actions = ACTIONS
    plays: list[StartPlays] = []
    for start in range(MAX_HAND):
        # A play's id is its id at start 0 shifted by whole blocks of PLAYS_PER_START.
        offset = start * PLAYS_PER_START
        ids = [offset + aid for aid in first_ids]
        plays.append((beating, tuple(ids), tuple([actions[aid] for aid in ids]), frozen,
                      strengths))
    return tuple(plays)


RANKS: Final = len(STRENGTHS)
"""Beating counts per key in :attr:`StartTable.counts`: one per strength ``best`` (index
``best + 1``)."""
UNKNOWN: Final = 255
"""A count not filled in yet (a start has at most 39 plays)."""
_UNKNOWN_ROW: Final = bytes([UNKNOWN]) * RANKS


class StartTable:
    """For three cards (a key, see :func:`start_plays`), the plays at each start index.

    Speed: a list indexed by the key (4096 entries, filled on first use), so the
    generator's hot loop indexes a list instead of hashing an int into a dict.
    """

    __slots__ = ("counts", "entries", "x_with_x")

    def __init__(self, x_with_x: bool) -> None:
        self.x_with_x = x_with_x
        self.entries: list[tuple[StartPlays, ...] | None] = [None] * 4096
        self.counts: list[bytes] = [_UNKNOWN_ROW] * 4096
        """``counts[key][best + 1]``: how many plays of the key's cards beat ``best`` at any
        start (the beating counts of :func:`start_plays`, the same at every start), all
        :data:`UNKNOWN` until the key's entry is made. Speed: one byte read tells how many
        legal plays a start has, without the entry's tuples (see ``KKState._legal_count``);
        compiled, indexing ``bytes`` is a C primitive with no int object made."""

    def at(self, key: int) -> tuple[StartPlays, ...]:
        """The plays of the three cards ``key`` at every start index."""
        plays = self.entries[key]
        if plays is None:
            plays = self.entries[key] = start_plays(key, self.x_with_x)
            self.counts[key] = bytes(plays[0][0])
        return plays


START_TABLES: Final[dict[bool, StartTable]] = {False: StartTable(False), True: StartTable(True)}
"""Per ``x_with_x``: the shared table of :func:`start_plays` results."""


def key_at(hand: list[int], start: int) -> int:
    """The key of the (up to) three cards of ``hand`` from index ``start`` on."""
    n = len(hand)
    key = hand[start] << 8
    if start + 1 < n:
        key |= hand[start + 1] << 4
        if start + 2 < n:
            key |= hand[start + 2]
    return key


def entry_at(table: StartTable, hand: list[int], start: int) -> StartPlays:
    """The table's entry for the plays from ``hand[start]`` (which must exist)."""
    return table.at(key_at(hand, start))[start]


def _per_id(field: str, default: int) -> tuple[int, ...]:
    return tuple(getattr(a, field, default) for a in ACTIONS)


PLAY_START: Final = _per_id("start", -1)
"""Per action id, a play's first hand index (-1 for other actions)."""
PLAY_LENGTH: Final = _per_id("length", 0)
"""Per action id, a play's number of cards (0 for other actions)."""
PLAY_XS: Final = tuple(a.x_values if isinstance(a, Play) else () for a in ACTIONS)
"""Per action id, a play's declared X values (() for other actions)."""
TARGET_OF: Final = _per_id("position", -1)
"""Per action id, where a reserve card or a drawn card goes (-1 for plays and the
concession)."""
