"""What one seat (or a spectator) may know in Krass Kariert, and worlds consistent with it.

Public: reserves, every played card (with declared X values), hand sizes, which hand
positions hold a card that was public when it went in (a reserve card) and its value, the
draw pile's size, chips, the round so far. Private: one's own hand and the card one has just
drawn. Hidden from all: the draw pile's order and everything else in other hands. A
spectator (seat ``None``) sees exactly the public part: no hand, no drawn card.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from kartentisch.core.documents import impossible
from kartentisch.core.protocol import OBSERVATION_FORMAT
from kartentisch.games.krass_kariert.cards import DECK_COUNTS, card_name
from kartentisch.games.krass_kariert.log import Act
from kartentisch.games.krass_kariert.state import KKState


@dataclass(frozen=True, slots=True)
class KKObservation:
    """One seat's view of a Krass Kariert game (``seat`` None: a spectator's). Cards are
    ints (see ``cards``)."""

    seat: int | None
    players: int
    current_player: int
    phase: str
    deal: int
    rounds: int
    chips: tuple[int, ...]
    hand: tuple[int, ...]
    """The viewer's own hand, in order (empty for a spectator)."""
    public_hands: tuple[tuple[int | None, ...], ...]
    """Every hand as the table sees it: a card where it went in face up, else None."""
    reserves: tuple[tuple[int, ...], ...]
    draw_size: int
    discard: tuple[int, ...]
    """The Ablagestapel, oldest first: every card played this deal."""
    in_deal: tuple[bool, ...]
    participants: tuple[int, ...]
    act_index: int
    leader: int
    round_acts: tuple[Act, ...]
    best: int
    best_seat: int
    nachzieh_played: int
    round_winner: int
    draws_left: int
    pending: int | None
    """The card the viewer just drew and must insert (None for everyone else and for a
    spectator)."""
    losers: tuple[int, ...]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards in each hand."""
        return tuple(len(h) for h in self.public_hands)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary with card names (described by
        :class:`position.KKObservationDocument`)."""

        def names(cards: tuple[int, ...]) -> list[str]:
            return [card_name(c) for c in cards]

        return {
            "format": OBSERVATION_FORMAT,
            "game": "krass-kariert",
            "seat": self.seat,
            "players": self.players,
            "current_player": self.current_player,
            "phase": self.phase,
            "deal": self.deal,
            "rounds": self.rounds,
            "chips": list(self.chips),
            "hand": names(self.hand),
            "public_hands": [
                [None if c is None else card_name(c) for c in h] for h in self.public_hands
            ],
            "reserves": [names(r) for r in self.reserves],
            "draw_size": self.draw_size,
            "discard": names(self.discard),
            "in_deal": list(self.in_deal),
            "participants": list(self.participants),
            "act_index": self.act_index,
            "leader": self.leader,
            "round": [
                {
                    "seat": a.seat,
                    "kind": a.kind,
                    "cards": names(a.cards),
                    "x_values": list(a.x_values),
                    "strength": a.strength,
                    "position": a.position,
                }
                for a in self.round_acts
            ],
            "best": self.best,
            "best_seat": self.best_seat,
            "nachzieh_played": self.nachzieh_played,
            "round_winner": self.round_winner,
            "draws_left": self.draws_left,
            "pending": None if self.pending is None else card_name(self.pending),
            "losers": list(self.losers),
        }


def observe(state: KKState, seat: int | None) -> KKObservation:
    """The observation of ``seat`` (``None``: a spectator's).

    Raises:
        InvalidSeatError: ``seat`` is neither ``None`` nor a seat of the game.
    """
    if seat is not None:
        state.game.check_seat(seat)
    public = tuple(
        tuple(c if k else None for c, k in zip(h, kn, strict=True))
        for h, kn in zip(state.hands, state.known, strict=True)
    )
    return KKObservation(
        seat=seat,
        players=state.game.players,
        current_player=state.current_player,
        phase=state.phase,
        deal=state.deal,
        rounds=state.rounds,
        chips=tuple(state.chips),
        hand=() if seat is None else tuple(state.hands[seat]),
        public_hands=public,
        reserves=tuple(tuple(r) for r in state.reserves),
        draw_size=len(state.draw_pile),
        discard=tuple(state.discard),
        in_deal=tuple(state.in_deal),
        participants=tuple(state.participants),
        act_index=state.act_index,
        leader=state.leader,
        round_acts=tuple(state.round_acts),
        best=state.best,
        best_seat=state.best_seat,
        nachzieh_played=state.nachzieh_played,
        round_winner=state.round_winner,
        draws_left=state.draws_left,
        pending=state.pending if seat is not None and state.round_winner == seat else None,
        losers=tuple(state.losers),
    )


def unseen_cards(obs: KKObservation) -> list[int]:
    """The cards the viewer cannot locate: other hands' hidden positions and the draw pile."""
    seen: Counter[int] = Counter(obs.hand)
    for s, h in enumerate(obs.public_hands):
        if s != obs.seat:
            seen.update(c for c in h if c is not None)
    for r in obs.reserves:
        seen.update(r)
    seen.update(obs.discard)
    if obs.pending is not None:
        seen[obs.pending] += 1
    missing = DECK_COUNTS - seen
    over = seen - DECK_COUNTS
    if over:
        card = card_name(min(over))
        raise impossible(f"the observation shows more copies of {card} than the deck has",
                         card=card)
    return sorted(missing.elements())


def sample_world(game: Any, obs: KKObservation, rng: random.Random) -> KKState:
    """A full state that ``obs``'s viewer cannot tell apart from the real one.

    Hidden cards are exchangeable in Krass Kariert (no play reveals what a player does not
    hold), so a uniform shuffle of the unseen cards over the hidden places is exact.
    The sampled world's future deals come from a seed drawn from ``rng``.
    """
    unseen = unseen_cards(obs)
    slots = (
        sum(1 for s, h in enumerate(obs.public_hands) if s != obs.seat for c in h if c is None)
        + obs.draw_size
    )
    pending_hidden = obs.phase == "draw" and obs.pending is None
    slots += 1 if pending_hidden else 0
    if slots != len(unseen):
        raise impossible(
            f"the observation has {len(unseen)} unseen cards for {slots} hidden places",
            unseen=len(unseen), places=slots)
    rng.shuffle(unseen)
    # 53 random bits: a valid seed (core.rng.SEED_MAX), drawn as two 32-bit words like the
    # 63 bits drawn before, so the generator's later choices stay the same.
    state = KKState(game, rng.getrandbits(53), deal_now=False)
    state.chips = list(obs.chips)
    state.deal = obs.deal
    state.rounds = obs.rounds
    hands: list[list[int]] = []
    known: list[list[bool]] = []
    for s, h in enumerate(obs.public_hands):
        if s == obs.seat:
            hands.append(list(obs.hand))
        else:
            hands.append([unseen.pop() if c is None else c for c in h])
        known.append([c is not None for c in h])
    state.hands = hands
    state.known = known
    state.reserves = [list(r) for r in obs.reserves]
    state.discard = list(obs.discard)
    state.pending = obs.pending
    if pending_hidden:
        state.pending = unseen.pop()
    state.draw_pile = unseen
    state.in_deal = list(obs.in_deal)
    state.participants = list(obs.participants)
    state.act_index = obs.act_index
    state.leader = obs.leader
    state.round_acts = list(obs.round_acts)
    state.best = obs.best
    state.best_seat = obs.best_seat
    state.nachzieh_played = obs.nachzieh_played
    state.phase = obs.phase
    state.draws_left = obs.draws_left
    state.round_winner = obs.round_winner
    state.losers = list(obs.losers)
    state.to_act = obs.current_player if obs.current_player >= 0 else 0
    return state
