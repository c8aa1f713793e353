"""Casino's rules as state transitions: pure, deterministic, no I/O.

Terms: a *pack* is one pass through the 52 cards (the first *deal* of a pack puts four
cards on the *table*; later deals give each player four more). Table items are *loose*
cards and *builds*. A build is one unit taken only whole and only by its value; it is
*single* when its cards add up to exactly its value (it may then be *raised*), otherwise
*multiple* (a "call": several groups of the same value, never raised). Whoever last made or
changed a build *owns* it. Points are scored per *side*: a seat, or a partnership of two.

The state keeps the transitions; the legal moves come from :mod:`.movegen`, the
explanations of refused moves from :mod:`.explain`, the points of a pack from
:mod:`.scoring`.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any, Final

from kartentisch.core.errors import IllegalActionError
from kartentisch.core.protocol import TERMINAL, Event, Seat, State
from kartentisch.core.rng import shuffled
from kartentisch.games.casino.actions import Action, Build, Capture
from kartentisch.games.casino.cards import DECK, card_name, card_names
from kartentisch.games.casino.explain import why_illegal
from kartentisch.games.casino.movegen import _INTERNED, action_of, legal_ids
from kartentisch.games.casino.scoring import (
    SCORE_ITEMS,
    TARGET,
    count_out_order,
    score_pack,
)
from kartentisch.games.casino.table import BuildUnit, PlayRecord, describe_table, trail_banned

if TYPE_CHECKING:
    from kartentisch.games.casino.game import Casino
    from kartentisch.games.casino.observation import CasinoObservation

__all__ = ["OVER", "PLAY", "SCORE_ITEMS", "TARGET", "BuildUnit", "CasinoState", "PlayRecord",
           "deal_order"]

PLAY: Final = "play"
OVER: Final = "over"


def deal_order(seed: int, pack: int) -> list[int]:
    """The shuffled pack ``pack`` of the game with ``seed``; cards are dealt from the end."""
    return shuffled(DECK, seed, "casino", pack)


def _copy_json(value: Any) -> Any:
    """A copy of a JSON-like value (dicts and lists copied all the way down)."""
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value


def _copy_event(event: Event) -> Event:
    """``event`` with its payload copied, so a clone's events share nothing mutable."""
    private = None if event.private is None else _copy_json(dict(event.private))
    return Event(event.kind, event.seat, _copy_json(dict(event.data)), private)


class CasinoState(State[Action, "CasinoObservation"]):
    """A Casino game in progress."""

    __slots__ = (
        "_current", "_legal", "builds", "captured", "dealer", "deck", "events", "game",
        "hands", "history", "last_capturer", "last_turn", "loose", "pack", "pack_results",
        "phase", "plays", "scores", "seed", "sweeps", "turn", "winners",
    )

    game: Casino

    def __init__(self, game: Casino, seed: int, *, deal_now: bool = True):
        self.game = game
        self.seed = seed
        self.history: list[Action] = []
        self.events: list[Event] = []
        n = game.players
        self.pack = 0
        """Packs started before this one."""
        self.dealer = 0
        self.deck: list[int] = []
        """The rest of the pack; the next card dealt is the last."""
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.loose: list[int] = []
        """Loose table cards, ascending."""
        self.builds: dict[int, BuildUnit] = {}
        """Builds on the table by value (never two of one value)."""
        self.captured: list[list[int]] = [[] for _ in range(n)]
        """Cards each seat captured this pack, in the order taken."""
        self.sweeps: list[int] = [0] * n
        self.last_capturer = -1
        self.turn = 0
        self.last_turn: list[int] = [-1] * n
        """The turn of each seat's latest play (for the trail ban)."""
        self.plays: list[PlayRecord] = []
        self.scores: list[int] = [0] * game.sides
        self.pack_results: list[dict[str, list[int]]] = []
        """Per finished pack: points per side for each scoring item and ``total``."""
        self.phase = PLAY
        self.winners: list[int] = []
        """Winning sides, once the game is over."""
        self._current = 0
        self._legal: tuple[int, ...] | None = None
        """The legal ids, ascending (computed on demand; a tuple, so it is safe to share)."""
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
        """Every distinct legal action, in ascending id order (shared immutable objects)."""
        get = _INTERNED.get  # inlined action_of: a call per action costs more than the lookup
        return [get(i) or action_of(i) for i in self.legal_action_ids()]

    def is_legal_id(self, aid: int) -> bool:
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_ids(self)
        i = bisect.bisect_left(legal, aid)  # the ids are sorted
        return i < len(legal) and legal[i] == aid

    def apply_unchecked(self, aid: int) -> None:
        self._apply(_INTERNED.get(aid) or action_of(aid))

    def why_illegal(self, action: Action) -> IllegalActionError:
        return why_illegal(self, action)

    def clone(self) -> CasinoState:
        other = CasinoState.__new__(CasinoState)
        other.game = self.game
        other.seed = self.seed
        other.history = self.history.copy()  # actions are frozen
        other.events = [_copy_event(e) for e in self.events]
        other.pack = self.pack
        other.dealer = self.dealer
        other.deck = self.deck.copy()
        other.hands = [h.copy() for h in self.hands]
        other.loose = self.loose.copy()
        other.builds = self.builds.copy()  # build units are frozen
        other.captured = [c.copy() for c in self.captured]
        other.sweeps = self.sweeps.copy()
        other.last_capturer = self.last_capturer
        other.turn = self.turn
        other.last_turn = self.last_turn.copy()
        other.plays = self.plays.copy()  # play records are tuples
        other.scores = self.scores.copy()
        other.pack_results = [{k: v.copy() for k, v in r.items()} for r in self.pack_results]
        other.phase = self.phase
        other.winners = self.winners.copy()
        other._current = self._current
        other._legal = self._legal  # a tuple
        return other

    def observation(self, seat: Seat | None) -> CasinoObservation:
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
    def table_items(self) -> list[int | BuildUnit]:
        """The table in its canonical, labelled order: loose cards, then builds by value."""
        return [*self.loose, *(self.builds[v] for v in sorted(self.builds))]

    def trail_banned(self, seat: int) -> bool:
        """Whether the trail ban (option ``trail_ban``) forbids ``seat`` to trail now."""
        return trail_banned(self.game.options.trail_ban, self.builds, seat, self.last_turn[seat])

    # ----------------------------------------------------------------- transitions
    def _apply(self, action: Action) -> None:
        seat = self._current
        card = action.card
        self.history.append(action)
        self._legal = None
        self.hands[seat].remove(card)
        turn = self.turn
        if type(action) is Capture:
            taken = list(action.loose)
            for c in action.loose:
                self.loose.remove(c)
            if action.build:
                taken.extend(self.builds.pop(action.build).cards)
            self.captured[seat].append(card)
            self.captured[seat].extend(taken)
            self.last_capturer = seat
            last_play = not self.deck and not any(self.hands)
            sweep = (self.game.options.sweeps and not self.loose and not self.builds
                     and not last_play)
            if sweep:
                self.sweeps[seat] += 1
            self.plays.append(PlayRecord(seat, "capture", card, tuple(taken), 0, sweep))
            self.events.append(Event("capture", seat, {
                "card": card_name(card), "taken": card_names(taken), "sweep": sweep}))
        elif type(action) is Build:
            joined = list(action.loose)
            for c in action.loose:
                self.loose.remove(c)
            if action.raised:
                joined.extend(self.builds.pop(action.raised).cards)
            if action.merged:
                joined.extend(self.builds.pop(action.value).cards)
            unit = BuildUnit(action.value, tuple(sorted([card, *joined])), seat, turn)
            self.builds[action.value] = unit
            self.plays.append(PlayRecord(seat, "build", card, tuple(joined), action.value))
            self.events.append(Event("build", seat, {
                "card": card_name(card), "joined": card_names(joined), "value": action.value,
                "multiple": unit.multiple, "raised": action.raised}))
        else:
            bisect.insort(self.loose, card)
            self.plays.append(PlayRecord(seat, "trail", card))
            self.events.append(Event("trail", seat, {"card": card_name(card)}))
        self.last_turn[seat] = turn
        self.turn = turn + 1
        n = self.game.players
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if self.hands[nxt]:
                self._current = nxt
                return
        if self.deck:
            self._deal_hands()
        else:
            self._end_pack()

    def _deal_hands(self) -> None:
        """Deal four more cards to each player, two at a time, from left of the dealer."""
        n = self.game.players
        deck = self.deck
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        for _ in range(2):
            for s in order:
                self.hands[s].extend((deck.pop(), deck.pop()))
        for s in order:
            self.events.append(Event("deal", s, {"cards": 4, "pack_left": len(deck)},
                                     {"hand": card_names(sorted(self.hands[s]))}))
        self._current = order[0]

    def _start_pack(self) -> None:
        """Shuffle and make the first deal of a pack (four cards to each and to the table)."""
        n = self.game.players
        deck = deal_order(self.seed, self.pack)
        self.deck = deck
        self.hands = [[] for _ in range(n)]
        self.loose = []
        self.builds = {}
        self.captured = [[] for _ in range(n)]
        self.sweeps = [0] * n
        self.last_capturer = -1
        self.last_turn = [-1] * n
        self.plays = []
        self.events.append(Event("pack_start", self.dealer, {"pack": self.pack + 1}))
        order = [(self.dealer + 1 + i) % n for i in range(n - 1)]
        table: list[int] = []
        for _ in range(2):  # to each non-dealer, then the table, then the dealer
            for s in order:
                self.hands[s].extend((deck.pop(), deck.pop()))
            table.extend((deck.pop(), deck.pop()))
            self.hands[self.dealer].extend((deck.pop(), deck.pop()))
        self.loose = sorted(table)
        self.events.append(Event("table", None, {"cards": card_names(self.loose)}))
        for s in [*order, self.dealer]:
            self.events.append(Event("deal", s, {"cards": 4, "pack_left": len(deck)},
                                     {"hand": card_names(sorted(self.hands[s]))}))
        self._current = (self.dealer + 1) % n

    def _end_pack(self) -> None:
        """The last capturer takes the table; score the pack; end the game or start another."""
        taker = self.last_capturer if self.last_capturer >= 0 else self.dealer
        rest = list(self.loose)
        for v in sorted(self.builds):
            rest.extend(self.builds[v].cards)
        self.loose = []
        self.builds = {}
        if rest:
            self.captured[taker].extend(rest)
            self.plays.append(PlayRecord(taker, "table", -1, tuple(rest)))
            self.events.append(Event("table_taken", taker, {"cards": card_names(rest)}))
        items = score_pack(self.captured, self.sweeps, self.game.sides, self.game.side_of)
        self.pack_results.append(items)
        game_won = -1
        if self.game.options.count_out:
            game_won = self._count_out()
        else:
            for s, p in enumerate(items["total"]):
                self.scores[s] += p
            top = max(self.scores)
            leaders = [s for s, p in enumerate(self.scores) if p == top]
            if top >= TARGET and len(leaders) == 1:
                game_won = leaders[0]
        self.events.append(Event("pack_end", None, {
            "pack": self.pack + 1, "points": {k: list(v) for k, v in items.items()},
            "scores": list(self.scores)}))
        if game_won >= 0:
            self.winners = [game_won]
            self.phase = OVER
            self._legal = ()
            self.events.append(Event("game_over", None, {"winners": [game_won],
                                                         "scores": list(self.scores)}))
            return
        self.pack += 1
        self.dealer = (self.dealer + 1) % self.game.players
        self._start_pack()

    def _count_out(self) -> int:
        """Add the pack's points item by item; the first side to reach 21 wins (else -1)."""
        for side, kind in count_out_order(self.captured, self.sweeps, self.plays,
                                          self.game.sides, self.game.side_of):
            self.scores[side] += kind
            if self.scores[side] >= TARGET:
                return side
        return -1
