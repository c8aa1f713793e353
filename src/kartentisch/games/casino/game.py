"""The Casino game description: player counts, options, and the protocol's factories."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from kartentisch.core.errors import (
    AmbiguousActionError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionsError,
)
from kartentisch.core.protocol import Game, GameSpec
from kartentisch.core.reasons import Reasons
from kartentisch.games.casino import actions as acts
from kartentisch.games.casino.cards import card_name, card_names
from kartentisch.games.casino.evaluation import hand_key, win_values
from kartentisch.games.casino.movegen import action_of
from kartentisch.games.casino.observation import CasinoObservation
from kartentisch.games.casino.observation import sample_world as _sample_world
from kartentisch.games.casino.options import CasinoOptions
from kartentisch.games.casino.position import (
    CasinoObservationDocument,
    CasinoPositionDocument,
    state_from_json,
)
from kartentisch.games.casino.reasons import REASONS, move_error
from kartentisch.games.casino.rollout import rollout_action
from kartentisch.games.casino.search import SEARCH_DEFAULTS
from kartentisch.games.casino.state import CasinoState
from kartentisch.games.casino.table import BuildUnit


class Casino(Game[CasinoState, acts.Action, CasinoObservation]):
    """Casino for 2-4 players (four may play in partnerships)."""

    spec: ClassVar[GameSpec] = GameSpec(
        name="casino", title="Casino", min_players=2, max_players=4,
        default_players=2, zero_sum=True, min_utility=-1.0, max_utility=3.0)
    options_type: ClassVar[type[Any]] = CasinoOptions
    options: CasinoOptions
    reasons: ClassVar[Reasons] = REASONS
    position_document: ClassVar[type[CasinoPositionDocument]] = CasinoPositionDocument
    """The type of ``state.to_json()`` documents (``docs/schemas`` is generated from it)."""
    observation_document: ClassVar[type[CasinoObservationDocument]] = CasinoObservationDocument
    """The type of ``state.observation(seat).to_json()`` documents."""
    search_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = SEARCH_DEFAULTS
    """The search bots' default parameters for this game."""

    def validate_options(self) -> None:
        if self.options.partnerships and self.players != 4:
            raise InvalidOptionsError(
                "these options do not go together: option 'partnerships' needs 4 players",
                code="options.bad_combination",
                params={"detail": "partnerships, players != 4"})

    @property
    def sides(self) -> int:
        """How many sides score: the players, or 2 partnerships."""
        return 2 if self.options.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return seat % 2 if self.options.partnerships else seat

    def create_state(self, seed: int) -> CasinoState:
        return CasinoState(self, seed)

    def sample_world(self, observation: CasinoObservation, rng: random.Random) -> CasinoState:
        return _sample_world(self, observation, rng)

    @property
    def num_distinct_actions(self) -> int:
        return acts.NUM_ACTIONS

    def action_to_id(self, action: acts.Action) -> int:
        return acts.action_id(action)

    checked_action_id = staticmethod(acts.action_id)  # type: ignore[assignment]
    """The id of an action; :func:`~.actions.action_id` itself refuses anything that is not a
    Casino action with :class:`InvalidActionError`, so no exception translation (and no extra
    call) is needed on the hot path of ``apply``."""

    def action_from_id(self, action_id: int) -> acts.Action:
        return acts.action_from_id(action_id)

    def format_action(self, action: acts.Action, state: CasinoState | None = None) -> str:
        return acts.format_action(action)

    def format_action_labels(self, action: acts.Action, state: CasinoState) -> str:
        """The notation with table items named by their labels (``7h x ab``)."""
        return format_with_labels(action, state.table_items())

    def parse_action(self, text: str, state: CasinoState) -> acts.Action:
        """Read a move for the player to act in ``state``; labels refer to its table.

        A bare card, or a capture written without items, is completed when the player has
        exactly one such move; otherwise :class:`AmbiguousActionError` lists the choices.
        Every error carries a ``casino.*`` reason code (``docs/casino-actions.md``).
        """
        if type(text) is str and not state.is_terminal():
            # Speed (record replay): the canonical notation is read without a regular
            # expression and checked by its id; anything else, or an illegal move (for its
            # error), goes the general way below.
            quick = acts.parse_canonical(text)
            if quick is not None:
                try:
                    aid = acts.action_id(quick)
                except InvalidActionError:
                    aid = -1
                if aid >= 0 and state.is_legal_id(aid):
                    return action_of(aid)
        parsed = acts.parse_notation(text)
        if state.is_terminal():
            raise GameOverError("the game is over; no more moves", code="action.game_over")
        raw = text.strip()
        seat = state.current_player
        hand = state.hands[seat]
        if parsed.card not in hand:
            raise move_error(IllegalActionError, "casino.not_in_hand", raw,
                             card=card_name(parsed.card), hand=card_names(sorted(hand)))
        if parsed.kind == "trail":
            return self._checked(acts.Trail(parsed.card), state)
        if parsed.kind == "card" or parsed.items is None:
            kind = acts.Capture if parsed.kind == "capture" else None
            choices = [a for a in state.legal_actions() if a.card == parsed.card
                       and (kind is None or isinstance(a, kind))]
            if len(choices) == 1:
                return choices[0]
            if not choices:
                raise move_error(IllegalActionError,
                                 "casino.no_capture" if kind else "casino.no_move", raw,
                                 card=card_name(parsed.card))
            raise AmbiguousActionError(
                f"{raw!r}: {card_name(parsed.card)} can do {len(choices)} things; say which,"
                f" e.g. {acts.format_action(choices[0])}",
                [(acts.format_action(a), a) for a in choices], params={"text": raw})
        loose: list[int] = []
        builds: list[int] = []
        items = state.table_items()
        for kind_ref, ref in parsed.items:
            if kind_ref == "label":
                if ref >= len(items):
                    raise move_error(InvalidActionError, "casino.no_label", raw,
                                     label=chr(ord("a") + ref), count=len(items))
                item = items[ref]
                if isinstance(item, BuildUnit):
                    builds.append(item.value)
                else:
                    loose.append(item)
            elif kind_ref == "card":
                loose.append(ref)
            else:
                builds.append(ref)
        if len(set(loose)) != len(loose) or len(set(builds)) != len(builds):
            raise move_error(InvalidActionError, "casino.named_twice", raw)
        loose_t = tuple(sorted(loose))
        action: acts.Action
        if parsed.kind == "capture":
            if len(builds) > 1:
                raise move_error(IllegalActionError, "casino.capture_one_build", raw)
            action = acts.Capture(parsed.card, loose_t, builds[0] if builds else 0)
        else:
            v = parsed.value
            merged = v in builds
            others = [b for b in builds if b != v]
            if len(others) > 1:
                raise move_error(IllegalActionError, "casino.raise_one_build", raw)
            raised = others[0] if others else 0
            if not merged and v in state.builds:
                merged = True  # the build of v standing on the table always joins
            action = acts.Build(parsed.card, v, loose_t, raised, merged)
        return self._checked(action, state)

    @staticmethod
    def _checked(action: acts.Action, state: CasinoState) -> acts.Action:
        # Speed (record replay): one id and a bisection instead of comparing the action with
        # every legal one; an action without an id is refused as before.
        try:
            aid = acts.action_id(action)
        except InvalidActionError:
            raise state.why_illegal(action) from None
        if not state.is_legal_id(aid):
            raise state.why_illegal(action)
        return action_of(aid)  # the shared object, which apply knows by the id it carries

    def state_from_json(self, document: Mapping[str, Any]) -> CasinoState:
        return state_from_json(self, document)

    # ------------------------------------------------------------ search hooks
    def horizon_key(self, state: CasinoState) -> tuple[int, int]:
        """Search playouts stop when new cards are dealt or the pack ends (the hand is over).

        Playouts then stay short and see little of the unknown future deals; the end of the
        hand is scored by :meth:`evaluate`.
        """
        return hand_key(state)

    def evaluate(self, state: CasinoState) -> list[float]:
        """Expected returns estimated from the scores (for search playouts cut short).

        Each side's strength is its score plus the points it can expect from the running
        pack (captured points, and the cards and spades majorities as probabilities, see
        :mod:`kartentisch.games.casino.evaluation`); a side's chance to win is a softmax of
        strength / 4 points.
        """
        return win_values(state)

    def rollout_action(self, state: CasinoState, ids: Sequence[int], rng: random.Random) -> int:
        """The heuristic bot's move on a search world, computed from the state (faster)."""
        return rollout_action(state, ids, rng)


def table_labels(items: Sequence[int | BuildUnit]) -> dict[Any, str]:
    """Labels of table items (in table order): card -> letter, ``("build", v)`` -> letter.

    Items after the 26th have no letter; they keep their canonical names.
    """
    out: dict[Any, str] = {}
    for i, item in enumerate(items):
        if isinstance(item, BuildUnit):
            out[("build", item.value)] = chr(ord("a") + i) if i < 26 else f"[{item.value}]"
        else:
            out[item] = chr(ord("a") + i) if i < 26 else f" {card_name(item)} "
    return out


def format_with_labels(action: acts.Action, items: Sequence[int | BuildUnit]) -> str:
    """``action`` in notation, naming the table ``items`` by their labels.

    >>> from kartentisch.games.casino.cards import parse_card as c
    >>> format_with_labels(acts.Capture(c("7h"), (c("3c"), c("4d"))), [c("3c"), c("4d")])
    '7h x ab'
    """
    labels = table_labels(items)
    card = card_name(action.card)
    if isinstance(action, acts.Trail):
        return f"{card} -"
    names = [labels[c] for c in action.loose]
    if isinstance(action, acts.Capture):
        if action.build:
            names.append(labels[("build", action.build)])
        return f"{card} x {_join(names)}"
    if action.raised:
        names.append(labels[("build", action.raised)])
    if action.merged:
        names.append(labels[("build", action.value)])
    return f"{card} + {_join(names)} = {action.value}"


def _join(labels: list[str]) -> str:
    return " ".join("".join(labels).split())
