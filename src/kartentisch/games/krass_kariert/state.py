"""Krass Kariert's rules as state transitions: pure, deterministic, no I/O.

Terms (the rulebook's): a *Durchgang* (deal) is played in *Runden* (rounds); each player
holds an ordered hand that is never sorted, two face-up *Reservekarten*, and chips. The
*Nachziehstapel* is the draw pile (its top is the end of ``draw_pile``), the *Ablagestapel*
(``discard``) the pile of cards played this deal.

The rules page ``docs/rules/krass-kariert.md`` lists every decision and option; the comments
below name the rule each branch implements. Around this module: :mod:`.tables` (the move
tables the generator reads), :mod:`.events` (acts and the event log), :mod:`.explain` (why
a move is illegal), :mod:`.observation` and :mod:`.position`.

The checked entry points ``apply`` and ``apply_id`` are the core's
(:class:`~kartentisch.core.protocol.State`); this class supplies the fast parts they call:
``is_legal_id`` (one action without listing all) and ``apply_unchecked`` (the transition).

Written twice on purpose: :func:`shuffled_deck` is ``core.rng.shuffled(DECK, seed,
"krass-kariert", deal)`` computed on small ints (see its docstring);
``tests/krass_kariert/test_fast_paths.py`` holds the two together, ties included.

Size (over 600 lines, kept whole): the transitions call each other and read the state's fields
on every move; as methods of one compiled class those are direct C calls and field reads.
What could leave has left (the move tables in :mod:`.tables`, the log, the position, the
explanations, the batch loops).
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar

from kartentisch.core.errors import IllegalActionError
from kartentisch.core.protocol import TERMINAL, Event, Seat, State
from kartentisch.core.rng import shuffled
from kartentisch.core.words import native, new_words, portable
from kartentisch.games.krass_kariert import actions as _actions
from kartentisch.games.krass_kariert.actions import Action, format_action
from kartentisch.games.krass_kariert.cards import (
    DECK,
    NACHZIEH,
    NO_COMBINATION,
    STOPP,
    WINDOW_TABLES,
    card_name,
)
from kartentisch.games.krass_kariert.log import (
    CARDS_SHIFT,
    CHIP_LOST,
    COMBINATION,
    CONCEDE,
    DEAL_END,
    DEAL_START,
    DRAW_CARD,
    GAME_OVER,
    ID_MASK,
    INSERT,
    NACHZIEH_ACT,
    NO_CHIP,
    OUT,
    PAYLOAD_SHIFT,
    POSITION_SHIFT,
    RESERVE,
    ROUND_START,
    ROUND_WON,
    SEAT_SHIFT,
    STOPP_ACT,
    STRENGTH_SHIFT,
    Act,
    copy_event,
    make_event,
    pack_seats,
)
from kartentisch.games.krass_kariert.reasons import error
from kartentisch.games.krass_kariert.tables import (
    ACT_WORDS,
    ALL_IDS,
    PLAY_LENGTH,
    PLAY_START,
    PLAY_XS,
    ROUND_ORDER,
    START_TABLES,
    TARGET_OF,
    UNKNOWN,
    entry_at,
)

if TYPE_CHECKING:
    # Machine integers for the compiled core's hot loops (mypyc); plain ints otherwise.
    from mypy_extensions import i64

    from kartentisch.games.krass_kariert.game import KrassKariert
    from kartentisch.games.krass_kariert.observation import KKObservation

# Speed: names of modules that are not compiled, bound here as finals, which the compiled
# core keeps in C variables (a name imported from such a module is a dict lookup per use).
ACTIONS: Final = _actions.ACTIONS
SHARED_IDS: Final = _actions.SHARED_IDS
CONCEDE_ID: Final[int] = _actions.CONCEDE_ID
INSERT_BASE: Final[int] = _actions.INSERT_BASE
NUM_ACTIONS: Final[int] = _actions.NUM_ACTIONS
PLAYS_PER_START: Final[int] = _actions.PLAYS_PER_START
RESERVE_BASE: Final[int] = _actions.RESERVE_BASE
RESERVE_STRIDE: Final[int] = _actions.RESERVE_STRIDE
_DECK: Final = DECK
_ACT: Final = Act
_NEW_TUPLE: Final[Any] = tuple.__new__
"""``tuple.__new__``, bound once: ``_NEW_TUPLE(_ACT, fields)`` builds an :class:`Act` without
the named tuple's Python-level ``__new__`` (and without looking the method up each time)."""

PLAY: Final = "play"
"""Phase: a player acts in a round."""
DRAW: Final = "draw"
"""Phase: the winner of a round with Nachzieh cards inserts the card just drawn."""
OVER: Final = "over"
"""Phase: the game has ended."""
PHASE_PLAY: Final = 0
PHASE_DRAW: Final = 1
PHASE_OVER: Final = 2
"""The phases as the state keeps them (:attr:`KKState.phase` gives their names). Speed: an
int compares in one instruction compiled, where the names are compared character by
character."""
_PHASE_NAMES: Final = (PLAY, DRAW, OVER)
_PHASE_CODES: Final = {PLAY: PHASE_PLAY, DRAW: PHASE_DRAW, OVER: PHASE_OVER}

__all__ = [
    "DRAW",
    "OVER",
    "PLAY",
    "Act",
    "KKState",
    "make_event",
    "shuffled_deck",
]

_T = TypeVar("_T")


def shuffled_deck(seed: int, deal: int) -> list[int]:
    """The 54 cards in the order dealt in deal number ``deal`` (from 0) of game ``seed``.

    A uniform shuffle determined by the seed and the deal's number alone: exactly
    ``core.rng.shuffled(DECK, seed, "krass-kariert", deal)``, the same on every platform.

    Speed: that function sorts the cards by 64-bit words (numbers Python compares slowly).
    This one reads the same words' top 24 bits straight from the hash's bytes and sorts
    ``high << 6 | index``, small ints; where no two cards share a ``high``, that is the
    same order (ties between whole words keep the cards' order, like a stable sort by
    ``(word, index)``). When two do (about once in 11,000 deals), it asks
    :func:`~kartentisch.core.rng.shuffled` itself. A test holds the two together.
    """
    digest = _SHAKE(f"{seed}/krass-kariert/{deal}".encode()).digest(8 * _DECK_SIZE)
    keys = [0] * _DECK_SIZE  # speed: filled by index (no appends)
    i: i64 = 0
    j: i64 = 5  # word i is bytes 8i .. 8i+7, little-endian: its top 24 bits are 8i+5 .. 8i+7
    while i < _DECK_SIZE:
        keys[i] = (digest[j + 2] << 16 | digest[j + 1] << 8 | digest[j]) << 6 | i
        i += 1
        j += 8
    keys.sort()
    deck = _DECK
    out = [0] * _DECK_SIZE
    previous: i64 = -1
    i = 0
    while i < _DECK_SIZE:
        k: i64 = keys[i]
        if k >> 6 == previous:
            return shuffled(DECK, seed, "krass-kariert", deal)
        previous = k >> 6
        out[i] = deck[k & 63]
        i += 1
    return out


_SHAKE: Final = hashlib.shake_128
_DECK_SIZE: Final = 54
assert len(DECK) == _DECK_SIZE  # six bits of index in shuffled_deck's keys


class KKState(State[Action, "KKObservation"]):
    """A Krass Kariert game in progress.

    Public fields are read by the observation, the position writer and bots' tests; change
    them only through :meth:`apply` (or the position reader).
    """

    __slots__ = (
        "_events",
        "_events_from",
        "_hand_size",
        "_history",
        "_history_at",
        "_orders",
        "_prefix",
        "_windows",
        "act_index",
        "acts_at",
        "best",
        "best_seat",
        "chips",
        "deal",
        "decoded_acts",
        "discard",
        "draw_pile",
        "draws_left",
        "game",
        "hands",
        "in_deal",
        "known",
        "leader",
        "log_words",
        "losers",
        "nachzieh_played",
        "participants",
        "pending",
        "phase_code",
        "reserves",
        "round_winner",
        "rounds",
        "seed",
        "start_table",
        "to_act",
        "voluntary",
    )

    game: KrassKariert

    def __init__(self, game: KrassKariert, seed: int, *, deal_now: bool = True):
        """A game of ``game`` with ``seed`` (checked by the caller, see
        :meth:`KrassKariert.new_initial_state`); ``deal_now=False`` leaves the table empty for
        a reader that fills it (positions, sampled worlds)."""
        self.game = game
        self.seed = seed
        self.log_words: array[int] = new_words()
        """The game log: one word per happening (see :mod:`.events`); also the history."""
        self._events: list[Event] = []
        """The events decoded so far (``events`` extends it)."""
        self._prefix: tuple[Event, ...] = ()
        """Events assigned to ``events``; the log's events from ``_events_from`` follow."""
        self._events_from = 0
        self._history: list[Action] = []
        """The actions decoded from the log so far (``history`` extends it)."""
        self._history_at = 0
        """How many log words ``_history`` covers."""
        n = game.players
        self.chips: list[int] = [game.starting_chips] * n
        self.deal = 0
        """Deals finished so far (the current deal's number counting from 0)."""
        self.rounds = 0
        """Rounds finished so far in the whole game."""
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[bool]] = [[] for _ in range(n)]
        """Per hand position: was the card public when it went in (a reserve card)?"""
        self.reserves: list[list[int]] = [[] for _ in range(n)]
        self.draw_pile: list[int] = []
        self.discard: list[int] = []
        self.in_deal: list[bool] = [True] * n
        self.participants: list[int] = []
        """The seats acting in this round, in order from the leader."""
        self.act_index = 0
        """How many participants have acted in this round."""
        self.leader = 0
        self.decoded_acts: list[Act] = []
        """The round's acts decoded from the log so far (``round_acts`` extends it)."""
        self.acts_at = 0
        """How many log words ``decoded_acts`` covers."""
        self.best = NO_COMBINATION
        """Strength of the highest combination in the round (what a follower must beat)."""
        self.best_seat = -1
        self.nachzieh_played = 0
        self.phase_code = PHASE_PLAY
        """The phase's code (``PHASE_*``; :attr:`phase` is its name)."""
        self.pending: int | None = None
        """The card the round's winner has drawn and must insert now (phase ``draw``)."""
        self.draws_left = 0
        """Cards still to insert in phase ``draw``, the pending one included."""
        self.round_winner = -1
        self.losers: list[int] = []
        """Players who lost the game (set when it ends)."""
        self.to_act = 0
        x_with_x = game.options.x_with_x
        # Speed: the option's tables are looked up once here, not on every move.
        self._windows = WINDOW_TABLES[x_with_x]
        self.start_table = START_TABLES[x_with_x]
        self.voluntary: bool = game.options.voluntary_concession
        self._hand_size: int = game.hand_size
        self._orders = ROUND_ORDER[n]
        """Per leader, the seats in playing order (:data:`tables.ROUND_ORDER` for ``n``)."""
        if deal_now:
            self._start_deal(leader=1 % n)  # the player left of the dealer (seat 0) leads

    # ----------------------------------------------------------------- protocol
    @property
    def events(self) -> list[Event]:
        """Everything that happened so far, oldest first (see :func:`events.make_event`).

        Speed: the rules record events as words of the log; this list is built on first
        use and extended on later calls, so play that never reads events does not pay for
        them.
        """
        made = self._events
        prefix = self._prefix
        log = self.log_words
        start = self._events_from
        if len(made) < len(prefix) + len(log) - start:
            if len(made) < len(prefix):
                made.extend(map(copy_event, prefix[len(made) :]))
            made.extend(map(make_event, log[start + len(made) - len(prefix) :]))
        return made

    @events.setter
    def events(self, value: list[Event]) -> None:
        # The given events replace those so far; later happenings follow them.
        self._prefix = tuple(value)
        self._events_from = len(self.log_words)
        self._events = []

    @property
    def history(self) -> list[Action]:
        """The actions played so far, oldest first (the shared action objects).

        Speed and size: the log's words of moves carry their ids; this list is decoded on
        first use and extended on later calls.
        """
        made = self._history
        log = self.log_words
        at = self._history_at
        if at < len(log):
            for w in log[at:]:
                if w & 15 <= CONCEDE:
                    made.append(ACTIONS[w >> PAYLOAD_SHIFT & ID_MASK])
            self._history_at = len(log)
        return made

    @history.setter
    def history(self, value: list[Action]) -> None:
        # The given actions replace those so far; later moves follow them.
        self._history = list(value)
        self._history_at = len(self.log_words)

    def history_ids(self) -> list[int]:
        """The ids of :attr:`history`, in order, without decoding the log into actions
        (what a record needs; see ``core.records``)."""
        out: list[int] = []
        for action in self._history:  # decoded (or assigned) so far
            i = SHARED_IDS.get(id(action))
            out.append(self.game.action_to_id(action) if i is None else i)
        log = self.log_words
        for w in log[self._history_at :]:
            if w & 15 <= CONCEDE:
                out.append(w >> PAYLOAD_SHIFT & ID_MASK)
        return out

    @property
    def phase(self) -> str:
        """The phase: :data:`PLAY`, :data:`DRAW` or :data:`OVER` (kept as a code, see
        :data:`PHASE_PLAY`)."""
        return _PHASE_NAMES[self.phase_code]

    @phase.setter
    def phase(self, value: str) -> None:
        self.phase_code = _PHASE_CODES[value]

    @property
    def round_acts(self) -> list[Act]:
        """The acts of the current round, in order (after the round: its acts until the
        next round starts).

        Speed: an act's log word holds everything of its :class:`Act`, so play only
        writes the word and this list is decoded from the log on first use and extended
        on later calls (a caller may append to it, as the position reader does).
        """
        acts = self.decoded_acts
        log = self.log_words
        end = len(log)
        at = self.acts_at
        if at < end:
            for i in range(at, end):
                w: int = log[i]
                if w & 15 <= RESERVE:
                    acts.append(_act_of(w))
            self.acts_at = end
        return acts

    @round_acts.setter
    def round_acts(self, value: list[Act]) -> None:
        # The given acts replace those so far; later acts follow them.
        self.decoded_acts = value
        self.acts_at = len(self.log_words)

    @property
    def current_player(self) -> Seat:
        return TERMINAL if self.phase_code == PHASE_OVER else self.to_act

    def is_terminal(self) -> bool:
        return self.phase_code == PHASE_OVER

    def returns(self) -> list[float]:
        """-1 for each loser; the winners share the losers' loss equally (zero-sum)."""
        n = self.game.players
        if self.phase_code != PHASE_OVER:
            return [0.0] * n
        k = len(self.losers)
        win = k / (n - k)
        return [-1.0 if s in self.losers else win for s in range(n)]

    def legal_action_ids(self) -> tuple[int, ...]:
        """The legal actions' integer ids, in the order of :meth:`legal_actions`.

        Order: plays by starting position (strongest first at each position), then reserve
        cards by target position, then the concession; in phase ``draw`` the insertion
        positions from the front.
        """
        if self.phase_code == PHASE_PLAY:
            return tuple(self._generate_play(self.to_act, 1, ALL_IDS))
        return tuple(self._generate_outside_play(ALL_IDS))

    def legal_actions(self) -> list[Action]:
        # Speed: the shared action objects straight from the tables (no decoding of ids),
        # made afresh on every call (cheaper than keeping them): ``apply`` checks one
        # action with :meth:`is_legal_id` and never needs the whole list.
        if self.phase_code == PHASE_PLAY:
            return self._generate_play(self.to_act, 2, ACTIONS)
        return self._generate_outside_play(ACTIONS)

    def apply(self, action: object, *, seat: object = None) -> None:
        """Play ``action`` for the current player; raises like the core's
        :meth:`~kartentisch.core.protocol.State.apply`, whose checks this repeats.

        Speed: the same checks in the order of the core's, written here so that the
        compiled core runs them as C: the seat and game-over test only when they can fail,
        an action from ``legal_actions()`` found by its identity, one table lookup to
        decide its legality. ``action`` and ``seat`` are typed ``object`` because anything
        may be passed and must get the core's errors (compiled, a narrower annotation would
        raise ``TypeError`` first).
        """
        if seat is not None or self.phase_code == PHASE_OVER:
            check: Any = self.check_actor  # untyped: compiled, a typed call would refuse a
            check(seat)  # bad seat with TypeError before check_seat says what is wrong
        aid = SHARED_IDS.get(id(action))
        if aid is None:
            aid = self.game.checked_action_id(action)
        self._apply_checked(aid)

    def apply_id(self, aid: object, *, seat: object = None) -> None:
        """Apply the action with id ``aid``; raises like the core's
        :meth:`~kartentisch.core.protocol.State.apply_id` (the same checks, compiled with
        the rest, see :meth:`apply`)."""
        if seat is not None or self.phase_code == PHASE_OVER:
            check: Any = self.check_actor  # untyped: compiled, a typed call would refuse a
            check(seat)  # bad seat with TypeError before check_seat says what is wrong
        if type(aid) is not int or not 0 <= aid < NUM_ACTIONS:
            self.game.check_action_id(aid)  # raises InvalidActionError
            raise AssertionError("unreachable")  # pragma: no cover
        self._apply_checked(aid)

    def why_illegal(self, action: Action) -> IllegalActionError:
        """Why ``action`` is not legal now, with a ``kk.*`` reason code (see
        :func:`explain.why_illegal`)."""
        from kartentisch.games.krass_kariert.explain import why_illegal

        return why_illegal(self, action)

    def clone(self) -> KKState:
        """An independent copy: every list is copied; what stays shared is immutable (the
        game, action objects, acts and log entries, which are tuples). The clone rebuilds
        its events from the log when asked, so no event dictionary is shared either.

        Built through ``__init__`` with an empty table (not ``__new__``), which a class
        compiled with mypyc requires; every field is then overwritten.
        """
        other = KKState(self.game, self.seed, deal_now=False)
        other.log_words = self.log_words[:]
        other._prefix = self._prefix  # a tuple: each state decodes its own copies
        other._events_from = self._events_from
        other._history = self._history.copy()
        other._history_at = self._history_at
        other.chips = self.chips.copy()
        other.deal = self.deal
        other.rounds = self.rounds
        other.hands = [h.copy() for h in self.hands]
        other.known = [k.copy() for k in self.known]
        other.reserves = [r.copy() for r in self.reserves]
        other.draw_pile = self.draw_pile.copy()
        other.discard = self.discard.copy()
        other.in_deal = self.in_deal.copy()
        other.participants = self.participants.copy()
        other.act_index = self.act_index
        other.leader = self.leader
        other.decoded_acts = self.decoded_acts.copy()
        other.acts_at = self.acts_at
        other.best = self.best
        other.best_seat = self.best_seat
        other.nachzieh_played = self.nachzieh_played
        other.phase_code = self.phase_code
        other.pending = self.pending
        other.draws_left = self.draws_left
        other.round_winner = self.round_winner
        other.losers = self.losers.copy()
        other.to_act = self.to_act
        other._windows = self._windows  # shared read-only tables
        other.start_table = self.start_table
        return other

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickling: the state is rebuilt by :func:`_unpickle` from the game, the seed and the
        fields :meth:`clone` copies (the shared move tables are looked up again, not
        pickled, and the events are decoded from the log again when read).

        Why: a class compiled with mypyc is made only through ``__init__`` with its
        arguments, so Python's default pickling (an empty object, then its fields) fails
        for the compiled state. The pure class takes the same path, so a pickle made in
        one mode loads in the other.
        """
        fields = (portable(self.log_words), self._prefix, self._events_from, self._history,
                  self._history_at, self.chips, self.deal, self.rounds, self.hands, self.known,
                  self.reserves, self.draw_pile, self.discard, self.in_deal, self.participants,
                  self.act_index, self.leader, self.round_acts, self.best, self.best_seat,
                  self.nachzieh_played, self.phase, self.pending, self.draws_left,
                  self.round_winner, self.losers, self.to_act)
        return (_unpickle, (self.game, self.seed, fields))

    def __deepcopy__(self, memo: dict[int, Any]) -> KKState:
        """``copy.deepcopy`` is :meth:`clone` (which shares only what is immutable, the
        game included)."""
        return self.clone()

    def observation(self, seat: object) -> KKObservation:
        """What ``seat`` may know; ``None``: what a spectator may know (no hand, no drawn
        card). Raises :class:`~kartentisch.core.errors.InvalidSeatError` for a bad seat.

        ``seat`` is typed ``object`` because anything may be passed here and must get that
        error: compiled with mypyc, a narrower annotation would raise ``TypeError`` first.
        """
        from kartentisch.games.krass_kariert.observation import observe

        return observe(self, None if seat is None else self.game.check_seat(seat))

    def to_json(self) -> dict[str, Any]:
        """The position document (see ``docs/positions.md``)."""
        from kartentisch.games.krass_kariert.position import state_to_json

        return state_to_json(self)

    def __str__(self) -> str:
        hands = " | ".join(" ".join(card_name(c) for c in h) for h in self.hands)
        return f"KK deal {self.deal} phase {self.phase} to move {self.current_player}: {hands}"

    # ----------------------------------------------------------------- legal actions
    def _generate_outside_play(self, column: Sequence[_T]) -> list[_T]:
        """The legal actions in phases ``draw`` and ``over``, as ids (``column`` is
        :data:`tables.ALL_IDS`) or as the shared action objects (``column`` is ``ACTIONS``).

        Here and in :meth:`_generate_play` one code path serves both, so the two lists
        cannot disagree.
        """
        if self.phase_code == PHASE_DRAW:  # the drawn card may go anywhere, front (0) to back (n)
            return list(column[INSERT_BASE : INSERT_BASE + len(self.hands[self.to_act]) + 1])
        return []

    def _generate_play(self, seat: int, k: Literal[1, 2], column: Sequence[Any]) -> list[Any]:
        """The legal moves in phase ``play``: the ids (``k`` = 1) or actions (``k`` = 2)."""
        table = self.start_table
        entries = table.entries  # speed: index the list, fill through ``at`` when empty
        hand = self.hands[seat]
        n = len(hand)
        key = (hand[0] << 4 if n else 0) | (hand[1] if n > 1 else 0)
        out: list[Any] = []
        # Speed: the plays starting at an index depend on the index and the three cards
        # from there; the key of those three is rolled along the hand (shift in the next
        # card, mask to 12 bits) instead of slicing. A start's entry is
        # (beating counts, ids, actions, ...), strongest first (see :mod:`.tables`).
        if self.act_index == 0:  # the leader may play anything (a hand always has a play)
            for start in range(n):
                key = (key << 4 & 0xFFF) | (hand[start + 2] if start + 2 < n else 0)
                plays = entries[key]
                entry = (table.at(key) if plays is None else plays)[start]
                out.extend(entry[1] if k == 1 else entry[2])
            return out
        rank = self.best + 1
        for start in range(n):
            key = (key << 4 & 0xFFF) | (hand[start + 2] if start + 2 < n else 0)
            at_key = entries[key]
            entry = (table.at(key) if at_key is None else at_key)[start]
            beating = entry[0][rank]
            if beating:  # the strongest ``beating`` plays here beat the round's best
                found = entry[1] if k == 1 else entry[2]
                out.extend(found if beating == len(found) else found[:beating])
        # A follower who does not beat must take a reserve card (allowed even when they
        # could beat); without reserve cards they concede the deal.
        reserves = self.reserves[seat]
        if reserves:
            for r, card in enumerate(reserves):
                if r and card == reserves[0]:
                    continue  # the same card twice: one distinct move
                base = RESERVE_BASE + r * RESERVE_STRIDE
                out.extend(column[base : base + n + 1])
        elif self.voluntary or not out:
            out.append(column[CONCEDE_ID])
        return out

    def _legal_count(self) -> int:
        """How many legal actions there are: ``len(self.legal_action_ids())``, without
        making the list.

        Speed: the batch loops (:mod:`.batch`) draw a random index first and then apply the
        action at that index (:meth:`_apply_nth`), so the ids are never listed. A start's
        number of legal plays is one byte of the move table's ``counts`` (the leader may
        play anything: the count of plays beating no combination). Compiled, the ``i64``
        variables are machine integers.
        """
        seat = self.to_act
        hand = self.hands[seat]
        n: i64 = len(hand)
        phase = self.phase_code
        if phase != PHASE_PLAY:
            return n + 1 if phase == PHASE_DRAW else 0
        table = self.start_table
        counts = table.counts
        follower = self.act_index != 0
        rank: i64 = self.best + 1 if follower else 0
        key: i64 = 0
        if n > 1:
            key = hand[0] << 4 | hand[1]
        elif n:
            key = hand[0] << 4
        total: i64 = 0
        start: i64 = 0
        while start < n:  # the generator's rolling key (see _generate_play)
            key = key << 4 & 0xFFF
            if start + 2 < n:
                key |= hand[start + 2]
            c: i64 = counts[key][rank]
            if c == UNKNOWN:
                table.at(key)
                c = counts[key][rank]
            total += c
            start += 1
        if follower:
            reserves = self.reserves[seat]
            if reserves:
                first = reserves[0]
                for r, card in enumerate(reserves):
                    if not r or card != first:  # the same card twice: one distinct move
                        total += n + 1
            elif self.voluntary or not total:
                total += 1
        return total

    def _apply_nth(self, index: int) -> None:
        """Apply the legal action ``legal_action_ids()[index]`` (``index`` below
        :meth:`_legal_count`), without making the list: the batch loops' transition.

        Walks the starts as :meth:`_legal_count` does until the index falls into one; a
        play's strength comes from the same entry (no second look into the table).
        """
        if self.phase_code != PHASE_PLAY:  # phase draw: the insertion positions from the front
            self.apply_unchecked(INSERT_BASE + index)
            return
        seat = self.to_act
        hand = self.hands[seat]
        n: i64 = len(hand)
        table = self.start_table
        counts = table.counts
        rank: i64 = self.best + 1 if self.act_index != 0 else 0
        left: i64 = index
        key: i64 = 0
        if n > 1:
            key = hand[0] << 4 | hand[1]
        elif n:
            key = hand[0] << 4
        start: i64 = 0
        while start < n:
            key = key << 4 & 0xFFF
            if start + 2 < n:
                key |= hand[start + 2]
            c: i64 = counts[key][rank]
            if c == UNKNOWN:
                table.at(key)
                c = counts[key][rank]
            if left < c:
                entry = table.at(key)[start]
                self._play(entry[1][left], entry[4][left])
                return
            left -= c
            start += 1
        reserves = self.reserves[seat]
        if reserves:
            first = reserves[0]
            for r, card in enumerate(reserves):
                if not r or card != first:
                    if left <= n:
                        self.apply_unchecked(RESERVE_BASE + r * RESERVE_STRIDE + left)
                        return
                    left -= n + 1
        self.apply_unchecked(CONCEDE_ID)

    def is_legal_id(self, aid: int) -> bool:
        """Whether the action id ``aid`` (0 to ``NUM_ACTIONS - 1``) is legal now.

        Speed: decides for one action without listing all of them (one table lookup for a
        play), so :meth:`apply` costs the same however many moves there are; a property
        test holds it to :meth:`legal_action_ids` for every id.
        """
        phase = self.phase_code
        hand = self.hands[self.to_act]
        if phase == PHASE_DRAW:
            return INSERT_BASE <= aid <= INSERT_BASE + len(hand)
        if phase != PHASE_PLAY:
            return False
        if aid < RESERVE_BASE:  # a play: legal if its start's entry lists it and it beats
            start = aid // PLAYS_PER_START
            if start >= len(hand):
                return False
            entry = entry_at(self.start_table, hand, start)
            rank = entry[3][aid - start * PLAYS_PER_START]  # 1 + its place, strongest first
            if not rank:
                return False
            return self.act_index == 0 or rank <= entry[0][self.best + 1]
        if self.act_index == 0 or INSERT_BASE <= aid < CONCEDE_ID:
            return False  # a leader only plays; insertions belong to phase draw
        reserves = self.reserves[self.to_act]
        if aid == CONCEDE_ID:
            if reserves:
                return False
            if self.voluntary:
                return True
            best = self.best + 1
            table = self.start_table
            return not any(entry_at(table, hand, i)[0][best] for i in range(len(hand)))
        r, position = divmod(aid - RESERVE_BASE, RESERVE_STRIDE)
        return (r < len(reserves) and position <= len(hand)
                and not (r and reserves[r] == reserves[0]))

    # ----------------------------------------------------------------- transitions
    def _apply_checked(self, aid: int) -> None:
        """Apply the action id ``aid`` (0 to ``NUM_ACTIONS - 1``) if it is legal now; raise
        why not otherwise (the state unchanged): :meth:`is_legal_id`, then
        :meth:`apply_unchecked`.

        Speed: a play is decided and applied from one look into the move table (the two
        methods would each look up its entry).
        """
        if aid < RESERVE_BASE and self.phase_code == PHASE_PLAY:
            hand = self.hands[self.to_act]
            start = PLAY_START[aid]
            if start < len(hand):
                entry = entry_at(self.start_table, hand, start)
                rank = entry[3][aid - start * PLAYS_PER_START]  # 1 + its place, 0: none
                if rank and (self.act_index == 0 or rank <= entry[0][self.best + 1]):
                    self._play(aid, entry[4][rank - 1])
                    return
        elif self.is_legal_id(aid):
            self.apply_unchecked(aid)
            return
        raise self.why_illegal(ACTIONS[aid])

    def apply_unchecked(self, aid: int) -> None:
        """Apply the legal action id ``aid`` without any check: the transition itself, and
        the fast path for search code that took ``aid`` from :meth:`legal_action_ids`.

        Speed: this is the one method search calls per move, so it dispatches on the id's
        range (plays, reserve cards, insertions, the concession) and reads a move's fields
        from tables by id, never touching an action object.
        """
        if aid < RESERVE_BASE:  # a play (the kind of move by its id's range: no objects)
            # Its strength from the move table (its place among the plays of these cards;
            # cheaper than hashing the cards and the declaration).
            start = PLAY_START[aid]
            entry = entry_at(self.start_table, self.hands[self.to_act], start)
            self._play(aid, entry[4][entry[3][aid - start * PLAYS_PER_START] - 1])
            return
        seat = self.to_act
        hand = self.hands[seat]
        # One log word per move (see :mod:`.events`), with the parts fixed by the id
        # precomputed (``ACT_WORDS``).
        word = ACT_WORDS[aid] | (seat + 1) << SEAT_SHIFT
        if aid < INSERT_BASE:  # a reserve card
            position = TARGET_OF[aid]
            card = self.reserves[seat].pop(0 if aid < RESERVE_BASE + RESERVE_STRIDE else 1)
            hand.insert(position, card)
            self.known[seat].insert(position, True)  # taken face up: the table saw where
            self.log_words.append(word | RESERVE | card << CARDS_SHIFT)  # the act (round_acts)
            self._next_actor()
        elif aid < CONCEDE_ID:  # the drawn card inserted
            drawn = self.pending
            if drawn is None:  # only reachable by misusing apply_unchecked: refuse it and
                # leave the state as it was
                raise error(IllegalActionError, "kk.nothing_drawn",
                            action=format_action(ACTIONS[aid]))
            position = TARGET_OF[aid]
            hand.insert(position, drawn)
            self.known[seat].insert(position, False)  # the table saw where, not what
            self.log_words.append(word | INSERT | drawn << POSITION_SHIFT)
            self.pending = None
            self.draws_left -= 1
            if self.draws_left:
                self._draw_one()
            else:
                self._finish_round()
        else:  # a follower without reserve cards gives up the deal
            self.log_words.append(word | CONCEDE)
            self._end_deal([seat])

    def _play(self, aid: int, value: int) -> None:
        """Play the legal play ``aid`` whose strength is ``value`` (ignored for Stopp and
        Nachzieh): the transition of :meth:`apply_unchecked` for plays.

        The act is its log word (:attr:`round_acts` decodes it when read). Speed: the
        cards leave the hand one by one (a pop each, no slices or tuples made).
        """
        seat = self.to_act
        hand = self.hands[seat]
        known = self.known[seat]
        discard = self.discard  # the round's cards lie on the Ablagestapel
        word = ACT_WORDS[aid] | (seat + 1) << SEAT_SHIFT
        start = PLAY_START[aid]
        first = hand.pop(start)
        known.pop(start)
        discard.append(first)
        if first == STOPP:  # ends the round at once; the Stopp player wins it
            self.log_words.append(word | STOPP_ACT | first << CARDS_SHIFT)
            self.act_index += 1
            self._end_round(seat)
            return
        if first == NACHZIEH:  # does not change what must be beaten
            self.nachzieh_played += 1
            word |= NACHZIEH_ACT | first << CARDS_SHIFT
        else:
            length = PLAY_LENGTH[aid]
            packed = first
            if length > 1:
                card = hand.pop(start)
                known.pop(start)
                discard.append(card)
                packed |= card << 4
                if length > 2:
                    card = hand.pop(start)
                    known.pop(start)
                    discard.append(card)
                    packed |= card << 8
            self.best = value
            self.best_seat = seat
            word |= COMBINATION | (value + 1) << STRENGTH_SHIFT | packed << CARDS_SHIFT
        self.log_words.append(word)
        self._next_actor()

    def _next_actor(self) -> None:
        """After a combination, a Nachzieh or a reserve card: the next participant acts, or,
        when everyone acted, the highest combination wins the round (with none, the leader,
        who led Nachzieh)."""
        index = self.act_index = self.act_index + 1
        participants = self.participants
        if index < len(participants):
            self.to_act = participants[index]
        else:
            best_seat = self.best_seat
            self._end_round(best_seat if best_seat >= 0 else self.leader)

    def _end_round(self, winner: int) -> None:
        self.round_winner = winner
        nachzieh = self.nachzieh_played
        self.log_words.append(ROUND_WON | (winner + 1) << SEAT_SHIFT | nachzieh << PAYLOAD_SHIFT)
        if nachzieh:
            # The winner draws 3 cards per Nachzieh, one at a time, even with an empty hand.
            self.phase_code = PHASE_DRAW
            self.draws_left = 3 * nachzieh
            self.to_act = winner
            self._draw_one()
        else:
            self._finish_round()

    def _draw_one(self) -> None:
        card = self.draw_pile.pop()  # never empty: at most 6 draws per deal, at least 6 cards
        self.pending = card
        self.log_words.append(DRAW_CARD | (self.round_winner + 1) << SEAT_SHIFT
                         | (self.draws_left | card << 3) << PAYLOAD_SHIFT)

    def _finish_round(self) -> None:
        self.phase_code = PHASE_PLAY
        self.rounds += 1
        winner = self.round_winner
        hands = self.hands
        in_deal = self.in_deal
        for s in self.participants:
            if not hands[s]:  # no hand card left (reserves do not count): out of the deal
                in_deal[s] = False
                self.log_words.append(OUT | (s + 1) << SEAT_SHIFT)
        holders = in_deal.count(True)
        if holders == 1:  # the last player holding cards loses a chip
            self._end_deal([in_deal.index(True)])
        elif not holders:  # all played out together: all but the round's winner lose a chip
            self._end_deal([s for s in self.participants if s != winner])
        else:
            self._start_round(winner if hands[winner] else self._next_leader(winner),
                              holders == len(in_deal))

    def _next_leader(self, winner: int) -> int:
        """Who leads after ``winner`` won the round (called after players left the deal)."""
        if self.hands[winner]:
            return winner
        # Otherwise the highest other combination of the round, if its player holds cards.
        others = sorted(
            (a for a in self.round_acts if a.kind == "combination" and a.seat != winner),
            key=lambda a: -a.strength,
        )
        if self.game.options.next_leader_fallback == "right_neighbour":
            others = others[:1]
        for act in others:
            if self.hands[act.seat]:
                return act.seat
        # Otherwise the winner's right neighbour: the nearest counter-clockwise player in the
        # deal. ``_finish_round`` only gets here with at least two players in the deal.
        n = self.game.players
        seat = winner
        for _ in range(n):
            seat = (seat - 1) % n
            if self.in_deal[seat]:
                return seat
        raise RuntimeError("no player left to lead")  # pragma: no cover - unreachable

    def _start_round(self, leader: int, everyone: bool) -> None:
        """A round led by ``leader``; ``everyone``: every seat is still in the deal."""
        self.leader = leader
        order = self._orders[leader]
        if everyone:
            self.participants = list(order)
        else:
            in_deal = self.in_deal
            self.participants = [s for s in order if in_deal[s]]
        self.act_index = 0
        log = self.log_words
        self.decoded_acts = []
        self.acts_at = len(log)
        self.best = NO_COMBINATION
        self.best_seat = -1
        self.nachzieh_played = 0
        self.round_winner = -1
        self.to_act = leader
        log.append(ROUND_START | (leader + 1) << SEAT_SHIFT | (self.rounds + 1) << PAYLOAD_SHIFT)

    def _start_deal(self, leader: int) -> None:
        n = len(self._orders)  # the number of players
        deck = shuffled_deck(self.seed, self.deal)
        size = self._hand_size  # 10 cards, 7 with five players
        hands: list[list[int]] = []
        known: list[list[bool]] = []
        reserves: list[list[int]] = []
        rest = n * size
        for i in range(n):
            hands.append(deck[i * size : (i + 1) * size])
            known.append([False] * size)
            reserves.append(deck[rest + 2 * i : rest + 2 * i + 2])  # two face up each
        self.hands = hands
        self.known = known
        self.reserves = reserves
        self.draw_pile = deck[rest + 2 * n :]
        self.discard = []
        self.in_deal = [True] * n  # players without chips keep playing
        self.phase_code = PHASE_PLAY
        self.pending = None
        self.draws_left = 0
        self.log_words.append(DEAL_START | (leader + 1) << SEAT_SHIFT
                         | (self.deal + 1) << PAYLOAD_SHIFT)
        self._start_round(leader, True)

    def _end_deal(self, chip_losers: list[int]) -> None:
        self.round_winner = -1
        out: list[int] = []
        chips = self.chips
        log = self.log_words
        packed = 0  # the chip losers as 3-bit fields of seat + 1 (events.pack_seats)
        shift = 0
        for s in chip_losers:
            packed |= (s + 1) << shift
            shift += 3
            left = chips[s]
            if left == 0:  # must give a chip and has none: loses the game
                out.append(s)
                log.append(NO_CHIP | (s + 1) << SEAT_SHIFT)
            else:
                chips[s] = left - 1
                log.append(CHIP_LOST | (s + 1) << SEAT_SHIFT | (left - 1) << PAYLOAD_SHIFT)
        log.append(DEAL_END | packed << PAYLOAD_SHIFT)
        if out:
            self.losers = out
            self.phase_code = PHASE_OVER
            log.append(GAME_OVER | pack_seats(out) << PAYLOAD_SHIFT)
            return
        self.deal += 1
        # The single chip loser leads the next deal; with several, the dealer (seat 0).
        self._start_deal(chip_losers[0] if len(chip_losers) == 1 else 0)


def _act_of(w: int) -> Act:
    """The :class:`Act` of an act's log word (what :meth:`KKState._play` and
    :meth:`KKState.apply_unchecked` write; :func:`events.act_of` for the state's hot loop:
    compiled, and the X values of a play shared from :data:`tables.PLAY_XS`)."""
    code = w & 15
    seat = (w >> SEAT_SHIFT & 7) - 1
    position = w >> POSITION_SHIFT & 31
    c = w >> CARDS_SHIFT & 0xFFF
    if code == COMBINATION:
        cards: tuple[int, ...]
        if c < 16:
            cards = (c,)
        elif c < 256:
            cards = (c & 15, c >> 4)
        else:
            cards = (c & 15, c >> 4 & 15, c >> 8)
        act: Act = _NEW_TUPLE(_ACT, (seat, "combination", cards,
                                     PLAY_XS[w >> PAYLOAD_SHIFT & ID_MASK],
                                     (w >> STRENGTH_SHIFT & 0x7F) - 1, position))
        return act
    kind = "stopp" if code == STOPP_ACT else "nachzieh" if code == NACHZIEH_ACT else "reserve"
    other: Act = _NEW_TUPLE(_ACT, (seat, kind, (c,), (), NO_COMBINATION, position))
    return other


def _unpickle(game: KrassKariert, seed: int, fields: tuple[Any, ...]) -> KKState:
    """The state :meth:`KKState.__reduce__` pickled: a table-less state of ``game`` and
    ``seed`` whose fields are set from ``fields`` (in ``__reduce__``'s order). The phase
    and the history's actions become the shared objects again (the phase constants, the
    action of each id), as in a state that was never pickled; the round's acts are taken
    as given (not decoded again from the log)."""
    state = KKState(game, seed, deal_now=False)
    (state.log_words, state._prefix, state._events_from, history, state._history_at, state.chips,
     state.deal, state.rounds, state.hands, state.known, state.reserves, state.draw_pile,
     state.discard, state.in_deal, state.participants, state.act_index, state.leader,
     state.round_acts, state.best, state.best_seat, state.nachzieh_played, phase,
     state.pending, state.draws_left, state.round_winner, state.losers,
     state.to_act) = fields
    state.log_words = native(state.log_words)  # pickled as "Q" (see kartentisch.core.words)
    state.phase = phase  # kept as its code: the name read back is the shared constant
    state._history = [ACTIONS[_actions.action_id(a)] for a in history]
    return state
