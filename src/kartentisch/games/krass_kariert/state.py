"""Krass Kariert's rules as state transitions: pure, deterministic, no I/O.

Terms (the rulebook's): a *Durchgang* (deal) is played in *Runden* (rounds); each player
holds an ordered hand that is never sorted, two face-up *Reservekarten*, and chips. The
*Nachziehstapel* is the draw pile (its top is the end of ``draw_pile``), the *Ablagestapel*
(``discard``) the pile of cards played this deal.

The rules page ``docs/rules/krass-kariert.md`` lists every decision and option; the comments
below name the rule each branch implements.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, TypeVar

from kartentisch.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from kartentisch.core.protocol import TERMINAL, Event, Seat, State
from kartentisch.games.krass_kariert.actions import (
    ACTIONS,
    CONCEDE_ID,
    INSERT_BASE,
    MAX_HAND,
    PLAYS_PER_START,
    RESERVE_BASE,
    RESERVE_STRIDE,
    Action,
    Concede,
    InsertDrawn,
    Play,
    TakeReserve,
    action_id,
    format_action,
    play_id,
)
from kartentisch.games.krass_kariert.cards import (
    DECK,
    KIND_KEYS,
    NACHZIEH,
    NO_COMBINATION,
    STOPP,
    WINDOW_TABLES,
    X,
    card_name,
    describe_strength,
    high_of,
    kind_of,
)

if TYPE_CHECKING:
    from kartentisch.games.krass_kariert.game import KrassKariert
    from kartentisch.games.krass_kariert.observation import KKObservation

PLAY: Final = "play"
"""Phase: a player acts in a round."""
DRAW: Final = "draw"
"""Phase: the winner of a round with Nachzieh cards inserts the card just drawn."""
OVER: Final = "over"
"""Phase: the game has ended."""

__all__ = [
    "DRAW",
    "OVER",
    "PLAY",
    "Act",
    "KKState",
    "describe_strength",
    "make_event",
    "shuffled_deck",
]


class Act(NamedTuple):
    """One act in the current round, public to all."""

    seat: int
    kind: str
    """``combination``, ``stopp``, ``nachzieh`` or ``reserve``."""
    cards: tuple[int, ...] = ()
    x_values: tuple[int, ...] = ()
    strength: int = NO_COMBINATION
    position: int = -1
    """First hand index played from, or the index a reserve card went to."""


def shuffled_deck(seed: int, deal: int) -> list[int]:
    """The 54 cards in the order dealt in deal number ``deal`` (from 0) of game ``seed``.

    Each card gets a 64-bit key from SHAKE-128 of the game seed and the deal number (an
    extendable-output hash, so the keys are uniform and independent) and the deck is sorted
    by key: a uniform shuffle (ties have probability below 1e-16 and are broken by deck
    order) that runs in C, needs no generator state, and is the same on every platform.
    """
    stream = hashlib.shake_128(f"krass-kariert/{seed}/{deal}".encode()).digest(8 * len(DECK))
    keys = array("Q", stream)
    if sys.byteorder == "big":
        keys.byteswap()  # the bytes are read as little-endian everywhere
    order = sorted(_DECK_INDEXES, key=keys.__getitem__)
    return list(itemgetter(*order)(DECK))


_DECK_INDEXES: Final = range(len(DECK))


# --------------------------------------------------------------------- legal play generation
# The plays starting at one hand index depend only on that index and the (up to) three cards
# from there on. ``_start_plays`` lists them once, strongest first, so that the plays which beat
# a given strength are a prefix whose length is looked up. The tables fill lazily and are shared.

_ALWAYS: Final = 1 << 10
"""Strength given to Stopp and Nachzieh in the tables: playable whatever lies in the round."""

StartPlays = tuple[tuple[int, ...], tuple[int, ...], tuple[Action, ...]]
"""(beating counts, the play ids strongest first, the shared action objects of those ids).
``beating[best + 1]`` is how many of the plays beat a combination of strength ``best``
(``NO_COMBINATION`` included), so the legal ones are a prefix of length beating[best + 1]."""

_STRENGTHS: Final = range(NO_COMBINATION, 5 * 16)
"""Every strength a round's best combination can have (see :func:`cards.strength`)."""


class _StartTable(dict[int, tuple[StartPlays, ...]]):
    """For three cards (see :func:`_start_plays`), the plays at each start; fills on lookup.

    A dict subclass with ``__missing__`` so that the hot loop needs a plain subscript.
    """

    __slots__ = ("x_with_x",)

    def __init__(self, x_with_x: bool) -> None:
        super().__init__()
        self.x_with_x = x_with_x

    def __missing__(self, key: int) -> tuple[StartPlays, ...]:
        plays = self[key] = _start_plays(key, self.x_with_x)
        return plays


_START_TABLES: Final[dict[bool, _StartTable]] = {False: _StartTable(False), True: _StartTable(True)}
"""Per ``x_with_x``: the table of :func:`_start_plays` results."""

_ALL_IDS: Final = tuple(range(len(ACTIONS)))
"""Every action id, sliced like ``ACTIONS`` so one generator makes ids or actions."""

_T = TypeVar("_T")

_ROUND_ORDER: Final = {
    n: tuple(tuple((leader + i) % n for i in range(n)) for leader in range(n)) for n in (3, 4, 5)
}
"""Per player count and leader, the seats in playing order from the leader."""

_PAD: Final = [0, 0]
"""Appended to a hand so that the last starts see "no card" (0) after them."""


def _start_plays(key: int, x_with_x: bool) -> tuple[StartPlays, ...]:
    """The plays of the cards ``key = c0 << 8 | c1 << 4 | c2`` at each start index.

    ``c0..c2`` are the card at the start index and the two after it (0 past the hand's end).
    :class:`_StartTable` stores the result (at most 16**3 keys per option value).
    """
    cards = [c for c in (key >> 8, (key >> 4) & 15, key & 15) if c]
    entries: list[tuple[int, int]] = []
    if cards[0] >= NACHZIEH:  # Stopp and Nachzieh: always alone, always playable
        entries.append((-_ALWAYS, play_id(0, 1)))
    windows = WINDOW_TABLES[x_with_x]
    for length in (1, 2, 3):
        window = tuple(cards[:length])
        if len(window) < length or window[-1] >= NACHZIEH:
            break  # a special card separates the cards beside it
        for declared, value in windows[window].items():
            entries.append((-value, play_id(0, length, declared)))
    entries.sort()
    negated = [e[0] for e in entries]  # increasing: the plays stronger than ``best`` lead
    beating = tuple(bisect_left(negated, -best) for best in _STRENGTHS)
    plays: list[StartPlays] = []
    for start in range(MAX_HAND):
        ids = tuple(start * PLAYS_PER_START + e[1] for e in entries)
        plays.append((beating, ids, tuple(map(ACTIONS.__getitem__, ids))))
    return tuple(plays)


LogEntry = tuple[str, int | None, Any]
"""An event as recorded on the hot path: (kind, seat, raw payload) or, for the acts of a
round, the :class:`Act` itself; see :func:`make_event`."""


def make_event(entry: LogEntry | Act) -> Event:
    """The public :class:`Event` for a log entry (card values drawn are ``private``).

    Kinds and their data: ``deal_start`` {deal}, ``round_start`` {round}, ``combination``
    {cards, x_values, kind, high, position}, ``stopp``/``nachzieh`` {position}, ``reserve``
    {card, position}, ``round_won`` {nachzieh}, ``draw`` {left} private {card}, ``insert``
    {position} private {card}, ``out``, ``concede``, ``chip_lost`` {chips}, ``no_chip``,
    ``deal_end`` {losers}, ``game_over`` {losers}. Positions count from 0.
    """
    if isinstance(entry, Act):
        return _act_event(entry)
    kind, seat, raw = entry
    data: dict[str, Any]
    private: dict[str, Any] | None = None
    if kind == "insert":
        data, private = {"position": raw[0]}, {"card": card_name(raw[1])}
    elif kind == "draw":
        data, private = {"left": raw[0]}, {"card": card_name(raw[1])}
    elif kind in ("deal_end", "game_over"):
        data = {"losers": list(raw)}
    elif raw is None:
        data = {}
    else:
        data = {_EVENT_FIELD[kind]: raw}
    return Event(kind, seat, data, private)


def _act_event(act: Act) -> Event:
    """The event of a combination, Stopp, Nachzieh or reserve card (an act of the round)."""
    data: dict[str, Any]
    if act.kind == "combination":
        data = {
            "cards": [card_name(c) for c in act.cards],
            "x_values": list(act.x_values),
            "kind": KIND_KEYS[kind_of(act.strength)],
            "high": high_of(act.strength),
            "position": act.position,
        }
    elif act.kind == "reserve":
        data = {"card": card_name(act.cards[0]), "position": act.position}
    else:  # stopp, nachzieh
        data = {"position": act.position}
    return Event(act.kind, act.seat, data)


_EVENT_FIELD: Final = {
    "round_won": "nachzieh",
    "round_start": "round",
    "deal_start": "deal",
    "chip_lost": "chips",
}


_ID_OF: Final[dict[Action, int]] = {action: i for i, action in enumerate(ACTIONS)}
_ID_OF_SHARED: Final[dict[int, int]] = {id(action): i for i, action in enumerate(ACTIONS)}
"""Ids of the shared action objects by object identity (``ACTIONS`` keeps them alive), so
that applying an action from :meth:`KKState.legal_actions` needs no dataclass hashing."""


class KKState(State[Action, "KKObservation"]):
    """A Krass Kariert game in progress.

    Public fields are read by the observation, the position writer and bots' tests; change
    them only through :meth:`apply` (or the position reader).
    """

    __slots__ = (
        "_current",
        "_events",
        "_log",
        "_start_table",
        "_windows",
        "act_index",
        "best",
        "best_seat",
        "chips",
        "deal",
        "discard",
        "draw_pile",
        "draws_left",
        "game",
        "hands",
        "history",
        "in_deal",
        "known",
        "leader",
        "losers",
        "nachzieh_played",
        "participants",
        "pending",
        "phase",
        "reserves",
        "round_acts",
        "round_winner",
        "rounds",
        "seed",
    )

    game: KrassKariert

    def __init__(self, game: KrassKariert, seed: int, *, deal_now: bool = True):
        self.game = game
        self.seed = seed
        self.history: list[Action] = []
        self._log: list[LogEntry | Act] = []
        self._events: list[Event] = []
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
        self.round_acts: list[Act] = []
        self.best = NO_COMBINATION
        """Strength of the highest combination in the round (what a follower must beat)."""
        self.best_seat = -1
        self.nachzieh_played = 0
        self.phase: str = PLAY
        self.pending: int | None = None
        """The card the round's winner has drawn and must insert now (phase ``draw``)."""
        self.draws_left = 0
        """Cards still to insert in phase ``draw``, the pending one included."""
        self.round_winner = -1
        self.losers: list[int] = []
        """Players who lost the game (set when it ends)."""
        self._current = 0
        x_with_x = game.options.x_with_x
        self._windows = WINDOW_TABLES[x_with_x]
        self._start_table = _START_TABLES[x_with_x]
        if deal_now:
            self._start_deal(leader=1 % n)  # the player left of the dealer (seat 0) leads

    # ----------------------------------------------------------------- protocol
    @property
    def events(self) -> list[Event]:
        """Everything that happened so far, oldest first (see :func:`make_event`).

        The rules record events compactly; this list is built on first use and extended on
        later calls, so play that never reads events does not pay for them.
        """
        made = self._events
        log = self._log
        if len(made) < len(log):
            made.extend(map(make_event, log[len(made) :]))
        return made

    @events.setter
    def events(self, value: list[Event]) -> None:
        # The given events stand for log entries already made; later ones append to both.
        self._events = list(value)
        self._log = [("external", None, None)] * len(self._events)

    @property
    def current_player(self) -> Seat:
        return TERMINAL if self.phase == OVER else self._current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        """-1 for each loser; the winners share the losers' loss equally (zero-sum)."""
        n = self.game.players
        if self.phase != OVER:
            return [0.0] * n
        k = len(self.losers)
        win = k / (n - k)
        return [-1.0 if s in self.losers else win for s in range(n)]

    def legal_action_ids(self) -> list[int]:
        """The legal actions' integer ids, in the order of :meth:`legal_actions`.

        Order: plays by starting position (strongest first at each position), then reserve
        cards by target position, then the concession; in phase ``draw`` the insertion
        positions from the front.
        """
        if self.phase == PLAY:
            return self._generate_play(self._current, 1, _ALL_IDS)
        return self._generate_outside_play(_ALL_IDS)

    def legal_actions(self) -> list[Action]:
        # Made afresh on every call (cheaper than keeping them): ``apply`` checks one action
        # with :meth:`is_legal_id` and never needs the whole list.
        if self.phase == PLAY:
            return self._generate_play(self._current, 2, ACTIONS)
        return self._generate_outside_play(ACTIONS)

    def apply(self, action: Action, *, seat: Seat | None = None) -> None:
        """Play ``action`` for the current player.

        Args:
            action: a legal action (see :meth:`legal_actions`).
            seat: if given, the seat submitting the action; it must be the one to move.

        Raises:
            GameOverError: the game has ended.
            NotYourTurnError: ``seat`` is given and is not to move.
            IllegalActionError: the action is not legal now (the message says why and what is).
            InvalidActionError: ``action`` is not a Krass Kariert action at all.
        """
        if self.phase == OVER or seat is not None:
            self._check_turn(seat)
        try:
            aid = _ID_OF_SHARED[id(action)]
        except KeyError:  # not one of the shared objects: an equal one, or something wrong
            try:
                aid = _ID_OF[action]
            except (KeyError, TypeError):
                aid = self._id_for_error(action)
        if not self.is_legal_id(aid):
            raise IllegalActionError(self.explain_illegal(action))
        self._apply_id(aid)

    def _id_for_error(self, action: object) -> int:
        """The id of an action that is not among the shared objects, or the right error."""
        try:
            return action_id(action)
        except InvalidActionError:
            if isinstance(action, Play | TakeReserve | InsertDrawn | Concede):
                raise IllegalActionError(self.explain_illegal(action)) from None
            raise

    def apply_id(self, aid: int, *, seat: Seat | None = None) -> None:
        """Apply the action with id ``aid``; raises like :meth:`apply` if it is not legal."""
        if self.phase == OVER or seat is not None:
            self._check_turn(seat)
        if type(aid) is not int or not 0 <= aid < len(ACTIONS):
            raise InvalidActionError(f"action id {aid!r} is outside 0..{len(ACTIONS) - 1}")
        if not self.is_legal_id(aid):
            raise IllegalActionError(self.explain_illegal(ACTIONS[aid]))
        self._apply_id(aid)

    def apply_unchecked(self, aid: int) -> None:
        """Apply a legal action id without checking (for search that generated it itself)."""
        self._apply_id(aid)

    def clone(self) -> KKState:
        other = KKState.__new__(KKState)
        other.game = self.game
        other.seed = self.seed
        other.history = self.history.copy()
        other._log = self._log.copy()
        other._events = self._events.copy()
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
        other.round_acts = self.round_acts.copy()
        other.best = self.best
        other.best_seat = self.best_seat
        other.nachzieh_played = self.nachzieh_played
        other.phase = self.phase
        other.pending = self.pending
        other.draws_left = self.draws_left
        other.round_winner = self.round_winner
        other.losers = self.losers.copy()
        other._current = self._current
        other._windows = self._windows
        other._start_table = self._start_table
        return other

    def observation(self, seat: Seat) -> KKObservation:
        from kartentisch.games.krass_kariert.observation import observe

        return observe(self, seat)

    def to_json(self) -> dict[str, Any]:
        from kartentisch.games.krass_kariert.position import state_to_json

        return state_to_json(self)

    def __str__(self) -> str:
        hands = " | ".join(" ".join(card_name(c) for c in h) for h in self.hands)
        return f"KK deal {self.deal} phase {self.phase} to move {self.current_player}: {hands}"

    # ----------------------------------------------------------------- legal actions
    def _check_turn(self, seat: Seat | None) -> None:
        if self.phase == OVER:
            raise GameOverError(
                f"the game is over (lost by seat {', '.join(map(str, self.losers))}); no more moves"
            )
        if seat is not None and seat != self._current:
            raise NotYourTurnError(f"seat {seat} cannot act: it is seat {self._current}'s turn")

    def _generate_outside_play(self, column: Sequence[_T]) -> list[_T]:
        """The legal actions in phases ``draw`` and ``over``, as ids (``column`` is
        :data:`_ALL_IDS`) or as the shared action objects (``column`` is ``ACTIONS``).

        Here and in :meth:`_generate_play` one code path serves both, so the two lists
        cannot disagree.
        """
        if self.phase == DRAW:  # the drawn card may go anywhere, front (0) to back (n)
            return list(column[INSERT_BASE : INSERT_BASE + len(self.hands[self._current]) + 1])
        return []

    def _generate_play(self, seat: int, k: Literal[1, 2], column: Sequence[Any]) -> list[Any]:
        """The legal moves in phase ``play``: the ids (``k`` = 1) or actions (``k`` = 2)."""
        table = self._start_table
        hand = self.hands[seat]
        cards = hand + _PAD
        key = cards[0] << 4 | cards[1]
        out: list[Any] = []
        # The plays starting at an index depend on the index and the three cards from there;
        # a start's entry is (beating counts, ids, actions), strongest first.
        if self.act_index == 0:  # the leader may play anything (a hand always has a play)
            for start, card in enumerate(cards[2:]):
                key = (key << 4 & 0xFFF) | card
                out += table[key][start][k]
            return out
        rank = self.best + 1
        for start, card in enumerate(cards[2:]):
            key = (key << 4 & 0xFFF) | card
            entry = table[key][start]
            beating = entry[0][rank]
            if beating:  # the strongest ``beating`` plays here beat the round's best
                out += entry[k][:beating]
        # A follower who does not beat must take a reserve card (allowed even when they
        # could beat); without reserve cards they concede the deal.
        reserves = self.reserves[seat]
        if reserves:
            n = len(hand)
            for r, card in enumerate(reserves):
                if r and card == reserves[0]:
                    continue  # the same card twice: one distinct move
                base = RESERVE_BASE + r * RESERVE_STRIDE
                out += column[base : base + n + 1]
        elif self.game.options.voluntary_concession or not out:
            out.append(column[CONCEDE_ID])
        return out

    def _entry_at(self, hand: list[int], start: int) -> StartPlays:
        """The start table's entry for the plays from ``hand[start]`` (which must exist)."""
        cards = hand[start : start + 3] + _PAD
        return self._start_table[cards[0] << 8 | cards[1] << 4 | cards[2]][start]

    def is_legal_id(self, aid: int) -> bool:
        """Whether the action id ``aid`` (0 to ``NUM_ACTIONS - 1``) is legal now.

        Decides for one action without listing all of them, so :meth:`apply` costs the same
        however many moves there are; a property test holds it to :meth:`legal_action_ids`.
        """
        phase = self.phase
        seat = self._current
        hand = self.hands[seat]
        if phase == DRAW:
            return INSERT_BASE <= aid <= INSERT_BASE + len(hand)
        if phase != PLAY:
            return False
        if aid < RESERVE_BASE:  # a play: legal if its start's entry lists it and it beats
            start = aid // PLAYS_PER_START
            if start >= len(hand):
                return False
            entry = self._entry_at(hand, start)
            try:
                k = entry[1].index(aid)
            except ValueError:
                return False
            return self.act_index == 0 or k < entry[0][self.best + 1]
        if self.act_index == 0 or INSERT_BASE <= aid < CONCEDE_ID:
            return False  # a leader only plays; insertions belong to phase draw
        reserves = self.reserves[seat]
        if aid == CONCEDE_ID:
            if reserves:
                return False
            if self.game.options.voluntary_concession:
                return True
            rank = self.best + 1
            return not any(self._entry_at(hand, i)[0][rank] for i in range(len(hand)))
        r, position = divmod(aid - RESERVE_BASE, RESERVE_STRIDE)
        return (r < len(reserves) and position <= len(hand)
                and not (r and reserves[r] == reserves[0]))

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, and what is allowed instead."""
        if self.phase == OVER:
            return "the game is over; no more moves"
        seat = self._current
        hand = self.hands[seat]
        try:
            text = format_action(action)
        except InvalidActionError:
            return f"{action!r} is not a Krass Kariert action"
        where = f"seat {seat}, hand {' '.join(card_name(c) for c in hand)}"
        if self.phase == DRAW:
            if isinstance(action, InsertDrawn):
                return (
                    f"{text!r}: the drawn card can go to positions 1 to {len(hand) + 1} ({where})"
                )
            return (
                f"{text!r} is not possible now: insert the drawn card first, at a position "
                f"from 1 to {len(hand) + 1} (e.g. @1)"
            )
        if isinstance(action, InsertDrawn):
            return f"{text!r}: there is no drawn card to insert"
        if isinstance(action, Play):
            return self._explain_play(action, text, hand, where)
        if isinstance(action, TakeReserve):
            return self._explain_reserve(action, text, hand, where)
        if self.act_index == 0:
            return f"{text!r}: the leader of a round must play a card, not concede"
        if self.reserves[seat]:
            return f"{text!r}: you still have a reserve card to take instead of beating"
        return (
            f"{text!r}: you can still beat or play a special card, so you may not concede "
            "(option voluntary_concession is off)"
        )

    def _explain_play(self, action: Play, text: str, hand: list[int], where: str) -> str:
        start, length = action.start, action.length
        if type(length) is not int or not 1 <= length <= 3:
            return f"{text!r}: a combination is 1 to 3 neighbouring cards"
        if type(start) is not int or start < 0 or start + length > len(hand):
            return f"{text!r}: your hand has only {len(hand)} cards ({where})"
        window = tuple(hand[start : start + length])
        names = "-".join(card_name(c) for c in window)
        if length > 1 and any(c >= NACHZIEH for c in window):
            return f"{text!r}: Stopp and Nachzieh are played alone, not in {names}"
        if window[0] >= NACHZIEH:
            return f"{text!r}: {names} is played alone and without an X value"
        n_x = window.count(X)
        options = self._windows[window]
        if n_x > 1 and not options:
            return f"{text!r}: two X cards cannot form one combination (option x_with_x is off)"
        if not options:
            return f"{text!r}: {names} is not a combination ({where})"
        beating = [d for d, v in options.items() if v > self.best]
        if len(action.x_values) != n_x:
            if not beating:
                return (
                    f"{text!r}: no value of the X card makes {names} beat "
                    f"{describe_strength(self.best)}"
                )
            example = format_action(Play(start, length, beating[0]))
            return (
                f"{text!r}: the window {names} holds {n_x} X card(s); declare exactly that many "
                f"values, e.g. {example}"
            )
        if action.x_values not in options:
            return f"{text!r}: {names} with X as {action.x_values} is not a combination"
        return (
            f"{text!r}: {describe_strength(options[action.x_values])} does not beat "
            f"{describe_strength(self.best)}; beat it, play Stopp or Nachzieh, or take a reserve"
        )

    def _explain_reserve(self, action: TakeReserve, text: str, hand: list[int], where: str) -> str:
        reserves = self.reserves[self._current]
        if self.act_index == 0:
            return f"{text!r}: the player who leads a round must play, not take a reserve"
        if type(action.reserve) is not int or not 0 <= action.reserve < len(reserves):
            return f"{text!r}: you have {len(reserves)} reserve card(s)"
        if type(action.position) is not int or not 0 <= action.position <= len(hand):
            return f"{text!r}: a card can go to positions 1 to {len(hand) + 1} ({where})"
        if action.reserve == 1 and reserves[0] == reserves[1]:
            same = format_action(TakeReserve(0, action.position))
            return f"{text!r}: both reserve cards are {card_name(reserves[0])}; say {same}"
        return f"{text!r} is not legal now"

    # ----------------------------------------------------------------- transitions
    def _apply_id(self, aid: int) -> None:
        seat = self._current
        action = ACTIONS[aid]
        self.history.append(action)
        hand = self.hands[seat]
        # One record per act serves the round so far and the event log (see make_event).
        # (``tuple.__new__(Act, ...)`` builds an Act without the named tuple's slower
        # Python-level ``__new__``.)
        act: Act
        if type(action) is Play:
            start = action.start
            end = start + action.length
            cards = tuple(hand[start:end])
            del hand[start:end]
            del self.known[seat][start:end]
            self.discard.extend(cards)  # the round's cards lie on the Ablagestapel
            first = cards[0]
            if first == STOPP:  # ends the round at once; the Stopp player wins it
                act = tuple.__new__(Act, (seat, "stopp", cards, (), NO_COMBINATION, start))
                self.round_acts.append(act)
                self._log.append(act)
                self.act_index += 1
                self._end_round(seat)
                return
            if first == NACHZIEH:  # does not change what must be beaten
                self.nachzieh_played += 1
                act = tuple.__new__(Act, (seat, "nachzieh", cards, (), NO_COMBINATION, start))
            else:
                xs = action.x_values
                value = self._windows[cards][xs]
                self.best = value
                self.best_seat = seat
                act = tuple.__new__(Act, (seat, "combination", cards, xs, value, start))
        elif type(action) is TakeReserve:
            card = self.reserves[seat].pop(action.reserve)
            position = action.position
            hand.insert(position, card)
            self.known[seat].insert(position, True)  # taken face up: the table saw where
            act = tuple.__new__(Act, (seat, "reserve", (card,), (), NO_COMBINATION, position))
        elif type(action) is InsertDrawn:
            drawn = self.pending
            if drawn is None:  # only reachable through apply_unchecked misuse
                raise IllegalActionError("there is no drawn card to insert")
            hand.insert(action.position, drawn)
            self.known[seat].insert(action.position, False)  # the table saw where, not what
            self._log.append(("insert", seat, (action.position, drawn)))
            self.pending = None
            self.draws_left -= 1
            if self.draws_left:
                self._draw_one()
            else:
                self._finish_round()
            return
        else:  # a follower without reserve cards gives up the deal
            self._log.append(("concede", seat, None))
            self._end_deal([seat])
            return
        # A combination, a Nachzieh or a reserve card: the next participant acts.
        self.round_acts.append(act)
        self._log.append(act)
        index = self.act_index = self.act_index + 1
        if index < len(self.participants):
            self._current = self.participants[index]
        else:
            # Everyone acted: the highest combination wins; with none, the leader (who led
            # Nachzieh) wins.
            self._end_round(self.best_seat if self.best_seat >= 0 else self.leader)

    def _end_round(self, winner: int) -> None:
        self.round_winner = winner
        self._log.append(("round_won", winner, self.nachzieh_played))
        if self.nachzieh_played:
            # The winner draws 3 cards per Nachzieh, one at a time, even with an empty hand.
            self.phase = DRAW
            self.draws_left = 3 * self.nachzieh_played
            self._current = winner
            self._draw_one()
        else:
            self._finish_round()

    def _draw_one(self) -> None:
        card = self.draw_pile.pop()  # never empty: at most 6 draws per deal, at least 6 cards
        self.pending = card
        self._log.append(("draw", self.round_winner, (self.draws_left, card)))

    def _finish_round(self) -> None:
        self.phase = PLAY
        self.rounds += 1
        winner = self.round_winner
        hands = self.hands
        for s in self.participants:
            if not hands[s]:  # no hand card left (reserves do not count): out of the deal
                self.in_deal[s] = False
                self._log.append(("out", s, None))
        holders = self.in_deal.count(True)
        if holders == 1:  # the last player holding cards loses a chip
            self._end_deal([self.in_deal.index(True)])
        elif not holders:  # all played out together: all but the round's winner lose a chip
            self._end_deal([s for s in self.participants if s != winner])
        else:
            self._start_round(self._next_leader(winner))

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

    def _start_round(self, leader: int) -> None:
        self.leader = leader
        in_deal = self.in_deal
        self.participants = [s for s in _ROUND_ORDER[len(in_deal)][leader] if in_deal[s]]
        self.act_index = 0
        self.round_acts = []
        self.best = NO_COMBINATION
        self.best_seat = -1
        self.nachzieh_played = 0
        self.round_winner = -1
        self._current = leader
        self._log.append(("round_start", leader, self.rounds + 1))

    def _start_deal(self, leader: int) -> None:
        game = self.game
        n = game.players
        deck = shuffled_deck(self.seed, self.deal)
        size = game.hand_size  # 10 cards, 7 with five players
        self.hands = [deck[i * size : (i + 1) * size] for i in range(n)]
        self.known = [[False] * size for _ in range(n)]
        rest = deck[n * size :]
        self.reserves = [rest[2 * i : 2 * i + 2] for i in range(n)]  # two face up each
        self.draw_pile = rest[2 * n :]
        self.discard = []
        self.in_deal = [True] * n  # players without chips keep playing
        self.phase = PLAY
        self.pending = None
        self.draws_left = 0
        self._log.append(("deal_start", leader, self.deal + 1))
        self._start_round(leader)

    def _end_deal(self, chip_losers: list[int]) -> None:
        self.round_winner = -1
        out: list[int] = []
        for s in chip_losers:
            if self.chips[s] == 0:  # must give a chip and has none: loses the game
                out.append(s)
                self._log.append(("no_chip", s, None))
            else:
                self.chips[s] -= 1
                self._log.append(("chip_lost", s, self.chips[s]))
        self._log.append(("deal_end", None, tuple(chip_losers)))
        if out:
            self.losers = out
            self.phase = OVER
            self._log.append(("game_over", None, tuple(out)))
            return
        self.deal += 1
        # The single chip loser leads the next deal; with several, the dealer (seat 0).
        self._start_deal(chip_losers[0] if len(chip_losers) == 1 else 0)
