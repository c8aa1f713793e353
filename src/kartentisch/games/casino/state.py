"""Casino's rules as state transitions: pure, deterministic, no I/O.

Terms: a *pack* is one pass through the 52 cards (the first *deal* of a pack puts four
cards on the *table*; later deals give each player four more). Table items are *loose*
cards and *builds*. A build is one unit taken only whole and only by its value; it is
*single* when its cards add up to exactly its value, otherwise *multiple* (a "call":
several groups of the same value). Which builds a card may *raise* to a higher value is
option ``raising`` (single builds only by default). Whoever last made or
changed a build *owns* it. Points are scored per *side*: a seat, or a partnership of two.

The state keeps the transitions; the legal moves come from :mod:`.movegen`, the
explanations of refused moves from :mod:`.explain`, the points of a pack from
:mod:`.scoring`.

Written twice on purpose: :func:`deal_order` is ``core.rng.shuffled(DECK, seed, "casino",
pack)`` computed in half the instructions (see its docstring); ``tests/casino/test_fast_paths.py``
(``test_deal_order_is_the_general_shuffle``) holds the two together, ties included.

Size (over 600 lines, kept whole): the transitions call each other and read the state's fields
on every move; as methods of one compiled class those are direct C calls and field reads.
What could leave has left (the move generator, the log, the position, the explanations, the
scoring, the rules of a trail in :mod:`.table`).
"""

from __future__ import annotations

import bisect
import hashlib
import sys
from array import array
from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from kartentisch.core.errors import IllegalActionError
from kartentisch.core.protocol import TERMINAL, Event, Seat, State
from kartentisch.core.rng import shuffled
from kartentisch.core.words import native, portable
from kartentisch.games.casino import actions, cards, table
from kartentisch.games.casino.actions import (
    CODE_BUILD,
    CODE_BUILD_MERGE,
    CODE_CAPTURE,
    CODE_CAPTURE_BUILD,
    CODE_RAISE,
    CODE_RAISE_MERGE,
    CODE_TRAIL,
    NUM_CODES,
    Action,
    action_id,
    compress,
)
from kartentisch.games.casino.cards import card_names
from kartentisch.games.casino.combinatorics import Sums, sums_of
from kartentisch.games.casino.explain import why_illegal
from kartentisch.games.casino.log import (
    BUILD,
    CAPTURE,
    DEAL,
    EXTRA_SHIFT,
    FLAG,
    GAME_OVER,
    PACK_END,
    PACK_START,
    TABLE,
    TABLE_TAKEN,
    TRAIL,
    action_ids,
    decode,
    mask_of,
    new_log,
    pack_scores,
    plays_from,
)
from kartentisch.games.casino.movegen import (
    legal_ids,
    recent_action,
    segment_of,
    sets_for,
)
from kartentisch.games.casino.scoring import (
    SCORE_ITEMS,
    TARGET,
    count_out_order,
    score_pack,
    score_two,
)
from kartentisch.games.casino.table import (
    RAISE_LEVELS,
    BuildUnit,
    PlayRecord,
    describe_table,
    trail_banned,
)

if TYPE_CHECKING:
    from kartentisch.games.casino.game import Casino
    from kartentisch.games.casino.observation import CasinoObservation

__all__ = ["OVER", "PLAY", "SCORE_ITEMS", "TARGET", "BuildUnit", "CasinoState", "PlayRecord",
           "deal_order"]

PLAY: Final = "play"
OVER: Final = "over"
_BIG_ENDIAN: Final = sys.byteorder == "big"
_HALF_WORDS: Final = array("I").itemsize == 4
"""Whether ``array("I")`` reads 32-bit halves of the 64-bit words (C ``unsigned int``)."""

# Compiled with mypyc, a name imported from a module outside the compiled group is looked
# up in this module's globals dict at every use (~100 instructions); a module-level Final
# is a C static. So what the transitions read per play is bound here once (see movegen).
VALUES: Final[tuple[int, ...]] = cards.VALUES
DECK: Final[tuple[int, ...]] = cards.DECK
SEG_ROWS: Final[tuple[tuple[int, int, int, int], ...]] = actions.SEG_ROWS
GET_AID: Final = actions.GET_AID
OFFERS_GET: Final = actions.OFFERS.__getitem__
Capture: Final = actions.Capture
Trail: Final = actions.Trail
BuildUnitDraft: Final = table.BuildUnitDraft
_BUILD_UNIT: Final = BuildUnit
_BISECT_LEFT: Final = bisect.bisect_left
_TRAIL_CARD: Final[dict[int, int]] = {
    actions.ID_BASE[c * NUM_CODES + CODE_TRAIL]: c for c in range(52)}
"""The card of each trail's id (a trail is decoded by one lookup)."""
SEG_STARTS: Final[tuple[int, ...]] = actions.SEG_STARTS
_DECODE: Final[tuple[tuple[int, int, int, int, int], ...]] = ((0, 0, 0, 0, 0), *(
    (base, card, code, shift, -(1 << card) if card >= 0 else 0)
    for base, card, code, shift in SEG_ROWS))
"""``_DECODE[k + 1]``: segment ``k``'s row of :data:`~.actions.SEG_ROWS` and ``-(1 << card)``
(one entry ahead: ``_DECODE[segment_of(aid) + 1]``). With ``packed =
(aid - base) << shift``, the loose cards used are ``packed + (packed & high)``: the bits at
and above the card's move up by one, which puts back the card's squeezed-out bit."""
_CARDS_OF: Final[dict[int, tuple[int, ...]]] = {
    0: (),
    **{1 << a: (a,) for a in range(52)},
    **{1 << a | 1 << b: (a, b) for b in range(52) for a in range(b)}}
"""The cards of every mask of one or two cards, ascending (94% of the captures and builds
that use loose cards use one or two; see :func:`_cards_of_many` for the rest)."""


def _cards_of_many(mask: int) -> tuple[int, ...]:
    """The cards of a mask of three or more cards (one not in :data:`_CARDS_OF`), ascending:
    the lowest cards one by one, then the last two from :data:`_CARDS_OF`."""
    low = mask & -mask
    mask ^= low
    head: tuple[int, ...] = (low.bit_length() - 1,)
    while mask not in _CARDS_OF:  # four or more
        low = mask & -mask
        head += (low.bit_length() - 1,)
        mask ^= low
    return head + _CARDS_OF[mask]


def _quick_rows() -> dict[int, tuple[int, int, int, tuple[int, ...], tuple[int, ...]]]:
    """:data:`_QUICK`: every capture id (of a build or not) using at most one loose card,
    and, for numerals, the captures of two loose cards and the builds (made or joined) with
    one loose card whose values can add up."""
    ids: list[int] = []
    for k, (base, _card, code, _shift) in enumerate(SEG_ROWS):
        if CODE_TRAIL < code <= CODE_CAPTURE_BUILD:
            bits = (SEG_STARTS[k + 1] - base - 1).bit_length()  # the cards the segment allows
            ids.extend(base + packed for packed in (0, *(1 << b for b in range(bits)))
                       if base + packed >= SEG_STARTS[k])  # a segment may leave out the empty set
    numerals = [c for c in DECK if VALUES[c]]
    for card in numerals:
        own = VALUES[card]
        for c in numerals:
            if c == card:
                continue
            for v in {own + VALUES[c], own if VALUES[c] == own else 0} - {0}:
                if v <= 10:
                    for code in (CODE_BUILD + v - 1, CODE_BUILD_MERGE + v - 1):
                        ids.append(actions.ID_BASE[card * NUM_CODES + code]
                                   + compress(1 << c, card))
            for d in numerals:
                if c < d != card and (VALUES[c] + VALUES[d] == own
                                      or VALUES[c] == VALUES[d] == own):
                    ids.append(actions.ID_BASE[card * NUM_CODES + CODE_CAPTURE]
                               + compress(1 << c | 1 << d, card))
    out = {}
    for aid in ids:
        base, card, code, shift, high = _DECODE[segment_of(aid) + 1]
        packed = (aid - base) << shift
        used = packed + (packed & high)
        out[aid] = (card, code, used, _CARDS_OF[used], (card, *_CARDS_OF[used]))
    return out


_QUICK: Final[dict[int, tuple[int, int, int, tuple[int, ...], tuple[int, ...]]]] = _quick_rows()
"""The commonest plays after trails, decoded once (4,916 ids): id -> (card, code, loose
cards used as a mask and as a tuple, and the card followed by them: what a capture's pile
gets). In random two-player play 83% of the plays that are not trails are among them (one-
card captures and captures of a build alone 60%, two-card captures and one-card builds
most of the rest); a hit spares the bisection and the mask arithmetic."""

_ONE_MORE: Final = 1 << EXTRA_SHIFT
"""A play's header with one card mask after it."""
_MAX_PLAYERS: Final = 7
"""Seats that fit a log word's seat field (three bits, 0 for nobody)."""
_TRAIL_SEAT: Final[tuple[int, ...]] = tuple(TRAIL | (s + 1) << 4 for s in range(_MAX_PLAYERS))
"""A play's header without its payload, by seat (see :mod:`.log`)."""
_CAPTURE_SEAT: Final[tuple[int, ...]] = tuple(
    CAPTURE | (s + 1) << 4 for s in range(_MAX_PLAYERS))
_BUILD_SEAT: Final[tuple[int, ...]] = tuple(BUILD | (s + 1) << 4 for s in range(_MAX_PLAYERS))
_BUILD_CODE: Final[tuple[tuple[int, int, bool], ...]] = tuple(
    (c - CODE_BUILD + 1, 0, False) if CODE_BUILD <= c < CODE_BUILD_MERGE
    else (c - CODE_BUILD_MERGE + 1, 0, True) if CODE_BUILD_MERGE <= c < CODE_RAISE
    else (c - CODE_RAISE + 1, c - CODE_RAISE + 1, False) if CODE_RAISE <= c < CODE_RAISE_MERGE
    else (c - CODE_RAISE_MERGE + 1, c - CODE_RAISE_MERGE + 1, True) if c >= CODE_RAISE_MERGE
    else (0, 0, False) for c in range(NUM_CODES))
"""A build's code -> (value, raised, merged), where a raise's value is still to be added
the card's value (``raised`` is the value of the build raised; see :mod:`.actions`' codes)."""
_NEXT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((s + 1) % n for s in range(n)) for n in range(_MAX_PLAYERS + 1))
"""``_NEXT[n][seat]``: the seat after ``seat`` among ``n`` players."""


def _pick(*cards_from_end: int) -> Callable[[list[int]], tuple[int, ...]]:
    """What takes the cards at these places from the pack's end (1 is the last card)."""
    return itemgetter(*(-k for k in cards_from_end))


def _deal_plans(n: int, dealer: int) -> tuple[tuple[int, Callable[[list[int]], tuple[int, ...]],
                                                    int], ...]:
    """A later deal's seats from left of the dealer: each with what picks its four cards
    (two in each of two rounds) and its log header without the cards left."""
    out = []
    for i in range(n):
        seat = (dealer + 1 + i) % n
        out.append((seat, _pick(2 * i + 1, 2 * i + 2, 2 * n + 2 * i + 1, 2 * n + 2 * i + 2),
                    DEAL | (seat + 1) << 4))
    return tuple(out)


_DEALS: Final = tuple(tuple(_deal_plans(n, d) for d in range(n))
                      for n in range(_MAX_PLAYERS + 1))
"""``_DEALS[players][dealer]``: how :meth:`CasinoState._deal_hands` deals."""


def _start_plans(n: int, dealer: int) -> tuple[Callable[[list[int]], tuple[int, ...]],
                                               tuple[Callable[[list[int]], tuple[int, ...]], ...],
                                               tuple[tuple[int, int], ...]]:
    """A pack's first deal: two cards at a time to each non-dealer from left of the dealer,
    then to the table, then to the dealer, twice. The table's pick, each seat's pick (by
    seat), and the seats in the log's order with their header words."""
    order = [(dealer + 1 + i) % n for i in range(n - 1)]
    slot = {seat: j for j, seat in enumerate(order)}
    slot[dealer] = n  # the table's slot is n - 1
    step = 2 * (n + 1)

    def pick(j: int) -> Callable[[list[int]], tuple[int, ...]]:
        return _pick(2 * j + 1, 2 * j + 2, step + 2 * j + 1, step + 2 * j + 2)

    left = len(DECK) - 4 * (n + 1)  # the cards left after the first deal
    return (pick(n - 1), tuple(pick(slot[s]) for s in range(n)),
            tuple((s, DEAL | (s + 1) << 4 | left << 7) for s in [*order, dealer]))


_STARTS: Final = tuple(tuple(_start_plans(n, d) for d in range(n))
                       for n in range(_MAX_PLAYERS + 1))
"""``_STARTS[players][dealer]``: how :meth:`CasinoState._start_pack` deals."""


def deal_order(seed: int, pack: int) -> list[int]:
    """The shuffled pack ``pack`` of the game with ``seed``; cards are dealt from the end.

    This is ``shuffled(DECK, seed, "casino", pack)`` (:func:`~kartentisch.core.rng.shuffled`:
    the cards sorted by one 64-bit word each), computed in half the instructions (a pack
    is shuffled every 24 plays of two players; the general shuffle cost ~4% of a play):
    the cards are sorted by the top 16 bits of their words, small ints that Python
    compares fast; when two cards share them (about one pack in fifty), by the top 32
    bits, and only when two share those too (about one in ten million) is the general
    shuffle asked. A card is its index in ``DECK``. Tests compare the two on many seeds,
    ties included.
    """
    if _BIG_ENDIAN:
        return shuffled(DECK, seed, "casino", pack)
    digest = hashlib.shake_128(f"{seed}/casino/{pack}".encode()).digest(8 * 52)
    top = array("H", digest)[3::4].tolist()  # each little-endian word's top 16 bits
    if len(set(top)) < 52:
        if not _HALF_WORDS:
            return shuffled(DECK, seed, "casino", pack)
        top = array("I", digest)[1::2].tolist()  # the top 32 bits
        if len(set(top)) < 52:
            return shuffled(DECK, seed, "casino", pack)
    return sorted(DECK, key=top.__getitem__)


class CasinoState(State[Action, "CasinoObservation"]):
    """A Casino game in progress."""

    __slots__ = (
        "_build_free", "_capture_all", "_current", "_events", "_events_at", "_every_turn",
        "_given",
        "_given_at", "_history", "_history_at", "_keeps", "_legal", "_lmask", "_loose",
        "_next", "_offered", "_plays", "_plays_at", "_raise_level", "_reach", "_sweeps",
        "_trail_capturer",
        "builds", "captured", "dealer", "deck", "game", "hands", "last_capturer", "last_turn",
        "log_words", "pack", "pack_results", "phase", "scores", "seed", "sweeps", "turn",
        "winners",
    )

    game: Casino

    def __init__(self, game: Casino, seed: int, *, deal_now: bool = True):
        self.game = game
        self.seed = seed
        self._next = _NEXT[game.players]
        """The seat after each seat (fixed by the number of players)."""
        self.log_words = new_log()
        """What happened, compactly (see :mod:`.log`): the history and the events."""
        self._events: list[Event] = []
        """The events decoded so far (from the log's start to word ``_events_at``)."""
        self._events_at = 0
        self._history: list[Action] = []
        """The actions decoded so far (from the log's start to word ``_history_at``)."""
        self._history_at = 0
        self._given: list[int] = []
        """The ids of a history set from outside (:attr:`history`'s setter), which stands
        for the log up to word ``_given_at``."""
        self._given_at = 0
        n = game.players
        self.pack = 0
        """Packs started before this one."""
        self.dealer = 0
        self.deck: list[int] = []
        """The rest of the pack; the next card dealt is the last."""
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self._loose: list[int] | None = []
        """The loose cards, ascending, or None when the plays changed them since they were
        last listed (:attr:`loose` lists them again from ``_lmask``)."""
        self._lmask = 0
        """The loose cards as a mask (bit ``c`` for card ``c``): what the rules keep up to
        date at each play, and what the move generator reads."""
        self._reach = 1
        """Bit k: some loose numerals add up to k (see :func:`~.movegen.reachable`); kept
        up to date on a trail, -1 when the loose cards lost some (computed on demand)."""
        self.builds: dict[int, BuildUnit] = {}
        """Builds on the table by value (never two of one value)."""
        self.captured: list[list[int]] = [[] for _ in range(n)]
        """Cards each seat captured this pack, in the order taken."""
        self.sweeps: list[int] = [0] * n
        self.last_capturer = -1
        self.turn = 0
        self.last_turn: list[int] = [-1] * n
        """The turn of each seat's latest play (for the trail ban)."""
        self._plays: list[PlayRecord] = []
        """The pack's log entries decoded so far (to word ``_plays_at``, see :attr:`plays`)."""
        self._plays_at = 0
        self.scores: list[int] = [0] * game.sides
        self.pack_results: list[dict[str, list[int]]] = []
        """Per finished pack: points per side for each scoring item and ``total``."""
        self.phase = PLAY
        self.winners: list[int] = []
        """Winning sides, once the game is over."""
        self._current = 0
        self._legal: tuple[int, ...] | None = None
        """The legal ids, ascending (computed on demand; a tuple, so it is safe to share)."""
        self._offered: tuple[Action, ...] | None = None
        """The action objects :meth:`legal_actions` handed out for this position, in the
        order of ``_legal`` (:meth:`apply` finds an offered action by identity first)."""
        options = game.options
        self._trail_capturer = bool(options.trail_when_capture_possible)
        """The options the rules read at every play, copied once: reading them through
        the game costs two attribute lookups on plain Python objects each time (and
        more when compiled, where the state's own fields are plain C fields)."""
        self._capture_all = bool(options.face_cards_capture_all)
        self._sweeps = bool(options.sweeps)
        self._keeps = bool(options.owner_keeps_capture_card)
        self._every_turn = options.trail_ban == "while_build_stands"
        self._raise_level = RAISE_LEVELS[options.raising]
        self._build_free = bool(options.build_without_capture)
        if deal_now:
            self._start_pack()

    # ----------------------------------------------------------------- protocol
    @property
    def current_player(self) -> Seat:
        return TERMINAL if self.phase == OVER else self._current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != OVER:
            return [0.0] * n
        side = self.game.side_of
        won = [s for s in range(n) if side(s) in self.winners]
        share = (n - len(won)) / len(won)
        return [share if s in won else -1.0 for s in range(n)]

    def legal_action_ids(self) -> tuple[int, ...]:
        """The legal actions' integer ids, ascending (the fast path for search and RL)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_ids(self)
        return legal

    def legal_actions(self) -> list[Action]:
        """Every distinct legal action, in ascending id order (immutable objects, equal by
        value to any other object of the same action).

        Speed and memory: asked again, the position hands out the same objects. Moves with
        at most one loose card and most with two are shared objects, every other move is
        made for this position (see :func:`~.movegen.make_actions`); each carries its id,
        by which :meth:`apply` knows it.
        """
        offered = self._offered
        if offered is None:
            legal = self._legal
            if legal is None:
                legal = self._legal = legal_ids(self)
            # make_actions, inlined (one call less per position)
            offered = self._offered = tuple(map(OFFERS_GET, legal))
        return list(offered)

    def is_legal_id(self, aid: int) -> bool:
        legal = self._legal
        if legal is None:
            if not self.builds and self.phase != OVER:
                quick = self._open_table_legal(aid)
                if quick is not None:
                    return quick
            legal = self._legal = legal_ids(self)
        i = _BISECT_LEFT(legal, aid)  # the ids are sorted
        return i < len(legal) and legal[i] == aid

    def apply(self, action: Action, *, seat: Any = None) -> None:
        """Play ``action`` for the current player; raises like :meth:`State.apply
        <kartentisch.core.protocol.State.apply>`, whose contract this keeps.

        Speed: the objects that :meth:`legal_actions` offers and that a parser hands out
        (:func:`~.movegen.action_of`) carry their id (:data:`~.actions.GET_AID`), so such an
        action is checked by looking its id up among the legal ids, without computing it.
        Any other object, or a ``seat`` to check, goes the general way. ``seat`` is typed
        ``Any`` because anything may be passed and must get the base's error: compiled
        with mypyc, a narrower annotation would raise ``TypeError`` first.
        """
        if seat is None:
            offered = self._offered
            if offered is not None:  # an offered object, known by identity (the cheapest)
                for k in range(len(offered)):
                    if offered[k] is action:
                        legal = self._legal
                        assert legal is not None  # set together with _offered
                        self._apply(legal[k])
                        return
            try:
                aid = GET_AID(action)
            except (AttributeError, TypeError):  # made otherwise, or no action at all
                aid = -1
            legal = self._legal
            if legal is not None:
                if aid in legal:
                    self._apply(aid)
                    return
            elif aid >= 0 and self.phase != OVER and self.is_legal_id(aid):
                self._apply(aid)
                return
        # Anything else, illegal actions and a finished game included, for their errors.
        State.apply(self, action, seat=seat)

    def _open_table_legal(self, aid: int) -> bool | None:
        """Whether ``aid`` is legal, decided without listing every move, for the common
        moves on a table without builds (no owner's duty, no trail ban); None when the full
        list must decide. Record replay checks one move per position, never lists them.

        Agrees with :func:`~.movegen.legal_ids` (tests compare them on every id of random
        positions): a trail is legal there whenever trailing a capturing card is allowed
        (:func:`~.table.trail_refusal` on a table without builds: no build, no trail ban
        and no owner's duty), a numeral's capture when its cards are one of the sets
        :func:`~.movegen.sets_for` lists.
        """
        action = recent_action(aid)
        card = action.card
        if card not in self.hands[self._current]:
            return False
        if type(action) is Trail:
            return True if self._trail_capturer else None
        if type(action) is Capture and not action.build and VALUES[card]:
            mask = 0
            for c in action.loose:
                mask |= 1 << c
            return mask in sets_for(self._lmask, VALUES[card])
        return None

    def apply_unchecked(self, aid: int) -> None:
        self._apply(aid)

    def why_illegal(self, action: Action) -> IllegalActionError:
        return why_illegal(self, action)

    @property
    def events(self) -> list[Event]:
        """Everything that happened so far, oldest first (see :mod:`.log` for the kinds).

        Speed: the rules log compactly; this list is decoded on first use and extended on
        later calls, so play that never reads events does not pay for them.
        """
        made = self._events
        log = self.log_words
        at = self._events_at
        if at < len(log):
            results, sides = self.pack_results, self.game.sides
            while at < len(log):
                event, at = decode(log, at, results, sides)
                made.append(event)
            self._events_at = at
        return made

    @events.setter
    def events(self, value: list[Event]) -> None:
        # The given events stand for everything logged so far; later happenings follow.
        self._events = list(value)
        self._events_at = len(self.log_words)

    @property
    def history(self) -> list[Action]:
        """The actions played so far, oldest first (immutable objects).

        Decoded from the log on first use and extended on later calls.
        """
        made = self._history
        if self._history_at < len(self.log_words):
            ids, self._history_at = action_ids(self.log_words, self._history_at)
            made.extend([recent_action(i) for i in ids])
        return made

    @history.setter
    def history(self, value: list[Action]) -> None:
        # The given actions stand for everything logged so far; later plays follow.
        self._history = list(value)
        self._history_at = self._given_at = len(self.log_words)
        self._given = [action_id(a) for a in self._history]

    @property
    def plays(self) -> list[PlayRecord]:
        """The pack's public log so far: every play, and the table taken at its end.

        Read back from the game log on first use and extended on later calls (the rules
        write only the log).
        """
        if self._plays_at < len(self.log_words):
            self._plays_at = plays_from(self.log_words, self._plays_at, self._plays)
        return self._plays

    @plays.setter
    def plays(self, value: list[PlayRecord]) -> None:
        # The given records stand for the pack so far; later plays follow.
        self._plays = list(value)
        self._plays_at = len(self.log_words)

    def history_ids(self) -> list[int]:
        """The ids of :attr:`history`, in order, read from the log without making actions
        (records format each id's text once)."""
        return self._given + action_ids(self.log_words, self._given_at)[0]

    def clone(self) -> CasinoState:
        # Made through __init__ (no deal), as a class compiled with mypyc requires.
        other = CasinoState(self.game, self.seed, deal_now=False)
        other.log_words = self.log_words[:]  # a copy of the words
        other._events = []  # decoded afresh: a clone's events share nothing mutable
        other._events_at = 0
        other._history = self._history.copy()  # actions are immutable
        other._history_at = self._history_at
        other._given = self._given.copy()
        other._given_at = self._given_at
        other.pack = self.pack
        other.dealer = self.dealer
        other.deck = self.deck.copy()
        other.hands = [h.copy() for h in self.hands]
        other._loose = None  # listed again when read
        other._lmask = self._lmask
        other._reach = self._reach
        other.builds = self.builds.copy()  # build units are frozen
        other.captured = [c.copy() for c in self.captured]
        other.sweeps = self.sweeps.copy()
        other.last_capturer = self.last_capturer
        other.turn = self.turn
        other.last_turn = self.last_turn.copy()
        other._plays = self._plays.copy()  # play records are tuples
        other._plays_at = self._plays_at
        other.scores = self.scores.copy()
        other.pack_results = [{k: v.copy() for k, v in r.items()} for r in self.pack_results]
        other.phase = self.phase
        other.winners = self.winners.copy()
        other._current = self._current
        other._legal = self._legal  # a tuple
        other._offered = self._offered  # a tuple of immutable objects, legal there too
        return other

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickling: the state is rebuilt by :func:`_unpickle` from the game, the seed and
        the fields :meth:`clone` copies (the history as ids; events decoded again).

        Why: a class compiled with mypyc is made only through ``__init__`` with its
        arguments, so Python's default pickling (an empty object, then its fields) fails
        for the compiled state. The pure class takes the same path, so a pickle made in
        one mode loads in the other.
        """
        fields = (portable(self.log_words), [action_id(a) for a in self._history], self._history_at,
                  self._given, self._given_at, self.pack, self.dealer, self.deck, self.hands,
                  self.loose, self._lmask, self._reach, self.builds, self.captured,
                  self.sweeps, self.last_capturer, self.turn, self.last_turn, self._plays,
                  self._plays_at, self.scores, self.pack_results, self.phase, self.winners,
                  self._current, self._legal)
        return (_unpickle, (self.game, self.seed, fields))

    def __deepcopy__(self, memo: dict[int, Any]) -> CasinoState:
        """``copy.deepcopy`` is :meth:`clone` (which shares only what is immutable)."""
        return self.clone()

    def observation(self, seat: Any) -> CasinoObservation:
        """What ``seat`` may know (``None``: a spectator); typed ``Any`` so that a bad seat
        gets :class:`~kartentisch.core.errors.InvalidSeatError` also when compiled."""
        from kartentisch.games.casino.observation import observe

        return observe(self, seat)

    def to_json(self) -> dict[str, Any]:
        from kartentisch.games.casino.position import state_to_json

        return state_to_json(self)

    def __str__(self) -> str:
        hands = " | ".join(" ".join(card_names(h)) for h in self.hands)
        return (f"Casino pack {self.pack + 1} turn {self.turn} to move {self.current_player}: "
                f"table {describe_table(self.loose, self.builds)}; hands {hands}; "
                f"scores {self.scores}")

    # ----------------------------------------------------------------- queries
    @property
    def loose(self) -> list[int]:
        """Loose table cards, ascending. Assign a new list to change them from outside.

        Speed: the plays change only the mask (``_lmask``); the list is made from it when
        read after a change (in random play, most positions are never listed).
        """
        loose = self._loose
        if loose is None:
            mask = self._lmask
            loose = self._loose = list(
                _CARDS_OF[mask] if mask in _CARDS_OF else _cards_of_many(mask))
        return loose

    @loose.setter
    def loose(self, cards: list[int]) -> None:
        self._loose = cards
        mask = 0
        for c in cards:
            mask |= 1 << c
        self._lmask = mask
        self._reach = -1

    def subset_sums(self) -> Sums:
        """``sums[k]``: the bitmask of every set of loose numerals adding up to k <= 10."""
        return sums_of(self.loose)

    def table_items(self) -> list[int | BuildUnit]:
        """The table in its canonical, labelled order: loose cards, then builds by value."""
        return [*self.loose, *(self.builds[v] for v in sorted(self.builds))]

    def trail_banned(self, seat: int) -> bool:
        """Whether the trail ban (option ``trail_ban``) forbids ``seat`` to trail now."""
        return trail_banned(self._every_turn, self.builds, seat, self.last_turn[seat])

    # ----------------------------------------------------------------- transitions
    def _apply(self, aid: int) -> None:
        """Play the legal move ``aid``, read from its id alone (an offered action's fields
        are never decoded for it: see :func:`~.movegen.make_actions`).

        Speed (in pure Python the cost is the bytecodes run): a trail (58% of plays) is
        known by one membership test and takes its own short path; any other id is decoded
        by its segment (:func:`~.movegen.segment_of`) into a row of :data:`_DECODE` (base,
        card, code, and what puts the card's bit back into the loose cards used), whose
        cards come from :data:`_CARDS_OF` for the usual one or two. Captures and builds
        are written out here rather than called (a call costs more than its body's
        branches). The log words' seat parts are table entries, the next seat one lookup.
        """
        seat = self._current
        self._legal = None
        self._offered = None
        hands = self.hands
        card = _TRAIL_CARD.get(aid, -1)
        if card >= 0:
            hands[seat].remove(card)
            self._loose = None
            self._lmask |= 1 << card
            reach = self._reach
            if reach >= 0:  # the new sums: the old ones, and the old ones plus the card
                self._reach = (reach | reach << VALUES[card]) & 0x7FF
            self.log_words.append(aid << 7 | _TRAIL_SEAT[seat])
        else:
            row = _QUICK.get(aid)
            if row is not None:  # 83% of the rest: see _QUICK
                card, code, used, got, took = row
            else:
                base, card, code, shift, high = _DECODE[segment_of(aid) + 1]
                packed = (aid - base) << shift
                used = packed + (packed & high)  # the loose cards used: the card's bit back
                got = _CARDS_OF[used] if used in _CARDS_OF else _cards_of_many(used)
                took = (card, *got)
            hands[seat].remove(card)
            if code <= CODE_CAPTURE_BUILD:
                pile = self.captured[seat]
                if used:
                    self._lmask ^= used
                    self._reach = -1
                    self._loose = None
                    pile += took  # the card, then the loose cards
                else:
                    pile.append(card)
                self.last_capturer = seat
                if code == CODE_CAPTURE:
                    if self._sweeps and self._swept(seat):
                        aid |= FLAG
                    self.log_words.append(aid << 7 | _CAPTURE_SEAT[seat])
                else:  # the build of the card's value too
                    taken = self.builds.pop(VALUES[card]).cards
                    pile += taken
                    if self._sweeps and self._swept(seat):
                        aid |= FLAG
                    self.log_words.extend((aid << 7 | _CAPTURE_SEAT[seat] | _ONE_MORE,
                                           mask_of(taken)))
            else:  # a build
                if used:
                    self._lmask ^= used
                    self._reach = -1
                    self._loose = None
                value, raised, merged = _BUILD_CODE[code]
                if raised:
                    value += VALUES[card]
                log = self.log_words
                if raised or merged:  # standing builds join: their cards logged after
                    joined = list(took)
                    head = len(log)
                    log.append(0)  # the header, once the build is known
                    if raised:
                        cards = self.builds.pop(raised).cards
                        joined.extend(cards)
                        log.append(mask_of(cards))
                    if merged:
                        cards = self.builds.pop(value).cards
                        joined.extend(cards)
                        log.append(mask_of(cards))
                    joined.sort()
                    cards = tuple(joined)
                    extra = len(log) - head - 1
                else:  # the card and loose cards alone (88% of builds)
                    cards = tuple(sorted(took))
                    head = -1
                    extra = 0
                total = 0
                for c in cards:
                    total += VALUES[c]
                made: Any = BuildUnitDraft()  # BuildUnit(value, cards, seat, turn)
                made.value = value
                made.cards = cards
                made.owner = seat
                made.turn = self.turn
                made.__class__ = _BUILD_UNIT
                self.builds[value] = made
                word = ((aid | (FLAG if total != value else 0)) << 7 | _BUILD_SEAT[seat]
                        | extra << EXTRA_SHIFT)
                if head < 0:
                    log.append(word)
                else:
                    log[head] = word
        turn = self.turn
        self.last_turn[seat] = turn
        self.turn = turn + 1
        nxt = self._next[seat]
        if hands[nxt]:
            self._current = nxt
            return
        if any(hands):  # a hand emptied early (only in a position set up so)
            n = len(hands)
            for step in range(2, n + 1):
                nxt = (seat + step) % n
                if hands[nxt]:
                    self._current = nxt
                    return
        if self.deck:
            self._deal_hands()
        else:
            self._end_pack()

    def _swept(self, seat: int) -> bool:
        """After a capture by ``seat`` with option ``sweeps``: whether it cleared the table
        (never on the pack's last play); counts the sweep if so."""
        if self._lmask or self.builds or not (self.deck or any(self.hands)):
            return False
        self.sweeps[seat] += 1
        return True

    def _deal_hands(self) -> None:
        """Deal four more cards to each player, two at a time, from left of the dealer.

        Speed: each seat's four cards are one ``itemgetter`` call on the pack's end (the
        table :data:`_DEALS` for the player count and dealer), its log words made from
        table entries; then the dealt cards leave the pack in one slice deletion.
        """
        deck = self.deck
        hands = self.hands
        log = self.log_words
        plan = _DEALS[len(hands)][self.dealer]
        dealt = 4 * len(plan)
        left = (len(deck) - dealt) << 7
        for seat, pick, word in plan:
            got = pick(deck)
            hands[seat].extend(got)
            log.extend((word | left, mask_of(got)))
        del deck[-dealt:]
        self._current = plan[0][0]

    def _start_pack(self) -> None:
        """Shuffle and make the first deal of a pack (four cards to each and to the table:
        two at a time to each non-dealer, then the table, then the dealer).

        Speed: as :meth:`_deal_hands`, every hand and the table are one ``itemgetter``
        call each (:data:`_STARTS`), the log words table entries and bit sums.
        """
        n = self.game.players
        dealer = self.dealer
        deck = deal_order(self.seed, self.pack)
        log = self.log_words
        self._plays = []
        self._plays_at = len(log)
        self.builds = {}
        self.last_capturer = -1
        self._reach = -1
        table_pick, picks, plan = _STARTS[n][dealer]
        hands = [list(pick(deck)) for pick in picks]
        self.hands = hands
        table = sorted(table_pick(deck))
        del deck[-4 * (n + 1):]
        self.deck = deck
        self._loose = table
        self.captured = [[] for _ in range(n)]
        self.sweeps = [0] * n
        self.last_turn = [-1] * n
        mask = mask_of(table)
        self._lmask = mask
        log.extend((PACK_START | (dealer + 1) << 4 | (self.pack + 1) << 7, TABLE, mask))
        for seat, word in plan:
            hand = hands[seat]
            log.extend((word, mask_of(hand)))
        self._current = plan[0][0]

    def _end_pack(self) -> None:
        """The last capturer takes the table; score the pack; end the game or start another."""
        taker = self.last_capturer if self.last_capturer >= 0 else self.dealer
        loose = self.loose
        builds = self.builds
        log = self.log_words
        if loose or builds:
            pile = self.captured[taker]
            pile.extend(loose)
            words = [self._lmask]  # the loose cards' mask, kept up to date by the plays
            for v in sorted(builds):
                cards = builds[v].cards
                pile.extend(cards)
                words.append(mask_of(cards))
            log.append(TABLE_TAKEN | (taker + 1) << 4 | (len(words) - 1) << 7)
            log.extend(words)
        game = self.game
        scores = self.scores
        game_won = -1
        captured = self.captured
        if len(captured) == 2 and not game.options.count_out:  # two players, written out
            items = score_two(captured, self.sweeps)
            self.pack_results.append(items)
            total = items["total"]
            first = scores[0] + total[0]
            second = scores[1] + total[1]
            scores[0] = first
            scores[1] = second
            if first >= TARGET or second >= TARGET:
                game_won = 0 if first > second else 1 if second > first else -1
            word = first | second << 16  # pack_scores(scores)
        else:
            items = score_pack(captured, self.sweeps, game.sides, game.side_of)
            self.pack_results.append(items)
            if game.options.count_out:
                game_won = self._count_out()
            else:
                for s, p in enumerate(items["total"]):
                    scores[s] += p
                top = max(scores)
                if top >= TARGET and scores.count(top) == 1:
                    game_won = scores.index(top)
            word = pack_scores(scores)
        pack = self.pack + 1
        log.extend((PACK_END | pack << 7, word))
        if game_won >= 0:
            self._loose = []  # the table is empty (_start_pack sets it otherwise)
            self._lmask = 0
            self._reach = -1
            self.builds = {}
            self.winners = [game_won]
            self.phase = OVER
            self._legal = ()
            log.extend((GAME_OVER | game_won << 7, word))
            return
        self.pack = pack
        self.dealer = (self.dealer + 1) % game.players
        self._start_pack()

    def _count_out(self) -> int:
        """Add the pack's points item by item; the first side to reach 21 wins (else -1)."""
        for side, kind in count_out_order(self.captured, self.sweeps, self.plays,
                                          self.game.sides, self.game.side_of):
            self.scores[side] += kind
            if self.scores[side] >= TARGET:
                return side
        return -1


def _unpickle(game: Casino, seed: int, fields: tuple[Any, ...]) -> CasinoState:
    """The state :meth:`CasinoState.__reduce__` pickled (fields in its order); the history's
    actions are made again from their ids."""
    state = CasinoState(game, seed, deal_now=False)
    (state.log_words, history, state._history_at, state._given, state._given_at, state.pack,
     state.dealer, state.deck, state.hands, state._loose, state._lmask, state._reach,
     state.builds, state.captured, state.sweeps, state.last_capturer, state.turn,
     state.last_turn, state._plays, state._plays_at, state.scores, state.pack_results,
     state.phase, state.winners, state._current, state._legal) = fields
    state._history = [recent_action(i) for i in history]
    state.log_words = native(state.log_words)  # pickled as "Q" (see kartentisch.core.words)
    return state
