"""What one seat may know in Krumme20, and worlds consistent with it.

Every card's place is public (personal cards, score piles, the Ablagestapel, the
Abwurfstapel and the draw pile are all open to count). A side is shown to a seat only if that
seat knows it: a side that ever faced up where everybody could see it is known to all; with
the option ``peek_own`` an owner also knows the down sides of their own cards. Who knows a
side is public (everybody saw who looked), its number is not. A spectator (seat ``None``)
sees exactly the sides every player knows.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from kartentisch.core.errors import InvalidPositionError
from kartentisch.core.protocol import OBSERVATION_FORMAT
from kartentisch.core.rng import SEED_MAX
from kartentisch.games.krumme20.cards import DECK_SIZE, card_text, pair_counts, pair_key
from kartentisch.games.krumme20.state import OVER, K20State
from kartentisch.games.krumme20.teams import team_seats


def seats_of(mask: int) -> list[int]:
    """The seats in a knowledge bitmask, in order.

    >>> seats_of(0b101)
    [0, 2]
    """
    return [s for s in range(mask.bit_length()) if mask >> s & 1]


class CardView(NamedTuple):
    """One card as a viewer sees it: a side's number, or None when the viewer doesn't know it."""

    up: int | None
    down: int | None
    up_known: int
    """Bitmask of the seats that know the up side."""
    down_known: int
    """Bitmask of the seats that know the down side."""
    cross: bool = False
    """Lies crosswise on a score pile (counts double)."""

    @property
    def text(self) -> str:
        """``up/down`` with ``?`` for an unknown side (``x`` appended when crosswise)."""
        return card_text(self.up, self.down) + ("x" if self.cross else "")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary (the knowledge masks as lists of seats)."""
        return {"up": self.up, "down": self.down, "up_known": seats_of(self.up_known),
                "down_known": seats_of(self.down_known), "cross": self.cross}


Pile = tuple[CardView, ...]


@dataclass(frozen=True, slots=True)
class K20Observation:
    """One seat's view of a Krumme20 game (``seat`` None: a spectator's)."""

    seat: int | None
    players: int
    current_player: int
    turn_player: int
    """Whose turn it is (the current player may differ, e.g. during a foul compensation)."""
    phase: str
    target: int
    total: int
    """The Ablagestapel's running total."""
    zeros: int
    value: int
    """The counting number of this turn's played card (-1 before the play)."""
    second_done: bool
    draws_left: int
    queue: tuple[tuple[str, int], ...]
    hands: tuple[Pile, ...]
    """Every player's personal cards, in order."""
    scores: tuple[Pile, ...]
    """Every player's Punktestapel, bottom first."""
    ablage: Pile
    abwurf: Pile
    draw_pile: Pile
    """The draw pile, bottom first (its top is the last entry)."""
    sitting_out: tuple[bool, ...]
    final_turns: int | None
    turns: int
    fouls: tuple[int, ...]
    points: tuple[int, ...]
    """Every player's current score."""
    teams: tuple[tuple[int, ...], ...] = ()
    """The team variant: the seats of each team, team 0 first (public; ``()`` when
    everybody plays alone)."""
    team_points: tuple[int, ...] = ()
    """The team variant: each team's points, the sum of its members' (``()`` without
    teams)."""

    @property
    def hand(self) -> Pile:
        """The viewer's own personal cards (none for a spectator)."""
        return () if self.seat is None else self.hands[self.seat]

    @property
    def draw_size(self) -> int:
        """Cards left in the draw pile."""
        return len(self.draw_pile)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dictionary (:class:`~.documents.K20ObservationDocument`)."""

        def pile(cards: Pile) -> list[dict[str, Any]]:
            return [c.to_json() for c in cards]

        return {
            "format": OBSERVATION_FORMAT,
            "game": "krumme20",
            "seat": self.seat,
            "players": self.players,
            "current_player": self.current_player,
            "turn_player": self.turn_player,
            "phase": self.phase,
            "target": self.target,
            "total": self.total,
            "zeros": self.zeros,
            "value": self.value,
            "second_done": self.second_done,
            "draws_left": self.draws_left,
            "queue": [list(q) for q in self.queue],
            "hands": [pile(h) for h in self.hands],
            "scores": [pile(s) for s in self.scores],
            "ablage": pile(self.ablage),
            "abwurf": pile(self.abwurf),
            "draw_pile": pile(self.draw_pile),
            "sitting_out": list(self.sitting_out),
            "final_turns": self.final_turns,
            "turns": self.turns,
            "fouls": list(self.fouls),
            "points": list(self.points),
            # the team variant only: a game without teams writes what it always wrote
            **({"teams": [list(t) for t in self.teams], "team_points": list(self.team_points)}
               if self.teams else {}),
        }

    def team_of(self, seat: int) -> int:
        """The team index of ``seat`` (each seat its own team without teams)."""
        for t, seats in enumerate(self.teams):
            if seat in seats:
                return t
        return seat


def observe(state: K20State, seat: int | None) -> K20Observation:
    """The observation of ``seat`` (``None``: a spectator, who sees what everybody knows)."""
    if seat is not None:
        state.game.check_seat(seat)
    face, back, kup, kdown, cross = state.face, state.back, state.kup, state.kdown, state.cross
    teams = team_seats(state.game.options.teams, state.game.players) if state.teamed else ()
    # A side is shown when its mask holds all of ``need``: the seat's bit, or every bit.
    need = state.all_mask if seat is None else 1 << seat

    def view(cards: list[int], crosswise: bool = False) -> Pile:
        return tuple(CardView(face[c] if kup[c] & need == need else None,
                              back[c] if kdown[c] & need == need else None,
                              kup[c], kdown[c], cross[c] if crosswise else False)
                     for c in cards)

    return K20Observation(
        seat=seat,
        players=state.game.players,
        current_player=state.current_player,
        turn_player=state.turn,
        phase=state.phase,
        target=state.game.options.target,
        total=state.total,
        zeros=state.zeros,
        value=state.value,
        second_done=state.second_done,
        draws_left=state.draws_left,
        queue=tuple(state.queue),
        hands=tuple(view(h) for h in state.hands),
        scores=tuple(view(s, True) for s in state.scores),
        ablage=view(state.ablage),
        abwurf=view(state.abwurf),
        draw_pile=view(state.draw),
        sitting_out=tuple(state.sitting_out),
        final_turns=state.final_turns,
        turns=state.turns,
        fouls=tuple(state.fouls),
        points=tuple(state.final_scores()),
        teams=teams,
        team_points=tuple(state.team_scores()) if teams else (),
    )


def _all_cards(obs: K20Observation) -> list[CardView]:
    out: list[CardView] = []
    for h in obs.hands:
        out.extend(h)
    for s in obs.scores:
        out.extend(s)
    out.extend(obs.ablage)
    out.extend(obs.abwurf)
    out.extend(obs.draw_pile)
    return out


def _max_flow_feasible(need: dict[int, int], remaining: Counter[tuple[int, int]]) -> bool:
    """Can every card with one known side ``v`` (``need[v]`` of them) get a pair holding v?

    A small bipartite flow: known numbers on one side, remaining pair types on the other.
    """
    pairs = [p for p, k in remaining.items() if k > 0]
    cap = {p: remaining[p] for p in pairs}
    assigned: dict[tuple[int, int], list[int]] = {p: [] for p in pairs}

    def augment(v: int, seen: set[tuple[int, int]]) -> bool:
        for p in pairs:
            if v not in p or p in seen:
                continue
            seen.add(p)
            if cap[p] > 0:
                cap[p] -= 1
                assigned[p].append(v)
                return True
            for k, u in enumerate(assigned[p]):
                if augment(u, seen):
                    assigned[p][k] = v
                    return True
        return False

    for v, count in need.items():
        for _ in range(count):
            if not augment(v, set()):
                return False
    return True


def sample_world(game: Any, obs: K20Observation, rng: random.Random) -> K20State:
    """A full state that ``obs``'s viewer cannot tell apart from the real one.

    Sides the viewer knows are kept. Cards with one known side get a remaining pair type
    holding that number (chosen at random, weighted by how many such cards remain, and
    checked to leave a consistent completion); cards with no known side get the rest in a
    random order and orientation. Knowledge masks, places and the turn's steps are copied.

    Every such world has the observation's current step: whether a step is skipped depends
    on public knowledge only (see ``K20State._legal_now``), so no world has to be rejected;
    when another player is to decide, the world may offer them ``pass`` alone.
    """
    return _sample_once(game, obs, rng)


def _sample_once(game: Any, obs: K20Observation, rng: random.Random) -> K20State:
    """One draw of :func:`sample_world` without the check of the current step."""
    cards = _all_cards(obs)
    if len(cards) != DECK_SIZE:
        raise InvalidPositionError(f"observation shows {len(cards)} cards; the game has 54")
    remaining = pair_counts(game.options.deck)
    partial: list[int] = []
    unknown: list[int] = []
    for k, c in enumerate(cards):
        if c.up is not None and c.down is not None:
            key = pair_key(c.up, c.down)
            if remaining[key] <= 0:
                raise InvalidPositionError(f"observation shows more {card_text(*key)} cards "
                                           "than the deck has")
            remaining[key] -= 1
        elif c.up is None and c.down is None:
            unknown.append(k)
        else:
            partial.append(k)
    values: list[tuple[int, int]] = [(c.up or 0, c.down or 0) for c in cards]
    need: Counter[int] = Counter()
    for k in partial:
        c = cards[k]
        need[c.up if c.up is not None else c.down or 0] += 1
    if not _max_flow_feasible(dict(need), remaining):
        raise InvalidPositionError("observation is inconsistent with the deck's composition")
    order = partial.copy()
    rng.shuffle(order)
    for k in order:
        c = cards[k]
        known = c.up if c.up is not None else c.down or 0
        need[known] -= 1
        candidates = [p for p in sorted(remaining) if remaining[p] > 0 and known in p]
        while True:
            weights = [remaining[p] for p in candidates]
            pick = rng.choices(range(len(candidates)), weights)[0]
            p = candidates[pick]
            remaining[p] -= 1
            if _max_flow_feasible(dict(need), remaining):
                break
            remaining[p] += 1
            del candidates[pick]
        other = p[1] if p[0] == known else p[0]
        values[k] = (known, other) if c.up is not None else (other, known)
    rest = list(remaining.elements())
    rng.shuffle(rest)
    for k, (a, b) in zip(unknown, rest, strict=True):
        values[k] = (a, b) if rng.getrandbits(1) else (b, a)

    state = K20State(game, rng.randint(0, SEED_MAX), deal_now=False)
    next_id = 0

    def place(pile: Pile) -> list[int]:
        nonlocal next_id
        ids = []
        for c in pile:
            state.face[next_id], state.back[next_id] = values[next_id]
            state.kup[next_id] = c.up_known
            state.kdown[next_id] = c.down_known
            state.cross[next_id] = c.cross
            ids.append(next_id)
            next_id += 1
        return ids

    state.hands = [place(h) for h in obs.hands]
    state.scores = [place(s) for s in obs.scores]
    state.ablage = place(obs.ablage)
    state.abwurf = place(obs.abwurf)
    state.draw = place(obs.draw_pile)
    state.total = obs.total
    state.zeros = obs.zeros
    state.turn = obs.turn_player
    state.phase = obs.phase
    state._current = obs.current_player
    state.value = obs.value
    state.second_done = obs.second_done
    state.draws_left = obs.draws_left
    state.queue = list(obs.queue)
    state.sitting_out = list(obs.sitting_out)
    state.final_turns = obs.final_turns
    state.turns = obs.turns
    state.fouls = list(obs.fouls)
    every = state.all_mask
    state.secrets = game.options.peek_own or any(
        m not in (0, every) for m in (*state.kup, *state.kdown))
    state._legal = () if obs.phase == OVER else None
    return state
