"""Krumme20 as numbers: one seat's observation of double-sided cards, and its actions.

Everything is read from :class:`~kartentisch.games.krumme20.observation.K20Observation`
alone, so a side the viewer does not know is encoded as *unknown*, never by its number.
Seats are relative (block ``r`` is the seat ``r`` places after the viewer) and padded to six,
so every player count (2-6) has the same shape.

A card is 16 values: present, up side 0-5 (6) or unknown, down side 0-5 (6) or unknown,
lying crosswise. Observation vector (``float32``, :data:`OBS_SIZE` = 753):

=========  =====  ==================================================================
offset     size   content
=========  =====  ==================================================================
0          480    personal cards: 6 seats x 5 positions x 16
480        96     per seat (16 each): score pile size / 20, points / 40 (capped),
                  crosswise cards / 10, fouls / 5, sits out, to move, whose turn,
                  the known up sides on its score pile by number (6) / 10, present,
                  2 spare
576        48     the top cards of the Ablagestapel, the Abwurfstapel and the draw pile
624        3      the sizes of those three piles / 54
627        24     known sides by number: the Ablagestapel's up (6) and down (6) / 20,
                  everything visible (piles, personal cards, score piles) up (6) and
                  down (6) / 30
651        34     target / 30, total / 30 (capped), total above 20, zeros / 5, this
                  turn's number (-1..5, 7 one-hot), second card done, draws left / 5,
                  phase (12 one-hot), queue length / 5, final turns left / 6, the end
                  is near, turns / 200 (capped), players 2-6 (5 one-hot)
685        8      the team variant (zero without teams): each seat (relative, 6) is
                  in my team (myself included), my team's points / 80, the best
                  other team's points / 80 (capped)
693        60     spare (zero; room for later fields)
=========  =====  ==================================================================

The team fields took 8 of the 68 spare cells, so the size and every other cell
are unchanged: weights trained on the base game load and read a base game as before.

Actions: one token per action, the game's own id (205). Action features: the id one-hot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from kartentisch.games.krumme20.actions import ACTIONS, MAX_HAND, NUM_ACTIONS, format_action
from kartentisch.games.krumme20.cards import DECK_SIZE
from kartentisch.games.krumme20.state import PHASES
from kartentisch.games.krumme20.teams import team_of, team_seats
from kartentisch.rl.encodings.base import Encoding, Field, Vector, layout
from kartentisch.rl.fast import k20_bytes

SEATS: Final = 6
CARD: Final = 16
HANDS: Final = 0
SEAT_INFO: Final = HANDS + SEATS * MAX_HAND * CARD
SEAT_STRIDE: Final = 16
TOPS: Final = SEAT_INFO + SEATS * SEAT_STRIDE
SIZES: Final = TOPS + 3 * CARD
SIDES: Final = SIZES + 3
SCALARS: Final = SIDES + 24
TEAM: Final = SCALARS + 34
"""The team fields (see the module docstring)."""
OBS_SIZE: Final = SIDES + 126
_PHASE_INDEX: Final = {p: i for i, p in enumerate(PHASES)}

_CARD_DOC: Final = ("16 values a card: present, up side 0-5 or unknown (7), down side 0-5 or"
                    " unknown (7), lying crosswise")
FIELDS: Final = layout(
    ("personal_cards", (SEATS, MAX_HAND, CARD),
     "personal cards: relative seat x position x card; " + _CARD_DOC),
    ("seats", (SEATS, SEAT_STRIDE),
     "per relative seat: score pile size / 20, points / 40 (capped), crosswise cards / 10,"
     " fouls / 5, sits out, to move, whose turn, known up sides on its score pile by"
     " number 0-5 (6) / 10, present, 2 spare"),
    ("pile_tops", (3, CARD),
     "the top cards of the Ablagestapel, the Abwurfstapel and the draw pile; " + _CARD_DOC),
    ("pile_sizes", (3,), "the sizes of those three piles / 54"),
    ("ablage_sides", (2, 6), "known sides on the Ablagestapel: up, down by number / 20"),
    ("visible_sides", (2, 6), "every visible known side (piles, personal cards, score"
     " piles): up, down by number / 30"),
    ("target", (1,), "target / 30"),
    ("total", (1,), "total / 30 (capped)"),
    ("over_twenty", (1,), "the total is above 20"),
    ("zeros", (1,), "zeros / 5"),
    ("turn_value", (7,), "this turn's number -1..5, one-hot"),
    ("second_done", (1,), "the second card is done"),
    ("draws_left", (1,), "draws left / 5"),
    ("phase", (len(PHASES),), "the turn's phase, one-hot"),
    ("queue", (1,), "queue length / 5"),
    ("final_turns", (1,), "final turns left / 6"),
    ("end_near", (1,), "the end is near"),
    ("turns", (1,), "turns / 200 (capped)"),
    ("players", (5,), "player count 2-6, one-hot"),
    ("team_mates", (SEATS,), "the team variant (zero without teams): each relative seat is in"
     " the viewer's team (the viewer included)"),
    ("team_points", (2,), "the team variant: the viewer's team's points / 80, the best other"
     " team's points / 80 (capped)"),
    ("spare", (60,), "zero (room for later fields)"),
)
"""The observation vector's fields (:meth:`Krumme20Encoding.fields`)."""
assert FIELDS["seats"].start == SEAT_INFO and FIELDS["pile_tops"].start == TOPS
assert FIELDS["ablage_sides"].start == SIDES and FIELDS["target"].start == SCALARS
assert FIELDS["team_mates"].start == TEAM
assert FIELDS["spare"].stop == OBS_SIZE

# min(k / d, 1.0) for counts k of cards (at most the 54 of the deck), looked up by the fast
# path: the same floats as computing them, without a call per value
_BY10: Final = [min(k / 10.0, 1.0) for k in range(DECK_SIZE + 1)]
_BY20: Final = [min(k / 20.0, 1.0) for k in range(DECK_SIZE + 1)]
_BY30: Final = [min(k / 30.0, 1.0) for k in range(DECK_SIZE + 1)]
_BY54: Final = [min(k / 54.0, 1.0) for k in range(DECK_SIZE + 1)]


def _card(ones: list[int], base: int, view: Any) -> None:
    ones.append(base)
    ones.append(base + 1 + (6 if view.up is None else view.up))
    ones.append(base + 8 + (6 if view.down is None else view.down))
    if view.cross:
        ones.append(base + 15)


def _team_entries(ones: list[int], where: list[int], values: list[float], mates: list[bool],
                  totals: list[int], mine: int) -> None:
    """The team fields: ``mates[r]`` for the seat ``r`` places after the viewer, the
    viewer's team's points (``totals[mine]``) and the best other team's."""
    ones.extend(TEAM + r for r, mate in enumerate(mates) if mate)
    best = max(v for t, v in enumerate(totals) if t != mine)
    where += [TEAM + 6, TEAM + 7]
    values += [min(max(totals[mine], 0) / 80.0, 1.0), min(max(best, 0) / 80.0, 1.0)]


class Krumme20Encoding(Encoding):
    """The Krumme20 encoding described in the module docstring."""

    single_token = True

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.obs_size = OBS_SIZE
        self.num_tokens = NUM_ACTIONS
        self.feature_size = NUM_ACTIONS
        self._players: int = game.players
        self._target: int = game.options.target
        n = game.players
        self._seat_order = [[(me + r) % n for r in range(n)] for me in range(n)]
        teams = team_seats(str(getattr(game.options, "teams", "none")), n)
        self._team: list[int] | None = team_of(game.options.teams, n) if teams else None
        """Each seat's team in the team variant (``None`` without teams)."""
        self._constants = k20_bytes.constants(n, self._target, self._team)

    def fields(self) -> dict[str, Field]:
        return FIELDS

    def token_name(self, token: int) -> str:
        return format_action(ACTIONS[token])

    def tokens(self, observation: Any, action_id: int) -> tuple[int, ...]:
        return (action_id,)

    def entries(self, observation: Any, prefix: Sequence[int] = (), offset: int = 0
                ) -> tuple[list[int], list[int], list[float]]:
        obs = observation
        n = obs.players
        me = 0 if obs.seat is None else obs.seat
        ones: list[int] = []
        where: list[int] = []
        values: list[float] = []
        table_up = [0] * 6
        table_down = [0] * 6

        def count(view: Any) -> None:
            if view.up is not None:
                table_up[view.up] += 1
            if view.down is not None:
                table_down[view.down] += 1

        for r in range(n):
            s = (me + r) % n
            for i, view in enumerate(obs.hands[s][:MAX_HAND]):
                _card(ones, HANDS + (r * MAX_HAND + i) * CARD, view)
                count(view)
            base = SEAT_INFO + r * SEAT_STRIDE
            pile = obs.scores[s]
            sides = [0] * 6
            for view in pile:
                count(view)
                if view.up is not None:
                    sides[view.up] += 1
            crosses = sum(1 for v in pile if v.cross)
            where += [base, base + 1, base + 2, base + 3]
            values += [min(len(pile) / 20.0, 1.0), min(max(obs.points[s], 0) / 40.0, 1.0),
                       min(crosses / 10.0, 1.0), min(obs.fouls[s] / 5.0, 1.0)]
            if obs.sitting_out[s]:
                ones.append(base + 4)
            if obs.current_player == s:
                ones.append(base + 5)
            if obs.turn_player == s:
                ones.append(base + 6)
            for k in range(6):
                if sides[k]:
                    where.append(base + 7 + k)
                    values.append(min(sides[k] / 10.0, 1.0))
            ones.append(base + 13)
        abl_up = [0] * 6
        abl_down = [0] * 6
        for view in obs.ablage:
            count(view)
            if view.up is not None:
                abl_up[view.up] += 1
            if view.down is not None:
                abl_down[view.down] += 1
        for view in obs.abwurf:
            count(view)
        for k, pile in enumerate((obs.ablage, obs.abwurf, obs.draw_pile)):
            if pile:
                _card(ones, TOPS + k * CARD, pile[-1])
            where.append(SIZES + k)
            values.append(min(len(pile) / 54.0, 1.0))
        if obs.draw_pile:
            count(obs.draw_pile[-1])
        for k in range(6):
            for base, counts, scale in ((SIDES, abl_up, 20.0), (SIDES + 6, abl_down, 20.0),
                                        (SIDES + 12, table_up, 30.0),
                                        (SIDES + 18, table_down, 30.0)):
                if counts[k]:
                    where.append(base + k)
                    values.append(min(counts[k] / scale, 1.0))
        g = SCALARS
        where += [g, g + 1, g + 3, g + 12, g + 25, g + 28]
        values += [min(obs.target / 30.0, 1.0), min(max(obs.total, 0) / 30.0, 1.0),
                   min(obs.zeros / 5.0, 1.0), min(obs.draws_left / 5.0, 1.0),
                   min(len(obs.queue) / 5.0, 1.0), min(obs.turns / 200.0, 1.0)]
        if obs.total > 20:
            ones.append(g + 2)
        ones.append(g + 4 + min(max(obs.value, -1), 5) + 1)
        if obs.second_done:
            ones.append(g + 11)
        ones.append(g + 13 + _PHASE_INDEX.get(obs.phase, 0))
        if obs.final_turns is not None:
            ones.append(g + 27)
            where.append(g + 26)
            values.append(min(obs.final_turns / 6.0, 1.0))
        ones.append(g + 29 + min(max(n, 2), 6) - 2)
        if obs.teams:
            mine = obs.team_of(me)
            _team_entries(ones, where, values,
                          [obs.team_of((me + r) % n) == mine for r in range(n)],
                          list(obs.team_points), mine)
        if offset:
            ones = [offset + i for i in ones]
            where = [offset + i for i in where]
        return ones, where, values

    def state_entries(self, state: Any, seat: int, prefix: Sequence[int] = (), offset: int = 0
                      ) -> tuple[list[int], list[int], list[float]]:
        """The fast path: :meth:`entries` of ``state.observation(seat)``, read from the
        state. What ``seat`` may know, and all this reads: where every card lies (public),
        and of each card's sides only those whose knowledge mask (``kup``, ``kdown``) holds
        ``seat``'s bit; the score piles' crosswise marks, points and the public turn fields."""
        n = self._players
        me = seat
        bit = 1 << me
        face, back, kup, kdown = state.face, state.back, state.kup, state.kdown
        ones: list[int] = []
        append = ones.append
        where: list[int] = []
        values: list[float] = []
        table_up = [0] * 7  # index 6: unknown, ignored
        table_down = [0] * 7
        hands = state.hands
        scores = state.scores
        cross = state.cross
        sitting_out = state.sitting_out
        fouls = state.fouls
        current = state.current_player
        turn_player = state.turn
        by10 = _BY10
        by20 = _BY20
        for r in range(n):
            s = (me + r) % n
            base = HANDS + r * MAX_HAND * CARD
            for c in hands[s][:MAX_HAND]:
                up = face[c] if kup[c] & bit else 6
                down = back[c] if kdown[c] & bit else 6
                ones += (base, base + 1 + up, base + 8 + down)
                table_up[up] += 1
                table_down[down] += 1
                base += CARD
            base = SEAT_INFO + r * SEAT_STRIDE
            pile = scores[s]
            sides = [0] * 7
            crosses = 0
            points = 0
            for c in pile:
                f = face[c]
                if cross[c]:
                    crosses += 1
                    points += 2 * f
                else:
                    points += f
                up = f if kup[c] & bit else 6
                table_up[up] += 1
                sides[up] += 1
                if kdown[c] & bit:
                    table_down[back[c]] += 1
            where += [base, base + 1, base + 2, base + 3]
            p = max(points, 0) / 40.0
            f = fouls[s] / 5.0
            values += [by20[len(pile)], p if p <= 1.0 else 1.0, by10[crosses],
                       f if f <= 1.0 else 1.0]
            if sitting_out[s]:
                append(base + 4)
            if current == s:
                append(base + 5)
            if turn_player == s:
                append(base + 6)
            for k in range(6):
                if sides[k]:
                    where.append(base + 7 + k)
                    values.append(by10[sides[k]])
            append(base + 13)
        abl_up = [0] * 7
        abl_down = [0] * 7
        for c in state.ablage:
            if kup[c] & bit:
                f = face[c]
                abl_up[f] += 1
                table_up[f] += 1
            if kdown[c] & bit:
                b = back[c]
                abl_down[b] += 1
                table_down[b] += 1
        for c in state.abwurf:
            if kup[c] & bit:
                table_up[face[c]] += 1
            if kdown[c] & bit:
                table_down[back[c]] += 1
        for k, pile in enumerate((state.ablage, state.abwurf, state.draw)):
            if pile:
                c = pile[-1]
                base = TOPS + k * CARD
                up = face[c] if kup[c] & bit else 6
                down = back[c] if kdown[c] & bit else 6
                ones += (base, base + 1 + up, base + 8 + down)
            where.append(SIZES + k)
            values.append(_BY54[len(pile)])
        draw = state.draw
        if draw:
            c = draw[-1]
            table_up[face[c] if kup[c] & bit else 6] += 1
            table_down[back[c] if kdown[c] & bit else 6] += 1
        for k in range(6):
            if abl_up[k]:
                where.append(SIDES + k)
                values.append(by20[abl_up[k]])
            if abl_down[k]:
                where.append(SIDES + 6 + k)
                values.append(by20[abl_down[k]])
            if table_up[k]:
                where.append(SIDES + 12 + k)
                values.append(_BY30[table_up[k]])
            if table_down[k]:
                where.append(SIDES + 18 + k)
                values.append(_BY30[table_down[k]])
        g = SCALARS
        total = state.total
        final_turns = state.final_turns
        where += [g, g + 1, g + 3, g + 12, g + 25, g + 28]
        scalars = [self._target / 30.0, max(total, 0) / 30.0, state.zeros / 5.0,
                   state.draws_left / 5.0, len(state.queue) / 5.0, state.turns / 200.0]
        values += [v if v <= 1.0 else 1.0 for v in scalars]
        if total > 20:
            append(g + 2)
        append(g + 4 + min(max(state.value, -1), 5) + 1)
        if state.second_done:
            append(g + 11)
        append(g + 13 + _PHASE_INDEX.get(state.phase, 0))
        if final_turns is not None:
            append(g + 27)
            where.append(g + 26)
            values.append(min(final_turns / 6.0, 1.0))
        append(g + 29 + min(max(n, 2), 6) - 2)
        team = self._team
        if team is not None:
            mine = team[me]
            _team_entries(ones, where, values, [team[(me + r) % n] == mine for r in range(n)],
                          state.team_scores(), mine)
        if offset:
            ones = [offset + i for i in ones]
            where = [offset + i for i in where]
        return ones, where, values

    def state_bytes(self, state: Any, seat: int) -> bytes:
        """The cheapest path to one vector: ``encode_state(state, seat).tobytes()``, the
        same bytes, joined from precomputed float32 blocks
        (:mod:`kartentisch.rl.fast.k20_bytes`; it reads what :meth:`state_entries` reads)."""
        return k20_bytes.state_bytes(state, seat, self._seat_order[seat], self._constants)

    def byte_builder_args(self) -> tuple[list[list[int]], list[bytes]]:
        return self._seat_order, self._constants

    def action_features(self, observation: Any, action_id: int) -> Vector:
        out = np.zeros(NUM_ACTIONS, dtype=np.float32)
        out[action_id] = 1.0
        return out
