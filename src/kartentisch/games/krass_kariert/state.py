"""Krass Kariert's rules as state transitions: pure, deterministic, no I/O.

Terms (the rulebook's): a *Durchgang* (deal) is played in *Runden* (rounds); each player
holds an ordered hand that is never sorted, two face-up *Reservekarten*, and chips. The
*Nachziehstapel* is the draw pile, the *Ablagestapel* the pile of played cards.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from kartentisch.core.errors import GameOverError, IllegalActionError
from kartentisch.core.protocol import TERMINAL, Event, Seat, State
from kartentisch.games.krass_kariert.actions import (
    ACTIONS,
    CONCEDE_ID,
    INSERT_BASE,
    RESERVE_BASE,
    Action,
    Concede,
    InsertDrawn,
    Play,
    TakeReserve,
    action_id,
    format_action,
    play_id,
)
from kartentisch.games.krass_kariert.actions import MAX_HAND as _MAX_HAND
from kartentisch.games.krass_kariert.cards import (
    DECK,
    KIND_KEYS,
    NACHZIEH,
    NO_COMBINATION,
    STOPP,
    WINDOW_TABLES,
    X,
    card_name,
    high_of,
    kind_of,
)

if TYPE_CHECKING:
    from kartentisch.games.krass_kariert.game import KrassKariert
    from kartentisch.games.krass_kariert.observation import KKObservation

PLAY: Final = "play"
DRAW: Final = "draw"
OVER: Final = "over"

_RESERVE_STRIDE: Final = _MAX_HAND + 1


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


def deal_rng(seed: int, deal: int) -> random.Random:
    """The generator for one deal's shuffle, derived from the game seed alone."""
    return random.Random(f"krass-kariert/{seed}/{deal}")


class KKState(State[Action, "KKObservation"]):
    """A Krass Kariert game in progress."""

    __slots__ = (
        "_current", "_legal", "act_index", "best", "best_seat", "chips", "deal", "discard",
        "draw_pile", "draws_left", "events", "game", "hands", "history", "in_deal", "known",
        "leader", "losers", "nachzieh_played", "participants", "pending", "phase", "reserves",
        "round_acts", "round_winner", "rounds", "seed", "_windows",
    )

    def __init__(self, game: KrassKariert, seed: int, *, deal_now: bool = True):
        self.game = game
        self.seed = seed
        self.history: list[Action] = []
        self.events: list[Event] = []
        n = game.players
        self.chips: list[int] = [game.starting_chips] * n
        self.deal = 0
        self.rounds = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[bool]] = [[] for _ in range(n)]
        self.reserves: list[list[int]] = [[] for _ in range(n)]
        self.draw_pile: list[int] = []
        self.discard: list[int] = []
        self.in_deal: list[bool] = [True] * n
        self.participants: list[int] = []
        self.act_index = 0
        self.leader = 0
        self.round_acts: list[Act] = []
        self.best = NO_COMBINATION
        self.best_seat = -1
        self.nachzieh_played = 0
        self.phase = PLAY
        self.pending: int | None = None
        self.draws_left = 0
        self.round_winner = -1
        self.losers: list[int] = []
        self._current = 0
        self._legal: list[int] | None = None
        self._windows = WINDOW_TABLES[game.options.x_with_x]
        if deal_now:
            self._start_deal(leader=1 % n)

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
        k = len(self.losers)
        win = k / (n - k)
        return [-1.0 if s in self.losers else win for s in range(n)]

    def legal_action_ids(self) -> list[int]:
        """The legal actions' integer ids (the fast path for search and RL)."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def legal_actions(self) -> list[Action]:
        return [ACTIONS[i] for i in self.legal_action_ids()]

    def apply(self, action: Action) -> None:
        if self.phase == OVER:
            raise GameOverError("the game is over; no more moves")
        aid = action_id(action)
        if aid not in self.legal_action_ids():
            raise IllegalActionError(self.explain_illegal(action))
        self._apply_id(aid)

    def apply_id(self, aid: int) -> None:
        """Apply the action with id ``aid``; raises if it is not legal."""
        if self.phase == OVER:
            raise GameOverError("the game is over; no more moves")
        if aid not in self.legal_action_ids():
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
        other.events = self.events.copy()
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
        other._legal = self._legal
        other._windows = self._windows
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
    def _generate(self) -> list[int]:
        if self.phase == OVER:
            return []
        seat = self._current
        hand = self.hands[seat]
        n = len(hand)
        if self.phase == DRAW:
            return list(range(INSERT_BASE, INSERT_BASE + n + 1))
        best = self.best
        windows = self._windows
        ids: list[int] = []
        for start in range(n):
            card = hand[start]
            if card >= NACHZIEH:  # Stopp and Nachzieh: always playable, alone
                ids.append(play_id(start, 1))
                continue
            base = start * 3 * 169
            for length in (1, 2, 3):
                end = start + length
                if end > n:
                    break
                if hand[end - 1] >= NACHZIEH:
                    break
                options = windows[tuple(hand[start:end])]
                for declared, value in options:
                    if value > best:
                        if declared:
                            ids.append(play_id(start, length, declared))
                        else:
                            ids.append(base + (length - 1) * 169)
        if self.act_index == 0:
            return ids
        reserves = self.reserves[seat]
        if reserves:
            for r, card in enumerate(reserves):
                if r and card == reserves[0]:
                    continue  # the same card twice: one distinct move
                base = RESERVE_BASE + r * _RESERVE_STRIDE
                ids.extend(range(base, base + n + 1))
        elif self.game.options.voluntary_concession or not ids:
            ids.append(CONCEDE_ID)
        return ids

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, and what is allowed instead."""
        seat = self._current
        hand = self.hands[seat]
        text = format_action(action)
        if self.phase == DRAW:
            return (f"{text!r} is not possible: insert the drawn card first, at a position "
                    f"from 1 to {len(hand) + 1} (e.g. @1)")
        if isinstance(action, InsertDrawn):
            return f"{text!r}: there is no drawn card to insert"
        if isinstance(action, Play):
            end = action.start + action.length
            if end > len(hand):
                return f"{text!r}: your hand has only {len(hand)} cards"
            window = tuple(hand[action.start:end])
            names = "-".join(card_name(c) for c in window)
            if action.length > 1 and any(c >= NACHZIEH for c in window):
                return f"{text!r}: Stopp and Nachzieh are played alone, not in {names}"
            n_x = window.count(X)
            if len(action.x_values) != n_x:
                return (f"{text!r}: the window {names} holds {n_x} X card(s); declare exactly "
                        f"that many values, e.g. {format_action(Play(action.start, action.length, (7,) * n_x))}")
            options = dict(self._windows[window])
            if action.x_values not in options:
                return f"{text!r}: {names} is not a combination"
            if options[action.x_values] <= self.best:
                return f"{text!r}: {describe_strength(options[action.x_values])} does not beat " \
                       f"{describe_strength(self.best)}"
            return f"{text!r} is not legal now"
        if isinstance(action, TakeReserve):
            if self.act_index == 0:
                return f"{text!r}: the player who leads a round must play, not take a reserve"
            if action.reserve >= len(self.reserves[seat]):
                return f"{text!r}: you have {len(self.reserves[seat])} reserve card(s)"
            if action.position > len(hand):
                return f"{text!r}: a card can go to positions 1 to {len(hand) + 1}"
            return f"{text!r} is not legal now"
        if self.act_index == 0:
            return f"{text!r}: the leader of a round cannot concede"
        if self.reserves[seat]:
            return f"{text!r}: you still have a reserve card to take"
        return f"{text!r}: you can still beat or play a special card (option voluntary_concession is off)"

    # ----------------------------------------------------------------- transitions
    def _apply_id(self, aid: int) -> None:
        seat = self._current
        action = ACTIONS[aid]
        self.history.append(action)
        self._legal = None
        hand = self.hands[seat]
        if type(action) is Play:
            start, end = action.start, action.start + action.length
            cards = tuple(hand[start:end])
            del hand[start:end]
            del self.known[seat][start:end]
            self.discard.extend(cards)  # the round's cards lie on the Ablagestapel
            first = cards[0]
            if first == STOPP:
                self.round_acts.append(Act(seat, "stopp", cards, (), NO_COMBINATION, start))
                self.events.append(Event("stopp", seat, {"position": start}))
                self._end_round(seat)
                return
            if first == NACHZIEH:
                self.nachzieh_played += 1
                self.round_acts.append(Act(seat, "nachzieh", cards, (), NO_COMBINATION, start))
                self.events.append(Event("nachzieh", seat, {"position": start}))
            else:
                value = dict(self._windows[cards])[action.x_values]
                self.best = value
                self.best_seat = seat
                self.round_acts.append(Act(seat, "combination", cards, action.x_values, value, start))
                self.events.append(Event("combination", seat, {
                    "cards": [card_name(c) for c in cards], "x_values": list(action.x_values),
                    "kind": KIND_KEYS[kind_of(value)], "high": high_of(value),
                    "position": start}))
            self._next_turn()
        elif type(action) is TakeReserve:
            card = self.reserves[seat].pop(action.reserve)
            hand.insert(action.position, card)
            self.known[seat].insert(action.position, True)
            self.round_acts.append(Act(seat, "reserve", (card,), (), NO_COMBINATION, action.position))
            self.events.append(Event("reserve", seat, {"card": card_name(card),
                                                       "position": action.position}))
            self._next_turn()
        elif type(action) is InsertDrawn:
            assert self.pending is not None
            hand.insert(action.position, self.pending)
            self.known[seat].insert(action.position, False)
            self.events.append(Event("insert", seat, {"position": action.position},
                                     {"card": card_name(self.pending)}))
            self.pending = None
            self.draws_left -= 1
            if self.draws_left:
                self._draw_one()
            else:
                self._finish_round()
        else:
            self.events.append(Event("concede", seat, {}))
            self._end_deal([seat])

    def _next_turn(self) -> None:
        self.act_index += 1
        if self.act_index >= len(self.participants):
            self._end_round(self.best_seat if self.best_seat >= 0 else self.leader)
        else:
            self._current = self.participants[self.act_index]

    def _end_round(self, winner: int) -> None:
        self.round_winner = winner
        self.events.append(Event("round_won", winner, {"nachzieh": self.nachzieh_played}))
        if self.nachzieh_played:
            self.phase = DRAW
            self.draws_left = 3 * self.nachzieh_played
            self._current = winner
            self._draw_one()
        else:
            self._finish_round()

    def _draw_one(self) -> None:
        card = self.draw_pile.pop()
        self.pending = card
        self.events.append(Event("draw", self.round_winner, {"left": self.draws_left},
                                 {"card": card_name(card)}))

    def _finish_round(self) -> None:
        self.phase = PLAY
        self.rounds += 1
        winner = self.round_winner
        hands = self.hands
        for s in self.participants:
            if not hands[s]:
                self.in_deal[s] = False
                self.events.append(Event("out", s, {}))
        holders = [s for s in range(self.game.players) if self.in_deal[s]]
        if len(holders) == 1:
            self._end_deal(holders)
        elif not holders:
            self._end_deal([s for s in self.participants if s != winner])
        else:
            self._start_round(self._next_leader(winner))

    def _next_leader(self, winner: int) -> int:
        if self.hands[winner]:
            return winner
        others = sorted((a for a in self.round_acts if a.kind == "combination" and a.seat != winner),
                        key=lambda a: -a.strength)
        if self.game.options.next_leader_fallback == "right_neighbour":
            others = others[:1]
        for act in others:
            if self.hands[act.seat]:
                return act.seat
        n = self.game.players
        seat = winner
        for _ in range(n):
            seat = (seat - 1) % n
            if self.in_deal[seat]:
                return seat
        raise AssertionError("no player left to lead")  # _finish_round ends the deal first

    def _start_round(self, leader: int) -> None:
        n = self.game.players
        self.leader = leader
        self.participants = [s for s in ((leader + i) % n for i in range(n)) if self.in_deal[s]]
        self.act_index = 0
        self.round_acts = []
        self.best = NO_COMBINATION
        self.best_seat = -1
        self.nachzieh_played = 0
        self.round_winner = -1
        self._current = leader
        self.events.append(Event("round_start", leader, {"round": self.rounds + 1}))

    def _start_deal(self, leader: int) -> None:
        game = self.game
        n = game.players
        deck = list(DECK)
        deal_rng(self.seed, self.deal).shuffle(deck)
        size = game.hand_size
        self.hands = [deck[i * size:(i + 1) * size] for i in range(n)]
        self.known = [[False] * size for _ in range(n)]
        rest = deck[n * size:]
        self.reserves = [rest[2 * i:2 * i + 2] for i in range(n)]
        self.draw_pile = rest[2 * n:]
        self.discard = []
        self.in_deal = [True] * n
        self.phase = PLAY
        self.pending = None
        self.draws_left = 0
        self.events.append(Event("deal_start", leader, {"deal": self.deal + 1}))
        self._start_round(leader)

    def _end_deal(self, chip_losers: list[int]) -> None:
        self.round_winner = -1
        out: list[int] = []
        for s in chip_losers:
            if self.chips[s] == 0:
                out.append(s)
                self.events.append(Event("no_chip", s, {}))
            else:
                self.chips[s] -= 1
                self.events.append(Event("chip_lost", s, {"chips": self.chips[s]}))
        self.events.append(Event("deal_end", None, {"losers": list(chip_losers)}))
        if out:
            self.losers = out
            self.phase = OVER
            self._legal = []
            self.events.append(Event("game_over", None, {"losers": out}))
            return
        self.deal += 1
        self._start_deal(chip_losers[0] if len(chip_losers) == 1 else 0)


def describe_strength(value: int) -> str:
    """Plain English for a strength, used in error messages (``pair of 5``)."""
    if value == NO_COMBINATION:
        return "nothing"
    return f"{KIND_KEYS[kind_of(value)]} of {high_of(value)}"
