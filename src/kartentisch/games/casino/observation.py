"""What one seat may know in Casino, and worlds consistent with it.

Public: the table (loose cards and builds with their cards, value and owner), every play of
the pack (captures happen face up, so each captured pile's contents are known), the number
of cards in each hand and in the rest of the pack, sweeps, scores and past packs' points.
Private: one's own hand. Hidden: the other hands and the pack's order. A spectator (seat
``None``) sees the public part only: no hand at all.

Plays reveal something about hidden hands: whoever builds a value must hold another card of
it. :func:`holding_constraints` derives, for every other seat, the values it must still
hold, and :func:`sample_world` deals the unseen cards so that these hold.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from kartentisch.core.errors import InvalidPositionError
from kartentisch.core.protocol import OBSERVATION_FORMAT
from kartentisch.games.casino.cards import DECK, VALUES, card_name, card_names
from kartentisch.games.casino.state import OVER, CasinoState
from kartentisch.games.casino.table import BuildUnit, PlayRecord


@dataclass(frozen=True, slots=True)
class CasinoObservation:
    """One seat's view of a Casino game (``seat`` None: a spectator's). Cards are ints."""

    seat: int | None
    players: int
    current_player: int
    phase: str
    pack: int
    """Packs finished before this one."""
    dealer: int
    turn: int
    """Plays made so far in the game."""
    hand: tuple[int, ...]
    """The viewer's own hand, ascending (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    deck_size: int
    """Cards left in the pack, not yet dealt."""
    loose: tuple[int, ...]
    builds: tuple[BuildUnit, ...]
    """Builds on the table, by value."""
    captured: tuple[tuple[int, ...], ...]
    """Each seat's captured cards this pack, in the order taken."""
    sweeps: tuple[int, ...]
    last_capturer: int
    last_turn: tuple[int, ...]
    plays: tuple[PlayRecord, ...]
    """The pack's plays so far, in order."""
    scores: tuple[int, ...]
    """Points per side."""
    pack_results: tuple[dict[str, list[int]], ...]
    winners: tuple[int, ...]

    def table_items(self) -> list[int | BuildUnit]:
        """The table in its canonical, labelled order (as ``CasinoState.table_items``)."""
        return [*self.loose, *self.builds]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary with card names (``docs/positions-casino.md``)."""
        return {
            "format": OBSERVATION_FORMAT,
            "game": "casino",
            "seat": self.seat,
            "players": self.players,
            "current_player": self.current_player,
            "phase": self.phase,
            "pack": self.pack,
            "dealer": self.dealer,
            "turn": self.turn,
            "hand": None if self.seat is None else card_names(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "deck_size": self.deck_size,
            "table": {
                "loose": card_names(self.loose),
                "builds": [{"value": b.value, "cards": card_names(b.cards), "owner": b.owner,
                            "multiple": b.multiple, "turn": b.turn} for b in self.builds],
            },
            "captured": [card_names(c) for c in self.captured],
            "sweeps": list(self.sweeps),
            "last_capturer": self.last_capturer,
            "last_turn": list(self.last_turn),
            "plays": [play_to_json(p) for p in self.plays],
            "scores": list(self.scores),
            "pack_results": [{k: list(v) for k, v in r.items()} for r in self.pack_results],
            "winners": list(self.winners),
        }


def play_to_json(p: PlayRecord) -> dict[str, Any]:
    """A log entry as JSON."""
    return {"seat": p.seat, "kind": p.kind, "card": None if p.card < 0 else card_name(p.card),
            "cards": card_names(p.cards), "value": p.value, "sweep": p.sweep}


def observe(state: CasinoState, seat: int | None) -> CasinoObservation:
    """The observation of ``seat`` (``None``: a spectator's)."""
    if seat is not None:
        state.game.check_seat(seat)
    return CasinoObservation(
        seat=seat,
        players=state.game.players,
        current_player=state.current_player,
        phase=state.phase,
        pack=state.pack,
        dealer=state.dealer,
        turn=state.turn,
        hand=() if seat is None else tuple(sorted(state.hands[seat])),
        hand_sizes=tuple(len(h) for h in state.hands),
        deck_size=len(state.deck),
        loose=tuple(state.loose),
        builds=tuple(state.builds[v] for v in sorted(state.builds)),
        captured=tuple(tuple(c) for c in state.captured),
        sweeps=tuple(state.sweeps),
        last_capturer=state.last_capturer,
        last_turn=tuple(state.last_turn),
        plays=tuple(state.plays),
        scores=tuple(state.scores),
        pack_results=tuple({k: list(v) for k, v in r.items()} for r in state.pack_results),
        winners=tuple(state.winners),
    )


def unseen_cards(obs: CasinoObservation) -> list[int]:
    """The cards the viewer cannot locate: the other hands and the rest of the pack."""
    seen = set(obs.hand) | set(obs.loose)
    for b in obs.builds:
        seen.update(b.cards)
    for pile in obs.captured:
        seen.update(pile)
    return [c for c in DECK if c not in seen]


def holding_constraints(obs: CasinoObservation) -> dict[int, set[int]]:
    """For each other seat, values it must still hold.

    A seat that built value v held another card of value v afterwards; it still holds one
    unless it has played a card of value v since. (The log restarts every pack, and every
    hand is empty at the end of a pack, so older plays say nothing.)
    """
    need: dict[int, set[int]] = {}
    for i, p in enumerate(obs.plays):
        if p.kind != "build" or p.seat == obs.seat:
            continue
        if any(q.seat == p.seat and VALUES[q.card] == p.value for q in obs.plays[i + 1:]
               if q.card >= 0):
            continue
        need.setdefault(p.seat, set()).add(p.value)
    return need


def _satisfies(hands: list[list[int]], need: dict[int, set[int]]) -> bool:
    for s, values in need.items():
        held = {VALUES[c] for c in hands[s]}
        if not values <= held:
            return False
    return True


def sample_world(game: Any, obs: CasinoObservation, rng: random.Random, *,
                 tries: int = 200) -> CasinoState:
    """A full state that ``obs``'s viewer cannot tell apart from the real one.

    The unseen cards are dealt to the other hands and the pack at random, subject to the
    holding constraints (rejection sampling first, which is uniform over consistent deals;
    after 200 failures each constrained value is placed first, then the rest at random).
    The sampled world's future packs come from a seed drawn from ``rng``. A spectator's
    observation (seat None) has every hand hidden.
    """
    unseen = unseen_cards(obs)
    others = [s for s in range(obs.players) if s != obs.seat]
    slots = sum(obs.hand_sizes[s] for s in others) + obs.deck_size
    if slots != len(unseen):
        raise InvalidPositionError(
            f"observation is inconsistent: {len(unseen)} unseen cards for {slots} hidden places")
    need = holding_constraints(obs)
    hands: list[list[int]] = []
    deck: list[int] = []
    for _ in range(tries):
        pool = unseen.copy()
        rng.shuffle(pool)
        hands, deck = _deal(obs, pool, {})
        if _satisfies(hands, need):
            break
    else:
        pool = unseen.copy()
        rng.shuffle(pool)
        forced: dict[int, list[int]] = {}
        for s in sorted(need):
            for v in sorted(need[s]):
                options = [c for c in pool if VALUES[c] == v]
                if not options or len(forced.get(s, [])) >= obs.hand_sizes[s]:
                    raise InvalidPositionError(
                        f"observation is inconsistent: seat {s} must hold a card of value {v}")
                pick = options[rng.randrange(len(options))]
                pool.remove(pick)
                forced.setdefault(s, []).append(pick)
        hands, deck = _deal(obs, pool, forced)
    state = CasinoState(game, rng.getrandbits(53), deal_now=False)  # a valid seed
    state.pack = obs.pack
    state.dealer = obs.dealer
    state.deck = deck
    state.hands = hands
    state.loose = list(obs.loose)
    state.builds = {b.value: b for b in obs.builds}
    state.captured = [list(c) for c in obs.captured]
    state.sweeps = list(obs.sweeps)
    state.last_capturer = obs.last_capturer
    state.turn = obs.turn
    state.last_turn = list(obs.last_turn)
    state.plays = list(obs.plays)
    state.scores = list(obs.scores)
    state.pack_results = [{k: list(v) for k, v in r.items()} for r in obs.pack_results]
    state.phase = obs.phase
    state.winners = list(obs.winners)
    state._current = obs.current_player if obs.phase != OVER else 0
    state._legal = None
    return state


def _deal(obs: CasinoObservation, pool: list[int],
          forced: dict[int, list[int]]) -> tuple[list[list[int]], list[int]]:
    hands: list[list[int]] = []
    for s in range(obs.players):
        if s == obs.seat:
            hands.append(list(obs.hand))
            continue
        hand = list(forced.get(s, []))
        while len(hand) < obs.hand_sizes[s]:
            hand.append(pool.pop())
        hands.append(sorted(hand))
    return hands, pool
