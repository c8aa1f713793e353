"""Casino's rules as state transitions: pure, deterministic, no I/O.

Terms: a *pack* is one pass through the 52 cards (the first *deal* of a pack puts four
cards on the *table*; later deals give each player four more). Table items are *loose*
cards and *builds*. A build is one unit taken only whole and only by its value; it is
*single* when its cards add up to exactly its value (it may then be *raised*), otherwise
*multiple* (a "call": several groups of the same value, never raised). Whoever last made or
changed a build *owns* it. Points are scored per *side*: a seat, or a partnership of two.
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from kartentisch.core.errors import GameOverError, IllegalActionError
from kartentisch.core.protocol import TERMINAL, Event, Seat, State
from kartentisch.games.casino.actions import (
    CODE_BUILD,
    CODE_BUILD_MERGE,
    CODE_CAPTURE,
    CODE_CAPTURE_BUILD,
    CODE_RAISE,
    CODE_RAISE_MERGE,
    CODE_TRAIL,
    MASK_BITS,
    NUM_CODES,
    Action,
    Build,
    Capture,
    action_from_id,
    action_id,
    format_action,
    loose_mask,
)
from kartentisch.games.casino.cards import (
    BIG_CASINO,
    DECK,
    LITTLE_CASINO,
    SPADES,
    VALUES,
    card_name,
    card_names,
    is_face,
    rank_of,
    suit_of,
)

if TYPE_CHECKING:
    from kartentisch.games.casino.game import Casino
    from kartentisch.games.casino.observation import CasinoObservation

PLAY: Final = "play"
OVER: Final = "over"
TARGET: Final = 21
"""Points that end the game."""

SCORE_ITEMS: Final = ("cards", "spades", "big_casino", "little_casino", "aces", "sweeps")
"""Scoring items, in the order option ``count_out`` counts them."""


@dataclass(frozen=True, slots=True)
class BuildUnit:
    """A build on the table."""

    value: int
    cards: tuple[int, ...]
    """Its cards, ascending."""
    owner: int
    """The seat that last made or changed it."""
    turn: int
    """The game turn (0-based, counting every play) on which it was last made or changed."""

    @property
    def multiple(self) -> bool:
        """Whether it is a multiple build (a call), which can never be raised."""
        return sum(VALUES[c] for c in self.cards) != self.value


class PlayRecord(NamedTuple):
    """One public entry of the pack's log."""

    seat: int
    kind: str
    """``capture``, ``build``, ``trail`` or ``table`` (the rest of the table at pack end)."""
    card: int
    """The card played (-1 for ``table``)."""
    cards: tuple[int, ...] = ()
    """Table cards taken (capture, table) or joined into the build (build)."""
    value: int = 0
    """The build's value (build)."""
    sweep: bool = False
    """Whether a capture cleared the table and scored a sweep."""


def deal_rng(seed: int, pack: int) -> random.Random:
    """The generator for one pack's shuffle, derived from the game seed alone."""
    return random.Random(f"casino/{seed}/{pack}")


def subsets_by_sum(numerals: list[int]) -> list[list[int]]:
    """``out[k]``: bitmasks of every subset of ``numerals`` (cards) whose values sum to k <= 10."""
    out: list[list[int]] = [[] for _ in range(11)]
    cards = sorted(numerals, key=lambda c: VALUES[c])

    def dfs(start: int, total: int, mask: int) -> None:
        for i in range(start, len(cards)):
            c = cards[i]
            t = total + VALUES[c]
            if t > 10:
                return  # sorted by value: every later card is at least as large
            m = mask | (1 << c)
            out[t].append(m)
            dfs(i + 1, t, m)

    dfs(0, 0, 0)
    return out


def disjoint_unions(groups: list[int]) -> list[int]:
    """Every union of pairwise disjoint groups (bitmasks), the empty union included, sorted."""
    by_low: dict[int, list[int]] = {}
    for g in groups:
        by_low.setdefault(g & -g, []).append(g)
    lows = sorted(by_low)
    seen: set[int] = set()

    def dfs(i: int, used: int) -> None:
        if i == len(lows):
            seen.add(used)
            return
        dfs(i + 1, used)
        if used & lows[i]:
            return
        for g in by_low[lows[i]]:
            if not g & used:
                dfs(i + 1, used | g)

    dfs(0, 0)
    return sorted(seen)


def can_partition(cards: list[int], value: int) -> bool:
    """Whether ``cards`` split into groups that each add up to ``value``."""
    values = sorted((VALUES[c] for c in cards), reverse=True)
    total = sum(values)
    if not values or 0 in values or total % value:
        return False
    bins = [0] * (total // value)

    def place(i: int) -> bool:
        if i == len(values):
            return True
        tried = set()
        for b in range(len(bins)):
            if bins[b] in tried or bins[b] + values[i] > value:
                continue
            tried.add(bins[b])
            bins[b] += values[i]
            if place(i + 1):
                return True
            bins[b] -= values[i]
        return False

    return place(0)


_INTERNED: dict[int, Action] = {}
"""Action objects by id, shared between states (a pure cache; cleared when it grows large)."""
_INTERN_LIMIT: Final = 200_000


def _intern(aid: int) -> Action:
    """The shared action object for ``aid``."""
    if len(_INTERNED) >= _INTERN_LIMIT:
        _INTERNED.clear()
    action = _INTERNED[aid] = action_from_id(aid)
    return action


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
        self._legal: dict[int, Action] | None = None
        """The legal actions by id, ascending (computed on demand)."""
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

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal.values())

    def legal_action_ids(self) -> list[int]:
        """The legal actions' integer ids, ascending (the fast path for search and RL)."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def apply(self, action: Action) -> None:
        if self.phase == OVER:
            raise GameOverError("the game is over; no more moves")
        if self._legal is None:
            self._legal = self._generate()
        if self._legal.get(action_id(action)) != action:
            raise IllegalActionError(self.explain_illegal(action))
        self._apply(action)

    def apply_id(self, aid: int) -> None:
        """Apply the action with id ``aid``; raises if it is not legal."""
        if self.phase == OVER:
            raise GameOverError("the game is over; no more moves")
        if self._legal is None:
            self._legal = self._generate()
        action = self._legal.get(aid)
        if action is None:
            raise IllegalActionError(self.explain_illegal(action_from_id(aid)))
        self._apply(action)

    def apply_unchecked(self, aid: int) -> None:
        """Apply a legal action id without checking (for search that generated it itself)."""
        action = self._legal.get(aid) if self._legal is not None else None
        self._apply(action if action is not None else action_from_id(aid))

    def clone(self) -> CasinoState:
        other = CasinoState.__new__(CasinoState)
        other.game = self.game
        other.seed = self.seed
        other.history = self.history.copy()
        other.events = self.events.copy()
        other.pack = self.pack
        other.dealer = self.dealer
        other.deck = self.deck.copy()
        other.hands = [h.copy() for h in self.hands]
        other.loose = self.loose.copy()
        other.builds = self.builds.copy()
        other.captured = [c.copy() for c in self.captured]
        other.sweeps = self.sweeps.copy()
        other.last_capturer = self.last_capturer
        other.turn = self.turn
        other.last_turn = self.last_turn.copy()
        other.plays = self.plays.copy()
        other.scores = self.scores.copy()
        other.pack_results = [{k: v.copy() for k, v in r.items()} for r in self.pack_results]
        other.phase = self.phase
        other.winners = self.winners.copy()
        other._current = self._current
        other._legal = self._legal
        return other

    def observation(self, seat: Seat) -> CasinoObservation:
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

    # ----------------------------------------------------------------- legal actions
    def _generate(self) -> dict[int, Action]:
        if self.phase == OVER:
            return {}
        seat = self._current
        hand = self.hands[seat]
        options = self.game.options
        builds = self.builds
        numerals = [c for c in self.loose if VALUES[c]]
        sums = subsets_by_sum(numerals)
        unions: dict[int, list[int]] = {}

        def unions_of(v: int) -> list[int]:
            if v not in unions:
                unions[v] = disjoint_unions(sums[v])
            return unions[v]

        held = [0] * 11
        for c in hand:
            held[VALUES[c]] += 1
        owned = [v for v, b in builds.items() if b.owner == seat]
        keeps = options.owner_keeps_capture_card and bool(owned)
        keyed: list[int] = []  # legal ids; the action objects are made (or reused) at the end
        add = keyed.append
        can_capture: set[int] = set()
        hand_sorted = sorted(hand)
        for card in hand_sorted:
            cv = VALUES[card]
            base = card * NUM_CODES
            # Owner's duty: every build the player owns after the play needs a card of its
            # value left in the hand. ``short`` lists owned values the play would leave bare.
            short = [v for v in owned if held[v] - (v == cv) <= 0] if keeps else []
            # captures
            if cv == 0:
                rank = rank_of(card)
                faces = [c for c in self.loose if rank_of(c) == rank]
                if faces:
                    can_capture.add(card)
                    if not short:
                        key = (base + CODE_CAPTURE) << MASK_BITS
                        if options.face_cards_capture_all:
                            add(key | loose_mask(tuple(faces)))
                        else:
                            keyed.extend(key | (1 << c) for c in faces)
                continue
            has_build = cv in builds
            ok_plain = not short
            ok_taking = not short or short == [cv]
            for mask in unions_of(cv):
                if mask:
                    can_capture.add(card)
                    if ok_plain:
                        add(((base + CODE_CAPTURE) << MASK_BITS) | mask)
                if has_build:
                    can_capture.add(card)
                    if ok_taking:
                        add(((base + CODE_CAPTURE_BUILD) << MASK_BITS) | mask)
            # builds and calls of value v (the new build needs a v left in the hand too)
            for v in range(cv, 11):
                if held[v] - (v == cv) <= 0 or (short and short != [v]):
                    continue
                merged = v in builds
                code = (CODE_BUILD_MERGE if merged else CODE_BUILD) + v - 1
                masks: set[int] = set()
                own_groups = sums[v - cv] if v > cv else [0]
                for t in own_groups:
                    for u in unions_of(v):
                        if not t & u:
                            masks.add(t | u)
                for mask in masks:
                    if mask or merged:
                        add(((base + code) << MASK_BITS) | mask)
            # raises of single builds
            for u, b in builds.items():
                w = u + cv
                if w > 10 or held[w] - (w == cv) <= 0 or b.multiple:
                    continue
                if short and [x for x in short if x != u] not in ([], [w]):
                    continue
                merged = w in builds
                code = (CODE_RAISE_MERGE if merged else CODE_RAISE) + u - 1
                add((base + code) << MASK_BITS)
        # trails
        if not self.trail_banned(seat):
            for card in hand_sorted:
                if not options.trail_when_capture_possible and card in can_capture:
                    continue
                if keeps and any(held[v] - (v == VALUES[card]) <= 0 for v in owned):
                    continue
                add((card * NUM_CODES + CODE_TRAIL) << MASK_BITS)
        if not keyed:
            # Only reachable when the owner's duties are off: a player who may not trail
            # and has nothing else to do may trail after all (documented decision).
            keyed = [(c * NUM_CODES + CODE_TRAIL) << MASK_BITS for c in hand_sorted]
        keyed.sort()
        return {k: _INTERNED.get(k) or _intern(k) for k in keyed}

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, and what is allowed instead."""
        seat = self._current
        hand = self.hands[seat]
        text = format_action(action)
        if action.card not in hand:
            mine = " ".join(card_names(sorted(hand)))
            return f"{text!r}: {card_name(action.card)} is not in your hand ({mine})"
        legal = self._legal if self._legal is not None else self._generate()
        with_card = [format_action(a) for a in legal.values() if a.card == action.card]
        hint = (f"; legal with {card_name(action.card)}: {', '.join(with_card[:8])}"
                + (" ..." if len(with_card) > 8 else "")) if with_card else (
            f"; {card_name(action.card)} has no legal move now")
        missing = [c for c in getattr(action, "loose", ()) if c not in self.loose]
        if missing:
            return f"{text!r}: {card_name(missing[0])} is not a loose card on the table{hint}"
        options = self.game.options
        held = Counter(VALUES[c] for c in hand)
        held[VALUES[action.card]] -= 1
        if type(action) is Capture:
            if action.build and action.build not in self.builds:
                return f"{text!r}: there is no build of {action.build} on the table{hint}"
            if is_face(action.card):
                return (f"{text!r}: a face card takes only a loose card of its own rank"
                        + (", all of them at once" if options.face_cards_capture_all
                           else ", one at a time") + hint)
            if action.build and action.build != VALUES[action.card]:
                return (f"{text!r}: a build of {action.build} is taken only by a "
                        f"{action.build}{hint}")
            if not action.loose or can_partition(list(action.loose), VALUES[action.card]):
                bare = self._duty_breach(action)
                if bare:
                    return (f"{text!r}: you must keep a card of value {bare} to take your "
                            f"build of {bare}{hint}")
            return (f"{text!r}: the cards taken must form groups that each add up to "
                    f"{VALUES[action.card]}{hint}")
        if type(action) is Build:
            if is_face(action.card):
                return f"{text!r}: face cards never enter builds{hint}"
            if held[action.value] <= 0:
                return (f"{text!r}: to build {action.value} you must keep another card of "
                        f"value {action.value} in your hand{hint}")
            if action.raised:
                b = self.builds.get(action.raised)
                if b is None:
                    return f"{text!r}: there is no build of {action.raised} to raise{hint}"
                if b.multiple:
                    return f"{text!r}: a multiple build can never be raised{hint}"
            if (action.value in self.builds) != action.merged:
                return (f"{text!r}: the build of {action.value} on the table must join a new "
                        f"build of {action.value}{hint}" if action.value in self.builds else
                        f"{text!r}: there is no build of {action.value} to join{hint}")
            bare = self._duty_breach(action)
            if bare:
                return (f"{text!r}: you must keep a card of value {bare} to take your "
                        f"build of {bare}{hint}")
            return f"{text!r}: the cards must form groups that each add up to {action.value}{hint}"
        if self.trail_banned(seat):
            return (f"{text!r}: you may not trail while your build from your last turn stands"
                    if options.trail_ban == "next_turn" else
                    f"{text!r}: you may not trail while you own a build") + hint
        bare = self._duty_breach(action)
        if bare:
            return (f"{text!r}: you must keep a card of value {bare} to take your "
                    f"build of {bare}{hint}")
        if not options.trail_when_capture_possible:
            return f"{text!r}: a card that can capture may not be trailed{hint}"
        return f"{text!r} is not legal now{hint}"

    def _duty_breach(self, action: Action) -> int:
        """A value of a build the mover would own after ``action`` without a card of it
        left in the hand (option ``owner_keeps_capture_card``), or 0."""
        if not self.game.options.owner_keeps_capture_card:
            return 0
        seat = self._current
        owned = {v for v, b in self.builds.items() if b.owner == seat}
        if type(action) is Capture and action.build:
            owned.discard(action.build)
        elif type(action) is Build:
            owned.discard(action.raised)
            owned.add(action.value)
        left = Counter(VALUES[c] for c in self.hands[seat])
        left[VALUES[action.card]] -= 1
        return next((v for v in sorted(owned) if left[v] <= 0), 0)

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
        deck = list(DECK)
        deal_rng(self.seed, self.pack).shuffle(deck)
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
            self._legal = {}
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


def trail_banned(rule: str, builds: dict[int, BuildUnit], seat: int, last_turn: int) -> bool:
    """Whether option ``trail_ban`` = ``rule`` forbids ``seat`` to trail."""
    mine = [b for b in builds.values() if b.owner == seat]
    if rule == "while_build_stands":
        return bool(mine)
    return any(b.turn == last_turn for b in mine)


def _most(counts: list[int]) -> int:
    """The side with strictly the most, or -1 on a tie."""
    top = max(counts)
    leaders = [s for s, c in enumerate(counts) if c == top]
    return leaders[0] if len(leaders) == 1 else -1


def score_pack(captured: list[list[int]], sweeps: list[int], sides: int,
               side_of: Any) -> dict[str, list[int]]:
    """Points per side for each scoring item of a finished pack, and their ``total``."""
    cards = [0] * sides
    spades = [0] * sides
    items = {k: [0] * sides for k in (*SCORE_ITEMS, "total")}
    for seat, pile in enumerate(captured):
        side = side_of(seat)
        cards[side] += len(pile)
        for c in pile:
            if suit_of(c) == SPADES:
                spades[side] += 1
            if c == BIG_CASINO:
                items["big_casino"][side] += 2
            elif c == LITTLE_CASINO:
                items["little_casino"][side] += 1
            if rank_of(c) == 1:
                items["aces"][side] += 1
        items["sweeps"][side] += sweeps[seat]
    if (s := _most(cards)) >= 0:
        items["cards"][s] = 3
    if (s := _most(spades)) >= 0:
        items["spades"][s] = 1
    for s in range(sides):
        items["total"][s] = sum(items[k][s] for k in SCORE_ITEMS)
    return items


def count_out_order(captured: list[list[int]], sweeps: list[int], plays: list[PlayRecord],
                    sides: int, side_of: Any) -> list[tuple[int, int]]:
    """``(side, points)`` in counting-out order: cards, spades, casinos, aces, sweeps."""
    items = score_pack(captured, sweeps, sides, side_of)
    out: list[tuple[int, int]] = []
    for kind in ("cards", "spades", "big_casino", "little_casino"):
        out.extend((s, p) for s, p in enumerate(items[kind]) if p)
    holder = {c: side_of(seat) for seat, pile in enumerate(captured) for c in pile}
    for ace in range(4):  # aces in suit order: clubs, diamonds, hearts, spades
        if ace in holder:
            out.append((holder[ace], 1))
    out.extend((side_of(p.seat), 1) for p in plays if p.sweep)
    return out


def describe_table(loose: list[int], builds: dict[int, BuildUnit]) -> str:
    """A compact table text: ``3c 4d [8: 2h 6c by 0]``."""
    parts = card_names(loose)
    for v in sorted(builds):
        b = builds[v]
        parts.append(f"[{v}{'*' if b.multiple else ''}: {' '.join(card_names(b.cards))} "
                     f"by {b.owner}]")
    return " ".join(parts) if parts else "(empty)"
